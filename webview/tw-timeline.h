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
/* The calls of @agent_id's session in this run, oldest first; finish
 * with tw_timeline_load_finish(). browser_not_found when none is
 * recorded. */
void        tw_timeline_load_session_async (TwTimeline          *self,
                                            const char          *agent_id,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
GListModel *tw_timeline_load_finish    (TwTimeline          *self,
                                        GAsyncResult        *result,
                                        GError             **error);

/* Completes once every call that has ended is written (or after a bound):
 * what was just done can be read back. */
void        tw_timeline_settle_async   (TwTimeline          *self,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
gboolean    tw_timeline_settle_finish  (TwTimeline          *self,
                                        GAsyncResult        *result,
                                        GError             **error);

/* Flows: stretches of sessions saved under a name (flows/NAME.jsonl in
 * the timeline's folder, the same lines, without pictures), kept while
 * the timeline makes room, for replaying. Names are 1 to 64 letters,
 * digits, spaces, "-", "_" or "."; anything else is
 * browser_invalid_argument. */
gboolean    tw_timeline_check_flow_name (const char          *name,
                                         GError             **error);
char       *tw_timeline_dup_flow_path  (TwTimeline          *self,
                                        const char          *name,
                                        GError             **error);
/* Finish with tw_timeline_load_finish(); browser_not_found names the
 * saved flows. */
void        tw_timeline_load_flow_async (TwTimeline          *self,
                                         const char          *name,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
/* Saves @steps (TwTimelineStep) as the flow @name, replacing one of that
 * name. */
void        tw_timeline_save_flow_async (TwTimeline          *self,
                                         const char          *name,
                                         GListModel          *steps,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
gboolean    tw_timeline_save_flow_finish (TwTimeline          *self,
                                          GAsyncResult        *result,
                                          GError             **error);

/* The browser whose calls it records, or NULL once it is gone. */
TwBrowser  *tw_timeline_get_browser    (TwTimeline          *self);

G_END_DECLS
