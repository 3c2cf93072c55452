/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-page-tools.h"

#include "tw-json.h"
#include "tw-evaluate-script.h"
#include "tw-error.h"
#include "tw-workspace-path.h"

#include <string.h>

/* How often browser_wait looks again, and how long one look may take before
 * it counts as unanswered. */
#define WAIT_POLL_INTERVAL_MS 100
/* loadState networkidle: how long no request of the tab may be in flight. */
#define NETWORK_IDLE_MS 500
#define WAIT_CHECK_TIMEOUT_MS 2000
/* How long a wait whose time ran out still waits for the look on its way,
 * to say what the page shows. */
#define WAIT_REPORT_GRACE_MS 500

/* How long browser_resize waits for the page to report its new size. */
#define RESIZE_POLL_INTERVAL_MS 50
#define RESIZE_CONFIRM_TIMEOUT_MS 3000

/* Reads an integer member, accepting 375.0 as well as 375, since JSON does
 * not tell them apart. FALSE when the member is absent; an error when it is
 * not an integer. */
static gboolean
get_int_param (JsonObject  *params,
               const char  *name,
               gint64      *value,
               GError     **error)
{
  JsonNode *node = params != NULL ? json_object_get_member (params, name) : NULL;
  GType type;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;

  type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;

  if (type == G_TYPE_INT64)
    {
      *value = json_node_get_int (node);
      return TRUE;
    }

  if (type == G_TYPE_DOUBLE)
    {
      double d = json_node_get_double (node);

      if (d == (double) (gint64) d)
        {
          *value = (gint64) d;
          return TRUE;
        }
    }

  g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
               "\"%s\" must be an integer", name);
  return FALSE;
}

static gboolean
get_boolean_param (JsonObject  *params,
                   const char  *name,
                   gboolean    *value,
                   GError     **error)
{
  JsonNode *node = params != NULL ? json_object_get_member (params, name) : NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "\"%s\" must be true or false", name);
      return FALSE;
    }

  *value = json_node_get_boolean (node);
  return TRUE;
}

static const char *
view_title (WebKitWebView *view)
{
  const char *title = webkit_web_view_get_title (view);

  return title != NULL ? title : "";
}

static const char *
view_uri (WebKitWebView *view)
{
  const char *uri = webkit_web_view_get_uri (view);

  return uri != NULL ? uri : "about:blank";
}

/* browser_screenshot */

typedef struct
{
  gboolean       full_page;
  char          *save_path;  /* resolved inside the workspace, at the check */
  char          *save_request;  /* as the agent gave it */
  char          *workspace_dir;
  char          *ref;        /* one element's picture */
  gboolean       jpeg;
  int            quality;
  int            max_width;  /* 0: no scaling */
  /* The element's box and the viewport, in CSS pixels. */
  double         box[4];
  double         inner_width;
  WebKitWebView *view;
  GdkTexture    *texture;
  int            width;
  int            height;
  gboolean       truncated;
} ScreenshotData;

static void
screenshot_data_free (ScreenshotData *data)
{
  g_clear_object (&data->texture);
  g_clear_object (&data->view);
  g_free (data->save_path);
  g_free (data->save_request);
  g_free (data->workspace_dir);
  g_free (data->ref);
  g_free (data);
}

/* What the encoding thread gets: a texture in memory, the part of it to
 * keep, and how to encode it. */
typedef struct
{
  GdkTexture *texture;
  int         max_height;
  int         crop[4];     /* x, y, width, height in texture pixels; width 0: all */
  int         max_width;
  gboolean    jpeg;
  int         quality;
  int         out_width;
  int         out_height;
  /* When the image goes to a file: where the agent asked, and where it was
   * written. */
  char       *workspace_dir;
  char       *save_request;
  char       *written;
} EncodeData;

static void
encode_data_free (EncodeData *data)
{
  g_clear_object (&data->texture);
  g_free (data->workspace_dir);
  g_free (data->save_request);
  g_free (data->written);
  g_free (data);
}

/* Cropping, scaling and JPEG go through a pixbuf. Pages are opaque, so
 * the alpha that a memory texture carries is composited onto white. */
static GBytes *
encode_pixbuf (EncodeData  *data,
               GError     **error)
{
  GdkTexture *texture = data->texture;
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  gsize stride = (gsize) width * 4;
  g_autofree guchar *pixels = g_malloc (stride * height);
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  g_autoptr(GdkPixbuf) scaled = NULL;
  GdkPixbuf *out;
  int x0 = 0, y0 = 0, w = width, h = height;
  int out_stride;
  guchar *out_pixels;
  g_autofree char *quality = NULL;
  char *buffer = NULL;
  gsize size = 0;
  gboolean ok;

  if (data->crop[2] > 0 && data->crop[3] > 0)
    {
      x0 = CLAMP (data->crop[0], 0, width - 1);
      y0 = CLAMP (data->crop[1], 0, height - 1);
      w = CLAMP (data->crop[2], 1, width - x0);
      h = CLAMP (data->crop[3], 1, height - y0);
    }
  if (data->max_height > 0 && h > data->max_height)
    h = data->max_height;

  /* GDK_MEMORY_DEFAULT is B, G, R, A (premultiplied) in memory. */
  gdk_texture_download (texture, pixels, stride);
  pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, w, h);
  out_stride = gdk_pixbuf_get_rowstride (pixbuf);
  out_pixels = gdk_pixbuf_get_pixels (pixbuf);
  for (int y = 0; y < h; y++)
    {
      const guchar *in = pixels + (gsize) (y0 + y) * stride + (gsize) x0 * 4;
      guchar *o = out_pixels + (gsize) y * out_stride;

      for (int x = 0; x < w; x++, in += 4, o += 3)
        {
          int white = 255 - in[3];

          o[0] = (guchar) MIN (255, in[2] + white);
          o[1] = (guchar) MIN (255, in[1] + white);
          o[2] = (guchar) MIN (255, in[0] + white);
        }
    }

  out = pixbuf;
  if (data->max_width > 0 && w > data->max_width)
    {
      int scaled_height = MAX (1, (int) ((gint64) h * data->max_width / w));

      scaled = gdk_pixbuf_scale_simple (pixbuf, data->max_width, scaled_height,
                                        GDK_INTERP_BILINEAR);
      out = scaled;
    }

  data->out_width = gdk_pixbuf_get_width (out);
  data->out_height = gdk_pixbuf_get_height (out);

  if (data->jpeg)
    {
      quality = g_strdup_printf ("%d", data->quality);
      ok = gdk_pixbuf_save_to_buffer (out, &buffer, &size, "jpeg", error, "quality", quality, NULL);
    }
  else
    {
      ok = gdk_pixbuf_save_to_buffer (out, &buffer, &size, "png", error, NULL);
    }

  return ok ? g_bytes_new_take (buffer, size) : NULL;
}

/* Runs in a worker thread: encoding a large page takes long enough to be
 * felt if the main loop did it. */
static void
encode_png_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  EncodeData *data = task_data;
  GdkTexture *texture = data->texture;
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  int max_height = data->max_height;
  g_autoptr(GdkTexture) cropped = NULL;
  g_autoptr(GBytes) png = NULL;

  if (data->jpeg || data->max_width > 0 || data->crop[2] > 0)
    {
      GError *error = NULL;

      png = encode_pixbuf (data, &error);
      if (png == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
    }
  else
    {
      if (max_height > 0 && height > max_height)
        {
          gsize stride = (gsize) width * 4;
          guchar *pixels = g_malloc (stride * height);
          g_autoptr(GBytes) bytes = NULL;

          gdk_texture_download (texture, pixels, stride);
          bytes = g_bytes_new_take (pixels, stride * max_height);
          cropped = gdk_memory_texture_new (width, max_height, GDK_MEMORY_DEFAULT, bytes, stride);
          texture = cropped;
        }

      data->out_width = gdk_texture_get_width (texture);
      data->out_height = gdk_texture_get_height (texture);
      png = gdk_texture_save_to_png_bytes (texture);
    }

  /* Written here, off the main loop, opened safely inside the workspace at
   * the moment of writing: the folder may have changed since the check. */
  if (data->save_request != NULL)
    {
      GError *error = NULL;

      data->written = tw_workspace_path_write (data->workspace_dir, data->save_request, png, &error);
      if (data->written == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
    }

  g_task_return_pointer (task, g_steal_pointer (&png), (GDestroyNotify) g_bytes_unref);
}

static void
screenshot_encoded_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ScreenshotData *data = g_task_get_task_data (task);
  EncodeData *encode_data = g_task_get_task_data (G_TASK (result));
  g_autoptr(GBytes) png = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *base64 = NULL;
  JsonObject *reply;
  gsize size = 0;
  const guchar *bytes;

  png = g_task_propagate_pointer (G_TASK (result), &error);
  if (png == NULL && error != NULL && error->domain == TW_BROWSER_ERROR)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (png == NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "Could not encode the screenshot as %s: %s",
                               data->jpeg ? "JPEG" : "PNG",
                               error != NULL ? error->message : "unknown error");
      return;
    }

  if (g_task_return_error_if_cancelled (task))
    return;

  reply = json_object_new ();
  json_object_set_int_member (reply, "width", encode_data->out_width);
  json_object_set_int_member (reply, "height", encode_data->out_height);
  json_object_set_string_member (reply, "mimeType", data->jpeg ? "image/jpeg" : "image/png");
  if (data->ref != NULL)
    json_object_set_string_member (reply, "ref", data->ref);
  /* Image pixels per pixel of the page, so a point of the image maps back. */
  if (encode_data->out_width != data->width)
    json_object_set_double_member (reply, "scale",
                                   (double) encode_data->out_width / MAX (1, data->width));

  if (data->save_path != NULL)
    {
      json_object_set_string_member (reply, "path", encode_data->written);
      g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
      return;
    }

  bytes = g_bytes_get_data (png, &size);
  base64 = g_base64_encode (bytes, size);
  json_object_set_string_member (reply, data->jpeg ? "jpeg" : "png", base64);
  if (data->truncated)
    json_object_set_boolean_member (reply, "truncated", TRUE);
  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
screenshot_taken_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ScreenshotData *data = g_task_get_task_data (task);
  g_autoptr(GTask) encode = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;
  EncodeData *encode_data;
  GdkTexture *texture;
  int max_height = 0;
  int crop[4] = { 0, 0, 0, 0 };

  texture = webkit_web_view_get_snapshot_finish (WEBKIT_WEB_VIEW (object), result, &error);
  if (texture == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                 "WebKit could not take the screenshot: %s", error->message);
      return;
    }

  data->texture = texture;
  data->width = gdk_texture_get_width (texture);
  data->height = gdk_texture_get_height (texture);

  /* The element's box, from CSS pixels to the texture's. */
  if (data->ref != NULL)
    {
      double scale = data->inner_width > 0 ? data->width / data->inner_width : 1.0;

      /* Rounded (the box is never negative), so a 120 × 40 button at a fractional offset gives a
       * 120 × 40 picture. */
      crop[0] = (int) (data->box[0] * scale + 0.5);
      crop[1] = (int) (data->box[1] * scale + 0.5);
      crop[2] = MAX (1, (int) (data->box[2] * scale + 0.5));
      crop[3] = MAX (1, (int) (data->box[3] * scale + 0.5));
      crop[2] = MIN (crop[2], data->width - MIN (crop[0], data->width - 1));
      crop[3] = MIN (crop[3], data->height - MIN (crop[1], data->height - 1));
      data->width = crop[2];
      data->height = crop[3];
    }

  if (data->save_path == NULL && data->height > TW_PAGE_TOOLS_SCREENSHOT_MAX_HEIGHT)
    {
      max_height = TW_PAGE_TOOLS_SCREENSHOT_MAX_HEIGHT;
      data->height = max_height;
      data->truncated = TRUE;
    }

  /* Textures WebKit hands out for snapshots live in memory; anything else
   * (a GL texture) is read back here, on the thread that owns it, so the
   * worker only ever touches memory. */
  if (!GDK_IS_MEMORY_TEXTURE (texture))
    {
      int width = gdk_texture_get_width (texture);
      int height = gdk_texture_get_height (texture);
      gsize stride = (gsize) width * 4;
      guchar *pixels = g_malloc (stride * height);
      g_autoptr(GBytes) bytes = NULL;

      gdk_texture_download (texture, pixels, stride);
      bytes = g_bytes_new_take (pixels, stride * height);
      g_object_unref (data->texture);
      data->texture = gdk_memory_texture_new (width, height, GDK_MEMORY_DEFAULT, bytes, stride);
    }

  cancellable = g_task_get_cancellable (task);
  encode = g_task_new (NULL, cancellable, screenshot_encoded_cb, g_steal_pointer (&task));
  g_task_set_source_tag (encode, encode_png_thread);
  encode_data = g_new0 (EncodeData, 1);
  encode_data->texture = g_object_ref (data->texture);
  encode_data->max_height = max_height;
  memcpy (encode_data->crop, crop, sizeof crop);
  encode_data->max_width = data->max_width;
  encode_data->jpeg = data->jpeg;
  encode_data->quality = data->quality;
  encode_data->workspace_dir = g_strdup (data->workspace_dir);
  encode_data->save_request = g_strdup (data->save_request);
  g_task_set_task_data (encode, encode_data, (GDestroyNotify) encode_data_free);
  g_task_run_in_thread (encode, encode_png_thread);
}

static void
take_snapshot (GTask *task)
{
  ScreenshotData *data = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  webkit_web_view_get_snapshot (data->view,
                                data->full_page ? WEBKIT_SNAPSHOT_REGION_FULL_DOCUMENT
                                                : WEBKIT_SNAPSHOT_REGION_VISIBLE,
                                WEBKIT_SNAPSHOT_OPTIONS_NONE,
                                cancellable,
                                screenshot_taken_cb,
                                task);
}

static double
box_member (JsonObject *object,
            const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) ? json_node_get_double (node) : 0;
}

static void
element_box_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ScreenshotData *data = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *box;

  node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);
  if (node == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "the page gave no box for %s", data->ref);
      return;
    }

  box = json_node_get_object (node);
  data->box[0] = box_member (box, "x");
  data->box[1] = box_member (box, "y");
  data->box[2] = box_member (box, "width");
  data->box[3] = box_member (box, "height");
  data->inner_width = box_member (box, "innerWidth");
  if (data->box[2] < 1 || data->box[3] < 1)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_INTERACTABLE,
                               "the element %s is outside the viewport", data->ref);
      return;
    }

  take_snapshot (g_steal_pointer (&task));
}

void
tw_page_tools_screenshot_async (WebKitWebView       *view,
                                TwPageRuntime       *runtime,
                                JsonObject          *params,
                                const char          *workspace_dir,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  ScreenshotData *data;
  const char *save_path;
  const char *ref;
  const char *format;
  gint64 quality = 80;
  gint64 max_width = 0;

  g_return_if_fail (WEBKIT_IS_WEB_VIEW (view));
  g_return_if_fail (TW_IS_PAGE_RUNTIME (runtime));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (view, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_page_tools_screenshot_async);

  data = g_new0 (ScreenshotData, 1);
  data->view = g_object_ref (view);
  g_task_set_task_data (task, data, (GDestroyNotify) screenshot_data_free);

  if (!get_boolean_param (params, "fullPage", &data->full_page, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  save_path = tw_json_get_string_arg (params, "savePath", &error);
  if (error == NULL)
    ref = tw_json_get_string_arg (params, "ref", &error);
  if (error == NULL)
    format = tw_json_get_string_arg (params, "format", &error);
  if (error == NULL)
    get_int_param (params, "quality", &quality, &error);
  if (error == NULL)
    get_int_param (params, "maxWidth", &max_width, &error);
  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (format != NULL && g_strcmp0 (format, "png") != 0 && g_strcmp0 (format, "jpeg") != 0)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "format must be png or jpeg");
      return;
    }
  if (quality < 1 || quality > 100 || (max_width != 0 && (max_width < 16 || max_width > 8000)))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "quality must be 1 to 100 and maxWidth 16 to 8000");
      return;
    }
  if (ref != NULL && data->full_page)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "give either ref (one element) or fullPage (the whole page), "
                               "not both");
      return;
    }

  data->jpeg = g_strcmp0 (format, "jpeg") == 0;
  data->quality = (int) quality;
  data->max_width = (int) max_width;
  data->ref = g_strdup (ref);

  /* The path is checked before anything is captured, so a refused path
   * costs nothing and never leaves a file behind. */
  if (save_path != NULL)
    {
      data->save_path = tw_workspace_path_check (workspace_dir, save_path,
                                                 TW_WORKSPACE_PATH_NEW_FILE, &error);
      if (data->save_path == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      data->save_request = g_strdup (save_path);
      data->workspace_dir = g_strdup (workspace_dir);
    }

  if (ref != NULL)
    {
      g_autoptr(JsonObject) args = json_object_new ();

      json_object_set_string_member (args, "ref", ref);
      tw_page_runtime_call_async (runtime, "pageState.elementBox", args, cancellable,
                                  element_box_cb, g_steal_pointer (&task));
      return;
    }

  take_snapshot (g_steal_pointer (&task));
}

JsonObject *
tw_page_tools_screenshot_finish (WebKitWebView  *view,
                                 GAsyncResult   *result,
                                 GError        **error)
{
  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);
  g_return_val_if_fail (g_task_is_valid (result, view), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* browser_logs */

JsonObject *
tw_page_tools_logs (TwTabLog    *log,
                    JsonObject  *params,
                    GError     **error)
{
  gint64 max_entries = TW_PAGE_TOOLS_LOGS_DEFAULT_ENTRIES;
  g_autoptr(GError) local_error = NULL;
  guint capacity;
  JsonObject *reply;

  g_return_val_if_fail (TW_IS_TAB_LOG (log), NULL);

  capacity = tw_tab_log_get_capacity (log);
  max_entries = MIN (max_entries, (gint64) capacity);

  get_int_param (params, "maxEntries", &max_entries, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  if (max_entries < 1 || max_entries > (gint64) capacity)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "\"maxEntries\" must be between 1 and %u", capacity);
      return NULL;
    }

  reply = json_object_new ();
  json_object_set_array_member (reply, "entries", tw_tab_log_get_entries (log, max_entries));
  json_object_set_int_member (reply, "total", tw_tab_log_get_n_entries (log));
  json_object_set_int_member (reply, "dropped", tw_tab_log_get_n_dropped (log));

  return reply;
}

/* browser_wait */

typedef struct
{
  TwPageRuntime *runtime;
  char          *text;
  char          *url;
  /* The other conditions (wait.js): "textGone", "selector", "ref" or
   * "loadState", the arguments of its look, and what it waits for. */
  char          *kind;
  JsonObject    *condition;
  char          *value;
  guint          timeout_ms;
  gint64         started;

  guint          poll_id;
  guint          deadline_id;
  gulong         uri_handler;

  /* The look in flight, if any: cancelled when the wait ends. */
  GCancellable  *check_cancellable;
  gboolean       check_in_flight;
  guint          n_checks;
  char          *excerpt;
  char          *check_problem;

  /* loadState networkidle judged from WebKit's own view of the tab's
   * requests (@log): the page has loaded and none of its requests has been
   * in flight for NETWORK_IDLE_MS. */
  TwTabLog      *log;
  gboolean       network_idle;

  /* The time ran out while a look was in flight: its answer, if it comes
   * within WAIT_REPORT_GRACE_MS, says what the page shows, and then the
   * wait ends. */
  gboolean       expired;
  gboolean       done;
} WaitData;

static void
wait_data_free (WaitData *data)
{
  g_assert (data->poll_id == 0);
  g_assert (data->deadline_id == 0);

  g_clear_object (&data->runtime);
  g_clear_object (&data->check_cancellable);
  g_clear_object (&data->log);
  g_free (data->text);
  g_free (data->url);
  g_free (data->kind);
  g_clear_pointer (&data->condition, json_object_unref);
  g_free (data->value);
  g_free (data->excerpt);
  g_free (data->check_problem);
  g_free (data);
}

static void
wait_stop (GTask *task)
{
  WebKitWebView *view = g_task_get_source_object (task);
  WaitData *data = g_task_get_task_data (task);

  data->done = TRUE;
  g_clear_handle_id (&data->poll_id, g_source_remove);
  g_clear_handle_id (&data->deadline_id, g_source_remove);
  g_clear_signal_handler (&data->uri_handler, view);
  g_cancellable_cancel (data->check_cancellable);
}

static void
wait_succeed (GTask      *task,
              const char *matched)
{
  WebKitWebView *view = g_task_get_source_object (task);
  WaitData *data = g_task_get_task_data (task);
  g_autoptr(GTask) hold = NULL;
  JsonObject *reply;

  if (data->done)
    return;

  /* Removing the sources may drop every other reference. */
  hold = g_object_ref (task);
  wait_stop (task);

  reply = json_object_new ();
  json_object_set_string_member (reply, "url", view_uri (view));
  json_object_set_string_member (reply, "title", view_title (view));
  json_object_set_string_member (reply, "matched", matched);
  json_object_set_string_member (reply, "value", data->value != NULL ? data->value
                                                 : data->text != NULL ? data->text : data->url);
  json_object_set_int_member (reply, "elapsedMs", (g_get_monotonic_time () - data->started) / 1000);
  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
wait_fail (GTask  *task,
           GError *error)
{
  WaitData *data = g_task_get_task_data (task);
  g_autoptr(GTask) hold = NULL;

  if (data->done)
    {
      g_error_free (error);
      return;
    }

  hold = g_object_ref (task);
  wait_stop (task);
  g_task_return_error (task, error);
}

static gboolean
wait_url_matches (GTask *task)
{
  WebKitWebView *view = g_task_get_source_object (task);
  WaitData *data = g_task_get_task_data (task);
  const char *uri = webkit_web_view_get_uri (view);

  return uri != NULL && strstr (uri, data->url) != NULL;
}

static void
wait_uri_changed_cb (WebKitWebView *view,
                     GParamSpec    *pspec,
                     GTask         *task)
{
  if (wait_url_matches (task))
    wait_succeed (task, "url");
}

/* After the page's load event: whether none of the tab's requests has been
 * in flight for NETWORK_IDLE_MS, from the requests WebKit itself reports
 * (pending ones, failed ones, beacons and cross-origin ones included,
 * which the page's Resource Timing never lists). Otherwise the excerpt
 * names the requests still in flight, or when the last one ended. */
static gboolean
wait_network_idle (WaitData *data)
{
  gint64 last_us = 0;
  g_autoptr(JsonArray) in_flight = tw_tab_log_get_in_flight (data->log, &last_us);
  guint n = json_array_get_length (in_flight);
  gint64 quiet_ms = last_us > 0 ? (g_get_monotonic_time () - last_us) / 1000 : G_MAXINT64;
  GString *excerpt;

  g_free (data->excerpt);

  if (n == 0)
    {
      if (quiet_ms >= NETWORK_IDLE_MS)
        {
          data->excerpt = g_strdup ("no request in flight");
          return TRUE;
        }

      data->excerpt = g_strdup_printf ("the last request ended %" G_GINT64_FORMAT " ms ago",
                                       quiet_ms);
      return FALSE;
    }

  excerpt = g_string_new (NULL);
  g_string_append_printf (excerpt, "%u request%s still in flight: ", n, n == 1 ? "" : "s");
  for (guint i = 0; i < MIN (n, 5u); i++)
    {
      JsonObject *request = json_array_get_object_element (in_flight, i);

      g_string_append_printf (excerpt, "%s%s %s (%s, for %" G_GINT64_FORMAT " ms)",
                              i > 0 ? ", " : "",
                              json_object_get_string_member_with_default (request, "method", "GET"),
                              json_object_get_string_member_with_default (request, "url", ""),
                              json_object_get_string_member_with_default (request, "resourceType",
                                                                          "other"),
                              json_object_get_int_member_with_default (request, "pendingMs", 0));
    }
  if (n > 5)
    g_string_append_printf (excerpt, " and %u more", n - 5);
  data->excerpt = g_string_free (excerpt, FALSE);

  return FALSE;
}

static void wait_report_timeout (GTask *task);

static void
wait_check_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  WaitData *data = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *answer;

  node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);

  if (data->done)
    return;

  data->check_in_flight = FALSE;
  data->n_checks++;

  if (node == NULL)
    {
      /* A crashed page will not come back by itself; anything else (a
       * navigation tore the document down, a busy script) may pass, so the
       * next poll looks again. */
      if (g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED) ||
          g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT))
        {
          wait_fail (task, g_steal_pointer (&error));
          return;
        }

      g_free (data->check_problem);
      data->check_problem = g_strdup (error->message);
      goto checked;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    goto checked;

  answer = json_node_get_object (node);

  g_clear_pointer (&data->check_problem, g_free);
  g_free (data->excerpt);
  data->excerpt = g_strdup (json_object_get_string_member_with_default (answer, "excerpt", ""));

  if (json_object_get_boolean_member_with_default (answer, "found", FALSE) &&
      (!data->network_idle || wait_network_idle (data)))
    wait_succeed (task, data->kind != NULL ? data->kind : "text");

checked:
  if (data->expired)
    wait_report_timeout (task);
}

/* A "function" wait: the agent's predicate runs in the page's own world,
 * as browser_evaluate's functions do, and holds once it returns a truthy
 * value. */
static gboolean
json_truthy (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;
  if (!JSON_NODE_HOLDS_VALUE (node))
    return TRUE;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_BOOLEAN:
      return json_node_get_boolean (node);
    case G_TYPE_INT64:
      return json_node_get_int (node) != 0;
    case G_TYPE_DOUBLE:
      return json_node_get_double (node) != 0.0;
    case G_TYPE_STRING:
      return json_node_get_string (node)[0] != '\0';
    default:
      return TRUE;
    }
}

static void
wait_function_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  WaitData *data = g_task_get_task_data (task);
  g_autoptr(JSCValue) value = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  JsonObject *answer;

  value = webkit_web_view_call_async_javascript_function_finish (WEBKIT_WEB_VIEW (object),
                                                                 result, &error);
  if (data->done)
    return;

  data->check_in_flight = FALSE;
  data->n_checks++;

  if (value == NULL)
    {
      g_free (data->check_problem);
      data->check_problem = g_strdup (error->message);
      goto checked;
    }

  json = jsc_value_is_string (value) ? jsc_value_to_string (value) : jsc_value_to_json (value, 0);
  if (json == NULL || !json_parser_load_from_data (parser, json, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    goto checked;

  answer = json_node_get_object (json_parser_get_root (parser));
  if (json_object_has_member (answer, "threw"))
    {
      wait_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_SCRIPT_ERROR,
                                    "The function of the wait threw: %s",
                                    json_object_get_string_member_with_default (answer, "message",
                                                                                "an exception")));
      return;
    }

  g_clear_pointer (&data->check_problem, g_free);
  g_free (data->excerpt);
  {
    g_autofree char *returned = json_object_has_member (answer, "value")
                                ? json_to_string (json_object_get_member (answer, "value"), FALSE)
                                : g_strdup ("undefined");

    if (strlen (returned) > 200)
      returned[200] = '\0';
    data->excerpt = g_strdup_printf ("the function returned %s", returned);
  }

  if (json_truthy (json_object_get_member (answer, "value")))
    wait_succeed (task, "function");

checked:
  if (data->expired)
    wait_report_timeout (task);
}

static void
wait_check_function (GTask *task)
{
  WebKitWebView *view = g_task_get_source_object (task);
  WaitData *data = g_task_get_task_data (task);
  g_autofree char *body = tw_evaluate_script_build_body (data->value);
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "nonce", "s", "");
  g_variant_dict_insert (&dict, "maxBytes", "d", 4096.0);
  data->check_in_flight = TRUE;
  webkit_web_view_call_async_javascript_function (view, body, -1, g_variant_dict_end (&dict),
                                                  NULL, "tabwright-wait.js",
                                                  data->check_cancellable, wait_function_cb,
                                                  g_object_ref (task));
}

static void
wait_check_text (GTask *task)
{
  WaitData *data = g_task_get_task_data (task);
  g_autoptr(JsonObject) args = NULL;

  if (data->check_in_flight)
    return;

  if (g_strcmp0 (data->kind, "function") == 0)
    {
      wait_check_function (task);
      return;
    }

  if (data->condition != NULL)
    {
      args = json_object_ref (data->condition);
    }
  else
    {
      args = json_object_new ();
      json_object_set_string_member (args, "text", data->text);
    }

  data->check_in_flight = TRUE;
  tw_page_runtime_call_with_timeout_async (data->runtime,
                                           data->condition != NULL ? "wait.check"
                                                                   : "pageState.findText",
                                           args,
                                           WAIT_CHECK_TIMEOUT_MS,
                                           data->check_cancellable,
                                           wait_check_cb,
                                           g_object_ref (task));
}

static gboolean
wait_poll_cb (gpointer user_data)
{
  GTask *task = user_data;
  WaitData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (g_cancellable_set_error_if_cancelled (g_task_get_cancellable (task), &error))
    {
      data->poll_id = 0;
      wait_fail (task, g_steal_pointer (&error));
      return G_SOURCE_REMOVE;
    }

  if (data->url != NULL)
    {
      if (wait_url_matches (task))
        {
          data->poll_id = 0;
          wait_succeed (task, "url");
          return G_SOURCE_REMOVE;
        }
    }
  else
    {
      wait_check_text (task);
    }

  return G_SOURCE_CONTINUE;
}

static void
wait_report_timeout (GTask *task)
{
  WebKitWebView *view = g_task_get_source_object (task);
  WaitData *data = g_task_get_task_data (task);
  g_autofree char *shows = NULL;
  GError *error;

  if (data->url != NULL)
    {
      if (wait_url_matches (task))
        {
          wait_succeed (task, "url");
          return;
        }

      error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                           "The URL did not come to contain \"%s\" within %u ms; "
                           "the tab is at %s (\"%s\")",
                           data->url, data->timeout_ms, view_uri (view), view_title (view));
      wait_fail (task, error);
      return;
    }

  if (data->kind != NULL)
    {
      if (data->excerpt != NULL && data->check_problem == NULL)
        shows = g_strdup (data->excerpt);
      else
        shows = g_strdup ("the page did not answer in time (is a script keeping it busy?)");

      error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                           "The wait for %s %s did not hold within %u ms. The tab shows \"%s\" "
                           "at %s; %s",
                           data->kind, data->value, data->timeout_ms, view_title (view),
                           view_uri (view), shows);
      wait_fail (task, error);
      return;
    }

  if (data->excerpt != NULL && data->check_problem == NULL)
    shows = g_strdup_printf ("its visible text begins: \"%s\"", data->excerpt);
  else if (data->n_checks == 0 || data->check_problem != NULL)
    shows = g_strdup ("the page did not answer in time (is a script keeping it busy?)");
  else
    shows = g_strdup ("it shows no text");

  error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                       "The text \"%s\" did not appear within %u ms. The tab shows \"%s\" "
                       "at %s; %s",
                       data->text, data->timeout_ms, view_title (view), view_uri (view), shows);
  wait_fail (task, error);
}

static gboolean
wait_deadline_cb (gpointer user_data)
{
  GTask *task = user_data;
  WaitData *data = g_task_get_task_data (task);

  data->deadline_id = 0;

  /* On a busy machine the look may still be on its way: what the page
   * shows comes with its answer, if it comes within WAIT_REPORT_GRACE_MS,
   * and no other look starts meanwhile. */
  if (data->url == NULL && data->check_in_flight && !data->expired)
    {
      data->expired = TRUE;
      g_clear_handle_id (&data->poll_id, g_source_remove);
      data->deadline_id = g_timeout_add_full (G_PRIORITY_DEFAULT, WAIT_REPORT_GRACE_MS,
                                              wait_deadline_cb, g_object_ref (task),
                                              g_object_unref);
      g_source_set_static_name (g_main_context_find_source_by_id (NULL, data->deadline_id),
                                "[tabwright] browser_wait report");
      return G_SOURCE_REMOVE;
    }

  wait_report_timeout (task);
  return G_SOURCE_REMOVE;
}

static gboolean
is_blank (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (!g_unichar_isspace (g_utf8_get_char (p)))
        return FALSE;
    }

  return TRUE;
}

void
tw_page_tools_wait_async (WebKitWebView       *view,
                          TwPageRuntime       *runtime,
                          TwTabLog            *log,
                          JsonObject          *params,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  gint64 timeout_ms = TW_PAGE_TOOLS_WAIT_DEFAULT_TIMEOUT_MS;
  g_autofree char *data_kind = NULL;
  g_autofree char *data_value = NULL;
  g_autoptr(JsonObject) condition = NULL;
  const char *text;
  const char *url;
  WaitData *data;

  g_return_if_fail (WEBKIT_IS_WEB_VIEW (view));
  g_return_if_fail (TW_IS_PAGE_RUNTIME (runtime));
  g_return_if_fail (log == NULL || TW_IS_TAB_LOG (log));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (view, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_page_tools_wait_async);

  text = tw_json_get_string_arg (params, "text", &error);
  if (error == NULL)
    url = tw_json_get_string_arg (params, "url", &error);
  if (error == NULL)
    get_int_param (params, "timeoutMs", &timeout_ms, &error);
  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  {
    static const char * const kinds[] = { "textGone", "selector", "ref", "loadState", "function",
                                          NULL };
    const char *kind = NULL;
    const char *state = NULL;
    guint n_given = (text != NULL) + (url != NULL);

    for (guint i = 0; error == NULL && kinds[i] != NULL; i++)
      {
        const char *value = tw_json_get_string_arg (params, kinds[i], &error);

        if (value != NULL)
          {
            n_given++;
            kind = kinds[i];
            g_free (data_value);
            data_value = g_strdup (value);
          }
      }
    if (error == NULL)
      state = tw_json_get_string_arg (params, "state", &error);
    if (error != NULL)
      {
        g_task_return_error (task, g_steal_pointer (&error));
        return;
      }

    if (n_given != 1)
      {
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                 "Give exactly one of \"text\", \"textGone\", \"url\", "
                                 "\"selector\", \"ref\", \"loadState\" and \"function\"");
        return;
      }
    if (state != NULL && g_strcmp0 (kind, "selector") != 0 && g_strcmp0 (kind, "ref") != 0)
      {
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                 "\"state\" goes with \"selector\" or \"ref\"");
        return;
      }
    if (state != NULL && !g_strv_contains ((const char * const []) { "attached", "detached",
                                                                     "visible", "hidden", NULL },
                                           state))
      {
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                 "\"state\" must be attached, detached, visible or hidden");
        return;
      }
    if (g_strcmp0 (kind, "loadState") == 0 &&
        !g_strv_contains ((const char * const []) { "domcontentloaded", "load", "networkidle",
                                                    NULL }, data_value))
      {
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                 "\"loadState\" must be domcontentloaded, load or networkidle");
        return;
      }
    if (kind != NULL && (is_blank (data_value)))
      {
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                 "\"%s\" must not be empty", kind);
        return;
      }
    if (state == NULL && (g_strcmp0 (kind, "selector") == 0 || g_strcmp0 (kind, "ref") == 0))
      state = "visible";
    if (kind != NULL)
      {
        data_kind = g_strdup (kind);
        condition = json_object_new ();
        json_object_set_string_member (condition, kind, data_value);
        if (state != NULL)
          json_object_set_string_member (condition, "state", state);
        if (state != NULL)
          {
            char *described = g_strdup_printf ("%s %s", data_value, state);

            g_free (data_value);
            data_value = described;
          }
      }
  }

  if ((text != NULL && is_blank (text)) || (url != NULL && url[0] == '\0'))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "\"%s\" must not be empty", text != NULL ? "text" : "url");
      return;
    }

  if (timeout_ms < TW_PAGE_TOOLS_WAIT_MIN_TIMEOUT_MS ||
      timeout_ms > TW_PAGE_TOOLS_WAIT_MAX_TIMEOUT_MS)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "\"timeoutMs\" must be between %d and %d",
                               TW_PAGE_TOOLS_WAIT_MIN_TIMEOUT_MS,
                               TW_PAGE_TOOLS_WAIT_MAX_TIMEOUT_MS);
      return;
    }

  data = g_new0 (WaitData, 1);
  data->runtime = g_object_ref (runtime);
  data->text = g_strdup (text);
  data->url = g_strdup (url);
  data->kind = g_steal_pointer (&data_kind);
  data->condition = g_steal_pointer (&condition);
  data->value = g_steal_pointer (&data_value);
  data->timeout_ms = timeout_ms;
  data->started = g_get_monotonic_time ();
  /* With the tab's log, network idle is judged here once the page says it
   * has loaded; without one, the page judges it from its Resource Timing. */
  if (log != NULL && g_strcmp0 (data->kind, "loadState") == 0 &&
      g_strcmp0 (data->value, "networkidle") == 0)
    {
      data->log = g_object_ref (log);
      data->network_idle = TRUE;
      json_object_set_string_member (data->condition, "loadState", "load");
    }
  data->check_cancellable = g_cancellable_new ();
  g_task_set_task_data (task, data, (GDestroyNotify) wait_data_free);

  if (url != NULL)
    {
      if (wait_url_matches (task))
        {
          wait_succeed (task, "url");
          return;
        }

      /* notify::uri also fires for history.pushState and fragment changes,
       * which load nothing. */
      data->uri_handler = g_signal_connect (view, "notify::uri",
                                            G_CALLBACK (wait_uri_changed_cb), task);
    }
  else
    {
      wait_check_text (task);
    }

  /* Each source keeps the task alive until wait_stop() removes it. */
  data->poll_id = g_timeout_add_full (G_PRIORITY_DEFAULT, WAIT_POLL_INTERVAL_MS,
                                      wait_poll_cb, g_object_ref (task), g_object_unref);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, data->poll_id),
                            "[tabwright] browser_wait poll");
  data->deadline_id = g_timeout_add_full (G_PRIORITY_DEFAULT, timeout_ms,
                                          wait_deadline_cb, g_object_ref (task), g_object_unref);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, data->deadline_id),
                            "[tabwright] browser_wait deadline");
}

JsonObject *
tw_page_tools_wait_finish (WebKitWebView  *view,
                           GAsyncResult   *result,
                           GError        **error)
{
  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);
  g_return_val_if_fail (g_task_is_valid (result, view), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* browser_resize */

typedef struct
{
  TwPageRuntime *runtime;
  int            width;
  int            height;
  gint64         started;
  guint          poll_id;
  gboolean       check_in_flight;
  GCancellable  *check_cancellable;
  gint64         inner_width;
  gint64         inner_height;
  gboolean       measured;
  gboolean       done;
} ResizeData;

static void
resize_data_free (ResizeData *data)
{
  g_assert (data->poll_id == 0);

  g_clear_object (&data->runtime);
  g_clear_object (&data->check_cancellable);
  g_free (data);
}

static void
resize_stop (GTask *task)
{
  ResizeData *data = g_task_get_task_data (task);

  data->done = TRUE;
  g_clear_handle_id (&data->poll_id, g_source_remove);
  g_cancellable_cancel (data->check_cancellable);
}

static void
resize_succeed (GTask *task)
{
  ResizeData *data = g_task_get_task_data (task);
  g_autoptr(GTask) hold = g_object_ref (task);
  JsonObject *reply;

  resize_stop (task);

  reply = json_object_new ();
  json_object_set_int_member (reply, "width", data->width);
  json_object_set_int_member (reply, "height", data->height);
  json_object_set_int_member (reply, "innerWidth", data->inner_width);
  json_object_set_int_member (reply, "innerHeight", data->inner_height);
  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
resize_fail (GTask  *task,
             GError *error)
{
  g_autoptr(GTask) hold = g_object_ref (task);

  resize_stop (task);
  g_task_return_error (task, error);
}

static void
resize_check_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ResizeData *data = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *answer;

  node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);

  if (data->done)
    return;

  data->check_in_flight = FALSE;

  if (node == NULL)
    {
      if (g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED))
        resize_fail (task, g_steal_pointer (&error));
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return;

  answer = json_node_get_object (node);
  data->inner_width = json_object_get_int_member_with_default (answer, "innerWidth", 0);
  data->inner_height = json_object_get_int_member_with_default (answer, "innerHeight", 0);
  data->measured = TRUE;

  /* The page has the new size and its resize listeners have run. */
  if (data->inner_width == data->width && data->inner_height == data->height &&
      json_object_get_boolean_member_with_default (answer, "seen", FALSE))
    resize_succeed (task);
}

static gboolean
resize_poll_cb (gpointer user_data)
{
  GTask *task = user_data;
  ResizeData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (g_cancellable_set_error_if_cancelled (g_task_get_cancellable (task), &error))
    {
      data->poll_id = 0;
      resize_fail (task, g_steal_pointer (&error));
      return G_SOURCE_REMOVE;
    }

  if ((g_get_monotonic_time () - data->started) / 1000 >= RESIZE_CONFIRM_TIMEOUT_MS)
    {
      data->poll_id = 0;

      /* The page answered with another size (a zoomed page, say): report
       * what it sees rather than pretend. A page that never answered is a
       * timeout. */
      if (data->measured)
        resize_succeed (task);
      else
        resize_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                                        "The viewport is now %d × %d, but the page did not "
                                        "confirm its new size within %d ms (is a script "
                                        "keeping it busy?)",
                                        data->width, data->height, RESIZE_CONFIRM_TIMEOUT_MS));
      return G_SOURCE_REMOVE;
    }

  if (!data->check_in_flight)
    {
      data->check_in_flight = TRUE;
      tw_page_runtime_call_with_timeout_async (data->runtime, "pageState.viewportSize", NULL,
                                               RESIZE_CONFIRM_TIMEOUT_MS,
                                               data->check_cancellable,
                                               resize_check_cb,
                                               g_object_ref (task));
    }

  return G_SOURCE_CONTINUE;
}

void
tw_page_tools_resize_async (TwViewFrame         *frame,
                            TwPageRuntime       *runtime,
                            JsonObject          *params,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  gint64 width = 0;
  gint64 height = 0;
  ResizeData *data;

  g_return_if_fail (TW_IS_VIEW_FRAME (frame));
  g_return_if_fail (TW_IS_PAGE_RUNTIME (runtime));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (frame, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_page_tools_resize_async);

  if (!get_int_param (params, "width", &width, &error) ||
      !get_int_param (params, "height", &height, &error))
    {
      if (error == NULL)
        g_set_error_literal (&error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                             "Give both \"width\" and \"height\"");
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (width < TW_VIEW_FRAME_MIN_SIZE || width > TW_VIEW_FRAME_MAX_SIZE ||
      height < TW_VIEW_FRAME_MIN_SIZE || height > TW_VIEW_FRAME_MAX_SIZE)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "The viewport must be between %d and %d pixels wide and high; "
                               "%" G_GINT64_FORMAT " × %" G_GINT64_FORMAT " is not",
                               TW_VIEW_FRAME_MIN_SIZE, TW_VIEW_FRAME_MAX_SIZE, width, height);
      return;
    }

  if (!tw_view_frame_set_viewport_size (frame, width, height, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data = g_new0 (ResizeData, 1);
  data->runtime = g_object_ref (runtime);
  data->width = width;
  data->height = height;
  data->started = g_get_monotonic_time ();
  data->check_cancellable = g_cancellable_new ();
  g_task_set_task_data (task, data, (GDestroyNotify) resize_data_free);

  /* The new size reaches the web process asynchronously: poll until the
   * page itself reports it. The source holds the task's only other
   * reference until it stops. */
  data->poll_id = g_timeout_add_full (G_PRIORITY_DEFAULT, RESIZE_POLL_INTERVAL_MS,
                                      resize_poll_cb, g_object_ref (task), g_object_unref);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, data->poll_id),
                            "[tabwright] browser_resize confirm");
}

JsonObject *
tw_page_tools_resize_finish (TwViewFrame   *frame,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (TW_IS_VIEW_FRAME (frame), NULL);
  g_return_val_if_fail (g_task_is_valid (result, frame), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
