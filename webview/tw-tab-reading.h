/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "tw-browser-service.h"
#include "tw-page-runtime.h"

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
void        tw_tab_reading_run_async  (TwPageRuntime        *runtime,
                                       TwTabCommand          command,
                                       JsonObject           *params,
                                       GCancellable         *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data);
JsonObject *tw_tab_reading_run_finish (TwPageRuntime        *runtime,
                                       GAsyncResult         *result,
                                       GError              **error);

G_END_DECLS
