/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "tw-browser.h"
#include "tw-timeline.h"

G_BEGIN_DECLS

/* The activity feed of a workspace: every tool call its agents made, with
 * the time, the agent, the tool, the element it went to, how it ended and
 * how long it took, newest first. The person can narrow it to one
 * agent or one tab; choosing an entry emits "entry-activated" so that the
 * window can show its tab and point at the element again. */

#define TW_TYPE_ACTIVITY_FEED (tw_activity_feed_get_type ())
G_DECLARE_FINAL_TYPE (TwActivityFeed, tw_activity_feed, TW, ACTIVITY_FEED, AdwBin)

GtkWidget  *tw_activity_feed_new              (TwBrowser       *browser);

TwBrowser  *tw_activity_feed_get_browser      (TwActivityFeed  *self);

/* The entries the feed shows now, filters applied, newest first: a
 * GListModel of TwActivityEntry. */
GListModel *tw_activity_feed_get_model        (TwActivityFeed  *self);

/* Shows only the calls of the agent @agent_id / of the tab @browser_id;
 * NULL shows them all. The filter menus follow. */
void        tw_activity_feed_set_agent_filter (TwActivityFeed  *self,
                                               const char      *agent_id);
void        tw_activity_feed_set_tab_filter   (TwActivityFeed  *self,
                                               const char      *browser_id);

/* Chooses the entry at @position of the model, as the person does by
 * activating its row. */
void        tw_activity_feed_activate         (TwActivityFeed  *self,
                                               guint            position);

/* The workspace's timeline: with one, the feed offers to open it on the
 * calls it shows (tw_activity_feed_open_timeline()), emits
 * "timeline-opened" with the view, and passes on the view's "show-tab". */
void        tw_activity_feed_set_timeline     (TwActivityFeed  *self,
                                               TwTimeline      *timeline);
void        tw_activity_feed_open_timeline    (TwActivityFeed  *self);

G_END_DECLS
