/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <pango/pangocairo.h>

#include "tw-agent-colours.h"

#include "tw-agent-marks.h"
#include "tw-window.h"

/* The names of the palette's colours (tw-agent-marks.h), in its order. */
static const char * const names[TW_BROWSER_N_AGENT_COLOURS] = {
  N_("Purple"), N_("Orange"), N_("Teal"), N_("Pink"), N_("Green"), N_("Slate"), N_("Yellow"),
  N_("Red"), N_("Blue"),
};

/* What an icon's pixels are made at, per logical pixel. */
#define ICON_SIZE  16
#define ICON_SCALE 2

static int
clamp_colour (int colour)
{
  if (colour < 0)
    return 0;

  return colour % TW_BROWSER_N_AGENT_COLOURS;
}

void
tw_agent_colour_get_rgba (int      colour,
                          GdkRGBA *rgba)
{
  g_return_if_fail (rgba != NULL);

  gdk_rgba_parse (rgba, tw_agent_marks_get_colour_hex (clamp_colour (colour)));
}

const char *
tw_agent_colour_get_name (int colour)
{
  return _(names[clamp_colour (colour)]);
}

TwAgentShape
tw_agent_colour_get_shape (int colour)
{
  return (TwAgentShape) (clamp_colour (colour) % 4);
}

static void
trace_shape (cairo_t      *cr,
             TwAgentShape  shape,
             double        size)
{
  double half = size / 2;

  switch (shape)
    {
    case TW_AGENT_SHAPE_SQUARE:
      {
        double r = size * 0.22;
        double m = size * 0.06;

        cairo_new_sub_path (cr);
        cairo_arc (cr, size - m - r, m + r, r, -G_PI / 2, 0);
        cairo_arc (cr, size - m - r, size - m - r, r, 0, G_PI / 2);
        cairo_arc (cr, m + r, size - m - r, r, G_PI / 2, G_PI);
        cairo_arc (cr, m + r, m + r, r, G_PI, 3 * G_PI / 2);
        cairo_close_path (cr);
      }
      break;

    case TW_AGENT_SHAPE_DIAMOND:
      cairo_move_to (cr, half, 0);
      cairo_line_to (cr, size, half);
      cairo_line_to (cr, half, size);
      cairo_line_to (cr, 0, half);
      cairo_close_path (cr);
      break;

    case TW_AGENT_SHAPE_HEXAGON:
      for (int i = 0; i < 6; i++)
        {
          double angle = G_PI / 6 + i * G_PI / 3;
          double x = half + half * cos (angle);
          double y = half + half * sin (angle);

          if (i == 0)
            cairo_move_to (cr, x, y);
          else
            cairo_line_to (cr, x, y);
        }
      cairo_close_path (cr);
      break;

    case TW_AGENT_SHAPE_CIRCLE:
    default:
      cairo_arc (cr, half, half, half, 0, 2 * G_PI);
      break;
    }
}

void
tw_agent_badge_draw (cairo_t    *cr,
                     int         colour,
                     const char *mark,
                     double      size)
{
  TwAgentShape shape = tw_agent_colour_get_shape (colour);
  g_autoptr(PangoLayout) layout = NULL;
  PangoFontDescription *font;
  PangoRectangle ink;
  GdkRGBA rgba;

  g_return_if_fail (cr != NULL);

  tw_agent_colour_get_rgba (colour, &rgba);

  cairo_save (cr);
  trace_shape (cr, shape, size);
  gdk_cairo_set_source_rgba (cr, &rgba);
  cairo_fill (cr);

  if (mark != NULL && mark[0] != '\0')
    {
      layout = pango_cairo_create_layout (cr);
      font = pango_font_description_from_string ("Sans Bold");
      /* A diamond has less room inside than the other shapes. */
      pango_font_description_set_absolute_size (font, size * (shape == TW_AGENT_SHAPE_DIAMOND ? 0.46 : 0.6) *
                                                PANGO_SCALE);
      pango_layout_set_font_description (layout, font);
      pango_font_description_free (font);
      pango_layout_set_text (layout, mark, -1);
      pango_layout_get_pixel_extents (layout, &ink, NULL);

      cairo_move_to (cr, (size - ink.width) / 2 - ink.x, (size - ink.height) / 2 - ink.y);
      cairo_set_source_rgb (cr, 1, 1, 1);
      pango_cairo_show_layout (cr, layout);
    }

  cairo_restore (cr);
}

GIcon *
tw_agent_badge_icon_new (int         colour,
                         const char *mark)
{
  static GHashTable *icons;
  g_autofree char *key = g_strdup_printf ("%d:%s", clamp_colour (colour), mark ? mark : "");
  cairo_surface_t *surface;
  g_autoptr(GBytes) bytes = NULL;
  GdkTexture *texture;
  cairo_t *cr;
  int pixels = ICON_SIZE * ICON_SCALE;

  if (icons == NULL)
    icons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);

  texture = g_hash_table_lookup (icons, key);
  if (texture != NULL)
    return G_ICON (g_object_ref (texture));

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, pixels, pixels);
  cr = cairo_create (surface);
  /* A pixel of room on each side, as symbolic icons have. */
  cairo_translate (cr, ICON_SCALE, ICON_SCALE);
  tw_agent_badge_draw (cr, colour, mark, pixels - 2 * ICON_SCALE);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  bytes = g_bytes_new (cairo_image_surface_get_data (surface),
                       (gsize) cairo_image_surface_get_stride (surface) * pixels);
  texture = gdk_memory_texture_new (pixels, pixels, GDK_MEMORY_DEFAULT, bytes,
                                    cairo_image_surface_get_stride (surface));
  cairo_surface_destroy (surface);

  g_hash_table_insert (icons, g_steal_pointer (&key), texture);

  return G_ICON (g_object_ref (texture));
}

TwBrowser *
tw_agent_colours_get_browser (GtkWidget *widget)
{
  GtkRoot *root;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  root = gtk_widget_get_root (widget);

  return TW_IS_WINDOW (root) ? tw_window_get_browser (TW_WINDOW (root)) : NULL;
}
