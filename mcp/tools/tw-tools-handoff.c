/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

#include "tw-tool-call-private.h"

/* browser_handoff: the agent asks the person to do something in a tab that
 * it cannot or must not do itself (log in, solve a CAPTCHA, confirm a
 * payment), and waits for their answer. */

/* The schema's timeoutMs says the same: 5 minutes unless given, 30 at most. */
#define HANDOFF_DEFAULT_TIMEOUT_MS 300000


static void
handoff_reply (TwToolCall *call,
               JsonObject *result)
{
  const char *outcome = tw_json_get_string (result, "outcome", "cancelled");
  GString *text = g_string_new (NULL);
  g_autofree char *body = NULL;

  if (g_str_equal (outcome, "done"))
    g_string_append (text, "The person pressed Done. Take a new browser_snapshot before acting "
                     "on the page again.");
  else
    g_string_append (text, "The person cancelled the handoff; do not assume it was done. Take a "
                     "new browser_snapshot before acting on the page again.");

  tw_tool_append_field (text, "outcome", outcome);
  tw_tool_append_page (text, result);

  body = g_string_free (text, FALSE);
  tw_tool_call_return_text (call, body, json_object_ref (result));
}

static void
handoff_handler (TwToolCall *call)
{
  tw_tool_wait_for_person (call, TW_TAB_COMMAND_HANDOFF, "answer", HANDOFF_DEFAULT_TIMEOUT_MS, handoff_reply);
}

static const TwToolDef handoff_tools[] = {
  {
    .name = "browser_handoff",
    .title = "Hand a tab to the person",
    .description =
      "Ask the person watching (the user) to do what you should not in the browser tab: log "
      "in, enter the one-time code, solve the CAPTCHA, confirm payments. The tab comes to the front "
      "with your message and Done / Cancel; the call waits for their answer or timeoutMs. "
      "Snapshot again after.",
    .search_hint = "ask person, user, log in, sign in, solve CAPTCHA",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = FALSE,
    .handler = handoff_handler,
  },
};

const TwToolTable tw_tools_handoff = TW_TOOL_TABLE (handoff_tools);
