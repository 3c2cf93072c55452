/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <libsoup/soup.h>

#include "tw-action-overlay.h"
#include "tw-browser.h"
#include "tw-window.h"
#include "tw-test-webview.h"
#include "tw-test-window.h"

/* The overlay that shows what an agent does: its highlight must sit exactly
 * on the element the agent acted on, in the overlay's own coordinates,
 * whether the page had to scroll, the element lives in an iframe, or the
 * page is zoomed. The tests drive real tool calls through a real window. */

static char *base_url;

static const char page_html[] =
  "<!doctype html><html><head><title>Overlay</title><style>"
  "body { margin: 0; font: 16px sans-serif; }"
  ".spacer { height: 1600px; }"
  "button { margin: 10px 40px; padding: 8px 20px; }"
  "iframe { display: block; width: 420px; height: 220px; border: 3px solid #888; margin: 20px 60px; }"
  "</style></head><body>"
  "<h1>Top</h1><button id='top'>Near Top</button>"
  "<div class='spacer'></div>"
  "<button id='far'>Far Down</button>"
  "<iframe src='/frame' title='Embedded'></iframe>"
  "<div class='spacer'></div>"
  "</body></html>";

static const char frame_html[] =
  "<!doctype html><html><body style='margin: 12px'>"
  "<div style='height: 70px'></div><button id='inner' style='margin-left: 30px'>Inside Frame</button>"
  "</body></html>";

static void
serve_cb (SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query)
{
  tw_test_serve_html (msg, g_str_equal (path, "/frame") ? frame_html : page_html);
}

/* Runs tool @name with the JSON arguments @args as the agent, the way the
 * MCP server does, and returns its CallToolResult object; it must succeed. */
static JsonObject *
call_ok (TwBrowser  *browser,
         const char *name,
         const char *args)
{
  return tw_test_call_tool_ok (TW_BROWSER_SERVICE (browser), &tw_test_agent, name, args);
}

/* A window with the fixture page open in an agent's tab it shows. */
typedef struct
{
  TwBrowser    *browser;
  TwWindow     *window;
  TwBrowserTab *tab;
  const char   *browser_id;  /* the tab's */
  char         *snapshot;
} Fixture;

static gboolean
overlay_has_no_caption (gpointer data)
{
  return tw_action_overlay_get_caption (data) == NULL;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *url = g_strconcat (base_url, "page", NULL);
  g_autoptr(JsonObject) snapshot = NULL;
  g_autofree char *snapshot_args = NULL;

  fixture->browser = tw_browser_new (NULL, NULL);
  fixture->window = tw_test_window_new (fixture->browser, "overlay", "/tmp", 1100, 800);

  /* Following the agent brings its new tab to the front, where it is drawn. */
  tw_window_set_follow_agents (fixture->window, TRUE);

  fixture->tab = tw_test_open_tab (fixture->browser, &tw_test_agent, url);
  fixture->browser_id = tw_browser_tab_get_id (fixture->tab);

  /* Let the view get its size on screen, and the page its viewport of that
   * size. */
  tw_test_tab_wait_laid_out (fixture->tab, "the page to be laid out in the view's size on screen");

  snapshot_args = tw_test_tab_id_args (fixture->tab);
  snapshot = call_ok (fixture->browser, "browser_snapshot", snapshot_args);
  fixture->snapshot = g_strdup (tw_test_result_text (snapshot));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_pointer (&fixture->snapshot, g_free);
  tw_test_window_close (fixture->window, &fixture->browser);
}

/* Runs @script in the page's own world, as a person's devtools would, and
 * returns its JSON value. */
static JsonObject *
page_evaluate (Fixture    *fixture,
               const char *script)
{
  g_autofree char *wrapped = g_strdup_printf ("JSON.stringify((%s)())", script);
  g_autoptr(JSCValue) value = tw_test_view_evaluate (tw_browser_tab_get_view (fixture->tab),
                                                     wrapped, TW_TEST_WAIT_MS);
  g_autofree char *json = jsc_value_to_string (value);

  return tw_test_parse_object (json);
}

/* The element's box in CSS pixels of the page's viewport, as the page
 * itself measures it now: @function returns {x, y, width, height}. */
static graphene_rect_t
page_box (Fixture    *fixture,
          const char *function)
{
  g_autoptr(JsonObject) box = page_evaluate (fixture, function);

  return GRAPHENE_RECT_INIT (json_object_get_double_member (box, "x"),
                             json_object_get_double_member (box, "y"),
                             json_object_get_double_member (box, "width"),
                             json_object_get_double_member (box, "height"));
}

static TwActionOverlay *
get_overlay (Fixture *fixture)
{
  GtkWidget *overlay = tw_window_get_action_overlay (fixture->window, fixture->tab);

  g_assert_true (TW_IS_ACTION_OVERLAY (overlay));
  return TW_ACTION_OVERLAY (overlay);
}

/* What the overlay showed once the click had answered: read at once, as the
 * outcome stays only LINGER_MS, and what the test asks of the page after
 * may take longer than that on a busy machine. */
typedef struct
{
  gboolean         has_highlight;
  graphene_rect_t  highlight;
  char            *caption;
} Shown;

static void
shown_clear (Shown *shown)
{
  g_clear_pointer (&shown->caption, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Shown, shown_clear)

static void
click (Fixture    *fixture,
       const char *ref,
       Shown      *shown)
{
  g_autofree char *args = g_strdup_printf ("{\"browserId\": \"%s\", \"ref\": \"%s\"}",
                                           fixture->browser_id, ref);
  g_autoptr(JsonObject) result = call_ok (fixture->browser, "browser_click", args);
  TwActionOverlay *overlay = get_overlay (fixture);

  shown->has_highlight = tw_action_overlay_get_highlight (overlay, &shown->highlight);
  shown->caption = g_strdup (tw_action_overlay_get_caption (overlay));
}

/* Asserts that the overlay outlines @css (a box in CSS pixels of the page)
 * where the person sees it: scaled by the page zoom, from the view's
 * corner, which is the overlay's own corner while the page fills the tab. */
static void
assert_highlight (Fixture               *fixture,
                  const Shown           *shown,
                  const graphene_rect_t *css)
{
  TwActionOverlay *overlay = get_overlay (fixture);
  WebKitWebView *view = tw_browser_tab_get_view (fixture->tab);
  double zoom = webkit_web_view_get_zoom_level (view);
  graphene_point_t origin;
  graphene_rect_t highlight = shown->highlight;

  g_assert_true (gtk_widget_compute_point (GTK_WIDGET (view), GTK_WIDGET (overlay),
                                           &GRAPHENE_POINT_INIT (0, 0), &origin));
  g_assert_cmpfloat_with_epsilon (origin.x, 0, 0.5);
  g_assert_cmpfloat_with_epsilon (origin.y, 0, 0.5);

  g_assert_true (shown->has_highlight);
  g_assert_cmpfloat_with_epsilon (highlight.origin.x, css->origin.x * zoom, 1.0);
  g_assert_cmpfloat_with_epsilon (highlight.origin.y, css->origin.y * zoom, 1.0);
  g_assert_cmpfloat_with_epsilon (highlight.size.width, css->size.width * zoom, 1.0);
  g_assert_cmpfloat_with_epsilon (highlight.size.height, css->size.height * zoom, 1.0);

  /* It sits inside what the person sees. */
  g_assert_cmpfloat (highlight.origin.y, >=, 0);
  g_assert_cmpfloat (highlight.origin.y + highlight.size.height, <=,
                     gtk_widget_get_height (GTK_WIDGET (overlay)));
}

#define FAR_BOX \
  "() => { const r = document.getElementById('far').getBoundingClientRect(); " \
  "return { x: r.x, y: r.y, width: r.width, height: r.height }; }"

#define INNER_BOX \
  "() => { const f = document.querySelector('iframe'); const fr = f.getBoundingClientRect(); " \
  "const r = f.contentDocument.getElementById('inner').getBoundingClientRect(); " \
  "return { x: fr.x + f.clientLeft + r.x, y: fr.y + f.clientTop + r.y, width: r.width, height: r.height }; }"

static void
test_scrolled (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *ref = tw_test_find_ref (fixture->snapshot, "button \"Far Down\"");
  g_autoptr(JsonObject) scrolled = NULL;
  g_auto(Shown) shown = { 0 };
  graphene_rect_t box;

  /* Nothing to show before the agent acts. */
  g_assert_null (tw_action_overlay_get_caption (get_overlay (fixture)));

  click (fixture, ref, &shown);

  /* The button was 1600 px down: clicking scrolled the page to it. */
  scrolled = page_evaluate (fixture, "() => ({ y: window.scrollY })");
  g_assert_cmpint (json_object_get_int_member (scrolled, "y"), >, 500);

  box = page_box (fixture, FAR_BOX);
  assert_highlight (fixture, &shown, &box);
  g_assert_cmpstr (shown.caption, ==, "Test Agent: click “Far Down”");
}

/* The agent clicks the button inside the frame: the highlight covers it
 * where the person sees it, and the caption names it. */
static void
assert_click_inside_frame (Fixture *fixture)
{
  g_autofree char *ref = tw_test_find_ref (fixture->snapshot, "button \"Inside Frame\"");
  g_auto(Shown) shown = { 0 };
  graphene_rect_t box;

  click (fixture, ref, &shown);

  box = page_box (fixture, INNER_BOX);
  assert_highlight (fixture, &shown, &box);
  g_assert_cmpstr (shown.caption, ==, "Test Agent: click “Inside Frame”");
}

static void
test_iframe (Fixture       *fixture,
             gconstpointer  data)
{
  assert_click_inside_frame (fixture);
}

static void
test_zoom (Fixture       *fixture,
           gconstpointer  data)
{
  /* The person zoomed in: CSS pixels are 1.5 widget pixels now. */
  webkit_web_view_set_zoom_level (tw_browser_tab_get_view (fixture->tab), 1.5);
  tw_test_tab_wait_laid_out (fixture->tab, "the page to be laid out at the new zoom");

  assert_click_inside_frame (fixture);
}

static void
test_typing_and_failure (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *ref = tw_test_find_ref (fixture->snapshot, "button \"Near Top\"");
  g_autofree char *args = NULL;
  g_autoptr(JsonObject) failed = NULL;
  TwActionOverlay *overlay = get_overlay (fixture);
  g_auto(Shown) shown = { 0 };
  graphene_rect_t highlight;

  /* Without animations the outcome shows at once, and the same way. */
  tw_action_overlay_set_animations (overlay, FALSE);
  click (fixture, ref, &shown);
  g_assert_true (shown.has_highlight);
  g_assert_cmpstr (shown.caption, ==, "Test Agent: click “Near Top”");

  /* A ref the page does not have: no box, and the caption says why. */
  args = g_strdup_printf ("{\"browserId\": \"%s\", \"ref\": \"@e999\"}", fixture->browser_id);
  failed = tw_test_call_tool (TW_BROWSER_SERVICE (fixture->browser), &tw_test_agent, "browser_click",
                              args);
  g_assert_true (json_object_get_boolean_member (failed, "isError"));
  g_assert_false (tw_action_overlay_get_highlight (overlay, &highlight));
  g_assert_cmpstr (tw_action_overlay_get_caption (overlay), ==,
                   "Test Agent: click @e999 — browser_stale_ref");

  /* It lets go a moment later. */
  tw_test_wait_until (overlay_has_no_caption, overlay, TW_TEST_WAIT_MS, "the failure's caption to go away");
}

static void
test_flash (Fixture       *fixture,
            gconstpointer  data)
{
  TwActionOverlay *overlay = get_overlay (fixture);
  graphene_rect_t rect = GRAPHENE_RECT_INIT (10, 20, 100, 30);
  graphene_rect_t highlight;

  tw_action_overlay_flash (overlay, &rect, "Test Agent: click “Near Top”");

  g_assert_true (tw_action_overlay_get_highlight (overlay, &highlight));
  g_assert_cmpfloat_with_epsilon (highlight.origin.x, 10, 0.5);
  g_assert_cmpfloat_with_epsilon (highlight.size.height, 30, 0.5);
  g_assert_cmpstr (tw_action_overlay_get_caption (overlay), ==, "Test Agent: click “Near Top”");
}

static const TwTestFixtureCase overlay_cases[] = {
  TW_TEST_FIXTURE_CASE ("/ui/overlay/highlight/scrolled", test_scrolled),
  TW_TEST_FIXTURE_CASE ("/ui/overlay/highlight/iframe", test_iframe),
  TW_TEST_FIXTURE_CASE ("/ui/overlay/highlight/zoom", test_zoom),
  TW_TEST_FIXTURE_CASE ("/ui/overlay/caption/outcome", test_typing_and_failure),
  TW_TEST_FIXTURE_CASE ("/ui/overlay/flash", test_flash),
};

int
main (int   argc,
      char *argv[])
{
  tw_test_init_gtk (&argc, &argv, adw_init);
  TW_TEST_ADD_FIXTURE_CASES (Fixture, overlay_cases, fixture_set_up, fixture_tear_down);

  return tw_test_run_with_server (serve_cb, &base_url);
}
