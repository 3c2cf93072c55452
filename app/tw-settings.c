/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-settings.h"

#include "tw-tool-registry.h"

#include "tw-install-dirs.h"

#define WORKSPACES_PATH "/io/github/tabwright/Tabwright/workspaces/"

/* The narrowest window the schema allows; smaller sizes are not saved. */
#define MIN_WINDOW_WIDTH  360
#define MIN_WINDOW_HEIGHT 294

static gboolean
source_has_schema (GSettingsSchemaSource *source)
{
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL)
    return FALSE;

  schema = g_settings_schema_source_lookup (source, TW_SETTINGS_SCHEMA_ID, FALSE);

  return schema != NULL;
}

static GSettingsSchemaSource *
find_schema_source (GError **error)
{
  GSettingsSchemaSource *system = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchemaSource) own = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = NULL;

  /* Whoever sets GSETTINGS_SCHEMA_DIR (tests, a developer) means it. */
  if (g_getenv ("GSETTINGS_SCHEMA_DIR") != NULL && source_has_schema (system))
    return g_settings_schema_source_ref (system);

  /* The schema installed with this very program, so that an older one in
   * the system folders never shadows newer keys. */
  dir = tw_install_dirs_find_schema_dir (tw_install_dirs_get_exe_path ());
  if (dir != NULL)
    {
      own = g_settings_schema_source_new_from_directory (dir, system, FALSE, &local_error);
      if (own == NULL)
        g_warning ("Could not read the settings schemas in %s: %s", dir, local_error->message);
      else if (source_has_schema (own))
        return g_steal_pointer (&own);
    }

  if (source_has_schema (system))
    return g_settings_schema_source_ref (system);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               _("The settings schema %s is not installed. Install Tabwright with “meson install”, "
                 "or point GSETTINGS_SCHEMA_DIR at a folder with its compiled schema"),
               TW_SETTINGS_SCHEMA_ID);
  return NULL;
}

GSettingsSchemaSource *
tw_settings_get_schema_source (GError **error)
{
  static GSettingsSchemaSource *source;

  if (source == NULL)
    source = find_schema_source (error);

  return source;
}

static GSettings *
new_settings (const char  *schema_id,
              const char  *path,
              GError     **error)
{
  GSettingsSchemaSource *source = tw_settings_get_schema_source (error);
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source == NULL)
    return NULL;

  schema = g_settings_schema_source_lookup (source, schema_id, TRUE);
  if (schema == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("The settings schema %s is missing from the installed schemas"), schema_id);
      return NULL;
    }

  return g_settings_new_full (schema, NULL, path);
}

GSettings *
tw_settings_new (GError **error)
{
  return new_settings (TW_SETTINGS_SCHEMA_ID, NULL, error);
}

char *
tw_settings_dup_workspace_path (const char *workspace_id)
{
  GString *path;

  g_return_val_if_fail (workspace_id != NULL && workspace_id[0] != '\0', NULL);

  path = g_string_new (WORKSPACES_PATH);
  for (const char *p = workspace_id; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '-' || *p == '_' || *p == '.')
        g_string_append_c (path, *p);
      else
        g_string_append_c (path, '-');
    }
  g_string_append_c (path, '/');

  return g_string_free (path, FALSE);
}

GSettings *
tw_settings_new_for_workspace (const char  *workspace_id,
                               GError     **error)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (workspace_id != NULL && workspace_id[0] != '\0', NULL);

  path = tw_settings_dup_workspace_path (workspace_id);

  return new_settings (TW_SETTINGS_WORKSPACE_SCHEMA_ID, path, error);
}

/* The person's say (issue 32): the workspace's policy, which agent presets
 * may override. */
static void
apply_policy (GSettings *settings,
              TwBrowser *browser)
{
  g_auto(GStrv) sites = g_settings_get_strv (settings, "agent-allowed-sites");
  g_auto(GStrv) approve = g_settings_get_strv (settings, "agent-approvals");
  g_autofree char *session = g_settings_get_string (settings, "agent-session");
  const TwAgentPolicy policy = {
    (const char * const *) sites,
    (const char * const *) approve,
    g_settings_get_uint (settings, "approval-timeout-seconds"),
    session,
  };

  tw_browser_set_policy (browser, &policy);
}

static void
policy_changed_cb (GSettings  *settings,
                   const char *key,
                   TwBrowser  *browser)
{
  if (g_str_equal (key, "agent-allowed-sites") || g_str_equal (key, "agent-approvals") ||
      g_str_equal (key, "approval-timeout-seconds") || g_str_equal (key, "agent-session"))
    apply_policy (settings, browser);
}

void
tw_settings_bind_browser (GSettings *workspace_settings,
                          TwBrowser *browser)
{
  g_return_if_fail (G_IS_SETTINGS (workspace_settings));
  g_return_if_fail (TW_IS_BROWSER (browser));

  g_settings_bind (workspace_settings, "browser-tools-enabled", browser, "enabled",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (workspace_settings, "emulate-focus", browser, "emulate-focus",
                   G_SETTINGS_BIND_GET);
  /* Only the setting chooses the groups; the browser never writes it. */
  g_settings_bind (workspace_settings, "tool-groups", browser, "tool-groups",
                   G_SETTINGS_BIND_GET);
  g_settings_bind (workspace_settings, "agents-share-tabs", browser, "share-tabs",
                   G_SETTINGS_BIND_GET);
  g_settings_bind (workspace_settings, "agents-use-person-tabs", browser, "share-person-tabs",
                   G_SETTINGS_BIND_GET);

  g_signal_connect_object (workspace_settings, "changed", G_CALLBACK (policy_changed_cb), browser,
                           0);
  apply_policy (workspace_settings, browser);
}

char **
tw_settings_parse_tool_groups (const char  *list,
                               GError     **error)
{
  g_auto(GStrv) names = NULL;
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (list != NULL, NULL);

  names = g_strsplit (list, ",", -1);
  for (guint i = 0; names[i] != NULL; i++)
    {
      const char *name = g_strstrip (names[i]);

      if (name[0] == '\0')
        continue;

      if (!tw_tool_registry_has_group (name))
        {
          g_autoptr(GString) known = g_string_new (NULL);

          for (guint j = 0; j < tw_tool_registry_get_n_groups (); j++)
            g_string_append_printf (known, "%s%s", j > 0 ? ", " : "",
                                    tw_tool_registry_get_group_name (j));
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "Unknown tool group “%s”; the groups are: %s", name, known->str);
          return NULL;
        }

      if (!g_ptr_array_find_with_equal_func (groups, name, g_str_equal, NULL))
        g_ptr_array_add (groups, g_strdup (name));
    }

  g_ptr_array_add (groups, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&groups), FALSE);
}

guint16
tw_settings_get_mcp_port (GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), 0);

  if (g_settings_get_enum (settings, "mcp-port-policy") != TW_PORT_POLICY_FIXED)
    return 0;

  return (guint16) g_settings_get_int (settings, "mcp-port");
}

gboolean
tw_settings_get_overlay_animations (GSettings *settings)
{
  GtkSettings *gtk_settings = gtk_settings_get_default ();
  gboolean desktop = TRUE;

  g_return_val_if_fail (G_IS_SETTINGS (settings), FALSE);

  if (gtk_settings != NULL)
    g_object_get (gtk_settings, "gtk-enable-animations", &desktop, NULL);

  return desktop && g_settings_get_boolean (settings, "overlay-animations");
}

void
tw_settings_restore_window (GSettings *settings,
                            GtkWindow *window)
{
  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (GTK_IS_WINDOW (window));

  gtk_window_set_default_size (window,
                               g_settings_get_int (settings, "window-width"),
                               g_settings_get_int (settings, "window-height"));

  if (g_settings_get_boolean (settings, "window-maximized"))
    gtk_window_maximize (window);
}

void
tw_settings_save_window (GSettings *settings,
                         GtkWindow *window)
{
  gboolean maximized;
  int width = 0;
  int height = 0;

  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (GTK_IS_WINDOW (window));

  maximized = gtk_window_is_maximized (window);
  g_settings_set_boolean (settings, "window-maximized", maximized);

  /* A maximized window keeps the size it gets back when unmaximized, which
   * is the one worth remembering. */
  if (maximized)
    return;

  gtk_window_get_default_size (window, &width, &height);
  if (width >= MIN_WINDOW_WIDTH && height >= MIN_WINDOW_HEIGHT)
    {
      g_settings_set_int (settings, "window-width", MIN (width, G_MAXINT16));
      g_settings_set_int (settings, "window-height", MIN (height, G_MAXINT16));
    }
}
