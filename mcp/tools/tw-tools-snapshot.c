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
  GString *text = g_string_new (NULL);

  tw_tool_append_snapshot (text, tw_json_get_string (result, "text", ""));

  tw_tool_append_dialogs (text, result);

  return g_string_free (text, FALSE);
}

static const TwToolDef snapshot_tools[] = {
  {
    .name = "browser_snapshot",
    .title = "Read the page: see what is on the web page, get its accessibility tree, find buttons "
             "and links",
    .description =
      "Read the page to find its buttons, links and fields: the tab as an accessibility tree, "
      "one element per line, e.g. `- button "
      "\"Save\" @e7 [disabled]`. Each element has a ref (@e7) that the action tools take to "
      "click, fill or select; refs stay stable across snapshots. Take a new snapshot after the "
      "page changes. interactive=true lists only controls; ref reads one part; cursor continues "
      "a page cut at maxChars; diff=true gives only what changed since the last snapshot.",
    .search_hint =
      "read web page, see what is on it, text, buttons, links, form fields, accessibility tree",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_SNAPSHOT,
    .arguments = TW_TOOL_ARGUMENTS ("interactive", "ref", "maxChars", "cursor", "diff"),
    .format = format_snapshot,
  },
};

const TwToolTable tw_tools_snapshot = TW_TOOL_TABLE (snapshot_tools);
