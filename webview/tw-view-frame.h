/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>

G_BEGIN_DECLS

/* The widget that holds a tab's web view and decides the size of its
 * viewport. Without a size override the view fills the frame, as in any
 * browser. With one (browser_resize), the view gets exactly that size
 * whatever the window's: the frame asks for it (and a small margin) as its
 * minimum size, so a GtkScrolledWindow around it scrolls when the window is
 * smaller, and shows it centred, with a shadow, when the window is larger.
 *
 * In a window every tab's frame stays mapped, in the background too (the
 * window's tab deck sees to it, so that every page stays live). A frame in
 * no window is not mapped, and GTK gives unmapped widgets no size, which
 * would leave its page with a 0×0 viewport (nothing to screenshot,
 * innerWidth 0). So while the frame is not mapped it sizes the
 * view itself: to the override, or to the size the frame last had on
 * screen, or to TW_VIEW_FRAME_DEFAULT_WIDTH × _HEIGHT for a tab never
 * shown. WebKit lays out and paints an unmapped view of that size. */

#define TW_VIEW_FRAME_DEFAULT_WIDTH  1280
#define TW_VIEW_FRAME_DEFAULT_HEIGHT 800

/* The limits of an override, in CSS pixels, as browser_resize enforces
 * them. */
#define TW_VIEW_FRAME_MIN_SIZE 200
#define TW_VIEW_FRAME_MAX_SIZE 4000

#define TW_TYPE_VIEW_FRAME (tw_view_frame_get_type ())
G_DECLARE_FINAL_TYPE (TwViewFrame, tw_view_frame, TW, VIEW_FRAME, GtkWidget)

TwViewFrame   *tw_view_frame_new               (WebKitWebView *view);
WebKitWebView *tw_view_frame_get_view          (TwViewFrame   *self);

/* Fixes the viewport at @width × @height (both within the limits above), or
 * lets the view fill the frame again when both are 0. Returns FALSE with
 * TW_BROWSER_ERROR_INVALID_ARGUMENT for any other size. */
gboolean       tw_view_frame_set_viewport_size (TwViewFrame   *self,
                                                int            width,
                                                int            height,
                                                GError       **error);
/* TRUE and the override when there is one; FALSE and the size the view has
 * now otherwise. */
gboolean       tw_view_frame_get_viewport_size (TwViewFrame   *self,
                                                int           *width,
                                                int           *height);

G_END_DECLS
