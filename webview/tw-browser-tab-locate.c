/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"
#include "tw-error.h"

/* Where an element of the current page is, for the window to point at it
 * again: the window asks the tab, never the page runtime. */

static void
located_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonObject) info = NULL;
  GError *error = NULL;
  JsonNode *node;
  graphene_rect_t box;
  graphene_rect_t *rect;

  info = tw_page_runtime_resolve_ref_finish (TW_PAGE_RUNTIME (object), result, &error);
  if (info == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  node = json_object_get_member (info, "rect");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               "The element is no longer on the page");
      return;
    }

  if (!tw_page_runtime_read_rect (info, "rect", &box))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "The page runtime gave no rectangle for the element");
      return;
    }

  rect = graphene_rect_alloc ();
  *rect = box;
  g_task_return_pointer (task, rect, (GDestroyNotify) graphene_rect_free);
}

void
tw_browser_tab_locate_ref_async (TwBrowserTab        *self,
                                 const char          *ref,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (TW_IS_BROWSER_TAB (self));
  g_return_if_fail (ref != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_browser_tab_locate_ref_async);

  tw_page_runtime_resolve_ref_async (self->runtime, ref, cancellable,
                                     located_cb, task);
}

gboolean
tw_browser_tab_locate_ref_finish (TwBrowserTab     *self,
                                  GAsyncResult     *result,
                                  graphene_rect_t  *rect,
                                  GError          **error)
{
  graphene_rect_t *found;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  found = g_task_propagate_pointer (G_TASK (result), error);
  if (found == NULL)
    return FALSE;

  if (rect != NULL)
    *rect = *found;
  graphene_rect_free (found);
  return TRUE;
}
