/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-agent-pane.h"

struct _TwAgentPane
{
  AdwBin      parent_instance;

  AdwTabBar  *tab_bar;
  AdwTabView *tab_view;
};

enum {
  CLOSE_AGENT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TwAgentPane, tw_agent_pane, ADW_TYPE_BIN)

static void
update_visible (TwAgentPane *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self), adw_tab_view_get_n_pages (self->tab_view) > 0);
}

static gboolean
close_page_cb (TwAgentPane *self,
               AdwTabPage  *page,
               AdwTabView  *view)
{
  g_autoptr(GtkWidget) child = g_object_ref (adw_tab_page_get_child (page));

  adw_tab_view_close_page_finish (view, page, TRUE);
  update_visible (self);

  g_signal_emit (self, signals[CLOSE_AGENT], 0, child);

  return GDK_EVENT_STOP;
}

static AdwTabView *
create_window_cb (TwAgentPane *self,
                  AdwTabView  *view)
{
  /* An agent's terminal belongs to its workspace's window. */
  return NULL;
}

AdwTabPage *
tw_agent_pane_add (TwAgentPane *self,
                   GtkWidget   *child)
{
  AdwTabPage *page;

  g_return_val_if_fail (TW_IS_AGENT_PANE (self), NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (child), NULL);

  page = adw_tab_view_append (self->tab_view, child);
  adw_tab_view_set_selected_page (self->tab_view, page);
  update_visible (self);

  return page;
}

AdwTabPage *
tw_agent_pane_get_page (TwAgentPane *self,
                        GtkWidget   *child)
{
  g_return_val_if_fail (TW_IS_AGENT_PANE (self), NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (child), NULL);

  if (gtk_widget_get_parent (child) == NULL)
    return NULL;

  return adw_tab_view_get_page (self->tab_view, child);
}

void
tw_agent_pane_select (TwAgentPane *self,
                      GtkWidget   *child)
{
  AdwTabPage *page;

  g_return_if_fail (TW_IS_AGENT_PANE (self));

  page = tw_agent_pane_get_page (self, child);
  if (page != NULL)
    adw_tab_view_set_selected_page (self->tab_view, page);
}

guint
tw_agent_pane_get_n_agents (TwAgentPane *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PANE (self), 0);

  return adw_tab_view_get_n_pages (self->tab_view);
}

static void
tw_agent_pane_dispose (GObject *object)
{
  TwAgentPane *self = TW_AGENT_PANE (object);

  if (self->tab_view != NULL)
    g_signal_handlers_disconnect_by_data (self->tab_view, self);

  adw_bin_set_child (ADW_BIN (self), NULL);
  self->tab_bar = NULL;
  self->tab_view = NULL;

  G_OBJECT_CLASS (tw_agent_pane_parent_class)->dispose (object);
}

static void
tw_agent_pane_class_init (TwAgentPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_agent_pane_dispose;

  signals[CLOSE_AGENT] =
    g_signal_new ("close-agent",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, GTK_TYPE_WIDGET);

  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "tw-agent-pane");
}

static void
tw_agent_pane_init (TwAgentPane *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *heading;

  self->tab_view = ADW_TAB_VIEW (adw_tab_view_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->tab_view), TRUE);
  g_signal_connect_object (self->tab_view, "close-page", G_CALLBACK (close_page_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tab_view, "create-window", G_CALLBACK (create_window_cb), self,
                           G_CONNECT_SWAPPED);

  /* Labelled like the workspace at the start of the browser's tab strip,
   * so the two strips read as two halves of one window. */
  heading = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_valign (heading, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (heading, "tw-agent-heading");
  gtk_box_append (GTK_BOX (heading), gtk_image_new_from_icon_name ("tw-agent-symbolic"));
  gtk_box_append (GTK_BOX (heading), gtk_label_new (_("Agents")));

  self->tab_bar = ADW_TAB_BAR (adw_tab_bar_new ());
  adw_tab_bar_set_view (self->tab_bar, self->tab_view);
  adw_tab_bar_set_autohide (self->tab_bar, FALSE);
  adw_tab_bar_set_start_action_widget (self->tab_bar, heading);

  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->tab_bar));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->tab_view));
  adw_bin_set_child (ADW_BIN (self), box);

  update_visible (self);
}

TwAgentPane *
tw_agent_pane_new (void)
{
  return g_object_new (TW_TYPE_AGENT_PANE, NULL);
}
