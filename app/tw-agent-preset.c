/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-agent-preset-private.h"

#include <string.h>

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

const char * const *
tw_agent_preset_get_allowed_sites (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);

  return (const char * const *) self->allowed_sites;
}

const char * const *
tw_agent_preset_get_approve (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);

  return (const char * const *) self->approve;
}

guint
tw_agent_preset_get_approval_timeout (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), 0);

  return self->approval_timeout_s;
}

const char *
tw_agent_preset_get_session (TwAgentPreset *self)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);

  return self->chosen_session != NULL ? self->chosen_session : self->session;
}

void
tw_agent_preset_set_session (TwAgentPreset *self,
                             const char    *session)
{
  g_return_if_fail (TW_IS_AGENT_PRESET (self));

  g_free (self->chosen_session);
  self->chosen_session = session != NULL && session[0] != '\0' ? g_strdup (session) : NULL;
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
  g_clear_pointer (&self->allowed_sites, g_strfreev);
  g_clear_pointer (&self->approve, g_strfreev);
  g_clear_pointer (&self->session, g_free);
  g_clear_pointer (&self->chosen_session, g_free);

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
