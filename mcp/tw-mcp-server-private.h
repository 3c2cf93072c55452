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

/* A connection has this long to send a request's headers from the moment
 * the server is ready to read them (just accepted, or the previous reply
 * written), and this long more for its body; then it is closed. They bound
 * what slow or idle clients hold. The listen backlog is large enough for
 * many agents connecting at once (the kernel caps it at somaxconn). */
#define TW_MCP_HEADER_TIMEOUT_MS (15 * 1000)
#define TW_MCP_BODY_TIMEOUT_MS (60 * 1000)
#define TW_MCP_LISTEN_BACKLOG 1024

void  tw_mcp_server_set_connection_limits (TwMcpServer *self,
                                           guint        header_timeout_ms,
                                           guint        body_timeout_ms);

void  tw_mcp_server_set_session_limits (TwMcpServer *self,
                                        guint        idle_timeout_ms,
                                        guint        max_sessions_per_client);
guint tw_mcp_server_get_n_sessions     (TwMcpServer *self);

G_END_DECLS
