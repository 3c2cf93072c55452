/* SPDX-License-Identifier: GPL-3.0-or-later */

/* browser_route for every load of a page, not only fetch() and
 * XMLHttpRequest (which the page world answers: webview/page-world/
 * routes.js). Each request the web process is about to send passes
 * through WebKitWebPage::send-request. A request that matches one of the
 * page's routes is changed here, before it leaves the process:
 *
 * - fulfil: its URI becomes tabwright-route://answer/ID/URL, which the UI
 *   process answers with the route's status, headers and body
 *   (webview/tw-tab-routes.c). The real server never sees it. A document
 *   of the main frame is stopped instead, and the UI process told, which
 *   loads the route's answer at the document's own URL (documents the tab
 *   itself loads, it answers before they get here).
 * - continue: its headers are set as the route says.
 * - abort: it is cancelled.
 *
 * The routes come from the tab's user script in an isolated world of
 * their own, which calls __tabwrightSetRoutes(json) at the start of every
 * document of the page, before the document asks for anything, and again
 * whenever the routes change. So they are here in every web process the
 * page's documents use, from their first request on. Page scripts cannot
 * see that world. */

#include "config.h"

#include "tw-extension-native.h"
#include "tw-extension-routes.h"
#include "tw-web-process-extension.h"

#include <json-glib/json-glib.h>

typedef struct
{
  char       *id;
  GRegex     *regex;
  char       *method;   /* NULL: any */
  char       *action;
  JsonObject *set_headers;
} ExtRoute;

static WebKitScriptWorld *routes_world;

static void
ext_route_free (ExtRoute *route)
{
  g_free (route->id);
  g_clear_pointer (&route->regex, g_regex_unref);
  g_free (route->method);
  g_free (route->action);
  g_clear_pointer (&route->set_headers, json_object_unref);
  g_free (route);
}

/* [{id, pattern, method, action, setHeaders}], as tw-tab-routes.c sends
 * them. What is not understood is left out. */
static GPtrArray *
parse_routes (const char *json)
{
  GPtrArray *routes = g_ptr_array_new_with_free_func ((GDestroyNotify) ext_route_free);
  g_autoptr(JsonNode) root = json_from_string (json, NULL);
  JsonArray *array;

  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    return routes;
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *object = json_array_get_object_element (array, i);
      g_autoptr(GRegex) regex = NULL;
      JsonObject *set_headers;
      const char *method;
      ExtRoute *route;

      if (object == NULL || !json_object_has_member (object, "pattern"))
        continue;
      regex = g_regex_new (json_object_get_string_member_with_default (object, "pattern", "$^"),
                           G_REGEX_DOTALL, 0, NULL);
      if (regex == NULL)
        continue;
      route = g_new0 (ExtRoute, 1);
      route->id = g_strdup (json_object_get_string_member_with_default (object, "id", ""));
      route->regex = g_steal_pointer (&regex);
      method = json_object_get_string_member_with_default (object, "method", "");
      route->method = *method != '\0' ? g_strdup (method) : NULL;
      route->action = g_strdup (json_object_get_string_member_with_default (object, "action", ""));
      set_headers = json_object_has_member (object, "setHeaders") &&
                    JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "setHeaders"))
                    ? json_object_get_object_member (object, "setHeaders") : NULL;
      route->set_headers = set_headers != NULL ? json_object_ref (set_headers) : NULL;
      g_ptr_array_add (routes, route);
    }
  return routes;
}

static void
set_routes_cb (const char *json,
               GWeakRef   *page_ref)
{
  g_autoptr(WebKitWebPage) page = g_weak_ref_get (page_ref);

  if (page == NULL || json == NULL)
    return;
  g_object_set_data_full (G_OBJECT (page), "tw-routes", parse_routes (json),
                          (GDestroyNotify) g_ptr_array_unref);
}

static void
window_object_cleared_cb (WebKitScriptWorld *world,
                          WebKitWebPage     *page,
                          WebKitFrame       *frame,
                          gpointer           user_data)
{
  tw_extension_set_native (frame, world, "__tabwrightSetRoutes", page, G_CALLBACK (set_routes_cb),
                           G_TYPE_NONE, G_TYPE_STRING, G_TYPE_INVALID);
}

/* The main frame's document being loaded: WebKit tells the page its
 * provisional URL before it asks for the document. The UI process loads
 * the route's answer at that URL instead. */
static gboolean
is_main_document (WebKitWebPage    *page,
                  WebKitURIRequest *request)
{
  return g_strcmp0 (webkit_web_page_get_uri (page), webkit_uri_request_get_uri (request)) == 0;
}

static gboolean
send_request_cb (WebKitWebPage     *page,
                 WebKitURIRequest  *request,
                 WebKitURIResponse *redirected_response,
                 gpointer           user_data)
{
  GPtrArray *routes = g_object_get_data (G_OBJECT (page), "tw-routes");
  const char *uri = webkit_uri_request_get_uri (request);
  const char *method = webkit_uri_request_get_http_method (request);

  if (routes == NULL || uri == NULL ||
      (!g_str_has_prefix (uri, "http://") && !g_str_has_prefix (uri, "https://")))
    return FALSE;

  for (guint i = 0; i < routes->len; i++)
    {
      ExtRoute *route = routes->pdata[i];

      if (route->method != NULL && g_strcmp0 (route->method, method != NULL ? method : "GET") != 0)
        continue;
      if (!g_regex_match (route->regex, uri, 0, NULL))
        continue;

      if (g_str_equal (route->action, "abort"))
        return TRUE;
      if (g_str_equal (route->action, "continue"))
        {
          SoupMessageHeaders *headers = webkit_uri_request_get_http_headers (request);
          g_autoptr(GList) names = route->set_headers != NULL ? json_object_get_members (route->set_headers) : NULL;

          for (GList *l = names; headers != NULL && l != NULL; l = l->next)
            soup_message_headers_replace (headers, l->data,
                                          json_object_get_string_member (route->set_headers, l->data));
          return FALSE;
        }
      if (g_str_equal (route->action, "fulfill") && is_main_document (page, request))
        {
          g_autofree char *allowed = g_strdup (g_object_get_data (G_OBJECT (page), "tw-route-allow"));

          /* The answer itself, which the tab loads at this URL. */
          g_object_set_data (G_OBJECT (page), "tw-route-allow", NULL);
          if (g_strcmp0 (allowed, uri) == 0)
            return FALSE;
          webkit_web_page_send_message_to_view (page,
                                                webkit_user_message_new (TW_WEB_EXTENSION_ROUTE_DOCUMENT,
                                                                         g_variant_new ("(sss)", route->id,
                                                                                        method != NULL ? method : "GET",
                                                                                        uri)),
                                                NULL, NULL, NULL);
          return TRUE;
        }
      if (g_str_equal (route->action, "fulfill"))
        {
          g_autofree char *escaped = g_uri_escape_string (uri, NULL, FALSE);
          g_autofree char *answer = g_strdup_printf (TW_WEB_EXTENSION_ROUTE_SCHEME "://answer/%s/%s",
                                                     route->id, escaped);

          webkit_uri_request_set_uri (request, answer);
        }
      return FALSE;
    }
  return FALSE;
}

static gboolean
user_message_received_cb (WebKitWebPage     *page,
                          WebKitUserMessage *message,
                          gpointer           user_data)
{
  GVariant *params = webkit_user_message_get_parameters (message);

  if (g_strcmp0 (webkit_user_message_get_name (message), TW_WEB_EXTENSION_ROUTE_ALLOW) != 0)
    return FALSE;
  if (params != NULL && g_variant_is_of_type (params, G_VARIANT_TYPE ("(s)")))
    {
      const char *url;

      g_variant_get (params, "(&s)", &url);
      g_object_set_data_full (G_OBJECT (page), "tw-route-allow", g_strdup (url), g_free);
    }
  return TRUE;
}

void
tw_extension_routes_page_created (WebKitWebPage *page)
{
  g_signal_connect (page, "send-request", G_CALLBACK (send_request_cb), NULL);
  g_signal_connect (page, "user-message-received", G_CALLBACK (user_message_received_cb), NULL);
}

void
tw_extension_routes_init (void)
{
  /* Created before any page, like the runtime's world, so the tab's user
   * script of this name runs in it. */
  routes_world = webkit_script_world_new_with_name (TW_WEB_EXTENSION_ROUTES_WORLD);
  g_signal_connect (routes_world, "window-object-cleared", G_CALLBACK (window_object_cleared_cb), NULL);
}
