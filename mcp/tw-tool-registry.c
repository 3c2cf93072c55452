/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tool-registry.h"
#include "tw-tool-registry-private.h"

#include "tw-error.h"
#include "tw-json.h"
#include "tw-json-schema.h"
#include "tw-tools.h"
#include "tw-mcp-resources.h"

#define TOOL_SCHEMAS_RESOURCE "/io/github/tabwright/Tabwright/mcp/tool-schemas.json"

typedef struct
{
  const TwToolTable *table;
  const char        *offered;
} ToolTable;

static const ToolTable tables[] = {
#define TW_TOOL_GROUP(name, offered) { &tw_tools_##name, #offered },
#include "tw-tool-groups.h"
#undef TW_TOOL_GROUP
};

typedef struct
{
  const TwToolDef *def;
  JsonNode        *input_schema;
  JsonNode        *output_schema;
  /* What tools/list announces: output_schema widened to admit error results. */
  JsonNode        *published_output_schema;
  /* Why the schemas could not be parsed, for tw_tool_registry_check(). */
  char            *problem;
  /* The offered group (tw-tool-groups.h); NULL for test tools that are
   * always offered. Static or registry-owned. */
  const char      *group;
  gboolean         for_testing;
} ToolEntry;

typedef struct
{
  GPtrArray  *entries;  /* ToolEntry*, in tools/list order */
  GHashTable *by_name;  /* name -> ToolEntry* */
  GHashTable *by_def;   /* TwToolDef* -> ToolEntry* */
  GPtrArray  *groups;   /* const char*, the offered groups in first-seen order */
} Registry;

static JsonNode *
parse_schema (const char  *text,
              GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  if (!json_parser_load_from_data (parser, text, -1, error))
    return NULL;

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                           "the schema is not a JSON object");
      return NULL;
    }

  return json_node_copy (root);
}

/* Error results carry structuredContent too ({error: {code, message,
 * retryable}}, DESIGN.md §4), and clients such as the MCP TypeScript SDK check
 * every structuredContent against the outputSchema, errors included. So the
 * announced schema admits either the tool's own fields or the error object;
 * the tool's own schema stays what successful results are checked against. */
static JsonNode *
publish_output_schema (const char *schema)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  /* Parsed afresh: json_node_copy() would share the JsonObject. */
  JsonNode *published = parse_schema (schema, NULL);
  JsonObject *object = json_node_get_object (published);
  JsonObject *properties;
  JsonArray *required;

  json_parser_load_from_data (parser,
                              "{\"type\":\"object\","
                              "\"description\":\"Set instead of the other fields when the call failed.\","
                              "\"properties\":{"
                              "\"code\":{\"type\":\"string\"},"
                              "\"message\":{\"type\":\"string\"},"
                              "\"retryable\":{\"type\":\"boolean\"}},"
                              "\"required\":[\"code\",\"message\",\"retryable\"]}",
                              -1, NULL);

  if (!json_object_has_member (object, "properties"))
    json_object_set_object_member (object, "properties", json_object_new ());
  properties = json_object_get_object_member (object, "properties");
  json_object_set_member (properties, "error", json_node_copy (json_parser_get_root (parser)));

  required = json_object_has_member (object, "required")
             ? json_object_get_array_member (object, "required") : NULL;
  if (required != NULL && json_array_get_length (required) > 0)
    {
      JsonArray *any_of = json_array_new ();
      JsonObject *success = json_object_new ();
      JsonObject *failure = json_object_new ();
      JsonArray *error_required = json_array_new ();

      json_object_set_array_member (success, "required", json_array_ref (required));
      json_array_add_string_element (error_required, "error");
      json_object_set_array_member (failure, "required", error_required);
      json_array_add_object_element (any_of, success);
      json_array_add_object_element (any_of, failure);
      json_object_remove_member (object, "required");
      json_object_set_array_member (object, "anyOf", any_of);
    }

  return published;
}

/* The schemas of tools/schemas/, merged at build time (build-aux/
 * merge-tool-schemas): {tool: {input, output?}}. Read once; lives as long
 * as the process. */
static JsonObject *
get_schema_files (void)
{
  static JsonObject *schemas;

  if (g_once_init_enter (&schemas))
    {
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      JsonNode *root;

      bytes = g_resource_lookup_data (tw_mcp_get_resource (), TOOL_SCHEMAS_RESOURCE,
                                      G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
      if (bytes == NULL ||
          !json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL),
                                       g_bytes_get_size (bytes), &error) ||
          (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
        g_error ("The tools' schemas (%s) are missing or broken: %s", TOOL_SCHEMAS_RESOURCE,
                 error != NULL ? error->message : "not a JSON object");

      g_once_init_leave (&schemas, json_object_ref (json_node_get_object (root)));
    }

  return schemas;
}

/* A schema of @def as JSON text: from its table when the table gives it,
 * else from its file in tools/schemas/ (@kind "input" or "output"); NULL
 * when it has none. */
static char *
dup_schema_text (const TwToolDef *def,
                 const char      *table_text,
                 const char      *kind)
{
  JsonObject *files;
  JsonObject *schemas;

  if (table_text != NULL)
    return g_strdup (table_text);

  files = get_schema_files ();
  schemas = json_object_has_member (files, def->name)
            ? json_object_get_object_member (files, def->name) : NULL;
  if (schemas == NULL || !json_object_has_member (schemas, kind))
    return NULL;

  return json_to_string (json_object_get_member (schemas, kind), FALSE);
}

static ToolEntry *
tool_entry_new (const TwToolDef *def,
                gboolean         for_testing)
{
  ToolEntry *entry = g_new0 (ToolEntry, 1);
  g_autoptr(GError) error = NULL;
  g_autofree char *input_text = dup_schema_text (def, def->input_schema, "input");
  g_autofree char *output_text = dup_schema_text (def, def->output_schema, "output");

  entry->def = def;
  entry->for_testing = for_testing;

  entry->input_schema = parse_schema (input_text != NULL ? input_text : "", &error);
  if (entry->input_schema == NULL)
    {
      entry->problem = g_strdup_printf ("%s: inputSchema does not parse: %s",
                                        def->name, error->message);
      /* Keep the tool callable with a schema that refuses everything but an
       * empty call, rather than one that accepts anything. */
      entry->input_schema = parse_schema ("{\"type\":\"object\",\"additionalProperties\":false}", NULL);
      g_critical ("%s", entry->problem);
      return entry;
    }

  if (output_text != NULL)
    {
      entry->output_schema = parse_schema (output_text, &error);
      if (entry->output_schema == NULL)
        {
          entry->problem = g_strdup_printf ("%s: outputSchema does not parse: %s",
                                            def->name, error->message);
          g_critical ("%s", entry->problem);
        }
      else
        {
          entry->published_output_schema = publish_output_schema (output_text);
        }
    }

  return entry;
}

static const char *
registry_intern_group (Registry   *registry,
                       const char *group)
{
  for (guint i = 0; i < registry->groups->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (registry->groups, i), group))
        return g_ptr_array_index (registry->groups, i);
    }

  g_ptr_array_add (registry->groups, (gpointer) g_intern_string (group));
  return g_ptr_array_index (registry->groups, registry->groups->len - 1);
}

static void
registry_add (Registry        *registry,
              const TwToolDef *def,
              const char      *group,
              gboolean         for_testing)
{
  ToolEntry *entry;

  if (def->name == NULL || g_hash_table_contains (registry->by_name, def->name))
    {
      g_critical ("Tool table has a missing or duplicate name: %s",
                  def->name ? def->name : "(null)");
      return;
    }

  entry = tool_entry_new (def, for_testing);
  entry->group = group != NULL ? registry_intern_group (registry, group) : NULL;
  g_ptr_array_add (registry->entries, entry);
  g_hash_table_insert (registry->by_name, (gpointer) def->name, entry);
  g_hash_table_insert (registry->by_def, (gpointer) def, entry);
}

static Registry *
get_registry (void)
{
  static Registry *registry;

  /* Tools are served from the main thread only; the registry is built on
   * first use and lives as long as the process. */
  if (g_once_init_enter (&registry))
    {
      Registry *self = g_new0 (Registry, 1);

      self->entries = g_ptr_array_new ();
      self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
      self->by_def = g_hash_table_new (NULL, NULL);
      self->groups = g_ptr_array_new ();

      for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
        for (guint j = 0; j < tables[i].table->n_defs; j++)
          registry_add (self, &tables[i].table->defs[j], tables[i].offered, FALSE);

      g_once_init_leave (&registry, self);
    }

  return registry;
}

void
tw_tool_registry_add_tools_for_testing (const TwToolDef *defs,
                                        guint            n_defs)
{
  Registry *registry = get_registry ();

  g_return_if_fail (defs != NULL || n_defs == 0);

  for (guint i = 0; i < n_defs; i++)
    registry_add (registry, &defs[i], NULL, TRUE);
}

void
tw_tool_registry_add_group_for_testing (const char      *group,
                                        const TwToolDef *defs,
                                        guint            n_defs)
{
  Registry *registry = get_registry ();

  g_return_if_fail (group != NULL);
  g_return_if_fail (defs != NULL || n_defs == 0);

  for (guint i = 0; i < n_defs; i++)
    registry_add (registry, &defs[i], group, TRUE);
}

guint
tw_tool_registry_get_n_groups (void)
{
  return get_registry ()->groups->len;
}

const char *
tw_tool_registry_get_group_name (guint index)
{
  Registry *registry = get_registry ();

  g_return_val_if_fail (index < registry->groups->len, NULL);

  return g_ptr_array_index (registry->groups, index);
}

gboolean
tw_tool_registry_has_group (const char *group)
{
  Registry *registry = get_registry ();

  g_return_val_if_fail (group != NULL, FALSE);

  for (guint i = 0; i < registry->groups->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (registry->groups, i), group))
        return TRUE;
    }

  return FALSE;
}

guint
tw_tool_registry_get_group_n_tools (const char *group)
{
  Registry *registry = get_registry ();
  guint n = 0;

  g_return_val_if_fail (group != NULL, 0);

  for (guint i = 0; i < registry->entries->len; i++)
    {
      ToolEntry *entry = g_ptr_array_index (registry->entries, i);

      if (g_strcmp0 (entry->group, group) == 0)
        n++;
    }

  return n;
}

guint
tw_tool_registry_get_n_tools (void)
{
  return get_registry ()->entries->len;
}

const TwToolDef *
tw_tool_registry_get_tool (guint index)
{
  Registry *registry = get_registry ();
  ToolEntry *entry;

  g_return_val_if_fail (index < registry->entries->len, NULL);

  entry = g_ptr_array_index (registry->entries, index);
  return entry->def;
}

const TwToolDef *
tw_tool_registry_lookup (const char *name)
{
  ToolEntry *entry;

  g_return_val_if_fail (name != NULL, NULL);

  entry = g_hash_table_lookup (get_registry ()->by_name, name);
  return entry != NULL ? entry->def : NULL;
}

static ToolEntry *
lookup_entry (const TwToolDef *def)
{
  Registry *registry = get_registry ();
  ToolEntry *entry = g_hash_table_lookup (registry->by_def, def);

  /* A table row that is not registered (a program serving its own tools)
   * still gets parsed schemas, cached like the others. */
  if (entry == NULL)
    {
      entry = tool_entry_new (def, TRUE);
      g_hash_table_insert (registry->by_def, (gpointer) def, entry);
    }

  return entry;
}

const char *
tw_tool_registry_get_group (const TwToolDef *def)
{
  g_return_val_if_fail (def != NULL, NULL);

  return lookup_entry (def)->group;
}

JsonNode *
tw_tool_registry_get_input_schema (const TwToolDef *def)
{
  g_return_val_if_fail (def != NULL, NULL);

  return lookup_entry (def)->input_schema;
}

JsonNode *
tw_tool_registry_get_output_schema (const TwToolDef *def)
{
  g_return_val_if_fail (def != NULL, NULL);

  return lookup_entry (def)->output_schema;
}

JsonObject *
tw_tool_def_to_json (const TwToolDef *def)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  ToolEntry *entry;

  g_return_val_if_fail (def != NULL, NULL);

  entry = lookup_entry (def);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, def->name);
  if (def->title != NULL)
    {
      json_builder_set_member_name (builder, "title");
      json_builder_add_string_value (builder, def->title);
    }
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder, def->description ? def->description : "");
  json_builder_set_member_name (builder, "inputSchema");
  json_builder_add_value (builder, json_node_copy (entry->input_schema));
  if (entry->published_output_schema != NULL)
    {
      json_builder_set_member_name (builder, "outputSchema");
      json_builder_add_value (builder, json_node_copy (entry->published_output_schema));
    }

  json_builder_set_member_name (builder, "annotations");
  json_builder_begin_object (builder);
  if (def->title != NULL)
    {
      json_builder_set_member_name (builder, "title");
      json_builder_add_string_value (builder, def->title);
    }
  json_builder_set_member_name (builder, "readOnlyHint");
  json_builder_add_boolean_value (builder, def->read_only);
  json_builder_set_member_name (builder, "destructiveHint");
  json_builder_add_boolean_value (builder, def->destructive);
  json_builder_set_member_name (builder, "idempotentHint");
  json_builder_add_boolean_value (builder, def->idempotent);
  json_builder_set_member_name (builder, "openWorldHint");
  json_builder_add_boolean_value (builder, def->open_world);
  json_builder_end_object (builder);

  if (def->search_hint != NULL)
    {
      json_builder_set_member_name (builder, "_meta");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "anthropic/searchHint");
      json_builder_add_string_value (builder, def->search_hint);
      json_builder_end_object (builder);
    }

  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return json_object_ref (json_node_get_object (root));
}

static JsonNode *
list_tools (TwBrowserService *service)
{
  Registry *registry = get_registry ();
  g_autoptr(JsonArray) tools = json_array_new ();
  g_autoptr(JsonObject) result = json_object_new ();
  JsonNode *node;

  for (guint i = 0; i < registry->entries->len; i++)
    {
      ToolEntry *entry = g_ptr_array_index (registry->entries, i);

      if (service != NULL && entry->group != NULL &&
          !tw_browser_service_get_tool_group_enabled (service, entry->group))
        continue;

      json_array_add_object_element (tools, tw_tool_def_to_json (entry->def));
    }

  json_object_set_array_member (result, "tools", g_steal_pointer (&tools));

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, result);
  return node;
}

JsonNode *
tw_tool_registry_list_tools (void)
{
  return list_tools (NULL);
}

JsonNode *
tw_tool_registry_list_offered_tools (TwBrowserService *service)
{
  g_return_val_if_fail (service == NULL || TW_IS_BROWSER_SERVICE (service), NULL);

  return list_tools (service);
}

static gboolean
member_is_string (JsonObject *object,
                  const char *name,
                  const char *value)
{
  JsonNode *node = json_object_get_member (object, name);

  return tw_json_value_type (node) == G_TYPE_STRING &&
         g_strcmp0 (json_node_get_string (node), value) == 0;
}

static gboolean
member_is_false (JsonObject *object,
                 const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return tw_json_value_type (node) == G_TYPE_BOOLEAN &&
         !json_node_get_boolean (node);
}

static gboolean
check_entry (ToolEntry  *entry,
             GError    **error)
{
  const TwToolDef *def = entry->def;
  g_autoptr(GError) local_error = NULL;
  JsonObject *input;

  if (entry->problem != NULL)
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL, entry->problem);
      return FALSE;
    }

  if (!entry->for_testing && !g_str_has_prefix (def->name, "browser_"))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                   "%s: tool names start with browser_", def->name);
      return FALSE;
    }

  if (def->title == NULL || def->title[0] == '\0' ||
      def->description == NULL || def->description[0] == '\0')
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                   "%s: every tool needs a title and a description", def->name);
      return FALSE;
    }

  /* A tool has its own handler, or is one command read by its formatter. */
  if ((def->handler == NULL) == (def->format == NULL))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                   def->handler == NULL ? "%s: the tool has no handler and no formatter"
                                        : "%s: the tool has a handler and a formatter",
                   def->name);
      return FALSE;
    }

  if (!tw_json_schema_check (entry->input_schema, &local_error))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                   "%s: inputSchema: %s", def->name, local_error->message);
      return FALSE;
    }

  /* MCP requires an object schema, and a closed one turns a misspelled
   * argument into a clear error instead of a silently ignored value. */
  input = json_node_get_object (entry->input_schema);
  if (!member_is_string (input, "type", "object") || !member_is_false (input, "additionalProperties"))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                   "%s: inputSchema must be {\"type\": \"object\", \"additionalProperties\": false, ...}",
                   def->name);
      return FALSE;
    }

  if (entry->output_schema != NULL)
    {
      JsonObject *output = json_node_get_object (entry->output_schema);

      if (!tw_json_schema_check (entry->output_schema, &local_error))
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                       "%s: outputSchema: %s", def->name, local_error->message);
          return FALSE;
        }

      if (!member_is_string (output, "type", "object"))
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                       "%s: outputSchema must describe an object", def->name);
          return FALSE;
        }
    }

  return TRUE;
}

gboolean
tw_tool_registry_check (GError **error)
{
  Registry *registry = get_registry ();
  g_autoptr(GList) files = json_object_get_members (get_schema_files ());

  for (guint i = 0; i < registry->entries->len; i++)
    {
      if (!check_entry (g_ptr_array_index (registry->entries, i), error))
        return FALSE;
    }

  /* A schema file of a tool no table has, or one its table overrides,
   * would be read by nobody. */
  for (const GList *l = files; l != NULL; l = l->next)
    {
      ToolEntry *entry = g_hash_table_lookup (registry->by_name, l->data);

      if (entry == NULL || entry->def->input_schema != NULL || entry->def->output_schema != NULL)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                       "mcp/tools/schemas/ has schemas of %s, which %s", (const char *) l->data,
                       entry == NULL ? "no tool table has"
                                     : "its table gives as C text too");
          return FALSE;
        }
    }

  return TRUE;
}
