/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>

#include "tw-application-private.h"

#include "tw-agent-preset.h"
#include "tw-settings.h"

#include <signal.h>

G_DEFINE_FINAL_TYPE (TwApplication, tw_application, ADW_TYPE_APPLICATION)

static const GOptionEntry option_entries[] = {
  { "workspace", 'w', 0, G_OPTION_ARG_FILENAME, NULL,
    N_("The folder to work in (default: the current folder)"), N_("DIR") },
  { "mcp-port", 0, 0, G_OPTION_ARG_INT, NULL,
    N_("Serve MCP on this port of 127.0.0.1 (default: any free port)"), N_("PORT") },
  { "launch-agent", 'a', 0, G_OPTION_ARG_STRING_ARRAY, NULL,
    N_("Start an agent once the window is up: claude, codex, gemini, opencode, copilot, "
       "qwen, or custom:COMMAND (may be given more than once)"), N_("PRESET[:COMMAND]") },
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
    return _tw_application_install_gemini_extension ();

  if (g_variant_dict_contains (options, "print-mcp-config"))
    {
      g_variant_dict_lookup (options, "workspace", "^&ay", &workspace);
      return _tw_application_print_mcp_config (workspace);
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

  if (!_tw_application_ensure_server (self, port, &error))
    {
      g_application_command_line_printerr (command_line,
                                           _("tabwright: cannot serve MCP on 127.0.0.1:%d: %s\n"),
                                           MAX (port, 0), error->message);
      return 1;
    }

  served = _tw_application_present_workspace (self, path, port, &error);
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
  if (!_tw_application_ensure_server (self, PORT_FROM_SETTINGS, &error) ||
      (served = _tw_application_serve_workspace (self, g_get_home_dir (), &error)) == NULL)
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
    { "win.bookmark", { "<Primary>d", NULL } },
    { "win.overview", { "<Primary><Shift>o", NULL } },
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

  _tw_application_add_actions (self);

  g_signal_connect_object (self->settings, "changed::overlay-animations",
                           G_CALLBACK (_tw_application_update_overlay_animations), self,
                           G_CONNECT_SWAPPED);
  if (gtk_settings_get_default () != NULL)
    g_signal_connect_object (gtk_settings_get_default (), "notify::gtk-enable-animations",
                             G_CALLBACK (_tw_application_update_overlay_animations), self,
                             G_CONNECT_SWAPPED);

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

static void
tw_application_shutdown (GApplication *app)
{
  TwApplication *self = TW_APPLICATION (app);

  for (guint i = 0; i < self->served->len; i++)
    _tw_application_stop_serving (self, g_ptr_array_index (self->served, i));
  g_ptr_array_set_size (self->served, 0);

  if (self->server != NULL)
    tw_mcp_server_stop (self->server);
  g_clear_object (&self->server);

  g_clear_handle_id (&self->sigint_source, g_source_remove);
  g_clear_handle_id (&self->sigterm_source, g_source_remove);

  _tw_application_end_started_processes ();

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
          _tw_application_stop_serving (self, served);
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
  self->served = g_ptr_array_new_with_free_func ((GDestroyNotify) _tw_application_served_free);

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
