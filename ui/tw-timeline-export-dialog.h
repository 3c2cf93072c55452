/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tw-timeline.h"

G_BEGIN_DECLS

/* Asks the person for a folder and exports @agent_id's session there
 * (only the calls on @browser_id when not NULL), saying how it went. */
void tw_timeline_export_dialog_show (GtkWindow  *parent,
                                     TwTimeline *timeline,
                                     const char *agent_id,
                                     const char *browser_id);

G_END_DECLS
