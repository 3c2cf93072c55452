/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <graphene.h>

G_BEGIN_DECLS

/* One call of a timeline, read back from its session file (TwTimeline):
 * what the timeline viewer shows of it. */

#define TW_TYPE_TIMELINE_STEP (tw_timeline_step_get_type ())
G_DECLARE_FINAL_TYPE (TwTimelineStep, tw_timeline_step, TW, TIMELINE_STEP, GObject)

guint64     tw_timeline_step_get_seq          (TwTimelineStep *self);
/* ISO 8601, as recorded. */
const char *tw_timeline_step_get_time         (TwTimelineStep *self);
const char *tw_timeline_step_get_agent_id     (TwTimelineStep *self);
const char *tw_timeline_step_get_agent_name   (TwTimelineStep *self);
const char *tw_timeline_step_get_tool         (TwTimelineStep *self);
const char *tw_timeline_step_get_browser_id   (TwTimelineStep *self);
/* `button "Save"`, or the ref, or NULL. */
const char *tw_timeline_step_get_target       (TwTimelineStep *self);
/* The element acted on, as the page named it: for finding it again. */
const char *tw_timeline_step_get_role         (TwTimelineStep *self);
const char *tw_timeline_step_get_name         (TwTimelineStep *self);
/* The arguments as compact JSON. */
const char *tw_timeline_step_get_arguments    (TwTimelineStep *self);
const char *tw_timeline_step_get_result       (TwTimelineStep *self);
/* "browser_stale_ref — …" for a failed call, else NULL. */
const char *tw_timeline_step_get_error        (TwTimelineStep *self);
gboolean    tw_timeline_step_get_ok           (TwTimelineStep *self);
/* Where the tab was after the call, and whether the call took it there. */
const char *tw_timeline_step_get_outcome_url  (TwTimelineStep *self);
gboolean    tw_timeline_step_get_navigated    (TwTimelineStep *self);
/* The line it was read from. */
const char *tw_timeline_step_get_line         (TwTimelineStep *self);
double      tw_timeline_step_get_duration_ms  (TwTimelineStep *self);
/* The pictures' files, or NULL. */
const char *tw_timeline_step_get_before_path  (TwTimelineStep *self);
const char *tw_timeline_step_get_after_path   (TwTimelineStep *self);

/* The action as the overlay drew it, in the pixels of the call's
 * pictures: the pointer and the element's highlight in the picture after
 * the call, or, with @before, in the picture before (where the element
 * was before the action scrolled it into view). FALSE when the line has
 * none: calls without an element, and lines of older versions. */
gboolean    tw_timeline_step_get_pointer      (TwTimelineStep   *self,
                                               gboolean          before,
                                               graphene_point_t *pointer);
gboolean    tw_timeline_step_get_highlight    (TwTimelineStep   *self,
                                               gboolean          before,
                                               graphene_rect_t  *rect);
/* A drag's drop target. */
gboolean    tw_timeline_step_get_drop         (TwTimelineStep   *self,
                                               graphene_rect_t  *rect);
/* The agent's colour ("#9141ac") and mark ("A"), or NULL for callers
 * without (the person's clients). */
const char *tw_timeline_step_get_agent_rgb    (TwTimelineStep   *self);
const char *tw_timeline_step_get_agent_mark   (TwTimelineStep   *self);

/* browser_fill_form: each field's role and name, in the order of the
 * call's fields (NULL for a field the page did not name). */
guint       tw_timeline_step_get_n_fields     (TwTimelineStep *self);
const char *tw_timeline_step_get_field_role   (TwTimelineStep *self,
                                               guint           index);
const char *tw_timeline_step_get_field_name   (TwTimelineStep *self,
                                               guint           index);

/* Parses a line of a session file in @dir; NULL when it is not one. */
TwTimelineStep *tw_timeline_step_new_from_line (const char *line,
                                                const char *dir);

G_END_DECLS
