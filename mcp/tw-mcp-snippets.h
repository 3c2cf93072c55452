/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How external MCP clients connect to a workspace. The Connect dialog shows
 * these and `tabwright --print-mcp-config` prints them, so the two always say
 * the same thing. */

/* {"mcpServers":{"tabwright":{"type":"http","url":…,
 *                             "headers":{"Authorization":"Bearer …"}}}} */
char *tw_mcp_snippet_claude_config  (const char *url,
                                     const char *token);
/* claude --mcp-config '<the configuration above>' */
char *tw_mcp_snippet_claude_command (const char *url,
                                     const char *token);
/* export TABWRIGHT_MCP_TOKEN=…
 * codex -c 'mcp_servers.tabwright.url="…"' -c 'mcp_servers.tabwright.bearer_token_env_var=…' */
char *tw_mcp_snippet_codex          (const char *url,
                                     const char *token);
/* OPENCODE_CONFIG_CONTENT='{"mcp":{"tabwright":{"type":"remote","url":…,
 *   "headers":{"Authorization":"Bearer …"},"enabled":true}}}' opencode */
char *tw_mcp_snippet_opencode       (const char *url,
                                     const char *token);
/* copilot --additional-mcp-config '{"mcpServers":{"tabwright":{"type":"http",
 *   "url":…,"headers":{"Authorization":"Bearer …"},"tools":["*"]}}}' */
char *tw_mcp_snippet_copilot        (const char *url,
                                     const char *token);
/* qwen --mcp-config '{"mcpServers":{"tabwright":{"httpUrl":…,
 *   "headers":{"Authorization":"Bearer …"}}}}' */
char *tw_mcp_snippet_qwen           (const char *url,
                                     const char *token);
/* Gemini CLI: the user extension that reaches Tabwright, in
 * ~/.gemini/extensions/tabwright/: its gemini-extension.json, which refers
 * to $TABWRIGHT_MCP_URL and $TABWRIGHT_MCP_TOKEN; the shell command that
 * installs it (run once, by the person); and the whole snippet: that
 * command, the two variables, then gemini. */
#define TW_MCP_GEMINI_EXTENSION_DIR ".gemini/extensions/tabwright"
const char *tw_mcp_snippet_gemini_extension (void);
char *tw_mcp_snippet_gemini_install   (void);
char *tw_mcp_snippet_gemini           (const char *url,
                                       const char *token);

/* claude mcp add tabwright -- tabwright-mcp --workspace DIR: works whether or
 * not Tabwright runs when the client starts. */
char *tw_mcp_snippet_stdio          (const char *workspace_path);

G_END_DECLS
