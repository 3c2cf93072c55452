/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-screenshot-marks.h"

#include <pango/pangocairo.h>

/* Labels of a marked screenshot (browser_screenshot with marks): each
 * element's ref in a small box at its top-left, drawn with Cairo and Pango
 * onto a copy of the picture. Runs in the screenshot's encoding thread;
 * Pango gives each thread a font map of its own. */

/* The label's text height and padding, in CSS pixels. */
#define LABEL_FONT_PX  11.0
#define LABEL_PAD_X    3.0
#define LABEL_PAD_Y    1.0

typedef struct
{
  double x1, y1, x2, y2;
} Box;

static gboolean
boxes_meet (const Box *a,
            const Box *b)
{
  return a->x1 < b->x2 && b->x1 < a->x2 && a->y1 < b->y2 && b->y1 < a->y2;
}

/* Where a label of @width × @height goes: at (@x, @y), inside the picture,
 * moved right past any label already there so that neither hides the
 * other. */
static Box
place_label (GArray *placed,
             double  x,
             double  y,
             double  width,
             double  height,
             int     image_width,
             int     image_height)
{
  Box box;

  x = CLAMP (x, 0, MAX (0, image_width - width));
  y = CLAMP (y, 0, MAX (0, image_height - height));
  box = (Box) { x, y, x + width, y + height };

  /* A few steps are enough for labels of elements that start at one
   * point (a link in a list item); past that, overlap beats wandering. */
  for (int step = 0; step < 8; step++)
    {
      gboolean moved = FALSE;

      for (guint i = 0; i < placed->len; i++)
        {
          const Box *other = &g_array_index (placed, Box, i);

          if (boxes_meet (&box, other) && other->x2 + width <= image_width)
            {
              box.x1 = other->x2;
              box.x2 = box.x1 + width;
              moved = TRUE;
            }
        }
      if (!moved)
        break;
    }

  g_array_append_val (placed, box);
  return box;
}

/* A new texture: @texture with a label for each of @marks. @scale is the
 * picture's pixels per CSS pixel, so labels read the same on any screen. */
GdkTexture *
tw_screenshot_marks_draw (GdkTexture             *texture,
                          const TwScreenshotMark *marks,
                          guint                   n_marks,
                          double                  scale)
{
  int width;
  int height;
  int stride;
  guchar *pixels;
  cairo_surface_t *surface;
  cairo_t *cr;
  PangoLayout *layout;
  PangoFontDescription *font;
  g_autoptr(GArray) placed = NULL;
  GBytes *bytes;
  GdkTexture *marked;
  double pad_x, pad_y, border;

  g_return_val_if_fail (GDK_IS_TEXTURE (texture), NULL);
  g_return_val_if_fail (marks != NULL || n_marks == 0, NULL);

  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  scale = CLAMP (scale, 0.25, 8.0);
  pad_x = MAX (1.0, LABEL_PAD_X * scale);
  pad_y = MAX (1.0, LABEL_PAD_Y * scale);
  border = MAX (1.0, floor (scale));

  /* GDK_MEMORY_DEFAULT is Cairo's ARGB32: premultiplied, in native order. */
  stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, width);
  pixels = g_malloc ((gsize) stride * height);
  gdk_texture_download (texture, pixels, stride);

  surface = cairo_image_surface_create_for_data (pixels, CAIRO_FORMAT_ARGB32, width, height,
                                                 stride);
  cr = cairo_create (surface);
  layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string ("Monospace Bold");
  pango_font_description_set_absolute_size (font, LABEL_FONT_PX * scale * PANGO_SCALE);
  pango_layout_set_font_description (layout, font);
  placed = g_array_new (FALSE, FALSE, sizeof (Box));

  for (guint i = 0; i < n_marks; i++)
    {
      PangoRectangle ink, logical;
      double box_width, box_height;
      Box box;

      pango_layout_set_text (layout, marks[i].label, -1);
      pango_layout_get_pixel_extents (layout, &ink, &logical);
      box_width = ceil (logical.width + 2 * pad_x);
      box_height = ceil (logical.height + 2 * pad_y);
      box = place_label (placed, floor (marks[i].x), floor (marks[i].y), box_width, box_height,
                         width, height);

      /* Whole pixels, no antialiasing: a crisp box of one colour. */
      cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
      cairo_rectangle (cr, box.x1, box.y1, box_width, box_height);
      cairo_set_source_rgb (cr, 0, 0, 0);
      cairo_fill (cr);
      cairo_rectangle (cr, box.x1 + border, box.y1 + border,
                       box_width - 2 * border, box_height - 2 * border);
      cairo_set_source_rgb (cr, TW_SCREENSHOT_MARK_FILL_RED / 255.0,
                            TW_SCREENSHOT_MARK_FILL_GREEN / 255.0,
                            TW_SCREENSHOT_MARK_FILL_BLUE / 255.0);
      cairo_fill (cr);

      cairo_set_antialias (cr, CAIRO_ANTIALIAS_DEFAULT);
      cairo_set_source_rgb (cr, 0, 0, 0);
      cairo_move_to (cr, box.x1 + pad_x - logical.x, box.y1 + pad_y - logical.y);
      pango_cairo_show_layout (cr, layout);
    }

  pango_font_description_free (font);
  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  cairo_surface_destroy (surface);

  bytes = g_bytes_new_take (pixels, (gsize) stride * height);
  marked = gdk_memory_texture_new (width, height, GDK_MEMORY_DEFAULT, bytes, stride);
  g_bytes_unref (bytes);

  return marked;
}
