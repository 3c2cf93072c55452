/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* The "Launch Agent" menu button of a window's header bar: one row per
 * agent preset, saying whether its program is installed and, when it is not,
 * how to install it. The widget only shows presets; whoever fills it in
 * (TwAgentManager) launches the agents.
 *
 * Signals:
 *   launch (const char *preset_id, const char *command)  the person picked a
 *           preset (@command is NULL, or what they typed for a preset that
 *           needs one)
 *   opened ()  the menu is about to show: a good time to check again what
 *              is installed
 *   setup (const char *preset_id, gboolean then_launch)  the person asked to
 *           fix what set_problem() said (then_launch: they picked the preset
 *           itself, and want it started once that is done) */

#define TW_TYPE_AGENT_LAUNCHER (tw_agent_launcher_get_type ())
G_DECLARE_FINAL_TYPE (TwAgentLauncher, tw_agent_launcher, TW, AGENT_LAUNCHER, AdwBin)

TwAgentLauncher *tw_agent_launcher_new           (void);

void             tw_agent_launcher_add_preset    (TwAgentLauncher *self,
                                                  const char      *preset_id,
                                                  const char      *name,
                                                  const char      *description,
                                                  gboolean         needs_command);
/* Until this is called a preset shows as being checked. */
void             tw_agent_launcher_set_installed (TwAgentLauncher *self,
                                                  const char      *preset_id,
                                                  gboolean         installed,
                                                  const char      *install_command);
/* An installed preset that would start without what it needs to reach the
 * tabs (e.g. Gemini CLI without Tabwright's extension): @problem shows under
 * its name with a button @action that emits setup, and picking the preset
 * emits setup too instead of launching it. NULL @problem: nothing missing. */
void             tw_agent_launcher_set_problem   (TwAgentLauncher *self,
                                                  const char      *preset_id,
                                                  const char      *problem,
                                                  const char      *action);
void             tw_agent_launcher_remove_all    (TwAgentLauncher *self);

/* Asks the person for the command to run with @preset_id, then emits
 * launch. */
void             tw_agent_launcher_ask_command   (TwAgentLauncher *self,
                                                  const char      *preset_id);

G_END_DECLS
