/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-agent-preset.h"

#include <json-glib/json-glib.h>
#include <string.h>

#define PRESETS_RESOURCE "/io/github/tabwright/Tabwright/agent-presets.json"

struct _TwAgentPreset
{
  GObject     parent_instance;

  char       *id;
  char       *name;
  char       *description;
  char       *program;
  char       *install;
  char       *homepage;
  char       *notes;
  char      **search_paths;
  char      **args;
  /* NAME -> template, in the file's order. */
  JsonObject *env;
  /* The template of the preset's own config file, or NULL. */
  JsonNode   *config;

  guint       needs_command : 1;
  guint       hidden : 1;
};

G_DEFINE_FINAL_TYPE (TwAgentPreset, tw_agent_preset, G_TYPE_OBJECT)

/* Placeholders */

typedef struct
{
  const TwAgentPresetValues *values;
  /* {configJson}; NULL where it cannot be used (inside the config itself). */
  const char                *config_json;
  gboolean                   in_config;
} Expansion;

static const char *
placeholder_value (const Expansion  *expansion,
                   const char       *name,
                   GError          **error)
{
  const TwAgentPresetValues *values = expansion->values;
  const char *value = NULL;
  gboolean known = TRUE;

  if (g_str_equal (name, "url"))
    value = values->url;
  else if (g_str_equal (name, "token"))
    value = values->token;
  else if (g_str_equal (name, "workspace"))
    value = values->workspace;
  else if (g_str_equal (name, "mcpConfig"))
    value = values->mcp_config_path;
  else if (g_str_equal (name, "configFile") && !expansion->in_config)
    value = values->config_path;
  else if (g_str_equal (name, "configJson") && !expansion->in_config)
    value = expansion->config_json;
  else
    known = FALSE;

  if (!known)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "unknown placeholder {%s}", name);
      return NULL;
    }

  if (value == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "{%s} needs a \"config\" member in the preset", name);
      return NULL;
    }

  return value;
}

static char *
expand (const Expansion  *expansion,
        const char       *template,
        GError          **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *p = template;

  while (*p != '\0')
    {
      if (p[0] == '{' && p[1] == '{')
        {
          g_string_append_c (out, '{');
          p += 2;
        }
      else if (p[0] == '}' && p[1] == '}')
        {
          g_string_append_c (out, '}');
          p += 2;
        }
      else if (p[0] == '{')
        {
          const char *end = strchr (p + 1, '}');
          g_autofree char *name = NULL;
          const char *value;

          if (end == NULL)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "unclosed placeholder in “%s” (write {{ for a brace)", template);
              return NULL;
            }

          name = g_strndup (p + 1, end - p - 1);
          value = placeholder_value (expansion, name, error);
          if (value == NULL)
            return NULL;

          g_string_append (out, value);
          p = end + 1;
        }
      else
        {
          g_string_append_c (out, *p);
          p++;
        }
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Expands the strings of a JSON value; member names stay as they are. */
static JsonNode *
expand_node (const Expansion  *expansion,
             JsonNode         *node,
             GError          **error)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      {
        g_autoptr(JsonObject) object = json_object_new ();
        JsonObject *template = json_node_get_object (node);
        g_autoptr(GList) members = json_object_get_members (template);
        JsonNode *result;

        for (const GList *l = members; l != NULL; l = l->next)
          {
            JsonNode *child = expand_node (expansion, json_object_get_member (template, l->data),
                                           error);

            if (child == NULL)
              return NULL;
            json_object_set_member (object, l->data, child);
          }

        result = json_node_new (JSON_NODE_OBJECT);
        json_node_set_object (result, object);
        return result;
      }

    case JSON_NODE_ARRAY:
      {
        g_autoptr(JsonArray) array = json_array_new ();
        JsonArray *template = json_node_get_array (node);
        JsonNode *result;

        for (guint i = 0; i < json_array_get_length (template); i++)
          {
            JsonNode *child = expand_node (expansion, json_array_get_element (template, i), error);

            if (child == NULL)
              return NULL;
            json_array_add_element (array, child);
          }

        result = json_node_new (JSON_NODE_ARRAY);
        json_node_set_array (result, array);
        return result;
      }

    case JSON_NODE_VALUE:
      if (json_node_get_value_type (node) == G_TYPE_STRING)
        {
          g_autofree char *value = expand (expansion, json_node_get_string (node), error);

          if (value == NULL)
            return NULL;
          return json_node_init_string (json_node_alloc (), value);
        }
      return json_node_copy (node);

    case JSON_NODE_NULL:
    default:
      return json_node_copy (node);
    }
}

static char *
config_to_string (TwAgentPreset              *self,
                  const TwAgentPresetValues  *values,
                  gboolean                    pretty,
                  GError                    **error)
{
  Expansion expansion = { values, NULL, TRUE };
  g_autoptr(JsonNode) config = NULL;

  config = expand_node (&expansion, self->config, error);
  if (config == NULL)
    return NULL;

  return json_to_string (config, pretty);
}

/* The expansion for args and env, with {configJson} ready when the preset
 * has a config. */
static gboolean
prepare_expansion (TwAgentPreset              *self,
                   const TwAgentPresetValues  *values,
                   Expansion                  *expansion,
                   char                      **config_json,
                   GError                    **error)
{
  *config_json = NULL;

  if (self->config != NULL)
    {
      *config_json = config_to_string (self, values, FALSE, error);
      if (*config_json == NULL)
        return FALSE;
    }

  expansion->values = values;
  expansion->config_json = *config_json;
  expansion->in_config = FALSE;

  return TRUE;
}

/* Loading */

static gboolean
id_is_valid (const char *id)
{
  if (id[0] == '\0')
    return FALSE;

  for (const char *p = id; *p != '\0'; p++)
    {
      if (!g_ascii_islower (*p) && !g_ascii_isdigit (*p) && *p != '-')
        return FALSE;
    }

  return TRUE;
}

static gboolean
get_optional_string (JsonObject  *object,
                     const char  *member,
                     char       **out,
                     GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *out = NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "“%s” must be a string", member);
      return FALSE;
    }

  *out = g_strdup (json_node_get_string (node));

  return TRUE;
}

static gboolean
get_optional_bool (JsonObject  *object,
                   const char  *member,
                   gboolean    *out,
                   GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *out = FALSE;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "“%s” must be true or false", member);
      return FALSE;
    }

  *out = json_node_get_boolean (node);

  return TRUE;
}

static gboolean
get_optional_strv (JsonObject   *object,
                   const char   *member,
                   char       ***out,
                   GError      **error)
{
  JsonNode *node = json_object_get_member (object, member);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;

  *out = NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      *out = g_strv_builder_end (builder);
      return TRUE;
    }

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "“%s” must be a list of strings", member);
      return FALSE;
    }

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "“%s” must be a list of strings", member);
          return FALSE;
        }
      g_strv_builder_add (builder, json_node_get_string (element));
    }

  *out = g_strv_builder_end (builder);

  return TRUE;
}

static gboolean
env_name_is_valid (const char *name)
{
  if (name[0] == '\0' || g_ascii_isdigit (name[0]))
    return FALSE;

  for (const char *p = name; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '_')
        return FALSE;
    }

  return TRUE;
}

/* Every template must expand, so that a mistake in a presets file shows
 * when it is read and not when someone launches that agent. */
static gboolean
check_templates (TwAgentPreset  *self,
                 GError        **error)
{
  const TwAgentPresetValues values = {
    "http://127.0.0.1:1/mcp", "token", "/workspace", "/mcp.json",
    self->config != NULL ? "/config.json" : NULL,
  };
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = NULL;
  g_autofree char *config = NULL;

  argv = tw_agent_preset_build_argv (self, self->needs_command ? "command" : NULL, NULL,
                                     &values, error);
  if (argv == NULL)
    return FALSE;

  env = tw_agent_preset_build_env (self, &values, error);
  if (env == NULL)
    return FALSE;

  if (self->config != NULL)
    {
      config = tw_agent_preset_build_config (self, &values, error);
      if (config == NULL)
        return FALSE;
    }

  return TRUE;
}

static TwAgentPreset *
preset_new_from_object (JsonObject  *object,
                        GError     **error)
{
  g_autoptr(TwAgentPreset) self = g_object_new (TW_TYPE_AGENT_PRESET, NULL);
  JsonNode *env;
  JsonNode *config;
  gboolean needs_command;
  gboolean hidden;

  if (!get_optional_string (object, "id", &self->id, error) ||
      !get_optional_string (object, "name", &self->name, error) ||
      !get_optional_string (object, "description", &self->description, error) ||
      !get_optional_string (object, "program", &self->program, error) ||
      !get_optional_string (object, "install", &self->install, error) ||
      !get_optional_string (object, "homepage", &self->homepage, error) ||
      !get_optional_string (object, "notes", &self->notes, error) ||
      !get_optional_strv (object, "searchPaths", &self->search_paths, error) ||
      !get_optional_strv (object, "args", &self->args, error) ||
      !get_optional_bool (object, "needsCommand", &needs_command, error) ||
      !get_optional_bool (object, "hidden", &hidden, error))
    return NULL;

  self->needs_command = needs_command;
  self->hidden = hidden;

  if (self->id == NULL || !id_is_valid (self->id))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "“id” must be lowercase letters, digits and dashes");
      return NULL;
    }

  if (self->name == NULL || self->name[0] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "“name” is missing");
      return NULL;
    }

  if (!self->needs_command && (self->program == NULL || self->program[0] == '\0'))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "“program” is missing (or set “needsCommand”: true)");
      return NULL;
    }

  env = json_object_get_member (object, "env");
  if (env != NULL && !JSON_NODE_HOLDS_NULL (env))
    {
      g_autoptr(GList) names = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (env))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "“env” must map variable names to strings");
          return NULL;
        }

      names = json_object_get_members (json_node_get_object (env));
      for (const GList *l = names; l != NULL; l = l->next)
        {
          JsonNode *value = json_object_get_member (json_node_get_object (env), l->data);

          if (!env_name_is_valid (l->data) || !JSON_NODE_HOLDS_VALUE (value) ||
              json_node_get_value_type (value) != G_TYPE_STRING)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "“env” must map variable names to strings (see “%s”)",
                           (const char *) l->data);
              return NULL;
            }
        }

      self->env = json_object_ref (json_node_get_object (env));
    }
  else
    {
      self->env = json_object_new ();
    }

  config = json_object_get_member (object, "config");
  if (config != NULL && !JSON_NODE_HOLDS_NULL (config))
    self->config = json_node_copy (config);

  if (!check_templates (self, error))
    return NULL;

  return g_steal_pointer (&self);
}

static JsonArray *
parse_presets (const char  *data,
               gssize       length,
               JsonParser  *parser,
               GError     **error)
{
  JsonNode *root;
  JsonNode *presets;

  if (!json_parser_load_from_data (parser, data, length, error))
    return NULL;

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "the file must hold an object with a “presets” list");
      return NULL;
    }

  presets = json_object_get_member (json_node_get_object (root), "presets");
  if (presets == NULL || !JSON_NODE_HOLDS_ARRAY (presets))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "the file must hold an object with a “presets” list");
      return NULL;
    }

  return json_node_get_array (presets);
}

static const char *
object_id (JsonObject *object)
{
  JsonNode *id = json_object_get_member (object, "id");

  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id) || json_node_get_value_type (id) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (id);
}

/* Member by member: what the user's preset names replaces the built-in's. */
static JsonObject *
merge_objects (JsonObject *base,
               JsonObject *over)
{
  JsonObject *merged = json_object_new ();
  g_autoptr(GList) base_members = json_object_get_members (base);
  g_autoptr(GList) over_members = json_object_get_members (over);

  for (const GList *l = base_members; l != NULL; l = l->next)
    json_object_set_member (merged, l->data,
                            json_node_copy (json_object_get_member (base, l->data)));
  for (const GList *l = over_members; l != NULL; l = l->next)
    json_object_set_member (merged, l->data,
                            json_node_copy (json_object_get_member (over, l->data)));

  return merged;
}

static void
add_problem (GString    *problems,
             const char *id,
             const char *message)
{
  if (problems->len > 0)
    g_string_append (problems, "; ");

  if (id != NULL)
    g_string_append_printf (problems, "preset “%s”: %s", id, message);
  else
    g_string_append (problems, message);
}

/* Merges the user's presets into @objects (JsonObject, in menu order). */
static void
merge_user_file (GPtrArray   *objects,
                 const char  *user_file,
                 GError     **user_error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GString) problems = g_string_new (NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;
  JsonArray *presets;

  if (!g_file_get_contents (user_file, &contents, &length, &local_error))
    {
      if (!g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_propagate_error (user_error, g_steal_pointer (&local_error));
      return;
    }

  presets = parse_presets (contents, length, parser, &local_error);
  if (presets == NULL)
    {
      g_set_error (user_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: %s", user_file, local_error->message);
      return;
    }

  for (guint i = 0; i < json_array_get_length (presets); i++)
    {
      JsonNode *node = json_array_get_element (presets, i);
      g_autoptr(JsonObject) merged = NULL;
      g_autoptr(TwAgentPreset) check = NULL;
      g_autoptr(GError) preset_error = NULL;
      JsonObject *over;
      const char *id;
      guint position = G_MAXUINT;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          add_problem (problems, NULL, "every preset must be an object");
          continue;
        }

      over = json_node_get_object (node);
      id = object_id (over);
      if (id == NULL)
        {
          add_problem (problems, NULL, "a preset has no “id”");
          continue;
        }

      for (guint j = 0; j < objects->len; j++)
        {
          if (g_strcmp0 (object_id (g_ptr_array_index (objects, j)), id) == 0)
            {
              position = j;
              break;
            }
        }

      merged = position != G_MAXUINT ? merge_objects (g_ptr_array_index (objects, position), over)
                                     : json_object_ref (over);

      /* A preset that would not work keeps the built-in one it changes. */
      check = preset_new_from_object (merged, &preset_error);
      if (check == NULL)
        {
          add_problem (problems, id, preset_error->message);
          continue;
        }

      if (position != G_MAXUINT)
        {
          json_object_unref (g_ptr_array_index (objects, position));
          g_ptr_array_index (objects, position) = g_steal_pointer (&merged);
        }
      else
        {
          g_ptr_array_add (objects, g_steal_pointer (&merged));
        }
    }

  if (problems->len > 0)
    g_set_error (user_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                 "%s: %s", user_file, problems->str);
}

GListModel *
tw_agent_presets_new_from_data (GBytes      *builtin,
                                const char  *user_file,
                                GError     **user_error,
                                GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) objects = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  g_autoptr(GListStore) store = g_list_store_new (TW_TYPE_AGENT_PRESET);
  g_autoptr(GError) local_error = NULL;
  JsonArray *presets;
  gsize length;
  const char *data;

  g_return_val_if_fail (builtin != NULL, NULL);

  data = g_bytes_get_data (builtin, &length);
  presets = parse_presets (data, length, parser, &local_error);
  if (presets == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  for (guint i = 0; i < json_array_get_length (presets); i++)
    {
      JsonNode *node = json_array_get_element (presets, i);

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "every preset must be an object");
          return NULL;
        }
      g_ptr_array_add (objects, json_object_ref (json_node_get_object (node)));
    }

  if (user_file != NULL)
    merge_user_file (objects, user_file, user_error);

  for (guint i = 0; i < objects->len; i++)
    {
      g_autoptr(TwAgentPreset) preset = NULL;
      JsonObject *object = g_ptr_array_index (objects, i);

      preset = preset_new_from_object (object, &local_error);
      if (preset == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "preset “%s”: %s",
                       object_id (object) ? object_id (object) : "?", local_error->message);
          return NULL;
        }

      if (tw_agent_presets_lookup (G_LIST_MODEL (store), preset->id) != NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "preset “%s” is there twice", preset->id);
          return NULL;
        }

      if (!preset->hidden)
        g_list_store_append (store, preset);
    }

  return G_LIST_MODEL (g_steal_pointer (&store));
}

char *
tw_agent_presets_dup_user_file (void)
{
  return g_build_filename (g_get_user_config_dir (), "tabwright", "agent-presets.json", NULL);
}

GListModel *
tw_agent_presets_new (GError **user_error)
{
  g_autoptr(GBytes) builtin = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *user_file = tw_agent_presets_dup_user_file ();
  GListModel *presets;

  builtin = g_resources_lookup_data (PRESETS_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  if (builtin == NULL)
    g_error ("The built-in agent presets are missing: %s", error->message);

  presets = tw_agent_presets_new_from_data (builtin, user_file, user_error, &error);
  if (presets == NULL)
    g_error ("The built-in agent presets are broken: %s", error->message);

  return presets;
}

TwAgentPreset *
tw_agent_presets_lookup (GListModel *presets,
                         const char *id)
{
  g_return_val_if_fail (G_IS_LIST_MODEL (presets), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (presets); i++)
    {
      g_autoptr(TwAgentPreset) preset = g_list_model_get_item (presets, i);

      if (g_str_equal (preset->id, id))
        return preset;
    }

  return NULL;
}

gboolean
tw_agent_preset_in_flatpak (void)
{
  return g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS);
}

/* Building a launch */

char **
tw_agent_preset_build_argv (TwAgentPreset              *self,
                            const char                 *command,
                            const char                 *program_path,
                            const TwAgentPresetValues  *values,
                            GError                    **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *config_json = NULL;
  Expansion expansion;

  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);
  g_return_val_if_fail (values != NULL, NULL);

  if (command != NULL)
    {
      g_auto(GStrv) words = NULL;
      g_autoptr(GError) local_error = NULL;

      if (!g_shell_parse_argv (command, NULL, &words, &local_error))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "cannot read the command “%s”: %s", command, local_error->message);
          return NULL;
        }
      g_strv_builder_addv (builder, (const char **) words);
    }
  else if (self->needs_command)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s needs a command to run", self->name);
      return NULL;
    }
  else
    {
      g_strv_builder_add (builder, program_path != NULL ? program_path : self->program);
    }

  if (!prepare_expansion (self, values, &expansion, &config_json, error))
    return NULL;

  for (guint i = 0; self->args[i] != NULL; i++)
    {
      g_autofree char *arg = expand (&expansion, self->args[i], error);

      if (arg == NULL)
        return NULL;
      g_strv_builder_add (builder, arg);
    }

  return g_strv_builder_end (builder);
}

char **
tw_agent_preset_build_env (TwAgentPreset              *self,
                           const TwAgentPresetValues  *values,
                           GError                    **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GList) names = NULL;
  g_autofree char *config_json = NULL;
  Expansion expansion;

  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);
  g_return_val_if_fail (values != NULL, NULL);

  if (!prepare_expansion (self, values, &expansion, &config_json, error))
    return NULL;

  names = json_object_get_members (self->env);
  for (const GList *l = names; l != NULL; l = l->next)
    {
      const char *template = json_object_get_string_member (self->env, l->data);
      g_autofree char *value = expand (&expansion, template, error);
      g_autofree char *variable = NULL;

      if (value == NULL)
        return NULL;
      variable = g_strconcat (l->data, "=", value, NULL);
      g_strv_builder_add (builder, variable);
    }

  return g_strv_builder_end (builder);
}

char *
tw_agent_preset_build_config (TwAgentPreset              *self,
                              const TwAgentPresetValues  *values,
                              GError                    **error)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);
  g_return_val_if_fail (values != NULL, NULL);

  if (self->config == NULL)
    return NULL;

  return config_to_string (self, values, TRUE, error);
}

/* Finding the program */

typedef struct
{
  char  *program;
  char  *cwd;
  char **search_paths;
} Locate;

static void
locate_free (Locate *locate)
{
  g_free (locate->program);
  g_free (locate->cwd);
  g_strfreev (locate->search_paths);
  g_free (locate);
}

static gboolean
is_program (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test (path, G_FILE_TEST_IS_DIR);
}

static char *
expand_home (const char *path)
{
  if (g_str_equal (path, "~"))
    return g_strdup (g_get_home_dir ());

  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);

  return g_strdup (path);
}

static void
locate_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Locate *locate = task_data;
  g_autofree char *found = NULL;

  if (strchr (locate->program, '/') != NULL)
    {
      g_autofree char *path = g_canonicalize_filename (locate->program, locate->cwd);

      g_task_return_pointer (task, is_program (path) ? g_steal_pointer (&path) : NULL, g_free);
      return;
    }

  found = g_find_program_in_path (locate->program);

  /* Desktop sessions often start apps with a shorter PATH than a terminal
   * has; agents installed per user live in places like ~/.local/bin. */
  for (guint i = 0; found == NULL && locate->search_paths[i] != NULL; i++)
    {
      g_autofree char *dir = expand_home (locate->search_paths[i]);
      g_autofree char *path = g_build_filename (dir, locate->program, NULL);

      if (is_program (path))
        found = g_steal_pointer (&path);
    }

  g_task_return_pointer (task, g_steal_pointer (&found), g_free);
}

/* Inside Flatpak the sandbox's PATH says nothing about the host's, so a
 * small shell on the host answers: the same search, printed on stdout. */
static const char host_locate_script[] =
  "p=$1; cwd=$2; shift 2\n"
  "case $p in\n"
  "  /*) [ -x \"$p\" ] && [ ! -d \"$p\" ] && { printf '%s\\n' \"$p\"; exit 0; }; exit 1 ;;\n"
  "  */*) [ -x \"$cwd/$p\" ] && [ ! -d \"$cwd/$p\" ] && { printf '%s\\n' \"$cwd/$p\"; exit 0; }; exit 1 ;;\n"
  "esac\n"
  "command -v \"$p\" && exit 0\n"
  "for d in \"$@\"; do\n"
  "  case $d in \"~\") d=$HOME ;; \"~/\"*) d=$HOME/${d#\"~/\"} ;; esac\n"
  "  [ -x \"$d/$p\" ] && [ ! -d \"$d/$p\" ] && { printf '%s\\n' \"$d/$p\"; exit 0; }\n"
  "done\n"
  "exit 1\n";

static void
host_locate_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GSubprocess *subprocess = G_SUBPROCESS (object);
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;

  if (!g_subprocess_communicate_utf8_finish (subprocess, result, &output, NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (!g_subprocess_get_successful (subprocess) || output == NULL)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  g_strstrip (output);
  /* command -v names shell builtins and aliases without a slash. */
  if (output[0] != '/')
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&output), g_free);
}

void
tw_agent_preset_locate_async (TwAgentPreset       *self,
                              const char          *command,
                              const char          *cwd,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Locate *locate;

  g_return_if_fail (TW_IS_AGENT_PRESET (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_agent_preset_locate_async);

  locate = g_new0 (Locate, 1);
  locate->cwd = g_strdup (cwd);
  locate->search_paths = g_strdupv (self->search_paths);

  if (command != NULL)
    {
      g_auto(GStrv) words = NULL;
      g_autoptr(GError) error = NULL;

      if (!g_shell_parse_argv (command, NULL, &words, &error))
        {
          locate_free (locate);
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                   "cannot read the command “%s”: %s", command, error->message);
          return;
        }
      locate->program = g_strdup (words[0]);
    }
  else
    {
      locate->program = g_strdup (self->program);
    }

  g_task_set_task_data (task, locate, (GDestroyNotify) locate_free);

  if (locate->program == NULL)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  if (tw_agent_preset_in_flatpak ())
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_autoptr(GSubprocess) subprocess = NULL;
      g_auto(GStrv) argv = NULL;
      g_autoptr(GError) error = NULL;

      g_strv_builder_add_many (builder, "flatpak-spawn", "--host", "sh", "-c",
                               host_locate_script, "sh", locate->program,
                               locate->cwd ? locate->cwd : ".", NULL);
      g_strv_builder_addv (builder, (const char **) locate->search_paths);
      argv = g_strv_builder_end (builder);

      subprocess = g_subprocess_newv ((const char * const *) argv,
                                      G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                      G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                                      &error);
      if (subprocess == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }

      g_subprocess_communicate_utf8_async (subprocess, NULL, cancellable, host_locate_cb,
                                           g_steal_pointer (&task));
      return;
    }

  g_task_run_in_thread (task, locate_thread);
}

char *
tw_agent_preset_locate_finish (TwAgentPreset  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Getters */

const char *
tw_agent_preset_get_id (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);

  return self->id;
}

const char *
tw_agent_preset_get_name (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);

  return self->name;
}

const char *
tw_agent_preset_get_description (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);

  return self->description;
}

const char *
tw_agent_preset_get_program (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);

  return self->program;
}

const char *
tw_agent_preset_get_install_command (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);

  return self->install;
}

const char *
tw_agent_preset_get_homepage (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);

  return self->homepage;
}

const char *
tw_agent_preset_get_notes (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);

  return self->notes;
}

gboolean
tw_agent_preset_get_needs_command (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), FALSE);

  return self->needs_command;
}

gboolean
tw_agent_preset_get_hidden (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), FALSE);

  return self->hidden;
}

gboolean
tw_agent_preset_has_config (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), FALSE);

  return self->config != NULL;
}

/* GObject */

static void
tw_agent_preset_finalize (GObject *object)
{
  TwAgentPreset *self = TW_AGENT_PRESET (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->program, g_free);
  g_clear_pointer (&self->install, g_free);
  g_clear_pointer (&self->homepage, g_free);
  g_clear_pointer (&self->notes, g_free);
  g_clear_pointer (&self->search_paths, g_strfreev);
  g_clear_pointer (&self->args, g_strfreev);
  g_clear_pointer (&self->env, json_object_unref);
  g_clear_pointer (&self->config, json_node_unref);

  G_OBJECT_CLASS (tw_agent_preset_parent_class)->finalize (object);
}

static void
tw_agent_preset_class_init (TwAgentPresetClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tw_agent_preset_finalize;
}

static void
tw_agent_preset_init (TwAgentPreset *self)
{
}
