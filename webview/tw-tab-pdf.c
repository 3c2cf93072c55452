/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-pdf.h"

#include "tw-error.h"
#include "tw-workspace-path.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>

/* How long printing may take before the call gives up. */
#define PDF_TIMEOUT_MS 30000

typedef struct
{
  WebKitWebView        *view;
  WebKitPrintOperation *operation;
  char                 *path;
  gboolean              old_backgrounds;
  guint                 timeout_id;
  gboolean              done;
} PdfData;

static void
pdf_data_free (PdfData *data)
{
  g_clear_handle_id (&data->timeout_id, g_source_remove);
  if (data->operation != NULL)
    g_signal_handlers_disconnect_by_data (data->operation, data);
  g_clear_object (&data->operation);
  if (data->view != NULL)
    webkit_settings_set_print_backgrounds (webkit_web_view_get_settings (data->view),
                                           data->old_backgrounds);
  g_clear_object (&data->view);
  g_free (data->path);
  g_free (data);
}

static void
pdf_finish (GTask  *task,
            GError *error)
{
  PdfData *data = g_task_get_task_data (task);
  GStatBuf st;
  JsonObject *reply;

  if (data->done)
    return;
  data->done = TRUE;
  g_clear_handle_id (&data->timeout_id, g_source_remove);

  if (error != NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  /* Report only a file that is there. */
  if (g_stat (data->path, &st) != 0 || st.st_size == 0)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "printing ended but wrote no PDF at %s", data->path);
      g_object_unref (task);
      return;
    }

  reply = json_object_new ();
  json_object_set_string_member (reply, "path", data->path);
  json_object_set_int_member (reply, "size", (gint64) st.st_size);
  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
  g_object_unref (task);
}

static void
operation_failed_cb (WebKitPrintOperation *operation,
                     GError               *error,
                     GTask                *task)
{
  pdf_finish (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                 "printing to PDF failed: %s", error->message));
}

static void
operation_finished_cb (WebKitPrintOperation *operation,
                       GTask                *task)
{
  pdf_finish (task, NULL);
}

static gboolean
pdf_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  PdfData *data = g_task_get_task_data (task);

  data->timeout_id = 0;
  pdf_finish (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                                 "printing to PDF took longer than %d ms", PDF_TIMEOUT_MS));

  return G_SOURCE_REMOVE;
}

static const char *
paper_name (const char *size)
{
  static const struct { const char *name; const char *gtk; } papers[] = {
    { "A4", GTK_PAPER_NAME_A4 },
    { "A3", GTK_PAPER_NAME_A3 },
    { "A5", GTK_PAPER_NAME_A5 },
    { "Letter", GTK_PAPER_NAME_LETTER },
    { "Legal", GTK_PAPER_NAME_LEGAL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (papers); i++)
    if (g_ascii_strcasecmp (size, papers[i].name) == 0)
      return papers[i].gtk;

  return NULL;
}

void
tw_tab_pdf_run (const TwTabJob *job,
                GTask          *task)
{
  WebKitWebView *view = job->view;
  JsonObject *params = job->params;
  g_autoptr(GError) error = NULL;
  g_autoptr(GtkPrintSettings) settings = NULL;
  g_autoptr(GtkPageSetup) setup = NULL;
  g_autoptr(GtkPaperSize) paper = NULL;
  g_autofree char *uri = NULL;
  const char *path = json_object_get_string_member_with_default (params, "path", NULL);
  const char *size = json_object_get_string_member_with_default (params, "paperSize", "A4");
  gboolean landscape = json_object_get_boolean_member_with_default (params, "landscape", FALSE);
  gboolean background = json_object_get_boolean_member_with_default (params, "background", TRUE);
  GtkPageOrientation orientation = landscape ? GTK_PAGE_ORIENTATION_LANDSCAPE
                                             : GTK_PAGE_ORIENTATION_PORTRAIT;
  WebKitSettings *view_settings;
  PdfData *data;

  g_return_if_fail (WEBKIT_IS_WEB_VIEW (view));

  if (path == NULL || paper_name (size) == NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               path == NULL ? "path must name a PDF file in the workspace"
                                            : "paperSize must be A4, A3, A5, Letter or Legal");
      return;
    }

  data = g_new0 (PdfData, 1);
  g_task_set_task_data (task, data, (GDestroyNotify) pdf_data_free);

  /* Checked before anything prints, so a refused path leaves nothing. */
  data->path = tw_workspace_path_check (job->workspace_dir, path, TW_WORKSPACE_PATH_NEW_FILE, &error);
  if (data->path == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  view_settings = webkit_web_view_get_settings (view);
  data->view = g_object_ref (view);
  data->old_backgrounds = webkit_settings_get_print_backgrounds (view_settings);
  webkit_settings_set_print_backgrounds (view_settings, background);

  /* GTK's "Print to File" printer writes the PDF itself: no dialog, no
   * print server. */
  uri = g_filename_to_uri (data->path, NULL, NULL);
  settings = gtk_print_settings_new ();
  gtk_print_settings_set_printer (settings, "Print to File");
  gtk_print_settings_set (settings, GTK_PRINT_SETTINGS_OUTPUT_FILE_FORMAT, "pdf");
  gtk_print_settings_set (settings, GTK_PRINT_SETTINGS_OUTPUT_URI, uri);
  gtk_print_settings_set_orientation (settings, orientation);

  paper = gtk_paper_size_new (paper_name (size));
  setup = gtk_page_setup_new ();
  gtk_page_setup_set_paper_size_and_default_margins (setup, paper);
  gtk_page_setup_set_orientation (setup, orientation);

  /* An old file there must not pass for the new one. */
  g_unlink (data->path);

  data->operation = webkit_print_operation_new (view);
  webkit_print_operation_set_print_settings (data->operation, settings);
  webkit_print_operation_set_page_setup (data->operation, setup);
  g_signal_connect (data->operation, "failed", G_CALLBACK (operation_failed_cb), task);
  g_signal_connect (data->operation, "finished", G_CALLBACK (operation_finished_cb), task);
  data->timeout_id = g_timeout_add (PDF_TIMEOUT_MS, pdf_timeout_cb, task);

  /* The operation's signals hold the task's reference from here on. */
  webkit_print_operation_print (data->operation);
  g_object_ref (task);
}
