/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* browser_route: a tab's requests that match a URL pattern answered with a
 * given response, failed, or sent with changed request headers. WebKitGTK
 * 2.50 lets the UI process neither answer nor hold a page's request (the
 * web-process extension's send-request can only change or cancel one, and
 * a URI scheme handler answers for another URL than the page asked), so
 * the page's own world answers: a user script (webview/page-world/routes.js)
 * routes the page's fetch() and XMLHttpRequest, and says which requests it
 * answered through a script message handler. Other loads (documents,
 * images, scripts, style sheets) are only failed, by abort routes, through
 * a content filter of the tab (WebKit does not say which loads it blocked,
 * so those are not counted); the result says so.
 *
 * @params: {url?: glob over the full URL ("*" matches anything), method?,
 * status?, headers?, body?, bodyPath?, abort?, setHeaders?, remove?}. With
 * url: adds a route (fulfill by default, abort: true to fail, setHeaders to
 * continue with changed request headers); with remove: a route's id, or
 * "all"; with neither: lists. Completes with {routes: [{id, url, method?,
 * action, status?, hits, lastUrls}], added?, removed?}. bodyPath is checked
 * with tw_workspace_path_check() and read (at most 10 MB). */
void        tw_tab_routes_apply_async  (WebKitWebView        *view,
                                        const char           *workspace_dir,
                                        JsonObject           *params,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
JsonObject *tw_tab_routes_apply_finish (WebKitWebView        *view,
                                        GAsyncResult         *result,
                                        GError              **error);

/* How many requests @view's routes answered so far, and the ones after
 * the first @since of them ([{route, action, method, url, status?}], the
 * last 50 at most), or NULL when there are none: each tab command reports
 * those answered while it ran. */
guint64     tw_tab_routes_get_answered      (WebKitWebView        *view);
JsonArray  *tw_tab_routes_describe_answered (WebKitWebView        *view,
                                             guint64               since);

G_END_DECLS
