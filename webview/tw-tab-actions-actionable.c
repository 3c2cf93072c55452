/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-actions-private.h"

#include "tw-error.h"

/* Waiting until the element is actionable, and acting: the page runtime
 * is asked again on a GLib timer until the element is ready or the time is
 * up, then what follows the action depends on the command. */

/* How long a click on an upload control may take to open a file chooser. */
#define CHOOSER_TIMEOUT_MS 2000
/* Delays between two actionability checks. */
#define RETRY_MOVING_MS 20
#define RETRY_MS        50

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
      _tw_tab_actions_run_fail (task, g_error_new_literal (TW_BROWSER_ERROR,
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

      _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, error_code, "%s (waited %.1f s)",
                                                   message, run->actionable_timeout_ms / 1000.0));
      return;
    }

  _tw_tab_actions_run_start_timer (task, g_str_equal (reason, "moving") ? RETRY_MOVING_MS : RETRY_MS,
                                   _tw_tab_actions_run_attempt);
}

static void run_after_act (GTask *task, JsonObject *answer);

static void
attempt_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) node = _tw_tab_actions_run_call_finish (task, object, result);
  JsonObject *answer;

  if (node == NULL)
    return;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
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

void
_tw_tab_actions_run_attempt (GTask *task)
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

static void
fill_checked (GTask      *task,
              JsonObject *answer)
{
  _tw_tab_actions_settle_after_step (task, answer);
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

  _tw_tab_actions_merge_into_result (run, answer, skip);

  switch (run->command)
    {
    case TW_TAB_COMMAND_FILL:
      _tw_tab_actions_run_editing_commands (run, answer);
      if (json_object_has_member (answer, "selected") || json_object_has_member (answer, "value"))
        {
          _tw_tab_actions_run_settle (task);
        }
      else
        {
          g_autoptr(JsonObject) args = json_object_new ();

          json_object_set_string_member (args, "ref", json_object_get_string_member (run->params, "ref"));
          run->phase = PHASE_EDIT;
          _tw_tab_actions_run_step (task, "actions.fillCheck", args, fill_checked);
        }
      break;

    case TW_TAB_COMMAND_TYPE:
      _tw_tab_actions_run_next_key (task);
      break;

    case TW_TAB_COMMAND_KEYPRESS:
      _tw_tab_actions_run_editing_commands (run, answer);
      if (json_object_get_boolean_member_with_default (answer, "prevented", FALSE))
        json_object_set_boolean_member (run->result, "prevented", TRUE);
      _tw_tab_actions_run_next_key (task);
      break;

    case TW_TAB_COMMAND_UPLOAD:
      if (run->chooser_error != NULL)
        {
          _tw_tab_actions_run_fail (task, g_steal_pointer (&run->chooser_error));
        }
      else if (run->chooser_answered)
        {
          _tw_tab_actions_run_settle (task);
        }
      else
        {
          run->phase = PHASE_CHOOSER;
          _tw_tab_actions_run_start_timer (task, CHOOSER_TIMEOUT_MS,
                                           _tw_tab_actions_chooser_timed_out);
        }
      break;

    case TW_TAB_COMMAND_CLICK:
    case TW_TAB_COMMAND_HOVER:
    case TW_TAB_COMMAND_SELECT:
    case TW_TAB_COMMAND_DRAG:
    case TW_TAB_COMMAND_SCROLL:
    default:
      _tw_tab_actions_run_settle (task);
      break;
    }
}
