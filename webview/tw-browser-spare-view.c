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

/* An open tab of @owner_id on the workspace's session whose web process
 * has room for one more tab, or NULL. A crashed or stuck tab's process is
 * no place for a new one, and neither is one that has not shown a page
 * yet: when two tabs make their first loads at once in a process that
 * has committed none, WebKit can drop both (one never starts, the other
 * never reaches the network and never ends), so tabs opened at the same
 * moment each start in a process of their own, and the tabs opened after
 * them join those. */
static TwBrowserTab *
find_process_to_share (TwBrowser  *self,
                       const char *owner_id)
{
  guint n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));

  for (guint i = 0; i < n_tabs && self->tabs_per_process > 1; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      if (tw_browser_tab_is_closed (tab) ||
          tw_browser_tab_get_process_tabs (tab) >= self->tabs_per_process ||
          tw_browser_tab_get_crashed (tab) ||
          tw_browser_tab_get_unresponsive (tab) ||
          !tw_browser_tab_get_committed_page (tab) ||
          tw_browser_tab_get_private (tab) ||
          g_strcmp0 (tw_browser_tab_get_owner_id (tab), owner_id) != 0 ||
          webkit_web_view_get_network_session (tw_browser_tab_get_view (tab)) != self->session)
        continue;

      return tab;
    }

  return NULL;
}

TwBrowserTab *
tw_browser_create_tab (TwBrowser      *self,
                       const TwCaller *caller)
{
  g_autoptr(WebKitWebView) spare = NULL;
  const char *owner_id = caller ? caller->agent_id : NULL;
  const char *owner = caller ? caller->agent_name : NULL;
  TwBrowserTab *sibling = find_process_to_share (self, owner_id);

  /* Tabs of one agent share its web process, up to tabs_per_process
   * (4 by default, TABWRIGHT_TABS_PER_PROCESS): a process
   * costs some 40 MB before its first page (WebKit, JavaScriptCore and the
   * GL renderer, relocated and initialised in every process), so a tab in
   * a running process costs half of one in a process of its own (README).
   * A crash or a page stuck in a loop takes the agent's tabs of that
   * process with it, never another agent's: agents stay isolated from each
   * other. */
  if (sibling != NULL)
    {
      TwBrowserTab *tab = tw_browser_tab_new_related (tw_browser_tab_get_view (sibling),
                                                      owner_id, owner);

      tw_browser_tab_share_process_with (tab, sibling);
      return tab;
    }

  spare = g_steal_pointer (&self->spare_view);
  if (spare == NULL)
    {
      return tw_browser_tab_new (self->session, owner_id, owner);
    }

  g_signal_handlers_disconnect_by_data (spare, self);

  g_clear_handle_id (&self->spare_source, g_source_remove);
  self->spare_source = g_idle_add (tw_browser_start_spare_view_cb, self);

  return tw_browser_tab_new_related (spare, owner_id, owner);
}
