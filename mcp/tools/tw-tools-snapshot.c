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
  GString *text = g_string_new (tw_tool_get_string (result, "text", ""));

  tw_tool_append_dialogs (text, result);

  return g_string_free (text, FALSE);
}

static void
snapshot_handler (TwToolCall *call)
{
  static const char * const options[] = { "interactive", "ref", "maxChars", "cursor", "diff", NULL };
  /* The schema has checked the options; the page runtime checks them again
   * for callers that are not this tool. */
  g_autoptr(JsonObject) params = tw_tool_copy_arguments (call, options);

  tw_tool_call_run_command (call, TW_TAB_COMMAND_SNAPSHOT, tw_tool_get_browser_id (call),
                            params, format_snapshot);
}

static const TwToolDef snapshot_tools[] = {
  {
    .name = "browser_snapshot",
    .title = "Read the page",
    .description =
      "Read the page: returns what the tab shows as an accessibility tree, one element per "
      "line, e.g. `- button \"Save\" @e7 [disabled]` or `- textbox \"Email\" @e5 "
      "[value=\"a@b.c\"]`, with headings, links, form fields, text and frames. Every element "
      "gets a ref like @e7 that the action tools take to click a button, fill a form field or "
      "select an option; a ref keeps naming the same element in later snapshots. Take a new "
      "snapshot after the page changes. Use interactive=true to list only buttons, links and "
      "fields (with the landmarks and headings around them), ref to read one part of the page, "
      "cursor to continue a long page that was cut at maxChars characters, and diff=true for "
      "only what changed since the last snapshot.",
    .input_schema =
      "{"
        "\"type\": \"object\", "
        "\"properties\": {"
          TW_TOOL_BROWSER_ID_PROPERTY ", "
          "\"interactive\": {\"type\": \"boolean\", \"description\": \"Only the elements you can act on (buttons, links, form fields, tabs, menu items), with the landmarks and headings that locate them. Much shorter on long pages. Default false.\"}, "
          "\"ref\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"Only this element and what is inside it, e.g. \\\"@e12\\\" for one form or dialog from an earlier snapshot.\"}, "
          "\"maxChars\": {\"type\": \"integer\", \"minimum\": 1000, \"maximum\": 1000000, \"default\": 40000, \"description\": \"Longest reply in characters. A longer page is cut at a line and the reply ends with a cursor to continue. Default 40000.\"}, "
          "\"diff\": {\"type\": \"boolean\", \"description\": \"Only what changed since the previous snapshot of this tab: the lines added, removed, changed and moved, with their refs.\"}, "
          "\"cursor\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"Continue a snapshot that was cut: the cursor its last line gave.\"}"
        "}, "
        "\"required\": [\"browserId\"], "
        "\"additionalProperties\": false"
      "}",
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
