/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "fuzz-target.h"

#include "tw-error.h"
#include "tw-json-schema.h"
#include "tw-jsonrpc.h"
#include "tw-tool-registry.h"

static void
expect_valid_or_invalid_argument (JsonNode *schema,
                                  JsonNode *instance)
{
  g_autoptr(GError) error = NULL;

  if (tw_json_schema_validate (schema, instance, &error))
    {
      g_assert_no_error (error);
      return;
    }

  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  g_assert_true (error->message[0] != '\0');
}

/* The schema validator on any JSON: {"schema": S, "instance": I} validates
 * I against S when S passes tw_json_schema_check(); any other value is
 * validated against every tool's inputSchema, as tools/call arguments are.
 * Either way the answer is a yes or a browser_invalid_argument, never a
 * crash or another error. */
int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonParser) parser = NULL;
  JsonNode *root;

  if (!tw_jsonrpc_check_strict ((const char *) data, size, TW_JSONRPC_MAX_DEPTH, NULL))
    return 0;

  parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, (const char *) data, size, NULL));
  root = json_parser_get_root (parser);

  if (JSON_NODE_HOLDS_OBJECT (root) &&
      json_object_has_member (json_node_get_object (root), "schema") &&
      json_object_has_member (json_node_get_object (root), "instance"))
    {
      JsonObject *object = json_node_get_object (root);
      JsonNode *schema = json_object_get_member (object, "schema");
      g_autoptr(GError) error = NULL;

      if (tw_json_schema_check (schema, &error))
        expect_valid_or_invalid_argument (schema, json_object_get_member (object, "instance"));
      else
        g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL);

      return 0;
    }

  for (guint i = 0; i < tw_tool_registry_get_n_tools (); i++)
    expect_valid_or_invalid_argument (tw_tool_registry_get_input_schema (tw_tool_registry_get_tool (i)),
                                      root);

  return 0;
}
