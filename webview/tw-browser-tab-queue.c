/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

#include "tw-cancellable.h"
#include "tw-error.h"
#include "tw-json.h"
#include "tw-tab-action-private.h"
#include "tw-tab-actions.h"
#include "tw-tab-routes.h"

/* The command queue: commands of one tab run one after the other, in the
 * order they came; each has a time limit, can be cancelled and finishes
 * exactly once, with the dialogs its page opened and the tabs it opened. */

static void start_next_command (TwBrowserTab *self);

static void
tab_command_free (TabCommand *cmd)
{
  g_assert (cmd->timeout_source == 0);
  g_assert (cmd->cancel_watch == NULL);

  g_clear_pointer (&cmd->params, json_object_unref);
  g_clear_pointer (&cmd->new_tabs, g_ptr_array_unref);
  g_clear_pointer (&cmd->action, tw_tab_action_unref);
  g_clear_pointer (&cmd->watch, tw_load_watch_free);
  g_free (cmd->agent_name);
  g_free (cmd->agent_id);
  g_free (cmd);
}

static guint
main_resource_status (TwBrowserTab *self)
{
  WebKitWebResource *resource = webkit_web_view_get_main_resource (self->view);
  WebKitURIResponse *response;

  if (resource == NULL)
    return 0;

  response = webkit_web_resource_get_response (resource);
  if (response == NULL)
    return 0;

  return webkit_uri_response_get_status_code (response);
}

JsonObject *
_tw_browser_tab_build_page_result (TwBrowserTab *self,
                                   const char   *title)
{
  JsonObject *result = json_object_new ();
  guint status = main_resource_status (self);

  json_object_set_string_member (result, "browserId", self->id);
  json_object_set_string_member (result, "url", tw_browser_tab_get_uri (self));
  json_object_set_string_member (result, "title", title ? title : tw_browser_tab_get_title (self));
  if (status > 0)
    json_object_set_int_member (result, "status", status);

  return result;
}

GError *
_tw_browser_tab_crashed_error (TwBrowserTab *self)
{
  /* Tabs of one agent may share a web process: its crash takes them all,
   * and each says which others went with it. */
  if (self->crashed_with != NULL)
    return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED,
                        "the web process of tab %s crashed, and with it tabs %s of the same "
                        "agent, which shared that process; call browser_reload or "
                        "browser_navigate to recover it (and each of those tabs)",
                        self->id, self->crashed_with);

  return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED,
                      "the web process of tab %s crashed; call browser_reload or browser_navigate to recover it",
                      self->id);
}

/* The command queue */

static gboolean
start_next_command_cb (gpointer user_data)
{
  TwBrowserTab *self = user_data;

  self->next_source = 0;
  start_next_command (self);

  return G_SOURCE_REMOVE;
}

static void
update_busy (TwBrowserTab *self)
{
  gboolean busy = self->active != NULL || !g_queue_is_empty (&self->pending);

  if (busy == self->busy)
    return;

  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_BUSY]);

  /* Live while driven, and for the rest delay after. */
  _tw_browser_tab_schedule_rest (self);
}

static void
schedule_next_command (TwBrowserTab *self)
{
  if (self->active != NULL || g_queue_is_empty (&self->pending) || self->next_source != 0)
    return;

  /* From an idle, so that a command never starts inside a WebKit signal
   * emission of the one that just ended. */
  self->next_source = g_idle_add_full (G_PRIORITY_DEFAULT, start_next_command_cb,
                                       g_object_ref (self), g_object_unref);
}

/* Completes @task with @result or @error (both owned). Each command
 * completes exactly once; late events for a finished one are ignored. */
void
_tw_browser_tab_finish_command (TwBrowserTab *self,
                                GTask        *task,
                                JsonObject   *result,
                                GError       *error)
{
  TabCommand *cmd = g_task_get_task_data (task);

  g_assert (!cmd->finished);
  g_assert ((result == NULL) != (error == NULL));

  error = _tw_browser_tab_explain_if_stuck (self, error);
  cmd->finished = TRUE;
  g_clear_handle_id (&cmd->timeout_source, g_source_remove);
  g_clear_pointer (&cmd->watch, tw_load_watch_free);
  g_clear_pointer (&cmd->cancel_watch, tw_cancellable_unwatch);

  if (self->active == task)
    self->active = NULL;
  else
    g_queue_remove (&self->pending, task);

  if (self->handoff.task == task)
    _tw_browser_tab_end_person_ask (self, &self->handoff);
  if (self->annotate.task == task)
    _tw_browser_tab_end_person_ask (self, &self->annotate);
  else if (result != NULL && self->annotation_waiting != NULL)
    json_object_set_object_member (result, "annotation", _tw_browser_tab_take_annotation (self));

  /* The overlay lets go of the element, saying how it went. */
  if (cmd->action != NULL)
    {
      tw_tab_action_finish (cmd->action, error);
      g_signal_emit (self, _tw_browser_tab_signals[ACTION_FINISHED], 0, cmd->action);
    }

  if (error != NULL)
    {
      g_task_return_error (task, error);
    }
  else
    {
      _tw_browser_tab_add_dialogs (self, result, cmd->first_dialog);
      self->n_reported_dialogs = self->n_dialogs;

      /* The requests browser_route answered while the command ran. */
      if (cmd->command != TW_TAB_COMMAND_ROUTE && !json_object_has_member (result, "routed"))
        {
          JsonArray *routed = tw_tab_routes_describe_answered (self->view, cmd->first_routed);

          if (routed != NULL)
            json_object_set_array_member (result, "routed", routed);
        }

      if (cmd->new_tabs != NULL && cmd->new_tabs->len > 0 && tw_tab_actions_handles (cmd->command))
        {
          JsonArray *ids = json_array_new ();

          for (guint i = 0; i < cmd->new_tabs->len; i++)
            json_array_add_string_element (ids, g_ptr_array_index (cmd->new_tabs, i));
          json_object_set_array_member (result, "newTabs", ids);
        }

      g_task_return_pointer (task, result, (GDestroyNotify) json_object_unref);
    }

  g_object_unref (task);

  schedule_next_command (self);
  update_busy (self);
}

/* Calls the runtime function @function of the tab's page for @task's
 * command, within @timeout_ms; @callback gets a new reference to @task and
 * reads the answer with _tw_browser_tab_command_call_finish(). */
void
_tw_browser_tab_command_call (TwBrowserTab        *self,
                              GTask               *task,
                              const char          *function,
                              JsonObject          *args,
                              guint                timeout_ms,
                              GAsyncReadyCallback  callback)
{
  tw_page_runtime_call_with_timeout_async (self->runtime, function, args, timeout_ms,
                                           g_task_get_cancellable (task), callback,
                                           g_object_ref (task));
}

gboolean
_tw_browser_tab_command_call_finish (GTask         *task,
                                     GObject       *runtime,
                                     GAsyncResult  *result,
                                     JsonNode     **answer,
                                     GError       **error)
{
  TabCommand *cmd = g_task_get_task_data (task);

  *answer = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (runtime), result, error);

  /* The command may have timed out, crashed or been cancelled meanwhile. */
  return !cmd->finished;
}

gint64
_tw_browser_tab_command_remaining_ms (TabCommand *cmd)
{
  return (cmd->deadline_us - g_get_monotonic_time ()) / 1000;
}

/* Sets the title the page answered with after its load: the answer of
 * pageState.title (a string) or of actions.settle ({title}). FALSE when
 * @task's command has finished meanwhile. */
static gboolean
take_page_title (GTask        *task,
                 GObject      *runtime,
                 GAsyncResult *result,
                 const char   *failure)
{
  TwBrowserTab *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;
  const char *title = NULL;

  if (!_tw_browser_tab_command_call_finish (task, runtime, result, &answer, &error))
    return FALSE;

  if (answer != NULL && JSON_NODE_HOLDS_VALUE (answer) &&
      json_node_get_value_type (answer) == G_TYPE_STRING)
    title = json_node_get_string (answer);
  else if (answer != NULL && JSON_NODE_HOLDS_OBJECT (answer))
    title = tw_json_get_string (json_node_get_object (answer), "title", NULL);
  else
    g_debug ("Tab %s: %s: %s", self->id, failure, error != NULL ? error->message : "no answer");

  if (title != NULL)
    _tw_browser_tab_set_title (self, title);

  return TRUE;
}

/* The result carries the title just set, or the one the tab had. */
static void
page_title_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TwBrowserTab *self = g_task_get_source_object (task);

  if (take_page_title (task, object, result, "no title after the load"))
    _tw_browser_tab_finish_command (self, task, _tw_browser_tab_build_page_result (self, NULL), NULL);
}

/* A navigation returns once its page has loaded, with the title the
 * document has then: it reaches the UI process on its own schedule,
 * sometimes only after the load has finished, and the isolated world sees
 * the real document.title whatever the page's scripts did to the getter.
 * The settle (the DOM quiet for a moment after the load event and an
 * animation frame, as after an action) waits for the next command that
 * reads the page instead, so that what an app renders after its load event
 * is in that command's answer, while an agent that is thinking between two
 * calls does not wait for it. */
void
_tw_browser_tab_finish_with_page (TwBrowserTab *self,
                                  GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);
  const char *url;
  gint64 remaining_ms;

  g_clear_pointer (&cmd->watch, tw_load_watch_free);
  self->settle_pending = TRUE;

  /* The restored page is there: now the command itself runs. */
  if (cmd->waking)
    {
      cmd->waking = FALSE;
      _tw_browser_tab_run_on_page (self, task);
      return;
    }

  /* WebKit turns loads it refuses outright (restricted ports such as 1, 25
   * or 6000) into the blank page without reporting a failure. */
  url = tw_json_get_string (cmd->params, "url", NULL);
  if (cmd->command == TW_TAB_COMMAND_NAVIGATE && url != NULL &&
      !g_str_equal (url, "about:blank") &&
      g_str_equal (tw_browser_tab_get_uri (self), "about:blank"))
    {
      _tw_browser_tab_finish_command (self, task, NULL,
                                      g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                                   "WebKit refused to load %s; it may use a restricted port",
                                                   url));
      return;
    }

  /* Within the command's one time limit, leaving a second to answer. */
  remaining_ms = _tw_browser_tab_command_remaining_ms (cmd) - 1000;
  _tw_browser_tab_command_call (self, task, "pageState.title", NULL,
                                CLAMP (remaining_ms, 0, TW_TAB_ACTIONS_DEFAULT_SETTLE_MS) + 1000,
                                page_title_cb);
}

static void
page_settled_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;

  if (take_page_title (task, object, result, "the page did not settle after its load"))
    _tw_browser_tab_dispatch_command (g_task_get_source_object (task), task);
}

/* Runs @task's command on the page, once the page has settled after the
 * load a navigation returned at (see _tw_browser_tab_finish_with_page()),
 * if the command reads the page. */
void
_tw_browser_tab_run_on_page (TwBrowserTab *self,
                             GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);
  g_autoptr(JsonObject) args = NULL;
  gint64 remaining_ms;
  gint64 settle_ms;

  if (!self->settle_pending || !_tw_browser_tab_command_reads_page (cmd->command))
    {
      _tw_browser_tab_dispatch_command (self, task);
      return;
    }

  self->settle_pending = FALSE;

  /* Within the command's one time limit, leaving it time of its own. */
  remaining_ms = _tw_browser_tab_command_remaining_ms (cmd) / 2;
  settle_ms = CLAMP (remaining_ms, 0, TW_TAB_ACTIONS_DEFAULT_SETTLE_MS);

  args = json_object_new ();
  json_object_set_int_member (args, "quietMs", MIN (TW_TAB_SETTLE_QUIET_MS, settle_ms));
  json_object_set_int_member (args, "maxMs", settle_ms);
  json_object_set_boolean_member (args, "afterLoad", TRUE);
  _tw_browser_tab_command_call (self, task, "actions.settle", args, settle_ms + 1000,
                                page_settled_cb);
}

static gboolean
command_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);
  guint limit_ms = _tw_browser_tab_command_time_limit (self, cmd->command);
  const char *still_loading = cmd->watch != NULL ? "; it may still be loading" : "";

  cmd->timeout_source = 0;

  if (limit_ms < 1000)
    _tw_browser_tab_finish_command (self, task, NULL,
                                    g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                                                 "the page did not %s within %u ms%s",
                                                 _tw_browser_tab_command_verb (cmd->command), limit_ms, still_loading));
  else
    _tw_browser_tab_finish_command (self, task, NULL,
                                    g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                                                 "the page did not %s within %u s%s",
                                                 _tw_browser_tab_command_verb (cmd->command), limit_ms / 1000, still_loading));

  return G_SOURCE_REMOVE;
}

static void
command_cancelled_cb (gpointer user_data)
{
  GTask *task = user_data;

  _tw_browser_tab_finish_command (g_task_get_source_object (task), task, NULL,
                                  g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                       "the call was cancelled"));
}

void
_tw_browser_tab_start_command (TwBrowserTab *self,
                               GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);
  guint limit_ms;

  cmd->first_dialog = self->n_reported_dialogs;
  cmd->first_routed = tw_tab_routes_get_answered (self->view);

  /* Closing needs no page: neither a live one (a crashed or stuck tab
   * closes too) nor a restored one loaded first. */
  if (cmd->command == TW_TAB_COMMAND_CLOSE_TAB)
    {
      _tw_browser_tab_dispatch_command (self, task);
      return;
    }

  if (self->crashed && cmd->command != TW_TAB_COMMAND_RELOAD &&
      cmd->command != TW_TAB_COMMAND_NAVIGATE)
    {
      _tw_browser_tab_finish_command (self, task, NULL, _tw_browser_tab_crashed_error (self));
      return;
    }

  if (_tw_browser_tab_check_page_answers (self, task))
    return;

  limit_ms = _tw_browser_tab_command_time_limit (self, cmd->command);
  cmd->deadline_us = g_get_monotonic_time () + (gint64) limit_ms * 1000;
  cmd->timeout_source = g_timeout_add (limit_ms, command_timeout_cb, task);

  /* No command ever runs on a resting page: it wakes first, within the
   * command's time limit. */
  if (_tw_browser_tab_wake_for_command (self, task))
    return;

  _tw_browser_tab_continue_command (self, task);
}

void
_tw_browser_tab_continue_command (TwBrowserTab *self,
                                  GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);

  /* A restored tab that nobody used yet loads its page before the command
   * sees it, unless the command loads a page itself. */
  if (self->deferred_uri != NULL && cmd->command != TW_TAB_COMMAND_NAVIGATE)
    {
      g_autofree char *uri = g_steal_pointer (&self->deferred_uri);

      cmd->waking = TRUE;
      _tw_browser_tab_watch_load (self, task);
      webkit_web_view_load_uri (self->view, uri);
      _tw_browser_tab_wait_load (self, task);
      return;
    }

  /* The window woke the tab a moment ago and its page is still on its way:
   * the command sees the page once it is there, not the blank one before. */
  if (self->wake_loading && cmd->command != TW_TAB_COMMAND_NAVIGATE)
    {
      cmd->waking = TRUE;
      _tw_browser_tab_watch_load (self, task);
      tw_load_watch_assume_loading (cmd->watch);
      _tw_browser_tab_wait_load (self, task);
      return;
    }

  _tw_browser_tab_run_on_page (self, task);
}

static void
start_next_command (TwBrowserTab *self)
{
  GTask *task;

  if (self->active != NULL)
    return;

  task = g_queue_pop_head (&self->pending);
  if (task == NULL)
    return;

  self->active = task;
  _tw_browser_tab_start_command (self, task);
}

void
_tw_browser_tab_fail_all_commands (TwBrowserTab *self,
                                   const GError *error)
{
  g_clear_handle_id (&self->next_source, g_source_remove);

  while (self->active != NULL || !g_queue_is_empty (&self->pending))
    {
      GTask *task = self->active ? self->active : g_queue_peek_head (&self->pending);

      _tw_browser_tab_finish_command (self, task, NULL, g_error_copy (error));
    }

  g_clear_handle_id (&self->next_source, g_source_remove);
}

void
tw_browser_tab_run_async (TwBrowserTab        *self,
                          TwTabCommand         command,
                          JsonObject          *params,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  tw_browser_tab_run_as_async (self, command, params, NULL, cancellable, callback, user_data);
}

void
tw_browser_tab_run_as_async (TwBrowserTab        *self,
                             TwTabCommand         command,
                             JsonObject          *params,
                             const TwCaller      *caller,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  TabCommand *cmd;

  g_return_if_fail (TW_IS_BROWSER_TAB (self));
  g_return_if_fail (params != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_browser_tab_run_async);

  cmd = g_new0 (TabCommand, 1);
  cmd->command = command;
  cmd->params = json_object_ref (params);
  if (caller != NULL)
    {
      cmd->agent_name = g_strdup (caller->agent_name != NULL ? caller->agent_name
                                                             : caller->agent_id);
      cmd->agent_id = g_strdup (caller->agent_id);
      cmd->call_id = caller->call_id;
    }
  g_task_set_task_data (task, cmd, (GDestroyNotify) tab_command_free);

  if (self->closed)
    {
      cmd->finished = TRUE;
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                               "tab %s was closed", self->id);
      return;
    }

  /* The one place a paused tab turns agents away: commands that come while
   * it is paused, at once. Pausing ends the ones already queued
   * (tw_browser_tab_set_paused()); the running one goes on to its end. */
  if (self->paused)
    {
      cmd->finished = TRUE;
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                               TW_BROWSER_TAB_PAUSED_MESSAGE, self->id);
      return;
    }

  /* The queue owns a reference until the command finishes. */
  g_queue_push_tail (&self->pending, g_object_ref (task));

  /* Finishing the command ends the watch. */
  cmd->cancel_watch = tw_cancellable_watch (cancellable, command_cancelled_cb, task, NULL);

  schedule_next_command (self);
  update_busy (self);
}

JsonObject *
tw_browser_tab_run_finish (TwBrowserTab  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
