/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-page-runtime.h"

G_BEGIN_DECLS

/* What tw-page-runtime-snapshot.c needs of the runtime object. */

/* The id of the snapshot about to be taken; *@had_snapshot: whether this
 * runtime took one before (the page forgets its snapshots when it
 * navigates, so a diff can tell a new document from a first look). */
guint _tw_page_runtime_next_snapshot_id (TwPageRuntime *self,
                                         gboolean      *had_snapshot);

G_END_DECLS
