/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "tw-browser-service.h"

G_BEGIN_DECLS

/* The MCP Streamable HTTP server: one per application, on loopback. Callers
 * are told apart by their bearer token: each token belongs to one client (an
 * agent the app launched, or a workspace's external clients) and carries the
 * browser service of that client's workspace. */

/* Signals, for the activity feed:
 *
 *   call-started  (guint64 serial, const char *agent_id, const char *agent_name,
 *                  const char *tool, JsonObject *arguments)
 *   call-finished (guint64 serial, gboolean is_error, const char *error_code,
 *                  double duration_ms)
 *
 * error_code is a browser_* code, "cancelled" when the client cancelled the
 * call, went away or lost its session, and NULL on success. */

#define TW_TYPE_MCP_SERVER (tw_mcp_server_get_type ())
G_DECLARE_FINAL_TYPE (TwMcpServer, tw_mcp_server, TW, MCP_SERVER, GObject)

TwMcpServer *tw_mcp_server_new            (void);

/* Listens on 127.0.0.1:@port (0 picks a free port). */
gboolean     tw_mcp_server_start          (TwMcpServer       *self,
                                           guint16            port,
                                           GError           **error);
void         tw_mcp_server_stop           (TwMcpServer       *self);
guint16      tw_mcp_server_get_port       (TwMcpServer       *self);
/* "http://127.0.0.1:<port>/mcp" */
char        *tw_mcp_server_dup_url        (TwMcpServer       *self);

/* Registers a bearer token. Requests carrying it see @service's tabs and are
 * attributed to @agent_id / @agent_name. */
void         tw_mcp_server_add_client     (TwMcpServer       *self,
                                           const char        *token,
                                           const char        *agent_id,
                                           const char        *agent_name,
                                           TwBrowserService  *service);
/* Revokes a token: later requests with it get 401, its sessions end and its
 * in-flight calls are cancelled. */
void         tw_mcp_server_remove_client  (TwMcpServer       *self,
                                           const char        *token);

/* A new random token, 32 bytes of entropy, URL-safe. */
char        *tw_mcp_generate_token        (void);

G_END_DECLS
