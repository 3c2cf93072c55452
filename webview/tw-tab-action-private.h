/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "tw-tab-action.h"

G_BEGIN_DECLS

/* For the tab, which builds its actions: the one place where the
 * arguments of a call and the page's answers become a TwTabAction. */

/* From the command's arguments, as the MCP edge checked them. */
TwTabAction *tw_tab_action_new                (const char   *browser_id,
                                               TwTabCommand  command,
                                               const char   *agent,
                                               const char   *agent_id,
                                               guint64       call_id,
                                               JsonObject   *params);

/* The page runtime's description of an element ({role, name, rect}): its
 * role, name and box; with @drop_target, only its box, as a drag's drop
 * target. */
void         tw_tab_action_take_element       (TwTabAction  *action,
                                               JsonObject   *element,
                                               gboolean      drop_target);

/* The answer of the action in the page: the box after scrolling into view
 * ("box"), the point acted on ("point") and the element ("element", or a
 * drag's "source"). */
void         tw_tab_action_take_acted         (TwTabAction  *action,
                                               JsonObject   *answer);

void         tw_tab_action_finish             (TwTabAction  *action,
                                               const GError *error);

G_END_DECLS
