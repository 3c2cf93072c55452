/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tw-history.h"

G_BEGIN_DECLS

/* browser_history: searches a workspace's history and bookmarks.
 *
 * {query?, since?, until?, kind? ("all", "visits", "bookmarks"), maxResults?}
 *   -> {query, kind, entries: [{url, title, lastVisit?, visits, visitors,
 *       bookmarked, bookmarkedAt?}]}
 *
 * since and until are an ISO 8601 date ("2026-12-05", the whole day for
 * until) or date and time (local time when it names no zone), or a span
 * back from now ("30m", "12h", "7d"). Times in the result are ISO 8601 in
 * UTC. A bad argument fails with browser_invalid_argument. */
void        tw_history_search_command_async  (TwHistory            *history,
                                              JsonObject           *params,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
JsonObject *tw_history_search_command_finish (GAsyncResult         *result,
                                              GError              **error);

/* The time @text names, in µs since the epoch, as since (@end FALSE) or
 * until (@end TRUE) reads it; 0 with @error set when it names none. */
gint64      tw_history_parse_time            (const char           *text,
                                              gboolean              end,
                                              GError              **error);

G_END_DECLS
