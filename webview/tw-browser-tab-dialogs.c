/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

/* What the page asks of the browser: dialogs (answered at once), dropdown
 * menus and colour choosers (kept off the person's screen while an agent
 * acts), downloads, new windows and closing itself. */

/* How many answered dialogs a tab remembers. Commands only ever ask for the
 * ones opened while they ran, so a handful is plenty. */
#define MAX_DIALOGS 64

void
_tw_tab_dialog_free (TabDialog *dialog)
{
  g_free (dialog->message);
  g_free (dialog->prompt_text);
  g_free (dialog);
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

/* Results and errors */

void
_tw_browser_tab_add_dialogs (TwBrowserTab *self,
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
    _tw_tab_dialog_free (g_queue_pop_head (&self->dialogs));

  g_signal_emit (self, _tw_browser_tab_signals[SCRIPT_DIALOG], 0, record->type, record->message);

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
  g_signal_emit (self, _tw_browser_tab_signals[CLOSE_REQUESTED], 0);
}

static GtkWidget *
view_create_cb (TwBrowserTab           *self,
                WebKitNavigationAction *action,
                WebKitWebView          *view)
{
  g_autoptr(TwBrowserTab) tab = NULL;

  /* window.open() and target=_blank links become tabs of the same
   * workspace, driven by whoever drives this one. */
  /* It shares this tab's network session, so it is private when this one is. */
  tab = _tw_browser_tab_new_internal (NULL, self->view, self->private_session, self->owner_id,
                                      self->owner);
  tab->context_name = g_strdup (self->context_name);
  tw_browser_tab_share_process_with (tab, self);
  tw_browser_tab_set_workspace_dir (tab, self->workspace_dir);
  g_signal_emit (self, _tw_browser_tab_signals[NEW_TAB], 0, tab);

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

/* The tab answers its view's requests from the start. */
void
_tw_browser_tab_init_dialogs (TwBrowserTab *self)
{
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
}
