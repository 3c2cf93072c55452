/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef void (*TwCancelledFunc) (gpointer user_data);

/* Calls @func once when @cancellable is cancelled (soon, when it already
 * is), from the main loop of the thread-default main context. Never from
 * inside GCancellable's "cancelled" handler: that may run in another thread
 * with the cancellable locked, and cannot disconnect itself, so work that
 * finishes a task there deadlocks or races.
 *
 * Returns the watch, or NULL for a NULL @cancellable. End it with
 * tw_cancellable_unwatch() when the work finishes first; @destroy then runs
 * on @user_data, as it does after @func. */
GSource *tw_cancellable_watch   (GCancellable    *cancellable,
                                 TwCancelledFunc  func,
                                 gpointer         user_data,
                                 GDestroyNotify   destroy);

/* Ends a watch; @func is not called after this. NULL is accepted, so it
 * fits g_clear_pointer(). */
void     tw_cancellable_unwatch (GSource         *watch);

G_END_DECLS
