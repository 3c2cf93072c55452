/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "tw-browser-tab.h"

G_BEGIN_DECLS

/* The bar over a tab while the person demonstrates steps for an agent
 * (issue 33, "Teach"): "Recording your steps", how many so far, the name
 * the flow gets, and Stop / Discard. While an agent waits for a
 * demonstration and nothing records, it says who asks and what, with
 * Start Recording. Hidden otherwise. */

#define TW_TYPE_DEMONSTRATION_BAR (tw_demonstration_bar_get_type ())
G_DECLARE_FINAL_TYPE (TwDemonstrationBar, tw_demonstration_bar, TW, DEMONSTRATION_BAR, AdwBin)

GtkWidget  *tw_demonstration_bar_new       (TwBrowserTab       *tab);

gboolean    tw_demonstration_bar_get_shown (TwDemonstrationBar *self);
/* Starts recording the tab, the name field filled with @name (may be
 * NULL: the browser names the flow); FALSE when a recording runs. */
gboolean    tw_demonstration_bar_start     (TwDemonstrationBar *self,
                                            const char         *name);
/* The name field. */
const char *tw_demonstration_bar_get_name  (TwDemonstrationBar *self);
void        tw_demonstration_bar_set_name  (TwDemonstrationBar *self,
                                            const char         *name);
/* Stop and Discard, as the person presses them. Stop refuses (FALSE, the
 * field marked) a name a flow cannot have; both are FALSE when nothing
 * records. */
gboolean    tw_demonstration_bar_stop      (TwDemonstrationBar *self);
gboolean    tw_demonstration_bar_discard   (TwDemonstrationBar *self);

G_END_DECLS
