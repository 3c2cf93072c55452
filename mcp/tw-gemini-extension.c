/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "tw-gemini-extension.h"

#include "tw-mcp-snippets.h"

#include <errno.h>

#define FILE_NAME "gemini-extension.json"

char *
tw_gemini_extension_dup_home (void)
{
  const char *home = g_getenv ("GEMINI_CLI_HOME");

  /* Gemini CLI looks for ~/.gemini in $GEMINI_CLI_HOME when it is set. */
  return g_strdup (home != NULL && home[0] != '\0' ? home : g_get_home_dir ());
}

char *
tw_gemini_extension_dup_path (const char *home)
{
  g_autofree char *own_home = home == NULL ? tw_gemini_extension_dup_home () : NULL;

  return g_build_filename (home != NULL ? home : own_home, TW_MCP_GEMINI_EXTENSION_DIR,
                           FILE_NAME, NULL);
}

char *
tw_gemini_extension_dup_contents (void)
{
  /* The bytes the snippet's printf '%s\n' writes, so either way of
   * installing leaves the same file. */
  return g_strconcat (tw_mcp_snippet_gemini_extension (), "\n", NULL);
}

static gboolean
same_json (const char *a,
           const char *b)
{
  g_autoptr(JsonParser) parser_a = json_parser_new ();
  g_autoptr(JsonParser) parser_b = json_parser_new ();

  if (!json_parser_load_from_data (parser_a, a, -1, NULL) ||
      !json_parser_load_from_data (parser_b, b, -1, NULL))
    return FALSE;

  return json_node_equal (json_parser_get_root (parser_a), json_parser_get_root (parser_b));
}

gboolean
tw_gemini_extension_check (const char              *home,
                           TwGeminiExtensionState  *state,
                           char                   **current,
                           GError                 **error)
{
  g_autofree char *path = tw_gemini_extension_dup_path (home);
  g_autofree char *expected = tw_gemini_extension_dup_contents ();
  g_autofree char *contents = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (state != NULL, FALSE);

  if (current != NULL)
    *current = NULL;

  if (!g_file_get_contents (path, &contents, NULL, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          *state = TW_GEMINI_EXTENSION_MISSING;
          return TRUE;
        }

      g_set_error (error, G_IO_ERROR, g_io_error_from_file_error (local_error->code),
                   _("Cannot read %s: %s"), path, local_error->message);
      return FALSE;
    }

  if (same_json (contents, expected))
    {
      *state = TW_GEMINI_EXTENSION_INSTALLED;
      return TRUE;
    }

  *state = TW_GEMINI_EXTENSION_DIFFERENT;
  if (current != NULL)
    *current = g_steal_pointer (&contents);

  return TRUE;
}

gboolean
tw_gemini_extension_install (const char              *home,
                             gboolean                 replace,
                             TwGeminiExtensionState  *previous,
                             GError                 **error)
{
  g_autofree char *path = tw_gemini_extension_dup_path (home);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *contents = tw_gemini_extension_dup_contents ();
  g_autoptr(GError) local_error = NULL;
  TwGeminiExtensionState state;

  if (!tw_gemini_extension_check (home, &state, NULL, error))
    return FALSE;

  if (previous != NULL)
    *previous = state;

  if (state == TW_GEMINI_EXTENSION_INSTALLED)
    return TRUE;

  if (state == TW_GEMINI_EXTENSION_DIFFERENT && !replace)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("%s is there already and says something else; it was left as it is"),
                   path);
      return FALSE;
    }

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot make the folder %s: %s"), dir, g_strerror (saved_errno));
      return FALSE;
    }

  /* Written whole or not at all: Gemini CLI never reads half a file. It
   * holds no secret, so it is as readable as Gemini CLI's own files. */
  if (!g_file_set_contents_full (path, contents, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644,
                                 &local_error))
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_file_error (local_error->code),
                   _("Cannot write %s: %s"), path, local_error->message);
      return FALSE;
    }

  return TRUE;
}

/* Off the main thread */

typedef struct
{
  char                   *home;
  gboolean                replace;
  TwGeminiExtensionState  state;
  char                   *current;
} Job;

static void
job_free (Job *job)
{
  g_free (job->home);
  g_free (job->current);
  g_free (job);
}

static void
check_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;

  if (tw_gemini_extension_check (job->home, &job->state, &job->current, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
install_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;

  if (tw_gemini_extension_install (job->home, job->replace, &job->state, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
run_job (const char          *home,
         gboolean             replace,
         GTaskThreadFunc      thread,
         gpointer             source_tag,
         GCancellable        *cancellable,
         GAsyncReadyCallback  callback,
         gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  Job *job = g_new0 (Job, 1);

  job->home = home != NULL ? g_strdup (home) : tw_gemini_extension_dup_home ();
  job->replace = replace;
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  /* Once the person said yes, the file is written even if the window that
   * asked goes away meanwhile. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, thread);
}

void
tw_gemini_extension_check_async (const char          *home,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  run_job (home, FALSE, check_thread, tw_gemini_extension_check_async, cancellable, callback,
           user_data);
}

gboolean
tw_gemini_extension_check_finish (GAsyncResult            *result,
                                  TwGeminiExtensionState  *state,
                                  char                   **current,
                                  GError                 **error)
{
  Job *job;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == tw_gemini_extension_check_async,
                        FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;

  job = g_task_get_task_data (G_TASK (result));
  if (state != NULL)
    *state = job->state;
  if (current != NULL)
    *current = g_steal_pointer (&job->current);

  return TRUE;
}

void
tw_gemini_extension_install_async (const char          *home,
                                   gboolean             replace,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  run_job (home, replace, install_thread, tw_gemini_extension_install_async, cancellable,
           callback, user_data);
}

gboolean
tw_gemini_extension_install_finish (GAsyncResult            *result,
                                    TwGeminiExtensionState  *previous,
                                    GError                 **error)
{
  Job *job;

  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == tw_gemini_extension_install_async,
                        FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;

  job = g_task_get_task_data (G_TASK (result));
  if (previous != NULL)
    *previous = job->state;

  return TRUE;
}
