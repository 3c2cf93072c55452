/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-application-private.h"

#include "tw-agent-preset.h"
#include "tw-preferences-dialog.h"
#include "tw-workspace-chooser.h"

/* Actions */

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  GtkApplication *app = user_data;
  const char *developers[] = { "The Tabwright contributors", NULL };

  adw_show_about_window (gtk_application_get_active_window (app),
                         "application-name", "Tabwright",
                         "application-icon", APP_ID,
                         "version", PACKAGE_VERSION,
                         "developer-name", "The Tabwright contributors",
                         "developers", developers,
                         "comments",
                         _("Real browser tabs that coding agents drive while you watch"),
                         "website", "https://github.com/tabwright/tabwright",
                         "issue-url", "https://github.com/tabwright/tabwright/issues",
                         "copyright", "© 2025 The Tabwright contributors",
                         /* Translators: your names, one a line, to be credited in About. */
                         "translator-credits", _("translator-credits"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         NULL);
}

static Served *
find_served_by_window (TwApplication *self,
                       GtkWindow     *window)
{
  for (guint i = 0; window != NULL && i < self->served->len; i++)
    {
      Served *served = g_ptr_array_index (self->served, i);

      if (GTK_WINDOW (served->window) == window)
        return served;
    }

  return NULL;
}

/* Preferences apply to the whole app, except browser tools, which belong
 * to the workspace of the window they were opened from. */
static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  TwApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  Served *served = find_served_by_window (self, window);
  g_autoptr(GStrvBuilder) ids = g_strv_builder_new ();
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_auto(GStrv) id_list = NULL;
  g_auto(GStrv) name_list = NULL;
  TwPreferencesDialog *dialog;
  guint n_presets;

  dialog = tw_preferences_dialog_new (window, self->settings,
                                      served ? served->workspace_settings : NULL,
                                      served ? tw_workspace_get_path (served->workspace) : NULL);

  n_presets = self->presets != NULL ? g_list_model_get_n_items (self->presets) : 0;
  for (guint i = 0; i < n_presets; i++)
    {
      g_autoptr(TwAgentPreset) preset = g_list_model_get_item (self->presets, i);

      g_strv_builder_add (ids, tw_agent_preset_get_id (preset));
      g_strv_builder_add (names, tw_agent_preset_get_name (preset));
    }
  id_list = g_strv_builder_end (ids);
  name_list = g_strv_builder_end (names);
  tw_preferences_dialog_set_agents (dialog, (const char * const *) id_list,
                                    (const char * const *) name_list);

  if (self->server != NULL)
    tw_preferences_dialog_set_serving_port (dialog, tw_mcp_server_get_port (self->server));

  gtk_window_present (GTK_WINDOW (dialog));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static void
open_workspace_path (TwApplication *self,
                     const char    *folder)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  path = tw_workspace_id_canonicalize_path (folder, NULL, &error);
  if (path == NULL ||
      _tw_application_present_workspace (self, path, PORT_FROM_SETTINGS, &error) == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Could not open %s: %s"), folder,
                                                  error->message);

      if (TW_IS_WINDOW (window))
        tw_window_add_toast (TW_WINDOW (window), message);
      else
        g_warning ("%s", message);
    }
}

static void
workspace_chosen_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(TwApplication) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tw_workspace_chooser_open_finish (result, &error);

  if (path != NULL)
    open_workspace_path (self, path);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_warning ("Could not choose a workspace: %s", error->message);
}

static void
open_workspace_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  TwApplication *self = user_data;

  tw_workspace_chooser_open_async (gtk_application_get_active_window (GTK_APPLICATION (self)),
                                   NULL, workspace_chosen_cb, g_object_ref (self));
}

static void
open_workspace_path_action (GSimpleAction *action,
                            GVariant      *parameter,
                            gpointer       user_data)
{
  open_workspace_path (user_data, g_variant_get_string (parameter, NULL));
}

static const GActionEntry app_actions[] = {
  { "open-workspace", open_workspace_action },
  { "open-workspace-path", open_workspace_path_action, "s" },
  { "preferences", preferences_action },
  { "about", about_action },
  { "quit", quit_action },
};

void
_tw_application_add_actions (TwApplication *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
}
