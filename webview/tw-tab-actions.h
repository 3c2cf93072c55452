/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>
#include <json-glib/json-glib.h>

#include "tw-browser-service.h"
#include "tw-page-runtime.h"

G_BEGIN_DECLS

/* The interaction commands of one tab (click, fill, type, keypress, hover,
 * select, drag, upload, scroll, evaluate), carried out over its web view and
 * in-page runtime: wait until the element is actionable, act the way a
 * person would, then wait for the effect (a navigation that has loaded, or
 * a page that has gone quiet), all bounded and without blocking the main
 * loop. */

#define TW_TAB_ACTIONS_DEFAULT_ACTIONABLE_MS 5000
#define TW_TAB_ACTIONS_DEFAULT_NAVIGATION_MS 30000
#define TW_TAB_ACTIONS_DEFAULT_SETTLE_MS     1500
/* How long the DOM must stay unchanged for a page to count as settled,
 * after an action or a navigation. */
#define TW_TAB_SETTLE_QUIET_MS               50
#define TW_TAB_ACTIONS_DEFAULT_SCRIPT_MS     30000
/* browser_evaluate results longer than this (as JSON text) are cut. */
#define TW_TAB_ACTIONS_MAX_RESULT_BYTES      (64 * 1024)

/* Told where an action went once the element was ready and the action
 * happened: @answer is what the page runtime answered, with the element's
 * "box" and the "point" acted on, in CSS pixels of the top-level viewport
 * (after scrolling the element into view), and the "element" acted on. */
typedef void (*TwTabActionsActedFunc) (JsonObject *answer,
                                       gpointer    user_data);

typedef struct
{
  /* The folder browser_upload may take files from; NULL allows none. */
  const char *workspace_dir;
  /* How long an element may take to become actionable. */
  guint       actionable_timeout_ms;
  /* When the command must have answered (monotonic time; 0 for no such
   * limit): its one time limit. A load the action started may go on until
   * shortly before it, and the action then answers that the page is still
   * loading. Without it, a load may take TW_TAB_ACTIONS_DEFAULT_NAVIGATION_MS
   * from its start. */
  gint64      deadline_us;
  /* How long to wait at most for the page to go quiet after acting. */
  guint       settle_timeout_ms;
  /* How long a browser_evaluate function may run. */
  guint       script_timeout_ms;
  /* Optional: who wants to know where the action went (the tab, for the
   * overlay that shows it). @acted_destroy frees @acted_data with the run. */
  TwTabActionsActedFunc  acted;
  gpointer               acted_data;
  GDestroyNotify         acted_destroy;
} TwTabActionsOptions;

/* TRUE for the commands tw_tab_actions_run_async() carries out. */
gboolean    tw_tab_actions_handles      (TwTabCommand               command);

/* Runs one interaction command with @params as the tool passed them
 * (mcp/tw-browser-service.h lists them). @options may be NULL, and zero
 * fields take the defaults above. Completes with {url, title, navigated?,
 * loading?, loadError?} plus what the command did (element, value,
 * selected, files, scroll position, result…). The caller adds browserId,
 * dialogs and new tabs. Errors are TW_BROWSER_ERROR codes: STALE_REF,
 * NOT_INTERACTABLE, TIMEOUT, INVALID_ARGUMENT, DENIED (a file outside the
 * workspace), SCRIPT_ERROR (browser_evaluate threw), CRASHED. */
void        tw_tab_actions_run_async    (WebKitWebView             *view,
                                         TwPageRuntime             *runtime,
                                         TwTabCommand               command,
                                         JsonObject                *params,
                                         const TwTabActionsOptions *options,
                                         GCancellable              *cancellable,
                                         GAsyncReadyCallback        callback,
                                         gpointer                   user_data);
JsonObject *tw_tab_actions_run_finish   (WebKitWebView             *view,
                                         GAsyncResult              *result,
                                         GError                   **error);

G_END_DECLS
