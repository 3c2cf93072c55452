/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tw-browser-tab.h"
#include "tw-tab-action.h"

G_BEGIN_DECLS

/* What an agent does in a tab, drawn by GTK above its web view and never
 * injected into the page: while an action runs, a pointer glides to the
 * element, a box outlines it and a caption says who does what
 * ("Claude Code: click “Save”"); typing shows the text going in, scrolls
 * and drags show their path. It follows the tab's action-* signals and
 * lets go a moment after the action ends. It takes no input: the page
 * under it stays the person's to use. */

#define TW_TYPE_ACTION_OVERLAY (tw_action_overlay_get_type ())
G_DECLARE_FINAL_TYPE (TwActionOverlay, tw_action_overlay, TW, ACTION_OVERLAY, GtkWidget)

GtkWidget    *tw_action_overlay_new            (TwBrowserTab     *tab);

TwBrowserTab *tw_action_overlay_get_tab        (TwActionOverlay  *self);

/* Whether the pointer glides and the highlight fades; even when TRUE,
 * nothing moves while the desktop turned animations off
 * (gtk-enable-animations). */
gboolean      tw_action_overlay_get_animations (TwActionOverlay  *self);
void          tw_action_overlay_set_animations (TwActionOverlay  *self,
                                                gboolean          animations);

/* The box the overlay outlines now, in its own coordinates (where it ends
 * up, not where an animation has it on the way), or FALSE when it outlines
 * nothing. For tests and for the person's screenshots to agree. */
gboolean      tw_action_overlay_get_highlight  (TwActionOverlay  *self,
                                                graphene_rect_t  *rect);
/* The palette colour (tw-agent-colours.h) of the agent whose action it
 * shows, or -1 when it shows none or the person's. */
int           tw_action_overlay_get_agent_colour (TwActionOverlay *self);
/* The caption showing now, or NULL. */
const char   *tw_action_overlay_get_caption    (TwActionOverlay  *self);

/* Outlines @rect (in CSS pixels of the page's viewport) for a moment with
 * @caption, e.g. when the person picks an entry of the activity feed. */
void          tw_action_overlay_flash          (TwActionOverlay       *self,
                                                const graphene_rect_t *rect,
                                                const char            *caption);

G_END_DECLS
