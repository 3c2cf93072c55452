/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* Tools that move a tab between pages: navigate, back, forward, reload. */

static char *
format_page (const char *lead,
             JsonObject *result)
{
  GString *text = g_string_new (lead);

  tw_tool_append_page (text, result);

  return g_string_free (text, FALSE);
}

static char *
format_navigate (JsonObject *result)
{
  return format_page ("Navigated to the page.", result);
}

static char *
format_back (JsonObject *result)
{
  return format_page ("Went back to the previous page.", result);
}

static char *
format_forward (JsonObject *result)
{
  return format_page ("Went forward to the next page.", result);
}

static char *
format_reload (JsonObject *result)
{
  return format_page ("Reloaded the page.", result);
}

static void
navigate_handler (TwToolCall *call)
{
  const char *url = tw_json_get_string (tw_tool_call_get_arguments (call), "url", NULL);
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(GError) error = NULL;

  /* Checked here, before the tab sees it: file:, javascript:, data: and the
   * like never reach the web view. */
  if (!tw_tool_check_http_url (url, &error))
    {
      tw_tool_call_return_error (call, error);
      return;
    }

  json_object_set_string_member (params, "url", url);
  tw_tool_call_run_command (call, TW_TAB_COMMAND_NAVIGATE, tw_tool_get_browser_id (call),
                            params, format_navigate);
}

/* The history commands take nothing but the tab, and differ only in the
 * command and the words of the result. */
typedef struct
{
  const char       *tool;
  TwTabCommand      command;
  TwToolFormatFunc  format;
} HistoryCommand;

static const HistoryCommand history_commands[] = {
  { "browser_back", TW_TAB_COMMAND_BACK, format_back },
  { "browser_forward", TW_TAB_COMMAND_FORWARD, format_forward },
  { "browser_reload", TW_TAB_COMMAND_RELOAD, format_reload },
};

static void
history_handler (TwToolCall *call)
{
  static const char * const no_names[] = { NULL };
  const char *tool = tw_tool_call_get_def (call)->name;

  for (guint i = 0; i < G_N_ELEMENTS (history_commands); i++)
    {
      const HistoryCommand *c = &history_commands[i];

      if (g_str_equal (c->tool, tool))
        {
          tw_tool_run_tab_command (call, c->command, no_names, c->format);
          return;
        }
    }

  g_assert_not_reached ();
}

static const TwToolDef navigation_tools[] = {
  {
    .name = "browser_navigate",
    .title = "Go to a URL",
    .description =
      "Go to an http or https URL in a tab: open a web page, or a local dev server such as "
      "http://127.0.0.1:8000/. Returns after the load with the final URL, title and HTTP "
      "status; then take a browser_snapshot to read it.",
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      "\"url\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"The http or https URL to open, e.g. http://127.0.0.1:8000/login.\"}",
      "\"browserId\", \"url\""),
    .output_schema = TW_TOOL_PAGE_OUTPUT_SCHEMA,
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .handler = navigate_handler,
  },
  {
    .name = "browser_back",
    .title = "Go back",
    .description =
      "Go back in the tab's history (browser_denied when there is none). Returns after the "
      "load with URL, title and HTTP status.",
    .input_schema = TW_TOOL_BROWSER_ID_ONLY_SCHEMA,
    .output_schema = TW_TOOL_PAGE_OUTPUT_SCHEMA,
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .handler = history_handler,
  },
  {
    .name = "browser_forward",
    .title = "Go forward",
    .description =
      "Go forward in the tab's history (browser_denied when nothing is ahead). Returns after "
      "the load with URL, title and HTTP status.",
    .input_schema = TW_TOOL_BROWSER_ID_ONLY_SCHEMA,
    .output_schema = TW_TOOL_PAGE_OUTPUT_SCHEMA,
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .handler = history_handler,
  },
  {
    .name = "browser_reload",
    .title = "Reload the page",
    .description =
      "Reload (refresh) the page of a browser tab, e.g. to pick up a change on a dev server or to recover a crashed "
      "tab (browser_crashed). Returns after the load with URL, title and HTTP status.",
    .input_schema = TW_TOOL_BROWSER_ID_ONLY_SCHEMA,
    .output_schema = TW_TOOL_PAGE_OUTPUT_SCHEMA,
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = TRUE,
    .handler = history_handler,
  },
};

const TwToolDef *
tw_tools_navigation_get (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (navigation_tools);
  return navigation_tools;
}
