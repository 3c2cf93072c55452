/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

#include "tw-address.h"
#include "tw-error.h"
#include "tw-json.h"
#include "tw-page-runtime-jobs.h"
#include "tw-page-tools.h"
#include "tw-tab-actions.h"
#include "tw-tab-console.h"
#include "tw-tab-fetch.h"
#include "tw-tab-job.h"
#include "tw-tab-network.h"
#include "tw-tab-reading.h"
#include "tw-tab-pdf.h"
#include "tw-tab-storage.h"
#include "tw-tab-form.h"
#include "tw-tab-emulation.h"
#include "tw-tab-routes.h"

/* Carrying out a command: navigations here, everything else by the module
 * that does it (the page runtime, the page tools, the actions, the logs). */

/* Commands */

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
  tw_json_merge (reply, owned);

  /* An action reports the title its page has now (tw-tab-actions.h),
   * which may not have reached the UI process yet. */
  if (tw_tab_actions_handles (cmd->command) &&
      json_object_get_string_member_with_default (reply, "title", NULL) != NULL)
    _tw_browser_tab_set_title (self, json_object_get_string_member (reply, "title"));

  _tw_browser_tab_finish_command (self, task, reply, NULL);
}

/* Each command of a tab is one row: how it starts, or the module that
 * carries it out, and how long it may take. */
typedef struct
{
  /* The commands the tab starts itself. */
  void             (*start)(TwBrowserTab *self,
                            GTask        *task,
                            TabCommand   *cmd);
  /* Or the module that carries the command out as a job
   * (tw-tab-job.h), answering in _tw_browser_tab_delegated_command_cb(). */
  TwTabJobRun        run;
  /* The time limit: the tab's own limit plus @extra_ms, and at least
   * @min_ms. Commands that bound each of their steps themselves get room
   * for those; the tab's limit only catches one that hangs. */
  guint              extra_ms;
  guint              min_ms;
  /* What a command that runs out of time did not do ("finish loading"). */
  const char        *verb;
  /* Reads or acts on the page: after a navigation it waits until the page
   * has settled (tw-browser-tab-queue.c). */
  gboolean           reads_page;
} TabCommandRow;

/* Navigations: the load watcher (tw-browser-tab-load.c) finishes them. */

static void
start_navigate (TwBrowserTab *self,
                GTask        *task,
                TabCommand   *cmd)
{
  const char *url = tw_json_get_string (cmd->params, "url", NULL);
  GError *error = NULL;

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

  _tw_browser_tab_watch_load (self, task);
  webkit_web_view_load_uri (self->view, url);
  _tw_browser_tab_wait_load (self, task);
}

static void
start_back (TwBrowserTab *self,
            GTask        *task,
            TabCommand   *cmd)
{
  if (!webkit_web_view_can_go_back (self->view))
    {
      _tw_browser_tab_finish_command (self, task, NULL,
                                      g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                                           "no page to go back to"));
      return;
    }

  _tw_browser_tab_watch_load (self, task);
  webkit_web_view_go_back (self->view);
  _tw_browser_tab_wait_load (self, task);
}

static void
start_forward (TwBrowserTab *self,
               GTask        *task,
               TabCommand   *cmd)
{
  if (!webkit_web_view_can_go_forward (self->view))
    {
      _tw_browser_tab_finish_command (self, task, NULL,
                                      g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                                           "no page to go forward to"));
      return;
    }

  _tw_browser_tab_watch_load (self, task);
  webkit_web_view_go_forward (self->view);
  _tw_browser_tab_wait_load (self, task);
}

static void
start_reload (TwBrowserTab *self,
              GTask        *task,
              TabCommand   *cmd)
{
  _tw_browser_tab_watch_load (self, task);
  /* browser_performance measures a fresh load: nothing from the cache. */
  if (cmd->params != NULL && tw_json_get_boolean (cmd->params, "bypassCache", FALSE))
    webkit_web_view_reload_bypass_cache (self->view);
  else
    webkit_web_view_reload (self->view);
  _tw_browser_tab_wait_load (self, task);
}

/* Commands the tab answers itself. */

static void
start_logs (TwBrowserTab *self,
            GTask        *task,
            TabCommand   *cmd)
{
  GError *error = NULL;
  JsonObject *answer = tw_page_tools_logs (self->log, cmd->params, &error);

  if (answer == NULL)
    _tw_browser_tab_finish_command (self, task, NULL, error);
  else
    _tw_browser_tab_complete_delegated (self, task, answer);
}

static void
start_handle_dialog (TwBrowserTab *self,
                     GTask        *task,
                     TabCommand   *cmd)
{
  JsonObject *reply = json_object_new ();
  const char *text = tw_json_get_string (cmd->params, "promptText", NULL);

  self->dialog_answer_set = TRUE;
  self->dialog_accept = json_object_get_boolean_member_with_default (cmd->params, "accept", FALSE);
  g_free (self->dialog_prompt_text);
  self->dialog_prompt_text = g_strdup (text);

  json_object_set_string_member (reply, "browserId", self->id);
  json_object_set_boolean_member (reply, "accept", self->dialog_accept);
  if (text != NULL)
    json_object_set_string_member (reply, "promptText", text);
  _tw_browser_tab_finish_command (self, task, reply, NULL);
}

/* Closing waits its turn behind the commands queued before it, and ends
 * those queued after it: the browser closes the tab once it is told. */
static void
start_close (TwBrowserTab *self,
             GTask        *task,
             TabCommand   *cmd)
{
  JsonObject *reply = json_object_new ();

  json_object_set_string_member (reply, "browserId", self->id);
  json_object_set_boolean_member (reply, "closed", TRUE);
  _tw_browser_tab_finish_command (self, task, reply, NULL);
  g_signal_emit (self, _tw_browser_tab_signals[CLOSE_REQUESTED], 0);
}

/* Interactions: the overlay is told first (tw-browser-tab-actions.c), then
 * tw-tab-actions.c carries them out. */

static void
start_action (TwBrowserTab *self,
              GTask        *task,
              TabCommand   *cmd)
{
  _tw_browser_tab_begin_action (self, task);
}

/* A form is up to TW_TAB_FORM_MAX_FIELDS actions, each bounded by itself. */
#define FORM_EXTRA_MS \
  (TW_TAB_FORM_MAX_FIELDS * (TW_TAB_ACTIONS_DEFAULT_ACTIONABLE_MS + \
                             TW_TAB_ACTIONS_DEFAULT_SETTLE_MS + 1000))
#define ACTION_ROW \
  { start_action, NULL, \
    TW_TAB_ACTIONS_DEFAULT_ACTIONABLE_MS + TW_TAB_ACTIONS_DEFAULT_SETTLE_MS + 5000, \
    TW_TAB_ACTIONS_DEFAULT_SCRIPT_MS + 5000, NULL, TRUE }
#define READING_ROW { NULL, tw_tab_reading_run, 0, 0, NULL, TRUE }

static const TabCommandRow command_rows[TW_TAB_COMMAND_LAST] = {
  [TW_TAB_COMMAND_CLOSE_TAB]     = { start_close, NULL, 0, 0, NULL },
  [TW_TAB_COMMAND_NAVIGATE]      = { start_navigate, NULL, 0, 0, "finish loading" },
  [TW_TAB_COMMAND_BACK]          = { start_back, NULL, 0, 0, "finish loading" },
  [TW_TAB_COMMAND_FORWARD]       = { start_forward, NULL, 0, 0, "finish loading" },
  [TW_TAB_COMMAND_RELOAD]        = { start_reload, NULL, 0, 0, "finish loading" },
  [TW_TAB_COMMAND_SNAPSHOT]      = { NULL, tw_page_runtime_snapshot_run, 0, 0, NULL, TRUE },
  [TW_TAB_COMMAND_SCREENSHOT]    = { NULL, tw_page_tools_screenshot_run, 0, 0, NULL, TRUE },
  [TW_TAB_COMMAND_LOGS]          = { start_logs, NULL, 0, 0, NULL },
  [TW_TAB_COMMAND_WAIT]          = { NULL, tw_page_tools_wait_run, TW_PAGE_TOOLS_WAIT_MAX_TIMEOUT_MS, 0, NULL, TRUE },
  [TW_TAB_COMMAND_RESIZE]        = { NULL, tw_page_tools_resize_run, 0, 0, NULL },
  [TW_TAB_COMMAND_CLICK]         = ACTION_ROW,
  [TW_TAB_COMMAND_FILL]          = ACTION_ROW,
  [TW_TAB_COMMAND_TYPE]          = ACTION_ROW,
  [TW_TAB_COMMAND_KEYPRESS]      = ACTION_ROW,
  [TW_TAB_COMMAND_HOVER]         = ACTION_ROW,
  [TW_TAB_COMMAND_SELECT]        = ACTION_ROW,
  [TW_TAB_COMMAND_DRAG]          = ACTION_ROW,
  [TW_TAB_COMMAND_UPLOAD]        = ACTION_ROW,
  [TW_TAB_COMMAND_SCROLL]        = ACTION_ROW,
  [TW_TAB_COMMAND_EVALUATE]      = ACTION_ROW,
  [TW_TAB_COMMAND_HANDOFF]       = { _tw_browser_tab_start_handoff, NULL, 0, 0, NULL },
  [TW_TAB_COMMAND_CONSOLE]       = { NULL, tw_tab_console_run, TW_TAB_CONSOLE_MAX_TIMEOUT_MS, 0, NULL, TRUE },
  /* The HTTP session gives up after 30 s. */
  [TW_TAB_COMMAND_FETCH]         = { NULL, tw_tab_fetch_run, 35000, 0, NULL },
  [TW_TAB_COMMAND_NETWORK]       = { NULL, tw_tab_network_run, 0, 0, NULL },
  [TW_TAB_COMMAND_GET_TEXT]      = READING_ROW,
  [TW_TAB_COMMAND_GET_HTML]      = READING_ROW,
  [TW_TAB_COMMAND_READ]          = READING_ROW,
  [TW_TAB_COMMAND_SET_CONTENT]   = READING_ROW,
  [TW_TAB_COMMAND_GET_STYLES]    = READING_ROW,
  [TW_TAB_COMMAND_STORAGE]       = { NULL, tw_tab_storage_web_run, 0, 0, NULL, TRUE },
  [TW_TAB_COMMAND_HANDLE_DIALOG] = { start_handle_dialog, NULL, 0, 0, NULL },
  [TW_TAB_COMMAND_PDF]           = { NULL, tw_tab_pdf_run, 0, 0, NULL, TRUE },
  [TW_TAB_COMMAND_FILL_FORM]     = { NULL, tw_tab_form_fill_run, FORM_EXTRA_MS, 0, NULL, TRUE },
  [TW_TAB_COMMAND_EMULATE]       = { NULL, tw_tab_emulation_apply_run, 0, 0, NULL },
  [TW_TAB_COMMAND_MOUSE]         = ACTION_ROW,
  [TW_TAB_COMMAND_ROUTE]         = { NULL, tw_tab_routes_apply_run, 0, 0, NULL },
  [TW_TAB_COMMAND_PERFORMANCE]   = { NULL, tw_page_runtime_performance_run, 0, 0, NULL, TRUE },
  [TW_TAB_COMMAND_ANNOTATE]      = { _tw_browser_tab_start_annotate, NULL, 0, 0, NULL },
};

/* The row of @command; NULL for the commands of the workspace (list, new
 * tab, cookies, ...), which no tab runs. */
static const TabCommandRow *
command_row (TwTabCommand command)
{
  if (command >= TW_TAB_COMMAND_LAST ||
      (command_rows[command].start == NULL && command_rows[command].run == NULL))
    return NULL;

  return &command_rows[command];
}

guint
_tw_browser_tab_command_time_limit (TwBrowserTab *self,
                                    TwTabCommand  command)
{
  const TabCommandRow *row = command_row (command);

  if (row == NULL)
    return self->command_timeout_ms;

  return MAX (row->min_ms, self->command_timeout_ms + row->extra_ms);
}

gboolean
_tw_browser_tab_command_reads_page (TwTabCommand command)
{
  const TabCommandRow *row = command_row (command);

  return row != NULL && row->reads_page;
}

const char *
_tw_browser_tab_command_verb (TwTabCommand command)
{
  const TabCommandRow *row = command_row (command);

  return row != NULL && row->verb != NULL ? row->verb : "answer";
}

/* Completes commands that other modules carry out (the page runtime, the
 * page tools, the logs, the actions): @result is the task the module
 * answered, with a JsonObject. */
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

  answer = g_task_propagate_pointer (G_TASK (result), &error);

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

/* Has @run carry out @cmd as a job, answering in a task of its own. */
static void
run_job (TwBrowserTab *self,
         GTask        *task,
         TabCommand   *cmd,
         TwTabJobRun   run)
{
  g_autoptr(GTask) job_task = NULL;
  const TwTabJob job = {
    .view = self->view,
    .frame = self->frame,
    .runtime = self->runtime,
    .log = self->log,
    .workspace_dir = self->workspace_dir,
    .command = cmd->command,
    .params = cmd->params,
    .deadline_us = cmd->deadline_us,
  };

  job_task = g_task_new (self, g_task_get_cancellable (task),
                         _tw_browser_tab_delegated_command_cb, g_object_ref (task));
  g_task_set_source_tag (job_task, run_job);
  run (&job, job_task);
}

void
_tw_browser_tab_dispatch_command (TwBrowserTab *self,
                                  GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);
  const TabCommandRow *row = command_row (cmd->command);

  g_clear_pointer (&self->deferred_uri, g_free);

  if (row == NULL)
    {
      _tw_browser_tab_finish_command (self, task, NULL,
                                      g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                                   "%s is not a command of a tab",
                                                   tw_tab_command_to_string (cmd->command)));
      return;
    }

  if (row->run != NULL)
    run_job (self, task, cmd, row->run);
  else
    row->start (self, task, cmd);
}
