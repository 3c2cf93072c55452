/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What closed tabs leave behind that nothing else gives back: the heap the
 * allocator keeps after their objects are freed, and the D-Bus proxies of
 * their sandboxed web processes (see tw-reclaim.c). Called when a tab
 * closes; the work runs a little later, off the main thread, and again a
 * few times while the tab's web process winds down. */
void tw_reclaim_after_close (void);

/* Sets the allocator up to give back large blocks as soon as they are
 * freed (see tw-reclaim.c). Called once, before the first tab. */
void tw_reclaim_tune_allocator (void);

G_END_DECLS
