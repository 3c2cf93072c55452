/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>

G_BEGIN_DECLS

/* Page focus for a tab an agent drives. WebKit tells a page it has the
 * focus (document.hasFocus(), the window's focus and blur events, :focus,
 * :focus-visible and :focus-within matching, focus traps that check them)
 * only while its web view has the GTK keyboard focus in an active window,
 * which a background tab never has and which giving it would take the
 * keyboard from the person. While emulated, the view tells its page that
 * it is focused and its window active, as Chromium does for a page under
 * automation, and GTK's keyboard focus, the keys the person types and
 * their input method stay where they are. Without emulation the page sees
 * the real focus, as in any browser.
 *
 * How: the view's own focus controller is told that the focus entered (the
 * path WebKit takes for a view that really gets it), the view's handler
 * for the real focus leaving is held back while emulated, and the view
 * keeps no input method context unless it really has the focus, and the
 * window becoming inactive is answered by telling the view again, before
 * WebKit sends the change to the page, which so sees no blur. */

#define TW_TYPE_TAB_FOCUS (tw_tab_focus_get_type ())
G_DECLARE_FINAL_TYPE (TwTabFocus, tw_tab_focus, TW, TAB_FOCUS, GObject)

/* Holds no reference on @view; it stops when @view goes away. */
TwTabFocus *tw_tab_focus_new          (WebKitWebView *view);

gboolean    tw_tab_focus_get_emulated (TwTabFocus    *self);
void        tw_tab_focus_set_emulated (TwTabFocus    *self,
                                       gboolean       emulated);

G_END_DECLS
