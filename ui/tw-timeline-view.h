/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "tw-replay.h"
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
/* Runs the selected step's session, as shown, up to that step, again in a
 * new tab, as the Replay button does; each row is marked as its step is
 * replayed, and a step that differs is selected, with what was expected
 * and what was found. */
void        tw_timeline_view_replay       (TwTimelineView *self);
gboolean    tw_timeline_view_get_replaying (TwTimelineView *self);
/* What the last replay marked the step at @position with. */
TwReplayStatus tw_timeline_view_get_replay_status (TwTimelineView *self,
                                                   guint           position);
/* The line that says how the last replay went, or NULL before one. */
const char *tw_timeline_view_get_replay_summary (TwTimelineView *self);
/* Expected and found, when the step shown is the one that differed. */
const char *tw_timeline_view_get_difference (TwTimelineView *self);
/* Whether the pictures of the step shown are on screen (loaded). */
gboolean    tw_timeline_view_get_pictures_shown (TwTimelineView *self);

G_END_DECLS
