/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>

#include "tw-activity-log.h"
#include "tw-browser-service.h"
#include "tw-browser-tab.h"
#include "tw-history.h"

G_BEGIN_DECLS

/* The tabs of one workspace. It implements TwBrowserService, so MCP tools
 * reach the workspace's tabs through it, and lists the tabs as a GListModel
 * of TwBrowserTab for the window. All tabs share one WebKitNetworkSession of
 * the browser's own, so cookies and storage never cross workspaces. */

#define TW_TYPE_BROWSER (tw_browser_get_type ())
G_DECLARE_FINAL_TYPE (TwBrowser, tw_browser, TW, BROWSER, GObject)

/* Website data lives under @data_dir and caches under @cache_dir; with a NULL
 * @data_dir the session is ephemeral and keeps nothing on disk. */
TwBrowser            *tw_browser_new                 (const char    *data_dir,
                                                      const char    *cache_dir);

WebKitNetworkSession *tw_browser_get_network_session (TwBrowser     *self);

/* Every tool call agents made on the workspace, for the activity feed. */
TwActivityLog        *tw_browser_get_activity        (TwBrowser     *self);

/* A GListModel of TwBrowserTab, in the order tabs were opened. */
GListModel           *tw_browser_get_tabs            (TwBrowser     *self);

/* Opens a tab for the person (no owning agent) and starts loading @uri, or
 * the blank page when @uri is NULL. Returns the new tab, owned by @self. */
TwBrowserTab         *tw_browser_open_tab            (TwBrowser     *self,
                                                      const char    *uri);
/* Puts back a tab of the last session for the person: it lists @uri and
 * @title (may be NULL) at once and loads @uri only when it is first used
 * (see tw_browser_tab_defer_load()). NULL when @uri is not a web page. */
TwBrowserTab         *tw_browser_restore_tab         (TwBrowser     *self,
                                                      const char    *uri,
                                                      const char    *title);
TwBrowserTab         *tw_browser_lookup_tab          (TwBrowser     *self,
                                                      const char    *browser_id);
void                  tw_browser_close_tab           (TwBrowser     *self,
                                                      TwBrowserTab  *tab);
/* Closes every tab, e.g. when the workspace's window goes away. */
void                  tw_browser_close_all           (TwBrowser     *self);

/* The name a demonstration stopped without one gets: "Demonstration N",
 * the first such flow not saved yet (tw_browser_tab_stop_demonstration()). */
char                 *tw_browser_dup_next_demonstration_name (TwBrowser *self);

/* The workspace folder: the only place where tools may read or write files
 * (browser_screenshot's savePath). NULL, the default, allows none. */
void                  tw_browser_set_workspace_dir   (TwBrowser     *self,
                                                      const char    *workspace_dir);

/* Whether MCP tools may use these tabs (TRUE by default). While FALSE,
 * every tool call on the workspace fails with browser_disabled; the person
 * keeps browsing as usual. The "enabled" property notifies changes. */
gboolean              tw_browser_get_enabled         (TwBrowser     *self);
void                  tw_browser_set_enabled         (TwBrowser     *self,
                                                      gboolean       enabled);

/* Whether the pages of tabs agents drive have the focus, as on a person's
 * screen (TRUE by default; tw_browser_tab_set_emulate_focus()). The
 * "emulate-focus" property notifies changes. */
/* A tab in the background that no agent has driven for @rest_ms may rest
 * (tw_browser_tab_get_resting()); 0 keeps every tab live. The
 * "tab-rest-ms" property notifies changes. */
guint                 tw_browser_get_tab_rest_ms     (TwBrowser     *self);
void                  tw_browser_set_tab_rest_ms     (TwBrowser     *self,
                                                      guint          rest_ms);
gboolean              tw_browser_get_emulate_focus   (TwBrowser     *self);
void                  tw_browser_set_emulate_focus   (TwBrowser     *self,
                                                      gboolean       emulate_focus);

/* The tool groups (mcp/tools/tw-tool-groups.h) offered to agents in this
 * workspace; NULL, the default, offers all. Changing them notifies
 * "tool-groups" and emits the service's "tools-changed". */
const char * const   *tw_browser_get_tool_groups     (TwBrowser          *self);
void                  tw_browser_set_tool_groups     (TwBrowser          *self,
                                                      const char * const *groups);

/* The pages visited in the workspace's tabs, by the person and each
 * agent, and its bookmarks (browser_history, the address bar). A browser
 * keeps them in memory unless given a history kept on disk. Private tabs
 * leave nothing in it. */
TwHistory            *tw_browser_get_history         (TwBrowser     *self);
void                  tw_browser_set_history         (TwBrowser     *self,
                                                      TwHistory     *history);
/* Whose tabs agents may use (issue 32). A tab belongs to the agent that
 * opened it, or that it was handed to; the person's tabs (opened in the
 * window, or restored) to nobody. An agent's call on another agent's tab
 * fails with browser_denied, unless the tab is shared or "share-tabs" is
 * on (off by default). Agents may use the person's tabs while
 * "share-person-tabs" is on (the default). The person acts on every tab. */
gboolean              tw_browser_get_share_tabs      (TwBrowser     *self);
void                  tw_browser_set_share_tabs      (TwBrowser     *self,
                                                      gboolean       share_tabs);
gboolean              tw_browser_get_share_person_tabs (TwBrowser   *self);
void                  tw_browser_set_share_person_tabs (TwBrowser   *self,
                                                        gboolean     share_person_tabs);
/* Calls as @agent_id act for the person (the workspace token's clients):
 * they may use every tab, and the tabs they open count as the person's. */
void                  tw_browser_set_person_id       (TwBrowser     *self,
                                                      const char    *agent_id);
/* Whether calls as @agent_id (NULL for the app's own) act for the person. */
gboolean              tw_browser_acts_for_person     (TwBrowser     *self,
                                                      const char    *agent_id);
/* The running agents, by id and display name, for handing tabs over: the
 * app adds each agent as its token starts to work and removes it when the
 * agent ends, which shares the tabs it owned with every agent. Names are
 * unique in a workspace ("Codex #2"). */
void                  tw_browser_add_agent           (TwBrowser     *self,
                                                      const char    *agent_id,
                                                      const char    *agent_name);
void                  tw_browser_remove_agent        (TwBrowser     *self,
                                                      const char    *agent_id);
guint                 tw_browser_get_n_agents        (TwBrowser     *self);
void                  tw_browser_get_agent           (TwBrowser     *self,
                                                      guint          index,
                                                      const char   **agent_id,
                                                      const char   **agent_name);
/* Own colours (issue 32): every agent the app adds gets a colour, an index
 * below TW_BROWSER_N_AGENT_COLOURS into the window's palette, and a mark,
 * a letter or digit, both distinct among the running agents and kept for
 * the session. FALSE for an agent never added: the person and external
 * clients, who have neither. "agents-changed" says when agents come and
 * go. */
#define TW_BROWSER_N_AGENT_COLOURS 9
gboolean              tw_browser_get_agent_mark      (TwBrowser     *self,
                                                      const char    *agent_id,
                                                      int           *colour,
                                                      const char   **mark);
/* Whether @agent_id was added and has not been removed since. */
gboolean              tw_browser_get_agent_running   (TwBrowser     *self,
                                                      const char    *agent_id);
/* Moves @tab to the running agent @agent_id, or to the person when it is
 * NULL. FALSE (and nothing changes) for an agent that is not running. */
gboolean              tw_browser_give_tab            (TwBrowser     *self,
                                                      TwBrowserTab  *tab,
                                                      const char    *agent_id);

/* The person's say (issue 32, tw-browser-approvals.c): what an agent may
 * do without asking. The workspace has one policy; an agent's preset may
 * set its own, whose members, where set, take the workspace's place
 * (approvals add up).
 *
 * allowed_sites: the hosts an agent may reach, "example.com",
 *   "*.example.com" (the domain and every subdomain) or "host:port"; NULL
 *   or empty for any. Navigation and requests elsewhere fail with
 *   browser_denied naming them, and an agent's tabs load nothing from
 *   other hosts.
 * approve: what waits for the person's OK: tool names
 *   ("browser_evaluate", "browser_upload", any tool), "downloads" and
 *   "cross-origin-forms".
 * approval_timeout_s: how long a step waits before it is denied; 0 for
 *   the workspace's (120 s unless set).
 * session: NULL or "workspace" for the workspace's network session; "own"
 *   for one of the agent's own, which all its tabs share; any other name
 *   for the isolated session of that name (cookies and storage apart). */
typedef struct
{
  const char * const *allowed_sites;
  const char * const *approve;
  guint               approval_timeout_s;
  const char         *session;
} TwAgentPolicy;

#define TW_APPROVAL_DEFAULT_TIMEOUT_S 120

void                  tw_browser_set_policy          (TwBrowser           *self,
                                                      const TwAgentPolicy *policy);
/* The policy of the running agent @agent_id (tw_browser_add_agent()). */
void                  tw_browser_set_agent_policy    (TwBrowser           *self,
                                                      const char          *agent_id,
                                                      const TwAgentPolicy *policy);
/* The session of the running agent @agent_id: as in TwAgentPolicy, its
 * own or the workspace's; "session" in its preset, the person changes it.
 * Tabs it opens after the change use the new one. */
const char           *tw_browser_get_agent_session   (TwBrowser           *self,
                                                      const char          *agent_id);
void                  tw_browser_set_agent_session   (TwBrowser           *self,
                                                      const char          *agent_id,
                                                      const char          *session);

/* How long navigation commands wait before failing with browser_timeout;
 * 30 s unless changed (tests shorten it). */
void                  tw_browser_set_command_timeout (TwBrowser     *self,
                                                      guint          timeout_ms);

G_END_DECLS
