/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-agent-limits-group.h"
#include "tw-setting-choice.h"

struct _TwAgentLimitsGroup
{
  AdwPreferencesGroup  parent_instance;

  GSettings           *settings;
  AdwEntryRow         *sites_row;
  GPtrArray           *approval_switches;   /* GtkSwitch, each with its "action" */
  gboolean             updating;
};

G_DEFINE_FINAL_TYPE (TwAgentLimitsGroup, tw_agent_limits_group, ADW_TYPE_PREFERENCES_GROUP)

/* The steps the group offers to put behind the person's OK; others (any
 * tool) are set in the workspace's agent-approvals key. */
static const struct
{
  const char *action;
  const char *title;
  const char *subtitle;
} approvals[] = {
  { "browser_evaluate", N_("Ask Before Running _Script"),
    N_("An agent’s browser_evaluate waits in a bar over the tab until you allow it") },
  { "browser_upload", N_("Ask Before _Uploading Files"),
    N_("An agent’s browser_upload waits until you allow it") },
};

static void
sync_from_settings (TwAgentLimitsGroup *self)
{
  g_auto(GStrv) sites = g_settings_get_strv (self->settings, "agent-allowed-sites");
  g_auto(GStrv) approve = g_settings_get_strv (self->settings, "agent-approvals");
  g_autofree char *text = g_strjoinv (", ", sites);

  self->updating = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (self->sites_row), text);
  for (guint i = 0; i < self->approval_switches->len; i++)
    {
      GtkSwitch *sw = g_ptr_array_index (self->approval_switches, i);
      const char *action = g_object_get_data (G_OBJECT (sw), "action");

      gtk_switch_set_active (sw, g_strv_contains ((const char * const *) approve, action));
    }
  self->updating = FALSE;
}

static void
settings_changed_cb (TwAgentLimitsGroup *self,
                     const char         *key,
                     GSettings          *settings)
{
  if (g_str_equal (key, "agent-allowed-sites") || g_str_equal (key, "agent-approvals"))
    sync_from_settings (self);
}

/* "example.com, *.example.com localhost:8080" */
static void
sites_apply_cb (TwAgentLimitsGroup *self,
                AdwEntryRow        *row)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) words = g_strsplit_set (gtk_editable_get_text (GTK_EDITABLE (row)), ", \t\n", -1);
  g_auto(GStrv) sites = NULL;

  for (guint i = 0; words[i] != NULL; i++)
    if (words[i][0] != '\0')
      g_strv_builder_add (builder, words[i]);

  sites = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "agent-allowed-sites", (const char * const *) sites);
}

static void
approval_switch_cb (TwAgentLimitsGroup *self,
                    GParamSpec         *pspec,
                    GtkSwitch          *sw)
{
  g_auto(GStrv) approve = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) updated = NULL;
  const char *action = g_object_get_data (G_OBJECT (sw), "action");

  if (self->updating)
    return;

  approve = g_settings_get_strv (self->settings, "agent-approvals");
  builder = g_strv_builder_new ();
  for (guint i = 0; approve[i] != NULL; i++)
    if (!g_str_equal (approve[i], action))
      g_strv_builder_add (builder, approve[i]);
  if (gtk_switch_get_active (sw))
    g_strv_builder_add (builder, action);

  updated = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "agent-approvals", (const char * const *) updated);
}

/* The agent-session key: the switch is on for "own". */
static const char * const session_choice[] = { "own", "workspace" };

static GtkWidget *
add_row (TwAgentLimitsGroup *self,
         const char         *title,
         const char         *subtitle,
         GtkWidget          *suffix)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (row), TRUE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_valign (suffix, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), suffix);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), suffix);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), row);

  return row;
}

static void
tw_agent_limits_group_dispose (GObject *object)
{
  TwAgentLimitsGroup *self = TW_AGENT_LIMITS_GROUP (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->approval_switches, g_ptr_array_unref);

  G_OBJECT_CLASS (tw_agent_limits_group_parent_class)->dispose (object);
}

static void
tw_agent_limits_group_class_init (TwAgentLimitsGroupClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tw_agent_limits_group_dispose;
}

static void
tw_agent_limits_group_init (TwAgentLimitsGroup *self)
{
  self->approval_switches = g_ptr_array_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (self), _("Agents’ Limits"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (self),
                                         _("What agents may do in this workspace without "
                                           "asking you. An agent preset may set its own."));
}

GtkWidget *
tw_agent_limits_group_new (GSettings *workspace_settings)
{
  TwAgentLimitsGroup *self;
  GtkWidget *spin;
  GtkWidget *sw;

  g_return_val_if_fail (G_IS_SETTINGS (workspace_settings), NULL);

  self = g_object_new (TW_TYPE_AGENT_LIMITS_GROUP, NULL);
  self->settings = g_object_ref (workspace_settings);

  self->sites_row = ADW_ENTRY_ROW (adw_entry_row_new ());
  gtk_widget_set_name (GTK_WIDGET (self->sites_row), "allowed-sites-row");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->sites_row),
                                 _("Sites Agents May Reach (empty: any)"));
  adw_entry_row_set_show_apply_button (self->sites_row, TRUE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->sites_row),
                               _("Hosts separated by commas, such as localhost:5173, "
                                 "example.com or *.example.com"));
  g_signal_connect_object (self->sites_row, "apply", G_CALLBACK (sites_apply_cb), self,
                           G_CONNECT_SWAPPED);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), GTK_WIDGET (self->sites_row));

  for (guint i = 0; i < G_N_ELEMENTS (approvals); i++)
    {
      g_autofree char *name = g_strdup_printf ("approve-%s-switch", approvals[i].action);

      sw = gtk_switch_new ();
      gtk_widget_set_name (sw, name);
      g_object_set_data (G_OBJECT (sw), "action", (gpointer) approvals[i].action);
      g_ptr_array_add (self->approval_switches, sw);
      add_row (self, _(approvals[i].title), _(approvals[i].subtitle), sw);
      g_signal_connect_object (sw, "notify::active", G_CALLBACK (approval_switch_cb), self,
                               G_CONNECT_SWAPPED);
    }

  spin = gtk_spin_button_new_with_range (5, 3600, 5);
  add_row (self, _("_Time to Answer (seconds)"),
           _("Then the step is denied"), spin);
  g_settings_bind (workspace_settings, "approval-timeout-seconds",
                   gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (spin)), "value",
                   G_SETTINGS_BIND_DEFAULT);

  sw = gtk_switch_new ();
  gtk_widget_set_name (sw, "agent-session-switch");
  add_row (self, _("Each Agent on a _Session of Its Own"),
           _("Its tabs share cookies and storage with each other, not with your tabs "
             "or other agents’"), sw);
  tw_setting_bind_choice (workspace_settings, "agent-session", sw, "active",
                          G_SETTINGS_BIND_DEFAULT, session_choice);

  g_signal_connect_object (workspace_settings, "changed", G_CALLBACK (settings_changed_cb), self,
                           G_CONNECT_SWAPPED);
  sync_from_settings (self);

  return GTK_WIDGET (self);
}
