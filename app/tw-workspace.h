/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "tw-browser.h"
#include "tw-timeline.h"
#include "tw-workspace-id.h"

G_BEGIN_DECLS

/* A workspace is a folder. It has a stable id derived from its path, a token
 * that external MCP clients keep using across restarts, its own website data
 * (through its TwBrowser), and, while Tabwright serves it, a runtime file that
 * tells the stdio bridge and --print-mcp-config where to connect:
 *
 *   $XDG_DATA_HOME/tabwright/workspaces/<id>/token        (0600)
 *   $XDG_DATA_HOME/tabwright/workspaces/<id>/website-data/
 *   $XDG_CACHE_HOME/tabwright/workspaces/<id>/
 *   $XDG_RUNTIME_DIR/tabwright/<id>.json                  (0600, in a 0700 dir)
 *
 * Ids, canonical paths and reading runtime files are in tw-workspace-id.h,
 * which the stdio bridge shares without GTK. */

#define TW_TYPE_WORKSPACE (tw_workspace_get_type ())
G_DECLARE_FINAL_TYPE (TwWorkspace, tw_workspace, TW, WORKSPACE, GObject)

/* Opens the workspace at canonical @path, creating its token on first use. */
TwWorkspace *tw_workspace_new               (const char   *path,
                                             GError      **error);

const char  *tw_workspace_get_path          (TwWorkspace  *self);
const char  *tw_workspace_get_id            (TwWorkspace  *self);
/* The folder's name, as windows show it. */
const char  *tw_workspace_get_name          (TwWorkspace  *self);
const char  *tw_workspace_get_token         (TwWorkspace  *self);
const char  *tw_workspace_get_data_dir      (TwWorkspace  *self);

/* The workspace's tabs, created on first use. */
TwBrowser   *tw_workspace_get_browser       (TwWorkspace  *self);
/* The timeline of every tool call in the workspace, kept in its data. */
TwTimeline  *tw_workspace_get_timeline      (TwWorkspace  *self);

/* Writes the runtime file {url, token, workspace, workspaceId, pid}
 * atomically, or removes it. Unpublishing only removes a file this process
 * wrote, so a second instance serving the same folder is left alone. */
gboolean     tw_workspace_publish           (TwWorkspace  *self,
                                             const char   *url,
                                             GError      **error);
void         tw_workspace_unpublish         (TwWorkspace  *self);

G_END_DECLS
