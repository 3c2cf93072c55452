/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-storage-private.h"

#include "tw-json.h"
#include "tw-error.h"
#include "tw-page-runtime.h"
#include "tw-web-context.h"
#include "tw-workspace-path.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* browser_storage_state: the session's cookies and the localStorage of
 * the workspace's origins, saved to a file of the workspace and loaded
 * again. */

/* How long loading a storage state waits for each origin's hidden page. */
#define ORIGIN_LOAD_TIMEOUT_MS 10000

/* The largest storage state file loaded. */
#define STATE_MAX_BYTES (16 * 1024 * 1024)

typedef struct
{
  WebKitNetworkSession *session;
  GPtrArray            *views;        /* save: the tabs' views still to read */
  char                 *workspace_dir;
  char                 *path;         /* as the agent gave it */
  char                 *resolved;
  gboolean              load;

  JsonArray            *cookies;      /* saved or loaded, as JSON */
  JsonArray            *origins;      /* [{origin, localStorage}] */
  GHashTable           *seen_origins;
  GPtrArray            *targets;      /* the origins to visit, in order */
  guint                 next_origin;  /* the origin visited next */
  GList                *new_cookies;  /* load: SoupCookie */

  WebKitWebView        *hidden_view;
  TwPageRuntime        *hidden_runtime;
  gulong                load_changed_id;
  gulong                load_failed_id;
  guint                 timeout_id;
  GBytes               *file;
} StateData;

static void
drop_hidden_view (StateData *data)
{
  g_clear_handle_id (&data->timeout_id, g_source_remove);
  if (data->hidden_view == NULL)
    return;

  g_clear_signal_handler (&data->load_changed_id, data->hidden_view);
  g_clear_signal_handler (&data->load_failed_id, data->hidden_view);
  g_clear_object (&data->hidden_runtime);
  /* WebKit may still use the view in the signal emission that got here. */
  g_idle_add_once ((GSourceOnceFunc) g_object_unref, g_steal_pointer (&data->hidden_view));
}

static void
state_data_free (StateData *data)
{
  drop_hidden_view (data);
  g_clear_object (&data->session);
  g_clear_pointer (&data->views, g_ptr_array_unref);
  g_free (data->workspace_dir);
  g_free (data->path);
  g_free (data->resolved);
  g_clear_pointer (&data->cookies, json_array_unref);
  g_clear_pointer (&data->origins, json_array_unref);
  g_clear_pointer (&data->seen_origins, g_hash_table_unref);
  g_clear_pointer (&data->targets, g_ptr_array_unref);
  g_list_free_full (data->new_cookies, (GDestroyNotify) soup_cookie_free);
  g_clear_pointer (&data->file, g_bytes_unref);
  g_free (data);
}

static JsonObject *
state_reply (StateData *data)
{
  JsonObject *reply = json_object_new ();
  JsonArray *origins = json_array_new ();
  guint n_origins = json_array_get_length (data->origins);

  for (guint i = 0; i < n_origins; i++)
    {
      JsonObject *origin = json_array_get_object_element (data->origins, i);

      json_array_add_string_element (origins, json_object_get_string_member (origin, "origin"));
    }

  json_object_set_string_member (reply, "action", data->load ? "load" : "save");
  json_object_set_string_member (reply, "path", data->resolved);
  json_object_set_int_member (reply, "cookies", json_array_get_length (data->cookies));
  json_object_set_array_member (reply, "origins", origins);

  return reply;
}

/* Saving */

static void
state_write_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  StateData *data = task_data;
  GError *error = NULL;
  char *written;

  written = tw_workspace_path_write (data->workspace_dir, data->path, data->file, &error);
  if (written == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  g_free (data->resolved);
  data->resolved = written;
  g_task_return_pointer (task, state_reply (data), (GDestroyNotify) json_object_unref);
}

static void
state_write (GTask *task)
{
  StateData *data = g_task_get_task_data (task);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();
  char *text;
  gsize length = 0;

  json_object_set_array_member (object, "cookies", json_array_ref (data->cookies));
  json_object_set_array_member (object, "origins", json_array_ref (data->origins));
  json_node_take_object (root, object);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, &length);
  data->file = g_bytes_new_take (text, length);

  g_task_run_in_thread (task, state_write_thread);
}

static void state_visit_next_origin (GTask *task);

/* The origin of a page's address as location.origin spells it, or NULL
 * for anything but http(s). */
static char *
origin_of_uri (const char *uri)
{
  g_autoptr(GUri) parsed = uri != NULL ? g_uri_parse (uri, G_URI_FLAGS_NONE, NULL) : NULL;
  const char *scheme;
  const char *host;
  int port;
  g_autofree char *lower_host = NULL;
  g_autofree char *port_text = NULL;
  gboolean default_port;

  if (parsed == NULL)
    return NULL;

  scheme = g_uri_get_scheme (parsed);
  host = g_uri_get_host (parsed);
  port = g_uri_get_port (parsed);
  if ((g_strcmp0 (scheme, "http") != 0 && g_strcmp0 (scheme, "https") != 0) ||
      host == NULL || *host == '\0')
    return NULL;

  lower_host = g_ascii_strdown (host, -1);
  default_port = port == -1 || (port == 80 && g_str_equal (scheme, "http")) ||
                 (port == 443 && g_str_equal (scheme, "https"));
  if (!default_port)
    port_text = g_strdup_printf (":%d", port);

  return g_strdup_printf ("%s://%s%s%s%s", scheme,
                          strchr (lower_host, ':') != NULL ? "[" : "", lower_host,
                          strchr (lower_host, ':') != NULL ? "]" : "",
                          port_text != NULL ? port_text : "");
}

static void
state_origin_read_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StateData *data = g_task_get_task_data (task);
  const char *wanted = g_ptr_array_index (data->targets, data->next_origin);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) answer = NULL;
  JsonNode *node;
  JsonNode *items;

  node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);
  if (g_task_return_error_if_cancelled (task))
    {
      g_clear_pointer (&node, json_node_unref);
      return;
    }

  if (node == NULL || (answer = _tw_tab_storage_parse_answer (node, &error)) == NULL ||
      g_strcmp0 (tw_json_get_string (answer, "origin", NULL), wanted) != 0)
    {
      drop_hidden_view (data);
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "could not read the localStorage of %s: %s", wanted,
                               error != NULL ? error->message : "the page had another origin");
      return;
    }

  /* Like Playwright, only origins that keep something. */
  items = json_object_get_member (answer, "localStorage");
  if (items != NULL && JSON_NODE_HOLDS_ARRAY (items) &&
      json_array_get_length (json_node_get_array (items)) > 0)
    json_array_add_object_element (data->origins, g_steal_pointer (&answer));

  data->next_origin++;
  state_visit_next_origin (g_steal_pointer (&task));
}

static void
state_cookies_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StateData *data = g_task_get_task_data (task);
  GList *cookies;

  if (!_tw_tab_storage_get_cookies_finish (task, object, result, &cookies))
    return;

  data->cookies = _tw_tab_storage_cookies_to_json (cookies, NULL, NULL, NULL);
  _tw_tab_storage_cookie_list_free (cookies);

  for (guint i = 0; i < data->views->len; i++)
    {
      char *origin = origin_of_uri (webkit_web_view_get_uri (g_ptr_array_index (data->views, i)));

      if (origin == NULL || g_hash_table_contains (data->seen_origins, origin))
        {
          g_free (origin);
          continue;
        }
      g_hash_table_add (data->seen_origins, origin);
      g_ptr_array_add (data->targets, g_strdup (origin));
    }

  state_visit_next_origin (g_steal_pointer (&task));
}

/* Loading */

static void
state_origin_written_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StateData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) answer = NULL;
  JsonObject *origin = json_array_get_object_element (data->origins, data->next_origin);
  const char *wanted = json_object_get_string_member (origin, "origin");
  JsonNode *node;

  node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);
  if (g_task_return_error_if_cancelled (task))
    {
      g_clear_pointer (&node, json_node_unref);
      return;
    }

  if (node == NULL || (answer = _tw_tab_storage_parse_answer (node, &error)) == NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "could not write the localStorage of %s: %s", wanted,
                               error != NULL ? error->message : "no answer");
      return;
    }

  if (tw_json_get_string (answer, "failed", NULL) != NULL ||
      g_strcmp0 (tw_json_get_string (answer, "origin", NULL), wanted) != 0)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "could not write the localStorage of %s: %s", wanted,
                               tw_json_get_string (answer, "failed", NULL) != NULL
                               ? tw_json_get_string (answer, "failed", NULL)
                               : "the page had another origin");
      return;
    }

  data->next_origin++;
  state_visit_next_origin (g_steal_pointer (&task));
}

static void
hidden_view_load_changed_cb (WebKitWebView   *view,
                             WebKitLoadEvent  event,
                             GTask           *task)
{
  StateData *data = g_task_get_task_data (task);
  g_autoptr(JsonObject) args = NULL;
  JsonObject *origin;

  if (event != WEBKIT_LOAD_FINISHED)
    return;

  g_clear_handle_id (&data->timeout_id, g_source_remove);

  if (!data->load)
    {
      tw_page_runtime_call_async (data->hidden_runtime, "storage.readLocal", NULL,
                                  g_task_get_cancellable (task),
                                  state_origin_read_cb, g_object_ref (task));
      g_object_unref (task);
      return;
    }

  origin = json_array_get_object_element (data->origins, data->next_origin);
  args = json_object_new ();
  json_object_set_array_member (args, "items",
                                json_array_ref (json_object_get_array_member (origin, "localStorage")));
  tw_page_runtime_call_async (data->hidden_runtime, "storage.writeLocal", args,
                              g_task_get_cancellable (task),
                              state_origin_written_cb, g_object_ref (task));

  /* The reference the load held passes to the script call. */
  g_object_unref (task);
}

static gboolean
hidden_view_load_failed_cb (WebKitWebView   *view,
                            WebKitLoadEvent  event,
                            const char      *uri,
                            GError          *error,
                            GTask           *task)
{
  StateData *data = g_task_get_task_data (task);

  drop_hidden_view (data);
  g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                           "could not open a page of %s for its localStorage: %s",
                           uri, error->message);
  g_object_unref (task);

  return TRUE;
}

static gboolean
hidden_view_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  StateData *data = g_task_get_task_data (task);
  const char *origin = g_ptr_array_index (data->targets, data->next_origin);

  data->timeout_id = 0;
  drop_hidden_view (data);
  g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                           "opening a page of %s for its localStorage took longer than %d ms",
                           origin, ORIGIN_LOAD_TIMEOUT_MS);
  g_object_unref (task);

  return G_SOURCE_REMOVE;
}

/* Each origin gets an empty document of its own address in a hidden view
 * of the workspace's session, whose localStorage is the origin's: nothing
 * is fetched from the site, and the page's own scripts play no part. A
 * fresh view also reads what the session holds now rather than a tab's
 * copy, which may not yet know of another tab's last write. Takes @task. */
static void
state_visit_next_origin (GTask *task)
{
  StateData *data = g_task_get_task_data (task);
  g_autofree char *base = NULL;

  if (data->next_origin >= data->targets->len)
    {
      drop_hidden_view (data);
      if (data->load)
        g_task_return_pointer (task, state_reply (data), (GDestroyNotify) json_object_unref);
      else
        state_write (task);
      g_object_unref (task);
      return;
    }

  if (data->hidden_view == NULL)
    {
      data->hidden_view = g_object_new (WEBKIT_TYPE_WEB_VIEW,
                                        "web-context", tw_web_context_get_shared (),
                                        "network-session", data->session,
                                        NULL);
      g_object_ref_sink (data->hidden_view);
      data->hidden_runtime = tw_page_runtime_new (data->hidden_view);
      data->load_changed_id = g_signal_connect (data->hidden_view, "load-changed",
                                                G_CALLBACK (hidden_view_load_changed_cb), task);
      data->load_failed_id = g_signal_connect (data->hidden_view, "load-failed",
                                               G_CALLBACK (hidden_view_load_failed_cb), task);
    }

  base = g_strconcat (g_ptr_array_index (data->targets, data->next_origin), "/", NULL);
  data->timeout_id = g_timeout_add (ORIGIN_LOAD_TIMEOUT_MS, hidden_view_timeout_cb, task);
  webkit_web_view_load_html (data->hidden_view, "<!DOCTYPE html><title></title>", base);
}

static void
state_cookies_replaced_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!webkit_cookie_manager_replace_cookies_finish (WEBKIT_COOKIE_MANAGER (object), result,
                                                     &error))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "WebKit could not set the cookies: %s", error->message);
      return;
    }

  state_visit_next_origin (g_steal_pointer (&task));
}

/* The file's cookies take the place of the session's cookies of the same
 * name, domain and path; the others stay. */
static void
state_existing_cookies_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StateData *data = g_task_get_task_data (task);
  GList *existing;
  GList *merged = NULL;

  if (!_tw_tab_storage_get_cookies_finish (task, object, result, &existing))
    return;

  for (GList *l = existing; l != NULL; l = l->next)
    {
      gboolean replaced = FALSE;

      for (GList *n = data->new_cookies; n != NULL && !replaced; n = n->next)
        replaced = _tw_tab_storage_cookie_same_slot (l->data, n->data);
      if (!replaced)
        merged = g_list_prepend (merged, soup_cookie_copy (l->data));
    }
  for (GList *n = data->new_cookies; n != NULL; n = n->next)
    merged = g_list_prepend (merged, soup_cookie_copy (n->data));
  _tw_tab_storage_cookie_list_free (existing);

  merged = g_list_reverse (merged);
  webkit_cookie_manager_replace_cookies (WEBKIT_COOKIE_MANAGER (object), merged,
                                         g_task_get_cancellable (task),
                                         state_cookies_replaced_cb, g_object_ref (task));
  _tw_tab_storage_cookie_list_free (merged);
}

static gboolean
is_http_origin (const char *origin)
{
  g_autoptr(GUri) uri = g_uri_parse (origin, G_URI_FLAGS_NONE, NULL);
  const char *scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;

  return uri != NULL && (g_strcmp0 (scheme, "http") == 0 || g_strcmp0 (scheme, "https") == 0) &&
         g_uri_get_host (uri) != NULL && *g_uri_get_host (uri) != '\0' &&
         (*g_uri_get_path (uri) == '\0' || g_str_equal (g_uri_get_path (uri), "/")) &&
         g_uri_get_query (uri) == NULL &&
         g_uri_get_fragment (uri) == NULL && g_uri_get_userinfo (uri) == NULL;
}

/* Checks the whole file before anything changes: a bad entry anywhere
 * leaves the session as it was. */
static gboolean
state_parse (StateData  *data,
             GError    **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) parse_error = NULL;
  JsonNode *root;
  JsonObject *object;
  JsonNode *cookies;
  JsonNode *origins;
  gsize size = 0;
  const char *text = g_bytes_get_data (data->file, &size);

  if (!json_parser_load_from_data (parser, text, size, &parse_error) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "%s is not a storage state file (a JSON object with cookies and "
                   "origins): %s", data->resolved,
                   parse_error != NULL ? parse_error->message : "not an object");
      return FALSE;
    }

  object = json_node_get_object (root);
  cookies = json_object_get_member (object, "cookies");
  origins = json_object_get_member (object, "origins");
  if ((cookies != NULL && !JSON_NODE_HOLDS_ARRAY (cookies)) ||
      (origins != NULL && !JSON_NODE_HOLDS_ARRAY (origins)))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "%s: cookies and origins must be arrays", data->resolved);
      return FALSE;
    }

  data->cookies = json_array_new ();
  data->origins = json_array_new ();

  for (guint i = 0; cookies != NULL && i < json_array_get_length (json_node_get_array (cookies));
       i++)
    {
      JsonNode *node = json_array_get_element (json_node_get_array (cookies), i);
      g_autoptr(GError) cookie_error = NULL;
      SoupCookie *cookie;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "%s: cookie %u is not an object", data->resolved, i + 1);
          return FALSE;
        }

      cookie = _tw_tab_storage_cookie_from_json (json_node_get_object (node), &cookie_error);
      if (cookie == NULL)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "%s: cookie %u: %s", data->resolved, i + 1, cookie_error->message);
          return FALSE;
        }

      data->new_cookies = g_list_append (data->new_cookies, cookie);
      json_array_add_object_element (data->cookies, _tw_tab_storage_cookie_to_json (cookie));
    }

  for (guint i = 0; origins != NULL && i < json_array_get_length (json_node_get_array (origins));
       i++)
    {
      JsonNode *node = json_array_get_element (json_node_get_array (origins), i);
      JsonObject *entry = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *origin = entry != NULL ? tw_json_get_string (entry, "origin", NULL) : NULL;
      JsonNode *items = entry != NULL ? json_object_get_member (entry, "localStorage") : NULL;
      JsonObject *copy;
      JsonArray *copied;

      if (origin == NULL || !is_http_origin (origin))
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "%s: origin %u needs an http(s) origin such as "
                       "\"https://example.com\"", data->resolved, i + 1);
          return FALSE;
        }
      if (items != NULL && !JSON_NODE_HOLDS_ARRAY (items))
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "%s: localStorage of %s must be an array", data->resolved, origin);
          return FALSE;
        }

      copied = json_array_new ();
      for (guint j = 0; items != NULL && j < json_array_get_length (json_node_get_array (items));
           j++)
        {
          JsonNode *item = json_array_get_element (json_node_get_array (items), j);
          JsonObject *pair = JSON_NODE_HOLDS_OBJECT (item) ? json_node_get_object (item) : NULL;
          const char *name = pair != NULL ? tw_json_get_string (pair, "name", NULL) : NULL;
          const char *value = pair != NULL ? tw_json_get_string (pair, "value", NULL) : NULL;
          JsonObject *kept;

          if (name == NULL || value == NULL)
            {
              json_array_unref (copied);
              g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "%s: each localStorage item of %s needs a name and a string value",
                           data->resolved, origin);
              return FALSE;
            }

          kept = json_object_new ();
          json_object_set_string_member (kept, "name", name);
          json_object_set_string_member (kept, "value", value);
          json_array_add_object_element (copied, kept);
        }

      g_ptr_array_add (data->targets, origin_of_uri (origin));
      copy = json_object_new ();
      json_object_set_string_member (copy, "origin", g_ptr_array_index (data->targets,
                                                                        data->targets->len - 1));
      json_object_set_array_member (copy, "localStorage", copied);
      json_array_add_object_element (data->origins, copy);
    }

  return TRUE;
}

static void
state_read_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  StateData *data = task_data;
  GError *error = NULL;
  GByteArray *buffer = g_byte_array_new ();
  char *resolved = NULL;
  int fd;

  fd = tw_workspace_path_open_read (data->workspace_dir, data->path, &resolved, &error);
  if (fd < 0)
    {
      g_byte_array_unref (buffer);
      g_task_return_error (task, error);
      return;
    }

  for (;;)
    {
      guint8 chunk[65536];
      gssize n = read (fd, chunk, sizeof chunk);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          close (fd);
          g_byte_array_unref (buffer);
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "could not read %s: %s", resolved, g_strerror (saved));
          g_free (resolved);
          return;
        }
      if (n == 0)
        break;
      if (buffer->len + n > STATE_MAX_BYTES)
        {
          close (fd);
          g_byte_array_unref (buffer);
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "%s is larger than %d MB", resolved,
                                   STATE_MAX_BYTES / (1024 * 1024));
          g_free (resolved);
          return;
        }
      g_byte_array_append (buffer, chunk, n);
    }
  close (fd);

  data->resolved = resolved;
  data->file = g_byte_array_free_to_bytes (buffer);
  g_task_return_boolean (task, TRUE);
}

static void
state_file_read_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  StateData *data = g_task_get_task_data (task);
  StateData *read_data = g_task_get_task_data (G_TASK (result));
  GCancellable *cancellable;
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_task_return_error (task, error);
      return;
    }

  data->resolved = g_steal_pointer (&read_data->resolved);
  data->file = g_steal_pointer (&read_data->file);

  if (!state_parse (data, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  cancellable = g_task_get_cancellable (task);
  webkit_cookie_manager_get_all_cookies (webkit_network_session_get_cookie_manager (data->session),
                                         cancellable, state_existing_cookies_cb,
                                         g_steal_pointer (&task));
}

void
tw_tab_storage_state_async (WebKitNetworkSession *session,
                            GPtrArray            *views,
                            const char           *workspace_dir,
                            JsonObject           *params,
                            GCancellable         *cancellable,
                            GAsyncReadyCallback   callback,
                            gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  const char *action = tw_json_get_string (params, "action", NULL);
  const char *path = tw_json_get_string (params, "path", NULL);
  StateData *data;

  g_return_if_fail (WEBKIT_IS_NETWORK_SESSION (session));
  g_return_if_fail (params != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_tab_storage_state_async);

  if (action == NULL || (!g_str_equal (action, "save") && !g_str_equal (action, "load")))
    {
      g_task_return_error (task, _tw_tab_storage_invalid ("action must be save or load"));
      return;
    }
  if (path == NULL)
    {
      g_task_return_error (task,
                           _tw_tab_storage_invalid ("path must name a file in the workspace"));
      return;
    }

  data = g_new0 (StateData, 1);
  data->session = g_object_ref (session);
  data->workspace_dir = g_strdup (workspace_dir);
  data->path = g_strdup (path);
  data->load = g_str_equal (action, "load");
  data->seen_origins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  data->targets = g_ptr_array_new_with_free_func (g_free);
  g_task_set_task_data (task, data, (GDestroyNotify) state_data_free);

  if (data->load)
    {
      g_autoptr(GTask) read = NULL;
      StateData *read_data;

      read = g_task_new (NULL, cancellable, state_file_read_cb, g_steal_pointer (&task));
      read_data = g_new0 (StateData, 1);
      read_data->workspace_dir = g_strdup (workspace_dir);
      read_data->path = g_strdup (path);
      g_task_set_task_data (read, read_data, (GDestroyNotify) state_data_free);
      g_task_run_in_thread (read, state_read_thread);
      return;
    }

  /* A refused path costs nothing: checked before anything is read. */
  data->resolved = tw_workspace_path_check (workspace_dir, path, TW_WORKSPACE_PATH_NEW_FILE,
                                            &error);
  if (data->resolved == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data->views = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; views != NULL && i < views->len; i++)
    g_ptr_array_add (data->views, g_object_ref (g_ptr_array_index (views, i)));
  data->origins = json_array_new ();

  webkit_cookie_manager_get_all_cookies (webkit_network_session_get_cookie_manager (session),
                                         cancellable, state_cookies_cb, g_steal_pointer (&task));
}

JsonObject *
tw_tab_storage_state_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
