/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-json.h"

#include "tw-error.h"

GType
tw_json_value_type (JsonNode *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return G_TYPE_INVALID;

  return json_node_get_value_type (node);
}

/* The member's node, NULL when it is absent or @object is NULL. */
static JsonNode *
get_member (JsonObject *object,
            const char *member)
{
  g_return_val_if_fail (member != NULL, NULL);

  return object != NULL ? json_object_get_member (object, member) : NULL;
}

static JsonNode *
get_value (JsonObject *object,
           const char *member,
           GType       type)
{
  JsonNode *node = get_member (object, member);

  return tw_json_value_type (node) == type ? node : NULL;
}

const char *
tw_json_get_string (JsonObject *object,
                    const char *member,
                    const char *fallback)
{
  JsonNode *node = get_value (object, member, G_TYPE_STRING);

  return node != NULL ? json_node_get_string (node) : fallback;
}

gboolean
tw_json_get_boolean (JsonObject *object,
                     const char *member,
                     gboolean    fallback)
{
  JsonNode *node = get_value (object, member, G_TYPE_BOOLEAN);

  return node != NULL ? json_node_get_boolean (node) : fallback;
}

gint64
tw_json_get_int (JsonObject *object,
                 const char *member,
                 gint64      fallback)
{
  JsonNode *node = get_value (object, member, G_TYPE_INT64);

  return node != NULL ? json_node_get_int (node) : fallback;
}

double
tw_json_get_number (JsonObject *object,
                    const char *member,
                    double      fallback)
{
  JsonNode *node;

  if ((node = get_value (object, member, G_TYPE_INT64)) != NULL)
    return (double) json_node_get_int (node);
  if ((node = get_value (object, member, G_TYPE_DOUBLE)) != NULL)
    return json_node_get_double (node);

  return fallback;
}

JsonObject *
tw_json_get_object (JsonObject *object,
                    const char *member)
{
  JsonNode *node = get_member (object, member);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

JsonArray *
tw_json_get_array (JsonObject *object,
                   const char *member)
{
  JsonNode *node = get_member (object, member);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

char **
tw_json_get_strv (JsonObject *object,
                  const char *member)
{
  JsonArray *array = tw_json_get_array (object, member);
  GPtrArray *values;

  if (array == NULL)
    return NULL;

  values = g_ptr_array_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (tw_json_value_type (element) == G_TYPE_STRING)
        g_ptr_array_add (values, g_strdup (json_node_get_string (element)));
    }
  g_ptr_array_add (values, NULL);

  return (char **) g_ptr_array_free (values, FALSE);
}

const char *
tw_json_get_string_arg (JsonObject  *object,
                        const char  *member,
                        GError     **error)
{
  JsonNode *node = get_member (object, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;

  if (get_value (object, member, G_TYPE_STRING) == NULL)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "\"%s\" must be a string", member);
      return NULL;
    }

  return json_node_get_string (node);
}

gboolean
tw_json_get_boolean_arg (JsonObject  *object,
                         const char  *member,
                         gboolean    *value,
                         GError     **error)
{
  JsonNode *node;

  g_return_val_if_fail (member != NULL, FALSE);

  node = get_member (object, member);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (get_value (object, member, G_TYPE_BOOLEAN) == NULL)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "\"%s\" must be true or false", member);
      return FALSE;
    }

  *value = json_node_get_boolean (node);
  return TRUE;
}

static void
merge_member (JsonObject *source,
              const char *member,
              JsonNode   *node,
              gpointer    user_data)
{
  JsonObject *dest = user_data;

  if (!json_object_has_member (dest, member))
    json_object_set_member (dest, member, json_node_copy (node));
}

void
tw_json_merge (JsonObject *dest,
               JsonObject *source)
{
  g_return_if_fail (dest != NULL);
  g_return_if_fail (source != NULL);

  json_object_foreach_member (source, merge_member, dest);
}

void
tw_json_append_string (GString    *out,
                       const char *text)
{
  g_autofree char *made_valid = NULL;
  const char *p = text;
  const char *run;

  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL);

  /* Most strings are valid UTF-8 already: only the others are copied. */
  if (!g_utf8_validate (text, -1, NULL))
    p = made_valid = g_utf8_make_valid (text, -1);

  g_string_append_c (out, '"');
  /* A string can hold a whole page: what needs no escape goes in runs. */
  for (run = p; *p != '\0'; p++)
    {
      guchar c = *p;

      if (c >= 0x20 && c != '"' && c != '\\')
        continue;

      g_string_append_len (out, run, p - run);
      run = p + 1;
      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          g_string_append_printf (out, "\\u%04x", c);
        }
    }
  g_string_append_len (out, run, p - run);
  g_string_append_c (out, '"');
}
