/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "tw-browser.h"

G_BEGIN_DECLS

/* One view of the whole workspace (issue 32): every agent, with what it is
 * doing now, and every tab, as a live thumbnail under the agent it belongs
 * to, marked when it waits for the person (a handoff, an approval, or
 * paused). Choosing a tab brings it forward; its Take Over button pauses
 * the agents in it first. It builds its cards only while it is shown, so a
 * hidden overview costs nothing.
 *
 * Signals:
 *   tab-activated (TwBrowserTab *tab)  the person chose the tab
 *   take-over     (TwBrowserTab *tab)  the person takes the tab over
 *   close ()                           the person leaves the overview */

#define TW_TYPE_OVERVIEW (tw_overview_get_type ())
G_DECLARE_FINAL_TYPE (TwOverview, tw_overview, TW, OVERVIEW, AdwBin)

/* What a tab's thumbnail shows: the widget that shows the tab in the
 * window, or NULL for none. */
typedef GtkWidget *(*TwOverviewPageFunc) (TwBrowserTab *tab,
                                          gpointer      user_data);

GtkWidget    *tw_overview_new              (TwBrowser          *browser,
                                            TwOverviewPageFunc  page_func,
                                            gpointer            user_data);

/* Marks @tab as waiting for the person for @reason (e.g. "Asks to run
 * script"), or not when @reason is NULL; handoffs and paused tabs are
 * marked without being told. */
void          tw_overview_set_waiting      (TwOverview         *self,
                                            TwBrowserTab       *tab,
                                            const char         *reason);
/* What the tab's card says it waits for, or NULL. */
const char   *tw_overview_get_waiting      (TwOverview         *self,
                                            TwBrowserTab       *tab);

/* For tests and scripts, while shown: the card of @tab (NULL if it has
 * none), the agent it is grouped under (its id; "" for the person's tabs),
 * and what the header of @agent_id's group says it is doing. */
GtkWidget    *tw_overview_get_card         (TwOverview         *self,
                                            TwBrowserTab       *tab);
const char   *tw_overview_get_card_group   (TwOverview         *self,
                                            TwBrowserTab       *tab);
const char   *tw_overview_get_agent_doing  (TwOverview         *self,
                                            const char         *agent_id);
/* Chooses @tab's card, or its Take Over button, as a click does. */
void          tw_overview_activate_card    (TwOverview         *self,
                                            TwBrowserTab       *tab,
                                            gboolean            take_over);

G_END_DECLS
