/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-page-tools.h"
#include "tw-page-tools-private.h"

#include "tw-error.h"

/* How long browser_resize waits for the page to report its new size. */
#define RESIZE_POLL_INTERVAL_MS 50
#define RESIZE_CONFIRM_TIMEOUT_MS 3000
/* A page that has the new size but has not dispatched its resize event
 * yet (it does so at its next rendering update, late on a busy machine) is
 * waited for longer: the answer comes once its listeners have run. */
#define RESIZE_SEEN_TIMEOUT_MS 15000

/* browser_resize */

typedef struct
{
  TwPagePoll     poll;
  int            width;
  int            height;
  gint64         started;
  gint64         inner_width;
  gint64         inner_height;
  gboolean       measured;
  gboolean       sized;   /* the page has the new size */
  gboolean       seen;    /* and its resize listeners have run */
} ResizeData;

static void
resize_data_free (ResizeData *data)
{
  _tw_page_poll_clear (&data->poll);
  g_free (data);
}

static void
resize_stop (GTask *task)
{
  ResizeData *data = g_task_get_task_data (task);

  _tw_page_poll_stop (&data->poll);
}

static void
resize_succeed (GTask *task)
{
  ResizeData *data = g_task_get_task_data (task);
  g_autoptr(GTask) hold = g_object_ref (task);
  JsonObject *reply;

  resize_stop (task);

  reply = json_object_new ();
  json_object_set_int_member (reply, "width", data->width);
  json_object_set_int_member (reply, "height", data->height);
  json_object_set_int_member (reply, "innerWidth", data->inner_width);
  json_object_set_int_member (reply, "innerHeight", data->inner_height);
  /* Said only when it is not so. */
  if (data->sized && !data->seen)
    json_object_set_boolean_member (reply, "resizeEventPending", TRUE);
  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
resize_fail (GTask  *task,
             GError *error)
{
  g_autoptr(GTask) hold = g_object_ref (task);

  resize_stop (task);
  g_task_return_error (task, error);
}

static void
resize_check_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ResizeData *data = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *answer;

  if (!_tw_page_poll_look_finish (&data->poll, result, &node, &error))
    return;

  if (node == NULL)
    {
      if (g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED))
        resize_fail (task, g_steal_pointer (&error));
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return;

  answer = json_node_get_object (node);
  data->inner_width = json_object_get_int_member_with_default (answer, "innerWidth", 0);
  data->inner_height = json_object_get_int_member_with_default (answer, "innerHeight", 0);
  data->measured = TRUE;
  data->sized = data->inner_width == data->width && data->inner_height == data->height;
  data->seen = json_object_get_boolean_member_with_default (answer, "seen", FALSE);

  /* The page has the new size and its resize listeners have run. */
  if (data->sized && data->seen)
    resize_succeed (task);
}

static gboolean
resize_poll_cb (gpointer user_data)
{
  GTask *task = user_data;
  ResizeData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gint64 elapsed_ms;

  if (_tw_page_poll_cancelled (&data->poll, task, &error))
    {
      resize_fail (task, g_steal_pointer (&error));
      return G_SOURCE_REMOVE;
    }

  elapsed_ms = (g_get_monotonic_time () - data->started) / 1000;
  if (elapsed_ms >= (data->sized ? RESIZE_SEEN_TIMEOUT_MS : RESIZE_CONFIRM_TIMEOUT_MS))
    {
      data->poll.poll_id = 0;

      /* The page answered with another size (a zoomed page, say): report
       * what it sees rather than pretend. A page that never answered is a
       * timeout. */
      if (data->measured)
        resize_succeed (task);
      else
        resize_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                                        "The viewport is now %d × %d, but the page did not "
                                        "confirm its new size within %d ms (is a script "
                                        "keeping it busy?)",
                                        data->width, data->height, RESIZE_CONFIRM_TIMEOUT_MS));
      return G_SOURCE_REMOVE;
    }

  _tw_page_poll_look (&data->poll, task, "pageState.viewportSize", NULL, RESIZE_CONFIRM_TIMEOUT_MS,
                      resize_check_cb);

  return G_SOURCE_CONTINUE;
}

void
tw_page_tools_resize_run (const TwTabJob *job,
                          GTask          *task)
{
  g_autoptr(GError) error = NULL;
  gint64 width = 0;
  gint64 height = 0;
  ResizeData *data;

  g_return_if_fail (TW_IS_VIEW_FRAME (job->frame));
  g_return_if_fail (TW_IS_PAGE_RUNTIME (job->runtime));

  if (!_tw_page_tools_get_int_param (job->params, "width", &width, &error) ||
      !_tw_page_tools_get_int_param (job->params, "height", &height, &error))
    {
      if (error == NULL)
        g_set_error_literal (&error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                             "Give both \"width\" and \"height\"");
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (width < TW_VIEW_FRAME_MIN_SIZE || width > TW_VIEW_FRAME_MAX_SIZE ||
      height < TW_VIEW_FRAME_MIN_SIZE || height > TW_VIEW_FRAME_MAX_SIZE)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "The viewport must be between %d and %d pixels wide and high; "
                               "%" G_GINT64_FORMAT " × %" G_GINT64_FORMAT " is not",
                               TW_VIEW_FRAME_MIN_SIZE, TW_VIEW_FRAME_MAX_SIZE, width, height);
      return;
    }

  if (!tw_view_frame_set_viewport_size (job->frame, width, height, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data = g_new0 (ResizeData, 1);
  _tw_page_poll_init (&data->poll, job->runtime);
  data->width = width;
  data->height = height;
  data->started = g_get_monotonic_time ();
  g_task_set_task_data (task, data, (GDestroyNotify) resize_data_free);

  /* The new size reaches the web process asynchronously: poll until the
   * page itself reports it. The source holds the task's only other
   * reference until it stops. */
  _tw_page_poll_start (&data->poll, task, RESIZE_POLL_INTERVAL_MS, resize_poll_cb,
                       "[tabwright] browser_resize confirm");
}
