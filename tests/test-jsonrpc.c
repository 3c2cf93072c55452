/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tw-jsonrpc.h"

/* Parses @text and expects it to fail with @code; returns the message. */
static char *
expect_error (const char *text,
              int         code)
{
  g_autoptr(TwJsonrpcMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  message = tw_jsonrpc_message_parse (text, -1, &error);
  g_assert_null (message);
  g_assert_error (error, TW_JSONRPC_ERROR, code);

  return g_strdup (error->message);
}

static TwJsonrpcMessage *
expect_message (const char *text)
{
  g_autoptr(GError) error = NULL;
  TwJsonrpcMessage *message;

  message = tw_jsonrpc_message_parse (text, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (message);

  return message;
}

static void
test_request (void)
{
  g_autoptr(TwJsonrpcMessage) message = NULL;
  g_autofree char *key = NULL;

  message = expect_message ("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{\"cursor\":\"x\"}}");
  g_assert_cmpint (message->kind, ==, TW_JSONRPC_MESSAGE_REQUEST);
  g_assert_cmpstr (message->method, ==, "tools/list");
  g_assert_cmpint (json_node_get_int (message->id), ==, 7);
  g_assert_nonnull (message->params);
  g_assert_cmpstr (json_object_get_string_member (message->params, "cursor"), ==, "x");

  key = tw_jsonrpc_id_to_key (message->id);
  g_assert_cmpstr (key, ==, "i:7");
}

static void
test_request_string_id (void)
{
  g_autoptr(TwJsonrpcMessage) message = NULL;
  g_autofree char *key = NULL;

  message = expect_message ("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"ping\"}");
  g_assert_cmpint (message->kind, ==, TW_JSONRPC_MESSAGE_REQUEST);
  g_assert_cmpstr (json_node_get_string (message->id), ==, "abc");
  g_assert_null (message->params);

  /* A string id "7" and the integer 7 are different requests. */
  key = tw_jsonrpc_id_to_key (message->id);
  g_assert_cmpstr (key, ==, "s:abc");
}

static void
test_notification (void)
{
  g_autoptr(TwJsonrpcMessage) message = NULL;

  message = expect_message ("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  g_assert_cmpint (message->kind, ==, TW_JSONRPC_MESSAGE_NOTIFICATION);
  g_assert_null (message->id);
  g_assert_cmpstr (message->method, ==, "notifications/initialized");
}

static void
test_response (void)
{
  g_autoptr(TwJsonrpcMessage) result = NULL;
  g_autoptr(TwJsonrpcMessage) failure = NULL;

  result = expect_message ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  g_assert_cmpint (result->kind, ==, TW_JSONRPC_MESSAGE_RESPONSE);
  g_assert_nonnull (result->result);
  g_assert_null (result->error);

  failure = expect_message ("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"no\"}}");
  g_assert_cmpint (failure->kind, ==, TW_JSONRPC_MESSAGE_RESPONSE);
  g_assert_nonnull (failure->error);
  g_assert_cmpint (json_object_get_int_member (failure->error, "code"), ==, -32600);
}

static void
test_parse_error (void)
{
  const char *bodies[] = {
    "",
    "   ",
    "{",
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"",
    "not json",
    "{\"jsonrpc\":\"2.0\" \"id\":1}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bodies); i++)
    {
      g_autofree char *text = expect_error (bodies[i], TW_JSONRPC_ERROR_PARSE_ERROR);

      g_assert_true (g_str_has_prefix (text, "Parse error"));
    }
}

static void
test_parse_error_encoding (void)
{
  static const char with_nul[] = "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\0garbage";
  static const char latin1[] = "{\"jsonrpc\":\"2.0\",\"method\":\"p\xe9ng\",\"id\":1}";
  g_autoptr(GError) error = NULL;
  g_autoptr(TwJsonrpcMessage) message = NULL;
  g_autoptr(TwJsonrpcMessage) message2 = NULL;

  /* A NUL inside the body must not cut it short into something valid. */
  message = tw_jsonrpc_message_parse (with_nul, sizeof with_nul - 1, &error);
  g_assert_null (message);
  g_assert_error (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR);
  g_clear_error (&error);

  message2 = tw_jsonrpc_message_parse (latin1, -1, &error);
  g_assert_null (message2);
  g_assert_error (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR);
}

/* What json-glib alone would read as something else, or as a valid message:
 * each is a parse error, and the message says what was wrong. */
static void
test_parse_error_lenient (void)
{
  const struct {
    const char *body;
    const char *says;
  } cases[] = {
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}",
      "more text follows" },
    { "{'jsonrpc':'2.0','id':1,'method':'ping'}", "double quotes" },
    { "{\"jsonrpc\":\"2.0\",\"id\":'1',\"method\":\"ping\"}", "double quotes" },
    { "{\"jsonrpc\":\"2.0\",/* c */\"id\":1,\"method\":\"ping\"}", "comments" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} // c", "comments" },
    { "{\"jsonrpc\":\"2.0\",\"id\":0x10,\"method\":\"ping\"}", "hexadecimal" },
    { "{\"jsonrpc\":\"2.0\",\"id\":010,\"method\":\"ping\"}", "leading zeros" },
    { "{\"jsonrpc\":\"2.0\",\"id\":.5,\"method\":\"ping\"}", "unexpected character '.'" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1.,\"method\":\"ping\"}", "decimal point" },
    { "{\"jsonrpc\":\"2.0\",\"id\":12345678901234567890,\"method\":\"ping\"}", "64 bits" },
    { "{\"jsonrpc\":\"2.0\",\"id\":-9223372036854775809,\"method\":\"ping\"}", "64 bits" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":1e400}}", "too large" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\\u0000x\"}", "NUL" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"browser_close_tab\",\"arguments\":{\"browserId\":\"b1\\u0000x\"}}}",
      "NUL" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\\ud800ing\"}", "surrogate" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\\udc00ing\"}", "surrogate" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\\xing\"}", "not a JSON escape" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\ting\"}", "control character" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}", "appears twice" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",}", "comma" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":[1,]}}", "comma" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":tru}}", "a value" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":truex}}", "a value" },
    { "\v{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "a value" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = expect_error (cases[i].body, TW_JSONRPC_ERROR_PARSE_ERROR);

      g_test_message ("%s -> %s", cases[i].body, text);
      g_assert_true (g_str_has_prefix (text, "Parse error: "));
      g_assert_nonnull (strstr (text, cases[i].says));
      g_assert_nonnull (strstr (text, "(at byte "));
    }
}

/* Everything RFC 8259 allows still parses, to the same values. */
static void
test_parse_strict_valid (void)
{
  g_autoptr(TwJsonrpcMessage) message = NULL;
  JsonObject *params;
  JsonArray *numbers;

  message = expect_message (" \t\r\n{\"jsonrpc\":\"2.0\",\"id\":-9223372036854775808,\"method\":\"m\\u00e9\\ud83d\\ude00\\\"\\\\\\/\\b\\f\\n\\r\\t\","
                            "\"params\":{\"n\":[0,-0,1E+2,1e-2,-0.5e10,9223372036854775807,1.5],"
                            "\"a\":{},\"b\":[],\"c\":[true,false,null],\"\\u0064\":\"x\"}} \n");
  g_assert_cmpint (json_node_get_int (message->id), ==, G_MININT64);
  g_assert_cmpstr (message->method, ==, "m\xc3\xa9\xf0\x9f\x98\x80\"\\/\b\f\n\r\t");
  params = message->params;
  numbers = json_object_get_array_member (params, "n");
  g_assert_cmpint (json_array_get_int_element (numbers, 0), ==, 0);
  g_assert_cmpfloat (json_array_get_double_element (numbers, 2), ==, 100.0);
  g_assert_cmpfloat (json_array_get_double_element (numbers, 3), ==, 0.01);
  g_assert_cmpfloat (json_array_get_double_element (numbers, 4), ==, -5e9);
  g_assert_cmpint (json_array_get_int_element (numbers, 5), ==, G_MAXINT64);
  g_assert_cmpuint (json_object_get_size (json_object_get_object_member (params, "a")), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (params, "d"), ==, "x");
}

/* Nesting beyond the limit is refused before json-glib recurses into it,
 * however deep: the parser must not run out of stack. */
static void
test_parse_depth (void)
{
  const gsize levels[] = { TW_JSONRPC_MAX_DEPTH - 3, TW_JSONRPC_MAX_DEPTH - 2, 100000, 1000000 };

  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    {
      g_autoptr(GString) body = g_string_new ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"a\":");
      g_autoptr(TwJsonrpcMessage) message = NULL;
      g_autoptr(GError) error = NULL;

      for (gsize n = 0; n < levels[i]; n++)
        g_string_append_c (body, '[');
      for (gsize n = 0; n < levels[i]; n++)
        g_string_append_c (body, ']');
      g_string_append (body, "}}");

      message = tw_jsonrpc_message_parse (body->str, body->len, &error);
      /* The message and params objects are two levels of their own. */
      if (levels[i] + 2 <= TW_JSONRPC_MAX_DEPTH)
        {
          g_assert_no_error (error);
          g_assert_nonnull (message);
        }
      else
        {
          g_assert_error (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR);
          g_assert_nonnull (strstr (error->message, "nest deeper than"));
        }
    }
}

/* A million unclosed '[' and a million nested objects: refused, quickly. */
static void
test_parse_depth_unclosed (void)
{
  gsize n = 1000000;
  g_autofree char *brackets = g_malloc (n);
  g_autoptr(GString) objects = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  memset (brackets, '[', n);
  g_assert_null (tw_jsonrpc_message_parse (brackets, n, &error));
  g_assert_error (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_nonnull (strstr (error->message, "nest deeper than"));
  g_clear_error (&error);

  for (gsize i = 0; i < 200000; i++)
    g_string_append (objects, "{\"a\":");
  g_assert_null (tw_jsonrpc_message_parse (objects->str, objects->len, &error));
  g_assert_error (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_nonnull (strstr (error->message, "nest deeper than"));
}

static void
test_parse_too_long (void)
{
  gsize n = TW_JSONRPC_MAX_LENGTH + 1;
  g_autofree char *body = g_malloc (n);
  g_autoptr(GError) error = NULL;

  memset (body, ' ', n);
  g_assert_null (tw_jsonrpc_message_parse (body, n, &error));
  g_assert_error (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_PARSE_ERROR);
  g_assert_nonnull (strstr (error->message, "at most"));
}

/* What the server writes is JSON a client can read, whatever numbers and
 * strings a result holds: json-glib's own generator wrote 6e18 as
 * "6e+18.0". */
static void
test_write_valid_json (void)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;
  JsonArray *array;
  const double values[] = { 6e18, 1e21, -2e300, 1e-7, 0.1, 1.5, 123456789.125, -0.0 };

  json_builder_begin_array (builder);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    json_builder_add_double_value (builder, values[i]);
  json_builder_add_double_value (builder, NAN);
  json_builder_add_double_value (builder, INFINITY);
  json_builder_add_int_value (builder, G_MININT64);
  json_builder_add_string_value (builder, "quote \" backslash \\ newline \n tab \t bell \a \x1f é 😀");
  json_builder_add_boolean_value (builder, FALSE);
  json_builder_add_null_value (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "b");
  json_builder_add_int_value (builder, 1);
  json_builder_set_member_name (builder, "a");
  json_builder_add_int_value (builder, 2);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  node = json_builder_get_root (builder);

  text = tw_jsonrpc_to_string (node, &length);
  g_test_message ("%s", text);
  g_assert_cmpuint (length, ==, strlen (text));
  tw_jsonrpc_check_strict (text, length, TW_JSONRPC_MAX_DEPTH, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "6e+18,1e+21,-2e+300,1e-07,0.1,1.5,123456789.125,-0,null,null,"));
  g_assert_nonnull (strstr (text, "\"quote \\\" backslash \\\\ newline \\n tab \\t bell \\u0007 \\u001f é 😀\""));
  /* Members in the order they were set. */
  g_assert_nonnull (strstr (text, "{\"b\":1,\"a\":2}"));

  g_assert_true (json_parser_load_from_data (parser, text, length, &error));
  g_assert_no_error (error);
  array = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    g_assert_cmpfloat (json_array_get_double_element (array, i), ==, values[i]);
  g_assert_cmpint (json_array_get_int_element (array, G_N_ELEMENTS (values) + 2), ==, G_MININT64);
}

static void
test_batch (void)
{
  g_autofree char *text = NULL;
  g_autofree char *empty = NULL;

  text = expect_error ("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
                       TW_JSONRPC_ERROR_INVALID_REQUEST);
  g_assert_cmpstr (text, ==, "Batch requests are not supported");

  empty = expect_error ("[]", TW_JSONRPC_ERROR_INVALID_REQUEST);
  g_assert_cmpstr (empty, ==, "Batch requests are not supported");
}

static void
test_invalid_request (void)
{
  static const struct {
    const char *body;
    const char *needle;
  } cases[] = {
    { "42", "JSON object" },
    { "\"ping\"", "JSON object" },
    { "null", "JSON object" },
    { "{\"id\":1,\"method\":\"ping\"}", "\"jsonrpc\" must be \"2.0\"" },
    { "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", "\"jsonrpc\" must be \"2.0\"" },
    { "{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}", "\"jsonrpc\" must be \"2.0\"" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}", "\"method\" must be a string" },
    { "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", "\"id\" must be a string or an integer" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", "\"id\" must be a string or an integer" },
    { "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", "\"id\" must be a string or an integer" },
    { "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", "\"id\" must be a string or an integer" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":[1]}", "\"params\" must be an object" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":\"x\"}", "\"params\" must be an object" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"result\":{}}", "cannot carry" },
    { "{\"jsonrpc\":\"2.0\"}", "needs \"method\"" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1}", "exactly one of" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1,\"error\":{\"code\":1,\"message\":\"x\"}}", "exactly one of" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":\"bad\"}", "\"error\" must be an object" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"message\":\"x\"}}", "\"error.code\" must be an integer" },
    { "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1}}", "\"error.message\" must be a string" },
    { "{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}", "\"id\" must be a string or an integer" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = expect_error (cases[i].body, TW_JSONRPC_ERROR_INVALID_REQUEST);

      if (strstr (text, cases[i].needle) == NULL)
        g_error ("%s: message \"%s\" lacks \"%s\"", cases[i].body, text, cases[i].needle);
    }
}

static void
assert_json (JsonNode   *node,
             const char *expected)
{
  g_autofree char *text = tw_jsonrpc_to_string (node, NULL);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_error_objects (void)
{
  g_autoptr(JsonNode) parse = tw_jsonrpc_new_error (NULL, TW_JSONRPC_ERROR_PARSE_ERROR, "Parse error");
  g_autoptr(JsonNode) invalid = tw_jsonrpc_new_error (NULL, TW_JSONRPC_ERROR_INVALID_REQUEST, "Invalid Request");
  g_autoptr(JsonNode) id = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) not_found = NULL;
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(JsonNode) internal = NULL;
  g_autoptr(JsonNode) from_other = NULL;
  g_autoptr(GError) jsonrpc_error = g_error_new_literal (TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_INVALID_PARAMS, "Unknown tool: x");
  g_autoptr(GError) io_error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, "boom");

  json_node_set_int (id, 3);
  not_found = tw_jsonrpc_new_error (id, TW_JSONRPC_ERROR_METHOD_NOT_FOUND, "Method not found: x");
  params = tw_jsonrpc_new_error_from_gerror (id, jsonrpc_error);
  internal = tw_jsonrpc_new_error (id, TW_JSONRPC_ERROR_INTERNAL_ERROR, "Internal error");
  from_other = tw_jsonrpc_new_error_from_gerror (id, io_error);

  assert_json (parse, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}");
  assert_json (invalid, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}");
  assert_json (not_found, "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32601,\"message\":\"Method not found: x\"}}");
  assert_json (params, "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"Unknown tool: x\"}}");
  assert_json (internal, "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32603,\"message\":\"Internal error\"}}");
  assert_json (from_other, "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32603,\"message\":\"boom\"}}");
}

static void
test_result_and_notification (void)
{
  g_autoptr(JsonNode) id = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) empty = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(JsonNode) notification = NULL;

  json_node_set_string (id, "r1");
  json_node_take_object (empty, json_object_new ());
  result = tw_jsonrpc_new_result (id, empty);
  assert_json (result, "{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"result\":{}}");

  json_object_set_string_member (params, "progressToken", "t");
  json_object_set_int_member (params, "progress", 1);
  notification = tw_jsonrpc_new_notification ("notifications/progress", params);
  assert_json (notification,
               "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
               "\"params\":{\"progressToken\":\"t\",\"progress\":1}}");
}

static void
test_round_trip (void)
{
  g_autoptr(JsonNode) id = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) reply = NULL;
  g_autoptr(TwJsonrpcMessage) message = NULL;
  g_autofree char *text = NULL;

  json_node_set_int (id, G_GINT64_CONSTANT (9007199254740993));
  reply = tw_jsonrpc_new_error (id, TW_JSONRPC_ERROR_REQUEST_CANCELLED, "Request cancelled");
  text = tw_jsonrpc_to_string (reply, NULL);

  message = expect_message (text);
  g_assert_cmpint (message->kind, ==, TW_JSONRPC_MESSAGE_RESPONSE);
  /* Large integer ids survive unchanged: they are not squeezed through a
   * double. */
  g_assert_cmpint (json_node_get_int (message->id), ==, G_GINT64_CONSTANT (9007199254740993));
  g_assert_cmpint (json_object_get_int_member (message->error, "code"), ==, -32800);
}

/* A long text written again (a snapshot of a page that did not change)
 * comes from its escaped form kept from the last time: the very same JSON,
 * and another text of the same length is escaped for itself. */
static void
test_long_text_again (void)
{
  g_autoptr(GString) long_text = g_string_new (NULL);
  g_autofree char *first = NULL;
  g_autofree char *again = NULL;
  g_autofree char *other = NULL;
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  for (guint i = 0; long_text->len < 200000; i++)
    g_string_append_printf (long_text, "  - button \"Delete \\\"item\\\" %u\" @e%u — é\n", i, i);

  json_node_set_string (node, long_text->str);
  first = tw_jsonrpc_to_string (node, NULL);
  again = tw_jsonrpc_to_string (node, NULL);
  g_assert_cmpstr (again, ==, first);
  g_assert_true (json_parser_load_from_data (parser, again, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (json_node_get_string (json_parser_get_root (parser)), ==, long_text->str);

  /* One character changed, the length the same. */
  *strrchr (long_text->str, 'D') = 'd';
  json_node_set_string (node, long_text->str);
  other = tw_jsonrpc_to_string (node, NULL);
  g_assert_cmpstr (other, !=, first);
  g_assert_true (json_parser_load_from_data (parser, other, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (json_node_get_string (json_parser_get_root (parser)), ==, long_text->str);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcp/jsonrpc/request", test_request);
  g_test_add_func ("/mcp/jsonrpc/request-string-id", test_request_string_id);
  g_test_add_func ("/mcp/jsonrpc/notification", test_notification);
  g_test_add_func ("/mcp/jsonrpc/response", test_response);
  g_test_add_func ("/mcp/jsonrpc/parse-error", test_parse_error);
  g_test_add_func ("/mcp/jsonrpc/parse-error-encoding", test_parse_error_encoding);
  g_test_add_func ("/mcp/jsonrpc/parse-error-lenient", test_parse_error_lenient);
  g_test_add_func ("/mcp/jsonrpc/parse-strict-valid", test_parse_strict_valid);
  g_test_add_func ("/mcp/jsonrpc/parse-depth", test_parse_depth);
  g_test_add_func ("/mcp/jsonrpc/parse-depth-unclosed", test_parse_depth_unclosed);
  g_test_add_func ("/mcp/jsonrpc/parse-too-long", test_parse_too_long);
  g_test_add_func ("/mcp/jsonrpc/write-valid-json", test_write_valid_json);
  g_test_add_func ("/mcp/jsonrpc/batch", test_batch);
  g_test_add_func ("/mcp/jsonrpc/invalid-request", test_invalid_request);
  g_test_add_func ("/mcp/jsonrpc/error-objects", test_error_objects);
  g_test_add_func ("/mcp/jsonrpc/result-and-notification", test_result_and_notification);
  g_test_add_func ("/mcp/jsonrpc/round-trip", test_round_trip);
  g_test_add_func ("/mcp/jsonrpc/long-text-again", test_long_text_again);

  return g_test_run ();
}
