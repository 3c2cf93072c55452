/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-stdio-bridge-private.h"

#include "tw-error.h"
#include "tw-json.h"
#include "tw-tool-registry.h"

/* Requests from the client that the app answers. */

void
tw_stdio_bridge_request_free (Request *request)
{
  g_clear_pointer (&request->message, tw_jsonrpc_message_free);
  g_clear_pointer (&request->line, g_bytes_unref);
  g_free (request->id_key);
  g_free (request);
}

void
tw_stdio_bridge_request_finish (Request *request)
{
  TwStdioBridge *self = request->self;

  if (g_hash_table_lookup (self->requests, request->id_key) == request)
    g_hash_table_remove (self->requests, request->id_key);

  g_assert (self->n_busy > 0);
  self->n_busy--;

  tw_stdio_bridge_request_free (request);
  tw_stdio_bridge_maybe_finish (self);
}

/* Answers a tools/call that no app can serve: what a running app would say
 * about the call itself comes first, so the answer does not depend on
 * whether one runs. */
void
tw_stdio_bridge_request_reply_no_host (Request    *request,
                                       const char *reason)
{
  TwJsonrpcMessage *message = request->message;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) result = NULL;
  JsonNode *name = NULL;

  /* Without an app every tool is listed: which groups a workspace offers
   * is the app's to say, and its calls fail the same way. */
  if (g_str_equal (message->method, "tools/list"))
    {
      result = tw_tool_registry_list_tools ();
      tw_stdio_bridge_send_result (request->self, message->id, result);
      return;
    }

  if (message->params != NULL)
    name = json_object_get_member (message->params, "name");

  if (tw_json_value_type (name) != G_TYPE_STRING)
    {
      tw_stdio_bridge_send_error (request->self, message->id, TW_JSONRPC_ERROR_INVALID_PARAMS,
                                  "Invalid params: \"name\" must be a string");
      return;
    }

  if (tw_tool_registry_lookup (json_node_get_string (name)) == NULL)
    {
      g_autofree char *text = g_strdup_printf ("Unknown tool: %s", json_node_get_string (name));

      tw_stdio_bridge_send_error (request->self, message->id, TW_JSONRPC_ERROR_INVALID_PARAMS,
                                  text);
      return;
    }

  error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NO_HOST, reason);
  result = tw_browser_error_to_tool_result (error);
  tw_stdio_bridge_send_result (request->self, message->id, result);
}

static void
request_message_cb (Exchange         *exchange,
                    TwJsonrpcMessage *message,
                    const char       *data,
                    gsize             length,
                    gpointer          user_data)
{
  Request *request = user_data;

  /* The client gave up on the request: whatever still comes is noise. */
  if (request->cancelled)
    return;

  if (message->kind != TW_JSONRPC_MESSAGE_RESPONSE)
    {
      tw_stdio_bridge_send_text (request->self, data, length);
      return;
    }

  if (request->answered)
    return;
  request->answered = TRUE;

  /* The app cancels a call itself only when it stops serving the client:
   * it quits, or the workspace closes. For the agent that is the same as
   * no app at all, and worth trying again later. */
  if (message->error != NULL &&
      json_object_get_int_member (message->error, "code") == TW_JSONRPC_ERROR_REQUEST_CANCELLED)
    {
      g_autofree char *reason = NULL;

      tw_stdio_bridge_upstream_lost (request->self, request->generation);
      reason = g_strdup_printf ("Tabwright for %s stopped the call before it finished (%s); "
                                "it may have quit",
                                request->self->workspace_path,
                                json_object_get_string_member (message->error, "message"));
      tw_stdio_bridge_request_reply_no_host (request, reason);
      return;
    }

  /* The server answers with a null id only when it could not read the
   * request, which it could since it came from here. Be safe anyway. */
  if (message->error != NULL && JSON_NODE_HOLDS_NULL (message->id))
    tw_stdio_bridge_send_error (request->self, request->message->id,
                                json_object_get_int_member (message->error, "code"),
                                json_object_get_string_member (message->error, "message"));
  else
    tw_stdio_bridge_send_text (request->self, data, length);
}

static void
request_done_cb (Exchange     *exchange,
                 const GError *error,
                 gpointer      user_data)
{
  Request *request = user_data;
  TwStdioBridge *self = request->self;
  g_autofree char *reason = NULL;

  request->exchange = NULL;

  if (self->task == NULL || request->cancelled || request->answered)
    {
      tw_stdio_bridge_request_finish (request);
      return;
    }

  reason = tw_stdio_bridge_describe_failure (self, exchange, error);

  if (tw_stdio_bridge_exchange_app_restarted (exchange, error))
    {
      tw_stdio_bridge_upstream_lost (self, request->generation);

      if (!request->retried)
        {
          g_debug ("Sending the request again: %s", reason);
          request->retried = TRUE;
          tw_stdio_bridge_request_dispatch (request);
          return;
        }

      tw_stdio_bridge_request_reply_no_host (request, reason);
      tw_stdio_bridge_request_finish (request);
      return;
    }

  if (error != NULL)
    {
      /* The connection broke after the request went out: the app quit or
       * crashed while running the call. Whether the call had an effect is
       * unknown, so it is not sent again; the next call finds the app anew. */
      tw_stdio_bridge_upstream_lost (self, request->generation);
      g_clear_pointer (&reason, g_free);
      reason = g_strdup_printf ("Tabwright for %s closed the connection before the call "
                                "finished (%s); it may have quit",
                                self->workspace_path, error->message);
      tw_stdio_bridge_request_reply_no_host (request, reason);
    }
  else if (exchange->http_error != NULL)
    {
      tw_stdio_bridge_send_error (self, request->message->id,
                                  json_object_get_int_member (exchange->http_error->error, "code"),
                                  json_object_get_string_member (exchange->http_error->error,
                                                                 "message"));
    }
  else if (!SOUP_STATUS_IS_SUCCESSFUL (exchange->status))
    {
      tw_stdio_bridge_send_error (self, request->message->id, TW_JSONRPC_ERROR_INTERNAL_ERROR,
                                  reason);
    }
  else
    {
      g_clear_pointer (&reason, g_free);
      reason = g_strdup_printf ("Tabwright for %s ended its reply without an answer; "
                                "it may have quit", self->workspace_path);
      tw_stdio_bridge_request_reply_no_host (request, reason);
    }

  tw_stdio_bridge_request_finish (request);
}

void
tw_stdio_bridge_request_send (Request *request)
{
  TwStdioBridge *self = request->self;

  g_assert (self->state == UPSTREAM_READY);

  request->sent = TRUE;
  request->generation = self->generation;
  request->exchange = tw_stdio_bridge_exchange_start (self, SOUP_METHOD_POST, request->line,
                                                      TRUE, 0, request_message_cb,
                                                      request_done_cb, request);
}

void
tw_stdio_bridge_request_dispatch (Request *request)
{
  TwStdioBridge *self = request->self;

  request->sent = FALSE;

  switch (self->state)
    {
    case UPSTREAM_READY:
      tw_stdio_bridge_request_send (request);
      break;

    case UPSTREAM_CONNECTING:
      g_queue_push_tail (&self->waiting, request);
      break;

    case UPSTREAM_NONE:
    default:
      g_queue_push_tail (&self->waiting, request);
      tw_stdio_bridge_upstream_connect (self);
      break;
    }
}

/* Messages the bridge passes on without waiting for an answer: client
 * notifications and responses. */

static void
forward_done_cb (Exchange     *exchange,
                 const GError *error,
                 gpointer      user_data)
{
  TwStdioBridge *self = exchange->self;

  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("Could not pass a message on to Tabwright: %s", error->message);

  g_assert (self->n_busy > 0);
  self->n_busy--;
  tw_stdio_bridge_maybe_finish (self);
}

void
tw_stdio_bridge_forward (TwStdioBridge *self,
                         GBytes        *line)
{
  self->n_busy++;
  tw_stdio_bridge_exchange_start (self, SOUP_METHOD_POST, line, TRUE, CONNECT_TIMEOUT_MS,
                                  NULL, forward_done_cb, NULL);
}
