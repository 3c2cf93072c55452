/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A tab's live thumbnail in the overview: the widget that shows the tab,
 * scaled down to cover a fixed box from its top-left corner, where a page
 * says what it is. Unlike a GtkPicture it never asks for the page's own
 * size, so a grid of them stays small. */

#define TW_TYPE_OVERVIEW_THUMBNAIL (tw_overview_thumbnail_get_type ())
G_DECLARE_FINAL_TYPE (TwOverviewThumbnail, tw_overview_thumbnail, TW, OVERVIEW_THUMBNAIL, GtkWidget)

/* @page (may be NULL) is drawn at @width × @height. */
GtkWidget *tw_overview_thumbnail_new (GtkWidget *page,
                                      int        width,
                                      int        height);

G_END_DECLS
