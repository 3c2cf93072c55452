/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <libsoup/soup.h>
#include <glib/gstdio.h>
#include <string.h>

#include "tw-activity-feed.h"
#include "tw-browser.h"
#include "tw-browser-tab.h"
#include "tw-view-frame.h"
#include "tw-timeline.h"
#include "tw-timeline-view.h"
#include "tw-tool-registry.h"
#include "tw-web-context.h"
#include "tw-test-webview.h"

/* The timeline of a workspace, recorded from real tool calls on real WebKit
 * tabs: the calls in order with their arguments, results and elements, and
 * small pictures before and after each action that show what it did. */

/* The fixture server's address, with a slash at the end. */
static char *base_url;

/* A button that turns the page from red to green, and a field. */
static const char page_head[] =
  "<!DOCTYPE html><html><head><title>Switch</title><style>"
  "html, body { margin: 0; height: 100%; background: rgb(255, 0, 0); }"
  "body.on { background: rgb(0, 255, 0); }"
  "button, input { position: absolute; top: 600px; left: 1000px; font-size: 20px; }"
  "input { top: 700px; }"
  "</style></head><body>"
  "<button onclick=\"document.body.className = 'on'\">";
static const char page_tail[] =
  "</button>"
  "<input aria-label=\"Note\">"
  "</body></html>";

/* What the page's button says: a changed page renames it. */
static const char *button_label = "Switch";

static void
serve_cb (SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query)
{
  if (g_str_equal (path, "/other"))
    {
      tw_test_serve_html (msg, "<!DOCTYPE html><title>Other</title><p>Another page</p>");
      return;
    }
  {
    g_autofree char *html = g_strconcat (page_head, button_label, page_tail, NULL);

    tw_test_serve_html (msg, html);
  }
}

/* Runs @tool as Ada with the arguments made from the format that follows;
 * it must succeed. */
#define call_ok(ws, tool, ...) tw_test_call_ok_printf (TW_BROWSER_SERVICE ((ws)->browser), &tw_test_ada, (tool), __VA_ARGS__)

static char *
open_tab (TwTestRecording *ws)
{
  g_autoptr(JsonObject) result = call_ok (ws, "browser_new_tab", "{\"url\": \"%s\"}", base_url);

  return g_strdup (json_object_get_string_member (tw_test_result_structured (result), "browserId"));
}

/* Ada reads the page of the tab @id: the refs of its button and, unless
 * @note is NULL, of its field. */
static void
read_refs (TwTestRecording *ws,
           const char      *id,
           char           **button,
           char           **note)
{
  g_autoptr(JsonObject) snapshot = call_ok (ws, "browser_snapshot", "{\"browserId\": \"%s\"}", id);

  *button = tw_test_find_ref (tw_test_result_text (snapshot), "button \"Switch\"");
  if (note != NULL)
    *note = tw_test_find_ref (tw_test_result_text (snapshot), "textbox \"Note\"");
}

static void
click (TwTestRecording *ws,
       const char      *id,
       const char      *ref)
{
  g_autoptr(JsonObject) clicked = call_ok (ws, "browser_click", "{\"browserId\": \"%s\", \"ref\": \"%s\"}",
                                           id, ref);
}

static void
fill (TwTestRecording *ws,
      const char      *id,
      const char      *ref,
      const char      *value)
{
  g_autoptr(JsonObject) filled = call_ok (ws, "browser_fill",
                                          "{\"browserId\": \"%s\", \"ref\": \"%s\", \"value\": \"%s\"}",
                                          id, ref, value);
}

/* The lines of a session file, parsed. */
static GPtrArray *
read_session (TwTestRecording *ws,
              const char      *agent_id)
{
  g_autofree char *path = tw_timeline_dup_session_path (ws->timeline, agent_id);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *steps = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);

  tw_test_wait_for_timeline (ws->timeline);
  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return steps;

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i][0] != '\0')
        g_ptr_array_add (steps, tw_test_parse_object (lines[i]));
    }

  return steps;
}

/* The picture a line names: small, and read back. */
static GdkPixbuf *
load_picture (TwTestRecording *ws,
              JsonObject      *step,
              const char      *which)
{
  const char *relative = json_object_get_string_member_with_default (step, which, NULL);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf st;
  GdkPixbuf *pixbuf;

  if (relative == NULL)
    g_error ("%s has no %s picture", json_object_get_string_member (step, "tool"), which);
  path = g_build_filename (tw_timeline_get_dir (ws->timeline), relative, NULL);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_size, <, 64 * 1024);
  pixbuf = gdk_pixbuf_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), <=, TW_TIMELINE_IMAGE_WIDTH);

  return pixbuf;
}

typedef struct
{
  guint8 red;
  guint8 green;
  guint8 blue;
} Colour;

/* The page before its button is pressed, after, and the other page. */
static const Colour red = { 255, 0, 0 };
static const Colour green = { 0, 255, 0 };
static const Colour white = { 255, 255, 255 };

/* The colour in the middle of the top-left part of a picture: JPEG is
 * lossy, so near enough. */
static void
assert_colour (GdkPixbuf    *pixbuf,
               const Colour *colour)
{
  const guchar *p = gdk_pixbuf_get_pixels (pixbuf) + 20 * gdk_pixbuf_get_rowstride (pixbuf) +
                    20 * gdk_pixbuf_get_n_channels (pixbuf);

  g_assert_cmpint (ABS ((int) p[0] - colour->red), <=, 24);
  g_assert_cmpint (ABS ((int) p[1] - colour->green), <=, 24);
  g_assert_cmpint (ABS ((int) p[2] - colour->blue), <=, 24);
}

/* The pictures of @step show the page in @before before its action and
 * in @after after it. */
static void
assert_pictures (TwTestRecording *ws,
                 JsonObject      *step,
                 const Colour    *before,
                 const Colour    *after)
{
  g_autoptr(GdkPixbuf) before_picture = load_picture (ws, step, "before");
  g_autoptr(GdkPixbuf) after_picture = load_picture (ws, step, "after");

  assert_colour (before_picture, before);
  assert_colour (after_picture, after);
}

static void
test_calls_in_order (void)
{
  TwTestRecording *ws = tw_test_recording_new (10 * 1024 * 1024);
  g_autofree char *id = open_tab (ws);
  g_autoptr(JsonObject) navigated = NULL;
  g_autoptr(GPtrArray) steps = NULL;
  g_autoptr(GdkPixbuf) opened = NULL;
  g_autofree char *button = NULL;
  g_autofree char *note = NULL;
  static const char * const tools[] = {
    "browser_new_tab", "browser_snapshot", "browser_click", "browser_fill", "browser_navigate",
  };
  JsonObject *clicked;
  JsonObject *element;

  read_refs (ws, id, &button, &note);
  click (ws, id, button);
  fill (ws, id, note, "hello");
  navigated = call_ok (ws, "browser_navigate", "{\"browserId\": \"%s\", \"url\": \"%sother\"}", id,
                       base_url);

  steps = read_session (ws, tw_test_ada.agent_id);
  g_assert_cmpuint (steps->len, ==, G_N_ELEMENTS (tools));
  for (guint i = 0; i < steps->len; i++)
    {
      JsonObject *step = g_ptr_array_index (steps, i);

      g_assert_cmpstr (json_object_get_string_member (step, "tool"), ==, tools[i]);
      g_assert_cmpstr (json_object_get_string_member (step, "agentId"), ==, "agent-ada");
      g_assert_true (json_object_get_boolean_member (step, "ok"));
      g_assert_cmpfloat (json_object_get_double_member (step, "durationMs"), >=, 0);
      g_assert_cmpstr (json_object_get_string_member (step, "browserId"), ==, id);
      if (i > 0)
        g_assert_cmpint (json_object_get_int_member (step, "seq"), >,
                         json_object_get_int_member (g_ptr_array_index (steps, i - 1), "seq"));
    }

  /* Reading the page changes nothing: no pictures. */
  g_assert_false (json_object_has_member (g_ptr_array_index (steps, 1), "before"));
  g_assert_nonnull (strstr (json_object_get_string_member (g_ptr_array_index (steps, 1), "result"),
                            "button \"Switch\""));

  /* The click: its arguments, the element, and the page before (red) and
   * after (green). */
  clicked = g_ptr_array_index (steps, 2);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (clicked, "arguments"),
                                                  "ref"), ==, button);
  element = json_object_get_object_member (clicked, "element");
  g_assert_cmpstr (json_object_get_string_member (element, "role"), ==, "button");
  g_assert_cmpstr (json_object_get_string_member (element, "name"), ==, "Switch");
  assert_pictures (ws, clicked, &red, &green);

  /* The navigation: from the green page to the white one. */
  assert_pictures (ws, g_ptr_array_index (steps, 4), &green, &white);

  /* Read back as the viewer reads it: typed steps, oldest first. */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GListModel) loaded = NULL;
    g_autoptr(TwTimelineStep) step = NULL;

    tw_timeline_load_async (ws->timeline, NULL, tw_test_store_result_cb, NULL);
    result = tw_test_await_result (60000, "the timeline to be read");
    loaded = tw_timeline_load_finish (ws->timeline, result, NULL);
    g_assert_cmpuint (g_list_model_get_n_items (loaded), ==, G_N_ELEMENTS (tools));
    step = g_list_model_get_item (loaded, 2);
    g_assert_cmpstr (tw_timeline_step_get_tool (step), ==, "browser_click");
    g_assert_cmpstr (tw_timeline_step_get_target (step), ==, "button \"Switch\"");
    g_assert_cmpstr (tw_timeline_step_get_agent_name (step), ==, "Ada");
    g_assert_true (g_file_test (tw_timeline_step_get_before_path (step), G_FILE_TEST_IS_REGULAR));
    g_assert_true (g_file_test (tw_timeline_step_get_after_path (step), G_FILE_TEST_IS_REGULAR));
    g_assert_null (tw_timeline_step_get_error (step));
  }

  /* The new tab has its first picture after it opened. */
  opened = load_picture (ws, g_ptr_array_index (steps, 0), "after");
  assert_colour (opened, &red);

  tw_test_recording_free (ws);
}

static gboolean
view_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

/* A tab on screen, as in a window: its pictures after are taken once the
 * replies have gone, and still show the page before and after each
 * action, the picture after a call standing for the next one's before. */
static void
test_on_screen (void)
{
  TwTestRecording *ws = tw_test_recording_new (10 * 1024 * 1024);
  g_autofree char *id = open_tab (ws);
  g_autoptr(GPtrArray) steps = NULL;
  g_autofree char *button = NULL;
  g_autofree char *note = NULL;
  TwBrowserTab *tab = tw_browser_lookup_tab (ws->browser, id);
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  WebKitWebView *view = tw_browser_tab_get_view (tab);

  gtk_window_set_default_size (window, 1280, 800);
  gtk_window_set_child (window, GTK_WIDGET (tw_browser_tab_get_frame (tab)));
  gtk_window_present (window);
  tw_test_wait_until (view_mapped, view, 60000, "the tab to be on screen");

  read_refs (ws, id, &button, &note);
  click (ws, id, button);
  fill (ws, id, note, "x");

  steps = read_session (ws, tw_test_ada.agent_id);
  g_assert_cmpuint (steps->len, ==, 4);
  g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (steps, 2), "tool"), ==, "browser_click");
  assert_pictures (ws, g_ptr_array_index (steps, 2), &red, &green);
  /* The fill's picture before is the click's after. */
  assert_pictures (ws, g_ptr_array_index (steps, 3), &green, &green);

  gtk_window_destroy (window);
  tw_test_recording_free (ws);
}

/* An agent that sends its next call as soon as a click answers, as agent
 * programs do within one turn: the second call begins from the click's
 * reply, before anything else runs. */
typedef struct
{
  TwTestRecording *ws;
  const char      *tool;
  char            *arguments;
  TwTestOutcome    clicked;
  TwTestOutcome    second;
  TwToolCall      *second_call;
} BackToBack;

static void
clicked_then_cb (TwToolCall   *call,
                 JsonNode     *result,
                 const GError *error,
                 gpointer      user_data)
{
  BackToBack *run = user_data;

  tw_test_outcome_done_cb (call, result, error, &run->clicked);
  run->second_call = tw_test_start_tool (TW_BROWSER_SERVICE (run->ws->browser), &tw_test_ada, run->tool,
                                         run->arguments, &run->second);
}

static void
click_then (TwTestRecording *ws,
            const char      *id,
            const char      *ref,
            const char      *tool,
            const char      *arguments)
{
  g_autofree char *click_arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"ref\": \"%s\"}", id, ref);
  g_autoptr(JsonObject) click_args = tw_test_parse_object (click_arguments);
  g_autoptr(TwToolCall) call = NULL;
  g_autoptr(JsonObject) clicked = NULL;
  g_autoptr(JsonObject) second = NULL;
  BackToBack run = { ws, tool, g_strdup (arguments) };

  call = tw_tool_call_new (tw_tool_registry_lookup ("browser_click"), click_args,
                           TW_BROWSER_SERVICE (ws->browser), &tw_test_ada, NULL);
  tw_tool_call_set_done_func (call, clicked_then_cb, &run, NULL);
  tw_tool_call_start (call);
  clicked = tw_test_await_tool_ok (&run.clicked, "the click");
  second = tw_test_await_tool_ok (&run.second, tool);
  g_clear_pointer (&run.second_call, tw_tool_call_unref);
  g_free (run.arguments);
}

/* Milliseconds from the end of the call of line @a to the end of that of
 * line @b. */
static double
ms_between_ends (JsonObject *a,
                 JsonObject *b)
{
  g_autoptr(GDateTime) a_time = g_date_time_new_from_iso8601 (json_object_get_string_member (a, "time"), NULL);
  g_autoptr(GDateTime) b_time = g_date_time_new_from_iso8601 (json_object_get_string_member (b, "time"), NULL);

  return g_date_time_difference (b_time, a_time) / 1000.0 +
         json_object_get_double_member (b, "durationMs") - json_object_get_double_member (a, "durationMs");
}

/* A read that follows a click at once does not wait for the click's picture
 * after: the picture is asked of WebKit once the read has answered, and
 * still shows the page the click left. A call that waits for the page, or
 * acts on it, comes after the picture instead. Lines stay in order. */
static void
test_read_after_action (void)
{
  TwTestRecording *ws = tw_test_recording_new (10 * 1024 * 1024);
  g_autofree char *id = open_tab (ws);
  g_autofree char *button = NULL;
  g_autofree char *snapshot = g_strdup_printf ("{\"browserId\": \"%s\", \"diff\": true}", id);
  g_autofree char *wait = g_strdup_printf ("{\"browserId\": \"%s\", \"text\": \"Switch\"}", id);
  g_autoptr(GPtrArray) steps = NULL;
  static const char * const tools[] = {
    "browser_new_tab", "browser_snapshot", "browser_click", "browser_snapshot", "browser_click",
    "browser_wait",
  };
  JsonObject *clicked;
  JsonObject *read;

  read_refs (ws, id, &button, NULL);
  click_then (ws, id, button, "browser_snapshot", snapshot);
  /* No call follows the snapshot for a while. */
  g_ptr_array_unref (read_session (ws, tw_test_ada.agent_id));
  click_then (ws, id, button, "browser_wait", wait);

  steps = read_session (ws, tw_test_ada.agent_id);
  g_assert_cmpuint (steps->len, ==, G_N_ELEMENTS (tools));
  for (guint i = 0; i < steps->len; i++)
    {
      g_assert_cmpstr (json_object_get_string_member (g_ptr_array_index (steps, i), "tool"), ==, tools[i]);
      if (i > 0)
        g_assert_cmpint (json_object_get_int_member (g_ptr_array_index (steps, i), "seq"), >,
                         json_object_get_int_member (g_ptr_array_index (steps, i - 1), "seq"));
    }

  /* The snapshot read the page the click made, and answered before the
   * click's picture after was asked for; that picture shows the page after
   * the click. */
  clicked = g_ptr_array_index (steps, 2);
  read = g_ptr_array_index (steps, 3);
  g_assert_nonnull (strstr (json_object_get_string_member (read, "result"), "Switch"));
  assert_pictures (ws, clicked, &red, &green);
  g_test_message ("The picture after the click was asked for %.1f ms after it ended, the snapshot "
                  "ended after %.1f ms", json_object_get_double_member (clicked, "afterMs"),
                  ms_between_ends (clicked, read));
  g_assert_cmpfloat (json_object_get_double_member (clicked, "afterMs"), >=, ms_between_ends (clicked, read));

  /* A wait for text comes after the picture of the click before it: the
   * picture is asked for as the wait begins. */
  clicked = g_ptr_array_index (steps, 4);
  read = g_ptr_array_index (steps, 5);
  assert_pictures (ws, clicked, &green, &green);
  g_assert_cmpfloat (json_object_get_double_member (clicked, "afterMs"), <=,
                     ms_between_ends (clicked, read) - json_object_get_double_member (read, "durationMs") + 1);

  tw_test_recording_free (ws);
}

/* The size of everything in @dir, files of sub-folders included. */
static guint64
folder_size (const char *dir,
             guint      *files)
{
  g_autoptr(GDir) folder = g_dir_open (dir, 0, NULL);
  guint64 total = 0;
  const char *name;

  while (folder != NULL && (name = g_dir_read_name (folder)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      GStatBuf st;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        total += folder_size (path, files);
      else if (g_stat (path, &st) == 0)
        {
          total += st.st_size;
          (*files)++;
        }
    }

  return total;
}

static void
test_size_limit (void)
{
  TwTestRecording *ws = tw_test_recording_new (12 * 1024);
  g_autofree char *id = open_tab (ws);
  g_autoptr(GPtrArray) steps = NULL;
  g_autofree char *images = NULL;
  guint files = 0;
  guint image_files = 0;
  guint64 session_size;

  for (int i = 0; i < 8; i++)
    {
      g_autoptr(JsonObject) scrolled = call_ok (ws, "browser_scroll",
                                                "{\"browserId\": \"%s\", \"deltaX\": 0, \"deltaY\": %d}",
                                                id, i % 2 == 0 ? 100 : -100);
    }

  /* A long script is kept as its beginning. */
  {
    g_autofree char *padding = g_strnfill (10000, ' ');
    g_autoptr(JsonObject) evaluated = call_ok (ws, "browser_evaluate",
                                               "{\"browserId\": \"%s\", \"function\": \"() => 1%s\"}",
                                               id, padding);
  }

  /* Every call is in the session; the oldest pictures made room. */
  steps = read_session (ws, tw_test_ada.agent_id);
  g_assert_cmpuint (steps->len, ==, 10);
  {
    JsonObject *evaluate = g_ptr_array_index (steps, 9);
    const char *arguments = json_object_get_string_member (evaluate, "arguments");

    g_assert_cmpstr (json_object_get_string_member (evaluate, "tool"), ==, "browser_evaluate");
    g_assert_true (g_str_has_prefix (arguments, "{\"browserId\":"));
    g_assert_cmpuint (strlen (arguments), <, 4100);
    g_assert_true (g_str_has_suffix (arguments, "…"));
  }
  session_size = folder_size (tw_timeline_get_dir (ws->timeline), &files) -
                 folder_size (images = g_build_filename (tw_timeline_get_dir (ws->timeline), "images", NULL),
                              &image_files);
  g_assert_cmpuint (folder_size (tw_timeline_get_dir (ws->timeline), &files), <=,
                    MAX (12 * 1024, session_size));
  /* 19 pictures were taken: the oldest went. */
  g_assert_cmpuint (image_files, <, 19);
  g_ptr_array_unref (g_steal_pointer (&steps));

  /* Limit 0: nothing more is recorded. */
  tw_timeline_set_max_bytes (ws->timeline, 0);
  {
    g_autoptr(JsonObject) scrolled = call_ok (ws, "browser_scroll",
                                              "{\"browserId\": \"%s\", \"deltaX\": 0, \"deltaY\": 10}", id);
  }
  steps = read_session (ws, tw_test_ada.agent_id);
  g_assert_cmpuint (steps->len, ==, 10);

  tw_test_recording_free (ws);
}

/* The viewer */

static gboolean
view_ready (gpointer data)
{
  TwTimelineView *view = data;

  return g_list_model_get_n_items (tw_timeline_view_get_steps (view)) > 0 &&
         tw_timeline_view_get_pictures_shown (view);
}

static void
store_view_cb (TwActivityFeed  *feed,
               TwTimelineView  *view,
               TwTimelineView **out)
{
  *out = g_object_ref (view);
}

static void
store_string_cb (TwActivityFeed  *feed,
                 const char      *text,
                 char           **out)
{
  g_free (*out);
  *out = g_strdup (text);
}

static void
test_view (void)
{
  TwTestRecording *ws = tw_test_recording_new (10 * 1024 * 1024);
  g_autofree char *id = open_tab (ws);
  g_autofree char *other = open_tab (ws);
  g_autofree char *button = NULL;
  g_autofree char *shown_tab = NULL;
  g_autoptr(TwTimelineView) view = NULL;
  GtkWidget *feed;
  GtkWindow *window;
  TwTimelineStep *step;
  GListModel *steps;

  read_refs (ws, id, &button, NULL);
  click (ws, id, button);
  g_ptr_array_unref (read_session (ws, tw_test_ada.agent_id));

  /* The feed of a window, narrowed to the first tab, opens the timeline
   * on that tab's calls. */
  feed = tw_activity_feed_new (ws->browser);
  window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_child (window, feed);
  gtk_window_present (window);
  tw_activity_feed_set_timeline (TW_ACTIVITY_FEED (feed), ws->timeline);
  tw_activity_feed_set_tab_filter (TW_ACTIVITY_FEED (feed), id);
  g_signal_connect (feed, "timeline-opened", G_CALLBACK (store_view_cb), &view);
  g_signal_connect (feed, "show-tab", G_CALLBACK (store_string_cb), &shown_tab);
  tw_activity_feed_open_timeline (TW_ACTIVITY_FEED (feed));
  g_assert_nonnull (view);
  tw_test_wait_until (view_ready, view, 60000, "the timeline view to show its steps");

  /* new_tab, snapshot, click of the first tab; nothing of the other. */
  steps = tw_timeline_view_get_steps (view);
  g_assert_cmpuint (g_list_model_get_n_items (steps), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(TwTimelineStep) item = g_list_model_get_item (steps, i);

      g_assert_cmpstr (tw_timeline_step_get_browser_id (item), ==, id);
    }

  /* It opens on the newest step, the click, with both pictures. */
  step = tw_timeline_view_get_selected (view);
  g_assert_cmpstr (tw_timeline_step_get_tool (step), ==, "browser_click");
  g_assert_nonnull (tw_timeline_step_get_before_path (step));
  g_assert_nonnull (tw_timeline_step_get_after_path (step));

  /* A step back: the snapshot, which has no pictures. */
  tw_timeline_view_select (view, 1);
  tw_test_wait_until (view_ready, view, 60000, "the snapshot step to show");
  g_assert_cmpstr (tw_timeline_step_get_tool (tw_timeline_view_get_selected (view)), ==,
                   "browser_snapshot");

  /* Show Tab asks the window for the step's tab. */
  tw_timeline_view_show_tab (view);
  g_assert_cmpstr (shown_tab, ==, id);
  g_assert_cmpstr (id, !=, other);

  gtk_window_destroy (GTK_WINDOW (view));
  gtk_window_destroy (window);
  tw_test_recording_free (ws);
}

static gboolean
replay_done (gpointer data)
{
  return !tw_timeline_view_get_replaying (data);
}

/* The Replay button of the viewer: the session runs again in a new tab,
 * each step marked as it goes, and on a changed page the step that
 * differs is shown with what was expected and what was found. */
static void
test_view_replay (void)
{
  TwTestRecording *ws = tw_test_recording_new (10 * 1024 * 1024);
  g_autofree char *id = open_tab (ws);
  g_autofree char *button = NULL;
  g_autofree char *note = NULL;
  g_autoptr(JsonObject) tabs = NULL;
  g_autoptr(JsonObject) state = NULL;
  g_autoptr(TwTimelineView) view = NULL;
  g_autofree char *evaluate = NULL;
  const char *summary;
  const char *replay_tab;
  JsonArray *tab_list;

  read_refs (ws, id, &button, &note);
  fill (ws, id, note, "again");
  click (ws, id, button);
  g_ptr_array_unref (read_session (ws, tw_test_ada.agent_id));

  view = g_object_ref_sink (TW_TIMELINE_VIEW (tw_timeline_view_new (ws->timeline, NULL, NULL)));
  gtk_window_present (GTK_WINDOW (view));
  tw_test_wait_until (view_ready, view, 60000, "the timeline view to show its steps");
  g_assert_null (tw_timeline_view_get_replay_summary (view));

  /* From the newest step, the click: the whole session. */
  tw_timeline_view_replay (view);
  g_assert_true (tw_timeline_view_get_replaying (view));
  tw_test_wait_until (replay_done, view, 60000, "the replay to end");
  g_assert_cmpint (tw_timeline_view_get_replay_status (view, 0), ==, TW_REPLAY_STEP_SAME);
  g_assert_cmpint (tw_timeline_view_get_replay_status (view, 1), ==, TW_REPLAY_STEP_SKIPPED);
  g_assert_cmpint (tw_timeline_view_get_replay_status (view, 2), ==, TW_REPLAY_STEP_SAME);
  g_assert_cmpint (tw_timeline_view_get_replay_status (view, 3), ==, TW_REPLAY_STEP_SAME);
  summary = tw_timeline_view_get_replay_summary (view);
  g_assert_nonnull (strstr (summary, "every step as recorded"));

  /* The new tab is the person's, and its page went where the recorded one
   * did: the note filled in, the button pressed. */
  tabs = call_ok (ws, "browser_list_tabs", "{}");
  tab_list = json_object_get_array_member (tw_test_result_structured (tabs), "tabs");
  g_assert_cmpuint (json_array_get_length (tab_list), ==, 2);
  replay_tab = json_object_get_string_member (json_array_get_object_element (tab_list, 1), "browserId");
  g_assert_cmpstr (replay_tab, !=, id);
  g_assert_nonnull (strstr (summary, replay_tab));
  evaluate = g_strdup_printf ("{\"browserId\": \"%s\", \"function\": "
                              "\"() => document.body.className + ':' + "
                              "document.querySelector('input').value\"}", replay_tab);
  state = tw_test_call_tool_ok (TW_BROWSER_SERVICE (ws->browser), NULL, "browser_evaluate", evaluate);
  g_assert_cmpstr (json_object_get_string_member (tw_test_result_structured (state), "result"), ==,
                   "on:again");

  /* The page changed: its button is called Toggle now. */
  button_label = "Toggle";
  tw_timeline_view_replay (view);
  tw_test_wait_until (replay_done, view, 60000, "the replay of the changed page to end");
  button_label = "Switch";
  g_assert_cmpint (tw_timeline_view_get_replay_status (view, 2), ==, TW_REPLAY_STEP_SAME);
  g_assert_cmpint (tw_timeline_view_get_replay_status (view, 3), ==, TW_REPLAY_STEP_DIFFERS);
  summary = tw_timeline_view_get_replay_summary (view);
  g_assert_nonnull (strstr (summary, "expected button \"Switch\"; found button \"Toggle\""));
  /* The step that differs is shown, with both. */
  g_assert_cmpstr (tw_timeline_step_get_tool (tw_timeline_view_get_selected (view)), ==, "browser_click");
  g_assert_nonnull (strstr (tw_timeline_view_get_difference (view), "found button \"Toggle\""));

  gtk_window_destroy (GTK_WINDOW (view));
  tw_test_recording_free (ws);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  g_assert_nonnull (tw_web_context_get_shared ());

  g_test_add_func ("/timeline/calls-in-order", test_calls_in_order);
  g_test_add_func ("/timeline/size-limit", test_size_limit);
  g_test_add_func ("/timeline/on-screen", test_on_screen);
  g_test_add_func ("/timeline/read-after-action", test_read_after_action);
  g_test_add_func ("/timeline/view", test_view);
  g_test_add_func ("/timeline/view-replay", test_view_replay);

  return tw_test_run_with_server (serve_cb, &base_url);
}
