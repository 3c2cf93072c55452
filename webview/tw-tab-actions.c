/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-actions.h"
#include "tw-tab-actions-private.h"

#include "tw-cancellable.h"
#include "tw-error.h"
#include "tw-json.h"
#include "tw-workspace-path.h"

static gboolean
run_timer_cb (gpointer user_data)
{
  GTask *task = user_data;
  ActionRun *run = g_task_get_task_data (task);

  run->timer_id = 0;
  run->timer_fired (task);

  return G_SOURCE_REMOVE;
}

/* The timer holds a reference on the task, so a run waiting on it alone
 * stays alive; ending the run removes it. */
void
_tw_tab_actions_run_start_timer (GTask  *task,
                                 guint   ms,
                                 void  (*fired)(GTask *task))
{
  ActionRun *run = g_task_get_task_data (task);

  g_clear_handle_id (&run->timer_id, g_source_remove);
  run->timer_fired = fired;
  run->timer_id = g_timeout_add_full (G_PRIORITY_DEFAULT, ms, run_timer_cb, g_object_ref (task),
                                      g_object_unref);
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
  if (run->watch != NULL)
    {
      tw_load_watch_set_start_func (run->watch, NULL, NULL);
      tw_load_watch_stop_waiting (run->watch);
    }
  g_clear_object (&run->load_hold);

  if (run->step_cancellable != NULL)
    {
      g_cancellable_cancel (run->step_cancellable);
      g_clear_object (&run->step_cancellable);
    }

  if (run->view != NULL)
    {
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
  g_free (run->page_title);
  g_clear_pointer (&run->watch, tw_load_watch_free);
  g_free (run->nonce);
  if (run->acted_destroy != NULL)
    run->acted_destroy (run->acted_data);
  g_free (run);
}

gboolean
_tw_tab_actions_run_is_done (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);

  return run->phase == PHASE_DONE;
}

void
_tw_tab_actions_run_fail (GTask  *task,
                          GError *error)
{
  /* Letting go of the run's waits may drop the last other reference. */
  g_autoptr(GTask) hold = g_object_ref (task);
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
title_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ActionRun *run = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, NULL);

  if (run->phase == PHASE_DONE)
    return;

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    run->page_title = g_strdup (json_node_get_string (node));
  _tw_tab_actions_run_succeed (task);
}

void
_tw_tab_actions_run_succeed (GTask *task)
{
  g_autoptr(GTask) hold = g_object_ref (task);
  ActionRun *run = g_task_get_task_data (task);
  const char *uri = webkit_web_view_get_uri (run->view);
  const char *title;
  g_autofree char *load_error = NULL;

  if (run->phase == PHASE_DONE)
    return;

  /* The result carries the title the document has now, which may not have
   * reached the UI process yet. The settle wait brings it along; where
   * the run did not settle in the main frame, the page is asked once. */
  if (run->page_title == NULL && !run->title_asked && !tw_load_watch_is_loading (run->watch))
    {
      run->title_asked = TRUE;
      tw_page_runtime_call_async (run->runtime, "pageState.title", NULL, g_task_get_cancellable (task),
                                  title_cb, g_object_ref (task));
      return;
    }
  title = run->page_title != NULL ? run->page_title : webkit_web_view_get_title (run->view);

  if (tw_load_watch_get_error (run->watch) != NULL)
    load_error = g_strdup_printf ("%s: %s", tw_load_watch_get_failing_uri (run->watch),
                                  tw_load_watch_get_error (run->watch)->message);

  run->phase = PHASE_DONE;
  action_run_detach (run);

  g_debug ("Action %s done in %.1f ms", tw_tab_command_to_string (run->command),
           (g_get_monotonic_time () - run->started_us) / 1000.0);

  json_object_set_string_member (run->result, "url", uri != NULL ? uri : "");
  json_object_set_string_member (run->result, "title", title != NULL ? title : "");
  add_request_echo (run);

  if (tw_load_watch_get_committed (run->watch) || g_strcmp0 (uri, run->start_uri) != 0)
    json_object_set_boolean_member (run->result, "navigated", TRUE);
  if (tw_load_watch_is_loading (run->watch))
    json_object_set_boolean_member (run->result, "loading", TRUE);
  if (tw_load_watch_get_error (run->watch) != NULL)
    json_object_set_string_member (run->result, "loadError", load_error);

  g_task_return_pointer (task, json_object_ref (run->result), (GDestroyNotify) json_object_unref);
}

static void
run_cancelled_cb (gpointer user_data)
{
  _tw_tab_actions_run_fail (user_data,
                            g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED, "The call was cancelled"));
}

/* Page calls. */

void
_tw_tab_actions_merge_into_result (ActionRun          *run,
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

/* A page call failed. When the action had started a navigation, the old
 * document simply went away under the call: the action happened, and what
 * remains is to wait for the new page. */
void
_tw_tab_actions_run_page_error (GTask  *task,
                                GError *error)
{
  ActionRun *run = g_task_get_task_data (task);

  if (_tw_tab_actions_run_navigated (run) &&
      !g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (run->acted)
        {
          g_error_free (error);
          _tw_tab_actions_run_navigation_wait (task);
          return;
        }

      /* The page left before anything was done on it: the ref belonged to
       * the document that went away. */
      g_error_free (error);
      _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_STALE_REF,
                                                   "The page navigated away before the action could happen; "
                                                   "take a new snapshot"));
      return;
    }

  _tw_tab_actions_run_fail (task, error);
}

/* Step calls: key strokes, checks after a fill or an upload. */

JsonNode *
_tw_tab_actions_run_call_finish (GTask        *task,
                                 GObject      *runtime,
                                 GAsyncResult *result)
{
  GError *error = NULL;
  JsonNode *node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (runtime), result, &error);

  if (_tw_tab_actions_run_is_done (task))
    {
      g_clear_error (&error);
      g_clear_pointer (&node, json_node_unref);
      return NULL;
    }

  if (node == NULL)
    _tw_tab_actions_run_page_error (task, error);

  return node;
}

static void
step_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StepFunc next = g_object_get_data (G_OBJECT (task), "tw-step");
  g_autoptr(JsonNode) node = _tw_tab_actions_run_call_finish (task, object, result);

  if (node != NULL)
    next (task, JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL);
}

void
_tw_tab_actions_run_step (GTask      *task,
                          const char *function,
                          JsonObject *args,
                          StepFunc    next)
{
  ActionRun *run = g_task_get_task_data (task);

  if (run->frame != 0)
    json_object_set_int_member (args, "frame", run->frame);
  g_object_set_data (G_OBJECT (task), "tw-step", next);
  tw_page_runtime_call_async (run->runtime, function, args, g_task_get_cancellable (task),
                              step_cb, g_object_ref (task));
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
      if (!check_string (params, "ref", FALSE, TRUE, error) ||
          !check_string (params, "function", TRUE, TRUE, error))
        return FALSE;
      /* With a ref inside a frame of another origin, the function runs in
       * that frame's own world (tw-tab-actions-evaluate.c). */
      return TRUE;

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

/* Keys without a ref: the frame that has the focus is known. */
static void
keys_to_focus (GTask      *task,
               JsonObject *answer)
{
  ActionRun *run = g_task_get_task_data (task);

  run->frame = (guint64) MAX (0, tw_json_get_int (answer, "frame", 0));

  if (run->command == TW_TAB_COMMAND_TYPE)
    {
      _tw_tab_actions_run_next_key (task);
    }
  else
    {
      g_autoptr(JsonObject) args = json_object_new ();

      json_object_set_string_member (args, "key", json_object_get_string_member (run->params, "key"));
      run->phase = PHASE_EDIT;
      run->acted = TRUE;
      _tw_tab_actions_run_step (task, "keyboard.down", args, _tw_tab_actions_key_step_done);
    }
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
  run->settle_timeout_ms = TW_TAB_ACTIONS_DEFAULT_SETTLE_MS;
  run->script_timeout_ms = TW_TAB_ACTIONS_DEFAULT_SCRIPT_MS;

  if (options != NULL)
    {
      run->workspace_dir = g_strdup (options->workspace_dir);
      if (options->actionable_timeout_ms > 0)
        run->actionable_timeout_ms = options->actionable_timeout_ms;
      run->limit_us = options->deadline_us;
      if (options->settle_timeout_ms > 0)
        run->settle_timeout_ms = options->settle_timeout_ms;
      if (options->script_timeout_ms > 0)
        run->script_timeout_ms = options->script_timeout_ms;
      run->acted_func = options->acted;
      run->acted_data = options->acted_data;
      run->acted_destroy = options->acted_destroy;
    }

  g_task_set_task_data (task, run, (GDestroyNotify) action_run_free);

  run->frame = tw_page_runtime_ref_frame (tw_json_get_string (params, "ref",
                                                              tw_json_get_string (params, "sourceRef",
                                                                                  NULL)));

  if (!tw_tab_actions_handles (command) || !check_params (run, &error))
    {
      if (error == NULL)
        error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                             "%s is not an interaction command", tw_tab_command_to_string (command));
      _tw_tab_actions_run_fail (task, error);
      return;
    }

  run->cancel_watch = tw_cancellable_watch (cancellable, run_cancelled_cb, task, NULL);

  run->started_us = g_get_monotonic_time ();
  run->deadline_us = run->started_us + (gint64) run->actionable_timeout_ms * 1000;

  /* A response that becomes a download is no failure of the action. The
   * watch and the handlers hold no reference: the run lets go of them before
   * the task goes. */
  run->watch = tw_load_watch_new (view, TW_LOAD_WATCH_DOWNLOADS_STAY);
  tw_load_watch_set_start_func (run->watch, _tw_tab_actions_on_load_started, task);
  run->resource_id = g_signal_connect (view, "resource-load-started",
                                       G_CALLBACK (_tw_tab_actions_on_resource_load_started_cb), task);

  /* Any action may open a file chooser; only an upload answers it. */
  run->chooser_id = g_signal_connect (view, "run-file-chooser",
                                      G_CALLBACK (_tw_tab_actions_on_run_file_chooser_cb), task);

  if (command == TW_TAB_COMMAND_TYPE)
    run->keys = _tw_tab_actions_split_text (json_object_get_string_member (params, "text"));

  if (command == TW_TAB_COMMAND_EVALUATE)
    {
      _tw_tab_actions_run_evaluate (task);
      return;
    }

  if (command == TW_TAB_COMMAND_KEYPRESS || command == TW_TAB_COMMAND_TYPE)
    {
      /* Without a ref, keys go to whatever has the focus, which may be in a
       * frame of another origin. */
      if (!json_object_has_member (params, "ref") ||
          JSON_NODE_HOLDS_NULL (json_object_get_member (params, "ref")))
        {
          g_autoptr(JsonObject) args = json_object_new ();

          _tw_tab_actions_run_step (task, "frames.focused", args, keys_to_focus);
          return;
        }
    }

  _tw_tab_actions_run_attempt (task);
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
