/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-timeline.h"
#include "tw-timeline-private.h"

#include "tw-error.h"
#include "tw-json.h"
#include "tw-timeline-step.h"

#include <string.h>

/* The timeline read back (tw-timeline.c writes it): a session's steps, the
 * saved flows, and saving a stretch of steps as a flow. Files are read and
 * written on a thread of their own, never on the GTK main loop. */

/* Reading back */

typedef struct
{
  char *dir;
  char *prefix;  /* every session file of the run, or */
  char *path;    /* one file */
  char *flow;    /* the flow's name, for errors */
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_free (data->dir);
  g_free (data->prefix);
  g_free (data->path);
  g_free (data->flow);
  g_free (data);
}

static int
compare_steps (gconstpointer a,
               gconstpointer b)
{
  guint64 x = tw_timeline_step_get_seq (*(TwTimelineStep **) a);
  guint64 y = tw_timeline_step_get_seq (*(TwTimelineStep **) b);

  return x < y ? -1 : x > y;
}

static void
read_steps (const char *path,
            const char *dir,
            GPtrArray  *steps)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      TwTimelineStep *step = tw_timeline_step_new_from_line (lines[i], dir);

      if (step != NULL)
        g_ptr_array_add (steps, step);
    }
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* The names of the saved flows, for an error that names a missing one. */
static char *
dup_flow_names (const char *dir)
{
  g_autoptr(GDir) folder = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (folder != NULL && (name = g_dir_read_name (folder)) != NULL)
    if (g_str_has_suffix (name, ".jsonl"))
      g_ptr_array_add (names, g_strndup (name, strlen (name) - strlen (".jsonl")));
  if (names->len == 0)
    return g_strdup ("none is saved yet");
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);

  return g_strjoinv (", ", (char **) names->pdata);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *data = task_data;
  g_autoptr(GPtrArray) steps = g_ptr_array_new_with_free_func (g_object_unref);
  GListStore *store;

  if (data->path != NULL)
    {
      if (!g_file_test (data->path, G_FILE_TEST_IS_REGULAR))
        {
          g_autofree char *names = data->flow != NULL ? dup_flow_names (data->dir) : NULL;

          if (data->flow != NULL)
            g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                                     "no flow named “%s” is saved in this workspace (saved: %s)",
                                     data->flow, names);
          else
            g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                                     "no calls of that session are recorded in this "
                                     "workspace's timeline (it records nothing while its "
                                     "size is 0 in Preferences)");
          return;
        }
      read_steps (data->path, data->dir, steps);
    }
  else
    {
      g_autoptr(GDir) folder = g_dir_open (data->dir, 0, NULL);
      const char *name;

      while (folder != NULL && (name = g_dir_read_name (folder)) != NULL)
        {
          g_autofree char *path = NULL;

          if (!g_str_has_prefix (name, data->prefix) || !g_str_has_suffix (name, ".jsonl"))
            continue;
          path = g_build_filename (data->dir, name, NULL);
          read_steps (path, data->dir, steps);
        }
    }

  g_ptr_array_sort (steps, compare_steps);
  store = g_list_store_new (TW_TYPE_TIMELINE_STEP);
  g_list_store_splice (store, 0, 0, steps->pdata, steps->len);
  g_task_return_pointer (task, store, g_object_unref);
}

/* Reads the steps in a thread: those of the file @path, or with none,
 * those of every file of @dir whose name starts with @prefix; @flow names
 * the saved flow @path holds, for the error when there is none. Takes the
 * strings. */
static void
load (TwTimeline          *self,
      char                *dir,
      char                *prefix,
      char                *path,
      char                *flow,
      GCancellable        *cancellable,
      GAsyncReadyCallback  callback,
      gpointer             user_data)
{
  LoadData *data = g_new0 (LoadData, 1);
  g_autoptr(GTask) task = NULL;

  data->dir = dir;
  data->prefix = prefix;
  data->path = path;
  data->flow = flow;
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, load);
  g_task_set_task_data (task, data, (GDestroyNotify) load_data_free);
  g_task_run_in_thread (task, load_thread);
}

void
tw_timeline_load_async (TwTimeline          *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_return_if_fail (TW_IS_TIMELINE (self));

  load (self, g_strdup (tw_timeline_get_dir (self)),
        g_strconcat (_tw_timeline_get_run_id (self), "-", NULL), NULL, NULL,
        cancellable, callback, user_data);
}

void
tw_timeline_load_session_async (TwTimeline          *self,
                                const char          *agent_id,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_return_if_fail (TW_IS_TIMELINE (self));

  load (self, g_strdup (tw_timeline_get_dir (self)), NULL,
        tw_timeline_dup_session_path (self, agent_id), NULL, cancellable, callback, user_data);
}

GListModel *
tw_timeline_load_finish (TwTimeline    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Flows */

#define FLOW_NAME_MAX_CHARS 64

static char *
flows_dir (TwTimeline *self)
{
  return g_build_filename (tw_timeline_get_dir (self), "flows", NULL);
}

gboolean
tw_timeline_check_flow_name (const char  *name,
                             GError     **error)
{
  glong n_chars;

  g_return_val_if_fail (name != NULL, FALSE);

  n_chars = g_utf8_validate (name, -1, NULL) ? g_utf8_strlen (name, -1) : 0;
  if (n_chars < 1 || n_chars > FLOW_NAME_MAX_CHARS || name[0] == '.' || name[0] == ' ')
    goto invalid;
  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!g_unichar_isalnum (c) && c != ' ' && c != '-' && c != '_' && c != '.')
        goto invalid;
    }

  return TRUE;

invalid:
  g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
               "a flow's name is 1 to %d letters, digits, spaces, “-”, “_” or “.”, "
               "e.g. \"sign up\"", FLOW_NAME_MAX_CHARS);
  return FALSE;
}

char *
tw_timeline_dup_flow_path (TwTimeline  *self,
                           const char  *name,
                           GError     **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *file = NULL;

  g_return_val_if_fail (TW_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (!tw_timeline_check_flow_name (name, error))
    return NULL;

  dir = flows_dir (self);
  file = g_strconcat (name, ".jsonl", NULL);

  return g_build_filename (dir, file, NULL);
}

void
tw_timeline_load_flow_async (TwTimeline          *self,
                             const char          *name,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GError *error = NULL;
  char *path;

  g_return_if_fail (TW_IS_TIMELINE (self));

  path = tw_timeline_dup_flow_path (self, name, &error);
  if (path == NULL)
    {
      g_task_report_error (self, callback, user_data, load, error);
      return;
    }

  load (self, flows_dir (self), NULL, path, g_strdup (name), cancellable, callback, user_data);
}

static void
save_flow_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  GPtrArray *lines = task_data;
  const char *path = g_ptr_array_index (lines, 0);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GString) contents = g_string_new (NULL);
  GError *error = NULL;

  for (guint i = 1; i < lines->len; i++)
    {
      g_autoptr(JsonNode) node = json_from_string (g_ptr_array_index (lines, i), NULL);
      g_autofree char *line = NULL;

      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        continue;
      /* The pictures stay with the timeline, which may make room for
       * newer ones; a flow is its steps. */
      json_object_remove_member (json_node_get_object (node), "before");
      json_object_remove_member (json_node_get_object (node), "after");
      line = json_to_string (node, FALSE);
      g_string_append_printf (contents, "%s\n", line);
    }

  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      !g_file_set_contents_full (path, contents->str, contents->len,
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error))
    {
      if (error == NULL)
        error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                             "could not make the folder of flows %s", dir);
      g_task_return_error (task, error);
      return;
    }

  g_task_return_boolean (task, TRUE);
}

void
tw_timeline_save_flow_async (TwTimeline          *self,
                             const char          *name,
                             GListModel          *steps,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;
  GPtrArray *lines;
  char *path;
  guint n;

  g_return_if_fail (TW_IS_TIMELINE (self));
  g_return_if_fail (G_IS_LIST_MODEL (steps));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_timeline_save_flow_async);
  path = tw_timeline_dup_flow_path (self, name, &error);
  if (path == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  /* The path first, then the lines. */
  lines = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (lines, path);
  n = g_list_model_get_n_items (steps);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TwTimelineStep) step = g_list_model_get_item (steps, i);

      g_ptr_array_add (lines, g_strdup (tw_timeline_step_get_line (step)));
    }
  g_task_set_task_data (task, lines, (GDestroyNotify) g_ptr_array_unref);
  g_task_run_in_thread (task, save_flow_thread);
}

gboolean
tw_timeline_save_flow_finish (TwTimeline    *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
