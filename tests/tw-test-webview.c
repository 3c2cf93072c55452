/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-test-webview.h"

#include "tw-load-watch.h"
#include "tw-web-context.h"

#include <math.h>

typedef struct
{
  gboolean loaded;
  gboolean failed;
} Load;

static void
load_changed_cb (WebKitWebView   *view,
                 WebKitLoadEvent  event,
                 Load            *load)
{
  if (event == WEBKIT_LOAD_FINISHED)
    load->loaded = TRUE;
}

static gboolean
load_failed_cb (WebKitWebView   *view,
                WebKitLoadEvent  event,
                const char      *uri,
                GError          *error,
                Load            *load)
{
  g_printerr ("Load of %s failed: %s\n", uri, error->message);
  load->failed = TRUE;
  return FALSE;
}

void
tw_test_init_gtk (int    *argc,
                  char ***argv,
                  void  (*init)(void))
{
  g_test_init (argc, argv, NULL);
  gtk_init ();
  if (init != NULL)
    init ();
}

/* Loads @url in @view and waits until the load has finished, failing the
 * test when that takes longer than @timeout_ms. Returns FALSE when the
 * load failed on the way (an error page may still have loaded). */
gboolean
tw_test_view_load (WebKitWebView *view,
                   const char    *url,
                   guint          timeout_ms)
{
  Load load = { FALSE, FALSE };
  gulong changed = g_signal_connect (view, "load-changed", G_CALLBACK (load_changed_cb), &load);
  gulong failed = g_signal_connect (view, "load-failed", G_CALLBACK (load_failed_cb), &load);

  webkit_web_view_load_uri (view, url);
  tw_test_wait_for_flag (&load.loaded, timeout_ms, url);
  g_signal_handler_disconnect (view, changed);
  g_signal_handler_disconnect (view, failed);

  return !load.failed;
}

/* Runs @script in the page's own world, as page scripts would, and returns
 * its value; a script that throws fails the test. */
JSCValue *
tw_test_view_evaluate (WebKitWebView *view,
                       const char    *script,
                       guint          timeout_ms)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  JSCValue *value;

  webkit_web_view_evaluate_javascript (view, script, -1, NULL, NULL, NULL,
                                       tw_test_store_result_cb, NULL);
  result = tw_test_await_result (timeout_ms, script);
  value = webkit_web_view_evaluate_javascript_finish (view, result, &error);
  g_assert_no_error (error);

  return value;
}

char *
tw_test_view_evaluate_string (WebKitWebView *view,
                              const char    *script,
                              guint          timeout_ms)
{
  g_autoptr(JSCValue) value = tw_test_view_evaluate (view, script, timeout_ms);

  if (jsc_value_is_object (value) || jsc_value_is_array (value))
    return jsc_value_to_json (value, 0);
  return jsc_value_to_string (value);
}

typedef struct
{
  WebKitWebView *view;
  const char    *script;
  const char    *expected;
  guint          timeout_ms;
} ViewWait;

static gboolean
view_gives (gpointer data)
{
  ViewWait *wait = data;
  g_autofree char *actual = tw_test_view_evaluate_string (wait->view, wait->script, wait->timeout_ms);

  return g_strcmp0 (actual, wait->expected) == 0;
}

void
tw_test_view_wait_for_string (WebKitWebView *view,
                              const char    *script,
                              const char    *expected,
                              guint          timeout_ms)
{
  ViewWait wait = { view, script, expected, timeout_ms };
  g_autofree char *what = g_strdup_printf ("the page to give \"%s\" for %s", expected, script);

  tw_test_wait_until (view_gives, &wait, timeout_ms, what);
}

WebKitWebView *
tw_test_web_view_new (WebKitNetworkSession *session)
{
  return g_object_new (WEBKIT_TYPE_WEB_VIEW,
                       "web-context", tw_web_context_get_shared (),
                       "network-session", session,
                       NULL);
}

/* Test tabs */

static WebKitNetworkSession *tab_session;

TwTestTab *
tw_test_tab_new (gboolean with_runtime)
{
  TwTestTab *tab = g_new0 (TwTestTab, 1);

  /* An ephemeral session: nothing on disk, whatever the environment. */
  if (tab_session == NULL)
    tab_session = webkit_network_session_new_ephemeral ();
  tab->view = g_object_new (WEBKIT_TYPE_WEB_VIEW, "network-session", tab_session, NULL);
  tab->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (tab->window), 1024, 768);
  gtk_window_set_child (GTK_WINDOW (tab->window), GTK_WIDGET (tab->view));
  gtk_window_present (GTK_WINDOW (tab->window));
  if (with_runtime)
    tab->runtime = tw_page_runtime_new (tab->view);

  return tab;
}

void
tw_test_tab_free (TwTestTab *tab)
{
  g_clear_object (&tab->runtime);
  gtk_window_destroy (GTK_WINDOW (tab->window));
  g_free (tab);
}

void
tw_test_tab_fixture_set_up (TwTestTabFixture *fixture,
                            gconstpointer     url)
{
  fixture->tab = tw_test_tab_new (TRUE);
  if (url != NULL)
    tw_test_tab_load (fixture->tab, url);
}

void
tw_test_tab_fixture_tear_down (TwTestTabFixture *fixture,
                               gconstpointer     url)
{
  g_clear_pointer (&fixture->tab, tw_test_tab_free);
}

void
tw_test_tab_clear_session (void)
{
  g_clear_object (&tab_session);
}

void
tw_test_tab_load (TwTestTab  *tab,
                  const char *url)
{
  g_assert_true (tw_test_view_load (tab->view, url, TW_TEST_TAB_LOAD_TIMEOUT_MS));
}

void
tw_test_tab_eval (TwTestTab  *tab,
                  const char *script)
{
  g_autoptr(JSCValue) value = tw_test_view_evaluate (tab->view, script, TW_TEST_TAB_CALL_TIMEOUT_MS);
}

typedef struct
{
  gboolean    done;
  JsonObject *object;
  JsonNode   *node;
  GError     *error;
} TabCall;

static void
tab_snapshot_done_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  TabCall *call = user_data;

  call->object = tw_page_runtime_snapshot_finish (TW_PAGE_RUNTIME (object), result, &call->error);
  call->done = TRUE;
}

static void
tab_call_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  TabCall *call = user_data;

  call->node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &call->error);
  call->done = TRUE;
}

static void
tab_resolve_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  TabCall *call = user_data;

  call->object = tw_page_runtime_resolve_ref_finish (TW_PAGE_RUNTIME (object), result, &call->error);
  call->done = TRUE;
}

JsonObject *
tw_test_tab_snapshot (TwTestTab   *tab,
                      const char  *options_json,
                      GError     **error)
{
  TabCall call = { 0 };
  g_autoptr(JsonNode) options = NULL;

  if (options_json != NULL)
    options = json_from_string (options_json, NULL);

  tw_page_runtime_snapshot_async (tab->runtime,
                                  options ? json_node_get_object (options) : NULL,
                                  NULL, tab_snapshot_done_cb, &call);
  tw_test_wait_for_flag (&call.done, TW_TEST_TAB_CALL_TIMEOUT_MS, "a snapshot");
  if (call.error != NULL)
    g_propagate_error (error, call.error);

  return call.object;
}

JsonNode *
tw_test_tab_call (TwTestTab   *tab,
                  const char  *function_name,
                  const char  *args_json,
                  guint        timeout_ms,
                  GError     **error)
{
  TabCall call = { 0 };
  g_autoptr(JsonNode) args = args_json ? json_from_string (args_json, NULL) : NULL;

  tw_page_runtime_call_with_timeout_async (tab->runtime, function_name,
                                           args ? json_node_get_object (args) : NULL,
                                           timeout_ms, NULL, tab_call_done_cb, &call);
  tw_test_wait_for_flag (&call.done, TW_TEST_TAB_CALL_TIMEOUT_MS, function_name);
  if (call.error != NULL)
    g_propagate_error (error, call.error);

  return call.node;
}

JsonObject *
tw_test_tab_resolve (TwTestTab   *tab,
                     const char  *ref,
                     GError     **error)
{
  TabCall call = { 0 };

  tw_page_runtime_resolve_ref_async (tab->runtime, ref, NULL, tab_resolve_done_cb, &call);
  tw_test_wait_for_flag (&call.done, TW_TEST_TAB_CALL_TIMEOUT_MS, ref);
  if (call.error != NULL)
    g_propagate_error (error, call.error);

  return call.object;
}

static gboolean
keep_error_page_away_cb (WebKitWebView   *view,
                         WebKitLoadEvent  event,
                         const char      *failing_uri,
                         GError          *error,
                         gpointer         user_data)
{
  return TRUE;
}

void
tw_test_view_keep_error_pages_away (WebKitWebView *view)
{
  tw_load_watch_attach (view);
  g_signal_connect (view, "load-failed", G_CALLBACK (keep_error_page_away_cb), NULL);
}

TwBrowserTab *
tw_test_open_tab (TwBrowser      *browser,
                  const TwCaller *caller,
                  const char     *url)
{
  g_autofree char *args = url != NULL ? g_strdup_printf ("{\"url\": \"%s\"}", url) : g_strdup ("{}");
  g_autoptr(JsonObject) opened = NULL;
  TwBrowserTab *tab;

  opened = tw_test_call_tool_ok (TW_BROWSER_SERVICE (browser), caller, "browser_new_tab", args);
  tab = tw_browser_lookup_tab (browser, json_object_get_string_member (tw_test_result_structured (opened),
                                                                       "browserId"));
  g_assert_nonnull (tab);

  return tab;
}

static gboolean
page_fills_view (gpointer data)
{
  WebKitWebView *view = tw_browser_tab_get_view (data);
  GtkWidget *widget = GTK_WIDGET (view);
  double zoom = webkit_web_view_get_zoom_level (view);
  g_autoptr(JSCValue) width = NULL;
  g_autoptr(JSCValue) height = NULL;

  if (!gtk_widget_get_mapped (widget) || gtk_widget_get_height (widget) < 300)
    return FALSE;

  width = tw_test_view_evaluate (view, "window.innerWidth", TW_TEST_WAIT_MS);
  height = tw_test_view_evaluate (view, "window.innerHeight", TW_TEST_WAIT_MS);

  return fabs (jsc_value_to_double (width) * zoom - gtk_widget_get_width (widget)) <= zoom + 1 &&
         fabs (jsc_value_to_double (height) * zoom - gtk_widget_get_height (widget)) <= zoom + 1;
}

void
tw_test_tab_wait_laid_out (TwBrowserTab *tab,
                           const char   *what)
{
  tw_test_wait_until (page_fills_view, tab, TW_TEST_WAIT_MS, what);
}

char *
tw_test_tab_id_args (TwBrowserTab *tab)
{
  return g_strdup_printf ("{\"browserId\": \"%s\"}", tw_browser_tab_get_id (tab));
}

TwToolCall *
tw_test_start_asking_tool (TwBrowser       *browser,
                           const TwCaller  *caller,
                           const char      *tool,
                           TwBrowserTab    *tab,
                           const char      *message,
                           guint            timeout_ms,
                           TwTestCondition  asked,
                           gpointer         asked_data,
                           TwTestOutcome   *outcome)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autofree char *text = NULL;
  TwToolCall *call;

  json_object_set_string_member (arguments, "browserId", tw_browser_tab_get_id (tab));
  json_object_set_string_member (arguments, "message", message);
  if (timeout_ms > 0)
    json_object_set_int_member (arguments, "timeoutMs", timeout_ms);
  text = tw_test_object_to_string (arguments);

  call = tw_test_start_tool (TW_BROWSER_SERVICE (browser), caller, tool, text, outcome);
  tw_test_wait_until (asked, asked_data, TW_TEST_WAIT_MS, "the person to see what the agent asks");

  return call;
}

void
tw_test_check_asking_tool_input (TwBrowser      *browser,
                                 const TwCaller *caller,
                                 const char     *tool,
                                 TwBrowserTab   *tab)
{
  g_autofree char *no_message = tw_test_tab_id_args (tab);
  g_autofree char *short_wait = g_strdup_printf ("{\"browserId\": \"%s\", \"message\": \"x\", "
                                                 "\"timeoutMs\": 5}",
                                                 tw_browser_tab_get_id (tab));
  g_autoptr(JsonObject) missing = NULL;
  g_autoptr(JsonObject) too_short = NULL;
  g_autoptr(JsonObject) no_tab = NULL;

  missing = tw_test_call_tool (TW_BROWSER_SERVICE (browser), caller, tool, no_message);
  g_assert_cmpstr (tw_test_result_error_code (missing), ==, "browser_invalid_argument");
  too_short = tw_test_call_tool (TW_BROWSER_SERVICE (browser), caller, tool, short_wait);
  g_assert_cmpstr (tw_test_result_error_code (too_short), ==, "browser_invalid_argument");
  no_tab = tw_test_call_tool (TW_BROWSER_SERVICE (browser), caller, tool,
                              "{\"browserId\": \"b999\", \"message\": \"x\"}");
  g_assert_cmpstr (tw_test_result_error_code (no_tab), ==, "browser_not_found");
  g_assert_true (g_str_has_prefix (tw_test_result_text (no_tab), "Error: browser_not_found"));
}

void
tw_test_close_browser (TwBrowser **browser)
{
  tw_browser_close_all (*browser);
  g_clear_object (browser);
}

static void
history_flushed_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  gboolean *done = user_data;

  g_assert_true (tw_history_flush_finish (TW_HISTORY (object), result, NULL));
  *done = TRUE;
}

void
tw_test_flush_history (TwHistory *history)
{
  gboolean done = FALSE;

  tw_history_flush_async (history, NULL, history_flushed_cb, &done);
  tw_test_wait_for_flag (&done, TW_TEST_WAIT_MS, "the history to be written");
}

TwTestRecording *
tw_test_recording_new (guint64 max_bytes)
{
  TwTestRecording *recording = g_new0 (TwTestRecording, 1);
  g_autofree char *timeline_dir = NULL;

  recording->data_dir = g_dir_make_tmp ("tw-recording-XXXXXX", NULL);
  g_assert_nonnull (recording->data_dir);
  recording->browser = tw_browser_new (recording->data_dir, recording->data_dir);
  timeline_dir = g_build_filename (recording->data_dir, "timeline", NULL);
  recording->timeline = tw_timeline_new (recording->browser, timeline_dir);
  tw_timeline_set_max_bytes (recording->timeline, max_bytes);

  return recording;
}

void
tw_test_recording_free (TwTestRecording *recording)
{
  tw_test_wait_for_timeline (recording->timeline);
  tw_browser_close_all (recording->browser);
  g_clear_object (&recording->timeline);
  g_clear_object (&recording->browser);
  tw_test_remove_tree (recording->data_dir);
  g_free (recording->data_dir);
  g_free (recording);
}

static gboolean
nothing_pending (gpointer data)
{
  return tw_timeline_get_pending (data) == 0;
}

void
tw_test_wait_for_timeline (TwTimeline *timeline)
{
  tw_test_wait_until (nothing_pending, timeline, TW_TEST_WAIT_MS, "the timeline to be written");
}
