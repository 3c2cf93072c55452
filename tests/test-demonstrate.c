/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <gdk/x11/gdkx.h>
#include <libsoup/soup.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XTest.h>
#include <X11/keysym.h>

#include "tw-browser.h"
#include "tw-tab-page.h"
#include "tw-timeline.h"
#include "tw-window.h"
#include "tw-test-webview.h"
#include "tw-test-window.h"
#include "tw-test-widgets.h"

/* Teach (issue 33): the person demonstrates steps in a tab and an agent's
 * waiting browser_demonstration call gets them, by role and name, and the
 * name of a saved flow that browser_replay runs again.
 *
 * The person's input must be trusted, as a real person's is: the test
 * moves the real X pointer and presses real keys with the XTEST extension
 * of the X server (Xvfb has it), so GDK hands them to WebKit, which makes
 * trusted DOM events of them. No window manager runs, so the test gives the
 * window the X input focus itself (XSetInputFocus) for the keys to reach
 * it. The agent's own calls meanwhile (a click, a checkbox) must not
 * become steps. */

#define WAIT_MS 60000

static char *base_url;
/* The bodies of the forms the server received, oldest first. */
static GPtrArray *posted;

/* A form the person fills and sends, and two controls outside it that the
 * agent uses meanwhile. */
static const char form_html[] =
  "<!doctype html><html><head><title>Sign up</title>"
  "<style>body { margin: 0; font: 16px sans-serif } input, button { margin: 12px; "
  "font-size: 18px } #agree { width: 24px; height: 24px }</style></head><body>"
  "<form method='post' action='/submit'>"
  "<p><label>Email <input id='email' name='email' type='email'></label></p>"
  "<p><input id='agree' name='agree' type='checkbox'><label for='agree'>I agree</label></p>"
  "<p><button id='send'>Send</button></p>"
  "</form>"
  "<p><input id='subscribe' type='checkbox'><label for='subscribe'>Subscribe</label>"
  "<button id='shuffle' type='button' onclick='this.dataset.n = (+this.dataset.n || 0) + 1'>"
  "Shuffle</button></p>"
  "<p><label>PIN <input id='pin' type='password'></label></p>"
  "</body></html>";

static const char thanks_html[] =
  "<!doctype html><html><head><title>Thanks</title></head><body><h1>Thanks</h1></body></html>";

static void
serve (SoupServerMessage *msg,
       const char        *path,
       GHashTable        *query)
{
  if (g_str_equal (path, "/form"))
    {
      tw_test_serve_html (msg, form_html);
      return;
    }
  if (g_str_equal (path, "/submit"))
    {
      SoupMessageBody *body = soup_server_message_get_request_body (msg);
      g_autoptr(GBytes) bytes = soup_message_body_flatten (body);

      g_ptr_array_add (posted, g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes)));
      tw_test_serve_html (msg, thanks_html);
      return;
    }
  tw_test_serve_not_found (msg);
}

typedef struct
{
  TwBrowser          *browser;
  TwTimeline         *timeline;
  TwWindow           *window;
  TwBrowserTab       *tab;
  WebKitWebView      *view;
  TwDemonstrationBar *bar;
  char               *data_dir;
  /* The agent's waiting browser_demonstration call, and how it ends. */
  TwToolCall         *call;
  TwTestOutcome       state;
} Fixture;

static gboolean
view_shown (gpointer data)
{
  GtkWidget *view = data;

  return gtk_widget_get_mapped (view) && gtk_widget_get_width (view) > 0 &&
         gtk_widget_get_height (view) > 0;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *url = g_strconcat (base_url, "form", NULL);
  g_autofree char *dir = NULL;
  GtkWidget *content;
  AdwTabView *tabs;

  g_ptr_array_set_size (posted, 0);
  fixture->data_dir = g_dir_make_tmp ("tw-demonstrate-XXXXXX", NULL);
  fixture->browser = tw_browser_new (NULL, NULL);
  dir = g_build_filename (fixture->data_dir, "timeline", NULL);
  fixture->timeline = tw_timeline_new (fixture->browser, dir);
  fixture->window = tw_test_window_new (fixture->browser, "teach", fixture->data_dir, 1000, 700);

  fixture->tab = tw_test_open_tab (fixture->browser, &tw_test_ada, url);
  fixture->view = tw_browser_tab_get_view (fixture->tab);
  content = tw_window_get_tab_page (fixture->window, fixture->tab);
  fixture->bar = tw_tab_page_get_demonstration_bar (TW_TAB_PAGE (content));

  /* The person looks at the tab: it is the one shown. */
  tabs = tw_window_get_tab_view (fixture->window);
  for (int i = 0; i < adw_tab_view_get_n_pages (tabs); i++)
    {
      adw_tab_view_set_selected_page (tabs, adw_tab_view_get_nth_page (tabs, i));
      if (tw_window_get_shown_page (fixture->window) == content)
        break;
    }
  g_assert_true (tw_window_get_shown_page (fixture->window) == content);
  tw_test_wait_until (view_shown, fixture->view, WAIT_MS, "the tab to show");
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_pointer (&fixture->call, tw_tool_call_unref);
  tw_test_window_close (fixture->window, &fixture->browser);
  g_clear_object (&fixture->timeline);
  tw_test_remove_tree (fixture->data_dir);
  g_clear_pointer (&fixture->data_dir, g_free);
}

/* The person's hands: real X input */

static Display *
x_display (GtkWidget *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);

  g_assert_true (GDK_IS_X11_DISPLAY (display));

  return gdk_x11_display_get_xdisplay (display);
}

/* The middle of the element @selector matches, in the view's pixels. */
static graphene_point_t
element_middle (WebKitWebView *view,
                const char    *selector)
{
  g_autofree char *script = g_strdup_printf ("(() => { const r = document.querySelector('%s')"
                                             ".getBoundingClientRect(); "
                                             "return JSON.stringify([r.x + r.width / 2, "
                                             "r.y + r.height / 2]); })()", selector);
  g_autoptr(JSCValue) value = tw_test_view_evaluate (view, script, WAIT_MS);
  g_autofree char *json = jsc_value_to_string (value);
  g_autoptr(JsonNode) node = tw_test_parse_json (json);
  JsonArray *xy = json_node_get_array (node);

  return GRAPHENE_POINT_INIT (json_array_get_double_element (xy, 0),
                              json_array_get_double_element (xy, 1));
}

/* Where the middle of the element @selector matches is on the X screen. */
static void
root_point (WebKitWebView *view,
            const char    *selector,
            int           *x,
            int           *y)
{
  GtkWidget *widget = GTK_WIDGET (view);
  GtkNative *native = gtk_widget_get_native (widget);
  Display *display = x_display (widget);
  graphene_point_t middle = element_middle (view, selector);
  graphene_point_t in_window;
  double dx, dy;
  Window child;

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &middle, &in_window));
  gtk_native_get_surface_transform (native, &dx, &dy);
  XTranslateCoordinates (display, gdk_x11_surface_get_xid (gtk_native_get_surface (native)),
                         DefaultRootWindow (display), (int) (in_window.x + dx),
                         (int) (in_window.y + dy), x, y, &child);
}

typedef struct
{
  WebKitWebView *view;
  const char    *selector;
  gboolean       moved;
  int            x;
  int            y;
} Aim;

/* The pointer goes onto the element, again wherever it moved meanwhile
 * (a bar above the page appears), until the page says it is over it. */
static gboolean
pointer_over (gpointer data)
{
  Aim *aim = data;
  Display *display = x_display (GTK_WIDGET (aim->view));
  g_autofree char *hovered = NULL;
  g_autofree char *answer = NULL;
  int x, y;

  root_point (aim->view, aim->selector, &x, &y);
  if (!aim->moved || x != aim->x || y != aim->y)
    {
      XTestFakeMotionEvent (display, -1, x, y, CurrentTime);
      XFlush (display);
      aim->moved = TRUE;
      aim->x = x;
      aim->y = y;
      return FALSE;
    }

  hovered = g_strdup_printf ("String(document.querySelector('%s').matches(':hover'))", aim->selector);
  answer = tw_test_view_evaluate_string (aim->view, hovered, WAIT_MS);

  return g_str_equal (answer, "true");
}

/* A press of the left button on the element, as a person's hand: onto
 * it first, then the press. */
static void
person_clicks (WebKitWebView *view,
               const char    *selector)
{
  Display *display = x_display (GTK_WIDGET (view));
  Aim aim = { view, selector, FALSE, 0, 0 };

  tw_test_wait_until (pointer_over, &aim, WAIT_MS, selector);
  XTestFakeButtonEvent (display, 1, True, CurrentTime);
  XTestFakeButtonEvent (display, 1, False, CurrentTime);
  XFlush (display);
}

/* Key presses of @text, with Shift where a character needs it. */
static void
person_types (WebKitWebView *view,
              const char    *text)
{
  Display *display = x_display (GTK_WIDGET (view));
  KeyCode shift = XKeysymToKeycode (display, XK_Shift_L);

  for (const char *p = text; *p != '\0'; p++)
    {
      KeySym sym = gdk_unicode_to_keyval ((guchar) *p);
      KeyCode code = XKeysymToKeycode (display, sym);
      gboolean shifted;

      g_assert_cmpuint (code, !=, 0);
      shifted = XkbKeycodeToKeysym (display, code, 0, 0) != sym;
      if (shifted)
        XTestFakeKeyEvent (display, shift, True, CurrentTime);
      XTestFakeKeyEvent (display, code, True, CurrentTime);
      XTestFakeKeyEvent (display, code, False, CurrentTime);
      if (shifted)
        XTestFakeKeyEvent (display, shift, False, CurrentTime);
    }
  XFlush (display);
}

/* Without a window manager nobody gives the window the keyboard: the
 * person's click would, so the test does. */
static void
focus_window (TwWindow *window)
{
  GtkNative *native = GTK_NATIVE (window);
  Display *display = x_display (GTK_WIDGET (window));

  XSetInputFocus (display, gdk_x11_surface_get_xid (gtk_native_get_surface (native)),
                  RevertToParent, CurrentTime);
  XFlush (display);
  tw_test_wait_until (tw_test_window_active, window, WAIT_MS, "the window to get the keyboard");
}

/* The person clicks the field with the id @id, which gets the keyboard,
 * and types @text, which the field then shows. */
static void
person_fills (Fixture    *fixture,
              const char *id,
              const char *text)
{
  g_autofree char *selector = g_strconcat ("#", id, NULL);
  g_autofree char *value = g_strdup_printf ("document.querySelector('%s').value", selector);

  person_clicks (fixture->view, selector);
  tw_test_view_wait_for_string (fixture->view, "document.activeElement.id", id, WAIT_MS);
  focus_window (fixture->window);
  person_types (fixture->view, text);
  tw_test_view_wait_for_string (fixture->view, value, text, WAIT_MS);
}

/* The tab and the bar */

typedef struct
{
  TwBrowserTab *tab;
  guint         n;
} StepsWait;

static gboolean
steps_reached (gpointer data)
{
  StepsWait *wait = data;

  return tw_browser_tab_get_n_demonstrated_steps (wait->tab) >= wait->n;
}

static void
wait_for_steps (TwBrowserTab *tab,
                guint         n)
{
  StepsWait wait = { tab, n };

  tw_test_wait_until (steps_reached, &wait, WAIT_MS, "the person's steps");
}

static gboolean
asked (gpointer data)
{
  return tw_browser_tab_get_demonstrate_message (data) != NULL;
}

static void
start_demonstration (Fixture *fixture)
{
  fixture->call = tw_test_start_asking_tool (fixture->browser, &tw_test_ada, "browser_demonstration",
                                             fixture->tab, "Show me how you sign up.", 0, asked,
                                             fixture->tab, &fixture->state);
}

/* The person stops recording with the bar; the agent's call answers. */
static JsonObject *
person_stops (Fixture *fixture)
{
  g_assert_true (tw_demonstration_bar_stop (fixture->bar));
  return tw_test_await_tool_ok (&fixture->state, "browser_demonstration");
}

static char *
ref_of (Fixture    *fixture,
        const char *role_and_name)
{
  g_autofree char *args = tw_test_tab_id_args (fixture->tab);
  g_autoptr(JsonObject) snapshot = NULL;

  snapshot = tw_test_call_tool_ok (TW_BROWSER_SERVICE (fixture->browser), &tw_test_ada,
                                   "browser_snapshot", args);

  return tw_test_find_ref (tw_test_result_text (snapshot), role_and_name);
}

static void
agent_clicks (Fixture    *fixture,
              const char *role_and_name)
{
  g_autofree char *ref = ref_of (fixture, role_and_name);
  g_autofree char *args = NULL;
  g_autoptr(JsonObject) result = NULL;

  g_assert_nonnull (ref);
  args = g_strdup_printf ("{\"browserId\": \"%s\", \"ref\": \"%s\"}",
                          tw_browser_tab_get_id (fixture->tab), ref);
  result = tw_test_call_tool_ok (TW_BROWSER_SERVICE (fixture->browser), &tw_test_ada, "browser_click", args);
}

static void
test_demonstrated (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(JsonObject) replayed = NULL;
  g_autofree char *flow_path = NULL;
  g_autofree char *thanks = g_strconcat (base_url, "submit", NULL);
  g_autofree char *opened = g_strdup_printf ("3. click button \"Send\" → opened %s", thanks);
  const char *text;

  /* Demonstrate… in the tab's menu: the bar shows, named for the flow. */
  g_assert_false (tw_demonstration_bar_get_shown (fixture->bar));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.demonstrate-tab", "s",
                                             tw_browser_tab_get_id (fixture->tab)));
  g_assert_true (tw_browser_tab_get_demonstrating (fixture->tab));
  g_assert_true (tw_demonstration_bar_get_shown (fixture->bar));
  g_assert_cmpstr (tw_demonstration_bar_get_name (fixture->bar), ==, "Demonstration 1");

  /* The agent asks, and waits; its other calls on the tab go on
   * meanwhile, and are none of the person's steps. */
  start_demonstration (fixture);
  g_assert_cmpuint (fixture->state.n_progress, >=, 1);
  agent_clicks (fixture, "checkbox \"Subscribe\"");
  agent_clicks (fixture, "button \"Shuffle\"");
  tw_test_view_wait_for_string (fixture->view, "String(document.querySelector('#subscribe').checked)", "true", WAIT_MS);
  g_assert_false (fixture->state.done);

  /* The person: types an address, ticks the box, sends. */
  person_fills (fixture, "email", "a@b.c");
  person_clicks (fixture->view, "#agree");
  tw_test_view_wait_for_string (fixture->view, "String(document.querySelector('#agree').checked)", "true", WAIT_MS);
  person_clicks (fixture->view, "#send");
  wait_for_steps (fixture->tab, 3);
  tw_test_view_wait_for_string (fixture->view, "document.title", "Thanks", WAIT_MS);
  g_assert_cmpuint (posted->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (posted, 0), ==, "email=a%40b.c&agree=on");

  result = person_stops (fixture);
  text = tw_test_result_text (result);
  g_assert_nonnull (strstr (text, "The person demonstrated 3 steps"));
  g_assert_nonnull (strstr (text, "flow: Demonstration 1"));
  g_assert_nonnull (strstr (text, "\n1. fill textbox \"Email\" = \"a@b.c\"\n"));
  g_assert_nonnull (strstr (text, "\n2. check checkbox \"I agree\"\n"));
  g_assert_nonnull (strstr (text, opened));
  g_assert_null (strstr (text, "Subscribe"));
  g_assert_null (strstr (text, "Shuffle"));
  g_assert_false (tw_browser_tab_get_demonstrating (fixture->tab));
  g_assert_null (tw_browser_tab_get_demonstrate_message (fixture->tab));
  g_assert_false (tw_demonstration_bar_get_shown (fixture->bar));

  flow_path = g_build_filename (tw_timeline_get_dir (fixture->timeline), "flows",
                                "Demonstration 1.jsonl", NULL);
  g_assert_true (g_file_test (flow_path, G_FILE_TEST_IS_REGULAR));

  /* The flow runs again in a new tab, and the server gets the same form. */
  replayed = tw_test_call_tool_ok (TW_BROWSER_SERVICE (fixture->browser), &tw_test_ada, "browser_replay",
                                   "{\"flow\": \"Demonstration 1\"}");
  g_test_message ("%s", tw_test_result_text (replayed));
  g_assert_nonnull (strstr (tw_test_result_text (replayed), "every step as recorded"));
  g_assert_cmpstr (json_object_get_string_member (tw_test_result_structured (replayed), "browserId"),
                   !=, tw_browser_tab_get_id (fixture->tab));
  g_assert_cmpuint (posted->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (posted, 1), ==, g_ptr_array_index (posted, 0));
}

static void
test_discarded (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(JsonObject) result = NULL;
  g_autofree char *flows = NULL;

  start_demonstration (fixture);
  /* Asked, the bar offers to start. */
  g_assert_true (tw_demonstration_bar_get_shown (fixture->bar));
  g_assert_true (tw_demonstration_bar_start (fixture->bar, NULL));
  g_assert_false (tw_demonstration_bar_start (fixture->bar, NULL));

  person_clicks (fixture->view, "#agree");
  tw_test_view_wait_for_string (fixture->view, "String(document.querySelector('#agree').checked)", "true", WAIT_MS);
  wait_for_steps (fixture->tab, 1);
  g_assert_true (tw_demonstration_bar_discard (fixture->bar));
  g_assert_false (tw_demonstration_bar_discard (fixture->bar));

  result = tw_test_await_tool_ok (&fixture->state, "browser_demonstration");
  g_assert_true (g_str_has_prefix (tw_test_result_text (result),
                                   "The person discarded the demonstration; nothing was saved."));
  g_assert_cmpstr (json_object_get_string_member (tw_test_result_structured (result), "outcome"),
                   ==, "discarded");
  g_assert_false (tw_demonstration_bar_get_shown (fixture->bar));

  /* Nothing saved. */
  flows = g_build_filename (tw_timeline_get_dir (fixture->timeline), "flows", NULL);
  g_assert_false (g_file_test (flows, G_FILE_TEST_EXISTS));
}

/* Enter in a field sends its form: the field's value, then the key, which
 * opened the next page. */
static void
test_enter (Fixture       *fixture,
            gconstpointer  data)
{
  Display *display = x_display (GTK_WIDGET (fixture->view));
  KeyCode enter = XKeysymToKeycode (display, XK_Return);
  g_autoptr(JsonObject) result = NULL;
  g_autofree char *opened = g_strdup_printf ("\n2. press Enter in textbox \"Email\" → opened %ssubmit",
                                             base_url);
  const char *text;

  start_demonstration (fixture);
  g_assert_true (tw_demonstration_bar_start (fixture->bar, NULL));
  person_fills (fixture, "email", "x@y.z");
  XTestFakeKeyEvent (display, enter, True, CurrentTime);
  XTestFakeKeyEvent (display, enter, False, CurrentTime);
  XFlush (display);
  tw_test_view_wait_for_string (fixture->view, "document.title", "Thanks", WAIT_MS);
  wait_for_steps (fixture->tab, 2);

  result = person_stops (fixture);
  text = tw_test_result_text (result);
  g_assert_nonnull (strstr (text, "The person demonstrated 2 steps"));
  g_assert_nonnull (strstr (text, "\n1. fill textbox \"Email\" = \"x@y.z\"\n"));
  g_assert_nonnull (strstr (text, opened));
  g_assert_cmpuint (posted->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (posted, 0), ==, "email=x%40y.z");
}

/* A password's step is kept, never its value. */
static void
test_password (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(JsonObject) result = NULL;
  g_autofree char *structured = NULL;
  g_autofree char *flow_path = NULL;
  g_autofree char *flow = NULL;
  const char *text;

  start_demonstration (fixture);
  g_assert_true (tw_demonstration_bar_start (fixture->bar, "sign in"));

  person_fills (fixture, "pin", "hunter2");
  person_clicks (fixture->view, "#agree");
  wait_for_steps (fixture->tab, 2);

  result = person_stops (fixture);
  text = tw_test_result_text (result);
  g_assert_nonnull (strstr (text, "flow: sign in"));
  g_assert_nonnull (strstr (text, "\"PIN\" = ••• (a password: its value is never recorded"));
  g_assert_nonnull (strstr (text, "\n2. check checkbox \"I agree\""));
  structured = tw_test_object_to_string (tw_test_result_structured (result));
  g_assert_null (strstr (text, "hunter2"));
  g_assert_null (strstr (structured, "hunter2"));

  flow_path = g_build_filename (tw_timeline_get_dir (fixture->timeline), "flows", "sign in.jsonl", NULL);
  g_assert_true (g_file_get_contents (flow_path, &flow, NULL, NULL));
  g_assert_null (strstr (flow, "hunter2"));
}

static void
test_bad_input (Fixture       *fixture,
                gconstpointer  data)
{
  tw_test_check_asking_tool_input (fixture->browser, &tw_test_ada, "browser_demonstration", fixture->tab);

  /* None of them left a call waiting or started a recording. */
  g_assert_null (tw_browser_tab_get_demonstrate_message (fixture->tab));
  g_assert_false (tw_browser_tab_get_demonstrating (fixture->tab));
  g_assert_false (tw_demonstration_bar_get_shown (fixture->bar));
  /* Stopping or discarding what does not record does nothing. */
  g_assert_false (tw_demonstration_bar_stop (fixture->bar));
  g_assert_false (tw_demonstration_bar_discard (fixture->bar));

  /* A call that is cancelled while it waits ends, and the person is no
   * longer asked. */
  {
    g_autoptr(JsonObject) cancelled = NULL;

    start_demonstration (fixture);
    g_cancellable_cancel (tw_tool_call_get_cancellable (fixture->call));
    cancelled = tw_test_await_tool (&fixture->state, "browser_demonstration");
    g_assert_true (tw_test_result_is_error (cancelled));
    g_assert_null (tw_browser_tab_get_demonstrate_message (fixture->tab));
    g_clear_pointer (&fixture->call, tw_tool_call_unref);
  }

  /* A call that waits on a tab that closes ends at once, saying so. */
  {
    g_autoptr(JsonObject) closed = NULL;

    start_demonstration (fixture);
    tw_browser_close_tab (fixture->browser, fixture->tab);
    closed = tw_test_await_tool (&fixture->state, "browser_demonstration");
    g_assert_cmpstr (tw_test_result_error_code (closed), ==, "browser_not_found");
    g_test_message ("%s", tw_test_result_text (closed));
  }
}

static const TwTestFixtureCase demonstrate_cases[] = {
  TW_TEST_FIXTURE_CASE ("/ui/teach/demonstrate/demonstrated", test_demonstrated),
  TW_TEST_FIXTURE_CASE ("/ui/teach/demonstrate/discarded", test_discarded),
  TW_TEST_FIXTURE_CASE ("/ui/teach/demonstrate/enter", test_enter),
  TW_TEST_FIXTURE_CASE ("/ui/teach/demonstrate/password", test_password),
  TW_TEST_FIXTURE_CASE ("/ui/teach/demonstrate/bad-input", test_bad_input),
};

int
main (int   argc,
      char *argv[])
{
  int ret;

  tw_test_init_gtk (&argc, &argv, adw_init);
  /* The bars over the tab appear at once, so the page stays where the
   * person's pointer aims. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  if (!GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    {
      tw_test_skip_or_fail ("the person's input is real X input (XTEST): no X display");
      return 0;
    }

  posted = g_ptr_array_new_with_free_func (g_free);
  TW_TEST_ADD_FIXTURE_CASES (Fixture, demonstrate_cases, fixture_set_up, fixture_tear_down);
  ret = tw_test_run_with_server (serve, &base_url);
  g_clear_pointer (&posted, g_ptr_array_unref);

  return ret;
}
