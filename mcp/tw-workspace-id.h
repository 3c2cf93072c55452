/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* How a workspace folder is named and found, without GTK: the app uses it to
 * publish where its MCP server listens, the stdio bridge and
 * `tabwright --print-mcp-config` to find that server again.
 *
 *   $XDG_RUNTIME_DIR/tabwright/<id>.json  {url, token, workspace, workspaceId, pid}
 */

/* Resolves @path (relative to @cwd when not absolute; @cwd NULL means the
 * current folder) to a canonical absolute folder: symbolic links followed,
 * no "." or "..". Fails with a G_IO_ERROR such as G_IO_ERROR_NOT_FOUND, or
 * G_IO_ERROR_NOT_DIRECTORY for something that is not a folder. */
char       *tw_workspace_id_canonicalize_path (const char   *path,
                                               const char   *cwd,
                                               GError      **error);

/* "<basename, sanitised>-<first 8 hex digits of sha256(path)>" for a
 * canonical @path, e.g. "my-app-1a2b3c4d". */
char       *tw_workspace_id_from_path         (const char   *path);

/* $XDG_RUNTIME_DIR/tabwright/<id>.json */
char       *tw_workspace_id_dup_runtime_file  (const char   *workspace_id);

/* Parses a runtime file. Fails when it cannot be read or is not a JSON
 * object. */
JsonObject *tw_workspace_id_load_runtime_file (const char   *file,
                                               GError      **error);

/* Reads the runtime file of the workspace at canonical @path when a running
 * Tabwright (its pid still alive) serves it. Fails with G_IO_ERROR_NOT_FOUND
 * when none does: no file, a file of another folder, or one left behind by a
 * Tabwright that is gone. */
gboolean    tw_workspace_id_read_runtime_file (const char   *path,
                                               char        **url,
                                               char        **token,
                                               GError      **error);

G_END_DECLS
