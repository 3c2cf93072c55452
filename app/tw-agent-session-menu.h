/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-agent.h"
#include "tw-browser.h"

G_BEGIN_DECLS

/* The network session of an agent, which the person chooses in the agent's
 * menu (its terminal's status bar, issue 32): the workspace's, or one of
 * its own, named after it (or the one its preset names). The choice
 * applies to the tabs the agent opens next (the tabs it has keep theirs)
 * and is kept for its preset: agents launched from it later, and this one
 * when it runs again, start on it. With @settings (the app's), it is kept
 * across runs too ("agent-preset-sessions"). The menu's action is
 * "agent.session" (s), its state the agent's session. */
void tw_agent_session_menu_attach (TwAgent    *agent,
                                   TwBrowser  *browser,
                                   GSettings  *settings);
/* Brings the menu up to date with the agent's session, e.g. once it runs
 * again. */
void tw_agent_session_menu_update (TwAgent    *agent);

/* Puts the sessions kept in @settings on the presets of @presets. */
void tw_agent_session_menu_restore (GListModel *presets,
                                    GSettings  *settings);

G_END_DECLS
