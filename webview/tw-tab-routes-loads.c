/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-routes.h"
#include "tw-tab-routes-private.h"

#include "extension/tw-web-process-extension.h"
#include "tw-error.h"

#include <libsoup/soup.h>
#include <string.h>

/* Routes that answer loads other than fetch() and XMLHttpRequest: a
 * document of the main frame is loaded in its request's place at its own
 * URL; frames, images, scripts, style sheets, fonts and media are sent by
 * the web-process extension to the tabwright-route: scheme, answered here
 * with the route's status, headers and body. */

/* The route's Content-Type, split into a MIME type and a charset. */
static char *
route_mime_type (Route  *route,
                 char  **charset)
{
  g_autoptr(GList) members = json_object_get_members (route->headers);
  const char *value = "text/plain";
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *type = NULL;
  const char *semicolon;

  for (GList *l = members; l != NULL; l = l->next)
    if (g_ascii_strcasecmp (l->data, "Content-Type") == 0)
      value = json_object_get_string_member (route->headers, l->data);
  semicolon = strchr (value, ';');
  type = g_strstrip (g_strndup (value, semicolon != NULL ? (gsize) (semicolon - value) : strlen (value)));
  if (semicolon != NULL)
    params = soup_header_parse_semi_param_list (semicolon + 1);
  if (charset != NULL)
    *charset = params != NULL ? g_strdup (g_hash_table_lookup (params, "charset")) : NULL;
  return g_steal_pointer (&type);
}

/* The type of the route's answer to @url. A route that gave none answers
 * a page, script or style sheet with the type its URL and body say, as a
 * server would: a style sheet from another origin applies only as
 * text/css. */
static char *
answer_type (Route      *route,
             const char *url,
             char      **charset)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *guessed = NULL;
  g_autofree char *name = NULL;
  gboolean uncertain = FALSE;

  if (!route->type_guessed)
    return route_mime_type (route, charset);
  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  name = uri != NULL ? g_path_get_basename (g_uri_get_path (uri)) : NULL;
  guessed = g_content_type_guess (name, route->body != NULL ? g_bytes_get_data (route->body, NULL) : NULL,
                                  route->body != NULL ? g_bytes_get_size (route->body) : 0, &uncertain);
  if (charset != NULL)
    *charset = g_strdup ("utf-8");
  if (uncertain || g_content_type_is_unknown (guessed))
    return route_mime_type (route, NULL);
  return g_content_type_get_mime_type (guessed);
}

/* A load other than fetch() and XMLHttpRequest that a fulfil route
 * answers: the extension sent it here (tw-extension-routes.c). */
static void
route_scheme_cb (WebKitURISchemeRequest *request,
                 gpointer                user_data)
{
  WebKitWebView *view = webkit_uri_scheme_request_get_web_view (request);
  Routes *routes = view != NULL ? g_object_get_data (G_OBJECT (view), ROUTES_KEY) : NULL;
  const char *path = webkit_uri_scheme_request_get_path (request);
  g_auto(GStrv) parts = path != NULL ? g_strsplit (path, "/", 3) : NULL;
  g_autofree char *url = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(WebKitURISchemeResponse) response = NULL;
  g_autoptr(GList) members = NULL;
  g_autofree char *type = NULL;
  SoupMessageHeaders *headers;
  gboolean allow_origin = FALSE;
  Route *route;

  /* path is "/ID/ESCAPED-URL". */
  route = routes != NULL && parts != NULL && g_strv_length (parts) == 3 ? _tw_tab_routes_find (routes, parts[1]) : NULL;
  if (route != NULL)
    url = g_uri_unescape_string (parts[2], NULL);
  if (route == NULL || url == NULL || !g_str_equal (route->action, "fulfill") ||
      !g_regex_match (route->regex, url, 0, NULL))
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                                     "The route that answered this request is gone");

      webkit_uri_scheme_request_finish_error (request, error);
      return;
    }

  _tw_tab_routes_record_answer (routes, route, webkit_uri_scheme_request_get_http_method (request), url);
  stream = g_memory_input_stream_new_from_bytes (route->body != NULL ? route->body : g_bytes_new_static ("", 0));
  response = webkit_uri_scheme_response_new (stream, route->body != NULL ? (gint64) g_bytes_get_size (route->body) : 0);
  webkit_uri_scheme_response_set_status (response, route->status, soup_status_get_phrase (route->status));
  type = answer_type (route, url, NULL);
  webkit_uri_scheme_response_set_content_type (response, type);
  headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
  members = json_object_get_members (route->headers);
  if (route->type_guessed)
    soup_message_headers_append (headers, "Content-Type", type);
  for (GList *l = members; l != NULL; l = l->next)
    {
      if (route->type_guessed && g_ascii_strcasecmp (l->data, "Content-Type") == 0)
        continue;
      soup_message_headers_append (headers, l->data, json_object_get_string_member (route->headers, l->data));
      allow_origin |= g_ascii_strcasecmp (l->data, "Access-Control-Allow-Origin") == 0;
    }
  /* Loads with crossorigin= check the answer as CORS: one the route leaves
   * open allows the page, as for fetch(). */
  if (!allow_origin)
    soup_message_headers_append (headers, "Access-Control-Allow-Origin", "*");
  webkit_uri_scheme_response_set_http_headers (response, headers);
  webkit_uri_scheme_request_finish_with_response (request, response);
}

void
tw_tab_routes_register_scheme (WebKitWebContext *context)
{
  WebKitSecurityManager *security;

  g_return_if_fail (WEBKIT_IS_WEB_CONTEXT (context));

  webkit_web_context_register_uri_scheme (context, TW_WEB_EXTENSION_ROUTE_SCHEME, route_scheme_cb, NULL, NULL);
  /* Answers to secure pages are not mixed content, and CORS applies to
   * them as to the network. */
  security = webkit_web_context_get_security_manager (context);
  webkit_security_manager_register_uri_scheme_as_secure (security, TW_WEB_EXTENSION_ROUTE_SCHEME);
  webkit_security_manager_register_uri_scheme_as_cors_enabled (security, TW_WEB_EXTENSION_ROUTE_SCHEME);
}

typedef struct
{
  WebKitWebView *view;
  char          *url;
  GBytes        *body;
  char          *mime_type;
  char          *charset;
} DocumentLoad;

static void
document_load_free (DocumentLoad *load)
{
  g_clear_weak_pointer (&load->view);
  g_free (load->url);
  g_bytes_unref (load->body);
  g_free (load->mime_type);
  g_free (load->charset);
  g_free (load);
}

static gboolean
load_document_cb (gpointer user_data)
{
  DocumentLoad *load = user_data;
  Routes *routes = load->view != NULL ? g_object_get_data (G_OBJECT (load->view), ROUTES_KEY) : NULL;

  if (routes != NULL)
    {
      /* Its process hears this before the load, on the same channel. */
      webkit_web_view_send_message_to_page (load->view,
                                            webkit_user_message_new (TW_WEB_EXTENSION_ROUTE_ALLOW,
                                                                     g_variant_new ("(s)", load->url)),
                                            NULL, NULL, NULL);
      /* A page is loaded as alternate content of its URL, so that the
       * back-forward list keeps the URL (load_bytes() would keep
       * about:blank); other types are shown as they are, through a
       * navigation policy this file then lets pass. Going back to such a
       * page asks the route again, which drops the pages ahead of it. */
      if (g_strcmp0 (load->mime_type, "text/html") == 0)
        {
          g_autofree char *html = g_strndup (g_bytes_get_data (load->body, NULL), g_bytes_get_size (load->body));

          webkit_web_view_load_alternate_html (load->view, html, load->url, load->url);
        }
      else
        {
          g_free (routes->loading);
          routes->loading = g_strdup (load->url);
          webkit_web_view_load_bytes (load->view, load->body, load->mime_type, load->charset, load->url);
        }
    }
  return G_SOURCE_REMOVE;
}

/* The main frame goes to a document that @route answers: the view loads
 * the answer in its place, at the document's own URL. */
static void
load_document (WebKitWebView *view,
               Route         *route,
               const char    *method,
               const char    *url)
{
  Routes *routes = g_object_get_data (G_OBJECT (view), ROUTES_KEY);
  DocumentLoad *load = g_new0 (DocumentLoad, 1);

  _tw_tab_routes_record_answer (routes, route, method, url);
  g_set_weak_pointer (&load->view, view);
  load->url = g_strdup (url);
  load->body = route->body != NULL ? g_bytes_ref (route->body) : g_bytes_new_static ("", 0);
  load->mime_type = answer_type (route, url, &load->charset);
  g_idle_add_full (G_PRIORITY_DEFAULT, load_document_cb, load, (GDestroyNotify) document_load_free);
}

/* The main frame is going to a document a fulfil route answers: the view
 * loads the answer in its place, at the document's own URL, so the
 * address bar, location and the document's origin are those of the URL
 * asked for, and the server never sees the request. */
gboolean
_tw_tab_routes_decide_policy_cb (WebKitWebView            *view,
                                 WebKitPolicyDecision     *decision,
                                 WebKitPolicyDecisionType  type,
                                 gpointer                  user_data)
{
  Routes *routes = g_object_get_data (G_OBJECT (view), ROUTES_KEY);
  WebKitNavigationAction *action;
  WebKitURIRequest *request;
  const char *url;
  const char *method;
  Route *route;

  if (type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION || routes == NULL)
    return FALSE;
  action = webkit_navigation_policy_decision_get_navigation_action (WEBKIT_NAVIGATION_POLICY_DECISION (decision));
  request = webkit_navigation_action_get_request (action);
  url = webkit_uri_request_get_uri (request);
  method = webkit_uri_request_get_http_method (request);
  /* Only the tab's own loads (browser_navigate, the address bar, reload)
   * are known here to be the main frame's: the view shows their URL from
   * the start. The extension stops the page's own navigations of the main
   * frame (links, forms, scripts) and says so; frames' documents it
   * answers itself. */
  if (url == NULL || g_strcmp0 (url, webkit_web_view_get_uri (view)) != 0)
    return FALSE;
  if (routes->loading != NULL && g_str_equal (routes->loading, url))
    {
      g_clear_pointer (&routes->loading, g_free);
      return FALSE;
    }
  route = _tw_tab_routes_match (routes, method != NULL ? method : "GET", url);
  if (route == NULL || !g_str_equal (route->action, "fulfill"))
    return FALSE;

  webkit_policy_decision_ignore (decision);
  load_document (view, route, method != NULL ? method : "GET", url);
  return TRUE;
}

/* The extension stopped the main frame's request for a document that a
 * fulfil route answers. */
gboolean
_tw_tab_routes_user_message_cb (WebKitWebView     *view,
                                WebKitUserMessage *message,
                                gpointer           user_data)
{
  Routes *routes = g_object_get_data (G_OBJECT (view), ROUTES_KEY);
  GVariant *params;
  const char *id;
  const char *method;
  const char *url;
  Route *route;

  if (g_strcmp0 (webkit_user_message_get_name (message), TW_WEB_EXTENSION_ROUTE_DOCUMENT) != 0)
    return FALSE;
  params = webkit_user_message_get_parameters (message);
  if (routes == NULL || params == NULL || !g_variant_is_of_type (params, G_VARIANT_TYPE ("(sss)")))
    return TRUE;
  g_variant_get (params, "(&s&s&s)", &id, &method, &url);
  route = _tw_tab_routes_find (routes, id);
  if (route != NULL && g_str_equal (route->action, "fulfill") && g_regex_match (route->regex, url, 0, NULL))
    load_document (view, route, method, url);
  return TRUE;
}
