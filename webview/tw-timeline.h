/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-browser.h"
#include "tw-timeline-step.h"

G_BEGIN_DECLS

/* The timeline of a workspace: every tool call its agents make, with its
 * arguments, result, duration and element, and for calls that act on a
 * tab a small picture of the tab before and after. Kept in a folder of the
 * workspace's data, one JSON Lines file per agent session (a line per call,
 * in order) and the pictures beside them, within a size the person sets;
 * the oldest pictures, then the oldest sessions, make room.
 *
 * The pictures are taken from the tab without blocking anything (WebKit's
 * snapshot, then scaled and written in a worker thread), and nothing at all
 * is taken while the size limit is 0. */

#define TW_TYPE_TIMELINE (tw_timeline_get_type ())
G_DECLARE_FINAL_TYPE (TwTimeline, tw_timeline, TW, TIMELINE, GObject)

/* The pictures are at most this wide, and at most this many are kept. */
#define TW_TIMELINE_IMAGE_WIDTH   320
#define TW_TIMELINE_MAX_IMAGES    2000

TwTimeline *tw_timeline_new            (TwBrowser  *browser,
                                        const char *dir);
const char *tw_timeline_get_dir        (TwTimeline *self);
/* Bytes the folder may hold; 0 records nothing. */
guint64     tw_timeline_get_max_bytes  (TwTimeline *self);
void        tw_timeline_set_max_bytes  (TwTimeline *self,
                                        guint64     max_bytes);
/* Calls seen but not yet written. */
guint       tw_timeline_get_pending    (TwTimeline *self);
/* The JSON Lines file of @agent_id's session in this run of the app. */
char       *tw_timeline_dup_session_path (TwTimeline *self,
                                          const char *agent_id);

/* Reads back every call this run of the app recorded, all sessions
 * together, oldest first: a GListModel of TwTimelineStep. Read in a worker
 * thread. */
void        tw_timeline_load_async     (TwTimeline          *self,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
GListModel *tw_timeline_load_finish    (TwTimeline          *self,
                                        GAsyncResult        *result,
                                        GError             **error);

G_END_DECLS
