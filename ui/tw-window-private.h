/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-activity-feed.h"
#include "tw-tab-deck.h"
#include "tw-tab-page.h"
#include "tw-tools-banner.h"
#include "tw-window.h"

G_BEGIN_DECLS

/* Shared by tw-window.c (the window, its panes and what it shows),
 * tw-window-tabs.c (the tab strip and the deck of tab pages it selects),
 * tw-window-address.c (the address bar) and tw-window-actions.c (what the
 * person can do in it). */

#define AGENT_ICON "tw-agent-symbolic"

struct _TwWindow
{
  AdwApplicationWindow  parent_instance;

  TwBrowser            *browser;
  char                 *workspace_name;
  char                 *workspace_path;
  char                 *mcp_url;
  char                 *mcp_token;

  /* TwBrowserTab (owned) -> its AdwTabPage (owned by the tab view). */
  GHashTable           *pages;
  /* AdwTabPage -> the TwTabPage (owned) it shows in the deck. */
  GHashTable           *contents;

  /* Template widgets */
  AdwToastOverlay      *toast_overlay;
  GtkButton            *reload_button;
  GtkEntry             *address_entry;
  GtkButton            *bookmark_button;
  AdwTabBar            *tab_bar;
  TwToolsBanner        *tools_banner;
  GtkWidget            *workspace_box;
  GtkLabel             *workspace_label;
  GtkStack             *content_stack;
  AdwTabView           *tab_view;
  TwTabDeck            *tab_deck;
  AdwHeaderBar         *header_bar;
  GtkPaned             *agents_paned;
  GMenu                *workspace_section;
  GtkPaned             *activity_paned;
  AdwBin               *activity_bin;
  GMenu                *tab_menu_agents;

  TwActivityFeed       *activity_feed;
  /* The overview (tw-window-overview.c), above what the window shows
   * otherwise. */
  GtkWidget            *overview;
  GtkWidget            *overview_content;
  /* The tab the tab strip's context menu was opened on. */
  TwBrowserTab         *menu_tab;

  guint                 wake_source;

  /* The address bar's suggestions from the history and bookmarks. */
  GtkPopover           *suggestions;
  GtkListBox           *suggestion_list;
  GCancellable         *suggest_cancellable;
  /* What the star shows: whether star_url is bookmarked, as the history
   * answered (star_known) or as the person just set it. */
  GCancellable         *star_cancellable;
  char                 *star_url;
  gboolean              star_known;
  gboolean              star_bookmarked;

  guint                 address_edited : 1;
  guint                 setting_address : 1;
  guint                 follow_agents : 1;
  guint                 overlay_animations : 1;
  /* The agents' pane got its first width when it was first shown. */
  guint                 agents_pane_sized : 1;
};

/* tw-window.c */
void          _tw_window_update_chrome    (TwWindow   *self);

/* tw-window-tabs.c */
TwBrowserTab *_tw_window_get_selected_tab (TwWindow   *self);
TwTabPage    *_tw_window_page_get_content (TwWindow   *self,
                                           AdwTabPage *page);

TwTabPage    *_tw_window_tab_get_content  (TwWindow     *self,
                                           TwBrowserTab *tab);
void          _tw_window_sync_pages       (TwWindow   *self);
void          _tw_window_tabs_items_changed_cb (TwWindow   *self,
                                                guint       position,
                                                guint       removed,
                                                guint       added,
                                                GListModel *model);
void          _tw_window_class_init_tabs  (GtkWidgetClass *widget_class);
void          _tw_window_agents_changed_cb (TwWindow  *self,
                                            TwBrowser *browser);

/* tw-window-address.c */
gboolean      _tw_window_uri_is_blank     (const char *uri);
void          _tw_window_update_address   (TwWindow   *self);
void          _tw_window_class_init_address (GtkWidgetClass *widget_class);
void          _tw_window_init_address     (TwWindow   *self);
/* Once the window has its browser: the star follows the bookmarks. */
void          _tw_window_connect_history  (TwWindow   *self);
void          _tw_window_dispose_address  (TwWindow   *self);
/* The win.bookmark action: bookmarks the selected tab's page, or removes
 * its bookmark. */
void          _tw_window_toggle_bookmark  (TwWindow   *self);

/* tw-window-overview.c */
void          _tw_window_init_overview    (TwWindow   *self);

/* tw-window-actions.c */
void          _tw_window_add_actions      (TwWindow   *self);
void          _tw_window_update_actions   (TwWindow   *self);
void          _tw_window_activity_items_changed_cb (TwWindow   *self,
                                                    guint       position,
                                                    guint       removed,
                                                    guint       added,
                                                    GListModel *log);
void          _tw_window_feed_show_tab_cb          (TwWindow        *self,
                                                    const char      *browser_id,
                                                    TwActivityFeed  *feed);
void          _tw_window_feed_entry_activated_cb   (TwWindow        *self,
                                                    TwActivityEntry *entry,
                                                    TwActivityFeed  *feed);

G_END_DECLS
