/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "tw-timeline.h"

G_BEGIN_DECLS

/* A window that steps through the timeline of a workspace: every call of
 * this run, or those of one agent or one tab, each with its element,
 * arguments, result and the pictures of the tab before and after it.
 * "show-tab" (browser id) asks the workspace's window to show the tab of
 * the step on screen. */

#define TW_TYPE_TIMELINE_VIEW (tw_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (TwTimelineView, tw_timeline_view, TW, TIMELINE_VIEW, AdwWindow)

/* @agent_id / @browser_id, when not NULL, narrow the steps shown. */
GtkWidget  *tw_timeline_view_new          (TwTimeline     *timeline,
                                           const char     *agent_id,
                                           const char     *browser_id);
/* The steps shown now: a GListModel of TwTimelineStep, oldest first. */
GListModel *tw_timeline_view_get_steps    (TwTimelineView *self);
/* Shows the step at @position of that model. */
void        tw_timeline_view_select       (TwTimelineView *self,
                                           guint           position);
/* The step shown, or NULL. */
TwTimelineStep *tw_timeline_view_get_selected (TwTimelineView *self);
/* Asks for the tab of the step shown, as the Show Tab button does. */
void        tw_timeline_view_show_tab     (TwTimelineView *self);
/* Whether the pictures of the step shown are on screen (loaded). */
gboolean    tw_timeline_view_get_pictures_shown (TwTimelineView *self);

G_END_DECLS
