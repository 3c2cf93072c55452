/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "tw-timeline-export-dialog.h"
#include "tw-timeline-export.h"

typedef struct
{
  GtkWindow  *parent;
  TwTimeline *timeline;
  char       *agent_id;
  char       *browser_id;
  char       *folder;
} ExportDialog;

static void
export_dialog_free (ExportDialog *dialog)
{
  g_clear_weak_pointer (&dialog->parent);
  g_clear_object (&dialog->timeline);
  g_free (dialog->agent_id);
  g_free (dialog->browser_id);
  g_free (dialog->folder);
  g_free (dialog);
}

static void
say (ExportDialog *dialog,
     const char   *heading,
     const char   *body)
{
  GtkWidget *message = adw_message_dialog_new (dialog->parent, heading, body);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (message), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (message));
}

static void
exported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  ExportDialog *dialog = user_data;
  g_autoptr(GError) error = NULL;
  gssize n = tw_timeline_export_finish (TW_TIMELINE (object), result, &error);

  if (n < 0)
    say (dialog, _("Export Failed"), error->message);
  else
    {
      g_autofree char *body = g_strdup_printf (g_dngettext (NULL, "%zd call was exported to %s.",
                                                            "%zd calls were exported to %s.", n),
                                               n, dialog->folder);

      say (dialog, _("Session Exported"), body);
    }
  export_dialog_free (dialog);
}

static void
response_cb (GtkNativeDialog *chooser,
             int              response,
             gpointer         user_data)
{
  ExportDialog *dialog = user_data;
  g_autoptr(GFile) folder = NULL;

  /* GtkFileDialog comes with GTK 4.10; the chooser is what 4.8 has. */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (response == GTK_RESPONSE_ACCEPT)
    folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  G_GNUC_END_IGNORE_DEPRECATIONS
  g_object_unref (chooser);
  dialog->folder = folder != NULL ? g_file_get_path (folder) : NULL;
  if (dialog->folder == NULL)
    {
      export_dialog_free (dialog);
      return;
    }
  tw_timeline_export_async (dialog->timeline, dialog->agent_id, dialog->browser_id, dialog->folder, NULL,
                            exported_cb, dialog);
}

void
tw_timeline_export_dialog_show (GtkWindow  *parent,
                                TwTimeline *timeline,
                                const char *agent_id,
                                const char *browser_id)
{
  ExportDialog *dialog;
  GtkFileChooserNative *chooser;

  g_return_if_fail (TW_IS_TIMELINE (timeline));
  g_return_if_fail (agent_id != NULL);

  dialog = g_new0 (ExportDialog, 1);
  g_set_weak_pointer (&dialog->parent, parent);
  dialog->timeline = g_object_ref (timeline);
  dialog->agent_id = g_strdup (agent_id);
  dialog->browser_id = g_strdup (browser_id);
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    chooser = gtk_file_chooser_native_new (_("Export Session"), parent, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                           _("_Export"), _("_Cancel"));
  G_GNUC_END_IGNORE_DEPRECATIONS
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (response_cb), dialog);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
