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

/* Checked here, before the tab sees it: file:, javascript:, data: and the
 * like never reach the web view. */
static gboolean
check_navigate (JsonObject  *arguments,
                GError     **error)
{
  return tw_tool_check_http_url (tw_json_get_string (arguments, "url", NULL), error);
}

static const TwToolDef navigation_tools[] = {
  {
    .name = "browser_navigate",
    .title = "Go to a URL: navigate to another page",
    .description =
      "Go to an http or https URL in a tab: open a web page, or a local dev server such as "
      "http://127.0.0.1:8000/. Returns after the load with the final URL, title and HTTP "
      "status; then take a browser_snapshot to read it.",
    .search_hint = "go to address, visit link, load local dev server, localhost",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_NAVIGATE,
    .arguments = TW_TOOL_ARGUMENTS ("url"),
    .format = format_navigate,
    .check = check_navigate,
  },
  {
    .name = "browser_back",
    .title = "Back to the previous page",
    .description =
      "Go back in the tab's history (browser_denied when there is none). Returns after the "
      "load with URL, title and HTTP status.",
    .search_hint = "go back, previous page",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_BACK,
    .format = format_back,
  },
  {
    .name = "browser_forward",
    .title = "Forward in the history",
    .description =
      "Go forward in the tab's history (browser_denied when nothing is ahead). Returns after "
      "the load with URL, title and HTTP status.",
    .search_hint = "go forward, history",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_FORWARD,
    .format = format_forward,
  },
  {
    .name = "browser_reload",
    .title = "Reload the page",
    .description =
      "Reload (refresh) the page of a browser tab, e.g. to pick up a change on a dev server or to recover a crashed "
      "tab (browser_crashed). Returns after the load with URL, title and HTTP status.",
    .search_hint = "reload, refresh",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_RELOAD,
    .format = format_reload,
  },
};

const TwToolTable tw_tools_navigation = TW_TOOL_TABLE (navigation_tools);
