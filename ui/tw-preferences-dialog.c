/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-preferences-dialog.h"

#include "tw-agent-limits-group.h"
#include "tw-setting-choice.h"

#include "tw-tool-registry.h"

struct _TwPreferencesDialog
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;
  GSettings            *workspace_settings;
  char                 *workspace_name;
  GStrv                 agent_ids;
  guint                 serving_port;
  guint                 updating_agent : 1;
  guint                 updating_groups : 1;
  /* GtkSwitch*, one per offered tool group, in registry order. */
  GPtrArray            *group_switches;

  /* Template widgets */
  AdwPreferencesGroup  *workspace_group;
  AdwPreferencesGroup  *tool_groups_group;
  GtkSwitch            *browser_tools_switch;
  GtkSwitch            *emulate_focus_switch;
  GtkSwitch            *share_tabs_switch;
  GtkSwitch            *person_tabs_switch;
  AdwPreferencesGroup  *agent_group;
  AdwComboRow          *agent_row;
  AdwPreferencesGroup  *server_group;
  GtkSwitch            *fixed_port_switch;
  AdwActionRow         *port_row;
  GtkAdjustment        *port_adjustment;
  AdwActionRow         *animations_row;
  GtkSwitch            *animations_switch;
  GtkSwitch            *restore_tabs_switch;
  GtkAdjustment        *timeline_adjustment;
};

G_DEFINE_FINAL_TYPE (TwPreferencesDialog, tw_preferences_dialog, ADW_TYPE_PREFERENCES_WINDOW)

/* Tool groups: one switch per offered group of the tool registry, kept the
 * same as the workspace's tool-groups key both ways. */

static const struct {
  const char *name;
  const char *summary;
} group_summaries[] = {
  { "core", N_("Tabs, navigation, snapshot, screenshot, clicking and typing, dialogs, evaluate, hand-off") },
  { "reading", N_("Page text, HTML and Markdown, reading a URL, styles, finding elements, setting content") },
  { "debugging", N_("Console and network in depth, HTTP from the tab’s session, mocked requests, load performance") },
  { "storage", N_("Cookies, local and session storage, logins saved to a file") },
  { "output", N_("Printing to PDF, the list of downloads") },
  { "emulation", N_("Pretending to be another browser (user agent) per tab") },
  { "input", N_("Filling a whole form at once, the mouse at x,y of the page") },
  { "agents", N_("Sharing a tab with other agents, or handing it over") },
  { "replay", N_("Running a recorded session or a saved flow again, saving a flow") },
};

static char *
dup_group_subtitle (const char *group)
{
  guint n_tools = tw_tool_registry_get_group_n_tools (group);

  for (guint i = 0; i < G_N_ELEMENTS (group_summaries); i++)
    {
      if (g_str_equal (group_summaries[i].name, group))
        return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u tool: %s", "%u tools: %s", n_tools),
                                n_tools, _(group_summaries[i].summary));
    }

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u tool", "%u tools", n_tools), n_tools);
}

static void
update_group_switches (TwPreferencesDialog *self)
{
  g_auto(GStrv) groups = g_settings_get_strv (self->workspace_settings, "tool-groups");

  self->updating_groups = TRUE;
  for (guint i = 0; i < self->group_switches->len; i++)
    {
      GtkSwitch *toggle = g_ptr_array_index (self->group_switches, i);

      gtk_switch_set_active (toggle, g_strv_contains ((const char * const *) groups,
                                                      tw_tool_registry_get_group_name (i)));
    }
  self->updating_groups = FALSE;
}

static void
group_switch_notify_active_cb (TwPreferencesDialog *self)
{
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) groups = NULL;

  if (self->updating_groups)
    return;

  builder = g_strv_builder_new ();
  for (guint i = 0; i < self->group_switches->len; i++)
    {
      if (gtk_switch_get_active (g_ptr_array_index (self->group_switches, i)))
        g_strv_builder_add (builder, tw_tool_registry_get_group_name (i));
    }
  groups = g_strv_builder_end (builder);

  g_settings_set_strv (self->workspace_settings, "tool-groups", (const char * const *) groups);
}

static void
add_group_rows (TwPreferencesDialog *self)
{
  for (guint i = 0; i < tw_tool_registry_get_n_groups (); i++)
    {
      const char *group = tw_tool_registry_get_group_name (i);
      g_autofree char *title = g_strdup (group);
      g_autofree char *subtitle = dup_group_subtitle (group);
      g_autofree char *name = g_strdup_printf ("tool-group-%s", group);
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *toggle = gtk_switch_new ();

      title[0] = g_ascii_toupper (title[0]);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_widget_set_name (toggle, name);
      gtk_widget_set_valign (toggle, GTK_ALIGN_CENTER);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), toggle);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);
      adw_preferences_group_add (self->tool_groups_group, row);

      g_ptr_array_add (self->group_switches, toggle);
      g_signal_connect_object (toggle, "notify::active",
                               G_CALLBACK (group_switch_notify_active_cb), self, G_CONNECT_SWAPPED);
    }

  update_group_switches (self);
  g_signal_connect_object (self->workspace_settings, "changed::tool-groups",
                           G_CALLBACK (update_group_switches), self, G_CONNECT_SWAPPED);
}

/* The port policy is an enum key; the switch says whether it is "fixed". */
static const char * const port_policy_choice[] = { "fixed", "random" };

/* Where agents reach the tabs now, since a new port policy only applies
 * from the next start. */
static void
update_server_group (TwPreferencesDialog *self)
{
  g_autofree char *description = NULL;

  if (self->serving_port != 0)
    description = g_strdup_printf (_("Agents reach the tabs at http://127.0.0.1:%u/mcp now. "
                                     "Port changes take effect the next time Tabwright starts."),
                                   self->serving_port);
  else
    description = g_strdup (_("Agents reach the tabs at http://127.0.0.1 on this port. "
                              "Changes take effect the next time Tabwright starts."));

  adw_preferences_group_set_description (self->server_group, description);
}

/* The desktop's own switch wins: with animations off everywhere, the
 * overlay does not animate whatever this says. */
static void
update_animations_row (TwPreferencesDialog *self)
{
  GtkSettings *gtk_settings = gtk_widget_get_settings (GTK_WIDGET (self));
  gboolean desktop = TRUE;

  g_object_get (gtk_settings, "gtk-enable-animations", &desktop, NULL);

  gtk_widget_set_sensitive (GTK_WIDGET (self->animations_row), desktop);
  adw_action_row_set_subtitle (self->animations_row,
                               desktop
                                 ? _("Move the pointer and the highlight that show where an agent acts smoothly")
                                 : _("Animations are turned off for the whole desktop"));
}

static void
gtk_settings_notify_cb (TwPreferencesDialog *self,
                        GParamSpec          *pspec,
                        GtkSettings         *gtk_settings)
{
  update_animations_row (self);
}

/* The default agent: a combo row over preset names, a string key of ids. */

static void
update_agent_row (TwPreferencesDialog *self)
{
  g_autofree char *id = g_settings_get_string (self->settings, "default-agent-preset");
  guint position = GTK_INVALID_LIST_POSITION;

  if (self->agent_ids == NULL)
    return;

  for (guint i = 0; self->agent_ids[i] != NULL; i++)
    {
      if (g_str_equal (self->agent_ids[i], id))
        {
          position = i;
          break;
        }
    }

  self->updating_agent = TRUE;
  adw_combo_row_set_selected (self->agent_row, position);
  self->updating_agent = FALSE;
}

static void
default_agent_changed_cb (TwPreferencesDialog *self,
                          const char          *key,
                          GSettings           *settings)
{
  update_agent_row (self);
}

static void
agent_row_notify_selected_cb (TwPreferencesDialog *self,
                              GParamSpec          *pspec,
                              AdwComboRow         *row)
{
  guint position = adw_combo_row_get_selected (row);

  if (self->updating_agent || self->agent_ids == NULL ||
      position == GTK_INVALID_LIST_POSITION || position >= g_strv_length (self->agent_ids))
    return;

  g_settings_set_string (self->settings, "default-agent-preset", self->agent_ids[position]);
}

/* GObject */

static void
tw_preferences_dialog_dispose (GObject *object)
{
  TwPreferencesDialog *self = TW_PREFERENCES_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_PREFERENCES_DIALOG);

  g_clear_object (&self->settings);
  g_clear_object (&self->workspace_settings);

  G_OBJECT_CLASS (tw_preferences_dialog_parent_class)->dispose (object);
}

static void
tw_preferences_dialog_finalize (GObject *object)
{
  TwPreferencesDialog *self = TW_PREFERENCES_DIALOG (object);

  g_clear_pointer (&self->workspace_name, g_free);
  g_clear_pointer (&self->agent_ids, g_strfreev);
  g_clear_pointer (&self->group_switches, g_ptr_array_unref);

  G_OBJECT_CLASS (tw_preferences_dialog_parent_class)->finalize (object);
}

static void
tw_preferences_dialog_class_init (TwPreferencesDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_preferences_dialog_dispose;
  object_class->finalize = tw_preferences_dialog_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tabwright/Tabwright/ui/tw-preferences-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, workspace_group);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, tool_groups_group);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, browser_tools_switch);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, emulate_focus_switch);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, share_tabs_switch);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, person_tabs_switch);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, agent_group);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, agent_row);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, server_group);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, fixed_port_switch);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, port_row);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, port_adjustment);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, animations_row);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, animations_switch);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, restore_tabs_switch);
  gtk_widget_class_bind_template_child (widget_class, TwPreferencesDialog, timeline_adjustment);
}

static void
tw_preferences_dialog_init (TwPreferencesDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->group_switches = g_ptr_array_new ();

  update_server_group (self);

  /* Until there are agents to pick from. */
  gtk_widget_set_visible (GTK_WIDGET (self->agent_group), FALSE);

  g_signal_connect_object (self->agent_row, "notify::selected",
                           G_CALLBACK (agent_row_notify_selected_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (gtk_widget_get_settings (GTK_WIDGET (self)),
                           "notify::gtk-enable-animations",
                           G_CALLBACK (gtk_settings_notify_cb), self, G_CONNECT_SWAPPED);
  update_animations_row (self);
}

/* Agents' Limits (issue 32), on the page of the workspace's settings. */
static void
add_limits_group (TwPreferencesDialog *self,
                  GSettings           *workspace_settings)
{
  GtkWidget *page = gtk_widget_get_ancestor (GTK_WIDGET (self->workspace_group),
                                             ADW_TYPE_PREFERENCES_PAGE);

  if (page != NULL)
    adw_preferences_page_add (ADW_PREFERENCES_PAGE (page),
                              ADW_PREFERENCES_GROUP (tw_agent_limits_group_new (workspace_settings)));
}

TwPreferencesDialog *
tw_preferences_dialog_new (GtkWindow  *parent,
                           GSettings  *settings,
                           GSettings  *workspace_settings,
                           const char *workspace_name)
{
  TwPreferencesDialog *self;

  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (!workspace_settings || G_IS_SETTINGS (workspace_settings), NULL);

  self = g_object_new (TW_TYPE_PREFERENCES_DIALOG,
                       "transient-for", parent,
                       NULL);
  self->settings = g_object_ref (settings);
  self->workspace_name = g_strdup (workspace_name);

  if (workspace_settings != NULL)
    {
      self->workspace_settings = g_object_ref (workspace_settings);
      g_settings_bind (workspace_settings, "browser-tools-enabled",
                       self->browser_tools_switch, "active", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (workspace_settings, "emulate-focus",
                       self->emulate_focus_switch, "active", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (workspace_settings, "agents-share-tabs",
                       self->share_tabs_switch, "active", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (workspace_settings, "agents-use-person-tabs",
                       self->person_tabs_switch, "active", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (workspace_settings, "timeline-size-mb",
                       self->timeline_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
      if (workspace_name != NULL)
        adw_preferences_group_set_description (self->workspace_group, workspace_name);
      add_group_rows (self);
      add_limits_group (self, workspace_settings);
    }
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->workspace_group), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->tool_groups_group), FALSE);
    }

  tw_setting_bind_choice (settings, "mcp-port-policy", self->fixed_port_switch, "active",
                          G_SETTINGS_BIND_DEFAULT, port_policy_choice);
  tw_setting_bind_choice (settings, "mcp-port-policy", self->port_row, "sensitive",
                          G_SETTINGS_BIND_GET, port_policy_choice);
  g_settings_bind (settings, "mcp-port", self->port_adjustment, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "overlay-animations",
                   self->animations_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "restore-tabs",
                   self->restore_tabs_switch, "active", G_SETTINGS_BIND_DEFAULT);

  g_signal_connect_object (settings, "changed::default-agent-preset",
                           G_CALLBACK (default_agent_changed_cb), self, G_CONNECT_SWAPPED);

  return self;
}

void
tw_preferences_dialog_set_agents (TwPreferencesDialog *self,
                                  const char * const  *ids,
                                  const char * const  *names)
{
  g_autoptr(GtkStringList) model = NULL;

  g_return_if_fail (TW_IS_PREFERENCES_DIALOG (self));
  g_return_if_fail (ids != NULL && names != NULL);
  g_return_if_fail (g_strv_length ((GStrv) ids) == g_strv_length ((GStrv) names));

  g_clear_pointer (&self->agent_ids, g_strfreev);
  self->agent_ids = g_strdupv ((GStrv) ids);

  model = gtk_string_list_new (names);
  self->updating_agent = TRUE;
  adw_combo_row_set_model (self->agent_row, G_LIST_MODEL (model));
  self->updating_agent = FALSE;

  update_agent_row (self);
  gtk_widget_set_visible (GTK_WIDGET (self->agent_group), ids[0] != NULL);
}

void
tw_preferences_dialog_set_serving_port (TwPreferencesDialog *self,
                                        guint                port)
{
  g_return_if_fail (TW_IS_PREFERENCES_DIALOG (self));

  self->serving_port = port;
  update_server_group (self);
}
