/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-jsonrpc.h"

#include "tw-json.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK (tw-jsonrpc-error-quark, tw_jsonrpc_error)

/* Strict JSON. json-glib 1.6 reads GScanner's dialect: it accepts single
 * quotes, comments, hex and octal numbers, a second value after the first,
 * wraps integers beyond 64 bits, cuts strings at \u0000 and recurses once per
 * level of nesting, so a body of a million '[' overflows the stack. This
 * scanner walks the text once, without recursion, and lets through only what
 * json-glib will read exactly as written. */

typedef struct
{
  char        kind;   /* '[' or '{' */
  GHashTable *names;  /* an object's member names so far */
} StrictFrame;

typedef struct
{
  const char *data;
  gsize       length;
  gsize       pos;
  GError    **error;
} StrictScanner;

static gboolean
strict_fail (StrictScanner *scanner,
             gsize          pos,
             const char    *format,
             ...) G_GNUC_PRINTF (3, 4);

static gboolean
strict_fail (StrictScanner *scanner,
             gsize          pos,
             const char    *format,
             ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (scanner->error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR,
               "Parse error: %s (at byte %" G_GSIZE_FORMAT ")", what, pos);
  return FALSE;
}

/* Says what is wrong with the byte at @pos, where a value or a punctuation
 * mark was expected. */
static gboolean
strict_unexpected (StrictScanner *scanner,
                   const char    *expected)
{
  gsize pos = scanner->pos;
  guchar c;

  if (pos >= scanner->length)
    return strict_fail (scanner, pos, "the text ends where %s was expected", expected);

  c = scanner->data[pos];
  if (c == '/' && pos + 1 < scanner->length &&
      (scanner->data[pos + 1] == '*' || scanner->data[pos + 1] == '/'))
    return strict_fail (scanner, pos, "comments are not JSON");
  if (c == '\'')
    return strict_fail (scanner, pos, "strings must be in double quotes");
  if (c >= 0x21 && c < 0x7f)
    return strict_fail (scanner, pos, "unexpected character '%c' where %s was expected", c, expected);

  return strict_fail (scanner, pos, "unexpected byte 0x%02x where %s was expected", c, expected);
}

static void
strict_skip_space (StrictScanner *scanner)
{
  while (scanner->pos < scanner->length)
    {
      char c = scanner->data[scanner->pos];

      if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        return;
      scanner->pos++;
    }
}

static int
hex_value (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* Reads four hex digits after "\u" at @pos. */
static gboolean
read_hex4 (StrictScanner *scanner,
           gsize          pos,
           gunichar      *value)
{
  *value = 0;

  if (pos + 4 > scanner->length)
    return FALSE;

  for (guint i = 0; i < 4; i++)
    {
      int digit = hex_value (scanner->data[pos + i]);

      if (digit < 0)
        return FALSE;
      *value = *value * 16 + digit;
    }

  return TRUE;
}

/* A string from its opening quote. With @decoded, its value is appended
 * there (member names, to find duplicates). */
static gboolean
strict_scan_string (StrictScanner *scanner,
                    GString       *decoded)
{
  gsize start = scanner->pos;

  scanner->pos++;

  for (;;)
    {
      gsize at = scanner->pos;
      guchar c;

      if (at >= scanner->length)
        return strict_fail (scanner, start, "the string is not terminated");

      c = scanner->data[at];

      if (c == '"')
        {
          scanner->pos++;
          return TRUE;
        }

      if (c < 0x20)
        return strict_fail (scanner, at, "control character U+%04X must be escaped in a string", c);

      if (c != '\\')
        {
          if (decoded != NULL)
            g_string_append_c (decoded, c);
          scanner->pos++;
          continue;
        }

      if (at + 1 >= scanner->length)
        return strict_fail (scanner, start, "the string is not terminated");

      c = scanner->data[at + 1];
      if (c == 'u')
        {
          gunichar value;

          if (!read_hex4 (scanner, at + 2, &value))
            return strict_fail (scanner, at, "\\u must be followed by four hex digits");

          if (value == 0)
            return strict_fail (scanner, at, "strings cannot contain NUL (\\u0000)");

          scanner->pos = at + 6;

          if (value >= 0xdc00 && value <= 0xdfff)
            return strict_fail (scanner, at, "\\u%04X is half of a surrogate pair without its first half",
                                value);

          if (value >= 0xd800 && value <= 0xdbff)
            {
              gunichar low;

              if (scanner->pos + 1 >= scanner->length ||
                  scanner->data[scanner->pos] != '\\' || scanner->data[scanner->pos + 1] != 'u' ||
                  !read_hex4 (scanner, scanner->pos + 2, &low) || low < 0xdc00 || low > 0xdfff)
                return strict_fail (scanner, at, "\\u%04X is half of a surrogate pair without its second half",
                                    value);

              value = 0x10000 + ((value - 0xd800) << 10) + (low - 0xdc00);
              scanner->pos += 6;
            }

          if (decoded != NULL)
            g_string_append_unichar (decoded, value);
          continue;
        }

      if (strchr ("\"\\/bfnrt", c) == NULL || c == '\0')
        {
          if (c >= 0x21 && c < 0x7f)
            return strict_fail (scanner, at, "\\%c is not a JSON escape", c);
          return strict_fail (scanner, at, "a backslash must start a JSON escape");
        }

      if (decoded != NULL)
        g_string_append_c (decoded, c == 'b' ? '\b' : c == 'f' ? '\f' : c == 'n' ? '\n' :
                           c == 'r' ? '\r' : c == 't' ? '\t' : c);
      scanner->pos = at + 2;
    }
}

static gboolean
is_digit (StrictScanner *scanner,
          gsize          pos)
{
  return pos < scanner->length && g_ascii_isdigit (scanner->data[pos]);
}

static gboolean
strict_scan_number (StrictScanner *scanner)
{
  gsize start = scanner->pos;
  gsize pos = start;
  gboolean negative = FALSE;
  gboolean integer = TRUE;

  if (scanner->data[pos] == '-')
    {
      negative = TRUE;
      pos++;
    }

  if (!is_digit (scanner, pos))
    {
      scanner->pos = pos;
      return strict_unexpected (scanner, "a digit");
    }

  if (scanner->data[pos] == '0')
    {
      pos++;
      if (pos < scanner->length && (scanner->data[pos] == 'x' || scanner->data[pos] == 'X'))
        return strict_fail (scanner, start, "hexadecimal numbers are not JSON");
      if (is_digit (scanner, pos))
        return strict_fail (scanner, start, "numbers cannot have leading zeros");
    }
  else
    {
      while (is_digit (scanner, pos))
        pos++;
    }

  if (pos < scanner->length && scanner->data[pos] == '.')
    {
      integer = FALSE;
      pos++;
      if (!is_digit (scanner, pos))
        return strict_fail (scanner, pos, "a digit must follow the decimal point");
      while (is_digit (scanner, pos))
        pos++;
    }

  if (pos < scanner->length && (scanner->data[pos] == 'e' || scanner->data[pos] == 'E'))
    {
      integer = FALSE;
      pos++;
      if (pos < scanner->length && (scanner->data[pos] == '+' || scanner->data[pos] == '-'))
        pos++;
      if (!is_digit (scanner, pos))
        return strict_fail (scanner, pos, "a digit must follow the exponent");
      while (is_digit (scanner, pos))
        pos++;
    }

  scanner->pos = pos;

  if (integer)
    {
      /* json-glib keeps integers as gint64 and wraps the ones beyond it. */
      guint64 limit = negative ? (guint64) G_MAXINT64 + 1 : (guint64) G_MAXINT64;
      guint64 value = 0;

      for (gsize i = start + (negative ? 1 : 0); i < pos; i++)
        {
          guint digit = scanner->data[i] - '0';

          if (value > (limit - digit) / 10)
            return strict_fail (scanner, start, "the integer does not fit in 64 bits");
          value = value * 10 + digit;
        }
    }
  else
    {
      g_autofree char *text = g_strndup (scanner->data + start, pos - start);

      if (!isfinite (g_ascii_strtod (text, NULL)))
        return strict_fail (scanner, start, "the number is too large for a double");
    }

  return TRUE;
}

static gboolean
strict_scan_word (StrictScanner *scanner)
{
  static const char * const words[] = { "true", "false", "null" };
  gsize pos = scanner->pos;

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      gsize n = strlen (words[i]);

      if (pos + n <= scanner->length && memcmp (scanner->data + pos, words[i], n) == 0 &&
          (pos + n == scanner->length || !g_ascii_isalnum (scanner->data[pos + n])))
        {
          scanner->pos = pos + n;
          return TRUE;
        }
    }

  return strict_unexpected (scanner, "a value");
}

static void
strict_frame_clear (StrictFrame *frame)
{
  g_clear_pointer (&frame->names, g_hash_table_unref);
}

static gboolean
strict_push (StrictScanner *scanner,
             GArray        *stack,
             guint          max_depth)
{
  StrictFrame frame = { scanner->data[scanner->pos], NULL };

  if (stack->len >= max_depth)
    return strict_fail (scanner, scanner->pos, "arrays and objects nest deeper than %u levels",
                        max_depth);

  if (frame.kind == '{')
    frame.names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_array_append_val (stack, frame);
  scanner->pos++;
  return TRUE;
}

/* A member name and its colon, from the opening quote. */
static gboolean
strict_scan_name (StrictScanner *scanner,
                  StrictFrame   *frame)
{
  g_autoptr(GString) name = g_string_new (NULL);
  gsize start = scanner->pos;

  if (start >= scanner->length || scanner->data[start] != '"')
    return strict_unexpected (scanner, "a member name in double quotes");

  if (!strict_scan_string (scanner, name))
    return FALSE;

  if (g_hash_table_contains (frame->names, name->str))
    return strict_fail (scanner, start, "the member name %.*s%s appears twice in one object",
                        (int) MIN (scanner->pos - start, 64), scanner->data + start,
                        scanner->pos - start > 64 ? "…" : "");
  g_hash_table_add (frame->names, g_string_free (g_steal_pointer (&name), FALSE));

  strict_skip_space (scanner);
  if (scanner->pos >= scanner->length || scanner->data[scanner->pos] != ':')
    return strict_unexpected (scanner, "':'");
  scanner->pos++;

  return TRUE;
}

gboolean
tw_jsonrpc_check_strict (const char  *data,
                         gsize        length,
                         guint        max_depth,
                         GError     **error)
{
  g_autoptr(GArray) stack = NULL;
  StrictScanner scanner = { data, length, 0, error };

  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Also refuses raw NUL bytes. */
  if (!g_utf8_validate_len (data, length, NULL))
    {
      g_set_error_literal (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR,
                           "Parse error: the body is not valid UTF-8 text");
      return FALSE;
    }

  stack = g_array_new (FALSE, FALSE, sizeof (StrictFrame));
  g_array_set_clear_func (stack, (GDestroyNotify) strict_frame_clear);

  strict_skip_space (&scanner);
  if (scanner.pos >= length)
    {
      g_set_error_literal (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR,
                           "Parse error: the body is empty");
      return FALSE;
    }

  for (;;)
    {
      char c;

      /* A value. */
      strict_skip_space (&scanner);
      c = scanner.pos < length ? data[scanner.pos] : '\0';

      if (c == '[' || c == '{')
        {
          if (!strict_push (&scanner, stack, max_depth))
            return FALSE;

          strict_skip_space (&scanner);
          if (scanner.pos < length && data[scanner.pos] == (c == '[' ? ']' : '}'))
            {
              scanner.pos++;
              g_array_set_size (stack, stack->len - 1);
            }
          else if (c == '{')
            {
              if (!strict_scan_name (&scanner, &g_array_index (stack, StrictFrame, stack->len - 1)))
                return FALSE;
              continue;
            }
          else
            {
              continue;
            }
        }
      else if (c == '"')
        {
          if (!strict_scan_string (&scanner, NULL))
            return FALSE;
        }
      else if (c == '-' || g_ascii_isdigit (c))
        {
          if (!strict_scan_number (&scanner))
            return FALSE;
        }
      else if (scanner.pos < length && g_ascii_isalpha (c))
        {
          if (!strict_scan_word (&scanner))
            return FALSE;
        }
      else
        {
          return strict_unexpected (&scanner, "a value");
        }

      /* After a value: close what it ends, then a comma or the end. */
      for (;;)
        {
          StrictFrame *frame;

          strict_skip_space (&scanner);

          if (stack->len == 0)
            {
              if (scanner.pos + 1 < length && data[scanner.pos] == '/' &&
                  (data[scanner.pos + 1] == '*' || data[scanner.pos + 1] == '/'))
                return strict_unexpected (&scanner, "the end");
              if (scanner.pos < length)
                return strict_fail (&scanner, scanner.pos,
                                    "more text follows the JSON value; send one message per body");
              return TRUE;
            }

          frame = &g_array_index (stack, StrictFrame, stack->len - 1);

          if (scanner.pos < length && data[scanner.pos] == (frame->kind == '[' ? ']' : '}'))
            {
              scanner.pos++;
              g_array_set_size (stack, stack->len - 1);
              continue;
            }

          if (scanner.pos >= length || data[scanner.pos] != ',')
            return strict_unexpected (&scanner, frame->kind == '[' ? "',' or ']'" : "',' or '}'");

          scanner.pos++;
          strict_skip_space (&scanner);

          if (scanner.pos < length && (data[scanner.pos] == ']' || data[scanner.pos] == '}'))
            return strict_fail (&scanner, scanner.pos, "a comma cannot come before '%c'",
                                data[scanner.pos]);

          if (frame->kind == '{' && !strict_scan_name (&scanner, frame))
            return FALSE;

          break;
        }
    }
}

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
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (result != NULL, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "jsonrpc");
  json_builder_add_string_value (builder, "2.0");
  add_id (builder, id);
  json_builder_set_member_name (builder, "result");
  json_builder_add_value (builder, json_node_copy (result));
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

JsonNode *
tw_jsonrpc_new_error (JsonNode   *id,
                      int         code,
                      const char *message)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (message != NULL, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "jsonrpc");
  json_builder_add_string_value (builder, "2.0");
  add_id (builder, id);
  json_builder_set_member_name (builder, "error");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_int_value (builder, code);
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, message);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
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
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (method != NULL, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "jsonrpc");
  json_builder_add_string_value (builder, "2.0");
  json_builder_set_member_name (builder, "method");
  json_builder_add_string_value (builder, method);
  if (params != NULL)
    {
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (node, params);
      json_builder_set_member_name (builder, "params");
      json_builder_add_value (builder, node);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
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

static void write_string_escaped (GString    *out,
                                  const char *text);

static void
write_string (GString    *out,
              const char *text)
{
  gsize length = strlen (text);
  gsize start;

  if (length < KEEP_ESCAPED_MIN || length > KEEP_ESCAPED_MAX || memchr (text, '\n', length) == NULL)
    {
      write_string_escaped (out, text);
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
  write_string_escaped (out, text);

  G_LOCK (kept_escaped);
  g_free (kept_escaped.text);
  g_free (kept_escaped.escaped);
  kept_escaped.text = g_memdup2 (text, length);
  kept_escaped.length = length;
  kept_escaped.escaped = g_memdup2 (out->str + start, out->len - start);
  kept_escaped.escaped_length = out->len - start;
  G_UNLOCK (kept_escaped);
}

static void
write_string_escaped (GString    *out,
                      const char *text)
{
  g_autofree char *made_valid = NULL;
  const char *p = text;
  const char *run;

  /* Most strings are valid UTF-8 already: only the others are copied. */
  if (!g_utf8_validate (text, -1, NULL))
    p = made_valid = g_utf8_make_valid (text, -1);

  g_string_append_c (out, '"');
  /* A reply can hold a whole page: what needs no escape goes in runs. */
  for (run = p; *p != '\0'; p++)
    {
      guchar c = *p;

      if (c >= 0x20 && c != '"' && c != '\\')
        continue;

      g_string_append_len (out, run, p - run);
      run = p + 1;
      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          g_string_append_printf (out, "\\u%04x", c);
        }
    }
  g_string_append_len (out, run, p - run);
  g_string_append_c (out, '"');
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
