/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-private.h"

#include "tw-browser-tab-private.h"
#include "tw-web-context.h"

/* Starting a web process (the sandbox, then WebKit in it) takes most of
 * the time a new tab needs. A hidden spare view keeps one started ahead of
 * need: the next new tab shares its process and the spare is dropped, so
 * every tab still ends up with a process of its own. The next spare starts
 * as soon as the main loop is idle again, so that an agent opening tabs one
 * after another finds it (nearly) ready. */
static void
spare_view_terminated_cb (TwBrowser                         *self,
                          WebKitWebProcessTerminationReason  reason,
                          WebKitWebView                     *view)
{
  if (self->spare_view == view)
    {
      g_signal_handlers_disconnect_by_data (view, self);
      /* WebKit still uses the view when this signal returns: dropping the
       * last reference here freed it under WebKit's feet and crashed the
       * app whenever a spare web process died. */
      g_idle_add_once ((GSourceOnceFunc) g_object_unref, g_steal_pointer (&self->spare_view));
    }
}

void
tw_browser_start_spare_view (TwBrowser *self)
{
  g_clear_handle_id (&self->spare_source, g_source_remove);

  if (self->spare_view != NULL || self->session == NULL)
    return;

  self->spare_view = g_object_new (WEBKIT_TYPE_WEB_VIEW,
                                   "web-context", tw_web_context_get_shared (),
                                   "network-session", self->session,
                                   NULL);
  g_object_ref_sink (self->spare_view);
  g_signal_connect_object (self->spare_view, "web-process-terminated",
                           G_CALLBACK (spare_view_terminated_cb), self, G_CONNECT_SWAPPED);

  /* A view starts its web process with its first load, but not for
   * about:blank, which WebKit answers without one. */
  webkit_web_view_load_html (self->spare_view, "", NULL);
}

gboolean
tw_browser_start_spare_view_cb (gpointer user_data)
{
  TwBrowser *self = user_data;

  self->spare_source = 0;
  tw_browser_start_spare_view (self);

  return G_SOURCE_REMOVE;
}

TwBrowserTab *
tw_browser_create_tab (TwBrowser      *self,
                       const TwCaller *caller)
{
  g_autoptr(WebKitWebView) spare = g_steal_pointer (&self->spare_view);
  const char *owner_id = caller ? caller->agent_id : NULL;
  const char *owner = caller ? caller->agent_name : NULL;

  if (spare == NULL)
    return tw_browser_tab_new (self->session, owner_id, owner);

  g_signal_handlers_disconnect_by_data (spare, self);

  g_clear_handle_id (&self->spare_source, g_source_remove);
  self->spare_source = g_idle_add (tw_browser_start_spare_view_cb, self);

  return tw_browser_tab_new_related (spare, owner_id, owner);
}
