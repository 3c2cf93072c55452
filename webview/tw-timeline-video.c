/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cairo.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <stdio.h>
#include <string.h>

#include "tw-timeline-step.h"
#include "tw-timeline-video.h"

/* Two frames a second: a call's picture before, then after. */
#define FPS             2
#define FRAMES_PER_CALL 2
#define DEFAULT_WIDTH   320
#define DEFAULT_HEIGHT  240
#define CAPTION_HEIGHT  22
/* The overlay's pointer, a little smaller: the frames are small. */
#define POINTER_SCALE   0.8

void
tw_timeline_video_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      gst_init (NULL, NULL);
      g_once_init_leave (&done, 1);
    }
}

static GdkPixbuf *
load (const char *path)
{
  if (path == NULL)
    return NULL;

  return gdk_pixbuf_new_from_file (path, NULL);
}

/* The picture's size, even (VP8 wants even sizes). */
static void
frame_size (GListModel *steps,
            int        *width,
            int        *height)
{
  *width = DEFAULT_WIDTH;
  *height = DEFAULT_HEIGHT;
  for (guint i = 0; i < g_list_model_get_n_items (steps); i++)
    {
      g_autoptr(TwTimelineStep) step = g_list_model_get_item (steps, i);
      const char *path = tw_timeline_step_get_after_path (step) ? : tw_timeline_step_get_before_path (step);
      int w;
      int h;

      if (path != NULL && gdk_pixbuf_get_file_info (path, &w, &h) != NULL && w > 0 && h > 0)
        {
          *width = MAX (2, w & ~1);
          *height = MAX (2, h & ~1);
          return;
        }
    }
}

static char *
step_title (TwTimelineStep *step,
            guint           index)
{
  const char *target = tw_timeline_step_get_target (step);

  return target != NULL ? g_strdup_printf ("%u. %s %s", index + 1, tw_timeline_step_get_tool (step), target)
                        : g_strdup_printf ("%u. %s", index + 1, tw_timeline_step_get_tool (step));
}

/* "#9141ac" into @rgb; FALSE for anything else. */
static gboolean
parse_rgb (const char *hex,
           double      rgb[3])
{
  unsigned int r;
  unsigned int g;
  unsigned int b;

  if (hex == NULL || sscanf (hex, "#%02x%02x%02x", &r, &g, &b) != 3)
    return FALSE;
  rgb[0] = r / 255.0;
  rgb[1] = g / 255.0;
  rgb[2] = b / 255.0;

  return TRUE;
}

static void
draw_highlight (cairo_t               *cr,
                const graphene_rect_t *rect,
                const double           accent[3],
                double                 alpha)
{
  /* A little room around the element, so the outline never hides its
   * edges, with rounded corners, as the overlay draws it. */
  double x = rect->origin.x - 2;
  double y = rect->origin.y - 2;
  double w = rect->size.width + 4;
  double h = rect->size.height + 4;
  double r = MIN (3, MIN (w, h) / 2);

  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
  cairo_set_source_rgba (cr, accent[0], accent[1], accent[2], 0.14 * alpha);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, accent[0], accent[1], accent[2], 0.95 * alpha);
  cairo_set_line_width (cr, 2);
  cairo_stroke (cr);
}

/* The overlay's pointer: an arrow with its tip on the point, in the
 * agent's colour with the agent's mark at its tail, or dark for the
 * person's clients. */
static void
draw_pointer (cairo_t                *cr,
              const graphene_point_t *at,
              const double           *colour,
              const char             *mark)
{
  static const double shape[][2] = {
    { 0, 0 }, { 0, 17 }, { 4.2, 13.2 }, { 7, 19.5 }, { 9.8, 18.3 }, { 7.1, 12.2 }, { 12.5, 12.2 },
  };

  cairo_save (cr);
  cairo_translate (cr, at->x, at->y);
  cairo_scale (cr, POINTER_SCALE, POINTER_SCALE);
  cairo_move_to (cr, shape[0][0], shape[0][1]);
  for (guint i = 1; i < G_N_ELEMENTS (shape); i++)
    cairo_line_to (cr, shape[i][0], shape[i][1]);
  cairo_close_path (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  if (colour != NULL)
    cairo_set_source_rgb (cr, colour[0], colour[1], colour[2]);
  else
    cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke (cr);

  if (colour != NULL && mark != NULL && mark[0] != '\0')
    {
      cairo_text_extents_t extents;

      /* The agent's badge, in a white ring that keeps it apart from the
       * page under it. */
      cairo_translate (cr, 11 + 8, 16 + 8);
      cairo_arc (cr, 0, 0, 9.5, 0, 2 * G_PI);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_fill (cr);
      cairo_arc (cr, 0, 0, 8, 0, 2 * G_PI);
      cairo_set_source_rgb (cr, colour[0], colour[1], colour[2]);
      cairo_fill (cr);
      cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
      cairo_set_font_size (cr, 11);
      cairo_text_extents (cr, mark, &extents);
      cairo_move_to (cr, -extents.x_bearing - extents.width / 2, -extents.y_bearing - extents.height / 2);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_show_text (cr, mark);
    }

  cairo_restore (cr);
}

/* The call's action where the overlay drew it, on its picture before or
 * after: the element's highlight in the agent's colour (Adwaita's blue for
 * the person's clients, red when the call failed), and the pointer. */
static void
draw_action (cairo_t        *cr,
             TwTimelineStep *step,
             gboolean        before)
{
  double agent[3];
  double accent[3] = { 0x35 / 255.0, 0x84 / 255.0, 0xe4 / 255.0 };
  gboolean has_agent = parse_rgb (tw_timeline_step_get_agent_rgb (step), agent);
  graphene_rect_t rect;
  graphene_point_t at;

  if (!tw_timeline_step_get_ok (step))
    parse_rgb ("#e01b24", accent);
  else if (has_agent)
    memcpy (accent, agent, sizeof accent);

  if (tw_timeline_step_get_highlight (step, before, &rect))
    draw_highlight (cr, &rect, accent, 1.0);
  if (tw_timeline_step_get_drop (step, &rect))
    draw_highlight (cr, &rect, accent, 0.8);
  if (tw_timeline_step_get_pointer (step, before, &at))
    draw_pointer (cr, &at, has_agent ? agent : NULL, tw_timeline_step_get_agent_mark (step));
}

/* Draws @pixbuf (or grey), the call's action, and the call's caption into
 * a frame. */
static GstBuffer *
draw_frame (GdkPixbuf      *pixbuf,
            TwTimelineStep *step,
            gboolean        before,
            const char     *caption,
            int             width,
            int             height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cairo_t *cr = cairo_create (surface);
  GstBuffer *buffer;
  GstMapInfo map;
  int stride;

  cairo_set_source_rgb (cr, 0.5, 0.5, 0.5);
  cairo_paint (cr);
  if (pixbuf != NULL)
    {
      int pw = gdk_pixbuf_get_width (pixbuf);
      int ph = gdk_pixbuf_get_height (pixbuf);
      int channels = gdk_pixbuf_get_n_channels (pixbuf);
      int rowstride = gdk_pixbuf_get_rowstride (pixbuf);
      const guchar *pixels = gdk_pixbuf_read_pixels (pixbuf);
      unsigned char *data;
      int dstride;

      cairo_surface_flush (surface);
      data = cairo_image_surface_get_data (surface);
      dstride = cairo_image_surface_get_stride (surface);
      for (int y = 0; y < MIN (ph, height); y++)
        for (int x = 0; x < MIN (pw, width); x++)
          {
            const guchar *p = pixels + y * rowstride + x * channels;

            *(guint32 *) (data + y * dstride + x * 4) = 0xff000000u | (p[0] << 16) | (p[1] << 8) | p[2];
          }
      cairo_surface_mark_dirty (surface);
    }

  draw_action (cr, step, before);

  /* The call, as the overlay names it, in a band at the bottom: red when
   * it failed. */
  if (!tw_timeline_step_get_ok (step))
    cairo_set_source_rgba (cr, 0.75, 0.1, 0.1, 0.85);
  else
    cairo_set_source_rgba (cr, 0.1, 0.35, 0.75, 0.85);
  cairo_rectangle (cr, 0, height - CAPTION_HEIGHT, width, CAPTION_HEIGHT);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_select_font_face (cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, 12);
  cairo_move_to (cr, 6, height - 7);
  cairo_show_text (cr, caption);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  stride = cairo_image_surface_get_stride (surface);
  buffer = gst_buffer_new_allocate (NULL, (gsize) width * height * 4, NULL);
  gst_buffer_map (buffer, &map, GST_MAP_WRITE);
  for (int y = 0; y < height; y++)
    memcpy (map.data + (gsize) y * width * 4, cairo_image_surface_get_data (surface) + y * stride, width * 4);
  gst_buffer_unmap (buffer, &map);
  cairo_surface_destroy (surface);

  return buffer;
}

/* A chapter per call, in an edition. */
static GstToc *
make_toc (GListModel *steps)
{
  GstToc *toc = gst_toc_new (GST_TOC_SCOPE_GLOBAL);
  GstTocEntry *edition = gst_toc_entry_new (GST_TOC_ENTRY_TYPE_EDITION, "calls");
  guint n = g_list_model_get_n_items (steps);
  GstClockTime call = GST_SECOND * FRAMES_PER_CALL / FPS;

  gst_toc_entry_set_start_stop_times (edition, 0, n * call);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TwTimelineStep) step = g_list_model_get_item (steps, i);
      g_autofree char *uid = g_strdup_printf ("call-%u", i + 1);
      g_autofree char *title = step_title (step, i);
      GstTocEntry *chapter = gst_toc_entry_new (GST_TOC_ENTRY_TYPE_CHAPTER, uid);
      GstTagList *tags = gst_tag_list_new (GST_TAG_TITLE, title, NULL);

      gst_toc_entry_set_start_stop_times (chapter, i * call, (i + 1) * call);
      gst_toc_entry_set_tags (chapter, tags);
      gst_toc_entry_append_sub_entry (edition, chapter);
    }
  gst_toc_append_entry (toc, edition);

  return toc;
}

gboolean
tw_timeline_video_write (GListModel  *steps,
                         const char  *path,
                         GError     **error)
{
  g_autoptr(GError) parse_error = NULL;
  g_autoptr(GstElement) pipeline = NULL;
  g_autoptr(GstElement) source = NULL;
  g_autoptr(GstElement) mux = NULL;
  g_autoptr(GstElement) sink = NULL;
  g_autoptr(GstBus) bus = NULL;
  g_autoptr(GstMessage) message = NULL;
  g_autoptr(GstCaps) caps = NULL;
  g_autoptr(GdkPixbuf) last = NULL;
  GstToc *toc;
  guint n = g_list_model_get_n_items (steps);
  guint64 frame = 0;
  int width;
  int height;

  tw_timeline_video_init ();
  pipeline = gst_parse_launch ("appsrc name=source format=time is-live=false block=true ! videoconvert ! "
                               "vp8enc deadline=1 ! webmmux name=mux ! filesink name=sink",
                               &parse_error);
  if (pipeline == NULL || parse_error != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "Cannot encode the video: %s",
                   parse_error != NULL ? parse_error->message : "no GStreamer pipeline");
      return FALSE;
    }
  gst_object_ref_sink (pipeline);
  source = gst_bin_get_by_name (GST_BIN (pipeline), "source");
  mux = gst_bin_get_by_name (GST_BIN (pipeline), "mux");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  frame_size (steps, &width, &height);
  caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "BGRx", "width", G_TYPE_INT, width, "height",
                              G_TYPE_INT, height, "framerate", GST_TYPE_FRACTION, FPS, 1, NULL);
  g_object_set (source, "caps", caps, NULL);
  g_object_set (sink, "location", path, NULL);
  toc = make_toc (steps);
  gst_toc_setter_set_toc (GST_TOC_SETTER (mux), toc);
  gst_toc_unref (toc);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Cannot start encoding the video %s", path);
      return FALSE;
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TwTimelineStep) step = g_list_model_get_item (steps, i);
      g_autoptr(GdkPixbuf) before = load (tw_timeline_step_get_before_path (step));
      g_autoptr(GdkPixbuf) after = load (tw_timeline_step_get_after_path (step));
      g_autofree char *caption = step_title (step, i);

      if (before == NULL)
        before = last != NULL ? g_object_ref (last) : (after != NULL ? g_object_ref (after) : NULL);
      if (after == NULL)
        after = before != NULL ? g_object_ref (before) : NULL;
      for (guint j = 0; j < FRAMES_PER_CALL; j++)
        {
          GstBuffer *buffer = draw_frame (j == 0 ? before : after, step, j == 0, caption, width, height);

          GST_BUFFER_PTS (buffer) = gst_util_uint64_scale (frame, GST_SECOND, FPS);
          GST_BUFFER_DURATION (buffer) = gst_util_uint64_scale (1, GST_SECOND, FPS);
          frame++;
          if (gst_app_src_push_buffer (GST_APP_SRC (source), buffer) != GST_FLOW_OK)
            break;
        }
      g_set_object (&last, after);
    }
  gst_app_src_end_of_stream (GST_APP_SRC (source));

  bus = gst_element_get_bus (pipeline);
  message = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  if (message != NULL && GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR)
    {
      g_autoptr(GError) gst_error = NULL;

      gst_message_parse_error (message, &gst_error, NULL);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Cannot encode the video %s: %s", path,
                   gst_error->message);
      return FALSE;
    }

  return TRUE;
}
