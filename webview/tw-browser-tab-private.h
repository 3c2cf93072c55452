/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-browser-service.h"
#include "tw-browser-tab.h"
#include "tw-page-runtime.h"

G_BEGIN_DECLS

/* How long a command may wait for its effect before failing with
 * browser_timeout. */
#define TW_BROWSER_TAB_DEFAULT_TIMEOUT_MS 30000

TwBrowserTab *tw_browser_tab_new                 (WebKitNetworkSession  *session,
                                                  const char            *owner_id,
                                                  const char            *owner);
/* The same on an ephemeral network session of the tab's own: a private
 * tab. The tabs its pages open share that session. */
TwBrowserTab *tw_browser_tab_new_private         (const char            *owner_id,
                                                  const char            *owner);
/* A private tab of the context named @context_name, on @session, the
 * ephemeral session of that context's other tabs, or on a new one when
 * @session is NULL. */
TwBrowserTab *tw_browser_tab_new_in_context      (WebKitNetworkSession  *session,
                                                  const char            *context_name,
                                                  const char            *owner_id,
                                                  const char            *owner);
/* The same, in the web process of @related_view and its network session:
 * a tab needs no process of its own started when one is already running. */
TwBrowserTab *tw_browser_tab_new_related         (WebKitWebView         *related_view,
                                                  const char            *owner_id,
                                                  const char            *owner);
/* Makes the new tab @self one more tab of @sibling's web process: call
 * right after creating @self related to @sibling's view. A tab that shares
 * its process lets it go only with the last of those tabs. */
void          tw_browser_tab_share_process_with  (TwBrowserTab          *self,
                                                  TwBrowserTab          *sibling);
/* How many open tabs the tab's web process serves, itself included. */
guint         tw_browser_tab_get_process_tabs    (TwBrowserTab          *self);
/* Whether a page has committed in the tab since it opened. */
gboolean      tw_browser_tab_get_committed_page  (TwBrowserTab          *self);
/* The page runtime of the tab's view: for the browser's own parts, never
 * for the window, which sees the typed records of the tab's signals. */
TwPageRuntime *tw_browser_tab_get_runtime        (TwBrowserTab          *self);
void          tw_browser_tab_set_command_timeout (TwBrowserTab          *self,
                                                  guint                  timeout_ms);
/* The folder files may be saved in (browser_screenshot's savePath). */
void          tw_browser_tab_set_workspace_dir   (TwBrowserTab          *self,
                                                  const char            *workspace_dir);

/* Runs one tab command (NAVIGATE, BACK, FORWARD, RELOAD, SNAPSHOT, SCREENSHOT,
 * LOGS, WAIT, RESIZE) with parameters as DESIGN.md describes them. Commands
 * of one tab run one after the other in the order they were issued. Results
 * carry "browserId" and, when the page opened any, the "dialogs" it opened
 * while the command ran. */
void          tw_browser_tab_run_async           (TwBrowserTab          *self,
                                                  TwTabCommand           command,
                                                  JsonObject            *params,
                                                  GCancellable          *cancellable,
                                                  GAsyncReadyCallback    callback,
                                                  gpointer               user_data);
/* The same for a command of an agent's tool call: the tab attributes what
 * it shows to @caller (may be NULL). */
void          tw_browser_tab_run_as_async        (TwBrowserTab          *self,
                                                  TwTabCommand           command,
                                                  JsonObject            *params,
                                                  const TwCaller        *caller,
                                                  GCancellable          *cancellable,
                                                  GAsyncReadyCallback    callback,
                                                  gpointer               user_data);
JsonObject   *tw_browser_tab_run_finish          (TwBrowserTab          *self,
                                                  GAsyncResult          *result,
                                                  GError               **error);

/* Fails every queued command with browser_not_found, stops the page and lets
 * its web process go. The tab answers nothing afterwards. */
void          tw_browser_tab_close               (TwBrowserTab          *self);
/* Ends the commands waiting in the tab's queue with @error; the running one
 * goes on to its end rather than leave the page half done. */
void          tw_browser_tab_end_queued          (TwBrowserTab          *self,
                                                  const GError          *error);
gboolean      tw_browser_tab_is_closed           (TwBrowserTab          *self);

/* A demonstration that ended (the "demonstration-ended" signal, for the
 * browser, which saves it as a flow): its name (NULL: the browser names
 * it), the page it started on, and its steps, each
 * {action, role?, name?, value?, secret?, key?, url?, outcome?: {url,
 * navigated}}; action is click, fill, check, uncheck, select, press,
 * navigate or reload. Discarded: the person threw it away. */
typedef struct
{
  char      *name;
  char      *start_url;
  JsonArray *steps;
  gboolean   discarded;
} TwDemonstration;

void          _tw_browser_demonstration_free     (TwDemonstration       *demonstration);
/* What an agent's waiting browser_demonstration call asks, and who asks;
 * NULL when none waits ("demonstrate-message" notifies). */
void          _tw_browser_tab_set_demonstrate_request (TwBrowserTab     *self,
                                                       const char       *message,
                                                       const char       *agent);

/* {browserId, url, title, loading, private, owner} as browser_list_tabs reports it. */
JsonObject   *tw_browser_tab_describe            (TwBrowserTab          *self);

G_END_DECLS
