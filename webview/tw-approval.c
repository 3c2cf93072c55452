/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-approval.h"

struct _TwApproval
{
  GObject  parent_instance;

  char    *browser_id;
  char    *agent_id;
  char    *agent_name;
  char    *action;
  char    *summary;
  char    *detail;
  gboolean answered;
};

enum {
  ANSWERED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TwApproval, tw_approval, G_TYPE_OBJECT)

static void
tw_approval_finalize (GObject *object)
{
  TwApproval *self = TW_APPROVAL (object);

  g_clear_pointer (&self->browser_id, g_free);
  g_clear_pointer (&self->agent_id, g_free);
  g_clear_pointer (&self->agent_name, g_free);
  g_clear_pointer (&self->action, g_free);
  g_clear_pointer (&self->summary, g_free);
  g_clear_pointer (&self->detail, g_free);

  G_OBJECT_CLASS (tw_approval_parent_class)->finalize (object);
}

static void
tw_approval_class_init (TwApprovalClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tw_approval_finalize;

  /**
   * TwApproval::answered:
   * @answer: a #TwApprovalAnswer
   * @reason: (nullable): what the person said with a denial
   */
  signals[ANSWERED] =
    g_signal_new ("answered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_STRING);
}

static void
tw_approval_init (TwApproval *self)
{
}

TwApproval *
tw_approval_new (const char *browser_id,
                 const char *agent_id,
                 const char *agent_name,
                 const char *action,
                 const char *summary,
                 const char *detail)
{
  TwApproval *self;

  g_return_val_if_fail (action != NULL, NULL);
  g_return_val_if_fail (summary != NULL, NULL);

  self = g_object_new (TW_TYPE_APPROVAL, NULL);
  self->browser_id = g_strdup (browser_id);
  self->agent_id = g_strdup (agent_id);
  self->agent_name = g_strdup (agent_name != NULL ? agent_name : agent_id);
  self->action = g_strdup (action);
  self->summary = g_strdup (summary);
  self->detail = g_strdup (detail);

  return self;
}

const char *
tw_approval_get_browser_id (TwApproval *self)
{
  g_return_val_if_fail (TW_IS_APPROVAL (self), NULL);

  return self->browser_id;
}

const char *
tw_approval_get_agent_id (TwApproval *self)
{
  g_return_val_if_fail (TW_IS_APPROVAL (self), NULL);

  return self->agent_id;
}

const char *
tw_approval_get_agent_name (TwApproval *self)
{
  g_return_val_if_fail (TW_IS_APPROVAL (self), NULL);

  return self->agent_name;
}

const char *
tw_approval_get_action (TwApproval *self)
{
  g_return_val_if_fail (TW_IS_APPROVAL (self), NULL);

  return self->action;
}

const char *
tw_approval_get_summary (TwApproval *self)
{
  g_return_val_if_fail (TW_IS_APPROVAL (self), NULL);

  return self->summary;
}

const char *
tw_approval_get_detail (TwApproval *self)
{
  g_return_val_if_fail (TW_IS_APPROVAL (self), NULL);

  return self->detail;
}

gboolean
tw_approval_get_answered (TwApproval *self)
{
  g_return_val_if_fail (TW_IS_APPROVAL (self), FALSE);

  return self->answered;
}

gboolean
tw_approval_answer (TwApproval       *self,
                    TwApprovalAnswer  answer,
                    const char       *reason)
{
  g_return_val_if_fail (TW_IS_APPROVAL (self), FALSE);
  g_return_val_if_fail (answer <= TW_APPROVAL_DENY, FALSE);

  if (self->answered)
    return FALSE;

  self->answered = TRUE;
  if (reason != NULL && reason[0] == '\0')
    reason = NULL;
  g_signal_emit (self, signals[ANSWERED], 0, (int) answer, reason);

  return TRUE;
}

gboolean
tw_approval_answer_from_string (const char       *text,
                                TwApprovalAnswer *answer)
{
  g_return_val_if_fail (answer != NULL, FALSE);

  if (g_strcmp0 (text, "allow-once") == 0)
    *answer = TW_APPROVAL_ALLOW_ONCE;
  else if (g_strcmp0 (text, "allow-agent") == 0)
    *answer = TW_APPROVAL_ALLOW_AGENT;
  else if (g_strcmp0 (text, "deny") == 0)
    *answer = TW_APPROVAL_DENY;
  else
    return FALSE;

  return TRUE;
}
