/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* An agent's badge: its colour's shape with its mark inside
 * (tw-agent-colours.h). It keeps its room but draws nothing while it has
 * no colour (-1): the person and external clients have none. */

#define TW_TYPE_AGENT_BADGE (tw_agent_badge_get_type ())
G_DECLARE_FINAL_TYPE (TwAgentBadge, tw_agent_badge, TW, AGENT_BADGE, GtkWidget)

GtkWidget  *tw_agent_badge_new        (int           size);

/* Shows @colour (-1 for none) and @mark; @name, the agent's, is what
 * screen readers say. */
void        tw_agent_badge_set_agent  (TwAgentBadge *self,
                                       int           colour,
                                       const char   *mark,
                                       const char   *name);
int         tw_agent_badge_get_colour (TwAgentBadge *self);
const char *tw_agent_badge_get_mark   (TwAgentBadge *self);

G_END_DECLS
