/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-timeline.h"

#include <json-glib/json-glib.h>
#include <webkit/webkit.h>

#include "tw-activity-log.h"
#include "tw-browser.h"

G_BEGIN_DECLS

/* What tw-timeline-read.c needs of the writer's side. */

/* This run's id: the first part of the names of its sessions' files. */
const char *_tw_timeline_get_run_id (TwTimeline *self);

/* One call while it runs and until its line is written (tw-timeline.c). */
typedef struct _Step
{
  TwTimeline      *timeline;  /* strong, until written */
  guint64          seq;
  TwActivityEntry *entry;
  JsonObject      *arguments;
  char            *result_text;
  char            *outcome_url;
  gboolean         navigated;
  JsonArray       *fields;   /* browser_fill_form: each field's role and name */
  WebKitWebView   *view;
  GdkTexture      *before;
  GdkTexture      *after;
  /* The action as the overlay drew it (TwTabAction), in CSS pixels of the
   * viewport, and how to turn those into the pictures' pixels. */
  gboolean         has_point;
  graphene_point_t point;
  gboolean         has_rect;
  graphene_rect_t  rect;
  gboolean         has_start_rect;  /* where it was before the action scrolled it */
  graphene_rect_t  start_rect;
  gboolean         has_drop;
  graphene_rect_t  drop_rect;
  double           zoom;
  int              view_width;      /* logical pixels */
  guint            waiting;
  /* The picture after an acting call: due once the tab has been quiet for
   * a moment (after_source) and at the latest after a bound (after_bound);
   * asked of WebKit once, at after_asked_us. */
  guint            after_source;
  guint            after_bound;
  gboolean         after_asked;
  gint64           ended_us;
  gint64           after_asked_us;
  guint            readers;         /* calls reading the tab that it waits for */
  GPtrArray       *held;            /* Step: lines written after this one's */
  struct _Step    *reading_for;     /* a reading call: the step it holds back */
  struct _Step    *next;            /* takes the picture after as its picture before */
  gboolean         ended;
  /* Filled in for the writer, on the main thread. */
  JsonObject      *line;         /* the line, without the pictures */
  char            *session_path;
  char            *image_prefix;
  guint64          max_bytes;
  char            *dir;
} Step;

/* tw-timeline-files.c: on the writer thread. A picture of at most
 * TW_TIMELINE_IMAGE_WIDTH pixels across, as JPEG; returns its size, 0 when
 * it could not be written. */
gsize _tw_timeline_write_image (GdkTexture *texture,
                                const char *path);
/* Keeps the folder within its limits: the oldest pictures go first, then
 * the oldest sessions other than @keep. */
void  _tw_timeline_prune       (const char *dir,
                                guint64     max_bytes,
                                const char *keep);

/* Writes @step's line to its session's file, after its pictures; keeps
 * the folder within its limits. */
void  _tw_timeline_write_line  (Step       *step);

/* tw-timeline-line.c: @step's text and outcome from the result of its
 * call, and its line, without the pictures. */
void        _tw_timeline_line_take_result (Step      *step,
                                           JsonNode  *result);
JsonObject *_tw_timeline_line_build       (TwBrowser *browser,
                                           Step      *step);

/* tw-timeline-action.c: the line's "action" member, where the overlay drew
 * the pointer and the highlight of @step's action. */
void  _tw_timeline_add_action  (TwBrowser   *browser,
                                Step        *step,
                                JsonObject  *line);

G_END_DECLS
