/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* The agents of a workspace, beside its tabs: one page per agent (its
 * TwAgentTerminal), with a tab strip to switch between them. The pane shows
 * only while it has agents.
 *
 * Signals:
 *   close-agent (GtkWidget *child)  the person closed an agent's page; the
 *                                   page is gone when handlers run */

#define TW_TYPE_AGENT_PANE (tw_agent_pane_get_type ())
G_DECLARE_FINAL_TYPE (TwAgentPane, tw_agent_pane, TW, AGENT_PANE, AdwBin)

TwAgentPane *tw_agent_pane_new          (void);

/* Adds @child as a new page, selects it and shows the pane. */
AdwTabPage  *tw_agent_pane_add          (TwAgentPane *self,
                                         GtkWidget   *child);
AdwTabPage  *tw_agent_pane_get_page     (TwAgentPane *self,
                                         GtkWidget   *child);
void         tw_agent_pane_select       (TwAgentPane *self,
                                         GtkWidget   *child);
guint        tw_agent_pane_get_n_agents (TwAgentPane *self);

G_END_DECLS
