/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

#include "tw-error.h"
#include "tw-json.h"

/* browser_annotate (issue 33, "Teach"): the person points at elements and
 * draws boxes on a tab, with a note, and sends it. A call that waits gets
 * it as its result; with none waiting, it rides along with the next result
 * of a call on the tab. What goes out: the note, each mark with the refs,
 * roles and names of the elements it marks (the page runtime's
 * annotate.resolve, from the snapshot's own walk, so the next snapshot
 * prints the same refs), and the tab's screenshot with the marks drawn. */

struct _TwAnnotation
{
  GArray *marks;  /* TwAnnotationMark */
  char   *note;
};

TwAnnotation *
tw_annotation_new (void)
{
  TwAnnotation *annotation = g_new0 (TwAnnotation, 1);

  annotation->marks = g_array_new (FALSE, TRUE, sizeof (TwAnnotationMark));

  return annotation;
}

void
tw_annotation_free (TwAnnotation *annotation)
{
  if (annotation == NULL)
    return;

  g_array_unref (annotation->marks);
  g_free (annotation->note);
  g_free (annotation);
}

void
tw_annotation_add_box (TwAnnotation *annotation,
                       double        x,
                       double        y,
                       double        width,
                       double        height)
{
  TwAnnotationMark mark;

  g_return_if_fail (annotation != NULL);

  /* A box drawn from right to left or bottom to top is the same box. */
  mark.x = width < 0 ? x + width : x;
  mark.y = height < 0 ? y + height : y;
  mark.width = ABS (width);
  mark.height = ABS (height);
  g_array_append_val (annotation->marks, mark);
}

void
tw_annotation_add_point (TwAnnotation *annotation,
                         double        x,
                         double        y)
{
  TwAnnotationMark mark = { x, y, 0, 0 };

  g_return_if_fail (annotation != NULL);

  g_array_append_val (annotation->marks, mark);
}

void
tw_annotation_set_note (TwAnnotation *annotation,
                        const char   *note)
{
  g_return_if_fail (annotation != NULL);

  g_free (annotation->note);
  annotation->note = note != NULL && *note != '\0' ? g_strdup (note) : NULL;
}

const char *
tw_annotation_get_note (TwAnnotation *annotation)
{
  g_return_val_if_fail (annotation != NULL, NULL);

  return annotation->note;
}

guint
tw_annotation_get_n_marks (TwAnnotation *annotation)
{
  g_return_val_if_fail (annotation != NULL, 0);

  return annotation->marks->len;
}

const TwAnnotationMark *
tw_annotation_get_mark (TwAnnotation *annotation,
                        guint         index)
{
  g_return_val_if_fail (annotation != NULL, NULL);
  g_return_val_if_fail (index < annotation->marks->len, NULL);

  return &g_array_index (annotation->marks, TwAnnotationMark, index);
}

/* Rounded to the nearest pixel, without libm. */
static gint64
to_int (double value)
{
  return (gint64) (value < 0 ? value - 0.5 : value + 0.5);
}

static gboolean
mark_is_point (const TwAnnotationMark *mark)
{
  return mark->width <= 0 && mark->height <= 0;
}

/* Sending */

typedef struct
{
  TwBrowserTab *tab;
  GTask        *task;        /* the waiting call, or NULL */
  TwAnnotation *annotation;
  JsonArray    *marks;       /* what annotate.resolve answered, per mark */
  double        scale;       /* picture pixels per view pixel */
} SendData;

static void
send_data_free (SendData *data)
{
  g_clear_object (&data->tab);
  g_clear_object (&data->task);
  tw_annotation_free (data->annotation);
  g_clear_pointer (&data->marks, json_array_unref);
  g_free (data);
}

/* The result: the note, the marks with their elements, and the picture. */
static JsonObject *
build_result (SendData *data,
              GBytes   *png)
{
  JsonObject *result = _tw_browser_tab_build_page_result (data->tab, NULL);
  JsonArray *marks = json_array_new ();

  json_object_remove_member (result, "status");
  json_object_set_string_member (result, "outcome", "sent");
  json_object_set_string_member (result, "note",
                                 data->annotation->note != NULL ? data->annotation->note : "");

  for (guint i = 0; i < data->annotation->marks->len; i++)
    {
      const TwAnnotationMark *mark = tw_annotation_get_mark (data->annotation, i);
      JsonObject *out = json_object_new ();
      JsonNode *resolved = data->marks != NULL && i < json_array_get_length (data->marks)
                           ? json_array_get_element (data->marks, i) : NULL;
      JsonArray *elements = resolved != NULL && JSON_NODE_HOLDS_OBJECT (resolved)
                            ? tw_json_get_array (json_node_get_object (resolved), "elements") : NULL;

      json_object_set_string_member (out, "kind", mark_is_point (mark) ? "point" : "box");
      json_object_set_int_member (out, "x", to_int (mark->x));
      json_object_set_int_member (out, "y", to_int (mark->y));
      if (!mark_is_point (mark))
        {
          json_object_set_int_member (out, "width", to_int (mark->width));
          json_object_set_int_member (out, "height", to_int (mark->height));
        }
      json_object_set_array_member (out, "elements",
                                    elements != NULL ? json_array_ref (elements) : json_array_new ());
      json_array_add_object_element (marks, out);
    }
  json_object_set_array_member (result, "marks", marks);

  if (png != NULL)
    {
      gsize size = 0;
      const guchar *bytes = g_bytes_get_data (png, &size);
      g_autofree char *base64 = g_base64_encode (bytes, size);

      json_object_set_string_member (result, "mimeType", "image/png");
      json_object_set_string_member (result, "png", base64);
    }

  return result;
}

static void
deliver (SendData   *data,
         JsonObject *result,
         GError     *error)
{
  TwBrowserTab *self = data->tab;

  /* The call may have ended meanwhile (the tab closed). */
  if (data->task != NULL && self->annotate.task == data->task)
    {
      _tw_browser_tab_finish_command (self, data->task, result, error);
      return;
    }

  if (data->task == NULL && error == NULL)
    {
      g_clear_pointer (&self->annotation_waiting, json_object_unref);
      self->annotation_waiting = result;
      self->annotate_sending = FALSE;
      return;
    }

  self->annotate_sending = FALSE;
  g_clear_pointer (&result, json_object_unref);
  g_clear_error (&error);
}

/* Red boxes and rings on the picture, a white edge around each so they
 * show on any page. */
static void
draw_marks (cairo_t      *cr,
            TwAnnotation *annotation,
            double        scale)
{
  for (guint pass = 0; pass < 2; pass++)
    {
      for (guint i = 0; i < annotation->marks->len; i++)
        {
          const TwAnnotationMark *mark = tw_annotation_get_mark (annotation, i);

          if (mark_is_point (mark))
            {
              cairo_new_sub_path (cr);
              cairo_arc (cr, mark->x * scale, mark->y * scale, 12 * scale, 0, 2 * G_PI);
            }
          else
            {
              cairo_rectangle (cr, mark->x * scale, mark->y * scale,
                               mark->width * scale, mark->height * scale);
            }
        }
      if (pass == 0)
        {
          cairo_set_source_rgb (cr, 1, 1, 1);
          cairo_set_line_width (cr, 6 * scale);
        }
      else
        {
          cairo_set_source_rgb (cr, 0.88, 0.11, 0.14);
          cairo_set_line_width (cr, 3 * scale);
        }
      cairo_stroke (cr);
    }
}

typedef struct
{
  GdkTexture   *texture;
  TwAnnotation *annotation;  /* borrowed from SendData, which outlives the thread */
  double        scale;
} DrawJob;

static void
draw_job_free (DrawJob *job)
{
  g_clear_object (&job->texture);
  g_free (job);
}

static void
draw_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  DrawJob *job = task_data;
  int width = gdk_texture_get_width (job->texture);
  int height = gdk_texture_get_height (job->texture);
  int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, width);
  guchar *pixels = g_malloc ((gsize) stride * height);
  cairo_surface_t *surface;
  cairo_t *cr;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GdkTexture) drawn = NULL;

  gdk_texture_download (job->texture, pixels, stride);
  surface = cairo_image_surface_create_for_data (pixels, CAIRO_FORMAT_ARGB32, width, height, stride);
  cr = cairo_create (surface);
  draw_marks (cr, job->annotation, job->scale);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  cairo_surface_destroy (surface);

  bytes = g_bytes_new_take (pixels, (gsize) stride * height);
  drawn = gdk_memory_texture_new (width, height, GDK_MEMORY_DEFAULT, bytes, stride);
  g_task_return_pointer (task, gdk_texture_save_to_png_bytes (drawn), (GDestroyNotify) g_bytes_unref);
}

static void
drawn_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  SendData *data = user_data;
  g_autoptr(GBytes) png = g_task_propagate_pointer (G_TASK (result), NULL);

  deliver (data, build_result (data, png), NULL);
  send_data_free (data);
}

static void
snapshot_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  SendData *data = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GTask *draw;
  DrawJob *job;

  texture = webkit_web_view_get_snapshot_finish (WEBKIT_WEB_VIEW (object), result, &error);
  if (texture == NULL)
    {
      /* The marks and their refs still go out, without the picture. */
      deliver (data, build_result (data, NULL), NULL);
      send_data_free (data);
      return;
    }

  job = g_new0 (DrawJob, 1);
  job->texture = g_steal_pointer (&texture);
  job->annotation = data->annotation;
  {
    int view_width = gtk_widget_get_width (GTK_WIDGET (object));

    job->scale = view_width > 0 ? gdk_texture_get_width (job->texture) / (double) view_width : 1.0;
  }

  draw = g_task_new (NULL, NULL, drawn_cb, data);
  g_task_set_source_tag (draw, draw_thread);
  g_task_set_task_data (draw, job, (GDestroyNotify) draw_job_free);
  g_task_run_in_thread (draw, draw_thread);
  g_object_unref (draw);
}

static void
resolved_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  SendData *data = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);
  if (node == NULL)
    {
      deliver (data, NULL, g_steal_pointer (&error));
      send_data_free (data);
      return;
    }

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonArray *marks = tw_json_get_array (json_node_get_object (node), "marks");

      if (marks != NULL)
        data->marks = json_array_ref (marks);
    }

  webkit_web_view_get_snapshot (data->tab->view, WEBKIT_SNAPSHOT_REGION_VISIBLE,
                                WEBKIT_SNAPSHOT_OPTIONS_NONE, NULL, snapshot_cb, data);
}

gboolean
tw_browser_tab_send_annotation (TwBrowserTab *self,
                                TwAnnotation *annotation)
{
  g_autoptr(TwAnnotation) owned = annotation;
  g_autoptr(JsonObject) args = NULL;
  JsonArray *marks;
  SendData *data;
  double zoom;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);
  g_return_val_if_fail (annotation != NULL, FALSE);

  if (self->annotate_sending || self->closed ||
      (annotation->marks->len == 0 && annotation->note == NULL))
    return FALSE;

  data = g_new0 (SendData, 1);
  data->tab = g_object_ref (self);
  data->annotation = g_steal_pointer (&owned);
  if (self->annotate.task != NULL)
    {
      TabCommand *cmd = g_task_get_task_data (self->annotate.task);

      /* From now on the marks are on their way: no timeout, no cancel. */
      data->task = g_object_ref (self->annotate.task);
      g_clear_handle_id (&cmd->timeout_source, g_source_remove);
    }
  self->annotate_sending = TRUE;

  /* The runtime takes CSS pixels; the marks are in the view's. */
  zoom = webkit_web_view_get_zoom_level (self->view);
  if (zoom <= 0)
    zoom = 1;
  args = json_object_new ();
  marks = json_array_new ();
  for (guint i = 0; i < data->annotation->marks->len; i++)
    {
      const TwAnnotationMark *mark = tw_annotation_get_mark (data->annotation, i);
      JsonObject *out = json_object_new ();

      json_object_set_double_member (out, "x", mark->x / zoom);
      json_object_set_double_member (out, "y", mark->y / zoom);
      if (!mark_is_point (mark))
        {
          json_object_set_double_member (out, "width", mark->width / zoom);
          json_object_set_double_member (out, "height", mark->height / zoom);
        }
      json_array_add_object_element (marks, out);
    }
  json_object_set_array_member (args, "marks", marks);

  tw_page_runtime_call_async (self->runtime, "annotate.resolve", args, NULL, resolved_cb, data);

  return TRUE;
}

gboolean
tw_browser_tab_get_annotation_sending (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->annotate_sending;
}

/* The annotation the person sent while no call waited, for the next
 * result of a call on this tab; NULL when there is none. */
JsonObject *
_tw_browser_tab_take_annotation (TwBrowserTab *self)
{
  return g_steal_pointer (&self->annotation_waiting);
}
