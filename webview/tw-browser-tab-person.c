/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

#include "tw-error.h"
#include "tw-json.h"

/* An agent's call that waits for the person in a tab: browser_handoff
 * (the person does something and presses Done or Cancel) and
 * browser_annotate (the person marks the page and sends it,
 * tw-browser-tab-annotate.c). Each is a TabPersonAsk: the waiting command,
 * what it asks, who asks, and how long it may wait. While one waits, the
 * page sees the person's real focus, and the tab's property for it
 * notifies the bars that show it. */

typedef struct
{
  guint       prop;             /* notifies when the message changes */
  gint64      default_ms;       /* unless the call says timeoutMs */
  const char *not_answered;     /* "the person %s in tab b1 within 5.0 s" */
  const char *advice;           /* what the agent should do next, or "" */
} TabAskInfo;

static const TabAskInfo ask_infos[] = {
  [TAB_ASK_HANDOFF] = {
    PROP_HANDOFF_MESSAGE, 30000, "did not answer the handoff",
    "; the tab is theirs to use meanwhile, so take a new snapshot before going on"
  },
  [TAB_ASK_ANNOTATE] = { PROP_ANNOTATE_MESSAGE, 300000, "sent no annotation", "" },
};

void
_tw_browser_tab_init_person_asks (TwBrowserTab *self)
{
  self->handoff.kind = TAB_ASK_HANDOFF;
  self->annotate.kind = TAB_ASK_ANNOTATE;
}

void
_tw_browser_tab_clear_person_asks (TwBrowserTab *self)
{
  TabPersonAsk *asks[] = { &self->handoff, &self->annotate };

  for (guint i = 0; i < G_N_ELEMENTS (asks); i++)
    {
      g_clear_pointer (&asks[i]->message, g_free);
      g_clear_pointer (&asks[i]->agent, g_free);
    }
}

static void
set_ask (TwBrowserTab *self,
         TabPersonAsk *ask,
         GTask        *task,
         const char   *message,
         const char   *agent)
{
  ask->task = task;
  _tw_browser_tab_update_focus (self);
  g_free (ask->agent);
  ask->agent = g_strdup (agent);

  if (g_strcmp0 (ask->message, message) != 0)
    {
      g_free (ask->message);
      ask->message = g_strdup (message);
      g_object_notify_by_pspec (G_OBJECT (self),
                                _tw_browser_tab_properties[ask_infos[ask->kind].prop]);
    }
}

static gboolean
ask_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);
  TabPersonAsk *ask = self->handoff.task == task ? &self->handoff : &self->annotate;
  const TabAskInfo *info = &ask_infos[ask->kind];

  g_assert (ask->task == task);

  cmd->timeout_source = 0;
  _tw_browser_tab_finish_command (self, task, NULL,
                                  g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                                               "the person %s in tab %s within %.1f s%s",
                                               info->not_answered, self->id,
                                               ask->time_limit_ms / 1000.0, info->advice));

  return G_SOURCE_REMOVE;
}

static void
ask_person (TwBrowserTab *self,
            TabPersonAsk *ask,
            GTask        *task,
            TabCommand   *cmd)
{
  gint64 timeout_ms = json_object_get_int_member_with_default (cmd->params, "timeoutMs",
                                                               ask_infos[ask->kind].default_ms);

  /* The agent waits as long as it said it would, and no longer. */
  ask->time_limit_ms = (guint) CLAMP (timeout_ms, 1, G_MAXINT);
  g_clear_handle_id (&cmd->timeout_source, g_source_remove);
  cmd->timeout_source = g_timeout_add (ask->time_limit_ms, ask_timeout_cb, task);
  set_ask (self, ask, task, tw_json_get_string (cmd->params, "message", NULL),
           cmd->agent_name != NULL ? cmd->agent_name : "An agent");
}

void
_tw_browser_tab_start_handoff (TwBrowserTab *self,
                               GTask        *task,
                               TabCommand   *cmd)
{
  ask_person (self, &self->handoff, task, cmd);
}

void
_tw_browser_tab_start_annotate (TwBrowserTab *self,
                                GTask        *task,
                                TabCommand   *cmd)
{
  if (self->annotate.task != NULL)
    {
      _tw_browser_tab_finish_command (self, task, NULL,
                                      g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                                   "tab %s already waits for the person's marks for "
                                                   "another call", self->id));
      return;
    }

  ask_person (self, &self->annotate, task, cmd);
}

void
_tw_browser_tab_end_person_ask (TwBrowserTab *self,
                                TabPersonAsk *ask)
{
  if (ask == &self->annotate)
    self->annotate_sending = FALSE;
  set_ask (self, ask, NULL, NULL, NULL);
}

/* Finishes the waiting call of @ask with the page and @outcome; FALSE when
 * none waits. */
static gboolean
answer_ask (TwBrowserTab *self,
            TabPersonAsk *ask,
            const char   *outcome)
{
  JsonObject *result;

  if (ask->task == NULL)
    return FALSE;

  result = _tw_browser_tab_build_page_result (self, NULL);
  json_object_remove_member (result, "status");
  json_object_set_string_member (result, "outcome", outcome);
  _tw_browser_tab_finish_command (self, ask->task, result, NULL);

  return TRUE;
}

/* The message of a waiting call, NULL while none waits; its agent's name
 * only while the call still waits. */

const char *
tw_browser_tab_get_handoff_message (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->handoff.message;
}

const char *
tw_browser_tab_get_handoff_agent (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->handoff.task != NULL ? self->handoff.agent : NULL;
}

const char *
tw_browser_tab_get_annotate_message (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->annotate.message;
}

const char *
tw_browser_tab_get_annotate_agent (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->annotate.task != NULL ? self->annotate.agent : NULL;
}

gboolean
tw_browser_tab_answer_handoff (TwBrowserTab *self,
                               gboolean      done)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return answer_ask (self, &self->handoff, done ? "done" : "cancelled");
}

gboolean
tw_browser_tab_cancel_annotation (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  /* Marks on their way can no longer be cancelled. */
  if (self->annotate_sending)
    return FALSE;

  return answer_ask (self, &self->annotate, "cancelled");
}
