/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-actions-private.h"

#include "tw-error.h"

/* browser_upload: the file chooser the click opened is answered with the
 * files; any other action that opens one closes it. */

gboolean
_tw_tab_actions_on_run_file_chooser_cb (WebKitWebView            *view,
                                        WebKitFileChooserRequest *request,
                                        GTask                    *task)
{
  g_autoptr(GTask) hold = g_object_ref (task);
  ActionRun *run = g_task_get_task_data (task);

  if (run->phase == PHASE_DONE)
    return FALSE;

  /* A click that opens a chooser must not leave a file dialog on the
   * person's screen: it is closed, and the result points to
   * browser_upload. */
  if (run->command != TW_TAB_COMMAND_UPLOAD || run->chooser_answered)
    {
      webkit_file_chooser_request_cancel (request);
      json_object_set_boolean_member (run->result, "fileChooser", TRUE);
      return TRUE;
    }

  run->chooser_answered = TRUE;

  if (g_strv_length (run->files) > 1 && !webkit_file_chooser_request_get_select_multiple (request))
    {
      webkit_file_chooser_request_cancel (request);
      run->chooser_error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                        "This file input takes one file, and %u were given",
                                        g_strv_length (run->files));
    }
  else
    {
      webkit_file_chooser_request_select_files (request, (const char * const *) run->files);
    }

  if (run->phase == PHASE_CHOOSER)
    {
      g_clear_handle_id (&run->timer_id, g_source_remove);
      if (run->chooser_error != NULL)
        _tw_tab_actions_run_fail (task, g_steal_pointer (&run->chooser_error));
      else
        _tw_tab_actions_run_settle (task);
    }

  return TRUE;
}

void
_tw_tab_actions_chooser_timed_out (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  JsonObject *element = NULL;
  const char *ref = json_object_get_string_member_with_default (run->params, "ref", "");

  if (json_object_has_member (run->result, "element"))
    element = json_object_get_object_member (run->result, "element");

  _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_INTERACTABLE,
                                               "Clicking %s %s \"%s\" opened no file chooser; give the ref of a "
                                               "file input, or of the button or label that opens one",
                                               ref,
                                               element != NULL ? json_object_get_string_member_with_default (element, "role", "") : "",
                                               element != NULL ? json_object_get_string_member_with_default (element, "name", "") : ""));
}

void
_tw_tab_actions_upload_checked (GTask      *task,
                                JsonObject *answer)
{
  ActionRun *run = g_task_get_task_data (task);

  if (answer != NULL && json_object_has_member (answer, "files") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (answer, "files")))
    json_object_set_member (run->result, "files",
                            json_node_copy (json_object_get_member (answer, "files")));

  _tw_tab_actions_run_succeed (task);
}
