/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-stdio-bridge-private.h"

#include "tw-mcp-protocol.h"

/* Messages from the client, one line each: the bridge answers initialize and
 * ping itself, passes tools/call and tools/list on as requests, and the
 * client's notifications and responses as they are. */

static void
handle_initialize (TwStdioBridge    *self,
                   TwJsonrpcMessage *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) result = NULL;

  result = tw_mcp_protocol_initialize (message->params, NULL, &error);
  if (result == NULL)
    {
      tw_stdio_bridge_send_error (self, message->id, error->code, error->message);
      return;
    }

  /* Kept for the sessions opened with the app from now on. */
  g_clear_pointer (&self->client_params, json_object_unref);
  self->client_params = json_object_ref (message->params);

  tw_stdio_bridge_send_result (self, message->id, result);
}

/* Takes @message. */
static void
handle_tools_call (TwStdioBridge    *self,
                   TwJsonrpcMessage *message,
                   GBytes           *line)
{
  g_autofree char *key = tw_jsonrpc_id_to_key (message->id);
  Request *request;

  /* The id is how answers and cancellations find their request. */
  if (g_hash_table_contains (self->requests, key))
    {
      tw_stdio_bridge_send_error (self, message->id, TW_JSONRPC_ERROR_INVALID_REQUEST,
                                  "Invalid Request: a request with this id is already in progress");
      tw_jsonrpc_message_free (message);
      return;
    }

  request = g_new0 (Request, 1);
  request->self = self;
  request->message = message;
  request->line = g_bytes_ref (line);
  request->id_key = g_steal_pointer (&key);
  g_hash_table_insert (self->requests, request->id_key, request);
  self->n_busy++;

  tw_stdio_bridge_request_dispatch (request);
}

/* Takes @message. */
static void
handle_request (TwStdioBridge    *self,
                TwJsonrpcMessage *message,
                GBytes           *line)
{
  /* tools/call goes to the app, and so does tools/list, since the app
   * lists only the tool groups the workspace offers; everything else is
   * answered here, so it works the same with and without a running app. */
  if (g_str_equal (message->method, "tools/call") || g_str_equal (message->method, "tools/list"))
    {
      handle_tools_call (self, message, line);
      return;
    }

  if (g_str_equal (message->method, "initialize"))
    {
      handle_initialize (self, message);
    }
  else if (g_str_equal (message->method, "ping"))
    {
      g_autoptr(JsonNode) result = json_node_new (JSON_NODE_OBJECT);

      json_node_take_object (result, json_object_new ());
      tw_stdio_bridge_send_result (self, message->id, result);
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("Method not found: %s", message->method);

      tw_stdio_bridge_send_error (self, message->id, TW_JSONRPC_ERROR_METHOD_NOT_FOUND, text);
    }

  tw_jsonrpc_message_free (message);
}

static void
handle_cancelled (TwStdioBridge    *self,
                  TwJsonrpcMessage *message,
                  GBytes           *line)
{
  JsonNode *request_id = message->params != NULL ?
                         json_object_get_member (message->params, "requestId") : NULL;
  g_autofree char *key = NULL;
  Request *request;

  /* Cancelling something unknown or finished is not an error: the
   * notification may have crossed the answer. */
  if (request_id == NULL || !tw_jsonrpc_id_is_valid (request_id))
    return;

  key = tw_jsonrpc_id_to_key (request_id);
  request = g_hash_table_lookup (self->requests, key);
  if (request == NULL || request->cancelled)
    return;

  request->cancelled = TRUE;

  if (!request->sent)
    {
      g_queue_remove (&self->waiting, request);
      tw_stdio_bridge_request_finish (request);
      return;
    }

  /* The app stops the call and answers its request with an error, which
   * is dropped: the client expects no answer any more. Without the session
   * the call ran in, closing its connection stops it just as well. */
  if (self->state == UPSTREAM_READY && self->generation == request->generation)
    tw_stdio_bridge_forward (self, line);
  else if (request->exchange != NULL)
    g_cancellable_cancel (request->exchange->cancellable);
}

static void
handle_message (TwStdioBridge    *self,
                TwJsonrpcMessage *message,
                GBytes           *line)
{
  switch (message->kind)
    {
    case TW_JSONRPC_MESSAGE_REQUEST:
      /* Takes the message. */
      handle_request (self, message, line);
      return;

    case TW_JSONRPC_MESSAGE_NOTIFICATION:
      if (g_str_equal (message->method, "notifications/cancelled"))
        handle_cancelled (self, message, line);
      else if (g_str_equal (message->method, "notifications/initialized"))
        ; /* Each session with the app gets its own. */
      else if (self->state == UPSTREAM_READY)
        tw_stdio_bridge_forward (self, line);
      break;

    case TW_JSONRPC_MESSAGE_RESPONSE:
    default:
      /* The app sends no requests today; pass answers on all the same. */
      if (self->state == UPSTREAM_READY)
        tw_stdio_bridge_forward (self, line);
      break;
    }

  tw_jsonrpc_message_free (message);
}

/* The id of a message that could not be read as JSON-RPC, when it has one,
 * so the client can match the error to its request. */
static JsonNode *
salvage_id (const char *data,
            gsize       length)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;
  JsonNode *id;

  if (!g_utf8_validate_len (data, length, NULL) ||
      !json_parser_load_from_data (parser, data, length, NULL))
    return NULL;

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;

  id = json_object_get_member (json_node_get_object (root), "id");
  if (id == NULL || !tw_jsonrpc_id_is_valid (id))
    return NULL;

  return json_node_copy (id);
}

void
tw_stdio_bridge_handle_line (TwStdioBridge *self,
                             char          *data,
                             gsize          length)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) line = NULL;
  TwJsonrpcMessage *message;
  gboolean blank = TRUE;

  if (length > 0 && data[length - 1] == '\r')
    data[--length] = '\0';

  for (gsize i = 0; i < length && blank; i++)
    blank = g_ascii_isspace (data[i]);
  if (blank)
    return;

  message = tw_jsonrpc_message_parse (data, length, &error);
  if (message == NULL)
    {
      g_autoptr(JsonNode) id = salvage_id (data, length);

      g_debug ("Unreadable message: %s", error->message);
      tw_stdio_bridge_send_error (self, id, error->code, error->message);
      return;
    }

  line = g_bytes_new (data, length);
  handle_message (self, message, line);
}
