/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <libsoup/soup.h>

#include "tw-browser.h"
#include "tw-tab-page.h"
#include "tw-test-webview.h"

/* A tab's page on its own, in a window of its own: the bars over the web
 * view, the status page and pointing at an element again follow the tab
 * they show, and the person's buttons on them act on that tab. */

#define WAIT_MS 60000

static const TwCaller ada = { "agent-ada", "Ada", 0 };

static SoupServer *server;
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
  fixture->tab = tw_test_open_tab (fixture->browser, &ada, url);
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

/* The page's parts, found the way a person finds them: by what they are. */
static GtkWidget *
find_by_class (GtkWidget  *widget,
               const char *css_class)
{
  if (gtk_widget_has_css_class (widget, css_class))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_by_class (child, css_class);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static GtkWidget *
find_label (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child);

      if (found != NULL)
        return found;
    }

  return NULL;
}

/* What a click on the button does, without a pointer on this display. */
static void
click (GtkWidget *button)
{
  g_assert_true (GTK_IS_BUTTON (button));
  g_assert_true (gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
}

static gboolean
widget_shown (gpointer data)
{
  return gtk_widget_get_visible (data);
}

static gboolean
widget_hidden (gpointer data)
{
  return !gtk_widget_get_visible (data);
}

static void
test_paused_bar (Fixture       *fixture,
                 gconstpointer  data)
{
  GtkWidget *bar = find_by_class (GTK_WIDGET (fixture->page), "tw-paused-bar");

  g_assert_nonnull (bar);
  g_assert_false (gtk_widget_get_visible (bar));

  tw_browser_tab_set_paused (fixture->tab, TRUE);
  g_assert_true (gtk_widget_get_visible (bar));

  /* The person's Resume gives the tab back to agents. */
  click (find_button (bar, "_Resume"));
  g_assert_false (tw_browser_tab_get_paused (fixture->tab));
  g_assert_false (gtk_widget_get_visible (bar));
}

static void
test_viewport_bar (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *bar = find_by_class (GTK_WIDGET (fixture->page), "tw-viewport-bar");
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
  resized = tw_test_call_tool_ok (TW_BROWSER_SERVICE (fixture->browser), &ada, "browser_resize",
                                  args);
  g_assert_true (gtk_widget_get_visible (bar));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (find_label (bar))), ==, "Viewport 420 × 300");

  /* Fit to Window gives the page the whole window again. */
  click (find_button (bar, "_Fit to Window"));
  g_assert_false (tw_view_frame_get_viewport_size (frame, &width, &height));
  g_assert_false (gtk_widget_get_visible (bar));
}

static void
test_status_page (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWidget *status = find_by_class (GTK_WIDGET (fixture->page), "tw-page-status");
  g_autofree char *closed = g_strdup_printf ("http://127.0.0.1:%u/", tw_test_closed_port ());
  g_autofree char *good = g_strdup_printf ("%sagain", base_url);

  g_assert_nonnull (status);
  g_assert_false (gtk_widget_get_visible (status));

  /* A page that cannot load leaves the status page, naming the address. */
  tw_browser_tab_load_uri (fixture->tab, closed, NULL);
  tw_test_wait_until (widget_shown, status, WAIT_MS, "the status page");
  g_assert_cmpstr (adw_status_page_get_title (ADW_STATUS_PAGE (status)), ==,
                   "Unable to Load Page");
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (status)), closed));

  /* A page that loads puts it away. */
  tw_browser_tab_load_uri (fixture->tab, good, NULL);
  tw_test_wait_until (widget_hidden, status, WAIT_MS, "the status page to go");
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
  result = tw_test_await_result (WAIT_MS, "the flash");

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

  snapshot = tw_test_call_tool_ok (TW_BROWSER_SERVICE (fixture->browser), &ada,
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

static GtkWidget *
find_of_type (GtkWidget *widget,
              GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_of_type (child, type);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
approval_shown (gpointer data)
{
  return tw_approval_banner_get_shown (data);
}

/* A step of Ada's that needs the person's OK waits in the bar over its
 * tab, which says who asks for what; Deny with a reason typed in the bar
 * reaches the agent as browser_denied with that reason, and nothing ran;
 * Allow Once lets the next such step run. */
static void
test_approval_banner (Fixture       *fixture,
                      gconstpointer  data)
{
  static const char * const approve[] = { "browser_evaluate", NULL };
  const TwAgentPolicy policy = { NULL, approve, 0, NULL };
  TwApprovalBanner *banner = tw_tab_page_get_approval_banner (fixture->page);
  GtkWidget *bar = find_by_class (GTK_WIDGET (fixture->page), "tw-approval-banner");
  g_autofree char *args = NULL;
  g_autoptr(JsonObject) denied = NULL;
  g_autoptr(JsonObject) allowed = NULL;
  g_autoptr(JsonObject) title = NULL;
  TwTestOutcome outcome = { 0 };
  TwToolCall *call;

  g_assert_nonnull (bar);
  g_assert_false (tw_approval_banner_get_shown (banner));

  tw_browser_add_agent (fixture->browser, ada.agent_id, ada.agent_name);
  tw_browser_set_agent_policy (fixture->browser, ada.agent_id, &policy);
  args = g_strdup_printf ("{\"browserId\": \"%s\", \"function\": "
                          "\"() => { document.title = 'changed'; return 1; }\"}",
                          tw_browser_tab_get_id (fixture->tab));

  call = tw_test_start_tool (TW_BROWSER_SERVICE (fixture->browser), &ada, "browser_evaluate",
                             args, &outcome);
  tw_test_wait_until (approval_shown, banner, WAIT_MS, "the approval bar");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (find_by_class (bar, "heading"))), ==,
                   "Ada asks to run a script in the page");
  gtk_editable_set_text (GTK_EDITABLE (find_of_type (bar, GTK_TYPE_ENTRY)), "wrong page");
  click (find_button (bar, "_Deny"));
  denied = tw_test_await_tool (&outcome, "the denied step");
  g_assert_cmpstr (tw_test_result_error_code (denied), ==, "browser_denied");
  g_assert_nonnull (strstr (tw_test_result_text (denied), "the person denied browser_evaluate"));
  g_assert_nonnull (strstr (tw_test_result_text (denied), "wrong page"));
  g_assert_false (tw_approval_banner_get_shown (banner));
  g_assert_cmpstr (tw_browser_tab_get_title (fixture->tab), ==, "Page");
  tw_tool_call_unref (call);
  tw_test_outcome_clear (&outcome);

  call = tw_test_start_tool (TW_BROWSER_SERVICE (fixture->browser), &ada, "browser_evaluate",
                             args, &outcome);
  tw_test_wait_until (approval_shown, banner, WAIT_MS, "the approval bar, again");
  click (find_button (bar, "_Allow Once"));
  allowed = tw_test_await_tool (&outcome, "the allowed step");
  g_assert_false (tw_test_result_is_error (allowed));
  g_assert_false (tw_approval_banner_get_shown (banner));
  tw_tool_call_unref (call);
  tw_test_outcome_clear (&outcome);

  /* The person's own clients never wait. */
  title = tw_test_call_tool_ok (TW_BROWSER_SERVICE (fixture->browser), NULL, "browser_evaluate",
                                args);
  g_assert_false (tw_approval_banner_get_shown (banner));
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  adw_init ();

  server = tw_test_server_new_page (page_html, &base_url);

  g_test_add ("/ui/tab-page/paused-bar", Fixture, NULL,
              fixture_set_up, test_paused_bar, fixture_tear_down);
  g_test_add ("/ui/tab-page/viewport-bar", Fixture, NULL,
              fixture_set_up, test_viewport_bar, fixture_tear_down);
  g_test_add ("/ui/tab-page/status-page", Fixture, NULL,
              fixture_set_up, test_status_page, fixture_tear_down);
  g_test_add ("/ui/tab-page/flash-ref", Fixture, NULL,
              fixture_set_up, test_flash_ref, fixture_tear_down);
  g_test_add ("/ui/tab-page/approval-banner", Fixture, NULL,
              fixture_set_up, test_approval_banner, fixture_tear_down);

  ret = g_test_run ();

  g_clear_object (&server);
  g_free (base_url);

  return ret;
}
