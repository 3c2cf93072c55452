/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-agent-manager.h"

#include "tw-agent-colours.h"
#include "tw-agent-launcher.h"
#include "tw-agent-pane.h"
#include "tw-agent-session-menu.h"
#include "tw-gemini-extension.h"
#include "tw-gemini-install.h"

#include <string.h>

struct _TwAgentManager
{
  GObject           parent_instance;

  TwMcpServer      *server;
  TwBrowserService *service;
  char             *workspace;
  GListModel       *presets;
  /* The app's settings, which keep the sessions chosen for presets. */
  GSettings        *settings;
  GListStore       *agents;
  GCancellable     *cancellable;

  TwAgentLauncher  *launcher;
  TwAgentPane      *pane;

  /* preset id -> how many agents of it this workspace launched, so names
   * count up and never repeat while the window is open. */
  GHashTable       *counts;
};

G_DEFINE_FINAL_TYPE (TwAgentManager, tw_agent_manager, G_TYPE_OBJECT)

/* Agent ids are unique in the whole app: the MCP server attributes calls
 * by id, across workspaces. */
static guint agent_serial;

static TwAgent *
find_agent_by_terminal (TwAgentManager *self,
                        GtkWidget      *terminal,
                        guint          *position)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->agents)); i++)
    {
      g_autoptr(TwAgent) agent = g_list_model_get_item (G_LIST_MODEL (self->agents), i);

      if (GTK_WIDGET (tw_agent_get_terminal (agent)) == terminal)
        {
          if (position != NULL)
            *position = i;
          return agent;
        }
    }

  return NULL;
}

/* The agent's page */

static void
update_page (TwAgentManager *self,
             TwAgent        *agent)
{
  AdwTabPage *page = tw_agent_pane_get_page (self->pane,
                                             GTK_WIDGET (tw_agent_get_terminal (agent)));
  TwAgentStatus status = tw_agent_get_status (agent);
  const char *text = tw_agent_get_status_text (agent);
  g_autofree char *tooltip = NULL;
  const char *mark = NULL;
  int colour = -1;

  if (page == NULL)
    return;

  /* Its colour and mark, as on its tabs (issue 32), once it has them. */
  if (TW_IS_BROWSER (self->service))
    tw_browser_get_agent_mark (TW_BROWSER (self->service), tw_agent_get_id (agent), &colour, &mark);
  tw_agent_terminal_set_agent (tw_agent_get_terminal (agent), colour, mark, tw_agent_get_name (agent));

  adw_tab_page_set_title (page, tw_agent_get_name (agent));
  adw_tab_page_set_loading (page, status == TW_AGENT_STATUS_STARTING);

  tooltip = g_markup_printf_escaped ("%s\n<small><tt>%s</tt></small>\n<small>%s</small>",
                                     tw_agent_get_name (agent),
                                     tw_agent_get_command_line (agent) ? tw_agent_get_command_line (agent) : "",
                                     text ? text : "");
  adw_tab_page_set_tooltip (page, tooltip);

  if (status == TW_AGENT_STATUS_EXITED || status == TW_AGENT_STATUS_FAILED)
    {
      gboolean failed = status == TW_AGENT_STATUS_FAILED || tw_agent_get_exit_code (agent) != 0;
      g_autoptr(GIcon) icon = g_themed_icon_new (failed ? "dialog-warning-symbolic"
                                                        : "media-playback-stop-symbolic");

      adw_tab_page_set_indicator_icon (page, icon);
      adw_tab_page_set_indicator_tooltip (page, text ? text : "");
    }
  else if (colour >= 0)
    {
      g_autoptr(GIcon) icon = tw_agent_badge_icon_new (colour, mark);

      adw_tab_page_set_indicator_icon (page, icon);
      adw_tab_page_set_indicator_tooltip (page, tw_agent_get_name (agent));
    }
  else
    {
      adw_tab_page_set_indicator_icon (page, NULL);
      adw_tab_page_set_indicator_tooltip (page, "");
    }
}

static void
agent_notify_cb (TwAgentManager *self,
                 GParamSpec     *pspec,
                 TwAgent        *agent)
{
  update_page (self, agent);
  tw_agent_session_menu_update (agent);
}

static void
close_agent_cb (TwAgentManager *self,
                GtkWidget      *child,
                TwAgentPane    *pane)
{
  guint position;
  TwAgent *agent = find_agent_by_terminal (self, child, &position);

  if (agent == NULL)
    return;

  /* Closing an agent's page is closing its terminal: the agent hangs up
   * and its token stops working. */
  g_signal_handlers_disconnect_by_data (agent, self);
  tw_agent_stop (agent);
  g_list_store_remove (self->agents, position);
}

/* Gemini CLI reaches the tabs only through Tabwright's user extension,
 * which the person installs once, when they agree (TwGeminiInstall). Until
 * then the launcher and each Gemini CLI agent's terminal say so. */
#define GEMINI_PRESET "gemini"

static const char *
gemini_problem (TwGeminiExtensionState state)
{
  switch (state)
    {
    case TW_GEMINI_EXTENSION_MISSING:
      return _("Tabwright's extension is not installed: Gemini CLI would get no browser tools");
    case TW_GEMINI_EXTENSION_DIFFERENT:
      return _("A different tabwright extension is installed: Gemini CLI may get no browser tools");
    case TW_GEMINI_EXTENSION_INSTALLED:
      return NULL;
    default:
      g_assert_not_reached ();
    }
}

/* Finishes a check of the extension: FALSE when it was cancelled, with
 * nothing to say; else TRUE, with what keeps Gemini CLI from its browser
 * tools in @problem (the failure's message when the file could not be
 * read), or NULL when nothing does. */
static gboolean
finish_gemini_check (GAsyncResult  *result,
                     char         **problem)
{
  g_autoptr(GError) error = NULL;
  TwGeminiExtensionState state;

  if (!tw_gemini_extension_check_finish (result, &state, NULL, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return FALSE;

      *problem = g_strdup (error->message);
      return TRUE;
    }

  *problem = g_strdup (gemini_problem (state));
  return TRUE;
}

static void
gemini_checked_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(TwAgentManager) self = user_data;
  g_autofree char *problem = NULL;

  if (finish_gemini_check (result, &problem) && self->launcher != NULL)
    tw_agent_launcher_set_problem (self->launcher, GEMINI_PRESET, problem,
                                   _("Install Extension…"));
}

static void
check_gemini (TwAgentManager *self)
{
  if (tw_agent_presets_lookup (self->presets, GEMINI_PRESET) != NULL)
    tw_gemini_extension_check_async (NULL, self->cancellable, gemini_checked_cb,
                                     g_object_ref (self));
}

typedef struct
{
  TwAgentManager *self;
  TwAgent        *agent;
} AgentCheck;

static void
agent_checked_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  AgentCheck *check = user_data;
  g_autofree char *problem = NULL;

  if (finish_gemini_check (result, &problem) && problem != NULL)
    {
      g_autofree char *notice = g_strdup_printf (_("%s. Install it from the Agent menu or "
                                                   "Connect an Agent, then restart."), problem);

      tw_agent_terminal_add_notice (tw_agent_get_terminal (check->agent), notice);
    }

  g_object_unref (check->agent);
  g_object_unref (check->self);
  g_free (check);
}

typedef struct
{
  TwAgentManager *self;
  char           *preset_id;
  gboolean        then_launch;
} Setup;

static void
setup_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Setup *setup = user_data;
  TwAgentManager *self = setup->self;
  g_autoptr(GError) error = NULL;
  gboolean installed = tw_gemini_install_run_finish (result, &error);

  /* A manager that was disposed meanwhile has no launcher left to tell. */
  if (self->cancellable != NULL && !g_cancellable_is_cancelled (self->cancellable))
    {
      check_gemini (self);

      /* Started only once the tools it needs are there. */
      if (installed && setup->then_launch &&
          tw_agent_manager_launch (self, setup->preset_id, NULL, &error) == NULL)
        g_warning ("Could not launch the agent %s: %s", setup->preset_id, error->message);
    }

  g_object_unref (setup->self);
  g_free (setup->preset_id);
  g_free (setup);
}

static void
launcher_setup_cb (TwAgentManager  *self,
                   const char      *preset_id,
                   gboolean         then_launch,
                   TwAgentLauncher *launcher)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (launcher));
  Setup *setup;

  if (!g_str_equal (preset_id, GEMINI_PRESET))
    return;

  setup = g_new0 (Setup, 1);
  setup->self = g_object_ref (self);
  setup->preset_id = g_strdup (preset_id);
  setup->then_launch = then_launch;
  tw_gemini_install_run_async (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, NULL,
                               self->cancellable, setup_done_cb, setup);
}

/* The launcher */

static void
located_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  TwAgentPreset *preset = TW_AGENT_PRESET (object);
  g_autoptr(TwAgentManager) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  path = tw_agent_preset_locate_finish (preset, result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->launcher == NULL)
    return;

  tw_agent_launcher_set_installed (self->launcher, tw_agent_preset_get_id (preset), path != NULL,
                                   tw_agent_preset_get_install_command (preset));
}

static void
refresh_installed (TwAgentManager *self)
{
  for (guint i = 0; i < g_list_model_get_n_items (self->presets); i++)
    {
      g_autoptr(TwAgentPreset) preset = g_list_model_get_item (self->presets, i);

      if (!tw_agent_preset_get_needs_command (preset))
        tw_agent_preset_locate_async (preset, NULL, self->workspace, self->cancellable,
                                      located_cb, g_object_ref (self));
    }
}

static void
launcher_opened_cb (TwAgentManager  *self,
                    TwAgentLauncher *launcher)
{
  /* Someone may have installed an agent since the menu last showed. */
  refresh_installed (self);
  check_gemini (self);
}

static void
launcher_launch_cb (TwAgentManager  *self,
                    const char      *preset_id,
                    const char      *command,
                    TwAgentLauncher *launcher)
{
  g_autoptr(GError) error = NULL;

  if (tw_agent_manager_launch (self, preset_id, command, &error) == NULL)
    g_warning ("Could not launch the agent %s: %s", preset_id, error->message);
}

/* Launching */

TwAgent *
tw_agent_manager_launch (TwAgentManager  *self,
                         const char      *preset_id,
                         const char      *command,
                         GError         **error)
{
  g_autoptr(TwAgent) agent = NULL;
  g_autofree char *id = NULL;
  g_autofree char *name = NULL;
  TwAgentPreset *preset;
  AdwTabPage *page;
  guint count;

  g_return_val_if_fail (TW_IS_AGENT_MANAGER (self), NULL);
  g_return_val_if_fail (preset_id != NULL, NULL);

  preset = tw_agent_presets_lookup (self->presets, preset_id);
  if (preset == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("There is no agent preset “%s”"), preset_id);
      return NULL;
    }

  if (command != NULL && command[0] == '\0')
    command = NULL;

  if (command == NULL && tw_agent_preset_get_needs_command (preset))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s needs a command, as in %s:COMMAND"),
                   tw_agent_preset_get_name (preset), preset_id);
      return NULL;
    }

  count = GPOINTER_TO_UINT (g_hash_table_lookup (self->counts, preset_id)) + 1;
  g_hash_table_insert (self->counts, g_strdup (preset_id), GUINT_TO_POINTER (count));

  id = g_strdup_printf ("%s-%u", preset_id, ++agent_serial);
  /* Translators: an agent's name, e.g. "Claude Code #2". */
  name = g_strdup_printf (_("%s #%u"), tw_agent_preset_get_name (preset), count);

  agent = tw_agent_new (self->server, self->service, preset, command, self->workspace, id, name);
  g_list_store_append (self->agents, agent);

  page = tw_agent_pane_add (self->pane, GTK_WIDGET (tw_agent_get_terminal (agent)));
  adw_tab_page_set_title (page, name);

  g_signal_connect_object (agent, "notify::status", G_CALLBACK (agent_notify_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (agent, "notify::status-text", G_CALLBACK (agent_notify_cb), self,
                           G_CONNECT_SWAPPED);

  /* Its menu: the network session its next tabs open on. */
  if (TW_IS_BROWSER (self->service))
    tw_agent_session_menu_attach (agent, TW_BROWSER (self->service), self->settings);

  tw_agent_start (agent);
  update_page (self, agent);
  tw_agent_session_menu_update (agent);

  /* A Gemini CLI without the extension runs, but its terminal says why it
   * has no browser tools. */
  if (g_str_equal (preset_id, GEMINI_PRESET))
    {
      AgentCheck *check = g_new0 (AgentCheck, 1);

      check->self = g_object_ref (self);
      check->agent = g_object_ref (agent);
      tw_gemini_extension_check_async (NULL, self->cancellable, agent_checked_cb, check);
    }

  /* The person typing next goes to the agent, as in a terminal app. */
  gtk_widget_grab_focus (GTK_WIDGET (tw_agent_terminal_get_vte (tw_agent_get_terminal (agent))));

  return agent;
}

void
tw_agent_manager_stop_all (TwAgentManager *self)
{
  g_return_if_fail (TW_IS_AGENT_MANAGER (self));

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->agents)); i++)
    {
      g_autoptr(TwAgent) agent = g_list_model_get_item (G_LIST_MODEL (self->agents), i);

      tw_agent_stop (agent);
    }
}

gboolean
tw_agent_manager_parse_launch (GListModel  *presets,
                               const char  *spec,
                               char       **preset_id,
                               char       **command,
                               GError     **error)
{
  g_autofree char *id = NULL;
  g_autofree char *rest = NULL;
  const char *colon;
  TwAgentPreset *preset;

  g_return_val_if_fail (G_IS_LIST_MODEL (presets), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);

  colon = strchr (spec, ':');
  id = colon ? g_strndup (spec, colon - spec) : g_strdup (spec);
  rest = colon ? g_strstrip (g_strdup (colon + 1)) : NULL;

  preset = tw_agent_presets_lookup (presets, id);
  if (preset == NULL)
    {
      g_autoptr(GString) known = g_string_new (NULL);

      for (guint i = 0; i < g_list_model_get_n_items (presets); i++)
        {
          g_autoptr(TwAgentPreset) item = g_list_model_get_item (presets, i);

          if (known->len > 0)
            g_string_append (known, ", ");
          g_string_append (known, tw_agent_preset_get_id (item));
        }

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("There is no agent preset “%s” (known: %s)"), id, known->str);
      return FALSE;
    }

  if (rest != NULL && rest[0] == '\0')
    g_clear_pointer (&rest, g_free);

  if (rest != NULL)
    {
      g_auto(GStrv) words = NULL;
      g_autoptr(GError) parse_error = NULL;

      if (!g_shell_parse_argv (rest, NULL, &words, &parse_error))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("Cannot read the command “%s”: %s"), rest, parse_error->message);
          return FALSE;
        }
    }
  else if (tw_agent_preset_get_needs_command (preset))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s needs a command, as in %s:COMMAND"),
                   tw_agent_preset_get_name (preset), id);
      return FALSE;
    }

  *preset_id = g_steal_pointer (&id);
  *command = g_steal_pointer (&rest);

  return TRUE;
}

void
tw_agent_manager_set_settings (TwAgentManager *self,
                               GSettings      *settings)
{
  g_return_if_fail (TW_IS_AGENT_MANAGER (self));
  g_return_if_fail (settings == NULL || G_IS_SETTINGS (settings));

  g_set_object (&self->settings, settings);
  if (settings != NULL)
    tw_agent_session_menu_restore (self->presets, settings);
}

/* Getters */

GtkWidget *
tw_agent_manager_get_launcher (TwAgentManager *self)
{
  g_return_val_if_fail (TW_IS_AGENT_MANAGER (self), NULL);

  return GTK_WIDGET (self->launcher);
}

GtkWidget *
tw_agent_manager_get_pane (TwAgentManager *self)
{
  g_return_val_if_fail (TW_IS_AGENT_MANAGER (self), NULL);

  return GTK_WIDGET (self->pane);
}

GListModel *
tw_agent_manager_get_agents (TwAgentManager *self)
{
  g_return_val_if_fail (TW_IS_AGENT_MANAGER (self), NULL);

  return G_LIST_MODEL (self->agents);
}

/* GObject */

static void
tw_agent_manager_dispose (GObject *object)
{
  TwAgentManager *self = TW_AGENT_MANAGER (object);

  g_cancellable_cancel (self->cancellable);

  if (self->agents != NULL)
    {
      tw_agent_manager_stop_all (self);

      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->agents)); i++)
        {
          g_autoptr(TwAgent) agent = g_list_model_get_item (G_LIST_MODEL (self->agents), i);

          g_signal_handlers_disconnect_by_data (agent, self);
        }
    }

  if (self->launcher != NULL)
    g_signal_handlers_disconnect_by_data (self->launcher, self);
  if (self->pane != NULL)
    g_signal_handlers_disconnect_by_data (self->pane, self);

  g_clear_object (&self->agents);
  g_clear_object (&self->launcher);
  g_clear_object (&self->pane);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->presets);
  g_clear_object (&self->settings);
  g_clear_object (&self->service);
  g_clear_object (&self->server);
  g_clear_pointer (&self->counts, g_hash_table_unref);

  G_OBJECT_CLASS (tw_agent_manager_parent_class)->dispose (object);
}

static void
tw_agent_manager_finalize (GObject *object)
{
  TwAgentManager *self = TW_AGENT_MANAGER (object);

  g_clear_pointer (&self->workspace, g_free);

  G_OBJECT_CLASS (tw_agent_manager_parent_class)->finalize (object);
}

static void
tw_agent_manager_class_init (TwAgentManagerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_agent_manager_dispose;
  object_class->finalize = tw_agent_manager_finalize;
}

static void
tw_agent_manager_init (TwAgentManager *self)
{
  self->agents = g_list_store_new (TW_TYPE_AGENT);
  self->cancellable = g_cancellable_new ();
  self->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

TwAgentManager *
tw_agent_manager_new (TwMcpServer      *server,
                      TwBrowserService *service,
                      const char       *workspace,
                      GListModel       *presets)
{
  TwAgentManager *self;

  g_return_val_if_fail (TW_IS_MCP_SERVER (server), NULL);
  g_return_val_if_fail (TW_IS_BROWSER_SERVICE (service), NULL);
  g_return_val_if_fail (workspace != NULL, NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (presets), NULL);

  self = g_object_new (TW_TYPE_AGENT_MANAGER, NULL);
  self->server = g_object_ref (server);
  self->service = g_object_ref (service);
  self->workspace = g_strdup (workspace);
  self->presets = g_object_ref (presets);

  self->launcher = g_object_ref_sink (tw_agent_launcher_new ());
  self->pane = g_object_ref_sink (tw_agent_pane_new ());

  for (guint i = 0; i < g_list_model_get_n_items (presets); i++)
    {
      g_autoptr(TwAgentPreset) preset = g_list_model_get_item (presets, i);

      tw_agent_launcher_add_preset (self->launcher,
                                    tw_agent_preset_get_id (preset),
                                    tw_agent_preset_get_name (preset),
                                    tw_agent_preset_get_description (preset),
                                    tw_agent_preset_get_needs_command (preset));
    }

  g_signal_connect_object (self->launcher, "launch", G_CALLBACK (launcher_launch_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->launcher, "opened", G_CALLBACK (launcher_opened_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->launcher, "setup", G_CALLBACK (launcher_setup_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->pane, "close-agent", G_CALLBACK (close_agent_cb), self,
                           G_CONNECT_SWAPPED);

  refresh_installed (self);
  check_gemini (self);

  return self;
}
