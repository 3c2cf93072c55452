/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

#include "tw-json.h"
#include "tw-tab-action-private.h"
#include "tw-tab-actions.h"

/* An agent's action as the person sees it: the overlay is told what the
 * action is and where its element is before, while and after it runs. */

/* Showing actions */

/* Refs are resolved for the overlay one call at a time and never while
 * the action's own calls run in the page: before the action (where the
 * element is, and a drag's drop target), and after it when it may have
 * moved the element (scrolled it into view, scrolled it). */
typedef enum
{
  RESOLVE_BEFORE,
  RESOLVE_DROP,
  RESOLVE_AFTER,
} ResolveStep;

typedef struct
{
  GTask       *task;
  ResolveStep  step;
  JsonObject  *answer;   /* RESOLVE_AFTER: the action's answer, held back */
} ResolveData;

static void resolve_step (TwBrowserTab *self,
                          GTask        *task,
                          ResolveStep   step,
                          JsonObject   *answer);
static void run_action (TwBrowserTab *self,
                        GTask        *task);

static TwTabAction *
build_action (TwBrowserTab *self,
              TabCommand   *cmd)
{
  return tw_tab_action_new (self->id, cmd->command, cmd->agent_name, cmd->agent_id,
                            cmd->call_id, cmd->params);
}

/* Where the action went, as the page answered once it acted: the box after
 * scrolling into view, which wins over what resolving the ref said. */
static void
action_acted_cb (JsonObject *answer,
                 gpointer    user_data)
{
  GTask *task = user_data;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);

  if (cmd->finished || cmd->action == NULL)
    return;

  tw_tab_action_take_acted (cmd->action, answer);
  g_signal_emit (self, _tw_browser_tab_signals[ACTION_UPDATED], 0, cmd->action);
}

static const char *
action_ref (TabCommand *cmd)
{
  const char *ref = tw_json_get_string (cmd->params, "ref", NULL);

  return ref != NULL ? ref : tw_json_get_string (cmd->params, "sourceRef", NULL);
}

/* After the action, the box is stale when the point acted on is not in it
 * any more, or when the action was a scroll. */
gboolean
_tw_browser_tab_action_needs_refresh (TabCommand *cmd)
{
  if (cmd->action == NULL || action_ref (cmd) == NULL)
    return FALSE;

  if (cmd->command == TW_TAB_COMMAND_SCROLL || !cmd->action->has_rect || !cmd->action->has_point)
    return TRUE;

  return !graphene_rect_contains_point (&cmd->action->rect, &cmd->action->point);
}

static void
action_resolved_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  ResolveData *data = user_data;
  g_autoptr(GTask) task = data->task;
  g_autoptr(JsonObject) answer = data->answer;
  g_autoptr(JsonObject) info = NULL;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);
  ResolveStep step = data->step;

  g_free (data);

  /* A stale ref is for the action itself to report, with a better
   * message; the overlay just has no box. */
  info = tw_page_runtime_resolve_ref_finish (TW_PAGE_RUNTIME (object), result, NULL);
  if (cmd->finished)
    return;

  if (info != NULL)
    tw_tab_action_take_element (cmd->action, info, step == RESOLVE_DROP);

  switch (step)
    {
    case RESOLVE_BEFORE:
      resolve_step (self, task, RESOLVE_DROP, NULL);
      break;

    case RESOLVE_DROP:
      g_signal_emit (self, _tw_browser_tab_signals[ACTION_STARTED], 0, cmd->action);
      run_action (self, task);
      break;

    case RESOLVE_AFTER:
    default:
      if (info != NULL)
        g_signal_emit (self, _tw_browser_tab_signals[ACTION_UPDATED], 0, cmd->action);
      _tw_browser_tab_complete_delegated (self, task, g_steal_pointer (&answer));
      break;
    }
}

static void
resolve_step (TwBrowserTab *self,
              GTask        *task,
              ResolveStep   step,
              JsonObject   *answer)
{
  TabCommand *cmd = g_task_get_task_data (task);
  const char *ref = step == RESOLVE_DROP ? tw_json_get_string (cmd->params, "targetRef", NULL)
                                         : action_ref (cmd);
  ResolveData *data;

  if (ref == NULL)
    {
      /* Nothing to find at this step: go on as if it had been found. */
      if (step == RESOLVE_BEFORE)
        {
          resolve_step (self, task, RESOLVE_DROP, NULL);
        }
      else if (step == RESOLVE_DROP)
        {
          g_signal_emit (self, _tw_browser_tab_signals[ACTION_STARTED], 0, cmd->action);
          run_action (self, task);
        }
      else
        {
          _tw_browser_tab_complete_delegated (self, task, answer);
        }
      return;
    }

  data = g_new0 (ResolveData, 1);
  data->task = g_object_ref (task);
  data->step = step;
  data->answer = answer;
  tw_page_runtime_resolve_ref_async (self->runtime, ref, g_task_get_cancellable (task),
                                     action_resolved_cb, data);
}

void
_tw_browser_tab_refresh_action (TwBrowserTab *self,
                                GTask        *task,
                                JsonObject   *answer)
{
  resolve_step (self, task, RESOLVE_AFTER, answer);
}

/* Tells the overlay about an action before it starts: what it is, and
 * where its element is, so the pointer is on its way while the page checks
 * that the element can be used. */
void
_tw_browser_tab_begin_action (TwBrowserTab *self,
                              GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);

  cmd->action = build_action (self, cmd);
  resolve_step (self, task, RESOLVE_BEFORE, NULL);
}

static void
run_action (TwBrowserTab *self,
            GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);
  TwTabActionsOptions options = {
    .workspace_dir = self->workspace_dir,
    .deadline_us = cmd->deadline_us,
    .acted = action_acted_cb,
    .acted_data = g_object_ref (task),
    .acted_destroy = g_object_unref,
  };

  tw_tab_actions_run_async (self->view, self->runtime, cmd->command, cmd->params,
                            &options, g_task_get_cancellable (task),
                            _tw_browser_tab_delegated_command_cb, g_object_ref (task));
}
