/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

#include "tw-error.h"

/* browser_handoff: a command that waits for the person to do something in
 * the tab and say they are done. */
void
_tw_browser_tab_set_handoff (TwBrowserTab *self,
                             GTask        *task,
                             const char   *message,
                             const char   *agent)
{
  self->handoff_task = task;
  _tw_browser_tab_update_focus (self);
  g_free (self->handoff_agent);
  self->handoff_agent = g_strdup (agent);

  if (g_strcmp0 (self->handoff_message, message) != 0)
    {
      g_free (self->handoff_message);
      self->handoff_message = g_strdup (message);
      g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_HANDOFF_MESSAGE]);
    }
}

gboolean
_tw_browser_tab_handoff_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);
  gint64 timeout_ms = json_object_get_int_member_with_default (cmd->params, "timeoutMs", 0);

  cmd->timeout_source = 0;
  _tw_browser_tab_finish_command (self, task, NULL,
                                  g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                                               "the person did not answer the handoff in tab %s within %.1f s; "
                                               "the tab is theirs to use meanwhile, so take a new snapshot "
                                               "before going on",
                                               self->id, timeout_ms / 1000.0));

  return G_SOURCE_REMOVE;
}

const char *
tw_browser_tab_get_handoff_message (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->handoff_message;
}

const char *
tw_browser_tab_get_handoff_agent (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->handoff_task != NULL ? self->handoff_agent : NULL;
}

gboolean
tw_browser_tab_answer_handoff (TwBrowserTab *self,
                               gboolean      done)
{
  JsonObject *result;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  if (self->handoff_task == NULL)
    return FALSE;

  result = _tw_browser_tab_build_page_result (self, NULL);
  json_object_remove_member (result, "status");
  json_object_set_string_member (result, "outcome", done ? "done" : "cancelled");
  _tw_browser_tab_finish_command (self, self->handoff_task, result, NULL);

  return TRUE;
}
