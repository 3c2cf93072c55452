/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-action-overlay-private.h"


/* Where a pointer with no previous place comes from, relative to its
 * target, so that it still visibly travels. */
#define ENTRY_OFFSET_X  (-70.0)
#define ENTRY_OFFSET_Y  (-50.0)

enum {
  PROP_0,
  PROP_TAB,
  PROP_ANIMATIONS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TwActionOverlay, tw_action_overlay, GTK_TYPE_WIDGET)

gboolean
_tw_action_overlay_animating (TwActionOverlay *self)
{
  gboolean enabled = TRUE;

  if (!self->animations)
    return FALSE;

  g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-enable-animations", &enabled,
                NULL);

  return enabled;
}

/* Geometry */

/* CSS pixels of the page's viewport to widget coordinates: the page zoom,
 * then wherever the view sits under the overlay (a fixed viewport size
 * centres or scrolls it). FALSE while the view is not on screen. */
gboolean
_tw_action_overlay_css_to_widget (TwActionOverlay        *self,
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

gboolean
_tw_action_overlay_css_rect_to_widget (TwActionOverlay       *self,
                                       const graphene_rect_t *css,
                                       graphene_rect_t       *out)
{
  graphene_point_t top_left;
  graphene_point_t bottom_right;
  graphene_point_t a;
  graphene_point_t b;

  graphene_rect_get_top_left (css, &top_left);
  graphene_rect_get_bottom_right (css, &bottom_right);

  if (!_tw_action_overlay_css_to_widget (self, &top_left, &a) || !_tw_action_overlay_css_to_widget (self, &bottom_right, &b))
    return FALSE;

  graphene_rect_init (out, a.x, a.y, b.x - a.x, b.y - a.y);
  return TRUE;
}

/* Where the pointer is headed, in CSS pixels: the point acted on, or the
 * middle of the element, or the middle of the page for a page scroll. */
gboolean
_tw_action_overlay_pointer_target_css (TwActionOverlay  *self,
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
      self->action->command == TW_TAB_COMMAND_SCROLL)
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
  g_clear_pointer (&self->action, tw_tab_action_unref);
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
      g_autofree char *caption = _tw_action_overlay_build_caption (self, now);

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
  if (self->tick_id == 0 && _tw_action_overlay_animating (self))
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), tick_cb, NULL, NULL);

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
linger_cb (gpointer user_data)
{
  TwActionOverlay *self = user_data;

  self->linger_source = 0;

  if (_tw_action_overlay_animating (self))
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

  if (!_tw_action_overlay_pointer_target_css (self, &css) || !_tw_action_overlay_css_to_widget (self, &css, &target))
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
                 TwTabAction     *action)
{
  graphene_point_t old_target;
  graphene_point_t new_target;
  gboolean had_target = _tw_action_overlay_pointer_target_css (self, &old_target);
  gboolean had_rect = self->has_rect;

  self->has_rect = action->has_rect;
  self->rect = action->rect;
  self->has_point = action->has_point;
  self->point = action->point;
  self->has_drop = action->has_target_rect;
  self->drop_rect = action->target_rect;

  if (self->has_rect && !had_rect)
    self->rect_us = g_get_monotonic_time ();

  if (_tw_action_overlay_pointer_target_css (self, &new_target) &&
      (!had_target || !graphene_point_near (&old_target, &new_target, 0.5)))
    start_glide (self);
}

static void
action_started_cb (TwActionOverlay *self,
                   TwTabAction     *action,
                   TwBrowserTab    *tab)
{
  gboolean had_pointer = self->active && self->has_pointer_drawn;

  clear (self);

  self->action = tw_tab_action_ref (action);
  self->active = TRUE;
  self->started_us = g_get_monotonic_time ();
  self->has_pointer_drawn = had_pointer;

  update_geometry (self, action);
  self->caption = _tw_action_overlay_build_caption (self, self->started_us);
  ensure_ticking (self);
}

static void
action_updated_cb (TwActionOverlay *self,
                   TwTabAction     *action,
                   TwBrowserTab    *tab)
{
  if (self->action == NULL || self->flash)
    return;

  if (self->action != action)
    {
      g_clear_pointer (&self->action, tw_tab_action_unref);
      self->action = tw_tab_action_ref (action);
    }

  update_geometry (self, action);
  g_free (self->caption);
  self->caption = _tw_action_overlay_build_caption (self, g_get_monotonic_time ());
  ensure_ticking (self);
}

static void
action_finished_cb (TwActionOverlay *self,
                    TwTabAction     *action,
                    TwBrowserTab    *tab)
{
  if (self->action == NULL || self->flash)
    return;

  self->finished = TRUE;
  self->failed = !action->ok;
  self->finished_us = g_get_monotonic_time ();
  update_geometry (self, action);
  g_free (self->caption);
  self->caption = _tw_action_overlay_build_caption (self, self->finished_us);

  g_clear_handle_id (&self->linger_source, g_source_remove);
  self->linger_source = g_timeout_add (LINGER_MS, linger_cb, self);
  ensure_ticking (self);
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

  widget_class->snapshot = _tw_action_overlay_snapshot;

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

  return _tw_action_overlay_css_rect_to_widget (self, &self->rect, rect);
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
