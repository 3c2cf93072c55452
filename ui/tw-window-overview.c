/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-window-private.h"

#include "tw-overview.h"

/* The overview of the workspace (issue 32): it covers the whole window
 * while shown, from the header bar's grid button, Ctrl+Shift+O or
 * win.overview, and leaves with Escape, the same button, or by choosing a
 * tab. The window underneath keeps drawing every tab, so the overview's
 * thumbnails are live; nothing underneath takes input meanwhile. */

static GtkWidget *
overview_page_cb (TwBrowserTab *tab,
                  gpointer      user_data)
{
  return GTK_WIDGET (_tw_window_tab_get_content (user_data, tab));
}

static void
set_shown (TwWindow *self,
           gboolean  shown)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "overview");

  if (gtk_widget_get_visible (self->overview) == shown)
    return;

  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (shown));

  gtk_widget_set_can_focus (self->overview_content, !shown);
  gtk_widget_set_can_target (self->overview_content, !shown);
  gtk_widget_set_visible (self->overview, shown);

  if (shown)
    gtk_widget_child_focus (self->overview, GTK_DIR_TAB_FORWARD);
  else if (_tw_window_get_selected_tab (self) != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (self->tab_deck));
}

static void
select_tab (TwWindow     *self,
            TwBrowserTab *tab)
{
  AdwTabPage *page = g_hash_table_lookup (self->pages, tab);

  if (page != NULL)
    adw_tab_view_set_selected_page (self->tab_view, page);
}

static void
overview_tab_activated_cb (TwWindow     *self,
                           TwBrowserTab *tab)
{
  select_tab (self, tab);
  set_shown (self, FALSE);
}

/* Taking a tab over: the agents in it pause, and it comes forward for the
 * person to use. */
static void
overview_take_over_cb (TwWindow     *self,
                       TwBrowserTab *tab)
{
  tw_browser_tab_set_paused (tab, TRUE);
  select_tab (self, tab);
  set_shown (self, FALSE);
}

static void
overview_close_cb (TwWindow *self)
{
  set_shown (self, FALSE);
}

static void
overview_changed (GSimpleAction *action,
                  GVariant      *value,
                  gpointer       user_data)
{
  set_shown (user_data, g_variant_get_boolean (value));
}

static const GActionEntry overview_actions[] = {
  { "overview", NULL, NULL, "false", overview_changed },
};

void
_tw_window_init_overview (TwWindow *self)
{
  GtkWidget *overlay = gtk_overlay_new ();
  GtkWidget *button = gtk_toggle_button_new ();

  g_action_map_add_action_entries (G_ACTION_MAP (self), overview_actions,
                                   G_N_ELEMENTS (overview_actions), self);

  /* Above everything the window shows, header bar included. */
  self->overview_content = adw_toast_overlay_get_child (self->toast_overlay);
  g_object_ref (self->overview_content);
  adw_toast_overlay_set_child (self->toast_overlay, NULL);
  gtk_overlay_set_child (GTK_OVERLAY (overlay), self->overview_content);
  g_object_unref (self->overview_content);
  adw_toast_overlay_set_child (self->toast_overlay, overlay);

  self->overview = tw_overview_new (self->browser, overview_page_cb, self);
  gtk_widget_add_css_class (self->overview, "background");
  gtk_widget_set_visible (self->overview, FALSE);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), self->overview);
  g_signal_connect_object (self->overview, "tab-activated",
                           G_CALLBACK (overview_tab_activated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->overview, "take-over",
                           G_CALLBACK (overview_take_over_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->overview, "close",
                           G_CALLBACK (overview_close_cb), self, G_CONNECT_SWAPPED);

  gtk_button_set_icon_name (GTK_BUTTON (button), "view-grid-symbolic");
  gtk_widget_set_tooltip_text (button, _("Overview of Agents and Tabs"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.overview");
  adw_header_bar_pack_end (self->header_bar, button);
}

GtkWidget *
tw_window_get_overview (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return self->overview;
}
