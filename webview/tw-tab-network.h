/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tab-job.h"

G_BEGIN_DECLS

/* browser_network: a tab's requests filtered by resource type, status
 * class, method, URL and failure, over the newest pages; or one request in
 * detail with headers (secrets masked), the request body the page sent, the
 * timing phases of the page's Resource Timing and the response body from
 * WebKit's own copy, cut with a cursor or saved inside the workspace.
 * The job's params, as the tool validated them:
 *   {id?, type?:[..], status?:[..], method?, url?, failed?, pages?,
 *    maxEntries?, showSecrets?, maxBodyChars?, cursor?, savePath?} */

#define TW_TAB_NETWORK_DEFAULT_ENTRIES    50
#define TW_TAB_NETWORK_DEFAULT_BODY_CHARS 10000

void tw_tab_network_run (const TwTabJob *job,
                         GTask          *task);

G_END_DECLS
