/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* Tools that open, list and close tabs. */

static char *
format_tab_list (JsonObject *result)
{
  JsonArray *tabs = tw_json_get_array (result, "tabs");
  GString *text = g_string_new (NULL);

  if (tabs == NULL || json_array_get_length (tabs) == 0)
    {
      g_string_append (text, "No tabs open.");
      return g_string_free (text, FALSE);
    }

  g_string_append_printf (text, "%u open tab%s:", json_array_get_length (tabs),
                          json_array_get_length (tabs) == 1 ? "" : "s");

  for (guint i = 0; i < json_array_get_length (tabs); i++)
    {
      JsonNode *element = json_array_get_element (tabs, i);
      g_autofree char *emulation = NULL;
      JsonObject *tab;
      const char *owner;
      const char *title;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      tab = json_node_get_object (element);
      owner = tw_json_get_string (tab, "owner", NULL);
      title = tw_json_get_string (tab, "title", "");

      g_string_append_printf (text, "\n- browserId: %s, url: %s, title: ",
                              tw_json_get_string (tab, "browserId", "?"),
                              tw_json_get_string (tab, "url", "about:blank"));
      if (title[0] != '\0')
        g_string_append_printf (text, "\"%s\"", title);
      else
        g_string_append (text, "(none)");

      if (tw_json_get_boolean (tab, "loading", FALSE))
        g_string_append (text, ", loading");
      if (tw_json_get_boolean (tab, "private", FALSE))
        g_string_append (text, ", private");
      if (tw_json_get_string (tab, "context", NULL) != NULL)
        g_string_append_printf (text, " (context: %s)", tw_json_get_string (tab, "context", NULL));
      g_string_append_printf (text, ", owner: %s", owner != NULL ? owner : "person");
      if (tw_json_get_boolean (tab, "yours", FALSE))
        g_string_append (text, " (you)");
      if (tw_json_get_boolean (tab, "shared", FALSE))
        g_string_append (text, ", shared");
      /* Emulation (issue 18). */
      emulation = tw_tool_describe_emulation (tw_json_get_object (tab, "emulation"));
      if (emulation != NULL)
        g_string_append_printf (text, ", emulating %s", emulation);
    }

  return g_string_free (text, FALSE);
}

static char *
format_new_tab (JsonObject *result)
{
  const char *context = tw_json_get_string (result, "context", NULL);
  GString *text = g_string_new (NULL);

  if (context != NULL)
    g_string_append_printf (text, "Opened a new private tab in context: %s. It shares cookies and "
                            "storage with the other private tabs of that context only; the "
                            "context is forgotten once its last tab closes.", context);
  else if (tw_json_get_boolean (result, "private", FALSE))
    g_string_append (text, "Opened a new private tab: it shares no cookies or storage "
                     "with the workspace's tabs and keeps nothing once closed.");
  else
    g_string_append (text, "Opened a new tab.");

  tw_tool_append_page (text, result);

  return g_string_free (text, FALSE);
}

static char *
format_close_tab (JsonObject *result)
{
  return g_strdup_printf ("Closed the tab; its browserId no longer works.\nbrowserId: %s",
                          tw_json_get_string (result, "browserId", "?"));
}

/* A new tab opens at an http or https URL, or at about:blank. */
static gboolean
check_new_tab (JsonObject  *arguments,
               GError     **error)
{
  const char *url = tw_json_get_string (arguments, "url", NULL);

  return url == NULL || tw_tool_check_http_url (url, error);
}

static const TwToolDef tab_tools[] = {
  {
    .name = "browser_list_tabs",
    .title = "List browser tabs",
    .description =
      "List the open browser tabs of this workspace: each tab's browserId, URL, title, whether "
      "it is loading or private, and its owner: another agent's tab is off limits unless shared.",
    .search_hint = "list which tabs are open",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_LIST_TABS,
    .format = format_tab_list,
  },
  {
    .name = "browser_new_tab",
    .title = "Open a new browser tab",
    .description =
      "Open a new browser tab in the background, optionally on a web page (an http or https "
      "URL; else about:blank). Returns after the first load with the browserId, final URL, title and HTTP "
      "status; pass the browserId to the other browser_* tools.",
    .search_hint = "open website, web page, URL, new tab",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_NEW_TAB,
    .arguments = TW_TOOL_ARGUMENTS ("url", "private", "context"),
    .format = format_new_tab,
    .check = check_new_tab,
  },
  {
    .name = "browser_close_tab",
    .title = "Close a browser tab",
    .description =
      "Close a browser tab you no longer need; its browserId stops working.",
    .search_hint = "close tab",
    .read_only = FALSE,
    .destructive = TRUE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_CLOSE_TAB,
    .format = format_close_tab,
  },
};

const TwToolTable tw_tools_tabs = TW_TOOL_TABLE (tab_tools);
