/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-stdio-bridge-private.h"

#include <string.h>

/* Exchanges: one HTTP request to the app and what comes back. A reply is
 * either one JSON body or an event stream whose events each carry one
 * message (progress notifications, then the response). */

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
Exchange *
tw_stdio_bridge_exchange_start (TwStdioBridge       *self,
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
gboolean
tw_stdio_bridge_exchange_app_restarted (Exchange     *exchange,
                                        const GError *error)
{
  if (error != NULL)
    return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);

  return exchange->status == SOUP_STATUS_UNAUTHORIZED ||
         exchange->status == SOUP_STATUS_NOT_FOUND;
}

char *
tw_stdio_bridge_describe_failure (TwStdioBridge *self,
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
