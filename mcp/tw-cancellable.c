/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-cancellable.h"

typedef struct
{
  TwCancelledFunc func;
  gpointer        user_data;
  GDestroyNotify  destroy;
} Watch;

static void
watch_free (gpointer data)
{
  Watch *watch = data;

  if (watch->destroy != NULL)
    watch->destroy (watch->user_data);
  g_free (watch);
}

static gboolean
watch_cancelled_cb (GCancellable *cancellable,
                    gpointer      data)
{
  Watch *watch = data;

  watch->func (watch->user_data);

  return G_SOURCE_REMOVE;
}

GSource *
tw_cancellable_watch (GCancellable    *cancellable,
                      TwCancelledFunc  func,
                      gpointer         user_data,
                      GDestroyNotify   destroy)
{
  GSource *source;
  Watch *watch;

  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (func != NULL, NULL);

  if (cancellable == NULL)
    {
      if (destroy != NULL)
        destroy (user_data);
      return NULL;
    }

  watch = g_new0 (Watch, 1);
  watch->func = func;
  watch->user_data = user_data;
  watch->destroy = destroy;

  source = g_cancellable_source_new (cancellable);
  g_source_set_callback (source, G_SOURCE_FUNC (watch_cancelled_cb), watch, watch_free);
  g_source_set_static_name (source, "[tabwright] cancelled");
  g_source_attach (source, g_main_context_get_thread_default ());

  return source;
}

void
tw_cancellable_unwatch (GSource *watch)
{
  if (watch == NULL)
    return;

  g_source_destroy (watch);
  g_source_unref (watch);
}
