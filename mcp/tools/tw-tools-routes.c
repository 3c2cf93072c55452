/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_route: mock a tab's requests (webview/tw-tab-routes.h). */

static char *
format_route (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonArray *routes = tw_json_get_array (result, "routes");
  JsonArray *removed = tw_json_get_array (result, "removed");
  const char *added = tw_json_get_string (result, "added", NULL);
  guint n = routes != NULL ? json_array_get_length (routes) : 0;

  if (added != NULL)
    {
      const char *action = "fulfill";

      for (guint i = 0; i < n; i++)
        {
          JsonObject *route = json_array_get_object_element (routes, i);

          if (g_strcmp0 (tw_json_get_string (route, "id", NULL), added) == 0)
            action = tw_json_get_string (route, "action", "fulfill");
        }
      g_string_append_printf (text, "Added route %s, from now on in the page shown and the next ones: ", added);
      if (g_str_equal (action, "abort"))
        g_string_append (text, "every load of the tab that matches fails as a network error: fetch() and "
                         "XMLHttpRequest (counted below), and documents, frames, images, scripts, style sheets, "
                         "fonts and media (not counted).");
      else if (g_str_equal (action, "continue"))
        g_string_append (text, "the page's fetch() and XMLHttpRequest requests that match go out with the "
                         "changed headers, and so do its other loads (documents, images, scripts), which are "
                         "not counted.");
      else
        g_string_append (text, "every request of the page that matches gets this answer as if the server sent "
                         "it, and the server never sees it: fetch() and XMLHttpRequest (an answer to another "
                         "origin is checked and filtered as CORS would), images, scripts, style sheets, fonts "
                         "and frames; a page the tab goes to is shown at its own URL. The page sees the status "
                         "and headers where it can see them (fetch, XMLHttpRequest); an image, script or style "
                         "sheet is taken as one of another origin (a script's errors are muted, a style sheet's "
                         "rules cannot be read), and a frame's document shows a tabwright-route: address.");
    }
  else if (removed != NULL)
    g_string_append_printf (text, "Removed %u route%s.", json_array_get_length (removed),
                            json_array_get_length (removed) == 1 ? "" : "s");

  g_string_append_printf (text, "%sThe tab has %u route%s%s", text->len > 0 ? " " : "", n, n == 1 ? "" : "s",
                          n > 0 ? ":" : ".");
  for (guint i = 0; i < n; i++)
    {
      JsonObject *route = json_array_get_object_element (routes, i);
      JsonArray *last = tw_json_get_array (route, "lastRequests");
      const char *action = tw_json_get_string (route, "action", "?");

      g_string_append_printf (text, "\n- id: %s, url: %s, %s%s", tw_json_get_string (route, "id", "?"),
                              tw_json_get_string (route, "url", "?"),
                              tw_json_get_string (route, "method", ""),
                              tw_json_get_string (route, "method", NULL) != NULL ? " " : "");
      if (g_str_equal (action, "fulfill"))
        g_string_append_printf (text, "answers HTTP %" G_GINT64_FORMAT, tw_json_get_int (route, "status", 200));
      else if (g_str_equal (action, "abort"))
        g_string_append (text, "fails (network error)");
      else
        g_string_append (text, "sends on with changed request headers");
      g_string_append_printf (text, ", answered %" G_GINT64_FORMAT " request%s",
                              tw_json_get_int (route, "hits", 0), tw_json_get_int (route, "hits", 0) == 1 ? "" : "s");
      for (guint j = 0; last != NULL && j < json_array_get_length (last); j++)
        g_string_append_printf (text, "%s%s", j == 0 ? ", last: " : "; ", json_array_get_string_element (last, j));
    }
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  return g_string_free (text, FALSE);
}

static const TwToolDef route_tools[] = {
  {
    .name = "browser_route",
    .title = "Mock a tab's API requests",
    .description =
      "Mock or block a tab's network requests: requests whose URL matches url (fetch/XHR API "
      "calls, pages, images, scripts, style sheets) get the given status, headers and body (or "
      "bodyPath, a workspace file) as if the server sent them, fail (abort), or go out with "
      "changed request headers (setHeaders). The server never sees an answered request. With "
      "only browserId: list the routes and what they answered; remove: a route id or \"all\".",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_ROUTE,
    .arguments = TW_TOOL_ARGUMENTS ("url", "method", "status", "headers", "body", "bodyPath",
                                    "abort", "setHeaders", "remove"),
    .format = format_route,
  },
};

const TwToolTable tw_tools_routes = TW_TOOL_TABLE (route_tools);
