/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-action-private.h"

#include "tw-error.h"
#include "tw-json.h"
#include "tw-page-runtime.h"

typedef struct
{
  TwTabAction     action;
  gatomicrefcount ref_count;
} TabActionBox;

G_DEFINE_BOXED_TYPE (TwTabAction, tw_tab_action, tw_tab_action_ref, tw_tab_action_unref)

TwTabAction *
tw_tab_action_ref (TwTabAction *action)
{
  g_return_val_if_fail (action != NULL, NULL);

  g_atomic_ref_count_inc (&((TabActionBox *) action)->ref_count);

  return action;
}

void
tw_tab_action_unref (TwTabAction *action)
{
  g_return_if_fail (action != NULL);

  if (!g_atomic_ref_count_dec (&((TabActionBox *) action)->ref_count))
    return;

  g_free (action->browser_id);
  g_free (action->agent);
  g_free (action->agent_id);
  g_free (action->ref);
  g_free (action->target_ref);
  g_free (action->text);
  g_free (action->value);
  g_free (action->key);
  g_free (action->role);
  g_free (action->name);
  g_free (action);
}

static void
set_string (char       **field,
            const char  *value)
{
  if (value == NULL || g_strcmp0 (*field, value) == 0)
    return;

  g_free (*field);
  *field = g_strdup (value);
}

TwTabAction *
tw_tab_action_new (const char   *browser_id,
                   TwTabCommand  command,
                   const char   *agent,
                   const char   *agent_id,
                   guint64       call_id,
                   JsonObject   *params)
{
  TabActionBox *box = g_new0 (TabActionBox, 1);
  TwTabAction *action = &box->action;
  const char *ref;

  g_return_val_if_fail (browser_id != NULL, NULL);

  g_atomic_ref_count_init (&box->ref_count);
  action->browser_id = g_strdup (browser_id);
  action->command = command;
  action->tool = tw_tab_command_to_string (command);
  action->agent = g_strdup (agent != NULL ? agent : "");
  action->agent_id = g_strdup (agent_id);
  action->call_id = call_id;

  ref = tw_json_get_string (params, "ref", NULL);
  action->ref = g_strdup (ref != NULL ? ref : tw_json_get_string (params, "sourceRef", NULL));
  action->target_ref = g_strdup (tw_json_get_string (params, "targetRef", NULL));
  action->text = g_strdup (tw_json_get_string (params, "text", NULL));
  action->value = g_strdup (tw_json_get_string (params, "value", NULL));
  action->key = g_strdup (tw_json_get_string (params, "key", NULL));
  action->delta_x = tw_json_get_number (params, "deltaX", 0);
  action->delta_y = tw_json_get_number (params, "deltaY", 0);

  return action;
}

void
tw_tab_action_take_element (TwTabAction *action,
                            JsonObject  *element,
                            gboolean     drop_target)
{
  g_return_if_fail (action != NULL);
  g_return_if_fail (element != NULL);

  if (drop_target)
    {
      if (tw_page_runtime_read_rect (element, "rect", &action->target_rect))
        action->has_target_rect = TRUE;
      return;
    }

  set_string (&action->role, tw_json_get_string (element, "role", NULL));
  set_string (&action->name, tw_json_get_string (element, "name", NULL));
  if (tw_page_runtime_read_rect (element, "rect", &action->rect))
    action->has_rect = TRUE;
}

void
tw_tab_action_take_acted (TwTabAction *action,
                          JsonObject  *answer)
{
  JsonObject *point;
  JsonObject *element;

  g_return_if_fail (action != NULL);
  g_return_if_fail (answer != NULL);

  if (tw_page_runtime_read_rect (answer, "box", &action->rect))
    action->has_rect = TRUE;

  point = tw_json_get_object (answer, "point");
  if (point != NULL && json_object_has_member (point, "x") && json_object_has_member (point, "y"))
    {
      graphene_point_init (&action->point, tw_json_get_number (point, "x", 0),
                           tw_json_get_number (point, "y", 0));
      action->has_point = TRUE;
    }

  element = tw_json_get_object (answer, "element");
  if (element == NULL)
    element = tw_json_get_object (answer, "source");
  if (element != NULL)
    {
      set_string (&action->role, tw_json_get_string (element, "role", NULL));
      set_string (&action->name, tw_json_get_string (element, "name", NULL));
    }
}

void
tw_tab_action_finish (TwTabAction  *action,
                      const GError *error)
{
  g_return_if_fail (action != NULL);

  action->finished = TRUE;
  action->ok = error == NULL;
  action->error_code = error != NULL
                       ? tw_browser_error_code_name (tw_browser_error_from_gerror (error))
                       : NULL;
}
