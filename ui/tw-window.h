/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "tw-browser.h"

G_BEGIN_DECLS

/* The window of one workspace: its tabs, in a tab strip bound to the
 * workspace's TwBrowser, and the toolbar a person browses with. Tabs that
 * agents open appear in the background and never take the selection. */

#define TW_TYPE_WINDOW (tw_window_get_type ())
G_DECLARE_FINAL_TYPE (TwWindow, tw_window, TW, WINDOW, AdwApplicationWindow)

TwWindow   *tw_window_new                (AdwApplication *application,
                                          TwBrowser      *browser,
                                          const char     *workspace_name,
                                          const char     *workspace_path);

TwBrowser  *tw_window_get_browser        (TwWindow       *self);
const char *tw_window_get_workspace_path (TwWindow       *self);

/* Where external agents reach this workspace, for the Connect dialog. */
void        tw_window_set_mcp_connection (TwWindow       *self,
                                          const char     *url,
                                          const char     *token);

void        tw_window_add_toast          (TwWindow       *self,
                                          const char     *message);

/* The workspace's agents: @launcher (the Launch Agent button) goes into the
 * header bar, @pane (their terminals) beside the tabs, across a handle the
 * person can drag. */
void        tw_window_set_agents         (TwWindow       *self,
                                          GtkWidget      *launcher,
                                          GtkWidget      *pane);
/* The Recent Workspaces submenu of the main menu. */
void        tw_window_set_recent_workspaces (TwWindow    *self,
                                             GMenuModel  *recent);

/* Whether the overlays above the tabs animate (the overlay-animations
 * setting; they never do while the desktop turned animations off). */
void        tw_window_set_overlay_animations (TwWindow   *self,
                                              gboolean    animations);

/* Following agents: when on, the window selects the tab each new call of
 * an agent goes to ("win.follow-agents"). Off by default: tabs that agents
 * open never take the selection on their own. */
gboolean    tw_window_get_follow_agents  (TwWindow       *self);
void        tw_window_set_follow_agents  (TwWindow       *self,
                                          gboolean        follow);

/* The window's parts for a tab and the workspace, for tests and scripts:
 * the TwActivityFeed, and a tab's TwActionOverlay and TwHandoffBanner (NULL
 * for a tab the window does not show). Window actions steer the same way
 * the buttons do, each with a browser id ("" for the selected tab):
 * win.pause-tab, win.resume-tab, win.handoff-done, win.handoff-cancel. */
GtkWidget  *tw_window_get_activity_feed  (TwWindow       *self);
GtkWidget  *tw_window_get_action_overlay (TwWindow       *self,
                                          TwBrowserTab   *tab);
/* The tab strip's model: one page per tab, in order, and which is on
 * screen. */
AdwTabView *tw_window_get_tab_view       (TwWindow       *self);
/* The widget that shows @tab: its page, mapped whether or not it is the
 * tab on screen; and the page on screen. */
GtkWidget  *tw_window_get_shown_page     (TwWindow       *self);
GtkWidget  *tw_window_get_tab_page       (TwWindow       *self,
                                          TwBrowserTab   *tab);
GtkWidget  *tw_window_get_handoff_banner (TwWindow       *self,
                                          TwBrowserTab   *tab);
/* The TwOverview of every agent and tab, shown by win.overview (a boolean
 * state). */
GtkWidget  *tw_window_get_overview       (TwWindow       *self);

G_END_DECLS
