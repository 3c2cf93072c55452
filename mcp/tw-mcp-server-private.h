/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-mcp-server.h"

G_BEGIN_DECLS

/* The MCP protocol versions the server speaks, newest first. */
#define TW_MCP_PROTOCOL_VERSION_LATEST "2025-11-25"

/* Largest request body the server reads. */
#define TW_MCP_MAX_BODY_SIZE (4 * 1024 * 1024)

/* Defaults: idle sessions expire after 30 minutes, and each token keeps at
 * most 64 sessions. Tests shorten them. */
#define TW_MCP_SESSION_IDLE_TIMEOUT_MS (30 * 60 * 1000)
#define TW_MCP_MAX_SESSIONS_PER_CLIENT 64

void  tw_mcp_server_set_session_limits (TwMcpServer *self,
                                        guint        idle_timeout_ms,
                                        guint        max_sessions_per_client);
guint tw_mcp_server_get_n_sessions     (TwMcpServer *self);

G_END_DECLS
