/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-reading.h"

#include "tw-error.h"
#include "tw-json.h"

gboolean
tw_tab_reading_handles (TwTabCommand command)
{
  return command == TW_TAB_COMMAND_GET_TEXT || command == TW_TAB_COMMAND_GET_HTML ||
         command == TW_TAB_COMMAND_READ || command == TW_TAB_COMMAND_SET_CONTENT ||
         command == TW_TAB_COMMAND_GET_STYLES;
}

/* A cursor is "c" and the offset to go on from, as the last answer gave
 * it. */
gboolean
tw_tab_reading_get_offset (JsonObject  *params,
                           gint64      *offset,
                           GError     **error)
{
  JsonNode *node = params != NULL ? json_object_get_member (params, "cursor") : NULL;
  const char *cursor;
  char *end = NULL;
  gint64 value;

  if (node == NULL)
    return TRUE;

  cursor = tw_json_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : NULL;
  value = cursor != NULL && cursor[0] == 'c' && g_ascii_isdigit (cursor[1])
          ? g_ascii_strtoll (cursor + 1, &end, 10) : -1;
  if (value < 0 || *end != '\0' || value > G_MAXINT32)
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "cursor must be the nextCursor a cut answer gave, like \"c40000\"");
      return FALSE;
    }

  *offset = value;
  return TRUE;
}

JsonObject *
tw_tab_reading_answer_finish (TwPageRuntime  *runtime,
                              GAsyncResult   *result,
                              GError        **error)
{
  return tw_page_runtime_call_finish_object (runtime, result, error,
                                             "the page's reader returned no text");
}

void
tw_tab_reading_set_next_cursor (JsonObject *reply,
                                JsonObject *answer)
{
  JsonNode *next = json_object_get_member (answer, "nextOffset");

  if (next != NULL && JSON_NODE_HOLDS_VALUE (next))
    {
      g_autofree char *cursor = g_strdup_printf ("c%" G_GINT64_FORMAT, json_node_get_int (next));

      json_object_set_string_member (reply, "nextCursor", cursor);
    }
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) answer = NULL;

  answer = tw_tab_reading_answer_finish (TW_PAGE_RUNTIME (object), result, &error);
  if (answer == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The answer is the reply, with a cursor for its offset. */
  tw_tab_reading_set_next_cursor (answer, answer);
  json_object_remove_member (answer, "nextOffset");

  g_task_return_pointer (task, g_steal_pointer (&answer), (GDestroyNotify) json_object_unref);
}

void
tw_tab_reading_run (const TwTabJob *job,
                    GTask          *task)
{
  static const char * const copied[] = { "ref", "inner", "stripScripts", "filter", "outline",
                                         "html", "properties", NULL };
  JsonObject *params = job->params;
  g_autoptr(JsonObject) args = json_object_new ();
  g_autoptr(GError) error = NULL;
  const char *function_name;
  gint64 max_chars = TW_TAB_READING_DEFAULT_CHARS;
  gint64 offset = 0;

  g_return_if_fail (TW_IS_PAGE_RUNTIME (job->runtime));
  g_return_if_fail (tw_tab_reading_handles (job->command));

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

  if (!tw_tab_reading_get_offset (params, &offset, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  for (guint i = 0; params != NULL && copied[i] != NULL; i++)
    if (json_object_has_member (params, copied[i]))
      json_object_set_member (args, copied[i],
                              json_node_copy (json_object_get_member (params, copied[i])));

  json_object_set_int_member (args, "maxChars", max_chars);
  json_object_set_int_member (args, "offset", offset);

  switch (job->command)
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

  tw_page_runtime_call_async (job->runtime, function_name, args, g_task_get_cancellable (task), read_cb,
                              g_object_ref (task));
}
