/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include <webkit/webkit.h>

G_BEGIN_DECLS

/* The downloads of a workspace. Every file a page downloads goes into the
 * workspace's downloads/ folder under a cleaned-up name, never anywhere
 * else; the result of the tab command that caused a download reports it,
 * and browser_downloads lists them all. */

#define TW_TYPE_TAB_DOWNLOADS (tw_tab_downloads_get_type ())
G_DECLARE_FINAL_TYPE (TwTabDownloads, tw_tab_downloads, TW, TAB_DOWNLOADS, GObject)

/* How long a command's result waits for the downloads it started. */
#define TW_TAB_DOWNLOADS_SETTLE_MS 30000

TwTabDownloads *tw_tab_downloads_new               (void);
void            tw_tab_downloads_set_workspace_dir (TwTabDownloads       *self,
                                                    const char           *workspace_dir);

/* Takes over @download, which the page of tab @browser_id (NULL when no
 * tab's) started: saved into downloads/, or cancelled without a
 * workspace. */
void            tw_tab_downloads_add               (TwTabDownloads       *self,
                                                    WebKitDownload       *download,
                                                    const char           *browser_id);

typedef enum
{
  TW_DOWNLOAD_APPROVAL_ASKING,
  TW_DOWNLOAD_APPROVAL_ALLOWED,
  TW_DOWNLOAD_APPROVAL_DENIED,
} TwDownloadApproval;

/* Where the person's OK for @download stands. While they are asked, its
 * state is "awaiting approval", under the name @suggested cleaned up, and
 * no command's result waits for it; once denied, it failed. */
void            tw_tab_downloads_set_approval      (TwTabDownloads       *self,
                                                    WebKitDownload       *download,
                                                    const char           *suggested,
                                                    TwDownloadApproval    approval);

/* {downloads: [{id, browserId, url, fileName, path, size, mimeType, state, error?}]} */
JsonObject     *tw_tab_downloads_list              (TwTabDownloads       *self);

gboolean        tw_tab_downloads_has_unreported    (TwTabDownloads       *self,
                                                    const char           *browser_id);

/* Completes when no download of @browser_id that was not reported yet is
 * still running (or awaiting the person's OK), or after @timeout_ms. */
void            tw_tab_downloads_settle_async      (TwTabDownloads       *self,
                                                    const char           *browser_id,
                                                    guint                 timeout_ms,
                                                    GCancellable         *cancellable,
                                                    GAsyncReadyCallback   callback,
                                                    gpointer              user_data);
gboolean        tw_tab_downloads_settle_finish     (TwTabDownloads       *self,
                                                    GAsyncResult         *result,
                                                    GError              **error);

/* The downloads of @browser_id not reported yet, now marked reported; NULL
 * when there are none. */
JsonArray      *tw_tab_downloads_take_unreported   (TwTabDownloads       *self,
                                                    const char           *browser_id);

/* The file name a download is saved under: the last component of
 * @suggested without control characters, slashes or leading dots,
 * "download" when nothing is left. */
char           *tw_tab_downloads_clean_name        (const char           *suggested);

G_END_DECLS
