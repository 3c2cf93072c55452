/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-agent-badge.h"

#include "tw-agent-colours.h"

struct _TwAgentBadge
{
  GtkWidget  parent_instance;

  int        size;
  int        colour;
  char      *mark;
};

G_DEFINE_FINAL_TYPE (TwAgentBadge, tw_agent_badge, GTK_TYPE_WIDGET)

static void
tw_agent_badge_measure (GtkWidget      *widget,
                        GtkOrientation  orientation,
                        int             for_size,
                        int            *minimum,
                        int            *natural,
                        int            *minimum_baseline,
                        int            *natural_baseline)
{
  *minimum = *natural = TW_AGENT_BADGE (widget)->size;
}

static void
tw_agent_badge_snapshot (GtkWidget   *widget,
                         GtkSnapshot *snapshot)
{
  TwAgentBadge *self = TW_AGENT_BADGE (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  double size = MIN (width, height);
  cairo_t *cr;

  if (self->colour < 0 || size <= 0)
    return;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_translate (cr, (width - size) / 2, (height - size) / 2);
  tw_agent_badge_draw (cr, self->colour, self->mark, size);
  cairo_destroy (cr);
}

static void
tw_agent_badge_finalize (GObject *object)
{
  TwAgentBadge *self = TW_AGENT_BADGE (object);

  g_clear_pointer (&self->mark, g_free);

  G_OBJECT_CLASS (tw_agent_badge_parent_class)->finalize (object);
}

static void
tw_agent_badge_class_init (TwAgentBadgeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = tw_agent_badge_finalize;

  widget_class->measure = tw_agent_badge_measure;
  widget_class->snapshot = tw_agent_badge_snapshot;

  gtk_widget_class_set_css_name (widget_class, "tw-agent-badge");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tw_agent_badge_init (TwAgentBadge *self)
{
  self->size = 16;
  self->colour = -1;
  gtk_widget_set_valign (GTK_WIDGET (self), GTK_ALIGN_CENTER);
  gtk_widget_set_halign (GTK_WIDGET (self), GTK_ALIGN_CENTER);
}

GtkWidget *
tw_agent_badge_new (int size)
{
  TwAgentBadge *self = g_object_new (TW_TYPE_AGENT_BADGE, NULL);

  self->size = MAX (size, 8);

  return GTK_WIDGET (self);
}

void
tw_agent_badge_set_agent (TwAgentBadge *self,
                          int           colour,
                          const char   *mark,
                          const char   *name)
{
  g_return_if_fail (TW_IS_AGENT_BADGE (self));

  if (self->colour != colour || g_strcmp0 (self->mark, mark) != 0)
    {
      self->colour = colour;
      g_free (self->mark);
      self->mark = g_strdup (mark);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }

  if (colour >= 0)
    {
      /* Translators: how a screen reader names an agent's badge, e.g.
       * "Claude Code #1, purple, marked C". */
      g_autofree char *label = g_strdup_printf (_("%s, %s, marked %s"), name ? name : "",
                                                tw_agent_colour_get_name (colour),
                                                mark ? mark : "");

      gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
    }
}

int
tw_agent_badge_get_colour (TwAgentBadge *self)
{
  g_return_val_if_fail (TW_IS_AGENT_BADGE (self), -1);

  return self->colour;
}

const char *
tw_agent_badge_get_mark (TwAgentBadge *self)
{
  g_return_val_if_fail (TW_IS_AGENT_BADGE (self), NULL);

  return self->mark;
}
