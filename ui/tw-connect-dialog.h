/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* "Connect an Agent": how an agent started outside Tabwright reaches this
 * workspace's tabs. Shows the MCP URL, the workspace token (hidden until
 * revealed) and ready-to-paste snippets for Claude Code, Codex, OpenCode,
 * Gemini CLI and any MCP client over stdio, and installs Gemini CLI's
 * extension when the person agrees (TwGeminiInstall). */

#define TW_TYPE_CONNECT_DIALOG (tw_connect_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TwConnectDialog, tw_connect_dialog, TW, CONNECT_DIALOG, AdwWindow)

/* @url and @token may be NULL when the MCP server is not running. */
GtkWindow *tw_connect_dialog_new (GtkWindow  *parent,
                                  const char *url,
                                  const char *token,
                                  const char *workspace_path);

G_END_DECLS
