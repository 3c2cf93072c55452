/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_demonstration (issue 33, "Teach"): the agent asks the person to
 * show how something is done. The person records in the tab (Demonstrate…
 * in the tab's menu); their own clicks and typing come back as steps, by
 * role and name as browser_snapshot prints them, and as a saved flow that
 * browser_replay runs. The call waits, saying every few seconds that it
 * is alive, while the agent's other calls go on. */

#define DEMONSTRATION_DEFAULT_TIMEOUT_MS 300000

/* "2. fill textbox "Email" = "a@b.c"", one step a line. */
static void
append_step (GString    *text,
             JsonObject *step)
{
  const char *action = tw_json_get_string (step, "action", "?");
  const char *role = tw_json_get_string (step, "role", NULL);
  const char *value = tw_json_get_string (step, "value", NULL);
  const char *navigated_to = tw_json_get_string (step, "navigatedTo", NULL);

  g_string_append_printf (text, "\n%" G_GINT64_FORMAT ". ", tw_json_get_int (step, "step", 0));
  if (g_str_equal (action, "navigate"))
    {
      g_string_append_printf (text, "navigate to %s", tw_json_get_string (step, "url", ""));
      return;
    }
  if (g_str_equal (action, "reload"))
    {
      g_string_append (text, "reload");
      return;
    }

  g_string_append (text, action);
  if (g_str_equal (action, "press"))
    g_string_append_printf (text, " %s in", tw_json_get_string (step, "key", "Enter"));
  if (role != NULL)
    {
      g_string_append_printf (text, " %s ", role);
      tw_tool_append_quoted (text, tw_json_get_string (step, "name", ""));
    }
  if (tw_json_get_boolean (step, "secret", FALSE))
    g_string_append (text, " = ••• (a password: its value is never recorded; fill it yourself)");
  else if (value != NULL)
    {
      g_string_append (text, " = ");
      tw_tool_append_quoted (text, value);
    }
  if (navigated_to != NULL)
    g_string_append_printf (text, " → opened %s", navigated_to);
}

static void
demonstration_reply (TwToolCall *call,
                     JsonObject *result)
{
  const char *outcome = tw_json_get_string (result, "outcome", "discarded");
  const char *flow = tw_json_get_string (result, "flow", NULL);
  JsonArray *steps = tw_json_get_array (result, "steps");
  guint n = steps != NULL ? json_array_get_length (steps) : 0;
  g_autoptr(GString) text = g_string_new (NULL);

  if (!g_str_equal (outcome, "finished"))
    {
      g_string_append (text, "The person discarded the demonstration; nothing was saved.");
      tw_tool_append_field (text, "outcome", outcome);
      tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
      tw_tool_call_return_text (call, text->str, json_object_ref (result));
      return;
    }

  g_string_append_printf (text, "The person demonstrated %u step%s", n, n == 1 ? "" : "s");
  if (flow != NULL)
    g_string_append (text, ", saved as a flow: browser_replay runs them again with flow set to "
                     "its name.");
  else
    g_string_append_printf (text, "; no flow was saved (%s).",
                            tw_json_get_string (result, "notSaved", "unknown reason"));
  tw_tool_append_field (text, "outcome", outcome);
  if (flow != NULL)
    tw_tool_append_field (text, "flow", flow);
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_member (text, result, "url");
  g_string_append (text, "\nSteps (elements by role and name, as browser_snapshot prints them; "
                   "the flow first opens the url above):");
  for (guint i = 0; i < n; i++)
    append_step (text, json_array_get_object_element (steps, i));

  tw_tool_call_return_text (call, text->str, json_object_ref (result));
}

static void
demonstration_handler (TwToolCall *call)
{
  tw_tool_wait_for_person (call, TW_TAB_COMMAND_DEMONSTRATION, "demonstrate",
                           DEMONSTRATION_DEFAULT_TIMEOUT_MS, demonstration_reply);
}

static const TwToolDef demonstrate_tools[] = {
  {
    .name = "browser_demonstration",
    .title = "Learn steps the person demonstrates",
    .description =
      "Ask the person watching to show you how it is done: they record their own clicks and "
      "typing in the tab and stop. Waits for them (or timeoutMs); your other calls go on. "
      "Returns the steps (action, role, name, value) and the saved flow's name for "
      "browser_replay.",
    .search_hint = "demonstrate, show me how, record steps, teach, learn from person, flow",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = FALSE,
    .handler = demonstration_handler,
  },
};

const TwToolTable tw_tools_demonstrate = TW_TOOL_TABLE (demonstrate_tools);
