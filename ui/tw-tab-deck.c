/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-deck.h"

struct _TwTabDeck
{
  GtkWidget  parent_instance;

  /* Not owned: a page's place in the deck is the widget tree's. */
  GtkWidget *selected;
};

G_DEFINE_FINAL_TYPE (TwTabDeck, tw_tab_deck, GTK_TYPE_WIDGET)

static GQuark resting_quark;

static gboolean
page_is_resting (GtkWidget *page)
{
  return g_object_get_qdata (G_OBJECT (page), resting_quark) != NULL;
}

/* A page in the background takes no pointer input, no keyboard focus by
 * Tab and is hidden from assistive technologies, as a page of a GtkStack
 * would be; it differs in being mapped, unless it rests: then it is
 * unmapped, as in a GtkStack, and WebKit treats its view as a hidden page:
 * no animation frames, timers throttled, nothing drawn. The page on screen
 * never rests. */
static void
update_page_state (TwTabDeck *self,
                   GtkWidget *page)
{
  gboolean selected = page == self->selected;

  gtk_widget_set_can_target (page, selected);
  gtk_widget_set_child_visible (page, selected || !page_is_resting (page));
  gtk_accessible_update_state (GTK_ACCESSIBLE (page),
                               GTK_ACCESSIBLE_STATE_HIDDEN, !selected,
                               -1);
}

static void
tw_tab_deck_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  TwTabDeck *self = TW_TAB_DECK (widget);

  *minimum = 0;
  *natural = 0;

  /* Every page gets the deck's size, so the deck asks for the largest
   * minimum; its natural size is the selected page's, so a tab in the
   * background never grows the window. */
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int child_minimum;
      int child_natural;

      if (!gtk_widget_get_visible (child))
        continue;

      gtk_widget_measure (child, orientation, for_size, &child_minimum, &child_natural,
                          NULL, NULL);
      *minimum = MAX (*minimum, child_minimum);
      if (child == self->selected)
        *natural = child_natural;
    }

  *natural = MAX (*minimum, *natural);
}

static void
tw_tab_deck_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (gtk_widget_get_visible (child) && gtk_widget_get_child_visible (child))
        gtk_widget_allocate (child, width, height, baseline, NULL);
    }
}

static void
tw_tab_deck_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  TwTabDeck *self = TW_TAB_DECK (widget);

  /* WebKit draws a page's next frame only once the last one was taken,
   * and it takes a frame when its view is snapshot: a page that is never
   * snapshot stops after its first frame, with no animation frames, no
   * scroll or resize events and no observer callbacks. So every page is
   * snapshot, and those in the background into a snapshot of their own
   * whose nodes are dropped at once. (Clipped to nothing in the window's
   * snapshot instead, GTK 4.8 drops the clip but keeps a reference to the
   * page's nodes: each frame of a background page stayed in memory, a few
   * megabytes each, after its tab closed.) */
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkSnapshot *background;
      GskRenderNode *node;

      if (child == self->selected || !gtk_widget_get_child_visible (child))
        continue;

      background = gtk_snapshot_new ();
      gtk_widget_snapshot_child (widget, child, background);
      node = gtk_snapshot_free_to_node (background);
      g_clear_pointer (&node, gsk_render_node_unref);
    }

  if (self->selected != NULL)
    gtk_widget_snapshot_child (widget, self->selected, snapshot);
}

static gboolean
tw_tab_deck_focus (GtkWidget        *widget,
                   GtkDirectionType  direction)
{
  TwTabDeck *self = TW_TAB_DECK (widget);

  return self->selected != NULL && gtk_widget_child_focus (self->selected, direction);
}

static gboolean
tw_tab_deck_grab_focus (GtkWidget *widget)
{
  TwTabDeck *self = TW_TAB_DECK (widget);

  return self->selected != NULL && gtk_widget_grab_focus (self->selected);
}

static void
tw_tab_deck_dispose (GObject *object)
{
  GtkWidget *child;

  TW_TAB_DECK (object)->selected = NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (tw_tab_deck_parent_class)->dispose (object);
}

static void
tw_tab_deck_class_init (TwTabDeckClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_tab_deck_dispose;

  widget_class->measure = tw_tab_deck_measure;
  widget_class->size_allocate = tw_tab_deck_size_allocate;
  widget_class->snapshot = tw_tab_deck_snapshot;
  widget_class->focus = tw_tab_deck_focus;
  widget_class->grab_focus = tw_tab_deck_grab_focus;

  gtk_widget_class_set_css_name (widget_class, "tabdeck");

  resting_quark = g_quark_from_static_string ("tw-tab-deck-resting");
}

static void
tw_tab_deck_init (TwTabDeck *self)
{
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
tw_tab_deck_new (void)
{
  return g_object_new (TW_TYPE_TAB_DECK, NULL);
}

void
tw_tab_deck_add (TwTabDeck *self,
                 GtkWidget *page)
{
  g_return_if_fail (TW_IS_TAB_DECK (self));
  g_return_if_fail (GTK_IS_WIDGET (page));
  g_return_if_fail (gtk_widget_get_parent (page) == NULL);

  gtk_widget_set_parent (page, GTK_WIDGET (self));
  update_page_state (self, page);
}

void
tw_tab_deck_remove (TwTabDeck *self,
                    GtkWidget *page)
{
  g_return_if_fail (TW_IS_TAB_DECK (self));
  g_return_if_fail (GTK_IS_WIDGET (page));
  g_return_if_fail (gtk_widget_get_parent (page) == GTK_WIDGET (self));

  if (self->selected == page)
    self->selected = NULL;

  gtk_widget_unparent (page);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
tw_tab_deck_set_selected (TwTabDeck *self,
                          GtkWidget *page)
{
  GtkWidget *old;

  g_return_if_fail (TW_IS_TAB_DECK (self));
  g_return_if_fail (page == NULL || gtk_widget_get_parent (page) == GTK_WIDGET (self));

  if (self->selected == page)
    return;

  old = self->selected;
  self->selected = page;

  if (old != NULL)
    update_page_state (self, old);
  if (page != NULL)
    update_page_state (self, page);

  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
tw_tab_deck_set_resting (TwTabDeck *self,
                         GtkWidget *page,
                         gboolean   resting)
{
  g_return_if_fail (TW_IS_TAB_DECK (self));
  g_return_if_fail (GTK_IS_WIDGET (page));
  g_return_if_fail (gtk_widget_get_parent (page) == GTK_WIDGET (self));

  if (page_is_resting (page) == !!resting)
    return;

  /* Mapped again at once, so that the page is mapped when this returns. */
  g_object_set_qdata (G_OBJECT (page), resting_quark, resting ? GINT_TO_POINTER (1) : NULL);
  update_page_state (self, page);

  /* A page that wakes was left out of the last allocation and drawing. */
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

GtkWidget *
tw_tab_deck_get_selected (TwTabDeck *self)
{
  g_return_val_if_fail (TW_IS_TAB_DECK (self), NULL);

  return self->selected;
}
