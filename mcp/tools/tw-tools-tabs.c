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
      if (owner != NULL)
        g_string_append_printf (text, ", agent: %s", owner);
      /* Emulation (issue 18). */
      if (json_object_get_member (tab, "emulation") != NULL &&
          JSON_NODE_HOLDS_OBJECT (json_object_get_member (tab, "emulation")))
        {
          JsonObject *object = json_object_get_object_member (tab, "emulation");
          g_autofree char *emulation = tw_tool_describe_emulation (object);
          g_autofree char *media = tw_tools_describe_media (object);

          if (emulation != NULL || media != NULL)
            g_string_append_printf (text, ", emulating %s%s%s", emulation != NULL ? emulation : "",
                                    emulation != NULL && media != NULL ? ", " : "", media != NULL ? media : "");
        }
    }

  return g_string_free (text, FALSE);
}

static void
list_tabs_handler (TwToolCall *call)
{
  g_autoptr(JsonObject) params = json_object_new ();

  tw_tool_call_run_command (call, TW_TAB_COMMAND_LIST_TABS, NULL, params, format_tab_list);
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

static void
new_tab_handler (TwToolCall *call)
{
  JsonObject *arguments = tw_tool_call_get_arguments (call);
  const char *url = tw_json_get_string (arguments, "url", NULL);
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(GError) error = NULL;

  if (url != NULL)
    {
      if (!tw_tool_check_http_url (url, &error))
        {
          tw_tool_call_return_error (call, error);
          return;
        }

      json_object_set_string_member (params, "url", url);
    }
  if (json_object_has_member (arguments, "private"))
    json_object_set_member (params, "private",
                            json_node_copy (json_object_get_member (arguments, "private")));
  if (json_object_has_member (arguments, "context"))
    json_object_set_member (params, "context",
                            json_node_copy (json_object_get_member (arguments, "context")));

  tw_tool_call_run_command (call, TW_TAB_COMMAND_NEW_TAB, NULL, params, format_new_tab);
}

static char *
format_close_tab (JsonObject *result)
{
  return g_strdup_printf ("Closed the tab; its browserId no longer works.\nbrowserId: %s",
                          tw_json_get_string (result, "browserId", "?"));
}

static void
close_tab_handler (TwToolCall *call)
{
  static const char * const no_names[] = { NULL };

  tw_tool_run_tab_command (call, TW_TAB_COMMAND_CLOSE_TAB, no_names, format_close_tab);
}

static const TwToolDef tab_tools[] = {
  {
    .name = "browser_list_tabs",
    .title = "List browser tabs",
    .description =
      "List the open browser tabs of this workspace: each tab's browserId, URL, title, whether "
      "it is loading or private, and the agent driving it.",
    .input_schema = TW_TOOL_NO_ARGUMENTS_SCHEMA,
    .output_schema = TW_TOOL_OUTPUT_SCHEMA (
      "\"tabs\": {"
      "\"type\": \"array\", "
      "\"description\": \"The open tabs, in the order the tab strip shows them.\", "
      "\"items\": {"
      "\"type\": \"object\", "
      "\"properties\": {"
      "\"browserId\": {\"type\": \"string\", \"description\": \"Identifies the tab in other browser_* calls.\"}, "
      "\"url\": {\"type\": \"string\", \"description\": \"The URL the tab shows.\"}, "
      "\"title\": {\"type\": \"string\", \"description\": \"The page title; empty when the page has none.\"}, "
      "\"loading\": {\"type\": \"boolean\", \"description\": \"True while a page is still loading.\"}, "
      "\"private\": {\"type\": \"boolean\", \"description\": \"True for a private tab (browser_new_tab with private: true) and the tabs its pages opened.\"}, "
      "\"context\": {\"type\": \"string\", \"description\": \"The private context the tab shares a session with (browser_new_tab's context); absent for other tabs.\"}, "
      "\"owner\": {\"type\": [\"string\", \"null\"], \"description\": \"Name of the agent driving the tab; null for a tab no agent has used.\"}"
      "}, "
      "\"required\": [\"browserId\", \"url\", \"title\", \"loading\", \"private\"]"
      "}"
      "}",
      "\"tabs\""),
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .handler = list_tabs_handler,
  },
  {
    .name = "browser_new_tab",
    .title = "Open a new browser tab",
    .description =
      "Open a new browser tab in the background, at an http(s) URL or blank. Returns after the "
      "first load with its browserId (pass it to the other browser_* tools), final URL, title "
      "and HTTP status.",
    .input_schema = TW_TOOL_OPTIONAL_INPUT_SCHEMA (
      "\"url\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"The URL to open, e.g. http://127.0.0.1:8000/\"}, "
      "\"private\": {\"type\": \"boolean\", \"description\": \"Own session: no workspace cookies or storage, nothing kept.\"}, "
      "\"context\": {\"type\": \"string\", \"description\": \"Private tabs of one context share a session.\"}"),
    .output_schema = TW_TOOL_PAGE_OUTPUT_SCHEMA,
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .handler = new_tab_handler,
  },
  {
    .name = "browser_close_tab",
    .title = "Close a browser tab",
    .description =
      "Close a browser tab you no longer need; its browserId stops working.",
    .input_schema = TW_TOOL_BROWSER_ID_ONLY_SCHEMA,
    .output_schema = TW_TOOL_OUTPUT_SCHEMA (
      "\"browserId\": {\"type\": \"string\", \"description\": \"The tab that was closed.\"}, "
      "\"closed\": {\"type\": \"boolean\", \"description\": \"Always true: a tab that cannot be closed is an error.\"}",
      "\"browserId\", \"closed\""),
    .read_only = FALSE,
    .destructive = TRUE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .handler = close_tab_handler,
  },
};

const TwToolDef *
tw_tools_tabs_get (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (tab_tools);
  return tab_tools;
}
