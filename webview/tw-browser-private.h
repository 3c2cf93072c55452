/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-browser.h"

#include "tw-agent-marks.h"
#include "tw-tab-downloads.h"
#include "tw-history.h"
#include "tw-text-index.h"
#include "tw-timeline.h"

G_BEGIN_DECLS

/* What the parts of TwBrowser share. tw-browser.c keeps the tabs and the
 * object, tw-browser-spare-view.c starts web processes ahead of need and
 * tw-browser-commands.c runs the tools' commands (TwBrowserService). */

typedef struct _TwBrowserDemonstrations TwBrowserDemonstrations;

typedef struct
{
  char       **allowed_sites;
  char       **approve;
  guint        approval_timeout_s;
  char        *session;
} TwBrowserPolicy;

#define TW_BROWSER_DEFAULT_TABS_PER_PROCESS 4
#define TW_BROWSER_DEFAULT_TAB_REST_MS      30000

struct _TwBrowser
{
  GObject               parent_instance;

  WebKitNetworkSession *session;
  WebKitWebView        *spare_view;
  guint                 spare_source;
  /* How many tabs of one agent may share a web process
   * (tw-browser-spare-view.c), and how long a tab stays live after its
   * last command before it may rest (tw-browser-tab-rest.c). */
  guint                 tabs_per_process;
  guint                 tab_rest_ms;
  /* Which tabs draw with accelerated compositing: those the person has
   * looked at (default), all (TABWRIGHT_TAB_COMPOSITING=1) or none (=0). */
  TwTabCompositing      tab_compositing;
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
  /* The workspace's timeline, which replays read (weak). */
  TwTimeline           *timeline;

  /* Whose tabs agents may use (issue 32, tw-browser-owners.c). */
  char                 *person_id;
  GPtrArray            *agents;   /* TwBrowserAgent, in the order they came */
  gboolean              share_tabs;
  gboolean              share_person_tabs;

  /* The person's say (issue 32, tw-browser-approvals.c). */
  TwBrowserPolicy       policy;
  GPtrArray            *approvals;   /* TwApproval waiting, oldest first */
  /* Each agent's colour and mark for this session (tw-agent-marks.h). */
  TwAgentMarks         *marks;
  /* What the person demonstrated, and the calls that wait for it
   * (tw-browser-demonstrations.c); made on first use. */
  TwBrowserDemonstrations *demonstrations;
};

typedef struct
{
  char            *id;
  char            *name;
  TwBrowserPolicy  policy;
  /* What the person allowed for this agent (Allow for This Agent). */
  GHashTable      *allowed;
} TwBrowserAgent;

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

/* tw-browser-flows.c: browser_replay and browser_save_flow, run on the
 * timeline set with tw_browser_set_timeline(). Finishes @task. */
void          tw_browser_set_timeline          (TwBrowser                 *self,
                                                TwTimeline                *timeline);
void          tw_browser_run_flow_command      (TwBrowser                 *self,
                                                const TwServiceRequest    *request,
                                                GTask                     *task);

/* tw-browser-demonstrations.c: browser_demonstration. Saves what the
 * person demonstrates in @tab as a flow, and finishes @task with it. */
void          tw_browser_watch_demonstrations  (TwBrowser                 *self,
                                                TwBrowserTab              *tab);
void          tw_browser_wait_demonstration    (TwBrowser                 *self,
                                                TwBrowserTab              *tab,
                                                const TwServiceRequest    *request,
                                                GTask                     *task);
/* Ends the calls that wait for a demonstration in @tab: it closes. */
void          tw_browser_demonstrations_tab_closed (TwBrowser             *self,
                                                    TwBrowserTab          *tab);
void          tw_browser_demonstrations_dispose (TwBrowser                *self);
/* tw-browser-export.c: browser_export_session. Finishes @task. */
void          tw_browser_run_export_command    (TwBrowser                 *self,
                                                const TwServiceRequest    *request,
                                                GTask                     *task);

/* tw-browser-owners.c */
void          tw_browser_agent_free            (TwBrowserAgent            *agent);
/* TRUE when @caller may run a command on @tab; else FALSE with
 * browser_denied naming the tab's owner and what to do. */
gboolean      tw_browser_check_tab_access      (TwBrowser                 *self,
                                                TwBrowserTab              *tab,
                                                const TwCaller            *caller,
                                                GError                   **error);
/* The tab @browser_id names, when @caller may run a command on it; else
 * NULL with browser_not_found, or browser_denied as above. */
TwBrowserTab *tw_browser_lookup_usable_tab     (TwBrowser                 *self,
                                                const char                *browser_id,
                                                const TwCaller            *caller,
                                                GError                   **error);
/* browser_share_tab: {agent?} -> {browserId,owner,shared}. */
JsonObject   *tw_browser_share_tab             (TwBrowser                 *self,
                                                TwBrowserTab              *tab,
                                                JsonObject                *params,
                                                const TwCaller            *caller,
                                                GError                   **error);
void          tw_browser_notify_share_tabs     (TwBrowser                 *self);
void          tw_browser_notify_share_person_tabs (TwBrowser              *self);
/* Emits "agents-changed". */
void          tw_browser_notify_agents         (TwBrowser                 *self);

/* tw-browser-approvals.c */
/* Whether @caller is the person (their own clients, or no caller). */
gboolean      tw_browser_caller_is_person      (TwBrowser                 *self,
                                                const TwCaller            *caller);
void          tw_browser_policy_clear          (TwBrowserPolicy           *policy);
TwBrowserAgent *tw_browser_find_agent          (TwBrowser                 *self,
                                                const char                *agent_id);
/* The private context the tabs @caller opens go into, or NULL for the
 * workspace's session. */
char         *tw_browser_dup_caller_context    (TwBrowser                 *self,
                                                const TwCaller            *caller);
/* Forms @tab's pages send to another origin, and downloads of @tab, wait
 * for the person when its agent's policy says so. */
void          tw_browser_approvals_watch_tab   (TwBrowser                 *self,
                                                TwBrowserTab              *tab);
void          tw_browser_approvals_watch_download (TwBrowser              *self,
                                                   WebKitDownload         *download,
                                                   TwBrowserTab           *tab);
void          tw_browser_approvals_init_iface  (TwBrowserServiceInterface *iface);
void          tw_browser_approvals_dispose     (TwBrowser                 *self);

/* tw-browser-sites.c */
/* FALSE with browser_denied when @request would reach a URL (its "url")
 * outside its caller's allowed sites. */
gboolean      tw_browser_check_sites           (TwBrowser                 *self,
                                                const TwServiceRequest    *request,
                                                GError                   **error);
/* Keeps @tab, an agent's, from loading anything outside its sites: a
 * content filter of the tab, in place when this finishes. */
void          tw_browser_limit_tab_sites_async (TwBrowser                 *self,
                                                TwBrowserTab              *tab,
                                                GAsyncReadyCallback        callback,
                                                gpointer                   user_data);
gboolean      tw_browser_limit_tab_sites_finish (TwBrowser                *self,
                                                 GAsyncResult             *result,
                                                 GError                  **error);

/* tw-browser-commands.c */
void          tw_browser_init_service_iface    (TwBrowserServiceInterface *iface);

G_END_DECLS
