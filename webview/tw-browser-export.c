/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-private.h"

#include "tw-error.h"
#include "tw-json.h"
#include "tw-timeline-export.h"

#include <stdlib.h>
#include <string.h>

/* browser_export_session (issue 33): an agent's session of the workspace's
 * timeline, or one tab's part of it, written to a folder of the workspace
 * as the timeline's Export… button writes it (tw-timeline-export.h), for
 * the agent to hand on. The folder is named relative to the workspace and
 * never leads outside it. */

/* What an export writes in its folder, by the member of the reply's
 * "files" that names it. */
static const struct
{
  const char *member;
  const char *name;
} export_files[] = {
  { "calls", "calls.jsonl" },
  { "images", "images" },
  { "har", "network.har" },
  { "console", "console.jsonl" },
  { "video", "video.webm" },
};

typedef struct
{
  TwTimeline *timeline;
  char       *session;
  char       *browser_id;
  char       *folder;     /* as the reply names it, relative to the workspace */
  char       *path;       /* absolute */
} ExportRun;

static void
export_run_free (ExportRun *run)
{
  g_clear_object (&run->timeline);
  g_free (run->session);
  g_free (run->browser_id);
  g_free (run->folder);
  g_free (run->path);
  g_free (run);
}

/* Whether @path is @dir or lies under it; both resolved. */
static gboolean
path_is_inside (const char *path,
                const char *dir)
{
  gsize n = strlen (dir);

  return strncmp (path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/' || g_str_equal (dir, "/"));
}

/* The absolute path of @folder, relative to @workspace_dir: an absolute
 * path, a "..", or a link in the workspace that leads outside it is
 * browser_denied. The folder need not exist yet. */
static char *
resolve_folder (const char  *workspace_dir,
                const char  *folder,
                GError     **error)
{
  g_auto(GStrv) parts = NULL;
  g_autofree char *workspace = NULL;
  g_autofree char *full = NULL;
  g_autofree char *existing = NULL;
  g_autofree char *resolved = NULL;

  if (workspace_dir == NULL || (workspace = realpath (workspace_dir, NULL)) == NULL)
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                           "this workspace has no folder to export into");
      return NULL;
    }
  if (g_path_is_absolute (folder) || folder[0] == '~')
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                   "folder “%s” is not inside the workspace: give a folder relative to it, "
                   "e.g. \"exports/checkout\"", folder);
      return NULL;
    }
  parts = g_strsplit (folder, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (g_str_equal (parts[i], ".."))
      {
        g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                     "folder “%s” leads out of the workspace (“..”): give a folder inside it, "
                     "e.g. \"exports/checkout\"", folder);
        return NULL;
      }

  full = g_canonicalize_filename (folder, workspace);

  /* A link planted in the workspace could lead out of it: the deepest part
   * of the path that exists must resolve inside. */
  existing = g_strdup (full);
  while (!g_file_test (existing, G_FILE_TEST_EXISTS) && path_is_inside (existing, workspace) &&
         !g_str_equal (existing, workspace))
    {
      char *parent = g_path_get_dirname (existing);

      g_free (existing);
      existing = parent;
    }
  resolved = realpath (existing, NULL);
  if (resolved == NULL || !path_is_inside (resolved, workspace))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                   "folder “%s” is not inside the workspace once its links are followed", folder);
      return NULL;
    }
  if (g_file_test (existing, G_FILE_TEST_EXISTS) && g_str_equal (existing, full))
    {
      if (!g_file_test (resolved, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "“%s” is a file, not a folder: name a folder to export into", folder);
          return NULL;
        }
      /* Nor may the files it replaces lead out. */
      for (guint i = 0; i < G_N_ELEMENTS (export_files); i++)
        {
          g_autofree char *file = g_build_filename (full, export_files[i].name, NULL);

          if (g_file_test (file, G_FILE_TEST_IS_SYMLINK))
            {
              g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                           "%s in “%s” is a link: the export replaces it, so it must be a "
                           "plain file or folder", export_files[i].name, folder);
              return NULL;
            }
        }
    }

  return g_steal_pointer (&full);
}

static char *
default_folder (const char *session,
                const char *browser_id)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *time = g_date_time_format (now, "%Y%m%d-%H%M%S");
  GString *name = g_string_new ("exports/");

  for (const char *p = session; *p != '\0' && name->len < 48; p++)
    g_string_append_c (name, g_ascii_isalnum (*p) || *p == '-' || *p == '_' ? *p : '_');
  if (browser_id != NULL)
    g_string_append_printf (name, "-%s", browser_id);
  g_string_append_printf (name, "-%s", time);

  return g_string_free (name, FALSE);
}

static void
exported_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ExportRun *run = g_task_get_task_data (task);
  TwTimelineExportCounts counts = { 0 };
  g_autoptr(GError) error = NULL;
  JsonObject *reply;
  JsonObject *files;

  if (!tw_timeline_export_finish_counts (TW_TIMELINE (object), result, &counts, &error))
    {
      if (error->domain == TW_BROWSER_ERROR)
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                 "could not write the export into %s: %s", run->folder,
                                 error->message);
      return;
    }

  reply = json_object_new ();
  json_object_set_string_member (reply, "folder", run->folder);
  json_object_set_string_member (reply, "path", run->path);
  json_object_set_string_member (reply, "session", run->session);
  if (run->browser_id != NULL)
    json_object_set_string_member (reply, "browserId", run->browser_id);
  json_object_set_int_member (reply, "calls", counts.calls);
  json_object_set_int_member (reply, "images", counts.images);
  json_object_set_int_member (reply, "requests", counts.requests);
  json_object_set_int_member (reply, "consoleMessages", counts.console);
  files = json_object_new ();
  for (guint i = 0; i < G_N_ELEMENTS (export_files); i++)
    {
      g_autofree char *file = g_build_filename (run->folder, export_files[i].name, NULL);

      json_object_set_string_member (files, export_files[i].member, file);
    }
  json_object_set_object_member (reply, "files", files);

  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

/* What the caller just did is exported once it is written. */
static void
settled_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  ExportRun *run = g_task_get_task_data (task);

  tw_timeline_settle_finish (TW_TIMELINE (object), result, NULL);
  tw_timeline_export_async (run->timeline, run->session, run->browser_id, run->path,
                            g_task_get_cancellable (task), exported_cb, task);
}

void
tw_browser_run_export_command (TwBrowser              *self,
                               const TwServiceRequest *request,
                               GTask                  *task)
{
  const char *browser_id = request->browser_id;
  const char *session = tw_json_get_string (request->params, "session", NULL);
  const char *folder = tw_json_get_string (request->params, "folder", NULL);
  g_autofree char *chosen = NULL;
  GError *error = NULL;
  ExportRun *run;

  g_assert (TW_IS_BROWSER (self));
  g_assert (G_IS_TASK (task));

  if (session == NULL)
    session = request->caller != NULL ? request->caller->agent_id : NULL;
  if (session == NULL)
    {
      error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "name the session to export (an agent's id)");
      goto failed;
    }
  if (self->timeline == NULL || tw_timeline_get_max_bytes (self->timeline) == 0)
    {
      error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                                   "this workspace keeps no timeline to export (its size is 0 "
                                   "in Preferences)");
      goto failed;
    }

  chosen = folder != NULL ? g_strdup (folder) : default_folder (session, browser_id);
  run = g_new0 (ExportRun, 1);
  run->path = resolve_folder (self->workspace_dir, chosen, &error);
  if (run->path == NULL)
    {
      export_run_free (run);
      goto failed;
    }
  run->timeline = g_object_ref (self->timeline);
  run->session = g_strdup (session);
  run->browser_id = g_strdup (browser_id);
  run->folder = g_steal_pointer (&chosen);
  g_task_set_task_data (task, run, (GDestroyNotify) export_run_free);

  tw_timeline_settle_async (self->timeline, g_task_get_cancellable (task), settled_cb, task);
  return;

failed:
  g_task_return_error (task, error);
  g_object_unref (task);
}
