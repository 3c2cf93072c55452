/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "tw-browser-tab.h"

G_BEGIN_DECLS

/* The bar over a tab while an agent waits for the person in it
 * (browser_handoff): who asks, what they ask, and Done / Cancel, which end
 * the agent's call. Hidden while no agent waits. */

#define TW_TYPE_HANDOFF_BANNER (tw_handoff_banner_get_type ())
G_DECLARE_FINAL_TYPE (TwHandoffBanner, tw_handoff_banner, TW, HANDOFF_BANNER, AdwBin)

GtkWidget    *tw_handoff_banner_new       (TwBrowserTab    *tab);

TwBrowserTab *tw_handoff_banner_get_tab   (TwHandoffBanner *self);

/* Whether the banner is showing. */
gboolean      tw_handoff_banner_get_shown (TwHandoffBanner *self);

/* Presses Done (@done TRUE) or Cancel, as the person does; FALSE when no
 * agent was waiting. */
gboolean      tw_handoff_banner_respond   (TwHandoffBanner *self,
                                           gboolean         done);

G_END_DECLS
