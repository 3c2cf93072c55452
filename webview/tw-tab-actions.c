/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-actions.h"

#include "tw-cancellable.h"
#include "tw-evaluate-script.h"

#include "tw-error.h"
#include "tw-workspace-path.h"

/* An action runs in phases. ACT asks the page runtime to act and, while the
 * element is not actionable yet, asks again on a GLib timer (page timers and
 * animation frames may be throttled or stopped in a background tab). EDIT
 * plays key strokes and WebKit editing commands. CHOOSER waits for the file
 * chooser an upload opened. SETTLE waits for the page to go quiet, and
 * NAVIGATION for a load the action started. Every phase is bounded. */
typedef enum
{
  PHASE_ACT,
  PHASE_EDIT,
  PHASE_CHOOSER,
  PHASE_SETTLE,
  PHASE_RESOURCES,
  PHASE_NAVIGATION,
  PHASE_DONE,
} Phase;

/* How long the DOM must stay unchanged for the page to count as settled. */
#define SETTLE_QUIET_MS 50
/* How long a click on an upload control may take to open a file chooser. */
#define CHOOSER_TIMEOUT_MS 2000
/* Delays between two actionability checks. */
#define RETRY_MOVING_MS 20
#define RETRY_MS        50

typedef struct
{
  GTask          *task;  /* unowned: the task owns the run */
  WebKitWebView  *view;
  TwPageRuntime  *runtime;
  TwTabCommand    command;
  JsonObject     *params;
  char           *workspace_dir;
  guint           actionable_timeout_ms;
  guint           navigation_timeout_ms;
  guint           settle_timeout_ms;
  guint           script_timeout_ms;

  Phase           phase;
  gboolean        acted;
  gint64          started_us;
  JsonObject     *result;
  JsonNode       *previous_box;
  gint64          deadline_us;
  gint64          settle_deadline_us;
  char           *start_uri;
  GCancellable   *step_cancellable;
  GSource        *cancel_watch;
  guint           timer_id;

  /* What the page did meanwhile. */
  gulong          load_changed_id;
  gulong          load_failed_id;
  gulong          resource_id;
  gulong          chooser_id;
  gboolean        loading;       /* a load the action started is under way */
  gboolean        committed;     /* a new document replaced the old one */
  gint64          navigation_deadline_us;
  char           *load_error;
  GHashTable     *pending_resources;

  /* browser_type: the keys still to press. */
  GPtrArray      *keys;
  guint           key_index;

  /* browser_upload. */
  GStrv           files;
  gboolean        chooser_answered;
  GError         *chooser_error;

  /* browser_evaluate. */
  char           *nonce;

  /* Who hears where the action went. */
  TwTabActionsActedFunc acted_func;
  gpointer        acted_data;
  GDestroyNotify  acted_destroy;
} ActionRun;

static void run_settle          (GTask *task);
static void run_next_key        (GTask *task);
static void run_attempt         (GTask *task);
static void run_navigation_wait (GTask *task);

/* Timers hold a reference on the task, so a run waiting on one alone stays
 * alive; ending the run removes them. */
static guint
run_add_timeout (GTask       *task,
                 guint        ms,
                 GSourceFunc  func)
{
  return g_timeout_add_full (G_PRIORITY_DEFAULT, ms, func, g_object_ref (task), g_object_unref);
}

gboolean
tw_tab_actions_handles (TwTabCommand command)
{
  switch (command)
    {
    case TW_TAB_COMMAND_CLICK:
    case TW_TAB_COMMAND_FILL:
    case TW_TAB_COMMAND_TYPE:
    case TW_TAB_COMMAND_KEYPRESS:
    case TW_TAB_COMMAND_HOVER:
    case TW_TAB_COMMAND_SELECT:
    case TW_TAB_COMMAND_DRAG:
    case TW_TAB_COMMAND_UPLOAD:
    case TW_TAB_COMMAND_SCROLL:
    case TW_TAB_COMMAND_EVALUATE:
    case TW_TAB_COMMAND_MOUSE:
      return TRUE;
    default:
      return FALSE;
    }
}

static void
disconnect_resource (gpointer key,
                     gpointer value,
                     gpointer user_data)
{
  g_signal_handlers_disconnect_by_data (key, user_data);
}

/* Lets go of everything that could call back into the run. */
static void
action_run_detach (ActionRun *run)
{
  g_clear_handle_id (&run->timer_id, g_source_remove);
  g_clear_pointer (&run->cancel_watch, tw_cancellable_unwatch);

  if (run->step_cancellable != NULL)
    {
      g_cancellable_cancel (run->step_cancellable);
      g_clear_object (&run->step_cancellable);
    }

  if (run->view != NULL)
    {
      g_clear_signal_handler (&run->load_changed_id, run->view);
      g_clear_signal_handler (&run->load_failed_id, run->view);
      g_clear_signal_handler (&run->resource_id, run->view);
      g_clear_signal_handler (&run->chooser_id, run->view);
    }

  if (run->pending_resources != NULL)
    {
      g_hash_table_foreach (run->pending_resources, disconnect_resource, run->task);
      g_hash_table_remove_all (run->pending_resources);
    }
}

static void
action_run_free (ActionRun *run)
{
  action_run_detach (run);

  g_clear_object (&run->view);
  g_clear_object (&run->runtime);
  g_clear_pointer (&run->params, json_object_unref);
  g_clear_pointer (&run->result, json_object_unref);
  g_clear_pointer (&run->previous_box, json_node_unref);
  g_clear_pointer (&run->pending_resources, g_hash_table_unref);
  g_clear_pointer (&run->keys, g_ptr_array_unref);
  g_clear_pointer (&run->files, g_strfreev);
  g_clear_error (&run->chooser_error);
  g_free (run->workspace_dir);
  g_free (run->start_uri);
  g_free (run->load_error);
  g_free (run->nonce);
  if (run->acted_destroy != NULL)
    run->acted_destroy (run->acted_data);
  g_free (run);
}

static gboolean
run_is_done (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);

  return run->phase == PHASE_DONE;
}

static void
run_fail (GTask  *task,
          GError *error)
{
  ActionRun *run = g_task_get_task_data (task);

  if (run->phase == PHASE_DONE)
    {
      g_error_free (error);
      return;
    }

  run->phase = PHASE_DONE;
  action_run_detach (run);
  g_task_return_error (task, error);
}

/* What was asked, where the result reads better with it: the text typed,
 * the key pressed, the button clicked, and whether a fill came out as
 * given. */
static void
add_request_echo (ActionRun *run)
{
  JsonObject *p = run->params;

  switch (run->command)
    {
    case TW_TAB_COMMAND_TYPE:
      json_object_set_string_member (run->result, "typed", json_object_get_string_member (p, "text"));
      break;

    case TW_TAB_COMMAND_KEYPRESS:
      json_object_set_string_member (run->result, "key", json_object_get_string_member (p, "key"));
      break;

    case TW_TAB_COMMAND_CLICK:
      json_object_set_string_member (run->result, "button",
                                     json_object_get_string_member_with_default (p, "button", "left"));
      if (json_object_get_boolean_member_with_default (p, "doubleClick", FALSE))
        json_object_set_boolean_member (run->result, "doubleClick", TRUE);
      break;

    case TW_TAB_COMMAND_FILL:
      if (json_object_has_member (run->result, "value") &&
          !json_object_has_member (run->result, "selected") &&
          g_strcmp0 (json_object_get_string_member (run->result, "value"),
                     json_object_get_string_member (p, "value")) != 0)
        json_object_set_boolean_member (run->result, "changedByPage", TRUE);
      break;

    default:
      break;
    }
}

static void
run_succeed (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  const char *uri = webkit_web_view_get_uri (run->view);
  const char *title = webkit_web_view_get_title (run->view);

  if (run->phase == PHASE_DONE)
    return;

  run->phase = PHASE_DONE;
  action_run_detach (run);

  g_debug ("Action %s done in %.1f ms", tw_tab_command_to_string (run->command),
           (g_get_monotonic_time () - run->started_us) / 1000.0);

  json_object_set_string_member (run->result, "url", uri != NULL ? uri : "");
  json_object_set_string_member (run->result, "title", title != NULL ? title : "");
  add_request_echo (run);

  if (run->committed || g_strcmp0 (uri, run->start_uri) != 0)
    json_object_set_boolean_member (run->result, "navigated", TRUE);
  if (run->loading)
    json_object_set_boolean_member (run->result, "loading", TRUE);
  if (run->load_error != NULL)
    json_object_set_string_member (run->result, "loadError", run->load_error);

  g_task_return_pointer (task, json_object_ref (run->result), (GDestroyNotify) json_object_unref);
}

/* Watching the page. */

static void
on_load_changed_cb (WebKitWebView   *view,
                    WebKitLoadEvent  event,
                    GTask           *task)
{
  /* Ending a wait drops the timer's reference, which may be the last. */
  g_autoptr(GTask) hold = g_object_ref (task);
  ActionRun *run = g_task_get_task_data (task);

  g_debug ("Action %s: load event %d in phase %d (%s, \"%s\")", tw_tab_command_to_string (run->command),
           event, run->phase, webkit_web_view_get_uri (view), webkit_web_view_get_title (view));

  switch (event)
    {
    case WEBKIT_LOAD_STARTED:
      run->loading = TRUE;
      if (run->navigation_deadline_us == 0)
        run->navigation_deadline_us = g_get_monotonic_time () +
                                      (gint64) run->navigation_timeout_ms * 1000;
      /* The document the settle wait watches is going away: stop watching
       * it and wait for the new one instead. */
      if (run->phase == PHASE_SETTLE || run->phase == PHASE_RESOURCES)
        run_navigation_wait (task);
      break;

    case WEBKIT_LOAD_COMMITTED:
      if (run->loading)
        run->committed = TRUE;
      break;

    case WEBKIT_LOAD_FINISHED:
      if (!run->loading)
        break;
      run->loading = FALSE;
      /* The new page has loaded; let it settle too, as an app renders
       * after its load event (and may redirect again). */
      if (run->phase == PHASE_NAVIGATION)
        {
          g_clear_handle_id (&run->timer_id, g_source_remove);
          run_settle (task);
        }
      break;

    case WEBKIT_LOAD_REDIRECTED:
    default:
      break;
    }
}

static gboolean
on_load_failed_cb (WebKitWebView   *view,
                   WebKitLoadEvent  event,
                   const char      *failing_uri,
                   GError          *error,
                   GTask           *task)
{
  ActionRun *run = g_task_get_task_data (task);

  /* A navigation the page itself stopped (a download, a policy decision)
   * is no failure worth reporting. */
  if (run->loading &&
      !g_error_matches (error, WEBKIT_NETWORK_ERROR, WEBKIT_NETWORK_ERROR_CANCELLED) &&
      !g_error_matches (error, WEBKIT_POLICY_ERROR, WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE))
    {
      g_free (run->load_error);
      run->load_error = g_strdup_printf ("%s: %s", failing_uri, error->message);
    }

  return FALSE;
}

static void
on_resource_finished_cb (WebKitWebResource *resource,
                         GTask             *task)
{
  g_autoptr(GTask) hold = g_object_ref (task);
  ActionRun *run = g_task_get_task_data (task);

  g_signal_handlers_disconnect_by_data (resource, task);
  g_hash_table_remove (run->pending_resources, resource);

  if (run->phase == PHASE_RESOURCES && g_hash_table_size (run->pending_resources) == 0)
    {
      g_clear_handle_id (&run->timer_id, g_source_remove);
      run_settle (task);
    }
}

static void
on_resource_failed_cb (WebKitWebResource *resource,
                       GError            *error,
                       GTask             *task)
{
  on_resource_finished_cb (resource, task);
}

static void
on_resource_load_started_cb (WebKitWebView     *view,
                             WebKitWebResource *resource,
                             WebKitURIRequest  *request,
                             GTask             *task)
{
  ActionRun *run = g_task_get_task_data (task);

  if (run->phase == PHASE_DONE || run->phase == PHASE_NAVIGATION ||
      g_hash_table_contains (run->pending_resources, resource))
    return;

  /* Requests the action started (fetches, XHR, images of new content) are
   * part of its effect: the settle wait lets them finish, within bounds. */
  g_hash_table_add (run->pending_resources, g_object_ref (resource));
  g_signal_connect (resource, "finished", G_CALLBACK (on_resource_finished_cb), task);
  g_signal_connect (resource, "failed", G_CALLBACK (on_resource_failed_cb), task);
}

static void
run_cancelled_cb (gpointer user_data)
{
  run_fail (user_data, g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED, "The call was cancelled"));
}

/* Page calls. */

static JsonObject *
params_copy (JsonObject *params)
{
  JsonObject *copy = json_object_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  json_object_iter_init (&iter, params);
  while (json_object_iter_next (&iter, &name, &node))
    json_object_set_member (copy, name, json_node_copy (node));

  return copy;
}

static void
merge_into_result (ActionRun          *run,
                   JsonObject         *value,
                   const char * const *skip)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  json_object_iter_init (&iter, value);
  while (json_object_iter_next (&iter, &name, &node))
    {
      if (skip != NULL && g_strv_contains (skip, name))
        continue;
      if (JSON_NODE_HOLDS_NULL (node))
        continue;
      json_object_set_member (run->result, name, json_node_copy (node));
    }
}

static const char *
command_function (TwTabCommand command)
{
  switch (command)
    {
    case TW_TAB_COMMAND_CLICK:    return "actions.click";
    case TW_TAB_COMMAND_HOVER:    return "actions.hover";
    case TW_TAB_COMMAND_FILL:     return "actions.fill";
    case TW_TAB_COMMAND_SELECT:   return "actions.select";
    case TW_TAB_COMMAND_DRAG:     return "actions.drag";
    case TW_TAB_COMMAND_SCROLL:   return "actions.scroll";
    case TW_TAB_COMMAND_UPLOAD:   return "actions.upload";
    case TW_TAB_COMMAND_MOUSE:    return "mouse.act";
    case TW_TAB_COMMAND_TYPE:
    case TW_TAB_COMMAND_KEYPRESS: return "keyboard.down";
    default:                      return NULL;
    }
}

/* A page call failed. When the action had started a navigation, the old
 * document simply went away under the call: the action happened, and what
 * remains is to wait for the new page. */
static void
run_page_error (GTask  *task,
                GError *error)
{
  ActionRun *run = g_task_get_task_data (task);

  if ((run->loading || run->committed) &&
      !g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (run->acted)
        {
          g_error_free (error);
          run_navigation_wait (task);
          return;
        }

      /* The page left before anything was done on it: the ref belonged to
       * the document that went away. */
      g_error_free (error);
      run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_STALE_REF,
                                   "The page navigated away before the action could happen; "
                                   "take a new snapshot"));
      return;
    }

  run_fail (task, error);
}

static void
run_editing_commands (ActionRun  *run,
                      JsonObject *answer)
{
  JsonArray *commands;

  if (!json_object_has_member (answer, "commands") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (answer, "commands")))
    return;

  /* WebKit's own editing commands, sent to the focused frame: they fire
   * trusted beforeinput and input events, as typing does. They reach the
   * web process before the next page call, in order. */
  commands = json_object_get_array_member (answer, "commands");
  for (guint i = 0; i < json_array_get_length (commands); i++)
    {
      JsonObject *command = json_array_get_object_element (commands, i);
      const char *name;

      if (command == NULL)
        continue;

      name = json_object_get_string_member_with_default (command, "name", NULL);
      if (name == NULL)
        continue;

      if (json_object_has_member (command, "arg"))
        webkit_web_view_execute_editing_command_with_argument (
          run->view, name, json_object_get_string_member (command, "arg"));
      else
        webkit_web_view_execute_editing_command (run->view, name);
    }
}

static gboolean
retry_cb (gpointer user_data)
{
  GTask *task = user_data;
  ActionRun *run = g_task_get_task_data (task);

  run->timer_id = 0;
  run_attempt (task);

  return G_SOURCE_REMOVE;
}

/* The element is not actionable yet: try again shortly, or give up with
 * what stands in the way once the time is up. */
static void
run_not_ready (GTask      *task,
               JsonObject *answer)
{
  ActionRun *run = g_task_get_task_data (task);
  const char *reason = json_object_get_string_member_with_default (answer, "reason", "");
  const char *message = json_object_get_string_member_with_default (answer, "message",
                                                                    "The element is not actionable");
  const char *code = json_object_get_string_member_with_default (answer, "code", NULL);
  gboolean permanent = json_object_get_boolean_member_with_default (answer, "permanent", FALSE);
  gint64 now = g_get_monotonic_time ();

  if (json_object_has_member (answer, "box"))
    {
      g_clear_pointer (&run->previous_box, json_node_unref);
      run->previous_box = json_node_copy (json_object_get_member (answer, "box"));
    }

  if (permanent)
    {
      run_fail (task, g_error_new_literal (TW_BROWSER_ERROR,
                                           code != NULL ? tw_browser_error_code_from_name (code)
                                                        : TW_BROWSER_ERROR_NOT_INTERACTABLE,
                                           message));
      return;
    }

  if (now >= run->deadline_us)
    {
      TwBrowserError error_code = TW_BROWSER_ERROR_NOT_INTERACTABLE;

      if (code != NULL)
        error_code = tw_browser_error_code_from_name (code);
      else if (g_str_equal (reason, "moving"))
        error_code = TW_BROWSER_ERROR_TIMEOUT;

      run_fail (task, g_error_new (TW_BROWSER_ERROR, error_code, "%s (waited %.1f s)",
                                   message, run->actionable_timeout_ms / 1000.0));
      return;
    }

  run->timer_id = run_add_timeout (task, g_str_equal (reason, "moving") ? RETRY_MOVING_MS : RETRY_MS,
                                   retry_cb);
}

static void run_after_act (GTask *task, JsonObject *answer);

static void
attempt_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;
  JsonObject *answer;

  node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);

  if (run_is_done (task))
    {
      g_clear_error (&error);
      return;
    }

  if (node == NULL)
    {
      run_page_error (task, error);
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                   "The page runtime answered an action with something else"));
      return;
    }

  answer = json_node_get_object (node);
  if (!json_object_get_boolean_member_with_default (answer, "ready", FALSE))
    {
      run_not_ready (task, answer);
      return;
    }

  run_after_act (task, answer);
}

static void
run_attempt (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  g_autoptr(JsonObject) args = params_copy (run->params);
  guint timeout = TW_PAGE_RUNTIME_DEFAULT_TIMEOUT_MS;

  run->phase = PHASE_ACT;

  if (run->previous_box != NULL)
    json_object_set_member (args, "previousBox", json_node_copy (run->previous_box));

  if (run->command == TW_TAB_COMMAND_TYPE)
    {
      /* The first call focuses the field; keys follow one by one. */
      json_object_remove_member (args, "text");
      json_object_set_boolean_member (args, "editable", TRUE);
    }
  else if (run->command == TW_TAB_COMMAND_UPLOAD)
    {
      json_object_remove_member (args, "filePaths");
      json_object_set_int_member (args, "count", g_strv_length (run->files));
    }

  tw_page_runtime_call_with_timeout_async (run->runtime, command_function (run->command), args,
                                           timeout, g_task_get_cancellable (task),
                                           attempt_cb, g_object_ref (task));
}

/* Step calls: key strokes, checks after a fill or an upload. */

typedef void (*StepFunc) (GTask *task, JsonObject *answer);

static void
step_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;
  StepFunc next = g_object_get_data (G_OBJECT (task), "tw-step");

  node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);

  if (run_is_done (task))
    {
      g_clear_error (&error);
      return;
    }

  if (node == NULL)
    {
      run_page_error (task, error);
      return;
    }

  next (task, JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL);
}

static void
run_step (GTask      *task,
          const char *function,
          JsonObject *args,
          StepFunc    next)
{
  ActionRun *run = g_task_get_task_data (task);

  g_object_set_data (G_OBJECT (task), "tw-step", next);
  tw_page_runtime_call_async (run->runtime, function, args, g_task_get_cancellable (task),
                              step_cb, g_object_ref (task));
}

static void
settle_after_step (GTask      *task,
                   JsonObject *answer)
{
  ActionRun *run = g_task_get_task_data (task);
  static const char * const skip[] = { "ready", "commands", NULL };

  if (answer != NULL)
    merge_into_result (run, answer, skip);

  run_settle (task);
}

static void
key_step_done (GTask      *task,
               JsonObject *answer)
{
  ActionRun *run = g_task_get_task_data (task);

  if (answer != NULL)
    {
      run_editing_commands (run, answer);
      if (json_object_get_boolean_member_with_default (answer, "prevented", FALSE))
        json_object_set_boolean_member (run->result, "prevented", TRUE);
    }

  run_next_key (task);
}

static void
run_next_key (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  g_autoptr(JsonObject) args = json_object_new ();

  /* Releasing a key after a navigation started would talk to the new
   * page, which never saw it pressed. */
  if (run->loading || run->committed)
    {
      run_navigation_wait (task);
      return;
    }

  run->phase = PHASE_EDIT;
  run->acted = TRUE;

  if (run->keys == NULL || run->key_index >= run->keys->len)
    {
      run_step (task, "keyboard.up", args, settle_after_step);
      return;
    }

  json_object_set_string_member (args, "key", g_ptr_array_index (run->keys, run->key_index));
  json_object_set_boolean_member (args, "up", TRUE);
  run->key_index++;
  run_step (task, "keyboard.down", args, key_step_done);
}

static void
fill_checked (GTask      *task,
              JsonObject *answer)
{
  settle_after_step (task, answer);
}

/* The file chooser. */

static gboolean
on_run_file_chooser_cb (WebKitWebView            *view,
                        WebKitFileChooserRequest *request,
                        GTask                    *task)
{
  g_autoptr(GTask) hold = g_object_ref (task);
  ActionRun *run = g_task_get_task_data (task);

  if (run->phase == PHASE_DONE)
    return FALSE;

  /* A click that opens a chooser must not leave a file dialog on the
   * person's screen: it is closed, and the result points to
   * browser_upload. */
  if (run->command != TW_TAB_COMMAND_UPLOAD || run->chooser_answered)
    {
      webkit_file_chooser_request_cancel (request);
      json_object_set_boolean_member (run->result, "fileChooser", TRUE);
      return TRUE;
    }

  run->chooser_answered = TRUE;

  if (g_strv_length (run->files) > 1 && !webkit_file_chooser_request_get_select_multiple (request))
    {
      webkit_file_chooser_request_cancel (request);
      run->chooser_error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                        "This file input takes one file, and %u were given",
                                        g_strv_length (run->files));
    }
  else
    {
      webkit_file_chooser_request_select_files (request, (const char * const *) run->files);
    }

  if (run->phase == PHASE_CHOOSER)
    {
      g_clear_handle_id (&run->timer_id, g_source_remove);
      if (run->chooser_error != NULL)
        run_fail (task, g_steal_pointer (&run->chooser_error));
      else
        run_settle (task);
    }

  return TRUE;
}

static gboolean
chooser_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  ActionRun *run = g_task_get_task_data (task);
  JsonObject *element = NULL;
  const char *ref = json_object_get_string_member_with_default (run->params, "ref", "");

  run->timer_id = 0;

  if (json_object_has_member (run->result, "element"))
    element = json_object_get_object_member (run->result, "element");

  run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_INTERACTABLE,
                               "Clicking %s %s \"%s\" opened no file chooser; give the ref of a "
                               "file input, or of the button or label that opens one",
                               ref,
                               element != NULL ? json_object_get_string_member_with_default (element, "role", "") : "",
                               element != NULL ? json_object_get_string_member_with_default (element, "name", "") : ""));

  return G_SOURCE_REMOVE;
}

static void
upload_checked (GTask      *task,
                JsonObject *answer)
{
  ActionRun *run = g_task_get_task_data (task);

  if (answer != NULL && json_object_has_member (answer, "files") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (answer, "files")))
    json_object_set_member (run->result, "files",
                            json_node_copy (json_object_get_member (answer, "files")));

  run_succeed (task);
}

/* After the action itself. */

static void
run_after_act (GTask      *task,
               JsonObject *answer)
{
  ActionRun *run = g_task_get_task_data (task);
  static const char * const skip[] = { "ready", "commands", "point", "box", "hit", NULL };

  run->acted = TRUE;

  if (run->acted_func != NULL)
    run->acted_func (answer, run->acted_data);

  merge_into_result (run, answer, skip);

  switch (run->command)
    {
    case TW_TAB_COMMAND_FILL:
      run_editing_commands (run, answer);
      if (json_object_has_member (answer, "selected") || json_object_has_member (answer, "value"))
        {
          run_settle (task);
        }
      else
        {
          g_autoptr(JsonObject) args = json_object_new ();

          json_object_set_string_member (args, "ref", json_object_get_string_member (run->params, "ref"));
          run->phase = PHASE_EDIT;
          run_step (task, "actions.fillCheck", args, fill_checked);
        }
      break;

    case TW_TAB_COMMAND_TYPE:
      run_next_key (task);
      break;

    case TW_TAB_COMMAND_KEYPRESS:
      run_editing_commands (run, answer);
      if (json_object_get_boolean_member_with_default (answer, "prevented", FALSE))
        json_object_set_boolean_member (run->result, "prevented", TRUE);
      run_next_key (task);
      break;

    case TW_TAB_COMMAND_UPLOAD:
      if (run->chooser_error != NULL)
        {
          run_fail (task, g_steal_pointer (&run->chooser_error));
        }
      else if (run->chooser_answered)
        {
          run_settle (task);
        }
      else
        {
          run->phase = PHASE_CHOOSER;
          run->timer_id = run_add_timeout (task, CHOOSER_TIMEOUT_MS, chooser_timeout_cb);
        }
      break;

    case TW_TAB_COMMAND_CLICK:
    case TW_TAB_COMMAND_HOVER:
    case TW_TAB_COMMAND_SELECT:
    case TW_TAB_COMMAND_DRAG:
    case TW_TAB_COMMAND_SCROLL:
    default:
      run_settle (task);
      break;
    }
}

/* Waiting for the effect. */

/* includeDiff: the lines of the page the action changed, bounded like a
 * short snapshot reply, with a cursor to read on. */
#define DIFF_MAX_CHARS 4000

static gboolean
wants_diff (ActionRun *run)
{
  switch (run->command)
    {
    case TW_TAB_COMMAND_CLICK:
    case TW_TAB_COMMAND_FILL:
    case TW_TAB_COMMAND_TYPE:
    case TW_TAB_COMMAND_KEYPRESS:
    case TW_TAB_COMMAND_SELECT:
    case TW_TAB_COMMAND_DRAG:
    case TW_TAB_COMMAND_SCROLL:
      return json_object_get_boolean_member_with_default (run->params, "includeDiff", FALSE);
    default:
      return FALSE;
    }
}

static void
diff_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ActionRun *run = g_task_get_task_data (task);
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = tw_page_runtime_snapshot_finish (TW_PAGE_RUNTIME (object), result, &error);
  if (run_is_done (task))
    return;

  /* The action has happened either way: a diff that could not be taken is
   * said so, not turned into a failure of the action. */
  if (reply != NULL)
    {
      json_object_set_string_member (run->result, "diff",
                                     json_object_get_string_member_with_default (reply, "text", ""));
      if (json_object_has_member (reply, "nextCursor"))
        json_object_set_string_member (run->result, "diffCursor",
                                       json_object_get_string_member (reply, "nextCursor"));
    }
  else
    {
      json_object_set_string_member (run->result, "diffError", error->message);
    }

  run_succeed (task);
}

static void
run_take_diff (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  g_autoptr(JsonObject) options = json_object_new ();

  json_object_set_boolean_member (options, "diff", TRUE);
  json_object_set_int_member (options, "maxChars", DIFF_MAX_CHARS);
  tw_page_runtime_snapshot_async (run->runtime, options, g_task_get_cancellable (task),
                                  diff_cb, g_object_ref (task));
}

static void
run_finish_settled (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);

  if (run->command == TW_TAB_COMMAND_UPLOAD)
    {
      g_autoptr(JsonObject) args = json_object_new ();

      json_object_set_string_member (args, "ref", json_object_get_string_member (run->params, "ref"));
      run->phase = PHASE_EDIT;
      run_step (task, "actions.uploadCheck", args, upload_checked);
      return;
    }

  if (wants_diff (run))
    {
      run_take_diff (task);
      return;
    }

  run_succeed (task);
}

static gboolean
navigation_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  ActionRun *run = g_task_get_task_data (task);

  /* The action happened; failing now would invite the agent to repeat it.
   * The result says the page is still loading instead. */
  run->timer_id = 0;
  run_succeed (task);

  return G_SOURCE_REMOVE;
}

static void
run_navigation_wait (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  gint64 now = g_get_monotonic_time ();

  if (run->phase == PHASE_DONE || run->phase == PHASE_NAVIGATION)
    return;

  g_clear_handle_id (&run->timer_id, g_source_remove);
  if (run->step_cancellable != NULL)
    {
      g_cancellable_cancel (run->step_cancellable);
      g_clear_object (&run->step_cancellable);
    }

  if (!run->loading)
    {
      run_settle (task);
      return;
    }

  run->phase = PHASE_NAVIGATION;
  if (now >= run->navigation_deadline_us)
    {
      run_succeed (task);
      return;
    }

  run->timer_id = run_add_timeout (task, (run->navigation_deadline_us - now) / 1000 + 1,
                                   navigation_timeout_cb);
}

static gboolean
resources_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  ActionRun *run = g_task_get_task_data (task);

  run->timer_id = 0;
  run_finish_settled (task);

  return G_SOURCE_REMOVE;
}

static void
settle_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ActionRun *run = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  gint64 now = g_get_monotonic_time ();

  node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);

  if (run->phase != PHASE_SETTLE)
    return;

  g_clear_object (&run->step_cancellable);

  if (run->loading)
    {
      run_navigation_wait (task);
      return;
    }

  /* A page that cannot answer (busy, or without the runtime) has had its
   * chance: the action itself succeeded. */
  if (error != NULL)
    g_debug ("The settle wait ended early: %s", error->message);

  if (g_hash_table_size (run->pending_resources) > 0 && now < run->settle_deadline_us)
    {
      run->phase = PHASE_RESOURCES;
      run->timer_id = run_add_timeout (task, (run->settle_deadline_us - now) / 1000 + 1,
                                       resources_timeout_cb);
      return;
    }

  run_finish_settled (task);
}

static void
run_settle (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  g_autoptr(JsonObject) args = json_object_new ();
  gint64 now = g_get_monotonic_time ();
  gint64 remaining_ms;

  if (run->phase == PHASE_DONE)
    return;

  if (run->loading)
    {
      run_navigation_wait (task);
      return;
    }

  if (run->phase != PHASE_RESOURCES)
    run->settle_deadline_us = now + (gint64) run->settle_timeout_ms * 1000;

  remaining_ms = MAX (0, (run->settle_deadline_us - now) / 1000);
  if (remaining_ms < 1)
    {
      run_finish_settled (task);
      return;
    }

  run->phase = PHASE_SETTLE;
  g_clear_object (&run->step_cancellable);
  run->step_cancellable = g_cancellable_new ();

  json_object_set_int_member (args, "quietMs", MIN (SETTLE_QUIET_MS, remaining_ms));
  json_object_set_int_member (args, "maxMs", remaining_ms);
  tw_page_runtime_call_with_timeout_async (run->runtime, "actions.settle", args,
                                           remaining_ms + 1000, run->step_cancellable,
                                           settle_cb, g_object_ref (task));
}

/* browser_evaluate, in the page's own world; its result is written out by
 * the helper of tw-evaluate-script.c, which the page cannot tamper with. */

/* Cuts @text at @max bytes without splitting a UTF-8 character. */
static char *
utf8_cut (const char *text,
          gsize       max)
{
  const char *end = text + max;

  while (end > text && (*end & 0xC0) == 0x80)
    end--;

  return g_strndup (text, end - text);
}

static gboolean
evaluate_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  ActionRun *run = g_task_get_task_data (task);

  run->timer_id = 0;
  run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                               "The function did not finish within %.1f s; it may wait for "
                               "something that never happens, or loop",
                               run->script_timeout_ms / 1000.0));

  return G_SOURCE_REMOVE;
}

static gboolean
evaluate_lost_cb (gpointer user_data)
{
  GTask *task = user_data;
  ActionRun *run = g_task_get_task_data (task);

  run->timer_id = 0;
  run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "The page's answer to the function was lost"));

  return G_SOURCE_REMOVE;
}

/* The helper always answers a string, so WebKit only fails to convert the
 * answer when there was none: the web process died under the call. The
 * tab reports that as browser_crashed when WebKit tells it, right after;
 * should that never come, the call fails after a bounded wait. */
static gboolean
evaluate_answer_lost (GTask        *task,
                      const GError *error)
{
  ActionRun *run = g_task_get_task_data (task);

  if (error->domain != WEBKIT_JAVASCRIPT_ERROR ||
      g_strcmp0 (error->message, "Unsupported result type") != 0)
    return FALSE;

  g_debug ("browser_evaluate lost its answer (%s); waiting for the tab to hear of a crash",
           error->message);
  run->timer_id = run_add_timeout (task, 2000, evaluate_lost_cb);
  return TRUE;
}

static void
evaluate_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ActionRun *run = g_task_get_task_data (task);
  g_autoptr(JSCValue) value = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autofree char *json = NULL;
  JsonObject *answer;
  JsonNode *root;
  JsonNode *value_node;

  value = webkit_web_view_call_async_javascript_function_finish (WEBKIT_WEB_VIEW (object),
                                                                 result, &error);

  if (run_is_done (task))
    return;

  g_clear_handle_id (&run->timer_id, g_source_remove);

  if (value == NULL)
    {
      if ((run->loading || run->committed) && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          json_object_set_null_member (run->result, "result");
          json_object_set_boolean_member (run->result, "truncated", FALSE);
          run_navigation_wait (task);
        }
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        run_fail (task, g_steal_pointer (&error));
      else if (evaluate_answer_lost (task, error))
        return;
      else if (error->domain == WEBKIT_JAVASCRIPT_ERROR)
        run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_SCRIPT_ERROR,
                                     "%s", error->message));
      else
        run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                     "The function could not run: %s", error->message));
      return;
    }

  /* The page serialises its answer itself, keeping the order of object
   * members; jsc_value_to_json() would not. */
  json = jsc_value_is_string (value) ? jsc_value_to_string (value) : jsc_value_to_json (value, 0);
  parser = json_parser_new_immutable ();
  if (json == NULL || !json_parser_load_from_data (parser, json, -1, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                   "The function's result could not be read"));
      return;
    }

  answer = json_node_get_object (root);

  if (json_object_get_boolean_member_with_default (answer, "missing", FALSE))
    {
      run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_STALE_REF,
                                   "%s could not be handed to the function: it left the page; "
                                   "take a new snapshot",
                                   json_object_get_string_member_with_default (run->params, "ref", "")));
      return;
    }

  if (json_object_get_boolean_member_with_default (answer, "threw", FALSE))
    {
      const char *message = json_object_get_string_member_with_default (answer, "message", "an exception");
      const char *where = json_object_get_string_member_with_default (answer, "where", "");

      if (where[0] != '\0' && strstr (message, where) == NULL)
        run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_SCRIPT_ERROR,
                                     "The function threw %s (%s)", message, where));
      else
        run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_SCRIPT_ERROR,
                                     "The function threw %s", message));
      return;
    }

  value_node = json_object_get_member (answer, "value");
  {
    g_autofree char *text = value_node != NULL ? json_to_string (value_node, FALSE) : g_strdup ("null");
    gboolean truncated = json_object_get_boolean_member_with_default (answer, "truncated", FALSE);

    if (strlen (text) > TW_TAB_ACTIONS_MAX_RESULT_BYTES)
      {
        /* Too long to hand back as a value: its JSON text, cut. */
        g_autofree char *cut = utf8_cut (text, TW_TAB_ACTIONS_MAX_RESULT_BYTES);

        json_object_set_string_member (run->result, "result", cut);
        truncated = TRUE;
      }
    else
      {
        json_object_set_member (run->result, "result",
                                value_node != NULL ? json_node_copy (value_node)
                                                   : json_node_new (JSON_NODE_NULL));
      }

    json_object_set_boolean_member (run->result, "truncated", truncated);
    json_object_set_string_member (run->result, "resultType",
                                   json_object_get_string_member_with_default (answer, "type", "undefined"));
  }

  if (run->loading)
    run_navigation_wait (task);
  else
    run_succeed (task);
}

static void
run_evaluate_in_page (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  g_autofree char *body = tw_evaluate_script_build_body (json_object_get_string_member (run->params, "function"));
  GVariantDict dict;

  run->phase = PHASE_ACT;
  run->acted = TRUE;
  g_clear_object (&run->step_cancellable);
  run->step_cancellable = g_cancellable_new ();

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "nonce", "s", run->nonce != NULL ? run->nonce : "");
  g_variant_dict_insert (&dict, "maxBytes", "d", (double) TW_TAB_ACTIONS_MAX_RESULT_BYTES);

  run->timer_id = run_add_timeout (task, run->script_timeout_ms, evaluate_timeout_cb);

  /* A NULL world is the page's own: the function sees the page's globals,
   * as the agent expects. */
  webkit_web_view_call_async_javascript_function (run->view, body, -1,
                                                  g_variant_dict_end (&dict),
                                                  NULL, "tabwright-evaluate.js",
                                                  run->step_cancellable,
                                                  evaluate_done_cb, g_object_ref (task));
}

static void
evaluate_exposed (GTask      *task,
                  JsonObject *answer)
{
  ActionRun *run = g_task_get_task_data (task);

  if (answer != NULL && json_object_has_member (answer, "element"))
    json_object_set_member (run->result, "element",
                            json_node_copy (json_object_get_member (answer, "element")));

  run_evaluate_in_page (task);
}

/* Starting. */

static gboolean
check_string (JsonObject  *params,
              const char  *name,
              gboolean     required,
              gboolean     nonempty,
              GError     **error)
{
  JsonNode *node = json_object_get_member (params, name);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      if (!required)
        return TRUE;
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "missing required argument \"%s\"", name);
      return FALSE;
    }

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING ||
      (nonempty && json_node_get_string (node)[0] == '\0'))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "\"%s\" must be a%s string", name, nonempty ? " non-empty" : "");
      return FALSE;
    }

  return TRUE;
}

static gboolean
check_params (ActionRun  *run,
              GError    **error)
{
  JsonObject *params = run->params;

  switch (run->command)
    {
    case TW_TAB_COMMAND_CLICK:
    case TW_TAB_COMMAND_HOVER:
      return check_string (params, "ref", TRUE, TRUE, error);

    case TW_TAB_COMMAND_FILL:
    case TW_TAB_COMMAND_SELECT:
      return check_string (params, "ref", TRUE, TRUE, error) &&
             check_string (params, "value", TRUE, FALSE, error);

    case TW_TAB_COMMAND_TYPE:
      return check_string (params, "ref", FALSE, TRUE, error) &&
             check_string (params, "text", TRUE, FALSE, error);

    case TW_TAB_COMMAND_KEYPRESS:
      return check_string (params, "ref", FALSE, TRUE, error) &&
             check_string (params, "key", TRUE, TRUE, error);

    case TW_TAB_COMMAND_DRAG:
      return check_string (params, "sourceRef", TRUE, TRUE, error) &&
             check_string (params, "targetRef", TRUE, TRUE, error);

    case TW_TAB_COMMAND_SCROLL:
      {
        const char *axes[] = { "deltaX", "deltaY" };

        if (!check_string (params, "ref", FALSE, TRUE, error))
          return FALSE;
        for (guint i = 0; i < G_N_ELEMENTS (axes); i++)
          {
            JsonNode *node = json_object_get_member (params, axes[i]);

            if (node != NULL && (!JSON_NODE_HOLDS_VALUE (node) ||
                                 (json_node_get_value_type (node) != G_TYPE_DOUBLE &&
                                  json_node_get_value_type (node) != G_TYPE_INT64)))
              {
                g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                             "\"%s\" must be a number", axes[i]);
                return FALSE;
              }
          }
        return TRUE;
      }

    case TW_TAB_COMMAND_UPLOAD:
      {
        JsonNode *node = json_object_get_member (params, "filePaths");
        JsonArray *paths;
        g_autoptr(GPtrArray) resolved = g_ptr_array_new_with_free_func (g_free);

        if (!check_string (params, "ref", TRUE, TRUE, error))
          return FALSE;

        if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node) ||
            json_array_get_length (paths = json_node_get_array (node)) == 0)
          {
            g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                         "\"filePaths\" must be a non-empty list of file paths");
            return FALSE;
          }

        /* Every path is checked before the page sees anything: one path
         * outside the workspace and no file is set at all. */
        for (guint i = 0; i < json_array_get_length (paths); i++)
          {
            JsonNode *element = json_array_get_element (paths, i);
            char *path;

            if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
              {
                g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                             "\"filePaths[%u]\" must be a string", i);
                return FALSE;
              }

            path = tw_workspace_path_check (run->workspace_dir, json_node_get_string (element),
                                            TW_WORKSPACE_PATH_EXISTING_FILE, error);
            if (path == NULL)
              return FALSE;
            g_ptr_array_add (resolved, path);
          }

        g_ptr_array_add (resolved, NULL);
        run->files = (GStrv) g_ptr_array_steal (resolved, NULL);
        return TRUE;
      }

    case TW_TAB_COMMAND_EVALUATE:
      return check_string (params, "ref", FALSE, TRUE, error) &&
             check_string (params, "function", TRUE, TRUE, error);

    /* browser_mouse (issue 18): the page checks the point and its scale
     * before it sends any event. */
    case TW_TAB_COMMAND_MOUSE:
      return check_string (params, "action", TRUE, TRUE, error);

    default:
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                   "%s is not an interaction command", tw_tab_command_to_string (run->command));
      return FALSE;
    }
}

/* The keys browser_type presses: one per character, with line breaks as
 * Enter and tabs as Tab. */
static GPtrArray *
split_text (const char *text)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\r')
        continue;
      else if (c == '\n')
        g_ptr_array_add (keys, g_strdup ("Enter"));
      else if (c == '\t')
        g_ptr_array_add (keys, g_strdup ("Tab"));
      else
        g_ptr_array_add (keys, g_strndup (p, g_utf8_next_char (p) - p));
    }

  return keys;
}

void
tw_tab_actions_run_async (WebKitWebView             *view,
                          TwPageRuntime             *runtime,
                          TwTabCommand               command,
                          JsonObject                *params,
                          const TwTabActionsOptions *options,
                          GCancellable              *cancellable,
                          GAsyncReadyCallback        callback,
                          gpointer                   user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;
  ActionRun *run;

  g_return_if_fail (WEBKIT_IS_WEB_VIEW (view));
  g_return_if_fail (TW_IS_PAGE_RUNTIME (runtime));
  g_return_if_fail (params != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (view, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_tab_actions_run_async);

  run = g_new0 (ActionRun, 1);
  run->task = task;
  run->view = g_object_ref (view);
  run->runtime = g_object_ref (runtime);
  run->command = command;
  run->params = json_object_ref (params);
  run->result = json_object_new ();
  run->pending_resources = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  run->start_uri = g_strdup (webkit_web_view_get_uri (view));
  run->actionable_timeout_ms = TW_TAB_ACTIONS_DEFAULT_ACTIONABLE_MS;
  run->navigation_timeout_ms = TW_TAB_ACTIONS_DEFAULT_NAVIGATION_MS;
  run->settle_timeout_ms = TW_TAB_ACTIONS_DEFAULT_SETTLE_MS;
  run->script_timeout_ms = TW_TAB_ACTIONS_DEFAULT_SCRIPT_MS;

  if (options != NULL)
    {
      run->workspace_dir = g_strdup (options->workspace_dir);
      if (options->actionable_timeout_ms > 0)
        run->actionable_timeout_ms = options->actionable_timeout_ms;
      if (options->navigation_timeout_ms > 0)
        run->navigation_timeout_ms = options->navigation_timeout_ms;
      if (options->settle_timeout_ms > 0)
        run->settle_timeout_ms = options->settle_timeout_ms;
      if (options->script_timeout_ms > 0)
        run->script_timeout_ms = options->script_timeout_ms;
      run->acted_func = options->acted;
      run->acted_data = options->acted_data;
      run->acted_destroy = options->acted_destroy;
    }

  g_task_set_task_data (task, run, (GDestroyNotify) action_run_free);

  if (!tw_tab_actions_handles (command) || !check_params (run, &error))
    {
      if (error == NULL)
        error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                             "%s is not an interaction command", tw_tab_command_to_string (command));
      run_fail (task, error);
      return;
    }

  run->cancel_watch = tw_cancellable_watch (cancellable, run_cancelled_cb, task, NULL);

  run->started_us = g_get_monotonic_time ();
  run->deadline_us = run->started_us + (gint64) run->actionable_timeout_ms * 1000;

  /* The handlers hold no reference: the run disconnects them before the
   * task goes. */
  run->load_changed_id = g_signal_connect (view, "load-changed", G_CALLBACK (on_load_changed_cb), task);
  run->load_failed_id = g_signal_connect (view, "load-failed", G_CALLBACK (on_load_failed_cb), task);
  run->resource_id = g_signal_connect (view, "resource-load-started",
                                       G_CALLBACK (on_resource_load_started_cb), task);

  /* Any action may open a file chooser; only an upload answers it. */
  run->chooser_id = g_signal_connect (view, "run-file-chooser",
                                      G_CALLBACK (on_run_file_chooser_cb), task);

  if (command == TW_TAB_COMMAND_TYPE)
    run->keys = split_text (json_object_get_string_member (params, "text"));

  if (command == TW_TAB_COMMAND_EVALUATE)
    {
      if (json_object_has_member (params, "ref") &&
          !JSON_NODE_HOLDS_NULL (json_object_get_member (params, "ref")))
        {
          g_autoptr(JsonObject) args = json_object_new ();
          g_autofree char *uuid = g_uuid_string_random ();
          g_auto(GStrv) parts = g_strsplit (uuid, "-", -1);

          run->nonce = g_strjoinv ("", parts);
          json_object_set_string_member (args, "ref", json_object_get_string_member (params, "ref"));
          json_object_set_string_member (args, "nonce", run->nonce);
          run_step (task, "actions.exposeElement", args, evaluate_exposed);
        }
      else
        {
          run_evaluate_in_page (task);
        }
      return;
    }

  if (command == TW_TAB_COMMAND_KEYPRESS || command == TW_TAB_COMMAND_TYPE)
    {
      /* Without a ref, keys go to whatever has the focus. */
      if (!json_object_has_member (params, "ref") ||
          JSON_NODE_HOLDS_NULL (json_object_get_member (params, "ref")))
        {
          if (command == TW_TAB_COMMAND_TYPE)
            {
              run_next_key (task);
            }
          else
            {
              g_autoptr(JsonObject) args = json_object_new ();

              json_object_set_string_member (args, "key", json_object_get_string_member (params, "key"));
              run->phase = PHASE_EDIT;
              run->acted = TRUE;
              run_step (task, "keyboard.down", args, key_step_done);
            }
          return;
        }
    }

  run_attempt (task);
}

JsonObject *
tw_tab_actions_run_finish (WebKitWebView  *view,
                           GAsyncResult   *result,
                           GError        **error)
{
  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);
  g_return_val_if_fail (g_task_is_valid (result, view), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
