/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tw-text-index.h"

G_BEGIN_DECLS

/* browser_find_in_tabs: ranks the open tabs of a workspace (@tabs, a list
 * of TwBrowserTab) against a query with @index. Before searching, each tab
 * whose page changed since @index read it is read again (its visible text,
 * through the runtime's textIndex.read, outside the tab's command queue:
 * reading never waits behind a tab's long command nor touches its page).
 * A restored tab that never loaded is indexed by its saved title and URL
 * and is not woken; a paused, crashed or silent tab keeps the text it was
 * last read with.
 *
 * {query, maxResults?} -> {query, tabs, read, unchanged,
 *   matches: [{browserId, url, title, score, snippet, indexed}]}
 * where indexed is "page" (its current text), "saved" (title and URL of a
 * restored tab not loaded yet) or "earlier" (the text of an earlier read,
 * with why in "note"). */
void        tw_find_in_tabs_async  (TwTextIndex          *index,
                                    GListModel           *tabs,
                                    JsonObject           *params,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data);
JsonObject *tw_find_in_tabs_finish (GAsyncResult         *result,
                                    GError              **error);

G_END_DECLS
