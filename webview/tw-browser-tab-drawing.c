/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

/* How a tab's page is drawn. With accelerated compositing, WebKit keeps a
 * page's layers, tiles and GL surfaces once it has drawn them: under a
 * software renderer (llvmpipe keeps textures in ordinary memory) most of
 * what a tab costs, kept while the page lives, hidden, unmapped or not.
 * Drawn without it, a page paints into one shared buffer: a web process
 * of one page of 200 buttons holds 29 MB of its own memory without
 * compositing against 90 MB with it (README).
 *
 * So compositing follows what the person sees. A tab starts without it,
 * and stays so while it is in the background: agents' tabs, which the
 * person may never look at, are as live (animation frames, observers,
 * transitions run alike) and cost a fraction. Once the person has looked
 * at a tab, on screen for LOOK_MS, it draws with compositing, as in any
 * browser (WebGL and heavy animations draw faster so on a real GPU), and
 * keeps it: WebKitGTK 2.50 gives back only part of the layers' memory when
 * a page leaves compositing, and each return to it takes 30-50 MB more, so
 * a tab the person flips to and from would grow without end (README).
 *
 * LOOK_MS: tabs a client opens one after another each come to the front
 * for the moment it takes to open the next; a person has not looked at
 * those, and turning compositing on for each would cost every one of
 * them its layers for good.
 *
 * TABWRIGHT_TAB_COMPOSITING=1 draws every tab with compositing from the
 * start and =0 none. */

#define LOOK_MS 2000

static void
set_policy (TwBrowserTab                     *self,
            WebKitHardwareAccelerationPolicy  policy)
{
  WebKitSettings *settings = webkit_web_view_get_settings (self->view);

  if (webkit_settings_get_hardware_acceleration_policy (settings) == policy)
    return;

  g_debug ("Tab %s draws %s accelerated compositing", self->id,
           policy == WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS ? "with" : "without");
  webkit_settings_set_hardware_acceleration_policy (settings, policy);
}

static gboolean
looked_at_cb (gpointer user_data)
{
  TwBrowserTab *self = user_data;

  self->look_source = 0;
  if (!self->closed)
    set_policy (self, WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS);

  return G_SOURCE_REMOVE;
}

void
_tw_browser_tab_update_drawing (TwBrowserTab *self)
{
  g_clear_handle_id (&self->look_source, g_source_remove);

  if (self->closed)
    return;

  switch (self->compositing)
    {
    case TW_TAB_COMPOSITING_ALWAYS:
      set_policy (self, WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS);
      break;
    case TW_TAB_COMPOSITING_NEVER:
      set_policy (self, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
      break;
    case TW_TAB_COMPOSITING_SHOWN:
    default:
      /* Never back: see above. */
      if (self->shown &&
          webkit_settings_get_hardware_acceleration_policy (webkit_web_view_get_settings (self->view)) !=
          WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS)
        self->look_source = g_timeout_add (LOOK_MS, looked_at_cb, self);
      break;
    }
}

void
tw_browser_tab_set_compositing (TwBrowserTab     *self,
                                TwTabCompositing  compositing)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  self->compositing = compositing;
  _tw_browser_tab_update_drawing (self);
}

gboolean
tw_browser_tab_get_shown (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->shown;
}

void
tw_browser_tab_set_shown (TwBrowserTab *self,
                          gboolean      shown)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (self->shown == !!shown)
    return;

  self->shown = !!shown;
  _tw_browser_tab_update_drawing (self);
}
