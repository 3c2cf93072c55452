/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The container of a window's tab pages. Unlike a GtkStack it keeps every
 * page mapped and allocated at its own size, and only draws and gives input
 * to the selected one. WebKit treats a web view that is mapped in a shown
 * window as a visible page, so every tab, on screen or not, keeps its
 * animation frames, scroll, resize and observer callbacks, transitions and
 * timers running at a visible page's rate, with the viewport it would have
 * on screen. See tw-tab-deck.c for what keeps a background page drawing.
 * A page in the background may rest (tw_tab_deck_set_resting()): it is
 * unmapped until it wakes or comes on screen. */

#define TW_TYPE_TAB_DECK (tw_tab_deck_get_type ())
G_DECLARE_FINAL_TYPE (TwTabDeck, tw_tab_deck, TW, TAB_DECK, GtkWidget)

GtkWidget *tw_tab_deck_new          (void);

void       tw_tab_deck_add          (TwTabDeck *self,
                                     GtkWidget *page);
void       tw_tab_deck_remove       (TwTabDeck *self,
                                     GtkWidget *page);

/* The page on screen; NULL shows nothing. */
void       tw_tab_deck_set_selected (TwTabDeck *self,
                                     GtkWidget *page);
GtkWidget *tw_tab_deck_get_selected (TwTabDeck *self);

/* Unmaps @page while it is in the background and @resting is TRUE; maps
 * it again, at once, when @resting is FALSE. */
void       tw_tab_deck_set_resting  (TwTabDeck *self,
                                     GtkWidget *page,
                                     gboolean   resting);

G_END_DECLS
