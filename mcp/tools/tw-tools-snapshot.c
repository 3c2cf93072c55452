/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_snapshot: the page as an accessibility tree with @eN refs. Its
 * reply is text only (no outputSchema), so the tree reaches the model as it
 * is, not escaped inside JSON. */

static char *
format_snapshot (JsonObject *result)
{
  GString *text = g_string_new (tw_json_get_string (result, "text", ""));

  tw_tool_append_dialogs (text, result);

  return g_string_free (text, FALSE);
}

static void
snapshot_handler (TwToolCall *call)
{
  static const char * const options[] = { "interactive", "ref", "maxChars", "cursor", "diff", NULL };
  /* The schema has checked the options; the page runtime checks them again
   * for callers that are not this tool. */
  tw_tool_run_tab_command (call, TW_TAB_COMMAND_SNAPSHOT, options, format_snapshot);
}

static const TwToolDef snapshot_tools[] = {
  {
    .name = "browser_snapshot",
    .title = "Read the page",
    .description =
      "Read the page to find its buttons, links and fields: the tab as an accessibility tree, "
      "one element per line, e.g. `- button "
      "\"Save\" @e7 [disabled]`. Each element has a ref (@e7) that the action tools take to "
      "click, fill or select; refs stay stable across snapshots. Take a new snapshot after the "
      "page changes. interactive=true lists only controls; ref reads one part; cursor continues "
      "a page cut at maxChars; diff=true gives only what changed since the last snapshot.",
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      "\"interactive\": {\"type\": \"boolean\", \"description\": \"Only controls, with the landmarks and headings around them.\"}, "
      "\"ref\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"Only this element, e.g. @e12 for a form.\"}, "
      "\"maxChars\": {\"type\": \"integer\", \"minimum\": 1000, \"maximum\": 1000000, \"default\": 40000, \"description\": \"Longest reply; a longer one ends with a cursor.\"}, "
      "\"diff\": {\"type\": \"boolean\", \"description\": \"Only what changed since the last snapshot.\"}, "
      "\"cursor\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"Continue a cut snapshot.\"}",
      "\"browserId\""),
    .output_schema = NULL,
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .handler = snapshot_handler,
  },
};

const TwToolDef *
tw_tools_snapshot_get (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (snapshot_tools);
  return snapshot_tools;
}
