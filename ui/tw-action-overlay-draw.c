/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "tw-action-overlay-private.h"

#include "tw-agent-colours.h"

/* Drawing */

static double
ease_out_cubic (double t)
{
  t = CLAMP (t, 0.0, 1.0) - 1.0;

  return t * t * t + 1.0;
}

static double
progress (TwActionOverlay *self,
          gint64           since_us,
          gint64           now_us,
          double           duration_ms)
{
  if (!_tw_action_overlay_animating (self))
    return 1.0;

  return CLAMP ((now_us - since_us) / (duration_ms * 1000.0), 0.0, 1.0);
}

/* The colour and mark of the agent whose action is shown, in its
 * workspace (issue 32); -1 for the person's clients and for elements picked
 * from the feed, which are drawn in the accent colour. */
static int
agent_colour (TwActionOverlay  *self,
              const char      **mark)
{
  TwBrowser *browser;
  int colour = -1;

  if (mark != NULL)
    *mark = NULL;

  if (self->action == NULL || self->action->agent_id == NULL)
    return -1;

  browser = tw_agent_colours_get_browser (GTK_WIDGET (self));
  if (browser == NULL || !tw_browser_get_agent_mark (browser, self->action->agent_id, &colour, mark))
    return -1;

  return colour;
}

int
tw_action_overlay_get_agent_colour (TwActionOverlay *self)
{
  g_return_val_if_fail (TW_IS_ACTION_OVERLAY (self), -1);

  return self->active ? agent_colour (self, NULL) : -1;
}

static void
get_colors (TwActionOverlay *self,
            GdkRGBA         *accent)
{
  int colour = agent_colour (self, NULL);

  /* Adwaita's red says what went wrong; otherwise the agent's own colour,
   * or Adwaita's blue. */
  if (self->finished && self->failed)
    gdk_rgba_parse (accent, "#e01b24");
  else if (colour >= 0)
    tw_agent_colour_get_rgba (colour, accent);
  else
    gdk_rgba_parse (accent, "#3584e4");
}

static void
append_rounded_border (GtkSnapshot           *snapshot,
                       const graphene_rect_t *rect,
                       float                  radius,
                       float                  width,
                       const GdkRGBA         *color)
{
  GskRoundedRect outline;
  const float widths[4] = { width, width, width, width };
  const GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&outline, rect, radius);
  gtk_snapshot_append_border (snapshot, &outline, widths, colors);
}

static void
draw_highlight (TwActionOverlay       *self,
                GtkSnapshot           *snapshot,
                const graphene_rect_t *rect,
                const GdkRGBA         *accent,
                double                 appear,
                double                 alpha)
{
  graphene_rect_t box;
  GskRoundedRect fill_shape;
  GdkRGBA fill = *accent;
  GdkRGBA line = *accent;
  GdkRGBA glow = *accent;
  float grow = (float) ((1.0 - ease_out_cubic (appear)) * 10.0) + 4.0;

  /* A little room around the element, so the outline never hides its
   * edges; it closes in as it appears. */
  graphene_rect_inset_r (rect, -grow, -grow, &box);

  fill.alpha = (float) (0.14 * alpha * appear);
  line.alpha = (float) (0.95 * alpha * appear);
  glow.alpha = (float) (0.45 * alpha * appear);

  gsk_rounded_rect_init_from_rect (&fill_shape, &box, 6);

  /* A soft glow outside the outline keeps small elements and elements of
   * the accent's own colour visible. */
  gtk_snapshot_append_outset_shadow (snapshot, &fill_shape, &glow, 0, 0, 2, 8);

  gtk_snapshot_push_rounded_clip (snapshot, &fill_shape);
  gtk_snapshot_append_color (snapshot, &fill, &box);
  gtk_snapshot_pop (snapshot);
  append_rounded_border (snapshot, &box, 6, 2.5f, &line);
}

static void
draw_pointer (cairo_t                *cr,
              const graphene_point_t *at,
              int                     colour,
              const char             *mark,
              double                  alpha)
{
  /* A classic arrow cursor with its tip on the point. */
  static const double shape[][2] = {
    { 0, 0 }, { 0, 17 }, { 4.2, 13.2 }, { 7, 19.5 }, { 9.8, 18.3 }, { 7.1, 12.2 }, { 12.5, 12.2 },
  };

  cairo_save (cr);
  cairo_translate (cr, at->x, at->y);
  cairo_move_to (cr, shape[0][0], shape[0][1]);
  for (guint i = 1; i < G_N_ELEMENTS (shape); i++)
    cairo_line_to (cr, shape[i][0], shape[i][1]);
  cairo_close_path (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  /* An agent's pointer is in its colour, with its badge at its tail, so
   * that two agents at work read apart in colour, shape and mark. */
  if (colour >= 0)
    {
      GdkRGBA rgba;

      tw_agent_colour_get_rgba (colour, &rgba);
      cairo_set_source_rgba (cr, rgba.red, rgba.green, rgba.blue, 0.95 * alpha);
    }
  else
    {
      cairo_set_source_rgba (cr, 0.1, 0.1, 0.1, 0.92 * alpha);
    }
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 1, 1, 1, alpha);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke (cr);

  if (colour >= 0)
    {
      cairo_translate (cr, 11, 16);
      cairo_push_group (cr);
      /* A white ring keeps the badge apart from the page under it. */
      cairo_arc (cr, 8, 8, 9.5, 0, 2 * G_PI);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_fill (cr);
      tw_agent_badge_draw (cr, colour, mark, 16);
      cairo_pop_group_to_source (cr);
      cairo_paint_with_alpha (cr, alpha);
    }

  cairo_restore (cr);
}

static void
draw_arrow (cairo_t                *cr,
            const graphene_point_t *from,
            const graphene_point_t *to,
            const GdkRGBA          *color,
            gboolean                dashed,
            double                  alpha)
{
  double angle = atan2 (to->y - from->y, to->x - from->x);
  static const double dashes[] = { 6, 4 };

  cairo_save (cr);
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, 0.9 * alpha);
  cairo_set_line_width (cr, 3);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  if (dashed)
    cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
  cairo_move_to (cr, from->x, from->y);
  cairo_line_to (cr, to->x, to->y);
  cairo_stroke (cr);

  cairo_set_dash (cr, NULL, 0, 0);
  cairo_move_to (cr, to->x, to->y);
  cairo_line_to (cr, to->x - 12 * cos (angle - 0.45), to->y - 12 * sin (angle - 0.45));
  cairo_line_to (cr, to->x - 12 * cos (angle + 0.45), to->y - 12 * sin (angle + 0.45));
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_restore (cr);
}

static void
draw_caption (TwActionOverlay       *self,
              GtkSnapshot           *snapshot,
              const graphene_rect_t *near,
              const GdkRGBA         *accent,
              double                 alpha)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  g_autoptr(PangoLayout) layout = NULL;
  PangoRectangle ink;
  PangoRectangle logical;
  graphene_rect_t bubble;
  GskRoundedRect shape;
  GdkRGBA background = { 0.12f, 0.12f, 0.14f, (float) (0.9 * alpha) };
  GdkRGBA text = { 1, 1, 1, (float) alpha };
  GdkRGBA border = *accent;
  g_autoptr(PangoAttrList) attrs = pango_attr_list_new ();
  const char *colon;
  float x;
  float y;

  if (self->caption == NULL)
    return;

  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->caption);

  /* Who acts reads first: the agent's name in bold. */
  colon = strstr (self->caption, ": ");
  if (colon != NULL)
    {
      PangoAttribute *bold = pango_attr_weight_new (PANGO_WEIGHT_BOLD);

      bold->start_index = 0;
      bold->end_index = colon - self->caption;
      pango_attr_list_insert (attrs, bold);
      pango_layout_set_attributes (layout, attrs);
    }

  pango_layout_set_width (layout, MAX (120, width - 48) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_get_pixel_extents (layout, &ink, &logical);

  graphene_rect_init (&bubble, 0, 0, logical.width + 24, logical.height + 12);

  /* Under the element when there is room, else above it; at the bottom
   * of the page when there is no element. */
  if (near != NULL)
    {
      x = near->origin.x;
      y = near->origin.y + near->size.height + 10;
      if (y + bubble.size.height > height - 8)
        y = near->origin.y - bubble.size.height - 10;
    }
  else
    {
      x = (width - bubble.size.width) / 2;
      y = height - bubble.size.height - 24;
    }

  x = CLAMP (x, 8, MAX (8, width - bubble.size.width - 8));
  y = CLAMP (y, 8, MAX (8, height - bubble.size.height - 8));
  bubble.origin.x = x;
  bubble.origin.y = y;

  gsk_rounded_rect_init_from_rect (&shape, &bubble, 8);
  gtk_snapshot_append_outset_shadow (snapshot, &shape, &(GdkRGBA) { 0, 0, 0, (float) (0.25 * alpha) },
                                     0, 2, 0, 6);
  gtk_snapshot_push_rounded_clip (snapshot, &shape);
  gtk_snapshot_append_color (snapshot, &background, &bubble);
  gtk_snapshot_pop (snapshot);
  border.alpha = (float) (0.8 * alpha);
  append_rounded_border (snapshot, &bubble, 8, 1, &border);

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + 12, y + 6));
  gtk_snapshot_append_layout (snapshot, layout, &text);
  gtk_snapshot_restore (snapshot);
}

void
_tw_action_overlay_snapshot (GtkWidget   *widget,
                             GtkSnapshot *snapshot)
{
  TwActionOverlay *self = TW_ACTION_OVERLAY (widget);
  gint64 now = g_get_monotonic_time ();
  graphene_rect_t box;
  graphene_rect_t drop;
  graphene_point_t css_target;
  graphene_point_t target;
  gboolean has_box = FALSE;
  gboolean has_target = FALSE;
  const char *tool;
  GdkRGBA accent;
  double alpha = 1.0;
  double appear;
  cairo_t *cr;

  if (!self->active)
    return;

  if (self->fade_us != 0)
    alpha = 1.0 - progress (self, self->fade_us, now, FADE_MS);

  get_colors (self, &accent);
  tool = self->action != NULL ? self->action->tool
                              : "";

  if (self->has_rect)
    has_box = _tw_action_overlay_css_rect_to_widget (self, &self->rect, &box);

  if (has_box)
    {
      appear = self->flash ? 1.0 : progress (self, self->rect_us, now, APPEAR_MS);

      /* A picked element blinks twice, then stays until it fades. */
      if (self->flash && _tw_action_overlay_animating (self))
        {
          double t = (now - self->started_us) / 1000.0;

          if (t < 900)
            alpha *= 0.55 + 0.45 * cos (t / 900.0 * 4 * G_PI);
        }

      draw_highlight (self, snapshot, &box, &accent, appear, alpha);
    }

  if (self->has_drop && _tw_action_overlay_css_rect_to_widget (self, &self->drop_rect, &drop))
    draw_highlight (self, snapshot, &drop, &accent, 1.0, alpha * 0.8);

  if (!self->flash && _tw_action_overlay_pointer_target_css (self, &css_target))
    has_target = _tw_action_overlay_css_to_widget (self, &css_target, &target);

  if (has_target)
    {
      graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                   gtk_widget_get_height (widget));
      graphene_point_t pointer;
      double glide = progress (self, self->glide_us, now, GLIDE_MS);

      graphene_point_interpolate (&self->pointer_from, &target, ease_out_cubic (glide), &pointer);
      self->pointer_drawn = pointer;
      self->has_pointer_drawn = TRUE;

      cr = gtk_snapshot_append_cairo (snapshot, &bounds);

      /* Scrolls show where the wheel pushes the page; drags the way from
       * the element to where it is dropped. */
      if (g_str_equal (tool, "scroll") && self->action != NULL)
        {
          double dx = self->action->delta_x;
          double dy = self->action->delta_y;
          double length = sqrt (dx * dx + dy * dy);

          if (length > 0.5)
            {
              double scale = MIN (90.0, MAX (40.0, length / 4)) / length;
              graphene_point_t end = GRAPHENE_POINT_INIT (target.x + dx * scale, target.y + dy * scale);

              draw_arrow (cr, &target, &end, &accent, FALSE, alpha * glide);
            }
        }
      else if (self->has_drop && _tw_action_overlay_css_rect_to_widget (self, &self->drop_rect, &drop))
        {
          graphene_point_t end;

          graphene_rect_get_center (&drop, &end);
          draw_arrow (cr, &target, &end, &accent, TRUE, alpha * glide);
        }

      {
        const char *mark = NULL;
        int colour = agent_colour (self, &mark);

        draw_pointer (cr, &pointer, colour, mark, alpha);
      }
      cairo_destroy (cr);
    }

  draw_caption (self, snapshot, has_box ? &box : NULL, &accent, alpha);
}
