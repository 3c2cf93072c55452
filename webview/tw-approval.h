/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* One step of an agent that waits for the person's OK (issue 32): who
 * asks, in which tab, for what. The tab shows it ("approval" of
 * TwBrowserTab) and whoever answers for the person (the banner over the
 * tab, the window's approval action) calls tw_approval_answer(); the
 * browser, which made it, then lets the call run or denies it. */

typedef enum
{
  TW_APPROVAL_ALLOW_ONCE,
  TW_APPROVAL_ALLOW_AGENT,
  TW_APPROVAL_DENY,
} TwApprovalAnswer;

#define TW_TYPE_APPROVAL (tw_approval_get_type ())
G_DECLARE_FINAL_TYPE (TwApproval, tw_approval, TW, APPROVAL, GObject)

TwApproval *tw_approval_new            (const char       *browser_id,
                                        const char       *agent_id,
                                        const char       *agent_name,
                                        const char       *action,
                                        const char       *summary,
                                        const char       *detail);

const char *tw_approval_get_browser_id (TwApproval       *self);
const char *tw_approval_get_agent_id   (TwApproval       *self);
const char *tw_approval_get_agent_name (TwApproval       *self);
/* What needs the OK: a tool name ("browser_evaluate") or "downloads",
 * "cross-origin-forms". */
const char *tw_approval_get_action     (TwApproval       *self);
/* For the person: "run a script in the page". */
const char *tw_approval_get_summary    (TwApproval       *self);
/* The script, the files, the address; may be NULL. */
const char *tw_approval_get_detail     (TwApproval       *self);
gboolean    tw_approval_get_answered   (TwApproval       *self);

/* Answers for the person; @reason (may be NULL) goes to the agent with a
 * denial. Emits "answered" (answer, reason) once; FALSE when it was
 * answered before. */
gboolean    tw_approval_answer         (TwApproval       *self,
                                        TwApprovalAnswer  answer,
                                        const char       *reason);

/* "allow-once", "allow-agent" or "deny" to an answer; FALSE for others. */
gboolean    tw_approval_answer_from_string (const char       *text,
                                            TwApprovalAnswer *answer);

G_END_DECLS
