/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit-web-process-extension.h>

G_BEGIN_DECLS

/* browser_route for the loads the page world cannot answer
 * (tw-extension-routes.c). */
void tw_extension_routes_init         (void);
void tw_extension_routes_page_created (WebKitWebPage *page);

G_END_DECLS
