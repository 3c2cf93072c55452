/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>
#include <json-glib/json-glib.h>

#include "extension/tw-web-process-extension.h"

G_BEGIN_DECLS

/* The in-page runtime of one web view: the JavaScript modules of
 * webview/runtime/ (loaded from GResource) installed in an isolated script
 * world in every frame, and the C side that calls into them. It owns the
 * ref counter of its tab, so @eN numbers continue across navigations and are
 * never reused for another element while the tab lives.
 *
 * The modules are concatenated into one function, in the order of
 * tw_runtime_modules in meson.build (base.js, dom.js, roles.js, names.js,
 * states.js, refs.js, snapshot.js and api.js first); a new module is added
 * to that list, the one list of them. A module adds a callable function with
 *   Api.register('name', (ctx, args) => value)
 * (value may be a promise; throw Base.error('browser_…', message) for an
 * error the agent should see), and a function that takes a ref finds its
 * element with Refs.resolve(ctx, args.ref) and nothing else.
 *
 * Frames of another origin run their own copy (webview/runtime/frames.js);
 * a call whose ref names one ("@f2e7"), or whose arguments carry
 * "frame": 2, goes to that frame's copy through the main frame's, which
 * the web-process extension lets call into it. */

#define TW_PAGE_RUNTIME_WORLD TW_WEB_EXTENSION_RUNTIME_WORLD

/* How long a runtime call may take before it fails with
 * TW_BROWSER_ERROR_TIMEOUT, e.g. because a page script never yields. */
#define TW_PAGE_RUNTIME_DEFAULT_TIMEOUT_MS 5000

/* Bounds of the snapshot's maxChars option, and its default. */
#define TW_SNAPSHOT_MIN_CHARS     1000
#define TW_SNAPSHOT_MAX_CHARS     1000000
#define TW_SNAPSHOT_DEFAULT_CHARS 40000

#define TW_TYPE_PAGE_RUNTIME (tw_page_runtime_get_type ())
G_DECLARE_FINAL_TYPE (TwPageRuntime, tw_page_runtime, TW, PAGE_RUNTIME, GObject)

/* The number of the frame a ref belongs to: N for "@fNeM", 0 for refs of
 * the main frame and for anything else. */
guint64        tw_page_runtime_ref_frame               (const char           *ref);

/* Installs the runtime into @view's user content manager. Call before the
 * first load. */
TwPageRuntime *tw_page_runtime_new                     (WebKitWebView        *view);

/* The page as an accessibility tree with @eN refs (DESIGN.md §5).
 * @options: {interactive?: bool, ref?: "@eN", maxChars?: int, cursor?: string}.
 * Completes with {url, title, text, truncated: bool, nextCursor?: string};
 * a new snapshot (no cursor) also says {partial, elements, lines, walkMs,
 * printMs}: whether a huge page was cut short by the time budget (the text
 * then ends with a note), how many elements were read, how many lines the
 * whole snapshot has, and where its time went. The page keeps the lines of
 * its last snapshots for cursors, so a cursor dies with its document.
 * Errors: TW_BROWSER_ERROR_STALE_REF for a ref that no longer matches,
 * TW_BROWSER_ERROR_INVALID_ARGUMENT for bad options or an expired cursor,
 * TW_BROWSER_ERROR_NOT_INTERACTABLE for a ref whose element is hidden,
 * TW_BROWSER_ERROR_TIMEOUT when the page does not answer in time. */
void           tw_page_runtime_snapshot_async          (TwPageRuntime        *self,
                                                        JsonObject           *options,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
JsonObject    *tw_page_runtime_snapshot_finish         (TwPageRuntime        *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);

/* Runs the runtime function @function_name (registered in the page with
 * Api.register) with @args in the isolated world of the main frame, within
 * TW_PAGE_RUNTIME_DEFAULT_TIMEOUT_MS. Completes with the function's JSON
 * value. Errors the function throws with Base.error() keep their code;
 * other exceptions become TW_BROWSER_ERROR_INTERNAL, script failures of the
 * call itself TW_BROWSER_ERROR_SCRIPT_ERROR, a page that does not answer in
 * time TW_BROWSER_ERROR_TIMEOUT, a dead web process
 * TW_BROWSER_ERROR_CRASHED. */
void           tw_page_runtime_call_async              (TwPageRuntime        *self,
                                                        const char           *function_name,
                                                        JsonObject           *args,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
/* The same with its own time limit, for functions that wait in the page. */
void           tw_page_runtime_call_with_timeout_async (TwPageRuntime        *self,
                                                        const char           *function_name,
                                                        JsonObject           *args,
                                                        guint                 timeout_ms,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
JsonNode      *tw_page_runtime_call_finish             (TwPageRuntime        *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);
/* The same for a function that answers with an object: the object, or
 * NULL with @error set, TW_BROWSER_ERROR_INTERNAL with the message
 * @no_object_format for a value that is no object. */
JsonObject    *tw_page_runtime_call_finish_object      (TwPageRuntime        *self,
                                                        GAsyncResult         *result,
                                                        GError              **error,
                                                        const char           *no_object_format,
                                                        ...) G_GNUC_PRINTF (4, 5);

/* Checks that @ref ("@e3" or "e3") still names the element the last
 * snapshots printed, with the same role and name. Completes with
 * {ref, role, name, tag, visible, rect: {x, y, width, height}, frameUrl};
 * rect is in CSS pixels of the top-level viewport, across same-origin
 * frames. Errors: TW_BROWSER_ERROR_STALE_REF, TW_BROWSER_ERROR_INVALID_ARGUMENT
 * for text that is no ref. Runtime functions that take a ref check it the
 * same way, with Refs.resolve() in the page. */
void           tw_page_runtime_resolve_ref_async       (TwPageRuntime        *self,
                                                        const char           *ref,
                                                        GCancellable         *cancellable,
                                                        GAsyncReadyCallback   callback,
                                                        gpointer              user_data);
JsonObject    *tw_page_runtime_resolve_ref_finish      (TwPageRuntime        *self,
                                                        GAsyncResult         *result,
                                                        GError              **error);

/* The number the next new ref will get. */
guint64        tw_page_runtime_get_next_ref            (TwPageRuntime        *self);

/* Whether the last call timed out without the page answering (a script on
 * it never yields), until a call is answered or a new document commits. */
gboolean       tw_page_runtime_get_unanswered          (TwPageRuntime        *self);

/* Reads the rectangle {x, y, width, height} the runtime gives in
 * @member of @object (an element's box in CSS pixels of the top-level
 * viewport). FALSE, leaving @rect as it was, when the member is missing or
 * is not four numbers. */
gboolean tw_page_runtime_read_rect (JsonObject      *object,
                                    const char      *member,
                                    graphene_rect_t *rect);

G_END_DECLS
