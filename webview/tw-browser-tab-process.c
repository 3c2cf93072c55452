/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

/* A tab's web process: shared with other tabs of the same agent (four to a
 * process, tw_browser_create_tab()), and which tabs a crash of it takes. */

void
tw_browser_tab_share_process_with (TwBrowserTab *self,
                                   TwBrowserTab *sibling)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));
  g_return_if_fail (TW_IS_BROWSER_TAB (sibling));
  g_return_if_fail (self->process_tabs == NULL);

  if (sibling->process_tabs == NULL)
    {
      sibling->process_tabs = g_ptr_array_new ();
      if (!sibling->closed)
        g_ptr_array_add (sibling->process_tabs, sibling);
    }

  self->process_tabs = g_ptr_array_ref (sibling->process_tabs);
  if (!self->closed)
    g_ptr_array_add (self->process_tabs, self);
}

/* The tab's page runs in a process of its own again (a crashed tab that
 * loads starts a new one). */
void
_tw_browser_tab_leave_process (TwBrowserTab *self)
{
  if (self->process_tabs == NULL)
    return;

  g_ptr_array_remove (self->process_tabs, self);
  g_clear_pointer (&self->process_tabs, g_ptr_array_unref);
}

/* Which other tabs the crash of the tab's web process takes with it. */
void
_tw_browser_tab_note_process_crash (TwBrowserTab *self)
{
  g_autoptr(GString) others = g_string_new (NULL);

  for (guint i = 0; self->process_tabs != NULL && i < self->process_tabs->len; i++)
    {
      TwBrowserTab *other = g_ptr_array_index (self->process_tabs, i);

      if (other == self)
        continue;
      if (others->len > 0)
        g_string_append (others, ", ");
      g_string_append (others, other->id);
    }

  g_clear_pointer (&self->crashed_with, g_free);
  if (others->len > 0)
    self->crashed_with = g_string_free (g_steal_pointer (&others), FALSE);
}

gboolean
tw_browser_tab_get_committed_page (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->committed_page;
}

guint
tw_browser_tab_get_process_tabs (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), 0);

  if (self->process_tabs == NULL)
    return self->closed ? 0 : 1;

  return self->process_tabs->len;
}
