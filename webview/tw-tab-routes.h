/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tab-job.h"

G_BEGIN_DECLS

/* browser_route: a tab's requests that match a URL pattern answered with a
 * given response, failed, or sent with changed request headers. WebKitGTK
 * 2.50 lets the UI process neither answer nor hold a page's request, so
 * each kind of load is answered where it can be made to look true:
 *
 * - fetch() and XMLHttpRequest: in the page's own world, by a user script
 *   (webview/page-world/routes.js) which answers with the route's status,
 *   headers, URL and body, filtered as CORS would, and says which requests
 *   it answered through a script message handler.
 * - The main frame's documents: the view loads the route's body with
 *   webkit_web_view_load_alternate_html() (pages; the back-forward list
 *   keeps their URL) or load_bytes() at the document's own URL, so the address
 *   bar, location and the document's origin are those asked for. The tab's
 *   own loads are caught at their navigation policy; the page's own
 *   (links, forms, scripts) by the web-process extension, which stops the
 *   request and tells the tab.
 * - Everything else (images, scripts, style sheets, fonts, media, frames):
 *   the extension's send-request turns the request into one for the
 *   tabwright-route: scheme, which this file serves with the route's
 *   status, headers and body. The page gets the answer, but from another
 *   origin, which the result says.
 *
 * The routes reach the extension through a user script in an isolated
 * world of their own (tw-extension-routes.c), so every web process the
 * tab's documents use has them from the document's start. Abort routes
 * also fail loads through a content filter of the tab. The server never
 * sees an answered request.
 *
 * The job's params: {url?: glob over the full URL ("*" matches anything), method?,
 * status?, headers?, body?, bodyPath?, abort?, setHeaders?, remove?}. With
 * url: adds a route (fulfill by default, abort: true to fail, setHeaders to
 * continue with changed request headers); with remove: a route's id, or
 * "all"; with neither: lists. Completes with {routes: [{id, url, method?,
 * action, status?, hits, lastUrls}], added?, removed?}. bodyPath is checked
 * with tw_workspace_path_check() and read (at most 10 MB). */
void        tw_tab_routes_apply_run         (const TwTabJob       *job,
                                             GTask                *task);

/* How many requests @view's routes answered so far, and the ones after
 * the first @since of them ([{route, action, method, url, status?}], the
 * last 50 at most), or NULL when there are none: each tab command reports
 * those answered while it ran. */
guint64     tw_tab_routes_get_answered      (WebKitWebView        *view);
JsonArray  *tw_tab_routes_describe_answered (WebKitWebView        *view,
                                             guint64               since);

/* Serves the answers of fulfil routes to loads other than fetch() and
 * XMLHttpRequest in @context's pages: see tw-extension-routes.c. */
void        tw_tab_routes_register_scheme   (WebKitWebContext     *context);

G_END_DECLS
