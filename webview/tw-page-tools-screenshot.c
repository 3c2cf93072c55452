/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-page-tools.h"
#include "tw-page-tools-private.h"

#include "tw-json.h"
#include "tw-error.h"
#include "tw-opaque-pixbuf.h"
#include "tw-screenshot-marks.h"
#include "tw-workspace-path.h"

#include <math.h>
#include <string.h>

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
  /* With marks: the page's answer to marks.collect, then the labels in
   * the picture's pixels. */
  gboolean       marks;
  JsonObject    *marks_reply;
  GArray        *mark_labels;
  double         marks_scale;
  /* The element's box and the viewport, in CSS pixels. */
  double         box[4];
  double         inner_width;
  WebKitWebView *view;
  TwPageRuntime *runtime;
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
  g_clear_object (&data->runtime);
  g_clear_pointer (&data->marks_reply, json_object_unref);
  g_clear_pointer (&data->mark_labels, g_array_unref);
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
  GArray     *marks;        /* TwScreenshotMark, in texture pixels; NULL: none */
  double      marks_scale;
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
  g_clear_pointer (&data->marks, g_array_unref);
  g_free (data->workspace_dir);
  g_free (data->save_request);
  g_free (data->written);
  g_free (data);
}

/* Cropping, scaling and JPEG go through a pixbuf. */
static GBytes *
encode_pixbuf (EncodeData  *data,
               GError     **error)
{
  GdkTexture *texture = data->texture;
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  g_autoptr(GdkPixbuf) scaled = NULL;
  GdkPixbuf *out;
  int x0 = 0, y0 = 0, w = width, h = height;
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

  pixbuf = tw_opaque_pixbuf_new_from_texture (texture, x0, y0, w, h);
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
  GdkTexture *texture;
  int width;
  int height;
  int max_height = data->max_height;
  g_autoptr(GdkTexture) cropped = NULL;
  g_autoptr(GBytes) png = NULL;

  /* The labels go on first, so that cropping and scaling treat them as
   * part of the picture. */
  if (data->marks != NULL)
    {
      GdkTexture *marked = tw_screenshot_marks_draw (data->texture,
                                                     (TwScreenshotMark *) (gpointer) data->marks->data,
                                                     data->marks->len, data->marks_scale);

      g_object_unref (data->texture);
      data->texture = marked;
    }

  texture = data->texture;
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);

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
  if (data->mark_labels != NULL)
    {
      JsonArray *refs = json_array_new ();

      for (guint i = 0; i < data->mark_labels->len; i++)
        json_array_add_string_element (refs, g_array_index (data->mark_labels,
                                                            TwScreenshotMark, i).label);
      json_object_set_array_member (reply, "marks", refs);
      json_object_set_int_member (reply, "marksLeftOut",
                                  tw_json_get_int (data->marks_reply, "more", 0));
    }
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

/* The labels of a marked screenshot, from the page's CSS pixels to the
 * picture's: the picture is the viewport, or the whole page from its
 * top-left, at the screen's scale and the tab's zoom. */
static void
place_marks (ScreenshotData *data)
{
  JsonArray *marks = tw_json_get_array (data->marks_reply, "marks");
  double css_width = data->full_page ? tw_json_get_number (data->marks_reply, "pageWidth", 0)
                                     : tw_json_get_number (data->marks_reply, "innerWidth", 0);
  double scale = css_width > 0 ? data->width / css_width : 1.0;
  guint n = marks != NULL ? json_array_get_length (marks) : 0;

  data->marks_scale = scale;
  data->mark_labels = g_array_sized_new (FALSE, TRUE, sizeof (TwScreenshotMark), n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (marks, i);
      JsonObject *mark = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *ref = mark != NULL ? tw_json_get_string (mark, "ref", NULL) : NULL;
      TwScreenshotMark label = { 0 };

      if (ref == NULL || strlen (ref) >= sizeof label.label)
        continue;
      label.x = (int) floor (tw_json_get_number (mark, "x", 0) * scale);
      label.y = (int) floor (tw_json_get_number (mark, "y", 0) * scale);
      g_strlcpy (label.label, ref, sizeof label.label);
      g_array_append_val (data->mark_labels, label);
    }
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

  if (data->marks_reply != NULL)
    place_marks (data);

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
  if (data->mark_labels != NULL)
    encode_data->marks = g_array_ref (data->mark_labels);
  encode_data->marks_scale = data->marks_scale;
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

static void
marks_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ScreenshotData *data = g_task_get_task_data (task);
  GError *error = NULL;

  data->marks_reply = tw_page_runtime_call_finish_object (TW_PAGE_RUNTIME (object), result, &error,
                                                          "the page gave no marks");
  if (data->marks_reply == NULL)
    g_task_return_error (task, error);
  else
    take_snapshot (g_steal_pointer (&task));
}

/* Marks are read just before the picture is taken, so that the labels sit
 * where the elements are in it. */
static void
take_marks_or_snapshot (GTask *task)
{
  ScreenshotData *data = g_task_get_task_data (task);
  g_autoptr(JsonObject) args = NULL;

  if (!data->marks)
    {
      take_snapshot (task);
      return;
    }

  args = json_object_new ();
  json_object_set_boolean_member (args, "fullPage", data->full_page);
  tw_page_runtime_call_async (data->runtime, "marks.collect", args, g_task_get_cancellable (task),
                              marks_cb, task);
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
  g_autoptr(JsonObject) box = NULL;
  GError *error = NULL;

  box = tw_page_runtime_call_finish_object (TW_PAGE_RUNTIME (object), result, &error,
                                            "the page gave no box for %s", data->ref);
  if (box == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

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

  take_marks_or_snapshot (g_steal_pointer (&task));
}

void
tw_page_tools_screenshot_run (const TwTabJob *job,
                              GTask          *task)
{
  JsonObject *params = job->params;
  g_autoptr(GError) error = NULL;
  ScreenshotData *data;
  const char *save_path;
  const char *ref;
  const char *format;
  gint64 quality = 80;
  gint64 max_width = 0;

  g_return_if_fail (WEBKIT_IS_WEB_VIEW (job->view));
  g_return_if_fail (TW_IS_PAGE_RUNTIME (job->runtime));

  data = g_new0 (ScreenshotData, 1);
  data->view = g_object_ref (job->view);
  data->runtime = g_object_ref (job->runtime);
  g_task_set_task_data (task, data, (GDestroyNotify) screenshot_data_free);

  if (!tw_json_get_boolean_arg (params, "fullPage", &data->full_page, &error) ||
      !tw_json_get_boolean_arg (params, "marks", &data->marks, &error))
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
    _tw_page_tools_get_int_param (params, "quality", &quality, &error);
  if (error == NULL)
    _tw_page_tools_get_int_param (params, "maxWidth", &max_width, &error);
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
      data->save_path = tw_workspace_path_check (job->workspace_dir, save_path,
                                                 TW_WORKSPACE_PATH_NEW_FILE, &error);
      if (data->save_path == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      data->save_request = g_strdup (save_path);
      data->workspace_dir = g_strdup (job->workspace_dir);
    }

  if (ref != NULL)
    {
      g_autoptr(JsonObject) args = json_object_new ();

      json_object_set_string_member (args, "ref", ref);
      tw_page_runtime_call_async (job->runtime, "pageState.elementBox", args, g_task_get_cancellable (task),
                                  element_box_cb, g_object_ref (task));
      return;
    }

  take_marks_or_snapshot (g_object_ref (task));
}
