/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <libsoup/soup.h>

#include "tw-action-overlay.h"
#include "tw-activity-feed.h"
#include "tw-agent-badge.h"
#include "tw-agent-colours.h"
#include "tw-agent-marks.h"
#include "tw-agent-terminal.h"
#include "tw-browser.h"
#include "tw-overview.h"
#include "tw-window.h"
#include "tw-test-webview.h"
#include "tw-test-window.h"
#include "tw-test-widgets.h"

/* Many agents, one workspace (issue 32): each running agent has a colour
 * and a mark of its own, which its tabs, its pointer and highlight, its
 * rows in the activity feed and its terminal show; and the overview shows
 * every agent and every tab at once, and brings a tab forward when the
 * person picks it. The tests drive real tool calls through real windows. */

static const TwCaller claude = { "claude-1", "Claude Code #1", 0 };
static const TwCaller codex = { "codex-2", "Codex #1", 0 };

static char *base_url;

static void
serve_cb (SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query)
{
  tw_test_serve_html (msg,
                      "<!doctype html><html><head><title>Garden</title></head>"
                      "<body style='margin: 0; font: 16px sans-serif'>"
                      "<button style='margin: 60px 80px; padding: 12px 30px'>Water</button>"
                      "</body></html>");
}

/* Marks, without a display */

static void
test_marks (void)
{
  g_autoptr(TwAgentMarks) marks = tw_agent_marks_new (TW_BROWSER_N_AGENT_COLOURS);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);
  const char *mark_a = NULL;
  const char *mark_b = NULL;
  const char *mark = NULL;
  int colour_a = -1;
  int colour_b = -1;
  int colour = -1;

  /* Two of the same kind: different colours, the initial and the number. */
  tw_agent_marks_take (marks, "a", "Claude Code #1");
  tw_agent_marks_take (marks, "b", "Claude Code #2");
  g_assert_true (tw_agent_marks_lookup (marks, "a", &colour_a, &mark_a));
  g_assert_true (tw_agent_marks_lookup (marks, "b", &colour_b, &mark_b));
  g_assert_cmpint (colour_a, !=, colour_b);
  g_assert_cmpstr (mark_a, ==, "C");
  g_assert_cmpstr (mark_b, ==, "2");

  /* The person and unknown agents have none. */
  g_assert_false (tw_agent_marks_lookup (marks, "person", &colour, &mark));
  g_assert_cmpint (colour, ==, -1);
  g_assert_null (mark);

  /* An agent that ends keeps its own while nobody takes them: a new agent
   * gets a colour nobody had, and the old one comes back as it was. */
  tw_agent_marks_release (marks, "b");
  tw_agent_marks_take (marks, "c", "Gemini CLI #1");
  g_assert_true (tw_agent_marks_lookup (marks, "c", &colour, &mark));
  g_assert_cmpint (colour, !=, colour_a);
  g_assert_cmpint (colour, !=, colour_b);
  g_assert_cmpstr (mark, ==, "G");
  tw_agent_marks_take (marks, "b", "Claude Code #2");
  g_assert_true (tw_agent_marks_lookup (marks, "b", &colour, &mark));
  g_assert_cmpint (colour, ==, colour_b);
  g_assert_cmpstr (mark, ==, "2");

  /* What another running agent took meanwhile is not given back. */
  tw_agent_marks_release (marks, "a");
  tw_agent_marks_take (marks, "d", "Codex #1");
  g_assert_true (tw_agent_marks_lookup (marks, "d", NULL, &mark));
  g_assert_cmpstr (mark, ==, "C");
  tw_agent_marks_take (marks, "a", "Claude Code #1");
  g_assert_true (tw_agent_marks_lookup (marks, "a", &colour, &mark));
  g_assert_cmpstr (mark, !=, "C");

  /* However many run, no two share a mark, and the first four's colours
   * all differ. */
  for (guint i = 0; i < 30; i++)
    {
      g_autofree char *id = g_strdup_printf ("many-%u", i);
      g_autofree char *name = g_strdup_printf ("Claude Code #%u", i + 3);

      tw_agent_marks_take (marks, id, name);
    }
  for (guint i = 0; i < 34; i++)
    {
      static const char *first[] = { "a", "b", "c", "d" };
      g_autofree char *id = i < 4 ? g_strdup (first[i]) : g_strdup_printf ("many-%u", i - 4);

      g_assert_true (tw_agent_marks_lookup (marks, id, &colour, &mark));
      g_assert_cmpint (colour, >=, 0);
      g_assert_cmpint (colour, <, TW_BROWSER_N_AGENT_COLOURS);
      if (i < 4)
        g_assert_false (g_hash_table_contains (colours, GINT_TO_POINTER (colour + 1)));
      g_hash_table_add (colours, GINT_TO_POINTER (colour + 1));
      g_assert_false (g_hash_table_contains (seen, mark));
      g_hash_table_add (seen, (gpointer) mark);
    }
}

/* Pixels */

typedef struct
{
  guint8 *data;
  gsize   stride;
  int     width;
  int     height;
} Pixels;

static void
pixels_clear (Pixels *pixels)
{
  g_clear_pointer (&pixels->data, g_free);
}

static void
download (GdkTexture *texture,
          Pixels     *pixels)
{
  pixels->width = gdk_texture_get_width (texture);
  pixels->height = gdk_texture_get_height (texture);
  pixels->stride = (gsize) pixels->width * 4;
  pixels->data = g_malloc0 (pixels->stride * pixels->height);
  gdk_texture_download (texture, pixels->data, pixels->stride);
}

/* Whether the pixel at (@x, @y), its alpha taken out, is @colour within
 * @tolerance in each channel. */
static gboolean
pixel_is (const Pixels  *pixels,
          int            x,
          int            y,
          const GdkRGBA *colour,
          int            tolerance)
{
  const guint8 *p;
  double alpha;

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, pixels->width);
  g_assert_cmpint (y, <, pixels->height);

  /* Cairo's and GDK's default: B, G, R, A, premultiplied. */
  p = pixels->data + y * pixels->stride + x * 4;
  alpha = p[3] / 255.0;
  if (alpha < 0.5)
    return FALSE;

  return ABS (p[2] / alpha - colour->red * 255) <= tolerance &&
         ABS (p[1] / alpha - colour->green * 255) <= tolerance &&
         ABS (p[0] / alpha - colour->blue * 255) <= tolerance;
}

/* What @widget shows now, rendered as its window would render it. */
static GdkTexture *
render_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_to_node (snapshot);
  g_assert_nonnull (node);

  return gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                      &GRAPHENE_RECT_INIT (0, 0, width, height));
}

/* With TW_TEST_SCREENSHOT_DIR set, keeps a picture of @widget there. */
static void
keep_screenshot (GtkWidget  *widget,
                 const char *name)
{
  const char *dir = g_getenv ("TW_TEST_SCREENSHOT_DIR");
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;

  texture = render_widget (widget);
  path = g_build_filename (dir, name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

/* The window */

/* The tab strip's page of @tab: the strip follows the model's order. */
static AdwTabPage *
page_of (TwWindow     *window,
         TwBrowserTab *tab)
{
  GListModel *tabs = tw_browser_get_tabs (tw_window_get_browser (window));
  guint position = 0;

  g_assert_true (g_list_store_find (G_LIST_STORE (tabs), tab, &position));

  return adw_tab_view_get_nth_page (tw_window_get_tab_view (window), (int) position);
}

/* The badge of an agent's tab in the tab strip: its colour's shape, filled
 * with the colour, and its mark. */
static void
assert_tab_badge (TwWindow     *window,
                  TwBrowserTab *tab,
                  int           colour)
{
  AdwTabPage *page = page_of (window, tab);
  GIcon *icon = adw_tab_page_get_indicator_icon (page);
  Pixels pixels = { 0 };
  GdkRGBA rgba;

  g_assert_true (GDK_IS_TEXTURE (icon));
  download (GDK_TEXTURE (icon), &pixels);
  tw_agent_colour_get_rgba (colour, &rgba);
  /* Left of the mark, inside every shape. */
  g_assert_true (pixel_is (&pixels, pixels.width / 4, pixels.height / 2, &rgba, 3));
  pixels_clear (&pixels);
}

typedef struct
{
  GtkWidget  *root;
  int         colour;
  const char *mark;
} BadgeQuery;


static gboolean
has_badge (GtkWidget  *root,
           int         colour,
           const char *mark)
{
  if (TW_IS_AGENT_BADGE (root) && gtk_widget_get_mapped (root) &&
      tw_agent_badge_get_colour (TW_AGENT_BADGE (root)) == colour &&
      g_strcmp0 (tw_agent_badge_get_mark (TW_AGENT_BADGE (root)), mark) == 0)
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_badge (child, colour, mark))
      return TRUE;

  return FALSE;
}

static gboolean
shows_badge (gpointer data)
{
  BadgeQuery *query = data;

  return has_badge (query->root, query->colour, query->mark);
}

static void
test_tabs_feed_terminal (void)
{
  g_autoptr(TwBrowser) browser = tw_browser_new (NULL, NULL);
  g_autoptr(JsonObject) ignored = NULL;
  TwAgentTerminal *terminal;
  TwWindow *window;
  TwBrowserTab *tab_a;
  TwBrowserTab *tab_b;
  TwBrowserTab *person_tab;
  const char *mark_a = NULL;
  const char *mark_b = NULL;
  int colour_a = -1;
  int colour_b = -1;
  BadgeQuery query;

  tw_browser_add_agent (browser, claude.agent_id, claude.agent_name);
  tw_browser_add_agent (browser, codex.agent_id, codex.agent_name);
  window = tw_test_window_new (browser, "garden", "/tmp", 1280, 800);

  /* Two agents: two colours, two marks. */
  g_assert_true (tw_browser_get_agent_mark (browser, claude.agent_id, &colour_a, &mark_a));
  g_assert_true (tw_browser_get_agent_mark (browser, codex.agent_id, &colour_b, &mark_b));
  g_assert_cmpint (colour_a, !=, colour_b);
  g_assert_cmpstr (mark_a, !=, mark_b);
  g_assert_cmpint (tw_agent_colour_get_shape (colour_a), !=, tw_agent_colour_get_shape (colour_b));

  /* Their tabs wear their badges; the person's tab none. */
  person_tab = tw_browser_open_tab (browser, NULL);
  tab_a = tw_test_open_tab (browser, &claude, NULL);
  tab_b = tw_test_open_tab (browser, &codex, NULL);
  assert_tab_badge (window, tab_a, colour_a);
  assert_tab_badge (window, tab_b, colour_b);
  g_assert_true (adw_tab_page_get_indicator_icon (page_of (window, tab_a)) !=
                 adw_tab_page_get_indicator_icon (page_of (window, tab_b)));
  g_assert_null (adw_tab_page_get_indicator_icon (page_of (window, person_tab)));
  g_assert_cmpstr (adw_tab_page_get_indicator_tooltip (page_of (window, tab_a)), ==,
                   "Driven by Claude Code #1");

  /* A tab handed to the other agent takes its badge. */
  g_assert_true (tw_browser_give_tab (browser, tab_a, codex.agent_id));
  assert_tab_badge (window, tab_a, colour_b);
  g_assert_true (tw_browser_give_tab (browser, tab_a, claude.agent_id));
  assert_tab_badge (window, tab_a, colour_a);

  /* Their rows in the activity feed carry the same badges. */
  ignored = tw_test_call_tool_ok (TW_BROWSER_SERVICE (browser), &claude, "browser_list_tabs", "{}");
  query = (BadgeQuery) { tw_window_get_activity_feed (window), colour_a, mark_a };
  tw_test_wait_until (shows_badge, &query, TW_TEST_WAIT_MS, "the feed to show Claude Code's badge");
  query = (BadgeQuery) { tw_window_get_activity_feed (window), colour_b, mark_b };
  tw_test_wait_until (shows_badge, &query, TW_TEST_WAIT_MS, "the feed to show Codex's badge");

  /* And an agent's terminal, its colour along the top and its badge. */
  terminal = tw_agent_terminal_new ();
  g_object_ref_sink (terminal);
  g_assert_cmpint (tw_agent_terminal_get_colour (terminal), ==, -1);
  tw_agent_terminal_set_agent (terminal, colour_b, mark_b, codex.agent_name);
  g_assert_cmpint (tw_agent_terminal_get_colour (terminal), ==, colour_b);
  g_object_unref (terminal);

  tw_test_window_close (window, &browser);
}

/* The overlay: the agent's colour on its pointer and highlight */

typedef struct
{
  TwActionOverlay *overlay;
  int              colour;
  gboolean         started;
  gboolean         outlined;
  gboolean         highlight_ok;
} OverlayCheck;

/* As the click starts, the overlay takes it up in the agent's colour. */
static void
action_started_cb (TwBrowserTab *tab,
                   TwTabAction  *action,
                   OverlayCheck *check)
{
  if (check->started || !g_str_equal (action->tool, "click"))
    return;

  check->started = TRUE;
  check->colour = tw_action_overlay_get_agent_colour (check->overlay);
}

/* Once the overlay outlines the element the click went to, its highlight
 * is drawn in the agent's colour. */
static void
action_updated_cb (TwBrowserTab *tab,
                   TwTabAction  *action,
                   OverlayCheck *check)
{
  GtkWidget *widget = GTK_WIDGET (check->overlay);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  graphene_rect_t box;
  Pixels pixels = { 0 };
  GdkRGBA rgba;

  if (check->outlined || !g_str_equal (action->tool, "click") ||
      !tw_action_overlay_get_highlight (check->overlay, &box))
    return;

  check->outlined = TRUE;
  g_assert_cmpint (tw_action_overlay_get_agent_colour (check->overlay), ==, check->colour);

  /* What the overlay draws now, rendered as the window would. */
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  download (texture, &pixels);

  /* The outline runs a few pixels outside the element's box. */
  tw_agent_colour_get_rgba (check->colour, &rgba);
  for (int dx = 1; dx <= 6 && !check->highlight_ok; dx++)
    check->highlight_ok = pixel_is (&pixels, (int) (box.origin.x - dx),
                                    (int) (box.origin.y + box.size.height / 2), &rgba, 40);
  pixels_clear (&pixels);
}

static void
test_overlay (void)
{
  g_autoptr(TwBrowser) browser = tw_browser_new (NULL, NULL);
  g_autofree char *url = g_strconcat (base_url, "garden", NULL);
  g_autoptr(JsonObject) snapshot = NULL;
  g_autoptr(JsonObject) clicked = NULL;
  g_autofree char *args = NULL;
  g_autofree char *ref = NULL;
  OverlayCheck check = { 0 };
  TwBrowserTab *tab;
  TwWindow *window;
  int colour = -1;

  tw_browser_add_agent (browser, claude.agent_id, claude.agent_name);
  tw_browser_add_agent (browser, codex.agent_id, codex.agent_name);
  window = tw_window_new (NULL, browser, "garden", "/tmp");
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 800);
  tw_window_set_overlay_animations (window, FALSE);
  tw_window_set_follow_agents (window, TRUE);
  gtk_window_present (GTK_WINDOW (window));

  /* Codex's click is drawn in Codex's colour. */
  tab = tw_test_open_tab (browser, &codex, url);
  check.overlay = TW_ACTION_OVERLAY (tw_window_get_action_overlay (window, tab));
  check.colour = -2;
  g_signal_connect_after (tab, "action-started", G_CALLBACK (action_started_cb), &check);
  g_signal_connect_after (tab, "action-updated", G_CALLBACK (action_updated_cb), &check);
  tw_test_tab_wait_laid_out (tab, "the page to be laid out in the window");

  args = tw_test_tab_id_args (tab);
  snapshot = tw_test_call_tool_ok (TW_BROWSER_SERVICE (browser), &codex, "browser_snapshot", args);
  ref = tw_test_find_ref (tw_test_result_text (snapshot), "button \"Water\"");
  g_free (args);
  args = g_strdup_printf ("{\"browserId\": \"%s\", \"ref\": \"%s\"}", tw_browser_tab_get_id (tab), ref);
  /* How the click ends is the page's business, and slow pages time out. */
  clicked = tw_test_call_tool (TW_BROWSER_SERVICE (browser), &codex, "browser_click", args);

  g_assert_true (check.started);
  g_assert_true (tw_browser_get_agent_mark (browser, codex.agent_id, &colour, NULL));
  g_assert_cmpint (check.colour, ==, colour);
  /* On a machine so loaded that the page could not answer in time, the
   * click never got as far as its element. */
  if (!tw_test_result_is_error (clicked))
    {
      g_assert_true (check.outlined);
      g_assert_true (check.highlight_ok);
    }
  else
    {
      g_test_message ("the click failed (%s): the highlight was not drawn",
                      tw_test_result_error_code (clicked));
    }

  g_signal_handlers_disconnect_by_data (tab, &check);
  tw_test_window_close (window, &browser);
}

/* The overview */

static gboolean
widget_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

static gboolean
doing_mentions_new_tab (gpointer data)
{
  const char *doing = tw_overview_get_agent_doing (data, "agent-3");

  return doing != NULL && strstr (doing, "new_tab") != NULL;
}

static void
test_overview (void)
{
  g_autoptr(TwBrowser) browser = tw_browser_new (NULL, NULL);
  TwCaller agents[4];
  g_autofree char *ids[4] = { NULL };
  g_autofree char *names[4] = { NULL };
  TwBrowserTab *tabs[12];
  TwBrowserTab *person_tab;
  TwOverview *overview;
  TwWindow *window;
  GtkWidget *scrolled;
  GtkAdjustment *adjustment;
  GAction *action;

  for (guint i = 0; i < 4; i++)
    {
      ids[i] = g_strdup_printf ("agent-%u", i);
      names[i] = g_strdup_printf ("Agent #%u", i + 1);
      agents[i] = (TwCaller) { ids[i], names[i], 0 };
      tw_browser_add_agent (browser, ids[i], names[i]);
    }

  window = tw_test_window_new (browser, "garden", "/tmp", 1280, 800);

  person_tab = tw_browser_open_tab (browser, NULL);
  for (guint i = 0; i < 12; i++)
    tabs[i] = tw_test_open_tab (browser, &agents[i % 4], NULL);

  /* From the header bar's button, as win.overview. */
  overview = TW_OVERVIEW (tw_window_get_overview (window));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (overview)));
  action = g_action_map_lookup_action (G_ACTION_MAP (window), "overview");
  g_action_activate (action, NULL);
  tw_test_wait_until (widget_mapped, overview, TW_TEST_WAIT_MS, "the overview to show");

  /* Every tab, under the agent it belongs to; the person's under theirs. */
  for (guint i = 0; i < 12; i++)
    {
      g_assert_nonnull (tw_overview_get_card (overview, tabs[i]));
      g_assert_cmpstr (tw_overview_get_card_group (overview, tabs[i]), ==, ids[i % 4]);
    }
  g_assert_cmpstr (tw_overview_get_card_group (overview, person_tab), ==, "");
  g_assert_true (tw_test_label_shows (GTK_WIDGET (overview), "Agent #3"));
  g_assert_true (tw_test_label_shows (GTK_WIDGET (overview), "Your Tabs"));
  g_assert_true (tw_test_label_shows (GTK_WIDGET (overview), "4 agents · 13 tabs"));

  /* Each with its agent's badge and what it did last. */
  for (guint i = 0; i < 4; i++)
    {
      int colour = -1;
      const char *mark = NULL;

      g_assert_true (tw_browser_get_agent_mark (browser, ids[i], &colour, &mark));
      g_assert_true (has_badge (GTK_WIDGET (overview), colour, mark));
    }
  tw_test_wait_until (doing_mentions_new_tab, overview, TW_TEST_WAIT_MS, "the overview to say what Agent #4 did");

  /* It all fits a 1280 × 800 window, with no scrolling. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  keep_screenshot (GTK_WIDGET (window), "overview.png");
  scrolled = tw_test_find_widget (GTK_WIDGET (overview), GTK_TYPE_SCROLLED_WINDOW);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), <=, gtk_adjustment_get_page_size (adjustment));

  /* A tab that waits for the person says so. */
  tw_browser_tab_set_paused (tabs[5], TRUE);
  g_assert_nonnull (tw_overview_get_waiting (overview, tabs[5]));
  tw_overview_set_waiting (overview, tabs[6], "Asks to run script");
  g_assert_cmpstr (tw_overview_get_waiting (overview, tabs[6]), ==, "Asks to run script");
  tw_overview_set_waiting (overview, tabs[6], NULL);
  g_assert_null (tw_overview_get_waiting (overview, tabs[6]));
  g_assert_null (tw_overview_get_waiting (overview, tabs[7]));

  /* Picking a card brings its tab forward and leaves the overview. */
  tw_overview_activate_card (overview, tabs[7], FALSE);
  g_assert_true (adw_tab_view_get_selected_page (tw_window_get_tab_view (window)) == page_of (window, tabs[7]));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (overview)));
  g_assert_false (g_variant_get_boolean (g_action_get_state (action)));
  g_assert_null (tw_overview_get_card (overview, tabs[7]));

  /* Taking one over pauses its agents, then brings it forward. */
  g_action_activate (action, NULL);
  tw_test_wait_until (widget_mapped, overview, TW_TEST_WAIT_MS, "the overview to show again");
  tw_overview_activate_card (overview, tabs[2], TRUE);
  g_assert_true (tw_browser_tab_get_paused (tabs[2]));
  g_assert_true (adw_tab_view_get_selected_page (tw_window_get_tab_view (window)) == page_of (window, tabs[2]));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (overview)));

  tw_test_window_close (window, &browser);
}

int
main (int   argc,
      char *argv[])
{
  tw_test_init_gtk (&argc, &argv, adw_init);
  g_test_add_func ("/webview/agent-marks", test_marks);
  g_test_add_func ("/ui/agent-colours/tabs-feed-terminal", test_tabs_feed_terminal);
  g_test_add_func ("/ui/agent-colours/overlay", test_overlay);
  g_test_add_func ("/ui/overview", test_overview);

  return tw_test_run_with_server (serve_cb, &base_url);
}
