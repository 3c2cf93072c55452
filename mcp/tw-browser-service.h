/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The narrow interface through which MCP tools reach browser tabs. The web
 * view layer implements it (one instance per workspace); the protocol layer
 * only ever sees this, so it builds and tests without a display.
 *
 * Every command takes a JSON object of parameters that the tool has already
 * validated against its input schema, and completes with a JSON object: the
 * structured result the tool turns into its reply. Failures are GErrors in
 * the TW_BROWSER_ERROR domain. */

#define TW_TYPE_BROWSER_SERVICE (tw_browser_service_get_type ())
G_DECLARE_INTERFACE (TwBrowserService, tw_browser_service, TW, BROWSER_SERVICE, GObject)

typedef enum
{
  /* Workspace-level commands: the browser id is NULL. */
  TW_TAB_COMMAND_LIST_TABS,   /* {} -> {tabs:[{browserId,url,title,loading,owner,shared?,yours?}]} */
  TW_TAB_COMMAND_NEW_TAB,     /* {url?} -> {browserId,url,title,status?} after the first load */

  /* Tab commands: the browser id names the tab. */
  TW_TAB_COMMAND_CLOSE_TAB,   /* {} -> {browserId,closed:true} */
  TW_TAB_COMMAND_NAVIGATE,    /* {url} -> {browserId,url,title,status} */
  TW_TAB_COMMAND_BACK,        /* {} -> {browserId,url,title,status?} */
  TW_TAB_COMMAND_FORWARD,     /* {} -> {browserId,url,title,status?} */
  TW_TAB_COMMAND_RELOAD,      /* {} -> {browserId,url,title,status?} */
  TW_TAB_COMMAND_SNAPSHOT,    /* {interactive?,ref?,maxChars?,cursor?} -> {browserId,url,title,text,...} */

  /* Reading and control (DESIGN.md §3). */
  TW_TAB_COMMAND_SCREENSHOT,  /* {fullPage?,savePath?} -> {browserId,width,height,png (base64)? ,path?} */
  TW_TAB_COMMAND_LOGS,        /* {maxEntries?} -> {browserId,entries:[...]} */
  TW_TAB_COMMAND_WAIT,        /* {text?|url?,timeoutMs?} -> {browserId,url,title,...} */
  TW_TAB_COMMAND_RESIZE,      /* {width,height} -> {browserId,width,height} */

  /* Interaction (DESIGN.md §3): every ref goes through the runtime's resolver. */
  TW_TAB_COMMAND_CLICK,       /* {ref,button?,doubleClick?,modifiers?} */
  TW_TAB_COMMAND_FILL,        /* {ref,value} */
  TW_TAB_COMMAND_TYPE,        /* {text,ref?} */
  TW_TAB_COMMAND_KEYPRESS,    /* {key,ref?} */
  TW_TAB_COMMAND_HOVER,       /* {ref} */
  TW_TAB_COMMAND_SELECT,      /* {ref,value} */
  TW_TAB_COMMAND_DRAG,        /* {sourceRef,targetRef} */
  TW_TAB_COMMAND_UPLOAD,      /* {ref,filePaths}: the tab checks each path with tw_workspace_path_check() */
  TW_TAB_COMMAND_SCROLL,      /* {deltaX,deltaY,ref?} */
  TW_TAB_COMMAND_EVALUATE,    /* {function,ref?} -> {browserId,result,truncated} */

  /* Watching and steering (DESIGN.md §6). */
  TW_TAB_COMMAND_HANDOFF,     /* {message,timeoutMs} -> {browserId,outcome:"done"|"cancelled",url,title} */

  /* Debugging (issue 17: console, network, fetch). */
  TW_TAB_COMMAND_CONSOLE,     /* {id?,level?,source?,text?,allPages?,maxEntries?,wait?,timeoutMs?,clear?} -> {browserId,mode,matched,messages} */
  TW_TAB_COMMAND_FETCH,       /* {url,method?,headers?,body?,maxBodyChars?,showSecrets?} -> {browserId,url,status,statusText,headers,cookiesSent,body} */
  TW_TAB_COMMAND_NETWORK,     /* {id?,type?,status?,method?,url?,failed?,pages?,maxEntries?,showSecrets?,maxBodyChars?,cursor?,savePath?} -> {browserId,mode,matched,requests|request} */
  /* Reading (issue 17, webview/tw-tab-reading.c): {ref?,maxChars?,cursor?,...}
   * -> {browserId,url,title,text,offset,total,truncated,nextCursor?}. */
  TW_TAB_COMMAND_GET_TEXT,    /* {ref?,maxChars?,cursor?} */
  TW_TAB_COMMAND_GET_HTML,    /* {ref?,inner?,stripScripts?,maxChars?,cursor?} */
  TW_TAB_COMMAND_READ,        /* {ref?,filter?,outline?,maxChars?,cursor?} -> {...,mainContent} */
  TW_TAB_COMMAND_SET_CONTENT, /* {html} -> {browserId,url,title,elements} */
  TW_TAB_COMMAND_GET_STYLES,  /* {ref,properties?} -> {browserId,ref,tag,style,box,visible,hiddenBecause} */
  TW_TAB_COMMAND_READ_URL,    /* workspace: {url,llms?,filter?,outline?,maxChars?,cursor?} -> {url,status,source,...} */
  /* The page's environment (issue 18): storage, dialogs, downloads, PDF. */
  TW_TAB_COMMAND_COOKIES,       /* workspace: {action,name?,value?,domain?,url?,path?,...} -> {action,cookies?|cookie?|removed?} */
  TW_TAB_COMMAND_STORAGE,       /* {area?,action,key?,value?} -> {area,action,origin,items?|key?,value?,removed?} */
  TW_TAB_COMMAND_STORAGE_STATE, /* workspace: {action:save|load,path} -> {action,path,cookies,origins} */
  TW_TAB_COMMAND_HANDLE_DIALOG, /* {accept,promptText?} -> {browserId,accept,promptText?} */
  TW_TAB_COMMAND_DOWNLOADS,     /* workspace: {} -> {downloads:[...],folder?} */
  TW_TAB_COMMAND_PDF,           /* {path,paperSize?,landscape?,background?} -> {browserId,path,size} */
  /* Finding across tabs (issue 17, webview/tw-find-in-tabs.c). */
  TW_TAB_COMMAND_FIND_IN_TABS,  /* workspace: {query,maxResults?} -> {query,tabs,read,unchanged,matches:[{browserId,url,title,score,snippet,indexed}]} */

  /* Forms, coordinates and emulation (issue 18, the env branch). */
  TW_TAB_COMMAND_FILL_FORM,     /* {fields:[{ref,value}]} -> {browserId,url,title,filled,failed,skipped,fields:[...]} */
  TW_TAB_COMMAND_EMULATE,       /* {userAgent?,reset?} -> {browserId,emulation,userAgent,reset} */
  TW_TAB_COMMAND_MOUSE,         /* {action,x,y,toX?,toY?,deltaX?,deltaY?,button?,scale?|screenshotWidth?} -> {browserId,url,title,x,y,element,...}: an action of tw-tab-actions */

  /* Request routing (issue 31, webview/tw-tab-routes.c). */
  TW_TAB_COMMAND_ROUTE,         /* {url?,method?,status?,headers?,body?,bodyPath?,abort?,setHeaders?,remove?} -> {browserId,routes,added?,removed?} */

  /* Performance (issue 31, webview/runtime/performance.js). */
  TW_TAB_COMMAND_PERFORMANCE,   /* {maxResources?} -> {browserId,url,navigation,paint,largestContentfulPaint,...,resources,findings} */

  /* History and bookmarks (issue 31, webview/tw-history-search.c). */
  TW_TAB_COMMAND_HISTORY,       /* workspace: {query?,since?,until?,kind?,maxResults?} -> {query,kind,entries:[{url,title,lastVisit?,visits,visitors,bookmarked,bookmarkedAt?}]} */
  /* Own tabs (issue 32): the owner or the person shares the tab with every
   * agent, or hands it to one ("person" gives it back). */
  TW_TAB_COMMAND_SHARE_TAB,     /* {agent?} -> {browserId,owner,shared} */

  /* Replay (issue 33, webview/tw-browser-flows.c): a recorded session of
   * the timeline, or a saved flow, run again; the browser id, when given,
   * names the tab to run it in (else a new one). */
  TW_TAB_COMMAND_REPLAY,        /* workspace: {flow?|session?,fromStep?,toStep?} -> {browserId,source,ok,total,replayed,skipped,stoppedAt?,expected?,found?,steps:[...]} */
  TW_TAB_COMMAND_SAVE_FLOW,     /* workspace: {name,session?,fromStep?,toStep?} -> {name,source,steps:[{step,tool,target?}]} */
  /* The caller's session (or one tab's part of it) exported to a folder of
   * the workspace (webview/tw-browser-export.c); the browser id, when given,
   * names the tab. */
  TW_TAB_COMMAND_EXPORT_SESSION, /* workspace: {folder?,session?} -> {folder,session,browserId?,calls,images,requests,consoleMessages,files} */

  /* Teach (issue 33, webview/tw-browser-tab-annotate.c): waits until the
   * person marks the tab and sends, or cancels. */
  TW_TAB_COMMAND_ANNOTATE,      /* {message,timeoutMs} -> {browserId,outcome:"sent"|"cancelled",url,title,note?,marks?,png?} */
  /* Waits beside the tab's queue until the person finishes (or discards)
   * a demonstration in the tab (webview/tw-browser-demonstrations.c). */
  TW_TAB_COMMAND_DEMONSTRATION, /* {message,timeoutMs} -> {browserId,outcome:"finished"|"discarded",flow?,notSaved?,url?,steps:[{step,action,role?,name?,value?,secret?,key?,url?,navigatedTo?}]} */

  TW_TAB_COMMAND_LAST
} TwTabCommand;

/* Who is calling, for attribution on screen and in the activity feed. */
typedef struct
{
  const char *agent_id;    /* stable id of the agent or external client */
  const char *agent_name;  /* display name, e.g. "Claude Code" */
  /* The tool call the command belongs to, as the activity log numbers
   * calls; 0 when the command is not part of a logged call. */
  guint64     call_id;
} TwCaller;

/* One command for the service to run: which, on which tab (NULL for the
 * workspace commands), with which parameters, for whom. The record need
 * only live through the call that takes it; @caller stays valid until the
 * command finishes. */
typedef struct
{
  TwTabCommand    command;
  const char     *browser_id;
  JsonObject     *params;
  const TwCaller *caller;
} TwServiceRequest;

typedef struct _TwActivityLog TwActivityLog;

/* One in-flight tools/call (tw-tool.h). */
typedef struct _TwToolCall TwToolCall;

struct _TwBrowserServiceInterface
{
  GTypeInterface parent_iface;

  void        (*run_async)  (TwBrowserService        *self,
                             const TwServiceRequest  *request,
                             GCancellable            *cancellable,
                             GAsyncReadyCallback      callback,
                             gpointer                 user_data);
  JsonObject *(*run_finish) (TwBrowserService        *self,
                             GAsyncResult            *result,
                             GError                 **error);

  /* Optional: whether browser tools may use the service at all (the person
   * can turn them off per workspace). Unimplemented means always. */
  gboolean    (*get_enabled) (TwBrowserService   *self);

  /* Optional: the activity log every tool call on the service is recorded
   * in (tw_tool_call_start() and its end write to it). */
  TwActivityLog *(*get_activity) (TwBrowserService *self);

  /* Tool groups: optional, whether the tools of the offered group @group
   * (tw-tool-groups.h) are offered in the service's workspace.
   * Unimplemented means every group is. Implementations emit
   * "tools-changed" when the answer changes for any group. */
  gboolean    (*get_tool_group_enabled) (TwBrowserService *self,
                                         const char       *group);

  /* The person's say (issue 32): optional, whether @call (its tool, its
   * arguments, its caller) must wait for the person's OK; answered at
   * once, so that other calls go on without a detour. */
  gboolean    (*needs_approval) (TwBrowserService     *self,
                                 TwToolCall           *call);
  /* Then, whether the caller may make @call. It may wait for the person,
   * reporting the call's progress now and then, until the call is
   * cancelled. Finishes TRUE, or FALSE with browser_denied. Unimplemented
   * allows every call. */
  void        (*approve_async)  (TwBrowserService     *self,
                                 TwToolCall           *call,
                                 GAsyncReadyCallback   callback,
                                 gpointer              user_data);
  gboolean    (*approve_finish) (TwBrowserService     *self,
                                 GAsyncResult         *result,
                                 GError              **error);
};

const char *tw_tab_command_to_string       (TwTabCommand         command);
gboolean    tw_tab_command_targets_tab     (TwTabCommand         command);

void        tw_browser_service_run_async   (TwBrowserService        *self,
                                            const TwServiceRequest  *request,
                                            GCancellable            *cancellable,
                                            GAsyncReadyCallback      callback,
                                            gpointer                 user_data);
JsonObject *tw_browser_service_run_finish  (TwBrowserService        *self,
                                            GAsyncResult            *result,
                                            GError                 **error);

/* FALSE while browser tools are turned off for the service's workspace:
 * every tool call then fails with browser_disabled before it runs (checked
 * in one place, tw_tool_call_start()); turning them off ends the commands
 * waiting in the tabs' queues. */
gboolean    tw_browser_service_get_enabled (TwBrowserService    *self);

/* The service's activity log, or NULL when it keeps none. */
TwActivityLog *tw_browser_service_get_activity (TwBrowserService *self);

/* Tool groups. Whether the tools of @group are offered; a tool of a group
 * that is off is left out of tools/list and its calls fail with
 * browser_disabled. The "tools-changed" signal (no arguments) says that the
 * set of offered tools changed, so that MCP clients are told. */
gboolean    tw_browser_service_get_tool_group_enabled (TwBrowserService *self,
                                                       const char       *group);
void        tw_browser_service_emit_tools_changed     (TwBrowserService *self);

/* The one check every tool call passes (tw_tool_call_start()): FALSE with
 * browser_disabled in @error when browser tools are off for the workspace,
 * or when the tool's offered group @group is off. A NULL group (tools that
 * exist only in tests) is always offered. */
gboolean    tw_browser_service_check_tool_group       (TwBrowserService *self,
                                                       const char       *group,
                                                       const char       *tool_name,
                                                       GError          **error);

/* Whether the call must wait for the person's OK (see needs_approval);
 * FALSE without an implementation. */
gboolean    tw_browser_service_needs_approval (TwBrowserService     *self,
                                               TwToolCall           *call);
/* Whether the person lets the caller make @call (see approve_async);
 * without an implementation, finishes TRUE at once. */
void        tw_browser_service_approve_async  (TwBrowserService     *self,
                                               TwToolCall           *call,
                                               GAsyncReadyCallback   callback,
                                               gpointer              user_data);
gboolean    tw_browser_service_approve_finish (TwBrowserService     *self,
                                               GAsyncResult         *result,
                                               GError              **error);

/* What a call on a disabled service is told, after "browser_disabled: ". */
#define TW_BROWSER_SERVICE_DISABLED_MESSAGE \
  "browser tools are turned off for this workspace; the person using Tabwright " \
  "can turn them on again in its Preferences"

G_END_DECLS
