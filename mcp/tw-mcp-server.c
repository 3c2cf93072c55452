/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-mcp-server.h"
#include "tw-mcp-server-private.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <libsoup/soup.h>

#include "tw-error.h"
#include "tw-json.h"
#include "tw-jsonrpc.h"
#include "tw-mcp-auth.h"
#include "tw-mcp-protocol.h"
#include "tw-tool-call-private.h"
#include "tw-tool-registry.h"

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

/* A tools/call waiting for its result, and the HTTP request that will carry
 * it. Owned by its TwToolCall (freed with it); the server only points at it
 * until the reply is sent or the request is abandoned. */
struct _McpPending
{
  TwMcpServer       *server;
  SoupServerMessage *msg;
  McpSession        *session;
  char              *id_key;
  JsonNode          *id;
  JsonNode          *progress_token;
  GCancellable      *cancellable;
  GSource           *socket_source;
  gulong             finished_handler;
  guint64            serial;
  gint64             started_at;
  gboolean           sse;
  gboolean           done;
};

/* What got-headers learned about a request, for the steps after it. */
typedef struct
{
  McpClient *client;
  gsize      body_size;
  gboolean   rejected;
} McpRequest;

/* The time a request has left to arrive: its headers, then its body. Kept on
 * the message from request-started until the handler runs. */
typedef struct
{
  SoupServerMessage *msg;   /* not owned: the deadline goes with it */
  GSource           *timeout;
} McpDeadline;

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
  gint64      idle_timeout_us;
  guint       max_sessions_per_client;
};

G_DEFINE_FINAL_TYPE (TwMcpServer, tw_mcp_server, G_TYPE_OBJECT)

enum {
  CALL_STARTED,
  CALL_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void pending_abandon (McpPending *pending,
                             const char *reason);

/* Clients. */

static void
mcp_client_clear (McpClient *client)
{
  if (client->service != NULL)
    g_clear_signal_handler (&client->tools_changed_handler, client->service);
  g_free (client->token);
  g_free (client->agent_id);
  g_free (client->agent_name);
  g_clear_object (&client->service);
}

static McpClient *
mcp_client_ref (McpClient *client)
{
  return g_rc_box_acquire (client);
}

static void
mcp_client_unref (McpClient *client)
{
  g_rc_box_release_full (client, (GDestroyNotify) mcp_client_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpClient, mcp_client_unref)

/* Looks at every registered token whatever happens, so the time taken does
 * not tell which one shares a prefix with a guess. */
static McpClient *
find_client (TwMcpServer *self,
             const char  *authorization)
{
  g_autofree char *given = tw_mcp_auth_dup_bearer_token (authorization);
  McpClient *found = NULL;

  if (given == NULL)
    return NULL;

  for (guint i = 0; i < self->clients->len; i++)
    {
      McpClient *client = g_ptr_array_index (self->clients, i);

      if (tw_mcp_auth_token_equal (client->token, given) && found == NULL)
        found = client;
    }

  return found;
}

/* Sessions. */

static void
mcp_session_free (McpSession *session)
{
  GHashTableIter iter;
  gpointer value;

  /* Calls still running lose their session: end them first. */
  while (g_hash_table_size (session->pending) > 0)
    {
      g_hash_table_iter_init (&iter, session->pending);
      if (g_hash_table_iter_next (&iter, NULL, &value))
        pending_abandon (value, "Request cancelled: the session ended");
    }

  g_clear_pointer (&session->pending, g_hash_table_unref);

  /* Ending the session ends its streams: the client sees them close. */
  while (session->streams->len > 0)
    {
      g_autoptr(SoupServerMessage) msg = g_ptr_array_steal_index (session->streams,
                                                                  session->streams->len - 1);

      g_signal_handlers_disconnect_by_data (msg, session);
      soup_message_body_complete (soup_server_message_get_response_body (msg));
      soup_server_message_unpause (msg);
    }
  g_clear_pointer (&session->streams, g_ptr_array_unref);
  g_clear_pointer (&session->client, mcp_client_unref);
  g_free (session->protocol_version);
  g_free (session->id);
  g_free (session);
}

static gboolean
session_is_expired (TwMcpServer *self,
                    McpSession  *session,
                    gint64       now)
{
  return g_hash_table_size (session->pending) == 0 &&
         now - session->last_used > self->idle_timeout_us;
}

static void
drop_sessions_of_client (TwMcpServer *self,
                         McpClient   *client)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->sessions);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      McpSession *session = value;

      if (session->client == client)
        g_ptr_array_add (ids, g_strdup (session->id));
    }

  for (guint i = 0; i < ids->len; i++)
    g_hash_table_remove (self->sessions, g_ptr_array_index (ids, i));
}

/* Keeps a token under its session limit: the session used least recently
 * goes first, preferring one with no call in flight. */
static void
make_room_for_session (TwMcpServer *self,
                       McpClient   *client)
{
  for (;;)
    {
      McpSession *oldest_idle = NULL;
      McpSession *oldest = NULL;
      guint count = 0;
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, self->sessions);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          McpSession *session = value;

          if (session->client != client)
            continue;

          count++;
          if (oldest == NULL || session->last_used < oldest->last_used)
            oldest = session;
          if (g_hash_table_size (session->pending) == 0 &&
              (oldest_idle == NULL || session->last_used < oldest_idle->last_used))
            oldest_idle = session;
        }

      if (count < self->max_sessions_per_client || oldest == NULL)
        return;

      g_debug ("Dropping session %s of %s: too many sessions",
               (oldest_idle ? oldest_idle : oldest)->id, client->agent_name);
      g_hash_table_remove (self->sessions, (oldest_idle ? oldest_idle : oldest)->id);
    }
}

static gboolean
sweep_sessions_cb (gpointer user_data)
{
  TwMcpServer *self = user_data;
  gint64 now = g_get_monotonic_time ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->sessions);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      if (session_is_expired (self, value, now))
        g_hash_table_iter_remove (&iter);
    }

  return G_SOURCE_CONTINUE;
}

static void
restart_sweep (TwMcpServer *self)
{
  guint interval_ms;

  g_clear_handle_id (&self->sweep_source, g_source_remove);

  if (self->soup == NULL)
    return;

  interval_ms = CLAMP (self->idle_timeout_us / 1000 / 2, 10, 60 * 1000);
  self->sweep_source = g_timeout_add (interval_ms, sweep_sessions_cb, self);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, self->sweep_source),
                            "[tabwright] expire MCP sessions");
}

/* Random identifiers. */

static void
fill_random (guint8 *buffer,
             gsize   length)
{
  gsize filled = 0;

  while (filled < length)
    {
      ssize_t n = getrandom (buffer + filled, length - filled, 0);

      if (n < 0 && errno == EINTR)
        continue;

      if (n < 0)
        {
          int fd = open ("/dev/urandom", O_RDONLY | O_CLOEXEC);

          if (fd < 0)
            g_error ("No source of random numbers: %s", g_strerror (errno));

          while (filled < length)
            {
              ssize_t r = read (fd, buffer + filled, length - filled);

              if (r < 0 && errno == EINTR)
                continue;
              if (r <= 0)
                g_error ("Could not read /dev/urandom: %s", g_strerror (errno));
              filled += r;
            }

          close (fd);
          return;
        }

      filled += n;
    }
}

char *
tw_mcp_generate_token (void)
{
  guint8 bytes[32];
  char *text;
  char *out;

  fill_random (bytes, sizeof bytes);
  text = g_base64_encode (bytes, sizeof bytes);

  /* base64url without padding: safe in URLs, headers and shell snippets. */
  out = text;
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '=')
        continue;
      *out++ = *p == '+' ? '-' : *p == '/' ? '_' : *p;
    }
  *out = '\0';

  return text;
}

/* HTTP replies. */

static void
set_json_response (SoupServerMessage *msg,
                   guint              status,
                   JsonNode          *body)
{
  gsize length = 0;
  char *text = tw_jsonrpc_to_string (body, &length);

  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE, text, length);
}

static void
reply_error (SoupServerMessage *msg,
             guint              status,
             JsonNode          *id,
             int                code,
             const char        *message)
{
  g_autoptr(JsonNode) body = tw_jsonrpc_new_error (id, code, message);

  set_json_response (msg, status, body);
}

static void
reply_result (SoupServerMessage *msg,
              JsonNode          *id,
              JsonNode          *result)
{
  g_autoptr(JsonNode) body = tw_jsonrpc_new_result (id, result);

  set_json_response (msg, SOUP_STATUS_OK, body);
}

/* Refuses a request before its body is read: nothing of the body is kept,
 * and the handler never runs for it. */
static void
reject_request (SoupServerMessage *msg,
                McpRequest        *request,
                guint              status,
                int                code,
                const char        *message)
{
  if (request != NULL)
    request->rejected = TRUE;

  soup_message_body_set_accumulate (soup_server_message_get_request_body (msg), FALSE);
  soup_message_body_truncate (soup_server_message_get_request_body (msg));
  reply_error (msg, status, NULL, code, message);
}

/* Pending calls. */

static void
mcp_pending_free (gpointer data)
{
  McpPending *pending = data;

  g_assert (pending->done);
  g_assert (pending->msg == NULL);

  g_clear_pointer (&pending->id, json_node_unref);
  g_clear_pointer (&pending->progress_token, json_node_unref);
  g_clear_object (&pending->cancellable);
  g_free (pending->id_key);
  g_free (pending);
}

/* Forgets the HTTP side of a pending call. Does not touch the call. */
static void
pending_detach (McpPending *pending)
{
  pending->done = TRUE;

  if (pending->session != NULL)
    {
      g_hash_table_remove (pending->session->pending, pending->id_key);
      pending->session = NULL;
    }

  if (pending->socket_source != NULL)
    {
      g_source_destroy (pending->socket_source);
      g_clear_pointer (&pending->socket_source, g_source_unref);
    }

  if (pending->msg != NULL)
    {
      g_clear_signal_handler (&pending->finished_handler, pending->msg);
      g_clear_object (&pending->msg);
    }

  pending->server = NULL;
}

static void
pending_send_event (McpPending *pending,
                    JsonNode   *message)
{
  g_autofree char *json = tw_jsonrpc_to_string (message, NULL);
  char *event = g_strdup_printf ("event: message\ndata: %s\n\n", json);
  SoupMessageBody *body = soup_server_message_get_response_body (pending->msg);

  soup_message_body_append (body, SOUP_MEMORY_TAKE, event, strlen (event));
}

/* Sends the final JSON-RPC message for the call and lets libsoup write it. */
static void
pending_reply (McpPending *pending,
               JsonNode   *message)
{
  g_autoptr(SoupServerMessage) msg = NULL;

  if (pending->msg == NULL)
    {
      pending_detach (pending);
      return;
    }

  msg = g_object_ref (pending->msg);

  if (pending->sse)
    {
      pending_send_event (pending, message);
      soup_message_body_complete (soup_server_message_get_response_body (msg));
    }
  else
    {
      set_json_response (msg, SOUP_STATUS_OK, message);
    }

  pending_detach (pending);
  soup_server_message_unpause (msg);
}

static void
pending_emit_finished (McpPending *pending,
                       gboolean    is_error,
                       const char *error_code)
{
  double duration_ms = (g_get_monotonic_time () - pending->started_at) / 1000.0;

  if (pending->server != NULL)
    g_signal_emit (pending->server, signals[CALL_FINISHED], 0,
                   pending->serial, is_error, error_code, duration_ms);
}

/* Ends a call that will not get its result: cancelled by the client, the
 * client went away, its session or token ended. The HTTP request, if it is
 * still open, gets a "Request cancelled" error. */
static void
pending_abandon (McpPending *pending,
                 const char *reason)
{
  g_autoptr(JsonNode) reply = NULL;
  g_autoptr(GCancellable) cancellable = NULL;

  if (pending->done)
    return;

  cancellable = g_object_ref (pending->cancellable);
  pending_emit_finished (pending, TRUE, "cancelled");

  reply = tw_jsonrpc_new_error (pending->id, TW_JSONRPC_ERROR_REQUEST_CANCELLED, reason);
  pending_reply (pending, reply);

  /* Last, once the reply no longer depends on it: cancelling may run the
   * service's handlers right away. */
  g_cancellable_cancel (cancellable);
}

static void
pending_done_cb (TwToolCall   *call,
                 JsonNode     *result,
                 const GError *error,
                 gpointer      user_data)
{
  McpPending *pending = user_data;
  g_autoptr(JsonNode) reply = NULL;
  const char *code = NULL;

  /* The reply went out already (cancelled, client gone): drop the result. */
  if (pending->done)
    return;

  if (error != NULL)
    code = tw_browser_error_code_name (tw_browser_error_from_gerror (error));

  pending_emit_finished (pending, error != NULL, code);

  reply = tw_jsonrpc_new_result (pending->id, result);
  pending_reply (pending, reply);
}

static void
pending_progress_cb (TwToolCall *call,
                     double      progress,
                     double      total,
                     const char *message,
                     gpointer    user_data)
{
  McpPending *pending = user_data;
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(JsonNode) notification = NULL;

  if (pending->done || !pending->sse || pending->msg == NULL)
    return;

  json_object_set_member (params, "progressToken", json_node_copy (pending->progress_token));
  json_object_set_double_member (params, "progress", progress);
  if (total > 0)
    json_object_set_double_member (params, "total", total);
  if (message != NULL)
    json_object_set_string_member (params, "message", message);

  notification = tw_jsonrpc_new_notification ("notifications/progress", params);
  pending_send_event (pending, notification);
  soup_server_message_unpause (pending->msg);
}

static void
pending_msg_finished_cb (SoupServerMessage *msg,
                         McpPending        *pending)
{
  /* libsoup is done with the request before we answered it: the client
   * closed the connection. */
  pending->finished_handler = 0;
  g_clear_object (&pending->msg);
  pending_abandon (pending, "Request cancelled: the client disconnected");
}

/* While a request is paused libsoup does not read its connection, so it
 * would not notice the client hanging up. Watch the socket instead: end of
 * stream or an error means the client is gone. */
static gboolean
pending_socket_cb (GSocket      *socket,
                   GIOCondition  condition,
                   gpointer      user_data)
{
  McpPending *pending = user_data;
  g_autoptr(GSource) source = g_steal_pointer (&pending->socket_source);

  if ((condition & (G_IO_HUP | G_IO_ERR)) == 0)
    {
      guint8 byte;
      GInputVector vector = { &byte, 1 };
      int flags = G_SOCKET_MSG_PEEK;
      gssize n;

      n = g_socket_receive_message (socket, NULL, &vector, 1, NULL, NULL, &flags, NULL, NULL);

      /* More data (a pipelined request) is not a hang-up. There is no way to
       * watch for one without reading it, so stop watching. */
      if (n > 0)
        return G_SOURCE_REMOVE;

      if (n < 0 && g_socket_condition_check (socket, G_IO_IN) == 0)
        {
          pending->socket_source = g_steal_pointer (&source);
          return G_SOURCE_CONTINUE;
        }
    }

  pending_abandon (pending, "Request cancelled: the client disconnected");

  return G_SOURCE_REMOVE;
}

static void
pending_watch_client (McpPending *pending)
{
  GSocket *socket = soup_server_message_get_socket (pending->msg);

  pending->finished_handler = g_signal_connect (pending->msg, "finished",
                                                G_CALLBACK (pending_msg_finished_cb), pending);

  if (socket == NULL)
    return;

  pending->socket_source = g_socket_create_source (socket, G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
  g_source_set_callback (pending->socket_source, G_SOURCE_FUNC (pending_socket_cb), pending, NULL);
  g_source_set_static_name (pending->socket_source, "[tabwright] MCP client hang-up");
  g_source_attach (pending->socket_source, g_main_context_get_thread_default ());
}

/* Methods. */

static void
handle_initialize (TwMcpServer       *self,
                   SoupServerMessage *msg,
                   McpClient         *client,
                   TwJsonrpcMessage  *message)
{
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(GError) error = NULL;
  const char *version = NULL;
  McpSession *session;

  /* The stdio bridge answers initialize with the same function. */
  result = tw_mcp_protocol_initialize (message->params, &version, &error);
  if (result == NULL)
    {
      reply_error (msg, SOUP_STATUS_OK, message->id, error->code, error->message);
      return;
    }

  /* Unlike the stdio bridge, the server tells its sessions when the person
   * turns tool groups on or off, over their GET streams. */
  json_object_set_boolean_member (json_object_get_object_member (json_object_get_object_member (json_node_get_object (result), "capabilities"), "tools"),
                                  "listChanged", TRUE);

  make_room_for_session (self, client);

  session = g_new0 (McpSession, 1);
  session->id = tw_mcp_generate_token ();
  session->client = mcp_client_ref (client);
  session->protocol_version = g_strdup (version);
  session->last_used = g_get_monotonic_time ();
  session->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  session->streams = g_ptr_array_new_with_free_func (g_object_unref);
  g_hash_table_insert (self->sessions, session->id, session);

  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Mcp-Session-Id", session->id);
  reply_result (msg, message->id, result);
}

static void
handle_notification (TwMcpServer      *self,
                     McpSession       *session,
                     TwJsonrpcMessage *message)
{
  if (g_strcmp0 (message->method, "notifications/cancelled") == 0 && message->params != NULL)
    {
      JsonNode *request_id = json_object_get_member (message->params, "requestId");
      g_autofree char *key = NULL;
      McpPending *pending;

      /* Cancelling something unknown or already finished is not an error:
       * the notification may simply have crossed the reply. */
      if (request_id == NULL || !tw_jsonrpc_id_is_valid (request_id))
        return;

      key = tw_jsonrpc_id_to_key (request_id);
      pending = g_hash_table_lookup (session->pending, key);
      if (pending != NULL)
        pending_abandon (pending, "Request cancelled");
    }

  /* notifications/initialized and anything else need no action. */
}

static void
handle_tools_call (TwMcpServer       *self,
                   SoupServerMessage *msg,
                   McpSession        *session,
                   TwJsonrpcMessage  *message)
{
  McpClient *client = session->client;
  const char *name = tw_json_get_string (message->params, "name", NULL);
  g_autofree char *key = NULL;
  g_autoptr(TwToolCall) call = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  JsonNode *arguments_node = NULL;
  JsonNode *meta = NULL;
  JsonNode *progress_token = NULL;
  const TwToolDef *def;
  McpPending *pending;
  TwCaller caller;

  if (name == NULL)
    {
      reply_error (msg, SOUP_STATUS_OK, message->id, TW_JSONRPC_ERROR_INVALID_PARAMS,
                   "Invalid params: \"name\" must be a string");
      return;
    }

  def = tw_tool_registry_lookup (name);
  if (def == NULL)
    {
      g_autofree char *text = g_strdup_printf ("Unknown tool: %s", name);

      reply_error (msg, SOUP_STATUS_OK, message->id, TW_JSONRPC_ERROR_INVALID_PARAMS, text);
      return;
    }

  key = tw_jsonrpc_id_to_key (message->id);
  if (g_hash_table_contains (session->pending, key))
    {
      reply_error (msg, SOUP_STATUS_OK, message->id, TW_JSONRPC_ERROR_INVALID_REQUEST,
                   "Invalid Request: a request with this id is already in progress");
      return;
    }

  arguments_node = json_object_get_member (message->params, "arguments");
  if (arguments_node == NULL || JSON_NODE_HOLDS_NULL (arguments_node))
    arguments = json_object_new ();
  else if (JSON_NODE_HOLDS_OBJECT (arguments_node))
    arguments = json_object_ref (json_node_get_object (arguments_node));

  meta = json_object_get_member (message->params, "_meta");
  if (meta != NULL && JSON_NODE_HOLDS_OBJECT (meta))
    {
      progress_token = json_object_get_member (json_node_get_object (meta), "progressToken");
      if (progress_token != NULL && !tw_jsonrpc_id_is_valid (progress_token))
        progress_token = NULL;
    }

  caller.agent_id = client->agent_id;
  caller.agent_name = client->agent_name;

  call = tw_tool_call_new (def, arguments, client->service, &caller, NULL);

  pending = g_new0 (McpPending, 1);
  pending->server = self;
  pending->msg = g_object_ref (msg);
  pending->session = session;
  pending->id_key = g_strdup (key);
  pending->id = json_node_copy (message->id);
  pending->progress_token = progress_token != NULL ? json_node_copy (progress_token) : NULL;
  pending->cancellable = g_object_ref (tw_tool_call_get_cancellable (call));
  pending->serial = ++self->next_serial;
  pending->started_at = g_get_monotonic_time ();
  pending->sse = progress_token != NULL;

  tw_tool_call_set_done_func (call, pending_done_cb, pending, mcp_pending_free);
  if (pending->sse)
    tw_tool_call_set_progress_func (call, pending_progress_cb, pending);

  g_hash_table_insert (session->pending, g_strdup (key), pending);

  g_signal_emit (self, signals[CALL_STARTED], 0,
                 pending->serial, client->agent_id, client->agent_name, def->name, arguments);

  if (pending->sse)
    {
      SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

      /* The headers go out now; events follow as chunks. */
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
      soup_message_headers_replace (headers, "Cache-Control", "no-cache");
      soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
      soup_message_body_set_accumulate (soup_server_message_get_response_body (msg), FALSE);
    }
  else
    {
      soup_server_message_pause (msg);
    }

  pending_watch_client (pending);

  if (arguments == NULL)
    {
      g_autoptr(GError) error = g_error_new_literal (TW_BROWSER_ERROR,
                                                     TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                                     "arguments must be an object");
      g_autoptr(JsonNode) result = tw_browser_error_to_tool_result (error);

      pending_done_cb (call, result, error, pending);
      return;
    }

  /* The handler may finish the call before this returns; from here on the
   * pending call belongs to it. */
  tw_tool_call_start (call);
}

static McpSession *
lookup_session (TwMcpServer       *self,
                SoupServerMessage *msg,
                McpClient         *client)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *id = soup_message_headers_get_one (headers, "Mcp-Session-Id");
  McpSession *session;

  if (id == NULL)
    {
      reply_error (msg, SOUP_STATUS_BAD_REQUEST, NULL, TW_JSONRPC_ERROR_SERVER_ERROR,
                   "Bad Request: the Mcp-Session-Id header is missing; send initialize first");
      return NULL;
    }

  session = g_hash_table_lookup (self->sessions, id);

  if (session != NULL && session_is_expired (self, session, g_get_monotonic_time ()))
    {
      g_hash_table_remove (self->sessions, id);
      session = NULL;
    }

  /* A session of another token is reported exactly like an unknown one. */
  if (session == NULL || session->client != client)
    {
      reply_error (msg, SOUP_STATUS_NOT_FOUND, NULL, TW_JSONRPC_ERROR_SESSION_NOT_FOUND,
                   "Session not found: it ended or expired; send initialize to start a new one");
      return NULL;
    }

  return session;
}

static void
handle_post (TwMcpServer       *self,
             SoupServerMessage *msg,
             McpClient         *client)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  g_autoptr(GBytes) body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  g_autoptr(TwJsonrpcMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  const char *protocol_version;
  McpSession *session;
  gsize length = 0;
  const char *data = g_bytes_get_data (body, &length);

  message = tw_jsonrpc_message_parse (data != NULL ? data : "", length, &error);
  if (message == NULL)
    {
      reply_error (msg, SOUP_STATUS_BAD_REQUEST, NULL, error->code, error->message);
      return;
    }

  if (message->kind == TW_JSONRPC_MESSAGE_REQUEST &&
      g_strcmp0 (message->method, "initialize") == 0)
    {
      handle_initialize (self, msg, client, message);
      return;
    }

  session = lookup_session (self, msg, client);
  if (session == NULL)
    return;

  protocol_version = soup_message_headers_get_one (headers, "MCP-Protocol-Version");
  if (protocol_version != NULL && !tw_mcp_protocol_version_is_supported (protocol_version))
    {
      g_autofree char *supported = tw_mcp_protocol_dup_supported_versions ();
      g_autofree char *text = g_strdup_printf ("Bad Request: unsupported MCP-Protocol-Version "
                                               "\"%s\"; supported: %s",
                                               protocol_version, supported);

      reply_error (msg, SOUP_STATUS_BAD_REQUEST, NULL, TW_JSONRPC_ERROR_SERVER_ERROR, text);
      return;
    }

  session->last_used = g_get_monotonic_time ();

  switch (message->kind)
    {
    case TW_JSONRPC_MESSAGE_NOTIFICATION:
      handle_notification (self, session, message);
      soup_server_message_set_status (msg, SOUP_STATUS_ACCEPTED, NULL);
      return;

    case TW_JSONRPC_MESSAGE_RESPONSE:
      /* The server sends no requests, so there is nothing to match. */
      soup_server_message_set_status (msg, SOUP_STATUS_ACCEPTED, NULL);
      return;

    case TW_JSONRPC_MESSAGE_REQUEST:
    default:
      break;
    }

  if (g_strcmp0 (message->method, "ping") == 0)
    {
      g_autoptr(JsonNode) result = json_node_init_object (json_node_alloc (), json_object_new ());

      /* json_node_init_object took its own reference. */
      json_object_unref (json_node_get_object (result));
      reply_result (msg, message->id, result);
    }
  else if (g_strcmp0 (message->method, "tools/list") == 0)
    {
      g_autoptr(JsonNode) result = tw_tool_registry_list_offered_tools (client->service);

      reply_result (msg, message->id, result);
    }
  else if (g_strcmp0 (message->method, "tools/call") == 0)
    {
      handle_tools_call (self, msg, session, message);
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("Method not found: %s", message->method);

      reply_error (msg, SOUP_STATUS_OK, message->id, TW_JSONRPC_ERROR_METHOD_NOT_FOUND, text);
    }
}

static void
handle_delete (TwMcpServer       *self,
               SoupServerMessage *msg,
               McpClient         *client)
{
  McpSession *session = lookup_session (self, msg, client);

  if (session == NULL)
    return;

  g_hash_table_remove (self->sessions, session->id);
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
}

/* Streams. A GET with the session's id opens a stream of server messages
 * (Streamable HTTP); it stays open until the client closes it or the
 * session ends. */

static void
stream_finished_cb (SoupServerMessage *msg,
                    McpSession        *session)
{
  g_signal_handlers_disconnect_by_data (msg, session);
  g_ptr_array_remove (session->streams, msg);
}

static void
handle_get (TwMcpServer       *self,
            SoupServerMessage *msg,
            McpClient         *client)
{
  SoupMessageHeaders *request_headers = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);
  const char *accept = soup_message_headers_get_one (request_headers, "Accept");
  McpSession *session;

  if (accept == NULL || strstr (accept, "text/event-stream") == NULL)
    {
      reply_error (msg, SOUP_STATUS_NOT_ACCEPTABLE, NULL, TW_JSONRPC_ERROR_SERVER_ERROR,
                   "Not Acceptable: a GET opens a stream of server messages; "
                   "send \"Accept: text/event-stream\"");
      return;
    }

  session = lookup_session (self, msg, client);
  if (session == NULL)
    return;

  session->last_used = g_get_monotonic_time ();

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_body_set_accumulate (soup_server_message_get_response_body (msg), FALSE);

  g_ptr_array_add (session->streams, g_object_ref (msg));
  g_signal_connect (msg, "finished", G_CALLBACK (stream_finished_cb), session);
}

static void
session_send_notification (McpSession *session,
                           JsonNode   *notification)
{
  g_autofree char *json = tw_jsonrpc_to_string (notification, NULL);

  for (guint i = 0; i < session->streams->len; i++)
    {
      SoupServerMessage *msg = g_ptr_array_index (session->streams, i);
      char *event = g_strdup_printf ("event: message\ndata: %s\n\n", json);

      soup_message_body_append (soup_server_message_get_response_body (msg),
                                SOUP_MEMORY_TAKE, event, strlen (event));
      soup_server_message_unpause (msg);
    }
}

/* The person turned a tool group on or off in the client's workspace: every
 * session of the client learns it, and asks tools/list again. */
static void
client_tools_changed_cb (TwBrowserService *service,
                         McpClient        *client)
{
  g_autoptr(JsonNode) notification = NULL;
  GHashTableIter iter;
  gpointer value;

  if (client->server == NULL || client->revoked)
    return;

  notification = tw_jsonrpc_new_notification ("notifications/tools/list_changed", NULL);

  g_hash_table_iter_init (&iter, client->server->sessions);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      McpSession *session = value;

      if (session->client == client)
        session_send_notification (session, notification);
    }
}

/* Deadlines. libsoup 3 has no time limit of its own for reading a request,
 * so a client sending one byte a minute, or none, would keep its connection
 * forever. When time is up the connection is shut down under libsoup, which
 * then sees the end of the stream and drops the connection like any other
 * that closed. */

static void
deadline_free (McpDeadline *deadline)
{
  if (deadline->timeout != NULL)
    {
      g_source_destroy (deadline->timeout);
      g_clear_pointer (&deadline->timeout, g_source_unref);
    }
  g_free (deadline);
}

static gboolean
deadline_expired_cb (gpointer user_data)
{
  McpDeadline *deadline = user_data;
  GSocket *socket = soup_server_message_get_socket (deadline->msg);

  g_clear_pointer (&deadline->timeout, g_source_unref);

  g_debug ("Closing an MCP connection that did not send its request in time");
  if (socket != NULL)
    g_socket_shutdown (socket, TRUE, TRUE, NULL);

  return G_SOURCE_REMOVE;
}

static void
deadline_set (SoupServerMessage *msg,
              guint              timeout_ms)
{
  McpDeadline *deadline = g_new0 (McpDeadline, 1);

  deadline->msg = msg;
  deadline->timeout = g_timeout_source_new (timeout_ms);
  g_source_set_callback (deadline->timeout, deadline_expired_cb, deadline, NULL);
  g_source_set_static_name (deadline->timeout, "[tabwright] MCP request deadline");
  g_source_attach (deadline->timeout, g_main_context_get_thread_default ());

  /* Replaces, and so ends, the deadline before it. */
  g_object_set_data_full (G_OBJECT (msg), "tw-mcp-deadline", deadline,
                          (GDestroyNotify) deadline_free);
}

static void
deadline_clear (SoupServerMessage *msg)
{
  g_object_set_data (G_OBJECT (msg), "tw-mcp-deadline", NULL);
}

/* Request plumbing. */

static void
mcp_request_free (McpRequest *request)
{
  g_clear_pointer (&request->client, mcp_client_unref);
  g_free (request);
}

static McpRequest *
get_request (SoupServerMessage *msg)
{
  return g_object_get_data (G_OBJECT (msg), "tw-mcp-request");
}

/* Every check that needs only the headers runs here, before the body is
 * read, in the order DNS-rebinding defence, origin, credentials, then the
 * shape of the request. */
static void
got_headers_cb (SoupServerMessage *msg,
                TwMcpServer       *self)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *method = soup_server_message_get_method (msg);
  const char *path = g_uri_get_path (soup_server_message_get_uri (msg));
  const char *content_type;
  McpRequest *request;
  McpClient *client;

  /* The headers are in: the body gets its own time. */
  deadline_set (msg, self->body_timeout_ms);

  /* libsoup refused the request line already. */
  if (soup_server_message_get_status (msg) != 0)
    return;

  request = g_new0 (McpRequest, 1);
  g_object_set_data_full (G_OBJECT (msg), "tw-mcp-request", request,
                          (GDestroyNotify) mcp_request_free);

  if (!tw_mcp_auth_host_allowed (soup_message_headers_get_one (headers, "Host"), self->port))
    {
      reject_request (msg, request, SOUP_STATUS_FORBIDDEN, TW_JSONRPC_ERROR_SERVER_ERROR,
                      "Forbidden: the Host header must be 127.0.0.1, localhost or [::1] "
                      "with this server's port");
      return;
    }

  if (!tw_mcp_auth_origin_allowed (soup_message_headers_get_one (headers, "Origin")))
    {
      reject_request (msg, request, SOUP_STATUS_FORBIDDEN, TW_JSONRPC_ERROR_SERVER_ERROR,
                      "Forbidden: requests from web pages are only accepted from "
                      "127.0.0.1, localhost or [::1]");
      return;
    }

  client = find_client (self, soup_message_headers_get_one (headers, "Authorization"));
  if (client == NULL)
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "WWW-Authenticate", "Bearer");
      reject_request (msg, request, SOUP_STATUS_UNAUTHORIZED, TW_JSONRPC_ERROR_SERVER_ERROR,
                      "Unauthorized: send \"Authorization: Bearer <token>\" with the token "
                      "Tabwright gave you");
      return;
    }
  request->client = mcp_client_ref (client);

  if (g_strcmp0 (path, MCP_PATH) != 0)
    {
      reject_request (msg, request, SOUP_STATUS_NOT_FOUND, TW_JSONRPC_ERROR_SERVER_ERROR,
                      "Not Found: the MCP endpoint is " MCP_PATH);
      return;
    }

  if (method != SOUP_METHOD_POST && method != SOUP_METHOD_DELETE && method != SOUP_METHOD_GET)
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "Allow", "GET, POST, DELETE");
      reject_request (msg, request, SOUP_STATUS_METHOD_NOT_ALLOWED, TW_JSONRPC_ERROR_SERVER_ERROR,
                      "Method Not Allowed: use POST to send messages, GET to open a stream "
                      "of server messages and DELETE to end a session");
      return;
    }

  /* A DELETE or a GET says all it has to say in its headers. */
  if (method != SOUP_METHOD_POST)
    {
      soup_message_body_set_accumulate (soup_server_message_get_request_body (msg), FALSE);
      return;
    }

  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
      soup_message_headers_get_content_length (headers) > TW_MCP_MAX_BODY_SIZE)
    {
      reject_request (msg, request, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE,
                      TW_JSONRPC_ERROR_SERVER_ERROR,
                      "Payload Too Large: a message may be at most 4 MiB");
      return;
    }

  content_type = soup_message_headers_get_content_type (headers, NULL);
  if (content_type == NULL || g_ascii_strcasecmp (content_type, "application/json") != 0)
    {
      reject_request (msg, request, SOUP_STATUS_UNSUPPORTED_MEDIA_TYPE,
                      TW_JSONRPC_ERROR_SERVER_ERROR,
                      "Unsupported Media Type: send JSON-RPC messages as application/json");
      return;
    }
}

/* A body without Content-Length (chunked) is measured as it arrives. */
static void
got_chunk_cb (SoupServerMessage *msg,
              GBytes            *chunk,
              TwMcpServer       *self)
{
  McpRequest *request = get_request (msg);

  if (request == NULL || request->rejected)
    return;

  request->body_size += g_bytes_get_size (chunk);
  if (request->body_size > TW_MCP_MAX_BODY_SIZE)
    reject_request (msg, request, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE,
                    TW_JSONRPC_ERROR_SERVER_ERROR,
                    "Payload Too Large: a message may be at most 4 MiB");
}

/* libsoup writes a response's headers and its body in two sends. With
 * Nagle's algorithm on, the body waits for the client to acknowledge the
 * headers, and a client that delays its acknowledgement (Linux does, on
 * loopback too) adds up to 40 ms to every call. Replies are whole messages,
 * so there is nothing to gain from coalescing: send at once. */
static void
set_no_delay (SoupServerMessage *msg)
{
  GSocket *socket = soup_server_message_get_socket (msg);
  g_autoptr(GError) error = NULL;

  if (socket == NULL || g_socket_get_family (socket) == G_SOCKET_FAMILY_UNIX)
    return;

  if (!g_socket_set_option (socket, IPPROTO_TCP, TCP_NODELAY, 1, &error))
    g_debug ("Cannot turn off Nagle's algorithm on an MCP connection: %s", error->message);
}

static void
request_started_cb (SoupServer        *soup,
                    SoupServerMessage *msg,
                    TwMcpServer       *self)
{
  set_no_delay (msg);
  deadline_set (msg, self->header_timeout_ms);

  g_signal_connect_object (msg, "got-headers", G_CALLBACK (got_headers_cb), self, 0);
  g_signal_connect_object (msg, "got-chunk", G_CALLBACK (got_chunk_cb), self, 0);
}

static void
server_handler_cb (SoupServer        *soup,
                   SoupServerMessage *msg,
                   const char        *path,
                   GHashTable        *query,
                   gpointer           user_data)
{
  TwMcpServer *self = user_data;
  McpRequest *request = get_request (msg);
  const char *method = soup_server_message_get_method (msg);

  /* The whole request arrived; from here the server takes its time. */
  deadline_clear (msg);

  /* got-headers let this request through, so it has a client; the token
   * may have been revoked while the body was arriving. */
  if (request == NULL || request->client == NULL || request->client->revoked)
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "WWW-Authenticate", "Bearer");
      reply_error (msg, SOUP_STATUS_UNAUTHORIZED, NULL, TW_JSONRPC_ERROR_SERVER_ERROR,
                   "Unauthorized: the token was revoked");
      return;
    }

  if (method == SOUP_METHOD_DELETE)
    handle_delete (self, msg, request->client);
  else if (method == SOUP_METHOD_GET)
    handle_get (self, msg, request->client);
  else
    handle_post (self, msg, request->client);
}

/* GObject. */

static void
abandon_all (TwMcpServer *self)
{
  g_hash_table_remove_all (self->sessions);
}

static void
tw_mcp_server_dispose (GObject *object)
{
  TwMcpServer *self = TW_MCP_SERVER (object);

  tw_mcp_server_stop (self);

  for (guint i = 0; i < self->clients->len; i++)
    {
      McpClient *client = g_ptr_array_index (self->clients, i);

      client->revoked = TRUE;
      client->server = NULL;
    }
  g_ptr_array_set_size (self->clients, 0);

  G_OBJECT_CLASS (tw_mcp_server_parent_class)->dispose (object);
}

static void
tw_mcp_server_finalize (GObject *object)
{
  TwMcpServer *self = TW_MCP_SERVER (object);

  g_clear_pointer (&self->sessions, g_hash_table_unref);
  g_clear_pointer (&self->clients, g_ptr_array_unref);

  G_OBJECT_CLASS (tw_mcp_server_parent_class)->finalize (object);
}

static void
tw_mcp_server_class_init (TwMcpServerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_mcp_server_dispose;
  object_class->finalize = tw_mcp_server_finalize;

  /**
   * TwMcpServer::call-started:
   * @serial: identifies the call in call-finished
   * @agent_id: the caller's agent id
   * @agent_name: the caller's display name
   * @tool: the tool name
   * @arguments: (nullable): the arguments as sent
   *
   * A tools/call was accepted and its handler is about to run.
   */
  signals[CALL_STARTED] =
    g_signal_new ("call-started",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 5,
                  G_TYPE_UINT64,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_OBJECT);

  /**
   * TwMcpServer::call-finished:
   * @serial: as given by call-started
   * @is_error: whether the result is an error
   * @error_code: (nullable): the browser_* error code, or "cancelled" when
   *   the client cancelled the call or went away
   * @duration_ms: time from call-started
   */
  signals[CALL_FINISHED] =
    g_signal_new ("call-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4,
                  G_TYPE_UINT64,
                  G_TYPE_BOOLEAN,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_DOUBLE);
}

static void
tw_mcp_server_init (TwMcpServer *self)
{
  self->clients = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_client_unref);
  self->sessions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                          (GDestroyNotify) mcp_session_free);
  self->idle_timeout_us = (gint64) TW_MCP_SESSION_IDLE_TIMEOUT_MS * 1000;
  self->max_sessions_per_client = TW_MCP_MAX_SESSIONS_PER_CLIENT;
  self->header_timeout_ms = TW_MCP_HEADER_TIMEOUT_MS;
  self->body_timeout_ms = TW_MCP_BODY_TIMEOUT_MS;
}

TwMcpServer *
tw_mcp_server_new (void)
{
  return g_object_new (TW_TYPE_MCP_SERVER, NULL);
}

gboolean
tw_mcp_server_start (TwMcpServer  *self,
                     guint16       port,
                     GError      **error)
{
  g_autoptr(SoupServer) soup = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSocketAddress) local = NULL;

  g_return_val_if_fail (TW_IS_MCP_SERVER (self), FALSE);
  g_return_val_if_fail (self->soup == NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  soup = soup_server_new ("server-header", "Tabwright/" PACKAGE_VERSION, NULL);
  soup_server_add_handler (soup, NULL, server_handler_cb, self, NULL);
  g_signal_connect_object (soup, "request-started", G_CALLBACK (request_started_cb), self, 0);

  /* Loopback only: the server is for agents on this machine. The socket is
   * made here rather than by soup_server_listen() for its backlog: libsoup
   * keeps GSocket's default of 10, and agents connecting in parallel then
   * overflow the queue and wait for their SYN to be sent again, for seconds. */
  address = g_inet_socket_address_new_from_string ("127.0.0.1", port);
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, error);
  if (socket == NULL)
    return FALSE;
  g_socket_set_listen_backlog (socket, TW_MCP_LISTEN_BACKLOG);
  if (!g_socket_bind (socket, address, TRUE, error) ||
      !g_socket_listen (socket, error) ||
      !soup_server_listen_socket (soup, socket, 0, error))
    return FALSE;

  /* From the socket rather than soup_server_get_uris(), which leaks an
   * address each time in libsoup 3.2. */
  local = g_socket_get_local_address (socket, error);
  if (local == NULL)
    {
      soup_server_disconnect (soup);
      return FALSE;
    }

  self->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local));
  self->soup = g_steal_pointer (&soup);

  restart_sweep (self);

  g_debug ("MCP server listening on http://127.0.0.1:%u" MCP_PATH, self->port);

  return TRUE;
}

void
tw_mcp_server_stop (TwMcpServer *self)
{
  g_return_if_fail (TW_IS_MCP_SERVER (self));

  g_clear_handle_id (&self->sweep_source, g_source_remove);
  abandon_all (self);

  if (self->soup != NULL)
    {
      /* Nothing may reach this object through the server after this, even
       * if libsoup keeps it alive a little longer. */
      soup_server_remove_handler (self->soup, NULL);
      g_signal_handlers_disconnect_by_data (self->soup, self);
      soup_server_disconnect (self->soup);
      g_clear_object (&self->soup);
    }

  self->port = 0;
}

guint16
tw_mcp_server_get_port (TwMcpServer *self)
{
  g_return_val_if_fail (TW_IS_MCP_SERVER (self), 0);

  return self->port;
}

char *
tw_mcp_server_dup_url (TwMcpServer *self)
{
  g_return_val_if_fail (TW_IS_MCP_SERVER (self), NULL);

  if (self->port == 0)
    return NULL;

  return g_strdup_printf ("http://127.0.0.1:%u" MCP_PATH, self->port);
}

void
tw_mcp_server_add_client (TwMcpServer      *self,
                          const char       *token,
                          const char       *agent_id,
                          const char       *agent_name,
                          TwBrowserService *service)
{
  McpClient *client;

  g_return_if_fail (TW_IS_MCP_SERVER (self));
  g_return_if_fail (token != NULL && token[0] != '\0');
  g_return_if_fail (agent_id != NULL);
  g_return_if_fail (service == NULL || TW_IS_BROWSER_SERVICE (service));

  /* Registering a token again replaces what it stands for. */
  tw_mcp_server_remove_client (self, token);

  client = g_rc_box_new0 (McpClient);
  client->token = g_strdup (token);
  client->agent_id = g_strdup (agent_id);
  client->agent_name = g_strdup (agent_name != NULL ? agent_name : agent_id);
  client->service = service != NULL ? g_object_ref (service) : NULL;
  client->server = self;
  if (service != NULL)
    client->tools_changed_handler = g_signal_connect (service, "tools-changed",
                                                      G_CALLBACK (client_tools_changed_cb),
                                                      client);

  g_ptr_array_add (self->clients, client);
}

void
tw_mcp_server_remove_client (TwMcpServer *self,
                             const char  *token)
{
  g_return_if_fail (TW_IS_MCP_SERVER (self));
  g_return_if_fail (token != NULL);

  for (guint i = 0; i < self->clients->len; i++)
    {
      McpClient *client = g_ptr_array_index (self->clients, i);

      if (g_strcmp0 (client->token, token) == 0)
        {
          g_autoptr(McpClient) removed = mcp_client_ref (client);

          removed->revoked = TRUE;
          removed->server = NULL;
          g_ptr_array_remove_index (self->clients, i);

          /* Ending the sessions cancels their calls in flight. */
          drop_sessions_of_client (self, removed);
          return;
        }
    }
}

void
tw_mcp_server_set_session_limits (TwMcpServer *self,
                                  guint        idle_timeout_ms,
                                  guint        max_sessions_per_client)
{
  g_return_if_fail (TW_IS_MCP_SERVER (self));
  g_return_if_fail (max_sessions_per_client > 0);

  self->idle_timeout_us = (gint64) idle_timeout_ms * 1000;
  self->max_sessions_per_client = max_sessions_per_client;

  restart_sweep (self);
}

void
tw_mcp_server_set_connection_limits (TwMcpServer *self,
                                     guint        header_timeout_ms,
                                     guint        body_timeout_ms)
{
  g_return_if_fail (TW_IS_MCP_SERVER (self));
  g_return_if_fail (header_timeout_ms > 0 && body_timeout_ms > 0);

  self->header_timeout_ms = header_timeout_ms;
  self->body_timeout_ms = body_timeout_ms;
}

guint
tw_mcp_server_get_n_sessions (TwMcpServer *self)
{
  g_return_val_if_fail (TW_IS_MCP_SERVER (self), 0);

  return g_hash_table_size (self->sessions);
}
