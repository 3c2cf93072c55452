/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-private.h"

#include "tw-error.h"
#include "tw-json.h"
#include "tw-replay.h"

/* browser_replay and browser_save_flow (issue 33): a stretch of a session
 * of the workspace's timeline, or a flow saved from one, run again in a
 * tab (TwReplay), or saved under a name. */

void
tw_browser_set_timeline (TwBrowser  *self,
                         TwTimeline *timeline)
{
  g_return_if_fail (TW_IS_BROWSER (self));

  g_set_weak_pointer (&self->timeline, timeline);
}

typedef struct
{
  TwBrowser    *browser;
  TwTimeline   *timeline;
  TwTabCommand  command;
  char         *browser_id;
  JsonObject   *params;
  char         *agent_id;
  char         *agent_name;
  char         *source;   /* for the reply: `flow "login"`, `session of b` */
} FlowRun;

static void
flow_run_free (FlowRun *run)
{
  g_clear_object (&run->browser);
  g_clear_object (&run->timeline);
  g_clear_pointer (&run->params, json_object_unref);
  g_free (run->browser_id);
  g_free (run->agent_id);
  g_free (run->agent_name);
  g_free (run->source);
  g_free (run);
}

static gboolean
get_step_number (JsonObject  *params,
                 const char  *member,
                 gint64      *number,
                 GError     **error)
{
  JsonNode *node = json_object_get_member (params, member);

  *number = 0;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (json_node_get_value_type (node) != G_TYPE_INT64 || json_node_get_int (node) < 1)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "%s must be a step number, 1 for the first step", member);
      return FALSE;
    }
  *number = json_node_get_int (node);

  return TRUE;
}

static void
replay_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  FlowRun *run = g_task_get_task_data (task);
  GError *error = NULL;
  JsonObject *reply = tw_replay_run_finish (TW_REPLAY (object), result, &error);

  if (reply == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  json_object_set_string_member (reply, "source", run->source);
  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!tw_timeline_save_flow_finish (TW_TIMELINE (object), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, json_object_ref (g_object_get_data (G_OBJECT (task), "reply")),
                         (GDestroyNotify) json_object_unref);
}

static JsonObject *
describe_steps (GListModel *steps,
                guint       first_number)
{
  JsonObject *reply = json_object_new ();
  JsonArray *items = json_array_new ();
  guint n = g_list_model_get_n_items (steps);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TwTimelineStep) step = g_list_model_get_item (steps, i);
      g_autofree char *target = tw_replay_describe_element (step);
      JsonObject *item = json_object_new ();

      json_object_set_int_member (item, "step", first_number + i);
      json_object_set_string_member (item, "tool", tw_timeline_step_get_tool (step));
      if (target != NULL)
        json_object_set_string_member (item, "target", target);
      if (!tw_timeline_step_get_ok (step))
        json_object_set_boolean_member (item, "failed", TRUE);
      json_array_add_object_element (items, item);
    }
  json_object_set_array_member (reply, "steps", items);

  return reply;
}

static void
loaded_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  FlowRun *run = g_task_get_task_data (task);
  g_autoptr(GListModel) all = NULL;
  g_autoptr(GListStore) stretch = NULL;
  GCancellable *cancellable = g_task_get_cancellable (task);
  GError *error = NULL;
  gint64 from = 0;
  gint64 to = 0;
  guint n;

  all = tw_timeline_load_finish (TW_TIMELINE (object), result, &error);
  if (all == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  get_step_number (run->params, "fromStep", &from, NULL);
  get_step_number (run->params, "toStep", &to, NULL);
  n = g_list_model_get_n_items (all);
  if (from == 0)
    from = 1;
  if (to == 0 || to > n)
    to = n;
  if (n == 0 || from > n)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "the %s has %u steps: fromStep must be 1 to %u",
                               run->source, n, MAX (n, 1));
      return;
    }

  stretch = g_list_store_new (TW_TYPE_TIMELINE_STEP);
  for (gint64 i = from - 1; i < to; i++)
    {
      g_autoptr(TwTimelineStep) step = g_list_model_get_item (all, (guint) i);

      g_list_store_append (stretch, step);
    }

  if (run->command == TW_TAB_COMMAND_REPLAY)
    {
      g_autoptr(TwReplay) replay = NULL;
      TwCaller caller = { run->agent_id, run->agent_name, 0 };

      if (run->browser == NULL)
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                   "the browser is gone");
          return;
        }
      replay = tw_replay_new (run->browser, G_LIST_MODEL (stretch), (guint) from);
      tw_replay_run_async (replay, run->browser_id, &caller, cancellable, replay_done_cb,
                           g_steal_pointer (&task));
    }
  else
    {
      g_autoptr(JsonObject) reply = describe_steps (G_LIST_MODEL (stretch), (guint) from);
      const char *name = tw_json_get_string (run->params, "name", NULL);

      json_object_set_string_member (reply, "name", name);
      json_object_set_string_member (reply, "source", run->source);
      g_object_set_data_full (G_OBJECT (task), "reply", json_object_ref (reply),
                              (GDestroyNotify) json_object_unref);
      tw_timeline_save_flow_async (run->timeline, name, G_LIST_MODEL (stretch), cancellable,
                                   saved_cb, g_steal_pointer (&task));
    }
}

static void
settled_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  FlowRun *run = g_task_get_task_data (task);
  const char *session = tw_json_get_string (run->params, "session", NULL);

  tw_timeline_settle_finish (TW_TIMELINE (object), result, NULL);
  tw_timeline_load_session_async (run->timeline, session != NULL ? session : run->agent_id,
                                  g_task_get_cancellable (task), loaded_cb, task);
}

void
tw_browser_run_flow_command (TwBrowser              *self,
                             const TwServiceRequest *request,
                             GTask                  *task)
{
  GError *error = NULL;
  FlowRun *run;
  const char *flow = tw_json_get_string (request->params, "flow", NULL);
  const char *session = tw_json_get_string (request->params, "session", NULL);
  const char *name = tw_json_get_string (request->params, "name", NULL);
  gint64 from = 0;
  gint64 to = 0;

  g_assert (TW_IS_BROWSER (self));
  g_assert (G_IS_TASK (task));

  if (!get_step_number (request->params, "fromStep", &from, &error) ||
      !get_step_number (request->params, "toStep", &to, &error))
    goto failed;
  if (to > 0 && from > to)
    {
      error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "fromStep comes after toStep: give the first step, then "
                                   "the last");
      goto failed;
    }
  if (request->command == TW_TAB_COMMAND_REPLAY && flow != NULL && session != NULL)
    {
      error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "give flow or session, not both");
      goto failed;
    }
  if (request->command == TW_TAB_COMMAND_SAVE_FLOW && name == NULL)
    {
      error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "name the flow to save, e.g. \"sign up\"");
      goto failed;
    }
  if (self->timeline == NULL)
    {
      error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                                   "this workspace keeps no timeline to replay from");
      goto failed;
    }
  if (request->command == TW_TAB_COMMAND_SAVE_FLOW)
    {
      g_autofree char *path = tw_timeline_dup_flow_path (self->timeline, name, &error);

      if (path == NULL)
        goto failed;
    }
  if (flow == NULL && session == NULL &&
      (request->caller == NULL || request->caller->agent_id == NULL))
    {
      error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "name the session (an agent's id) or the flow to replay");
      goto failed;
    }
  if (request->browser_id != NULL &&
      tw_browser_lookup_usable_tab (self, request->browser_id, request->caller, &error) == NULL)
    goto failed;

  run = g_new0 (FlowRun, 1);
  run->browser = g_object_ref (self);
  run->timeline = g_object_ref (self->timeline);
  run->command = request->command;
  run->browser_id = g_strdup (request->browser_id);
  run->params = json_object_ref (request->params);
  run->agent_id = g_strdup (request->caller != NULL ? request->caller->agent_id : NULL);
  run->agent_name = g_strdup (request->caller != NULL ? request->caller->agent_name : NULL);
  if (flow != NULL)
    run->source = g_strdup_printf ("flow \"%s\"", flow);
  else if (session != NULL)
    run->source = g_strdup_printf ("session of %s", session);
  else
    run->source = g_strdup ("session of the caller");
  g_task_set_task_data (task, run, (GDestroyNotify) flow_run_free);

  if (flow != NULL)
    {
      tw_timeline_load_flow_async (self->timeline, flow, g_task_get_cancellable (task),
                                   loaded_cb, task);
      return;
    }

  /* What the caller just did is read back once it is written. */
  tw_timeline_settle_async (self->timeline, g_task_get_cancellable (task), settled_cb, task);
  return;

failed:
  g_task_return_error (task, error);
  g_object_unref (task);
}
