/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <vte/vte.h>

G_BEGIN_DECLS

/* The terminal one agent runs in, with a status bar under it: how the agent
 * is doing, how it ended, and buttons to stop or restart it. The widget
 * knows nothing of agents or tokens; whoever launches the agent (TwAgent)
 * spawns the process here and tells the widget what to show.
 *
 * Signals:
 *   child-exited (int wait_status)  the process ended
 *   restart ()                      the person asked to run it again
 *   stop ()                         the person asked to stop it */

typedef enum
{
  TW_AGENT_TERMINAL_STARTING,
  TW_AGENT_TERMINAL_RUNNING,
  /* Ended with status 0. */
  TW_AGENT_TERMINAL_EXITED,
  /* Ended otherwise, or never started. */
  TW_AGENT_TERMINAL_FAILED,
} TwAgentTerminalState;

#define TW_TYPE_AGENT_TERMINAL (tw_agent_terminal_get_type ())
G_DECLARE_FINAL_TYPE (TwAgentTerminal, tw_agent_terminal, TW, AGENT_TERMINAL, AdwBin)

TwAgentTerminal      *tw_agent_terminal_new          (void);

VteTerminal          *tw_agent_terminal_get_vte      (TwAgentTerminal      *self);

/* Runs @argv in @cwd on a new pseudo-terminal, with @env added to the
 * environment. Finishes with the process id. */
void                  tw_agent_terminal_spawn_async  (TwAgentTerminal      *self,
                                                      const char           *cwd,
                                                      const char * const   *argv,
                                                      const char * const   *env,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
GPid                  tw_agent_terminal_spawn_finish (TwAgentTerminal      *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);

void                  tw_agent_terminal_set_status   (TwAgentTerminal      *self,
                                                      TwAgentTerminalState  state,
                                                      const char           *text);
TwAgentTerminalState  tw_agent_terminal_get_state    (TwAgentTerminal      *self);
const char           *tw_agent_terminal_get_text     (TwAgentTerminal      *self);

/* Writes a line of Tabwright's own into the terminal, set apart from what
 * the agent prints (e.g. how to install a missing agent). */
void                  tw_agent_terminal_add_notice   (TwAgentTerminal      *self,
                                                      const char           *text);

/* The agent's colour (-1 for none), mark and name (tw-agent-colours.h),
 * shown as a stripe along the terminal's top and a badge in its status
 * bar. */
void                  tw_agent_terminal_set_agent    (TwAgentTerminal      *self,
                                                      int                   colour,
                                                      const char           *mark,
                                                      const char           *name);
int                   tw_agent_terminal_get_colour   (TwAgentTerminal      *self);

/* The agent's menu, from a button in the status bar; NULL for none. Its
 * actions are looked up from the terminal, so insert their group on it.
 * An item whose "custom" attribute starts with "caption" shows its label
 * as a line of explanation rather than as something to choose. */
void                  tw_agent_terminal_set_menu     (TwAgentTerminal      *self,
                                                      GMenuModel           *menu);
GtkMenuButton        *tw_agent_terminal_get_menu_button (TwAgentTerminal   *self);

G_END_DECLS
