/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-window-private.h"

#include "tw-action-overlay.h"
#include "tw-activity-feed.h"
#include "tw-tab-deck.h"
#include "tw-tab-page.h"
#include "tw-tools-banner.h"

enum {
  PROP_0,
  PROP_BROWSER,
  PROP_WORKSPACE_NAME,
  PROP_WORKSPACE_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TwWindow, tw_window, ADW_TYPE_APPLICATION_WINDOW)

void
_tw_window_update_chrome (TwWindow *self)
{
  _tw_window_update_address (self);
  _tw_window_update_actions (self);
}

/* GObject */

static void
tw_window_constructed (GObject *object)
{
  TwWindow *self = TW_WINDOW (object);
  g_autofree char *title = NULL;

  G_OBJECT_CLASS (tw_window_parent_class)->constructed (object);

  g_assert (TW_IS_BROWSER (self->browser));
  _tw_window_connect_history (self);

  title = g_strdup_printf (_("%s — Tabwright"), self->workspace_name);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_label (self->workspace_label, self->workspace_name);
  gtk_widget_set_tooltip_text (self->workspace_box, self->workspace_path);
  tw_tools_banner_set_browser (self->tools_banner, self->browser);

  self->activity_feed = TW_ACTIVITY_FEED (tw_activity_feed_new (self->browser));
  adw_bin_set_child (self->activity_bin, GTK_WIDGET (self->activity_feed));
  g_signal_connect_object (self->activity_feed, "entry-activated",
                           G_CALLBACK (_tw_window_feed_entry_activated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->activity_feed, "show-tab",
                           G_CALLBACK (_tw_window_feed_show_tab_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tw_browser_get_activity (self->browser), "items-changed",
                           G_CALLBACK (_tw_window_activity_items_changed_cb), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (self->browser, "agents-changed",
                           G_CALLBACK (_tw_window_agents_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tw_browser_get_tabs (self->browser), "items-changed",
                           G_CALLBACK (_tw_window_tabs_items_changed_cb), self, G_CONNECT_SWAPPED);
  _tw_window_sync_pages (self);
  _tw_window_update_chrome (self);
  _tw_window_init_overview (self);
}

static void
tw_window_dispose (GObject *object)
{
  TwWindow *self = TW_WINDOW (object);

  g_clear_handle_id (&self->wake_source, g_source_remove);
  _tw_window_dispose_address (self);

  /* The tab view goes away with the template; nothing it says while dying
   * concerns the browser any more. */
  if (self->tab_view != NULL)
    g_signal_handlers_disconnect_by_data (self->tab_view, self);

  if (self->browser != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->browser, self);
      g_signal_handlers_disconnect_by_data (tw_browser_get_tabs (self->browser), self);
      g_signal_handlers_disconnect_by_data (tw_browser_get_activity (self->browser), self);
      g_signal_handlers_disconnect_by_data (tw_browser_get_history (self->browser), self);
    }

  g_clear_object (&self->menu_tab);

  if (self->pages != NULL)
    {
      GHashTableIter iter;
      gpointer key;

      g_hash_table_iter_init (&iter, self->pages);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_signal_handlers_disconnect_by_data (key, self);
      g_clear_pointer (&self->pages, g_hash_table_unref);
    }
  g_clear_pointer (&self->contents, g_hash_table_unref);

  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_WINDOW);

  g_clear_object (&self->browser);

  G_OBJECT_CLASS (tw_window_parent_class)->dispose (object);
}

static void
tw_window_finalize (GObject *object)
{
  TwWindow *self = TW_WINDOW (object);

  g_clear_pointer (&self->workspace_name, g_free);
  g_clear_pointer (&self->workspace_path, g_free);
  g_clear_pointer (&self->mcp_url, g_free);
  g_clear_pointer (&self->mcp_token, g_free);

  G_OBJECT_CLASS (tw_window_parent_class)->finalize (object);
}

static void
tw_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  TwWindow *self = TW_WINDOW (object);

  switch (prop_id)
    {
    case PROP_BROWSER:
      g_value_set_object (value, self->browser);
      break;

    case PROP_WORKSPACE_NAME:
      g_value_set_string (value, self->workspace_name);
      break;

    case PROP_WORKSPACE_PATH:
      g_value_set_string (value, self->workspace_path);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  TwWindow *self = TW_WINDOW (object);

  switch (prop_id)
    {
    case PROP_BROWSER:
      self->browser = g_value_dup_object (value);
      break;

    case PROP_WORKSPACE_NAME:
      self->workspace_name = g_value_dup_string (value);
      break;

    case PROP_WORKSPACE_PATH:
      self->workspace_path = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_window_class_init (TwWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tw_window_constructed;
  object_class->dispose = tw_window_dispose;
  object_class->finalize = tw_window_finalize;
  object_class->get_property = tw_window_get_property;
  object_class->set_property = tw_window_set_property;

  properties[PROP_BROWSER] =
    g_param_spec_object ("browser", NULL, NULL, TW_TYPE_BROWSER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WORKSPACE_NAME] =
    g_param_spec_string ("workspace-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WORKSPACE_PATH] =
    g_param_spec_string ("workspace-path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (TW_TYPE_TOOLS_BANNER);
  g_type_ensure (TW_TYPE_TAB_DECK);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tabwright/Tabwright/ui/tw-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TwWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, reload_button);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, address_entry);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, bookmark_button);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, tab_bar);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, tools_banner);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, workspace_box);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, workspace_label);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, tab_view);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, tab_deck);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, agents_paned);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, workspace_section);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, activity_paned);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, activity_bin);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, tab_menu_agents);
  _tw_window_class_init_address (widget_class);
  _tw_window_class_init_tabs (widget_class);
}

static void
tw_window_init (TwWindow *self)
{
  self->pages = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  self->contents = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->overlay_animations = TRUE;

  gtk_widget_init_template (GTK_WIDGET (self));

  _tw_window_add_actions (self);

  _tw_window_init_address (self);
}

TwWindow *
tw_window_new (AdwApplication *application,
               TwBrowser      *browser,
               const char     *workspace_name,
               const char     *workspace_path)
{
  g_return_val_if_fail (!application || ADW_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (TW_IS_BROWSER (browser), NULL);
  g_return_val_if_fail (workspace_name != NULL, NULL);
  g_return_val_if_fail (workspace_path != NULL, NULL);

  return g_object_new (TW_TYPE_WINDOW,
                       "application", application,
                       "browser", browser,
                       "workspace-name", workspace_name,
                       "workspace-path", workspace_path,
                       NULL);
}

TwBrowser *
tw_window_get_browser (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return self->browser;
}

const char *
tw_window_get_workspace_path (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return self->workspace_path;
}

void
tw_window_set_mcp_connection (TwWindow   *self,
                              const char *url,
                              const char *token)
{
  g_return_if_fail (TW_IS_WINDOW (self));

  g_free (self->mcp_url);
  g_free (self->mcp_token);
  self->mcp_url = g_strdup (url);
  self->mcp_token = g_strdup (token);
}

void
tw_window_add_toast (TwWindow   *self,
                     const char *message)
{
  g_autofree char *escaped = NULL;
  AdwToast *toast;

  g_return_if_fail (TW_IS_WINDOW (self));
  g_return_if_fail (message != NULL);

  /* Toast titles are markup; what pages say is not. */
  escaped = g_markup_escape_text (message, -1);
  toast = adw_toast_new (escaped);
  adw_toast_set_timeout (toast, 4);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* Agents get room for a readable terminal the first time they show; after
 * that the pane keeps whatever width the person gives it. */
#define AGENTS_PANE_WIDTH 560
#define BROWSER_MIN_WIDTH 360

static void
agents_pane_visible_cb (TwWindow   *self,
                        GParamSpec *pspec,
                        GtkWidget  *pane)
{
  GtkPaned *paned = self->agents_paned;
  int width;
  int height;

  if (!gtk_widget_get_visible (pane) || self->agents_pane_sized)
    return;

  self->agents_pane_sized = TRUE;

  width = gtk_widget_get_width (GTK_WIDGET (paned));
  if (width <= 0)
    gtk_window_get_default_size (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (paned))),
                                 &width, &height);

  gtk_paned_set_position (paned, MAX (BROWSER_MIN_WIDTH, width - AGENTS_PANE_WIDTH));
}

void
tw_window_set_agents (TwWindow  *self,
                      GtkWidget *launcher,
                      GtkWidget *pane)
{
  g_return_if_fail (TW_IS_WINDOW (self));
  g_return_if_fail (GTK_IS_WIDGET (launcher));
  g_return_if_fail (GTK_IS_WIDGET (pane));

  adw_header_bar_pack_end (self->header_bar, launcher);
  gtk_paned_set_end_child (self->agents_paned, pane);

  g_signal_connect_object (pane, "notify::visible", G_CALLBACK (agents_pane_visible_cb),
                           self, G_CONNECT_SWAPPED);
  agents_pane_visible_cb (self, NULL, pane);
}

void
tw_window_set_recent_workspaces (TwWindow   *self,
                                 GMenuModel *recent)
{
  g_return_if_fail (TW_IS_WINDOW (self));
  g_return_if_fail (G_IS_MENU_MODEL (recent));

  g_menu_append_submenu (self->workspace_section, _("_Recent Workspaces"), recent);
}

/* Watching and steering */

void
tw_window_set_overlay_animations (TwWindow *self,
                                  gboolean  animations)
{
  GHashTableIter iter;
  gpointer content;

  g_return_if_fail (TW_IS_WINDOW (self));

  self->overlay_animations = !!animations;

  g_hash_table_iter_init (&iter, self->contents);
  while (g_hash_table_iter_next (&iter, NULL, &content))
    tw_tab_page_set_animations (content, self->overlay_animations);
}

gboolean
tw_window_get_follow_agents (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), FALSE);

  return self->follow_agents;
}

void
tw_window_set_follow_agents (TwWindow *self,
                             gboolean  follow)
{
  GAction *action;

  g_return_if_fail (TW_IS_WINDOW (self));

  self->follow_agents = !!follow;

  action = g_action_map_lookup_action (G_ACTION_MAP (self), "follow-agents");
  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (self->follow_agents));
}

GtkWidget *
tw_window_get_activity_feed (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return GTK_WIDGET (self->activity_feed);
}

GtkWidget *
tw_window_get_action_overlay (TwWindow     *self,
                              TwBrowserTab *tab)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);
  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);

  TwTabPage *content = _tw_window_tab_get_content (self, tab);

  return content != NULL ? GTK_WIDGET (tw_tab_page_get_action_overlay (content)) : NULL;
}

AdwTabView *
tw_window_get_tab_view (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return self->tab_view;
}

GtkWidget *
tw_window_get_shown_page (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return tw_tab_deck_get_selected (self->tab_deck);
}

GtkWidget *
tw_window_get_tab_page (TwWindow     *self,
                        TwBrowserTab *tab)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);
  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);

  return GTK_WIDGET (_tw_window_tab_get_content (self, tab));
}

GtkWidget *
tw_window_get_handoff_banner (TwWindow     *self,
                              TwBrowserTab *tab)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);
  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);

  TwTabPage *content = _tw_window_tab_get_content (self, tab);

  return content != NULL ? GTK_WIDGET (tw_tab_page_get_handoff_banner (content)) : NULL;
}
