/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Tabs only ever show web pages: http and https, plus the blank page a new
 * tab starts with. Anything else (file:, javascript:, data:, custom schemes)
 * fails with TW_BROWSER_ERROR_DENIED, and text that is not a URL at all with
 * TW_BROWSER_ERROR_INVALID_ARGUMENT. */
gboolean  tw_address_check_url  (const char  *url,
                                 GError     **error);

/* Turns what a person typed into an address bar into a URL a tab may load:
 * "example.com/a" becomes https://example.com/a, while local development
 * hosts ("localhost:8000", "127.0.0.1", "[::1]:3000", "app.localhost") and
 * hosts with an explicit port get http://. Returns NULL with an error for
 * text that is not a web address or uses another scheme. */
char     *tw_address_normalize  (const char  *text,
                                 GError     **error);

G_END_DECLS
