/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How the person tells agents apart at a glance (issue 32): each agent of
 * a workspace gets a colour, an index into the window's palette, and a
 * mark, one letter or digit shown with the colour for people who cannot
 * tell the colours apart. Both are distinct among the running agents, and
 * an agent keeps its own for the whole session: when it ends and runs
 * again it gets them back unless a running agent took them meanwhile. A
 * colour is a number into one palette, libadwaita's accent colours, which
 * the window (ui/tw-agent-colours.c) and the timeline's video draw in. */

typedef struct _TwAgentMarks TwAgentMarks;

TwAgentMarks *tw_agent_marks_new      (guint          n_colours);
void          tw_agent_marks_free     (TwAgentMarks  *self);

/* Gives the running agent @agent_id (display name @name, e.g.
 * "Claude Code #2") its colour and mark. */
void          tw_agent_marks_take     (TwAgentMarks  *self,
                                       const char    *agent_id,
                                       const char    *name);
/* The agent ended: its colour and mark are free for the next agent, and
 * still its own while nobody takes them. */
void          tw_agent_marks_release  (TwAgentMarks  *self,
                                       const char    *agent_id);
/* The colour and mark of @agent_id, running or ended; FALSE for an agent
 * never taken (the person, external clients). */
gboolean      tw_agent_marks_lookup   (TwAgentMarks  *self,
                                       const char    *agent_id,
                                       int           *colour,
                                       const char   **mark);

/* The palette: "#9141ac" for colour 0; colours wrap around. */
const char   *tw_agent_marks_get_colour_hex (int     colour);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwAgentMarks, tw_agent_marks_free)

G_END_DECLS
