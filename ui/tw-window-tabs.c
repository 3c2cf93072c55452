/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-window-private.h"

#include "tw-activity-log.h"
#include "tw-agent-colours.h"

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

  if (!_tw_window_uri_is_blank (uri))
    return uri;

  return _("New Tab");
}

/* Pages */

static void
update_page (TwWindow     *self,
             TwBrowserTab *tab)
{
  AdwTabPage *page = g_hash_table_lookup (self->pages, tab);
  const char *owner = tw_browser_tab_get_owner (tab);
  const char *uri = tw_browser_tab_get_uri (tab);
  const char *icon_name = NULL;
  const char *mark = NULL;
  int colour = -1;
  const char *indicator = "";
  const char *status = NULL;
  gboolean activatable = FALSE;
  g_autofree char *driver = NULL;
  g_autofree char *shared = NULL;
  g_autoptr(GIcon) icon = NULL;
  g_autofree char *tooltip = NULL;

  if (page == NULL)
    return;

  adw_tab_page_set_title (page, tab_display_title (tab));

  /* The spinner also turns while an agent's call runs in the tab. */
  adw_tab_page_set_loading (page, tw_browser_tab_get_loading (tab) || tw_browser_tab_get_busy (tab));
  adw_tab_page_set_needs_attention (page, tw_browser_tab_get_handoff_message (tab) != NULL);

  /* The badge on the tab says what is special about it, if anything; the
   * tab's tooltip repeats it under the title and URL. */
  if (tw_browser_tab_get_unresponsive (tab))
    {
      icon_name = "dialog-warning-symbolic";
      indicator = status = _("This page is not responding — reload to end it");
    }
  else if (tw_browser_tab_get_paused (tab))
    {
      icon_name = "media-playback-pause-symbolic";
      indicator = _("Agents are paused in this tab — click to resume");
      status = _("Agents are paused");
      activatable = TRUE;
    }
  else if (owner != NULL)
    {
      /* Clicking the badge pauses the agent (see tab_view_indicator_activated_cb).
       * The badge is the agent's own: its colour, shape and mark. */
      icon_name = AGENT_ICON;
      indicator = status = driver = g_strdup_printf (_("Driven by %s"), owner);
      activatable = TRUE;
      if (tw_browser_get_agent_mark (self->browser, tw_browser_tab_get_owner_id (tab), &colour, &mark))
        icon = tw_agent_badge_icon_new (colour, mark);
    }

  if (icon_name != NULL && icon == NULL)
    icon = g_themed_icon_new (icon_name);
  adw_tab_page_set_indicator_icon (page, icon);
  adw_tab_page_set_indicator_tooltip (page, indicator);
  adw_tab_page_set_indicator_activatable (page, activatable);

  if (status != NULL && tw_browser_tab_get_shared (tab))
    status = shared = g_strdup_printf (_("%s · shared with all agents"), status);
  else if (tw_browser_tab_get_shared (tab))
    status = _("Shared with all agents");

  if (status != NULL)
    tooltip = g_markup_printf_escaped ("%s\n<small>%s</small>\n<small>%s</small>",
                                       tab_display_title (tab), uri, status);
  else
    tooltip = g_markup_printf_escaped ("%s\n<small>%s</small>", tab_display_title (tab), uri);

  adw_tab_page_set_tooltip (page, tooltip);

  if (tab == _tw_window_get_selected_tab (self))
    _tw_window_update_chrome (self);
}

static void
tab_notify_cb (TwWindow     *self,
               GParamSpec   *pspec,
               TwBrowserTab *tab)
{
  update_page (self, tab);
}

/* Agents came or went: a tab's badge follows its owner's colour and mark. */
void
_tw_window_agents_changed_cb (TwWindow  *self,
                              TwBrowser *browser)
{
  GHashTableIter iter;
  gpointer tab;

  g_hash_table_iter_init (&iter, self->pages);
  while (g_hash_table_iter_next (&iter, &tab, NULL))
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

  /* An agent waits for the person here: for a handoff, or for a
   * demonstration of how something is done. */
  if (page == NULL || (tw_browser_tab_get_handoff_message (tab) == NULL &&
                       tw_browser_tab_get_demonstrate_message (tab) == NULL))
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

/* A tab in the background that rests is unmapped; it is mapped again
 * before a command runs on it, from inside this notification, so that the
 * tab finds its view mapped when it goes on. */
static void
tab_resting_cb (TwWindow     *self,
                GParamSpec   *pspec,
                TwBrowserTab *tab)
{
  TwTabPage *content = _tw_window_tab_get_content (self, tab);

  if (content != NULL)
    tw_tab_deck_set_resting (self->tab_deck, GTK_WIDGET (content),
                             tw_browser_tab_get_resting (tab));
}

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
  g_signal_connect_object (tab, "notify::demonstrate-message",
                           G_CALLBACK (tab_handoff_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tab, "notify::resting",
                           G_CALLBACK (tab_resting_cb), self, G_CONNECT_SWAPPED);

  update_page (self, tab);
  tab_resting_cb (self, NULL, tab);

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
    _tw_window_update_chrome (self);
}

/* Pages follow the browser's tab model: one page per tab, in model order
 * for new ones; pages of tabs that left the model close. */
void
_tw_window_sync_pages (TwWindow *self)
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

void
_tw_window_tabs_items_changed_cb (TwWindow   *self,
                                  guint       position,
                                  guint       removed,
                                  guint       added,
                                  GListModel *model)
{
  _tw_window_sync_pages (self);
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

  _tw_window_update_chrome (self);
}

/* Own tabs (issue 32): the person shares a tab with every agent, or moves
 * it to another agent or to themselves. */
static void
append_sharing_items (TwWindow     *self,
                      TwBrowserTab *tab)
{
  const char *id = tw_browser_tab_get_id (tab);
  const char *owner_id = tw_browser_tab_get_owner_id (tab);
  g_autoptr(GMenuItem) share = NULL;
  g_autoptr(GMenu) give = g_menu_new ();

  share = g_menu_item_new (tw_browser_tab_get_shared (tab) ? _("Stop _Sharing with Agents")
                                                           : _("_Share with All Agents"), NULL);
  g_menu_item_set_action_and_target (share,
                                     tw_browser_tab_get_shared (tab) ? "win.unshare-tab"
                                                                     : "win.share-tab",
                                     "s", id);
  g_menu_append_item (self->tab_menu_agents, share);

  if (owner_id != NULL)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_("Me"), NULL);

      g_menu_item_set_action_and_target (item, "win.give-tab", "(ss)", id, "");
      g_menu_append_item (give, item);
    }

  for (guint i = 0; i < tw_browser_get_n_agents (self->browser); i++)
    {
      g_autoptr(GMenuItem) item = NULL;
      const char *agent_id;
      const char *agent_name;

      tw_browser_get_agent (self->browser, i, &agent_id, &agent_name);
      if (g_strcmp0 (agent_id, owner_id) == 0)
        continue;

      item = g_menu_item_new (agent_name, NULL);
      g_menu_item_set_action_and_target (item, "win.give-tab", "(ss)", id, agent_id);
      g_menu_append_item (give, item);
    }

  if (g_menu_model_get_n_items (G_MENU_MODEL (give)) > 0)
    g_menu_append_submenu (self->tab_menu_agents, _("_Give Tab To"), G_MENU_MODEL (give));
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
  g_object_unref (item);

  /* Showing an agent what the person means (browser_annotate). */
  item = g_menu_item_new (_("_Mark for Agent…"), NULL);
  g_menu_item_set_action_and_target (item, "win.annotate-tab", "s", tw_browser_tab_get_id (tab));
  g_menu_append_item (self->tab_menu_agents, item);
  g_object_unref (item);

  /* Showing an agent how it is done: the person's steps, recorded. */
  item = g_menu_item_new (_("_Demonstrate…"), NULL);
  g_menu_item_set_action_and_target (item, "win.demonstrate-tab", "s", tw_browser_tab_get_id (tab));
  g_menu_append_item (self->tab_menu_agents, item);

  append_sharing_items (self, tab);
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

void
_tw_window_class_init_tabs (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, tab_view_close_page_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_create_window_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_notify_selected_page_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_setup_menu_cb);
  gtk_widget_class_bind_template_callback (widget_class, tab_view_indicator_activated_cb);
}
