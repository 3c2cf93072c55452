/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-json.h"
#include "tw-error.h"

/* Members read from what clients, pages and files send: the type asked for,
 * or the fallback, never a critical. */

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonNode) node = json_from_string (text, NULL);

  g_assert_nonnull (node);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));

  return json_object_ref (json_node_get_object (node));
}

static void
test_getters (void)
{
  g_autoptr(JsonObject) object =
    parse_object ("{\"s\": \"text\", \"b\": true, \"i\": 42, \"d\": 2.5, \"n\": null, "
                  "\"o\": {\"x\": 1}, \"a\": [1, 2]}");

  g_assert_cmpstr (tw_json_get_string (object, "s", "fallback"), ==, "text");
  g_assert_cmpstr (tw_json_get_string (object, "i", "fallback"), ==, "fallback");
  g_assert_cmpstr (tw_json_get_string (object, "n", "fallback"), ==, "fallback");
  g_assert_cmpstr (tw_json_get_string (object, "missing", NULL), ==, NULL);
  g_assert_cmpstr (tw_json_get_string (object, "o", NULL), ==, NULL);

  g_assert_true (tw_json_get_boolean (object, "b", FALSE));
  g_assert_true (tw_json_get_boolean (object, "s", TRUE));
  g_assert_false (tw_json_get_boolean (object, "i", FALSE));

  g_assert_cmpint (tw_json_get_int (object, "i", -1), ==, 42);
  g_assert_cmpint (tw_json_get_int (object, "d", -1), ==, -1);
  g_assert_cmpint (tw_json_get_int (object, "b", -1), ==, -1);

  g_assert_cmpfloat (tw_json_get_number (object, "i", -1), ==, 42.0);
  g_assert_cmpfloat (tw_json_get_number (object, "d", -1), ==, 2.5);
  g_assert_cmpfloat (tw_json_get_number (object, "s", -1), ==, -1.0);

  g_assert_nonnull (tw_json_get_object (object, "o"));
  g_assert_null (tw_json_get_object (object, "a"));
  g_assert_cmpuint (json_array_get_length (tw_json_get_array (object, "a")), ==, 2);
  g_assert_null (tw_json_get_array (object, "o"));

  /* No object at all reads as an empty one. */
  g_assert_cmpstr (tw_json_get_string (NULL, "s", "fallback"), ==, "fallback");
  g_assert_cmpint (tw_json_get_int (NULL, "i", 7), ==, 7);
  g_assert_null (tw_json_get_object (NULL, "o"));
}

static void
test_string_arg (void)
{
  g_autoptr(JsonObject) object = parse_object ("{\"s\": \"text\", \"n\": null, \"i\": 1}");
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (tw_json_get_string_arg (object, "s", &error), ==, "text");
  g_assert_no_error (error);
  g_assert_null (tw_json_get_string_arg (object, "n", &error));
  g_assert_no_error (error);
  g_assert_null (tw_json_get_string_arg (object, "missing", &error));
  g_assert_no_error (error);

  g_assert_null (tw_json_get_string_arg (object, "i", &error));
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "\"i\" must be a string");
}

static void
test_value_type (void)
{
  g_autoptr(JsonObject) object = parse_object ("{\"s\": \"x\", \"i\": 1, \"d\": 1.5, \"b\": true, "
                                               "\"n\": null, \"o\": {}, \"a\": []}");

  g_assert_true (tw_json_value_type (json_object_get_member (object, "s")) == G_TYPE_STRING);
  g_assert_true (tw_json_value_type (json_object_get_member (object, "i")) == G_TYPE_INT64);
  g_assert_true (tw_json_value_type (json_object_get_member (object, "d")) == G_TYPE_DOUBLE);
  g_assert_true (tw_json_value_type (json_object_get_member (object, "b")) == G_TYPE_BOOLEAN);
  g_assert_true (tw_json_value_type (json_object_get_member (object, "n")) == G_TYPE_INVALID);
  g_assert_true (tw_json_value_type (json_object_get_member (object, "o")) == G_TYPE_INVALID);
  g_assert_true (tw_json_value_type (json_object_get_member (object, "a")) == G_TYPE_INVALID);
  g_assert_true (tw_json_value_type (NULL) == G_TYPE_INVALID);
}

static void
test_boolean_arg (void)
{
  g_autoptr(JsonObject) object = parse_object ("{\"t\": true, \"f\": false, \"n\": null, \"s\": \"yes\"}");
  g_autoptr(GError) error = NULL;
  gboolean value = FALSE;

  g_assert_true (tw_json_get_boolean_arg (object, "t", &value, &error));
  g_assert_true (value);
  g_assert_true (tw_json_get_boolean_arg (object, "f", &value, &error));
  g_assert_false (value);

  /* Absent or null: the value stays what it was. */
  value = TRUE;
  g_assert_true (tw_json_get_boolean_arg (object, "n", &value, &error));
  g_assert_true (tw_json_get_boolean_arg (object, "missing", &value, &error));
  g_assert_true (value);
  g_assert_no_error (error);

  g_assert_false (tw_json_get_boolean_arg (object, "s", &value, &error));
  g_assert_true (value);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "\"s\" must be true or false");
}

/* One map from the names the page runtime uses to codes. */
static void
test_strv (void)
{
  g_autoptr(JsonObject) object =
    parse_object ("{\"a\": [\"x\", 1, null, {\"y\": 2}, [\"z\"], \"w\"], \"e\": [], \"s\": \"x\"}");
  g_auto(GStrv) mixed = tw_json_get_strv (object, "a");
  g_auto(GStrv) empty = tw_json_get_strv (object, "e");

  /* Only the strings, in order; an empty array is an empty list. */
  g_assert_cmpstrv (mixed, ((const char *[]) { "x", "w", NULL }));
  g_assert_nonnull (empty);
  g_assert_null (empty[0]);
  g_assert_null (tw_json_get_strv (object, "s"));
  g_assert_null (tw_json_get_strv (object, "missing"));
  g_assert_null (tw_json_get_strv (NULL, "a"));
}

static void
test_merge (void)
{
  g_autoptr(JsonObject) dest = parse_object ("{\"a\": 1, \"b\": null}");
  g_autoptr(JsonObject) source = parse_object ("{\"a\": 2, \"b\": 3, \"c\": {\"d\": 4}}");

  /* What @dest has stays, null included; the rest is added. */
  tw_json_merge (dest, source);
  g_assert_cmpint (json_object_get_int_member (dest, "a"), ==, 1);
  g_assert_true (json_object_get_null_member (dest, "b"));
  g_assert_cmpint (json_object_get_int_member (tw_json_get_object (dest, "c"), "d"), ==, 4);
  g_assert_cmpuint (json_object_get_size (dest), ==, 3);
}

static void
test_error_names (void)
{
  for (int code = 0; code <= TW_BROWSER_ERROR_INTERNAL; code++)
    g_assert_cmpint (tw_browser_error_code_from_name (tw_browser_error_code_name (code)), ==, code);

  g_assert_cmpint (tw_browser_error_code_from_name ("browser_no_such_code"), ==,
                   TW_BROWSER_ERROR_INTERNAL);
  g_assert_cmpint (tw_browser_error_code_from_name (NULL), ==, TW_BROWSER_ERROR_INTERNAL);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcp/json/getters", test_getters);
  g_test_add_func ("/mcp/json/string-arg", test_string_arg);
  g_test_add_func ("/mcp/json/boolean-arg", test_boolean_arg);
  g_test_add_func ("/mcp/json/value-type", test_value_type);
  g_test_add_func ("/mcp/json/strv", test_strv);
  g_test_add_func ("/mcp/json/merge", test_merge);
  g_test_add_func ("/mcp/json/error-names", test_error_names);

  return g_test_run ();
}
