/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab.h"
#include "tw-browser-tab-private.h"

#include "tw-address.h"
#include "tw-cancellable.h"
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
#include "tw-web-context.h"

/* How many answered dialogs a tab remembers. Commands only ever ask for the
 * ones opened while they ran, so a handful is plenty. */
#define MAX_DIALOGS 64

/* After a history step or a load that never reported a start, wait this
 * long for WebKit to say more before concluding that the navigation stayed
 * inside the document (pushState, fragments) or did not happen at all. */
#define SETTLE_DELAY_MS 50
#define NOTHING_HAPPENED_DELAY_MS 300

struct _TwBrowserTab
{
  GObject         parent_instance;

  char           *id;
  WebKitWebView  *view;
  TwPageRuntime  *runtime;
  TwViewFrame    *frame;
  TwTabLog       *log;
  char           *workspace_dir;
  char           *owner_id;
  char           *owner;
  char           *title;
  char           *load_error;
  char           *load_error_uri;

  /* A tab restored from the last session keeps the address it had, and
   * loads it only when it is first used (tw_browser_tab_wake()). */
  char           *deferred_uri;
  /* Set from tw_browser_tab_wake() until that page has loaded or failed:
   * the tab counts as loading, and a command waits for the page. */
  gboolean        wake_loading;

  /* TabDialog, oldest first; n_dialogs counts every dialog ever answered so
   * a command can tell which ones opened while it ran. */
  GQueue          dialogs;
  guint64         n_dialogs;
  /* Dialogs with a lower serial were reported in a result. A dialog that
   * opened between calls (a timer, a network callback) or during a call
   * that failed goes into the result of the next call that succeeds. */
  guint64         n_reported_dialogs;

  /* GTask of commands waiting their turn, and the one running now. */
  GQueue          pending;
  GTask          *active;
  guint           next_source;
  guint           command_timeout_ms;

  /* browser_handoff: the command waiting for the person, and what it
   * asks of them. */
  GTask          *handoff_task;
  char           *handoff_message;
  char           *handoff_agent;

  /* browser_handle_dialog: how the next dialog is answered, when an agent
   * said so; every other dialog gets the default answer. */
  gboolean        dialog_answer_set;
  gboolean        dialog_accept;
  char           *dialog_prompt_text;

  guint           can_go_back : 1;
  guint           can_go_forward : 1;
  guint           crashed : 1;
  guint           closed : 1;
  guint           paused : 1;
  guint           busy : 1;
  guint           unresponsive : 1;  /* its web process does not answer */
  guint           ending_stuck : 1;  /* ending that process, not a crash */
};

typedef struct
{
  guint64       serial;
  TwDialogType  type;
  char         *message;
  char         *prompt_text;  /* what an accepted prompt answered */
  gboolean      accepted;
} TabDialog;

typedef struct
{
  TwTabCommand  command;
  JsonObject   *params;
  guint64       first_dialog;
  GPtrArray    *new_tabs;         /* ids of tabs the page opened meanwhile */
  JsonObject   *reply;            /* a result waiting for the page's title */
  char         *agent_name;       /* who issued it, for what the tab shows */
  guint64       call_id;
  JsonObject   *action;           /* what the overlay is told, for actions */
  GSource      *cancel_watch;
  guint         timeout_source;
  guint         settle_source;
  guint         waiting : 1;      /* waiting for a navigation to end */
  guint         waking : 1;       /* loading a restored tab's page first */
  guint         started : 1;      /* WebKit reported the load's start */
  guint         finished : 1;
  guint         alive_checked : 1; /* reload/navigate: the page answered, or was ended */
} TabCommand;

enum {
  PROP_0,
  PROP_ID,
  PROP_URI,
  PROP_TITLE,
  PROP_LOADING,
  PROP_PROGRESS,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  PROP_OWNER,
  PROP_OWNER_ID,
  PROP_CRASHED,
  PROP_UNRESPONSIVE,
  PROP_LOAD_ERROR,
  PROP_PAUSED,
  PROP_BUSY,
  PROP_HANDOFF_MESSAGE,
  N_PROPS
};

enum {
  SCRIPT_DIALOG,
  CLOSE_REQUESTED,
  NEW_TAB,
  ACTION_STARTED,
  ACTION_UPDATED,
  ACTION_FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Ids are never reused while the process runs, so an agent holding the id of
 * a closed tab gets browser_not_found instead of someone else's tab. */
static guint next_tab_number = 1;

G_DEFINE_FINAL_TYPE (TwBrowserTab, tw_browser_tab, G_TYPE_OBJECT)

static void start_next_command (TwBrowserTab *self);
static void dispatch_command   (TwBrowserTab *self,
                                GTask        *task);

static void
tab_dialog_free (TabDialog *dialog)
{
  g_free (dialog->message);
  g_free (dialog->prompt_text);
  g_free (dialog);
}

static void
tab_command_free (TabCommand *cmd)
{
  g_assert (cmd->timeout_source == 0);
  g_assert (cmd->settle_source == 0);
  g_assert (cmd->cancel_watch == NULL);

  g_clear_pointer (&cmd->params, json_object_unref);
  g_clear_pointer (&cmd->new_tabs, g_ptr_array_unref);
  g_clear_pointer (&cmd->reply, json_object_unref);
  g_clear_pointer (&cmd->action, json_object_unref);
  g_free (cmd->agent_name);
  g_free (cmd);
}

const char *
tw_dialog_type_to_string (TwDialogType type)
{
  switch (type)
    {
    case TW_DIALOG_ALERT:
      return "alert";
    case TW_DIALOG_CONFIRM:
      return "confirm";
    case TW_DIALOG_PROMPT:
      return "prompt";
    case TW_DIALOG_BEFOREUNLOAD:
      return "beforeunload";
    default:
      g_return_val_if_reached ("alert");
    }
}

static const char *
command_verb (TwTabCommand command)
{
  switch (command)
    {
    case TW_TAB_COMMAND_NAVIGATE:
    case TW_TAB_COMMAND_BACK:
    case TW_TAB_COMMAND_FORWARD:
    case TW_TAB_COMMAND_RELOAD:
      return "finish loading";

    default:
      return "answer";
    }
}

/* browser_wait and the interactions bound each of their steps themselves
 * and say which step ran out of time; the tab's own limit on them only
 * catches one that hangs. */
static guint
command_time_limit (TwBrowserTab *self,
                    TwTabCommand  command)
{
  if (command == TW_TAB_COMMAND_WAIT)
    return self->command_timeout_ms + TW_PAGE_TOOLS_WAIT_MAX_TIMEOUT_MS;
  if (command == TW_TAB_COMMAND_CONSOLE)
    return self->command_timeout_ms + TW_TAB_CONSOLE_MAX_TIMEOUT_MS;
  /* The HTTP session gives up after 30 s. */
  if (command == TW_TAB_COMMAND_FETCH)
    return self->command_timeout_ms + 35000;

  /* Forms, coordinates and emulation (issue 18): a form is up to
   * TW_TAB_FORM_MAX_FIELDS actions, each bounded by itself. */
  if (command == TW_TAB_COMMAND_FILL_FORM)
    return TW_TAB_FORM_MAX_FIELDS * (TW_TAB_ACTIONS_DEFAULT_ACTIONABLE_MS +
                                     TW_TAB_ACTIONS_DEFAULT_SETTLE_MS + 1000) +
           self->command_timeout_ms;

  if (tw_tab_actions_handles (command))
    return MAX (TW_TAB_ACTIONS_DEFAULT_SCRIPT_MS,
                TW_TAB_ACTIONS_DEFAULT_ACTIONABLE_MS + self->command_timeout_ms +
                TW_TAB_ACTIONS_DEFAULT_SETTLE_MS) + 5000;

  return self->command_timeout_ms;
}

/* Results and errors */

static void
add_dialogs (TwBrowserTab *self,
             JsonObject   *result,
             guint64       first_dialog)
{
  g_autoptr(JsonArray) array = json_array_new ();
  const TabDialog *previous = NULL;
  JsonObject *object = NULL;
  gint64 count = 0;

  /* A page that opens the same dialog over and over (an alert in a loop)
   * gets one entry with how many times it opened. */
  for (const GList *l = self->dialogs.head; l != NULL; l = l->next)
    {
      const TabDialog *dialog = l->data;

      if (dialog->serial < first_dialog)
        continue;

      if (previous != NULL && previous->type == dialog->type &&
          previous->accepted == dialog->accepted &&
          g_strcmp0 (previous->message, dialog->message) == 0 &&
          g_strcmp0 (previous->prompt_text, dialog->prompt_text) == 0)
        {
          json_object_set_int_member (object, "count", ++count);
          continue;
        }

      object = json_object_new ();
      json_object_set_string_member (object, "type", tw_dialog_type_to_string (dialog->type));
      json_object_set_string_member (object, "message", dialog->message);
      json_object_set_boolean_member (object, "accepted", dialog->accepted);
      if (dialog->prompt_text != NULL)
        json_object_set_string_member (object, "promptText", dialog->prompt_text);
      json_array_add_object_element (array, object);
      previous = dialog;
      count = 1;
    }

  if (json_array_get_length (array) > 0)
    json_object_set_array_member (result, "dialogs", g_steal_pointer (&array));
}

static guint
main_resource_status (TwBrowserTab *self)
{
  WebKitWebResource *resource = webkit_web_view_get_main_resource (self->view);
  WebKitURIResponse *response;

  if (resource == NULL)
    return 0;

  response = webkit_web_resource_get_response (resource);
  if (response == NULL)
    return 0;

  return webkit_uri_response_get_status_code (response);
}

static JsonObject *
build_page_result (TwBrowserTab *self,
                   const char   *title)
{
  JsonObject *result = json_object_new ();
  guint status = main_resource_status (self);

  json_object_set_string_member (result, "browserId", self->id);
  json_object_set_string_member (result, "url", tw_browser_tab_get_uri (self));
  json_object_set_string_member (result, "title", title ? title : tw_browser_tab_get_title (self));
  if (status > 0)
    json_object_set_int_member (result, "status", status);

  return result;
}

static GError *
crashed_error (TwBrowserTab *self)
{
  return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED,
                      "the web process of tab %s crashed; call browser_reload or browser_navigate to recover it",
                      self->id);
}

/* WebKit reports load failures in several domains; tools speak only in
 * browser error codes, so this is the one place that translates them. */
static GError *
load_error_to_browser_error (TwBrowserTab *self,
                             const char   *uri,
                             const GError *error)
{
  /* The content filter of browser_emulate's offline blocks it. */
  if (error->domain == WEBKIT_POLICY_ERROR && tw_tab_emulation_is_offline (self->view))
    return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NAVIGATION_FAILED,
                        "could not load %s: tab %s is offline (browser_emulate offline: false brings "
                        "it back)", uri, self->id);

  if (g_error_matches (error, WEBKIT_POLICY_ERROR,
                       WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE) ||
      g_error_matches (error, WEBKIT_POLICY_ERROR,
                       WEBKIT_POLICY_ERROR_CANNOT_SHOW_MIME_TYPE))
    return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                        "%s is a download, not a page; tabs do not save downloads", uri);

  if (error->domain == WEBKIT_POLICY_ERROR)
    return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                        "%s was blocked: %s", uri, error->message);

  if (g_error_matches (error, WEBKIT_NETWORK_ERROR, WEBKIT_NETWORK_ERROR_UNKNOWN_PROTOCOL))
    return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                        "%s uses a scheme tabs cannot open", uri);

  /* Refused connections, unknown hosts, resets: the server may simply not
   * be up yet, so the code says it is worth retrying. */
  return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NAVIGATION_FAILED,
                      "could not load %s: %s", uri, error->message);
}

static void
set_title (TwBrowserTab *self,
           const char   *title)
{
  if (title == NULL)
    title = "";

  if (g_strcmp0 (self->title, title) == 0)
    return;

  g_free (self->title);
  self->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

static void
set_load_error (TwBrowserTab *self,
                const char   *uri,
                const char   *message)
{
  if (g_strcmp0 (self->load_error, message) == 0 && g_strcmp0 (self->load_error_uri, uri) == 0)
    return;

  g_free (self->load_error);
  g_free (self->load_error_uri);
  self->load_error = g_strdup (message);
  self->load_error_uri = g_strdup (uri);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOAD_ERROR]);
}

/* The command queue */

static TabCommand *
active_waiting_command (TwBrowserTab *self)
{
  TabCommand *cmd;

  if (self->active == NULL)
    return NULL;

  cmd = g_task_get_task_data (self->active);
  if (cmd->finished || !cmd->waiting)
    return NULL;

  return cmd;
}

static gboolean
start_next_command_cb (gpointer user_data)
{
  TwBrowserTab *self = user_data;

  self->next_source = 0;
  start_next_command (self);

  return G_SOURCE_REMOVE;
}

static void
update_busy (TwBrowserTab *self)
{
  gboolean busy = self->active != NULL || !g_queue_is_empty (&self->pending);

  if (busy == self->busy)
    return;

  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
set_handoff (TwBrowserTab *self,
             GTask        *task,
             const char   *message,
             const char   *agent)
{
  self->handoff_task = task;
  g_free (self->handoff_agent);
  self->handoff_agent = g_strdup (agent);

  if (g_strcmp0 (self->handoff_message, message) != 0)
    {
      g_free (self->handoff_message);
      self->handoff_message = g_strdup (message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HANDOFF_MESSAGE]);
    }
}

static void
schedule_next_command (TwBrowserTab *self)
{
  if (self->active != NULL || g_queue_is_empty (&self->pending) || self->next_source != 0)
    return;

  /* From an idle, so that a command never starts inside a WebKit signal
   * emission of the one that just ended. */
  self->next_source = g_idle_add_full (G_PRIORITY_DEFAULT, start_next_command_cb,
                                       g_object_ref (self), g_object_unref);
}

/* Completes @task with @result or @error (both owned). Each command
 * completes exactly once; late events for a finished one are ignored. */
static GError *explain_if_stuck (TwBrowserTab *self,
                                 GError       *error);
static void    set_unresponsive (TwBrowserTab *self,
                                 gboolean      unresponsive);

static void
finish_command (TwBrowserTab *self,
                GTask        *task,
                JsonObject   *result,
                GError       *error)
{
  TabCommand *cmd = g_task_get_task_data (task);

  g_assert (!cmd->finished);
  g_assert ((result == NULL) != (error == NULL));

  error = explain_if_stuck (self, error);
  cmd->finished = TRUE;
  cmd->waiting = FALSE;
  g_clear_handle_id (&cmd->timeout_source, g_source_remove);
  g_clear_handle_id (&cmd->settle_source, g_source_remove);
  g_clear_pointer (&cmd->cancel_watch, tw_cancellable_unwatch);

  if (self->active == task)
    self->active = NULL;
  else
    g_queue_remove (&self->pending, task);

  if (self->handoff_task == task)
    set_handoff (self, NULL, NULL, NULL);

  /* The overlay lets go of the element, saying how it went. */
  if (cmd->action != NULL)
    {
      json_object_set_boolean_member (cmd->action, "ok", error == NULL);
      if (error != NULL)
        json_object_set_string_member (cmd->action, "errorCode",
                                       tw_browser_error_code_name (tw_browser_error_from_gerror (error)));
      g_signal_emit (self, signals[ACTION_FINISHED], 0, cmd->action);
    }

  if (error != NULL)
    {
      g_task_return_error (task, error);
    }
  else
    {
      add_dialogs (self, result, cmd->first_dialog);
      self->n_reported_dialogs = self->n_dialogs;

      if (cmd->new_tabs != NULL && cmd->new_tabs->len > 0 && tw_tab_actions_handles (cmd->command))
        {
          JsonArray *ids = json_array_new ();

          for (guint i = 0; i < cmd->new_tabs->len; i++)
            json_array_add_string_element (ids, g_ptr_array_index (cmd->new_tabs, i));
          json_object_set_array_member (result, "newTabs", ids);
        }

      g_task_return_pointer (task, result, (GDestroyNotify) json_object_unref);
    }

  g_object_unref (task);

  schedule_next_command (self);
  update_busy (self);
}

static void
page_title_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JSCValue) value = NULL;
  g_autofree char *title = NULL;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);

  value = webkit_web_view_evaluate_javascript_finish (WEBKIT_WEB_VIEW (object), result, NULL);

  if (cmd->finished)
    return;

  if (value != NULL && jsc_value_is_string (value))
    {
      title = jsc_value_to_string (value);
      set_title (self, title);
    }

  if (cmd->reply != NULL)
    {
      JsonObject *reply = g_steal_pointer (&cmd->reply);

      if (title != NULL)
        json_object_set_string_member (reply, "title", title);
      finish_command (self, task, reply, NULL);
      return;
    }

  finish_command (self, task, build_page_result (self, title), NULL);
}

/* The title reaches the UI process on its own schedule, sometimes only
 * after the load has finished; asking the page keeps results from reporting
 * the previous page's title, or none. The isolated world sees the real
 * document.title whatever the page's scripts did to the getter. */
static void
finish_with_page (TwBrowserTab *self,
                  GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);
  const char *url;

  cmd->waiting = FALSE;
  g_clear_handle_id (&cmd->settle_source, g_source_remove);

  /* The restored page is there: now the command itself runs. */
  if (cmd->waking)
    {
      cmd->waking = FALSE;
      dispatch_command (self, task);
      return;
    }

  /* WebKit turns loads it refuses outright (restricted ports such as 1, 25
   * or 6000) into the blank page without reporting a failure. */
  url = tw_json_get_string (cmd->params, "url", NULL);
  if (cmd->command == TW_TAB_COMMAND_NAVIGATE && url != NULL &&
      !g_str_equal (url, "about:blank") &&
      g_str_equal (tw_browser_tab_get_uri (self), "about:blank"))
    {
      finish_command (self, task, NULL,
                      g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                   "WebKit refused to load %s; it may use a restricted port",
                                   url));
      return;
    }

  webkit_web_view_evaluate_javascript (self->view, "document.title", -1,
                                       TW_PAGE_RUNTIME_WORLD, NULL,
                                       g_task_get_cancellable (task),
                                       page_title_cb, g_object_ref (task));
}

static gboolean
command_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);
  guint limit_ms = command_time_limit (self, cmd->command);
  const char *still_loading = cmd->waiting ? "; it may still be loading" : "";

  cmd->timeout_source = 0;

  if (limit_ms < 1000)
    finish_command (self, task, NULL,
                    g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                                 "the page did not %s within %u ms%s",
                                 command_verb (cmd->command), limit_ms, still_loading));
  else
    finish_command (self, task, NULL,
                    g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                                 "the page did not %s within %u s%s",
                                 command_verb (cmd->command), limit_ms / 1000, still_loading));

  return G_SOURCE_REMOVE;
}

static void
command_cancelled_cb (gpointer user_data)
{
  GTask *task = user_data;

  finish_command (g_task_get_source_object (task), task, NULL,
                  g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                       "the call was cancelled"));
}

/* Waiting for navigations */

static gboolean
settle_cb (gpointer user_data)
{
  TwBrowserTab *self = user_data;
  TabCommand *cmd = active_waiting_command (self);

  g_assert (cmd != NULL);

  cmd->settle_source = 0;

  /* No load started and none is pending: the navigation stayed within the
   * document (pushState, a fragment) or was refused by the page. Either way
   * the page is what it is now. */
  if (!cmd->started && !webkit_web_view_is_loading (self->view))
    finish_with_page (self, self->active);

  return G_SOURCE_REMOVE;
}

static void
schedule_settle (TwBrowserTab *self,
                 TabCommand   *cmd,
                 guint         delay_ms)
{
  g_clear_handle_id (&cmd->settle_source, g_source_remove);
  cmd->settle_source = g_timeout_add (delay_ms, settle_cb, self);
}

static void
begin_wait (TwBrowserTab *self,
            TabCommand   *cmd)
{
  cmd->waiting = TRUE;
  cmd->started = FALSE;
}

static void
set_wake_loading (TwBrowserTab *self,
                  gboolean      wake_loading)
{
  if (self->wake_loading == wake_loading)
    return;

  self->wake_loading = wake_loading;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
view_load_changed_cb (TwBrowserTab    *self,
                      WebKitLoadEvent  event,
                      WebKitWebView   *view)
{
  TabCommand *cmd;

  if (event == WEBKIT_LOAD_FINISHED)
    set_wake_loading (self, FALSE);

  if (event == WEBKIT_LOAD_STARTED)
    set_load_error (self, NULL, NULL);

  if (event == WEBKIT_LOAD_COMMITTED && webkit_web_view_get_is_web_process_responsive (self->view))
    set_unresponsive (self, FALSE);

  /* A new web process runs the load: the tab is alive again, even if that
   * page then fails to load. */
  if (event == WEBKIT_LOAD_STARTED && self->crashed)
    {
      self->crashed = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CRASHED]);
    }

  cmd = active_waiting_command (self);
  if (cmd == NULL)
    return;

  switch (event)
    {
    case WEBKIT_LOAD_STARTED:
      cmd->started = TRUE;
      g_clear_handle_id (&cmd->settle_source, g_source_remove);
      break;

    case WEBKIT_LOAD_FINISHED:
      if (cmd->started)
        finish_with_page (self, self->active);
      break;

    case WEBKIT_LOAD_REDIRECTED:
    case WEBKIT_LOAD_COMMITTED:
    default:
      break;
    }
}

static gboolean
view_load_failed_cb (TwBrowserTab    *self,
                     WebKitLoadEvent  event,
                     const char      *failing_uri,
                     GError          *error,
                     WebKitWebView   *view)
{
  TabCommand *cmd = active_waiting_command (self);
  gboolean cancelled = g_error_matches (error, WEBKIT_NETWORK_ERROR,
                                        WEBKIT_NETWORK_ERROR_CANCELLED);

  set_wake_loading (self, FALSE);
  /* A response that became a download into the workspace: the tab stays on
   * its page and the command's result reports the download. */
  if (self->workspace_dir != NULL &&
      g_error_matches (error, WEBKIT_POLICY_ERROR,
                       WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE))
    cancelled = TRUE;

  /* WebKit's own error page is a load of its own that lands whenever it
   * lands, even in the middle of the next navigation. The tab keeps the
   * failure as state instead and the window shows it. */
  if (!cancelled && event == WEBKIT_LOAD_STARTED)
    set_load_error (self, failing_uri, error->message);

  /* Failures of a load that started before the command (the one it
   * replaced) are none of its business. */
  if (cmd == NULL || !cmd->started)
    return TRUE;

  if (cancelled)
    {
      /* Another navigation (a script, a redirect, the person) took over: follow
       * it if one starts, or settle on the page as it is. */
      cmd->started = FALSE;
      schedule_settle (self, cmd, NOTHING_HAPPENED_DELAY_MS);
      return TRUE;
    }

  finish_command (self, self->active, NULL, load_error_to_browser_error (self, failing_uri, error));

  return TRUE;
}

static gboolean
view_load_failed_with_tls_errors_cb (TwBrowserTab         *self,
                                     const char           *failing_uri,
                                     GTlsCertificate      *certificate,
                                     GTlsCertificateFlags  errors,
                                     WebKitWebView        *view)
{
  TabCommand *cmd = active_waiting_command (self);

  if (cmd != NULL && cmd->started)
    finish_command (self, self->active, NULL,
                    g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                 "the TLS certificate of %s is not trusted", failing_uri));

  return FALSE;
}

static void
update_history (TwBrowserTab *self)
{
  gboolean can_go_back = webkit_web_view_can_go_back (self->view);
  gboolean can_go_forward = webkit_web_view_can_go_forward (self->view);

  if (can_go_back != self->can_go_back)
    {
      self->can_go_back = can_go_back;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
    }

  if (can_go_forward != self->can_go_forward)
    {
      self->can_go_forward = can_go_forward;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
    }
}

static void
view_notify_uri_cb (TwBrowserTab  *self,
                    GParamSpec    *pspec,
                    WebKitWebView *view)
{
  TabCommand *cmd;

  update_history (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_URI]);

  /* History steps inside one document never report a load: the URL change
   * is all there is. */
  cmd = active_waiting_command (self);
  if (cmd != NULL && !cmd->started)
    schedule_settle (self, cmd, SETTLE_DELAY_MS);
}

static void
view_notify_is_loading_cb (TwBrowserTab  *self,
                           GParamSpec    *pspec,
                           WebKitWebView *view)
{
  TabCommand *cmd;

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);

  cmd = active_waiting_command (self);
  if (cmd != NULL && !cmd->started && !webkit_web_view_is_loading (view))
    schedule_settle (self, cmd, SETTLE_DELAY_MS);
}

static void
view_notify_title_cb (TwBrowserTab  *self,
                      GParamSpec    *pspec,
                      WebKitWebView *view)
{
  set_title (self, webkit_web_view_get_title (view));
}

static void
view_notify_progress_cb (TwBrowserTab  *self,
                         GParamSpec    *pspec,
                         WebKitWebView *view)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
}

static void
back_forward_list_changed_cb (TwBrowserTab              *self,
                              WebKitBackForwardListItem *item_added,
                              gpointer                   items_removed,
                              WebKitBackForwardList     *list)
{
  update_history (self);
}

/* A stuck page: a script that never yields (while (true) {}, a stream of
 * alerts) holds its web process, so nothing sent to it ever runs. The
 * person sees the tab marked; calls that time out on it say which tab is
 * stuck and what ends it; browser_reload and browser_navigate end its web
 * process when the page does not answer, as crash recovery does, and load
 * again. */

/* How long reload and navigate wait for the page to answer before they
 * end its web process. A healthy page on a machine under heavy load (or
 * under a sanitizer) can take over two seconds to answer; ending it then
 * would lose a page that was fine. */
#define STUCK_PAGE_PING_MS 5000

static void start_command (TwBrowserTab *self,
                           GTask        *task);

static void
set_unresponsive (TwBrowserTab *self,
                  gboolean      unresponsive)
{
  if (self->unresponsive == !!unresponsive)
    return;

  self->unresponsive = !!unresponsive;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNRESPONSIVE]);
}

static void
view_responsive_changed_cb (TwBrowserTab  *self,
                            GParamSpec    *pspec,
                            WebKitWebView *view)
{
  set_unresponsive (self, !webkit_web_view_get_is_web_process_responsive (view));
}

/* The web process that reload or navigate ended is no crash: the command
 * goes on and loads in a new one. */
static gboolean
stuck_process_ended (TwBrowserTab                      *self,
                     WebKitWebProcessTerminationReason  reason)
{
  if (!self->ending_stuck || reason != WEBKIT_WEB_PROCESS_TERMINATED_BY_API)
    return FALSE;

  self->ending_stuck = FALSE;
  return TRUE;
}

static GError *
explain_if_stuck (TwBrowserTab *self,
                  GError       *error)
{
  GError *stuck;

  if (error == NULL || !g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT))
    return error;

  if (tw_page_runtime_get_unanswered (self->runtime))
    set_unresponsive (self, TRUE);
  if (!self->unresponsive)
    return error;

  stuck = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                       "tab %s is not responding: a script on its page never yields (an endless "
                       "loop or a stream of dialogs), so %s. browser_reload or browser_navigate "
                       "ends the stuck page and loads again; browser_close_tab closes the tab",
                       self->id, error->message);
  g_error_free (error);
  return stuck;
}

static void
page_answer_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;

  answer = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);
  if (cmd->finished)
    return;

  cmd->alive_checked = TRUE;

  if (answer == NULL && g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT))
    {
      g_autofree char *note = g_strdup_printf ("The page did not answer within %.1f s; its web "
                                               "process was ended so the tab could load again",
                                               STUCK_PAGE_PING_MS / 1000.0);

      g_debug ("Tab %s: %s", self->id, note);
      tw_tab_log_add_note (self->log, note);
      self->ending_stuck = TRUE;
      webkit_web_view_terminate_web_process (self->view);
      set_unresponsive (self, FALSE);
    }

  start_command (self, task);
}

/* Before reload or navigate: does the page answer at all? Returns TRUE
 * when the command goes on once it has (page_answer_cb). */
static gboolean
check_page_answers (TwBrowserTab *self,
                    GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);
  g_autoptr(JsonObject) args = NULL;

  if ((cmd->command != TW_TAB_COMMAND_RELOAD && cmd->command != TW_TAB_COMMAND_NAVIGATE) ||
      cmd->alive_checked || self->crashed)
    return FALSE;

  args = json_object_new ();
  tw_page_runtime_call_with_timeout_async (self->runtime, "ping", args, STUCK_PAGE_PING_MS,
                                           g_task_get_cancellable (task), page_answer_cb,
                                           g_object_ref (task));
  return TRUE;
}

static void
view_web_process_terminated_cb (TwBrowserTab                      *self,
                                WebKitWebProcessTerminationReason  reason,
                                WebKitWebView                     *view)
{
  g_debug ("Web process of tab %s terminated (reason %d)", self->id, reason);

  set_wake_loading (self, FALSE);

  if (stuck_process_ended (self, reason))
    return;

  tw_tab_log_add_note (self->log,
                       reason == WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT
                         ? "The web process ran out of memory and was stopped"
                         : "The web process crashed");

  if (!self->crashed)
    {
      self->crashed = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CRASHED]);
    }

  if (self->active != NULL)
    finish_command (self, self->active, NULL, crashed_error (self));
}

static gboolean
view_script_dialog_cb (TwBrowserTab       *self,
                       WebKitScriptDialog *dialog,
                       WebKitWebView      *view)
{
  TabDialog *record = g_new0 (TabDialog, 1);
  WebKitScriptDialogType type = webkit_script_dialog_get_dialog_type (dialog);
  gboolean accept;

  /* Agents cannot click dialog buttons and the person must never get a modal
   * sprung on them by a page an agent drives, so every dialog is answered
   * right away: as browser_handle_dialog said for the next one, otherwise
   * alerts accepted and everything that asks a question dismissed. */
  accept = type == WEBKIT_SCRIPT_DIALOG_ALERT;
  if (self->dialog_answer_set)
    {
      accept = self->dialog_accept;
      self->dialog_answer_set = FALSE;
    }

  switch (type)
    {
    case WEBKIT_SCRIPT_DIALOG_CONFIRM:
      record->type = TW_DIALOG_CONFIRM;
      webkit_script_dialog_confirm_set_confirmed (dialog, accept);
      break;

    case WEBKIT_SCRIPT_DIALOG_PROMPT:
      /* Leaving the text unset makes prompt() return null, as Cancel does. */
      record->type = TW_DIALOG_PROMPT;
      if (accept)
        {
          record->prompt_text = g_strdup (self->dialog_prompt_text != NULL
                                          ? self->dialog_prompt_text
                                          : webkit_script_dialog_prompt_get_default_text (dialog));
          webkit_script_dialog_prompt_set_text (dialog, record->prompt_text);
        }
      break;

    case WEBKIT_SCRIPT_DIALOG_BEFORE_UNLOAD_CONFIRM:
      record->type = TW_DIALOG_BEFOREUNLOAD;
      webkit_script_dialog_confirm_set_confirmed (dialog, accept);
      break;

    case WEBKIT_SCRIPT_DIALOG_ALERT:
    default:
      /* An alert has one button: whatever was asked, it is accepted. */
      record->type = TW_DIALOG_ALERT;
      accept = TRUE;
      break;
    }

  g_clear_pointer (&self->dialog_prompt_text, g_free);
  record->accepted = accept;
  record->serial = self->n_dialogs++;
  record->message = g_strdup (webkit_script_dialog_get_message (dialog));
  g_queue_push_tail (&self->dialogs, record);

  /* browser_logs lists it among what the page did. */
  {
    g_autofree char *note = g_strdup_printf ("The page opened %s dialog: “%s”; Tabwright %s it",
                                             record->type == TW_DIALOG_ALERT ? "an alert"
                                             : record->type == TW_DIALOG_CONFIRM ? "a confirm"
                                             : record->type == TW_DIALOG_PROMPT ? "a prompt"
                                             : "a beforeunload",
                                             record->message,
                                             record->accepted ? "accepted" : "dismissed");

    tw_tab_log_add_note (self->log, note);
  }

  while (self->dialogs.length > MAX_DIALOGS)
    tab_dialog_free (g_queue_pop_head (&self->dialogs));

  g_signal_emit (self, signals[SCRIPT_DIALOG], 0, record->type, record->message);

  return TRUE;
}

/* A <select> opens its dropdown on mousedown, also on the mousedown the
 * page runtime dispatches for an agent's click, pick or fill. The agent
 * reads the options from the snapshot and picks with browser_select, so
 * the native menu would only stay open on the person's screen over the
 * page, until something else closed it. A menu no input event of the
 * person's opened, while an agent's command runs, is closed at once: the
 * page sees its dropdown open and close again, with the value unchanged.
 * A dropdown the person opens shows as always. */
static gboolean
view_show_option_menu_cb (TwBrowserTab     *self,
                          WebKitOptionMenu *menu,
                          GdkRectangle     *rectangle)
{
  if (self->active == NULL || webkit_option_menu_get_event (menu) != NULL)
    return FALSE;

  webkit_option_menu_close (menu);
  return TRUE;
}

/* A colour input opens GTK's colour chooser on activation, also on the
 * click the page runtime dispatches for an agent. The agent sets a colour
 * with browser_fill ("#rrggbb"), so while its command runs the chooser is
 * cancelled instead of opening a dialog on the person's screen; the value
 * stays as it was. The person's own clicks open it as always. */
static gboolean
view_run_color_chooser_cb (TwBrowserTab              *self,
                           WebKitColorChooserRequest *request)
{
  if (self->active == NULL)
    return FALSE;

  webkit_color_chooser_request_cancel (request);
  return TRUE;
}

static gboolean
view_decide_policy_cb (TwBrowserTab             *self,
                       WebKitPolicyDecision     *decision,
                       WebKitPolicyDecisionType  type,
                       WebKitWebView            *view)
{
  WebKitResponsePolicyDecision *response;

  if (type != WEBKIT_POLICY_DECISION_TYPE_RESPONSE)
    return FALSE;

  /* A page an agent opens must not be able to drop files into the person's
   * Downloads folder: responses WebKit cannot show are downloaded into the
   * workspace's downloads/ folder (see tw-tab-downloads.c), or not at all
   * without a workspace. */
  response = WEBKIT_RESPONSE_POLICY_DECISION (decision);
  if (!webkit_response_policy_decision_is_mime_type_supported (response) &&
      webkit_response_policy_decision_is_main_frame_main_resource (response))
    {
      if (self->workspace_dir != NULL)
        webkit_policy_decision_download (decision);
      else
        webkit_policy_decision_ignore (decision);
      return TRUE;
    }

  return FALSE;
}

static void
view_close_cb (TwBrowserTab  *self,
               WebKitWebView *view)
{
  g_signal_emit (self, signals[CLOSE_REQUESTED], 0);
}

static TwBrowserTab *tab_new_internal (WebKitNetworkSession *session,
                                       WebKitWebView        *related_view,
                                       const char           *owner_id,
                                       const char           *owner);

static GtkWidget *
view_create_cb (TwBrowserTab           *self,
                WebKitNavigationAction *action,
                WebKitWebView          *view)
{
  g_autoptr(TwBrowserTab) tab = NULL;

  /* window.open() and target=_blank links become tabs of the same
   * workspace, driven by whoever drives this one. */
  tab = tab_new_internal (NULL, self->view, self->owner_id, self->owner);
  tw_browser_tab_set_workspace_dir (tab, self->workspace_dir);
  g_signal_emit (self, signals[NEW_TAB], 0, tab);

  /* An agent whose click opened a tab needs its id to use it. */
  if (self->active != NULL)
    {
      TabCommand *cmd = g_task_get_task_data (self->active);

      if (cmd->new_tabs == NULL)
        cmd->new_tabs = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (cmd->new_tabs, g_strdup (tw_browser_tab_get_id (tab)));
    }

  return GTK_WIDGET (tw_browser_tab_get_view (tab));
}

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

static gboolean action_needs_refresh (TabCommand   *cmd);
static void     refresh_action       (TwBrowserTab *self,
                                      GTask        *task,
                                      JsonObject   *answer);

/* The result of a command another module carried out: it gains the tab's
 * browserId, in front. Takes @answer. */
static void
complete_delegated (TwBrowserTab *self,
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
                                           page_title_cb, g_object_ref (task));
      return;
    }

  finish_command (self, task, reply, NULL);
}

/* Completes commands that other modules carry out (the page runtime, the
 * page tools). */
static void
delegated_command_cb (GObject      *object,
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
      finish_command (self, task, NULL, g_steal_pointer (&error));
      return;
    }

  /* Where the element ended up, for the overlay, before the agent hears
   * back: the action may have scrolled it into view. */
  if (action_needs_refresh (cmd))
    refresh_action (self, task, g_steal_pointer (&answer));
  else
    complete_delegated (self, task, g_steal_pointer (&answer));
}

/* Showing actions */

static void
copy_json_rect (JsonObject *action,
                const char *member,
                JsonObject *from,
                const char *from_member)
{
  JsonNode *node = json_object_get_member (from, from_member);

  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    json_object_set_member (action, member, json_node_copy (node));
}

static void
copy_element (JsonObject *action,
              JsonObject *element)
{
  const char *role = tw_json_get_string (element, "role", NULL);
  const char *name = tw_json_get_string (element, "name", NULL);

  if (role != NULL)
    json_object_set_string_member (action, "role", role);
  if (name != NULL)
    json_object_set_string_member (action, "name", name);
}

static JsonObject *
build_action (TwBrowserTab *self,
              TabCommand   *cmd)
{
  static const char * const copied[] = {
    "ref", "sourceRef", "targetRef", "text", "value", "key", "deltaX", "deltaY", NULL
  };
  JsonObject *action = json_object_new ();

  json_object_set_string_member (action, "browserId", self->id);
  json_object_set_string_member (action, "tool", tw_tab_command_to_string (cmd->command));
  json_object_set_string_member (action, "agent", cmd->agent_name != NULL ? cmd->agent_name
                                                                          : "");
  json_object_set_int_member (action, "callId", (gint64) cmd->call_id);

  for (guint i = 0; copied[i] != NULL; i++)
    {
      JsonNode *node = json_object_get_member (cmd->params, copied[i]);

      if (node != NULL && JSON_NODE_HOLDS_VALUE (node))
        json_object_set_member (action, copied[i], json_node_copy (node));
    }

  return action;
}

/* Where the action went, as the page answered once it acted: the box after
 * scrolling into view, which wins over what resolving the ref said. */
static void
action_acted_cb (JsonObject *answer,
                 gpointer    user_data)
{
  GTask *task = user_data;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);
  JsonNode *element;

  if (cmd->finished || cmd->action == NULL)
    return;

  copy_json_rect (cmd->action, "rect", answer, "box");
  copy_json_rect (cmd->action, "point", answer, "point");

  element = json_object_get_member (answer, "element");
  if (element == NULL || !JSON_NODE_HOLDS_OBJECT (element))
    element = json_object_get_member (answer, "source");
  if (element != NULL && JSON_NODE_HOLDS_OBJECT (element))
    copy_element (cmd->action, json_node_get_object (element));

  g_signal_emit (self, signals[ACTION_UPDATED], 0, cmd->action);
}

/* Refs are resolved for the overlay one call at a time and never while
 * the action's own calls run in the page: before the action (where the
 * element is, and a drag's drop target), and after it when it may have
 * moved the element (scrolled it into view, scrolled it). */
typedef enum
{
  RESOLVE_BEFORE,
  RESOLVE_DROP,
  RESOLVE_AFTER,
} ResolveStep;

typedef struct
{
  GTask       *task;
  ResolveStep  step;
  JsonObject  *answer;   /* RESOLVE_AFTER: the action's answer, held back */
} ResolveData;

static void resolve_step (TwBrowserTab *self,
                          GTask        *task,
                          ResolveStep   step,
                          JsonObject   *answer);
static void run_action   (TwBrowserTab *self,
                          GTask        *task);

static const char *
action_ref (TabCommand *cmd)
{
  const char *ref = tw_json_get_string (cmd->params, "ref", NULL);

  return ref != NULL ? ref : tw_json_get_string (cmd->params, "sourceRef", NULL);
}

/* After the action, the box is stale when the point acted on is not in it
 * any more, or when the action was a scroll. */
static gboolean
action_needs_refresh (TabCommand *cmd)
{
  JsonObject *rect;
  JsonObject *point;
  double x;
  double y;

  if (cmd->action == NULL || action_ref (cmd) == NULL)
    return FALSE;

  if (cmd->command == TW_TAB_COMMAND_SCROLL || !json_object_has_member (cmd->action, "rect") ||
      !json_object_has_member (cmd->action, "point"))
    return TRUE;

  rect = json_object_get_object_member (cmd->action, "rect");
  point = json_object_get_object_member (cmd->action, "point");
  x = json_object_get_double_member_with_default (point, "x", -1);
  y = json_object_get_double_member_with_default (point, "y", -1);

  return x < json_object_get_double_member_with_default (rect, "x", 0) ||
         y < json_object_get_double_member_with_default (rect, "y", 0) ||
         x > json_object_get_double_member_with_default (rect, "x", 0) +
         json_object_get_double_member_with_default (rect, "width", 0) ||
         y > json_object_get_double_member_with_default (rect, "y", 0) +
         json_object_get_double_member_with_default (rect, "height", 0);
}

static void
action_resolved_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  ResolveData *data = user_data;
  g_autoptr(GTask) task = data->task;
  g_autoptr(JsonObject) answer = data->answer;
  g_autoptr(JsonObject) info = NULL;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);
  ResolveStep step = data->step;

  g_free (data);

  /* A stale ref is for the action itself to report, with a better
   * message; the overlay just has no box. */
  info = tw_page_runtime_resolve_ref_finish (TW_PAGE_RUNTIME (object), result, NULL);
  if (cmd->finished)
    return;

  if (info != NULL)
    {
      if (step == RESOLVE_DROP)
        {
          copy_json_rect (cmd->action, "targetRect", info, "rect");
        }
      else
        {
          copy_element (cmd->action, info);
          copy_json_rect (cmd->action, "rect", info, "rect");
        }
    }

  switch (step)
    {
    case RESOLVE_BEFORE:
      resolve_step (self, task, RESOLVE_DROP, NULL);
      break;

    case RESOLVE_DROP:
      g_signal_emit (self, signals[ACTION_STARTED], 0, cmd->action);
      run_action (self, task);
      break;

    case RESOLVE_AFTER:
    default:
      if (info != NULL)
        g_signal_emit (self, signals[ACTION_UPDATED], 0, cmd->action);
      complete_delegated (self, task, g_steal_pointer (&answer));
      break;
    }
}

static void
resolve_step (TwBrowserTab *self,
              GTask        *task,
              ResolveStep   step,
              JsonObject   *answer)
{
  TabCommand *cmd = g_task_get_task_data (task);
  const char *ref = step == RESOLVE_DROP ? tw_json_get_string (cmd->params, "targetRef", NULL)
                                         : action_ref (cmd);
  ResolveData *data;

  if (ref == NULL)
    {
      /* Nothing to find at this step: go on as if it had been found. */
      if (step == RESOLVE_BEFORE)
        {
          resolve_step (self, task, RESOLVE_DROP, NULL);
        }
      else if (step == RESOLVE_DROP)
        {
          g_signal_emit (self, signals[ACTION_STARTED], 0, cmd->action);
          run_action (self, task);
        }
      else
        {
          complete_delegated (self, task, answer);
        }
      return;
    }

  data = g_new0 (ResolveData, 1);
  data->task = g_object_ref (task);
  data->step = step;
  data->answer = answer;
  tw_page_runtime_resolve_ref_async (self->runtime, ref, g_task_get_cancellable (task),
                                     action_resolved_cb, data);
}

static void
refresh_action (TwBrowserTab *self,
                GTask        *task,
                JsonObject   *answer)
{
  resolve_step (self, task, RESOLVE_AFTER, answer);
}

/* Tells the overlay about an action before it starts: what it is, and
 * where its element is, so the pointer is on its way while the page checks
 * that the element can be used. */
static void
begin_action (TwBrowserTab *self,
              GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);

  cmd->action = build_action (self, cmd);
  resolve_step (self, task, RESOLVE_BEFORE, NULL);
}

static void
run_action (TwBrowserTab *self,
            GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);
  TwTabActionsOptions options = {
    .workspace_dir = self->workspace_dir,
    .navigation_timeout_ms = self->command_timeout_ms,
    .acted = action_acted_cb,
    .acted_data = g_object_ref (task),
    .acted_destroy = g_object_unref,
  };

  tw_tab_actions_run_async (self->view, self->runtime, cmd->command, cmd->params,
                            &options, g_task_get_cancellable (task),
                            delegated_command_cb, g_object_ref (task));
}

static gboolean
handoff_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  TwBrowserTab *self = g_task_get_source_object (task);
  TabCommand *cmd = g_task_get_task_data (task);
  gint64 timeout_ms = json_object_get_int_member_with_default (cmd->params, "timeoutMs", 0);

  cmd->timeout_source = 0;
  finish_command (self, task, NULL,
                  g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                               "the person did not answer the handoff in tab %s within %.1f s; "
                               "the tab is theirs to use meanwhile, so take a new snapshot "
                               "before going on",
                               self->id, timeout_ms / 1000.0));

  return G_SOURCE_REMOVE;
}

static void
start_command (TwBrowserTab *self,
               GTask        *task)
{
  TabCommand *cmd = g_task_get_task_data (task);

  cmd->first_dialog = self->n_reported_dialogs;

  if (self->crashed && cmd->command != TW_TAB_COMMAND_RELOAD &&
      cmd->command != TW_TAB_COMMAND_NAVIGATE)
    {
      finish_command (self, task, NULL, crashed_error (self));
      return;
    }

  if (self->paused)
    {
      finish_command (self, task, NULL,
                      g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                   TW_BROWSER_TAB_PAUSED_MESSAGE, self->id));
      return;
    }

  if (check_page_answers (self, task))
    return;

  cmd->timeout_source = g_timeout_add (command_time_limit (self, cmd->command),
                                       command_timeout_cb, task);

  /* A restored tab that nobody used yet loads its page before the command
   * sees it, unless the command loads a page itself. */
  if (self->deferred_uri != NULL && cmd->command != TW_TAB_COMMAND_NAVIGATE)
    {
      g_autofree char *uri = g_steal_pointer (&self->deferred_uri);

      cmd->waking = TRUE;
      begin_wait (self, cmd);
      webkit_web_view_load_uri (self->view, uri);
      schedule_settle (self, cmd, NOTHING_HAPPENED_DELAY_MS);
      return;
    }

  /* The window woke the tab a moment ago and its page is still on its way:
   * the command sees the page once it is there, not the blank one before. */
  if (self->wake_loading && cmd->command != TW_TAB_COMMAND_NAVIGATE)
    {
      cmd->waking = TRUE;
      begin_wait (self, cmd);
      cmd->started = TRUE;
      return;
    }

  dispatch_command (self, task);
}

static void
dispatch_command (TwBrowserTab *self,
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
            finish_command (self, task, NULL,
                            g_error_new_literal (TW_BROWSER_ERROR,
                                                 TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                                 "url must be a string"));
            return;
          }

        if (!tw_address_check_url (url, &error))
          {
            finish_command (self, task, NULL, error);
            return;
          }

        begin_wait (self, cmd);
        webkit_web_view_load_uri (self->view, url);
        schedule_settle (self, cmd, NOTHING_HAPPENED_DELAY_MS);
      }
      break;

    case TW_TAB_COMMAND_BACK:
      if (!webkit_web_view_can_go_back (self->view))
        {
          finish_command (self, task, NULL,
                          g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                               "no page to go back to"));
          return;
        }

      begin_wait (self, cmd);
      webkit_web_view_go_back (self->view);
      schedule_settle (self, cmd, NOTHING_HAPPENED_DELAY_MS);
      break;

    case TW_TAB_COMMAND_FORWARD:
      if (!webkit_web_view_can_go_forward (self->view))
        {
          finish_command (self, task, NULL,
                          g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                               "no page to go forward to"));
          return;
        }

      begin_wait (self, cmd);
      webkit_web_view_go_forward (self->view);
      schedule_settle (self, cmd, NOTHING_HAPPENED_DELAY_MS);
      break;

    case TW_TAB_COMMAND_RELOAD:
      begin_wait (self, cmd);
      webkit_web_view_reload (self->view);
      schedule_settle (self, cmd, NOTHING_HAPPENED_DELAY_MS);
      break;

    case TW_TAB_COMMAND_SNAPSHOT:
      tw_page_runtime_snapshot_async (self->runtime, cmd->params,
                                      g_task_get_cancellable (task),
                                      delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_SCREENSHOT:
      tw_page_tools_screenshot_async (self->view, self->runtime, cmd->params, self->workspace_dir,
                                      g_task_get_cancellable (task),
                                      delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_WAIT:
      tw_page_tools_wait_async (self->view, self->runtime, self->log, cmd->params,
                                g_task_get_cancellable (task),
                                delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_RESIZE:
      tw_page_tools_resize_async (self->frame, self->runtime, cmd->params,
                                  g_task_get_cancellable (task),
                                  delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_HANDOFF:
      {
        gint64 timeout_ms = json_object_get_int_member_with_default (cmd->params, "timeoutMs",
                                                                     30000);

        /* The agent waits as long as it said it would, and no longer. */
        g_clear_handle_id (&cmd->timeout_source, g_source_remove);
        cmd->timeout_source = g_timeout_add ((guint) CLAMP (timeout_ms, 1, G_MAXINT),
                                             handoff_timeout_cb, task);
        set_handoff (self, task, tw_json_get_string (cmd->params, "message", NULL),
                     cmd->agent_name != NULL ? cmd->agent_name : "An agent");
      }
      break;

    case TW_TAB_COMMAND_LOGS:
      {
        g_autoptr(JsonObject) answer = tw_page_tools_logs (self->log, cmd->params, &error);
        JsonObject *reply;

        if (answer == NULL)
          {
            finish_command (self, task, NULL, error);
            return;
          }

        reply = json_object_new ();
        json_object_set_string_member (reply, "browserId", self->id);
        json_object_foreach_member (answer, copy_member, reply);
        finish_command (self, task, reply, NULL);
      }
      break;

    /* Debugging (issue 17). */
    case TW_TAB_COMMAND_CONSOLE:
      tw_tab_console_run_async (self->log, cmd->params, g_task_get_cancellable (task),
                                delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_FETCH:
      tw_tab_fetch_run_async (self->view, cmd->params, g_task_get_cancellable (task),
                              delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_NETWORK:
      tw_tab_network_run_async (self->log, self->view, self->workspace_dir, cmd->params,
                                g_task_get_cancellable (task),
                                delegated_command_cb, g_object_ref (task));
      break;

    /* Reading (issue 17). */
    case TW_TAB_COMMAND_GET_TEXT:
    case TW_TAB_COMMAND_GET_HTML:
    case TW_TAB_COMMAND_READ:
    case TW_TAB_COMMAND_SET_CONTENT:
    case TW_TAB_COMMAND_GET_STYLES:
      tw_tab_reading_run_async (self->runtime, cmd->command, cmd->params,
                                g_task_get_cancellable (task),
                                delegated_command_cb, g_object_ref (task));
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
        finish_command (self, task, reply, NULL);
      }
      break;

    case TW_TAB_COMMAND_STORAGE:
      tw_tab_storage_web_async (self->view, cmd->params, g_task_get_cancellable (task),
                                delegated_command_cb, g_object_ref (task));
      break;

    case TW_TAB_COMMAND_PDF:
      tw_tab_pdf_async (self->view, cmd->params, self->workspace_dir,
                        g_task_get_cancellable (task), delegated_command_cb, g_object_ref (task));
      break;

    /* Forms, coordinates and emulation (issue 18). */
    case TW_TAB_COMMAND_FILL_FORM:
      {
        TwTabActionsOptions options = {
          .workspace_dir = self->workspace_dir,
          .navigation_timeout_ms = self->command_timeout_ms,
        };

        tw_tab_form_fill_async (self->view, self->runtime, cmd->params, &options,
                                g_task_get_cancellable (task), delegated_command_cb,
                                g_object_ref (task));
      }
      break;

    case TW_TAB_COMMAND_EMULATE:
      tw_tab_emulation_apply_async (self->frame, self->runtime, cmd->params,
                                    g_task_get_cancellable (task), delegated_command_cb,
                                    g_object_ref (task));
      break;

    case TW_TAB_COMMAND_LIST_TABS:
    case TW_TAB_COMMAND_NEW_TAB:
    case TW_TAB_COMMAND_CLOSE_TAB:
    case TW_TAB_COMMAND_COOKIES:
    case TW_TAB_COMMAND_STORAGE_STATE:
    case TW_TAB_COMMAND_DOWNLOADS:
    case TW_TAB_COMMAND_FIND_IN_TABS:
    case TW_TAB_COMMAND_LAST:
      finish_command (self, task, NULL,
                      g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                   "%s is not a command of a tab",
                                   tw_tab_command_to_string (cmd->command)));
      break;

    default:
      if (tw_tab_actions_handles (cmd->command))
        {
          begin_action (self, task);
          break;
        }

      finish_command (self, task, NULL,
                      g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                   "the %s command is not available in this version of "
                                   "Tabwright", tw_tab_command_to_string (cmd->command)));
      break;
    }
}

static void
start_next_command (TwBrowserTab *self)
{
  GTask *task;

  if (self->active != NULL)
    return;

  task = g_queue_pop_head (&self->pending);
  if (task == NULL)
    return;

  self->active = task;
  start_command (self, task);
}

static void
fail_all_commands (TwBrowserTab *self,
                   const GError *error)
{
  g_clear_handle_id (&self->next_source, g_source_remove);

  while (self->active != NULL || !g_queue_is_empty (&self->pending))
    {
      GTask *task = self->active ? self->active : g_queue_peek_head (&self->pending);

      finish_command (self, task, NULL, g_error_copy (error));
    }

  g_clear_handle_id (&self->next_source, g_source_remove);
}

/* GObject */

static void
tw_browser_tab_dispose (GObject *object)
{
  TwBrowserTab *self = TW_BROWSER_TAB (object);

  if (!self->closed)
    tw_browser_tab_close (self);

  g_clear_object (&self->runtime);
  g_clear_object (&self->log);
  g_clear_object (&self->frame);
  g_clear_object (&self->view);
  g_queue_clear_full (&self->dialogs, (GDestroyNotify) tab_dialog_free);

  G_OBJECT_CLASS (tw_browser_tab_parent_class)->dispose (object);
}

static void
tw_browser_tab_finalize (GObject *object)
{
  TwBrowserTab *self = TW_BROWSER_TAB (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->owner_id, g_free);
  g_clear_pointer (&self->owner, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->workspace_dir, g_free);
  g_clear_pointer (&self->load_error, g_free);
  g_clear_pointer (&self->load_error_uri, g_free);
  g_clear_pointer (&self->deferred_uri, g_free);
  g_clear_pointer (&self->handoff_message, g_free);
  g_clear_pointer (&self->handoff_agent, g_free);
  g_clear_pointer (&self->dialog_prompt_text, g_free);

  G_OBJECT_CLASS (tw_browser_tab_parent_class)->finalize (object);
}

static void
tw_browser_tab_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TwBrowserTab *self = TW_BROWSER_TAB (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_URI:
      g_value_set_string (value, tw_browser_tab_get_uri (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, tw_browser_tab_get_title (self));
      break;

    case PROP_LOADING:
      g_value_set_boolean (value, tw_browser_tab_get_loading (self));
      break;

    case PROP_PROGRESS:
      g_value_set_double (value, tw_browser_tab_get_progress (self));
      break;

    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, self->can_go_back);
      break;

    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, self->can_go_forward);
      break;

    case PROP_OWNER:
      g_value_set_string (value, self->owner);
      break;

    case PROP_OWNER_ID:
      g_value_set_string (value, self->owner_id);
      break;

    case PROP_CRASHED:
      g_value_set_boolean (value, self->crashed);
      break;

    case PROP_UNRESPONSIVE:
      g_value_set_boolean (value, self->unresponsive);
      break;

    case PROP_LOAD_ERROR:
      g_value_set_string (value, self->load_error);
      break;

    case PROP_PAUSED:
      g_value_set_boolean (value, self->paused);
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    case PROP_HANDOFF_MESSAGE:
      g_value_set_string (value, self->handoff_message);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_browser_tab_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  TwBrowserTab *self = TW_BROWSER_TAB (object);

  switch (prop_id)
    {
    case PROP_PAUSED:
      tw_browser_tab_set_paused (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_browser_tab_class_init (TwBrowserTabClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_browser_tab_dispose;
  object_class->finalize = tw_browser_tab_finalize;
  object_class->get_property = tw_browser_tab_get_property;
  object_class->set_property = tw_browser_tab_set_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_URI] =
    g_param_spec_string ("uri", NULL, NULL, "",
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, "",
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CAN_GO_BACK] =
    g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CAN_GO_FORWARD] =
    g_param_spec_boolean ("can-go-forward", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_OWNER] =
    g_param_spec_string ("owner", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_OWNER_ID] =
    g_param_spec_string ("owner-id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_CRASHED] =
    g_param_spec_boolean ("crashed", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The page's web process does not answer: a script never yields (an
   * endless loop, a stream of dialogs). browser_reload and
   * browser_navigate end it. */
  properties[PROP_UNRESPONSIVE] =
    g_param_spec_boolean ("unresponsive", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_LOAD_ERROR] =
    g_param_spec_string ("load-error", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_HANDOFF_MESSAGE] =
    g_param_spec_string ("handoff-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TwBrowserTab::action-started:
   * @action: the action, as tw-browser-tab.h describes it
   *
   * An agent's action is about to start.
   */
  signals[ACTION_STARTED] =
    g_signal_new ("action-started",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, JSON_TYPE_OBJECT | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TwBrowserTab::action-updated:
   * @action: the action, with what is known now of its element
   */
  signals[ACTION_UPDATED] =
    g_signal_new ("action-updated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, JSON_TYPE_OBJECT | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TwBrowserTab::action-finished:
   * @action: the action, with "ok" and, when it failed, "errorCode"
   */
  signals[ACTION_FINISHED] =
    g_signal_new ("action-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, JSON_TYPE_OBJECT | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TwBrowserTab::script-dialog:
   * @type: a #TwDialogType
   * @message: what the page said
   *
   * The page opened a dialog, which the tab already answered.
   */
  signals[SCRIPT_DIALOG] =
    g_signal_new ("script-dialog",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_STRING);

  /**
   * TwBrowserTab::close-requested:
   *
   * The page called window.close().
   */
  signals[CLOSE_REQUESTED] =
    g_signal_new ("close-requested",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  /**
   * TwBrowserTab::new-tab:
   * @tab: the new #TwBrowserTab
   *
   * The page opened a window (window.open(), a target=_blank link). Its
   * browser must adopt @tab, or it goes away when the handler returns.
   */
  signals[NEW_TAB] =
    g_signal_new ("new-tab",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, TW_TYPE_BROWSER_TAB);
}

static void
tw_browser_tab_init (TwBrowserTab *self)
{
  self->id = g_strdup_printf ("b%u", next_tab_number++);
  self->command_timeout_ms = TW_BROWSER_TAB_DEFAULT_TIMEOUT_MS;
  g_queue_init (&self->dialogs);
  g_queue_init (&self->pending);
}

static TwBrowserTab *
tab_new_internal (WebKitNetworkSession *session,
                  WebKitWebView        *related_view,
                  const char           *owner_id,
                  const char           *owner)
{
  g_autoptr(WebKitUserContentManager) content_manager = NULL;
  g_autoptr(WebKitSettings) settings = NULL;
  TwBrowserTab *self;

  g_assert (session != NULL || related_view != NULL);

  self = g_object_new (TW_TYPE_BROWSER_TAB, NULL);
  self->owner_id = g_strdup (owner_id);
  self->owner = g_strdup (owner);

  settings = webkit_settings_new_with_settings ("enable-developer-extras", TRUE, NULL);

  /* Every tab gets a content manager of its own, because the in-page runtime
   * installs per-tab scripts and message handlers into it. */
  content_manager = webkit_user_content_manager_new ();

  /* Related views (popups) share the web context, session and process of
   * the view that opened them. */
  if (related_view != NULL)
    self->view = g_object_new (WEBKIT_TYPE_WEB_VIEW,
                               "related-view", related_view,
                               "user-content-manager", content_manager,
                               "settings", settings,
                               NULL);
  else
    self->view = g_object_new (WEBKIT_TYPE_WEB_VIEW,
                               "web-context", tw_web_context_get_shared (),
                               "network-session", session,
                               "user-content-manager", content_manager,
                               "settings", settings,
                               NULL);
  g_object_ref_sink (self->view);

  /* The frame sizes the view even while no window shows it, so background
   * tabs lay out, paint and answer screenshots like visible ones. */
  self->frame = g_object_ref_sink (tw_view_frame_new (self->view));

  self->log = tw_tab_log_new (TW_TAB_LOG_DEFAULT_CAPACITY);
  tw_tab_log_attach (self->log, self->view);

  gtk_widget_set_hexpand (GTK_WIDGET (self->view), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->view), TRUE);

  self->runtime = tw_page_runtime_new (self->view);
  tw_tab_emulation_attach (self->view);

  g_signal_connect_object (self->view, "load-changed",
                           G_CALLBACK (view_load_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "load-failed",
                           G_CALLBACK (view_load_failed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "load-failed-with-tls-errors",
                           G_CALLBACK (view_load_failed_with_tls_errors_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "notify::uri",
                           G_CALLBACK (view_notify_uri_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "notify::title",
                           G_CALLBACK (view_notify_title_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "notify::is-loading",
                           G_CALLBACK (view_notify_is_loading_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "notify::estimated-load-progress",
                           G_CALLBACK (view_notify_progress_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "web-process-terminated",
                           G_CALLBACK (view_web_process_terminated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "notify::is-web-process-responsive",
                           G_CALLBACK (view_responsive_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "script-dialog",
                           G_CALLBACK (view_script_dialog_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "show-option-menu",
                           G_CALLBACK (view_show_option_menu_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "run-color-chooser",
                           G_CALLBACK (view_run_color_chooser_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "decide-policy",
                           G_CALLBACK (view_decide_policy_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "close",
                           G_CALLBACK (view_close_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "create",
                           G_CALLBACK (view_create_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (webkit_web_view_get_back_forward_list (self->view), "changed",
                           G_CALLBACK (back_forward_list_changed_cb), self, G_CONNECT_SWAPPED);

  return self;
}

TwBrowserTab *
tw_browser_tab_new (WebKitNetworkSession *session,
                    const char           *owner_id,
                    const char           *owner)
{
  g_return_val_if_fail (WEBKIT_IS_NETWORK_SESSION (session), NULL);

  return tab_new_internal (session, NULL, owner_id, owner);
}

TwBrowserTab *
tw_browser_tab_new_related (WebKitWebView *related_view,
                            const char    *owner_id,
                            const char    *owner)
{
  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (related_view), NULL);

  return tab_new_internal (NULL, related_view, owner_id, owner);
}

void
tw_browser_tab_set_command_timeout (TwBrowserTab *self,
                                    guint         timeout_ms)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));
  g_return_if_fail (timeout_ms > 0);

  self->command_timeout_ms = timeout_ms;
}

const char *
tw_browser_tab_get_id (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->id;
}

WebKitWebView *
tw_browser_tab_get_view (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->view;
}

TwViewFrame *
tw_browser_tab_get_frame (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->frame;
}

TwTabLog *
tw_browser_tab_get_log (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->log;
}

void
tw_browser_tab_set_workspace_dir (TwBrowserTab *self,
                                  const char   *workspace_dir)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (self->workspace_dir != workspace_dir)
    {
      g_free (self->workspace_dir);
      self->workspace_dir = g_strdup (workspace_dir);
    }
}

TwPageRuntime *
tw_browser_tab_get_runtime (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->runtime;
}

const char *
tw_browser_tab_get_uri (TwBrowserTab *self)
{
  const char *uri;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  if (self->deferred_uri != NULL)
    return self->deferred_uri;

  uri = self->view ? webkit_web_view_get_uri (self->view) : NULL;

  return uri ? uri : "";
}

const char *
tw_browser_tab_get_title (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->title ? self->title : "";
}

gboolean
tw_browser_tab_get_loading (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->view != NULL && (self->wake_loading || webkit_web_view_is_loading (self->view));
}

double
tw_browser_tab_get_progress (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), 0.0);

  return self->view ? webkit_web_view_get_estimated_load_progress (self->view) : 0.0;
}

gboolean
tw_browser_tab_get_can_go_back (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->can_go_back;
}

gboolean
tw_browser_tab_get_can_go_forward (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->can_go_forward;
}

gboolean
tw_browser_tab_get_unresponsive (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->unresponsive;
}

gboolean
tw_browser_tab_get_crashed (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->crashed;
}

const char *
tw_browser_tab_get_load_error (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->load_error;
}

const char *
tw_browser_tab_get_load_error_uri (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->load_error_uri;
}

const char *
tw_browser_tab_get_owner (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->owner;
}

const char *
tw_browser_tab_get_owner_id (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->owner_id;
}

void
tw_browser_tab_set_owner (TwBrowserTab *self,
                          const char   *owner_id,
                          const char   *owner)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (g_strcmp0 (self->owner_id, owner_id) != 0)
    {
      g_free (self->owner_id);
      self->owner_id = g_strdup (owner_id);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OWNER_ID]);
    }

  if (g_strcmp0 (self->owner, owner) != 0)
    {
      g_free (self->owner);
      self->owner = g_strdup (owner);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OWNER]);
    }
}

gboolean
tw_browser_tab_load_uri (TwBrowserTab  *self,
                         const char    *uri,
                         GError       **error)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);
  g_return_val_if_fail (uri != NULL, FALSE);

  if (self->closed)
    return TRUE;

  if (!tw_address_check_url (uri, error))
    return FALSE;

  g_clear_pointer (&self->deferred_uri, g_free);
  webkit_web_view_load_uri (self->view, uri);

  return TRUE;
}

void
tw_browser_tab_defer_load (TwBrowserTab *self,
                           const char   *uri,
                           const char   *title)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));
  g_return_if_fail (uri != NULL);

  if (self->closed)
    return;

  g_free (self->deferred_uri);
  self->deferred_uri = g_strdup (uri);
  set_title (self, title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_URI]);
}

gboolean
tw_browser_tab_get_deferred (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->deferred_uri != NULL;
}

void
tw_browser_tab_wake (TwBrowserTab *self)
{
  g_autofree char *uri = NULL;

  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  /* A command waiting its turn wakes the tab itself, and waits for it. */
  if (self->deferred_uri == NULL || self->closed || self->active != NULL ||
      !g_queue_is_empty (&self->pending))
    return;

  uri = g_steal_pointer (&self->deferred_uri);
  set_wake_loading (self, TRUE);
  webkit_web_view_load_uri (self->view, uri);
}

void
tw_browser_tab_go_back (TwBrowserTab *self)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (!self->closed && webkit_web_view_can_go_back (self->view))
    webkit_web_view_go_back (self->view);
}

void
tw_browser_tab_go_forward (TwBrowserTab *self)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (!self->closed && webkit_web_view_can_go_forward (self->view))
    webkit_web_view_go_forward (self->view);
}

void
tw_browser_tab_reload (TwBrowserTab *self)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (self->closed)
    return;

  if (self->deferred_uri != NULL)
    tw_browser_tab_wake (self);
  else
    webkit_web_view_reload (self->view);
}

void
tw_browser_tab_stop (TwBrowserTab *self)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (!self->closed)
    webkit_web_view_stop_loading (self->view);
}

void
tw_browser_tab_run_async (TwBrowserTab        *self,
                          TwTabCommand         command,
                          JsonObject          *params,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  tw_browser_tab_run_as_async (self, command, params, NULL, cancellable, callback, user_data);
}

void
tw_browser_tab_run_as_async (TwBrowserTab        *self,
                             TwTabCommand         command,
                             JsonObject          *params,
                             const TwCaller      *caller,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  TabCommand *cmd;

  g_return_if_fail (TW_IS_BROWSER_TAB (self));
  g_return_if_fail (params != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_browser_tab_run_async);

  cmd = g_new0 (TabCommand, 1);
  cmd->command = command;
  cmd->params = json_object_ref (params);
  if (caller != NULL)
    {
      cmd->agent_name = g_strdup (caller->agent_name != NULL ? caller->agent_name
                                                             : caller->agent_id);
      cmd->call_id = caller->call_id;
    }
  g_task_set_task_data (task, cmd, (GDestroyNotify) tab_command_free);

  if (self->closed)
    {
      cmd->finished = TRUE;
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                               "tab %s was closed", self->id);
      return;
    }

  /* The queue owns a reference until the command finishes. */
  g_queue_push_tail (&self->pending, g_object_ref (task));

  /* Finishing the command ends the watch. */
  cmd->cancel_watch = tw_cancellable_watch (cancellable, command_cancelled_cb, task, NULL);

  schedule_next_command (self);
  update_busy (self);
}

JsonObject *
tw_browser_tab_run_finish (TwBrowserTab  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
tw_browser_tab_close (TwBrowserTab *self)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (self->closed)
    return;

  self->closed = TRUE;

  error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                       "tab %s was closed", self->id);
  fail_all_commands (self, error);

  if (self->view != NULL)
    {
      /* Nothing of the page may run on once its tab is gone, even while the
       * UI still holds the widget for a moment. */
      g_signal_handlers_disconnect_by_data (self->view, self);
      g_signal_handlers_disconnect_by_data (webkit_web_view_get_back_forward_list (self->view),
                                            self);
      webkit_web_view_terminate_web_process (self->view);
    }
}

gboolean
tw_browser_tab_get_paused (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->paused;
}

void
tw_browser_tab_set_paused (TwBrowserTab *self,
                           gboolean      paused)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  paused = !!paused;
  if (self->paused == paused)
    return;

  self->paused = paused;

  /* Queued calls end at once; the running one goes on to its end rather
   * than leave the page half done. */
  if (paused)
    {
      error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                           TW_BROWSER_TAB_PAUSED_MESSAGE, self->id);
      while (!g_queue_is_empty (&self->pending))
        finish_command (self, g_queue_peek_head (&self->pending), NULL, g_error_copy (error));
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
}

gboolean
tw_browser_tab_get_busy (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->busy;
}

const char *
tw_browser_tab_get_handoff_message (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->handoff_message;
}

const char *
tw_browser_tab_get_handoff_agent (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->handoff_task != NULL ? self->handoff_agent : NULL;
}

gboolean
tw_browser_tab_answer_handoff (TwBrowserTab *self,
                               gboolean      done)
{
  JsonObject *result;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  if (self->handoff_task == NULL)
    return FALSE;

  result = build_page_result (self, NULL);
  json_object_remove_member (result, "status");
  json_object_set_string_member (result, "outcome", done ? "done" : "cancelled");
  finish_command (self, self->handoff_task, result, NULL);

  return TRUE;
}

gboolean
tw_browser_tab_is_closed (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), TRUE);

  return self->closed;
}

JsonObject *
tw_browser_tab_describe (TwBrowserTab *self)
{
  JsonObject *object;
  JsonObject *emulation;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "browserId", self->id);
  json_object_set_string_member (object, "url", tw_browser_tab_get_uri (self));
  json_object_set_string_member (object, "title", tw_browser_tab_get_title (self));
  json_object_set_boolean_member (object, "loading", tw_browser_tab_get_loading (self));
  if (self->owner != NULL)
    json_object_set_string_member (object, "owner", self->owner);
  else
    json_object_set_null_member (object, "owner");
  /* Forms, coordinates and emulation (issue 18). */
  emulation = tw_tab_emulation_describe (self->view);
  if (emulation != NULL)
    json_object_set_object_member (object, "emulation", emulation);

  return object;
}
