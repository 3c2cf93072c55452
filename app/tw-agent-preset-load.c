/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-agent-preset-private.h"

#define PRESETS_RESOURCE "/io/github/tabwright/Tabwright/agent-presets.json"

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

/* The person's say (issue 32): members a preset may leave out, which then
 * leave the workspace's settings in force. */
static gboolean
get_policy (TwAgentPreset  *self,
            JsonObject     *object,
            GError        **error)
{
  JsonNode *timeout = json_object_get_member (object, "approvalTimeoutSeconds");

  if (json_object_has_member (object, "allowedSites") &&
      !get_optional_strv (object, "allowedSites", &self->allowed_sites, error))
    return FALSE;
  if (json_object_has_member (object, "approve") &&
      !get_optional_strv (object, "approve", &self->approve, error))
    return FALSE;
  if (!get_optional_string (object, "session", &self->session, error))
    return FALSE;

  if (self->session != NULL && self->session[0] == '\0')
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "“session” must be “workspace”, “own” or a name");
      return FALSE;
    }

  if (timeout != NULL && !JSON_NODE_HOLDS_NULL (timeout))
    {
      gint64 seconds;

      if (!JSON_NODE_HOLDS_VALUE (timeout) || json_node_get_value_type (timeout) != G_TYPE_INT64 ||
          (seconds = json_node_get_int (timeout)) < 1 || seconds > 86400)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "“approvalTimeoutSeconds” must be a whole number of seconds, 1 to 86400");
          return FALSE;
        }
      self->approval_timeout_s = seconds;
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

  if (!get_policy (self, object, error))
    return NULL;

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

