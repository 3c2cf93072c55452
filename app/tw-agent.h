/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "tw-agent-preset.h"
#include "tw-agent-terminal.h"
#include "tw-browser-service.h"
#include "tw-mcp-server.h"

G_BEGIN_DECLS

/* One agent the app launched into a workspace: its process, running in a
 * terminal (TwAgentTerminal), and the bearer token that is its alone. The
 * token is registered with the MCP server under the agent's id and name
 * while the process runs, so every tool call it makes is attributed to it
 * (tabs it opens show it as their owner); when the process ends the token
 * is revoked (401) and its generated config files are removed. Restarting
 * runs the same command with a new token.
 *
 * The process gets TABWRIGHT_MCP_URL, TABWRIGHT_MCP_TOKEN and
 * TABWRIGHT_MCP_CONFIG (a Claude Code style MCP config file, 0600) plus
 * whatever its preset adds. Inside Flatpak it runs on the host through
 * flatpak-spawn --host, with that environment passed explicitly. */

typedef enum
{
  TW_AGENT_STATUS_STARTING,
  TW_AGENT_STATUS_RUNNING,
  /* The process ended; the exit code says how. */
  TW_AGENT_STATUS_EXITED,
  /* It never ran: not installed, or it could not be started. */
  TW_AGENT_STATUS_FAILED,
} TwAgentStatus;

#define TW_TYPE_AGENT (tw_agent_get_type ())
G_DECLARE_FINAL_TYPE (TwAgent, tw_agent, TW, AGENT, GObject)

/* @command (may be NULL) replaces the preset's program, as in
 * --launch-agent PRESET:COMMAND. */
TwAgent          *tw_agent_new              (TwMcpServer      *server,
                                             TwBrowserService *service,
                                             TwAgentPreset    *preset,
                                             const char       *command,
                                             const char       *workspace,
                                             const char       *id,
                                             const char       *name);

/* Launches the process; the status goes STARTING, then RUNNING or FAILED. */
void              tw_agent_start            (TwAgent          *self);
/* Runs it again with a new token, once it has ended. */
void              tw_agent_restart          (TwAgent          *self);
/* Hangs up on the process and revokes its token at once. */
void              tw_agent_stop             (TwAgent          *self);

const char       *tw_agent_get_id           (TwAgent          *self);
/* e.g. "Claude Code #2": the owner its tabs show. */
const char       *tw_agent_get_name         (TwAgent          *self);
TwAgentPreset    *tw_agent_get_preset       (TwAgent          *self);
const char       *tw_agent_get_workspace    (TwAgent          *self);
TwAgentStatus     tw_agent_get_status       (TwAgent          *self);
/* The exit status once EXITED (128 + the signal when a signal ended it),
 * otherwise -1. */
int               tw_agent_get_exit_code    (TwAgent          *self);
/* What the status bar says, e.g. "Exited with code 1". */
const char       *tw_agent_get_status_text  (TwAgent          *self);
/* The token and the config file, while the process runs; else NULL. */
const char       *tw_agent_get_token        (TwAgent          *self);
const char       *tw_agent_get_config_path  (TwAgent          *self);
/* The command line it runs (for people: shell-quoted). */
const char       *tw_agent_get_command_line (TwAgent          *self);
/* Tool calls made with this agent's tokens since it was created. */
guint             tw_agent_get_n_calls      (TwAgent          *self);
GPid              tw_agent_get_pid          (TwAgent          *self);

TwAgentTerminal  *tw_agent_get_terminal     (TwAgent          *self);

/* Where generated config files go: $XDG_RUNTIME_DIR/tabwright/agents, or
 * inside Flatpak $XDG_RUNTIME_DIR/app/<app-id>/agents, which the host sees
 * at the same path. */
char             *tw_agent_dup_config_dir   (void);

/* The process groups of the agents this app started that may still have
 * members, for the app's shutdown to end. */
GArray           *tw_agent_dup_process_groups (void);

/* Wraps @argv to run on the Flatpak host: flatpak-spawn --host
 * --watch-bus --directory=@cwd --env=NAME=VALUE… -- @argv. The host does
 * not inherit the sandbox's environment, so @env must hold everything the
 * agent needs (the MCP variables, TERM, the preset's variables). */
char            **tw_agent_build_host_argv  (const char * const *argv,
                                             const char * const *env,
                                             const char         *cwd);

G_END_DECLS
