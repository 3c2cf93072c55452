/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-routes.h"
#include "tw-tab-routes-private.h"

#include "extension/tw-web-process-extension.h"
#include "tw-error.h"
#include "tw-filter-store.h"
#include "tw-json.h"
#include "tw-script.h"
#include "tw-workspace-path.h"

#include <libsoup/soup.h>
#include <string.h>
#include <unistd.h>

#define ROUTES_RESOURCE  "/io/github/tabwright/Tabwright/page-world/routes.js"
#define HANDLER_NAME     "tabwrightRoute"
#define MAX_ROUTES       50
#define MAX_PATTERN      2000
#define MAX_BODY_BYTES   (10 * 1024 * 1024)
#define MAX_LAST_URLS    5
#define MAX_RECENT       50

static void
filter_removed_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!webkit_user_content_filter_store_remove_finish (WEBKIT_USER_CONTENT_FILTER_STORE (object), result, &error))
    g_debug ("A tab's old route filter stays in the cache: %s", error->message);
}

/* A filter no tab uses any more leaves the cache. */
static void
forget_filter (const char *id)
{
  webkit_user_content_filter_store_remove (tw_filter_store_get_default (), id, NULL,
                                           filter_removed_cb, NULL);
}

static void
route_free (Route *route)
{
  g_free (route->id);
  g_free (route->url);
  g_free (route->pattern);
  g_clear_pointer (&route->regex, g_regex_unref);
  g_free (route->method);
  g_clear_pointer (&route->headers, json_object_unref);
  g_clear_pointer (&route->body, g_bytes_unref);
  g_clear_pointer (&route->set_headers, json_object_unref);
  g_queue_clear_full (&route->last_urls, g_free);
  g_free (route);
}

static void
routes_free (Routes *routes)
{
  g_ptr_array_unref (routes->routes);
  g_queue_clear_full (&routes->recent, (GDestroyNotify) json_object_unref);
  g_clear_pointer (&routes->script, webkit_user_script_unref);
  g_clear_pointer (&routes->world_script, webkit_user_script_unref);
  g_free (routes->loading);
  if (routes->filter_id != NULL)
    forget_filter (routes->filter_id);
  g_free (routes->filter_id);
  g_free (routes);
}

static Routes *
routes_of (WebKitWebView *view)
{
  Routes *routes = g_object_get_data (G_OBJECT (view), ROUTES_KEY);

  if (routes == NULL)
    {
      routes = g_new0 (Routes, 1);
      routes->routes = g_ptr_array_new_with_free_func ((GDestroyNotify) route_free);
      g_object_set_data_full (G_OBJECT (view), ROUTES_KEY, routes, (GDestroyNotify) routes_free);
      g_signal_connect (view, "decide-policy", G_CALLBACK (_tw_tab_routes_decide_policy_cb), NULL);
      g_signal_connect (view, "user-message-received", G_CALLBACK (_tw_tab_routes_user_message_cb), NULL);
    }
  return routes;
}

/* "*" matches anything; every other character itself. */
static char *
glob_to_pattern (const char *glob)
{
  GString *pattern = g_string_new ("^");

  for (const char *p = glob; *p != '\0'; p++)
    {
      if (*p == '*')
        g_string_append (pattern, ".*");
      else if (strchr ("\\^$.|?+()[]{}/", *p) != NULL)
        g_string_append_printf (pattern, "\\%c", *p);
      else
        g_string_append_c (pattern, *p);
    }
  g_string_append_c (pattern, '$');
  return g_string_free (pattern, FALSE);
}

/* The glob as a content filter's url-filter, whose regular expressions
 * know fewer forms: "*" is ".*", every other character itself. NULL when
 * the glob is not ASCII, which url-filter cannot match. */
static char *
glob_to_filter (const char *glob)
{
  GString *pattern = g_string_new ("^");

  for (const char *p = glob; *p != '\0'; p++)
    {
      if ((guchar) *p >= 0x80)
        {
          g_string_free (pattern, TRUE);
          return NULL;
        }
      if (*p == '*')
        g_string_append (pattern, ".*");
      else if (strchr ("\\^$.|?+()[]{}", *p) != NULL)
        g_string_append_printf (pattern, "\\%c", *p);
      else
        g_string_append_c (pattern, *p);
    }
  g_string_append_c (pattern, '$');
  return g_string_free (pattern, FALSE);
}

static JsonObject *
describe_route (Route *route)
{
  JsonObject *object = json_object_new ();
  JsonArray *last = json_array_new ();

  json_object_set_string_member (object, "id", route->id);
  json_object_set_string_member (object, "url", route->url);
  if (route->method != NULL)
    json_object_set_string_member (object, "method", route->method);
  json_object_set_string_member (object, "action", route->action);
  if (g_str_equal (route->action, "fulfill"))
    json_object_set_int_member (object, "status", route->status);
  json_object_set_int_member (object, "hits", route->hits);
  for (GList *l = route->last_urls.head; l != NULL; l = l->next)
    json_array_add_string_element (last, l->data);
  json_object_set_array_member (object, "lastRequests", last);
  return object;
}

/* What the page-world script gets: see routes.js. */
static char *
routes_json (Routes   *routes,
             gboolean  with_body)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_array (builder);
  for (guint i = 0; i < routes->routes->len; i++)
    {
      Route *route = routes->routes->pdata[i];
      g_autofree char *body64 = NULL;

      if (with_body && route->body != NULL)
        body64 = g_base64_encode (g_bytes_get_data (route->body, NULL), g_bytes_get_size (route->body));
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, route->id);
      json_builder_set_member_name (builder, "pattern");
      json_builder_add_string_value (builder, route->pattern);
      json_builder_set_member_name (builder, "method");
      json_builder_add_string_value (builder, route->method != NULL ? route->method : "");
      json_builder_set_member_name (builder, "action");
      json_builder_add_string_value (builder, route->action);
      json_builder_set_member_name (builder, "status");
      json_builder_add_int_value (builder, route->status);
      json_builder_set_member_name (builder, "statusText");
      json_builder_add_string_value (builder, soup_status_get_phrase (route->status));
      json_builder_set_member_name (builder, "headers");
      json_builder_add_value (builder, json_node_init_object (json_node_alloc (), route->headers));
      json_builder_set_member_name (builder, "setHeaders");
      json_builder_add_value (builder, json_node_init_object (json_node_alloc (), route->set_headers));
      json_builder_set_member_name (builder, "body64");
      json_builder_add_string_value (builder, body64 != NULL ? body64 : "");
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  root = json_builder_get_root (builder);
  return json_to_string (root, FALSE);
}

void
_tw_tab_routes_record_answer (Routes     *routes,
                              Route      *route,
                              const char *method_in,
                              const char *url_in)
{
  JsonObject *answer = json_object_new ();
  g_autofree char *method = g_strndup (method_in, 16);
  g_autofree char *url = g_strndup (url_in, 2000);

  route->hits++;
  g_queue_push_tail (&route->last_urls, g_strdup_printf ("%s %s", method, url));
  if (route->last_urls.length > MAX_LAST_URLS)
    g_free (g_queue_pop_head (&route->last_urls));

  json_object_set_int_member (answer, "n", ++routes->answered);
  json_object_set_string_member (answer, "route", route->id);
  json_object_set_string_member (answer, "action", route->action);
  json_object_set_string_member (answer, "method", method);
  json_object_set_string_member (answer, "url", url);
  if (g_str_equal (route->action, "fulfill"))
    json_object_set_int_member (answer, "status", route->status);
  g_queue_push_tail (&routes->recent, answer);
  if (routes->recent.length > MAX_RECENT)
    json_object_unref (g_queue_pop_head (&routes->recent));
}

Route *
_tw_tab_routes_find (Routes     *routes,
                     const char *id)
{
  for (guint i = 0; i < routes->routes->len; i++)
    {
      Route *route = routes->routes->pdata[i];

      if (g_str_equal (route->id, id))
        return route;
    }
  return NULL;
}

Route *
_tw_tab_routes_match (Routes     *routes,
                      const char *method,
                      const char *url)
{
  for (guint i = 0; i < routes->routes->len; i++)
    {
      Route *route = routes->routes->pdata[i];

      if ((route->method == NULL || g_strcmp0 (route->method, method) == 0) &&
          g_regex_match (route->regex, url, 0, NULL))
        return route;
    }
  return NULL;
}

/* The page answered a request from a route. */
static void
route_message_cb (WebKitUserContentManager *manager,
                  JSCValue                 *value,
                  WebKitWebView            *view)
{
  Routes *routes = g_object_get_data (G_OBJECT (view), ROUTES_KEY);
  g_autofree char *json = jsc_value_to_json (value, 0);
  g_autoptr(JsonNode) node = json != NULL ? json_from_string (json, NULL) : NULL;
  JsonObject *object;
  Route *route;

  if (routes == NULL || node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;
  object = json_node_get_object (node);
  route = _tw_tab_routes_find (routes, tw_json_get_string (object, "id", ""));
  if (route != NULL)
    _tw_tab_routes_record_answer (routes, route, tw_json_get_string (object, "method", "?"),
                                  tw_json_get_string (object, "url", "?"));
}

typedef struct
{
  JsonObject    *params;
  WebKitWebView *view;
  Route         *route;       /* being added */
  char          *body_path;
  GPtrArray     *removed;     /* char * */
  JsonObject    *page;
} Apply;

static void
apply_free (Apply *apply)
{
  json_object_unref (apply->params);
  g_object_unref (apply->view);
  g_clear_pointer (&apply->route, route_free);
  g_free (apply->body_path);
  g_clear_pointer (&apply->removed, g_ptr_array_unref);
  g_clear_pointer (&apply->page, json_object_unref);
  g_free (apply);
}

static void
finish (GTask *task)
{
  Apply *apply = g_task_get_task_data (task);
  WebKitWebView *view = apply->view;
  Routes *routes = routes_of (view);
  JsonObject *result = json_object_new ();
  JsonArray *list = json_array_new ();

  for (guint i = 0; i < routes->routes->len; i++)
    json_array_add_object_element (list, describe_route (routes->routes->pdata[i]));
  json_object_set_array_member (result, "routes", list);
  if (json_object_has_member (apply->params, "url"))
    json_object_set_string_member (result, "added",
                                   ((Route *) routes->routes->pdata[routes->routes->len - 1])->id);
  if (apply->removed != NULL)
    {
      JsonArray *removed = json_array_new ();

      for (guint i = 0; i < apply->removed->len; i++)
        json_array_add_string_element (removed, apply->removed->pdata[i]);
      json_object_set_array_member (result, "removed", removed);
    }
  g_task_return_pointer (task, result, (GDestroyNotify) json_object_unref);
  g_object_unref (task);
}

static void
cache_cleared_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!webkit_website_data_manager_clear_finish (WEBKIT_WEBSITE_DATA_MANAGER (object), result, &error))
    g_debug ("The memory cache stays: %s", error->message);
  finish (user_data);
}

static void
page_told_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  /* A page that is gone or loading gets the user script; nothing to say. */
  g_autoptr(JSCValue) value = webkit_web_view_evaluate_javascript_finish (WEBKIT_WEB_VIEW (object), result, NULL);
  WebKitNetworkSession *session = webkit_web_view_get_network_session (WEBKIT_WEB_VIEW (object));

  /* An image, script or style sheet the page has loaded before is taken
   * from the memory cache without a request, which no route would see. */
  if (session == NULL)
    {
      finish (user_data);
      return;
    }
  webkit_website_data_manager_clear (webkit_network_session_get_website_data_manager (session),
                                     WEBKIT_WEBSITE_DATA_MEMORY_CACHE, 0, NULL, cache_cleared_cb, user_data);
}

static void publish_script (GTask *task);

/* Every kind of load but fetch() and XMLHttpRequest ("raw"). */
static const char * const blocked_types[] = {
  "document", "image", "style-sheet", "script", "font", "media", "svg-document", "popup",
};

/* The new filter replaces the tab's old one. */
static void
filter_saved_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GTask *task = user_data;
  Apply *apply = g_task_get_task_data (task);
  WebKitWebView *view = apply->view;
  WebKitUserContentManager *manager = webkit_web_view_get_user_content_manager (view);
  Routes *routes = routes_of (view);
  g_autoptr(WebKitUserContentFilter) filter = NULL;
  g_autoptr(GError) error = NULL;

  filter = webkit_user_content_filter_store_save_finish (WEBKIT_USER_CONTENT_FILTER_STORE (object),
                                                         result, &error);
  if (filter == NULL)
    {
      g_warning ("Cannot compile the content filter of a tab's abort routes: %s", error->message);
      publish_script (task);
      return;
    }
  if (routes->filter_id != NULL)
    {
      webkit_user_content_manager_remove_filter_by_id (manager, routes->filter_id);
      forget_filter (routes->filter_id);
      g_clear_pointer (&routes->filter_id, g_free);
    }
  webkit_user_content_manager_add_filter (manager, filter);
  routes->filter_id = g_strdup (webkit_user_content_filter_get_identifier (filter));
  publish_script (task);
}

/* Abort routes fail every load of the tab that matches, documents, frames,
 * images, scripts, style sheets, fonts and media too, through a content
 * filter of the tab's own content manager. fetch() and XMLHttpRequest are
 * left to the page world, which counts what it failed. */
static void
publish (GTask *task)
{
  Apply *apply = g_task_get_task_data (task);
  WebKitWebView *view = apply->view;
  WebKitUserContentManager *manager = webkit_web_view_get_user_content_manager (view);
  Routes *routes = routes_of (view);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *rules = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *id = NULL;
  guint n_rules = 0;

  json_builder_begin_array (builder);
  for (guint i = 0; i < routes->routes->len; i++)
    {
      Route *route = routes->routes->pdata[i];
      g_autofree char *filter = g_str_equal (route->action, "abort") ? glob_to_filter (route->url) : NULL;

      if (filter == NULL)
        continue;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "trigger");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "url-filter");
      json_builder_add_string_value (builder, filter);
      json_builder_set_member_name (builder, "url-filter-is-case-sensitive");
      json_builder_add_boolean_value (builder, TRUE);
      json_builder_set_member_name (builder, "resource-type");
      json_builder_begin_array (builder);
      for (gsize j = 0; j < G_N_ELEMENTS (blocked_types); j++)
        json_builder_add_string_value (builder, blocked_types[j]);
      json_builder_end_array (builder);
      json_builder_end_object (builder);
      json_builder_set_member_name (builder, "action");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "block");
      json_builder_end_object (builder);
      json_builder_end_object (builder);
      n_rules++;
    }
  json_builder_end_array (builder);

  if (n_rules == 0)
    {
      if (routes->filter_id != NULL)
        {
          webkit_user_content_manager_remove_filter_by_id (manager, routes->filter_id);
          forget_filter (routes->filter_id);
          g_clear_pointer (&routes->filter_id, g_free);
        }
      publish_script (task);
      return;
    }

  root = json_builder_get_root (builder);
  rules = json_to_string (root, FALSE);
  bytes = g_bytes_new (rules, strlen (rules));
  id = g_strdup_printf ("tabwright-routes-%d-%p-%u", (int) getpid (), view, ++routes->filters);
  webkit_user_content_filter_store_save (tw_filter_store_get_default (), id, bytes, NULL,
                                         filter_saved_cb, task);
}

/* The routes changed: every next document of the tab starts with them, and
 * the page shown gets them now. */
static void
publish_script (GTask *task)
{
  Apply *apply = g_task_get_task_data (task);
  WebKitWebView *view = apply->view;
  WebKitUserContentManager *manager = webkit_web_view_get_user_content_manager (view);
  Routes *routes = routes_of (view);
  g_autofree char *json = routes_json (routes, TRUE);
  g_autofree char *live = tw_script_page_world_call (ROUTES_RESOURCE, json, TRUE);
  g_autofree char *lean = routes_json (routes, FALSE);
  g_autoptr(JsonNode) lean_node = json_node_new (JSON_NODE_VALUE);
  g_autofree char *lean_literal = NULL;
  g_autofree char *world_call = NULL;

  if (!routes->handler)
    {
      webkit_user_content_manager_register_script_message_handler (manager, HANDLER_NAME, NULL);
      g_signal_connect_object (manager, "script-message-received::" HANDLER_NAME,
                               G_CALLBACK (route_message_cb), view, 0);
      routes->handler = TRUE;
    }
  if (routes->world_script != NULL)
    {
      webkit_user_content_manager_remove_script (manager, routes->world_script);
      g_clear_pointer (&routes->world_script, webkit_user_script_unref);
    }
  json_node_set_string (lean_node, lean);
  lean_literal = json_to_string (lean_node, FALSE);
  world_call = g_strdup_printf ("__tabwrightSetRoutes(%s);", lean_literal);
  if (routes->routes->len > 0)
    {
      routes->world_script = webkit_user_script_new_for_world (world_call, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                                               WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START,
                                                               TW_WEB_EXTENSION_ROUTES_WORLD, NULL, NULL);
      webkit_user_content_manager_add_script (manager, routes->world_script);
    }
  webkit_web_view_evaluate_javascript (view, world_call, -1, TW_WEB_EXTENSION_ROUTES_WORLD, "tabwright-routes-world.js",
                                       NULL, NULL, NULL);
  tw_script_set_page_world_start (manager, &routes->script, ROUTES_RESOURCE,
                                  routes->routes->len > 0 ? json : NULL);
  webkit_web_view_evaluate_javascript (view, live, -1, NULL, "tabwright-routes.js",
                                       g_task_get_cancellable (task), page_told_cb, task);
}

static gboolean
has_header (JsonObject *headers,
            const char *name)
{
  g_autoptr(GList) members = headers != NULL ? json_object_get_members (headers) : NULL;

  for (GList *l = members; l != NULL; l = l->next)
    {
      if (g_ascii_strcasecmp (l->data, name) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
add_route (GTask *task)
{
  Apply *apply = g_task_get_task_data (task);
  WebKitWebView *view = apply->view;
  Routes *routes = routes_of (view);
  Route *route = g_steal_pointer (&apply->route);

  if (g_str_equal (route->action, "fulfill") && !has_header (route->headers, "Content-Type"))
    {
      g_autofree char *type = NULL;
      g_autoptr(JsonNode) parsed = NULL;
      g_autofree char *text = route->body != NULL
                              ? g_strndup (g_bytes_get_data (route->body, NULL), g_bytes_get_size (route->body))
                              : NULL;

      if (apply->body_path != NULL)
        {
          g_autofree char *guessed = g_content_type_guess (apply->body_path, NULL, 0, NULL);

          type = g_content_type_get_mime_type (guessed);
        }
      else if (text != NULL && (parsed = json_from_string (text, NULL)) != NULL &&
               (JSON_NODE_HOLDS_OBJECT (parsed) || JSON_NODE_HOLDS_ARRAY (parsed)))
        type = g_strdup ("application/json");
      route->type_guessed = type == NULL;
      json_object_set_string_member (route->headers, "Content-Type",
                                     type != NULL ? type : "text/plain; charset=utf-8");
    }
  route->id = g_strdup_printf ("r%u", ++routes->next_id);
  g_ptr_array_add (routes->routes, route);
  publish (task);
}

static void
body_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  Apply *apply = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  if (!g_file_load_contents_finish (G_FILE (object), result, &contents, &length, NULL, &error))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "bodyPath could not be read: %s", error->message);
      g_object_unref (task);
      return;
    }
  if (length > MAX_BODY_BYTES)
    {
      g_free (contents);
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "bodyPath is larger than 10 MB");
      g_object_unref (task);
      return;
    }
  apply->route->body = g_bytes_new_take (contents, length);
  add_route (task);
}

static gboolean
read_headers (JsonObject  *params,
              const char  *member,
              JsonObject **out,
              GError     **error)
{
  JsonNode *node = json_object_get_member (params, member);
  g_autoptr(GList) members = NULL;
  JsonObject *headers;

  *out = json_object_new ();
  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    goto bad;
  headers = json_node_get_object (node);
  members = json_object_get_members (headers);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      const char *value = tw_json_get_string (headers, name, NULL);

      if (value == NULL || *name == '\0' || strlen (name) > 256 || strlen (value) > 8192)
        goto bad;
      for (const char *p = name; *p != '\0'; p++)
        if (!g_ascii_isalnum (*p) && strchr ("!#$%&'*+-.^_`|~", *p) == NULL)
          goto bad;
      for (const char *p = value; *p != '\0'; p++)
        if ((guchar) *p < 0x20 || *p == 0x7f)
          goto bad;
      json_object_set_string_member (*out, name, value);
    }
  return TRUE;

bad:
  g_clear_pointer (out, json_object_unref);
  g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
               "%s must map header names to text values without line breaks, like "
               "{\"Content-Type\": \"application/json\"}", member);
  return FALSE;
}

static gboolean
read_route (JsonObject   *params,
            const char   *workspace_dir,
            Apply        *apply,
            GError      **error)
{
  const char *url = tw_json_get_string (params, "url", NULL);
  const char *method = tw_json_get_string (params, "method", NULL);
  const char *body = tw_json_get_string (params, "body", NULL);
  const char *body_path = tw_json_get_string (params, "bodyPath", NULL);
  gboolean abort = json_object_get_boolean_member_with_default (params, "abort", FALSE);
  gboolean fulfil_given = json_object_has_member (params, "status") || json_object_has_member (params, "headers") ||
                          body != NULL || body_path != NULL;
  JsonNode *status = json_object_get_member (params, "status");
  Route *route;

  if (url == NULL || *url == '\0' || strlen (url) > MAX_PATTERN || !g_utf8_validate (url, -1, NULL))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "url must be a URL pattern of 1 to %d characters, like \"*/api/items*\"", MAX_PATTERN);
      return FALSE;
    }
  if (method != NULL && (*method == '\0' || strlen (method) > 16 ||
                         strspn (method, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") != strlen (method)))
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "method must be an HTTP method such as GET or POST");
      return FALSE;
    }
  if ((abort && (fulfil_given || json_object_has_member (params, "setHeaders"))) ||
      (json_object_has_member (params, "setHeaders") && fulfil_given) || (body != NULL && body_path != NULL))
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "a route either answers (status, headers, body or bodyPath), fails (abort), or "
                           "sends the request on with setHeaders: give one of these");
      return FALSE;
    }
  if (status != NULL && (!JSON_NODE_HOLDS_VALUE (status) || json_node_get_value_type (status) != G_TYPE_INT64 ||
                         json_node_get_int (status) < 200 || json_node_get_int (status) > 599))
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "status must be an HTTP status from 200 to 599");
      return FALSE;
    }

  route = apply->route = g_new0 (Route, 1);
  g_queue_init (&route->last_urls);
  route->url = g_strdup (url);
  route->pattern = glob_to_pattern (url);
  route->regex = g_regex_new (route->pattern, G_REGEX_DOTALL, 0, NULL);
  route->method = method != NULL ? g_ascii_strup (method, -1) : NULL;
  route->status = status != NULL ? json_node_get_int (status) : 200;
  route->action = abort ? "abort" : json_object_has_member (params, "setHeaders") ? "continue" : "fulfill";
  if (!read_headers (params, "headers", &route->headers, error) ||
      !read_headers (params, "setHeaders", &route->set_headers, error))
    return FALSE;
  if (body != NULL)
    route->body = g_bytes_new (body, strlen (body));
  if (body_path != NULL)
    {
      apply->body_path = tw_workspace_path_check (workspace_dir, body_path, TW_WORKSPACE_PATH_EXISTING_FILE, error);
      if (apply->body_path == NULL)
        return FALSE;
    }
  return TRUE;
}

void
tw_tab_routes_apply_run (const TwTabJob *job,
                         GTask          *task)
{
  JsonObject *params = job->params;
  g_autoptr(GError) error = NULL;
  Routes *routes;
  Apply *apply;
  JsonNode *remove;

  g_return_if_fail (WEBKIT_IS_WEB_VIEW (job->view));
  g_return_if_fail (params != NULL);

  apply = g_new0 (Apply, 1);
  apply->params = json_object_ref (params);
  apply->view = g_object_ref (job->view);
  g_task_set_task_data (task, apply, (GDestroyNotify) apply_free);
  routes = routes_of (job->view);
  remove = json_object_get_member (params, "remove");

  if (remove != NULL && json_object_has_member (params, "url"))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "give either url (add a route) or remove, not both");
      return;
    }

  if (remove != NULL)
    {
      const char *id = JSON_NODE_HOLDS_VALUE (remove) && json_node_get_value_type (remove) == G_TYPE_STRING
                       ? json_node_get_string (remove) : "";

      apply->removed = g_ptr_array_new_with_free_func (g_free);
      for (guint i = routes->routes->len; i > 0; i--)
        {
          Route *route = routes->routes->pdata[i - 1];

          if (g_str_equal (id, "all") || g_str_equal (id, route->id))
            {
              g_ptr_array_insert (apply->removed, 0, g_strdup (route->id));
              g_ptr_array_remove_index (routes->routes, i - 1);
            }
        }
      if (apply->removed->len == 0 && !g_str_equal (id, "all"))
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "this tab has no route \"%s\"; browser_route with only browserId "
                                   "lists them", id);
          return;
        }
      publish (g_object_ref (task));
      return;
    }

  if (!json_object_has_member (params, "url"))
    {
      finish (g_object_ref (task));
      return;
    }

  if (routes->routes->len >= MAX_ROUTES)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "a tab has at most %d routes; remove some first", MAX_ROUTES);
      return;
    }
  if (!read_route (params, job->workspace_dir, apply, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (apply->body_path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_path (apply->body_path);

      g_file_load_contents_async (file, g_task_get_cancellable (task), body_loaded_cb,
                                  g_object_ref (task));
      return;
    }
  add_route (g_object_ref (task));
}

guint64
tw_tab_routes_get_answered (WebKitWebView *view)
{
  Routes *routes;

  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), 0);

  routes = g_object_get_data (G_OBJECT (view), ROUTES_KEY);
  return routes != NULL ? routes->answered : 0;
}

JsonArray *
tw_tab_routes_describe_answered (WebKitWebView *view,
                                 guint64        since)
{
  Routes *routes;
  JsonArray *array = NULL;

  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);

  routes = g_object_get_data (G_OBJECT (view), ROUTES_KEY);
  if (routes == NULL || routes->answered <= since)
    return NULL;

  for (GList *l = routes->recent.head; l != NULL; l = l->next)
    {
      JsonObject *answer = l->data;
      JsonObject *copy;

      if ((guint64) json_object_get_int_member (answer, "n") <= since)
        continue;
      if (array == NULL)
        array = json_array_new ();
      copy = json_object_new ();
      json_object_set_string_member (copy, "route", tw_json_get_string (answer, "route", "?"));
      json_object_set_string_member (copy, "action", tw_json_get_string (answer, "action", "?"));
      json_object_set_string_member (copy, "method", tw_json_get_string (answer, "method", "?"));
      json_object_set_string_member (copy, "url", tw_json_get_string (answer, "url", "?"));
      if (json_object_has_member (answer, "status"))
        json_object_set_int_member (copy, "status", json_object_get_int_member (answer, "status"));
      json_array_add_object_element (array, copy);
    }
  return array;
}
