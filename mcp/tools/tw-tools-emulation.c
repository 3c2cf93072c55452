/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_emulate: what a tab pretends to be. The user agent only: the
 * colour scheme, reduced motion and the print media type have no public
 * per-view API in WebKitGTK 2.50, and a runtime override of matchMedia
 * alone would leave the page's CSS media queries answering otherwise. */

static char *
format_emulate (JsonObject *result)
{
  GString *text = g_string_new (NULL);

  if (tw_tool_get_boolean (result, "reset", FALSE))
    g_string_append (text, "The tab no longer emulates anything; it uses the browser's own user agent again");
  else
    g_string_append (text, "The tab now sends the user agent given");
  g_string_append (text, " from its next page load on (navigator.userAgent and the User-Agent header); "
                   "reload or navigate to apply it to the page shown.");
  tw_tool_append_field (text, "browserId", tw_tool_get_string (result, "browserId", "?"));
  tw_tool_append_field (text, "userAgent", tw_tool_get_string (result, "userAgent", ""));

  return g_string_free (text, FALSE);
}

static void
emulation_handler (TwToolCall *call)
{
  static const char * const names[] = { "userAgent", "reset", NULL };
  g_autoptr(JsonObject) params = tw_tool_copy_arguments (call, names);

  tw_tool_call_run_command (call, TW_TAB_COMMAND_EMULATE, tw_tool_get_browser_id (call), params,
                            format_emulate);
}

static const TwToolDef emulation_tools[] = {
  {
    .name = "browser_emulate",
    .title = "Emulate a user agent",
    .description =
      "Make a tab pretend to be another browser: set its user agent (navigator.userAgent and "
      "the User-Agent header) from the next page load on, e.g. a phone browser's; reset: true "
      "undoes it. browser_list_tabs shows what a tab emulates.",
    .input_schema =
      "{"
      "\"type\": \"object\", "
      "\"properties\": {"
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      "\"userAgent\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 1000, \"description\": \"The User-Agent string to send.\"}, "
      "\"reset\": {\"type\": \"boolean\", \"description\": \"Back to the browser's own.\"}"
      "}, "
      "\"required\": [\"browserId\"], "
      "\"additionalProperties\": false"
      "}",
    .output_schema =
      "{"
      "\"type\": \"object\", "
      "\"properties\": {"
      "\"browserId\": {\"type\": \"string\"}, "
      "\"emulation\": {\"type\": \"object\", \"description\": \"What the tab emulates now; empty after a reset.\", \"properties\": {\"userAgent\": {\"type\": \"string\"}}}, "
      "\"userAgent\": {\"type\": \"string\", \"description\": \"The user agent the next load sends.\"}, "
      "\"reset\": {\"type\": \"boolean\"}"
      "}, "
      "\"required\": [\"browserId\", \"emulation\", \"userAgent\"]"
      "}",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .handler = emulation_handler,
  },
};

const TwToolDef *
tw_tools_emulation_get (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (emulation_tools);
  return emulation_tools;
}
