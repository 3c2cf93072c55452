/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gst/app/gstappsink.h>
#include <gst/pbutils/pbutils.h>
#include <gtk/gtk.h>
#include <libsoup/soup.h>
#include <stdio.h>
#include <string.h>

#include "tw-browser.h"
#include "tw-browser-tab.h"
#include "tw-tab-log.h"
#include "tw-timeline.h"
#include "tw-timeline-export.h"
#include "tw-timeline-video.h"
#include "tw-web-context.h"
#include "tw-test-webview.h"

/* Exporting a session recorded from real tool calls on a real WebKit tab:
 * the calls, their pictures, the tab's network as HAR 1.2 and its
 * console, in a folder a person can share. */

/* The fixture server's address, with a slash at the end. */
static char *base_url;

/* A button that fetches data and says so in the console. */
static const char page[] =
  "<!DOCTYPE html><html><head><title>Data</title><style>"
  "button { position: absolute; top: 300px; left: 400px; font-size: 20px; }"
  "</style></head><body>"
  "<button onclick=\"fetch('/data.json?kind=fruit').then(r => r.json())"
  ".then(d => console.log('fetched ' + d.fruit))\">Load</button>"
  "</body></html>";

static void
serve_cb (SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query)
{
  if (g_str_equal (path, "/data.json"))
    {
      static const char body[] = "{\"fruit\": \"apple\"}";

      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_append (soup_server_message_get_response_headers (msg), "X-Fruit", "apple");
      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, body, strlen (body));
      return;
    }
  if (g_str_equal (path, "/other"))
    {
      tw_test_serve_html (msg, "<!DOCTYPE html><title>Other</title><p>Another page</p>");
      return;
    }
  tw_test_serve_html (msg, page);
}

/* Runs @tool as Ada with the arguments made from the format that follows;
 * it must succeed. */
#define call_ok(browser, tool, ...) tw_test_call_ok_printf (TW_BROWSER_SERVICE (browser), &tw_test_ada, (tool), __VA_ARGS__)

/* The tab's log has the fetch's finished request and its console line. */
static gboolean
fetched (gpointer data)
{
  TwTabLog *log = data;
  g_autoptr(JsonArray) network = tw_tab_log_get_network (log, 0);
  g_autoptr(JsonArray) console = tw_tab_log_get_console (log, FALSE);
  gboolean request = FALSE;

  for (guint i = 0; i < json_array_get_length (network); i++)
    {
      JsonObject *entry = json_array_get_object_element (network, i);

      if (strstr (json_object_get_string_member (entry, "url"), "/data.json") != NULL &&
          g_str_equal (json_object_get_string_member (entry, "state"), "finished"))
        request = TRUE;
    }

  return request && json_array_get_length (console) > 0;
}

static JsonNode *
parse_file (const char *folder,
            const char *name)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);

  return json_node_ref (json_parser_get_root (parser));
}

static GStrv
read_lines (const char *folder,
            const char *name)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_strchomp (contents);

  return g_strsplit (contents, "\n", -1);
}

/* The members HAR 1.2 requires of an object. */
static void
assert_members (JsonObject         *object,
                const char * const *members)
{
  for (guint i = 0; members[i] != NULL; i++)
    if (!json_object_has_member (object, members[i]))
      g_error ("HAR object lacks \"%s\"", members[i]);
}

/* Reads the HAR as a HAR reader would, checking what 1.2 requires, and
 * returns its entries. */
static JsonArray *
read_har (const char *folder)
{
  static const char * const log_members[] = { "version", "creator", "entries", NULL };
  static const char * const creator_members[] = { "name", "version", NULL };
  static const char * const entry_members[] = { "startedDateTime", "time", "request", "response", "cache", "timings", NULL };
  static const char * const request_members[] = { "method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize", NULL };
  static const char * const response_members[] = { "status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize", NULL };
  static const char * const timings_members[] = { "send", "wait", "receive", NULL };
  g_autoptr(JsonNode) root = parse_file (folder, "network.har");
  JsonObject *log = json_object_get_object_member (json_node_get_object (root), "log");
  JsonArray *entries;

  g_assert_nonnull (log);
  assert_members (log, log_members);
  g_assert_cmpstr (json_object_get_string_member (log, "version"), ==, "1.2");
  assert_members (json_object_get_object_member (log, "creator"), creator_members);
  entries = json_object_get_array_member (log, "entries");
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);
      JsonObject *response;
      g_autoptr(GDateTime) started = NULL;

      assert_members (entry, entry_members);
      started = g_date_time_new_from_iso8601 (json_object_get_string_member (entry, "startedDateTime"), NULL);
      g_assert_nonnull (started);
      assert_members (json_object_get_object_member (entry, "request"), request_members);
      response = json_object_get_object_member (entry, "response");
      assert_members (response, response_members);
      g_assert_true (json_object_has_member (json_object_get_object_member (response, "content"), "size"));
      g_assert_true (json_object_has_member (json_object_get_object_member (response, "content"), "mimeType"));
      assert_members (json_object_get_object_member (entry, "timings"), timings_members);
    }

  return json_array_ref (entries);
}

static JsonObject *
find_entry (JsonArray  *entries,
            const char *url)
{
  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);

      if (g_str_equal (json_object_get_string_member (json_object_get_object_member (entry, "request"), "url"), url))
        return entry;
    }
  g_error ("The HAR has no request for %s", url);

  return NULL;
}

static gboolean
has_header (JsonObject *message,
            const char *name,
            const char *value)
{
  JsonArray *headers = json_object_get_array_member (message, "headers");

  for (guint i = 0; i < json_array_get_length (headers); i++)
    {
      JsonObject *header = json_array_get_object_element (headers, i);

      if (g_ascii_strcasecmp (json_object_get_string_member (header, "name"), name) == 0 &&
          g_str_equal (json_object_get_string_member (header, "value"), value))
        return TRUE;
    }

  return FALSE;
}

typedef struct
{
  char   *title;
  gint64  start;
  gint64  stop;
} Chapter;

static void
chapter_free (Chapter *chapter)
{
  g_free (chapter->title);
  g_free (chapter);
}

/* The video, read back by GStreamer's demuxer: a duration, a VP8 stream
 * and a chapter per call, which it returns. */
static GPtrArray *
check_video (const char *folder,
             guint       n_calls)
{
  g_autofree char *path = g_build_filename (folder, "video.webm", NULL);
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GstDiscoverer) discoverer = gst_discoverer_new (30 * GST_SECOND, &error);
  g_autoptr(GstDiscovererInfo) info = NULL;
  GPtrArray *found = g_ptr_array_new_with_free_func ((GDestroyNotify) chapter_free);
  GList *streams;
  const GstToc *toc;
  GList *editions;
  GstTocEntry *edition;
  GList *chapters;

  g_assert_no_error (error);
  info = gst_discoverer_discover_uri (discoverer, uri, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gst_discoverer_info_get_result (info), ==, GST_DISCOVERER_OK);
  g_assert_cmpuint (gst_discoverer_info_get_duration (info), >, 0);

  streams = gst_discoverer_info_get_video_streams (info);
  g_assert_cmpuint (g_list_length (streams), ==, 1);
  {
    g_autoptr(GstCaps) caps = gst_discoverer_stream_info_get_caps (streams->data);

    g_assert_cmpstr (gst_structure_get_name (gst_caps_get_structure (caps, 0)), ==, "video/x-vp8");
  }
  gst_discoverer_stream_info_list_free (streams);

  toc = gst_discoverer_info_get_toc (info);
  g_assert_nonnull (toc);
  editions = gst_toc_get_entries (toc);
  g_assert_cmpuint (g_list_length (editions), ==, 1);
  edition = editions->data;
  chapters = gst_toc_entry_get_sub_entries (edition);
  for (GList *link = chapters; link != NULL; link = link->next)
    {
      GstTocEntry *chapter = link->data;
      GstTagList *tags = gst_toc_entry_get_tags (chapter);
      Chapter *item = g_new0 (Chapter, 1);

      g_assert_cmpint (gst_toc_entry_get_entry_type (chapter), ==, GST_TOC_ENTRY_TYPE_CHAPTER);
      g_assert_true (gst_toc_entry_get_start_stop_times (chapter, &item->start, &item->stop));
      g_assert_cmpint (item->stop, >, item->start);
      if (tags != NULL)
        gst_tag_list_get_string (tags, GST_TAG_TITLE, &item->title);
      g_ptr_array_add (found, item);
    }
  g_assert_cmpuint (found->len, ==, n_calls);

  return found;
}

static Chapter *
find_chapter (GPtrArray  *chapters,
              const char *tool)
{
  for (guint i = 0; i < chapters->len; i++)
    {
      Chapter *chapter = g_ptr_array_index (chapters, i);

      if (chapter->title != NULL && strstr (chapter->title, tool) != NULL)
        return chapter;
    }
  g_error ("The video has no chapter of %s", tool);

  return NULL;
}

typedef struct
{
  GstClockTime  pts;
  int           width;
  int           height;
  guint8       *pixels;   /* RGBx, rows of width × 4 bytes */
} Frame;

static void
frame_free (Frame *frame)
{
  g_free (frame->pixels);
  g_free (frame);
}

/* Every frame of the video, decoded as a player would. */
static GPtrArray *
decode_frames (const char *folder)
{
  g_autofree char *path = g_build_filename (folder, "video.webm", NULL);
  g_autofree char *description = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GstElement) pipeline = NULL;
  g_autoptr(GstElement) sink = NULL;
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify) frame_free);
  GstSample *sample;

  description = g_strdup_printf ("filesrc name=source ! decodebin ! videoconvert ! "
                                 "video/x-raw,format=RGBx ! appsink name=sink sync=false");
  pipeline = gst_parse_launch (description, &error);
  g_assert_no_error (error);
  gst_object_ref_sink (pipeline);
  {
    g_autoptr(GstElement) source = gst_bin_get_by_name (GST_BIN (pipeline), "source");

    g_object_set (source, "location", path, NULL);
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_assert_cmpint (gst_element_set_state (pipeline, GST_STATE_PLAYING), !=, GST_STATE_CHANGE_FAILURE);

  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 30 * GST_SECOND)) != NULL)
    {
      GstBuffer *buffer = gst_sample_get_buffer (sample);
      GstStructure *structure = gst_caps_get_structure (gst_sample_get_caps (sample), 0);
      Frame *frame = g_new0 (Frame, 1);
      GstMapInfo map;

      g_assert_true (gst_structure_get_int (structure, "width", &frame->width));
      g_assert_true (gst_structure_get_int (structure, "height", &frame->height));
      frame->pts = GST_BUFFER_PTS (buffer);
      g_assert_true (gst_buffer_map (buffer, &map, GST_MAP_READ));
      g_assert_cmpuint (map.size, >=, (gsize) frame->width * frame->height * 4);
      frame->pixels = g_memdup2 (map.data, (gsize) frame->width * frame->height * 4);
      gst_buffer_unmap (buffer, &map);
      gst_sample_unref (sample);
      g_ptr_array_add (frames, frame);
    }
  g_assert_true (gst_app_sink_is_eos (GST_APP_SINK (sink)));
  gst_element_set_state (pipeline, GST_STATE_NULL);

  return frames;
}

/* Whether the frame's pixel at (@x, @y) is near @rgb ("#9141ac"): the
 * video is lossy. */
static gboolean
pixel_near (Frame      *frame,
            double      x,
            double      y,
            const char *rgb)
{
  unsigned int want[3];
  const guint8 *p;

  g_assert_cmpint (sscanf (rgb, "#%02x%02x%02x", &want[0], &want[1], &want[2]), ==, 3);
  g_assert_cmpint ((int) x, >=, 0);
  g_assert_cmpint ((int) y, >=, 0);
  g_assert_cmpint ((int) x, <, frame->width);
  g_assert_cmpint ((int) y, <, frame->height);
  p = frame->pixels + ((gsize) y * frame->width + (gsize) x) * 4;

  return ABS ((int) p[0] - (int) want[0]) <= 48 && ABS ((int) p[1] - (int) want[1]) <= 48 &&
         ABS ((int) p[2] - (int) want[2]) <= 48;
}

static void
test_export (void)
{
  g_autoptr(TwTestRecording) recording = tw_test_recording_new (10 * 1024 * 1024);
  TwBrowser *browser = recording->browser;
  TwTimeline *timeline = recording->timeline;
  g_autofree char *folder = g_build_filename (recording->data_dir, "shared", "export", NULL);
  g_autoptr(JsonObject) opened = NULL;
  g_autoptr(JsonObject) snapshot = NULL;
  g_autoptr(JsonObject) clicked = NULL;
  g_autoptr(JsonObject) navigated = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonArray) entries = NULL;
  g_autoptr(GPtrArray) chapters = NULL;
  g_autoptr(GPtrArray) frames = NULL;
  g_autofree char *rgb = NULL;
  double pointer_x = 0;
  double pointer_y = 0;
  g_auto(GStrv) calls = NULL;
  g_auto(GStrv) console = NULL;
  g_autofree char *id = NULL;
  g_autofree char *button = NULL;
  g_autofree char *page_url = NULL;
  g_autofree char *data_url = NULL;
  g_autofree char *other_url = NULL;
  static const char * const tools[] = {
    "browser_new_tab", "browser_snapshot", "browser_click", "browser_navigate",
  };
  TwBrowserTab *tab;
  JsonObject *data;
  JsonArray *query;
  guint pictures = 0;
  gssize n;

  /* Ada is an agent of the workspace: she has a colour and a mark. */
  tw_browser_add_agent (browser, tw_test_ada.agent_id, tw_test_ada.agent_name);
  page_url = g_strdup (base_url);
  data_url = g_strdup_printf ("%sdata.json?kind=fruit", base_url);
  opened = call_ok (browser, "browser_new_tab", "{\"url\": \"%s\"}", page_url);
  id = g_strdup (json_object_get_string_member (tw_test_result_structured (opened), "browserId"));
  snapshot = call_ok (browser, "browser_snapshot", "{\"browserId\": \"%s\"}", id);
  button = tw_test_find_ref (tw_test_result_text (snapshot), "button \"Load\"");
  clicked = call_ok (browser, "browser_click", "{\"browserId\": \"%s\", \"ref\": \"%s\"}", id, button);
  tab = tw_browser_lookup_tab (browser, id);
  tw_test_wait_until (fetched, tw_browser_tab_get_log (tab), 60000, "the page's fetch");
  navigated = call_ok (browser, "browser_navigate", "{\"browserId\": \"%s\", \"url\": \"%sother\"}", id, base_url);
  tw_test_wait_for_timeline (timeline);

  tw_timeline_export_async (timeline, tw_test_ada.agent_id, NULL, folder, NULL, tw_test_store_result_cb, NULL);
  result = tw_test_await_result (60000, "the export");
  n = tw_timeline_export_finish (timeline, result, &error);
  g_assert_no_error (error);
  g_assert_cmpint (n, ==, G_N_ELEMENTS (tools));

  /* The calls, in order, naming pictures inside the folder. */
  calls = read_lines (folder, "calls.jsonl");
  g_assert_cmpuint (g_strv_length (calls), ==, G_N_ELEMENTS (tools));
  for (guint i = 0; calls[i] != NULL; i++)
    {
      g_autoptr(JsonObject) call = tw_test_parse_object (calls[i]);
      const char *which[] = { "before", "after" };

      g_assert_cmpstr (json_object_get_string_member (call, "tool"), ==, tools[i]);
      g_assert_true (json_object_has_member (call, "result"));
      for (guint j = 0; j < G_N_ELEMENTS (which); j++)
        {
          const char *name = json_object_get_string_member_with_default (call, which[j], NULL);
          g_autofree char *path = NULL;
          g_autoptr(GdkPixbuf) pixbuf = NULL;

          if (name == NULL)
            continue;
          g_assert_true (g_str_has_prefix (name, "images/"));
          path = g_build_filename (folder, name, NULL);
          pixbuf = gdk_pixbuf_new_from_file (path, &error);
          g_assert_no_error (error);
          pictures++;
        }
    }
  /* At least the click's and the navigation's before and after. */
  g_assert_cmpuint (pictures, >=, 4);

  /* The page's requests: the document, and the fetch with its query,
   * response headers and body. */
  entries = read_har (folder);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (find_entry (entries, page_url), "response"),
                                               "status"), ==, 200);
  data = find_entry (entries, data_url);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (data, "response"), "status"), ==, 200);
  g_assert_true (has_header (json_object_get_object_member (data, "response"), "X-Fruit", "apple"));
  query = json_object_get_array_member (json_object_get_object_member (data, "request"), "queryString");
  g_assert_cmpuint (json_array_get_length (query), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (query, 0), "name"), ==, "kind");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (query, 0), "value"), ==, "fruit");
  other_url = g_strdup_printf ("%sother", base_url);
  find_entry (entries, other_url);

  /* The console. */
  console = read_lines (folder, "console.jsonl");
  {
    gboolean found = FALSE;

    for (guint i = 0; console[i] != NULL; i++)
      {
        g_autoptr(JsonObject) message = tw_test_parse_object (console[i]);

        if (g_strcmp0 (json_object_get_string_member_with_default (message, "text", NULL), "fetched apple") == 0)
          found = TRUE;
      }
    g_assert_true (found);
  }

  chapters = check_video (folder, G_N_ELEMENTS (tools));

  /* The click's line says where the overlay drew its pointer, in the
   * pictures' pixels, and in Ada's colour; the snapshot's says nothing. */
  {
    g_autoptr(JsonObject) click = tw_test_parse_object (calls[2]);
    g_autoptr(JsonObject) read = tw_test_parse_object (calls[1]);
    JsonObject *action = json_object_get_object_member (click, "action");
    JsonObject *at = json_object_get_object_member (action, "pointer");
    JsonObject *box = json_object_get_object_member (action, "highlight");
    int colour = -1;
    const char *mark = NULL;

    g_assert_true (tw_browser_get_agent_mark (browser, tw_test_ada.agent_id, &colour, &mark));
    g_assert_false (json_object_has_member (read, "action"));
    pointer_x = json_object_get_double_member (at, "x");
    pointer_y = json_object_get_double_member (at, "y");
    rgb = g_strdup (json_object_get_string_member (action, "rgb"));
    g_assert_cmpstr (json_object_get_string_member (action, "mark"), ==, mark);
    /* The button is at 400, 300 of the 1280 pixels wide viewport: a
     * quarter of that in the pictures, 320 wide; the point is in it. */
    g_assert_cmpfloat (json_object_get_double_member (box, "x"), >=, 99);
    g_assert_cmpfloat (json_object_get_double_member (box, "x"), <=, 101);
    g_assert_cmpfloat (json_object_get_double_member (box, "y"), >=, 74);
    g_assert_cmpfloat (json_object_get_double_member (box, "y"), <=, 76);
    g_assert_cmpfloat (pointer_x, >, json_object_get_double_member (box, "x"));
    g_assert_cmpfloat (pointer_x, <, json_object_get_double_member (box, "x") +
                       json_object_get_double_member (box, "width"));
    g_assert_cmpfloat (pointer_y, >, json_object_get_double_member (box, "y"));
    g_assert_cmpfloat (pointer_y, <, json_object_get_double_member (box, "y") +
                       json_object_get_double_member (box, "height"));
  }

  /* Played back: in the click's chapter the pointer is drawn at the
   * click's point, in Ada's colour (a little inside its tip); in the
   * snapshot's chapter, which did nothing, it is not. */
  frames = decode_frames (folder);
  {
    Chapter *clicked_chapter = find_chapter (chapters, "browser_click");
    Chapter *read_chapter = find_chapter (chapters, "browser_snapshot");
    guint with_pointer = 0;
    guint without = 0;

    for (guint i = 0; i < frames->len; i++)
      {
        Frame *frame = g_ptr_array_index (frames, i);

        if ((gint64) frame->pts >= clicked_chapter->start && (gint64) frame->pts < clicked_chapter->stop)
          {
            g_assert_true (pixel_near (frame, pointer_x + 2, pointer_y + 7, rgb));
            with_pointer++;
          }
        else if ((gint64) frame->pts >= read_chapter->start && (gint64) frame->pts < read_chapter->stop)
          {
            g_assert_false (pixel_near (frame, pointer_x + 2, pointer_y + 7, rgb));
            without++;
          }
      }
    g_assert_cmpuint (with_pointer, >=, 1);
    g_assert_cmpuint (without, >=, 1);
  }
}

/* A session without calls is not found, and nothing is written. */
static void
test_export_nothing (void)
{
  g_autoptr(TwTestRecording) recording = tw_test_recording_new (10 * 1024 * 1024);
  TwTimeline *timeline = recording->timeline;
  g_autofree char *folder = g_build_filename (recording->data_dir, "export", NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  tw_timeline_export_async (timeline, "nobody", NULL, folder, NULL, tw_test_store_result_cb, NULL);
  result = tw_test_await_result (60000, "the export");
  g_assert_cmpint (tw_timeline_export_finish (timeline, result, &error), ==, -1);
  g_assert_nonnull (error);
  g_assert_false (g_file_test (folder, G_FILE_TEST_EXISTS));
}

/* Lines of older versions say nothing of the action: they read back, and
 * their video is made without a pointer. */
static void
test_older_lines (void)
{
  g_autofree char *folder = g_dir_make_tmp ("tw-export-XXXXXX", NULL);
  g_autofree char *video = g_build_filename (folder, "video.webm", NULL);
  g_autoptr(GListStore) steps = g_list_store_new (TW_TYPE_TIMELINE_STEP);
  g_autoptr(GPtrArray) chapters = NULL;
  g_autoptr(GError) error = NULL;
  static const char * const lines[] = {
    "{\"seq\":1,\"time\":\"2025-01-01T10:00:00Z\",\"agentId\":\"ada\",\"tool\":\"browser_click\","
    "\"browserId\":\"b1\",\"arguments\":{\"ref\":\"@e1\"},\"durationMs\":12,"
    "\"element\":{\"ref\":\"@e1\",\"role\":\"button\",\"name\":\"Load\"},\"result\":\"Clicked\"}",
    "{\"seq\":2,\"agentId\":\"ada\",\"tool\":\"browser_click\",\"browserId\":\"b1\","
    "\"error\":{\"code\":\"browser_stale_ref\",\"message\":\"gone\"},\"result\":\"\"}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_autoptr(TwTimelineStep) step = tw_timeline_step_new_from_line (lines[i], folder);
      graphene_point_t at;
      graphene_rect_t box;

      g_assert_nonnull (step);
      g_assert_false (tw_timeline_step_get_pointer (step, FALSE, &at));
      g_assert_false (tw_timeline_step_get_pointer (step, TRUE, &at));
      g_assert_false (tw_timeline_step_get_highlight (step, FALSE, &box));
      g_assert_null (tw_timeline_step_get_agent_rgb (step));
      g_list_store_append (steps, step);
    }
  {
    g_autoptr(TwTimelineStep) first = g_list_model_get_item (G_LIST_MODEL (steps), 0);

    g_assert_true (tw_timeline_step_get_ok (first));
  }

  g_assert_true (tw_timeline_video_write (G_LIST_MODEL (steps), video, &error));
  g_assert_no_error (error);
  chapters = check_video (folder, G_N_ELEMENTS (lines));

  tw_test_remove_tree (folder);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  gst_init (NULL, NULL);
  g_assert_nonnull (tw_web_context_get_shared ());

  g_test_add_func ("/timeline-export/export", test_export);
  g_test_add_func ("/timeline-export/nothing", test_export_nothing);
  g_test_add_func ("/timeline-export/older-lines", test_older_lines);

  return tw_test_run_with_server (serve_cb, &base_url);
}
