/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-stdio-bridge.h"

#include <string.h>

#include <libsoup/soup.h>

#include "tw-cancellable.h"
#include "tw-error.h"
#include "tw-jsonrpc.h"
#include "tw-mcp-protocol.h"
#include "tw-mcp-server-private.h"
#include "tw-tool-registry.h"
#include "tw-workspace-id.h"

/* Opening a session is a local round trip; an app that takes longer is stuck. */
#define CONNECT_TIMEOUT_MS 10000
/* Ending the session on the way out is a courtesy, never worth a long wait. */
#define CLOSE_TIMEOUT_MS 2000
/* Calls on different tabs run concurrently, each in its own HTTP request. */
#define MAX_CONNECTIONS 256

typedef enum
{
  UPSTREAM_NONE,
  UPSTREAM_CONNECTING,
  UPSTREAM_READY,
} UpstreamState;

struct _TwStdioBridge
{
  GObject           parent_instance;

  char             *workspace_path;
  GDataInputStream *input;
  GOutputStream    *output;
  SoupSession      *soup;

  /* While running. */
  GTask            *task;
  GCancellable     *cancellable;
  GSource          *caller_watch;      /* the caller's cancellable */

  /* Lines for the output, written one at a time, in order: GBytes*. */
  GQueue            writes;
  GBytes           *writing;

  gboolean          input_done;
  gboolean          closing;

  /* The params of the client's initialize, replayed to each app session so
   * the app sees who the client is. */
  JsonObject       *client_params;

  /* The session with the app. The generation grows with each session, so a
   * failure seen on an old one does not end a newer one. */
  UpstreamState     state;
  guint             generation;
  char             *url;
  char             *token;
  char             *session_id;
  char             *protocol_version;

  GQueue            waiting;    /* Request* for a session */
  GHashTable       *requests;   /* id key -> Request*, until answered */
  GHashTable       *exchanges;  /* Exchange* in flight (a set) */
  guint             n_busy;     /* requests and forwarded messages in flight */
};

G_DEFINE_FINAL_TYPE (TwStdioBridge, tw_stdio_bridge, G_TYPE_OBJECT)

static void maybe_finish     (TwStdioBridge *self);
static void finish_run       (TwStdioBridge *self,
                              GError        *error);
static void upstream_connect (TwStdioBridge *self);

/* Output. */

static void write_next (TwStdioBridge *self);

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(TwStdioBridge) self = user_data;
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&self->writing, g_bytes_unref);

  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        finish_run (self, g_error_new (error->domain, error->code,
                                       "Could not write to the standard output: %s",
                                       error->message));
      return;
    }

  write_next (self);
}

static void
write_next (TwStdioBridge *self)
{
  if (self->writing != NULL || self->task == NULL)
    return;

  self->writing = g_queue_pop_head (&self->writes);
  if (self->writing == NULL)
    {
      maybe_finish (self);
      return;
    }

  g_output_stream_write_all_async (self->output,
                                   g_bytes_get_data (self->writing, NULL),
                                   g_bytes_get_size (self->writing),
                                   G_PRIORITY_DEFAULT,
                                   self->cancellable,
                                   write_cb,
                                   g_object_ref (self));
}

/* Queues one message given as JSON text. The text goes out as it is unless
 * it spans lines, which newline-delimited JSON cannot carry. */
static void
send_text (TwStdioBridge *self,
           const char    *data,
           gsize          length)
{
  g_autoptr(GByteArray) line = NULL;

  if (self->task == NULL)
    return;

  if (memchr (data, '\n', length) != NULL || memchr (data, '\r', length) != NULL)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *compact = NULL;
      gsize compact_length = 0;

      if (!json_parser_load_from_data (parser, data, length, NULL) ||
          json_parser_get_root (parser) == NULL)
        {
          g_warning ("Dropping a message from Tabwright that is not JSON");
          return;
        }

      compact = tw_jsonrpc_to_string (json_parser_get_root (parser), &compact_length);
      send_text (self, compact, compact_length);
      return;
    }

  line = g_byte_array_sized_new (length + 1);
  g_byte_array_append (line, (const guint8 *) data, length);
  g_byte_array_append (line, (const guint8 *) "\n", 1);

  g_queue_push_tail (&self->writes, g_byte_array_free_to_bytes (g_steal_pointer (&line)));
  write_next (self);
}

static void
send_node (TwStdioBridge *self,
           JsonNode      *message)
{
  gsize length = 0;
  g_autofree char *text = tw_jsonrpc_to_string (message, &length);

  send_text (self, text, length);
}

static void
send_result (TwStdioBridge *self,
             JsonNode      *id,
             JsonNode      *result)
{
  g_autoptr(JsonNode) message = tw_jsonrpc_new_result (id, result);

  send_node (self, message);
}

static void
send_error (TwStdioBridge *self,
            JsonNode      *id,
            int            code,
            const char    *text)
{
  g_autoptr(JsonNode) message = tw_jsonrpc_new_error (id, code, text);

  send_node (self, message);
}

/* Exchanges: one HTTP request to the app and what comes back. A reply is
 * either one JSON body or an event stream whose events each carry one
 * message (progress notifications, then the response). */

typedef struct _Exchange Exchange;

typedef void (*ExchangeMessageFunc) (Exchange         *exchange,
                                     TwJsonrpcMessage *message,
                                     const char       *data,
                                     gsize             length,
                                     gpointer          user_data);
typedef void (*ExchangeDoneFunc)    (Exchange         *exchange,
                                     const GError     *error,
                                     gpointer          user_data);

struct _Exchange
{
  TwStdioBridge       *self;
  SoupMessage         *msg;
  GCancellable        *cancellable;
  GSource             *timeout;
  gboolean             timed_out;
  guint                status;

  /* Event streams. */
  GDataInputStream    *events;
  GString             *event_data;
  gboolean             event_has_data;
  char                *event_name;

  /* The JSON-RPC error that came with an HTTP error status, if any. */
  TwJsonrpcMessage    *http_error;

  ExchangeMessageFunc  message_func;
  ExchangeDoneFunc     done_func;
  gpointer             user_data;
};

static void
exchange_free (Exchange *exchange)
{
  if (exchange->timeout != NULL)
    g_source_destroy (exchange->timeout);
  g_clear_pointer (&exchange->timeout, g_source_unref);
  g_clear_object (&exchange->msg);
  g_clear_object (&exchange->cancellable);
  g_clear_object (&exchange->events);
  if (exchange->event_data != NULL)
    g_string_free (exchange->event_data, TRUE);
  g_free (exchange->event_name);
  g_clear_pointer (&exchange->http_error, tw_jsonrpc_message_free);
  g_clear_object (&exchange->self);
  g_free (exchange);
}

static void
exchange_complete (Exchange     *exchange,
                   const GError *error)
{
  g_autoptr(GError) timeout_error = NULL;

  g_hash_table_remove (exchange->self->exchanges, exchange);

  if (exchange->timed_out && error != NULL)
    {
      timeout_error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                                           "Tabwright did not answer in time");
      error = timeout_error;
    }

  if (exchange->done_func != NULL)
    exchange->done_func (exchange, error, exchange->user_data);

  exchange_free (exchange);
}

static void
exchange_deliver (Exchange   *exchange,
                  const char *data,
                  gsize       length)
{
  g_autoptr(TwJsonrpcMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  message = tw_jsonrpc_message_parse (data, length, &error);
  if (message == NULL)
    {
      g_warning ("Ignoring a message from Tabwright: %s", error->message);
      return;
    }

  if (exchange->message_func != NULL)
    exchange->message_func (exchange, message, data, length, exchange->user_data);
}

static void
exchange_dispatch_event (Exchange *exchange)
{
  gboolean is_message = exchange->event_name == NULL ||
                        g_str_equal (exchange->event_name, "message");

  if (exchange->event_has_data && is_message)
    exchange_deliver (exchange, exchange->event_data->str, exchange->event_data->len);

  g_string_truncate (exchange->event_data, 0);
  exchange->event_has_data = FALSE;
  g_clear_pointer (&exchange->event_name, g_free);
}

static void exchange_read_event_line (Exchange *exchange);

static void
exchange_event_line_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  Exchange *exchange = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  const char *value;
  gsize length = 0;
  gsize field_length;

  line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (object), result,
                                               &length, &error);

  if (error != NULL)
    {
      exchange_complete (exchange, error);
      return;
    }

  /* The end of the stream ends an event that had no blank line after it. */
  if (line == NULL)
    {
      exchange_dispatch_event (exchange);
      exchange_complete (exchange, NULL);
      return;
    }

  if (length > 0 && line[length - 1] == '\r')
    line[--length] = '\0';

  if (length == 0)
    {
      exchange_dispatch_event (exchange);
    }
  else if (line[0] != ':')
    {
      /* "field: value", or a field name alone (with an empty value). */
      value = memchr (line, ':', length);
      field_length = value != NULL ? (gsize) (value - line) : length;
      if (value != NULL)
        {
          value++;
          if (*value == ' ')
            value++;
        }
      else
        {
          value = "";
        }

      if (field_length == 4 && strncmp (line, "data", 4) == 0)
        {
          if (exchange->event_has_data)
            g_string_append_c (exchange->event_data, '\n');
          g_string_append_len (exchange->event_data, value, length - (value - line));
          exchange->event_has_data = TRUE;
        }
      else if (field_length == 5 && strncmp (line, "event", 5) == 0)
        {
          g_free (exchange->event_name);
          exchange->event_name = g_strdup (value);
        }
    }

  exchange_read_event_line (exchange);
}

static void
exchange_read_event_line (Exchange *exchange)
{
  g_data_input_stream_read_line_async (exchange->events,
                                       G_PRIORITY_DEFAULT,
                                       exchange->cancellable,
                                       exchange_event_line_cb,
                                       exchange);
}

static void
exchange_body_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Exchange *exchange = user_data;
  GMemoryOutputStream *body = G_MEMORY_OUTPUT_STREAM (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const char *data;
  gsize length = 0;

  if (g_output_stream_splice_finish (G_OUTPUT_STREAM (body), result, &error) < 0)
    {
      exchange_complete (exchange, error);
      return;
    }

  bytes = g_memory_output_stream_steal_as_bytes (body);
  data = g_bytes_get_data (bytes, &length);

  if (length > 0 && SOUP_STATUS_IS_SUCCESSFUL (exchange->status))
    {
      exchange_deliver (exchange, data, length);
    }
  else if (length > 0)
    {
      /* The server explains a refusal with a JSON-RPC error; keep it for
       * the caller to pass on. */
      exchange->http_error = tw_jsonrpc_message_parse (data, length, NULL);
      if (exchange->http_error != NULL && exchange->http_error->error == NULL)
        g_clear_pointer (&exchange->http_error, tw_jsonrpc_message_free);
    }

  exchange_complete (exchange, NULL);
}

static void
exchange_sent_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Exchange *exchange = user_data;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GOutputStream) body = NULL;
  SoupMessageHeaders *headers;
  const char *content_type;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (stream == NULL)
    {
      exchange_complete (exchange, error);
      return;
    }

  exchange->status = soup_message_get_status (exchange->msg);
  headers = soup_message_get_response_headers (exchange->msg);
  content_type = soup_message_headers_get_content_type (headers, NULL);

  if (SOUP_STATUS_IS_SUCCESSFUL (exchange->status) &&
      g_strcmp0 (content_type, "text/event-stream") == 0)
    {
      exchange->events = g_data_input_stream_new (stream);
      g_data_input_stream_set_newline_type (exchange->events, G_DATA_STREAM_NEWLINE_TYPE_LF);
      exchange->event_data = g_string_new (NULL);
      exchange_read_event_line (exchange);
      return;
    }

  body = g_memory_output_stream_new_resizable ();
  g_output_stream_splice_async (body, stream,
                                G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE |
                                G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET,
                                G_PRIORITY_DEFAULT,
                                exchange->cancellable,
                                exchange_body_cb,
                                exchange);
}

static gboolean
exchange_timeout_cb (gpointer user_data)
{
  Exchange *exchange = user_data;

  exchange->timed_out = TRUE;
  g_clear_pointer (&exchange->timeout, g_source_unref);
  g_cancellable_cancel (exchange->cancellable);

  return G_SOURCE_REMOVE;
}

/* Sends @body (NULL for none) to the app with the credentials of the
 * runtime file and, when @in_session, the session's headers. */
static Exchange *
exchange_start (TwStdioBridge       *self,
                const char          *method,
                GBytes              *body,
                gboolean             in_session,
                guint                timeout_ms,
                ExchangeMessageFunc  message_func,
                ExchangeDoneFunc     done_func,
                gpointer             user_data)
{
  Exchange *exchange = g_new0 (Exchange, 1);
  SoupMessageHeaders *headers;
  g_autofree char *authorization = NULL;

  g_assert (self->url != NULL);
  g_assert (self->token != NULL);

  exchange->self = g_object_ref (self);
  exchange->cancellable = g_cancellable_new ();
  exchange->message_func = message_func;
  exchange->done_func = done_func;
  exchange->user_data = user_data;

  /* The URL was checked when the runtime file was read. */
  exchange->msg = soup_message_new (method, self->url);
  g_assert (exchange->msg != NULL);

  headers = soup_message_get_request_headers (exchange->msg);
  authorization = g_strdup_printf ("Bearer %s", self->token);
  soup_message_headers_replace (headers, "Authorization", authorization);
  soup_message_headers_replace (headers, "Accept", "application/json, text/event-stream");
  if (in_session && self->session_id != NULL)
    soup_message_headers_replace (headers, "Mcp-Session-Id", self->session_id);
  if (in_session && self->protocol_version != NULL)
    soup_message_headers_replace (headers, "MCP-Protocol-Version", self->protocol_version);

  if (body != NULL)
    soup_message_set_request_body_from_bytes (exchange->msg, "application/json", body);

  if (timeout_ms > 0)
    {
      exchange->timeout = g_timeout_source_new (timeout_ms);
      g_source_set_callback (exchange->timeout, exchange_timeout_cb, exchange, NULL);
      g_source_set_static_name (exchange->timeout, "[tabwright-mcp] request timeout");
      g_source_attach (exchange->timeout, NULL);
    }

  g_hash_table_add (self->exchanges, exchange);

  soup_session_send_async (self->soup, exchange->msg, G_PRIORITY_DEFAULT,
                           exchange->cancellable, exchange_sent_cb, exchange);

  return exchange;
}

/* What tells that the app went away or restarted, so that asking again,
 * after reading the runtime file again, may succeed: nobody listens on the
 * port any more, the token is unknown, or the session is. In each case the
 * app never saw the request, so sending it again cannot do anything twice. */
static gboolean
exchange_app_restarted (Exchange     *exchange,
                        const GError *error)
{
  if (error != NULL)
    return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);

  return exchange->status == SOUP_STATUS_UNAUTHORIZED ||
         exchange->status == SOUP_STATUS_NOT_FOUND;
}

static char *
describe_failure (TwStdioBridge *self,
                  Exchange      *exchange,
                  const GError  *error)
{
  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    return g_strdup_printf ("Tabwright for %s does not answer at %s; it may have quit. "
                            "Start it with: tabwright --workspace %s",
                            self->workspace_path, self->url, self->workspace_path);

  if (error != NULL)
    return g_strdup_printf ("Lost the connection to Tabwright for %s: %s",
                            self->workspace_path, error->message);

  if (exchange->status == SOUP_STATUS_UNAUTHORIZED)
    return g_strdup_printf ("Tabwright for %s refused the workspace token of its runtime file",
                            self->workspace_path);

  if (exchange->http_error != NULL)
    return g_strdup_printf ("Tabwright for %s answered HTTP %u: %s",
                            self->workspace_path, exchange->status,
                            json_object_get_string_member (exchange->http_error->error, "message"));

  return g_strdup_printf ("Tabwright for %s answered HTTP %u %s",
                          self->workspace_path, exchange->status,
                          soup_status_get_phrase (exchange->status));
}

/* Requests from the client that the app answers. */

typedef struct
{
  TwStdioBridge    *self;
  TwJsonrpcMessage *message;
  GBytes           *line;
  char             *id_key;
  Exchange         *exchange;
  guint             generation;
  gboolean          sent;
  gboolean          retried;
  gboolean          cancelled;
  gboolean          answered;
} Request;

static void
request_free (Request *request)
{
  g_clear_pointer (&request->message, tw_jsonrpc_message_free);
  g_clear_pointer (&request->line, g_bytes_unref);
  g_free (request->id_key);
  g_free (request);
}

static void
request_finish (Request *request)
{
  TwStdioBridge *self = request->self;

  if (g_hash_table_lookup (self->requests, request->id_key) == request)
    g_hash_table_remove (self->requests, request->id_key);

  g_assert (self->n_busy > 0);
  self->n_busy--;

  request_free (request);
  maybe_finish (self);
}

/* Answers a tools/call that no app can serve: what a running app would say
 * about the call itself comes first, so the answer does not depend on
 * whether one runs. */
static void
request_reply_no_host (Request    *request,
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
      send_result (request->self, message->id, result);
      return;
    }

  if (message->params != NULL)
    name = json_object_get_member (message->params, "name");

  if (name == NULL || !JSON_NODE_HOLDS_VALUE (name) ||
      json_node_get_value_type (name) != G_TYPE_STRING)
    {
      send_error (request->self, message->id, TW_JSONRPC_ERROR_INVALID_PARAMS,
                  "Invalid params: \"name\" must be a string");
      return;
    }

  if (tw_tool_registry_lookup (json_node_get_string (name)) == NULL)
    {
      g_autofree char *text = g_strdup_printf ("Unknown tool: %s", json_node_get_string (name));

      send_error (request->self, message->id, TW_JSONRPC_ERROR_INVALID_PARAMS, text);
      return;
    }

  error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NO_HOST, reason);
  result = tw_browser_error_to_tool_result (error);
  send_result (request->self, message->id, result);
}

static void request_dispatch (Request *request);

/* Forgets the session @generation when it is still the current one, so the
 * next request reads the runtime file again and opens a new one. */
static void
upstream_lost (TwStdioBridge *self,
               guint          generation)
{
  if (self->state != UPSTREAM_READY || self->generation != generation)
    return;

  g_debug ("Lost the session with Tabwright");

  self->state = UPSTREAM_NONE;
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->protocol_version, g_free);
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
      send_text (request->self, data, length);
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

      upstream_lost (request->self, request->generation);
      reason = g_strdup_printf ("Tabwright for %s stopped the call before it finished (%s); "
                                "it may have quit",
                                request->self->workspace_path,
                                json_object_get_string_member (message->error, "message"));
      request_reply_no_host (request, reason);
      return;
    }

  /* The server answers with a null id only when it could not read the
   * request, which it could since it came from here. Be safe anyway. */
  if (message->error != NULL && JSON_NODE_HOLDS_NULL (message->id))
    send_error (request->self, request->message->id,
                json_object_get_int_member (message->error, "code"),
                json_object_get_string_member (message->error, "message"));
  else
    send_text (request->self, data, length);
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
      request_finish (request);
      return;
    }

  reason = describe_failure (self, exchange, error);

  if (exchange_app_restarted (exchange, error))
    {
      upstream_lost (self, request->generation);

      if (!request->retried)
        {
          g_debug ("Sending the request again: %s", reason);
          request->retried = TRUE;
          request_dispatch (request);
          return;
        }

      request_reply_no_host (request, reason);
      request_finish (request);
      return;
    }

  if (error != NULL)
    {
      /* The connection broke after the request went out: the app quit or
       * crashed while running the call. Whether the call had an effect is
       * unknown, so it is not sent again; the next call finds the app anew. */
      upstream_lost (self, request->generation);
      g_clear_pointer (&reason, g_free);
      reason = g_strdup_printf ("Tabwright for %s closed the connection before the call "
                                "finished (%s); it may have quit",
                                self->workspace_path, error->message);
      request_reply_no_host (request, reason);
    }
  else if (exchange->http_error != NULL)
    {
      send_error (self, request->message->id,
                  json_object_get_int_member (exchange->http_error->error, "code"),
                  json_object_get_string_member (exchange->http_error->error, "message"));
    }
  else if (!SOUP_STATUS_IS_SUCCESSFUL (exchange->status))
    {
      send_error (self, request->message->id, TW_JSONRPC_ERROR_INTERNAL_ERROR, reason);
    }
  else
    {
      g_clear_pointer (&reason, g_free);
      reason = g_strdup_printf ("Tabwright for %s ended its reply without an answer; "
                                "it may have quit", self->workspace_path);
      request_reply_no_host (request, reason);
    }

  request_finish (request);
}

static void
request_send (Request *request)
{
  TwStdioBridge *self = request->self;

  g_assert (self->state == UPSTREAM_READY);

  request->sent = TRUE;
  request->generation = self->generation;
  request->exchange = exchange_start (self, SOUP_METHOD_POST, request->line, TRUE, 0,
                                      request_message_cb, request_done_cb, request);
}

static void
request_dispatch (Request *request)
{
  TwStdioBridge *self = request->self;

  request->sent = FALSE;

  switch (self->state)
    {
    case UPSTREAM_READY:
      request_send (request);
      break;

    case UPSTREAM_CONNECTING:
      g_queue_push_tail (&self->waiting, request);
      break;

    case UPSTREAM_NONE:
    default:
      g_queue_push_tail (&self->waiting, request);
      upstream_connect (self);
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
  maybe_finish (self);
}

static void
forward (TwStdioBridge *self,
         GBytes        *line)
{
  self->n_busy++;
  exchange_start (self, SOUP_METHOD_POST, line, TRUE, CONNECT_TIMEOUT_MS,
                  NULL, forward_done_cb, NULL);
}

/* The session with the app. */

static void
upstream_failed (TwStdioBridge *self,
                 const char    *reason)
{
  Request *request;

  g_debug ("No session with Tabwright: %s", reason);

  self->state = UPSTREAM_NONE;
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->protocol_version, g_free);

  while ((request = g_queue_pop_head (&self->waiting)) != NULL)
    {
      request_reply_no_host (request, reason);
      request_finish (request);
    }
}

static void
upstream_ready (TwStdioBridge *self)
{
  Request *request;

  g_debug ("Session %s with Tabwright at %s", self->session_id, self->url);

  self->state = UPSTREAM_READY;
  self->generation++;

  while ((request = g_queue_pop_head (&self->waiting)) != NULL)
    request_send (request);
}

static void
initialized_done_cb (Exchange     *exchange,
                     const GError *error,
                     gpointer      user_data)
{
  TwStdioBridge *self = exchange->self;
  g_autofree char *reason = NULL;

  if (self->task == NULL)
    return;

  if (error == NULL && SOUP_STATUS_IS_SUCCESSFUL (exchange->status))
    {
      upstream_ready (self);
      return;
    }

  reason = describe_failure (self, exchange, error);
  upstream_failed (self, reason);
}

static void
initialize_message_cb (Exchange         *exchange,
                       TwJsonrpcMessage *message,
                       const char       *data,
                       gsize             length,
                       gpointer          user_data)
{
  TwStdioBridge *self = exchange->self;
  JsonNode *version;

  if (message->kind != TW_JSONRPC_MESSAGE_RESPONSE || message->result == NULL ||
      !JSON_NODE_HOLDS_OBJECT (message->result))
    return;

  version = json_object_get_member (json_node_get_object (message->result), "protocolVersion");
  if (version == NULL || !JSON_NODE_HOLDS_VALUE (version) ||
      json_node_get_value_type (version) != G_TYPE_STRING)
    return;

  g_free (self->protocol_version);
  self->protocol_version = g_strdup (json_node_get_string (version));
}

static void
initialize_done_cb (Exchange     *exchange,
                    const GError *error,
                    gpointer      user_data)
{
  TwStdioBridge *self = exchange->self;
  g_autoptr(JsonNode) notification = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autofree char *reason = NULL;
  const char *session_id;
  char *text;
  gsize length = 0;

  if (self->task == NULL)
    return;

  if (error != NULL || !SOUP_STATUS_IS_SUCCESSFUL (exchange->status))
    {
      reason = describe_failure (self, exchange, error);
      upstream_failed (self, reason);
      return;
    }

  if (self->protocol_version == NULL)
    {
      reason = g_strdup_printf ("Tabwright for %s did not accept the MCP handshake",
                                self->workspace_path);
      upstream_failed (self, reason);
      return;
    }

  session_id = soup_message_headers_get_one (soup_message_get_response_headers (exchange->msg),
                                             "Mcp-Session-Id");
  g_free (self->session_id);
  self->session_id = g_strdup (session_id);

  notification = tw_jsonrpc_new_notification ("notifications/initialized", NULL);
  text = tw_jsonrpc_to_string (notification, &length);
  body = g_bytes_new_take (text, length);

  exchange_start (self, SOUP_METHOD_POST, body, TRUE, CONNECT_TIMEOUT_MS,
                  NULL, initialized_done_cb, NULL);
}

static JsonObject *
dup_initialize_params (TwStdioBridge *self)
{
  JsonObject *params;
  JsonObject *client_info;

  if (self->client_params != NULL)
    return json_object_ref (self->client_params);

  /* A client that calls tools without initializing first is lenient
   * towards, and the app still needs a handshake. */
  params = json_object_new ();
  json_object_set_string_member (params, "protocolVersion", TW_MCP_PROTOCOL_VERSION_LATEST);
  json_object_set_object_member (params, "capabilities", json_object_new ());
  client_info = json_object_new ();
  json_object_set_string_member (client_info, "name", "tabwright-mcp");
  json_object_set_string_member (client_info, "version", PACKAGE_VERSION);
  json_object_set_object_member (params, "clientInfo", client_info);

  return params;
}

/* Whether libsoup can send requests to @url: http or https with a host. */
static gboolean
url_is_usable (const char *url)
{
  g_autoptr(SoupMessage) msg = soup_message_new (SOUP_METHOD_POST, url);

  return msg != NULL;
}

/* A token goes into an HTTP header: printable ASCII without spaces. */
static gboolean
token_is_usable (const char *token)
{
  if (token[0] == '\0')
    return FALSE;

  for (const char *p = token; *p != '\0'; p++)
    {
      if (!g_ascii_isgraph (*p))
        return FALSE;
    }

  return TRUE;
}

static void
upstream_connect (TwStdioBridge *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(JsonNode) request = NULL;
  g_autofree char *url = NULL;
  g_autofree char *token = NULL;
  g_autofree char *key = NULL;
  GBytes *body;
  char *text;
  gsize length = 0;

  g_assert (self->state == UPSTREAM_NONE);

  self->state = UPSTREAM_CONNECTING;
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->protocol_version, g_free);

  /* Read each time: a restarted app listens on a new port. */
  if (!tw_workspace_id_read_runtime_file (self->workspace_path, &url, &token, &error))
    {
      g_autofree char *reason = g_strdup_printf ("Tabwright is not running for %s. "
                                                 "Start it with: tabwright --workspace %s",
                                                 self->workspace_path, self->workspace_path);

      upstream_failed (self, reason);
      return;
    }

  if (!url_is_usable (url) || !token_is_usable (token))
    {
      g_autofree char *reason = g_strdup_printf ("The runtime file of %s is damaged: it names "
                                                 "no usable URL and token",
                                                 self->workspace_path);

      upstream_failed (self, reason);
      return;
    }

  g_free (self->url);
  self->url = g_steal_pointer (&url);
  g_free (self->token);
  self->token = g_steal_pointer (&token);

  key = g_strdup_printf ("tabwright-mcp-%u", self->generation + 1);

  object = json_object_new ();
  json_object_set_string_member (object, "jsonrpc", "2.0");
  json_object_set_string_member (object, "id", key);
  json_object_set_string_member (object, "method", "initialize");
  json_object_set_object_member (object, "params", dup_initialize_params (self));
  request = json_node_init_object (json_node_alloc (), object);

  text = tw_jsonrpc_to_string (request, &length);
  body = g_bytes_new_take (text, length);

  exchange_start (self, SOUP_METHOD_POST, body, FALSE, CONNECT_TIMEOUT_MS,
                  initialize_message_cb, initialize_done_cb, NULL);
  g_bytes_unref (body);
}

/* Messages from the client. */

static void
handle_initialize (TwStdioBridge    *self,
                   TwJsonrpcMessage *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) result = NULL;

  result = tw_mcp_protocol_initialize (message->params, NULL, &error);
  if (result == NULL)
    {
      send_error (self, message->id, error->code, error->message);
      return;
    }

  /* Kept for the sessions opened with the app from now on. */
  g_clear_pointer (&self->client_params, json_object_unref);
  self->client_params = json_object_ref (message->params);

  send_result (self, message->id, result);
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
      send_error (self, message->id, TW_JSONRPC_ERROR_INVALID_REQUEST,
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

  request_dispatch (request);
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
      send_result (self, message->id, result);
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("Method not found: %s", message->method);

      send_error (self, message->id, TW_JSONRPC_ERROR_METHOD_NOT_FOUND, text);
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
      request_finish (request);
      return;
    }

  /* The app stops the call and answers its request with an error, which
   * is dropped: the client expects no answer any more. Without the session
   * the call ran in, closing its connection stops it just as well. */
  if (self->state == UPSTREAM_READY && self->generation == request->generation)
    forward (self, line);
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
        forward (self, line);
      break;

    case TW_JSONRPC_MESSAGE_RESPONSE:
    default:
      /* The app sends no requests today; pass answers on all the same. */
      if (self->state == UPSTREAM_READY)
        forward (self, line);
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

static void
handle_line (TwStdioBridge *self,
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
      send_error (self, id, error->code, error->message);
      return;
    }

  line = g_bytes_new (data, length);
  handle_message (self, message, line);
}

static void read_next_line (TwStdioBridge *self);

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(TwStdioBridge) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  gsize length = 0;

  line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (object), result,
                                               &length, &error);

  if (self->task == NULL)
    return;

  if (error != NULL)
    {
      finish_run (self, g_error_new (error->domain, error->code,
                                     "Could not read the standard input: %s", error->message));
      return;
    }

  if (line == NULL)
    {
      g_debug ("End of input");
      self->input_done = TRUE;
      maybe_finish (self);
      return;
    }

  handle_line (self, line, length);
  read_next_line (self);
}

static void
read_next_line (TwStdioBridge *self)
{
  g_data_input_stream_read_line_async (self->input,
                                       G_PRIORITY_DEFAULT,
                                       self->cancellable,
                                       read_line_cb,
                                       g_object_ref (self));
}

/* Ending. */

/* Ends the run: with @error (taken) after a failure or a cancellation,
 * successfully otherwise. Whatever is still in flight stops. */
static void
finish_run (TwStdioBridge *self,
            GError        *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);
  GHashTableIter iter;
  gpointer key;
  Request *request;

  if (task == NULL)
    {
      g_clear_error (&error);
      return;
    }

  g_cancellable_cancel (self->cancellable);

  g_hash_table_iter_init (&iter, self->exchanges);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_cancellable_cancel (((Exchange *) key)->cancellable);

  while ((request = g_queue_pop_head (&self->waiting)) != NULL)
    request_finish (request);

  g_clear_pointer (&self->caller_watch, tw_cancellable_unwatch);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
close_done_cb (Exchange     *exchange,
               const GError *error,
               gpointer      user_data)
{
  finish_run (exchange->self, NULL);
}

/* Once the input ended, every request got its answer and every answer is
 * written, the bridge ends its session with the app and is done. */
static void
maybe_finish (TwStdioBridge *self)
{
  if (self->task == NULL || self->closing || !self->input_done ||
      self->n_busy > 0 || self->writing != NULL || !g_queue_is_empty (&self->writes))
    return;

  self->closing = TRUE;

  if (self->state == UPSTREAM_READY && self->session_id != NULL)
    {
      exchange_start (self, SOUP_METHOD_DELETE, NULL, TRUE, CLOSE_TIMEOUT_MS,
                      NULL, close_done_cb, NULL);
      return;
    }

  finish_run (self, NULL);
}

static void
caller_cancelled_cb (gpointer user_data)
{
  finish_run (user_data, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                              "The bridge was stopped"));
}

/* GObject. */

static void
tw_stdio_bridge_dispose (GObject *object)
{
  TwStdioBridge *self = TW_STDIO_BRIDGE (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);

  g_clear_pointer (&self->caller_watch, tw_cancellable_unwatch);

  g_queue_clear_full (&self->writes, (GDestroyNotify) g_bytes_unref);
  g_clear_object (&self->input);
  g_clear_object (&self->output);
  g_clear_object (&self->soup);

  G_OBJECT_CLASS (tw_stdio_bridge_parent_class)->dispose (object);
}

static void
tw_stdio_bridge_finalize (GObject *object)
{
  TwStdioBridge *self = TW_STDIO_BRIDGE (object);

  /* Every exchange and pending read holds a reference, so none is left. */
  g_assert (g_hash_table_size (self->exchanges) == 0);
  g_assert (self->task == NULL);

  while (!g_queue_is_empty (&self->waiting))
    request_free (g_queue_pop_head (&self->waiting));

  g_clear_pointer (&self->requests, g_hash_table_unref);
  g_clear_pointer (&self->exchanges, g_hash_table_unref);
  g_clear_pointer (&self->writing, g_bytes_unref);
  g_clear_pointer (&self->client_params, json_object_unref);
  g_clear_object (&self->cancellable);
  g_free (self->workspace_path);
  g_free (self->url);
  g_free (self->token);
  g_free (self->session_id);
  g_free (self->protocol_version);

  G_OBJECT_CLASS (tw_stdio_bridge_parent_class)->finalize (object);
}

static void
tw_stdio_bridge_class_init (TwStdioBridgeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_stdio_bridge_dispose;
  object_class->finalize = tw_stdio_bridge_finalize;
}

static void
tw_stdio_bridge_init (TwStdioBridge *self)
{
  g_queue_init (&self->writes);
  g_queue_init (&self->waiting);
  self->requests = g_hash_table_new (g_str_hash, g_str_equal);
  self->exchanges = g_hash_table_new (NULL, NULL);
}

TwStdioBridge *
tw_stdio_bridge_new (const char    *workspace_path,
                     GInputStream  *input,
                     GOutputStream *output)
{
  TwStdioBridge *self;
  g_autofree char *user_agent = NULL;

  g_return_val_if_fail (workspace_path != NULL, NULL);
  g_return_val_if_fail (G_IS_INPUT_STREAM (input), NULL);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (output), NULL);

  self = g_object_new (TW_TYPE_STDIO_BRIDGE, NULL);
  self->workspace_path = g_strdup (workspace_path);
  self->input = g_data_input_stream_new (input);
  g_data_input_stream_set_newline_type (self->input, G_DATA_STREAM_NEWLINE_TYPE_LF);
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (self->input), FALSE);
  self->output = g_object_ref (output);

  /* No I/O timeout: a call may rightly take long (a person solving a
   * CAPTCHA); the app bounds its calls itself. No proxy either: the app
   * listens on loopback, where a proxy could only get in the way. */
  user_agent = g_strdup_printf ("tabwright-mcp/%s", PACKAGE_VERSION);
  self->soup = soup_session_new_with_options ("max-conns", MAX_CONNECTIONS,
                                              "max-conns-per-host", MAX_CONNECTIONS,
                                              "timeout", 0,
                                              "proxy-resolver", NULL,
                                              "user-agent", user_agent,
                                              NULL);

  return self;
}

void
tw_stdio_bridge_run_async (TwStdioBridge       *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (TW_IS_STDIO_BRIDGE (self));
  g_return_if_fail (self->task == NULL && self->cancellable == NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  self->task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (self->task, tw_stdio_bridge_run_async);
  self->cancellable = g_cancellable_new ();

  /* Ending the run, or the bridge, ends the watch. */
  self->caller_watch = tw_cancellable_watch (cancellable, caller_cancelled_cb, self, NULL);

  read_next_line (self);
}

gboolean
tw_stdio_bridge_run_finish (TwStdioBridge  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  g_return_val_if_fail (TW_IS_STDIO_BRIDGE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
