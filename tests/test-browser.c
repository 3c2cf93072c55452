/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <libsoup/soup.h>

#include "tw-address.h"
#include "tw-browser.h"
#include "tw-browser-tab-private.h"
#include "tw-error.h"
#include "tw-test-webview.h"

/* These tests drive TwBrowser through tw_browser_service_run_async(), the
 * way the MCP tools do, against real WebKit web views and pages served from
 * tests/fixtures/pages/ by a SoupServer on loopback. */

static char *base_url;
static guint counter;
static guint slow_in_flight;
static guint slow_max_in_flight;
/* The counted requests the server holds, answered when their time is up or
 * when two wait at once. */
static GPtrArray *slow_counted_held;

/* The test server */

typedef struct
{
  SoupServerMessage *msg;
  gboolean           counted;
  guint              timeout_id;
} SlowRequest;

static void
slow_request_free (SlowRequest *request)
{
  g_object_unref (request->msg);
  g_free (request);
}

static gboolean
unpause_cb (gpointer user_data)
{
  SlowRequest *request = user_data;

  if (request->counted)
    {
      slow_in_flight--;
      g_ptr_array_remove (slow_counted_held, request);
    }

  soup_server_message_set_status (request->msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (request->msg, "text/html", SOUP_MEMORY_STATIC,
                                    "<title>Slow Page</title><h1>Slow</h1>", 36);
  soup_server_message_unpause (request->msg);

  return G_SOURCE_REMOVE;
}

/* Answers the counted requests held now, without waiting for their time. */
static void
release_counted (void)
{
  while (slow_counted_held->len > 0)
    {
      SlowRequest *request = g_ptr_array_index (slow_counted_held, 0);
      guint timeout_id = request->timeout_id;

      unpause_cb (request);
      /* Frees the request. */
      g_source_remove (timeout_id);
    }
}

static void
serve_cb (SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query)
{
  if (g_str_equal (path, "/redirect"))
    {
      soup_server_message_set_redirect (msg, SOUP_STATUS_FOUND, "/second.html");
      return;
    }

  if (g_str_equal (path, "/slow"))
    {
      const char *ms = query ? g_hash_table_lookup (query, "ms") : NULL;
      SlowRequest *request = g_new0 (SlowRequest, 1);

      /* Requests marked "count" tell how many were waiting at once; two
       * waiting at once is what the test waits for, so they are answered
       * then rather than after their time. */
      request->msg = g_object_ref (msg);
      request->counted = query != NULL && g_hash_table_contains (query, "count");
      if (request->counted)
        {
          slow_in_flight++;
          slow_max_in_flight = MAX (slow_max_in_flight, slow_in_flight);
        }

      soup_server_message_pause (msg);
      request->timeout_id = g_timeout_add_full (G_PRIORITY_DEFAULT, ms ? atoi (ms) : 1000, unpause_cb,
                                                request, (GDestroyNotify) slow_request_free);
      if (request->counted)
        {
          g_ptr_array_add (slow_counted_held, request);
          if (slow_in_flight == 2)
            release_counted ();
        }
      return;
    }

  if (g_str_equal (path, "/cookie/set") || g_str_equal (path, "/cookie/show"))
    {
      SoupMessageHeaders *request = soup_server_message_get_request_headers (msg);
      const char *cookie = soup_message_headers_get_one (request, "Cookie");
      char *page;

      if (g_str_equal (path, "/cookie/set"))
        soup_message_headers_append (soup_server_message_get_response_headers (msg),
                                     "Set-Cookie", "flavour=oat; Path=/");

      page = g_strdup_printf ("<title>cookie: %s</title>", cookie ? cookie : "none");
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_TAKE, page, strlen (page));
      return;
    }

  if (g_str_equal (path, "/counter"))
    {
      char *page = g_strdup_printf ("<title>Count %u</title>", ++counter);

      soup_message_headers_append (soup_server_message_get_response_headers (msg),
                                   "Cache-Control", "no-store");
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_TAKE, page, strlen (page));
      return;
    }

  tw_test_serve_file (msg, "fixtures/pages", path, FALSE);
}

static char *
page_url (const char *path)
{
  return g_strconcat (base_url, path, NULL);
}

/* {"url": "<the address of the fixture page @path>"}: the arguments of
 * new_tab and navigate that open it. */
static char *
url_params (const char *path)
{
  g_autofree char *url = page_url (path);

  return g_strdup_printf ("{\"url\": \"%s\"}", url);
}

/* Running commands the way tools do */

typedef struct
{
  gboolean    done;
  JsonObject *reply;
  GError     *error;
} Outcome;

static void
command_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->reply = tw_browser_service_run_finish (TW_BROWSER_SERVICE (object), result,
                                                  &outcome->error);
  outcome->done = TRUE;
}

static void
wait_for (gboolean *flag)
{
  tw_test_wait_for_flag (flag, TW_TEST_WAIT_MS, "a browser command");
}

static void
start_command (TwBrowser    *browser,
               TwTabCommand  command,
               const char   *browser_id,
               const char   *params_json,
               GCancellable *cancellable,
               Outcome      *outcome)
{
  g_autoptr(JsonObject) params = tw_test_parse_object (params_json ? params_json : "{}");

  tw_browser_service_run_async (TW_BROWSER_SERVICE (browser),
                                &(TwServiceRequest) { command, browser_id, params, &tw_test_agent },
                                cancellable, command_done_cb, outcome);
}

static JsonObject *
run_command (TwBrowser     *browser,
             TwTabCommand   command,
             const char    *browser_id,
             const char    *params_json,
             GError       **error)
{
  Outcome outcome = { 0 };

  start_command (browser, command, browser_id, params_json, NULL, &outcome);
  wait_for (&outcome.done);

  if (outcome.error != NULL)
    g_propagate_error (error, outcome.error);

  return outcome.reply;
}

static JsonObject *
run_ok (TwBrowser    *browser,
        TwTabCommand  command,
        const char   *browser_id,
        const char   *params_json)
{
  g_autoptr(GError) error = NULL;
  JsonObject *reply;

  reply = run_command (browser, command, browser_id, params_json, &error);
  g_assert_no_error (error);
  g_assert_nonnull (reply);

  return reply;
}

static void
assert_fails (TwBrowser      *browser,
              TwTabCommand    command,
              const char     *browser_id,
              const char     *params_json,
              TwBrowserError  code,
              const char     *message_part)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;

  reply = run_command (browser, command, browser_id, params_json, &error);
  g_assert_null (reply);
  g_assert_error (error, TW_BROWSER_ERROR, (int) code);
  if (message_part != NULL && strstr (error->message, message_part) == NULL)
    g_error ("“%s” does not mention “%s”", error->message, message_part);
}

static char *
new_tab (TwBrowser  *browser,
         const char *path)
{
  g_autoptr(JsonObject) reply = NULL;
  g_autofree char *url = page_url (path);
  g_autofree char *params = g_strdup_printf ("{\"url\": \"%s\"}", url);

  reply = run_ok (browser, TW_TAB_COMMAND_NEW_TAB, NULL, params);
  g_assert_cmpstr (json_object_get_string_member (reply, "url"), ==, url);

  return g_strdup (json_object_get_string_member (reply, "browserId"));
}

static JsonObject *
navigate (TwBrowser  *browser,
          const char *browser_id,
          const char *path)
{
  g_autofree char *params = url_params (path);

  return run_ok (browser, TW_TAB_COMMAND_NAVIGATE, browser_id, params);
}

static void
assert_page (JsonObject *reply,
             const char *browser_id,
             const char *path,
             const char *title,
             gint64      status)
{
  g_autofree char *url = page_url (path);

  g_assert_cmpstr (json_object_get_string_member (reply, "browserId"), ==, browser_id);
  g_assert_cmpstr (json_object_get_string_member (reply, "url"), ==, url);
  g_assert_cmpstr (json_object_get_string_member (reply, "title"), ==, title);
  if (status > 0)
    g_assert_cmpint (json_object_get_int_member_with_default (reply, "status", 0), ==, status);
  g_assert_false (json_object_has_member (reply, "dialogs"));
}

static TwBrowser *
new_browser (void)
{
  return tw_browser_new (NULL, NULL);
}

/* A browser and, unless @data is NULL, a tab an agent opened on the page
 * @data names. */
typedef struct
{
  TwBrowser *browser;
  char      *id;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->browser = new_browser ();
  if (data != NULL)
    fixture->id = new_tab (fixture->browser, data);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_pointer (&fixture->id, g_free);
  g_assert_finalize_object (g_steal_pointer (&fixture->browser));
}

/* Navigates the fixture's tab to @path; the reply shows the page at
 * @final_path, titled @title, with @status (unless 0). */
static void
assert_navigates (Fixture    *fixture,
                  const char *path,
                  const char *final_path,
                  const char *title,
                  gint64      status)
{
  g_autoptr(JsonObject) reply = navigate (fixture->browser, fixture->id, path);

  assert_page (reply, fixture->id, final_path, title, status);
}

/* Runs @command, which takes no parameters (back, forward, reload), on the
 * fixture's tab; the reply shows the page at @path, titled @title, with
 * @status (unless 0). */
static void
assert_steps (Fixture      *fixture,
              TwTabCommand  command,
              const char   *path,
              const char   *title,
              gint64        status)
{
  g_autoptr(JsonObject) reply = run_ok (fixture->browser, command, fixture->id, "{}");

  assert_page (reply, fixture->id, path, title, status);
}

/* Tests */

static void
test_new_tab (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(JsonObject) blank = NULL;
  g_autoptr(JsonObject) list = NULL;
  g_autoptr(TwBrowserTab) tab = NULL;
  g_autofree char *index_url = page_url ("index.html");
  g_autofree char *params = g_strdup_printf ("{\"url\": \"%s\"}", index_url);
  GListModel *tabs = tw_browser_get_tabs (fixture->browser);
  JsonArray *array;
  JsonObject *item;
  const char *id;

  reply = run_ok (fixture->browser, TW_TAB_COMMAND_NEW_TAB, NULL, params);
  id = json_object_get_string_member (reply, "browserId");
  g_assert_true (id[0] == 'b' && g_ascii_isdigit (id[1]));
  assert_page (reply, id, "index.html", "Fixture Index", 200);

  /* The tab really loaded, in a web view that no window shows. */
  g_assert_cmpuint (g_list_model_get_n_items (tabs), ==, 1);
  tab = g_list_model_get_item (tabs, 0);
  g_assert_cmpstr (tw_browser_tab_get_id (tab), ==, id);
  g_assert_cmpstr (tw_browser_tab_get_owner (tab), ==, "Test Agent");
  g_assert_cmpstr (tw_browser_tab_get_owner_id (tab), ==, "test-agent");
  g_assert_cmpstr (tw_browser_tab_get_title (tab), ==, "Fixture Index");
  g_assert_false (tw_browser_tab_get_loading (tab));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (tw_browser_tab_get_view (tab))));

  /* Without a URL the tab shows the blank page. */
  blank = run_ok (fixture->browser, TW_TAB_COMMAND_NEW_TAB, NULL, "{}");
  g_assert_cmpstr (json_object_get_string_member (blank, "url"), ==, "about:blank");
  g_assert_cmpstr (json_object_get_string_member (blank, "title"), ==, "");
  g_assert_false (json_object_has_member (blank, "status"));
  g_assert_cmpstr (json_object_get_string_member (blank, "browserId"), !=, id);

  list = run_ok (fixture->browser, TW_TAB_COMMAND_LIST_TABS, NULL, "{}");
  array = json_object_get_array_member (list, "tabs");
  g_assert_cmpuint (json_array_get_length (array), ==, 2);
  item = json_array_get_object_element (array, 0);
  g_assert_cmpstr (json_object_get_string_member (item, "browserId"), ==, id);
  g_assert_cmpstr (json_object_get_string_member (item, "url"), ==, index_url);
  g_assert_cmpstr (json_object_get_string_member (item, "title"), ==, "Fixture Index");
  g_assert_false (json_object_get_boolean_member (item, "loading"));
  g_assert_cmpstr (json_object_get_string_member (item, "owner"), ==, "Test Agent");
  item = json_array_get_object_element (array, 1);
  g_assert_cmpstr (json_object_get_string_member (item, "browserId"), ==,
                   json_object_get_string_member (blank, "browserId"));

  /* A tab the person opened has no owner. */
  tw_browser_open_tab (fixture->browser, NULL);
  g_clear_pointer (&list, json_object_unref);
  list = run_ok (fixture->browser, TW_TAB_COMMAND_LIST_TABS, NULL, "{}");
  array = json_object_get_array_member (list, "tabs");
  g_assert_cmpuint (json_array_get_length (array), ==, 3);
  g_assert_true (json_object_get_null_member (json_array_get_object_element (array, 2), "owner"));

  g_clear_object (&tab);
}

static void
test_new_tab_refuses (Fixture       *fixture,
                      gconstpointer  data)
{

  assert_fails (fixture->browser, TW_TAB_COMMAND_NEW_TAB, NULL, "{\"url\": \"file:///etc/passwd\"}",
                TW_BROWSER_ERROR_DENIED, "only http and https");
  assert_fails (fixture->browser, TW_TAB_COMMAND_NEW_TAB, NULL, "{\"url\": \"javascript:alert(1)\"}",
                TW_BROWSER_ERROR_DENIED, NULL);
  assert_fails (fixture->browser, TW_TAB_COMMAND_NEW_TAB, NULL, "{\"url\": \"not a url\"}",
                TW_BROWSER_ERROR_INVALID_ARGUMENT, NULL);
  assert_fails (fixture->browser, TW_TAB_COMMAND_NEW_TAB, NULL, "{\"url\": 42}",
                TW_BROWSER_ERROR_INVALID_ARGUMENT, NULL);

  /* Refused URLs leave no tab behind. */
  g_assert_cmpuint (g_list_model_get_n_items (tw_browser_get_tabs (fixture->browser)), ==, 0);
}

static void
test_navigate (Fixture       *fixture,
               gconstpointer  data)
{
  assert_navigates (fixture, "second.html", "second.html", "Second Page", 200);

  /* The final URL, after the redirect. */
  assert_navigates (fixture, "redirect", "second.html", "Second Page", 200);

  /* An HTTP error page loads fine: it is the status that tells. */
  assert_navigates (fixture, "missing.html", "missing.html", "Not Found", 404);

  /* A fragment stays in the document and fires no load. */
  json_object_unref (navigate (fixture->browser, fixture->id, "index.html"));
  assert_navigates (fixture, "index.html#part", "index.html#part", "Fixture Index", 200);
}

static void
test_navigate_refuses (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(JsonObject) list = NULL;
  g_autofree char *closed_url = NULL;
  g_autofree char *closed_params = NULL;
  g_autofree char *closed_message = NULL;
  JsonObject *item;

  assert_fails (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, "{\"url\": \"file:///etc/passwd\"}",
                TW_BROWSER_ERROR_DENIED, "only http and https");
  assert_fails (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, "{\"url\": \"data:text/html,hi\"}",
                TW_BROWSER_ERROR_DENIED, NULL);
  assert_fails (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, "{}",
                TW_BROWSER_ERROR_INVALID_ARGUMENT, NULL);

  /* Nothing listens on that port: the load fails with its reason. */
  closed_url = g_strdup_printf ("http://127.0.0.1:%u/", tw_test_closed_port ());
  closed_params = g_strdup_printf ("{\"url\": \"%s\"}", closed_url);
  closed_message = g_strdup_printf ("could not load %s", closed_url);
  assert_fails (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, closed_params,
                TW_BROWSER_ERROR_NAVIGATION_FAILED, closed_message);

  /* WebKit will not even try restricted ports. */
  assert_fails (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, "{\"url\": \"http://127.0.0.1:1/\"}",
                TW_BROWSER_ERROR_DENIED, "restricted port");

  /* The tab still answers afterwards. */
  assert_navigates (fixture, "second.html", "second.html", "Second Page", 200);

  list = run_ok (fixture->browser, TW_TAB_COMMAND_LIST_TABS, NULL, "{}");
  item = json_array_get_object_element (json_object_get_array_member (list, "tabs"), 0);
  g_assert_cmpstr (json_object_get_string_member (item, "title"), ==, "Second Page");
}

static void
test_history (Fixture       *fixture,
              gconstpointer  data)
{

  assert_fails (fixture->browser, TW_TAB_COMMAND_BACK, fixture->id, "{}",
                TW_BROWSER_ERROR_DENIED, "no page to go back to");
  assert_fails (fixture->browser, TW_TAB_COMMAND_FORWARD, fixture->id, "{}",
                TW_BROWSER_ERROR_DENIED, "no page to go forward to");

  json_object_unref (navigate (fixture->browser, fixture->id, "second.html"));

  assert_steps (fixture, TW_TAB_COMMAND_BACK, "index.html", "Fixture Index", 200);

  assert_steps (fixture, TW_TAB_COMMAND_FORWARD, "second.html", "Second Page", 200);

  assert_fails (fixture->browser, TW_TAB_COMMAND_FORWARD, fixture->id, "{}",
                TW_BROWSER_ERROR_DENIED, "no page to go forward to");
}

static gboolean
tab_is_done (gpointer data)
{
  return !tw_browser_tab_get_loading (data) && tw_browser_tab_get_uri (data)[0] != '\0' &&
         !g_str_equal (tw_browser_tab_get_uri (data), "about:blank");
}

/* The workspace's history: each visit is the person's or the agent's whose
 * command loaded the page, found by browser_history. */
static void
test_visits (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *agent_tab = new_tab (fixture->browser, "index.html");
  g_autofree char *index_url = page_url ("index.html");
  g_autofree char *second_url = page_url ("second.html");
  g_autofree char *params = g_strdup_printf ("{\"url\": \"%s\"}", second_url);
  g_autoptr(JsonObject) args = tw_test_parse_object (params);
  g_autoptr(JsonObject) found = NULL;
  const TwCaller other = { "other-agent", "Other Agent", 0 };
  Outcome opened = { 0 };
  TwBrowserTab *person_tab;
  JsonArray *entries;
  JsonObject *entry;
  JsonArray *visitors;

  /* The person opens the index too, and another agent a second page. */
  person_tab = tw_browser_open_tab (fixture->browser, index_url);
  tw_test_wait_until (tab_is_done, person_tab, TW_TEST_WAIT_MS, "the person's page to load");
  tw_browser_service_run_async (TW_BROWSER_SERVICE (fixture->browser),
                                &(TwServiceRequest) { TW_TAB_COMMAND_NEW_TAB, NULL, args, &other },
                                NULL, command_done_cb, &opened);
  wait_for (&opened.done);
  g_assert_no_error (opened.error);
  json_object_unref (opened.reply);

  found = run_ok (fixture->browser, TW_TAB_COMMAND_HISTORY, NULL, "{}");
  entries = json_object_get_array_member (found, "entries");
  g_assert_cmpuint (json_array_get_length (entries), ==, 2);

  /* Latest first: the second page, by the other agent. */
  entry = json_array_get_object_element (entries, 0);
  g_assert_cmpstr (json_object_get_string_member (entry, "url"), ==, second_url);
  g_assert_cmpstr (json_object_get_string_member (entry, "title"), ==, "Second Page");
  visitors = json_object_get_array_member (entry, "visitors");
  g_assert_cmpuint (json_array_get_length (visitors), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (visitors, 0), ==, "Other Agent");

  entry = json_array_get_object_element (entries, 1);
  g_assert_cmpstr (json_object_get_string_member (entry, "url"), ==, index_url);
  g_assert_cmpstr (json_object_get_string_member (entry, "title"), ==, "Fixture Index");
  g_assert_cmpint (json_object_get_int_member (entry, "visits"), ==, 2);
  visitors = json_object_get_array_member (entry, "visitors");
  g_assert_cmpuint (json_array_get_length (visitors), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (visitors, 0), ==, TW_HISTORY_PERSON);
  g_assert_cmpstr (json_array_get_string_element (visitors, 1), ==, "Test Agent");

  g_assert_nonnull (agent_tab);
}

/* Runs script in the page the way a click handler would, for what the
 * commands under test do not cover. */
static void
run_page_script (TwBrowser  *browser,
                 const char *browser_id,
                 const char *script)
{
  TwBrowserTab *tab = tw_browser_lookup_tab (browser, browser_id);
  g_autoptr(JSCValue) value = tw_test_view_evaluate (tw_browser_tab_get_view (tab), script,
                                                     TW_TEST_WAIT_MS);
}

static void
test_history_same_document (Fixture       *fixture,
                            gconstpointer  data)
{
  /* Stepping back over a fragment never fires a load; the command completes
   * on the URL change, long before any timeout. */
  assert_navigates (fixture, "index.html#part", "index.html#part", "Fixture Index", 200);
  assert_steps (fixture, TW_TAB_COMMAND_BACK, "index.html", "Fixture Index", 200);
  assert_steps (fixture, TW_TAB_COMMAND_FORWARD, "index.html#part", "Fixture Index", 200);

  /* The same for an entry a single-page app pushed. */
  json_object_unref (navigate (fixture->browser, fixture->id, "history.html"));
  run_page_script (fixture->browser, fixture->id, "step(1)");

  assert_steps (fixture, TW_TAB_COMMAND_BACK, "history.html", "History", 200);
  assert_steps (fixture, TW_TAB_COMMAND_FORWARD, "history.html?step=1", "History", 200);

  /* And out of the document again, with a real load. */
  json_object_unref (run_ok (fixture->browser, TW_TAB_COMMAND_BACK, fixture->id, "{}"));
  assert_steps (fixture, TW_TAB_COMMAND_BACK, "index.html#part", "Fixture Index", 200);
}

static void
test_reload (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(JsonObject) first = NULL;
  g_autoptr(JsonObject) reloaded = NULL;
  g_autofree char *title = NULL;
  guint before;

  first = run_ok (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, "{\"url\": \"about:blank\"}");
  json_object_unref (navigate (fixture->browser, fixture->id, "counter"));
  before = counter;

  /* The server counts requests, so a new title proves a real reload. */
  reloaded = run_ok (fixture->browser, TW_TAB_COMMAND_RELOAD, fixture->id, "{}");
  title = g_strdup_printf ("Count %u", before + 1);
  assert_page (reloaded, fixture->id, "counter", title, 200);
  g_assert_cmpuint (counter, ==, before + 1);
}

static void
test_close (Fixture       *fixture,
            gconstpointer  data)
{
  g_autofree char *other = new_tab (fixture->browser, "second.html");
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(JsonObject) list = NULL;
  JsonArray *array;

  reply = run_ok (fixture->browser, TW_TAB_COMMAND_CLOSE_TAB, fixture->id, "{}");
  g_assert_cmpstr (json_object_get_string_member (reply, "browserId"), ==, fixture->id);
  g_assert_true (json_object_get_boolean_member (reply, "closed"));

  g_assert_null (tw_browser_lookup_tab (fixture->browser, fixture->id));
  list = run_ok (fixture->browser, TW_TAB_COMMAND_LIST_TABS, NULL, "{}");
  array = json_object_get_array_member (list, "tabs");
  g_assert_cmpuint (json_array_get_length (array), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (array, 0),
                                                  "browserId"), ==, other);

  /* The id is gone for good, for every command. */
  assert_fails (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, "{\"url\": \"about:blank\"}",
                TW_BROWSER_ERROR_NOT_FOUND, fixture->id);
  assert_fails (fixture->browser, TW_TAB_COMMAND_CLOSE_TAB, fixture->id, "{}", TW_BROWSER_ERROR_NOT_FOUND, NULL);
  assert_fails (fixture->browser, TW_TAB_COMMAND_RELOAD, fixture->id, "{}", TW_BROWSER_ERROR_NOT_FOUND, NULL);
}

static void
test_close_while_loading (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *params = url_params ("slow?ms=3000");
  Outcome outcome = { 0 };

  /* A navigation in flight ends as soon as the person closes its tab. */
  start_command (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, params, NULL, &outcome);
  tw_browser_close_tab (fixture->browser, tw_browser_lookup_tab (fixture->browser, fixture->id));
  wait_for (&outcome.done);
  g_assert_null (outcome.reply);
  g_assert_error (outcome.error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND);
  g_clear_error (&outcome.error);
  g_assert_null (tw_browser_lookup_tab (fixture->browser, fixture->id));
}

/* An agent's browser_close_tab waits its turn in the tab's queue: the
 * commands queued before it finish, those after it find no tab. */
static void
test_close_in_turn (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *params = url_params ("slow?ms=700");
  Outcome loading = { 0 };
  Outcome closing = { 0 };
  Outcome after = { 0 };

  start_command (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, params, NULL, &loading);
  start_command (fixture->browser, TW_TAB_COMMAND_CLOSE_TAB, fixture->id, "{}", NULL, &closing);
  start_command (fixture->browser, TW_TAB_COMMAND_RELOAD, fixture->id, "{}", NULL, &after);
  wait_for (&after.done);
  g_assert_true (loading.done && closing.done);

  g_assert_no_error (loading.error);
  g_assert_cmpstr (json_object_get_string_member (loading.reply, "title"), ==, "Slow Page");
  g_assert_no_error (closing.error);
  g_assert_true (json_object_get_boolean_member (closing.reply, "closed"));
  g_assert_error (after.error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND);
  g_assert_null (tw_browser_lookup_tab (fixture->browser, fixture->id));

  json_object_unref (loading.reply);
  json_object_unref (closing.reply);
  g_clear_error (&after.error);
}

/* A command cancelled while it waits for its turn ends at once and never
 * runs; the commands behind it keep their order. */
static void
test_cancel_queued (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *slow_params = url_params ("slow?ms=700");
  g_autofree char *second_params = url_params ("second.html");
  TwBrowserTab *tab = tw_browser_lookup_tab (fixture->browser, fixture->id);
  Outcome loading = { 0 };
  Outcome cancelled = { 0 };
  Outcome reloading = { 0 };

  start_command (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, slow_params, NULL, &loading);
  start_command (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, second_params, cancellable, &cancelled);
  start_command (fixture->browser, TW_TAB_COMMAND_RELOAD, fixture->id, "{}", NULL, &reloading);

  g_cancellable_cancel (cancellable);
  wait_for (&cancelled.done);
  g_assert_error (cancelled.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (loading.done);

  wait_for (&reloading.done);
  g_assert_no_error (loading.error);
  g_assert_no_error (reloading.error);
  g_assert_cmpstr (json_object_get_string_member (reloading.reply, "title"), ==, "Slow Page");
  /* The cancelled navigation never ran. */
  g_assert_null (strstr (tw_browser_tab_get_uri (tab), "second.html"));
  g_assert_false (webkit_web_view_can_go_forward (tw_browser_tab_get_view (tab)));

  json_object_unref (loading.reply);
  json_object_unref (reloading.reply);
  g_clear_error (&cancelled.error);
}

static gboolean
tab_is_loading (gpointer data)
{
  return tw_browser_tab_get_loading (data);
}

/* Pausing a tab ends the commands waiting in its queue at once; the
 * running one goes on to its end, and commands that come while it is
 * paused are refused at once, without making their agent its driver. */
static void
test_paused_queue (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *params = url_params ("slow?ms=700");
  TwBrowserTab *tab = tw_browser_lookup_tab (fixture->browser, fixture->id);
  g_autoptr(JsonObject) reply = NULL;
  Outcome loading = { 0 };
  Outcome queued = { 0 };
  Outcome refused = { 0 };
  const TwCaller other = { "other-agent", "Other Agent", 0 };
  g_autoptr(JsonObject) args = tw_test_parse_object ("{}");

  start_command (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, params, NULL, &loading);
  start_command (fixture->browser, TW_TAB_COMMAND_RELOAD, fixture->id, "{}", NULL, &queued);
  tw_test_wait_until (tab_is_loading, tab, TW_TEST_WAIT_MS, "the navigation to start");
  tw_browser_tab_set_paused (tab, TRUE);
  wait_for (&queued.done);
  g_assert_error (queued.error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED);
  g_assert_false (loading.done);

  /* Shared, so that what turns the other agent away is the pause. */
  tw_browser_tab_set_shared (tab, TRUE);
  tw_browser_service_run_async (TW_BROWSER_SERVICE (fixture->browser),
                                &(TwServiceRequest) { TW_TAB_COMMAND_SNAPSHOT, fixture->id, args, &other },
                                NULL, command_done_cb, &refused);
  wait_for (&refused.done);
  g_assert_error (refused.error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED);
  g_assert_nonnull (strstr (refused.error->message, "paused"));
  g_assert_false (loading.done);
  g_assert_cmpstr (tw_browser_tab_get_owner_id (tab), !=, "other-agent");

  wait_for (&loading.done);
  g_assert_no_error (loading.error);

  tw_browser_tab_set_paused (tab, FALSE);
  reply = run_ok (fixture->browser, TW_TAB_COMMAND_RELOAD, fixture->id, "{}");
  g_assert_cmpstr (json_object_get_string_member (reply, "title"), ==, "Slow Page");

  json_object_unref (loading.reply);
  g_clear_error (&queued.error);
  g_clear_error (&refused.error);
}

/* Runs @command as @caller; returns the reply, or NULL with @error. */
static JsonObject *
run_as (TwBrowser      *browser,
        const TwCaller *caller,
        TwTabCommand    command,
        const char     *browser_id,
        const char     *params_json,
        GError        **error)
{
  g_autoptr(JsonObject) params = tw_test_parse_object (params_json);
  Outcome outcome = { 0 };

  tw_browser_service_run_async (TW_BROWSER_SERVICE (browser),
                                &(TwServiceRequest) { command, browser_id, params, caller },
                                NULL, command_done_cb, &outcome);
  wait_for (&outcome.done);
  if (outcome.error != NULL)
    g_propagate_error (error, outcome.error);

  return outcome.reply;
}

static void
assert_denied (TwBrowser      *browser,
               const TwCaller *caller,
               const char     *browser_id,
               const char     *message_part)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = run_as (browser, caller, TW_TAB_COMMAND_RELOAD, browser_id, "{}",
                                        &error);

  g_assert_null (reply);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED);
  if (strstr (error->message, message_part) == NULL)
    g_error ("“%s” does not mention “%s”", error->message, message_part);
}

static void
assert_allowed (TwBrowser      *browser,
                const TwCaller *caller,
                const char     *browser_id)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = run_as (browser, caller, TW_TAB_COMMAND_RELOAD, browser_id, "{}",
                                        &error);

  g_assert_no_error (error);
  g_assert_nonnull (reply);
}

static void
test_owners (Fixture       *fixture,
             gconstpointer  data)
{
  const TwCaller other = { "other-agent", "Other Agent", 0 };
  const TwCaller person = { "external", "External client", 0 };
  g_autofree char *mine = new_tab (fixture->browser, "index.html");
  TwBrowserTab *tab = tw_browser_lookup_tab (fixture->browser, mine);
  const char *person_id = tw_browser_tab_get_id (tw_browser_open_tab (fixture->browser, NULL));
  g_autoptr(JsonObject) list = NULL;
  g_autoptr(JsonObject) shared = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *item;

  tw_browser_set_person_id (fixture->browser, "external");
  tw_browser_add_agent (fixture->browser, "test-agent", "Test Agent");
  tw_browser_add_agent (fixture->browser, "other-agent", "Other Agent");

  /* A tab belongs to the agent that opened it: another agent is turned
   * away, told whose it is and what to do; the person is not. */
  assert_denied (fixture->browser, &other, mine, "belongs to Test Agent");
  assert_denied (fixture->browser, &other, mine, "browser_share_tab");
  assert_allowed (fixture->browser, &tw_test_agent, mine);
  assert_allowed (fixture->browser, &person, mine);

  /* The list says whose each tab is, and which are the caller's. */
  list = run_as (fixture->browser, &other, TW_TAB_COMMAND_LIST_TABS, NULL, "{}", &error);
  g_assert_no_error (error);
  item = json_array_get_object_element (json_object_get_array_member (list, "tabs"), 0);
  g_assert_cmpstr (json_object_get_string_member (item, "owner"), ==, "Test Agent");
  g_assert_false (json_object_has_member (item, "yours"));
  g_assert_false (json_object_has_member (item, "shared"));
  g_clear_pointer (&list, json_object_unref);
  list = run_as (fixture->browser, &tw_test_agent, TW_TAB_COMMAND_LIST_TABS, NULL, "{}", &error);
  item = json_array_get_object_element (json_object_get_array_member (list, "tabs"), 0);
  g_assert_true (json_object_get_boolean_member (item, "yours"));

  /* Only its owner (or the person) shares it. */
  g_assert_null (run_as (fixture->browser, &other, TW_TAB_COMMAND_SHARE_TAB, mine, "{}", &error));
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED);
  g_clear_error (&error);
  g_assert_false (tw_browser_tab_get_shared (tab));

  shared = run_as (fixture->browser, &tw_test_agent, TW_TAB_COMMAND_SHARE_TAB, mine, "{}", &error);
  g_assert_no_error (error);
  g_assert_true (json_object_get_boolean_member (shared, "shared"));
  g_assert_true (tw_browser_tab_get_shared (tab));
  assert_allowed (fixture->browser, &other, mine);
  g_clear_pointer (&list, json_object_unref);
  list = run_as (fixture->browser, &other, TW_TAB_COMMAND_LIST_TABS, NULL, "{}", &error);
  item = json_array_get_object_element (json_object_get_array_member (list, "tabs"), 0);
  g_assert_true (json_object_get_boolean_member (item, "shared"));
  tw_browser_tab_set_shared (tab, FALSE);
  assert_denied (fixture->browser, &other, mine, "belongs to Test Agent");

  /* Handing it over: an unknown name changes nothing; a running agent's
   * name makes the tab that agent's. */
  g_assert_null (run_as (fixture->browser, &tw_test_agent, TW_TAB_COMMAND_SHARE_TAB, mine,
                         "{\"agent\": \"Nobody #9\"}", &error));
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "\"Other Agent\""));
  g_clear_error (&error);
  g_assert_cmpstr (tw_browser_tab_get_owner_id (tab), ==, "test-agent");
  g_clear_pointer (&shared, json_object_unref);
  shared = run_as (fixture->browser, &tw_test_agent, TW_TAB_COMMAND_SHARE_TAB, mine,
                   "{\"agent\": \"Other Agent\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (shared, "owner"), ==, "Other Agent");
  assert_allowed (fixture->browser, &other, mine);
  assert_denied (fixture->browser, &tw_test_agent, mine, "belongs to Other Agent");

  /* The person moves tabs too, back to themselves as well. */
  g_assert_false (tw_browser_give_tab (fixture->browser, tab, "gone-agent"));
  g_assert_true (tw_browser_give_tab (fixture->browser, tab, NULL));
  g_assert_null (tw_browser_tab_get_owner (tab));

  /* The person's tabs: agents use them unless the person says no. */
  assert_allowed (fixture->browser, &other, mine);
  assert_allowed (fixture->browser, &other, person_id);
  tw_browser_set_share_person_tabs (fixture->browser, FALSE);
  assert_denied (fixture->browser, &other, person_id, "the person's");
  assert_allowed (fixture->browser, &person, person_id);
  tw_browser_tab_set_shared (tw_browser_lookup_tab (fixture->browser, person_id), TRUE);
  assert_allowed (fixture->browser, &other, person_id);

  /* Sharing every tab, as before tabs had owners. */
  g_assert_true (tw_browser_give_tab (fixture->browser, tab, "test-agent"));
  assert_denied (fixture->browser, &other, mine, "belongs to Test Agent");
  tw_browser_set_share_tabs (fixture->browser, TRUE);
  assert_allowed (fixture->browser, &other, mine);
  tw_browser_set_share_tabs (fixture->browser, FALSE);

  /* An agent that ends leaves its tabs shared, under its name. */
  tw_browser_tab_set_shared (tab, FALSE);
  assert_denied (fixture->browser, &other, mine, "belongs to Test Agent");
  tw_browser_remove_agent (fixture->browser, "test-agent");
  g_assert_true (tw_browser_tab_get_shared (tab));
  g_assert_cmpstr (tw_browser_tab_get_owner (tab), ==, "Test Agent");
  assert_allowed (fixture->browser, &other, mine);
}

static void
test_unknown_id (Fixture       *fixture,
                 gconstpointer  data)
{

  assert_fails (fixture->browser, TW_TAB_COMMAND_NAVIGATE, "b999999", "{\"url\": \"about:blank\"}",
                TW_BROWSER_ERROR_NOT_FOUND, "b999999");
  assert_fails (fixture->browser, TW_TAB_COMMAND_BACK, "nonsense", "{}",
                TW_BROWSER_ERROR_NOT_FOUND, "browser_list_tabs");
  assert_fails (fixture->browser, TW_TAB_COMMAND_SNAPSHOT, "b0", "{}", TW_BROWSER_ERROR_NOT_FOUND, NULL);
}

static void
test_other_workspace (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(TwBrowser) other = new_browser ();
  g_autofree char *id = new_tab (fixture->browser, "index.html");

  /* Tab ids of one workspace mean nothing in another. */
  assert_fails (other, TW_TAB_COMMAND_RELOAD, id, "{}", TW_BROWSER_ERROR_NOT_FOUND, NULL);

  g_assert_finalize_object (g_steal_pointer (&other));
}

static void
test_separate_sessions (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autoptr(TwBrowser) other = new_browser ();
  g_autofree char *id = new_tab (fixture->browser, "cookie/set");
  g_autofree char *other_id = new_tab (other, "index.html");
  g_autoptr(JsonObject) same = NULL;
  g_autoptr(JsonObject) elsewhere = NULL;

  /* The cookie one workspace got comes back to it... */
  same = navigate (fixture->browser, id, "cookie/show");
  g_assert_cmpstr (json_object_get_string_member (same, "title"), ==, "cookie: flavour=oat");

  /* ...and never reaches another workspace on the same site. */
  elsewhere = navigate (other, other_id, "cookie/show");
  g_assert_cmpstr (json_object_get_string_member (elsewhere, "title"), ==, "cookie: none");

  g_assert_finalize_object (g_steal_pointer (&other));
}

static void
test_snapshot (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *url = page_url ("index.html");
  g_autoptr(JsonObject) reply = NULL;
  const char *text;

  /* The tab hands snapshots to its page runtime and says which tab it was. */
  reply = run_ok (fixture->browser, TW_TAB_COMMAND_SNAPSHOT, fixture->id, "{}");
  g_assert_cmpstr (json_object_get_string_member (reply, "browserId"), ==, fixture->id);
  g_assert_cmpstr (json_object_get_string_member (reply, "url"), ==, url);
  g_assert_cmpstr (json_object_get_string_member (reply, "title"), ==, "Fixture Index");
  text = json_object_get_string_member (reply, "text");
  g_assert_nonnull (strstr (text, "heading \"Fixture Index\""));
  g_assert_nonnull (strstr (text, "link \"Second page\" @e"));
  g_assert_false (json_object_has_member (reply, "dialogs"));
}

/* A tab restored from the last session lists its saved page, loads it when
 * the window shows it or a command first needs it, and a command always
 * sees the restored page, never the blank one before it. */
static void
test_restored_tabs (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *first_url = page_url ("index.html");
  g_autofree char *second_url = page_url ("second.html");
  TwBrowserTab *first = tw_browser_restore_tab (fixture->browser, first_url, "Saved index");
  TwBrowserTab *second = tw_browser_restore_tab (fixture->browser, second_url, "Saved second");
  g_autoptr(JsonObject) reply = NULL;
  const char *text;

  g_assert_nonnull (first);
  g_assert_nonnull (second);
  g_assert_true (tw_browser_tab_get_deferred (first));
  g_assert_cmpstr (tw_browser_tab_get_uri (first), ==, first_url);
  g_assert_cmpstr (tw_browser_tab_get_title (first), ==, "Saved index");
  g_assert_false (tw_browser_tab_get_loading (first));

  /* Shown by the window: it loads, and counts as loading until it has. */
  tw_browser_tab_wake (first);
  g_assert_false (tw_browser_tab_get_deferred (first));
  g_assert_true (tw_browser_tab_get_loading (first));
  reply = run_ok (fixture->browser, TW_TAB_COMMAND_SNAPSHOT, tw_browser_tab_get_id (first), "{}");
  text = json_object_get_string_member (reply, "text");
  g_assert_nonnull (strstr (text, "heading \"Fixture Index\""));
  g_assert_cmpstr (json_object_get_string_member (reply, "url"), ==, first_url);
  g_assert_false (tw_browser_tab_get_loading (first));
  g_clear_pointer (&reply, json_object_unref);

  /* Never shown: the command itself loads the page first. */
  g_assert_true (tw_browser_tab_get_deferred (second));
  reply = run_ok (fixture->browser, TW_TAB_COMMAND_SNAPSHOT, tw_browser_tab_get_id (second), "{}");
  g_assert_cmpstr (json_object_get_string_member (reply, "url"), ==, second_url);
  g_assert_false (tw_browser_tab_get_deferred (second));
  g_assert_null (strstr (json_object_get_string_member (reply, "text"), "no content"));
}

static void
test_page_tools (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(JsonObject) resized = NULL;
  g_autoptr(JsonObject) shot = NULL;
  g_autoptr(JsonObject) waited = NULL;
  g_autoptr(JsonObject) logs = NULL;
  g_autofree char *url = page_url ("index.html");
  JsonArray *entries;
  gboolean saw_navigation = FALSE;

  /* The tab runs the reading and control commands in its queue, for a tab
   * that no window shows, and says which tab answered. */
  resized = run_ok (fixture->browser, TW_TAB_COMMAND_RESIZE, fixture->id, "{\"width\": 480, \"height\": 360}");
  g_assert_cmpstr (json_object_get_string_member (resized, "browserId"), ==, fixture->id);
  g_assert_cmpint (json_object_get_int_member (resized, "innerWidth"), ==, 480);
  g_assert_cmpint (json_object_get_int_member (resized, "innerHeight"), ==, 360);

  shot = run_ok (fixture->browser, TW_TAB_COMMAND_SCREENSHOT, fixture->id, "{}");
  g_assert_cmpstr (json_object_get_string_member (shot, "browserId"), ==, fixture->id);
  g_assert_cmpint (json_object_get_int_member (shot, "width"), >, 0);
  g_assert_cmpint (json_object_get_int_member (shot, "height"), >, 0);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (shot, "png"), "iVBORw0KGgo"));

  waited = run_ok (fixture->browser, TW_TAB_COMMAND_WAIT, fixture->id, "{\"text\": \"second page\"}");
  g_assert_cmpstr (json_object_get_string_member (waited, "browserId"), ==, fixture->id);
  g_assert_cmpstr (json_object_get_string_member (waited, "matched"), ==, "text");

  logs = run_ok (fixture->browser, TW_TAB_COMMAND_LOGS, fixture->id, "{}");
  g_assert_cmpstr (json_object_get_string_member (logs, "browserId"), ==, fixture->id);
  entries = json_object_get_array_member (logs, "entries");
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);

      if (g_strcmp0 (json_object_get_string_member (entry, "type"), "navigation") == 0 &&
          g_strcmp0 (json_object_get_string_member (entry, "url"), url) == 0)
        saw_navigation = TRUE;
    }
  g_assert_true (saw_navigation);
}

/* The ref the snapshot gave the element it printed as @line, e.g.
 * 'link "Second page"'. */
static char *
find_ref (TwBrowser  *browser,
          const char *browser_id,
          const char *line)
{
  g_autoptr(JsonObject) snapshot = run_ok (browser, TW_TAB_COMMAND_SNAPSHOT, browser_id, "{}");

  return tw_test_find_ref (json_object_get_string_member (snapshot, "text"), line);
}

/* Shows the tab in a window of its own, as the selected tab of a window is.
 * (Interactions do not complete yet in tabs no window shows: the page
 * settles by animation frames, which WebKit pauses for hidden pages.) */
static GtkWindow *
show_tab (TwBrowser  *browser,
          const char *browser_id)
{
  TwBrowserTab *tab = tw_browser_lookup_tab (browser, browser_id);
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  gtk_window_set_default_size (window, 800, 600);
  gtk_window_set_child (window, GTK_WIDGET (tw_browser_tab_get_frame (tab)));
  gtk_window_present (window);

  return window;
}

static void
test_actions (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *ref = find_ref (fixture->browser, fixture->id, "link \"Second page\"");
  g_autofree char *params = g_strdup_printf ("{\"ref\": \"%s\"}", ref);
  g_autofree char *second = page_url ("second.html");
  g_autoptr(JsonObject) clicked = NULL;
  GtkWindow *window = show_tab (fixture->browser, fixture->id);

  /* Interactions run in the tab's queue like everything else and report
   * where the tab ended up. */
  clicked = run_ok (fixture->browser, TW_TAB_COMMAND_CLICK, fixture->id, params);
  g_assert_cmpstr (json_object_get_string_member (clicked, "browserId"), ==, fixture->id);
  g_assert_cmpstr (json_object_get_string_member (clicked, "url"), ==, second);
  g_assert_true (json_object_get_boolean_member (clicked, "navigated"));
  g_assert_false (json_object_has_member (clicked, "newTabs"));

  gtk_window_destroy (window);
}

/* Counts the pickers a web view asks for (the object of a signal such as
 * show-option-menu or run-color-chooser) and how many of them ended, by the
 * picker's own @end_signal. */
typedef struct
{
  const char *end_signal;
  guint       requested;
  guint       ended;
} Pickers;

static void
picker_ended_cb (GObject *picker,
                 Pickers *pickers)
{
  pickers->ended++;
}

static gboolean
picker_hook (GSignalInvocationHint *hint,
             guint                  n_values,
             const GValue          *values,
             gpointer               user_data)
{
  Pickers *pickers = user_data;
  GObject *picker = g_value_get_object (&values[1]);

  pickers->requested++;
  g_signal_connect (picker, pickers->end_signal, G_CALLBACK (picker_ended_cb), pickers);
  return TRUE;
}

/* Whether a picker was asked for and every one asked for has ended. */
static gboolean
picker_ended (gpointer data)
{
  Pickers *pickers = data;

  return pickers->requested > 0 && pickers->ended == pickers->requested;
}

static char *
evaluate_string (TwBrowser  *browser,
                 const char *id,
                 const char *function)
{
  g_autoptr(JsonObject) args = json_object_new ();
  g_autofree char *params = NULL;
  g_autoptr(JsonObject) reply = NULL;

  json_object_set_string_member (args, "function", function);
  params = tw_test_object_to_string (args);
  reply = run_ok (browser, TW_TAB_COMMAND_EVALUATE, id, params);
  return g_strdup (json_object_get_string_member (reply, "result"));
}

static void
test_actions_dropdown (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *country = find_ref (fixture->browser, fixture->id, "combobox \"Country\"");
  g_autofree char *size = find_ref (fixture->browser, fixture->id, "combobox \"Size\"");
  g_autofree char *params = NULL;
  g_autofree char *value = NULL;
  g_autofree char *seen = NULL;
  g_autoptr(JsonObject) reply = NULL;
  GtkWindow *window = show_tab (fixture->browser, fixture->id);
  Pickers menus = { "close", 0, 0 };
  guint signal_id = g_signal_lookup ("show-option-menu", WEBKIT_TYPE_WEB_VIEW);
  gulong hook = g_signal_add_emission_hook (signal_id, 0, picker_hook, &menus, NULL);

  /* An agent's pick clicks the dropdown as a person would, but opens no
   * native menu over the page: the page sees the mousedown, not cancelled,
   * and the value it was given. */
  params = g_strdup_printf ("{\"ref\": \"%s\", \"value\": \"Germany\"}", country);
  reply = run_ok (fixture->browser, TW_TAB_COMMAND_SELECT, fixture->id, params);
  g_clear_pointer (&reply, json_object_unref);
  g_clear_pointer (&params, g_free);
  /* A menu would be asked for by the web process before it answers a
   * script run after the pick: its messages keep their order. */
  value = evaluate_string (fixture->browser, fixture->id, "() => document.getElementById('country').value");
  g_assert_cmpstr (value, ==, "de");
  g_assert_cmpuint (menus.requested, ==, 0);

  /* A page that stops the mousedown on its way up still gets its native
   * menu asked for; the tab closes it at once while the agent's command
   * runs, and the value is the one picked. */
  params = g_strdup_printf ("{\"ref\": \"%s\", \"value\": \"Large\"}", size);
  reply = run_ok (fixture->browser, TW_TAB_COMMAND_SELECT, fixture->id, params);
  tw_test_wait_until (picker_ended, &menus, TW_TEST_WAIT_MS, "the page's native menu to be asked for and closed");
  g_assert_cmpuint (menus.requested, ==, 1);
  g_assert_cmpuint (menus.ended, ==, 1);
  g_clear_pointer (&value, g_free);
  value = evaluate_string (fixture->browser, fixture->id, "() => document.getElementById('size').value");
  g_assert_cmpstr (value, ==, "Large");
  seen = evaluate_string (fixture->browser, fixture->id, "() => window.seen.join()");
  g_assert_cmpstr (seen, ==, "country:false,size-own:false");

  g_signal_remove_emission_hook (signal_id, hook);
  gtk_window_destroy (window);
}

/* Counts the colour choosers WebKit asks the app to run, and how many of
 * them ended. */
/* Stands for the default handler, which would open GTK's colour chooser
 * dialog: it counts and cancels what reaches it. */
static gboolean
color_chooser_shown_cb (WebKitWebView             *view,
                        WebKitColorChooserRequest *request,
                        guint                     *shown)
{
  (*shown)++;
  webkit_color_chooser_request_cancel (request);
  return TRUE;
}

static void
test_actions_color_picker (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *colour = find_ref (fixture->browser, fixture->id, "button \"Colour\"");
  g_autofree char *params = g_strdup_printf ("{\"ref\": \"%s\"}", colour);
  g_autofree char *value = NULL;
  g_autoptr(JsonObject) reply = NULL;
  GtkWindow *window = show_tab (fixture->browser, fixture->id);
  Pickers choosers = { "finished", 0, 0 };
  guint shown = 0;
  guint signal_id = g_signal_lookup ("run-color-chooser", WEBKIT_TYPE_WEB_VIEW);
  gulong hook = g_signal_add_emission_hook (signal_id, 0, picker_hook, &choosers, NULL);
  WebKitWebView *view = tw_browser_tab_get_view (tw_browser_lookup_tab (fixture->browser, fixture->id));

  g_signal_connect (view, "run-color-chooser", G_CALLBACK (color_chooser_shown_cb), &shown);

  /* An agent's click on a colour input asks for the chooser; the tab ends
   * it at once instead of opening a dialog over the person's screen, and
   * the colour stays as it was. */
  reply = run_ok (fixture->browser, TW_TAB_COMMAND_CLICK, fixture->id, params);
  tw_test_wait_until (picker_ended, &choosers, TW_TEST_WAIT_MS, "the colour chooser to be asked for and ended");
  g_assert_cmpuint (choosers.requested, ==, 1);
  g_assert_cmpuint (choosers.ended, ==, 1);
  g_assert_cmpuint (shown, ==, 0);
  value = evaluate_string (fixture->browser, fixture->id, "() => document.getElementById('colour').value");
  g_assert_cmpstr (value, ==, "#336699");

  g_signal_handlers_disconnect_by_func (view, color_chooser_shown_cb, &shown);
  g_signal_remove_emission_hook (signal_id, hook);
  gtk_window_destroy (window);
}

static void
test_actions_new_tab (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *ref = find_ref (fixture->browser, fixture->id, "link \"Open in a new tab\"");
  g_autofree char *params = g_strdup_printf ("{\"ref\": \"%s\"}", ref);
  g_autoptr(JsonObject) clicked = NULL;
  g_autoptr(JsonObject) loaded = NULL;
  JsonArray *new_tabs;
  TwBrowserTab *opened;
  GtkWindow *window = show_tab (fixture->browser, fixture->id);

  /* A link to a new window opens a tab of the same workspace, driven by the
   * same agent, and the click says which. */
  clicked = run_ok (fixture->browser, TW_TAB_COMMAND_CLICK, fixture->id, params);
  new_tabs = json_object_get_array_member (clicked, "newTabs");
  g_assert_nonnull (new_tabs);
  g_assert_cmpuint (json_array_get_length (new_tabs), ==, 1);

  opened = tw_browser_lookup_tab (fixture->browser, json_array_get_string_element (new_tabs, 0));
  g_assert_nonnull (opened);
  g_assert_cmpstr (tw_browser_tab_get_owner (opened), ==, "Test Agent");
  g_assert_cmpuint (g_list_model_get_n_items (tw_browser_get_tabs (fixture->browser)), ==, 2);

  /* The new tab takes commands at once. */
  loaded = navigate (fixture->browser, tw_browser_tab_get_id (opened), "second.html");
  assert_page (loaded, tw_browser_tab_get_id (opened), "second.html", "Second Page", 200);

  gtk_window_destroy (window);
}

static void
test_dialogs (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(JsonObject) after = NULL;
  g_autofree char *params = url_params ("dialogs.html");
  JsonArray *dialogs;
  JsonObject *dialog;
  const char *id;

  reply = run_ok (fixture->browser, TW_TAB_COMMAND_NEW_TAB, NULL, params);
  id = json_object_get_string_member (reply, "browserId");

  /* The page saw its questions dismissed... */
  g_assert_cmpstr (json_object_get_string_member (reply, "title"), ==, "dismissed no answer");

  /* ...and the result lists every dialog, in order. */
  dialogs = json_object_get_array_member (reply, "dialogs");
  g_assert_nonnull (dialogs);
  g_assert_cmpuint (json_array_get_length (dialogs), ==, 3);
  dialog = json_array_get_object_element (dialogs, 0);
  g_assert_cmpstr (json_object_get_string_member (dialog, "type"), ==, "alert");
  g_assert_cmpstr (json_object_get_string_member (dialog, "message"), ==, "Hello from the page");
  dialog = json_array_get_object_element (dialogs, 1);
  g_assert_cmpstr (json_object_get_string_member (dialog, "type"), ==, "confirm");
  g_assert_cmpstr (json_object_get_string_member (dialog, "message"), ==, "Delete everything?");
  dialog = json_array_get_object_element (dialogs, 2);
  g_assert_cmpstr (json_object_get_string_member (dialog, "type"), ==, "prompt");
  g_assert_cmpstr (json_object_get_string_member (dialog, "message"), ==, "Your name?");

  /* A command reports only the dialogs opened while it ran. */
  after = navigate (fixture->browser, id, "index.html");
  g_assert_false (json_object_has_member (after, "dialogs"));
}

static void
test_concurrent_tabs (Fixture       *fixture,
                      gconstpointer  data)
{
  /* The server answers once both requests wait, or after 5 s when they
   * never do at once. */
  g_autofree char *params = url_params ("slow?ms=5000&count=1");
  Outcome first = { 0 };
  Outcome second = { 0 };
  g_autofree char *third_id = NULL;
  TwBrowserTab *first_tab;
  TwBrowserTab *second_tab;

  slow_max_in_flight = 0;

  start_command (fixture->browser, TW_TAB_COMMAND_NEW_TAB, NULL, params, NULL, &first);
  start_command (fixture->browser, TW_TAB_COMMAND_NEW_TAB, NULL, params, NULL, &second);
  wait_for (&first.done);
  wait_for (&second.done);

  g_assert_no_error (first.error);
  g_assert_no_error (second.error);
  g_assert_cmpstr (json_object_get_string_member (first.reply, "title"), ==, "Slow Page");
  g_assert_cmpstr (json_object_get_string_member (second.reply, "title"), ==, "Slow Page");
  g_assert_cmpstr (json_object_get_string_member (first.reply, "browserId"), !=,
                   json_object_get_string_member (second.reply, "browserId"));

  /* The server had both requests waiting at once: neither tab waited for
   * the other. */
  g_assert_cmpuint (slow_max_in_flight, ==, 2);

  /* Opened at the same moment, each tab started in a process of its own
   * (two first loads at once in one fresh process can both be lost)... */
  first_tab = tw_browser_lookup_tab (fixture->browser, json_object_get_string_member (first.reply, "browserId"));
  second_tab = tw_browser_lookup_tab (fixture->browser, json_object_get_string_member (second.reply, "browserId"));
  g_assert_cmpuint (tw_browser_tab_get_process_tabs (first_tab), ==, 1);
  g_assert_cmpuint (tw_browser_tab_get_process_tabs (second_tab), ==, 1);

  /* ...and a tab opened once they show their pages joins one of them. */
  third_id = new_tab (fixture->browser, "index.html");
  g_assert_cmpuint (tw_browser_tab_get_process_tabs (tw_browser_lookup_tab (fixture->browser, third_id)), ==, 2);
  g_assert_cmpuint (tw_browser_tab_get_process_tabs (first_tab) + tw_browser_tab_get_process_tabs (second_tab),
                    ==, 3);

  json_object_unref (first.reply);
  json_object_unref (second.reply);
}

static void
test_same_tab_in_order (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *slow_params = url_params ("slow?ms=700");
  g_autofree char *second_params = url_params ("second.html");
  Outcome first = { 0 };
  Outcome then = { 0 };

  /* Commands on one tab queue up: the second navigation starts only after
   * the first one's page has loaded, and both report their own page. */
  start_command (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, slow_params, NULL, &first);
  start_command (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, second_params, NULL, &then);
  wait_for (&then.done);
  g_assert_true (first.done);

  g_assert_no_error (first.error);
  g_assert_no_error (then.error);
  g_assert_cmpstr (json_object_get_string_member (first.reply, "title"), ==, "Slow Page");
  g_assert_cmpstr (json_object_get_string_member (then.reply, "title"), ==, "Second Page");

  json_object_unref (first.reply);
  json_object_unref (then.reply);
}

static void
test_timeout (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *params = url_params ("slow?ms=2000");

  /* The page takes 2 s; the tab gives up long before. */
  tw_browser_set_command_timeout (fixture->browser, 400);
  assert_fails (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, params,
                TW_BROWSER_ERROR_TIMEOUT, "did not finish loading within 400 ms");
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *params = url_params ("slow?ms=2000");
  Outcome outcome = { 0 };

  start_command (fixture->browser, TW_TAB_COMMAND_NAVIGATE, fixture->id, params, cancellable, &outcome);
  g_cancellable_cancel (cancellable);
  wait_for (&outcome.done);
  g_assert_error (outcome.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&outcome.error);

  /* The queue moves on. */
  assert_navigates (fixture, "second.html", "second.html", "Second Page", 200);
}

static void
test_crash (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(JsonObject) closed = NULL;
  TwBrowserTab *tab = tw_browser_lookup_tab (fixture->browser, fixture->id);

  webkit_web_view_terminate_web_process (tw_browser_tab_get_view (tab));
  while (!tw_browser_tab_get_crashed (tab))
    g_main_context_iteration (NULL, TRUE);

  assert_fails (fixture->browser, TW_TAB_COMMAND_BACK, fixture->id, "{}", TW_BROWSER_ERROR_CRASHED, "browser_reload or browser_navigate");
  assert_fails (fixture->browser, TW_TAB_COMMAND_SNAPSHOT, fixture->id, "{}", TW_BROWSER_ERROR_CRASHED, NULL);

  /* Reload brings the page back in a new web process. */
  assert_steps (fixture, TW_TAB_COMMAND_RELOAD, "index.html", "Fixture Index", 200);
  g_assert_false (tw_browser_tab_get_crashed (tab));

  /* So does a navigation, to another page. */
  webkit_web_view_terminate_web_process (tw_browser_tab_get_view (tab));
  while (!tw_browser_tab_get_crashed (tab))
    g_main_context_iteration (NULL, TRUE);
  assert_navigates (fixture, "second.html", "second.html", "Second Page", 200);
  g_assert_false (tw_browser_tab_get_crashed (tab));

  /* A crashed tab closes, without loading anything first. */
  webkit_web_view_terminate_web_process (tw_browser_tab_get_view (tab));
  while (!tw_browser_tab_get_crashed (tab))
    g_main_context_iteration (NULL, TRUE);
  closed = run_ok (fixture->browser, TW_TAB_COMMAND_CLOSE_TAB, fixture->id, "{}");
  g_assert_true (json_object_get_boolean_member (closed, "closed"));
  g_assert_null (tw_browser_lookup_tab (fixture->browser, fixture->id));
}

/* An agent's tabs share a web process, four to a process; another
 * agent's never do. A crash takes the tabs of that process alone, and each
 * says which others went with it. */
static void
test_shared_process_crash (Fixture       *fixture,
                           gconstpointer  data)
{
  const TwCaller other = { "other-agent", "Other Agent", 0 };
  g_autofree char *first = new_tab (fixture->browser, "index.html");
  g_autofree char *second = new_tab (fixture->browser, "second.html");
  g_autofree char *params = url_params ("index.html");
  g_autoptr(JsonObject) others = NULL;
  g_autoptr(JsonObject) reloaded = NULL;
  g_autoptr(GError) error = NULL;
  TwBrowserTab *first_tab = tw_browser_lookup_tab (fixture->browser, first);
  TwBrowserTab *second_tab = tw_browser_lookup_tab (fixture->browser, second);
  TwBrowserTab *other_tab;
  g_autofree char *named = NULL;

  others = run_as (fixture->browser, &other, TW_TAB_COMMAND_NEW_TAB, NULL, params, &error);
  g_assert_no_error (error);
  other_tab = tw_browser_lookup_tab (fixture->browser, json_object_get_string_member (others, "browserId"));

  g_assert_cmpuint (tw_browser_tab_get_process_tabs (first_tab), ==, 2);
  g_assert_cmpuint (tw_browser_tab_get_process_tabs (second_tab), ==, 2);
  g_assert_cmpuint (tw_browser_tab_get_process_tabs (other_tab), ==, 1);

  webkit_web_view_terminate_web_process (tw_browser_tab_get_view (first_tab));
  while (!tw_browser_tab_get_crashed (first_tab) || !tw_browser_tab_get_crashed (second_tab))
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (tw_browser_tab_get_crashed (other_tab));

  /* Each names the tab that went with it. */
  named = g_strdup_printf ("and with it tabs %s of the same agent", first);
  assert_fails (fixture->browser, TW_TAB_COMMAND_SNAPSHOT, second, "{}", TW_BROWSER_ERROR_CRASHED, named);
  g_free (named);
  named = g_strdup_printf ("and with it tabs %s of the same agent", second);
  assert_fails (fixture->browser, TW_TAB_COMMAND_SNAPSHOT, first, "{}", TW_BROWSER_ERROR_CRASHED, named);

  /* Another agent's tab goes on; each of the crashed ones comes back. */
  g_clear_pointer (&others, json_object_unref);
  others = run_as (fixture->browser, &other, TW_TAB_COMMAND_RELOAD, tw_browser_tab_get_id (other_tab), "{}",
                   &error);
  g_assert_no_error (error);
  reloaded = run_ok (fixture->browser, TW_TAB_COMMAND_RELOAD, second, "{}");
  assert_page (reloaded, second, "second.html", "Second Page", 200);
  g_clear_pointer (&reloaded, json_object_unref);
  reloaded = run_ok (fixture->browser, TW_TAB_COMMAND_RELOAD, first, "{}");
  assert_page (reloaded, first, "index.html", "Fixture Index", 200);
}

static void
test_window_close (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(JsonObject) reply = NULL;
  GListModel *tabs = tw_browser_get_tabs (fixture->browser);

  reply = run_ok (fixture->browser, TW_TAB_COMMAND_NEW_TAB, NULL,
                  "{\"url\": \"about:blank\"}");
  g_assert_cmpuint (g_list_model_get_n_items (tabs), ==, 1);

  /* A page that closes its own window closes its tab. */
  webkit_web_view_evaluate_javascript (tw_browser_tab_get_view (tw_browser_lookup_tab (
                                                                  fixture->browser,
                                                                  json_object_get_string_member (reply, "browserId"))),
                                       "window.close()", -1, NULL, NULL, NULL, NULL, NULL);
  while (g_list_model_get_n_items (tabs) > 0)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_address (void)
{
  static const struct {
    const char *text;
    const char *url;
  } good[] = {
    { "https://example.com/a", "https://example.com/a" },
    { "  http://example.com  ", "http://example.com" },
    { "example.com", "https://example.com" },
    { "example.com/path?q=1", "https://example.com/path?q=1" },
    { "localhost", "http://localhost" },
    { "localhost:8000/app", "http://localhost:8000/app" },
    { "127.0.0.1:3000", "http://127.0.0.1:3000" },
    { "192.168.1.10", "http://192.168.1.10" },
    { "[::1]:8080/", "http://[::1]:8080/" },
    { "myapp.localhost", "http://myapp.localhost" },
    { "intranet", "http://intranet" },
  };
  static const struct {
    const char *text;
    TwBrowserError code;
  } bad[] = {
    { "", TW_BROWSER_ERROR_INVALID_ARGUMENT },
    { "two words", TW_BROWSER_ERROR_INVALID_ARGUMENT },
    { "file:///etc/passwd", TW_BROWSER_ERROR_DENIED },
    { "javascript:alert(1)", TW_BROWSER_ERROR_DENIED },
    { "ftp://example.com", TW_BROWSER_ERROR_DENIED },
    { "/just/a/path", TW_BROWSER_ERROR_INVALID_ARGUMENT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *url = tw_address_normalize (good[i].text, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (url, ==, good[i].url);
    }

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *url = tw_address_normalize (bad[i].text, &error);

      g_assert_null (url);
      g_assert_error (error, TW_BROWSER_ERROR, (int) bad[i].code);
    }
}

/* The tests on a fixture: a browser and, where a page is named, a tab on it. */
typedef struct
{
  const char       *path;
  const char       *page;
  GTestFixtureFunc  test;
} BrowserCase;

#define BROWSER_CASE(path, page, test) { (path), (page), (GTestFixtureFunc) (test) }

static const BrowserCase browser_cases[] = {
  BROWSER_CASE ("/webview/browser/new-tab", NULL, test_new_tab),
  BROWSER_CASE ("/webview/browser/new-tab-refuses", NULL, test_new_tab_refuses),
  BROWSER_CASE ("/webview/browser/navigate", "index.html", test_navigate),
  BROWSER_CASE ("/webview/browser/navigate-refuses", "index.html", test_navigate_refuses),
  BROWSER_CASE ("/webview/browser/history", "index.html", test_history),
  BROWSER_CASE ("/webview/browser/history-same-document", "index.html", test_history_same_document),
  BROWSER_CASE ("/webview/browser/visits", NULL, test_visits),
  BROWSER_CASE ("/webview/browser/reload", "counter", test_reload),
  BROWSER_CASE ("/webview/browser/close", "index.html", test_close),
  BROWSER_CASE ("/webview/browser/close-while-loading", "index.html", test_close_while_loading),
  BROWSER_CASE ("/webview/browser/close-in-turn", "index.html", test_close_in_turn),
  BROWSER_CASE ("/webview/browser/cancel-queued", "index.html", test_cancel_queued),
  BROWSER_CASE ("/webview/browser/paused-queue", "index.html", test_paused_queue),
  BROWSER_CASE ("/webview/browser/owners", NULL, test_owners),
  BROWSER_CASE ("/webview/browser/unknown-id", NULL, test_unknown_id),
  BROWSER_CASE ("/webview/browser/other-workspace", NULL, test_other_workspace),
  BROWSER_CASE ("/webview/browser/separate-sessions", NULL, test_separate_sessions),
  BROWSER_CASE ("/webview/browser/snapshot", "index.html", test_snapshot),
  BROWSER_CASE ("/webview/browser/restored-tabs", NULL, test_restored_tabs),
  BROWSER_CASE ("/webview/browser/page-tools", "index.html", test_page_tools),
  BROWSER_CASE ("/webview/browser/actions", "index.html", test_actions),
  BROWSER_CASE ("/webview/browser/actions-dropdown", "pickers.html", test_actions_dropdown),
  BROWSER_CASE ("/webview/browser/actions-color-picker", "pickers.html", test_actions_color_picker),
  BROWSER_CASE ("/webview/browser/actions-new-tab", "popup.html", test_actions_new_tab),
  BROWSER_CASE ("/webview/browser/dialogs", NULL, test_dialogs),
  BROWSER_CASE ("/webview/browser/concurrent-tabs", NULL, test_concurrent_tabs),
  BROWSER_CASE ("/webview/browser/same-tab-in-order", "index.html", test_same_tab_in_order),
  BROWSER_CASE ("/webview/browser/timeout", "index.html", test_timeout),
  BROWSER_CASE ("/webview/browser/cancel", "index.html", test_cancel),
  BROWSER_CASE ("/webview/browser/crash", "index.html", test_crash),
  BROWSER_CASE ("/webview/browser/shared-process-crash", NULL, test_shared_process_crash),
  BROWSER_CASE ("/webview/browser/window-close", NULL, test_window_close),
};

int
main (int   argc,
      char *argv[])
{
  /* Ephemeral network sessions keep nothing on disk, so the tests need no
   * folders of their own. */
  tw_test_init_gtk (&argc, &argv, NULL);
  g_test_add_func ("/webview/address/normalize", test_address);
  for (guint i = 0; i < G_N_ELEMENTS (browser_cases); i++)
    g_test_add_vtable (browser_cases[i].path, sizeof (Fixture), browser_cases[i].page,
                       (GTestFixtureFunc) fixture_setup, browser_cases[i].test,
                       (GTestFixtureFunc) fixture_teardown);

  slow_counted_held = g_ptr_array_new ();

  return tw_test_run_with_server (serve_cb, &base_url);
}
