/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tw-tab-log.h"

G_BEGIN_DECLS

/* browser_console: a tab's console messages filtered by level, source and
 * text; one message in detail; waiting for the next matching one; clearing.
 * @params as the tool validated them:
 *   {id?, level?:[..], source?:[..], text?, allPages?, maxEntries?,
 *    wait?, timeoutMs?, clear?}
 * The result has "messages" (oldest first), "matched" and "mode" ("list",
 * "message", "wait" or "clear"). */

#define TW_TAB_CONSOLE_DEFAULT_ENTRIES     50
#define TW_TAB_CONSOLE_DEFAULT_TIMEOUT_MS  5000
#define TW_TAB_CONSOLE_MAX_TIMEOUT_MS      30000

void        tw_tab_console_run_async  (TwTabLog            *log,
                                       JsonObject          *params,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
JsonObject *tw_tab_console_run_finish (TwTabLog            *log,
                                       GAsyncResult        *result,
                                       GError             **error);

G_END_DECLS
