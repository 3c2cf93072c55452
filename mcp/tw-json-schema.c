/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-json-schema.h"

#include <math.h>

#include "tw-error.h"
#include "tw-json.h"

typedef enum
{
  TYPE_OBJECT  = 1 << 0,
  TYPE_STRING  = 1 << 1,
  TYPE_INTEGER = 1 << 2,
  TYPE_NUMBER  = 1 << 3,
  TYPE_BOOLEAN = 1 << 4,
  TYPE_ARRAY   = 1 << 5,
  TYPE_NULL    = 1 << 6,
} TypeMask;

static const struct {
  const char *name;
  const char *phrase;
  TypeMask    mask;
} types[] = {
  { "object",  "an object",  TYPE_OBJECT },
  { "string",  "a string",   TYPE_STRING },
  { "integer", "an integer", TYPE_INTEGER },
  { "number",  "a number",   TYPE_NUMBER },
  { "boolean", "a boolean",  TYPE_BOOLEAN },
  { "array",   "an array",   TYPE_ARRAY },
  { "null",    "null",       TYPE_NULL },
};

static gboolean validate_node (JsonObject  *schema,
                               JsonNode    *instance,
                               const char  *path,
                               guint        max_chars,
                               GError     **error);

static TypeMask
type_mask_from_name (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      if (g_strcmp0 (types[i].name, name) == 0)
        return types[i].mask;
    }

  return 0;
}

static gboolean
node_is_string (JsonNode *node)
{
  return tw_json_value_type (node) == G_TYPE_STRING;
}

static gboolean
node_is_number (JsonNode *node)
{
  GType type = tw_json_value_type (node);

  return type == G_TYPE_INT64 || type == G_TYPE_DOUBLE;
}

static gboolean
node_is_integer (JsonNode *node)
{
  double value;

  if (!node_is_number (node))
    return FALSE;

  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return TRUE;

  /* JSON has one number type: 3.0 is as much an integer as 3. */
  value = json_node_get_double (node);
  return isfinite (value) && value == floor (value) && fabs (value) < 9007199254740992.0;
}

static double
node_get_number (JsonNode *node)
{
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return (double) json_node_get_int (node);

  return json_node_get_double (node);
}

static gboolean
instance_matches (JsonNode *instance,
                  TypeMask  mask)
{
  switch (json_node_get_node_type (instance))
    {
    case JSON_NODE_OBJECT:
      return (mask & TYPE_OBJECT) != 0;

    case JSON_NODE_ARRAY:
      return (mask & TYPE_ARRAY) != 0;

    case JSON_NODE_NULL:
      return (mask & TYPE_NULL) != 0;

    case JSON_NODE_VALUE:
    default:
      break;
    }

  if (node_is_string (instance))
    return (mask & TYPE_STRING) != 0;

  if (json_node_get_value_type (instance) == G_TYPE_BOOLEAN)
    return (mask & TYPE_BOOLEAN) != 0;

  if (node_is_integer (instance) && (mask & TYPE_INTEGER))
    return TRUE;

  if (node_is_number (instance))
    return (mask & TYPE_NUMBER) != 0;

  return FALSE;
}

static char *
describe_types (TypeMask mask)
{
  g_autoptr(GPtrArray) phrases = g_ptr_array_new ();
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      if (mask & types[i].mask)
        g_ptr_array_add (phrases, (gpointer) types[i].phrase);
    }

  for (guint i = 0; i < phrases->len; i++)
    {
      if (i > 0)
        g_string_append (text, i + 1 == phrases->len ? " or " : ", ");
      g_string_append (text, g_ptr_array_index (phrases, i));
    }

  return g_string_free (text, FALSE);
}

static TypeMask
schema_type_mask (JsonObject *schema)
{
  JsonNode *type = json_object_get_member (schema, "type");
  TypeMask mask = 0;

  if (type == NULL)
    return 0;

  if (node_is_string (type))
    return type_mask_from_name (json_node_get_string (type));

  if (JSON_NODE_HOLDS_ARRAY (type))
    {
      JsonArray *array = json_node_get_array (type);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *element = json_array_get_element (array, i);

          if (node_is_string (element))
            mask |= type_mask_from_name (json_node_get_string (element));
        }
    }

  return mask;
}

static char *
format_number (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (value == floor (value) && fabs (value) < 1e15)
    return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) value);

  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%g", value));
}

static char *
format_json (JsonNode *node)
{
  return json_to_string (node, FALSE);
}

/* The subject of a message: the quoted argument path, or "arguments" for the
 * root object itself. */
static char *
subject (const char *path)
{
  if (path == NULL)
    return g_strdup ("arguments");

  return g_strdup_printf ("\"%s\"", path);
}

static char *
child_path (const char *path,
            const char *member)
{
  if (path == NULL)
    return g_strdup (member);

  return g_strdup_printf ("%s.%s", path, member);
}

static gboolean
invalid (GError     **error,
         const char  *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError     **error,
         const char  *format,
         ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                                format, args));
  va_end (args);

  return FALSE;
}

static gboolean
validate_object (JsonObject  *schema,
                 JsonObject  *object,
                 const char  *path,
                 guint        max_chars,
                 GError     **error)
{
  JsonNode *properties_node = json_object_get_member (schema, "properties");
  JsonObject *properties = properties_node != NULL && JSON_NODE_HOLDS_OBJECT (properties_node)
                           ? json_node_get_object (properties_node) : NULL;
  JsonNode *required = json_object_get_member (schema, "required");
  JsonNode *additional = json_object_get_member (schema, "additionalProperties");
  g_autoptr(GList) members = json_object_get_members (object);

  /* Missing arguments first: they are the likelier mistake and the message
   * tells the caller what to add. */
  if (required != NULL && JSON_NODE_HOLDS_ARRAY (required))
    {
      JsonArray *names = json_node_get_array (required);

      for (guint i = 0; i < json_array_get_length (names); i++)
        {
          const char *name = json_array_get_string_element (names, i);

          if (name != NULL && !json_object_has_member (object, name))
            {
              g_autofree char *full = child_path (path, name);

              return invalid (error, "missing required argument \"%s\"", full);
            }
        }
    }

  for (const GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      g_autofree char *full = child_path (path, name);
      JsonNode *value = json_object_get_member (object, name);
      JsonNode *property = properties != NULL ? json_object_get_member (properties, name) : NULL;

      if (property != NULL && JSON_NODE_HOLDS_OBJECT (property))
        {
          if (!validate_node (json_node_get_object (property), value, full, max_chars, error))
            return FALSE;
          continue;
        }

      if (additional == NULL)
        continue;

      if (JSON_NODE_HOLDS_VALUE (additional) &&
          json_node_get_value_type (additional) == G_TYPE_BOOLEAN)
        {
          if (!json_node_get_boolean (additional))
            return invalid (error, "unknown argument \"%s\"", full);
          continue;
        }

      if (JSON_NODE_HOLDS_OBJECT (additional) &&
          !validate_node (json_node_get_object (additional), value, full, max_chars, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
validate_array (JsonObject  *schema,
                JsonArray   *array,
                const char  *path,
                guint        max_chars,
                GError     **error)
{
  g_autofree char *who = subject (path);
  guint length = json_array_get_length (array);
  JsonNode *items = json_object_get_member (schema, "items");
  JsonNode *limit;

  limit = json_object_get_member (schema, "minItems");
  if (node_is_integer (limit) && length < node_get_number (limit))
    {
      gint64 n = (gint64) node_get_number (limit);

      return invalid (error, "%s must have at least %" G_GINT64_FORMAT " %s",
                      who, n, n == 1 ? "item" : "items");
    }

  limit = json_object_get_member (schema, "maxItems");
  if (node_is_integer (limit) && length > node_get_number (limit))
    {
      gint64 n = (gint64) node_get_number (limit);

      return invalid (error, "%s must have at most %" G_GINT64_FORMAT " %s",
                      who, n, n == 1 ? "item" : "items");
    }

  if (items == NULL || !JSON_NODE_HOLDS_OBJECT (items))
    return TRUE;

  for (guint i = 0; i < length; i++)
    {
      g_autofree char *element_path = g_strdup_printf ("%s[%u]", path ? path : "arguments", i);

      if (!validate_node (json_node_get_object (items), json_array_get_element (array, i),
                          element_path, max_chars, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
validate_string (JsonObject  *schema,
                 const char  *string,
                 const char  *path,
                 guint        max_chars,
                 GError     **error)
{
  g_autofree char *who = subject (path);
  glong length = g_utf8_strlen (string, -1);
  JsonNode *limit;

  limit = json_object_get_member (schema, "minLength");
  if (node_is_integer (limit) && length < node_get_number (limit))
    {
      gint64 n = (gint64) node_get_number (limit);

      if (n == 1)
        return invalid (error, "%s must not be empty", who);

      return invalid (error, "%s must be at least %" G_GINT64_FORMAT " characters long", who, n);
    }

  limit = json_object_get_member (schema, "maxLength");
  if (node_is_integer (limit) && length > node_get_number (limit))
    {
      gint64 n = (gint64) node_get_number (limit);

      return invalid (error, "%s must be at most %" G_GINT64_FORMAT " %s long",
                      who, n, n == 1 ? "character" : "characters");
    }

  /* A string whose schema sets no bound still has one. */
  if (limit == NULL && max_chars > 0 && length > max_chars)
    return invalid (error, "%s must be at most %u characters long", who, max_chars);

  return TRUE;
}

static gboolean
validate_number (JsonObject  *schema,
                 double       value,
                 const char  *path,
                 GError     **error)
{
  g_autofree char *who = subject (path);
  JsonNode *limit;

  limit = json_object_get_member (schema, "minimum");
  if (node_is_number (limit) && value < node_get_number (limit))
    {
      g_autofree char *bound = format_number (node_get_number (limit));

      return invalid (error, "%s must be at least %s", who, bound);
    }

  limit = json_object_get_member (schema, "maximum");
  if (node_is_number (limit) && value > node_get_number (limit))
    {
      g_autofree char *bound = format_number (node_get_number (limit));

      return invalid (error, "%s must be at most %s", who, bound);
    }

  return TRUE;
}

static gboolean
validate_enum (JsonArray   *values,
               JsonNode    *instance,
               const char  *path,
               GError     **error)
{
  g_autofree char *who = NULL;
  GString *allowed;

  for (guint i = 0; i < json_array_get_length (values); i++)
    {
      JsonNode *candidate = json_array_get_element (values, i);

      if (json_node_get_node_type (candidate) == json_node_get_node_type (instance) &&
          json_node_equal (candidate, instance))
        return TRUE;
    }

  who = subject (path);
  allowed = g_string_new (NULL);
  for (guint i = 0; i < json_array_get_length (values); i++)
    {
      g_autofree char *text = format_json (json_array_get_element (values, i));

      if (i > 0)
        g_string_append (allowed, ", ");
      g_string_append (allowed, text);
    }

  invalid (error, "%s must be one of %s", who, allowed->str);
  g_string_free (allowed, TRUE);

  return FALSE;
}

static gboolean
validate_node (JsonObject  *schema,
               JsonNode    *instance,
               const char  *path,
               guint        max_chars,
               GError     **error)
{
  TypeMask mask = schema_type_mask (schema);
  JsonNode *enum_values;

  if (mask != 0 && !instance_matches (instance, mask))
    {
      g_autofree char *who = subject (path);
      g_autofree char *expected = describe_types (mask);

      return invalid (error, "%s must be %s", who, expected);
    }

  enum_values = json_object_get_member (schema, "enum");
  if (enum_values != NULL && JSON_NODE_HOLDS_ARRAY (enum_values) &&
      !validate_enum (json_node_get_array (enum_values), instance, path, error))
    return FALSE;

  switch (json_node_get_node_type (instance))
    {
    case JSON_NODE_OBJECT:
      return validate_object (schema, json_node_get_object (instance), path, max_chars, error);

    case JSON_NODE_ARRAY:
      return validate_array (schema, json_node_get_array (instance), path, max_chars, error);

    case JSON_NODE_VALUE:
      if (node_is_string (instance))
        return validate_string (schema, json_node_get_string (instance), path, max_chars, error);
      if (node_is_number (instance))
        return validate_number (schema, node_get_number (instance), path, error);
      return TRUE;

    case JSON_NODE_NULL:
    default:
      return TRUE;
    }
}

static gboolean
validate_root (JsonNode  *schema,
               JsonNode  *instance,
               guint      max_chars,
               GError   **error)
{
  g_return_val_if_fail (schema != NULL, FALSE);
  g_return_val_if_fail (JSON_NODE_HOLDS_OBJECT (schema), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (instance == NULL)
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "arguments are missing");
      return FALSE;
    }

  return validate_node (json_node_get_object (schema), instance, NULL, max_chars, error);
}

gboolean
tw_json_schema_validate (JsonNode  *schema,
                         JsonNode  *instance,
                         GError   **error)
{
  return validate_root (schema, instance, 0, error);
}

gboolean
tw_json_schema_validate_arguments (JsonNode  *schema,
                                   JsonNode  *instance,
                                   GError   **error)
{
  return validate_root (schema, instance, TW_JSON_SCHEMA_MAX_STRING_CHARS, error);
}

/* Schema checking. */

static gboolean
bad_schema (GError     **error,
            const char  *where,
            const char  *keyword,
            const char  *problem)
{
  g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
               "schema at %s: \"%s\" %s", where, keyword, problem);
  return FALSE;
}

static gboolean
node_is_non_negative_integer (JsonNode *node)
{
  return node_is_integer (node) && node_get_number (node) >= 0;
}

static gboolean
check_schema (JsonNode    *node,
              const char  *where,
              GError     **error)
{
  JsonObject *schema;
  g_autoptr(GList) members = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                   "schema at %s is not an object", where);
      return FALSE;
    }

  schema = json_node_get_object (node);
  members = json_object_get_members (schema);

  for (const GList *l = members; l != NULL; l = l->next)
    {
      const char *keyword = l->data;
      JsonNode *value = json_object_get_member (schema, keyword);

      if (g_str_equal (keyword, "title") || g_str_equal (keyword, "description"))
        {
          if (!node_is_string (value))
            return bad_schema (error, where, keyword, "must be a string");
        }
      else if (g_str_equal (keyword, "default") || g_str_equal (keyword, "examples") ||
               g_str_equal (keyword, "$schema"))
        {
          /* Annotations only. */
        }
      else if (g_str_equal (keyword, "type"))
        {
          if (node_is_string (value))
            {
              if (type_mask_from_name (json_node_get_string (value)) == 0)
                return bad_schema (error, where, keyword, "names an unknown type");
            }
          else if (JSON_NODE_HOLDS_ARRAY (value) && json_array_get_length (json_node_get_array (value)) > 0)
            {
              JsonArray *array = json_node_get_array (value);

              for (guint i = 0; i < json_array_get_length (array); i++)
                {
                  JsonNode *element = json_array_get_element (array, i);

                  if (!node_is_string (element) ||
                      type_mask_from_name (json_node_get_string (element)) == 0)
                    return bad_schema (error, where, keyword, "names an unknown type");
                }
            }
          else
            return bad_schema (error, where, keyword, "must be a type name or a list of them");
        }
      else if (g_str_equal (keyword, "properties"))
        {
          g_autoptr(GList) names = NULL;

          if (!JSON_NODE_HOLDS_OBJECT (value))
            return bad_schema (error, where, keyword, "must be an object");

          names = json_object_get_members (json_node_get_object (value));
          for (const GList *n = names; n != NULL; n = n->next)
            {
              g_autofree char *inner = g_strdup_printf ("%s.properties.%s", where, (const char *) n->data);

              if (!check_schema (json_object_get_member (json_node_get_object (value), n->data),
                                 inner, error))
                return FALSE;
            }
        }
      else if (g_str_equal (keyword, "required"))
        {
          JsonArray *array;

          if (!JSON_NODE_HOLDS_ARRAY (value))
            return bad_schema (error, where, keyword, "must be an array of names");

          array = json_node_get_array (value);
          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              if (!node_is_string (json_array_get_element (array, i)))
                return bad_schema (error, where, keyword, "must be an array of names");
            }
        }
      else if (g_str_equal (keyword, "additionalProperties"))
        {
          if (JSON_NODE_HOLDS_OBJECT (value))
            {
              g_autofree char *inner = g_strdup_printf ("%s.additionalProperties", where);

              if (!check_schema (value, inner, error))
                return FALSE;
            }
          else if (tw_json_value_type (value) != G_TYPE_BOOLEAN)
            return bad_schema (error, where, keyword, "must be a boolean or a schema");
        }
      else if (g_str_equal (keyword, "items"))
        {
          g_autofree char *inner = g_strdup_printf ("%s.items", where);

          if (!check_schema (value, inner, error))
            return FALSE;
        }
      else if (g_str_equal (keyword, "enum"))
        {
          if (!JSON_NODE_HOLDS_ARRAY (value) || json_array_get_length (json_node_get_array (value)) == 0)
            return bad_schema (error, where, keyword, "must be a non-empty array");
        }
      else if (g_str_equal (keyword, "minimum") || g_str_equal (keyword, "maximum"))
        {
          if (!node_is_number (value))
            return bad_schema (error, where, keyword, "must be a number");
        }
      else if (g_str_equal (keyword, "minLength") || g_str_equal (keyword, "maxLength") ||
               g_str_equal (keyword, "minItems") || g_str_equal (keyword, "maxItems"))
        {
          if (!node_is_non_negative_integer (value))
            return bad_schema (error, where, keyword, "must be a non-negative integer");
        }
      else
        {
          return bad_schema (error, where, keyword, "is not supported by the validator");
        }
    }

  return TRUE;
}

gboolean
tw_json_schema_check (JsonNode  *schema,
                      GError   **error)
{
  g_return_val_if_fail (schema != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return check_schema (schema, "#", error);
}
