/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* Own tabs (issue 32): a tab belongs to the agent that opened it, and other
 * agents' calls on it are denied. Its owner shares it with every agent, or
 * hands it over to one. Offered in the "agents" group, off by default: an
 * agent that works alone never needs it. */

static char *
format_share_tab (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *owner = tw_json_get_string (result, "owner", NULL);

  if (tw_json_get_boolean (result, "shared", FALSE))
    g_string_append (text, "The tab is shared: every agent may use it.");
  else
    g_string_append (text, "The tab is not shared.");
  if (owner != NULL)
    g_string_append_printf (text, " It belongs to %s.", owner);
  else
    g_string_append (text, " It belongs to the person.");
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_field (text, "owner", owner != NULL ? owner : "person");

  return g_string_free (text, FALSE);
}

static const TwToolDef sharing_tools[] = {
  {
    .name = "browser_share_tab",
    .title = "Share a tab or hand it over",
    .description =
      "Share a tab you own with every other agent, or hand it over to one agent (or back to "
      "the person). Other agents' calls on your tabs fail with browser_denied until you do.",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_SHARE_TAB,
    .arguments = TW_TOOL_ARGUMENTS ("agent"),
    .format = format_share_tab,
  },
};

const TwToolTable tw_tools_sharing = TW_TOOL_TABLE (sharing_tools);
