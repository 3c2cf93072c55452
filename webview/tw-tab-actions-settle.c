/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-actions-private.h"

/* After the action: a navigation it started, the page going quiet and
 * the requests it made, and the diff of what changed. */

/* What an action keeps back from the command's time limit to answer in. */
#define ANSWER_MARGIN_MS 1000
/* How long the page may take to give an input the files of its chooser. */
#define UPLOAD_CHECK_MS 1000

/* Watching the page. */

gboolean
_tw_tab_actions_run_navigated (ActionRun *run)
{
  return tw_load_watch_is_loading (run->watch) || tw_load_watch_get_committed (run->watch);
}

void
_tw_tab_actions_on_load_started (TwLoadWatch *watch,
                                 gpointer     user_data)
{
  GTask *task = user_data;
  ActionRun *run = g_task_get_task_data (task);

  g_debug ("Action %s: a load started in phase %d (%s)", tw_tab_command_to_string (run->command),
           run->phase, webkit_web_view_get_uri (run->view));

  /* The document the settle wait watches is going away: stop watching it
   * and wait for the new one instead. */
  if (run->phase == PHASE_SETTLE || run->phase == PHASE_RESOURCES)
    _tw_tab_actions_run_navigation_wait (task);
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
      _tw_tab_actions_run_settle (task);
    }
}

static void
on_resource_failed_cb (WebKitWebResource *resource,
                       GError            *error,
                       GTask             *task)
{
  on_resource_finished_cb (resource, task);
}

void
_tw_tab_actions_on_resource_load_started_cb (WebKitWebView     *view,
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

void
_tw_tab_actions_settle_after_step (GTask      *task,
                                   JsonObject *answer)
{
  ActionRun *run = g_task_get_task_data (task);
  static const char * const skip[] = { "ready", "commands", NULL };

  if (answer != NULL)
    _tw_tab_actions_merge_into_result (run, answer, skip);

  _tw_tab_actions_run_settle (task);
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
  if (_tw_tab_actions_run_is_done (task))
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

  _tw_tab_actions_run_succeed (task);
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
      /* The files the chooser was given, which the input takes a moment
       * later. */
      json_object_set_int_member (args, "count", run->chooser_answered && run->files != NULL
                                                 ? g_strv_length (run->files) : 0);
      json_object_set_int_member (args, "maxMs", UPLOAD_CHECK_MS);
      run->phase = PHASE_EDIT;
      _tw_tab_actions_run_step (task, "actions.uploadCheck", args, _tw_tab_actions_upload_checked);
      return;
    }

  if (wants_diff (run))
    {
      run_take_diff (task);
      return;
    }

  _tw_tab_actions_run_succeed (task);
}

static void
navigation_ended_cb (TwLoadWatch *watch,
                     TwLoadEnd    end,
                     gpointer     user_data)
{
  GTask *task = user_data;
  ActionRun *run = g_task_get_task_data (task);
  /* The wait's reference, now this callback's. */
  g_autoptr(GTask) hold = g_steal_pointer (&run->load_hold);

  /* Still loading at the deadline: the action happened, and failing now
   * would invite the agent to repeat it. The result says the page is still
   * loading instead. */
  if (end == TW_LOAD_END_TIMED_OUT)
    {
      _tw_tab_actions_run_succeed (task);
      return;
    }

  /* The new page has loaded (or failed, which the result reports): let it
   * settle too, as an app renders after its load event (and may redirect
   * again). */
  _tw_tab_actions_run_settle (task);
}

void
_tw_tab_actions_run_navigation_wait (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  gint64 deadline_us;

  if (run->phase == PHASE_DONE || run->phase == PHASE_NAVIGATION)
    return;

  g_clear_handle_id (&run->timer_id, g_source_remove);
  if (run->step_cancellable != NULL)
    {
      g_cancellable_cancel (run->step_cancellable);
      g_clear_object (&run->step_cancellable);
    }

  if (!tw_load_watch_is_navigating (run->watch))
    {
      _tw_tab_actions_run_settle (task);
      return;
    }

  /* The load may go on until the command's one time limit, less the time
   * to settle on the new page and answer; without one, for the default
   * time from its start. */
  if (run->limit_us > 0)
    deadline_us = run->limit_us - ((gint64) run->settle_timeout_ms + ANSWER_MARGIN_MS) * 1000;
  else
    deadline_us = (tw_load_watch_get_first_start (run->watch) > 0
                   ? tw_load_watch_get_first_start (run->watch) : g_get_monotonic_time ()) +
                  (gint64) TW_TAB_ACTIONS_DEFAULT_NAVIGATION_MS * 1000;

  run->phase = PHASE_NAVIGATION;
  /* The title is the next document's. */
  g_clear_pointer (&run->page_title, g_free);
  run->title_asked = FALSE;
  g_clear_object (&run->load_hold);
  run->load_hold = g_object_ref (task);
  tw_load_watch_wait (run->watch, 0, deadline_us, navigation_ended_cb, task);
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

  /* A navigation the action started may be decided on and not loading
   * yet: the page answered before the decision reached it. */
  if (tw_load_watch_is_navigating (run->watch))
    {
      _tw_tab_actions_run_navigation_wait (task);
      return;
    }

  /* A page that cannot answer (busy, or without the runtime) has had its
   * chance: the action itself succeeded. */
  if (error != NULL)
    g_debug ("The settle wait ended early: %s", error->message);
  else if (run->frame == 0 && JSON_NODE_HOLDS_OBJECT (node) &&
           json_object_get_string_member_with_default (json_node_get_object (node), "title", NULL) != NULL)
    {
      g_free (run->page_title);
      run->page_title = g_strdup (json_object_get_string_member (json_node_get_object (node), "title"));
    }

  if (g_hash_table_size (run->pending_resources) > 0 && now < run->settle_deadline_us)
    {
      run->phase = PHASE_RESOURCES;
      _tw_tab_actions_run_start_timer (task, (run->settle_deadline_us - now) / 1000 + 1,
                                       run_finish_settled);
      return;
    }

  run_finish_settled (task);
}

void
_tw_tab_actions_run_settle (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  g_autoptr(JsonObject) args = json_object_new ();
  gint64 now = g_get_monotonic_time ();
  gint64 remaining_ms;

  if (run->phase == PHASE_DONE)
    return;

  if (tw_load_watch_is_navigating (run->watch))
    {
      _tw_tab_actions_run_navigation_wait (task);
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

  json_object_set_int_member (args, "quietMs", MIN (TW_TAB_SETTLE_QUIET_MS, remaining_ms));
  json_object_set_int_member (args, "maxMs", remaining_ms);
  if (run->frame != 0)
    json_object_set_int_member (args, "frame", run->frame);
  tw_page_runtime_call_with_timeout_async (run->runtime, "actions.settle", args,
                                           remaining_ms + 1000, run->step_cancellable,
                                           settle_cb, g_object_ref (task));
}
