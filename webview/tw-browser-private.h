/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-browser.h"

#include "tw-tab-downloads.h"
#include "tw-history.h"
#include "tw-text-index.h"

G_BEGIN_DECLS

/* What the parts of TwBrowser share. tw-browser.c keeps the tabs and the
 * object, tw-browser-spare-view.c starts web processes ahead of need and
 * tw-browser-commands.c runs the tools' commands (TwBrowserService). */

struct _TwBrowser
{
  GObject               parent_instance;

  WebKitNetworkSession *session;
  WebKitWebView        *spare_view;
  guint                 spare_source;
  GListStore           *tabs;
  TwActivityLog        *activity;
  TwTabDownloads       *downloads;
  char                 *workspace_dir;
  guint                 command_timeout_ms;
  gboolean              enabled;
  /* Tabs agents drive are focused pages (tw_browser_set_emulate_focus()). */
  gboolean              emulate_focus;
  /* The offered tool groups; NULL offers all of them. */
  char                **tool_groups;
  /* browser_find_in_tabs: the tabs' text, made on first use. */
  TwTextIndex          *text_index;
  /* The pages visited and bookmarked; in memory until one is set. */
  TwHistory            *history;
};

void          tw_browser_add_tab               (TwBrowser                 *self,
                                                TwBrowserTab              *tab);
/* A private tab: on a session of its own, so it starts its own web
 * process rather than take the spare one. With @context_name, on the
 * session of the open private tabs of that name, or a new one when there
 * are none. */
TwBrowserTab *tw_browser_create_private_tab    (TwBrowser                 *self,
                                                const TwCaller            *caller,
                                                const char                *context_name);

/* tw-browser-spare-view.c */
void          tw_browser_start_spare_view      (TwBrowser                 *self);
gboolean      tw_browser_start_spare_view_cb   (gpointer                   user_data);
TwBrowserTab *tw_browser_create_tab            (TwBrowser                 *self,
                                                const TwCaller            *caller);

/* tw-browser-commands.c */
void          tw_browser_init_service_iface    (TwBrowserServiceInterface *iface);

G_END_DECLS
