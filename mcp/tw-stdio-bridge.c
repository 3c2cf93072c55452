/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-stdio-bridge-private.h"

#include "tw-cancellable.h"
#include <string.h>

G_DEFINE_FINAL_TYPE (TwStdioBridge, tw_stdio_bridge, G_TYPE_OBJECT)

static void finish_run       (TwStdioBridge *self,
                              GError        *error);

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
      tw_stdio_bridge_maybe_finish (self);
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
void
tw_stdio_bridge_send_text (TwStdioBridge *self,
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
      tw_stdio_bridge_send_text (self, compact, compact_length);
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

  tw_stdio_bridge_send_text (self, text, length);
}

void
tw_stdio_bridge_send_result (TwStdioBridge *self,
                             JsonNode      *id,
                             JsonNode      *result)
{
  g_autoptr(JsonNode) message = tw_jsonrpc_new_result (id, result);

  send_node (self, message);
}

void
tw_stdio_bridge_send_error (TwStdioBridge *self,
                            JsonNode      *id,
                            int            code,
                            const char    *text)
{
  g_autoptr(JsonNode) message = tw_jsonrpc_new_error (id, code, text);

  send_node (self, message);
}

/* Input. */

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
      tw_stdio_bridge_maybe_finish (self);
      return;
    }

  tw_stdio_bridge_handle_line (self, line, length);
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
    tw_stdio_bridge_request_finish (request);

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
void
tw_stdio_bridge_maybe_finish (TwStdioBridge *self)
{
  if (self->task == NULL || self->closing || !self->input_done ||
      self->n_busy > 0 || self->writing != NULL || !g_queue_is_empty (&self->writes))
    return;

  self->closing = TRUE;

  if (self->state == UPSTREAM_READY && self->session_id != NULL)
    {
      tw_stdio_bridge_exchange_start (self, SOUP_METHOD_DELETE, NULL, TRUE, CLOSE_TIMEOUT_MS,
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
    tw_stdio_bridge_request_free (g_queue_pop_head (&self->waiting));

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
