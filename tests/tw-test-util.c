/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-test-util.h"

#include "tw-error.h"
#include "tw-mcp-server-private.h"
#include "tw-tool-call-private.h"
#include "tw-tool-registry.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

/* Skipping */

/* Skips the running test for want of @reason, or fails it when
 * TABWRIGHT_TEST_REQUIRE_ALL is set: build-aux/test installs everything
 * the tests need, so there a missing requirement is a broken set-up, not a
 * reason for the suite to test less and still pass. */
void
tw_test_skip_or_fail (const char *reason)
{
  g_return_if_fail (reason != NULL);

  if (g_strcmp0 (g_getenv ("TABWRIGHT_TEST_REQUIRE_ALL"), "1") == 0)
    g_test_fail_printf ("cannot run (TABWRIGHT_TEST_REQUIRE_ALL is set): %s", reason);
  else
    g_test_skip (reason);
}

/* Test programs */

void
tw_test_add_fixture_cases (const TwTestFixtureCase *cases,
                           guint                    n_cases,
                           gsize                    fixture_size,
                           GTestFixtureFunc         set_up,
                           GTestFixtureFunc         tear_down)
{
  for (guint i = 0; i < n_cases; i++)
    g_test_add_vtable (cases[i].path, fixture_size, NULL, set_up, cases[i].test, tear_down);
}

/* Runs the tests with @server up, then drops it and *@base_url. */
static int
run_with (SoupServer  *server,
          char       **base_url)
{
  int status = g_test_run ();

  g_object_unref (server);
  g_clear_pointer (base_url, g_free);

  return status;
}

/* Fixture server */

static const char *
content_type_for (const char *path)
{
  if (g_str_has_suffix (path, ".js"))
    return "text/javascript";
  if (g_str_has_suffix (path, ".css"))
    return "text/css";
  if (g_str_has_suffix (path, ".json"))
    return "application/json";
  if (g_str_has_suffix (path, ".png"))
    return "image/png";
  if (g_str_has_suffix (path, ".txt"))
    return "text/plain";
  return "text/html";
}

/* A server on a free loopback port that hands every request to @callback;
 * *@base_url gets its address with a trailing slash. */
static SoupServer *
server_listen (SoupServerCallback   callback,
               gpointer             user_data,
               GDestroyNotify       destroy,
               char               **base_url)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoslist(GUri) uris = NULL;

  soup_server_add_handler (server, NULL, callback, user_data, destroy);
  soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (server);
  g_assert_nonnull (uris);
  *base_url = g_strdup_printf ("http://127.0.0.1:%d/", g_uri_get_port (uris->data));

  return g_steal_pointer (&server);
}

static void
serve_func_cb (SoupServer        *server,
               SoupServerMessage *msg,
               const char        *path,
               GHashTable        *query,
               gpointer           user_data)
{
  TwTestServeFunc *serve = user_data;
  GPtrArray *held;

  if (!g_str_equal (path, "/hang"))
    {
      (*serve)(msg, path, query);
      return;
    }

  /* Never answered: the request stays paused, held by the server. */
  held = g_object_get_data (G_OBJECT (server), "tw-test-held");
  if (held == NULL)
    {
      held = g_ptr_array_new_with_free_func (g_object_unref);
      g_object_set_data_full (G_OBJECT (server), "tw-test-held", held, (GDestroyNotify) g_ptr_array_unref);
    }
  soup_server_message_pause (msg);
  g_ptr_array_add (held, g_object_ref (msg));
}

/* A server on a free loopback port that answers every request with
 * @serve; *@base_url gets its address with a trailing slash. */
SoupServer *
tw_test_server_new (TwTestServeFunc   serve,
                    char            **base_url)
{
  TwTestServeFunc *boxed = g_new (TwTestServeFunc, 1);

  *boxed = serve;

  return server_listen (serve_func_cb, boxed, g_free, base_url);
}

void
tw_test_serve_html (SoupServerMessage *msg,
                    const char        *html)
{
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_STATIC, html, strlen (html));
}

static void
serve_page_cb (SoupServer        *server,
               SoupServerMessage *msg,
               const char        *path,
               GHashTable        *query,
               gpointer           user_data)
{
  tw_test_serve_html (msg, user_data);
}

SoupServer *
tw_test_server_new_page (const char  *html,
                         char       **base_url)
{
  return server_listen (serve_page_cb, (gpointer) html, NULL, base_url);
}

int
tw_test_run_with_server (TwTestServeFunc   serve,
                         char            **base_url)
{
  return run_with (tw_test_server_new (serve, base_url), base_url);
}

int
tw_test_run_with_page (const char  *html,
                       char       **base_url)
{
  return run_with (tw_test_server_new_page (html, base_url), base_url);
}

void
tw_test_serve_not_found (SoupServerMessage *msg)
{
  static const char not_found[] = "<title>Not Found</title><h1>Nothing here</h1>";

  soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
  soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_STATIC,
                                    not_found, strlen (not_found));
}

/* Answers @msg with the file at @path below @folder (relative to the
 * tests' source folder), typed by its suffix, or with a 404 page. Paths
 * that climb out with ".." are never served. @no_store keeps WebKit from
 * answering a reload out of its cache. Unless @a is NULL, {{A}} and {{B}}
 * in the file are replaced by @a and @b. */
static void
serve_fixture (SoupServerMessage *msg,
               const char        *folder,
               const char        *path,
               gboolean           no_store,
               const char        *a,
               const char        *b)
{
  g_autofree char *file = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  if (strstr (path, "..") != NULL)
    {
      tw_test_serve_not_found (msg);
      return;
    }

  file = g_test_build_filename (G_TEST_DIST, folder, path + 1, NULL);
  if (!g_file_get_contents (file, &contents, &length, NULL))
    {
      tw_test_serve_not_found (msg);
      return;
    }

  if (a != NULL)
    {
      g_autofree char *with_a = tw_test_replace (contents, "{{A}}", a);

      g_free (contents);
      contents = tw_test_replace (with_a, "{{B}}", b);
      length = strlen (contents);
    }

  if (no_store)
    soup_message_headers_append (soup_server_message_get_response_headers (msg),
                                 "Cache-Control", "no-store");
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, content_type_for (path), SOUP_MEMORY_TAKE,
                                    g_steal_pointer (&contents), length);
}

void
tw_test_serve_file (SoupServerMessage *msg,
                    const char        *folder,
                    const char        *path,
                    gboolean           no_store)
{
  serve_fixture (msg, folder, path, no_store, NULL, NULL);
}

void
tw_test_serve_file_of_two (SoupServerMessage *msg,
                           const char        *folder,
                           const char        *path,
                           const char        *a,
                           const char        *b)
{
  serve_fixture (msg, folder, path, TRUE, a, b);
}

/* A loopback port nothing listens on: bound, then let go. */
guint16
tw_test_closed_port (void)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(GError) error = NULL;
  guint16 port;

  port = g_socket_listener_add_any_inet_port (listener, NULL, &error);
  g_assert_no_error (error);
  g_socket_listener_close (listener);

  return port;
}

/* Waiting on the main loop */

static gboolean
wake_up_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

gboolean
tw_test_flag_is_set (gpointer data)
{
  return *(gboolean *) data;
}

/* Iterates the main context until @condition holds, failing the test
 * instead of hanging when it still does not after @timeout_ms. A timer
 * wakes the loop up so the deadline is checked even when nothing else
 * happens. */
void
tw_test_wait_until (TwTestCondition  condition,
                    gpointer         data,
                    guint            timeout_ms,
                    const char      *what)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  guint wake_up = g_timeout_add (50, wake_up_cb, NULL);

  while (!condition (data))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for %s (%u ms)", what, timeout_ms);
      g_main_context_iteration (NULL, TRUE);
    }

  g_source_remove (wake_up);
}

void
tw_test_wait_for_flag (gboolean   *flag,
                       guint       timeout_ms,
                       const char *what)
{
  tw_test_wait_until (tw_test_flag_is_set, flag, timeout_ms, what);
}

static gboolean
holds_sole_ref (gpointer data)
{
  return g_atomic_int_get (&G_OBJECT (data)->ref_count) == 1;
}

/* Waits until the test holds the only reference to @object, as it must
 * before g_assert_finalize_object(): sources and callbacks still on their
 * way (a connection winding down, a cancelled call's idle) hold it until
 * they have run. Fails naming @what after @timeout_ms. */
void
tw_test_await_sole_ref (gpointer    object,
                        guint       timeout_ms,
                        const char *what)
{
  g_return_if_fail (G_IS_OBJECT (object));

  tw_test_wait_until (holds_sole_ref, object, timeout_ms, what);
}

static GAsyncResult *async_result;

/* The callback for an async call whose result tw_test_await_result()
 * returns; one call at a time. */
void
tw_test_store_result_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_assert_null (async_result);
  async_result = g_object_ref (result);
}

static gboolean
result_is_stored (gpointer data)
{
  return async_result != NULL;
}

GAsyncResult *
tw_test_await_result (guint       timeout_ms,
                      const char *what)
{
  tw_test_wait_until (result_is_stored, NULL, timeout_ms, what);

  return g_steal_pointer (&async_result);
}

/* The protocol */

const TwTestProtocolVersion tw_test_protocol_versions[] = {
  { "2025-11-25", "2025-11-25" },
  { "2025-06-18", "2025-06-18" },
  { "2025-03-26", "2025-03-26" },
  { "2024-11-05", TW_MCP_PROTOCOL_VERSION_LATEST },
  { "1999-01-01", TW_MCP_PROTOCOL_VERSION_LATEST },
};
const guint tw_test_n_protocol_versions = G_N_ELEMENTS (tw_test_protocol_versions);

/* JSON and text */

/* The JSON value in @text, which must be valid. */
JsonNode *
tw_test_parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);

  return json_node_copy (json_parser_get_root (parser));
}

/* The object in @json, which must be one. */
JsonObject *
tw_test_parse_object (const char *json)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = json_from_string (json, &error);
  g_assert_no_error (error);
  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  return json_object_ref (json_node_get_object (node));
}

char *
tw_test_object_to_string (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, object);
  return json_to_string (node, FALSE);
}

/* The ref printed on the first line of @snapshot that holds @needle, such
 * as `button "Save"`. */
char *
tw_test_find_ref (const char *snapshot,
                  const char *needle)
{
  g_auto(GStrv) lines = g_strsplit (snapshot, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *at;
      const char *end;

      if (strstr (lines[i], needle) == NULL || (at = strstr (lines[i], " @e")) == NULL)
        continue;
      at++;
      end = at + 2;
      while (g_ascii_isdigit (*end))
        end++;
      return g_strndup (at, end - at);
    }

  g_error ("No line with %s in:\n%s", needle, snapshot);
  return NULL;
}

/* Every occurrence of @needle in @haystack replaced by @replacement. */
char *
tw_test_replace (const char *haystack,
                 const char *needle,
                 const char *replacement)
{
  g_auto(GStrv) parts = g_strsplit (haystack, needle, -1);

  return g_strjoinv (replacement, parts);
}

static int
log_find (GPtrArray  *log,
          const char *entry)
{
  for (guint i = 0; i < log->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (log, i), entry))
        return i;
    }

  return -1;
}

/* Whether @log, an array of strings, holds @entry. */
gboolean
tw_test_log_contains (GPtrArray  *log,
                      const char *entry)
{
  return log_find (log, entry) >= 0;
}

/* Where @entry stands in @log, which must hold it. */
int
tw_test_log_index (GPtrArray  *log,
                   const char *entry)
{
  int position = log_find (log, entry);

  if (position < 0)
    g_error ("\"%s\" is not in the service log", entry);

  return position;
}

/* For qsort() on doubles, as timings are. */
int
tw_test_compare_doubles (gconstpointer a,
                         gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* Folders */

/* Removes @path and all below it, without following symbolic links. */
void
tw_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (g_file_test (path, G_FILE_TEST_IS_SYMLINK) || !g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_unlink (path);
      return;
    }

  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      tw_test_remove_tree (child);
    }

  g_rmdir (path);
}

/* Makes a temporary folder from @tmpl and points HOME and the XDG base
 * folders into it, so a test never reads or writes the user's own.
 * Returns the folder, for tw_test_remove_tree() at the end. */
char *
tw_test_set_up_folders (const char *tmpl,
                        gboolean    with_state_home)
{
  static const struct {
    const char *variable;
    const char *folder;
  } folders[] = {
    { "HOME", "home" },
    { "XDG_DATA_HOME", "data" },
    { "XDG_CACHE_HOME", "cache" },
    { "XDG_CONFIG_HOME", "config" },
    { "XDG_STATE_HOME", "state" },
    { "XDG_RUNTIME_DIR", "runtime" },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp (tmpl, &error);

  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      g_autofree char *path = NULL;

      if (!with_state_home && g_str_equal (folders[i].variable, "XDG_STATE_HOME"))
        continue;

      path = g_build_filename (root, folders[i].folder, NULL);
      g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
      g_setenv (folders[i].variable, path, TRUE);
    }

  return g_steal_pointer (&root);
}

/* Makes the folder @name in a folder of the running test's own below
 * @parent, so no test sees another's files. */
char *
tw_test_make_folder (const char *parent,
                     const char *name)
{
  g_autofree char *test_name = g_strdelimit (g_strdup (g_test_get_path ()), "/", '_');
  g_autofree char *path = g_build_filename (parent, test_name, name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);

  return g_steal_pointer (&path);
}

/* The permission bits of the file at @path, which must exist. */
guint
tw_test_file_mode (const char *path)
{
  GStatBuf buf;

  g_assert_cmpint (g_stat (path, &buf), ==, 0);

  return buf.st_mode & 0777;
}

/* The fake browser service */

static void tw_fake_service_iface_init (TwBrowserServiceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TwFakeService, tw_fake_service, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TW_TYPE_BROWSER_SERVICE,
                                                      tw_fake_service_iface_init))

static void
tw_fake_service_run_async (TwBrowserService       *service,
                           const TwServiceRequest *request,
                           GCancellable           *cancellable,
                           GAsyncReadyCallback     callback,
                           gpointer                user_data)
{
  TwFakeService *self = TW_FAKE_SERVICE (service);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  self->n_runs++;
  self->command = request->command;
  g_free (self->browser_id);
  self->browser_id = g_strdup (request->browser_id);
  g_clear_pointer (&self->params, json_object_unref);
  self->params = json_object_ref (request->params);
  g_free (self->agent_id);
  g_free (self->agent_name);
  self->agent_id = g_strdup (request->caller->agent_id);
  self->agent_name = g_strdup (request->caller->agent_name);

  if (self->run != NULL)
    self->run (task, request, self->run_data);
  else if (self->error != NULL)
    g_task_return_error (task, g_error_copy (self->error));
  else
    g_task_return_pointer (task, json_object_ref (self->reply), (GDestroyNotify) json_object_unref);
}

static JsonObject *
tw_fake_service_run_finish (TwBrowserService  *service,
                            GAsyncResult      *result,
                            GError           **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
tw_fake_service_get_tool_group_enabled (TwBrowserService *service,
                                        const char       *group)
{
  TwFakeService *self = TW_FAKE_SERVICE (service);

  return self->tool_groups == NULL || g_strv_contains ((const char * const *) self->tool_groups, group);
}

static void
tw_fake_service_iface_init (TwBrowserServiceInterface *iface)
{
  iface->run_async = tw_fake_service_run_async;
  iface->run_finish = tw_fake_service_run_finish;
  iface->get_tool_group_enabled = tw_fake_service_get_tool_group_enabled;
}

void
tw_fake_service_set_tool_groups (TwFakeService      *self,
                                 const char * const *groups)
{
  g_strfreev (self->tool_groups);
  self->tool_groups = g_strdupv ((char **) groups);
  tw_browser_service_emit_tools_changed (TW_BROWSER_SERVICE (self));
}

static void
tw_fake_service_finalize (GObject *object)
{
  TwFakeService *self = TW_FAKE_SERVICE (object);

  g_free (self->browser_id);
  g_clear_pointer (&self->params, json_object_unref);
  g_free (self->agent_id);
  g_free (self->agent_name);
  g_clear_pointer (&self->reply, json_object_unref);
  g_clear_pointer (&self->tabs, g_hash_table_unref);
  g_clear_pointer (&self->log, g_ptr_array_unref);
  g_clear_error (&self->error);
  g_clear_pointer (&self->tool_groups, g_strfreev);
  if (self->run_data_free != NULL)
    g_clear_pointer (&self->run_data, self->run_data_free);

  G_OBJECT_CLASS (tw_fake_service_parent_class)->finalize (object);
}

static void
tw_fake_service_class_init (TwFakeServiceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_fake_service_finalize;
}

static void
tw_fake_service_init (TwFakeService *self)
{
}

TwFakeService *
tw_fake_service_new_full (TwFakeServiceRunFunc run,
                          gpointer             run_data,
                          GDestroyNotify       run_data_free)
{
  TwFakeService *self = g_object_new (TW_TYPE_FAKE_SERVICE, NULL);

  self->run = run;
  self->run_data = run_data;
  self->run_data_free = run_data_free;

  return self;
}

/* Commands of in-test services that take their time */

typedef struct
{
  GPtrArray  *log;
  char       *label;
  JsonObject *result;
  GError     *error;
  GSource    *timeout;
  GSource    *cancel;
} Later;

static void
later_free (Later *later)
{
  if (later->timeout != NULL)
    g_source_destroy (later->timeout);
  if (later->cancel != NULL)
    g_source_destroy (later->cancel);
  g_clear_pointer (&later->timeout, g_source_unref);
  g_clear_pointer (&later->cancel, g_source_unref);
  g_clear_pointer (&later->result, json_object_unref);
  g_clear_error (&later->error);
  g_free (later->label);
  g_free (later);
}

static void
later_return (GTask    *task,
              gboolean  cancelled)
{
  Later *later = g_task_get_task_data (task);

  g_ptr_array_add (later->log, g_strdup_printf ("%s %s", cancelled ? "cancelled" : "end",
                                                later->label));

  if (later->timeout != NULL)
    {
      g_source_destroy (later->timeout);
      g_clear_pointer (&later->timeout, g_source_unref);
    }
  if (later->cancel != NULL)
    {
      g_source_destroy (later->cancel);
      g_clear_pointer (&later->cancel, g_source_unref);
    }

  if (cancelled)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
  else if (later->error != NULL)
    g_task_return_error (task, g_steal_pointer (&later->error));
  else
    g_task_return_pointer (task, json_object_ref (later->result),
                           (GDestroyNotify) json_object_unref);

  /* Drops the reference the sources shared. */
  g_object_unref (task);
}

static gboolean
later_timeout_cb (gpointer user_data)
{
  later_return (user_data, FALSE);
  return G_SOURCE_REMOVE;
}

static gboolean
later_cancelled_cb (GCancellable *cancellable,
                    gpointer      user_data)
{
  later_return (user_data, TRUE);
  return G_SOURCE_REMOVE;
}

/* Returns @task's @result, or its @error when that is set (both taken),
 * after @delay_ms, or never when that is negative; when @cancellable fires
 * first, the task returns G_IO_ERROR_CANCELLED at once. The service's
 * @log gets "start @label", then "end @label" or "cancelled @label". */
static void
return_later (GTask        *task,
              GPtrArray    *log,
              const char   *label,
              JsonObject   *result,
              GError       *error,
              int           delay_ms,
              GCancellable *cancellable)
{
  Later *later = g_new0 (Later, 1);

  later->log = log;
  later->label = g_strdup (label);
  later->result = result;
  later->error = error;
  g_task_set_task_data (task, later, (GDestroyNotify) later_free);

  g_ptr_array_add (log, g_strdup_printf ("start %s", label));

  if (delay_ms >= 0)
    {
      later->timeout = g_timeout_source_new (delay_ms);
      g_source_set_callback (later->timeout, later_timeout_cb, task, NULL);
      g_source_attach (later->timeout, NULL);
    }

  if (cancellable != NULL)
    {
      later->cancel = g_cancellable_source_new (cancellable);
      g_source_set_callback (later->cancel, G_SOURCE_FUNC (later_cancelled_cb), task, NULL);
      g_source_attach (later->cancel, NULL);
    }

  /* The sources share one reference, dropped when the task returns. */
  g_object_ref (task);
}

/* How long a command on a page at @url takes: N ms for "ms=N" in @url,
 * for ever (-1: until cancelled) for "/hang", else 0. */
static int
url_delay_ms (const char *url)
{
  const char *ms;

  if (url == NULL)
    return 0;
  if (strstr (url, "/hang") != NULL)
    return -1;
  ms = strstr (url, "ms=");
  return ms != NULL ? atoi (ms + 3) : 0;
}

/* The played tabs */

/* What a command that shows @url in tab @browser_id answers. */
static JsonObject *
played_page (const char *browser_id,
             const char *url)
{
  JsonObject *result = json_object_new ();
  g_autoptr(GUri) uri = g_str_has_prefix (url, "http") ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;
  const char *path = uri != NULL ? g_uri_get_path (uri) : "";
  g_autofree char *name = g_ascii_strup (path[0] == '/' ? path + 1 : path, -1);

  json_object_set_string_member (result, "browserId", browser_id);
  json_object_set_string_member (result, "url", url);
  if (uri != NULL)
    {
      g_autofree char *title = g_strdup_printf ("Page %s", name);

      json_object_set_string_member (result, "title", title);
      json_object_set_int_member (result, "status", 200);
    }
  else
    {
      json_object_set_string_member (result, "title", "");
      json_object_set_null_member (result, "status");
    }

  if (g_strcmp0 (path, "/dialog") == 0)
    {
      JsonArray *dialogs = json_array_new ();
      JsonObject *dialog = json_object_new ();

      json_object_set_string_member (dialog, "type", "alert");
      json_object_set_string_member (dialog, "message", "Hello");
      json_array_add_object_element (dialogs, dialog);
      json_object_set_array_member (result, "dialogs", dialogs);
    }

  return result;
}

static void
play_tabs (GTask                  *task,
           const TwServiceRequest *request,
           gpointer                run_data)
{
  TwFakeService *self = run_data;
  GCancellable *cancellable = g_task_get_cancellable (task);
  const char *url = json_object_has_member (request->params, "url")
                    ? json_object_get_string_member (request->params, "url") : NULL;
  JsonObject *tab = request->browser_id != NULL
                    ? g_hash_table_lookup (self->tabs, request->browser_id) : NULL;
  g_autofree char *label = NULL;
  JsonObject *result = NULL;
  GError *error = NULL;
  int delay = url_delay_ms (url);

  label = g_strdup_printf ("%s %s%s%s", request->browser_id ? request->browser_id : "-",
                           tw_tab_command_to_string (request->command),
                           url ? " " : "", url ? url : "");

  if (tw_tab_command_targets_tab (request->command) && tab == NULL)
    {
      error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                           "No tab %s in this workspace", request->browser_id);
      delay = 0;
    }
  else
    switch (request->command)
      {
      case TW_TAB_COMMAND_LIST_TABS:
        {
          JsonArray *tabs = json_array_new ();
          GHashTableIter iter;
          gpointer value;

          g_hash_table_iter_init (&iter, self->tabs);
          while (g_hash_table_iter_next (&iter, NULL, &value))
            json_array_add_object_element (tabs, json_object_ref (value));

          result = json_object_new ();
          json_object_set_array_member (result, "tabs", tabs);
        }
        break;

      case TW_TAB_COMMAND_NEW_TAB:
        {
          g_autofree char *id = g_strdup_printf ("b%u", ++self->next_tab);
          JsonObject *entry;

          result = played_page (id, url != NULL ? url : "about:blank");
          entry = json_object_new ();
          json_object_set_string_member (entry, "browserId", id);
          json_object_set_string_member (entry, "url", json_object_get_string_member (result, "url"));
          json_object_set_string_member (entry, "title", json_object_get_string_member (result, "title"));
          json_object_set_boolean_member (entry, "loading", FALSE);
          json_object_set_boolean_member (entry, "private", FALSE);
          json_object_set_string_member (entry, "owner", request->caller->agent_name);
          g_hash_table_insert (self->tabs, g_strdup (id), entry);
        }
        break;

      case TW_TAB_COMMAND_CLOSE_TAB:
        g_hash_table_remove (self->tabs, request->browser_id);
        result = json_object_new ();
        json_object_set_string_member (result, "browserId", request->browser_id);
        json_object_set_boolean_member (result, "closed", TRUE);
        break;

      case TW_TAB_COMMAND_NAVIGATE:
      case TW_TAB_COMMAND_RELOAD:
        result = played_page (request->browser_id,
                              url != NULL ? url : json_object_get_string_member (tab, "url"));
        json_object_set_string_member (tab, "url", json_object_get_string_member (result, "url"));
        json_object_set_string_member (tab, "title", json_object_get_string_member (result, "title"));
        break;

      case TW_TAB_COMMAND_BACK:
      case TW_TAB_COMMAND_FORWARD:
        error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                             "There is no %s page in %s",
                             request->command == TW_TAB_COMMAND_BACK ? "earlier" : "later",
                             request->browser_id);
        break;

      default:
        error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL, "Not in the test service");
        break;
      }

  if (url != NULL && strstr (url, "/ignore-cancel") != NULL)
    cancellable = NULL;

  return_later (task, self->log, label, result, error, delay, cancellable);
}

TwFakeService *
tw_fake_service_new_tabs (void)
{
  TwFakeService *self = g_object_new (TW_TYPE_FAKE_SERVICE, NULL);

  /* The service is its own run data, so it owns no reference to itself. */
  self->run = play_tabs;
  self->run_data = self;
  self->tabs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) json_object_unref);
  self->log = g_ptr_array_new_with_free_func (g_free);

  return self;
}

static void
call_started_cb (TwMcpServer *server,
                 guint64      serial,
                 const char  *agent_id,
                 const char  *agent_name,
                 const char  *tool,
                 JsonObject  *arguments,
                 GPtrArray   *log)
{
  g_autofree char *args = arguments != NULL ? tw_test_object_to_string (arguments) : NULL;

  g_ptr_array_add (log, g_strdup_printf ("started %" G_GUINT64_FORMAT " %s %s %s %s",
                                         serial, agent_id, agent_name, tool,
                                         args != NULL ? args : "null"));
}

static void
call_finished_cb (TwMcpServer *server,
                  guint64      serial,
                  gboolean     is_error,
                  const char  *error_code,
                  double       duration_ms,
                  GPtrArray   *log)
{
  g_assert_cmpfloat (duration_ms, >=, 0);
  g_ptr_array_add (log, g_strdup_printf ("finished %" G_GUINT64_FORMAT " %s %s",
                                         serial, is_error ? "error" : "ok",
                                         error_code != NULL ? error_code : "-"));
}

void
tw_test_record_calls (TwMcpServer *server,
                      GPtrArray   *log)
{
  g_signal_connect (server, "call-started", G_CALLBACK (call_started_cb), log);
  g_signal_connect (server, "call-finished", G_CALLBACK (call_finished_cb), log);
}

/* Tools of the tests only */

static gboolean
progress_step_cb (gpointer user_data)
{
  TwToolCall *call = user_data;
  GObject *counter = G_OBJECT (tw_tool_call_get_cancellable (call));
  int step = GPOINTER_TO_INT (g_object_get_data (counter, "step")) + 1;

  g_object_set_data (counter, "step", GINT_TO_POINTER (step));

  if (step < 3)
    {
      g_autofree char *message = g_strdup_printf ("Step %d", step);

      tw_tool_call_report_progress (call, step, 3, message);
      return G_SOURCE_CONTINUE;
    }

  tw_tool_call_return_text (call, "Finished in 3 steps", NULL);
  return G_SOURCE_REMOVE;
}

/* The handler of TW_TEST_PROGRESS_TOOL. */
void
tw_test_progress_handler (TwToolCall *call)
{
  g_timeout_add (20, progress_step_cb, call);
}

/* Tool calls */

const TwCaller tw_test_agent = { "test-agent", "Test Agent", 0 };
const TwCaller tw_test_ada = { "agent-ada", "Ada", 0 };

void
tw_test_outcome_done_cb (TwToolCall   *call,
                         JsonNode     *result,
                         const GError *error,
                         gpointer      user_data)
{
  TwTestOutcome *outcome = user_data;

  outcome->done = TRUE;
  outcome->result = json_node_copy (result);
  outcome->error = error ? g_error_copy (error) : NULL;
}

static void
outcome_progress_cb (TwToolCall *call,
                     double      progress,
                     double      total,
                     const char *message,
                     gpointer    user_data)
{
  TwTestOutcome *outcome = user_data;

  outcome->n_progress++;
  outcome->last_total = total;
}

/* Forgets the result, not the progress seen. */
void
tw_test_outcome_clear (TwTestOutcome *outcome)
{
  g_clear_pointer (&outcome->result, json_node_unref);
  g_clear_error (&outcome->error);
  outcome->done = FALSE;
}

/* Starts the tool @name with @arguments against @service on behalf of
 * @caller, as an agent's call would; @outcome learns how it went. */
TwToolCall *
tw_test_start_tool (TwBrowserService *service,
                    const TwCaller   *caller,
                    const char       *name,
                    const char       *arguments,
                    TwTestOutcome    *outcome)
{
  const TwToolDef *def = tw_tool_registry_lookup (name);
  g_autoptr(JsonObject) args = tw_test_parse_object (arguments);
  TwToolCall *call;

  g_assert_nonnull (def);
  call = tw_tool_call_new (def, args, service, caller, NULL);
  tw_tool_call_set_done_func (call, tw_test_outcome_done_cb, outcome, NULL);
  tw_tool_call_set_progress_func (call, outcome_progress_cb, outcome);
  tw_tool_call_start (call);

  return call;
}

/* Waits for the call behind @outcome to end, and returns its
 * CallToolResult; @outcome is ready for the next call then. */
JsonObject *
tw_test_await_tool (TwTestOutcome *outcome,
                    const char    *what)
{
  JsonObject *result;

  tw_test_wait_for_flag (&outcome->done, TW_TEST_TOOL_TIMEOUT_MS, what);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (outcome->result));
  result = json_object_ref (json_node_get_object (outcome->result));
  tw_test_outcome_clear (outcome);

  return result;
}

JsonObject *
tw_test_await_tool_ok (TwTestOutcome *outcome,
                       const char    *what)
{
  JsonObject *result = tw_test_await_tool (outcome, what);

  if (tw_test_result_is_error (result))
    g_error ("%s failed: %s", what, tw_test_result_text (result));
  g_test_message ("%s", tw_test_result_text (result));

  return result;
}

/* Runs the tool @name, as tw_test_start_tool() does, and returns its
 * CallToolResult. */
JsonObject *
tw_test_call_tool (TwBrowserService *service,
                   const TwCaller   *caller,
                   const char       *name,
                   const char       *arguments)
{
  TwTestOutcome outcome = { 0 };
  g_autoptr(TwToolCall) call = tw_test_start_tool (service, caller, name, arguments, &outcome);

  return tw_test_await_tool (&outcome, name);
}

/* The same, for a call that must succeed. */
JsonObject *
tw_test_call_tool_ok (TwBrowserService *service,
                      const TwCaller   *caller,
                      const char       *name,
                      const char       *arguments)
{
  JsonObject *result = tw_test_call_tool (service, caller, name, arguments);

  if (tw_test_result_is_error (result))
    g_error ("%s(%s) failed: %s", name, arguments, tw_test_result_text (result));

  return result;
}

JsonObject *
tw_test_call_ok_printf (TwBrowserService *service,
                        const TwCaller   *caller,
                        const char       *name,
                        const char       *format,
                        ...)
{
  g_autofree char *arguments = NULL;
  va_list args;

  va_start (args, format);
  arguments = g_strdup_vprintf (format, args);
  va_end (args);

  return tw_test_call_tool_ok (service, caller, name, arguments);
}

/* Runs the tool @name, as tw_test_start_tool() does, and waits until it
 * is done; @outcome keeps the result and the error. */
void
tw_test_run_tool_full (TwBrowserService *service,
                       const TwCaller   *caller,
                       const char       *name,
                       const char       *arguments,
                       TwTestOutcome    *outcome)
{
  g_autoptr(TwToolCall) call = tw_test_start_tool (service, caller, name, arguments, outcome);

  while (!outcome->done)
    g_main_context_iteration (NULL, TRUE);
}

void
tw_test_run_tool (TwFakeService *service,
                  const char    *name,
                  const char    *arguments,
                  TwTestOutcome *outcome)
{
  tw_test_run_tool_full (TW_BROWSER_SERVICE (service), &tw_test_agent, name, arguments, outcome);
}

/* What a tool call answered */

gboolean
tw_test_result_is_error (JsonObject *result)
{
  return json_object_get_boolean_member_with_default (result, "isError", FALSE);
}

/* The text of the result's first content item, which must be text. */
const char *
tw_test_result_text (JsonObject *result)
{
  JsonArray *content = json_object_get_array_member (result, "content");
  JsonObject *first = json_array_get_object_element (content, 0);

  g_assert_cmpstr (json_object_get_string_member (first, "type"), ==, "text");
  return json_object_get_string_member (first, "text");
}

JsonObject *
tw_test_result_structured (JsonObject *result)
{
  g_assert_true (json_object_has_member (result, "structuredContent"));

  return json_object_get_object_member (result, "structuredContent");
}

/* The code of an error result. */
const char *
tw_test_result_error_code (JsonObject *result)
{
  JsonObject *error;

  g_assert_true (tw_test_result_is_error (result));
  error = json_object_get_object_member (tw_test_result_structured (result), "error");

  return json_object_get_string_member (error, "code");
}
