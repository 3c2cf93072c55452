/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-timeline.h"

G_BEGIN_DECLS

/* Exporting an agent's session of a timeline to a folder a person can
 * share:
 *   calls.jsonl    the calls and their results, a line each, oldest first
 *   images/        the pictures before and after each action (the lines
 *                  name them relative to the folder)
 *   network.har    each tab's network requests as HAR 1.2
 *   console.jsonl  each tab's console messages, a line each
 *   video.webm     the pictures as a VP8 video, a chapter per call (see
 *                  tw_timeline_video_write())
 * Only the calls on @browser_id when it is not NULL. The folder is made
 * when missing; files of these names in it are replaced. The tabs' logs
 * are read on the calling thread, everything is written in a worker
 * thread. browser_not_found when the session recorded no call. */
void     tw_timeline_export_async  (TwTimeline          *timeline,
                                    const char          *agent_id,
                                    const char          *browser_id,
                                    const char          *folder,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data);
/* How many calls were exported, or -1 with @error. */
gssize   tw_timeline_export_finish (TwTimeline          *timeline,
                                    GAsyncResult        *result,
                                    GError             **error);

/* What an export wrote. */
typedef struct
{
  guint calls;
  guint images;
  guint requests;   /* entries of network.har */
  guint console;    /* lines of console.jsonl */
} TwTimelineExportCounts;

/* As tw_timeline_export_finish(), with what was written in @counts. */
gboolean tw_timeline_export_finish_counts (TwTimeline             *timeline,
                                           GAsyncResult           *result,
                                           TwTimelineExportCounts *counts,
                                           GError                **error);

G_END_DECLS
