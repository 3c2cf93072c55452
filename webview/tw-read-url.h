/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* browser_read with a url: the page fetched over HTTP without a tab, with
 * the cookies of @session, read as Markdown. It asks for text/markdown
 * first, then tries the .md form of the path, reads an llms.txt or
 * llms-full.txt when @params asks (llms: "txt" or "full": the nearest of
 * the page's directory, up to two above it, and the site's root), and else
 * extracts the main content of the HTML with the page runtime's read.js in
 * a hidden web view of its own (the HTML is parsed, never run).
 *
 * @params: {url, llms?, filter?, outline?, maxChars?, cursor?}. Completes
 * with {url (final), status, contentType, source: "markdown" | "llms.txt" |
 * "llms-full.txt" | "text" | "extracted HTML", note?, text, offset, total,
 * truncated, nextCursor?}. Errors: TW_BROWSER_ERROR_DENIED for a URL that
 * is not http(s), TW_BROWSER_ERROR_INVALID_ARGUMENT for bad options or a
 * response that is not text, TW_BROWSER_ERROR_NAVIGATION_FAILED when no
 * server answered. */
void        tw_read_url_async  (WebKitNetworkSession  *session,
                                JsonObject            *params,
                                GCancellable          *cancellable,
                                GAsyncReadyCallback    callback,
                                gpointer               user_data);
JsonObject *tw_read_url_finish (GAsyncResult          *result,
                                GError               **error);

G_END_DECLS
