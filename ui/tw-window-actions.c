/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-connect-dialog.h"
#include "tw-window-private.h"

/* The window's actions: browsing the selected tab, pausing agents and
 * answering their handoffs, and what the window shows. */

static void
new_tab_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  TwWindow *self = user_data;

  tw_browser_open_tab (self->browser, NULL);
  gtk_widget_grab_focus (GTK_WIDGET (self->address_entry));
}

static void
close_tab_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  TwWindow *self = user_data;
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tab_view);

  if (page != NULL)
    adw_tab_view_close_page (self->tab_view, page);
}

static void
focus_address_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  TwWindow *self = user_data;

  gtk_widget_grab_focus (GTK_WIDGET (self->address_entry));
}

/* back, forward and stop: one step on the selected tab. */
static void
selected_tab_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  TwBrowserTab *tab = _tw_window_get_selected_tab (user_data);
  const char *name = g_action_get_name (G_ACTION (action));

  if (tab == NULL)
    return;

  if (g_str_equal (name, "back"))
    tw_browser_tab_go_back (tab);
  else if (g_str_equal (name, "forward"))
    tw_browser_tab_go_forward (tab);
  else if (g_str_equal (name, "stop"))
    tw_browser_tab_stop (tab);
}

static void
reload_action (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  TwWindow *self = user_data;
  TwTabPage *content = _tw_window_page_get_content (self, adw_tab_view_get_selected_page (self->tab_view));

  if (content != NULL)
    tw_tab_page_reload (content);
}

static void
connect_agent_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  TwWindow *self = user_data;
  GtkWindow *dialog;

  dialog = tw_connect_dialog_new (GTK_WINDOW (self), self->mcp_url, self->mcp_token,
                                  self->workspace_path);
  gtk_window_present (dialog);
}

/* Pausing, handing back, following */

/* The tab an action names by its browser id, or the tab of the context
 * menu, or the selected one. */
static TwBrowserTab *
action_tab (TwWindow *self,
            GVariant *parameter)
{
  const char *browser_id = parameter != NULL ? g_variant_get_string (parameter, NULL) : "";

  if (browser_id[0] != '\0')
    return tw_browser_lookup_tab (self->browser, browser_id);

  if (self->menu_tab != NULL &&
      tw_browser_lookup_tab (self->browser, tw_browser_tab_get_id (self->menu_tab)) == self->menu_tab)
    return self->menu_tab;

  return _tw_window_get_selected_tab (self);
}

/* Pausing agents in a tab, giving it back, and answering an agent's
 * handoff, on the tab the action names. */
static void
agent_tab_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  TwBrowserTab *tab = action_tab (user_data, parameter);
  const char *name = g_action_get_name (G_ACTION (action));

  if (tab == NULL)
    return;

  if (g_str_equal (name, "pause-tab"))
    tw_browser_tab_set_paused (tab, TRUE);
  else if (g_str_equal (name, "resume-tab"))
    tw_browser_tab_set_paused (tab, FALSE);
  else if (g_str_equal (name, "handoff-done"))
    tw_browser_tab_answer_handoff (tab, TRUE);
  else if (g_str_equal (name, "handoff-cancel"))
    tw_browser_tab_answer_handoff (tab, FALSE);
  else if (g_str_equal (name, "share-tab"))
    tw_browser_tab_set_shared (tab, TRUE);
  else if (g_str_equal (name, "unshare-tab"))
    tw_browser_tab_set_shared (tab, FALSE);
  else if (g_str_equal (name, "annotate-tab"))
    {
      TwTabPage *content = _tw_window_tab_get_content (user_data, tab);

      /* Marks made with no call waiting go with the agent's next result
       * on the tab. */
      if (content != NULL)
        tw_annotation_layer_start (tw_tab_page_get_annotation_layer (content));
    }
  else if (g_str_equal (name, "demonstrate-tab"))
    {
      TwTabPage *content = _tw_window_tab_get_content (user_data, tab);
      g_autofree char *flow = tw_browser_dup_next_demonstration_name (TW_WINDOW (user_data)->browser);

      /* The person's own steps, for the agents that wait for them. */
      if (content != NULL)
        tw_demonstration_bar_start (tw_tab_page_get_demonstration_bar (content), flow);
    }
}

/* Moving a tab to another agent, or to the person (an empty agent id). */
static void
give_tab_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  TwWindow *self = user_data;
  const char *browser_id = NULL;
  const char *agent_id = NULL;
  TwBrowserTab *tab;

  g_variant_get (parameter, "(&s&s)", &browser_id, &agent_id);
  tab = tw_browser_lookup_tab (self->browser, browser_id);
  if (tab != NULL)
    tw_browser_give_tab (self->browser, tab, agent_id[0] != '\0' ? agent_id : NULL);
}

/* Answering a step that waits for the person's OK in a tab (issue 32):
 * (browserId, "allow-once" | "allow-agent" | "deny", reason), as the bar
 * over the tab does. */
static void
answer_approval_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  TwWindow *self = user_data;
  const char *browser_id = NULL;
  const char *answer_name = NULL;
  const char *reason = NULL;
  TwApprovalAnswer answer;
  TwBrowserTab *tab;

  g_variant_get (parameter, "(&s&s&s)", &browser_id, &answer_name, &reason);
  tab = tw_browser_lookup_tab (self->browser, browser_id);
  if (tab != NULL && tw_browser_tab_get_approval (tab) != NULL &&
      tw_approval_answer_from_string (answer_name, &answer))
    {
      g_autoptr(TwApproval) approval = g_object_ref (tw_browser_tab_get_approval (tab));

      tw_approval_answer (approval, answer, reason);
    }
}

static void
show_activity_changed (GSimpleAction *action,
                       GVariant      *value,
                       gpointer       user_data)
{
  TwWindow *self = user_data;

  g_simple_action_set_state (action, value);
  gtk_widget_set_visible (GTK_WIDGET (self->activity_bin), g_variant_get_boolean (value));
}

static void
follow_agents_changed (GSimpleAction *action,
                       GVariant      *value,
                       gpointer       user_data)
{
  tw_window_set_follow_agents (user_data, g_variant_get_boolean (value));
}

static void
bookmark_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  _tw_window_toggle_bookmark (user_data);
}

static const GActionEntry window_actions[] = {
  { "pause-tab", agent_tab_action, "s" },
  { "resume-tab", agent_tab_action, "s" },
  { "handoff-done", agent_tab_action, "s" },
  { "handoff-cancel", agent_tab_action, "s" },
  { "annotate-tab", agent_tab_action, "s" },
  { "demonstrate-tab", agent_tab_action, "s" },
  { "share-tab", agent_tab_action, "s" },
  { "unshare-tab", agent_tab_action, "s" },
  { "give-tab", give_tab_action, "(ss)" },
  { "answer-approval", answer_approval_action, "(sss)" },
  { "show-activity", NULL, NULL, "true", show_activity_changed },
  { "follow-agents", NULL, NULL, "false", follow_agents_changed },
  { "new-tab", new_tab_action },
  { "close-tab", close_tab_action },
  { "focus-address", focus_address_action },
  { "bookmark", bookmark_action },
  { "back", selected_tab_action },
  { "forward", selected_tab_action },
  { "reload", reload_action },
  { "stop", selected_tab_action },
  { "connect-agent", connect_agent_action },
};

void
_tw_window_add_actions (TwWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), window_actions,
                                   G_N_ELEMENTS (window_actions), self);
}

/* Following agents, and pointing again at what the feed names */

static void
select_tab (TwWindow     *self,
            TwBrowserTab *tab)
{
  AdwTabPage *page = tab != NULL ? g_hash_table_lookup (self->pages, tab) : NULL;

  if (page != NULL && page != adw_tab_view_get_selected_page (self->tab_view))
    adw_tab_view_set_selected_page (self->tab_view, page);
}

/* Following: the window shows the tab each new call goes to; a new tab
 * once it is known. */
static void
follow_entry (TwWindow        *self,
              TwActivityEntry *entry)
{
  const char *browser_id = tw_activity_entry_get_browser_id (entry);

  if (self->follow_agents && browser_id != NULL)
    select_tab (self, tw_browser_lookup_tab (self->browser, browser_id));
}

static void
entry_browser_id_cb (TwWindow        *self,
                     GParamSpec      *pspec,
                     TwActivityEntry *entry)
{
  follow_entry (self, entry);
}

void
_tw_window_activity_items_changed_cb (TwWindow   *self,
                                      guint       position,
                                      guint       removed,
                                      guint       added,
                                      GListModel *log)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(TwActivityEntry) entry = g_list_model_get_item (log, i);

      if (tw_activity_entry_get_browser_id (entry) == NULL)
        g_signal_connect_object (entry, "notify::browser-id",
                                 G_CALLBACK (entry_browser_id_cb), self, G_CONNECT_SWAPPED);
      follow_entry (self, entry);
    }
}

/* Choosing an entry of the feed shows its tab and points at its element
 * again, if the page still has it. */
static void
flash_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(TwWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  TwTabPage *content = TW_TAB_PAGE (object);

  /* Nothing to say if the tab was closed meanwhile. */
  if (!tw_tab_page_flash_ref_finish (content, result, &error) &&
      _tw_window_tab_get_content (self, tw_tab_page_get_tab (content)) == content)
    tw_window_add_toast (self, _("That element is no longer on the page"));
}

/* Selects the tab @browser_id, or says that it was closed: the tab, or
 * NULL. */
static TwBrowserTab *
show_tab_by_id (TwWindow   *self,
                const char *browser_id)
{
  TwBrowserTab *tab = browser_id != NULL ? tw_browser_lookup_tab (self->browser, browser_id) : NULL;

  if (tab == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Tab %s was closed"), browser_id);

      tw_window_add_toast (self, message);
      return NULL;
    }

  select_tab (self, tab);
  return tab;
}

/* A step of the timeline asks for its tab. */
void
_tw_window_feed_show_tab_cb (TwWindow       *self,
                             const char     *browser_id,
                             TwActivityFeed *feed)
{
  if (show_tab_by_id (self, browser_id) != NULL)
    gtk_window_present (GTK_WINDOW (self));
}

void
_tw_window_feed_entry_activated_cb (TwWindow        *self,
                                    TwActivityEntry *entry,
                                    TwActivityFeed  *feed)
{
  const char *browser_id = tw_activity_entry_get_browser_id (entry);
  const char *ref = tw_activity_entry_get_ref (entry);
  g_autofree char *caption = NULL;
  TwBrowserTab *tab;

  if (browser_id == NULL)
    return;

  tab = show_tab_by_id (self, browser_id);
  if (tab == NULL || ref == NULL)
    return;

  {
    g_autofree char *target = tw_activity_entry_dup_target_label (entry);
    const char *tool = tw_activity_entry_get_tool (entry);

    caption = g_strdup_printf ("%s: %s %s", tw_activity_entry_get_agent_name (entry),
                               g_str_has_prefix (tool, "browser_") ? tool + 8 : tool,
                               target != NULL ? target : ref);
  }
  tw_tab_page_flash_ref_async (_tw_window_tab_get_content (self, tab), ref, caption, NULL,
                               flash_done_cb, g_object_ref (self));
}


/* The selected tab drives the toolbar. */
void
_tw_window_update_actions (TwWindow *self)
{
  TwBrowserTab *tab = _tw_window_get_selected_tab (self);
  gboolean loading = tab != NULL && tw_browser_tab_get_loading (tab);
  GAction *action;

  action = g_action_map_lookup_action (G_ACTION_MAP (self), "back");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action),
                               tab != NULL && tw_browser_tab_get_can_go_back (tab));
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "forward");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action),
                               tab != NULL && tw_browser_tab_get_can_go_forward (tab));
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "reload");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), tab != NULL);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "stop");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), loading);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "close-tab");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), tab != NULL);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "bookmark");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action),
                               tab != NULL && tw_history_keeps_url (tw_browser_tab_get_uri (tab)) &&
                               !tw_browser_tab_get_private (tab));

  /* One button, two jobs: stop while loading, reload otherwise. */
  if (loading)
    {
      gtk_button_set_icon_name (self->reload_button, "process-stop-symbolic");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->reload_button), _("Stop"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->reload_button), "win.stop");
    }
  else
    {
      gtk_button_set_icon_name (self->reload_button, "view-refresh-symbolic");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->reload_button), _("Reload"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->reload_button), "win.reload");
    }
}
