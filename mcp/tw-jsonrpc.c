/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-jsonrpc.h"

#include "tw-json.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK (tw-jsonrpc-error-quark, tw_jsonrpc_error)

void
tw_jsonrpc_message_free (TwJsonrpcMessage *message)
{
  if (message == NULL)
    return;

  g_clear_pointer (&message->id, json_node_unref);
  g_clear_pointer (&message->method, g_free);
  g_clear_pointer (&message->params, json_object_unref);
  g_clear_pointer (&message->result, json_node_unref);
  g_clear_pointer (&message->error, json_object_unref);
  g_free (message);
}

gboolean
tw_jsonrpc_id_is_valid (JsonNode *id)
{
  /* JSON-RPC allows fractional ids but discourages them; MCP only allows
   * strings and integers, and json-glib keeps integers as gint64. */
  GType type = tw_json_value_type (id);

  return type == G_TYPE_STRING || type == G_TYPE_INT64;
}

char *
tw_jsonrpc_id_to_key (JsonNode *id)
{
  g_return_val_if_fail (tw_jsonrpc_id_is_valid (id), NULL);

  if (json_node_get_value_type (id) == G_TYPE_STRING)
    return g_strconcat ("s:", json_node_get_string (id), NULL);

  return g_strdup_printf ("i:%" G_GINT64_FORMAT, json_node_get_int (id));
}

static gboolean
fail (GError     **error,
      int          code,
      const char  *message)
{
  g_set_error_literal (error, TW_JSONRPC_ERROR, code, message);
  return FALSE;
}

static gboolean
parse_response (JsonObject        *object,
                TwJsonrpcMessage  *message,
                GError           **error)
{
  JsonNode *id = json_object_get_member (object, "id");
  JsonNode *result = json_object_get_member (object, "result");
  JsonNode *error_node = json_object_get_member (object, "error");

  if (id == NULL)
    return fail (error, TW_JSONRPC_ERROR_INVALID_REQUEST,
                 "Invalid Request: a message needs \"method\" or, for a response, \"id\"");

  if ((result == NULL) == (error_node == NULL))
    return fail (error, TW_JSONRPC_ERROR_INVALID_REQUEST,
                 "Invalid Request: a response needs exactly one of \"result\" and \"error\"");

  /* Only an error response may carry a null id: it answers a request whose
   * id could not be read. */
  if (!(error_node != NULL && JSON_NODE_HOLDS_NULL (id)) && !tw_jsonrpc_id_is_valid (id))
    return fail (error, TW_JSONRPC_ERROR_INVALID_REQUEST,
                 "Invalid Request: \"id\" must be a string or an integer");

  if (error_node != NULL)
    {
      JsonObject *error_object;
      JsonNode *code;
      JsonNode *text;

      if (!JSON_NODE_HOLDS_OBJECT (error_node))
        return fail (error, TW_JSONRPC_ERROR_INVALID_REQUEST,
                     "Invalid Request: \"error\" must be an object");

      error_object = json_node_get_object (error_node);
      code = json_object_get_member (error_object, "code");
      text = json_object_get_member (error_object, "message");

      if (tw_json_value_type (code) != G_TYPE_INT64)
        return fail (error, TW_JSONRPC_ERROR_INVALID_REQUEST,
                     "Invalid Request: \"error.code\" must be an integer");

      if (tw_json_value_type (text) != G_TYPE_STRING)
        return fail (error, TW_JSONRPC_ERROR_INVALID_REQUEST,
                     "Invalid Request: \"error.message\" must be a string");

      message->error = json_object_ref (error_object);
    }
  else
    {
      message->result = json_node_copy (result);
    }

  message->kind = TW_JSONRPC_MESSAGE_RESPONSE;
  message->id = json_node_copy (id);

  return TRUE;
}

static gboolean
parse_object (JsonObject        *object,
              TwJsonrpcMessage  *message,
              GError           **error)
{
  JsonNode *version = json_object_get_member (object, "jsonrpc");
  JsonNode *method = json_object_get_member (object, "method");
  JsonNode *id;
  JsonNode *params;

  if (tw_json_value_type (version) != G_TYPE_STRING ||
      g_strcmp0 (json_node_get_string (version), "2.0") != 0)
    return fail (error, TW_JSONRPC_ERROR_INVALID_REQUEST,
                 "Invalid Request: \"jsonrpc\" must be \"2.0\"");

  if (method == NULL)
    return parse_response (object, message, error);

  if (tw_json_value_type (method) != G_TYPE_STRING)
    return fail (error, TW_JSONRPC_ERROR_INVALID_REQUEST,
                 "Invalid Request: \"method\" must be a string");

  if (json_object_has_member (object, "result") || json_object_has_member (object, "error"))
    return fail (error, TW_JSONRPC_ERROR_INVALID_REQUEST,
                 "Invalid Request: a request cannot carry \"result\" or \"error\"");

  id = json_object_get_member (object, "id");
  if (id != NULL && !tw_jsonrpc_id_is_valid (id))
    return fail (error, TW_JSONRPC_ERROR_INVALID_REQUEST,
                 "Invalid Request: \"id\" must be a string or an integer");

  params = json_object_get_member (object, "params");
  if (params != NULL && !JSON_NODE_HOLDS_OBJECT (params))
    return fail (error, TW_JSONRPC_ERROR_INVALID_REQUEST,
                 "Invalid Request: \"params\" must be an object");

  message->kind = id != NULL ? TW_JSONRPC_MESSAGE_REQUEST : TW_JSONRPC_MESSAGE_NOTIFICATION;
  message->id = id != NULL ? json_node_copy (id) : NULL;
  message->method = g_strdup (json_node_get_string (method));
  message->params = params != NULL ? json_object_ref (json_node_get_object (params)) : NULL;

  return TRUE;
}

TwJsonrpcMessage *
tw_jsonrpc_message_parse (const char  *data,
                          gssize       length,
                          GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(TwJsonrpcMessage) message = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  if (length < 0)
    length = strlen (data);

  if ((gsize) length > TW_JSONRPC_MAX_LENGTH)
    {
      g_set_error (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR,
                   "Parse error: a message may be at most %u bytes", TW_JSONRPC_MAX_LENGTH);
      return NULL;
    }

  /* json-glib is lenient and recursive: only strict JSON of bounded depth
   * reaches it. */
  if (!tw_jsonrpc_check_strict (data, length, TW_JSONRPC_MAX_DEPTH, error))
    return NULL;

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data, length, &local_error))
    {
      g_set_error (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR,
                   "Parse error: %s", local_error->message);
      return NULL;
    }

  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error_literal (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR,
                           "Parse error: the body is empty");
      return NULL;
    }

  if (JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error_literal (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_INVALID_REQUEST,
                           "Batch requests are not supported");
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_INVALID_REQUEST,
                           "Invalid Request: a message must be a JSON object");
      return NULL;
    }

  message = g_new0 (TwJsonrpcMessage, 1);
  if (!parse_object (json_node_get_object (root), message, error))
    return NULL;

  return g_steal_pointer (&message);
}

/* A new builder in which a message has begun: {"jsonrpc": "2.0", … */
static JsonBuilder *
begin_message (void)
{
  JsonBuilder *builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "jsonrpc");
  json_builder_add_string_value (builder, "2.0");

  return builder;
}

/* Ends the message begun by begin_message(). */
static JsonNode *
end_message (JsonBuilder *builder)
{
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

static void
add_id (JsonBuilder *builder,
        JsonNode    *id)
{
  json_builder_set_member_name (builder, "id");
  if (id != NULL && tw_jsonrpc_id_is_valid (id))
    json_builder_add_value (builder, json_node_copy (id));
  else
    json_builder_add_null_value (builder);
}

JsonNode *
tw_jsonrpc_new_result (JsonNode *id,
                       JsonNode *result)
{
  g_autoptr(JsonBuilder) builder = NULL;

  g_return_val_if_fail (result != NULL, NULL);

  builder = begin_message ();
  add_id (builder, id);
  json_builder_set_member_name (builder, "result");
  json_builder_add_value (builder, json_node_copy (result));

  return end_message (builder);
}

JsonNode *
tw_jsonrpc_new_error (JsonNode   *id,
                      int         code,
                      const char *message)
{
  g_autoptr(JsonBuilder) builder = NULL;

  g_return_val_if_fail (message != NULL, NULL);

  builder = begin_message ();
  add_id (builder, id);
  json_builder_set_member_name (builder, "error");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_int_value (builder, code);
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, message);
  json_builder_end_object (builder);

  return end_message (builder);
}

JsonNode *
tw_jsonrpc_new_error_from_gerror (JsonNode     *id,
                                  const GError *error)
{
  g_return_val_if_fail (error != NULL, NULL);

  if (error->domain == TW_JSONRPC_ERROR)
    return tw_jsonrpc_new_error (id, error->code, error->message);

  return tw_jsonrpc_new_error (id, TW_JSONRPC_ERROR_INTERNAL_ERROR, error->message);
}

JsonNode *
tw_jsonrpc_new_notification (const char *method,
                             JsonObject *params)
{
  g_autoptr(JsonBuilder) builder = NULL;

  g_return_val_if_fail (method != NULL, NULL);

  builder = begin_message ();
  json_builder_set_member_name (builder, "method");
  json_builder_add_string_value (builder, method);
  if (params != NULL)
    {
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (node, params);
      json_builder_set_member_name (builder, "params");
      json_builder_add_value (builder, node);
    }

  return end_message (builder);
}

/* Writing JSON. json-glib's generator writes a double without a decimal
 * point with ".0" appended, after the exponent too: 6e18 comes out as
 * "6e+18.0", which no client can parse, so a tool result carrying such a
 * number would be lost. The server writes its messages itself. */

static void write_node (GString  *out,
                        JsonNode *node);

/* The last long text written and its escaped form: the same text again
 * (the snapshot of a page that did not change) is written from it, rather
 * than validated and escaped again. Only texts of lines are kept (not an
 * image's base64), and none larger than the largest snapshot reply. */
#define KEEP_ESCAPED_MIN (64 * 1024)
#define KEEP_ESCAPED_MAX (2 * 1024 * 1024)

static struct
{
  char  *text;
  gsize  length;
  char  *escaped;
  gsize  escaped_length;
} kept_escaped;

G_LOCK_DEFINE_STATIC (kept_escaped);

static void
write_string (GString    *out,
              const char *text)
{
  gsize length = strlen (text);
  gsize start;

  if (length < KEEP_ESCAPED_MIN || length > KEEP_ESCAPED_MAX || memchr (text, '\n', length) == NULL)
    {
      tw_json_append_string (out, text);
      return;
    }

  G_LOCK (kept_escaped);
  if (kept_escaped.text != NULL && kept_escaped.length == length &&
      memcmp (kept_escaped.text, text, length) == 0)
    {
      g_string_append_len (out, kept_escaped.escaped, kept_escaped.escaped_length);
      G_UNLOCK (kept_escaped);
      return;
    }
  G_UNLOCK (kept_escaped);

  start = out->len;
  tw_json_append_string (out, text);

  G_LOCK (kept_escaped);
  g_free (kept_escaped.text);
  g_free (kept_escaped.escaped);
  kept_escaped.text = g_memdup2 (text, length);
  kept_escaped.length = length;
  kept_escaped.escaped = g_memdup2 (out->str + start, out->len - start);
  kept_escaped.escaped_length = out->len - start;
  G_UNLOCK (kept_escaped);
}

/* The shortest form that reads back as the same double. */
static void
write_double (GString *out,
              double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  /* JSON has no NaN or infinity. */
  if (!isfinite (value))
    {
      g_string_append (out, "null");
      return;
    }

  for (int precision = 15; precision <= 17; precision++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", precision);
      g_ascii_formatd (buffer, sizeof buffer, format, value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }
  g_string_append (out, buffer);
}

static void
write_node (GString  *out,
            JsonNode *node)
{
  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        g_autoptr(GList) members = json_object_get_members (object);

        g_string_append_c (out, '{');
        for (const GList *l = members; l != NULL; l = l->next)
          {
            if (l != members)
              g_string_append_c (out, ',');
            write_string (out, l->data);
            g_string_append_c (out, ':');
            write_node (out, json_object_get_member (object, l->data));
          }
        g_string_append_c (out, '}');
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);

        g_string_append_c (out, '[');
        for (guint i = 0; i < length; i++)
          {
            if (i > 0)
              g_string_append_c (out, ',');
            write_node (out, json_array_get_element (array, i));
          }
        g_string_append_c (out, ']');
      }
      break;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          write_string (out, json_node_get_string (node));
          break;
        case G_TYPE_INT64:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
          break;
        case G_TYPE_DOUBLE:
          write_double (out, json_node_get_double (node));
          break;
        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          break;
        default:
          g_string_append (out, "null");
          break;
        }
      break;

    case JSON_NODE_NULL:
    default:
      g_string_append (out, "null");
      break;
    }
}

char *
tw_jsonrpc_to_string (JsonNode *message,
                      gsize    *length)
{
  GString *out;

  g_return_val_if_fail (message != NULL, NULL);

  out = g_string_new (NULL);
  write_node (out, message);

  if (length != NULL)
    *length = out->len;

  return g_string_free (out, FALSE);
}
