/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_handle_dialog: how a tab answers the next JavaScript dialog.
 * Dialogs never wait for an answer (DESIGN.md §3): the answer is given
 * before the action that opens the dialog. */

static char *
format_handle_dialog (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  gboolean accept = tw_json_get_boolean (result, "accept", FALSE);
  const char *prompt_text = tw_json_get_string (result, "promptText", NULL);

  g_string_append_printf (text, "The next dialog of the tab will be %s",
                          accept ? "accepted (OK)" : "dismissed (Cancel)");
  if (accept && prompt_text != NULL)
    g_string_append_printf (text, ", a prompt answered \"%s\"", prompt_text);
  g_string_append (text, "; the result of the action that opens it reports it.");
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));

  return g_string_free (text, FALSE);
}

static const TwToolDef dialogs_tools[] = {
  {
    .name = "browser_handle_dialog",
    .title = "Answer the next dialog",
    .description =
      "Answer the tab's next JavaScript dialog (alert, confirm, prompt): accept or dismiss, "
      "with the text for prompt(). Call it before the action that opens the dialog. Otherwise "
      "alerts are accepted and other dialogs dismissed.",
    .search_hint = "accept, dismiss alert, confirm, prompt dialog",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_HANDLE_DIALOG,
    .arguments = TW_TOOL_ARGUMENTS ("accept", "promptText"),
    .format = format_handle_dialog,
  },
};

const TwToolTable tw_tools_dialogs = TW_TOOL_TABLE (dialogs_tools);
