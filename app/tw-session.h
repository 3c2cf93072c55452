/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "tw-browser.h"

G_BEGIN_DECLS

/* The tabs of one workspace across launches, in <workspace data dir>/
 * session.json:
 *
 *   { "version": 1, "tabs": [ { "url": "http://…", "title": "…" }, … ] }
 *
 * The file follows the tabs while the workspace is open (written shortly
 * after each change, off the main thread) and once more, at once, when the
 * workspace closes. Restoring opens the tabs again as the person's own,
 * agent tabs included: their agents are not started again and their
 * tokens died with them, so the pages they left (usually the project's
 * own pages) come back for the person, and a later agent finds them with
 * browser_list_tabs. Blank tabs and anything but http(s) are left out. */

#define TW_TYPE_SESSION (tw_session_get_type ())
G_DECLARE_FINAL_TYPE (TwSession, tw_session, TW, SESSION, GObject)

/* At most this many tabs are reopened. */
#define TW_SESSION_MAX_TABS 100

TwSession  *tw_session_new          (TwBrowser   *browser,
                                     const char  *file);

const char *tw_session_get_file     (TwSession   *self);

/* Opens the saved tabs in their order and returns how many. A missing file
 * restores nothing and is no error. */
guint       tw_session_restore      (TwSession   *self,
                                     GError     **error);

/* Writes the file now and stops following the tabs, so that closing them
 * afterwards (the window goes away) leaves the file as it was. */
gboolean    tw_session_close        (TwSession   *self,
                                     GError     **error);

/* The JSON of @tabs (a GListModel of TwBrowserTab), and the URLs a session
 * file holds; exposed for tests. */
char       *tw_session_serialize    (GListModel  *tabs);
GStrv       tw_session_parse        (const char  *contents,
                                     GError     **error);

G_END_DECLS
