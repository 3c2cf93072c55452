/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-agent-preset-private.h"

#include <string.h>

/* Finding the program */

gboolean
tw_agent_preset_in_flatpak (void)
{
  return g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS);
}

typedef struct
{
  char  *program;
  char  *cwd;
  char **search_paths;
} Locate;

static void
locate_free (Locate *locate)
{
  g_free (locate->program);
  g_free (locate->cwd);
  g_strfreev (locate->search_paths);
  g_free (locate);
}

static gboolean
is_program (const char *path)
{
  return g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) && !g_file_test (path, G_FILE_TEST_IS_DIR);
}

static char *
expand_home (const char *path)
{
  if (g_str_equal (path, "~"))
    return g_strdup (g_get_home_dir ());

  if (g_str_has_prefix (path, "~/"))
    return g_build_filename (g_get_home_dir (), path + 2, NULL);

  return g_strdup (path);
}

static void
locate_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Locate *locate = task_data;
  g_autofree char *found = NULL;

  if (strchr (locate->program, '/') != NULL)
    {
      g_autofree char *path = g_canonicalize_filename (locate->program, locate->cwd);

      g_task_return_pointer (task, is_program (path) ? g_steal_pointer (&path) : NULL, g_free);
      return;
    }

  found = g_find_program_in_path (locate->program);

  /* Desktop sessions often start apps with a shorter PATH than a terminal
   * has; agents installed per user live in places like ~/.local/bin. */
  for (guint i = 0; found == NULL && locate->search_paths[i] != NULL; i++)
    {
      g_autofree char *dir = expand_home (locate->search_paths[i]);
      g_autofree char *path = g_build_filename (dir, locate->program, NULL);

      if (is_program (path))
        found = g_steal_pointer (&path);
    }

  g_task_return_pointer (task, g_steal_pointer (&found), g_free);
}

/* Inside Flatpak the sandbox's PATH says nothing about the host's, so a
 * small shell on the host answers: the same search, printed on stdout. */
static const char host_locate_script[] =
  "p=$1; cwd=$2; shift 2\n"
  "case $p in\n"
  "  /*) [ -x \"$p\" ] && [ ! -d \"$p\" ] && { printf '%s\\n' \"$p\"; exit 0; }; exit 1 ;;\n"
  "  */*) [ -x \"$cwd/$p\" ] && [ ! -d \"$cwd/$p\" ] && { printf '%s\\n' \"$cwd/$p\"; exit 0; }; exit 1 ;;\n"
  "esac\n"
  "command -v \"$p\" && exit 0\n"
  "for d in \"$@\"; do\n"
  "  case $d in \"~\") d=$HOME ;; \"~/\"*) d=$HOME/${d#\"~/\"} ;; esac\n"
  "  [ -x \"$d/$p\" ] && [ ! -d \"$d/$p\" ] && { printf '%s\\n' \"$d/$p\"; exit 0; }\n"
  "done\n"
  "exit 1\n";

static void
host_locate_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GSubprocess *subprocess = G_SUBPROCESS (object);
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *output = NULL;

  if (!g_subprocess_communicate_utf8_finish (subprocess, result, &output, NULL, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (!g_subprocess_get_successful (subprocess) || output == NULL)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  g_strstrip (output);
  /* command -v names shell builtins and aliases without a slash. */
  if (output[0] != '/')
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  g_task_return_pointer (task, g_steal_pointer (&output), g_free);
}

void
tw_agent_preset_locate_async (TwAgentPreset       *self,
                              const char          *command,
                              const char          *cwd,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Locate *locate;

  g_return_if_fail (TW_IS_AGENT_PRESET (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_agent_preset_locate_async);

  locate = g_new0 (Locate, 1);
  locate->cwd = g_strdup (cwd);
  locate->search_paths = g_strdupv (self->search_paths);

  if (command != NULL)
    {
      g_auto(GStrv) words = NULL;
      g_autoptr(GError) error = NULL;

      if (!g_shell_parse_argv (command, NULL, &words, &error))
        {
          locate_free (locate);
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                                   "cannot read the command “%s”: %s", command, error->message);
          return;
        }
      locate->program = g_strdup (words[0]);
    }
  else
    {
      locate->program = g_strdup (self->program);
    }

  g_task_set_task_data (task, locate, (GDestroyNotify) locate_free);

  if (locate->program == NULL)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  if (tw_agent_preset_in_flatpak ())
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_autoptr(GSubprocess) subprocess = NULL;
      g_auto(GStrv) argv = NULL;
      g_autoptr(GError) error = NULL;

      g_strv_builder_add_many (builder, "flatpak-spawn", "--host", "sh", "-c",
                               host_locate_script, "sh", locate->program,
                               locate->cwd ? locate->cwd : ".", NULL);
      g_strv_builder_addv (builder, (const char **) locate->search_paths);
      argv = g_strv_builder_end (builder);

      subprocess = g_subprocess_newv ((const char * const *) argv,
                                      G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                      G_SUBPROCESS_FLAGS_STDERR_SILENCE,
                                      &error);
      if (subprocess == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }

      g_subprocess_communicate_utf8_async (subprocess, NULL, cancellable, host_locate_cb,
                                           g_steal_pointer (&task));
      return;
    }

  g_task_run_in_thread (task, locate_thread);
}

char *
tw_agent_preset_locate_finish (TwAgentPreset  *self,
                               GAsyncResult   *result,
                               GError        **error)
{
  g_return_val_if_fail (TW_IS_AGENT_PRESET (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

