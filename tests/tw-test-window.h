/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-browser.h"
#include "tw-window.h"

G_BEGIN_DECLS

/* What the C tests of a workspace's window with real tabs share: the
 * window on screen, and its end. */

/* A window of @browser for the workspace @name at @path, on screen:
 * @width × @height, or the window's own size if they are 0. */
TwWindow *tw_test_window_new   (TwBrowser   *browser,
                                const char  *name,
                                const char  *path,
                                int          width,
                                int          height);
/* Destroys @window, then closes every tab of *@browser and drops it. */
void      tw_test_window_close (TwWindow    *window,
                                TwBrowser  **browser);

G_END_DECLS
