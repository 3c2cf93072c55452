/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tw-tab-job.h"

G_BEGIN_DECLS

/* browser_console: a tab's console messages filtered by level, source and
 * text; one message in detail; waiting for the next matching one; clearing.
 * The job's params, as the tool validated them:
 *   {id?, level?:[..], source?:[..], text?, allPages?, maxEntries?,
 *    wait?, timeoutMs?, clear?}
 * The result has "messages" (oldest first), "matched" and "mode" ("list",
 * "message", "wait" or "clear"). */

#define TW_TAB_CONSOLE_DEFAULT_ENTRIES     50
#define TW_TAB_CONSOLE_DEFAULT_TIMEOUT_MS  5000
#define TW_TAB_CONSOLE_MAX_TIMEOUT_MS      30000

void tw_tab_console_run (const TwTabJob *job,
                         GTask          *task);

G_END_DECLS
