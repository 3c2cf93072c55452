/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <libsoup/soup.h>

#include "tw-browser.h"
#include "tw-person-bar.h"
#include "tw-tab-page.h"
#include "tw-test-webview.h"
#include "tw-test-widgets.h"

/* A tab's page on its own, in a window of its own: the bars over the web
 * view, the status page and pointing at an element again follow the tab
 * they show, and the person's buttons on them act on that tab. */

static char *base_url;

static const char page_html[] =
  "<!doctype html><html><head><title>Page</title></head><body>"
  "<h1>Orders</h1><button style='margin: 40px; width: 120px'>Save</button>"
  "</body></html>";

typedef struct
{
  TwBrowser    *browser;
  GtkWindow    *window;
  TwTabPage    *page;
  TwBrowserTab *tab;
  char         *id_args;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *url = g_strconcat (base_url, "page", NULL);

  fixture->browser = tw_browser_new (NULL, NULL);
  fixture->tab = tw_test_open_tab (fixture->browser, &tw_test_ada, url);
  fixture->id_args = tw_test_tab_id_args (fixture->tab);

  fixture->page = TW_TAB_PAGE (tw_tab_page_new (fixture->tab));
  fixture->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fixture->window, 800, 600);
  gtk_window_set_child (fixture->window, GTK_WIDGET (fixture->page));
  gtk_window_present (fixture->window);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  gtk_window_destroy (fixture->window);
  tw_test_close_browser (&fixture->browser);
  g_clear_pointer (&fixture->id_args, g_free);
}

/* What a click on the button does, without a pointer on this display. */
static void
click (GtkWidget *button)
{
  g_assert_true (GTK_IS_BUTTON (button));
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
}

static void
test_paused_bar (Fixture       *fixture,
                 gconstpointer  data)
{
  GtkWidget *bar = tw_test_find (GTK_WIDGET (fixture->page), TW_TEST_FIND_CLASS, "tw-paused-bar");

  g_assert_nonnull (bar);
  g_assert_false (gtk_widget_get_visible (bar));

  tw_browser_tab_set_paused (fixture->tab, TRUE);
  g_assert_true (gtk_widget_get_visible (bar));

  /* The person's Resume gives the tab back to agents. */
  click (tw_test_find (bar, TW_TEST_FIND_BUTTON, "_Resume"));
  g_assert_false (tw_browser_tab_get_paused (fixture->tab));
  g_assert_false (gtk_widget_get_visible (bar));
}

static void
test_viewport_bar (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *bar = tw_test_find (GTK_WIDGET (fixture->page), TW_TEST_FIND_CLASS, "tw-viewport-bar");
  TwViewFrame *frame = tw_browser_tab_get_frame (fixture->tab);
  g_autoptr(JsonObject) resized = NULL;
  g_autofree char *args = NULL;
  int width = 0;
  int height = 0;

  g_assert_nonnull (bar);
  g_assert_false (gtk_widget_get_visible (bar));

  /* An agent fixes the page's size; the bar says which. */
  args = g_strdup_printf ("{\"browserId\": \"%s\", \"width\": 420, \"height\": 300}",
                          tw_browser_tab_get_id (fixture->tab));
  resized = tw_test_call_tool_ok (TW_BROWSER_SERVICE (fixture->browser), &tw_test_ada, "browser_resize",
                                  args);
  g_assert_true (gtk_widget_get_visible (bar));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (tw_test_find_widget (bar, GTK_TYPE_LABEL))), ==, "Viewport 420 × 300");

  /* Fit to Window gives the page the whole window again. */
  click (tw_test_find (bar, TW_TEST_FIND_BUTTON, "_Fit to Window"));
  g_assert_false (tw_view_frame_get_viewport_size (frame, &width, &height));
  g_assert_false (gtk_widget_get_visible (bar));
}

static void
test_status_page (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWidget *status = tw_test_find (GTK_WIDGET (fixture->page), TW_TEST_FIND_CLASS, "tw-page-status");
  g_autofree char *closed = g_strdup_printf ("http://127.0.0.1:%u/", tw_test_closed_port ());
  g_autofree char *good = g_strdup_printf ("%sagain", base_url);

  g_assert_nonnull (status);
  g_assert_false (gtk_widget_get_visible (status));

  /* A page that cannot load leaves the status page, naming the address. */
  tw_browser_tab_load_uri (fixture->tab, closed, NULL);
  tw_test_wait_until (tw_test_widget_shown, status, TW_TEST_WAIT_MS, "the status page");
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status)), ==,
                   "Unable to Load Page");
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (status)), closed));

  /* A page that loads puts it away. */
  tw_browser_tab_load_uri (fixture->tab, good, NULL);
  tw_test_wait_until (tw_test_widget_hidden, status, TW_TEST_WAIT_MS, "the status page to go");
  g_assert_cmpstr (tw_browser_tab_get_uri (fixture->tab), ==, good);
}

/* Points at @ref again, and returns whether the page found it. */
static gboolean
flash_ref (TwTabPage   *page,
           const char  *ref,
           const char  *caption,
           GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tw_tab_page_flash_ref_async (page, ref, caption, NULL, tw_test_store_result_cb, NULL);
  result = tw_test_await_result (TW_TEST_WAIT_MS, "the flash");

  return tw_tab_page_flash_ref_finish (page, result, error);
}

static void
test_flash_ref (Fixture       *fixture,
                gconstpointer  data)
{
  TwActionOverlay *overlay = tw_tab_page_get_action_overlay (fixture->page);
  g_autoptr(JsonObject) snapshot = NULL;
  g_autofree char *save = NULL;
  g_autoptr(GError) error = NULL;
  graphene_rect_t rect;

  snapshot = tw_test_call_tool_ok (TW_BROWSER_SERVICE (fixture->browser), &tw_test_ada,
                                   "browser_snapshot", fixture->id_args);
  save = tw_test_find_ref (tw_test_result_text (snapshot), "button \"Save\"");

  /* The page shows where the button is, as the page laid it out. */
  g_assert_true (flash_ref (fixture->page, save, "Ada: click “Save”", &error));
  g_assert_no_error (error);
  g_assert_true (tw_action_overlay_get_highlight (overlay, &rect));
  g_assert_cmpfloat_with_epsilon (rect.size.width, 120, 1);
  g_assert_cmpfloat (rect.origin.x, >=, 40);
  g_assert_cmpstr (tw_action_overlay_get_caption (overlay), ==, "Ada: click “Save”");

  /* A ref the page does not have is said to be gone. */
  g_assert_false (flash_ref (fixture->page, "e9999", NULL, &error));
  g_assert_nonnull (error);
}

static gboolean
approval_shown (gpointer data)
{
  return tw_approval_banner_get_shown (data);
}

/* A step of Ada's that needs the person's OK waits in the bar over its
 * tab, which says who asks for what; Deny with a reason typed in the bar
 * reaches the agent as browser_denied with that reason, and nothing ran;
 * Allow Once lets the next such step run; one whose call is cancelled
 * leaves the bar without running. */
static void
test_approval_banner (Fixture       *fixture,
                      gconstpointer  data)
{
  static const char * const approve[] = { "browser_evaluate", NULL };
  const TwAgentPolicy policy = { NULL, approve, 0, NULL };
  TwApprovalBanner *banner = tw_tab_page_get_approval_banner (fixture->page);
  GtkWidget *bar = tw_test_find (GTK_WIDGET (fixture->page), TW_TEST_FIND_CLASS, "tw-approval-banner");
  g_autofree char *args = NULL;
  g_autoptr(JsonObject) denied = NULL;
  g_autoptr(JsonObject) allowed = NULL;
  g_autoptr(JsonObject) title = NULL;
  TwTestOutcome outcome = { 0 };
  TwToolCall *call;

  g_assert_nonnull (bar);
  g_assert_false (tw_approval_banner_get_shown (banner));

  tw_browser_add_agent (fixture->browser, tw_test_ada.agent_id, tw_test_ada.agent_name);
  tw_browser_set_agent_policy (fixture->browser, tw_test_ada.agent_id, &policy);
  args = g_strdup_printf ("{\"browserId\": \"%s\", \"function\": "
                          "\"() => { document.title = 'changed'; return 1; }\"}",
                          tw_browser_tab_get_id (fixture->tab));

  call = tw_test_start_tool (TW_BROWSER_SERVICE (fixture->browser), &tw_test_ada, "browser_evaluate",
                             args, &outcome);
  tw_test_wait_until (approval_shown, banner, TW_TEST_WAIT_MS, "the approval bar");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (tw_test_find (bar, TW_TEST_FIND_CLASS, "heading"))), ==,
                   "Ada asks to run a script in the page");
  gtk_editable_set_text (GTK_EDITABLE (tw_test_find_widget (bar, GTK_TYPE_ENTRY)), "wrong page");
  click (tw_test_find (bar, TW_TEST_FIND_BUTTON, "_Deny"));
  denied = tw_test_await_tool (&outcome, "the denied step");
  g_assert_cmpstr (tw_test_result_error_code (denied), ==, "browser_denied");
  g_assert_nonnull (strstr (tw_test_result_text (denied), "the person denied browser_evaluate"));
  g_assert_nonnull (strstr (tw_test_result_text (denied), "wrong page"));
  g_assert_false (tw_approval_banner_get_shown (banner));
  g_assert_cmpstr (tw_browser_tab_get_title (fixture->tab), ==, "Page");
  tw_tool_call_unref (call);
  tw_test_outcome_clear (&outcome);

  call = tw_test_start_tool (TW_BROWSER_SERVICE (fixture->browser), &tw_test_ada, "browser_evaluate",
                             args, &outcome);
  tw_test_wait_until (approval_shown, banner, TW_TEST_WAIT_MS, "the approval bar, again");
  click (tw_test_find (bar, TW_TEST_FIND_BUTTON, "_Allow Once"));
  allowed = tw_test_await_tool (&outcome, "the allowed step");
  g_assert_false (tw_test_result_is_error (allowed));
  g_assert_false (tw_approval_banner_get_shown (banner));
  tw_tool_call_unref (call);
  tw_test_outcome_clear (&outcome);

  /* A step whose call is cancelled while it waits leaves the bar, and
   * nothing ran. Its long script is shown cut to 400 characters. */
  {
    g_autofree char *padding = g_strnfill (500, 'x');
    g_autofree char *other = g_strdup_printf ("{\"browserId\": \"%s\", \"function\": "
                                              "\"() => { document.title = 'cancelled'; return '%s'; }\"}",
                                              tw_browser_tab_get_id (fixture->tab), padding);
    g_autoptr(JsonObject) cancelled = NULL;
    const char *detail;

    call = tw_test_start_tool (TW_BROWSER_SERVICE (fixture->browser), &tw_test_ada, "browser_evaluate",
                               other, &outcome);
    tw_test_wait_until (approval_shown, banner, TW_TEST_WAIT_MS, "the approval bar, a third time");
    detail = gtk_label_get_label (tw_person_bar_get_detail (TW_PERSON_BAR (tw_test_find_widget (GTK_WIDGET (banner), TW_TYPE_PERSON_BAR))));
    g_assert_cmpint (g_utf8_strlen (detail, -1), ==, 401);
    g_assert_true (g_str_has_prefix (detail, "() => { document.title = 'cancelled'; return 'xxx"));
    g_assert_true (g_str_has_suffix (detail, "x…"));
    g_cancellable_cancel (tw_tool_call_get_cancellable (call));
    cancelled = tw_test_await_tool (&outcome, "the cancelled step");
    g_assert_true (tw_test_result_is_error (cancelled));
    g_assert_false (tw_approval_banner_get_shown (banner));
    g_assert_cmpstr (tw_browser_tab_get_title (fixture->tab), ==, "changed");
    tw_tool_call_unref (call);
    tw_test_outcome_clear (&outcome);
  }

  /* The person's own clients never wait. */
  title = tw_test_call_tool_ok (TW_BROWSER_SERVICE (fixture->browser), NULL, "browser_evaluate",
                                args);
  g_assert_false (tw_approval_banner_get_shown (banner));
}

static const TwTestFixtureCase tab_page_cases[] = {
  TW_TEST_FIXTURE_CASE ("/ui/tab-page/paused-bar", test_paused_bar),
  TW_TEST_FIXTURE_CASE ("/ui/tab-page/viewport-bar", test_viewport_bar),
  TW_TEST_FIXTURE_CASE ("/ui/tab-page/status-page", test_status_page),
  TW_TEST_FIXTURE_CASE ("/ui/tab-page/flash-ref", test_flash_ref),
  TW_TEST_FIXTURE_CASE ("/ui/tab-page/approval-banner", test_approval_banner),
};

int
main (int   argc,
      char *argv[])
{
  tw_test_init_gtk (&argc, &argv, adw_init);
  TW_TEST_ADD_FIXTURE_CASES (Fixture, tab_page_cases, fixture_set_up, fixture_tear_down);

  return tw_test_run_with_page (page_html, &base_url);
}
