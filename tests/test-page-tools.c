/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <libsoup/soup.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "tw-browser.h"
#include "tw-error.h"
#include "tw-page-runtime.h"
#include "tw-page-tools.h"
#include "tw-screenshot-marks.h"
#include "tw-tab-log.h"
#include "tw-tool-call-private.h"
#include "tw-tool-registry.h"
#include "tw-view-frame.h"
#include "tw-web-context.h"
#include "tw-test-webview.h"

/* The reading and control commands (screenshot, logs, wait, resize) on real
 * WebKit views, with pages served from tests/fixtures/page/ by a SoupServer
 * on loopback. Each test checks what an agent would be told: the pixels of
 * the screenshot, the log lines, the wait's outcome, the size the page
 * itself measures. */

static SoupServer *server;
static char *base_url;
static WebKitNetworkSession *session;

/* The test server */

/* Whether busy.html has started keeping its page busy. */
static gboolean busy_page_spins;

static void
serve_cb (SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query)
{
  /* Client-side routes of delayed.html serve the same page. */
  if (g_str_has_prefix (path, "/orders/"))
    path = "/delayed.html";

  /* busy.html asks for this, synchronously, the moment before it spins. */
  if (g_str_equal (path, "/busy-starts"))
    {
      busy_page_spins = TRUE;
      soup_server_message_set_status (msg, SOUP_STATUS_NO_CONTENT, NULL);
      return;
    }

  tw_test_serve_file (msg, "fixtures/page", path, TRUE);
}

static char *
page_url (const char *path)
{
  return g_strconcat (base_url, path, NULL);
}

/* Waiting without blocking the main loop */

#define WAIT_MS 60000

/* A page: a web view in its frame, with its runtime and log, as a tab has
 * them. Shown in a window or kept off screen like a background tab. */

typedef struct
{
  GtkWindow     *window;
  TwViewFrame   *frame;
  WebKitWebView *view;
  TwPageRuntime *runtime;
  TwTabLog      *log;
  gboolean       terminated;
} Page;

static void
web_process_terminated_cb (WebKitWebView                     *view,
                           WebKitWebProcessTerminationReason  reason,
                           Page                              *page)
{
  page->terminated = TRUE;
}

static Page *
page_new (void)
{
  Page *page = g_new0 (Page, 1);

  page->view = tw_test_web_view_new (session);
  page->runtime = tw_page_runtime_new (page->view);
  page->log = tw_tab_log_new (TW_TAB_LOG_DEFAULT_CAPACITY);
  tw_tab_log_attach (page->log, page->view);
  page->frame = g_object_ref_sink (tw_view_frame_new (page->view));

  g_signal_connect (page->view, "web-process-terminated",
                    G_CALLBACK (web_process_terminated_cb), page);

  return page;
}

/* Puts the frame in a window of @width × @height, inside a scrolled window
 * as the UI does. */
static void
page_show (Page *page,
           int   width,
           int   height)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *viewport = gtk_viewport_new (NULL, NULL);

  gtk_viewport_set_child (GTK_VIEWPORT (viewport), GTK_WIDGET (page->frame));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), viewport);

  page->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (page->window, width, height);
  gtk_window_set_child (page->window, scrolled);
  gtk_window_present (page->window);
}

static void
page_free (Page *page)
{
  g_signal_handlers_disconnect_by_data (page->view, page);

  if (page->window != NULL)
    gtk_window_destroy (page->window);

  g_clear_object (&page->log);
  g_clear_object (&page->runtime);
  g_clear_object (&page->frame);
  g_free (page);
}

static void
page_load (Page       *page,
           const char *path)
{
  g_autofree char *url = page_url (path);

  tw_test_view_load (page->view, url, WAIT_MS);
}

/* Runs @script in the page's own world and returns its value as a string. */
static char *
page_eval (Page       *page,
           const char *script)
{
  return tw_test_view_evaluate_string (page->view, script, WAIT_MS);
}

/* The commands */

/* Runs @run on @page as the tab runs a command of a module: a job with the
 * page's parts and @params_json, answered in a task. The wait has no log,
 * so network idle is the page's own judgement. */
static JsonObject *
run_job (Page         *page,
         TwTabJobRun   run,
         const char   *params_json,
         const char   *workspace,
         const char   *what,
         GError      **error)
{
  g_autoptr(JsonObject) params = tw_test_parse_object (params_json);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GTask) task = g_task_new (NULL, NULL, tw_test_store_result_cb, NULL);
  const TwTabJob job = {
    .view = page->view,
    .frame = page->frame,
    .runtime = page->runtime,
    .workspace_dir = workspace,
    .params = params,
  };

  run (&job, task);
  result = tw_test_await_result (WAIT_MS, what);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static JsonObject *
run_screenshot (Page        *page,
                const char  *params_json,
                const char  *workspace,
                GError     **error)
{
  return run_job (page, tw_page_tools_screenshot_run, params_json, workspace, "a screenshot", error);
}

static JsonObject *
run_wait (Page        *page,
          const char  *params_json,
          GError     **error)
{
  return run_job (page, tw_page_tools_wait_run, params_json, NULL, "a wait", error);
}

static JsonObject *
run_resize (Page        *page,
            const char  *params_json,
            GError     **error)
{
  return run_job (page, tw_page_tools_resize_run, params_json, NULL, "a resize", error);
}

/* Decoded screenshots */

typedef struct
{
  int     width;
  int     height;
  gsize   stride;
  guchar *pixels;  /* B, G, R, A on little-endian machines: GDK_MEMORY_DEFAULT */
} Image;

static void
image_free (Image *image)
{
  g_free (image->pixels);
  g_free (image);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Image, image_free)

static Image *
image_from_png (GBytes *png)
{
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  Image *image;

  texture = gdk_texture_new_from_bytes (png, &error);
  g_assert_no_error (error);

  image = g_new0 (Image, 1);
  image->width = gdk_texture_get_width (texture);
  image->height = gdk_texture_get_height (texture);
  image->stride = (gsize) image->width * 4;
  image->pixels = g_malloc (image->stride * image->height);
  gdk_texture_download (texture, image->pixels, image->stride);

  return image;
}

static Image *
image_from_reply (JsonObject *reply)
{
  const char *base64 = json_object_get_string_member (reply, "png");
  g_autoptr(GBytes) png = NULL;
  guchar *data;
  gsize size;

  g_assert_nonnull (base64);
  data = g_base64_decode (base64, &size);
  g_assert_cmpuint (size, >, 8);
  /* The PNG signature. */
  g_assert_cmpmem (data, 8, "\x89PNG\r\n\x1a\n", 8);
  png = g_bytes_new_take (data, size);

  return image_from_png (png);
}

static void
assert_pixel (Image *image,
              int    x,
              int    y,
              guint8 red,
              guint8 green,
              guint8 blue)
{
  const guchar *p;

  g_assert_cmpint (x, <, image->width);
  g_assert_cmpint (y, <, image->height);

  p = image->pixels + (gsize) y * image->stride + (gsize) x * 4;

  /* Allow for colour management rounding, nothing more. */
  g_assert_cmpint (ABS ((int) p[2] - red), <=, 3);
  g_assert_cmpint (ABS ((int) p[1] - green), <=, 3);
  g_assert_cmpint (ABS ((int) p[0] - blue), <=, 3);
}

/* Screenshots */

static void
test_screenshot_viewport (void)
{
  Page *page = page_new ();
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(Image) image = NULL;

  page_show (page, 640, 480);
  page_load (page, "colors.html");

  reply = run_screenshot (page, "{}", NULL, &error);
  g_assert_no_error (error);

  /* The viewport of a tab on screen is the size the window gives it. */
  g_assert_cmpint (json_object_get_int_member (reply, "width"), ==,
                   gtk_widget_get_width (GTK_WIDGET (page->view)));
  g_assert_cmpint (json_object_get_int_member (reply, "height"), ==,
                   gtk_widget_get_height (GTK_WIDGET (page->view)));
  g_assert_false (json_object_has_member (reply, "path"));

  image = image_from_reply (reply);
  g_assert_cmpint (image->width, ==, json_object_get_int_member (reply, "width"));
  g_assert_cmpint (image->height, ==, json_object_get_int_member (reply, "height"));
  assert_pixel (image, 50, 50, 255, 0, 0);
  assert_pixel (image, 225, 175, 0, 255, 0);
  assert_pixel (image, 400, 300, 0, 128, 255);

  page_free (page);
}

static void
test_screenshot_background (void)
{
  Page *page = page_new ();
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(Image) image = NULL;

  /* Never shown, like a tab an agent opened in the background. */
  page_load (page, "colors.html");
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (page->view)));

  reply = run_screenshot (page, "{\"fullPage\": false}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (reply, "width"), ==, TW_VIEW_FRAME_DEFAULT_WIDTH);
  g_assert_cmpint (json_object_get_int_member (reply, "height"), ==, TW_VIEW_FRAME_DEFAULT_HEIGHT);

  image = image_from_reply (reply);
  assert_pixel (image, 10, 10, 255, 0, 0);
  assert_pixel (image, 210, 160, 0, 255, 0);
  assert_pixel (image, 1000, 700, 0, 128, 255);

  page_free (page);
}

static gboolean
widget_is_unmapped (gpointer data)
{
  return !gtk_widget_get_mapped (data);
}

static void
test_screenshot_hidden_page_of_stack (void)
{
  Page *front = page_new ();
  Page *back = page_new ();
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(Image) image = NULL;
  GtkWidget *stack = gtk_stack_new ();
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());

  /* Two tabs in one window, as AdwTabView holds them: the second one was
   * on screen once, then another tab was selected. */
  gtk_stack_add_named (GTK_STACK (stack), GTK_WIDGET (front->frame), "front");
  gtk_stack_add_named (GTK_STACK (stack), GTK_WIDGET (back->frame), "back");
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "back");
  gtk_window_set_default_size (window, 700, 500);
  gtk_window_set_child (window, stack);
  gtk_window_present (window);

  page_load (back, "colors.html");
  page_load (front, "tall.html");
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "front");
  tw_test_wait_until (widget_is_unmapped, back->view, WAIT_MS,
                      "the tab no longer selected to leave the screen");

  reply = run_screenshot (back, "{}", NULL, &error);
  g_assert_no_error (error);

  image = image_from_reply (reply);
  g_assert_cmpint (image->width, >, 250);
  g_assert_cmpint (image->height, >, 200);
  assert_pixel (image, 50, 50, 255, 0, 0);
  assert_pixel (image, 225, 175, 0, 255, 0);
  assert_pixel (image, image->width - 5, image->height - 5, 0, 128, 255);

  gtk_window_destroy (window);
  page_free (front);
  page_free (back);
}

static void
test_screenshot_full_page (void)
{
  Page *page = page_new ();
  g_autoptr(JsonObject) viewport = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(Image) image = NULL;

  page_load (page, "tall.html");

  viewport = run_screenshot (page, "{}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (viewport, "height"), ==,
                   TW_VIEW_FRAME_DEFAULT_HEIGHT);

  reply = run_screenshot (page, "{\"fullPage\": true}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (reply, "height"), ==, 3000);
  g_assert_cmpint (json_object_get_int_member (reply, "width"), ==, TW_VIEW_FRAME_DEFAULT_WIDTH);
  g_assert_false (json_object_has_member (reply, "truncated"));

  /* The red square sits at the very bottom, far below the viewport. */
  image = image_from_reply (reply);
  g_assert_cmpint (image->height, ==, 3000);
  assert_pixel (image, 50, 2950, 255, 0, 0);
  assert_pixel (image, 150, 1500, 0, 0, 255);
  assert_pixel (image, 800, 1500, 255, 255, 255);
  g_clear_pointer (&reply, json_object_unref);
  g_clear_pointer (&image, image_free);

  /* Taller than a model accepts: the image stops at the limit, and says
   * so. */
  page_load (page, "tall.html?height=9000");
  reply = run_screenshot (page, "{\"fullPage\": true}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (reply, "height"), ==,
                   TW_PAGE_TOOLS_SCREENSHOT_MAX_HEIGHT);
  g_assert_true (json_object_get_boolean_member (reply, "truncated"));
  image = image_from_reply (reply);
  g_assert_cmpint (image->height, ==, TW_PAGE_TOOLS_SCREENSHOT_MAX_HEIGHT);
  assert_pixel (image, 150, 7990, 0, 0, 255);

  page_free (page);
}

static void
test_screenshot_save_path (void)
{
  Page *page = page_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *workspace = g_dir_make_tmp ("tw-page-XXXXXX", &error);
  g_autofree char *outside = NULL;
  g_autofree char *shots = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *link = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *escaped = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GBytes) png = NULL;
  g_autoptr(Image) image = NULL;
  gsize length;

  g_assert_no_error (error);
  outside = g_dir_make_tmp ("tw-outside-XXXXXX", &error);
  g_assert_no_error (error);
  shots = g_build_filename (workspace, "shots", NULL);
  g_assert_cmpint (g_mkdir (shots, 0700), ==, 0);

  page_load (page, "colors.html");

  /* Relative to the workspace: written there, not returned. */
  reply = run_screenshot (page, "{\"savePath\": \"shots/home.png\"}", workspace, &error);
  g_assert_no_error (error);
  saved = g_build_filename (shots, "home.png", NULL);
  g_assert_cmpstr (json_object_get_string_member (reply, "path"), ==, saved);
  g_assert_false (json_object_has_member (reply, "png"));

  g_file_get_contents (saved, &contents, &length, &error);
  g_assert_no_error (error);
  png = g_bytes_new_take (g_steal_pointer (&contents), length);
  image = image_from_png (png);
  g_assert_cmpint (image->width, ==, json_object_get_int_member (reply, "width"));
  assert_pixel (image, 50, 50, 255, 0, 0);
  g_clear_pointer (&reply, json_object_unref);

  /* Out of the workspace by "..", by an absolute path, by a link. */
  escaped = g_strdup_printf ("{\"savePath\": \"../%s/a.png\"}", strrchr (outside, '/') + 1);
  reply = run_screenshot (page, escaped, workspace, &error);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED);
  g_assert_null (reply);
  g_clear_error (&error);
  g_free (escaped);

  escaped = g_strdup_printf ("{\"savePath\": \"%s/b.png\"}", outside);
  reply = run_screenshot (page, escaped, workspace, &error);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED);
  g_clear_error (&error);

  link = g_build_filename (workspace, "escape", NULL);
  g_assert_cmpint (symlink (outside, link), ==, 0);
  reply = run_screenshot (page, "{\"savePath\": \"escape/c.png\"}", workspace, &error);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED);
  g_clear_error (&error);

  /* Nothing was written outside. */
  {
    g_autoptr(GDir) dir = g_dir_open (outside, 0, &error);

    g_assert_no_error (error);
    g_assert_null (g_dir_read_name (dir));
  }

  /* No workspace at all. */
  reply = run_screenshot (page, "{\"savePath\": \"d.png\"}", NULL, &error);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED);
  g_clear_error (&error);

  g_unlink (saved);
  g_unlink (link);
  g_rmdir (shots);
  g_rmdir (workspace);
  g_rmdir (outside);
  page_free (page);
}

/* Logs */

typedef struct
{
  TwTabLog   *log;
  const char *type;
  const char *member;
  const char *needle;
  const char *state;
} LogQuery;

static JsonObject *
find_entry (TwTabLog   *log,
            const char *type,
            const char *member,
            const char *needle,
            int        *index)
{
  g_autoptr(JsonArray) entries = tw_tab_log_get_entries (log, 0);

  for (guint i = 0; i < json_array_get_length (entries); i++)
    {
      JsonObject *entry = json_array_get_object_element (entries, i);
      const char *value = json_object_get_string_member_with_default (entry, member, NULL);

      if (g_strcmp0 (json_object_get_string_member (entry, "type"), type) == 0 &&
          value != NULL && strstr (value, needle) != NULL)
        {
          if (index != NULL)
            *index = i;
          return json_object_ref (entry);
        }
    }

  return NULL;
}

static gboolean
entry_is_there (gpointer user_data)
{
  LogQuery *query = user_data;
  g_autoptr(JsonObject) entry = find_entry (query->log, query->type, query->member,
                                            query->needle, NULL);

  if (entry == NULL)
    return FALSE;

  return query->state == NULL ||
         g_strcmp0 (json_object_get_string_member_with_default (entry, "state", NULL),
                    query->state) == 0;
}

static JsonObject *
await_entry (TwTabLog   *log,
             const char *type,
             const char *member,
             const char *needle,
             const char *state)
{
  LogQuery query = { log, type, member, needle, state };

  tw_test_wait_until (entry_is_there, &query, WAIT_MS, needle);

  return find_entry (log, type, member, needle, NULL);
}

static void
assert_time (JsonObject *entry)
{
  const char *time = json_object_get_string_member (entry, "time");
  g_autoptr(GDateTime) parsed = g_date_time_new_from_iso8601 (time, NULL);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  g_assert_nonnull (parsed);
  g_assert_cmpint (ABS (g_date_time_difference (now, parsed)), <, 120 * G_TIME_SPAN_SECOND);
}

static void
test_logs_console (void)
{
  Page *page = page_new ();
  g_autofree char *url = page_url ("console.html");
  g_autoptr(JsonObject) log_line = NULL;
  g_autoptr(JsonObject) warning = NULL;
  g_autoptr(JsonObject) error_line = NULL;
  g_autoptr(JsonObject) exception = NULL;

  page_load (page, "console.html");

  log_line = await_entry (page->log, "console", "text", "plain log line", NULL);
  g_assert_cmpstr (json_object_get_string_member (log_line, "level"), ==, "log");
  g_assert_cmpstr (json_object_get_string_member (log_line, "source"), ==, "console-api");
  g_assert_cmpstr (json_object_get_string_member (log_line, "url"), ==, url);
  g_assert_cmpint (json_object_get_int_member (log_line, "line"), ==, 10);
  assert_time (log_line);

  warning = await_entry (page->log, "console", "text", "a warning line", NULL);
  g_assert_cmpstr (json_object_get_string_member (warning, "level"), ==, "warning");

  error_line = await_entry (page->log, "console", "text", "an error line", NULL);
  g_assert_cmpstr (json_object_get_string_member (error_line, "level"), ==, "error");
  g_assert_cmpint (json_object_get_int_member (error_line, "line"), ==, 12);

  /* An uncaught exception is reported by the engine, not by the page. */
  exception = await_entry (page->log, "console", "text", "boom from a timer", NULL);
  g_assert_cmpstr (json_object_get_string_member (exception, "level"), ==, "error");
  g_assert_cmpstr (json_object_get_string_member (exception, "source"), ==, "javascript");
  g_assert_nonnull (strstr (json_object_get_string_member (exception, "text"), "TypeError"));

  page_free (page);
}

static void
test_logs_csp (void)
{
  Page *page = page_new ();
  g_autoptr(JsonObject) refused = NULL;
  g_autofree char *long_line = NULL;
  g_autoptr(JsonArray) entries = NULL;
  JsonObject *last;

  page_load (page, "csp.html");

  /* The engine's own complaint, with the security source. */
  refused = await_entry (page->log, "console", "text", "Refused to execute", NULL);
  g_assert_cmpstr (json_object_get_string_member (refused, "level"), ==, "error");
  g_assert_cmpstr (json_object_get_string_member (refused, "source"), ==, "security");

  /* Entries stay small, whatever a page logs. */
  g_free (page_eval (page, "console.log('x'.repeat(100000)); 'logged'"));
  long_line = g_strnfill (2000, 'x');
  g_clear_pointer (&refused, json_object_unref);
  refused = await_entry (page->log, "console", "text", long_line, NULL);
  g_assert_cmpint (g_utf8_strlen (json_object_get_string_member (refused, "text"), -1), <=, 4001);

  entries = tw_tab_log_get_entries (page->log, 1);
  last = json_array_get_object_element (entries, 0);
  g_assert_true (g_str_has_suffix (json_object_get_string_member (last, "text"), "…"));

  page_free (page);
}

static void
test_logs_network (void)
{
  Page *page = page_new ();
  g_autofree char *path = g_strdup_printf ("network.html?closed=%u", tw_test_closed_port ());
  g_autoptr(JsonObject) document = NULL;
  g_autoptr(JsonObject) navigation = NULL;
  g_autoptr(JsonObject) stylesheet = NULL;
  g_autoptr(JsonObject) image = NULL;
  g_autoptr(JsonObject) data = NULL;
  g_autoptr(JsonObject) failed = NULL;
  g_autoptr(JsonObject) engine = NULL;
  g_autoptr(JsonObject) second = NULL;
  int navigation_index = -1;
  int document_index = -1;
  int second_index = -1;

  page_load (page, path);

  document = await_entry (page->log, "network", "url", "network.html", "finished");
  find_entry (page->log, "network", "url", "network.html", &document_index);
  g_assert_cmpstr (json_object_get_string_member (document, "method"), ==, "GET");
  g_assert_cmpstr (json_object_get_string_member (document, "resourceType"), ==, "document");
  g_assert_cmpint (json_object_get_int_member (document, "status"), ==, 200);
  g_assert_cmpstr (json_object_get_string_member (document, "mimeType"), ==, "text/html");
  g_assert_cmpint (json_object_get_int_member (document, "durationMs"), >=, 0);
  g_assert_cmpint (json_object_get_int_member (document, "size"), >, 100);

  /* The marker of the new document comes before everything it loaded. */
  navigation = find_entry (page->log, "navigation", "url", "network.html", &navigation_index);
  g_assert_nonnull (navigation);
  g_assert_cmpint (navigation_index, <, document_index);

  stylesheet = await_entry (page->log, "network", "url", "style.css", "finished");
  g_assert_cmpstr (json_object_get_string_member (stylesheet, "resourceType"), ==, "stylesheet");
  g_assert_cmpint (json_object_get_int_member (stylesheet, "status"), ==, 200);

  image = await_entry (page->log, "network", "url", "missing-image.png", "finished");
  g_assert_cmpstr (json_object_get_string_member (image, "resourceType"), ==, "image");
  g_assert_cmpint (json_object_get_int_member (image, "status"), ==, 404);

  data = await_entry (page->log, "network", "url", "data.json", "finished");
  g_assert_cmpstr (json_object_get_string_member (data, "resourceType"), ==, "fetch");
  g_assert_cmpstr (json_object_get_string_member (data, "mimeType"), ==, "application/json");
  g_assert_cmpint (json_object_get_int_member (data, "status"), ==, 200);

  /* A request that never got a response. */
  failed = await_entry (page->log, "network", "url", "/api/items", "failed");
  g_assert_cmpstr (json_object_get_string_member (failed, "resourceType"), ==, "fetch");
  g_assert_true (json_object_get_null_member (failed, "status"));
  g_assert_cmpstr (json_object_get_string_member (failed, "failure"), !=, "");

  /* The engine's own complaint about the 404 lands in the console part. */
  engine = await_entry (page->log, "console", "url", "missing-image.png", NULL);
  g_assert_cmpstr (json_object_get_string_member (engine, "level"), ==, "error");
  g_assert_cmpstr (json_object_get_string_member (engine, "source"), ==, "network");

  /* The next page starts after a new marker. */
  page_load (page, "colors.html");
  second = find_entry (page->log, "navigation", "url", "colors.html", &second_index);
  g_assert_nonnull (second);
  find_entry (page->log, "network", "url", "/api/items", &document_index);
  g_assert_cmpint (second_index, >, document_index);

  page_free (page);
}

static const char *
entry_text (JsonArray *entries,
            guint      index)
{
  return json_object_get_string_member (json_array_get_object_element (entries, index), "text");
}

static void
test_logs_ring (void)
{
  g_autoptr(TwTabLog) log = tw_tab_log_new (5);
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *entries;

  for (guint i = 1; i <= 8; i++)
    {
      g_autofree char *text = g_strdup_printf ("note %u", i);

      tw_tab_log_add_note (log, text);
    }

  g_assert_cmpuint (tw_tab_log_get_n_entries (log), ==, 5);
  g_assert_cmpuint (tw_tab_log_get_n_dropped (log), ==, 3);

  /* The newest entries, oldest first. */
  params = tw_test_parse_object ("{\"maxEntries\": 2}");
  reply = tw_page_tools_logs (log, params, &error);
  g_assert_no_error (error);
  entries = json_object_get_array_member (reply, "entries");
  g_assert_cmpuint (json_array_get_length (entries), ==, 2);
  g_assert_cmpstr (entry_text (entries, 0), ==, "note 7");
  g_assert_cmpstr (entry_text (entries, 1), ==, "note 8");
  g_assert_cmpint (json_object_get_int_member (reply, "total"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (reply, "dropped"), ==, 3);
  g_clear_pointer (&reply, json_object_unref);
  g_clear_pointer (&params, json_object_unref);

  params = json_object_new ();
  reply = tw_page_tools_logs (log, params, &error);
  g_assert_no_error (error);
  entries = json_object_get_array_member (reply, "entries");
  g_assert_cmpuint (json_array_get_length (entries), ==, 5);
  g_assert_cmpstr (entry_text (entries, 0), ==, "note 4");
  g_clear_pointer (&reply, json_object_unref);
  g_clear_pointer (&params, json_object_unref);

  params = tw_test_parse_object ("{\"maxEntries\": 6}");
  reply = tw_page_tools_logs (log, params, &error);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  g_assert_null (reply);
}

/* Waits */

static void
test_wait_text (void)
{
  Page *page = page_new ();
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  page_load (page, "delayed.html?delay=400");

  /* Case and white space do not matter: "Order   CONFIRMED" is what the
   * page writes. */
  reply = run_wait (page, "{\"text\": \"order confirmed\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (reply, "matched"), ==, "text");
  g_assert_cmpstr (json_object_get_string_member (reply, "value"), ==, "order confirmed");
  g_assert_cmpstr (json_object_get_string_member (reply, "title"), ==, "Delayed");
  g_assert_cmpint (json_object_get_int_member (reply, "elapsedMs"), >=, 250);

  page_free (page);
}

static void
test_wait_text_in_shadow_root (void)
{
  Page *page = page_new ();
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  page_load (page, "shadow.html");

  reply = run_wait (page, "{\"text\": \"Inside the shadow root\", \"timeoutMs\": 5000}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (reply, "matched"), ==, "text");

  page_free (page);
}

static void
test_wait_hidden_text (void)
{
  Page *page = page_new ();
  g_autofree char *url = page_url ("delayed.html?delay=100000");
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  gint64 started;

  page_load (page, "delayed.html?delay=100000");

  /* In the DOM, but display:none: a person cannot see it. */
  started = g_get_monotonic_time ();
  reply = run_wait (page, "{\"text\": \"Secret message\", \"timeoutMs\": 600}", &error);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT);
  g_assert_null (reply);
  g_assert_cmpint ((g_get_monotonic_time () - started) / 1000, >=, 550);

  /* The agent learns what the page shows instead. */
  g_assert_nonnull (strstr (error->message, "\"Secret message\" did not appear within 600 ms"));
  g_assert_nonnull (strstr (error->message, "\"Delayed\""));
  g_assert_nonnull (strstr (error->message, url));
  g_assert_nonnull (strstr (error->message, "Loading"));
  g_clear_error (&error);

  /* visibility:hidden is just as invisible. */
  reply = run_wait (page, "{\"text\": \"Ghost message\", \"timeoutMs\": 300}", &error);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT);

  page_free (page);
}

static void
test_wait_url_push_state (void)
{
  Page *page = page_new ();
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = page_url ("orders/done?id=7");

  page_load (page, "delayed.html?delay=300");

  /* history.pushState loads nothing, yet the URL changes. */
  reply = run_wait (page, "{\"url\": \"/orders/done\", \"timeoutMs\": 5000}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (reply, "matched"), ==, "url");
  g_assert_cmpstr (json_object_get_string_member (reply, "url"), ==, expected);
  g_assert_cmpint (json_object_get_int_member (reply, "elapsedMs"), >=, 200);
  g_clear_pointer (&reply, json_object_unref);

  /* Already true: it matches at once. How fast is a figure for the
   * benchmarks, not a limit here, where a loaded machine may stall it. */
  reply = run_wait (page, "{\"url\": \"id=7\"}", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (reply, "matched"), ==, "url");
  g_assert_cmpstr (json_object_get_string_member (reply, "url"), ==, expected);
  g_test_message ("a wait already true answered in %" G_GINT64_FORMAT " ms",
                  json_object_get_int_member (reply, "elapsedMs"));
  g_clear_pointer (&reply, json_object_unref);

  reply = run_wait (page, "{\"url\": \"/never\", \"timeoutMs\": 300}", &error);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT);
  g_assert_nonnull (strstr (error->message, expected));

  page_free (page);
}

static void
test_wait_busy_page (void)
{
  Page *page = page_new ();
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  busy_page_spins = FALSE;
  page_load (page, "busy.html");
  /* The page's script starts spinning shortly after the load, once it has
   * told the server so. */
  tw_test_wait_for_flag (&busy_page_spins, WAIT_MS, "the busy page to start its loop");

  reply = run_wait (page, "{\"text\": \"never there\", \"timeoutMs\": 1000}", &error);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT);
  g_assert_null (reply);
  /* It fails as its own time out, and says the page did not answer. How
   * soon after its 1000 ms it returns is a figure of bench/run. */
  g_assert_nonnull (strstr (error->message, "\"never there\" did not appear within 1000 ms"));
  g_assert_nonnull (strstr (error->message, "did not answer"));

  page_free (page);
}

static void
test_wait_invalid (void)
{
  Page *page = page_new ();
  static const char * const bad[] = {
    "{}",
    "{\"text\": \"a\", \"url\": \"b\"}",
    "{\"text\": \"   \"}",
    "{\"text\": \"a\", \"timeoutMs\": 50}",
    "{\"text\": \"a\", \"timeoutMs\": 30001}",
    "{\"text\": 7}",
    "{\"url\": \"a\", \"timeoutMs\": \"soon\"}",
  };

  page_load (page, "colors.html");

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonObject) reply = NULL;
      g_autoptr(GError) error = NULL;

      reply = run_wait (page, bad[i], &error);
      g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
      g_assert_null (reply);
    }

  page_free (page);
}

/* Resize */

static void
assert_page_size (Page *page,
                  int   width,
                  int   height)
{
  g_autofree char *expected = g_strdup_printf ("%dx%d", width, height);
  g_autofree char *size = page_eval (page, "innerWidth + 'x' + innerHeight");

  g_assert_cmpstr (size, ==, expected);
}

static void
test_resize_phone (void)
{
  Page *page = page_new ();
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(JsonObject) shot = NULL;
  g_autoptr(GError) error = NULL;
  int width;
  int height;

  page_load (page, "colors.html");
  assert_page_size (page, TW_VIEW_FRAME_DEFAULT_WIDTH, TW_VIEW_FRAME_DEFAULT_HEIGHT);

  reply = run_resize (page, "{\"width\": 375, \"height\": 667}", &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (reply, "width"), ==, 375);
  g_assert_cmpint (json_object_get_int_member (reply, "height"), ==, 667);
  g_assert_cmpint (json_object_get_int_member (reply, "innerWidth"), ==, 375);
  g_assert_cmpint (json_object_get_int_member (reply, "innerHeight"), ==, 667);

  /* Asked from the page's own world, not through our runtime. */
  assert_page_size (page, 375, 667);
  g_assert_true (tw_view_frame_get_viewport_size (page->frame, &width, &height));
  g_assert_cmpint (width, ==, 375);
  g_assert_cmpint (height, ==, 667);

  shot = run_screenshot (page, "{}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (shot, "width"), ==, 375);
  g_assert_cmpint (json_object_get_int_member (shot, "height"), ==, 667);

  page_free (page);
}

static void
test_resize_in_window (void)
{
  Page *page = page_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *reply;

  page_show (page, 640, 480);
  page_load (page, "colors.html");

  /* Larger than the window: the page still sees all of it, the person
   * scrolls. */
  reply = run_resize (page, "{\"width\": 1024, \"height\": 900}", &error);
  g_assert_no_error (error);
  json_object_unref (reply);
  assert_page_size (page, 1024, 900);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (page->view)), ==, 1024);

  /* Smaller than the window: framed in the middle. */
  reply = run_resize (page, "{\"width\": 320, \"height\": 400}", &error);
  g_assert_no_error (error);
  json_object_unref (reply);
  assert_page_size (page, 320, 400);

  /* Back to filling the window, as the person's "fit" does. */
  g_assert_true (tw_view_frame_set_viewport_size (page->frame, 0, 0, &error));
  g_assert_no_error (error);
  g_assert_false (tw_view_frame_get_viewport_size (page->frame, NULL, NULL));

  page_free (page);
}

static void
test_resize_limits (void)
{
  Page *page = page_new ();
  static const char * const bad[] = {
    "{\"width\": 199, \"height\": 600}",
    "{\"width\": 800, \"height\": 4001}",
    "{\"width\": 0, \"height\": 0}",
    "{\"width\": -375, \"height\": 667}",
    "{\"width\": 375}",
    "{\"width\": \"375\", \"height\": 667}",
  };

  page_load (page, "colors.html");

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonObject) reply = NULL;
      g_autoptr(GError) error = NULL;

      reply = run_resize (page, bad[i], &error);
      g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
      g_assert_null (reply);
    }

  /* Nothing changed. */
  g_assert_false (tw_view_frame_get_viewport_size (page->frame, NULL, NULL));
  assert_page_size (page, TW_VIEW_FRAME_DEFAULT_WIDTH, TW_VIEW_FRAME_DEFAULT_HEIGHT);

  page_free (page);
}

/* A dead web process */

static gboolean
page_is_terminated (gpointer user_data)
{
  return ((Page *) user_data)->terminated;
}

static void
test_crashed_page (void)
{
  Page *page = page_new ();
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  page_load (page, "colors.html");

  webkit_web_view_terminate_web_process (page->view);
  tw_test_wait_until (page_is_terminated, page, WAIT_MS, "the end of the web process");

  reply = run_wait (page, "{\"text\": \"anything\", \"timeoutMs\": 3000}", &error);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED);
  g_assert_null (reply);
  g_clear_error (&error);

  reply = run_resize (page, "{\"width\": 400, \"height\": 400}", &error);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED);
  g_clear_error (&error);

  /* A reload brings the page back. */
  page->terminated = FALSE;
  page_load (page, "colors.html");
  reply = run_wait (page, "{\"url\": \"colors.html\"}", &error);
  g_assert_no_error (error);

  page_free (page);
}

/* The tools, through the tool layer and real tabs of a TwBrowser, as an
 * agent calls them */

typedef struct
{
  TwBrowser *browser;
  char      *data_dir;
  char      *workspace;
} Workspace;

static Workspace *
workspace_new (void)
{
  Workspace *ws = g_new0 (Workspace, 1);
  g_autofree char *workspace = NULL;

  ws->data_dir = g_dir_make_tmp ("tw-page-data-XXXXXX", NULL);
  g_assert_nonnull (ws->data_dir);
  workspace = g_dir_make_tmp ("tw-page-workspace-XXXXXX", NULL);
  g_assert_nonnull (workspace);
  /* The tools report paths with every link resolved. */
  ws->workspace = g_canonicalize_filename (workspace, NULL);

  /* A persistent session, as the app gives every workspace. */
  ws->browser = tw_browser_new (ws->data_dir, ws->data_dir);
  tw_browser_set_workspace_dir (ws->browser, ws->workspace);

  return ws;
}

static void
workspace_free (Workspace *ws)
{
  tw_test_close_browser (&ws->browser);
  tw_test_remove_tree (ws->workspace);
  tw_test_remove_tree (ws->data_dir);
  g_free (ws->workspace);
  g_free (ws->data_dir);
  g_free (ws);
}

/* Calls @tool with @arguments_json and returns the CallToolResult. */
static JsonObject *
call_tool (Workspace  *ws,
           const char *tool,
           const char *arguments_json)
{
  return tw_test_call_tool (TW_BROWSER_SERVICE (ws->browser), &tw_test_agent, tool, arguments_json);
}

static JsonObject *
call_ok (Workspace  *ws,
         const char *tool,
         const char *arguments_json)
{
  return tw_test_call_tool_ok (TW_BROWSER_SERVICE (ws->browser), &tw_test_agent, tool,
                               arguments_json);
}

/* Checks an error result: its code, and that the text reads as a failure naming it. */
static char *
call_error (Workspace  *ws,
            const char *tool,
            const char *arguments_json,
            const char *code)
{
  g_autoptr(JsonObject) result = call_tool (ws, tool, arguments_json);
  JsonObject *error;
  g_autofree char *prefix = g_strconcat ("Error: ", code, " — ", NULL);

  if (!tw_test_result_is_error (result))
    g_error ("%s(%s) should fail with %s: %s", tool, arguments_json, code,
             tw_test_result_text (result));

  error = json_object_get_object_member (tw_test_result_structured (result), "error");
  g_assert_cmpstr (json_object_get_string_member (error, "code"), ==, code);
  g_assert_true (g_str_has_prefix (tw_test_result_text (result), prefix));

  return g_strdup (tw_test_result_text (result));
}

static char *
open_tab (Workspace  *ws,
          const char *path)
{
  g_autofree char *url = page_url (path);
  g_autofree char *arguments = g_strdup_printf ("{\"url\": \"%s\"}", url);
  g_autoptr(JsonObject) result = call_ok (ws, "browser_new_tab", arguments);

  return g_strdup (json_object_get_string_member (tw_test_result_structured (result), "browserId"));
}

static Image *
image_from_result (JsonObject *result)
{
  JsonArray *content = json_object_get_array_member (result, "content");
  g_autoptr(GBytes) png = NULL;

  for (guint i = 0; i < json_array_get_length (content); i++)
    {
      JsonObject *item = json_array_get_object_element (content, i);
      guchar *data;
      gsize size;

      if (g_strcmp0 (json_object_get_string_member (item, "type"), "image") != 0)
        continue;

      g_assert_cmpstr (json_object_get_string_member (item, "mimeType"), ==, "image/png");
      data = g_base64_decode (json_object_get_string_member (item, "data"), &size);
      png = g_bytes_new_take (data, size);
      return image_from_png (png);
    }

  return NULL;
}

static void
test_tool_screenshot (void)
{
  Workspace *ws = workspace_new ();
  g_autofree char *id = open_tab (ws, "colors.html");
  g_autofree char *arguments = g_strdup_printf ("{\"browserId\": \"%s\"}", id);
  g_autofree char *expected = NULL;
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(Image) image = NULL;

  /* The agent's tab was opened in the background: no window shows it. */
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (tw_browser_tab_get_view (
                                                       tw_browser_lookup_tab (ws->browser, id)))));

  result = call_ok (ws, "browser_screenshot", arguments);
  /* The image is the result: no structuredContent, which Codex would show
   * the model instead of the image. The text says what the image is. */
  g_assert_false (json_object_has_member (result, "structuredContent"));

  expected = g_strdup_printf ("Screenshot of the page (PNG image below).\n"
                              "browserId: %s\nwidth: %d\nheight: %d", id,
                              TW_VIEW_FRAME_DEFAULT_WIDTH, TW_VIEW_FRAME_DEFAULT_HEIGHT);
  g_assert_cmpstr (tw_test_result_text (result), ==, expected);

  image = image_from_result (result);
  g_assert_nonnull (image);
  g_assert_cmpint (image->width, ==, TW_VIEW_FRAME_DEFAULT_WIDTH);
  assert_pixel (image, 50, 50, 255, 0, 0);
  assert_pixel (image, 225, 175, 0, 255, 0);
  assert_pixel (image, 700, 500, 0, 128, 255);

  workspace_free (ws);
}

/* Marked screenshots */

/* Whether the pixel at (@x, @y) has the colour of a label's box. */
static gboolean
is_mark_fill (Image *image,
              int    x,
              int    y)
{
  const guchar *p = image->pixels + (gsize) y * image->stride + (gsize) x * 4;

  return p[2] == TW_SCREENSHOT_MARK_FILL_RED && p[1] == TW_SCREENSHOT_MARK_FILL_GREEN &&
         p[0] == TW_SCREENSHOT_MARK_FILL_BLUE;
}

/* How many pixels of a label's colour the box at (@x, @y) of @width ×
 * @height holds, cut to the image. */
static int
count_mark_fill (Image *image,
                 int    x,
                 int    y,
                 int    width,
                 int    height)
{
  int count = 0;

  for (int j = MAX (0, y); j < MIN (image->height, y + height); j++)
    for (int i = MAX (0, x); i < MIN (image->width, x + width); i++)
      count += is_mark_fill (image, i, j);

  return count;
}

/* The refs the text of a marked screenshot lists on its "marks:" line. */
static GStrv
marked_refs (JsonObject *result)
{
  g_auto(GStrv) lines = g_strsplit (tw_test_result_text (result), "\n", -1);
  g_autoptr(GStrvBuilder) refs = g_strv_builder_new ();

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) words = NULL;

      if (!g_str_has_prefix (lines[i], "marks: "))
        continue;
      words = g_strsplit (lines[i] + strlen ("marks: "), " ", -1);
      for (guint j = 0; words[j] != NULL && g_str_has_prefix (words[j], "@e"); j++)
        g_strv_builder_add (refs, words[j]);
    }

  return g_strv_builder_end (refs);
}

/* Which element @ref names (its id) and its top-left in CSS pixels of the
 * top-level viewport, through the frame it sits in. */
static char *
element_of_ref (Workspace  *ws,
                const char *id,
                const char *ref,
                double     *x,
                double     *y)
{
  g_autofree char *arguments = g_strdup_printf (
    "{\"browserId\": \"%s\", \"ref\": \"%s\", \"function\": \"(el) => { const r = "
    "el.getBoundingClientRect(); let x = r.left; let y = r.top; for (let w = "
    "el.ownerDocument.defaultView; w.frameElement; w = w.parent) { const f = "
    "w.frameElement.getBoundingClientRect(); x += f.left; y += f.top; } "
    "return el.id + ' ' + x + ' ' + y; }\"}", id, ref);
  g_autoptr(JsonObject) result = call_ok (ws, "browser_evaluate", arguments);
  const char *value = json_object_get_string_member (tw_test_result_structured (result), "result");
  g_auto(GStrv) parts = g_strsplit (value, " ", 3);

  g_assert_cmpuint (g_strv_length (parts), ==, 3);
  *x = g_ascii_strtod (parts[1], NULL);
  *y = g_ascii_strtod (parts[2], NULL);

  return g_strdup (parts[0]);
}

/* Whether @text holds @line_part followed by anything but a digit (so that
 * @e1 is not found in @e12). */
static gboolean
snapshot_has (const char *text,
              const char *line_part)
{
  for (const char *at = strstr (text, line_part); at != NULL; at = strstr (at + 1, line_part))
    {
      if (!g_ascii_isdigit (at[strlen (line_part)]))
        return TRUE;
    }

  return FALSE;
}

/* The elements of marks.html an agent can see and reach, with the line of
 * a snapshot that names each. The covered button, the one far below the
 * viewport and the plain text get no label. */
static const char * const marked_elements[][2] = {
  { "save", "button \"Save\"" },
  { "docs", "link \"Docs\"" },
  { "email", "textbox \"Email\"" },
  { "heading", "heading \"Inventory\"" },
  { "inner", "button \"Inside frame\"" },
};

typedef struct
{
  char   *element;
  char   *ref;
  double  x;
  double  y;
} Mark;

static void
mark_clear (Mark *mark)
{
  g_free (mark->element);
  g_free (mark->ref);
}

/* Takes a marked screenshot and checks a label of its colour at the
 * top-left of each element it names, scaled by @zoom and shifted by
 * @scroll_y in a picture of the whole page. Returns the marks. */
static GArray *
check_marked_screenshot (Workspace  *ws,
                         const char *id,
                         gboolean    full_page,
                         double      zoom,
                         double      scroll_y,
                         Image     **image_out)
{
  g_autofree char *arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"marks\": true%s}", id,
                                                full_page ? ", \"fullPage\": true" : "");
  g_autoptr(JsonObject) result = call_ok (ws, "browser_screenshot", arguments);
  g_auto(GStrv) refs = marked_refs (result);
  g_test_message ("%s", tw_test_result_text (result));
  g_autoptr(Image) image = image_from_result (result);
  GArray *marks = g_array_new (FALSE, TRUE, sizeof (Mark));

  g_array_set_clear_func (marks, (GDestroyNotify) mark_clear);
  g_assert_nonnull (image);
  g_assert_false (json_object_has_member (result, "structuredContent"));

  for (guint i = 0; refs[i] != NULL; i++)
    {
      Mark mark = { 0 };
      int x, y;

      mark.ref = g_strdup (refs[i]);
      mark.element = element_of_ref (ws, id, refs[i], &mark.x, &mark.y);
      g_array_append_val (marks, mark);

      /* The label sits at the element's top-left: a box of its colour,
       * taller than a line of small text and wider than the ref. */
      x = (int) floor (mark.x * zoom);
      y = (int) floor ((mark.y + scroll_y) * zoom);
      if (count_mark_fill (image, x, y, (int) (40 * zoom), (int) (16 * zoom)) < 100 * zoom * zoom)
        g_error ("no label for %s (%s) at %d, %d", refs[i], mark.element, x, y);
    }

  if (image_out != NULL)
    *image_out = g_steal_pointer (&image);

  return marks;
}

static const Mark *
find_mark (GArray     *marks,
           const char *element)
{
  for (guint i = 0; i < marks->len; i++)
    {
      if (g_str_equal (g_array_index (marks, Mark, i).element, element))
        return &g_array_index (marks, Mark, i);
    }

  return NULL;
}

static void
test_tool_screenshot_marks (void)
{
  Workspace *ws = workspace_new ();
  g_autofree char *id = open_tab (ws, "marks.html");
  g_autofree char *plain_arguments = g_strdup_printf ("{\"browserId\": \"%s\"}", id);
  g_autofree char *click = NULL;
  g_autofree char *scroll = NULL;
  g_autoptr(JsonObject) plain = NULL;
  g_autoptr(JsonObject) snapshot = NULL;
  g_autoptr(JsonObject) clicked = NULL;
  g_autoptr(JsonObject) title = NULL;
  g_autoptr(JsonObject) scrolled = NULL;
  g_autoptr(Image) plain_image = NULL;
  g_autoptr(Image) image = NULL;
  g_autoptr(GArray) marks = NULL;
  const char *snapshot_text;
  const Mark *save;
  WebKitWebView *view;

  /* Before any snapshot: the marks hand out the refs. */
  marks = check_marked_screenshot (ws, id, FALSE, 1.0, 0, &image);
  g_assert_cmpuint (marks->len, ==, G_N_ELEMENTS (marked_elements));
  for (guint i = 0; i < G_N_ELEMENTS (marked_elements); i++)
    g_assert_nonnull (find_mark (marks, marked_elements[i][0]));

  /* A screenshot without marks has no label, and is the marked one but
   * for the labels. */
  plain = call_ok (ws, "browser_screenshot", plain_arguments);
  g_assert_null (strstr (tw_test_result_text (plain), "marks"));
  plain_image = image_from_result (plain);
  g_assert_cmpint (plain_image->width, ==, image->width);
  g_assert_cmpint (plain_image->height, ==, image->height);
  g_assert_cmpint (count_mark_fill (plain_image, 0, 0, plain_image->width, plain_image->height), ==, 0);
  for (int y = 0; y < image->height; y++)
    for (int x = 0; x < image->width; x++)
      {
        gboolean in_label = FALSE;

        if (memcmp (image->pixels + y * image->stride + x * 4,
                    plain_image->pixels + y * plain_image->stride + x * 4, 3) == 0)
          continue;
        for (guint i = 0; i < marks->len && !in_label; i++)
          {
            const Mark *mark = &g_array_index (marks, Mark, i);

            in_label = x >= mark->x - 1 && x < mark->x + 80 && y >= mark->y - 1 &&
                       y < mark->y + 24;
          }
        if (!in_label)
          g_error ("the marked screenshot differs from the plain one at %d, %d: %02x%02x%02x%02x vs %02x%02x%02x%02x", x, y, image->pixels[y * image->stride + x * 4], image->pixels[y * image->stride + x * 4+1], image->pixels[y * image->stride + x * 4+2], image->pixels[y * image->stride + x * 4+3], plain_image->pixels[y * image->stride + x * 4], plain_image->pixels[y * image->stride + x * 4+1], plain_image->pixels[y * image->stride + x * 4+2], plain_image->pixels[y * image->stride + x * 4+3]);
      }
  /* The covered button's corner has no label. */
  g_assert_cmpint (count_mark_fill (image, 420, 40, 60, 20), ==, 0);

  /* The next snapshot prints the same refs for the same elements, and
   * they act on them. */
  snapshot = call_ok (ws, "browser_snapshot", plain_arguments);
  snapshot_text = tw_test_result_text (snapshot);
  for (guint i = 0; i < G_N_ELEMENTS (marked_elements); i++)
    {
      const Mark *mark = find_mark (marks, marked_elements[i][0]);
      g_autofree char *line = g_strdup_printf ("%s %s", marked_elements[i][1], mark->ref);

      if (!snapshot_has (snapshot_text, line))
        g_error ("the snapshot has no \"%s\":\n%s", line, snapshot_text);
    }
  save = find_mark (marks, "save");
  click = g_strdup_printf ("{\"browserId\": \"%s\", \"ref\": \"%s\"}", id, save->ref);
  clicked = call_ok (ws, "browser_click", click);
  title = call_ok (ws, "browser_evaluate", scroll = g_strdup_printf (
                     "{\"browserId\": \"%s\", \"function\": \"() => document.title\"}", id));
  g_assert_cmpstr (json_object_get_string_member (tw_test_result_structured (title), "result"),
                   ==, "saved");
  g_clear_pointer (&scroll, g_free);
  g_clear_pointer (&marks, g_array_unref);
  g_clear_pointer (&image, image_free);

  /* Scrolled down, the viewport's labels follow the elements; a picture of
   * the whole page labels the button far below at its place in the
   * page. */
  scroll = g_strdup_printf ("{\"browserId\": \"%s\", \"function\": \"() => { window.scrollTo(0, "
                            "150); return window.scrollY; }\"}", id);
  scrolled = call_ok (ws, "browser_evaluate", scroll);
  g_assert_cmpint (json_object_get_int_member (tw_test_result_structured (scrolled), "result"), ==, 150);
  marks = check_marked_screenshot (ws, id, FALSE, 1.0, 0, NULL);
  g_assert_nonnull (find_mark (marks, "heading"));
  g_assert_nonnull (find_mark (marks, "inner"));
  g_assert_null (find_mark (marks, "save"));
  g_assert_null (find_mark (marks, "far"));
  g_clear_pointer (&marks, g_array_unref);

  g_clear_pointer (&scrolled, json_object_unref);
  g_clear_pointer (&scroll, g_free);
  /* A little way down, so that the covered button is still in the
   * viewport, where a press can be tested. */
  scroll = g_strdup_printf ("{\"browserId\": \"%s\", \"function\": \"() => { window.scrollTo(0, "
                            "30); return window.scrollY; }\"}", id);
  scrolled = call_ok (ws, "browser_evaluate", scroll);
  g_assert_cmpint (json_object_get_int_member (tw_test_result_structured (scrolled), "result"), ==, 30);
  marks = check_marked_screenshot (ws, id, TRUE, 1.0, 30, &image);
  g_assert_nonnull (find_mark (marks, "far"));
  g_assert_nonnull (find_mark (marks, "save"));
  g_assert_null (find_mark (marks, "covered"));
  g_assert_cmpint (image->height, ==, 2000);
  g_clear_pointer (&marks, g_array_unref);
  g_clear_pointer (&image, image_free);

  /* Zoomed in, labels are where the zoomed elements are, and as large. */
  view = tw_browser_tab_get_view (tw_browser_lookup_tab (ws->browser, id));
  webkit_web_view_set_zoom_level (view, 1.5);
  g_clear_pointer (&scrolled, json_object_unref);
  g_clear_pointer (&scroll, g_free);
  scroll = g_strdup_printf ("{\"browserId\": \"%s\", \"function\": \"() => { window.scrollTo(0, "
                            "0); return window.innerWidth; }\"}", id);
  scrolled = call_ok (ws, "browser_evaluate", scroll);
  g_assert_cmpint (json_object_get_int_member (tw_test_result_structured (scrolled), "result"),
                   <, TW_VIEW_FRAME_DEFAULT_WIDTH);
  marks = check_marked_screenshot (ws, id, FALSE, 1.5, 0, NULL);
  g_assert_nonnull (find_mark (marks, "save"));

  workspace_free (ws);
}

static void
test_tool_screenshot_save (void)
{
  Workspace *ws = workspace_new ();
  g_autofree char *id = open_tab (ws, "colors.html");
  g_autofree char *arguments = NULL;
  g_autofree char *saved = g_build_filename (ws->workspace, "page.png", NULL);
  g_autofree char *denied = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(JsonObject) result = NULL;
  JsonArray *content;

  arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"savePath\": \"page.png\"}", id);
  result = call_ok (ws, "browser_screenshot", arguments);
  g_assert_true (g_file_test (saved, G_FILE_TEST_IS_REGULAR));
  g_free (expected);
  expected = g_strdup_printf ("\npath: %s", saved);
  g_assert_true (g_str_has_suffix (tw_test_result_text (result), expected));
  content = json_object_get_array_member (result, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 1);
  g_free (arguments);

  arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"savePath\": \"/etc/tw-page.png\"}", id);
  denied = call_error (ws, "browser_screenshot", arguments, "browser_denied");
  g_assert_nonnull (strstr (denied, "outside the workspace"));
  g_assert_false (g_file_test ("/etc/tw-page.png", G_FILE_TEST_EXISTS));

  g_unlink (saved);
  workspace_free (ws);
}

typedef struct
{
  Workspace  *ws;
  const char *arguments;
  const char *needle;
} LogsQuery;

static gboolean
logs_mention (gpointer user_data)
{
  LogsQuery *query = user_data;
  g_autoptr(JsonObject) result = call_ok (query->ws, "browser_logs", query->arguments);

  return strstr (tw_test_result_text (result), query->needle) != NULL;
}

static void
test_tool_logs (void)
{
  Workspace *ws = workspace_new ();
  g_autofree char *id = open_tab (ws, "console.html");
  g_autofree char *url = page_url ("console.html");
  g_autofree char *arguments = g_strdup_printf ("{\"browserId\": \"%s\"}", id);
  g_autofree char *line = NULL;
  g_autoptr(JsonObject) result = NULL;
  LogsQuery query = { ws, arguments, "boom from a timer" };
  JsonObject *structured;
  JsonArray *entries;
  const char *text;

  tw_test_wait_until (logs_mention, &query, WAIT_MS, "the exception in browser_logs");

  result = call_ok (ws, "browser_logs", arguments);
  text = tw_test_result_text (result);

  /* One compact line per entry, in the order things happened. */
  line = g_strdup_printf (" --- navigated to %s ---", url);
  g_assert_nonnull (strstr (text, line));
  g_free (line);
  line = g_strdup_printf (" console.log plain log line (%s:10)\n", url);
  g_assert_nonnull (strstr (text, line));
  g_free (line);
  line = g_strdup_printf (" GET %s 200 document ", url);
  g_assert_nonnull (strstr (text, line));
  g_assert_nonnull (strstr (text, " console.warning a warning line ("));
  g_assert_nonnull (strstr (text, " console.error an error line ("));
  g_assert_true (strstr (text, "plain log line") < strstr (text, "a warning line"));
  g_assert_true (strstr (text, "navigated to") < strstr (text, "plain log line"));

  /* The structured entries say the same. */
  structured = tw_test_result_structured (result);
  g_assert_cmpstr (json_object_get_string_member (structured, "browserId"), ==, id);
  entries = json_object_get_array_member (structured, "entries");
  g_assert_cmpint (json_object_get_int_member (structured, "total"), ==,
                   json_array_get_length (entries));
  g_assert_cmpint (json_object_get_int_member (structured, "dropped"), ==, 0);
  g_clear_pointer (&result, json_object_unref);

  g_free (arguments);
  arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"maxEntries\": 1}", id);
  result = call_ok (ws, "browser_logs", arguments);
  entries = json_object_get_array_member (tw_test_result_structured (result), "entries");
  g_assert_cmpuint (json_array_get_length (entries), ==, 1);
  g_assert_nonnull (strstr (tw_test_result_text (result), "The last 1 of "));
  g_free (arguments);

  arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"maxEntries\": 501}", id);
  g_free (call_error (ws, "browser_logs", arguments, "browser_invalid_argument"));

  workspace_free (ws);
}

static void
test_tool_wait (void)
{
  Workspace *ws = workspace_new ();
  g_autofree char *id = open_tab (ws, "delayed.html?delay=400");
  g_autofree char *arguments = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *message = NULL;
  g_autoptr(JsonObject) result = NULL;
  JsonObject *structured;

  arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"text\": \"Order confirmed\"}", id);
  result = call_ok (ws, "browser_wait", arguments);
  structured = tw_test_result_structured (result);
  g_assert_cmpstr (json_object_get_string_member (structured, "matched"), ==, "text");
  g_assert_cmpstr (json_object_get_string_member (structured, "title"), ==, "Delayed");
  g_assert_true (g_str_has_prefix (tw_test_result_text (result),
                                   "The text \"Order confirmed\" appeared after "));
  expected = g_strdup_printf ("\nbrowserId: %s\n", id);
  g_assert_nonnull (strstr (tw_test_result_text (result), expected));
  g_clear_pointer (&result, json_object_unref);
  g_free (arguments);

  arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"url\": \"/orders/done\"}", id);
  result = call_ok (ws, "browser_wait", arguments);
  g_assert_cmpstr (json_object_get_string_member (tw_test_result_structured (result),
                                                  "matched"), ==, "url");
  g_free (arguments);

  arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"text\": \"Shipped\", "
                               "\"timeoutMs\": 400}", id);
  message = call_error (ws, "browser_wait", arguments, "browser_timeout");
  g_assert_nonnull (strstr (message, "\"Shipped\" did not appear within 400 ms"));
  g_assert_nonnull (strstr (message, "Order CONFIRMED"));
  g_free (arguments);

  /* Exactly one of text and url, and a bounded timeout. */
  arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"text\": \"a\", \"url\": \"b\"}", id);
  g_free (call_error (ws, "browser_wait", arguments, "browser_invalid_argument"));
  g_free (arguments);
  arguments = g_strdup_printf ("{\"browserId\": \"%s\"}", id);
  g_free (call_error (ws, "browser_wait", arguments, "browser_invalid_argument"));
  g_free (arguments);
  arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"url\": \"b\", \"timeoutMs\": 30001}", id);
  g_free (call_error (ws, "browser_wait", arguments, "browser_invalid_argument"));

  workspace_free (ws);
}

static void
test_tool_resize (void)
{
  Workspace *ws = workspace_new ();
  g_autofree char *id = open_tab (ws, "colors.html");
  g_autofree char *arguments = NULL;
  g_autofree char *size = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(JsonObject) shot = NULL;
  TwBrowserTab *tab = tw_browser_lookup_tab (ws->browser, id);
  Page page = { .view = tw_browser_tab_get_view (tab) };
  JsonObject *structured;

  arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"width\": 390, \"height\": 844}", id);
  result = call_ok (ws, "browser_resize", arguments);
  structured = tw_test_result_structured (result);
  g_assert_cmpint (json_object_get_int_member (structured, "width"), ==, 390);
  g_assert_cmpint (json_object_get_int_member (structured, "innerWidth"), ==, 390);
  g_assert_cmpint (json_object_get_int_member (structured, "innerHeight"), ==, 844);
  expected = g_strdup_printf ("Resized the viewport to 390 × 844; the page sees the "
                              "same innerWidth and innerHeight.\nbrowserId: %s", id);
  g_assert_cmpstr (tw_test_result_text (result), ==, expected);

  /* What the page's own scripts see. */
  size = page_eval (&page, "innerWidth + 'x' + innerHeight");
  g_assert_cmpstr (size, ==, "390x844");

  g_free (arguments);
  arguments = g_strdup_printf ("{\"browserId\": \"%s\"}", id);
  shot = call_ok (ws, "browser_screenshot", arguments);
  g_assert_nonnull (strstr (tw_test_result_text (shot), "\nwidth: 390\nheight: 844"));
  g_free (arguments);

  arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"width\": 150, \"height\": 844}", id);
  g_free (call_error (ws, "browser_resize", arguments, "browser_invalid_argument"));
  g_free (arguments);
  arguments = g_strdup_printf ("{\"browserId\": \"%s\", \"width\": 390, \"height\": 9000}", id);
  g_free (call_error (ws, "browser_resize", arguments, "browser_invalid_argument"));

  workspace_free (ws);
}

static gboolean
tab_is_crashed (gpointer user_data)
{
  return tw_browser_tab_get_crashed (user_data);
}

static void
test_tool_crash_and_reload (void)
{
  Workspace *ws = workspace_new ();
  g_autofree char *id = open_tab (ws, "colors.html");
  g_autofree char *arguments = g_strdup_printf ("{\"browserId\": \"%s\"}", id);
  g_autofree char *logs = NULL;
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(Image) image = NULL;
  TwBrowserTab *tab = tw_browser_lookup_tab (ws->browser, id);
  g_autofree char *wait = NULL;

  webkit_web_view_terminate_web_process (tw_browser_tab_get_view (tab));
  tw_test_wait_until (tab_is_crashed, tab, WAIT_MS, "the crash of the tab");

  /* Every call but a reload says what happened and how to recover. */
  g_free (call_error (ws, "browser_screenshot", arguments, "browser_crashed"));
  g_free (call_error (ws, "browser_logs", arguments, "browser_crashed"));
  wait = g_strdup_printf ("{\"browserId\": \"%s\", \"text\": \"x\"}", id);
  g_free (call_error (ws, "browser_wait", wait, "browser_crashed"));

  result = call_ok (ws, "browser_reload", arguments);
  g_clear_pointer (&result, json_object_unref);
  g_assert_false (tw_browser_tab_get_crashed (tab));

  result = call_ok (ws, "browser_screenshot", arguments);
  image = image_from_result (result);
  assert_pixel (image, 50, 50, 255, 0, 0);
  g_clear_pointer (&result, json_object_unref);

  /* The log keeps the crash for the agent to see. */
  result = call_ok (ws, "browser_logs", arguments);
  g_assert_nonnull (strstr (tw_test_result_text (result), "--- The web process crashed ---"));

  workspace_free (ws);
}

static void
test_tool_unknown_tab (void)
{
  Workspace *ws = workspace_new ();
  static const char * const calls[][2] = {
    { "browser_screenshot", "{\"browserId\": \"b999999\"}" },
    { "browser_logs", "{\"browserId\": \"b999999\"}" },
    { "browser_wait", "{\"browserId\": \"b999999\", \"text\": \"x\"}" },
    { "browser_resize", "{\"browserId\": \"b999999\", \"width\": 400, \"height\": 400}" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    g_free (call_error (ws, calls[i][0], calls[i][1], "browser_not_found"));

  workspace_free (ws);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *session_dir = NULL;
  int ret;

  /* These tabs are in no window. A page drawn without accelerated
   * compositing paints only in a window, where the app's tab deck keeps
   * every tab (tw-browser-tab-drawing.c; /ui/window/compositing and the
   * e2e tests check pictures and events of those tabs). The drawing tools
   * here run on tabs drawn as the person's looked-at tabs are. */
  g_setenv ("TABWRIGHT_TAB_COMPOSITING", "1", TRUE);

  gtk_test_init (&argc, &argv, NULL);

  /* Our web context, so the web process extension is loaded from the build
   * tree as in the app. */
  g_assert_nonnull (tw_web_context_get_shared ());
  /* A persistent session, as each workspace has: WebKit reports no console
   * messages from ephemeral ones. */
  session_dir = g_dir_make_tmp ("tw-page-session-XXXXXX", NULL);
  g_assert_nonnull (session_dir);
  session = webkit_network_session_new (session_dir, session_dir);
  server = tw_test_server_new (serve_cb, &base_url);

  g_test_add_func ("/page/screenshot/viewport", test_screenshot_viewport);
  g_test_add_func ("/page/screenshot/background", test_screenshot_background);
  g_test_add_func ("/page/screenshot/hidden-page-of-stack", test_screenshot_hidden_page_of_stack);
  g_test_add_func ("/page/screenshot/full-page", test_screenshot_full_page);
  g_test_add_func ("/page/screenshot/save-path", test_screenshot_save_path);
  g_test_add_func ("/page/logs/console", test_logs_console);
  g_test_add_func ("/page/logs/csp-and-long-lines", test_logs_csp);
  g_test_add_func ("/page/logs/network", test_logs_network);
  g_test_add_func ("/page/logs/ring", test_logs_ring);
  g_test_add_func ("/page/wait/text", test_wait_text);
  g_test_add_func ("/page/wait/text-in-shadow-root", test_wait_text_in_shadow_root);
  g_test_add_func ("/page/wait/hidden-text", test_wait_hidden_text);
  g_test_add_func ("/page/wait/url-push-state", test_wait_url_push_state);
  g_test_add_func ("/page/wait/busy-page", test_wait_busy_page);
  g_test_add_func ("/page/wait/invalid", test_wait_invalid);
  g_test_add_func ("/page/resize/phone", test_resize_phone);
  g_test_add_func ("/page/resize/in-window", test_resize_in_window);
  g_test_add_func ("/page/resize/limits", test_resize_limits);
  g_test_add_func ("/page/crash/calls-fail-until-reload", test_crashed_page);
  g_test_add_func ("/page/tools/screenshot", test_tool_screenshot);
  g_test_add_func ("/page/tools/screenshot-save", test_tool_screenshot_save);
  g_test_add_func ("/page/tools/screenshot-marks", test_tool_screenshot_marks);
  g_test_add_func ("/page/tools/logs", test_tool_logs);
  g_test_add_func ("/page/tools/wait", test_tool_wait);
  g_test_add_func ("/page/tools/resize", test_tool_resize);
  g_test_add_func ("/page/tools/crash-and-reload", test_tool_crash_and_reload);
  g_test_add_func ("/page/tools/unknown-tab", test_tool_unknown_tab);

  ret = g_test_run ();

  g_clear_object (&server);
  g_clear_object (&session);
  g_free (base_url);
  tw_test_remove_tree (session_dir);

  return ret;
}
