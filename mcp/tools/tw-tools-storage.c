/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* Tools for what a site keeps: the workspace's cookies, a tab's
 * localStorage and sessionStorage, and all of it saved to a file and loaded
 * again, so that a login survives into later work. */

/* browser_cookies */

static void
append_cookie (GString    *text,
               JsonObject *cookie)
{
  gint64 expires = tw_json_get_int (cookie, "expires", -1);

  g_string_append_printf (text, "\n- %s=", tw_json_get_string (cookie, "name", ""));
  tw_tool_append_quoted (text, tw_json_get_string (cookie, "value", ""));
  g_string_append_printf (text, "; domain=%s; path=%s",
                          tw_json_get_string (cookie, "domain", ""),
                          tw_json_get_string (cookie, "path", "/"));
  if (expires > 0)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc (expires);
      g_autofree char *iso = when != NULL ? g_date_time_format_iso8601 (when) : NULL;

      g_string_append_printf (text, "; expires=%s", iso != NULL ? iso : "?");
    }
  else
    {
      g_string_append (text, "; session");
    }
  if (tw_json_get_boolean (cookie, "httpOnly", FALSE))
    g_string_append (text, "; HttpOnly");
  if (tw_json_get_boolean (cookie, "secure", FALSE))
    g_string_append (text, "; Secure");
  g_string_append_printf (text, "; SameSite=%s", tw_json_get_string (cookie, "sameSite", "Lax"));
}

static char *
format_cookies (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *action = tw_json_get_string (result, "action", "list");

  if (g_str_equal (action, "set"))
    {
      JsonObject *cookie = tw_json_get_object (result, "cookie");

      g_string_append (text, "Set the cookie; pages of its domain send it from their next "
                       "request on:");
      if (cookie != NULL)
        append_cookie (text, cookie);
    }
  else if (g_str_equal (action, "delete") || g_str_equal (action, "clear"))
    {
      gint64 removed = tw_json_get_int (result, "removed", 0);

      g_string_append_printf (text, "Removed %" G_GINT64_FORMAT " cookie%s.", removed,
                              removed == 1 ? "" : "s");
      g_string_append_printf (text, "\nremoved: %" G_GINT64_FORMAT, removed);
    }
  else
    {
      tw_tool_append_count (text, tw_json_get_array (result, "cookies"), "No cookies match.",
                            "cookie", ":");
      tw_tool_append_each (text, result, "cookies", append_cookie);
    }
  tw_tool_append_member (text, result, "browserId");

  return g_string_free (text, FALSE);
}

/* browser_storage */

static char *
format_storage (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *action = tw_json_get_string (result, "action", "list");
  const char *area = g_strcmp0 (tw_json_get_string (result, "area", "local"), "session") == 0
                     ? "sessionStorage" : "localStorage";
  const char *key = tw_json_get_string (result, "key", NULL);
  JsonNode *value = json_object_get_member (result, "value");
  gboolean has_value = value != NULL && JSON_NODE_HOLDS_VALUE (value);

  if (g_str_equal (action, "list"))
    {
      JsonArray *items = tw_json_get_array (result, "items");
      guint n = items != NULL ? json_array_get_length (items) : 0;

      g_string_append_printf (text, "%s holds %u item%s.", area, n, n == 1 ? "" : "s");
      for (guint i = 0; i < n; i++)
        {
          JsonObject *item = json_array_get_object_element (items, i);

          g_string_append (text, "\n- ");
          tw_tool_append_quoted (text, tw_json_get_string (item, "key", ""));
          g_string_append (text, ": ");
          tw_tool_append_quoted (text, tw_json_get_string (item, "value", ""));
          if (tw_json_get_boolean (item, "truncated", FALSE))
            g_string_append (text, " (cut; read it whole with action get)");
        }
    }
  else if (g_str_equal (action, "get") || g_str_equal (action, "set"))
    {
      if (has_value)
        {
          g_string_append_printf (text, "%s %s ", area,
                                  g_str_equal (action, "set") ? "now holds" : "holds");
          tw_tool_append_quoted (text, key != NULL ? key : "");
          g_string_append (text, ".");
        }
      else
        {
          g_string_append_printf (text, "%s has no item ", area);
          tw_tool_append_quoted (text, key != NULL ? key : "");
          g_string_append (text, ".");
        }
      if (key != NULL)
        tw_tool_append_field (text, "key", key);
      if (has_value)
        tw_tool_append_field (text, "value", json_node_get_string (value));
    }
  else
    {
      gint64 removed = tw_json_get_int (result, "removed", 0);

      g_string_append_printf (text, "Removed %" G_GINT64_FORMAT " item%s from %s.", removed,
                              removed == 1 ? "" : "s", area);
    }

  tw_tool_append_field (text, "origin", tw_json_get_string (result, "origin", "?"));
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_dialogs (text, result);

  return g_string_free (text, FALSE);
}

/* browser_storage_state */

static char *
format_storage_state (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  gboolean load = g_strcmp0 (tw_json_get_string (result, "action", "save"), "load") == 0;
  JsonArray *origins = tw_json_get_array (result, "origins");
  guint n_origins = origins != NULL ? json_array_get_length (origins) : 0;
  gint64 n_cookies = tw_json_get_int (result, "cookies", 0);
  g_autofree char *cookies = g_strdup_printf ("%" G_GINT64_FORMAT, n_cookies);
  const char *browser_id = tw_json_get_string (result, "browserId", NULL);

  g_string_append_printf (text, load ? "Loaded %" G_GINT64_FORMAT " cookies and the "
                          "localStorage of %u origin%s into "
                                     : "Saved %" G_GINT64_FORMAT " cookies and the "
                          "localStorage of %u origin%s of ",
                          n_cookies, n_origins, n_origins == 1 ? "" : "s");
  if (browser_id != NULL)
    g_string_append_printf (text, "the session of tab %s.", browser_id);
  else
    g_string_append (text, "the workspace's browser session.");
  if (browser_id != NULL)
    tw_tool_append_field (text, "browserId", browser_id);
  tw_tool_append_field (text, "path", tw_json_get_string (result, "path", "?"));
  tw_tool_append_field (text, "cookies", cookies);
  for (guint i = 0; i < n_origins; i++)
    tw_tool_append_field (text, "origin", json_array_get_string_element (origins, i));

  return g_string_free (text, FALSE);
}

static const TwToolDef storage_tools[] = {
  {
    .name = "browser_cookies",
    .title = "Read and set cookies",
    .description =
      "List, get, set, delete or clear the cookies of the workspace's browser session, which "
      "all its tabs share, or with browserId those of that tab's session (a private tab has "
      "its own). Use it to check a login cookie, sign in by setting a session "
      "cookie, or log out by clearing a site's cookies. list and clear take an optional "
      "domain filter (subdomains included); get and delete need a name. set takes the name, "
      "value, a url or domain, and optionally path, expires (seconds since 1970; none means "
      "a session cookie), httpOnly, secure and sameSite.",
    .read_only = FALSE,
    .destructive = TRUE,
    .idempotent = FALSE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_COOKIES,
    .arguments = TW_TOOL_ARGUMENTS ("action", "name", "value", "domain", "url", "path", "expires",
                                    "httpOnly", "secure", "sameSite"),
    .format = format_cookies,
  },
  {
    .name = "browser_storage",
    .title = "Read and set localStorage or sessionStorage",
    .description =
      "List, get, set, delete or clear the localStorage (area local, the default) or "
      "sessionStorage (area session) of the site a tab shows. Use it to read what a web app "
      "saved, to set a feature flag or token before reloading, or to reset an app's state. "
      "get, set and delete need a key; set a value.",
    .read_only = FALSE,
    .destructive = TRUE,
    .idempotent = FALSE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_STORAGE,
    .arguments = TW_TOOL_ARGUMENTS ("area", "action", "key", "value"),
    .format = format_storage,
  },
  {
    .name = "browser_storage_state",
    .title = "Save or load cookies and localStorage",
    .description =
      "Save the workspace's cookies and the localStorage of the sites its tabs show to a "
      "JSON file in the workspace, or load such a file back (its cookies replace those of "
      "the same name, domain and path; its localStorage is written per origin). Log in "
      "once, save, and load the file to start later work logged in. The file has "
      "Playwright's storage state format: {cookies, origins: [{origin, localStorage}]}. With "
      "browserId it saves or loads that tab's session instead (a private tab has its own).",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_STORAGE_STATE,
    .arguments = TW_TOOL_ARGUMENTS ("action", "path"),
    .format = format_storage_state,
  },
};

const TwToolTable tw_tools_storage = TW_TOOL_TABLE (storage_tools);
