/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A WebM video (VP8) of timeline calls, built from the pictures the
 * timeline took before and after each one: a second per call, its picture
 * before then after, with the pointer and the highlight of its action drawn
 * as the overlay drew them and the call written over it, and a chapter per
 * call named after it. Nothing is kept while recording; the video is made only
 * when asked for.
 *
 * Blocks while GStreamer encodes: call it from a worker thread. @steps is
 * a GListModel of TwTimelineStep. */
gboolean tw_timeline_video_write (GListModel  *steps,
                                  const char  *path,
                                  GError     **error);

/* Makes GStreamer ready; call once from the main thread first. */
void     tw_timeline_video_init  (void);

G_END_DECLS
