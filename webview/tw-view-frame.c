/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-view-frame.h"

#include "tw-error.h"

/* Room around a page of fixed size, so its edges and shadow show against
 * the window like a device preview. */
#define PREVIEW_MARGIN 16

struct _TwViewFrame
{
  GtkWidget      parent_instance;

  WebKitWebView *view;

  /* 0 × 0 when the view fills the frame. */
  int            override_width;
  int            override_height;

  /* The last size the frame had on screen, for sizing the view while it is
   * not mapped. */
  int            last_width;
  int            last_height;
};

enum {
  PROP_0,
  PROP_VIEW,
  PROP_VIEWPORT_WIDTH,
  PROP_VIEWPORT_HEIGHT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TwViewFrame, tw_view_frame, GTK_TYPE_WIDGET)

static void
get_target_size (TwViewFrame *self,
                 int         *width,
                 int         *height)
{
  if (self->override_width > 0)
    {
      *width = self->override_width;
      *height = self->override_height;
    }
  else if (self->last_width > 0 && self->last_height > 0)
    {
      *width = self->last_width;
      *height = self->last_height;
    }
  else
    {
      *width = TW_VIEW_FRAME_DEFAULT_WIDTH;
      *height = TW_VIEW_FRAME_DEFAULT_HEIGHT;
    }
}

/* Gives the view its size while nothing on screen does: see the header. */
static void
allocate_view_offscreen (TwViewFrame *self)
{
  GtkWidget *child = GTK_WIDGET (self->view);
  int width;
  int height;

  if (child == NULL || gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;

  get_target_size (self, &width, &height);

  if (gtk_widget_get_width (child) == width && gtk_widget_get_height (child) == height)
    return;

  /* GTK wants a measure before every allocation. */
  gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, NULL, NULL, NULL, NULL);
  gtk_widget_measure (child, GTK_ORIENTATION_VERTICAL, width, NULL, NULL, NULL, NULL);
  gtk_widget_allocate (child, width, height, -1, NULL);
}

static void
tw_view_frame_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  TwViewFrame *self = TW_VIEW_FRAME (widget);
  int child_minimum = 0;
  int child_natural = 0;

  if (self->override_width > 0)
    {
      *minimum = *natural = 2 * PREVIEW_MARGIN + (orientation == GTK_ORIENTATION_HORIZONTAL
                                                  ? self->override_width
                                                  : self->override_height);
      return;
    }

  if (self->view != NULL)
    gtk_widget_measure (GTK_WIDGET (self->view), orientation, for_size,
                        &child_minimum, &child_natural, NULL, NULL);

  *minimum = child_minimum;
  *natural = child_natural;
}

static void
tw_view_frame_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  TwViewFrame *self = TW_VIEW_FRAME (widget);
  GskTransform *transform = NULL;

  if (self->view == NULL)
    return;

  if (self->override_width > 0)
    {
      /* A phone-sized page in a wide window sits in the middle, near the
       * top, like a device preview. Only its place changes: its size is the
       * override, whatever room there is. */
      int x = MAX (PREVIEW_MARGIN, (width - self->override_width) / 2);

      transform = gsk_transform_translate (NULL, &GRAPHENE_POINT_INIT (x, PREVIEW_MARGIN));
      gtk_widget_allocate (GTK_WIDGET (self->view),
                           self->override_width, self->override_height,
                           -1, transform);
      return;
    }

  if (width > 0 && height > 0)
    {
      self->last_width = width;
      self->last_height = height;
    }

  gtk_widget_allocate (GTK_WIDGET (self->view), width, height, baseline, NULL);
}

static void
tw_view_frame_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  TwViewFrame *self = TW_VIEW_FRAME (widget);
  graphene_rect_t bounds;

  if (self->view == NULL)
    return;

  /* A page of fixed size gets a soft shadow, so where it ends is plain even
   * when it is as pale as the window. */
  if (self->override_width > 0 &&
      gtk_widget_compute_bounds (GTK_WIDGET (self->view), widget, &bounds))
    {
      static const GdkRGBA shadow = { 0, 0, 0, 0.28 };
      GskRoundedRect outline;

      gsk_rounded_rect_init_from_rect (&outline, &bounds, 0);
      gtk_snapshot_append_outset_shadow (snapshot, &outline, &shadow, 0, 1, 1, 8);
    }

  gtk_widget_snapshot_child (widget, GTK_WIDGET (self->view), snapshot);
}

static gboolean
tw_view_frame_grab_focus (GtkWidget *widget)
{
  TwViewFrame *self = TW_VIEW_FRAME (widget);

  return self->view != NULL && gtk_widget_grab_focus (GTK_WIDGET (self->view));
}

static void
tw_view_frame_dispose (GObject *object)
{
  TwViewFrame *self = TW_VIEW_FRAME (object);

  if (self->view != NULL)
    gtk_widget_unparent (GTK_WIDGET (self->view));
  self->view = NULL;

  G_OBJECT_CLASS (tw_view_frame_parent_class)->dispose (object);
}

static void
tw_view_frame_constructed (GObject *object)
{
  TwViewFrame *self = TW_VIEW_FRAME (object);

  G_OBJECT_CLASS (tw_view_frame_parent_class)->constructed (object);

  allocate_view_offscreen (self);
}

static void
tw_view_frame_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TwViewFrame *self = TW_VIEW_FRAME (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      g_value_set_object (value, self->view);
      break;

    case PROP_VIEWPORT_WIDTH:
      g_value_set_int (value, self->override_width);
      break;

    case PROP_VIEWPORT_HEIGHT:
      g_value_set_int (value, self->override_height);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_view_frame_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TwViewFrame *self = TW_VIEW_FRAME (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      g_assert (self->view == NULL);
      self->view = g_value_get_object (value);
      if (self->view != NULL)
        gtk_widget_set_parent (GTK_WIDGET (self->view), GTK_WIDGET (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_view_frame_class_init (TwViewFrameClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tw_view_frame_constructed;
  object_class->dispose = tw_view_frame_dispose;
  object_class->get_property = tw_view_frame_get_property;
  object_class->set_property = tw_view_frame_set_property;

  widget_class->measure = tw_view_frame_measure;
  widget_class->size_allocate = tw_view_frame_size_allocate;
  widget_class->snapshot = tw_view_frame_snapshot;
  widget_class->grab_focus = tw_view_frame_grab_focus;

  properties[PROP_VIEW] =
    g_param_spec_object ("view", NULL, NULL,
                         WEBKIT_TYPE_WEB_VIEW,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  /* 0 when the view fills the frame. */
  properties[PROP_VIEWPORT_WIDTH] =
    g_param_spec_int ("viewport-width", NULL, NULL,
                      0, TW_VIEW_FRAME_MAX_SIZE, 0,
                      (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_VIEWPORT_HEIGHT] =
    g_param_spec_int ("viewport-height", NULL, NULL,
                      0, TW_VIEW_FRAME_MAX_SIZE, 0,
                      (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "viewframe");
}

static void
tw_view_frame_init (TwViewFrame *self)
{
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
}

TwViewFrame *
tw_view_frame_new (WebKitWebView *view)
{
  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);
  g_return_val_if_fail (gtk_widget_get_parent (GTK_WIDGET (view)) == NULL, NULL);

  return g_object_new (TW_TYPE_VIEW_FRAME, "view", view, NULL);
}

WebKitWebView *
tw_view_frame_get_view (TwViewFrame *self)
{
  g_return_val_if_fail (TW_IS_VIEW_FRAME (self), NULL);

  return self->view;
}

static gboolean
size_in_range (int size)
{
  return size >= TW_VIEW_FRAME_MIN_SIZE && size <= TW_VIEW_FRAME_MAX_SIZE;
}

gboolean
tw_view_frame_set_viewport_size (TwViewFrame  *self,
                                 int           width,
                                 int           height,
                                 GError      **error)
{
  g_return_val_if_fail (TW_IS_VIEW_FRAME (self), FALSE);

  if (!(width == 0 && height == 0) && !(size_in_range (width) && size_in_range (height)))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "The viewport must be between %d and %d pixels wide and high; "
                   "%d × %d is not",
                   TW_VIEW_FRAME_MIN_SIZE, TW_VIEW_FRAME_MAX_SIZE, width, height);
      return FALSE;
    }

  if (self->override_width == width && self->override_height == height)
    {
      allocate_view_offscreen (self);
      return TRUE;
    }

  g_object_freeze_notify (G_OBJECT (self));

  if (self->override_width != width)
    {
      self->override_width = width;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEWPORT_WIDTH]);
    }

  if (self->override_height != height)
    {
      self->override_height = height;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEWPORT_HEIGHT]);
    }

  gtk_widget_queue_resize (GTK_WIDGET (self));
  allocate_view_offscreen (self);

  g_object_thaw_notify (G_OBJECT (self));

  return TRUE;
}

gboolean
tw_view_frame_get_viewport_size (TwViewFrame *self,
                                 int         *width,
                                 int         *height)
{
  g_return_val_if_fail (TW_IS_VIEW_FRAME (self), FALSE);

  if (self->override_width > 0)
    {
      if (width != NULL)
        *width = self->override_width;
      if (height != NULL)
        *height = self->override_height;
      return TRUE;
    }

  if (width != NULL)
    *width = self->view != NULL ? gtk_widget_get_width (GTK_WIDGET (self->view)) : 0;
  if (height != NULL)
    *height = self->view != NULL ? gtk_widget_get_height (GTK_WIDGET (self->view)) : 0;

  return FALSE;
}
