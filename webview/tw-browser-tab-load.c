/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

#include "tw-error.h"
#include "tw-load-watch.h"
#include "tw-tab-emulation.h"

/* Following the page: loads, history and title as WebKit reports them,
 * the navigation a command waits for, and a page that crashed or is stuck. */

/* WebKit reports load failures in several domains; tools speak only in
 * browser error codes, so this is the one place that translates them. */
static GError *
load_error_to_browser_error (TwBrowserTab *self,
                             const char   *uri,
                             const GError *error)
{
  /* The content filter of browser_emulate's offline blocks it. */
  if (error->domain == WEBKIT_POLICY_ERROR && tw_tab_emulation_is_offline (self->view))
    return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NAVIGATION_FAILED,
                        "could not load %s: tab %s is offline (browser_emulate offline: false brings "
                        "it back)", uri, self->id);

  if (g_error_matches (error, WEBKIT_POLICY_ERROR,
                       WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE) ||
      g_error_matches (error, WEBKIT_POLICY_ERROR,
                       WEBKIT_POLICY_ERROR_CANNOT_SHOW_MIME_TYPE))
    return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                        "%s is a download, not a page; tabs do not save downloads", uri);

  if (error->domain == G_TLS_ERROR)
    return g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED, error->message);

  if (error->domain == WEBKIT_POLICY_ERROR)
    return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                        "%s was blocked: %s", uri, error->message);

  if (g_error_matches (error, WEBKIT_NETWORK_ERROR, WEBKIT_NETWORK_ERROR_UNKNOWN_PROTOCOL))
    return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                        "%s uses a scheme tabs cannot open", uri);

  /* Refused connections, unknown hosts, resets: the server may simply not
   * be up yet, so the code says it is worth retrying. */
  return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NAVIGATION_FAILED,
                      "could not load %s: %s", uri, error->message);
}

/* Waiting for navigations: the command's load watch (tw-load-watch.c)
 * follows the load it started, and the page it ends on is the result. */

static void
command_load_ended_cb (TwLoadWatch *watch,
                       TwLoadEnd    end,
                       gpointer     user_data)
{
  GTask *task = user_data;
  TwBrowserTab *self = g_task_get_source_object (task);

  g_assert (self->active == task);

  if (end == TW_LOAD_END_FAILED)
    {
      _tw_browser_tab_finish_command (self, task, NULL,
                                      load_error_to_browser_error (self, tw_load_watch_get_failing_uri (watch),
                                                                   tw_load_watch_get_error (watch)));
      return;
    }

  /* Loaded, or no load came: a step inside the document (pushState, a
   * fragment) or one the page refused. Either way the page is what it is
   * now. The wait has no deadline of its own: the command's time limit is
   * the queue's. */
  g_assert (end == TW_LOAD_END_LOADED || end == TW_LOAD_END_NONE);
  _tw_browser_tab_finish_with_page (self, task);
}

void
_tw_browser_tab_watch_load (TwBrowserTab *self,
                            GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);

  /* A response that becomes a download into the workspace leaves the tab on
   * its page; the command's result reports the download. */
  g_clear_pointer (&cmd->watch, tw_load_watch_free);
  cmd->watch = tw_load_watch_new (self->view, self->workspace_dir != NULL ? TW_LOAD_WATCH_DOWNLOADS_STAY
                                                                          : TW_LOAD_WATCH_NONE);
}

void
_tw_browser_tab_wait_load (TwBrowserTab *self,
                           GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);

  g_assert (cmd->watch != NULL);
  tw_load_watch_wait (cmd->watch, NOTHING_HAPPENED_DELAY_MS, 0, command_load_ended_cb, task);
}

static void
view_load_changed_cb (TwBrowserTab    *self,
                      WebKitLoadEvent  event,
                      WebKitWebView   *view)
{
  if (event == WEBKIT_LOAD_FINISHED)
    _tw_browser_tab_set_wake_loading (self, FALSE);

  if (event == WEBKIT_LOAD_STARTED)
    _tw_browser_tab_set_load_error (self, NULL, NULL);

  if (event == WEBKIT_LOAD_COMMITTED)
    self->committed_page = TRUE;

  if (event == WEBKIT_LOAD_COMMITTED && webkit_web_view_get_is_web_process_responsive (self->view))
    _tw_browser_tab_set_unresponsive (self, FALSE);

  /* A new web process runs the load: the tab is alive again, even if that
   * page then fails to load. */
  if (event == WEBKIT_LOAD_STARTED && self->crashed)
    {
      _tw_browser_tab_leave_process (self);
      g_clear_pointer (&self->crashed_with, g_free);
      self->crashed = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_CRASHED]);
    }
}

static gboolean
view_load_failed_cb (TwBrowserTab    *self,
                     WebKitLoadEvent  event,
                     const char      *failing_uri,
                     GError          *error,
                     WebKitWebView   *view)
{
  gboolean cancelled = g_error_matches (error, WEBKIT_NETWORK_ERROR,
                                        WEBKIT_NETWORK_ERROR_CANCELLED);

  _tw_browser_tab_set_wake_loading (self, FALSE);
  /* A response that became a download into the workspace: no failure. */
  if (self->workspace_dir != NULL &&
      g_error_matches (error, WEBKIT_POLICY_ERROR,
                       WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE))
    cancelled = TRUE;

  /* WebKit's own error page is a load of its own that lands whenever it
   * lands, even in the middle of the next navigation. The tab keeps the
   * failure as state instead and the window shows it. */
  if (!cancelled && event == WEBKIT_LOAD_STARTED)
    _tw_browser_tab_set_load_error (self, failing_uri, error->message);

  return TRUE;
}

static void
update_history (TwBrowserTab *self)
{
  gboolean can_go_back = webkit_web_view_can_go_back (self->view);
  gboolean can_go_forward = webkit_web_view_can_go_forward (self->view);

  if (can_go_back != self->can_go_back)
    {
      self->can_go_back = can_go_back;
      g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_CAN_GO_BACK]);
    }

  if (can_go_forward != self->can_go_forward)
    {
      self->can_go_forward = can_go_forward;
      g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_CAN_GO_FORWARD]);
    }
}

static void
view_notify_uri_cb (TwBrowserTab  *self,
                    GParamSpec    *pspec,
                    WebKitWebView *view)
{
  update_history (self);
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_URI]);
}

static void
view_notify_is_loading_cb (TwBrowserTab  *self,
                           GParamSpec    *pspec,
                           WebKitWebView *view)
{
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_LOADING]);
}

static void
view_notify_title_cb (TwBrowserTab  *self,
                      GParamSpec    *pspec,
                      WebKitWebView *view)
{
  _tw_browser_tab_set_title (self, webkit_web_view_get_title (view));
}

static void
view_notify_progress_cb (TwBrowserTab  *self,
                         GParamSpec    *pspec,
                         WebKitWebView *view)
{
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_PROGRESS]);
}

static void
back_forward_list_changed_cb (TwBrowserTab              *self,
                              WebKitBackForwardListItem *item_added,
                              gpointer                   items_removed,
                              WebKitBackForwardList     *list)
{
  update_history (self);
}

/* A stuck page: a script that never yields (while (true) {}, a stream of
 * alerts) holds its web process, so nothing sent to it ever runs. The
 * person sees the tab marked; calls that time out on it say which tab is
 * stuck and what ends it; browser_reload and browser_navigate end its web
 * process when the page does not answer, as crash recovery does, and load
 * again. */

/* How long reload and navigate wait for the page to answer before they
 * end its web process. A healthy page on a machine under heavy load (or
 * under a sanitizer) can take over two seconds to answer; ending it then
 * would lose a page that was fine. A page that has already left a call
 * unanswered (one timed out on it, and none was answered since) had that
 * call's time: a second more is enough to tell whether it came back. */
#define STUCK_PAGE_PING_MS 5000
#define STUCK_PAGE_KNOWN_PING_MS 1000

static void
view_responsive_changed_cb (TwBrowserTab  *self,
                            GParamSpec    *pspec,
                            WebKitWebView *view)
{
  _tw_browser_tab_set_unresponsive (self, !webkit_web_view_get_is_web_process_responsive (view));
}

/* The web process that reload or navigate ended is no crash: the command
 * goes on and loads in a new one. */
static gboolean
stuck_process_ended (TwBrowserTab                      *self,
                     WebKitWebProcessTerminationReason  reason)
{
  if (!self->ending_stuck || reason != WEBKIT_WEB_PROCESS_TERMINATED_BY_API)
    return FALSE;

  self->ending_stuck = FALSE;
  /* The page loads again in a process of its own; the tabs that shared
   * the one that was ended report it as a crash. */
  _tw_browser_tab_leave_process (self);
  return TRUE;
}

GError *
_tw_browser_tab_explain_if_stuck (TwBrowserTab *self,
                                  GError       *error)
{
  GError *stuck;

  if (error == NULL || !g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT))
    return error;

  if (tw_page_runtime_get_unanswered (self->runtime))
    _tw_browser_tab_set_unresponsive (self, TRUE);
  if (!self->unresponsive)
    return error;

  stuck = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                       "tab %s is not responding: a script on its page never yields (an endless "
                       "loop or a stream of dialogs), so %s. browser_reload or browser_navigate "
                       "ends the stuck page and loads again; browser_close_tab closes the tab",
                       self->id, error->message);
  g_error_free (error);
  return stuck;
}

static void
page_answer_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;

  if (!_tw_browser_tab_command_call_finish (task, object, result, &answer, &error))
    return;

  cmd->alive_checked = TRUE;

  if (answer == NULL && g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT))
    {
      g_autofree char *note = g_strdup_printf ("The page did not answer within %.1f s; its web "
                                               "process was ended so the tab could load again",
                                               cmd->ping_ms / 1000.0);

      g_debug ("Tab %s: %s", self->id, note);
      tw_tab_log_add_note (self->log, note);
      self->ending_stuck = TRUE;
      webkit_web_view_terminate_web_process (self->view);
      _tw_browser_tab_set_unresponsive (self, FALSE);
    }

  _tw_browser_tab_start_command (self, task);
}

/* Before reload or navigate: does the page answer at all? Returns TRUE
 * when the command goes on once it has (page_answer_cb). */
gboolean
_tw_browser_tab_check_page_answers (TwBrowserTab *self,
                                    GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);

  if ((cmd->command != TW_TAB_COMMAND_RELOAD && cmd->command != TW_TAB_COMMAND_NAVIGATE) ||
      cmd->alive_checked || self->crashed)
    return FALSE;

  cmd->ping_ms = self->unresponsive || tw_page_runtime_get_unanswered (self->runtime)
                  ? STUCK_PAGE_KNOWN_PING_MS : STUCK_PAGE_PING_MS;
  _tw_browser_tab_command_call (self, task, "ping", NULL, cmd->ping_ms, page_answer_cb);
  return TRUE;
}

static void
view_web_process_terminated_cb (TwBrowserTab                      *self,
                                WebKitWebProcessTerminationReason  reason,
                                WebKitWebView                     *view)
{
  g_debug ("Web process of tab %s terminated (reason %d)", self->id, reason);

  _tw_browser_tab_set_wake_loading (self, FALSE);

  if (stuck_process_ended (self, reason))
    return;

  _tw_browser_tab_note_process_crash (self);
  if (self->crashed_with != NULL)
    {
      g_autofree char *note = g_strdup_printf ("%s, and with it tabs %s, which shared it",
                                               reason == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT
                                                 ? "The web process ran out of memory and was stopped"
                                                 : "The web process crashed",
                                               self->crashed_with);

      tw_tab_log_add_note (self->log, note);
    }
  else
    tw_tab_log_add_note (self->log,
                         reason == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT
                           ? "The web process ran out of memory and was stopped"
                           : "The web process crashed");

  if (!self->crashed)
    {
      self->crashed = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_CRASHED]);
    }

  if (self->active != NULL)
    _tw_browser_tab_finish_command (self, self->active, NULL, _tw_browser_tab_crashed_error (self));
}

/* The tab follows its view from the start. */
void
_tw_browser_tab_init_load (TwBrowserTab *self)
{
  /* Before the handler below that keeps WebKit's error pages away, which
   * would hide failures from the watches. */
  tw_load_watch_attach (self->view);
  g_signal_connect_object (self->view, "load-changed",
                           G_CALLBACK (view_load_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "load-failed",
                           G_CALLBACK (view_load_failed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "notify::uri",
                           G_CALLBACK (view_notify_uri_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "notify::title",
                           G_CALLBACK (view_notify_title_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "notify::is-loading",
                           G_CALLBACK (view_notify_is_loading_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "notify::estimated-load-progress",
                           G_CALLBACK (view_notify_progress_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "web-process-terminated",
                           G_CALLBACK (view_web_process_terminated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "notify::is-web-process-responsive",
                           G_CALLBACK (view_responsive_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (webkit_web_view_get_back_forward_list (self->view), "changed",
                           G_CALLBACK (back_forward_list_changed_cb), self, G_CONNECT_SWAPPED);
}
