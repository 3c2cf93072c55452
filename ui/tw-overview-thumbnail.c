/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-overview-thumbnail.h"

struct _TwOverviewThumbnail
{
  GtkWidget     parent_instance;

  GdkPaintable *paintable;
  int           width;
  int           height;
};

G_DEFINE_FINAL_TYPE (TwOverviewThumbnail, tw_overview_thumbnail, GTK_TYPE_WIDGET)

static void
tw_overview_thumbnail_measure (GtkWidget      *widget,
                               GtkOrientation  orientation,
                               int             for_size,
                               int            *minimum,
                               int            *natural,
                               int            *minimum_baseline,
                               int            *natural_baseline)
{
  TwOverviewThumbnail *self = TW_OVERVIEW_THUMBNAIL (widget);

  *minimum = *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? self->width : self->height;
}

static void
tw_overview_thumbnail_snapshot (GtkWidget   *widget,
                                GtkSnapshot *snapshot)
{
  TwOverviewThumbnail *self = TW_OVERVIEW_THUMBNAIL (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double page_width;
  double page_height;
  double scale;

  if (self->paintable == NULL)
    return;

  page_width = gdk_paintable_get_intrinsic_width (self->paintable);
  page_height = gdk_paintable_get_intrinsic_height (self->paintable);
  if (page_width <= 0 || page_height <= 0)
    return;

  scale = MAX (width / page_width, height / page_height);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gdk_paintable_snapshot (self->paintable, snapshot, page_width * scale, page_height * scale);
  gtk_snapshot_pop (snapshot);
}

static void
tw_overview_thumbnail_dispose (GObject *object)
{
  TwOverviewThumbnail *self = TW_OVERVIEW_THUMBNAIL (object);

  if (self->paintable != NULL)
    g_signal_handlers_disconnect_by_data (self->paintable, self);
  g_clear_object (&self->paintable);

  G_OBJECT_CLASS (tw_overview_thumbnail_parent_class)->dispose (object);
}

static void
tw_overview_thumbnail_class_init (TwOverviewThumbnailClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_overview_thumbnail_dispose;

  widget_class->measure = tw_overview_thumbnail_measure;
  widget_class->snapshot = tw_overview_thumbnail_snapshot;

  gtk_widget_class_set_css_name (widget_class, "tw-overview-thumbnail");
}

static void
tw_overview_thumbnail_init (TwOverviewThumbnail *self)
{
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
}

GtkWidget *
tw_overview_thumbnail_new (GtkWidget *page,
                           int        width,
                           int        height)
{
  TwOverviewThumbnail *self;

  g_return_val_if_fail (page == NULL || GTK_IS_WIDGET (page), NULL);

  self = g_object_new (TW_TYPE_OVERVIEW_THUMBNAIL, NULL);
  self->width = width;
  self->height = height;

  /* The page as the window draws it, frame by frame. */
  if (page != NULL)
    {
      self->paintable = gtk_widget_paintable_new (page);
      g_signal_connect_object (self->paintable, "invalidate-contents",
                               G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->paintable, "invalidate-size",
                               G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
    }

  return GTK_WIDGET (self);
}
