/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tab-job.h"

G_BEGIN_DECLS

/* browser_fetch: an HTTP request from the UI process with the cookies of
 * the tab's network session (the workspace's), outside the page, so no
 * CORS rule applies. The job's params, as the tool validated them:
 *   {url, method?, headers?:{name:value}, body?, maxBodyChars?, showSecrets?}
 * The result: {url, status, statusText, headers:[{name,value}],
 * cookiesSent, body:{kind,size,truncated,text?}}. */

#define TW_TAB_FETCH_DEFAULT_BODY_CHARS 10000
#define TW_TAB_FETCH_MAX_BODY_BYTES     (4 * 1024 * 1024)

void tw_tab_fetch_run (const TwTabJob *job,
                       GTask          *task);

G_END_DECLS
