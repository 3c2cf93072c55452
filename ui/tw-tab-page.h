/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "tw-action-overlay.h"
#include "tw-annotation-layer.h"
#include "tw-demonstration-bar.h"
#include "tw-browser-tab.h"
#include "tw-approval-banner.h"
#include "tw-handoff-banner.h"

G_BEGIN_DECLS

/* What a window shows for one tab: the web view's frame, the bars over it
 * (agents paused, viewport fixed by an agent), the status page of a load
 * that failed or a web process that ended, what agents do drawn on top,
 * and the banner of an agent that waits for the person. It watches its tab
 * and keeps all of these true to it; the window only places the page. */

#define TW_TYPE_TAB_PAGE (tw_tab_page_get_type ())
G_DECLARE_FINAL_TYPE (TwTabPage, tw_tab_page, TW, TAB_PAGE, GtkWidget)

GtkWidget       *tw_tab_page_new                (TwBrowserTab        *tab);

TwBrowserTab    *tw_tab_page_get_tab            (TwTabPage           *self);
TwActionOverlay *tw_tab_page_get_action_overlay (TwTabPage           *self);
TwHandoffBanner *tw_tab_page_get_handoff_banner (TwTabPage           *self);
TwApprovalBanner *tw_tab_page_get_approval_banner (TwTabPage         *self);
/* The annotation mode over the page (browser_annotate). */
TwAnnotationLayer *tw_tab_page_get_annotation_layer (TwTabPage       *self);
/* The bar while the person demonstrates steps (browser_demonstration). */
TwDemonstrationBar *tw_tab_page_get_demonstration_bar (TwTabPage     *self);

/* Only the page on screen draws what agents do; those behind it keep
 * running, but nobody looks at an overlay there. */
void             tw_tab_page_set_on_screen      (TwTabPage           *self,
                                                 gboolean             on_screen);
void             tw_tab_page_set_animations     (TwTabPage           *self,
                                                 gboolean             animations);

/* Loads the page again: the address that failed to load, or the page. */
void             tw_tab_page_reload             (TwTabPage           *self);

/* Points at the element @ref names again, if the page still has it, with
 * @caption beside it. Fails with G_IO_ERROR_NOT_FOUND when it is gone. */
void             tw_tab_page_flash_ref_async    (TwTabPage           *self,
                                                 const char          *ref,
                                                 const char          *caption,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean         tw_tab_page_flash_ref_finish   (TwTabPage           *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

G_END_DECLS
