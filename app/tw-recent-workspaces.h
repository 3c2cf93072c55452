/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The workspace folders opened lately, newest first, kept in a small JSON
 * file ($XDG_DATA_HOME/tabwright/recent-workspaces.json for the app), and
 * offered as a menu whose items activate app.open-workspace-path with the
 * folder's path. Folders that no longer exist are left out. */

#define TW_TYPE_RECENT_WORKSPACES (tw_recent_workspaces_get_type ())
G_DECLARE_FINAL_TYPE (TwRecentWorkspaces, tw_recent_workspaces, TW, RECENT_WORKSPACES, GObject)

/* Reads @file, if there is one. */
TwRecentWorkspaces  *tw_recent_workspaces_new              (const char          *file);
/* $XDG_DATA_HOME/tabwright/recent-workspaces.json */
char                *tw_recent_workspaces_dup_default_file (void);

/* Moves @path to the front and saves the list in the background. */
void                 tw_recent_workspaces_add              (TwRecentWorkspaces  *self,
                                                            const char          *path);
/* The paths, newest first. */
char               **tw_recent_workspaces_dup_paths        (TwRecentWorkspaces  *self);
GMenuModel          *tw_recent_workspaces_get_menu         (TwRecentWorkspaces  *self);

/* Resolves when what was added so far is on disk. */
void                 tw_recent_workspaces_save_async       (TwRecentWorkspaces  *self,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
gboolean             tw_recent_workspaces_save_finish      (TwRecentWorkspaces  *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);

G_END_DECLS
