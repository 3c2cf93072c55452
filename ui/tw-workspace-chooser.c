/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-workspace-chooser.h"

static void
response_cb (GtkNativeDialog *dialog,
             int              response,
             gpointer         user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GFile) folder = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);

  if (g_task_return_error_if_cancelled (task))
    return;

  if (folder == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               "No folder was chosen");
      return;
    }

  path = g_file_get_path (folder);
  if (path == NULL)
    {
      /* Remote folders (sftp://, …) have no path an agent could work in. */
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _("Only folders on this computer can be workspaces"));
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&path), g_free);
}

void
tw_workspace_chooser_open_async (GtkWindow           *parent,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  GtkFileChooserNative *dialog;
  GTask *task;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_workspace_chooser_open_async);

  dialog = gtk_file_chooser_native_new (_("Open Workspace"), parent,
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                        _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (response_cb), task);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

char *
tw_workspace_chooser_open_finish (GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
