/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "tw-browser.h"

G_BEGIN_DECLS

/* The bar a window shows while browser tools are turned off for its
 * workspace, so the person knows why agents get browser_disabled, with a
 * button that turns them on again (through TwBrowser:enabled, which the app
 * keeps bound to the workspace's setting). Hidden while tools are on. */

#define TW_TYPE_TOOLS_BANNER (tw_tools_banner_get_type ())
G_DECLARE_FINAL_TYPE (TwToolsBanner, tw_tools_banner, TW, TOOLS_BANNER, AdwBin)

GtkWidget *tw_tools_banner_new         (void);

TwBrowser *tw_tools_banner_get_browser (TwToolsBanner *self);
void       tw_tools_banner_set_browser (TwToolsBanner *self,
                                        TwBrowser     *browser);

/* Whether the banner is showing (or on its way to). */
gboolean   tw_tools_banner_get_shown   (TwToolsBanner *self);

G_END_DECLS
