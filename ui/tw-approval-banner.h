/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "tw-browser-tab.h"

G_BEGIN_DECLS

/* The bar over a tab while an agent waits there for the person's OK
 * (issue 32): who asks, for what, and Deny (with an optional reason),
 * Allow for This Agent, Allow Once. It never blocks the rest of the
 * window; hidden while nothing waits. */

#define TW_TYPE_APPROVAL_BANNER (tw_approval_banner_get_type ())
G_DECLARE_FINAL_TYPE (TwApprovalBanner, tw_approval_banner, TW, APPROVAL_BANNER, AdwBin)

GtkWidget *tw_approval_banner_new       (TwBrowserTab     *tab);

/* Whether the banner is showing. */
gboolean   tw_approval_banner_get_shown (TwApprovalBanner *self);

/* Answers as the person's buttons do, with the reason typed in the bar;
 * FALSE when nothing waited. */
gboolean   tw_approval_banner_respond   (TwApprovalBanner *self,
                                         TwApprovalAnswer  answer);

G_END_DECLS
