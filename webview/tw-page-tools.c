/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-page-tools.h"
#include "tw-page-tools-private.h"

#include "tw-error.h"
#include "tw-json.h"

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

  type = tw_json_value_type (node);

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

void
_tw_page_poll_init (TwPagePoll    *poll,
                    TwPageRuntime *runtime)
{
  poll->runtime = g_object_ref (runtime);
  poll->check_cancellable = g_cancellable_new ();
}

void
_tw_page_poll_clear (TwPagePoll *poll)
{
  g_assert (poll->poll_id == 0);

  g_clear_object (&poll->runtime);
  g_clear_object (&poll->check_cancellable);
}

void
_tw_page_poll_start (TwPagePoll  *poll,
                     GTask       *task,
                     guint        interval_ms,
                     GSourceFunc  poll_cb,
                     const char  *name)
{
  poll->poll_id = g_timeout_add_full (G_PRIORITY_DEFAULT, interval_ms, poll_cb,
                                      g_object_ref (task), g_object_unref);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, poll->poll_id), name);
}

void
_tw_page_poll_stop (TwPagePoll *poll)
{
  poll->done = TRUE;
  g_clear_handle_id (&poll->poll_id, g_source_remove);
  g_cancellable_cancel (poll->check_cancellable);
}

gboolean
_tw_page_poll_cancelled (TwPagePoll  *poll,
                         GTask       *task,
                         GError     **error)
{
  if (!g_cancellable_set_error_if_cancelled (g_task_get_cancellable (task), error))
    return FALSE;

  poll->poll_id = 0;
  return TRUE;
}

gboolean
_tw_page_poll_look_done (TwPagePoll *poll)
{
  if (poll->done)
    return FALSE;

  poll->check_in_flight = FALSE;
  return TRUE;
}

void
_tw_page_poll_look (TwPagePoll          *poll,
                    GTask               *task,
                    const char          *function_name,
                    JsonObject          *args,
                    guint                timeout_ms,
                    GAsyncReadyCallback  callback)
{
  if (poll->check_in_flight)
    return;

  poll->check_in_flight = TRUE;
  tw_page_runtime_call_with_timeout_async (poll->runtime, function_name, args, timeout_ms,
                                           poll->check_cancellable, callback,
                                           g_object_ref (task));
}

gboolean
_tw_page_poll_look_finish (TwPagePoll    *poll,
                           GAsyncResult  *result,
                           JsonNode     **answer,
                           GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) node = tw_page_runtime_call_finish (poll->runtime, result, &local_error);

  if (!_tw_page_poll_look_done (poll))
    return FALSE;

  if (local_error != NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));
  *answer = g_steal_pointer (&node);
  return TRUE;
}
