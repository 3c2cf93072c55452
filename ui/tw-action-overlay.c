/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tw-action-overlay.h"
#include "tw-page-runtime.h"

/* How the overlay moves, in milliseconds. */
#define GLIDE_MS        380   /* the pointer travelling to its target */
#define APPEAR_MS       180   /* the highlight settling on the element */
#define LINGER_MS       1200  /* how long the outcome stays after the action */
#define FADE_MS         350   /* fading out afterwards */
#define FLASH_MS        1600  /* an element picked from the activity feed */
#define TYPE_CHAR_MS    45    /* one typed character appearing in the caption */

/* Where a pointer with no previous place comes from, relative to its
 * target, so that it still visibly travels. */
#define ENTRY_OFFSET_X  (-70.0)
#define ENTRY_OFFSET_Y  (-50.0)

#define CAPTION_MAX_CHARS 60

struct _TwActionOverlay
{
  GtkWidget        parent_instance;

  TwBrowserTab    *tab;
  JsonObject      *action;
  char            *caption;

  /* The target, in CSS pixels of the page's viewport. */
  graphene_rect_t  rect;
  graphene_point_t point;
  graphene_rect_t  drop_rect;

  /* The pointer's last drawn position, in widget coordinates, and where
   * its current glide started. */
  graphene_point_t pointer_drawn;
  graphene_point_t pointer_from;

  gint64           started_us;
  gint64           rect_us;
  gint64           glide_us;
  gint64           finished_us;
  gint64           fade_us;

  guint            tick_id;
  guint            linger_source;

  guint            animations : 1;
  guint            active : 1;       /* something to draw */
  guint            has_rect : 1;
  guint            has_point : 1;
  guint            has_drop : 1;
  guint            has_pointer_drawn : 1;
  guint            finished : 1;
  guint            failed : 1;
  guint            flash : 1;
};

enum {
  PROP_0,
  PROP_TAB,
  PROP_ANIMATIONS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TwActionOverlay, tw_action_overlay, GTK_TYPE_WIDGET)

static gboolean
animating (TwActionOverlay *self)
{
  gboolean enabled = TRUE;

  if (!self->animations)
    return FALSE;

  g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-enable-animations", &enabled,
                NULL);

  return enabled;
}

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
  if (!animating (self))
    return 1.0;

  return CLAMP ((now_us - since_us) / (duration_ms * 1000.0), 0.0, 1.0);
}

/* Geometry */

/* CSS pixels of the page's viewport to widget coordinates: the page zoom,
 * then wherever the view sits under the overlay (a fixed viewport size
 * centres or scrolls it). FALSE while the view is not on screen. */
static gboolean
css_to_widget (TwActionOverlay        *self,
               const graphene_point_t *css,
               graphene_point_t       *out)
{
  WebKitWebView *view;
  graphene_point_t scaled;
  double zoom;

  if (self->tab == NULL)
    return FALSE;

  view = tw_browser_tab_get_view (self->tab);
  if (view == NULL || !gtk_widget_get_mapped (GTK_WIDGET (view)))
    return FALSE;

  zoom = webkit_web_view_get_zoom_level (view);
  scaled = GRAPHENE_POINT_INIT (css->x * zoom, css->y * zoom);

  return gtk_widget_compute_point (GTK_WIDGET (view), GTK_WIDGET (self), &scaled, out);
}

static gboolean
css_rect_to_widget (TwActionOverlay       *self,
                    const graphene_rect_t *css,
                    graphene_rect_t       *out)
{
  graphene_point_t top_left;
  graphene_point_t bottom_right;
  graphene_point_t a;
  graphene_point_t b;

  graphene_rect_get_top_left (css, &top_left);
  graphene_rect_get_bottom_right (css, &bottom_right);

  if (!css_to_widget (self, &top_left, &a) || !css_to_widget (self, &bottom_right, &b))
    return FALSE;

  graphene_rect_init (out, a.x, a.y, b.x - a.x, b.y - a.y);
  return TRUE;
}

static gboolean
read_point (JsonObject       *object,
            const char       *member,
            graphene_point_t *point)
{
  JsonNode *node = json_object_get_member (object, member);
  JsonObject *p;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;

  p = json_node_get_object (node);
  if (!json_object_has_member (p, "x") || !json_object_has_member (p, "y"))
    return FALSE;

  graphene_point_init (point, json_object_get_double_member (p, "x"),
                       json_object_get_double_member (p, "y"));
  return TRUE;
}

/* Where the pointer is headed, in CSS pixels: the point acted on, or the
 * middle of the element, or the middle of the page for a page scroll. */
static gboolean
pointer_target_css (TwActionOverlay  *self,
                    graphene_point_t *css)
{
  WebKitWebView *view;

  if (self->has_point)
    {
      *css = self->point;
      return TRUE;
    }

  if (self->has_rect)
    {
      graphene_rect_get_center (&self->rect, css);
      return TRUE;
    }

  if (self->action != NULL && self->tab != NULL &&
      g_strcmp0 (json_object_get_string_member_with_default (self->action, "tool", ""),
                 "scroll") == 0)
    {
      double zoom;

      view = tw_browser_tab_get_view (self->tab);
      zoom = MAX (webkit_web_view_get_zoom_level (view), 0.01);
      graphene_point_init (css,
                           gtk_widget_get_width (GTK_WIDGET (view)) / zoom / 2.0,
                           gtk_widget_get_height (GTK_WIDGET (view)) / zoom / 2.0);
      return TRUE;
    }

  return FALSE;
}

/* The caption */

static char *
cut (const char *text,
     glong       max)
{
  g_autofree char *one_line = g_strdup (text != NULL ? text : "");
  glong len;
  g_autofree char *part = NULL;

  g_strdelimit (one_line, "\r\n\t", ' ');
  len = g_utf8_strlen (one_line, -1);
  if (len <= max)
    return g_steal_pointer (&one_line);

  part = g_utf8_substring (one_line, 0, max);
  return g_strconcat (part, "…", NULL);
}

/* “Save”, or the role when the element has no name, or the ref. */
static char *
target_label (JsonObject *action)
{
  const char *name = json_object_get_string_member_with_default (action, "name", "");
  const char *role = json_object_get_string_member_with_default (action, "role", NULL);
  const char *ref = json_object_get_string_member_with_default (action, "ref", NULL);
  g_autofree char *short_name = NULL;

  if (ref == NULL)
    ref = json_object_get_string_member_with_default (action, "sourceRef", NULL);

  if (name[0] != '\0')
    {
      short_name = cut (name, 40);
      return g_strdup_printf ("“%s”", short_name);
    }

  if (role != NULL && !g_str_equal (role, "generic"))
    return g_strdup (role);

  return g_strdup (ref);
}

static char *
build_caption (TwActionOverlay *self,
               gint64           now_us)
{
  JsonObject *action = self->action;
  const char *tool = json_object_get_string_member_with_default (action, "tool", "");
  const char *agent = json_object_get_string_member_with_default (action, "agent", "");
  g_autofree char *target = target_label (action);
  g_autofree char *what = NULL;

  if (g_str_equal (tool, "type"))
    {
      const char *text = json_object_get_string_member_with_default (action, "text", "");
      glong len = g_utf8_strlen (text, -1);
      glong shown = len;
      g_autofree char *typed = NULL;
      g_autofree char *visible = NULL;

      /* The text goes in as the keys do; once the action is over, all of
       * it has. */
      if (!self->finished && animating (self))
        shown = MIN (len, (now_us - self->started_us) / (TYPE_CHAR_MS * 1000) + 1);

      typed = g_utf8_substring (text, 0, shown);
      visible = cut (typed, CAPTION_MAX_CHARS);
      what = target != NULL
        ? g_strdup_printf (_("type “%s%s” into %s"), visible, shown < len ? "▏" : "", target)
        : g_strdup_printf (_("type “%s%s”"), visible, shown < len ? "▏" : "");
    }
  else if (g_str_equal (tool, "fill"))
    {
      g_autofree char *value =
        cut (json_object_get_string_member_with_default (action, "value", ""), CAPTION_MAX_CHARS);

      what = g_strdup_printf (_("fill %s with “%s”"), target ? target : "", value);
    }
  else if (g_str_equal (tool, "select"))
    {
      g_autofree char *value =
        cut (json_object_get_string_member_with_default (action, "value", ""), CAPTION_MAX_CHARS);

      what = g_strdup_printf (_("select “%s” in %s"), value, target ? target : "");
    }
  else if (g_str_equal (tool, "keypress"))
    {
      what = g_strdup_printf (_("press %s"),
                              json_object_get_string_member_with_default (action, "key", ""));
    }
  else if (g_str_equal (tool, "scroll"))
    {
      double dx = json_object_get_double_member_with_default (action, "deltaX", 0);
      double dy = json_object_get_double_member_with_default (action, "deltaY", 0);
      const char *arrow = fabs (dy) >= fabs (dx) ? (dy >= 0 ? "↓" : "↑") : (dx >= 0 ? "→" : "←");

      what = g_strdup_printf (_("scroll %s %.0f px"), arrow, MAX (fabs (dx), fabs (dy)));
    }
  else if (g_str_equal (tool, "drag"))
    {
      what = g_strdup_printf (_("drag %s"), target ? target : "");
    }
  else if (g_str_equal (tool, "evaluate"))
    {
      what = g_strdup (_("run a script"));
    }
  else
    {
      /* click, hover, upload */
      what = g_strdup_printf ("%s %s", tool, target ? target : "");
    }

  if (self->finished && self->failed)
    {
      const char *code = json_object_get_string_member_with_default (action, "errorCode", NULL);

      if (code != NULL && agent[0] == '\0')
        return g_strdup_printf ("%s — %s", g_strstrip (what), code);
      if (code != NULL)
        return g_strdup_printf ("%s: %s — %s", agent, g_strstrip (what), code);
    }

  /* Commands that no agent issued (scripts, tests) say only what happens. */
  if (agent[0] == '\0')
    return g_strdup (g_strstrip (what));

  return g_strdup_printf ("%s: %s", agent, g_strstrip (what));
}

/* Animation */

static void
stop_ticking (TwActionOverlay *self)
{
  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
}

static void
clear (TwActionOverlay *self)
{
  stop_ticking (self);
  g_clear_handle_id (&self->linger_source, g_source_remove);
  g_clear_pointer (&self->action, json_object_unref);
  g_clear_pointer (&self->caption, g_free);
  self->active = FALSE;
  self->has_rect = FALSE;
  self->has_point = FALSE;
  self->has_drop = FALSE;
  self->finished = FALSE;
  self->failed = FALSE;
  self->flash = FALSE;
  self->fade_us = 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *frame_clock,
         gpointer       user_data)
{
  TwActionOverlay *self = TW_ACTION_OVERLAY (widget);
  gint64 now = gdk_frame_clock_get_frame_time (frame_clock);

  if (self->fade_us != 0 && now - self->fade_us >= FADE_MS * 1000)
    {
      self->tick_id = 0;
      clear (self);
      return G_SOURCE_REMOVE;
    }

  if (self->action != NULL && !self->flash)
    {
      g_autofree char *caption = build_caption (self, now);

      if (g_strcmp0 (caption, self->caption) != 0)
        {
          g_free (self->caption);
          self->caption = g_steal_pointer (&caption);
        }
    }

  gtk_widget_queue_draw (widget);

  return G_SOURCE_CONTINUE;
}

static void
ensure_ticking (TwActionOverlay *self)
{
  if (self->tick_id == 0 && animating (self))
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), tick_cb, NULL, NULL);

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
linger_cb (gpointer user_data)
{
  TwActionOverlay *self = user_data;

  self->linger_source = 0;

  if (animating (self))
    {
      self->fade_us = g_get_monotonic_time ();
      ensure_ticking (self);
    }
  else
    {
      clear (self);
    }

  return G_SOURCE_REMOVE;
}

static void
start_glide (TwActionOverlay *self)
{
  graphene_point_t css;
  graphene_point_t target;

  if (!pointer_target_css (self, &css) || !css_to_widget (self, &css, &target))
    return;

  if (self->has_pointer_drawn)
    self->pointer_from = self->pointer_drawn;
  else
    graphene_point_init (&self->pointer_from, target.x + ENTRY_OFFSET_X, target.y + ENTRY_OFFSET_Y);

  self->glide_us = g_get_monotonic_time ();
}

/* The tab's signals */

static void
update_geometry (TwActionOverlay *self,
                 JsonObject      *action)
{
  graphene_point_t old_target;
  graphene_point_t new_target;
  gboolean had_target = pointer_target_css (self, &old_target);
  gboolean had_rect = self->has_rect;

  self->has_rect = tw_page_runtime_read_rect (action, "rect", &self->rect);
  self->has_point = read_point (action, "point", &self->point);
  self->has_drop = tw_page_runtime_read_rect (action, "targetRect", &self->drop_rect);

  if (self->has_rect && !had_rect)
    self->rect_us = g_get_monotonic_time ();

  if (pointer_target_css (self, &new_target) &&
      (!had_target || !graphene_point_near (&old_target, &new_target, 0.5)))
    start_glide (self);
}

static void
action_started_cb (TwActionOverlay *self,
                   JsonObject      *action,
                   TwBrowserTab    *tab)
{
  gboolean had_pointer = self->active && self->has_pointer_drawn;

  clear (self);

  self->action = json_object_ref (action);
  self->active = TRUE;
  self->started_us = g_get_monotonic_time ();
  self->has_pointer_drawn = had_pointer;

  update_geometry (self, action);
  self->caption = build_caption (self, self->started_us);
  ensure_ticking (self);
}

static void
action_updated_cb (TwActionOverlay *self,
                   JsonObject      *action,
                   TwBrowserTab    *tab)
{
  if (self->action == NULL || self->flash)
    return;

  if (self->action != action)
    {
      g_clear_pointer (&self->action, json_object_unref);
      self->action = json_object_ref (action);
    }

  update_geometry (self, action);
  g_free (self->caption);
  self->caption = build_caption (self, g_get_monotonic_time ());
  ensure_ticking (self);
}

static void
action_finished_cb (TwActionOverlay *self,
                    JsonObject      *action,
                    TwBrowserTab    *tab)
{
  if (self->action == NULL || self->flash)
    return;

  self->finished = TRUE;
  self->failed = !json_object_get_boolean_member_with_default (action, "ok", TRUE);
  self->finished_us = g_get_monotonic_time ();
  update_geometry (self, action);
  g_free (self->caption);
  self->caption = build_caption (self, self->finished_us);

  g_clear_handle_id (&self->linger_source, g_source_remove);
  self->linger_source = g_timeout_add (LINGER_MS, linger_cb, self);
  ensure_ticking (self);
}

/* Drawing */

static void
get_colors (TwActionOverlay *self,
            GdkRGBA         *accent)
{
  /* Adwaita's blue and red: the accent, and what went wrong. */
  if (self->finished && self->failed)
    gdk_rgba_parse (accent, "#e01b24");
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
  cairo_set_source_rgba (cr, 0.1, 0.1, 0.1, 0.92 * alpha);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 1, 1, 1, alpha);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke (cr);
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

static void
tw_action_overlay_snapshot (GtkWidget   *widget,
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
  tool = self->action != NULL ? json_object_get_string_member_with_default (self->action, "tool", "")
                              : "";

  if (self->has_rect)
    has_box = css_rect_to_widget (self, &self->rect, &box);

  if (has_box)
    {
      appear = self->flash ? 1.0 : progress (self, self->rect_us, now, APPEAR_MS);

      /* A picked element blinks twice, then stays until it fades. */
      if (self->flash && animating (self))
        {
          double t = (now - self->started_us) / 1000.0;

          if (t < 900)
            alpha *= 0.55 + 0.45 * cos (t / 900.0 * 4 * G_PI);
        }

      draw_highlight (self, snapshot, &box, &accent, appear, alpha);
    }

  if (self->has_drop && css_rect_to_widget (self, &self->drop_rect, &drop))
    draw_highlight (self, snapshot, &drop, &accent, 1.0, alpha * 0.8);

  if (!self->flash && pointer_target_css (self, &css_target))
    has_target = css_to_widget (self, &css_target, &target);

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
          double dx = json_object_get_double_member_with_default (self->action, "deltaX", 0);
          double dy = json_object_get_double_member_with_default (self->action, "deltaY", 0);
          double length = sqrt (dx * dx + dy * dy);

          if (length > 0.5)
            {
              double scale = MIN (90.0, MAX (40.0, length / 4)) / length;
              graphene_point_t end = GRAPHENE_POINT_INIT (target.x + dx * scale, target.y + dy * scale);

              draw_arrow (cr, &target, &end, &accent, FALSE, alpha * glide);
            }
        }
      else if (self->has_drop && css_rect_to_widget (self, &self->drop_rect, &drop))
        {
          graphene_point_t end;

          graphene_rect_get_center (&drop, &end);
          draw_arrow (cr, &target, &end, &accent, TRUE, alpha * glide);
        }

      draw_pointer (cr, &pointer, alpha);
      cairo_destroy (cr);
    }

  draw_caption (self, snapshot, has_box ? &box : NULL, &accent, alpha);
}

/* GObject */

static void
disconnect_tab (TwActionOverlay *self)
{
  if (self->tab != NULL)
    g_signal_handlers_disconnect_by_data (self->tab, self);
  g_clear_object (&self->tab);
}

static void
tw_action_overlay_dispose (GObject *object)
{
  TwActionOverlay *self = TW_ACTION_OVERLAY (object);

  clear (self);
  disconnect_tab (self);

  G_OBJECT_CLASS (tw_action_overlay_parent_class)->dispose (object);
}

static void
tw_action_overlay_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TwActionOverlay *self = TW_ACTION_OVERLAY (object);

  switch (prop_id)
    {
    case PROP_TAB:
      g_value_set_object (value, self->tab);
      break;

    case PROP_ANIMATIONS:
      g_value_set_boolean (value, self->animations);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_action_overlay_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TwActionOverlay *self = TW_ACTION_OVERLAY (object);

  switch (prop_id)
    {
    case PROP_TAB:
      g_assert (self->tab == NULL);
      self->tab = g_value_dup_object (value);
      if (self->tab != NULL)
        {
          g_signal_connect_object (self->tab, "action-started",
                                   G_CALLBACK (action_started_cb), self, G_CONNECT_SWAPPED);
          g_signal_connect_object (self->tab, "action-updated",
                                   G_CALLBACK (action_updated_cb), self, G_CONNECT_SWAPPED);
          g_signal_connect_object (self->tab, "action-finished",
                                   G_CALLBACK (action_finished_cb), self, G_CONNECT_SWAPPED);
        }
      break;

    case PROP_ANIMATIONS:
      tw_action_overlay_set_animations (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_action_overlay_class_init (TwActionOverlayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_action_overlay_dispose;
  object_class->get_property = tw_action_overlay_get_property;
  object_class->set_property = tw_action_overlay_set_property;

  widget_class->snapshot = tw_action_overlay_snapshot;

  properties[PROP_TAB] =
    g_param_spec_object ("tab", NULL, NULL, TW_TYPE_BROWSER_TAB,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ANIMATIONS] =
    g_param_spec_boolean ("animations", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "tw-action-overlay");
}

static void
tw_action_overlay_init (TwActionOverlay *self)
{
  self->animations = TRUE;

  /* Clicks and scrolls go to the page under it. */
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
  gtk_widget_set_can_focus (GTK_WIDGET (self), FALSE);
  gtk_widget_set_focusable (GTK_WIDGET (self), FALSE);
}

GtkWidget *
tw_action_overlay_new (TwBrowserTab *tab)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);

  return g_object_new (TW_TYPE_ACTION_OVERLAY, "tab", tab, NULL);
}

TwBrowserTab *
tw_action_overlay_get_tab (TwActionOverlay *self)
{
  g_return_val_if_fail (TW_IS_ACTION_OVERLAY (self), NULL);

  return self->tab;
}

gboolean
tw_action_overlay_get_animations (TwActionOverlay *self)
{
  g_return_val_if_fail (TW_IS_ACTION_OVERLAY (self), FALSE);

  return self->animations;
}

void
tw_action_overlay_set_animations (TwActionOverlay *self,
                                  gboolean         animations)
{
  g_return_if_fail (TW_IS_ACTION_OVERLAY (self));

  animations = !!animations;
  if (self->animations == animations)
    return;

  self->animations = animations;
  if (!animations)
    stop_ticking (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANIMATIONS]);
}

gboolean
tw_action_overlay_get_highlight (TwActionOverlay *self,
                                 graphene_rect_t *rect)
{
  g_return_val_if_fail (TW_IS_ACTION_OVERLAY (self), FALSE);
  g_return_val_if_fail (rect != NULL, FALSE);

  if (!self->active || !self->has_rect)
    return FALSE;

  return css_rect_to_widget (self, &self->rect, rect);
}

const char *
tw_action_overlay_get_caption (TwActionOverlay *self)
{
  g_return_val_if_fail (TW_IS_ACTION_OVERLAY (self), NULL);

  return self->active ? self->caption : NULL;
}

void
tw_action_overlay_flash (TwActionOverlay       *self,
                         const graphene_rect_t *rect,
                         const char            *caption)
{
  g_return_if_fail (TW_IS_ACTION_OVERLAY (self));
  g_return_if_fail (rect != NULL);

  clear (self);

  self->rect = *rect;
  self->active = TRUE;
  self->flash = TRUE;
  self->has_rect = TRUE;
  self->started_us = g_get_monotonic_time ();
  self->rect_us = self->started_us;
  self->caption = g_strdup (caption);

  self->linger_source = g_timeout_add (FLASH_MS, linger_cb, self);
  ensure_ticking (self);
}
