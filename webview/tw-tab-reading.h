/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tab-job.h"

G_BEGIN_DECLS

/* The reading commands of one tab (get text, get HTML, read as Markdown,
 * set the document's HTML),
 * answered by the page runtime's read.js. Each answer is cut at maxChars;
 * a cut answer carries a cursor ("c<offset>") to go on from. */

#define TW_TAB_READING_DEFAULT_CHARS 40000
#define TW_TAB_READING_MIN_CHARS     1000
#define TW_TAB_READING_MAX_CHARS     1000000

gboolean    tw_tab_reading_handles    (TwTabCommand          command);

/* Completes with {url, title, text, offset, total, truncated, nextCursor?}
 * and, for READ, mainContent: which element was read. SET_CONTENT ({html})
 * replaces the document and completes with {url, title, elements};
 * GET_STYLES ({ref, properties?}) with {ref, tag, style, box, visible,
 * hiddenBecause}. */
void tw_tab_reading_run (const TwTabJob *job,
                         GTask          *task);

/* What the reading commands and browser_read share. The offset the
 * "cursor" of @params goes on from: TRUE, with *@offset untouched when
 * there is no cursor; FALSE with @error set for one that no answer gave. */
gboolean    tw_tab_reading_get_offset      (JsonObject     *params,
                                            gint64         *offset,
                                            GError        **error);
/* read.js's answer to a call: an object, or NULL with @error set. */
JsonObject *tw_tab_reading_answer_finish   (TwPageRuntime  *runtime,
                                            GAsyncResult   *result,
                                            GError        **error);
/* Gives @reply the nextCursor of @answer's nextOffset, if it has one. */
void        tw_tab_reading_set_next_cursor (JsonObject     *reply,
                                            JsonObject     *answer);

G_END_DECLS
