/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-mcp-server-private.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>

#include <libsoup/soup.h>

#include "tw-jsonrpc.h"
#include "tw-mcp-auth.h"

/* The HTTP side of the server: every request is checked from its headers
 * (host, origin, bearer token, path, method, size) before its body is read,
 * within a deadline, and handed to the method of its HTTP verb; replies go
 * out as JSON. */

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

/* HTTP replies. */

void
_tw_mcp_server_set_json_response (SoupServerMessage *msg,
                                  guint              status,
                                  JsonNode          *body)
{
  gsize length = 0;
  char *text = tw_jsonrpc_to_string (body, &length);

  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_TAKE, text, length);
}

void
_tw_mcp_server_reply_error (SoupServerMessage *msg,
                            guint              status,
                            JsonNode          *id,
                            int                code,
                            const char        *message)
{
  g_autoptr(JsonNode) body = tw_jsonrpc_new_error (id, code, message);

  _tw_mcp_server_set_json_response (msg, status, body);
}

void
_tw_mcp_server_reply_result (SoupServerMessage *msg,
                             JsonNode          *id,
                             JsonNode          *result)
{
  g_autoptr(JsonNode) body = tw_jsonrpc_new_result (id, result);

  _tw_mcp_server_set_json_response (msg, SOUP_STATUS_OK, body);
}

void
_tw_mcp_server_start_event_stream (SoupServerMessage *msg)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_body_set_accumulate (soup_server_message_get_response_body (msg), FALSE);
}

void
_tw_mcp_server_send_event (SoupServerMessage *msg,
                           const char        *json)
{
  char *event = g_strdup_printf ("event: message\ndata: %s\n\n", json);

  soup_message_body_append (soup_server_message_get_response_body (msg), SOUP_MEMORY_TAKE,
                            event, strlen (event));
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
  _tw_mcp_server_reply_error (msg, status, NULL, code, message);
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

/* Credentials. */

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

/* Request plumbing. */

static void
mcp_request_free (McpRequest *request)
{
  g_clear_pointer (&request->client, _tw_mcp_server_client_unref);
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
  request->client = _tw_mcp_server_client_ref (client);

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

void
_tw_mcp_server_request_started_cb (SoupServer        *soup,
                                   SoupServerMessage *msg,
                                   TwMcpServer       *self)
{
  _tw_mcp_server_connection_busy (self, msg);
  set_no_delay (msg);
  deadline_set (msg, self->header_timeout_ms);

  g_signal_connect_object (msg, "got-headers", G_CALLBACK (got_headers_cb), self, 0);
  g_signal_connect_object (msg, "got-chunk", G_CALLBACK (got_chunk_cb), self, 0);
}

void
_tw_mcp_server_handler_cb (SoupServer        *soup,
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
      _tw_mcp_server_reply_error (msg, SOUP_STATUS_UNAUTHORIZED, NULL,
                                  TW_JSONRPC_ERROR_SERVER_ERROR,
                                  "Unauthorized: the token was revoked");
      return;
    }

  if (method == SOUP_METHOD_DELETE)
    _tw_mcp_server_handle_delete (self, msg, request->client);
  else if (method == SOUP_METHOD_GET)
    _tw_mcp_server_handle_get (self, msg, request->client);
  else
    _tw_mcp_server_handle_post (self, msg, request->client);
}
