/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

#include "tw-error.h"

/* Resting. A tab in the background is a live page, drawn as if on screen:
 * its animation frames, timers and observers run at a visible page's rate
 * and cost CPU whether anyone needs them or not. A tab no agent has driven
 * for a while rests: the window unmaps it and WebKit treats it as a hidden
 * page (no animation frames, timers throttled, nothing drawn). Before the
 * next command on it runs, the tab wakes (the window maps it again) and
 * the command waits until the page sees itself visible and an animation
 * frame has passed, so that no command ever acts on a resting page.
 * (Measured on WebKitGTK 2.50: a page that was drawn keeps its layers'
 * memory while hidden, so resting saves CPU, not memory; see README.)
 *
 * The delay (TW_BROWSER_DEFAULT_TAB_REST_MS, 30 s) spans an agent's turn:
 * the model's thinking between two calls on one tab takes seconds to tens
 * of seconds, and what a call started (a transition, a fetch that renders
 * when it answers, a timer) should finish on a live page, as it would for a
 * person watching. A tab still unused after that is most likely done with
 * or waiting on another tab, and waking it costs a frame or two. */

static gboolean
rest_cb (gpointer user_data)
{
  TwBrowserTab *self = user_data;

  self->rest_source = 0;

  if (self->closed || self->busy || self->resting)
    return G_SOURCE_REMOVE;

  g_debug ("Tab %s rests after %u ms without a command", self->id, self->rest_delay_ms);
  self->resting = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_RESTING]);

  return G_SOURCE_REMOVE;
}

void
_tw_browser_tab_schedule_rest (TwBrowserTab *self)
{
  g_clear_handle_id (&self->rest_source, g_source_remove);

  if (self->closed || self->busy || self->resting || self->rest_delay_ms == 0)
    return;

  self->rest_source = g_timeout_add_full (G_PRIORITY_DEFAULT_IDLE, self->rest_delay_ms, rest_cb,
                                          self, NULL);
}

static void
set_awake (TwBrowserTab *self)
{
  if (!self->resting)
    return;

  self->resting = FALSE;
  /* The window maps the view from inside this notification. */
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_RESTING]);
}

gboolean
tw_browser_tab_get_resting (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->resting;
}

void
tw_browser_tab_set_rest_delay (TwBrowserTab *self,
                               guint         rest_ms)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  self->rest_delay_ms = rest_ms;
  if (rest_ms == 0)
    set_awake (self);
  _tw_browser_tab_schedule_rest (self);
}

static void
page_visible_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;
  TwBrowserTab *self = g_task_get_source_object (task);

  if (!_tw_browser_tab_command_call_finish (task, object, result, &answer, &error))
    return;

  if (g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED))
    {
      _tw_browser_tab_finish_command (self, task, NULL, g_steal_pointer (&error));
      return;
    }

  /* A page without the runtime (a document that is no HTML, one that is
   * still loading) is shown all the same: the command goes on and meets
   * the page as it would have without resting. */
  if (error != NULL)
    g_debug ("Tab %s woke, but its page did not say it was visible: %s", self->id,
             error->message);

  _tw_browser_tab_continue_command (self, task);
}

gboolean
_tw_browser_tab_wake_for_command (TwBrowserTab *self,
                                  GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);
  gint64 remaining_ms;

  if (!self->resting)
    return FALSE;

  set_awake (self);
  cmd->woken = TRUE;

  /* A tab in no window, or in one not shown, was never hidden by resting;
   * a restored tab loads its page first, which the command waits for. */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self->view)) || self->deferred_uri != NULL)
    return FALSE;

  /* Within the command's time limit, leaving it a second of its own. */
  remaining_ms = _tw_browser_tab_command_remaining_ms (cmd) - 1000;
  _tw_browser_tab_command_call (self, task, "pageState.whenVisible", NULL,
                                (guint) CLAMP (remaining_ms, 100, 5000), page_visible_cb);
  return TRUE;
}
