/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

#include "tw-address.h"
#include "tw-error.h"
#include "tw-json.h"
#include "tw-page-tools.h"
#include "tw-tab-actions.h"
#include "tw-tab-console.h"
#include "tw-tab-fetch.h"
#include "tw-tab-network.h"
#include "tw-tab-reading.h"
#include "tw-tab-pdf.h"
#include "tw-tab-storage.h"
#include "tw-tab-form.h"
#include "tw-tab-emulation.h"

/* Carrying out a command: navigations here, everything else by the module
 * that does it (the page runtime, the page tools, the actions, the logs). */

/* Commands */

static void
copy_member (JsonObject  *source,
             const char  *name,
             JsonNode    *node,
             gpointer     user_data)
{
  JsonObject *dest = user_data;

  if (!json_object_has_member (dest, name))
    json_object_set_member (dest, name, json_node_copy (node));
}

/* The result of a command another module carried out: it gains the tab's
 * browserId, in front. Takes @answer. */
void
_tw_browser_tab_complete_delegated (TwBrowserTab *self,
                                    GTask        *task,
                                    JsonObject   *answer)
{
  g_autoptr(JsonObject) owned = answer;
  TabCommand *cmd = g_task_get_task_data (task);
  JsonObject *reply;

  reply = json_object_new ();
  json_object_set_string_member (reply, "browserId", self->id);
  json_object_foreach_member (owned, copy_member, reply);

  /* An action that changed the page reports its title, which may not have
   * reached the UI process yet: ask the page, as navigations do. */
  if (tw_tab_actions_handles (cmd->command) && json_object_has_member (reply, "title"))
    {
      g_clear_pointer (&cmd->reply, json_object_unref);
      cmd->reply = reply;
      webkit_web_view_evaluate_javascript (self->view, "document.title", -1,
                                           TW_PAGE_RUNTIME_WORLD, NULL,
                                           g_task_get_cancellable (task),
                                           _tw_browser_tab_page_title_cb, g_object_ref (task));
      return;
    }

  _tw_browser_tab_finish_command (self, task, reply, NULL);
}

/* Completes commands that other modules carry out (the page runtime, the
 * page tools). */
void
_tw_browser_tab_delegated_command_cb (GObject      *object,
                                      GAsyncResult *result,
                                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);

  switch (cmd->command)
    {
    case TW_TAB_COMMAND_SNAPSHOT:
      answer = tw_page_runtime_snapshot_finish (TW_PAGE_RUNTIME (object), result, &error);
      break;

    case TW_TAB_COMMAND_SCREENSHOT:
      answer = tw_page_tools_screenshot_finish (WEBKIT_WEB_VIEW (object), result, &error);
      break;

    case TW_TAB_COMMAND_WAIT:
      answer = tw_page_tools_wait_finish (WEBKIT_WEB_VIEW (object), result, &error);
      break;

    case TW_TAB_COMMAND_RESIZE:
      answer = tw_page_tools_resize_finish (TW_VIEW_FRAME (object), result, &error);
      break;

    /* Debugging (issue 17). */
    case TW_TAB_COMMAND_CONSOLE:
      answer = tw_tab_console_run_finish (TW_TAB_LOG (object), result, &error);
      break;

    case TW_TAB_COMMAND_NETWORK:
      answer = tw_tab_network_run_finish (TW_TAB_LOG (object), result, &error);
      break;

    case TW_TAB_COMMAND_FETCH:
      answer = tw_tab_fetch_run_finish (WEBKIT_WEB_VIEW (object), result, &error);
      break;

    /* Reading (issue 17). */
    case TW_TAB_COMMAND_GET_TEXT:
    case TW_TAB_COMMAND_GET_HTML:
    case TW_TAB_COMMAND_READ:
    case TW_TAB_COMMAND_SET_CONTENT:
    case TW_TAB_COMMAND_GET_STYLES:
      answer = tw_tab_reading_run_finish (TW_PAGE_RUNTIME (object), result, &error);
      break;

    /* The page's environment (issue 18). */
    case TW_TAB_COMMAND_STORAGE:
      answer = tw_tab_storage_web_finish (result, &error);
      break;

    case TW_TAB_COMMAND_PDF:
      answer = tw_tab_pdf_finish (result, &error);
      break;

    /* Forms, coordinates and emulation (issue 18). */
    case TW_TAB_COMMAND_FILL_FORM:
      answer = tw_tab_form_fill_finish (result, &error);
      break;

    case TW_TAB_COMMAND_EMULATE:
      answer = tw_tab_emulation_apply_finish (WEBKIT_WEB_VIEW (object), result, &error);
      break;

    default:
      g_assert (tw_tab_actions_handles (cmd->command));
      answer = tw_tab_actions_run_finish (WEBKIT_WEB_VIEW (object), result, &error);
      break;
    }

  /* The command may have timed out, crashed or been cancelled meanwhile. */
  if (cmd->finished)
    return;

  if (answer == NULL)
    {
      _tw_browser_tab_finish_command (self, task, NULL, g_steal_pointer (&error));
      return;
    }

  /* Where the element ended up, for the overlay, before the agent hears
   * back: the action may have scrolled it into view. */
  if (_tw_browser_tab_action_needs_refresh (cmd))
    _tw_browser_tab_refresh_action (self, task, g_steal_pointer (&answer));
  else
    _tw_browser_tab_complete_delegated (self, task, g_steal_pointer (&answer));
}

void
_tw_browser_tab_dispatch_command (TwBrowserTab *self,
                                  GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);
  GError *error = NULL;

  g_clear_pointer (&self->deferred_uri, g_free);

  switch (cmd->command)
    {
    case TW_TAB_COMMAND_NAVIGATE:
      {
        const char *url = tw_json_get_string (cmd->params, "url", NULL);

        if (url == NULL)
          {
            _tw_browser_tab_finish_command (self, task, NULL,
                                            g_error_new_literal (TW_BROWSER_ERROR,
                                                                 TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                                                 "url must be a string"));
            return;
          }

        if (!tw_address_check_url (url, &error))
          {
            _tw_browser_tab_finish_command (self, task, NULL, error);
            return;
          }

        _tw_browser_tab_begin_wait (self, cmd);
        webkit_web_view_load_uri (self->view, url);
        _tw_browser_tab_schedule_settle (self, cmd, NOTHING_HAPPENED_DELAY_MS);
      }
      break;

    case TW_TAB_COMMAND_BACK:
      if (!webkit_web_view_can_go_back (self->view))
        {
          _tw_browser_tab_finish_command (self, task, NULL,
                                          g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                                               "no page to go back to"));
          return;
        }

      _tw_browser_tab_begin_wait (self, cmd);
      webkit_web_view_go_back (self->view);
      _tw_browser_tab_schedule_settle (self, cmd, NOTHING_HAPPENED_DELAY_MS);
      break;

    case TW_TAB_COMMAND_FORWARD:
      if (!webkit_web_view_can_go_forward (self->view))
        {
          _tw_browser_tab_finish_command (self, task, NULL,
                                          g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                                               "no page to go forward to"));
          return;
        }

      _tw_browser_tab_begin_wait (self, cmd);
      webkit_web_view_go_forward (self->view);
      _tw_browser_tab_schedule_settle (self, cmd, NOTHING_HAPPENED_DELAY_MS);
      break;

    case TW_TAB_COMMAND_RELOAD:
      _tw_browser_tab_begin_wait (self, cmd);
      webkit_web_view_reload (self->view);
      _tw_browser_tab_schedule_settle (self, cmd, NOTHING_HAPPENED_DELAY_MS);
      break;

    case TW_TAB_COMMAND_SNAPSHOT:
      tw_page_runtime_snapshot_async (self->runtime, cmd->params,
                                      g_task_get_cancellable (task),
                                      _tw_browser_tab_delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_SCREENSHOT:
      tw_page_tools_screenshot_async (self->view, self->runtime, cmd->params, self->workspace_dir,
                                      g_task_get_cancellable (task),
                                      _tw_browser_tab_delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_WAIT:
      tw_page_tools_wait_async (self->view, self->runtime, self->log, cmd->params,
                                g_task_get_cancellable (task),
                                _tw_browser_tab_delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_RESIZE:
      tw_page_tools_resize_async (self->frame, self->runtime, cmd->params,
                                  g_task_get_cancellable (task),
                                  _tw_browser_tab_delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_HANDOFF:
      {
        gint64 timeout_ms = json_object_get_int_member_with_default (cmd->params, "timeoutMs",
                                                                     30000);

        /* The agent waits as long as it said it would, and no longer. */
        g_clear_handle_id (&cmd->timeout_source, g_source_remove);
        cmd->timeout_source = g_timeout_add ((guint) CLAMP (timeout_ms, 1, G_MAXINT),
                                             _tw_browser_tab_handoff_timeout_cb, task);
        _tw_browser_tab_set_handoff (self, task, tw_json_get_string (cmd->params, "message", NULL),
                                     cmd->agent_name != NULL ? cmd->agent_name : "An agent");
      }
      break;

    case TW_TAB_COMMAND_LOGS:
      {
        g_autoptr(JsonObject) answer = tw_page_tools_logs (self->log, cmd->params, &error);
        JsonObject *reply;

        if (answer == NULL)
          {
            _tw_browser_tab_finish_command (self, task, NULL, error);
            return;
          }

        reply = json_object_new ();
        json_object_set_string_member (reply, "browserId", self->id);
        json_object_foreach_member (answer, copy_member, reply);
        _tw_browser_tab_finish_command (self, task, reply, NULL);
      }
      break;

    /* Debugging (issue 17). */
    case TW_TAB_COMMAND_CONSOLE:
      tw_tab_console_run_async (self->log, cmd->params, g_task_get_cancellable (task),
                                _tw_browser_tab_delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_FETCH:
      tw_tab_fetch_run_async (self->view, cmd->params, g_task_get_cancellable (task),
                              _tw_browser_tab_delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_NETWORK:
      tw_tab_network_run_async (self->log, self->view, self->workspace_dir, cmd->params,
                                g_task_get_cancellable (task),
                                _tw_browser_tab_delegated_command_cb, g_object_ref (task));
      break;

    /* Reading (issue 17). */
    case TW_TAB_COMMAND_GET_TEXT:
    case TW_TAB_COMMAND_GET_HTML:
    case TW_TAB_COMMAND_READ:
    case TW_TAB_COMMAND_SET_CONTENT:
    case TW_TAB_COMMAND_GET_STYLES:
      tw_tab_reading_run_async (self->runtime, cmd->command, cmd->params,
                                g_task_get_cancellable (task),
                                _tw_browser_tab_delegated_command_cb, g_object_ref (task));
      break;

    /* The page's environment (issue 18). */
    case TW_TAB_COMMAND_HANDLE_DIALOG:
      {
        JsonObject *reply = json_object_new ();
        const char *text = tw_json_get_string (cmd->params, "promptText", NULL);

        self->dialog_answer_set = TRUE;
        self->dialog_accept = json_object_get_boolean_member_with_default (cmd->params, "accept",
                                                                           FALSE);
        g_free (self->dialog_prompt_text);
        self->dialog_prompt_text = g_strdup (text);

        json_object_set_string_member (reply, "browserId", self->id);
        json_object_set_boolean_member (reply, "accept", self->dialog_accept);
        if (text != NULL)
          json_object_set_string_member (reply, "promptText", text);
        _tw_browser_tab_finish_command (self, task, reply, NULL);
      }
      break;

    case TW_TAB_COMMAND_STORAGE:
      tw_tab_storage_web_async (self->view, cmd->params, g_task_get_cancellable (task),
                                _tw_browser_tab_delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_PDF:
      tw_tab_pdf_async (self->view, cmd->params, self->workspace_dir,
                        g_task_get_cancellable (task), _tw_browser_tab_delegated_command_cb, g_object_ref (task));
      break;

    /* Forms, coordinates and emulation (issue 18). */
    case TW_TAB_COMMAND_FILL_FORM:
      {
        TwTabActionsOptions options = {
          .workspace_dir = self->workspace_dir,
          .navigation_timeout_ms = self->command_timeout_ms,
        };

        tw_tab_form_fill_async (self->view, self->runtime, cmd->params, &options,
                                g_task_get_cancellable (task), _tw_browser_tab_delegated_command_cb,
                                g_object_ref (task));
      }
      break;

    case TW_TAB_COMMAND_EMULATE:
      tw_tab_emulation_apply_async (self->frame, self->runtime, cmd->params,
                                    g_task_get_cancellable (task), _tw_browser_tab_delegated_command_cb,
                                    g_object_ref (task));
      break;

    /* Closing waits its turn behind the commands queued before it, and ends
     * those queued after it: the browser closes the tab once it is told. */
    case TW_TAB_COMMAND_CLOSE_TAB:
      {
        JsonObject *reply = json_object_new ();

        json_object_set_string_member (reply, "browserId", self->id);
        json_object_set_boolean_member (reply, "closed", TRUE);
        _tw_browser_tab_finish_command (self, task, reply, NULL);
        g_signal_emit (self, _tw_browser_tab_signals[CLOSE_REQUESTED], 0);
      }
      break;

    case TW_TAB_COMMAND_LIST_TABS:
    case TW_TAB_COMMAND_NEW_TAB:
    case TW_TAB_COMMAND_COOKIES:
    case TW_TAB_COMMAND_STORAGE_STATE:
    case TW_TAB_COMMAND_DOWNLOADS:
    case TW_TAB_COMMAND_FIND_IN_TABS:
    case TW_TAB_COMMAND_LAST:
      _tw_browser_tab_finish_command (self, task, NULL,
                                      g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                                   "%s is not a command of a tab",
                                                   tw_tab_command_to_string (cmd->command)));
      break;

    default:
      if (tw_tab_actions_handles (cmd->command))
        {
          _tw_browser_tab_begin_action (self, task);
          break;
        }

      _tw_browser_tab_finish_command (self, task, NULL,
                                      g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                                   "the %s command is not available in this version of "
                                                   "Tabwright", tw_tab_command_to_string (cmd->command)));
      break;
    }
}
