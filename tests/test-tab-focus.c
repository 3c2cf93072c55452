/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <libsoup/soup.h>

#include "tw-browser-tab.h"
#include "tw-browser-tab-private.h"
#include "tw-test-webview.h"
#include "tw-test-widgets.h"

/* What a page sees of focus in a tab beside a text field that has the
 * person's keyboard focus: the real focus (none) while the tab is the
 * person's or paused, a focused page while an agent drives it, and the
 * person's field keeps GTK's focus and its input method all along. */

static const char page_html[] =
  "<!doctype html><html><head><title>Focus</title>"
  "<style>#box:focus-within { outline: 2px solid rgb(0, 95, 204); }</style></head><body>"
  "<div id=box><input id=field></div>"
  "<script>"
  "window.seen = [];"
  "addEventListener('focus', (e) => { if (e.target === window) seen.push('focus'); });"
  "addEventListener('blur', (e) => { if (e.target === window) seen.push('blur'); });"
  "document.getElementById('field').focus();"
  "</script></body></html>";

static char *base_url;

typedef struct
{
  WebKitNetworkSession *session;
  GtkWindow            *window;
  GtkWidget            *entry;
  TwBrowserTab         *tab;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  fixture->session = webkit_network_session_new_ephemeral ();
  /* The person's tab: no agent drives it. */
  fixture->tab = tw_browser_tab_new (fixture->session, NULL, NULL);
  fixture->entry = gtk_entry_new ();

  gtk_box_append (GTK_BOX (box), fixture->entry);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (tw_browser_tab_get_frame (fixture->tab)));
  fixture->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (fixture->window, 800, 600);
  gtk_window_set_child (fixture->window, box);
  gtk_window_present (fixture->window);
  gtk_widget_grab_focus (fixture->entry);

  g_assert_true (tw_test_view_load (tw_browser_tab_get_view (fixture->tab), base_url, TW_TEST_WAIT_MS));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  tw_browser_tab_close (fixture->tab);
  gtk_window_destroy (fixture->window);
  g_clear_object (&fixture->tab);
  g_clear_object (&fixture->session);
}

/* What the page says of its focus: {hasFocus, focus (the field matches
 * :focus), within (the :focus-within style), seen}. */
static char *
page_focus (Fixture *fixture)
{
  g_autoptr(JSCValue) value = NULL;

  value = tw_test_view_evaluate (tw_browser_tab_get_view (fixture->tab),
                                 "JSON.stringify({hasFocus: document.hasFocus(),"
                                 " focus: document.getElementById('field').matches(':focus'),"
                                 " within: getComputedStyle(document.getElementById('box')).outlineColor,"
                                 " seen: window.seen.join(' ')})",
                                 TW_TEST_WAIT_MS);
  g_assert_nonnull (value);

  return jsc_value_to_string (value);
}

/* The focus state reaches the web process after the call that changed it
 * returns: asks until the page says @has_focus, or the deadline passes. */
static char *
wait_page_focus (Fixture  *fixture,
                 gboolean  has_focus)
{
  gint64 deadline = g_get_monotonic_time () + TW_TEST_WAIT_MS * G_TIME_SPAN_MILLISECOND;
  const char *want = has_focus ? "\"hasFocus\":true" : "\"hasFocus\":false";

  for (;;)
    {
      g_autofree char *state = page_focus (fixture);

      if (strstr (state, want) != NULL || g_get_monotonic_time () > deadline)
        return g_steal_pointer (&state);
    }
}

/* Ada's agent takes the tab: its page gets the focus, which the page is
 * asked for until it says so. Returns what the page says. */
static char *
drive_tab (Fixture *fixture)
{
  g_autofree char *driven = NULL;

  tw_browser_tab_set_owner (fixture->tab, "agent-ada", "Ada");
  driven = wait_page_focus (fixture, TRUE);
  g_assert_nonnull (strstr (driven, "\"hasFocus\":true"));

  return g_steal_pointer (&driven);
}

static void
assert_person_keeps_keyboard (Fixture *fixture)
{
  GtkWidget *focus = gtk_window_get_focus (fixture->window);

  g_assert_nonnull (focus);
  g_assert_true (focus == fixture->entry || gtk_widget_is_ancestor (focus, fixture->entry));
  g_assert_false (gtk_widget_has_focus (GTK_WIDGET (tw_browser_tab_get_view (fixture->tab))));
}

static void
test_person_tab (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *state = page_focus (fixture);

  /* As in any browser: the view does not have the keyboard focus. */
  g_assert_cmpstr (state, ==, "{\"hasFocus\":false,\"focus\":false,\"within\":\"rgb(0, 95, 204)\",\"seen\":\"\"}");
  g_assert_nonnull (webkit_web_view_get_input_method_context (tw_browser_tab_get_view (fixture->tab)));
  assert_person_keeps_keyboard (fixture);
}

static void
test_driven_tab (Fixture       *fixture,
                 gconstpointer  data)
{
  WebKitWebView *view = tw_browser_tab_get_view (fixture->tab);
  g_autofree char *driven = NULL;
  g_autofree char *paused = NULL;
  g_autofree char *resumed = NULL;
  g_autofree char *handed = NULL;

  driven = drive_tab (fixture);
  g_assert_cmpstr (driven, ==,
                   "{\"hasFocus\":true,\"focus\":true,\"within\":\"rgb(0, 95, 204)\",\"seen\":\"focus\"}");
  assert_person_keeps_keyboard (fixture);
  /* Nor does the view hold an input method that could take the person's. */
  g_assert_null (webkit_web_view_get_input_method_context (view));

  /* The person takes the tab: the page sees the real focus again. */
  tw_browser_tab_set_paused (fixture->tab, TRUE);
  paused = wait_page_focus (fixture, FALSE);
  g_assert_cmpstr (paused, ==,
                   "{\"hasFocus\":false,\"focus\":false,\"within\":\"rgb(0, 95, 204)\",\"seen\":\"focus blur\"}");
  g_assert_nonnull (webkit_web_view_get_input_method_context (view));

  tw_browser_tab_set_paused (fixture->tab, FALSE);
  resumed = wait_page_focus (fixture, TRUE);
  g_assert_cmpstr (resumed, ==,
                   "{\"hasFocus\":true,\"focus\":true,\"within\":\"rgb(0, 95, 204)\",\"seen\":\"focus blur focus\"}");
  assert_person_keeps_keyboard (fixture);

  /* The person clicks into the page and back into their field: the page
   * of a driven tab keeps the focus throughout, and the view gets the
   * input method only while it has the keyboard. */
  gtk_widget_grab_focus (GTK_WIDGET (view));
  g_assert_nonnull (webkit_web_view_get_input_method_context (view));
  gtk_widget_grab_focus (fixture->entry);
  g_assert_null (webkit_web_view_get_input_method_context (view));
  g_free (page_focus (fixture));
  handed = page_focus (fixture);
  g_assert_cmpstr (handed, ==,
                   "{\"hasFocus\":true,\"focus\":true,\"within\":\"rgb(0, 95, 204)\",\"seen\":\"focus blur focus\"}");
  assert_person_keeps_keyboard (fixture);
}

static void
test_emulation_off (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *off = NULL;
  g_autofree char *on = NULL;

  g_free (drive_tab (fixture));

  /* The person turned it off (Preferences): the real focus, as in their
   * own tabs. */
  tw_browser_tab_set_emulate_focus (fixture->tab, FALSE);
  off = wait_page_focus (fixture, FALSE);
  g_assert_cmpstr (off, ==,
                   "{\"hasFocus\":false,\"focus\":false,\"within\":\"rgb(0, 95, 204)\",\"seen\":\"focus blur\"}");
  g_assert_nonnull (webkit_web_view_get_input_method_context (tw_browser_tab_get_view (fixture->tab)));

  tw_browser_tab_set_emulate_focus (fixture->tab, TRUE);
  on = wait_page_focus (fixture, TRUE);
  g_assert_cmpstr (on, ==,
                   "{\"hasFocus\":true,\"focus\":true,\"within\":\"rgb(0, 95, 204)\",\"seen\":\"focus blur focus\"}");
  assert_person_keeps_keyboard (fixture);
}

static void
test_window_inactive (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *after = NULL;
  GtkWindow *other;

  g_free (drive_tab (fixture));

  /* Another window takes the screen's focus: the page of the driven tab
   * keeps it, and sees no blur. */
  other = GTK_WINDOW (gtk_window_new ());
  gtk_window_present (other);
  tw_test_wait_until (tw_test_window_active, other, TW_TEST_WAIT_MS, "the other window to become active");
  g_assert_false (gtk_window_is_active (fixture->window));
  /* WebKit sends the change at the next turn of the main loop, which the
   * first evaluation lets pass; the second is answered after it. */
  g_free (page_focus (fixture));
  after = page_focus (fixture);
  g_assert_cmpstr (after, ==,
                   "{\"hasFocus\":true,\"focus\":true,\"within\":\"rgb(0, 95, 204)\",\"seen\":\"focus\"}");
  gtk_window_destroy (other);
}

static const TwTestFixtureCase tab_focus_cases[] = {
  TW_TEST_FIXTURE_CASE ("/webview/tab-focus/person-tab", test_person_tab),
  TW_TEST_FIXTURE_CASE ("/webview/tab-focus/driven-tab", test_driven_tab),
  TW_TEST_FIXTURE_CASE ("/webview/tab-focus/emulation-off", test_emulation_off),
  TW_TEST_FIXTURE_CASE ("/webview/tab-focus/window-inactive", test_window_inactive),
};

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);
  TW_TEST_ADD_FIXTURE_CASES (Fixture, tab_focus_cases, fixture_set_up, fixture_tear_down);

  return tw_test_run_with_page (page_html, &base_url);
}
