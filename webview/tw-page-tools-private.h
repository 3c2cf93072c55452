/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "tw-page-runtime.h"

G_BEGIN_DECLS

/* What the page tools share, from tw-page-tools.c: reading their
 * parameters, and polling the page until what they wait for holds. */

gboolean _tw_page_tools_get_int_param     (JsonObject  *params,
                                           const char  *name,
                                           gint64      *value,
                                           GError     **error);

/* A poll of the page: its source, which holds a reference on the tool's
 * task, and the look at the page in flight, if any, cancelled when the
 * poll stops. */
typedef struct
{
  TwPageRuntime *runtime;
  guint          poll_id;
  GCancellable  *check_cancellable;
  gboolean       check_in_flight;
  gboolean       done;
} TwPagePoll;

void      _tw_page_poll_init        (TwPagePoll     *poll,
                                     TwPageRuntime  *runtime);
void      _tw_page_poll_clear       (TwPagePoll     *poll);
/* Calls @poll_cb with @task every @interval_ms until the poll stops. */
void      _tw_page_poll_start       (TwPagePoll     *poll,
                                     GTask          *task,
                                     guint           interval_ms,
                                     GSourceFunc     poll_cb,
                                     const char     *name);
void      _tw_page_poll_stop        (TwPagePoll     *poll);
/* In @poll_cb: TRUE when @task was cancelled, with @error set; the poll's
 * source is then removed by returning G_SOURCE_REMOVE. */
gboolean  _tw_page_poll_cancelled   (TwPagePoll     *poll,
                                     GTask          *task,
                                     GError        **error);
/* Once a look at the page has answered: FALSE when the poll is over and
 * the answer is for nobody. */
gboolean  _tw_page_poll_look_done   (TwPagePoll     *poll);
/* Looks at the page once, the runtime function @function_name with
 * @args, unless a look is in flight; @callback gets a reference on @task
 * and calls _tw_page_poll_look_finish(). */
void      _tw_page_poll_look        (TwPagePoll          *poll,
                                     GTask               *task,
                                     const char          *function_name,
                                     JsonObject          *args,
                                     guint                timeout_ms,
                                     GAsyncReadyCallback  callback);
/* FALSE when the poll is over and the answer is for nobody; else TRUE,
 * with *@answer the page's answer, or NULL and @error set. */
gboolean  _tw_page_poll_look_finish (TwPagePoll     *poll,
                                     GAsyncResult   *result,
                                     JsonNode      **answer,
                                     GError        **error);

G_END_DECLS
