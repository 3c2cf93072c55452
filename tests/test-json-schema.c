/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-error.h"
#include "tw-json-schema.h"
#include "tw-tool-registry.h"
#include "tw-test-util.h"

static void
assert_valid (const char *schema_text,
              const char *instance_text)
{
  g_autoptr(JsonNode) schema = tw_test_parse_json (schema_text);
  g_autoptr(JsonNode) instance = tw_test_parse_json (instance_text);
  g_autoptr(GError) error = NULL;

  if (!tw_json_schema_validate (schema, instance, &error))
    g_error ("%s should accept %s, said: %s", schema_text, instance_text, error->message);
}

static void
assert_invalid (const char *schema_text,
                const char *instance_text,
                const char *message)
{
  g_autoptr(JsonNode) schema = tw_test_parse_json (schema_text);
  g_autoptr(JsonNode) instance = tw_test_parse_json (instance_text);
  g_autoptr(GError) error = NULL;

  if (tw_json_schema_validate (schema, instance, &error))
    g_error ("%s should refuse %s", schema_text, instance_text);

  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, message);
}

#define OBJ(props) "{\"type\":\"object\",\"properties\":{" props "},\"additionalProperties\":false}"

static void
test_type_object (void)
{
  assert_valid (OBJ (""), "{}");
  assert_invalid (OBJ (""), "[]", "arguments must be an object");
  assert_invalid (OBJ (""), "\"x\"", "arguments must be an object");
  assert_invalid (OBJ ("\"size\":{\"type\":\"object\"}"), "{\"size\":1}", "\"size\" must be an object");
}

static void
test_type_string (void)
{
  const char *schema = OBJ ("\"url\":{\"type\":\"string\"}");

  assert_valid (schema, "{\"url\":\"http://x/\"}");
  assert_valid (schema, "{\"url\":\"\"}");
  assert_invalid (schema, "{\"url\":5}", "\"url\" must be a string");
  assert_invalid (schema, "{\"url\":null}", "\"url\" must be a string");
  assert_invalid (schema, "{\"url\":true}", "\"url\" must be a string");
  assert_invalid (schema, "{\"url\":[\"a\"]}", "\"url\" must be a string");
  assert_invalid (schema, "{\"url\":{}}", "\"url\" must be a string");
}

static void
test_type_integer (void)
{
  const char *schema = OBJ ("\"width\":{\"type\":\"integer\"}");

  assert_valid (schema, "{\"width\":800}");
  assert_valid (schema, "{\"width\":-3}");
  /* JSON has one number type: 800.0 is an integer. */
  assert_valid (schema, "{\"width\":800.0}");
  assert_invalid (schema, "{\"width\":800.5}", "\"width\" must be an integer");
  assert_invalid (schema, "{\"width\":\"800\"}", "\"width\" must be an integer");
  assert_invalid (schema, "{\"width\":false}", "\"width\" must be an integer");
}

static void
test_type_number (void)
{
  const char *schema = OBJ ("\"deltaY\":{\"type\":\"number\"}");

  assert_valid (schema, "{\"deltaY\":1}");
  assert_valid (schema, "{\"deltaY\":-2.5}");
  assert_valid (schema, "{\"deltaY\":1e3}");
  assert_invalid (schema, "{\"deltaY\":\"1\"}", "\"deltaY\" must be a number");
  assert_invalid (schema, "{\"deltaY\":null}", "\"deltaY\" must be a number");
}

static void
test_type_boolean (void)
{
  const char *schema = OBJ ("\"fullPage\":{\"type\":\"boolean\"}");

  assert_valid (schema, "{\"fullPage\":true}");
  assert_valid (schema, "{\"fullPage\":false}");
  assert_invalid (schema, "{\"fullPage\":1}", "\"fullPage\" must be a boolean");
  assert_invalid (schema, "{\"fullPage\":\"true\"}", "\"fullPage\" must be a boolean");
}

static void
test_type_array (void)
{
  const char *schema = OBJ ("\"filePaths\":{\"type\":\"array\"}");

  assert_valid (schema, "{\"filePaths\":[]}");
  assert_valid (schema, "{\"filePaths\":[1,\"a\"]}");
  assert_invalid (schema, "{\"filePaths\":\"a.txt\"}", "\"filePaths\" must be an array");
}

static void
test_type_list (void)
{
  const char *schema = OBJ ("\"owner\":{\"type\":[\"string\",\"null\"]}");

  assert_valid (schema, "{\"owner\":\"Codex\"}");
  assert_valid (schema, "{\"owner\":null}");
  assert_invalid (schema, "{\"owner\":3}", "\"owner\" must be a string or null");
}

static void
test_required (void)
{
  const char *schema =
    "{\"type\":\"object\",\"properties\":{\"browserId\":{\"type\":\"string\"},\"url\":{\"type\":\"string\"}},"
    "\"required\":[\"browserId\",\"url\"],\"additionalProperties\":false}";

  assert_valid (schema, "{\"browserId\":\"b1\",\"url\":\"http://a/\"}");
  assert_invalid (schema, "{\"url\":\"http://a/\"}", "missing required argument \"browserId\"");
  assert_invalid (schema, "{\"browserId\":\"b1\"}", "missing required argument \"url\"");
  assert_invalid (schema, "{}", "missing required argument \"browserId\"");
}

static void
test_additional_properties (void)
{
  const char *closed = OBJ ("\"browserId\":{\"type\":\"string\"}");
  const char *open = "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}}}";
  const char *typed = "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}}";

  assert_invalid (closed, "{\"browserId\":\"b1\",\"foo\":1}", "unknown argument \"foo\"");
  assert_invalid (closed, "{\"browserid\":\"b1\"}", "unknown argument \"browserid\"");
  assert_valid (open, "{\"a\":\"x\",\"foo\":1}");
  assert_valid (typed, "{\"x\":1,\"y\":2}");
  assert_invalid (typed, "{\"x\":\"1\"}", "\"x\" must be an integer");
}

static void
test_enum (void)
{
  const char *schema = OBJ ("\"button\":{\"type\":\"string\",\"enum\":[\"left\",\"right\",\"middle\"]}");

  assert_valid (schema, "{\"button\":\"left\"}");
  assert_valid (schema, "{\"button\":\"middle\"}");
  assert_invalid (schema, "{\"button\":\"Left\"}",
                  "\"button\" must be one of \"left\", \"right\", \"middle\"");
  assert_invalid (OBJ ("\"n\":{\"enum\":[1,2]}"), "{\"n\":3}", "\"n\" must be one of 1, 2");
  assert_invalid (OBJ ("\"n\":{\"enum\":[1,2]}"), "{\"n\":\"1\"}", "\"n\" must be one of 1, 2");
}

static void
test_minimum_maximum (void)
{
  const char *schema = OBJ ("\"width\":{\"type\":\"integer\",\"minimum\":100,\"maximum\":4000}");
  const char *fraction = OBJ ("\"zoom\":{\"type\":\"number\",\"minimum\":0.25,\"maximum\":5}");

  assert_valid (schema, "{\"width\":100}");
  assert_valid (schema, "{\"width\":4000}");
  assert_invalid (schema, "{\"width\":99}", "\"width\" must be at least 100");
  assert_invalid (schema, "{\"width\":4001}", "\"width\" must be at most 4000");
  assert_valid (fraction, "{\"zoom\":0.25}");
  assert_invalid (fraction, "{\"zoom\":0.2}", "\"zoom\" must be at least 0.25");
  assert_invalid (fraction, "{\"zoom\":5.5}", "\"zoom\" must be at most 5");
}

static void
test_min_max_length (void)
{
  const char *schema = OBJ ("\"key\":{\"type\":\"string\",\"minLength\":2,\"maxLength\":4}");
  const char *not_empty = OBJ ("\"url\":{\"type\":\"string\",\"minLength\":1}");

  assert_valid (schema, "{\"key\":\"ab\"}");
  assert_valid (schema, "{\"key\":\"abcd\"}");
  /* Lengths count characters, not bytes. */
  assert_valid (schema, "{\"key\":\"\\u00e9\\u00e9\\u00e9\\u00e9\"}");
  assert_invalid (schema, "{\"key\":\"a\"}", "\"key\" must be at least 2 characters long");
  assert_invalid (schema, "{\"key\":\"abcde\"}", "\"key\" must be at most 4 characters long");
  assert_invalid (not_empty, "{\"url\":\"\"}", "\"url\" must not be empty");
}

/* The arguments of a tool call: every string has a bound, its own
 * maxLength or TW_JSON_SCHEMA_MAX_STRING_CHARS; other JSON (results) has
 * none it does not state. */
static void
test_argument_bound (void)
{
  g_autoptr(JsonNode) schema =
    tw_test_parse_json (OBJ ("\"promptText\":{\"type\":\"string\"},"
                             "\"html\":{\"type\":\"string\",\"maxLength\":20000},"
                             "\"names\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}"));
  g_autofree char *at_bound = g_strnfill (TW_JSON_SCHEMA_MAX_STRING_CHARS, 'a');
  g_autofree char *over = g_strnfill (TW_JSON_SCHEMA_MAX_STRING_CHARS + 1, 'a');
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = g_strdup_printf ("\"promptText\" must be at most %u characters long",
                                              TW_JSON_SCHEMA_MAX_STRING_CHARS);
  g_autofree char *item_message = g_strdup_printf ("\"names[1]\" must be at most %u characters long",
                                                   TW_JSON_SCHEMA_MAX_STRING_CHARS);
  g_autoptr(JsonNode) instance = NULL;

  text = g_strdup_printf ("{\"promptText\":\"%s\",\"html\":\"%s\"}", at_bound, over);
  instance = tw_test_parse_json (text);
  g_assert_true (tw_json_schema_validate_arguments (schema, instance, &error));
  g_assert_no_error (error);
  g_clear_pointer (&instance, json_node_unref);
  g_clear_pointer (&text, g_free);

  text = g_strdup_printf ("{\"promptText\":\"%s\"}", over);
  instance = tw_test_parse_json (text);
  g_assert_false (tw_json_schema_validate_arguments (schema, instance, &error));
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, message);
  g_clear_error (&error);
  /* Results and other JSON are not bounded by it. */
  g_assert_true (tw_json_schema_validate (schema, instance, &error));
  g_assert_no_error (error);
  g_clear_pointer (&instance, json_node_unref);
  g_clear_pointer (&text, g_free);

  text = g_strdup_printf ("{\"names\":[\"a\",\"%s\"]}", over);
  instance = tw_test_parse_json (text);
  g_assert_false (tw_json_schema_validate_arguments (schema, instance, &error));
  g_assert_cmpstr (error->message, ==, item_message);
}

static void
test_items (void)
{
  const char *schema = OBJ ("\"filePaths\":{\"type\":\"array\",\"items\":{\"type\":\"string\",\"minLength\":1}}");

  assert_valid (schema, "{\"filePaths\":[\"a\",\"b\"]}");
  assert_invalid (schema, "{\"filePaths\":[\"a\",2]}", "\"filePaths[1]\" must be a string");
  assert_invalid (schema, "{\"filePaths\":[\"\"]}", "\"filePaths[0]\" must not be empty");
}

static void
test_min_max_items (void)
{
  const char *schema = OBJ ("\"modifiers\":{\"type\":\"array\",\"minItems\":1,\"maxItems\":2}");
  const char *single = OBJ ("\"m\":{\"type\":\"array\",\"maxItems\":1}");

  assert_valid (schema, "{\"modifiers\":[\"Shift\"]}");
  assert_valid (schema, "{\"modifiers\":[\"Shift\",\"Alt\"]}");
  assert_invalid (schema, "{\"modifiers\":[]}", "\"modifiers\" must have at least 1 item");
  assert_invalid (schema, "{\"modifiers\":[1,2,3]}", "\"modifiers\" must have at most 2 items");
  assert_invalid (single, "{\"m\":[1,2]}", "\"m\" must have at most 1 item");
}

static void
test_nested (void)
{
  const char *schema =
    OBJ ("\"viewport\":{\"type\":\"object\",\"properties\":{\"width\":{\"type\":\"integer\",\"minimum\":1}},"
         "\"required\":[\"width\"],\"additionalProperties\":false},"
         "\"items\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"number\"}}}}");

  assert_valid (schema, "{\"viewport\":{\"width\":3},\"items\":[{\"x\":1}]}");
  assert_invalid (schema, "{\"viewport\":{}}", "missing required argument \"viewport.width\"");
  assert_invalid (schema, "{\"viewport\":{\"width\":0}}", "\"viewport.width\" must be at least 1");
  assert_invalid (schema, "{\"viewport\":{\"width\":1,\"h\":2}}", "unknown argument \"viewport.h\"");
  assert_invalid (schema, "{\"items\":[{\"x\":\"1\"}]}", "\"items[0].x\" must be a number");
}

static void
test_check_schema (void)
{
  static const struct {
    const char *schema;
    const char *message;
  } bad[] = {
    { "{\"type\":\"object\",\"oneOf\":[]}", "schema at #: \"oneOf\" is not supported by the validator" },
    { "{\"type\":\"strng\"}", "schema at #: \"type\" names an unknown type" },
    { "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"pattern\":\"x\"}}}",
      "schema at #.properties.a: \"pattern\" is not supported by the validator" },
    { "{\"required\":\"a\"}", "schema at #: \"required\" must be an array of names" },
    { "{\"minLength\":-1}", "schema at #: \"minLength\" must be a non-negative integer" },
    { "{\"minimum\":\"1\"}", "schema at #: \"minimum\" must be a number" },
    { "{\"enum\":[]}", "schema at #: \"enum\" must be a non-empty array" },
    { "{\"additionalProperties\":1}", "schema at #: \"additionalProperties\" must be a boolean or a schema" },
    { "{\"items\":[{}]}", "schema at #.items is not an object" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(JsonNode) schema = tw_test_parse_json (bad[i].schema);
      g_autoptr(GError) error = NULL;

      g_assert_false (tw_json_schema_check (schema, &error));
      g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL);
      g_assert_cmpstr (error->message, ==, bad[i].message);
    }
}

/* Every schema in the tool tables parses and sticks to what the validator
 * understands, so no rule a schema states is silently skipped. */
static void
test_tool_schemas (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (tw_tool_registry_get_n_tools (), >=, 7);
  tw_tool_registry_check (&error);
  g_assert_no_error (error);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcp/json-schema/type-object", test_type_object);
  g_test_add_func ("/mcp/json-schema/argument-bound", test_argument_bound);
  g_test_add_func ("/mcp/json-schema/type-string", test_type_string);
  g_test_add_func ("/mcp/json-schema/type-integer", test_type_integer);
  g_test_add_func ("/mcp/json-schema/type-number", test_type_number);
  g_test_add_func ("/mcp/json-schema/type-boolean", test_type_boolean);
  g_test_add_func ("/mcp/json-schema/type-array", test_type_array);
  g_test_add_func ("/mcp/json-schema/type-list", test_type_list);
  g_test_add_func ("/mcp/json-schema/required", test_required);
  g_test_add_func ("/mcp/json-schema/additional-properties", test_additional_properties);
  g_test_add_func ("/mcp/json-schema/enum", test_enum);
  g_test_add_func ("/mcp/json-schema/minimum-maximum", test_minimum_maximum);
  g_test_add_func ("/mcp/json-schema/min-max-length", test_min_max_length);
  g_test_add_func ("/mcp/json-schema/items", test_items);
  g_test_add_func ("/mcp/json-schema/min-max-items", test_min_max_items);
  g_test_add_func ("/mcp/json-schema/nested", test_nested);
  g_test_add_func ("/mcp/json-schema/check-schema", test_check_schema);
  g_test_add_func ("/mcp/json-schema/tool-schemas", test_tool_schemas);

  return g_test_run ();
}
