/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-agent-private.h"

#include "tw-browser.h"
#include "tw-mcp-snippets.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long an agent has to end after the hang-up of a stop before its whole
 * process group is killed. */
#define STOP_GRACE_MS 1000

/* The process groups of every agent this app started whose group may still
 * have members. A group leaves the set once it is seen empty; the app's
 * shutdown ends whatever is left (tw_agent_dup_process_groups()). Main
 * thread only. */
static GHashTable *process_groups;

static void
register_process_group (GPid pgid)
{
  if (process_groups == NULL)
    process_groups = g_hash_table_new (NULL, NULL);
  g_hash_table_add (process_groups, GINT_TO_POINTER (pgid));
}

static void
forget_process_group_if_empty (GPid pgid)
{
  if (process_groups != NULL && kill (-pgid, 0) < 0 && errno == ESRCH)
    g_hash_table_remove (process_groups, GINT_TO_POINTER (pgid));
}

static void
kill_process_group_cb (gpointer user_data)
{
  GPid pgid = GPOINTER_TO_INT (user_data);

  /* An agent that ignored the hang-up, or left children behind in its
   * group (a dev server, a watcher), ends here. */
  if (process_groups != NULL && g_hash_table_contains (process_groups, user_data))
    kill (-pgid, SIGKILL);
  forget_process_group_if_empty (pgid);
}

GArray *
tw_agent_dup_process_groups (void)
{
  GArray *groups = g_array_new (FALSE, FALSE, sizeof (GPid));
  GHashTableIter iter;
  gpointer key;

  if (process_groups == NULL)
    return groups;

  g_hash_table_iter_init (&iter, process_groups);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      GPid pgid = GPOINTER_TO_INT (key);

      g_array_append_val (groups, pgid);
    }

  return groups;
}

struct _TwAgent
{
  GObject           parent_instance;

  TwMcpServer      *server;
  TwBrowserService *service;
  TwAgentPreset    *preset;
  TwAgentTerminal  *terminal;
  GCancellable     *cancellable;

  char             *command;
  char             *workspace;
  char             *id;
  char             *name;

  TwAgentStatus     status;
  int               exit_code;
  char             *status_text;
  char             *command_line;
  guint             n_calls;
  GPid              pid;

  /* While the process runs: its token and the files made for it. */
  char             *token;
  char             *mcp_config_path;
  char             *config_path;

  guint             started : 1;
  guint             stopping : 1;
};

enum {
  PROP_0,
  PROP_STATUS,
  PROP_EXIT_CODE,
  PROP_STATUS_TEXT,
  PROP_N_CALLS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TwAgent, tw_agent, G_TYPE_OBJECT)

static void
set_status (TwAgent       *self,
            TwAgentStatus  status,
            const char    *text)
{
  TwAgentTerminalState state;

  if (self->status != status)
    {
      self->status = status;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS]);
    }

  if (g_strcmp0 (self->status_text, text) != 0)
    {
      g_free (self->status_text);
      self->status_text = g_strdup (text);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATUS_TEXT]);
    }

  switch (status)
    {
    case TW_AGENT_STATUS_STARTING:
      state = TW_AGENT_TERMINAL_STARTING;
      break;

    case TW_AGENT_STATUS_RUNNING:
      state = TW_AGENT_TERMINAL_RUNNING;
      break;

    case TW_AGENT_STATUS_EXITED:
      state = self->exit_code == 0 ? TW_AGENT_TERMINAL_EXITED : TW_AGENT_TERMINAL_FAILED;
      break;

    case TW_AGENT_STATUS_FAILED:
    default:
      state = TW_AGENT_TERMINAL_FAILED;
      break;
    }

  tw_agent_terminal_set_status (self->terminal, state, text);
}

static char *
running_text (TwAgent *self)
{
  if (self->stopping)
    return g_strdup (_("Stopping…"));

  if (self->n_calls == 0)
    return g_strdup (_("Running"));

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Running · %u browser call",
                                       "Running · %u browser calls", self->n_calls),
                          self->n_calls);
}

static void
update_running_text (TwAgent *self)
{
  g_autofree char *text = NULL;

  if (self->status != TW_AGENT_STATUS_RUNNING)
    return;

  text = running_text (self);
  set_status (self, TW_AGENT_STATUS_RUNNING, text);
}

/* Deletes a file made for one run and forgets its path. */
static void
remove_run_file (char **path)
{
  if (*path == NULL)
    return;

  g_unlink (*path);
  g_clear_pointer (path, g_free);
}

/* The token and the files made for one run go away together: after this
 * the agent's requests get 401 and nothing of it is left on disk. */
static void
revoke_token (TwAgent *self)
{
  if (self->token != NULL)
    {
      tw_mcp_server_remove_client (self->server, self->token);
      g_clear_pointer (&self->token, g_free);
      if (TW_IS_BROWSER (self->service))
        tw_browser_remove_agent (TW_BROWSER (self->service), self->id);
    }

  remove_run_file (&self->mcp_config_path);
  remove_run_file (&self->config_path);
}

static void
fail (TwAgent    *self,
      const char *text,
      const char *notice)
{
  revoke_token (self);
  self->pid = 0;
  self->exit_code = -1;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXIT_CODE]);

  if (notice != NULL)
    tw_agent_terminal_add_notice (self->terminal, notice);

  set_status (self, TW_AGENT_STATUS_FAILED, text);
}

/* Launching */

static void
spawned_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(TwAgent) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  GPid pid;

  pid = tw_agent_terminal_spawn_finish (TW_AGENT_TERMINAL (object), result, &error);

  /* Stopped while starting: stop() cleaned up already. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (error != NULL)
    {
      g_autofree char *notice = g_strdup_printf (_("Could not start %s: %s"),
                                                 self->command_line, error->message);

      fail (self, _("Could not start"), notice);
      return;
    }

  self->pid = pid;
  register_process_group (pid);
  text = running_text (self);
  set_status (self, TW_AGENT_STATUS_RUNNING, text);
}

/* Writes the files the agent reads its MCP set-up from: the Claude-style
 * MCP configuration, and the preset's own configuration file when it has
 * one. Both hold the token of @values, in the user's private directory;
 * @values gains their paths. */
static gboolean
write_config_files (TwAgent              *self,
                    TwAgentPresetValues  *values,
                    GError              **error)
{
  g_autofree char *dir = tw_agent_dup_config_dir ();
  g_autofree char *mcp_config = tw_mcp_snippet_claude_config (values->url, values->token);
  g_autofree char *mcp_template = g_strdup_printf ("%s-XXXXXX.mcp.json", self->id);
  g_autofree char *template = NULL;
  g_autofree char *contents = NULL;

  if (!tw_agent_make_config_dir (dir, error))
    return FALSE;

  self->mcp_config_path = tw_agent_write_private_file (dir, mcp_template, mcp_config, error);
  if (self->mcp_config_path == NULL)
    return FALSE;

  values->mcp_config_path = self->mcp_config_path;

  if (!tw_agent_preset_has_config (self->preset))
    return TRUE;

  /* The file cannot name itself ({configFile} is for args and env), so it
   * is written before its path is known to the expansion. */
  contents = tw_agent_preset_build_config (self->preset, values, error);
  if (contents == NULL)
    return FALSE;

  template = g_strdup_printf ("%s-XXXXXX.%s.json", self->id, tw_agent_preset_get_id (self->preset));
  self->config_path = tw_agent_write_private_file (dir, template, contents, error);
  if (self->config_path == NULL)
    return FALSE;

  values->config_path = self->config_path;

  return TRUE;
}

/* The agent's environment: where Tabwright's MCP server is and its token,
 * then the preset's own variables. */
static GStrvBuilder *
build_env (TwAgent                   *self,
           const TwAgentPresetValues *values,
           GError                   **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) preset_env = tw_agent_preset_build_env (self->preset, values, error);
  g_autofree char *url_variable = NULL;
  g_autofree char *token_variable = NULL;
  g_autofree char *config_variable = NULL;

  if (preset_env == NULL)
    return NULL;

  url_variable = g_strconcat ("TABWRIGHT_MCP_URL=", values->url, NULL);
  token_variable = g_strconcat ("TABWRIGHT_MCP_TOKEN=", values->token, NULL);
  config_variable = g_strconcat ("TABWRIGHT_MCP_CONFIG=", values->mcp_config_path, NULL);
  g_strv_builder_add_many (builder, url_variable, token_variable, config_variable, NULL);
  g_strv_builder_addv (builder, (const char **) preset_env);

  return g_steal_pointer (&builder);
}

/* Lets the agent in: its token works from its first request on, and on a
 * browser, tabs can be handed to it while it runs, under its preset's say
 * of what it may do without asking the person. */
static void
admit_agent (TwAgent *self)
{
  tw_mcp_server_add_client (self->server, self->token, self->id, self->name, self->service);

  if (TW_IS_BROWSER (self->service))
    {
      const TwAgentPolicy policy = {
        tw_agent_preset_get_allowed_sites (self->preset),
        tw_agent_preset_get_approve (self->preset),
        tw_agent_preset_get_approval_timeout (self->preset),
        tw_agent_preset_get_session (self->preset),
      };

      tw_browser_add_agent (TW_BROWSER (self->service), self->id, self->name);
      tw_browser_set_agent_policy (TW_BROWSER (self->service), self->id, &policy);
    }
}

static void
launch (TwAgent    *self,
        const char *program_path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GStrvBuilder) env_builder = NULL;
  g_autofree char *url = tw_mcp_server_dup_url (self->server);
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  TwAgentPresetValues values = { 0 };

  g_assert (self->token == NULL);

  self->token = tw_mcp_generate_token ();
  values.url = url;
  values.token = self->token;
  values.workspace = self->workspace;

  if (!write_config_files (self, &values, &error))
    goto failed;

  argv = tw_agent_preset_build_argv (self->preset, self->command, program_path, &values, &error);
  if (argv == NULL)
    goto failed;

  /* Wherever the program was found, that is what runs. */
  if (program_path != NULL)
    {
      g_free (argv[0]);
      argv[0] = g_strdup (program_path);
    }

  env_builder = build_env (self, &values, &error);
  if (env_builder == NULL)
    goto failed;

  g_free (self->command_line);
  self->command_line = tw_agent_quote_command_line ((const char * const *) argv);

  if (tw_agent_preset_in_flatpak ())
    {
      char **host_argv;

      /* VTE sets TERM in the sandbox, which the host never sees. */
      g_strv_builder_add_many (env_builder, "TERM=xterm-256color", "COLORTERM=truecolor", NULL);
      env = g_strv_builder_end (env_builder);
      host_argv = tw_agent_build_host_argv ((const char * const *) argv,
                                            (const char * const *) env, self->workspace);
      g_strfreev (argv);
      argv = host_argv;
    }
  else
    {
      env = g_strv_builder_end (env_builder);
    }

  admit_agent (self);
  tw_agent_terminal_spawn_async (self->terminal, self->workspace,
                                 (const char * const *) argv, (const char * const *) env,
                                 self->cancellable, spawned_cb, g_object_ref (self));
  return;

failed:
  fail (self, _("Could not start"), error->message);
}

static void
located_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  TwAgentPreset *preset = TW_AGENT_PRESET (object);
  g_autoptr(TwAgent) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  path = tw_agent_preset_locate_finish (preset, result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (error != NULL)
    {
      fail (self, _("Could not start"), error->message);
      return;
    }

  if (path == NULL && self->command == NULL && !tw_agent_preset_get_needs_command (preset))
    {
      const char *install = tw_agent_preset_get_install_command (preset);
      g_autofree char *notice = NULL;
      g_autofree char *text = NULL;

      text = g_strdup_printf (_("%s is not installed"), tw_agent_preset_get_name (preset));
      if (install != NULL)
        notice = g_strdup_printf (_("%s is not installed: “%s” is not in PATH.\n"
                                    "Install it with: %s\n"
                                    "Then press Restart."),
                                  tw_agent_preset_get_name (preset),
                                  tw_agent_preset_get_program (preset), install);
      else
        notice = g_strdup_printf (_("%s is not installed: “%s” is not in PATH."),
                                  tw_agent_preset_get_name (preset),
                                  tw_agent_preset_get_program (preset));

      fail (self, text, notice);
      return;
    }

  /* A command whose program is not found still gets its chance: the
   * spawn error then says precisely what is wrong. */
  launch (self, path);
}

void
tw_agent_start (TwAgent *self)
{
  g_return_if_fail (TW_IS_AGENT (self));

  if (self->status == TW_AGENT_STATUS_STARTING && self->started)
    return;
  if (self->status == TW_AGENT_STATUS_RUNNING)
    return;

  self->started = TRUE;
  self->stopping = FALSE;
  self->exit_code = -1;
  self->pid = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXIT_CODE]);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  set_status (self, TW_AGENT_STATUS_STARTING, _("Starting…"));

  tw_agent_preset_locate_async (self->preset, self->command, self->workspace, self->cancellable,
                                located_cb, g_object_ref (self));
}

void
tw_agent_restart (TwAgent *self)
{
  g_return_if_fail (TW_IS_AGENT (self));

  if (self->status == TW_AGENT_STATUS_RUNNING ||
      (self->status == TW_AGENT_STATUS_STARTING && self->started))
    return;

  tw_agent_terminal_add_notice (self->terminal, _("Restarting with a new token…"));
  tw_agent_start (self);
}

void
tw_agent_stop (TwAgent *self)
{
  g_return_if_fail (TW_IS_AGENT (self));

  g_cancellable_cancel (self->cancellable);

  if (self->status == TW_AGENT_STATUS_RUNNING && self->pid > 0)
    {
      /* What closing a terminal does. VTE made the agent the leader of a
       * session and a process group of its own, so the whole group hears. */
      kill (-self->pid, SIGHUP);
      kill (self->pid, SIGHUP);
      g_timeout_add_once (STOP_GRACE_MS, kill_process_group_cb, GINT_TO_POINTER (self->pid));
      self->stopping = TRUE;
      revoke_token (self);
      update_running_text (self);
      return;
    }

  if (self->status == TW_AGENT_STATUS_STARTING && self->started)
    {
      revoke_token (self);
      self->exit_code = -1;
      set_status (self, TW_AGENT_STATUS_FAILED, _("Stopped before it started"));
      return;
    }

  revoke_token (self);
}

static void
child_exited_cb (TwAgent         *self,
                 int              wait_status,
                 TwAgentTerminal *terminal)
{
  g_autofree char *text = NULL;
  g_autofree char *notice = NULL;

  if (self->pid > 0)
    forget_process_group_if_empty (self->pid);

  if (self->status != TW_AGENT_STATUS_RUNNING)
    return;

  if (WIFEXITED (wait_status))
    {
      self->exit_code = WEXITSTATUS (wait_status);
      text = g_strdup_printf (_("Exited with code %d"), self->exit_code);
    }
  else if (WIFSIGNALED (wait_status))
    {
      self->exit_code = 128 + WTERMSIG (wait_status);
      text = g_strdup_printf (_("Ended by signal %d (%s)"), WTERMSIG (wait_status),
                              g_strsignal (WTERMSIG (wait_status)));
    }
  else
    {
      self->exit_code = wait_status;
      text = g_strdup_printf (_("Exited with status %d"), wait_status);
    }

  revoke_token (self);
  self->pid = 0;
  self->stopping = FALSE;

  notice = g_strdup_printf (_("%s — its token no longer works."), text);
  tw_agent_terminal_add_notice (self->terminal, notice);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXIT_CODE]);
  set_status (self, TW_AGENT_STATUS_EXITED, text);
}

static void
terminal_restart_cb (TwAgent         *self,
                     TwAgentTerminal *terminal)
{
  tw_agent_restart (self);
}

static void
terminal_stop_cb (TwAgent         *self,
                  TwAgentTerminal *terminal)
{
  tw_agent_stop (self);
}

static void
call_started_cb (TwAgent     *self,
                 guint64      serial,
                 const char  *agent_id,
                 const char  *agent_name,
                 const char  *tool,
                 JsonObject  *arguments,
                 TwMcpServer *server)
{
  if (g_strcmp0 (agent_id, self->id) != 0)
    return;

  self->n_calls++;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_CALLS]);
  update_running_text (self);
}

/* Getters */

const char *
tw_agent_get_id (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), NULL);

  return self->id;
}

const char *
tw_agent_get_name (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), NULL);

  return self->name;
}

TwAgentPreset *
tw_agent_get_preset (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), NULL);

  return self->preset;
}

const char *
tw_agent_get_workspace (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), NULL);

  return self->workspace;
}

TwAgentStatus
tw_agent_get_status (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), TW_AGENT_STATUS_FAILED);

  return self->status;
}

int
tw_agent_get_exit_code (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), -1);

  return self->exit_code;
}

const char *
tw_agent_get_status_text (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), NULL);

  return self->status_text;
}

const char *
tw_agent_get_token (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), NULL);

  return self->token;
}

const char *
tw_agent_get_config_path (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), NULL);

  return self->mcp_config_path;
}

const char *
tw_agent_get_command_line (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), NULL);

  return self->command_line;
}

guint
tw_agent_get_n_calls (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), 0);

  return self->n_calls;
}

GPid
tw_agent_get_pid (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), 0);

  return self->pid;
}

TwAgentTerminal *
tw_agent_get_terminal (TwAgent *self)
{
  g_return_val_if_fail (TW_IS_AGENT (self), NULL);

  return self->terminal;
}

/* GObject */

static void
tw_agent_dispose (GObject *object)
{
  TwAgent *self = TW_AGENT (object);

  if (self->server != NULL)
    tw_agent_stop (self);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  if (self->server != NULL)
    g_signal_handlers_disconnect_by_data (self->server, self);
  if (self->terminal != NULL)
    g_signal_handlers_disconnect_by_data (self->terminal, self);

  g_clear_object (&self->terminal);
  g_clear_object (&self->server);
  g_clear_object (&self->service);
  g_clear_object (&self->preset);

  G_OBJECT_CLASS (tw_agent_parent_class)->dispose (object);
}

static void
tw_agent_finalize (GObject *object)
{
  TwAgent *self = TW_AGENT (object);

  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->workspace, g_free);
  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->status_text, g_free);
  g_clear_pointer (&self->command_line, g_free);
  g_clear_pointer (&self->token, g_free);
  g_clear_pointer (&self->mcp_config_path, g_free);
  g_clear_pointer (&self->config_path, g_free);

  G_OBJECT_CLASS (tw_agent_parent_class)->finalize (object);
}

static void
tw_agent_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  TwAgent *self = TW_AGENT (object);

  switch (prop_id)
    {
    case PROP_STATUS:
      g_value_set_int (value, self->status);
      break;

    case PROP_EXIT_CODE:
      g_value_set_int (value, self->exit_code);
      break;

    case PROP_STATUS_TEXT:
      g_value_set_string (value, self->status_text);
      break;

    case PROP_N_CALLS:
      g_value_set_uint (value, self->n_calls);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_agent_class_init (TwAgentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_agent_dispose;
  object_class->finalize = tw_agent_finalize;
  object_class->get_property = tw_agent_get_property;

  /* A TwAgentStatus. */
  properties[PROP_STATUS] =
    g_param_spec_int ("status", NULL, NULL,
                      TW_AGENT_STATUS_STARTING, TW_AGENT_STATUS_FAILED, TW_AGENT_STATUS_STARTING,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_EXIT_CODE] =
    g_param_spec_int ("exit-code", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_STATUS_TEXT] =
    g_param_spec_string ("status-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_N_CALLS] =
    g_param_spec_uint ("n-calls", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tw_agent_init (TwAgent *self)
{
  self->status = TW_AGENT_STATUS_STARTING;
  self->exit_code = -1;
  self->cancellable = g_cancellable_new ();
}

TwAgent *
tw_agent_new (TwMcpServer      *server,
              TwBrowserService *service,
              TwAgentPreset    *preset,
              const char       *command,
              const char       *workspace,
              const char       *id,
              const char       *name)
{
  TwAgent *self;

  g_return_val_if_fail (TW_IS_MCP_SERVER (server), NULL);
  g_return_val_if_fail (TW_IS_BROWSER_SERVICE (service), NULL);
  g_return_val_if_fail (TW_IS_AGENT_PRESET (preset), NULL);
  g_return_val_if_fail (workspace != NULL && g_path_is_absolute (workspace), NULL);
  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  self = g_object_new (TW_TYPE_AGENT, NULL);
  self->server = g_object_ref (server);
  self->service = g_object_ref (service);
  self->preset = g_object_ref (preset);
  self->command = g_strdup (command);
  self->workspace = g_strdup (workspace);
  self->id = g_strdup (id);
  self->name = g_strdup (name);
  self->terminal = g_object_ref_sink (tw_agent_terminal_new ());
  self->command_line = g_strdup (command != NULL ? command : tw_agent_preset_get_program (preset));

  g_signal_connect_object (self->terminal, "child-exited", G_CALLBACK (child_exited_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->terminal, "restart", G_CALLBACK (terminal_restart_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->terminal, "stop", G_CALLBACK (terminal_stop_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (server, "call-started", G_CALLBACK (call_started_cb), self,
                           G_CONNECT_SWAPPED);

  return self;
}
