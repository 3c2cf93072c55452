/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-page-tools.h"
#include "tw-page-tools-private.h"

#include "tw-error.h"

/* What the page tools share: reading their parameters. Each tool has a file
 * of its own: tw-page-tools-screenshot.c, tw-page-tools-logs.c,
 * tw-page-tools-wait.c and tw-page-tools-resize.c. */

/* Reads an integer member, accepting 375.0 as well as 375, since JSON does
 * not tell them apart. FALSE when the member is absent; an error when it is
 * not an integer. */
gboolean
_tw_page_tools_get_int_param (JsonObject  *params,
                              const char  *name,
                              gint64      *value,
                              GError     **error)
{
  JsonNode *node = params != NULL ? json_object_get_member (params, name) : NULL;
  GType type;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;

  type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;

  if (type == G_TYPE_INT64)
    {
      *value = json_node_get_int (node);
      return TRUE;
    }

  if (type == G_TYPE_DOUBLE)
    {
      double d = json_node_get_double (node);

      if (d == (double) (gint64) d)
        {
          *value = (gint64) d;
          return TRUE;
        }
    }

  g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
               "\"%s\" must be an integer", name);
  return FALSE;
}

gboolean
_tw_page_tools_get_boolean_param (JsonObject  *params,
                                  const char  *name,
                                  gboolean    *value,
                                  GError     **error)
{
  JsonNode *node = params != NULL ? json_object_get_member (params, name) : NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "\"%s\" must be true or false", name);
      return FALSE;
    }

  *value = json_node_get_boolean (node);
  return TRUE;
}
