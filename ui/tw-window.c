/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-window-private.h"

#include "tw-action-overlay.h"
#include "tw-activity-log.h"
#include "tw-activity-feed.h"
#include "tw-address.h"
#include "tw-connect-dialog.h"
#include "tw-error.h"
#include "tw-tab-deck.h"
#include "tw-tab-page.h"
#include "tw-tools-banner.h"

#define AGENT_ICON "tw-agent-symbolic"


enum {
  PROP_0,
  PROP_BROWSER,
  PROP_WORKSPACE_NAME,
  PROP_WORKSPACE_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TwWindow, tw_window, ADW_TYPE_APPLICATION_WINDOW)

/* What a tab strip's page shows: its tab page in the deck (see
 * tw-window.ui). */
TwTabPage *
_tw_window_page_get_content (TwWindow   *self,
                             AdwTabPage *page)
{
  return page != NULL && self->contents != NULL ? g_hash_table_lookup (self->contents, page)
                                                : NULL;
}

static TwBrowserTab *
page_get_tab (TwWindow   *self,
              AdwTabPage *page)
{
  TwTabPage *content = _tw_window_page_get_content (self, page);

  return content != NULL ? tw_tab_page_get_tab (content) : NULL;
}

TwTabPage *
_tw_window_tab_get_content (TwWindow     *self,
                            TwBrowserTab *tab)
{
  if (self->pages == NULL)
    return NULL;

  return _tw_window_page_get_content (self, g_hash_table_lookup (self->pages, tab));
}

TwBrowserTab *
_tw_window_get_selected_tab (TwWindow *self)
{
  if (self->tab_view == NULL)
    return NULL;

  return page_get_tab (self, adw_tab_view_get_selected_page (self->tab_view));
}

static gboolean
uri_is_blank (const char *uri)
{
  return uri == NULL || uri[0] == '\0' || g_str_equal (uri, "about:blank");
}

/* What the person sees of a tab: its title, else where it is, else that it
 * is new. */
static const char *
tab_display_title (TwBrowserTab *tab)
{
  const char *title = tw_browser_tab_get_title (tab);
  const char *uri = tw_browser_tab_get_uri (tab);

  if (title[0] != '\0')
    return title;

  if (tw_browser_tab_get_load_error (tab) != NULL)
    return _("Problem Loading Page");

  if (!uri_is_blank (uri))
    return uri;

  return _("New Tab");
}

/* The address bar shows the selected tab */

/* Agents mostly browse development servers on this machine, which speak
 * plain http; only remote plain http deserves the warning. */
static const char *
address_icon (const char *uri)
{
  g_autoptr(GUri) parsed = NULL;
  const char *host;

  if (uri_is_blank (uri))
    return "edit-find-symbolic";

  parsed = g_uri_parse (uri, G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED, NULL);
  if (parsed == NULL)
    return "edit-find-symbolic";

  if (g_strcmp0 (g_uri_get_scheme (parsed), "https") == 0)
    return "channel-secure-symbolic";

  host = g_uri_get_host (parsed);
  if (host != NULL &&
      (g_str_equal (host, "localhost") || g_str_has_suffix (host, ".localhost") ||
       g_str_has_prefix (host, "127.") || g_str_equal (host, "::1") ||
       g_str_equal (host, "[::1]")))
    return "computer-symbolic";

  return "channel-insecure-symbolic";
}

static void
update_address (TwWindow *self)
{
  TwBrowserTab *tab = _tw_window_get_selected_tab (self);
  const char *owner = tab ? tw_browser_tab_get_owner (tab) : NULL;
  const char *uri = "";

  if (tab != NULL)
    uri = tw_browser_tab_get_load_error_uri (tab) ? tw_browser_tab_get_load_error_uri (tab)
                                                 : tw_browser_tab_get_uri (tab);

  /* Never pull text from under the person's fingers. */
  if (!self->address_edited)
    {
      self->setting_address = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->address_entry), uri_is_blank (uri) ? "" : uri);
      self->setting_address = FALSE;
    }

  gtk_entry_set_progress_fraction (self->address_entry,
                                   tab && tw_browser_tab_get_loading (tab)
                                     ? MAX (0.1, tw_browser_tab_get_progress (tab))
                                     : 0.0);

  gtk_entry_set_icon_from_icon_name (self->address_entry, GTK_ENTRY_ICON_PRIMARY,
                                     address_icon (uri));

  if (owner != NULL)
    {
      g_autofree char *tooltip = g_strdup_printf (_("%s is driving this tab"), owner);

      gtk_entry_set_icon_from_icon_name (self->address_entry, GTK_ENTRY_ICON_SECONDARY,
                                         AGENT_ICON);
      gtk_entry_set_icon_tooltip_text (self->address_entry, GTK_ENTRY_ICON_SECONDARY, tooltip);
    }
  else
    {
      gtk_entry_set_icon_from_icon_name (self->address_entry, GTK_ENTRY_ICON_SECONDARY, NULL);
    }
}

static void
update_chrome (TwWindow *self)
{
  update_address (self);
  _tw_window_update_actions (self);
}

/* Pages */

static void
update_page (TwWindow     *self,
             TwBrowserTab *tab)
{
  AdwTabPage *page = g_hash_table_lookup (self->pages, tab);
  const char *owner = tw_browser_tab_get_owner (tab);
  const char *uri = tw_browser_tab_get_uri (tab);
  g_autofree char *tooltip = NULL;

  if (page == NULL)
    return;

  adw_tab_page_set_title (page, tab_display_title (tab));

  /* The spinner also turns while an agent's call runs in the tab. */
  adw_tab_page_set_loading (page, tw_browser_tab_get_loading (tab) || tw_browser_tab_get_busy (tab));
  adw_tab_page_set_needs_attention (page, tw_browser_tab_get_handoff_message (tab) != NULL);

  if (tw_browser_tab_get_unresponsive (tab))
    {
      g_autoptr(GIcon) icon = g_themed_icon_new ("dialog-warning-symbolic");
      const char *stuck = _("This page is not responding — reload to end it");

      adw_tab_page_set_indicator_icon (page, icon);
      adw_tab_page_set_indicator_tooltip (page, stuck);
      adw_tab_page_set_indicator_activatable (page, FALSE);
      tooltip = g_markup_printf_escaped ("%s\n<small>%s</small>\n<small>%s</small>",
                                         tab_display_title (tab), uri, stuck);
    }
  else if (tw_browser_tab_get_paused (tab))
    {
      g_autoptr(GIcon) icon = g_themed_icon_new ("media-playback-pause-symbolic");
      const char *paused = _("Agents are paused in this tab — click to resume");

      adw_tab_page_set_indicator_icon (page, icon);
      adw_tab_page_set_indicator_tooltip (page, paused);
      adw_tab_page_set_indicator_activatable (page, TRUE);
      tooltip = g_markup_printf_escaped ("%s\n<small>%s</small>\n<small>%s</small>",
                                         tab_display_title (tab), uri, _("Agents are paused"));
    }
  else if (owner != NULL)
    {
      g_autoptr(GIcon) icon = g_themed_icon_new (AGENT_ICON);
      g_autofree char *driver = g_strdup_printf (_("Driven by %s"), owner);

      /* Clicking the badge pauses the agent (see tab_view_indicator_activated_cb). */
      adw_tab_page_set_indicator_icon (page, icon);
      adw_tab_page_set_indicator_tooltip (page, driver);
      adw_tab_page_set_indicator_activatable (page, TRUE);
      tooltip = g_markup_printf_escaped ("%s\n<small>%s</small>\n<small>%s</small>",
                                         tab_display_title (tab), uri, driver);
    }
  else
    {
      adw_tab_page_set_indicator_icon (page, NULL);
      adw_tab_page_set_indicator_tooltip (page, "");
      adw_tab_page_set_indicator_activatable (page, FALSE);
      tooltip = g_markup_printf_escaped ("%s\n<small>%s</small>", tab_display_title (tab), uri);
    }

  adw_tab_page_set_tooltip (page, tooltip);

  if (tab == _tw_window_get_selected_tab (self))
    update_chrome (self);
}

static void
tab_notify_cb (TwWindow     *self,
               GParamSpec   *pspec,
               TwBrowserTab *tab)
{
  update_page (self, tab);
}

static void
tab_script_dialog_cb (TwWindow     *self,
                      int           type,
                      const char   *message,
                      TwBrowserTab *tab)
{
  g_autofree char *text = NULL;
  g_autofree char *detail = NULL;

  /* The tab answered it at once, whether or not a call was running; the
   * activity shows that the page opened it. */
  detail = g_strdup_printf (type == TW_DIALOG_ALERT ? _("“%s” · accepted") : _("“%s” · dismissed"),
                            message);
  tw_activity_log_add_event (tw_browser_get_activity (self->browser), tw_browser_tab_get_id (tab),
                             _("Page"), tw_dialog_type_to_string ((TwDialogType) type), detail);

  /* Dialogs never block anyone; the person still hears what the page they
   * are looking at said. */
  if (tab != _tw_window_get_selected_tab (self))
    return;

  switch ((TwDialogType) type)
    {
    case TW_DIALOG_ALERT:
      text = g_strdup_printf (_("The page says “%s”"), message);
      break;

    case TW_DIALOG_CONFIRM:
    case TW_DIALOG_PROMPT:
      text = g_strdup_printf (_("The page asked “%s” and was told no"), message);
      break;

    case TW_DIALOG_BEFOREUNLOAD:
    default:
      text = g_strdup (_("The page asked to stay open, so it stays"));
      break;
    }

  tw_window_add_toast (self, text);
}

/* An agent asks the person for something: its tab comes forward. */
static void
tab_handoff_cb (TwWindow     *self,
                GParamSpec   *pspec,
                TwBrowserTab *tab)
{
  AdwTabPage *page = g_hash_table_lookup (self->pages, tab);

  if (page == NULL || tw_browser_tab_get_handoff_message (tab) == NULL)
    return;

  adw_tab_view_set_selected_page (self->tab_view, page);
  gtk_window_present (GTK_WINDOW (self));
}

static gboolean
wake_selected_tab_cb (gpointer user_data)
{
  TwWindow *self = user_data;

  self->wake_source = 0;
  if (_tw_window_get_selected_tab (self) != NULL)
    tw_browser_tab_wake (_tw_window_get_selected_tab (self));

  return G_SOURCE_REMOVE;
}

static void tab_view_notify_selected_page_cb (TwWindow   *self,
                                              GParamSpec *pspec,
                                              AdwTabView *view);

static void
add_page (TwWindow     *self,
          TwBrowserTab *tab)
{
  TwTabPage *content = TW_TAB_PAGE (tw_tab_page_new (tab));
  AdwTabPage *page;

  tw_tab_page_set_animations (content, self->overlay_animations);
  tw_tab_page_set_on_screen (content, FALSE);
  tw_tab_deck_add (self->tab_deck, GTK_WIDGET (content));
  /* The strip's page holds nothing: the deck shows every tab's page. */
  page = adw_tab_view_append (self->tab_view, adw_bin_new ());
  g_hash_table_insert (self->contents, page, g_object_ref_sink (content));
  g_hash_table_insert (self->pages, g_object_ref (tab), page);

  g_signal_connect_object (tab, "notify", G_CALLBACK (tab_notify_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tab, "script-dialog",
                           G_CALLBACK (tab_script_dialog_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tab, "notify::handoff-message",
                           G_CALLBACK (tab_handoff_cb), self, G_CONNECT_SWAPPED);

  update_page (self, tab);

  /* The person's own tabs come to the front; agents' tabs wait in the
   * background until someone looks. */
  if (tw_browser_tab_get_owner (tab) == NULL)
    adw_tab_view_set_selected_page (self->tab_view, page);

  /* The first page was selected as it was appended, before the window
   * knew what it shows. */
  if (adw_tab_view_get_selected_page (self->tab_view) == page &&
      tw_tab_deck_get_selected (self->tab_deck) != GTK_WIDGET (content))
    tab_view_notify_selected_page_cb (self, NULL, self->tab_view);
}

static void
forget_tab (TwWindow     *self,
            TwBrowserTab *tab)
{
  g_signal_handlers_disconnect_by_data (tab, self);
  g_hash_table_remove (self->pages, tab);
}

static void
update_empty_state (TwWindow *self)
{
  gboolean empty = adw_tab_view_get_n_pages (self->tab_view) == 0;

  gtk_stack_set_visible_child_name (self->content_stack, empty ? "empty" : "tabs");

  if (empty)
    update_chrome (self);
}

/* Pages follow the browser's tab model: one page per tab, in model order
 * for new ones; pages of tabs that left the model close. */
static void
sync_pages (TwWindow *self)
{
  GListModel *tabs = tw_browser_get_tabs (self->browser);
  guint n_tabs = g_list_model_get_n_items (tabs);
  g_autoptr(GHashTable) present = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) gone = g_ptr_array_new_with_free_func (g_object_unref);
  GHashTableIter iter;
  gpointer key;

  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (tabs, i);

      g_hash_table_add (present, tab);
      if (!g_hash_table_contains (self->pages, tab))
        add_page (self, tab);
    }

  g_hash_table_iter_init (&iter, self->pages);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      if (!g_hash_table_contains (present, key))
        g_ptr_array_add (gone, g_object_ref (key));
    }

  for (guint i = 0; i < gone->len; i++)
    {
      AdwTabPage *page = g_hash_table_lookup (self->pages, g_ptr_array_index (gone, i));

      if (page != NULL)
        adw_tab_view_close_page (self->tab_view, page);
    }

  update_empty_state (self);
}

static void
tabs_items_changed_cb (TwWindow   *self,
                       guint       position,
                       guint       removed,
                       guint       added,
                       GListModel *model)
{
  sync_pages (self);
}

static gboolean
tab_view_close_page_cb (TwWindow   *self,
                        AdwTabPage *page,
                        AdwTabView *view)
{
  g_autoptr(TwBrowserTab) tab = NULL;
  TwTabPage *content = _tw_window_page_get_content (self, page);

  if (content != NULL)
    {
      tab = g_object_ref (tw_tab_page_get_tab (content));
      tw_tab_deck_remove (self->tab_deck, GTK_WIDGET (content));
      g_hash_table_remove (self->contents, page);
    }
  adw_tab_view_close_page_finish (view, page, TRUE);

  if (tab != NULL)
    {
      forget_tab (self, tab);

      /* When the person closed it, the tab is still in the model. */
      if (tw_browser_lookup_tab (self->browser, tw_browser_tab_get_id (tab)) == tab)
        tw_browser_close_tab (self->browser, tab);
    }

  update_empty_state (self);

  return GDK_EVENT_STOP;
}

static AdwTabView *
tab_view_create_window_cb (TwWindow   *self,
                           AdwTabView *view)
{
  /* Tabs belong to their workspace's window; they cannot be torn off. */
  return NULL;
}

static void
tab_view_notify_selected_page_cb (TwWindow   *self,
                                  GParamSpec *pspec,
                                  AdwTabView *view)
{
  GtkWidget *old = tw_tab_deck_get_selected (self->tab_deck);
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));
  GtkWidget *content = GTK_WIDGET (_tw_window_page_get_content (self, adw_tab_view_get_selected_page (view)));

  if (old != NULL && old != content)
    tw_tab_page_set_on_screen (TW_TAB_PAGE (old), FALSE);
  if (content != NULL)
    tw_tab_page_set_on_screen (TW_TAB_PAGE (content), TRUE);
  tw_tab_deck_set_selected (self->tab_deck, content);

  /* A tab restored from the last session loads once the person looks at
   * it: the tab on screen when the window settles, not each one selected
   * on the way while the window fills. */
  if (self->wake_source == 0)
    self->wake_source = g_idle_add (wake_selected_tab_cb, self);

  /* As in a tab view, focus that was in the page leaves with it for the
   * page that comes forward. */
  if (old != NULL && content != NULL && focus != NULL && gtk_widget_is_ancestor (focus, old))
    gtk_widget_child_focus (content, GTK_DIR_TAB_FORWARD);

  update_chrome (self);
}

/* The address bar */

static void
address_activate_cb (TwWindow *self,
                     GtkEntry *entry)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  TwBrowserTab *tab;

  url = tw_address_normalize (text, &error);
  if (url == NULL)
    {
      g_autofree char *message = NULL;

      if (g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED))
        message = g_strdup (_("Only web addresses (http and https) can be opened"));
      else if (text[0] == '\0')
        message = g_strdup (_("Type a web address to open"));
      else
        message = g_strdup_printf (_("“%s” is not a web address"), text);

      tw_window_add_toast (self, message);
      return;
    }

  tab = _tw_window_get_selected_tab (self);
  if (tab == NULL)
    tab = tw_browser_open_tab (self->browser, url);
  else
    tw_browser_tab_load_uri (tab, url, NULL);

  self->address_edited = FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (tw_browser_tab_get_view (tab)));
  update_chrome (self);
}

static void
address_changed_cb (TwWindow    *self,
                    GtkEditable *editable)
{
  if (!self->setting_address)
    self->address_edited = TRUE;
}

static void
address_focus_leave_cb (TwWindow                *self,
                        GtkEventControllerFocus *controller)
{
  /* Focus also leaves while the window is being destroyed. */
  if (self->address_entry == NULL || self->tab_view == NULL)
    return;

  self->address_edited = FALSE;
  update_address (self);
}

static gboolean
address_escape_cb (GtkWidget *widget,
                   GVariant  *args,
                   gpointer   user_data)
{
  TwWindow *self = TW_WINDOW (gtk_widget_get_root (widget));
  TwBrowserTab *tab = _tw_window_get_selected_tab (self);

  self->address_edited = FALSE;
  update_address (self);

  if (tab != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (tw_browser_tab_get_view (tab)));

  return TRUE;
}

static void
tab_view_setup_menu_cb (TwWindow   *self,
                        AdwTabPage *page,
                        AdwTabView *view)
{
  TwBrowserTab *tab = page_get_tab (self, page);
  g_autoptr(GMenuItem) item = NULL;

  g_set_object (&self->menu_tab, tab);
  g_menu_remove_all (self->tab_menu_agents);

  /* Called again with no page when the menu closes. */
  if (tab == NULL)
    return;

  if (tw_browser_tab_get_paused (tab))
    item = g_menu_item_new (_("_Resume Agents"), NULL);
  else
    item = g_menu_item_new (_("_Pause Agents"), NULL);

  g_menu_item_set_action_and_target (item,
                                     tw_browser_tab_get_paused (tab) ? "win.resume-tab"
                                                                     : "win.pause-tab",
                                     "s", tw_browser_tab_get_id (tab));
  g_menu_append_item (self->tab_menu_agents, item);
}

static void
tab_view_indicator_activated_cb (TwWindow   *self,
                                 AdwTabPage *page,
                                 AdwTabView *view)
{
  TwBrowserTab *tab = page_get_tab (self, page);

  if (tab != NULL)
    tw_browser_tab_set_paused (tab, !tw_browser_tab_get_paused (tab));
}

/* GObject */

static void
tw_window_constructed (GObject *object)
{
  TwWindow *self = TW_WINDOW (object);
  g_autofree char *title = NULL;

  G_OBJECT_CLASS (tw_window_parent_class)->constructed (object);

  g_assert (TW_IS_BROWSER (self->browser));

  title = g_strdup_printf (_("%s — Tabwright"), self->workspace_name);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_label (self->workspace_label, self->workspace_name);
  gtk_widget_set_tooltip_text (self->workspace_box, self->workspace_path);
  tw_tools_banner_set_browser (self->tools_banner, self->browser);

  self->activity_feed = TW_ACTIVITY_FEED (tw_activity_feed_new (self->browser));
  adw_bin_set_child (self->activity_bin, GTK_WIDGET (self->activity_feed));
  g_signal_connect_object (self->activity_feed, "entry-activated",
                           G_CALLBACK (_tw_window_feed_entry_activated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tw_browser_get_activity (self->browser), "items-changed",
                           G_CALLBACK (_tw_window_activity_items_changed_cb), self, G_CONNECT_SWAPPED);

  g_signal_connect_object (tw_browser_get_tabs (self->browser), "items-changed",
                           G_CALLBACK (tabs_items_changed_cb), self, G_CONNECT_SWAPPED);
  sync_pages (self);
  update_chrome (self);
}

static void
tw_window_dispose (GObject *object)
{
  TwWindow *self = TW_WINDOW (object);

  g_clear_handle_id (&self->wake_source, g_source_remove);

  /* The tab view goes away with the template; nothing it says while dying
   * concerns the browser any more. */
  if (self->tab_view != NULL)
    g_signal_handlers_disconnect_by_data (self->tab_view, self);

  if (self->browser != NULL)
    {
      g_signal_handlers_disconnect_by_data (tw_browser_get_tabs (self->browser), self);
      g_signal_handlers_disconnect_by_data (tw_browser_get_activity (self->browser), self);
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
  gtk_widget_class_bind_template_callback (widget_class, address_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_close_page_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_create_window_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_notify_selected_page_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_setup_menu_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_indicator_activated_cb);
}

static void
tw_window_init (TwWindow *self)
{
  GtkEventController *focus;
  GtkEventController *shortcuts;
  GtkShortcut *escape;

  self->pages = g_hash_table_new_full (NULL, NULL, g_object_unref, NULL);
  self->contents = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->overlay_animations = TRUE;

  gtk_widget_init_template (GTK_WIDGET (self));

  _tw_window_add_actions (self);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect_object (focus, "leave", G_CALLBACK (address_focus_leave_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->address_entry), focus);
  g_signal_connect_object (self->address_entry, "changed", G_CALLBACK (address_changed_cb), self,
                           G_CONNECT_SWAPPED);

  /* Escape gives up an edit and goes back to the page. */
  shortcuts = gtk_shortcut_controller_new ();
  escape = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                             gtk_callback_action_new (address_escape_cb, NULL, NULL));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), escape);
  gtk_widget_add_controller (GTK_WIDGET (self->address_entry), shortcuts);
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
