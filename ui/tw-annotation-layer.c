/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tw-annotation-layer.h"

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
  GtkLabel       *prompt;
  GtkEntry       *note;
  GtkWidget      *send_button;
};

enum {
  PROP_0,
  PROP_TAB,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TwAnnotationLayer, tw_annotation_layer, ADW_TYPE_BIN)

static void
update (TwAnnotationLayer *self)
{
  const char *message = self->tab != NULL ? tw_browser_tab_get_annotate_message (self->tab) : NULL;

  gtk_widget_set_visible (GTK_WIDGET (self), self->active);
  gtk_widget_set_sensitive (self->send_button,
                            self->marks->len > 0 || *gtk_editable_get_text (GTK_EDITABLE (self->note)) != '\0');
  if (message != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("%s asks: %s"),
                                               tw_browser_tab_get_annotate_agent (self->tab), message);

      gtk_label_set_label (self->prompt, text);
    }
  else
    {
      gtk_label_set_label (self->prompt, _("Drag to draw a box, click to point at an element"));
    }
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
tab_notify_annotate_cb (TwAnnotationLayer *self)
{
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
send_clicked_cb (TwAnnotationLayer *self)
{
  tw_annotation_layer_send (self);
}

static void
cancel_clicked_cb (TwAnnotationLayer *self)
{
  tw_annotation_layer_cancel (self);
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
tw_annotation_layer_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TwAnnotationLayer *self = TW_ANNOTATION_LAYER (object);

  switch (prop_id)
    {
    case PROP_TAB:
      g_value_set_object (value, self->tab);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_annotation_layer_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  TwAnnotationLayer *self = TW_ANNOTATION_LAYER (object);

  switch (prop_id)
    {
    case PROP_TAB:
      self->tab = g_value_dup_object (value);
      if (self->tab != NULL)
        g_signal_connect_object (self->tab, "notify::annotate-message",
                                 G_CALLBACK (tab_notify_annotate_cb), self, G_CONNECT_SWAPPED);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_annotation_layer_class_init (TwAnnotationLayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_annotation_layer_dispose;
  object_class->finalize = tw_annotation_layer_finalize;
  object_class->get_property = tw_annotation_layer_get_property;
  object_class->set_property = tw_annotation_layer_set_property;

  properties[PROP_TAB] =
    g_param_spec_object ("tab", NULL, NULL, TW_TYPE_BROWSER_TAB,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tw_annotation_layer_init (TwAnnotationLayer *self)
{
  GtkWidget *overlay = gtk_overlay_new ();
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *cancel;
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

  self->prompt = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->prompt, PANGO_ELLIPSIZE_END);
  self->note = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->note, _("Note for the agent"));
  gtk_widget_set_hexpand (GTK_WIDGET (self->note), TRUE);
  g_signal_connect_object (self->note, "changed", G_CALLBACK (note_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->note, "activate", G_CALLBACK (send_clicked_cb), self,
                           G_CONNECT_SWAPPED);
  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  g_signal_connect_object (cancel, "clicked", G_CALLBACK (cancel_clicked_cb), self,
                           G_CONNECT_SWAPPED);
  self->send_button = gtk_button_new_with_mnemonic (_("_Send"));
  gtk_widget_add_css_class (self->send_button, "suggested-action");
  gtk_widget_set_tooltip_text (self->send_button, _("Send the marks and the note to the agent"));
  g_signal_connect_object (self->send_button, "clicked", G_CALLBACK (send_clicked_cb), self,
                           G_CONNECT_SWAPPED);

  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->prompt));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->note));
  gtk_box_append (GTK_BOX (bar), cancel);
  gtk_box_append (GTK_BOX (bar), self->send_button);
  gtk_widget_set_valign (bar, GTK_ALIGN_END);
  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 12);
  gtk_widget_set_margin_bottom (bar, 12);
  gtk_widget_add_css_class (bar, "osd");
  gtk_widget_add_css_class (bar, "toolbar");
  gtk_widget_add_css_class (bar, "tw-annotation-bar");
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), bar);

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

  self = g_object_new (TW_TYPE_ANNOTATION_LAYER, "tab", tab, NULL);
  g_set_weak_pointer (&self->web_view, web_view);
  /* A call may already wait. */
  tab_notify_annotate_cb (self);

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
