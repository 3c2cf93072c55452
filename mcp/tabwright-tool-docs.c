/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "tw-error.h"
#include "tw-json.h"
#include "tw-json-schema.h"
#include "tw-tool-registry.h"

/* Writes the tool reference (docs/tools.md) from the tool tables, so that the
 * documentation and what tools/list reports can never disagree.
 *
 *   tabwright-tool-docs                  print the reference
 *   tabwright-tool-docs --output FILE    write it to FILE
 *   tabwright-tool-docs --check FILE     fail when FILE differs from it
 *   tabwright-tool-docs --json           print tools/list with every tool's
 *                                        offered group, for bench/tool-size.mjs
 */

/* Table cells are one line and must not contain an unescaped pipe. */
static void
append_cell (GString    *out,
             const char *text)
{
  for (const char *p = text; p != NULL && *p != '\0'; p++)
    {
      if (*p == '|')
        g_string_append (out, "\\|");
      else if (*p == '\n')
        g_string_append_c (out, ' ');
      else
        g_string_append_c (out, *p);
    }
}

static char *
format_number (JsonNode *node)
{
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));

  return g_strdup_printf ("%g", json_node_get_double (node));
}

static char *
describe_type_names (JsonObject *schema)
{
  JsonNode *type = json_object_get_member (schema, "type");
  GString *out = g_string_new (NULL);

  if (type == NULL)
    {
      g_string_append (out, "any");
    }
  else if (JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *names = json_node_get_array (type);

      for (guint i = 0; i < json_array_get_length (names); i++)
        {
          if (i > 0)
            g_string_append (out, " or ");
          g_string_append (out, json_array_get_string_element (names, i));
        }
    }
  else
    {
      const char *name = json_node_get_string (type);

      g_string_append (out, name);

      if (g_strcmp0 (name, "array") == 0)
        {
          JsonObject *items = tw_json_get_object (schema, "items");

          if (items != NULL)
            {
              g_autofree char *inner = describe_type_names (items);

              g_string_append_printf (out, " of %s", inner);
            }
        }
    }

  return g_string_free (out, FALSE);
}

/* "integer, 1 to 100", "string, one of `left`, `right`". */
static char *
describe_type (JsonObject *schema)
{
  GString *out = g_string_new (NULL);
  g_autofree char *names = describe_type_names (schema);
  JsonNode *values = json_object_get_member (schema, "enum");
  JsonNode *minimum = json_object_get_member (schema, "minimum");
  JsonNode *maximum = json_object_get_member (schema, "maximum");
  static const struct {
    const char *keyword;
    const char *bound;
    const char *unit;
  } limits[] = {
    { "minLength", "at least", "characters" },
    { "maxLength", "at most", "characters" },
    { "minItems",  "at least", "items" },
    { "maxItems",  "at most", "items" },
  };

  g_string_append (out, names);

  if (values != NULL && JSON_NODE_HOLDS_ARRAY (values))
    {
      JsonArray *array = json_node_get_array (values);

      g_string_append (out, ", one of ");
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autofree char *text = json_to_string (json_array_get_element (array, i), FALSE);

          if (i > 0)
            g_string_append (out, ", ");
          g_string_append_printf (out, "`%s`", text);
        }
    }

  if (minimum != NULL && maximum != NULL)
    {
      g_autofree char *low = format_number (minimum);
      g_autofree char *high = format_number (maximum);

      g_string_append_printf (out, ", %s to %s", low, high);
    }
  else if (minimum != NULL)
    {
      g_autofree char *low = format_number (minimum);

      g_string_append_printf (out, ", at least %s", low);
    }
  else if (maximum != NULL)
    {
      g_autofree char *high = format_number (maximum);

      g_string_append_printf (out, ", at most %s", high);
    }

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      JsonNode *limit = json_object_get_member (schema, limits[i].keyword);

      if (limit == NULL)
        continue;

      /* "minLength: 1" reads better as what it means. */
      if (g_str_equal (limits[i].keyword, "minLength") && json_node_get_int (limit) == 1)
        {
          g_string_append (out, ", not empty");
        }
      else
        {
          g_autofree char *number = format_number (limit);

          g_string_append_printf (out, ", %s %s %s", limits[i].bound, number, limits[i].unit);
        }
    }

  return g_string_free (out, FALSE);
}

static gboolean
is_required (JsonObject *schema,
             const char *name)
{
  JsonNode *required = json_object_get_member (schema, "required");

  if (required == NULL || !JSON_NODE_HOLDS_ARRAY (required))
    return FALSE;

  for (guint i = 0; i < json_array_get_length (json_node_get_array (required)); i++)
    {
      if (g_strcmp0 (json_array_get_string_element (json_node_get_array (required), i), name) == 0)
        return TRUE;
    }

  return FALSE;
}

/* One table row per property, nested objects (and arrays of objects)
 * flattened into dotted paths such as `tabs[].browserId`. */
static void
append_property_rows (GString    *out,
                      JsonObject *schema,
                      const char *prefix,
                      gboolean    with_required)
{
  JsonObject *properties = tw_json_get_object (schema, "properties");
  g_autoptr(GList) names = NULL;

  if (properties == NULL)
    return;

  names = json_object_get_members (properties);
  for (const GList *l = names; l != NULL; l = l->next)
    {
      const char *name = l->data;
      JsonObject *property = tw_json_get_object (properties, name);
      g_autofree char *path = prefix != NULL ? g_strdup_printf ("%s.%s", prefix, name) : g_strdup (name);
      g_autofree char *type = NULL;
      JsonObject *items;

      if (property == NULL)
        continue;

      type = describe_type (property);

      g_string_append_printf (out, "| `%s` | ", path);
      append_cell (out, type);
      if (with_required)
        g_string_append (out, is_required (schema, name) ? " | yes" : " | no");
      else if (!is_required (schema, name))
        g_string_append (out, " (optional)");
      g_string_append (out, " | ");
      append_cell (out, tw_json_get_string (property, "description", NULL));
      g_string_append (out, " |\n");

      if (tw_json_get_object (property, "properties") != NULL)
        append_property_rows (out, property, path, with_required);

      items = tw_json_get_object (property, "items");
      if (items != NULL && tw_json_get_object (items, "properties") != NULL)
        {
          g_autofree char *item_path = g_strdup_printf ("%s[]", path);

          append_property_rows (out, items, item_path, with_required);
        }
    }
}

static void
append_tool (GString         *out,
             const TwToolDef *def)
{
  JsonObject *input = json_node_get_object (tw_tool_registry_get_input_schema (def));
  JsonNode *output = tw_tool_registry_get_output_schema (def);
  JsonObject *properties = tw_json_get_object (input, "properties");

  g_string_append_printf (out, "## `%s`\n\n", def->name);
  g_string_append_printf (out, "**%s**\n\n", def->title);
  g_string_append_printf (out, "%s\n\n", def->description);

  g_string_append (out, "### Parameters\n\n");
  if (properties == NULL || json_object_get_size (properties) == 0)
    {
      g_string_append (out, "None.\n\n");
    }
  else
    {
      g_string_append (out, "| Name | Type | Required | Description |\n");
      g_string_append (out, "|---|---|---|---|\n");
      append_property_rows (out, input, NULL, TRUE);
      g_string_append_c (out, '\n');
    }

  g_string_append (out, "### Annotations\n\n");
  g_string_append (out, "| readOnlyHint | destructiveHint | idempotentHint | openWorldHint |\n");
  g_string_append (out, "|---|---|---|---|\n");
  g_string_append_printf (out, "| %s | %s | %s | %s |\n\n",
                          def->read_only ? "true" : "false",
                          def->destructive ? "true" : "false",
                          def->idempotent ? "true" : "false",
                          def->open_world ? "true" : "false");

  g_string_append (out, "### Result\n\n");
  if (output == NULL)
    {
      g_string_append (out, "Text only, meant to be read as it is; no `structuredContent`.\n\n");
    }
  else
    {
      g_string_append (out, "A short text summary, and `structuredContent` with these fields:\n\n");
      g_string_append (out, "| Field | Type | Description |\n");
      g_string_append (out, "|---|---|---|\n");
      append_property_rows (out, json_node_get_object (output), NULL, FALSE);
      g_string_append_c (out, '\n');
    }
}

static char *
generate (void)
{
  GString *out = g_string_new (NULL);
  guint n_tools = tw_tool_registry_get_n_tools ();

  g_string_append (out,
                   "<!-- Generated by tabwright-tool-docs from the tool tables in mcp/tools/.\n"
                   "     Do not edit: run `ninja -C build tool-reference` after changing a tool. -->\n\n");
  g_string_append (out, "# Tabwright browser tools\n\n");
  g_string_append (out,
                   "Tabwright serves these tools over MCP (Streamable HTTP at "
                   "`http://127.0.0.1:<port>/mcp`, or through the `tabwright-mcp` stdio "
                   "bridge). Tabs are named by a `browserId` such as `b3`; elements by the "
                   "`@eN` refs of the latest `browser_snapshot`.\n\n");
  g_string_append_printf (out,
                          "Arguments are checked against each tool's input schema before it "
                          "runs; a string argument whose schema sets no length is at most "
                          "%u characters. A call that fails the check gets "
                          "`browser_invalid_argument` and changes nothing.\n\n",
                          TW_JSON_SCHEMA_MAX_STRING_CHARS);

  g_string_append (out,
                   "Tools come in groups that the person offers per workspace (Preferences, "
                   "the `tool-groups` setting, `tabwright --tools GROUP,…`); a tool of a "
                   "group that is off is not listed and its calls fail with "
                   "`browser_disabled`.\n\n");
  g_string_append (out, "| Tool | Group | What it does |\n|---|---|---|\n");
  for (guint i = 0; i < n_tools; i++)
    {
      const TwToolDef *def = tw_tool_registry_get_tool (i);

      g_string_append_printf (out, "| [`%s`](#%s) | %s | ", def->name, def->name,
                              tw_tool_registry_get_group (def));
      append_cell (out, def->title);
      g_string_append (out, " |\n");
    }
  g_string_append_c (out, '\n');

  g_string_append (out, "## Errors\n\n");
  g_string_append (out,
                   "A failing tool call returns a result with `isError: true`, one text "
                   "line `code: message`, and `structuredContent.error = {code, message, "
                   "retryable}`.\n\n");
  g_string_append (out, "| Code | Retryable | Meaning |\n|---|---|---|\n");
  for (int code = 0; code <= TW_BROWSER_ERROR_INTERNAL; code++)
    {
      g_string_append_printf (out, "| `%s` | %s | ",
                              tw_browser_error_code_name (code),
                              tw_browser_error_is_retryable (code) ? "yes" : "no");
      append_cell (out, tw_browser_error_code_description (code));
      g_string_append (out, " |\n");
    }
  g_string_append_c (out, '\n');

  for (guint i = 0; i < n_tools; i++)
    append_tool (out, tw_tool_registry_get_tool (i));

  /* One trailing newline, as editors leave files. */
  while (out->len > 1 && out->str[out->len - 1] == '\n' && out->str[out->len - 2] == '\n')
    g_string_truncate (out, out->len - 1);

  return g_string_free (out, FALSE);
}

static char *
generate_json (void)
{
  g_autoptr(JsonNode) list = tw_tool_registry_list_tools ();
  JsonArray *tools = json_object_get_array_member (json_node_get_object (list), "tools");
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  for (guint i = 0; i < json_array_get_length (tools); i++)
    json_object_set_string_member (json_array_get_object_element (tools, i), "group",
                                   tw_tool_registry_get_group (tw_tool_registry_get_tool (i)));

  json_generator_set_root (generator, list);
  return json_generator_to_data (generator, NULL);
}

static int
check (const char *path,
       const char *expected)
{
  g_autofree char *actual = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) expected_lines = NULL;
  g_auto(GStrv) actual_lines = NULL;

  if (!g_file_get_contents (path, &actual, NULL, &error))
    {
      g_printerr ("%s: %s\nGenerate it with: ninja -C build tool-reference\n", path, error->message);
      return 1;
    }

  if (g_strcmp0 (actual, expected) == 0)
    return 0;

  expected_lines = g_strsplit (expected, "\n", -1);
  actual_lines = g_strsplit (actual, "\n", -1);

  for (guint i = 0; expected_lines[i] != NULL || actual_lines[i] != NULL; i++)
    {
      if (g_strcmp0 (expected_lines[i], actual_lines[i]) != 0)
        {
          g_printerr ("%s:%u differs from the tool tables.\n"
                      "  committed: %s\n"
                      "  generated: %s\n",
                      path, i + 1,
                      actual_lines[i] != NULL ? actual_lines[i] : "(end of file)",
                      expected_lines[i] != NULL ? expected_lines[i] : "(end of file)");
          break;
        }

      if (expected_lines[i] == NULL || actual_lines[i] == NULL)
        break;
    }

  g_printerr ("The tool reference is out of date. Regenerate it with:\n"
              "  ninja -C build tool-reference\n"
              "and commit docs/tools.md.\n");
  return 1;
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *output = NULL;
  g_autofree char *check_path = NULL;
  g_autofree char *text = NULL;
  gboolean json = FALSE;
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Write the reference to FILE", "FILE" },
    { "check", 'c', 0, G_OPTION_ARG_FILENAME, &check_path, "Fail when FILE is not up to date", "FILE" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print tools/list with each tool's group", NULL },
    { NULL }
  };

  setlocale (LC_ALL, "C");

  context = g_option_context_new ("- write the Tabwright tool reference");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  if (!tw_tool_registry_check (&error))
    {
      g_printerr ("Broken tool table: %s\n", error->message);
      return 1;
    }

  if (json)
    {
      g_autofree char *data = generate_json ();

      g_print ("%s\n", data);
      return 0;
    }

  text = generate ();

  if (check_path != NULL)
    return check (check_path, text);

  if (output != NULL)
    {
      if (!g_file_set_contents (output, text, -1, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      return 0;
    }

  g_print ("%s", text);
  return 0;
}
