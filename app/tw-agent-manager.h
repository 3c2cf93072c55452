/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tw-agent.h"

G_BEGIN_DECLS

/* The agents of one workspace: launches them from presets, names them
 * ("Claude Code #2"), and keeps the window's agent widgets in step: the
 * Launch Agent button (TwAgentLauncher) and the pane of agent terminals
 * (TwAgentPane). */

#define TW_TYPE_AGENT_MANAGER (tw_agent_manager_get_type ())
G_DECLARE_FINAL_TYPE (TwAgentManager, tw_agent_manager, TW, AGENT_MANAGER, GObject)

TwAgentManager *tw_agent_manager_new          (TwMcpServer       *server,
                                               TwBrowserService  *service,
                                               const char        *workspace,
                                               GListModel        *presets);

GtkWidget      *tw_agent_manager_get_launcher (TwAgentManager    *self);
GtkWidget      *tw_agent_manager_get_pane     (TwAgentManager    *self);
/* A GListModel of TwAgent, in launch order; closed agents leave it. */
GListModel     *tw_agent_manager_get_agents   (TwAgentManager    *self);

/* Starts an agent from the preset @preset_id; @command (may be NULL)
 * replaces the preset's program. Fails for an unknown preset or a preset
 * that needs a command when there is none; a program that is not installed
 * still gives an agent, whose pane says how to install it. */
TwAgent        *tw_agent_manager_launch       (TwAgentManager    *self,
                                               const char        *preset_id,
                                               const char        *command,
                                               GError           **error);
/* The app's settings (NULL for none), where the network sessions the person
 * chooses in agents' menus are kept for their presets, across runs
 * (tw-agent-session-menu.h). */
void            tw_agent_manager_set_settings (TwAgentManager    *self,
                                               GSettings         *settings);
/* Stops every agent and revokes their tokens, e.g. when the window closes. */
void            tw_agent_manager_stop_all     (TwAgentManager    *self);

/* Splits --launch-agent's PRESET[:COMMAND] and checks PRESET against
 * @presets. */
gboolean        tw_agent_manager_parse_launch (GListModel        *presets,
                                               const char        *spec,
                                               char             **preset_id,
                                               char             **command,
                                               GError           **error);

G_END_DECLS
