/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The in-page runtime of one web view: the JavaScript modules of
 * webview/runtime/ (loaded from GResource) installed in an isolated script
 * world in every frame, and the C side that calls into them. It owns the
 * ref counter of its tab, so @eN numbers continue across navigations and are
 * never reused for another element while the tab lives. */

#define TW_PAGE_RUNTIME_WORLD "tabwright"

#define TW_TYPE_PAGE_RUNTIME (tw_page_runtime_get_type ())
G_DECLARE_FINAL_TYPE (TwPageRuntime, tw_page_runtime, TW, PAGE_RUNTIME, GObject)

/* Installs the runtime into @view's user content manager. Call before the
 * first load. */
TwPageRuntime *tw_page_runtime_new             (WebKitWebView        *view);

/* The page as an accessibility tree with @eN refs (DESIGN.md §5).
 * @options: {interactive?: bool, ref?: "@eN", maxChars?: int, cursor?: string}.
 * Completes with {url, title, text, truncated: bool, nextCursor?: string}.
 * Errors: TW_BROWSER_ERROR_STALE_REF for a ref that no longer matches,
 * TW_BROWSER_ERROR_TIMEOUT when the page does not answer in time. */
void           tw_page_runtime_snapshot_async  (TwPageRuntime        *self,
                                                JsonObject           *options,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
JsonObject    *tw_page_runtime_snapshot_finish (TwPageRuntime        *self,
                                                GAsyncResult         *result,
                                                GError              **error);

G_END_DECLS
