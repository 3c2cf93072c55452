/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include <webkit/webkit.h>

#include "tw-tab-job.h"

G_BEGIN_DECLS

/* What a page keeps about the person: the cookies of the workspace's
 * network session, the localStorage and sessionStorage of a tab's origin,
 * and the whole of it saved to a file of the workspace and loaded again.
 * Every function completes with the structured result of its command. */

/* browser_cookies: {action: list|get|set|delete|clear, name?, value?,
 * domain?, url?, path?, expires?, httpOnly?, secure?, sameSite?}. */
void        tw_tab_storage_cookies_async (WebKitNetworkSession  *session,
                                          JsonObject            *params,
                                          GCancellable          *cancellable,
                                          GAsyncReadyCallback    callback,
                                          gpointer               user_data);
JsonObject *tw_tab_storage_cookies_finish (GAsyncResult         *result,
                                           GError              **error);

/* browser_storage, on the document of the job's view: {area:
 * local|session, action: list|get|set|delete|clear, key?, value?}. */
void        tw_tab_storage_web_run       (const TwTabJob        *job,
                                          GTask                 *task);

/* browser_storage_state: {action: save|load, path}. Saving writes the
 * session's cookies and the localStorage of the origins that @views (the
 * workspace's tabs) show; loading adds the file's cookies and writes each
 * origin's localStorage through a hidden view of @session. */
void        tw_tab_storage_state_async   (WebKitNetworkSession  *session,
                                          GPtrArray             *views,
                                          const char            *workspace_dir,
                                          JsonObject            *params,
                                          GCancellable          *cancellable,
                                          GAsyncReadyCallback    callback,
                                          gpointer               user_data);
JsonObject *tw_tab_storage_state_finish  (GAsyncResult          *result,
                                          GError               **error);

G_END_DECLS
