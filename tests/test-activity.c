/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <libsoup/soup.h>

#include "tw-action-overlay.h"
#include "tw-activity-feed.h"
#include "tw-feed-model.h"
#include "tw-browser.h"
#include "tw-handoff-banner.h"
#include "tw-window.h"
#include "tw-test-webview.h"
#include "tw-test-window.h"

/* Watching and steering from the person's side: the activity feed of a
 * scripted agent session, pausing a tab and handing one to the person
 * (browser_handoff). Everything goes through real tool calls on a real
 * window, the way agents reach it over MCP. */

static const TwCaller bob = { "agent-bob", "Bob", 0 };

static char *base_url;

static const char form_html[] =
  "<!doctype html><html><head><title>Form</title></head><body>"
  "<h1>Sign up</h1>"
  "<label>Email <input id='email'></label>"
  "<button id='save' onclick=\"document.title = 'Saved ' + document.getElementById('email').value\">Save</button>"
  "</body></html>";

/* Tool calls */

typedef struct
{
  GListModel *model;
  guint       n_items;
} ModelLength;

static gboolean
model_has_length (gpointer data)
{
  ModelLength *length = data;

  return g_list_model_get_n_items (length->model) == length->n_items;
}

/* The feed draws calls in batches: waits until it shows @n_items. */
static void
wait_for_feed (TwActivityFeed *feed,
               guint           n_items)
{
  ModelLength length = { tw_activity_feed_get_model (feed), n_items };

  tw_test_wait_until (model_has_length, &length, TW_TEST_WAIT_MS, "the feed to catch up");
}

/* A window and the form page in a tab of Ada's. */
typedef struct
{
  TwBrowser        *browser;
  TwBrowserService *service;   /* the browser, to call tools on */
  TwActivityLog    *log;
  TwWindow         *window;
  TwActivityFeed   *feed;
  TwBrowserTab     *tab;
  char             *browser_id;
  char             *id_args;   /* {"browserId": "bN"} */
  /* A browser_handoff call the test started, and what its client heard. */
  TwToolCall       *handoff;
  TwTestOutcome     handoff_state;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *url = g_strconcat (base_url, "form", NULL);

  fixture->browser = tw_browser_new (NULL, NULL);
  fixture->service = TW_BROWSER_SERVICE (fixture->browser);
  fixture->log = tw_browser_get_activity (fixture->browser);
  fixture->window = tw_test_window_new (fixture->browser, "steering", "/tmp", 0, 0);
  fixture->feed = TW_ACTIVITY_FEED (tw_window_get_activity_feed (fixture->window));

  fixture->tab = tw_test_open_tab (fixture->browser, &tw_test_ada, url);
  fixture->browser_id = g_strdup (tw_browser_tab_get_id (fixture->tab));
  fixture->id_args = tw_test_tab_id_args (fixture->tab);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_pointer (&fixture->handoff, tw_tool_call_unref);
  tw_test_window_close (fixture->window, &fixture->browser);
  g_clear_pointer (&fixture->browser_id, g_free);
  g_clear_pointer (&fixture->id_args, g_free);
}

static TwActivityEntry *
entry_at (GListModel *model,
          guint       position)
{
  TwActivityEntry *entry = g_list_model_get_item (model, position);

  g_assert_nonnull (entry);
  g_object_unref (entry);   /* the model keeps it */

  return entry;
}

/* The feed */

static void
test_session (Fixture       *fixture,
              gconstpointer  data)
{
  GListModel *shown = tw_activity_feed_get_model (fixture->feed);
  g_autoptr(JsonObject) snapshot = NULL;
  g_autoptr(JsonObject) filled = NULL;
  g_autoptr(JsonObject) clicked = NULL;
  g_autoptr(JsonObject) stale = NULL;
  g_autoptr(JsonObject) denied = NULL;
  g_autoptr(JsonObject) unknown = NULL;
  g_autoptr(JsonObject) listed = NULL;
  g_autofree char *email = NULL;
  g_autofree char *save = NULL;
  g_autofree char *args = NULL;
  g_autofree char *label = NULL;
  TwActivityEntry *entry;

  /* Ada reads the page, fills the form and saves it. */
  snapshot = tw_test_call_tool_ok (fixture->service, &tw_test_ada, "browser_snapshot", fixture->id_args);
  email = tw_test_find_ref (tw_test_result_text (snapshot), "textbox \"Email\"");
  save = tw_test_find_ref (tw_test_result_text (snapshot), "button \"Save\"");

  args = g_strdup_printf ("{\"browserId\": \"%s\", \"ref\": \"%s\", \"value\": \"ada@example.com\"}",
                          fixture->browser_id, email);
  filled = tw_test_call_tool_ok (fixture->service, &tw_test_ada, "browser_fill", args);
  g_free (args);
  args = g_strdup_printf ("{\"browserId\": \"%s\", \"ref\": \"%s\"}", fixture->browser_id, save);
  clicked = tw_test_call_tool_ok (fixture->service, &tw_test_ada, "browser_click", args);
  g_assert_cmpstr (json_object_get_string_member (tw_test_result_structured (clicked), "title"), ==,
                   "Saved ada@example.com");

  /* Then makes three mistakes. */
  g_free (args);
  args = g_strdup_printf ("{\"browserId\": \"%s\", \"ref\": \"@e999\"}", fixture->browser_id);
  stale = tw_test_call_tool (fixture->service, &tw_test_ada, "browser_click", args);
  g_assert_cmpstr (tw_test_result_error_code (stale), ==, "browser_stale_ref");
  g_free (args);
  args = g_strdup_printf ("{\"browserId\": \"%s\", \"url\": \"file:///etc/passwd\"}",
                          fixture->browser_id);
  denied = tw_test_call_tool (fixture->service, &tw_test_ada, "browser_navigate", args);
  g_assert_cmpstr (tw_test_result_error_code (denied), ==, "browser_denied");
  unknown = tw_test_call_tool (fixture->service, &tw_test_ada, "browser_snapshot",
                               "{\"browserId\": \"b99999\"}");
  g_assert_cmpstr (tw_test_result_error_code (unknown), ==, "browser_not_found");

  /* Bob only looks. */
  listed = tw_test_call_tool_ok (fixture->service, &bob, "browser_list_tabs", "{}");

  /* Every call is in the log, in order, with who made it and how it went. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->log)), ==, 8);

  entry = entry_at (G_LIST_MODEL (fixture->log), 0);
  g_assert_cmpstr (tw_activity_entry_get_tool (entry), ==, "browser_new_tab");
  g_assert_cmpstr (tw_activity_entry_get_agent_name (entry), ==, "Ada");
  g_assert_cmpstr (tw_activity_entry_get_agent_id (entry), ==, "agent-ada");
  /* A new tab is known by the id it got. */
  g_assert_cmpstr (tw_activity_entry_get_browser_id (entry), ==, fixture->browser_id);
  g_assert_true (g_str_has_suffix (tw_activity_entry_get_detail (entry), "/form"));
  g_assert_cmpint (tw_activity_entry_get_state (entry), ==, TW_ACTIVITY_SUCCEEDED);
  g_assert_cmpfloat (tw_activity_entry_get_duration_ms (entry), >, 0);
  g_assert_nonnull (tw_activity_entry_get_time (entry));

  entry = entry_at (G_LIST_MODEL (fixture->log), 2);
  g_assert_cmpstr (tw_activity_entry_get_tool (entry), ==, "browser_fill");
  g_assert_cmpstr (tw_activity_entry_get_target_role (entry), ==, "textbox");
  g_assert_cmpstr (tw_activity_entry_get_target_name (entry), ==, "Email");
  g_assert_cmpstr (tw_activity_entry_get_detail (entry), ==, "“ada@example.com”");

  entry = entry_at (G_LIST_MODEL (fixture->log), 3);
  g_assert_cmpstr (tw_activity_entry_get_tool (entry), ==, "browser_click");
  g_assert_cmpstr (tw_activity_entry_get_ref (entry), ==, save);
  label = tw_activity_entry_dup_target_label (entry);
  g_assert_cmpstr (label, ==, "button “Save”");
  g_assert_cmpint (tw_activity_entry_get_state (entry), ==, TW_ACTIVITY_SUCCEEDED);
  g_assert_null (tw_activity_entry_get_error_code (entry));

  entry = entry_at (G_LIST_MODEL (fixture->log), 4);
  g_assert_cmpint (tw_activity_entry_get_state (entry), ==, TW_ACTIVITY_FAILED);
  g_assert_cmpstr (tw_activity_entry_get_error_code (entry), ==, "browser_stale_ref");
  g_assert_nonnull (tw_activity_entry_get_error_message (entry));
  g_assert_null (tw_activity_entry_get_target_role (entry));

  entry = entry_at (G_LIST_MODEL (fixture->log), 5);
  g_assert_cmpstr (tw_activity_entry_get_error_code (entry), ==, "browser_denied");
  entry = entry_at (G_LIST_MODEL (fixture->log), 6);
  g_assert_cmpstr (tw_activity_entry_get_error_code (entry), ==, "browser_not_found");
  g_assert_cmpstr (tw_activity_entry_get_browser_id (entry), ==, "b99999");

  entry = entry_at (G_LIST_MODEL (fixture->log), 7);
  g_assert_cmpstr (tw_activity_entry_get_agent_name (entry), ==, "Bob");
  g_assert_null (tw_activity_entry_get_browser_id (entry));

  /* The feed shows them all, then one agent's, then one tab's; a filter
   * the person picks applies at once. */
  wait_for_feed (fixture->feed, 8);
  tw_activity_feed_set_agent_filter (fixture->feed, "agent-bob");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  g_assert_cmpstr (tw_activity_entry_get_tool (entry_at (shown, 0)), ==, "browser_list_tabs");
  tw_activity_feed_set_agent_filter (fixture->feed, NULL);
  tw_activity_feed_set_tab_filter (fixture->feed, fixture->browser_id);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 6);
  tw_activity_feed_set_agent_filter (fixture->feed, "agent-bob");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 0);
  tw_activity_feed_set_agent_filter (fixture->feed, NULL);
  tw_activity_feed_set_tab_filter (fixture->feed, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 8);
}

typedef struct
{
  GListModel *log;
  const char *tool;
} HasEntry;

static gboolean
log_has_tool (gpointer data)
{
  HasEntry *has = data;
  guint n = g_list_model_get_n_items (has->log);

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (tw_activity_entry_get_tool (entry_at (has->log, i)), has->tool) == 0)
      return TRUE;

  return FALSE;
}

/* A dialog that a page opens on its own (a timer's, which may fire during
 * or after the call that set it) is answered at once and shows in the feed
 * as the page's doing, in the tab it came from. */
static void
test_dialog_between_calls (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(JsonObject) armed = NULL;
  g_autofree char *args = NULL;
  HasEntry has = { G_LIST_MODEL (fixture->log), "alert" };
  TwActivityEntry *entry;

  args = g_strdup_printf ("{\"browserId\": \"%s\", \"function\": "
                          "\"() => { setTimeout(() => alert('Saved elsewhere'), 100); return 'armed'; }\"}",
                          fixture->browser_id);
  armed = tw_test_call_tool_ok (fixture->service, &tw_test_ada, "browser_evaluate", args);
  g_assert_cmpstr (json_object_get_string_member (tw_test_result_structured (armed), "result"), ==, "armed");

  tw_test_wait_until (log_has_tool, &has, TW_TEST_WAIT_MS, "the page's alert to reach the log");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (fixture->log)), ==, 3);
  entry = entry_at (G_LIST_MODEL (fixture->log), 2);
  g_assert_cmpstr (tw_activity_entry_get_tool (entry), ==, "alert");
  g_assert_cmpstr (tw_activity_entry_get_agent_name (entry), ==, "Page");
  g_assert_null (tw_activity_entry_get_agent_id (entry));
  g_assert_cmpstr (tw_activity_entry_get_browser_id (entry), ==, fixture->browser_id);
  g_assert_cmpstr (tw_activity_entry_get_detail (entry), ==, "“Saved elsewhere” · accepted");
  g_assert_cmpint (tw_activity_entry_get_state (entry), ==, TW_ACTIVITY_SUCCEEDED);

  /* The person sees it among the calls, and with the tab's own. */
  wait_for_feed (fixture->feed, 3);
  tw_activity_feed_set_tab_filter (fixture->feed, fixture->browser_id);
  g_assert_cmpuint (g_list_model_get_n_items (tw_activity_feed_get_model (fixture->feed)), ==, 3);
  has.log = tw_activity_feed_get_model (fixture->feed);
  g_assert_true (log_has_tool (&has));
}

/* A window the person covers with another keeps its tabs live: under X
 * without a compositor GTK is not told that a window is covered, and the
 * pages go on as visible ones. (Minimizing needs a window manager, which
 * Xvfb has not; the README says what is known of it.) */
static void
test_covered_window (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *args = g_strdup_printf ("{\"url\": \"%sform\"}", base_url);
  g_autoptr(JsonObject) opened = NULL;
  g_autoptr(JsonObject) seen = NULL;
  g_autofree char *eval = NULL;
  GtkWidget *cover;
  JsonObject *result;
  const char *background;

  /* A tab behind the one on screen. */
  opened = tw_test_call_tool_ok (fixture->service, &tw_test_ada, "browser_new_tab", args);
  background = json_object_get_string_member (tw_test_result_structured (opened), "browserId");

  /* Another window over the whole of Tabwright's. */
  cover = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (cover), 2000, 1500);
  gtk_window_present (GTK_WINDOW (cover));
  while (!gtk_widget_get_mapped (cover))
    g_main_context_iteration (NULL, TRUE);

  eval = g_strdup_printf ("{\"browserId\": \"%s\", \"function\": "
                          "\"async () => { let frames = 0; const start = performance.now(); "
                          "while (frames < 10 && performance.now() - start < 20000) "
                          "{ await new Promise((r) => requestAnimationFrame(r)); frames++; } "
                          "return [document.visibilityState, frames]; }\"}",
                          background);
  seen = tw_test_call_tool_ok (fixture->service, &tw_test_ada, "browser_evaluate", eval);
  result = tw_test_result_structured (seen);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (result, "result"), 0),
                   ==, "visible");
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (result, "result"), 1),
                   ==, 10);

  gtk_window_destroy (GTK_WINDOW (cover));
}

static gboolean
overlay_flashing (gpointer data)
{
  return g_strcmp0 (tw_action_overlay_get_caption (data), "Ada: click button “Save”") == 0;
}

static void
test_choose_entry (Fixture       *fixture,
                   gconstpointer  data)
{
  GListModel *shown = tw_activity_feed_get_model (fixture->feed);
  TwActionOverlay *overlay;
  g_autoptr(JsonObject) snapshot = NULL;
  g_autoptr(JsonObject) clicked = NULL;
  g_autoptr(JsonObject) other = NULL;
  g_autofree char *save = NULL;
  g_autofree char *args = NULL;
  graphene_rect_t highlight;

  snapshot = tw_test_call_tool_ok (fixture->service, &tw_test_ada, "browser_snapshot", fixture->id_args);
  save = tw_test_find_ref (tw_test_result_text (snapshot), "button \"Save\"");
  args = g_strdup_printf ("{\"browserId\": \"%s\", \"ref\": \"%s\"}", fixture->browser_id, save);
  clicked = tw_test_call_tool_ok (fixture->service, &tw_test_ada, "browser_click", args);

  /* Bob opens a tab, and the person looks at one of their own. */
  other = tw_test_call_tool_ok (fixture->service, &bob, "browser_new_tab", "{}");
  tw_browser_open_tab (fixture->browser, NULL);

  overlay = TW_ACTION_OVERLAY (tw_window_get_action_overlay (fixture->window, fixture->tab));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (overlay)));

  /* The feed lists the newest first: Bob's tab, then Ada's click. */
  wait_for_feed (fixture->feed, 4);
  g_assert_cmpstr (tw_activity_entry_get_tool (entry_at (shown, 0)), ==, "browser_new_tab");
  g_assert_cmpstr (tw_activity_entry_get_agent_name (entry_at (shown, 0)), ==, "Bob");
  g_assert_cmpstr (tw_activity_entry_get_tool (entry_at (shown, 1)), ==, "browser_click");

  /* Choosing Ada's click shows her tab and points at the button again. */
  tw_activity_feed_activate (fixture->feed, 1);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (overlay)));
  tw_test_wait_until (overlay_flashing, overlay, TW_TEST_WAIT_MS, "the flash");
  g_assert_true (tw_action_overlay_get_highlight (overlay, &highlight));
  g_assert_cmpfloat (highlight.size.width, >, 10);
}

/* Pausing */

static void
test_pause (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(JsonObject) paused = NULL;
  g_autoptr(JsonObject) listed = NULL;
  g_autoptr(JsonObject) resumed = NULL;
  g_autoptr(JsonObject) paused_again = NULL;
  AdwTabPage *page;
  const char *message;

  /* Through the window, as the tab's context menu does. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.pause-tab",
                                             "s", fixture->browser_id));
  g_assert_true (tw_browser_tab_get_paused (fixture->tab));

  /* Calls on the tab fail, saying why (at once, before any command queued
   * ahead of them ends: test-browser's paused-queue). */
  paused = tw_test_call_tool (fixture->service, &tw_test_ada, "browser_snapshot", fixture->id_args);
  g_assert_cmpstr (tw_test_result_error_code (paused), ==, "browser_denied");
  message = tw_test_result_text (paused);
  g_assert_true (g_str_has_prefix (message, "Error: browser_denied — "));
  g_assert_nonnull (strstr (message, "paused"));
  g_assert_nonnull (strstr (message, fixture->browser_id));

  /* The workspace still answers, and the tab shows it is paused. */
  listed = tw_test_call_tool_ok (fixture->service, &tw_test_ada, "browser_list_tabs", "{}");
  g_assert_true (gtk_widget_is_ancestor (tw_window_get_action_overlay (fixture->window, fixture->tab),
                                         tw_window_get_tab_page (fixture->window, fixture->tab)));
  page = adw_tab_view_get_nth_page (tw_window_get_tab_view (fixture->window), 0);
  g_assert_nonnull (adw_tab_page_get_indicator_icon (page));
  g_assert_true (adw_tab_page_get_indicator_activatable (page));
  g_assert_nonnull (strstr (adw_tab_page_get_indicator_tooltip (page), "paused"));

  /* Resuming gives it back. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.resume-tab",
                                             "s", fixture->browser_id));
  resumed = tw_test_call_tool_ok (fixture->service, &tw_test_ada, "browser_snapshot", fixture->id_args);
  g_assert_nonnull (strstr (tw_test_result_text (resumed), "Sign up"));

  /* And pausing works from the tab itself as well. */
  tw_browser_tab_set_paused (fixture->tab, TRUE);
  paused_again = tw_test_call_tool (fixture->service, &bob, "browser_click",
                                    "{\"browserId\": \"b0\", \"ref\": \"@e1\"}");
  g_assert_cmpstr (tw_test_result_error_code (paused_again), ==, "browser_not_found");
  g_clear_pointer (&paused_again, json_object_unref);
  {
    g_autofree char *args = g_strdup_printf ("{\"browserId\": \"%s\", \"ref\": \"@e1\"}",
                                             fixture->browser_id);

    paused_again = tw_test_call_tool (fixture->service, &bob, "browser_click", args);
  }
  g_assert_cmpstr (tw_test_result_error_code (paused_again), ==, "browser_denied");
  tw_browser_tab_set_paused (fixture->tab, FALSE);
}

/* Handing a tab to the person */

static gboolean
banner_shown (gpointer data)
{
  return tw_handoff_banner_get_shown (data);
}

/* Starts the fixture's browser_handoff call; returns the tab's banner. */
static TwHandoffBanner *
start_handoff (Fixture *fixture,
               guint    timeout_ms)
{
  TwHandoffBanner *banner = TW_HANDOFF_BANNER (tw_window_get_handoff_banner (fixture->window,
                                                                             fixture->tab));

  g_assert_false (tw_handoff_banner_get_shown (banner));
  fixture->handoff = tw_test_start_asking_tool (fixture->browser, &tw_test_ada, "browser_handoff",
                                                fixture->tab, "Please log in, then press Done.",
                                                timeout_ms, banner_shown, banner,
                                                &fixture->handoff_state);

  return banner;
}

static void
test_handoff_done (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(JsonObject) result = NULL;
  TwHandoffBanner *banner = start_handoff (fixture, 0);
  JsonObject *structured;
  AdwTabView *view = tw_window_get_tab_view (fixture->window);

  /* The tab came forward, asking for attention, with the agent's words. */
  g_assert_cmpstr (tw_browser_tab_get_handoff_message (fixture->tab), ==,
                   "Please log in, then press Done.");
  g_assert_cmpstr (tw_browser_tab_get_handoff_agent (fixture->tab), ==, "Ada");
  g_assert_true (adw_tab_page_get_needs_attention (adw_tab_view_get_selected_page (view)));
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (banner),
                                         tw_window_get_shown_page (fixture->window)));

  /* The client heard that the call waits on purpose. */
  g_assert_cmpuint (fixture->handoff_state.n_progress, >=, 1);
  g_assert_cmpfloat (fixture->handoff_state.last_total, ==, 300);

  /* The person presses Done. */
  g_assert_true (tw_handoff_banner_respond (banner, TRUE));
  result = tw_test_await_tool_ok (&fixture->handoff_state, "browser_handoff");
  structured = tw_test_result_structured (result);
  g_assert_cmpstr (json_object_get_string_member (structured, "outcome"), ==, "done");
  g_assert_cmpstr (json_object_get_string_member (structured, "browserId"), ==,
                   fixture->browser_id);
  g_assert_true (g_str_has_suffix (json_object_get_string_member (structured, "url"),
                                   "/form"));
  g_assert_cmpstr (json_object_get_string_member (structured, "title"), ==, "Form");
  g_assert_true (g_str_has_prefix (tw_test_result_text (result), "The person pressed Done"));

  g_assert_false (tw_handoff_banner_get_shown (banner));
  g_assert_null (tw_browser_tab_get_handoff_message (fixture->tab));
  g_assert_false (tw_handoff_banner_respond (banner, TRUE));
}

static void
test_handoff_cancel (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(JsonObject) result = NULL;
  TwHandoffBanner *banner = start_handoff (fixture, 60000);

  /* Through the window action, as a keyboard shortcut or a script would. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.handoff-cancel",
                                             "s", fixture->browser_id));
  result = tw_test_await_tool_ok (&fixture->handoff_state, "browser_handoff");
  g_assert_cmpstr (json_object_get_string_member (tw_test_result_structured (result),
                                                  "outcome"), ==, "cancelled");
  g_assert_cmpfloat (fixture->handoff_state.last_total, ==, 60);
  g_assert_false (tw_handoff_banner_get_shown (banner));
}

static void
test_handoff_timeout (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(JsonObject) after = NULL;
  TwHandoffBanner *banner = start_handoff (fixture, 400);

  /* Nobody answers: the call ends at its own time limit, long before the
   * test would stop waiting for it. */
  result = tw_test_await_tool (&fixture->handoff_state, "browser_handoff");
  g_assert_cmpstr (tw_test_result_error_code (result), ==, "browser_timeout");
  g_assert_nonnull (strstr (tw_test_result_text (result), "did not answer"));
  g_assert_false (tw_handoff_banner_get_shown (banner));

  /* A late press changes nothing, and the tab works for the agent again. */
  g_assert_false (tw_handoff_banner_respond (banner, TRUE));
  after = tw_test_call_tool_ok (fixture->service, &tw_test_ada, "browser_snapshot", fixture->id_args);
}

/* Following */

static void
test_follow (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(JsonObject) second = NULL;
  g_autoptr(JsonObject) read = NULL;
  g_autofree char *args = g_strdup_printf ("{\"url\": \"%sform\"}", base_url);
  g_autofree char *id_args = NULL;
  TwBrowserTab *person;
  TwBrowserTab *tab2;
  GtkWidget *overlay2;

  /* The person works in a tab of their own; agents' tabs open behind it. */
  person = tw_browser_open_tab (fixture->browser, NULL);
  second = tw_test_call_tool_ok (fixture->service, &bob, "browser_new_tab", args);
  tab2 = tw_browser_lookup_tab (fixture->browser,
                                json_object_get_string_member (tw_test_result_structured (second),
                                                               "browserId"));
  overlay2 = tw_window_get_action_overlay (fixture->window, tab2);
  g_assert_true (gtk_widget_get_mapped (tw_window_get_action_overlay (fixture->window, person)));
  g_assert_false (gtk_widget_get_mapped (overlay2));

  /* Following, the window shows the tab each call goes to. */
  g_assert_false (tw_window_get_follow_agents (fixture->window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.follow-agents",
                                             NULL));
  g_assert_true (tw_window_get_follow_agents (fixture->window));
  id_args = g_strdup_printf ("{\"browserId\": \"%s\"}", tw_browser_tab_get_id (tab2));
  read = tw_test_call_tool_ok (fixture->service, &bob, "browser_snapshot", id_args);
  g_assert_true (gtk_widget_get_mapped (overlay2));

  g_clear_pointer (&read, json_object_unref);
  read = tw_test_call_tool_ok (fixture->service, &tw_test_ada, "browser_snapshot", fixture->id_args);
  g_assert_true (gtk_widget_get_mapped (tw_window_get_action_overlay (fixture->window,
                                                                      fixture->tab)));
  g_assert_false (gtk_widget_get_mapped (overlay2));
}

/* The feed's model: newest first, changes passed on in batches that name
 * only the rows that came and went */

typedef struct
{
  GString *changes;   /* "position-removed+added " per items-changed */
  guint    flushes;
} FeedChanges;

static void
feed_items_changed_cb (GListModel  *model,
                       guint        position,
                       guint        removed,
                       guint        added,
                       FeedChanges *changes)
{
  g_string_append_printf (changes->changes, "%u-%u+%u ", position, removed, added);
}

static void
feed_flushed_cb (TwFeedModel *model,
                 FeedChanges *changes)
{
  changes->flushes++;
}

static GObject *
named_object (const char *name)
{
  GObject *object = g_object_new (G_TYPE_OBJECT, NULL);

  g_object_set_data_full (object, "name", g_strdup (name), g_free);
  return object;
}

static void
append_named (GListStore *store,
              const char *name)
{
  g_autoptr(GObject) object = named_object (name);

  g_list_store_append (store, object);
}

/* The names the model shows, in its order. */
static char *
shown_names (GListModel *model)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(GObject) object = g_list_model_get_item (model, i);

      g_string_append_printf (names, "%s%s", i > 0 ? " " : "",
                              (const char *) g_object_get_data (object, "name"));
    }

  return g_string_free (names, FALSE);
}

static gboolean
feed_flushed (gpointer data)
{
  return ((FeedChanges *) data)->flushes > 0;
}

static void
test_feed_model (void)
{
  g_autoptr(GListStore) store = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(TwFeedModel) model = NULL;
  FeedChanges changes = { g_string_new (NULL), 0 };
  g_autofree char *names = NULL;
  gint64 started;
  double waited_ms;

  append_named (store, "a");
  append_named (store, "b");
  append_named (store, "c");
  model = tw_feed_model_new (G_LIST_MODEL (store));
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (model)) == G_TYPE_OBJECT);
  names = shown_names (G_LIST_MODEL (model));
  g_assert_cmpstr (names, ==, "c b a");
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (model), 3));

  g_signal_connect (model, "items-changed", G_CALLBACK (feed_items_changed_cb), &changes);
  g_signal_connect (model, "flushed", G_CALLBACK (feed_flushed_cb), &changes);

  /* A burst of calls: two come in, the oldest drops out of the log.
   * Nothing reaches the view until the batch is due... */
  append_named (store, "d");
  append_named (store, "e");
  g_list_store_remove (store, 0);
  g_assert_cmpstr (changes.changes->str, ==, "");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 3);

  /* ... and then as the row that left the bottom and the rows that came in
   * on top, without touching the rows in between. */
  started = g_get_monotonic_time ();
  tw_test_wait_until (feed_flushed, &changes, TW_TEST_WAIT_MS, "the batch");
  waited_ms = (g_get_monotonic_time () - started) / 1000.0;
  g_assert_cmpfloat (waited_ms, >=, TW_FEED_MODEL_BATCH_MS / 2.0);
  g_assert_cmpstr (changes.changes->str, ==, "2-1+0 0-0+2 ");
  g_free (names);
  names = shown_names (G_LIST_MODEL (model));
  g_assert_cmpstr (names, ==, "e d c b");

  /* A change of another kind (a filter) replaces the whole list, at once
   * when flushed. */
  g_string_truncate (changes.changes, 0);
  changes.flushes = 0;
  g_list_store_remove (store, 1);
  tw_feed_model_flush (model);
  g_assert_cmpstr (changes.changes->str, ==, "0-4+3 ");
  g_assert_cmpuint (changes.flushes, ==, 1);
  g_free (names);
  names = shown_names (G_LIST_MODEL (model));
  g_assert_cmpstr (names, ==, "e d b");

  /* A flush with nothing new changes nothing but still says so, for the
   * rows whose entries changed. */
  g_string_truncate (changes.changes, 0);
  tw_feed_model_schedule (model);
  tw_feed_model_flush (model);
  g_assert_cmpstr (changes.changes->str, ==, "");
  g_assert_cmpuint (changes.flushes, ==, 2);

  /* Only the newest rows are shown, however long the log. */
  for (guint i = 0; i < TW_FEED_MODEL_MAX_ITEMS + 50; i++)
    {
      g_autofree char *name = g_strdup_printf ("n%u", i);

      append_named (store, name);
    }
  g_string_truncate (changes.changes, 0);
  tw_feed_model_flush (model);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, TW_FEED_MODEL_MAX_ITEMS);
  {
    g_autoptr(GObject) newest = g_list_model_get_item (G_LIST_MODEL (model), 0);
    g_autoptr(GObject) oldest = g_list_model_get_item (G_LIST_MODEL (model), TW_FEED_MODEL_MAX_ITEMS - 1);
    g_autofree char *expected_oldest = g_strdup_printf ("n%u", 50);
    g_autofree char *expected = g_strdup_printf ("0-3+%u ", TW_FEED_MODEL_MAX_ITEMS);

    g_assert_cmpstr (g_object_get_data (newest, "name"), ==, "n249");
    g_assert_cmpstr (g_object_get_data (oldest, "name"), ==, expected_oldest);
    g_assert_cmpstr (changes.changes->str, ==, expected);
  }

  g_signal_handlers_disconnect_by_data (model, &changes);
  g_string_free (changes.changes, TRUE);
}

static const TwTestFixtureCase activity_cases[] = {
  TW_TEST_FIXTURE_CASE ("/ui/activity/session", test_session),
  TW_TEST_FIXTURE_CASE ("/ui/activity/dialog-between-calls", test_dialog_between_calls),
  TW_TEST_FIXTURE_CASE ("/ui/live/covered-window", test_covered_window),
  TW_TEST_FIXTURE_CASE ("/ui/activity/choose-entry", test_choose_entry),
  TW_TEST_FIXTURE_CASE ("/ui/steering/pause", test_pause),
  TW_TEST_FIXTURE_CASE ("/ui/steering/handoff/done", test_handoff_done),
  TW_TEST_FIXTURE_CASE ("/ui/steering/handoff/cancel", test_handoff_cancel),
  TW_TEST_FIXTURE_CASE ("/ui/steering/handoff/timeout", test_handoff_timeout),
  TW_TEST_FIXTURE_CASE ("/ui/steering/follow", test_follow),
};

int
main (int   argc,
      char *argv[])
{
  tw_test_init_gtk (&argc, &argv, adw_init);
  g_test_add_func ("/ui/activity/feed-model", test_feed_model);
  TW_TEST_ADD_FIXTURE_CASES (Fixture, activity_cases, fixture_set_up, fixture_tear_down);

  return tw_test_run_with_page (form_html, &base_url);
}
