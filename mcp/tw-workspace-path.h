/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The one check every tool that reads or writes a file on the agent's behalf
 * goes through (browser_upload's filePaths, browser_screenshot's savePath):
 * the file must lie inside the workspace folder once every symbolic link is
 * followed, so neither "../" nor a link planted in the workspace can reach
 * the rest of the disk. */

typedef enum
{
  /* The file must exist and be a regular file (after links), e.g. a file to
   * upload. */
  TW_WORKSPACE_PATH_EXISTING_FILE,
  /* The file is about to be written: it may not exist yet, but its folder
   * must, and an existing file or link there must resolve inside too. */
  TW_WORKSPACE_PATH_NEW_FILE,
} TwWorkspacePathKind;

/* Resolves @path, absolute or relative to @workspace_dir, with realpath(3)
 * and returns the resolved absolute path when it lies inside the resolved
 * @workspace_dir. Otherwise returns NULL with TW_BROWSER_ERROR_DENIED for a
 * path outside the workspace (or with no workspace), or
 * TW_BROWSER_ERROR_INVALID_ARGUMENT for a file that does not exist, is not a
 * regular file, or whose folder does not exist. */
char *tw_workspace_path_check (const char           *workspace_dir,
                               const char           *path,
                               TwWorkspacePathKind   kind,
                               GError              **error);

/* Writes @contents to @path inside @workspace_dir, or fails as
 * tw_workspace_path_check() does. The path is checked, then opened one
 * component at a time from the workspace folder with O_NOFOLLOW, so a folder
 * swapped for a link between the check and the write makes the write fail
 * rather than land outside. The file is written under a temporary name in
 * its folder and renamed over the old one, so a reader never sees half a
 * file. Returns the resolved path written. Blocking: call it from a worker
 * thread. */
char *tw_workspace_path_write (const char  *workspace_dir,
                               const char  *path,
                               GBytes      *contents,
                               GError     **error);

/* Opens @path inside @workspace_dir for reading the same way, and checks on
 * the opened descriptor that it is a regular file. Returns the descriptor
 * (close it) or -1 with the error of tw_workspace_path_check(); @resolved
 * receives the resolved path when not NULL. */
int tw_workspace_path_open_read (const char  *workspace_dir,
                                 const char  *path,
                                 char       **resolved,
                                 GError     **error);

G_END_DECLS
