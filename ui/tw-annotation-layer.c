/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tw-annotation-layer.h"
#include "tw-person-bar.h"

/* Below this many pixels of travel, a press is a point, not a box. */
#define POINT_SLOP 4.0

typedef struct
{
  double x;
  double y;
  double width;   /* 0 for a point */
  double height;
} LayerMark;

struct _TwAnnotationLayer
{
  AdwBin          parent_instance;

  TwBrowserTab   *tab;
  GtkWidget      *web_view;   /* weak */
  GArray         *marks;      /* LayerMark, in the layer's coordinates */
  gboolean        active;

  /* The box being dragged, if any. */
  gboolean        dragging;
  double          drag_x;
  double          drag_y;
  double          drag_dx;
  double          drag_dy;

  GtkWidget      *area;
  TwPersonBar    *bar;
  GtkEntry       *note;
  GtkWidget      *send_button;
};

G_DEFINE_FINAL_TYPE (TwAnnotationLayer, tw_annotation_layer, ADW_TYPE_BIN)

static void
update (TwAnnotationLayer *self)
{
  const char *message = self->tab != NULL ? tw_browser_tab_get_annotate_message (self->tab) : NULL;
  g_autofree char *text = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self), self->active);
  gtk_widget_set_sensitive (self->send_button,
                            self->marks->len > 0 || *gtk_editable_get_text (GTK_EDITABLE (self->note)) != '\0');
  if (message != NULL)
    text = g_strdup_printf (_("%s asks: %s"), tw_browser_tab_get_annotate_agent (self->tab), message);
  /* The bar stays shown inside the layer, which shows and hides as a whole. */
  tw_person_bar_show (self->bar,
                      text != NULL ? text : _("Drag to draw a box, click to point at an element"),
                      NULL);
  gtk_widget_queue_draw (self->area);
}

static void
clear (TwAnnotationLayer *self)
{
  g_array_set_size (self->marks, 0);
  self->dragging = FALSE;
  gtk_editable_set_text (GTK_EDITABLE (self->note), "");
}

static void
tab_notify_annotate_cb (gpointer user_data)
{
  TwAnnotationLayer *self = user_data;

  /* A waiting call opens the mode; when it ends (sent, cancelled, timed
   * out) the mode closes with it. */
  if (tw_browser_tab_get_annotate_message (self->tab) != NULL)
    {
      if (!self->active)
        {
          clear (self);
          self->active = TRUE;
        }
    }
  else if (self->active)
    {
      self->active = FALSE;
      clear (self);
    }
  update (self);
}

static void
draw_cb (GtkDrawingArea *area,
         cairo_t        *cr,
         int             width,
         int             height,
         gpointer        user_data)
{
  TwAnnotationLayer *self = user_data;

  /* A light veil says the page is being marked, not used. */
  cairo_set_source_rgba (cr, 0, 0, 0, 0.08);
  cairo_paint (cr);

  for (guint i = 0; i <= self->marks->len; i++)
    {
      LayerMark mark;

      if (i == self->marks->len)
        {
          if (!self->dragging)
            break;
          mark.x = self->drag_dx < 0 ? self->drag_x + self->drag_dx : self->drag_x;
          mark.y = self->drag_dy < 0 ? self->drag_y + self->drag_dy : self->drag_y;
          mark.width = fabs (self->drag_dx);
          mark.height = fabs (self->drag_dy);
        }
      else
        {
          mark = g_array_index (self->marks, LayerMark, i);
        }

      if (mark.width <= 0 && mark.height <= 0)
        cairo_arc (cr, mark.x, mark.y, 12, 0, 2 * G_PI);
      else
        cairo_rectangle (cr, mark.x, mark.y, mark.width, mark.height);
      cairo_set_source_rgba (cr, 0.88, 0.11, 0.14, 0.15);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, 0.88, 0.11, 0.14);
      cairo_set_line_width (cr, 3);
      cairo_stroke (cr);
    }
}

static void
drag_begin_cb (GtkGestureDrag    *gesture,
               double             x,
               double             y,
               TwAnnotationLayer *self)
{
  self->dragging = TRUE;
  self->drag_x = x;
  self->drag_y = y;
  self->drag_dx = self->drag_dy = 0;
}

static void
drag_update_cb (GtkGestureDrag    *gesture,
                double             dx,
                double             dy,
                TwAnnotationLayer *self)
{
  self->drag_dx = dx;
  self->drag_dy = dy;
  gtk_widget_queue_draw (self->area);
}

static void
drag_end_cb (GtkGestureDrag    *gesture,
             double             dx,
             double             dy,
             TwAnnotationLayer *self)
{
  self->dragging = FALSE;
  if (fabs (dx) < POINT_SLOP && fabs (dy) < POINT_SLOP)
    tw_annotation_layer_add_point (self, self->drag_x, self->drag_y);
  else
    tw_annotation_layer_add_box (self, self->drag_x, self->drag_y, dx, dy);
}

static void
note_changed_cb (TwAnnotationLayer *self)
{
  update (self);
}

static void
send_clicked_cb (gpointer user_data)
{
  tw_annotation_layer_send (user_data);
}

static void
cancel_clicked_cb (gpointer user_data)
{
  tw_annotation_layer_cancel (user_data);
}

static void
tw_annotation_layer_dispose (GObject *object)
{
  TwAnnotationLayer *self = TW_ANNOTATION_LAYER (object);

  g_clear_weak_pointer (&self->web_view);
  g_clear_object (&self->tab);

  G_OBJECT_CLASS (tw_annotation_layer_parent_class)->dispose (object);
}

static void
tw_annotation_layer_finalize (GObject *object)
{
  TwAnnotationLayer *self = TW_ANNOTATION_LAYER (object);

  g_array_unref (self->marks);

  G_OBJECT_CLASS (tw_annotation_layer_parent_class)->finalize (object);
}

static void
tw_annotation_layer_class_init (TwAnnotationLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_annotation_layer_dispose;
  object_class->finalize = tw_annotation_layer_finalize;
}

static void
tw_annotation_layer_init (TwAnnotationLayer *self)
{
  GtkWidget *overlay = gtk_overlay_new ();
  GtkGesture *drag;

  self->marks = g_array_new (FALSE, TRUE, sizeof (LayerMark));

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw_cb, self, NULL);
  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (drag));
  gtk_overlay_set_child (GTK_OVERLAY (overlay), self->area);

  adw_bin_set_child (ADW_BIN (self), overlay);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

GtkWidget *
tw_annotation_layer_new (TwBrowserTab *tab,
                         GtkWidget    *web_view)
{
  TwAnnotationLayer *self;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (web_view), NULL);

  self = g_object_new (TW_TYPE_ANNOTATION_LAYER, NULL);
  self->tab = g_object_ref (tab);
  g_set_weak_pointer (&self->web_view, web_view);

  /* The person's note and buttons, at the foot of the page. */
  self->bar = tw_person_bar_new (tab, NULL, "tw-annotation-bar");
  self->note = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->note, _("Note for the agent"));
  gtk_widget_set_hexpand (GTK_WIDGET (self->note), TRUE);
  g_signal_connect_swapped (self->note, "changed", G_CALLBACK (note_changed_cb), self);
  g_signal_connect_swapped (self->note, "activate", G_CALLBACK (send_clicked_cb), self);
  tw_person_bar_add_child (self->bar, GTK_WIDGET (self->note));
  tw_person_bar_add_button (self->bar, _("_Cancel"), NULL, NULL, cancel_clicked_cb, self);
  self->send_button = tw_person_bar_add_button (self->bar, _("_Send"), "suggested-action",
                                                _("Send the marks and the note to the agent"),
                                                send_clicked_cb, self);
  gtk_widget_set_valign (GTK_WIDGET (self->bar), GTK_ALIGN_END);
  gtk_widget_set_margin_start (GTK_WIDGET (self->bar), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->bar), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->bar), 12);
  gtk_overlay_add_overlay (GTK_OVERLAY (adw_bin_get_child (ADW_BIN (self))),
                           GTK_WIDGET (self->bar));

  /* A call may already wait. */
  tw_person_bar_follow (self->bar, "annotate-message", tab_notify_annotate_cb, self);

  return GTK_WIDGET (self);
}

gboolean
tw_annotation_layer_start (TwAnnotationLayer *self)
{
  g_return_val_if_fail (TW_IS_ANNOTATION_LAYER (self), FALSE);

  if (self->active)
    return FALSE;

  clear (self);
  self->active = TRUE;
  update (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->note));

  return TRUE;
}

gboolean
tw_annotation_layer_get_active (TwAnnotationLayer *self)
{
  g_return_val_if_fail (TW_IS_ANNOTATION_LAYER (self), FALSE);

  return self->active;
}

void
tw_annotation_layer_add_box (TwAnnotationLayer *self,
                             double             x,
                             double             y,
                             double             width,
                             double             height)
{
  LayerMark mark;

  g_return_if_fail (TW_IS_ANNOTATION_LAYER (self));

  mark.x = width < 0 ? x + width : x;
  mark.y = height < 0 ? y + height : y;
  mark.width = MAX (fabs (width), 1);
  mark.height = MAX (fabs (height), 1);
  g_array_append_val (self->marks, mark);
  update (self);
}

void
tw_annotation_layer_add_point (TwAnnotationLayer *self,
                               double             x,
                               double             y)
{
  LayerMark mark = { x, y, 0, 0 };

  g_return_if_fail (TW_IS_ANNOTATION_LAYER (self));

  g_array_append_val (self->marks, mark);
  update (self);
}

void
tw_annotation_layer_set_note (TwAnnotationLayer *self,
                              const char        *note)
{
  g_return_if_fail (TW_IS_ANNOTATION_LAYER (self));

  gtk_editable_set_text (GTK_EDITABLE (self->note), note != NULL ? note : "");
}

guint
tw_annotation_layer_get_n_marks (TwAnnotationLayer *self)
{
  g_return_val_if_fail (TW_IS_ANNOTATION_LAYER (self), 0);

  return self->marks->len;
}

gboolean
tw_annotation_layer_send (TwAnnotationLayer *self)
{
  g_autoptr(TwAnnotation) annotation = NULL;
  double dx = 0;
  double dy = 0;

  g_return_val_if_fail (TW_IS_ANNOTATION_LAYER (self), FALSE);

  if (!self->active || self->tab == NULL)
    return FALSE;

  /* Layer coordinates into the web view's. */
  if (self->web_view != NULL &&
      !gtk_widget_translate_coordinates (GTK_WIDGET (self), self->web_view, 0, 0, &dx, &dy))
    dx = dy = 0;

  annotation = tw_annotation_new ();
  for (guint i = 0; i < self->marks->len; i++)
    {
      const LayerMark *mark = &g_array_index (self->marks, LayerMark, i);

      if (mark->width <= 0 && mark->height <= 0)
        tw_annotation_add_point (annotation, mark->x + dx, mark->y + dy);
      else
        tw_annotation_add_box (annotation, mark->x + dx, mark->y + dy, mark->width, mark->height);
    }
  tw_annotation_set_note (annotation, gtk_editable_get_text (GTK_EDITABLE (self->note)));

  if (!tw_browser_tab_send_annotation (self->tab, g_steal_pointer (&annotation)))
    return FALSE;

  self->active = FALSE;
  clear (self);
  update (self);

  return TRUE;
}

void
tw_annotation_layer_cancel (TwAnnotationLayer *self)
{
  g_return_if_fail (TW_IS_ANNOTATION_LAYER (self));

  if (self->tab != NULL)
    tw_browser_tab_cancel_annotation (self->tab);
  self->active = FALSE;
  clear (self);
  update (self);
}
