/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-reading.h"

#include "tw-error.h"

gboolean
tw_tab_reading_handles (TwTabCommand command)
{
  return command == TW_TAB_COMMAND_GET_TEXT || command == TW_TAB_COMMAND_GET_HTML ||
         command == TW_TAB_COMMAND_READ || command == TW_TAB_COMMAND_SET_CONTENT ||
         command == TW_TAB_COMMAND_GET_STYLES;
}

/* A cursor is "c" and the offset to go on from, as the last answer gave
 * it: -1 for anything else. */
static gint64
parse_cursor (const char *cursor)
{
  char *end = NULL;
  gint64 offset;

  if (cursor == NULL || cursor[0] != 'c' || !g_ascii_isdigit (cursor[1]))
    return -1;

  offset = g_ascii_strtoll (cursor + 1, &end, 10);
  if (*end != '\0' || offset < 0 || offset > G_MAXINT32)
    return -1;

  return offset;
}

static void
copy_member (JsonObject  *from,
             const char  *name,
             JsonNode    *node,
             gpointer     user_data)
{
  json_object_set_member (user_data, name, json_node_copy (node));
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = NULL;
  JsonObject *answer;
  JsonObject *reply;
  JsonNode *next;

  value = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);
  if (value == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (value))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "the page runtime returned no text");
      return;
    }

  answer = json_node_get_object (value);
  reply = json_object_new ();
  json_object_foreach_member (answer, copy_member, reply);
  json_object_remove_member (reply, "nextOffset");

  next = json_object_get_member (answer, "nextOffset");
  if (next != NULL && JSON_NODE_HOLDS_VALUE (next))
    {
      g_autofree char *cursor = g_strdup_printf ("c%" G_GINT64_FORMAT, json_node_get_int (next));

      json_object_set_string_member (reply, "nextCursor", cursor);
    }

  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

void
tw_tab_reading_run_async (TwPageRuntime       *runtime,
                          TwTabCommand         command,
                          JsonObject          *params,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  static const char * const copied[] = { "ref", "inner", "stripScripts", "filter", "outline",
                                         "html", "properties", NULL };
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonObject) args = json_object_new ();
  const char *function_name;
  gint64 max_chars = TW_TAB_READING_DEFAULT_CHARS;
  gint64 offset = 0;

  g_return_if_fail (TW_IS_PAGE_RUNTIME (runtime));
  g_return_if_fail (tw_tab_reading_handles (command));

  task = g_task_new (runtime, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_tab_reading_run_async);

  if (params != NULL && json_object_has_member (params, "maxChars"))
    {
      JsonNode *node = json_object_get_member (params, "maxChars");

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
          json_node_get_int (node) < TW_TAB_READING_MIN_CHARS ||
          json_node_get_int (node) > TW_TAB_READING_MAX_CHARS)
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "maxChars must be an integer from %d to %d",
                                   TW_TAB_READING_MIN_CHARS, TW_TAB_READING_MAX_CHARS);
          return;
        }
      max_chars = json_node_get_int (node);
    }

  if (params != NULL && json_object_has_member (params, "cursor"))
    {
      JsonNode *node = json_object_get_member (params, "cursor");
      const char *cursor = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_string (node) : NULL;

      offset = parse_cursor (cursor);
      if (offset < 0)
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "cursor must be the nextCursor a cut answer gave, like "
                                   "\"c40000\"");
          return;
        }
    }

  for (guint i = 0; params != NULL && copied[i] != NULL; i++)
    if (json_object_has_member (params, copied[i]))
      json_object_set_member (args, copied[i],
                              json_node_copy (json_object_get_member (params, copied[i])));

  json_object_set_int_member (args, "maxChars", max_chars);
  json_object_set_int_member (args, "offset", offset);

  switch (command)
    {
    case TW_TAB_COMMAND_GET_TEXT:
      function_name = "readText";
      break;
    case TW_TAB_COMMAND_GET_HTML:
      function_name = "readHtml";
      break;
    case TW_TAB_COMMAND_SET_CONTENT:
      function_name = "setContent";
      break;
    case TW_TAB_COMMAND_GET_STYLES:
      function_name = "styles.get";
      break;
    default:
      function_name = "readMarkdown";
      break;
    }

  tw_page_runtime_call_async (runtime, function_name, args, cancellable, read_cb,
                              g_steal_pointer (&task));
}

JsonObject *
tw_tab_reading_run_finish (TwPageRuntime  *runtime,
                           GAsyncResult   *result,
                           GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, runtime), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
