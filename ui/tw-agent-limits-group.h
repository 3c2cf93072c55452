/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Preferences, "Agents' Limits" (issue 32): a workspace's say over its
 * agents, bound to its settings: the sites they may reach, the steps that
 * wait for the person's OK, how long those wait, and whether each agent
 * runs on a network session of its own. */

#define TW_TYPE_AGENT_LIMITS_GROUP (tw_agent_limits_group_get_type ())
G_DECLARE_FINAL_TYPE (TwAgentLimitsGroup, tw_agent_limits_group, TW, AGENT_LIMITS_GROUP,
                      AdwPreferencesGroup)

GtkWidget *tw_agent_limits_group_new (GSettings *workspace_settings);

G_END_DECLS
