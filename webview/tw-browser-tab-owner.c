/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab.h"
#include "tw-browser-tab-parts.h"

/* Who a tab is for: its owner (the agent that opened it, or the person),
 * whether the person shared it with every agent, and the step that waits
 * for the person's OK on it. tw-browser-owners.c decides with these who may
 * act on the tab. */

const char *
tw_browser_tab_get_owner (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->owner;
}

const char *
tw_browser_tab_get_owner_id (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->owner_id;
}

void
tw_browser_tab_set_owner (TwBrowserTab *self,
                          const char   *owner_id,
                          const char   *owner)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (g_strcmp0 (self->owner_id, owner_id) != 0)
    {
      g_free (self->owner_id);
      self->owner_id = g_strdup (owner_id);
      g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_OWNER_ID]);
    }

  if (g_strcmp0 (self->owner, owner) != 0)
    {
      g_free (self->owner);
      self->owner = g_strdup (owner);
      g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_OWNER]);
    }

  _tw_browser_tab_update_focus (self);
}

gboolean
tw_browser_tab_get_shared (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->shared;
}

void
tw_browser_tab_set_shared (TwBrowserTab *self,
                           gboolean      shared)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (self->shared == !!shared)
    return;

  self->shared = !!shared;
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_SHARED]);
}

TwApproval *
tw_browser_tab_get_approval (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->approval;
}

void
tw_browser_tab_set_approval (TwBrowserTab *self,
                             TwApproval   *approval)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));
  g_return_if_fail (approval == NULL || TW_IS_APPROVAL (approval));

  if (g_set_object (&self->approval, approval))
    g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_APPROVAL]);
}
