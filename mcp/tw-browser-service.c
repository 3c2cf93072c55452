/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-service.h"

#include "tw-error.h"
#include "tw-tool.h"

G_DEFINE_INTERFACE (TwBrowserService, tw_browser_service, G_TYPE_OBJECT)

static const char *command_names[] = {
  [TW_TAB_COMMAND_LIST_TABS] = "list_tabs",
  [TW_TAB_COMMAND_NEW_TAB]   = "new_tab",
  [TW_TAB_COMMAND_CLOSE_TAB] = "close_tab",
  [TW_TAB_COMMAND_NAVIGATE]  = "navigate",
  [TW_TAB_COMMAND_BACK]      = "back",
  [TW_TAB_COMMAND_FORWARD]   = "forward",
  [TW_TAB_COMMAND_RELOAD]    = "reload",
  [TW_TAB_COMMAND_SNAPSHOT]  = "snapshot",
  [TW_TAB_COMMAND_SCREENSHOT] = "screenshot",
  [TW_TAB_COMMAND_LOGS]      = "logs",
  [TW_TAB_COMMAND_WAIT]      = "wait",
  [TW_TAB_COMMAND_RESIZE]    = "resize",
  [TW_TAB_COMMAND_CLICK]     = "click",
  [TW_TAB_COMMAND_FILL]      = "fill",
  [TW_TAB_COMMAND_TYPE]      = "type",
  [TW_TAB_COMMAND_KEYPRESS]  = "keypress",
  [TW_TAB_COMMAND_HOVER]     = "hover",
  [TW_TAB_COMMAND_SELECT]    = "select",
  [TW_TAB_COMMAND_DRAG]      = "drag",
  [TW_TAB_COMMAND_UPLOAD]    = "upload",
  [TW_TAB_COMMAND_SCROLL]    = "scroll",
  [TW_TAB_COMMAND_EVALUATE]  = "evaluate",
  [TW_TAB_COMMAND_HANDOFF]   = "handoff",
  /* Debugging (issue 17). */
  [TW_TAB_COMMAND_CONSOLE]   = "console",
  [TW_TAB_COMMAND_FETCH]     = "fetch",
  [TW_TAB_COMMAND_NETWORK]   = "network",
  /* Reading (issue 17). */
  [TW_TAB_COMMAND_GET_TEXT]  = "get_text",
  [TW_TAB_COMMAND_GET_HTML]  = "get_html",
  [TW_TAB_COMMAND_READ]      = "read",
  [TW_TAB_COMMAND_SET_CONTENT] = "set_content",
  [TW_TAB_COMMAND_GET_STYLES] = "get_styles",
  [TW_TAB_COMMAND_READ_URL]  = "read_url",
  [TW_TAB_COMMAND_COOKIES]   = "cookies",
  [TW_TAB_COMMAND_STORAGE]   = "storage",
  [TW_TAB_COMMAND_STORAGE_STATE] = "storage_state",
  [TW_TAB_COMMAND_HANDLE_DIALOG] = "handle_dialog",
  [TW_TAB_COMMAND_DOWNLOADS] = "downloads",
  [TW_TAB_COMMAND_PDF]       = "pdf",
  /* Forms, coordinates and emulation (issue 18). */
  [TW_TAB_COMMAND_FILL_FORM] = "fill_form",
  [TW_TAB_COMMAND_EMULATE]   = "emulate",
  [TW_TAB_COMMAND_MOUSE]     = "mouse",
  /* Request routing (issue 31). */
  [TW_TAB_COMMAND_ROUTE]     = "route",
  [TW_TAB_COMMAND_PERFORMANCE] = "performance",
  [TW_TAB_COMMAND_SHARE_TAB] = "share_tab",
  /* Finding across tabs (issue 17). */
  [TW_TAB_COMMAND_FIND_IN_TABS] = "find_in_tabs",
  /* History and bookmarks (issue 31). */
  [TW_TAB_COMMAND_HISTORY]   = "history",
  /* Replay (issue 33). */
  [TW_TAB_COMMAND_REPLAY]    = "replay",
  [TW_TAB_COMMAND_SAVE_FLOW] = "save_flow",
  [TW_TAB_COMMAND_EXPORT_SESSION] = "export_session",
  [TW_TAB_COMMAND_ANNOTATE]  = "annotate",
  [TW_TAB_COMMAND_DEMONSTRATION] = "demonstration",
};

G_STATIC_ASSERT (G_N_ELEMENTS (command_names) == TW_TAB_COMMAND_LAST);

static guint tools_changed_signal;

static void
tw_browser_service_default_init (TwBrowserServiceInterface *iface)
{
  tools_changed_signal =
    g_signal_new ("tools-changed", G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

const char *
tw_tab_command_to_string (TwTabCommand command)
{
  g_return_val_if_fail (command < TW_TAB_COMMAND_LAST, NULL);

  return command_names[command];
}

gboolean
tw_tab_command_targets_tab (TwTabCommand command)
{
  return command != TW_TAB_COMMAND_LIST_TABS && command != TW_TAB_COMMAND_NEW_TAB &&
         command != TW_TAB_COMMAND_READ_URL &&
         command != TW_TAB_COMMAND_COOKIES && command != TW_TAB_COMMAND_STORAGE_STATE &&
         command != TW_TAB_COMMAND_DOWNLOADS && command != TW_TAB_COMMAND_FIND_IN_TABS &&
         command != TW_TAB_COMMAND_HISTORY && command != TW_TAB_COMMAND_REPLAY &&
         command != TW_TAB_COMMAND_SAVE_FLOW && command != TW_TAB_COMMAND_EXPORT_SESSION;
}

void
tw_browser_service_run_async (TwBrowserService       *self,
                              const TwServiceRequest *request,
                              GCancellable           *cancellable,
                              GAsyncReadyCallback     callback,
                              gpointer                user_data)
{
  g_return_if_fail (TW_IS_BROWSER_SERVICE (self));
  g_return_if_fail (request != NULL);
  g_return_if_fail (request->command < TW_TAB_COMMAND_LAST);
  g_return_if_fail (request->params != NULL);
  g_return_if_fail (!tw_tab_command_targets_tab (request->command) || request->browser_id != NULL);

  TW_BROWSER_SERVICE_GET_IFACE (self)->run_async (self, request, cancellable, callback, user_data);
}

JsonObject *
tw_browser_service_run_finish (TwBrowserService  *self,
                               GAsyncResult      *result,
                               GError           **error)
{
  g_return_val_if_fail (TW_IS_BROWSER_SERVICE (self), NULL);

  if (g_async_result_is_tagged (result, tw_browser_service_run_async))
    return g_task_propagate_pointer (G_TASK (result), error);

  return TW_BROWSER_SERVICE_GET_IFACE (self)->run_finish (self, result, error);
}

gboolean
tw_browser_service_get_enabled (TwBrowserService *self)
{
  TwBrowserServiceInterface *iface;

  g_return_val_if_fail (TW_IS_BROWSER_SERVICE (self), FALSE);

  iface = TW_BROWSER_SERVICE_GET_IFACE (self);

  return iface->get_enabled == NULL || iface->get_enabled (self);
}

TwActivityLog *
tw_browser_service_get_activity (TwBrowserService *self)
{
  TwBrowserServiceInterface *iface;

  g_return_val_if_fail (TW_IS_BROWSER_SERVICE (self), NULL);

  iface = TW_BROWSER_SERVICE_GET_IFACE (self);

  return iface->get_activity != NULL ? iface->get_activity (self) : NULL;
}

gboolean
tw_browser_service_get_tool_group_enabled (TwBrowserService *self,
                                           const char       *group)
{
  TwBrowserServiceInterface *iface;

  g_return_val_if_fail (TW_IS_BROWSER_SERVICE (self), FALSE);
  g_return_val_if_fail (group != NULL, FALSE);

  iface = TW_BROWSER_SERVICE_GET_IFACE (self);

  return iface->get_tool_group_enabled == NULL || iface->get_tool_group_enabled (self, group);
}

void
tw_browser_service_emit_tools_changed (TwBrowserService *self)
{
  g_return_if_fail (TW_IS_BROWSER_SERVICE (self));

  g_signal_emit (self, tools_changed_signal, 0);
}

gboolean
tw_browser_service_check_tool_group (TwBrowserService  *self,
                                     const char        *group,
                                     const char        *tool_name,
                                     GError           **error)
{
  g_return_val_if_fail (TW_IS_BROWSER_SERVICE (self), FALSE);
  g_return_val_if_fail (tool_name != NULL, FALSE);

  if (!tw_browser_service_get_enabled (self))
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DISABLED,
                           TW_BROWSER_SERVICE_DISABLED_MESSAGE);
      return FALSE;
    }

  if (group != NULL && !tw_browser_service_get_tool_group_enabled (self, group))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DISABLED,
                   "%s belongs to the \"%s\" tools, which are turned off for this "
                   "workspace; the person using Tabwright can offer them in its Preferences "
                   "(Tool groups) or with tabwright --tools",
                   tool_name, group);
      return FALSE;
    }

  return TRUE;
}

gboolean
tw_browser_service_needs_approval (TwBrowserService *self,
                                   TwToolCall       *call)
{
  TwBrowserServiceInterface *iface;

  g_return_val_if_fail (TW_IS_BROWSER_SERVICE (self), FALSE);
  g_return_val_if_fail (call != NULL, FALSE);

  iface = TW_BROWSER_SERVICE_GET_IFACE (self);
  return iface->needs_approval != NULL && iface->approve_async != NULL &&
         iface->needs_approval (self, call);
}

void
tw_browser_service_approve_async (TwBrowserService    *self,
                                  TwToolCall          *call,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  TwBrowserServiceInterface *iface;

  g_return_if_fail (TW_IS_BROWSER_SERVICE (self));
  g_return_if_fail (call != NULL);

  iface = TW_BROWSER_SERVICE_GET_IFACE (self);
  if (iface->approve_async == NULL)
    {
      g_autoptr(GTask) task = g_task_new (self, tw_tool_call_get_cancellable (call), callback,
                                          user_data);

      g_task_set_source_tag (task, tw_browser_service_approve_async);
      g_task_return_boolean (task, TRUE);
      return;
    }

  iface->approve_async (self, call, callback, user_data);
}

gboolean
tw_browser_service_approve_finish (TwBrowserService  *self,
                                   GAsyncResult      *result,
                                   GError           **error)
{
  TwBrowserServiceInterface *iface;

  g_return_val_if_fail (TW_IS_BROWSER_SERVICE (self), FALSE);

  if (g_async_result_is_tagged (result, tw_browser_service_approve_async))
    return g_task_propagate_boolean (G_TASK (result), error);

  iface = TW_BROWSER_SERVICE_GET_IFACE (self);
  return iface->approve_finish (self, result, error);
}
