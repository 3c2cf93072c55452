/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-storage.h"
#include "tw-tab-storage-private.h"

#include "tw-json.h"
#include "tw-error.h"
#include "tw-page-runtime.h"

/* browser_storage: the localStorage and sessionStorage of the document a
 * tab shows, read and written in the page runtime's world. */

/* How long a value of browser_storage's list may be before it is cut; get
 * returns it whole. */
#define LIST_VALUE_MAX_CHARS 500

GError *
_tw_tab_storage_invalid (const char *format,
                         ...)
{
  va_list args;
  GError *error;

  va_start (args, format);
  error = g_error_new_valist (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT, format, args);
  va_end (args);

  return error;
}

/* The object a storage function of the runtime (storage.js) answered.
 * Takes @node. */
JsonObject *
_tw_tab_storage_parse_answer (JsonNode  *node,
                              GError   **error)
{
  g_autoptr(JsonNode) owned = node;

  if (owned == NULL || !JSON_NODE_HOLDS_OBJECT (owned))
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                           "the page gave an answer that is not an object");
      return NULL;
    }

  return json_object_ref (json_node_get_object (owned));
}

/* Maps the page's {denied} and {failed} answers to errors. */
static gboolean
check_answer (JsonObject  *answer,
              GError     **error)
{
  const char *denied = tw_json_get_string (answer, "denied", NULL);
  const char *failed = tw_json_get_string (answer, "failed", NULL);
  const char *origin = tw_json_get_string (answer, "origin", NULL);

  if (denied != NULL)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                   "the page %s has no storage of its own (%s); navigate to a page of the site "
                   "first", origin != NULL && g_strcmp0 (origin, "null") != 0 ? origin
                                                                             : "(no origin)",
                   denied);
      return FALSE;
    }

  if (failed != NULL)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "the page refused to store the value: %s", failed);
      return FALSE;
    }

  return TRUE;
}

static void
web_storage_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  JsonObject *params = g_task_get_task_data (task);
  JsonNode *node;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) answer = NULL;

  node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);
  if (node == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                 "the page's storage could not be reached: %s", error->message);
      return;
    }

  answer = _tw_tab_storage_parse_answer (node, &error);
  if (answer == NULL || !check_answer (answer, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  json_object_set_string_member (answer, "area",
                                 g_strcmp0 (tw_json_get_string (params, "area", NULL), "session") == 0
                                 ? "session" : "local");
  json_object_set_string_member (answer, "action", tw_json_get_string (params, "action", NULL));
  g_task_return_pointer (task, g_steal_pointer (&answer), (GDestroyNotify) json_object_unref);
}

void
tw_tab_storage_web_run (const TwTabJob *job,
                        GTask          *task)
{
  JsonObject *params = job->params;
  g_autoptr(JsonObject) args = json_object_new ();
  const char *action = tw_json_get_string (params, "action", NULL);
  const char *area = tw_json_get_string (params, "area", NULL);
  const char *key = tw_json_get_string (params, "key", NULL);
  const char *value = tw_json_get_string (params, "value", NULL);

  g_return_if_fail (TW_IS_PAGE_RUNTIME (job->runtime));
  g_return_if_fail (params != NULL);

  g_task_set_task_data (task, json_object_ref (params), (GDestroyNotify) json_object_unref);

  if (action == NULL ||
      (!g_str_equal (action, "list") && !g_str_equal (action, "get") &&
       !g_str_equal (action, "set") && !g_str_equal (action, "delete") &&
       !g_str_equal (action, "clear")))
    {
      g_task_return_error (task,
                           _tw_tab_storage_invalid ("action must be list, get, set, delete or clear"));
      return;
    }

  if (area != NULL && !g_str_equal (area, "local") && !g_str_equal (area, "session"))
    {
      g_task_return_error (task, _tw_tab_storage_invalid ("area must be local or session"));
      return;
    }

  if ((g_str_equal (action, "get") || g_str_equal (action, "set") ||
       g_str_equal (action, "delete")) && key == NULL)
    {
      g_task_return_error (task, _tw_tab_storage_invalid ("action “%s” needs a key", action));
      return;
    }

  if (g_str_equal (action, "set") && value == NULL)
    {
      g_task_return_error (task, _tw_tab_storage_invalid ("action “set” needs a value"));
      return;
    }

  json_object_set_string_member (args, "area", area != NULL ? area : "local");
  json_object_set_string_member (args, "action", action);
  json_object_set_string_member (args, "key", key != NULL ? key : "");
  json_object_set_string_member (args, "value", value != NULL ? value : "");
  json_object_set_int_member (args, "maxChars", LIST_VALUE_MAX_CHARS);

  tw_page_runtime_call_async (job->runtime, "storage.web", args, g_task_get_cancellable (task),
                              web_storage_done_cb, g_object_ref (task));
}
