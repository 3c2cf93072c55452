/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tab-job.h"

G_BEGIN_DECLS

/* The reading and control commands of one tab (DESIGN.md §3): screenshot,
 * logs, wait and resize. The tab runs them in its command queue; they take
 * parameters as the tools send them and complete with the structured result
 * minus browserId and dialogs, which the tab adds. Errors are in the
 * TW_BROWSER_ERROR domain. */

/* browser_wait's timeoutMs: default and bounds. */
#define TW_PAGE_TOOLS_WAIT_DEFAULT_TIMEOUT_MS 5000
#define TW_PAGE_TOOLS_WAIT_MIN_TIMEOUT_MS     100
#define TW_PAGE_TOOLS_WAIT_MAX_TIMEOUT_MS     30000

/* browser_logs' maxEntries: default; at most the log's capacity. */
#define TW_PAGE_TOOLS_LOGS_DEFAULT_ENTRIES    100

/* Full-page screenshots returned as images stop at this height: image
 * inputs of language models refuse larger ones. Saved files keep the whole
 * page. */
#define TW_PAGE_TOOLS_SCREENSHOT_MAX_HEIGHT   8000

/* {fullPage?: bool, savePath?: string, ref?: string, format?: png|jpeg,
 * quality?: 1-100, maxWidth?: int} ->
 * {width, height, mimeType, png?|jpeg?: base64, path?: string, ref?,
 * scale?: image pixels per page pixel, truncated?: true}. A ref's element
 * is scrolled into view when it is not wholly in it, and cut out of the
 * viewport's picture; maxWidth scales a wider image down.
 * With savePath the PNG is written there (resolved inside the job's
 * workspace with tw_workspace_path_check(), else browser_denied) and not
 * returned; otherwise it is returned as base64 in "png". Works on tabs in
 * the background as long as their view sits in a TwViewFrame. */
void tw_page_tools_screenshot_run (const TwTabJob *job,
                                   GTask          *task);

/* {maxEntries?: int} -> {entries: [...], total, dropped}: the newest
 * entries of @log, oldest first (see tw_tab_log_get_entries()), how many
 * the log holds, and how many it has dropped for room. */
JsonObject *tw_page_tools_logs              (TwTabLog             *log,
                                             JsonObject           *params,
                                             GError              **error);

/* {text?: string, url?: string, timeoutMs?: int} (exactly one of text and
 * url) -> {url, title, matched: "text"|"url", value, elapsedMs}. Text must become
 * visible on the page (any case, white space collapsed; open shadow roots
 * and same-origin frames count); url means the tab's URL contains the given
 * fragment, including changes by history.pushState. Polls without
 * blocking; on expiry fails with browser_timeout and says what the page
 * shows instead. A page busy in a script cannot stretch the wait.
 * loadState networkidle means, with the job's log, that the page has
 * loaded and no request of the tab (as WebKit reports them) has been in
 * flight for 500 ms; on timeout it names the requests still in flight.
 * Without a log (NULL) the page judges it from its Resource Timing. */
void tw_page_tools_wait_run (const TwTabJob *job,
                             GTask          *task);

/* {width, height} -> {width, height, innerWidth, innerHeight}: fixes the
 * viewport of the job's frame and completes once the page reports the new
 * size (innerWidth and innerHeight as the page measures them). Sizes out of
 * TW_VIEW_FRAME_MIN_SIZE..TW_VIEW_FRAME_MAX_SIZE fail with
 * browser_invalid_argument. */
void tw_page_tools_resize_run (const TwTabJob *job,
                               GTask          *task);

G_END_DECLS
