/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-gemini-install.h"

#include "tw-gemini-extension.h"

typedef struct
{
  GtkWindow              *parent;
  char                   *home;
  TwGeminiExtensionState  state;
  /* The person answered the question (or the dialog went without one). */
  gboolean                answered;
} Run;

static void
run_free (Run *run)
{
  g_clear_object (&run->parent);
  g_free (run->home);
  g_free (run);
}

static GtkWidget *
message_dialog (Run        *run,
                const char *heading,
                const char *body)
{
  GtkWidget *dialog = adw_message_dialog_new (run->parent, heading, body);

  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);

  return dialog;
}

/* A file's text as the person reads it in the dialog. */
static GtkWidget *
file_view (const char *title,
           const char *text)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *heading = gtk_label_new (title);
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_label_set_wrap (GTK_LABEL (heading), TRUE);
  gtk_widget_add_css_class (heading, "heading");
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "card");
  gtk_widget_add_css_class (label, "tw-snippet");
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), label);

  return box;
}

/* Says what went wrong, then finishes with it. */
static void
fail (GTask  *task,
      GError *error)
{
  Run *run = g_task_get_task_data (task);
  GtkWidget *dialog = message_dialog (run, _("Gemini CLI Extension Not Installed"), error->message);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
  g_task_return_error (task, error);
}

static void
installed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!tw_gemini_extension_install_finish (result, NULL, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, error);
      else
        fail (task, error);
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
confirm_response_cb (AdwMessageDialog *dialog,
                     const char       *response,
                     GTask            *task)
{
  Run *run = g_task_get_task_data (task);

  run->answered = TRUE;

  if (!g_str_equal (response, "install") && !g_str_equal (response, "replace"))
    {
      g_task_return_boolean (task, FALSE);
      return;
    }

  /* The person saw a different file and chose to replace it: only then
   * may it go. Should a file turn up since they were asked, it stays. */
  tw_gemini_extension_install_async (run->home, g_str_equal (response, "replace"),
                                     g_task_get_cancellable (task), installed_cb,
                                     g_object_ref (task));
}

/* A dialog that went away unanswered (its window closed with the app, say)
 * is a no: nothing is written. */
static void
confirm_closure_free (gpointer  data,
                      GClosure *closure)
{
  GTask *task = data;
  Run *run = g_task_get_task_data (task);

  if (!run->answered)
    {
      run->answered = TRUE;
      g_task_return_boolean (task, FALSE);
    }

  g_object_unref (task);
}

static void
ask (GTask      *task,
     const char *current)
{
  Run *run = g_task_get_task_data (task);
  g_autofree char *path = tw_gemini_extension_dup_path (run->home);
  g_autofree char *contents = tw_gemini_extension_dup_contents ();
  g_autofree char *body = NULL;
  GtkWidget *extra = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *dialog;
  gboolean replacing = current != NULL;

  if (replacing)
    body = g_strdup_printf (_("%s is there already and says something else, perhaps changes of "
                              "your own. Replacing it loses them."), path);
  else
    body = g_strdup_printf (_("So that Gemini CLI reaches the tabs, Tabwright writes one file, "
                              "%s, and nothing else. It names no address or token: Gemini CLI "
                              "reads them from TABWRIGHT_MCP_URL and TABWRIGHT_MCP_TOKEN, which "
                              "each agent Tabwright launches gets. Removing the folder "
                              "uninstalls it."), path);

  dialog = message_dialog (run, replacing ? _("Replace Gemini CLI Extension?")
                                          : _("Install Gemini CLI Extension?"), body);
  if (replacing)
    gtk_box_append (GTK_BOX (extra), file_view (_("There now"), current));
  gtk_box_append (GTK_BOX (extra), file_view (replacing ? _("Tabwright would write")
                                                        : _("What Tabwright writes"),
                                              contents));
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), extra);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"));
  if (replacing)
    {
      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "replace", _("_Replace"));
      adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "replace",
                                                  ADW_RESPONSE_DESTRUCTIVE);
    }
  else
    {
      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "install", _("_Install"));
      adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "install",
                                                  ADW_RESPONSE_SUGGESTED);
    }
  /* Nothing is written by just pressing Enter or Escape. */
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");

  g_signal_connect_data (dialog, "response", G_CALLBACK (confirm_response_cb),
                         g_object_ref (task), confirm_closure_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
checked_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Run *run = g_task_get_task_data (task);
  g_autofree char *current = NULL;
  GError *error = NULL;

  if (!tw_gemini_extension_check_finish (result, &run->state, &current, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, error);
      else
        fail (task, error);
      return;
    }

  if (run->state == TW_GEMINI_EXTENSION_INSTALLED)
    {
      g_autofree char *path = tw_gemini_extension_dup_path (run->home);
      g_autofree char *body = g_strdup_printf (_("%s is installed and up to date; "
                                                 "nothing was written."), path);
      GtkWidget *dialog = message_dialog (run, _("Gemini CLI Extension Installed"), body);

      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
      g_task_return_boolean (task, TRUE);
      return;
    }

  ask (task, run->state == TW_GEMINI_EXTENSION_DIFFERENT ? current : NULL);
}

void
tw_gemini_install_run_async (GtkWindow           *parent,
                             const char          *home,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Run *run;

  g_return_if_fail (parent == NULL || GTK_IS_WINDOW (parent));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_gemini_install_run_async);
  run = g_new0 (Run, 1);
  run->parent = parent != NULL ? g_object_ref (parent) : NULL;
  run->home = home != NULL ? g_strdup (home) : tw_gemini_extension_dup_home ();
  g_task_set_task_data (task, run, (GDestroyNotify) run_free);

  tw_gemini_extension_check_async (run->home, cancellable, checked_cb, g_steal_pointer (&task));
}

gboolean
tw_gemini_install_run_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == tw_gemini_install_run_async,
                        FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
