/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>

#include "tw-jsonrpc.h"
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

/* A new connection has this long to send its first request's headers, and
 * a request whose first line has come this long for the rest of them; then
 * this long more for its body; then it is closed. A connection kept open
 * between requests is closed when it has sent no next request line for the
 * idle time. They bound what slow or idle clients hold; a request being
 * answered (a long call, a GET stream) has no limit here. The listen
 * backlog is large enough for many agents connecting at once (the kernel
 * caps it at somaxconn). */
#define TW_MCP_HEADER_TIMEOUT_MS (15 * 1000)
#define TW_MCP_BODY_TIMEOUT_MS (60 * 1000)
#define TW_MCP_IDLE_TIMEOUT_MS (30 * 1000)
#define TW_MCP_LISTEN_BACKLOG 1024

void  tw_mcp_server_set_connection_limits (TwMcpServer *self,
                                           guint        header_timeout_ms,
                                           guint        body_timeout_ms,
                                           guint        idle_timeout_ms);

void  tw_mcp_server_set_session_limits (TwMcpServer *self,
                                        guint        idle_timeout_ms,
                                        guint        max_sessions_per_client);
guint tw_mcp_server_get_n_sessions     (TwMcpServer *self);

/* What the parts of TwMcpServer share. tw-mcp-server.c holds the object,
 * its clients and the public API; tw-mcp-server-http.c checks requests from
 * their headers and sends replies; tw-mcp-server-methods.c dispatches the
 * JSON-RPC methods of a POST; tw-mcp-server-calls.c runs tools/call and its
 * progress stream; tw-mcp-server-sessions.c keeps the sessions and their GET
 * streams; tw-mcp-server-idle.c closes connections that sit idle between
 * requests, or that their client closed. */

#define MCP_PATH "/mcp"

/* A bearer token and whom it stands for. Shared by the sessions and calls
 * made with it, so revoking the token can find and end them. */
typedef struct
{
  char             *token;
  char             *agent_id;
  char             *agent_name;
  TwBrowserService *service;
  gboolean          revoked;
  /* Tool groups: the server to tell when the service's offered tools
   * change; not owned, cleared when the server goes. */
  TwMcpServer      *server;
  gulong            tools_changed_handler;
} McpClient;

typedef struct _McpPending McpPending;

typedef struct
{
  char       *id;
  McpClient  *client;
  char       *protocol_version;
  gint64      last_used;
  /* Calls in flight, by JSON-RPC id key: McpPending*, not owned. */
  GHashTable *pending;
  /* Open GET streams (SoupServerMessage*, owned) that carry the server's
   * own messages to the client: notifications/tools/list_changed. */
  GPtrArray  *streams;
} McpSession;

struct _TwMcpServer
{
  GObject     parent_instance;

  SoupServer *soup;
  guint16     port;

  GPtrArray  *clients;   /* McpClient*, rc-boxed */
  GHashTable *sessions;  /* id -> McpSession* */

  guint64     next_serial;
  guint       sweep_source;
  guint       header_timeout_ms;
  guint       body_timeout_ms;
  guint       idle_timeout_ms;
  /* Connections kept open between requests: GSocket* -> McpIdle*. */
  GHashTable *idle_connections;
  gint64      idle_timeout_us;
  guint       max_sessions_per_client;
};

enum {
  CALL_STARTED,
  CALL_FINISHED,
  N_SIGNALS
};

extern guint _tw_mcp_server_signals[N_SIGNALS];

/* tw-mcp-server.c */
McpClient  *_tw_mcp_server_client_ref               (McpClient         *client);
void        _tw_mcp_server_client_unref             (McpClient         *client);

/* tw-mcp-server-http.c */
void        _tw_mcp_server_set_json_response        (SoupServerMessage *msg,
                                                     guint              status,
                                                     JsonNode          *body);
void        _tw_mcp_server_reply_error              (SoupServerMessage *msg,
                                                     guint              status,
                                                     JsonNode          *id,
                                                     int                code,
                                                     const char        *message);
void        _tw_mcp_server_reply_result             (SoupServerMessage *msg,
                                                     JsonNode          *id,
                                                     JsonNode          *result);
/* Answers @msg with a stream of server-sent events: the headers go out
 * now, then each event as a chunk (the caller unpauses @msg). */
void        _tw_mcp_server_start_event_stream       (SoupServerMessage *msg);
/* Adds one event to the stream of @msg, carrying the JSON-RPC message
 * @json. */
void        _tw_mcp_server_send_event               (SoupServerMessage *msg,
                                                     const char        *json);
void        _tw_mcp_server_request_started_cb       (SoupServer        *soup,
                                                     SoupServerMessage *msg,
                                                     TwMcpServer       *self);
void        _tw_mcp_server_handler_cb               (SoupServer        *soup,
                                                     SoupServerMessage *msg,
                                                     const char        *path,
                                                     GHashTable        *query,
                                                     gpointer           user_data);

/* tw-mcp-server-idle.c */
void        _tw_mcp_server_request_done_cb          (SoupServer        *soup,
                                                     SoupServerMessage *msg,
                                                     TwMcpServer       *self);
void        _tw_mcp_server_connection_busy          (TwMcpServer       *self,
                                                     SoupServerMessage *msg);
GHashTable *_tw_mcp_server_idle_table_new           (void);

/* tw-mcp-server-methods.c */
void        _tw_mcp_server_handle_post              (TwMcpServer       *self,
                                                     SoupServerMessage *msg,
                                                     McpClient         *client);

/* tw-mcp-server-calls.c */
void        _tw_mcp_server_pending_abandon          (McpPending        *pending,
                                                     const char        *reason);
void        _tw_mcp_server_handle_tools_call        (TwMcpServer       *self,
                                                     SoupServerMessage *msg,
                                                     McpSession        *session,
                                                     TwJsonrpcMessage  *message);

/* tw-mcp-server-sessions.c */
void        _tw_mcp_server_session_free             (McpSession        *session);
void        _tw_mcp_server_drop_sessions_of_client  (TwMcpServer       *self,
                                                     McpClient         *client);
void        _tw_mcp_server_make_room_for_session    (TwMcpServer       *self,
                                                     McpClient         *client);
void        _tw_mcp_server_restart_sweep            (TwMcpServer       *self);
McpSession *_tw_mcp_server_lookup_session           (TwMcpServer       *self,
                                                     SoupServerMessage *msg,
                                                     McpClient         *client);
void        _tw_mcp_server_handle_delete            (TwMcpServer       *self,
                                                     SoupServerMessage *msg,
                                                     McpClient         *client);
void        _tw_mcp_server_handle_get               (TwMcpServer       *self,
                                                     SoupServerMessage *msg,
                                                     McpClient         *client);
void        _tw_mcp_server_client_tools_changed_cb  (TwBrowserService  *service,
                                                     McpClient         *client);

G_END_DECLS
