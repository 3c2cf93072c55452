/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "tw-browser-tab.h"

G_BEGIN_DECLS

/* The bar over a tab while something there waits for the person: an
 * icon, a heading, a detail line, what else the person fills in, and the
 * person's buttons. It follows one property of its tab and asks its owner
 * what to show whenever that property changes. Hidden outright while it
 * shows nothing, so it takes no room or focus. The approval, handoff and
 * annotation bars are each one of these. */

#define TW_TYPE_PERSON_BAR (tw_person_bar_get_type ())
G_DECLARE_FINAL_TYPE (TwPersonBar, tw_person_bar, TW, PERSON_BAR, AdwBin)

typedef void (*TwPersonBarFunc) (gpointer user_data);

/* @icon_name may be NULL (no icon); @css_class names the bar for styles
 * and tests. */
TwPersonBar  *tw_person_bar_new        (TwBrowserTab    *tab,
                                        const char      *icon_name,
                                        const char      *css_class);
TwBrowserTab *tw_person_bar_get_tab    (TwPersonBar     *self);
/* Changes the icon; NULL shows none. */
void          tw_person_bar_set_icon   (TwPersonBar     *self,
                                        const char      *icon_name);

/* Calls @changed now and whenever @tab_property of the tab notifies, for
 * as long as the bar lives; @user_data must outlive the bar. Call it again
 * with the same @changed and @user_data to follow more properties. */
void          tw_person_bar_follow     (TwPersonBar     *self,
                                        const char      *tab_property,
                                        TwPersonBarFunc  changed,
                                        gpointer         user_data);

/* A button at the end of the bar, after those added before it; returns it
 * (owned by the bar) for its style and sensitivity. @css_class and
 * @tooltip may be NULL. */
GtkWidget    *tw_person_bar_add_button (TwPersonBar     *self,
                                        const char      *mnemonic,
                                        const char      *css_class,
                                        const char      *tooltip,
                                        TwPersonBarFunc  clicked,
                                        gpointer         user_data);

/* A widget under the detail, such as an entry the person types in. */
void          tw_person_bar_add_child  (TwPersonBar     *self,
                                        GtkWidget       *child);

/* The detail's label, for a style of its own (a script in monospace). */
GtkLabel     *tw_person_bar_get_detail (TwPersonBar     *self);

/* Shows the bar with @heading and @detail (none when NULL), or hides it. */
void          tw_person_bar_show       (TwPersonBar     *self,
                                        const char      *heading,
                                        const char      *detail);
void          tw_person_bar_hide       (TwPersonBar     *self);
gboolean      tw_person_bar_get_shown  (TwPersonBar     *self);

G_END_DECLS
