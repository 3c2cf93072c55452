/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>

#include "tw-application.h"

#include "tw-agent.h"
#include "tw-agent-manager.h"
#include "tw-gemini-extension.h"
#include "tw-mcp-server.h"
#include "tw-mcp-snippets.h"
#include "tw-preferences-dialog.h"
#include "tw-recent-workspaces.h"
#include "tw-session.h"
#include "tw-settings.h"
#include "tw-window.h"
#include "tw-workspace.h"
#include "tw-workspace-chooser.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How external MCP clients are named in the activity of a workspace. */
#define EXTERNAL_AGENT_ID   "external"
#define EXTERNAL_AGENT_NAME "External client"

/* ensure_server() with no --mcp-port: the port policy of the settings. */
#define PORT_FROM_SETTINGS (-1)

typedef struct
{
  TwWorkspace    *workspace;
  TwWindow       *window;
  TwAgentManager *agents;
  GSettings      *workspace_settings;
  TwSession      *session;
} Served;

struct _TwApplication
{
  AdwApplication  parent_instance;

  TwMcpServer    *server;
  GSettings      *settings;
  /* Why MCP is not on the fixed port, for the next window to say. */
  char           *port_notice;
  /* TwAgentPreset, shared by every workspace. */
  GListModel     *presets;
  TwRecentWorkspaces *recent;
  /* Served: the workspaces with a window, in the order they were opened. */
  GPtrArray      *served;
  guint           sigint_source;
  guint           sigterm_source;
};

G_DEFINE_FINAL_TYPE (TwApplication, tw_application, ADW_TYPE_APPLICATION)

static const GOptionEntry option_entries[] = {
  { "workspace", 'w', 0, G_OPTION_ARG_FILENAME, NULL,
    N_("The folder to work in (default: the current folder)"), N_("DIR") },
  { "mcp-port", 0, 0, G_OPTION_ARG_INT, NULL,
    N_("Serve MCP on this port of 127.0.0.1 (default: any free port)"), N_("PORT") },
  { "launch-agent", 'a', 0, G_OPTION_ARG_STRING_ARRAY, NULL,
    N_("Start an agent once the window is up: claude, codex, gemini, opencode, "
       "or custom:COMMAND (may be given more than once)"), N_("PRESET[:COMMAND]") },
  { "tools", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Offer agents these tool groups in the workspace from now on: core, reading, "
       "debugging… (comma-separated; see Preferences)"), N_("GROUP,…") },
  { "print-mcp-config", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Print how MCP clients connect to the workspace, then exit"), NULL },
  { "install-gemini-extension", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Show the Gemini CLI extension Tabwright would write, and write it if you answer y"),
    NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Print the version, then exit"), NULL },
  { NULL }
};

static void
served_free (Served *served)
{
  g_clear_object (&served->agents);
  g_clear_object (&served->session);
  g_clear_object (&served->workspace_settings);
  g_clear_object (&served->workspace);
  g_free (served);
}

/* Settings and the tabs of a workspace across launches */

static void
restore_workspace_state (TwApplication *self,
                         Served        *served)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *session_file = NULL;
  TwBrowser *browser = tw_workspace_get_browser (served->workspace);

  /* The schema was found at start-up, so this cannot fail. */
  served->workspace_settings =
    tw_settings_new_for_workspace (tw_workspace_get_id (served->workspace), NULL);
  tw_settings_bind_browser (served->workspace_settings, browser);

  session_file = g_build_filename (tw_workspace_get_data_dir (served->workspace),
                                   "session.json", NULL);
  served->session = tw_session_new (browser, session_file);
  if (g_settings_get_boolean (self->settings, "restore-tabs") &&
      tw_session_restore (served->session, &error) == 0 && error != NULL)
    g_warning ("Could not reopen the tabs of %s: %s", session_file, error->message);
}

static void
save_workspace_state (TwApplication *self,
                      Served        *served)
{
  g_autoptr(GError) error = NULL;

  if (served->window != NULL)
    tw_settings_save_window (self->settings, GTK_WINDOW (served->window));

  if (served->session != NULL && !tw_session_close (served->session, &error))
    g_warning ("Could not save the tabs of %s: %s",
               tw_workspace_get_path (served->workspace), error->message);
}

/* Everything a workspace leaves behind while it is served goes away with
 * its window: its token stops working, its runtime file disappears and its
 * tabs close. */
static void
stop_serving (TwApplication *self,
              Served        *served)
{
  /* Agents hang up first, so their tokens die with the window too. */
  if (served->agents != NULL)
    tw_agent_manager_stop_all (served->agents);

  if (self->server != NULL)
    tw_mcp_server_remove_client (self->server, tw_workspace_get_token (served->workspace));

  tw_workspace_unpublish (served->workspace);

  /* The window's size and the tabs are remembered before the tabs close. */
  save_workspace_state (self, served);
  tw_browser_close_all (tw_workspace_get_browser (served->workspace));
}

static Served *
find_served (TwApplication *self,
             const char    *path)
{
  for (guint i = 0; i < self->served->len; i++)
    {
      Served *served = g_ptr_array_index (self->served, i);

      if (g_str_equal (tw_workspace_get_path (served->workspace), path))
        return served;
    }

  return NULL;
}

static gboolean
ensure_server (TwApplication  *self,
               int             port,
               GError        **error)
{
  g_autoptr(TwMcpServer) server = NULL;

  if (self->server != NULL)
    {
      if (port > 0 && port != tw_mcp_server_get_port (self->server))
        g_printerr (_("tabwright: already serving MCP on port %u; --mcp-port %d is ignored\n"),
                    tw_mcp_server_get_port (self->server), port);
      return TRUE;
    }

  /* A fixed port from the settings that another program holds must not
   * keep Tabwright from starting: any free port will do, and the window
   * says so. An explicit --mcp-port is different: it fails. */
  if (port == PORT_FROM_SETTINGS)
    {
      g_autoptr(GError) fixed_error = NULL;
      guint16 fixed = tw_settings_get_mcp_port (self->settings);

      port = 0;
      if (fixed != 0)
        {
          server = tw_mcp_server_new ();
          if (tw_mcp_server_start (server, fixed, &fixed_error))
            {
              self->server = g_steal_pointer (&server);
              return TRUE;
            }

          g_message ("Could not serve MCP on the fixed port %u: %s", fixed, fixed_error->message);
          g_free (self->port_notice);
          self->port_notice = g_strdup_printf (_("Port %u is in use, so agents reach this "
                                                 "workspace on another port this time"), fixed);
          g_clear_object (&server);
        }
    }

  server = tw_mcp_server_new ();
  if (!tw_mcp_server_start (server, (guint16) port, error))
    return FALSE;

  self->server = g_steal_pointer (&server);

  return TRUE;
}

/* The overlays above the tabs animate as the overlay-animations key and the
 * desktop's enable-animations say, in every window, as both change. */
static void
update_overlay_animations (TwApplication *self)
{
  gboolean animations = tw_settings_get_overlay_animations (self->settings);

  for (guint i = 0; i < self->served->len; i++)
    {
      Served *served = g_ptr_array_index (self->served, i);

      if (served->window != NULL)
        tw_window_set_overlay_animations (served->window, animations);
    }
}

static Served *
serve_workspace (TwApplication  *self,
                 const char     *path,
                 GError        **error)
{
  g_autoptr(TwWorkspace) workspace = NULL;
  g_autoptr(GError) publish_error = NULL;
  g_autofree char *url = NULL;
  TwBrowser *browser;
  Served *served;

  workspace = tw_workspace_new (path, error);
  if (workspace == NULL)
    return NULL;

  browser = tw_workspace_get_browser (workspace);
  url = tw_mcp_server_dup_url (self->server);

  served = g_new0 (Served, 1);
  served->workspace = g_steal_pointer (&workspace);
  restore_workspace_state (self, served);

  tw_mcp_server_add_client (self->server, tw_workspace_get_token (served->workspace),
                            EXTERNAL_AGENT_ID, EXTERNAL_AGENT_NAME,
                            TW_BROWSER_SERVICE (browser));

  /* Without the runtime file only the stdio bridge is lost; the window and
   * the token still work. */
  if (!tw_workspace_publish (served->workspace, url, &publish_error))
    g_warning ("Could not write the runtime file of %s: %s", path, publish_error->message);

  served->window = tw_window_new (ADW_APPLICATION (self), browser,
                                  tw_workspace_get_name (served->workspace),
                                  tw_workspace_get_path (served->workspace));
  tw_settings_restore_window (self->settings, GTK_WINDOW (served->window));
  if (self->port_notice != NULL)
    tw_window_add_toast (served->window, self->port_notice);
  g_clear_pointer (&self->port_notice, g_free);
  tw_window_set_mcp_connection (served->window, url,
                                tw_workspace_get_token (served->workspace));

  served->agents = tw_agent_manager_new (self->server, TW_BROWSER_SERVICE (browser),
                                         tw_workspace_get_path (served->workspace),
                                         self->presets);
  tw_window_set_agents (served->window, tw_agent_manager_get_launcher (served->agents),
                        tw_agent_manager_get_pane (served->agents));
  tw_window_set_recent_workspaces (served->window, tw_recent_workspaces_get_menu (self->recent));
  tw_recent_workspaces_add (self->recent, tw_workspace_get_path (served->workspace));

  g_ptr_array_add (self->served, served);
  update_overlay_animations (self);

  return served;
}

/* Finds the workspace's window, or opens one, and brings it forward. */
static Served *
present_workspace (TwApplication  *self,
                   const char     *path,
                   int             port,
                   GError        **error)
{
  Served *served;

  if (!ensure_server (self, port, error))
    return NULL;

  /* One window per workspace: asking again brings it forward. */
  served = find_served (self, path);
  if (served == NULL)
    served = serve_workspace (self, path, error);

  if (served != NULL)
    gtk_window_present (GTK_WINDOW (served->window));

  return served;
}

/* --print-mcp-config */

static int
print_mcp_config (const char *workspace_arg)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *url = NULL;
  g_autofree char *token = NULL;
  g_autofree char *stdio = NULL;
  g_autofree char *claude = NULL;
  g_autofree char *codex = NULL;
  g_autofree char *opencode = NULL;
  g_autofree char *gemini = NULL;

  path = tw_workspace_id_canonicalize_path (workspace_arg ? workspace_arg : ".", NULL, &error);
  if (path == NULL)
    {
      g_printerr ("tabwright: %s\n", error->message);
      return 1;
    }

  stdio = tw_mcp_snippet_stdio (path);

  if (!tw_workspace_id_read_runtime_file (path, &url, &token, &error))
    {
      g_printerr (_("Tabwright is not running for %s.\n"
                    "Start it with: tabwright --workspace %s\n"), path, path);
      g_print (_("# Any MCP client over stdio (finds Tabwright once it runs):\n%s\n"), stdio);
      return 1;
    }

  claude = tw_mcp_snippet_claude_command (url, token);
  codex = tw_mcp_snippet_codex (url, token);
  opencode = tw_mcp_snippet_opencode (url, token);
  gemini = tw_mcp_snippet_gemini (url, token);

  g_print (_("# Tabwright is serving %s\n"), path);
  g_print ("URL:   %s\n", url);
  g_print ("Token: %s\n\n", token);
  g_print (_("# Claude Code\n%s\n\n"), claude);
  g_print (_("# Codex\n%s\n\n"), codex);
  g_print (_("# OpenCode\n%s\n\n"), opencode);
  /* Translators: the first line of the snippet installs a Gemini CLI extension, once. */
  g_print (_("# Gemini CLI\n%s\n\n"), gemini);
  g_print (_("# Any MCP client over stdio\n%s\n"), stdio);

  return 0;
}

/* --install-gemini-extension: the same writer as the app's Install
 * button, with the same consent: it shows the file and where it goes, and
 * writes only after a "y" on standard input. */

static gboolean
read_yes (void)
{
  char answer[16] = { 0 };

  fflush (stdout);
  if (fgets (answer, sizeof answer, stdin) == NULL)
    return FALSE;

  return answer[0] == 'y' || answer[0] == 'Y';
}

static int
install_gemini_extension (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tw_gemini_extension_dup_path (NULL);
  g_autofree char *contents = tw_gemini_extension_dup_contents ();
  g_autofree char *current = NULL;
  TwGeminiExtensionState state;

  if (!tw_gemini_extension_check (NULL, &state, &current, &error))
    {
      g_printerr ("tabwright: %s\n", error->message);
      return 1;
    }

  switch (state)
    {
    case TW_GEMINI_EXTENSION_INSTALLED:
      g_print (_("%s is installed and up to date; nothing was written.\n"), path);
      return 0;
    case TW_GEMINI_EXTENSION_DIFFERENT:
      g_print (_("%s is there already and says something else:\n%s\n"
                 "Replacing it loses that. Tabwright would write:\n%s"
                 "Replace it? [y/N] "), path, current, contents);
      break;
    case TW_GEMINI_EXTENSION_MISSING:
      g_print (_("So that Gemini CLI reaches the tabs, Tabwright would write %s:\n%s"
                 "It names no address or token: Gemini CLI reads them from TABWRIGHT_MCP_URL and "
                 "TABWRIGHT_MCP_TOKEN.\nWrite it? [y/N] "), path, contents);
      break;
    default:
      g_assert_not_reached ();
    }

  if (!read_yes ())
    {
      g_print (_("\nNothing was written.\n"));
      return 1;
    }

  if (!tw_gemini_extension_install (NULL, state == TW_GEMINI_EXTENSION_DIFFERENT, NULL, &error))
    {
      g_printerr ("tabwright: %s\n", error->message);
      return 1;
    }

  g_print (_("Installed %s.\n"), path);

  return 0;
}

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
  if (path == NULL || present_workspace (self, path, PORT_FROM_SETTINGS, &error) == NULL)
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

static gboolean
quit_on_signal_cb (gpointer user_data)
{
  /* Quitting properly removes the runtime files, so clients do not try to
   * reach a Tabwright that is gone. */
  g_application_quit (G_APPLICATION (user_data));

  return G_SOURCE_CONTINUE;
}

/* GApplication */

static int
tw_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  g_autoptr(GError) error = NULL;
  const char *workspace = NULL;
  int port = 0;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("tabwright %s\n", PACKAGE_VERSION);
      return 0;
    }

  if (g_variant_dict_lookup (options, "mcp-port", "i", &port) && (port < 0 || port > 65535))
    {
      g_printerr (_("tabwright: --mcp-port must be between 1 and 65535 (or 0 for any free port), "
                    "not %d\n"), port);
      return 1;
    }

  if (g_variant_dict_contains (options, "install-gemini-extension"))
    return install_gemini_extension ();

  if (g_variant_dict_contains (options, "print-mcp-config"))
    {
      g_variant_dict_lookup (options, "workspace", "^&ay", &workspace);
      return print_mcp_config (workspace);
    }

  /* Without its settings schema the app cannot run: say why, and stop. */
  if (tw_settings_get_schema_source (&error) == NULL)
    {
      g_printerr ("tabwright: %s\n", error->message);
      return 1;
    }

  return -1;
}

static int
tw_application_command_line (GApplication            *app,
                             GApplicationCommandLine *command_line)
{
  TwApplication *self = TW_APPLICATION (app);
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_auto(GStrv) launch_specs = NULL;
  g_autoptr(GPtrArray) launches = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) tool_groups = NULL;
  const char *tools = NULL;
  const char *workspace = NULL;
  Served *served;
  int port = 0;

  g_variant_dict_lookup (options, "workspace", "^&ay", &workspace);
  if (!g_variant_dict_lookup (options, "mcp-port", "i", &port))
    port = PORT_FROM_SETTINGS;
  g_variant_dict_lookup (options, "launch-agent", "^as", &launch_specs);
  g_variant_dict_lookup (options, "tools", "&s", &tools);

  if (tools != NULL && (tool_groups = tw_settings_parse_tool_groups (tools, &error)) == NULL)
    {
      g_application_command_line_printerr (command_line, "tabwright: --tools: %s\n",
                                           error->message);
      return 1;
    }

  /* A mistyped preset is reported before any window opens. Each launch is
   * kept as a pair: preset id, then command (or NULL). */
  for (guint i = 0; launch_specs != NULL && launch_specs[i] != NULL; i++)
    {
      char *preset_id = NULL;
      char *command = NULL;

      if (!tw_agent_manager_parse_launch (self->presets, launch_specs[i], &preset_id, &command,
                                          &error))
        {
          g_application_command_line_printerr (command_line, "tabwright: --launch-agent: %s\n",
                                               error->message);
          return 1;
        }
      g_ptr_array_add (launches, preset_id);
      g_ptr_array_add (launches, command);
    }

  path = tw_workspace_id_canonicalize_path (workspace ? workspace : ".",
                                            g_application_command_line_get_cwd (command_line),
                                            &error);
  if (path == NULL)
    {
      g_application_command_line_printerr (command_line, "tabwright: %s\n", error->message);
      return 1;
    }

  if (!ensure_server (self, port, &error))
    {
      g_application_command_line_printerr (command_line,
                                           _("tabwright: cannot serve MCP on 127.0.0.1:%d: %s\n"),
                                           MAX (port, 0), error->message);
      return 1;
    }

  served = present_workspace (self, path, port, &error);
  if (served == NULL)
    {
      g_application_command_line_printerr (command_line, "tabwright: %s\n", error->message);
      return 1;
    }

  /* Before any agent starts, so it sees the groups asked for; agents that
   * are already connected are told the list changed. */
  if (tool_groups != NULL && served->workspace_settings != NULL)
    g_settings_set_strv (served->workspace_settings, "tool-groups",
                         (const char * const *) tool_groups);

  for (guint i = 0; i + 1 < launches->len; i += 2)
    {
      if (tw_agent_manager_launch (served->agents, g_ptr_array_index (launches, i),
                                   g_ptr_array_index (launches, i + 1), &error) == NULL)
        {
          g_application_command_line_printerr (command_line, "tabwright: --launch-agent: %s\n",
                                               error->message);
          return 1;
        }
    }

  return 0;
}

static void
tw_application_activate (GApplication *app)
{
  TwApplication *self = TW_APPLICATION (app);
  g_autoptr(GError) error = NULL;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));
  Served *served;

  if (window != NULL)
    {
      gtk_window_present (window);
      return;
    }

  /* Launched without a command line (e.g. by D-Bus activation): there is
   * no current folder worth the name, so the home folder it is. */
  if (!ensure_server (self, PORT_FROM_SETTINGS, &error) ||
      (served = serve_workspace (self, g_get_home_dir (), &error)) == NULL)
    {
      g_warning ("Could not open a workspace: %s", error->message);
      return;
    }

  gtk_window_present (GTK_WINDOW (served->window));
}

static void
tw_application_startup (GApplication *app)
{
  TwApplication *self = TW_APPLICATION (app);
  g_autoptr(GError) settings_error = NULL;
  g_autoptr(GError) presets_error = NULL;
  g_autofree char *recent_file = NULL;
  static const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.open-workspace", { "<Primary>o", NULL } },
    { "win.new-tab", { "<Primary>t", NULL } },
    { "win.close-tab", { "<Primary>w", NULL } },
    { "win.focus-address", { "<Primary>l", NULL } },
    { "win.back", { "<Alt>Left", NULL } },
    { "win.forward", { "<Alt>Right", NULL } },
    { "win.reload", { "F5", "<Primary>r", NULL } },
    { "app.preferences", { "<Primary>comma", NULL } },
    { "app.quit", { "<Primary>q", NULL } },
  };

  G_APPLICATION_CLASS (tw_application_parent_class)->startup (app);

  /* handle_local_options() made sure the schema is there. */
  self->settings = tw_settings_new (&settings_error);
  if (self->settings == NULL)
    g_error ("%s", settings_error->message);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);

  g_signal_connect_object (self->settings, "changed::overlay-animations",
                           G_CALLBACK (update_overlay_animations), self, G_CONNECT_SWAPPED);
  if (gtk_settings_get_default () != NULL)
    g_signal_connect_object (gtk_settings_get_default (), "notify::gtk-enable-animations",
                             G_CALLBACK (update_overlay_animations), self, G_CONNECT_SWAPPED);

  /* A broken presets file of the user's costs only their changes. */
  self->presets = tw_agent_presets_new (&presets_error);
  if (presets_error != NULL)
    g_warning ("Some agent presets were not loaded: %s", presets_error->message);

  recent_file = tw_recent_workspaces_dup_default_file ();
  self->recent = tw_recent_workspaces_new (recent_file);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action,
                                           accels[i].accels);

  self->sigint_source = g_unix_signal_add (SIGINT, quit_on_signal_cb, self);
  self->sigterm_source = g_unix_signal_add (SIGTERM, quit_on_signal_cb, self);
}

/* Shutdown that leaves nothing behind */

/* How long the processes this app started have to end after SIGTERM, and
 * then after SIGKILL. Together well under the 2 s a quitting app may take. */
#define END_GRACE_MS 800
#define KILL_GRACE_MS 400

typedef struct
{
  pid_t pid;
  pid_t ppid;
  pid_t pgid;
} ProcessInfo;

/* Reads pid, parent and process group from /proc/<pid>/stat. Zombies count
 * as gone: they run nothing and write nothing. */
static gboolean
read_process (const char  *name,
              ProcessInfo *info)
{
  g_autofree char *path = g_build_filename ("/proc", name, "stat", NULL);
  g_autofree char *contents = NULL;
  const char *close_paren;
  char state;
  int ppid, pgid;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;

  /* The command name may hold spaces and parentheses: it ends at the last
   * ")". */
  close_paren = strrchr (contents, ')');
  if (close_paren == NULL || sscanf (close_paren + 1, " %c %d %d", &state, &ppid, &pgid) != 3)
    return FALSE;
  if (state == 'Z' || state == 'X')
    return FALSE;

  info->pid = (pid_t) atoi (name);
  info->ppid = ppid;
  info->pgid = pgid;
  return TRUE;
}

/* Every live process this app started: its descendants (web processes, the
 * network process, their sandboxes, agents) and the members of agents'
 * process groups that left the tree (a daemon an agent started). `known`
 * holds every pid found by earlier scans and gains this scan's: a process
 * whose parent was killed first is reparented out of the tree, and must
 * still count as ours, with its own children. */
static GArray *
find_started_processes (GArray     *groups,
                        GHashTable *known)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (ProcessInfo));
  g_autoptr(GHashTable) ours = g_hash_table_new (NULL, NULL);
  GArray *found = g_array_new (FALSE, FALSE, sizeof (pid_t));
  pid_t self = getpid ();
  gboolean grew = TRUE;
  DIR *proc;
  struct dirent *entry;

  proc = opendir ("/proc");
  if (proc == NULL)
    return found;
  while ((entry = readdir (proc)) != NULL)
    {
      ProcessInfo info;

      if (g_ascii_isdigit (entry->d_name[0]) && read_process (entry->d_name, &info) &&
          info.pid != self)
        g_array_append_val (all, info);
    }
  closedir (proc);

  g_hash_table_add (ours, GINT_TO_POINTER (self));
  while (grew)
    {
      grew = FALSE;
      for (guint i = 0; i < all->len; i++)
        {
          ProcessInfo *info = &g_array_index (all, ProcessInfo, i);
          gboolean in_group = FALSE;

          if (g_hash_table_contains (ours, GINT_TO_POINTER (info->pid)))
            continue;

          for (guint j = 0; j < groups->len && !in_group; j++)
            in_group = info->pgid == g_array_index (groups, GPid, j);

          if (in_group || g_hash_table_contains (known, GINT_TO_POINTER (info->pid)) ||
              g_hash_table_contains (ours, GINT_TO_POINTER (info->ppid)))
            {
              g_hash_table_add (ours, GINT_TO_POINTER (info->pid));
              g_hash_table_add (known, GINT_TO_POINTER (info->pid));
              g_array_append_val (found, info->pid);
              grew = TRUE;
            }
        }
    }

  return found;
}

static void
signal_processes (GArray *pids,
                  int     signum)
{
  for (guint i = 0; i < pids->len; i++)
    kill (g_array_index (pids, pid_t, i), signum);
}

/* Waits, bounded, for the processes to be gone; answers those still there. */
static GArray *
wait_processes_gone (GArray     *groups,
                     GHashTable *known,
                     guint       timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  GArray *left;

  for (;;)
    {
      left = find_started_processes (groups, known);
      if (left->len == 0 || g_get_monotonic_time () >= deadline)
        return left;
      g_array_unref (left);
      g_usleep (10 * 1000);
    }
}

/* The app is going: whatever it started goes with it, so nothing keeps
 * writing into its folders once it has exited (a network process flushing
 * its cache, an agent's dev server). Runs after the main loop has ended,
 * so waiting here blocks no one. */
static void
end_started_processes (void)
{
  g_autoptr(GArray) groups = tw_agent_dup_process_groups ();
  g_autoptr(GHashTable) known = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) pids = find_started_processes (groups, known);
  g_autoptr(GArray) left = NULL;

  if (pids->len == 0)
    return;

  for (guint i = 0; i < groups->len; i++)
    kill (-g_array_index (groups, GPid, i), SIGTERM);
  signal_processes (pids, SIGTERM);

  left = wait_processes_gone (groups, known, END_GRACE_MS);
  if (left->len == 0)
    return;

  g_debug ("%u processes did not end on SIGTERM; killing them", left->len);
  for (guint i = 0; i < groups->len; i++)
    kill (-g_array_index (groups, GPid, i), SIGKILL);
  signal_processes (left, SIGKILL);
  g_array_unref (wait_processes_gone (groups, known, KILL_GRACE_MS));
}

static void
tw_application_shutdown (GApplication *app)
{
  TwApplication *self = TW_APPLICATION (app);

  for (guint i = 0; i < self->served->len; i++)
    stop_serving (self, g_ptr_array_index (self->served, i));
  g_ptr_array_set_size (self->served, 0);

  if (self->server != NULL)
    tw_mcp_server_stop (self->server);
  g_clear_object (&self->server);

  g_clear_handle_id (&self->sigint_source, g_source_remove);
  g_clear_handle_id (&self->sigterm_source, g_source_remove);

  end_started_processes ();

  G_APPLICATION_CLASS (tw_application_parent_class)->shutdown (app);
}

static void
tw_application_window_removed (GtkApplication *app,
                               GtkWindow      *window)
{
  TwApplication *self = TW_APPLICATION (app);

  for (guint i = 0; i < self->served->len; i++)
    {
      Served *served = g_ptr_array_index (self->served, i);

      if (GTK_WINDOW (served->window) == window)
        {
          stop_serving (self, served);
          g_ptr_array_remove_index (self->served, i);
          break;
        }
    }

  GTK_APPLICATION_CLASS (tw_application_parent_class)->window_removed (app, window);
}

static void
tw_application_dispose (GObject *object)
{
  TwApplication *self = TW_APPLICATION (object);

  g_clear_pointer (&self->served, g_ptr_array_unref);
  g_clear_object (&self->server);
  g_clear_object (&self->presets);
  g_clear_object (&self->recent);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->port_notice, g_free);

  G_OBJECT_CLASS (tw_application_parent_class)->dispose (object);
}

static void
tw_application_class_init (TwApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);
  GtkApplicationClass *gtk_app_class = GTK_APPLICATION_CLASS (klass);

  object_class->dispose = tw_application_dispose;

  app_class->handle_local_options = tw_application_handle_local_options;
  app_class->command_line = tw_application_command_line;
  app_class->activate = tw_application_activate;
  app_class->startup = tw_application_startup;
  app_class->shutdown = tw_application_shutdown;

  gtk_app_class->window_removed = tw_application_window_removed;
}

static void
tw_application_init (TwApplication *self)
{
  self->served = g_ptr_array_new_with_free_func ((GDestroyNotify) served_free);

  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
  g_application_set_option_context_summary (
    G_APPLICATION (self),
    _("Real browser tabs for coding agents, driven over MCP while you watch."));
}

TwApplication *
tw_application_new (void)
{
  return g_object_new (TW_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", "/io/github/tabwright/Tabwright",
                       NULL);
}
