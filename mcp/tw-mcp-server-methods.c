/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-mcp-server-private.h"

#include <libsoup/soup.h>

#include "tw-jsonrpc.h"
#include "tw-mcp-protocol.h"
#include "tw-tool-registry.h"

/* The JSON-RPC messages of a POST: initialize starts a session, the rest
 * need one, and each method goes to its handler. */

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
      _tw_mcp_server_reply_error (msg, SOUP_STATUS_OK, message->id, error->code, error->message);
      return;
    }

  /* Unlike the stdio bridge, the server tells its sessions when the person
   * turns tool groups on or off, over their GET streams. */
  json_object_set_boolean_member (json_object_get_object_member (json_object_get_object_member (json_node_get_object (result), "capabilities"), "tools"),
                                  "listChanged", TRUE);

  _tw_mcp_server_make_room_for_session (self, client);

  session = g_new0 (McpSession, 1);
  session->id = tw_mcp_generate_token ();
  session->client = _tw_mcp_server_client_ref (client);
  session->protocol_version = g_strdup (version);
  session->last_used = g_get_monotonic_time ();
  session->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  session->streams = g_ptr_array_new_with_free_func (g_object_unref);
  g_hash_table_insert (self->sessions, session->id, session);

  soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                "Mcp-Session-Id", session->id);
  _tw_mcp_server_reply_result (msg, message->id, result);
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
        _tw_mcp_server_pending_abandon (pending, "Request cancelled");
    }

  /* notifications/initialized and anything else need no action. */
}

void
_tw_mcp_server_handle_post (TwMcpServer       *self,
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
      _tw_mcp_server_reply_error (msg, SOUP_STATUS_BAD_REQUEST, NULL, error->code, error->message);
      return;
    }

  if (message->kind == TW_JSONRPC_MESSAGE_REQUEST &&
      g_strcmp0 (message->method, "initialize") == 0)
    {
      handle_initialize (self, msg, client, message);
      return;
    }

  session = _tw_mcp_server_lookup_session (self, msg, client);
  if (session == NULL)
    return;

  protocol_version = soup_message_headers_get_one (headers, "MCP-Protocol-Version");
  if (protocol_version != NULL && !tw_mcp_protocol_version_is_supported (protocol_version))
    {
      g_autofree char *supported = tw_mcp_protocol_dup_supported_versions ();
      g_autofree char *text = g_strdup_printf ("Bad Request: unsupported MCP-Protocol-Version "
                                               "\"%s\"; supported: %s",
                                               protocol_version, supported);

      _tw_mcp_server_reply_error (msg, SOUP_STATUS_BAD_REQUEST, NULL,
                                  TW_JSONRPC_ERROR_SERVER_ERROR, text);
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
      _tw_mcp_server_reply_result (msg, message->id, result);
    }
  else if (g_strcmp0 (message->method, "tools/list") == 0)
    {
      g_autoptr(JsonNode) result = tw_tool_registry_list_offered_tools (client->service);

      _tw_mcp_server_reply_result (msg, message->id, result);
    }
  else if (g_strcmp0 (message->method, "tools/call") == 0)
    {
      _tw_mcp_server_handle_tools_call (self, msg, session, message);
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("Method not found: %s", message->method);

      _tw_mcp_server_reply_error (msg, SOUP_STATUS_OK, message->id,
                                  TW_JSONRPC_ERROR_METHOD_NOT_FOUND, text);
    }
}
