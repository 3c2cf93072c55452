/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-mcp-server-private.h"

#include <libsoup/soup.h>

#include "tw-error.h"
#include "tw-json.h"
#include "tw-jsonrpc.h"
#include "tw-tool-call-private.h"
#include "tw-tool-registry.h"

/* tools/call: a call runs while its HTTP request waits, paused or as an SSE
 * stream of progress notifications, and ends with its result or, when the
 * client cancels it or goes away, with "Request cancelled". */

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

  _tw_mcp_server_send_event (pending->msg, json);
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
      _tw_mcp_server_set_json_response (msg, SOUP_STATUS_OK, message);
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
    g_signal_emit (pending->server, _tw_mcp_server_signals[CALL_FINISHED], 0,
                   pending->serial, is_error, error_code, duration_ms);
}

/* Ends a call that will not get its result: cancelled by the client, the
 * client went away, its session or token ended. The HTTP request, if it is
 * still open, gets a "Request cancelled" error. */
void
_tw_mcp_server_pending_abandon (McpPending *pending,
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
  _tw_mcp_server_pending_abandon (pending, "Request cancelled: the client disconnected");
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

  _tw_mcp_server_pending_abandon (pending, "Request cancelled: the client disconnected");

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

/* Starting a call. */

void
_tw_mcp_server_handle_tools_call (TwMcpServer       *self,
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
      _tw_mcp_server_reply_error (msg, SOUP_STATUS_OK, message->id, TW_JSONRPC_ERROR_INVALID_PARAMS,
                                  "Invalid params: \"name\" must be a string");
      return;
    }

  def = tw_tool_registry_lookup (name);
  if (def == NULL)
    {
      g_autofree char *text = g_strdup_printf ("Unknown tool: %s", name);

      _tw_mcp_server_reply_error (msg, SOUP_STATUS_OK, message->id,
                                  TW_JSONRPC_ERROR_INVALID_PARAMS, text);
      return;
    }

  key = tw_jsonrpc_id_to_key (message->id);
  if (g_hash_table_contains (session->pending, key))
    {
      _tw_mcp_server_reply_error (msg, SOUP_STATUS_OK, message->id,
                                  TW_JSONRPC_ERROR_INVALID_REQUEST,
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

  g_signal_emit (self, _tw_mcp_server_signals[CALL_STARTED], 0,
                 pending->serial, client->agent_id, client->agent_name, def->name, arguments);

  if (pending->sse)
    _tw_mcp_server_start_event_stream (msg);
  else
    soup_server_message_pause (msg);

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
