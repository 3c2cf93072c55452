/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-agent-session-menu.h"

/* The app's key that keeps the person's choices, preset id -> session. */
#define KEPT_KEY "agent-preset-sessions"

#define MENU_DATA "tw-agent-session-menu"

typedef struct
{
  TwBrowser     *browser;
  TwAgentPreset *preset;
  GSettings     *settings;
  GSimpleAction *action;
  char          *agent_id;
  /* A session of that name the preset put its agents on, offered too. */
  char          *named;
} SessionMenu;

static void
session_menu_free (SessionMenu *menu)
{
  g_signal_handlers_disconnect_by_data (menu->action, menu);
  g_clear_object (&menu->action);
  g_clear_object (&menu->browser);
  g_clear_object (&menu->preset);
  g_clear_object (&menu->settings);
  g_free (menu->agent_id);
  g_free (menu->named);
  g_free (menu);
}

static gboolean
is_named (const char *session)
{
  return session != NULL && session[0] != '\0' && !g_str_equal (session, "workspace") &&
         !g_str_equal (session, "own");
}

/* What the agent's next tabs open on: the browser says while it runs;
 * otherwise it starts on its preset's, or on the workspace's choice. */
static const char *
current_session (SessionMenu *menu)
{
  const char *preset_session = tw_agent_preset_get_session (menu->preset);

  if (tw_browser_get_agent_running (menu->browser, menu->agent_id) || preset_session == NULL)
    return tw_browser_get_agent_session (menu->browser, menu->agent_id);

  return preset_session;
}

static void
keep (SessionMenu *menu,
      const char  *session)
{
  const char *preset_id = tw_agent_preset_get_id (menu->preset);
  g_autoptr(GVariant) kept = NULL;
  GVariantBuilder builder;
  GVariantIter iter;
  const char *id;
  const char *value;

  tw_agent_preset_set_session (menu->preset, session);

  if (menu->settings == NULL)
    return;

  kept = g_settings_get_value (menu->settings, KEPT_KEY);
  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  g_variant_iter_init (&iter, kept);
  while (g_variant_iter_next (&iter, "{&s&s}", &id, &value))
    if (!g_str_equal (id, preset_id))
      g_variant_builder_add (&builder, "{ss}", id, value);
  g_variant_builder_add (&builder, "{ss}", preset_id, session);
  g_settings_set_value (menu->settings, KEPT_KEY, g_variant_builder_end (&builder));
}

static void
session_change_state_cb (GSimpleAction *action,
                         GVariant      *value,
                         gpointer       user_data)
{
  SessionMenu *menu = user_data;
  const char *session = g_variant_get_string (value, NULL);

  if (!g_str_equal (session, "workspace") && !g_str_equal (session, "own") &&
      g_strcmp0 (session, menu->named) != 0)
    return;

  /* Its next tabs open on it; the tabs it has keep the session they
   * opened on. */
  if (tw_browser_get_agent_running (menu->browser, menu->agent_id))
    tw_browser_set_agent_session (menu->browser, menu->agent_id, session);
  keep (menu, session);

  g_simple_action_set_state (action, value);
}

static void
add_choice (GMenu      *section,
            const char *label,
            const char *session)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target (item, "agent.session", "s", session);
  g_menu_append_item (section, item);
}

void
tw_agent_session_menu_attach (TwAgent   *agent,
                              TwBrowser *browser,
                              GSettings *settings)
{
  TwAgentTerminal *terminal;
  SessionMenu *menu;
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GMenu) model = g_menu_new ();
  g_autoptr(GMenu) section = g_menu_new ();
  g_autoptr(GMenuItem) caption = NULL;
  g_autofree char *own = NULL;
  g_autofree char *note = NULL;

  g_return_if_fail (TW_IS_AGENT (agent));
  g_return_if_fail (TW_IS_BROWSER (browser));
  g_return_if_fail (settings == NULL || G_IS_SETTINGS (settings));

  terminal = tw_agent_get_terminal (agent);

  menu = g_new0 (SessionMenu, 1);
  menu->browser = g_object_ref (browser);
  menu->preset = g_object_ref (tw_agent_get_preset (agent));
  menu->settings = settings != NULL ? g_object_ref (settings) : NULL;
  menu->agent_id = g_strdup (tw_agent_get_id (agent));
  if (is_named (tw_agent_preset_get_session (menu->preset)))
    menu->named = g_strdup (tw_agent_preset_get_session (menu->preset));

  menu->action = g_simple_action_new_stateful ("session", G_VARIANT_TYPE_STRING,
                                               g_variant_new_string (current_session (menu)));
  g_signal_connect (menu->action, "change-state", G_CALLBACK (session_change_state_cb), menu);
  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (menu->action));
  gtk_widget_insert_action_group (GTK_WIDGET (terminal), "agent", G_ACTION_GROUP (group));
  g_object_set_data_full (G_OBJECT (terminal), MENU_DATA, menu, (GDestroyNotify) session_menu_free);

  add_choice (section, _("The Workspace’s"), "workspace");
  /* Translators: the agent's own network session, named after it, e.g.
   * "Its Own, “Codex #1”". */
  own = g_strdup_printf (_("Its Own, “%s”"), tw_agent_get_name (agent));
  add_choice (section, own, "own");
  if (menu->named != NULL)
    {
      g_autofree char *named = g_strdup_printf ("“%s”", menu->named);

      add_choice (section, named, menu->named);
    }

  /* Translators: under the choice of an agent's network session; %s is its
   * preset's name, e.g. "Codex". */
  note = g_strdup_printf (_("Applies to the tabs it opens next; the tabs it has keep theirs. "
                            "Kept for %s agents launched later."),
                          tw_agent_preset_get_name (menu->preset));
  caption = g_menu_item_new (note, NULL);
  g_menu_item_set_attribute (caption, "custom", "s", "caption-session");
  g_menu_append_item (section, caption);

  g_menu_append_section (model, _("Network Session"), G_MENU_MODEL (section));
  tw_agent_terminal_set_menu (terminal, G_MENU_MODEL (model));
}

void
tw_agent_session_menu_update (TwAgent *agent)
{
  SessionMenu *menu;

  g_return_if_fail (TW_IS_AGENT (agent));

  menu = g_object_get_data (G_OBJECT (tw_agent_get_terminal (agent)), MENU_DATA);
  if (menu != NULL)
    g_simple_action_set_state (menu->action, g_variant_new_string (current_session (menu)));
}

void
tw_agent_session_menu_restore (GListModel *presets,
                               GSettings  *settings)
{
  g_autoptr(GVariant) kept = NULL;
  GVariantIter iter;
  const char *id;
  const char *session;

  g_return_if_fail (G_IS_LIST_MODEL (presets));
  g_return_if_fail (G_IS_SETTINGS (settings));

  kept = g_settings_get_value (settings, KEPT_KEY);
  g_variant_iter_init (&iter, kept);
  while (g_variant_iter_next (&iter, "{&s&s}", &id, &session))
    {
      TwAgentPreset *preset = tw_agent_presets_lookup (presets, id);

      if (preset != NULL && session[0] != '\0')
        tw_agent_preset_set_session (preset, session);
    }
}
