/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-application-private.h"

#include "tw-agent.h"

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Shutdown that leaves nothing behind */

/* How long the processes this app started have to end after SIGTERM, and
 * then after SIGKILL. Together well under the 2 s a quitting app may take. */
#define END_GRACE_MS 800
#define KILL_GRACE_MS 400

typedef struct
{
  pid_t pid;
  pid_t ppid;
  pid_t pgid;
} ProcessInfo;

/* Reads pid, parent and process group from /proc/<pid>/stat. Zombies count
 * as gone: they run nothing and write nothing. */
static gboolean
read_process (const char  *name,
              ProcessInfo *info)
{
  g_autofree char *path = g_build_filename ("/proc", name, "stat", NULL);
  g_autofree char *contents = NULL;
  const char *close_paren;
  char state;
  int ppid, pgid;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return FALSE;

  /* The command name may hold spaces and parentheses: it ends at the last
   * ")". */
  close_paren = strrchr (contents, ')');
  if (close_paren == NULL || sscanf (close_paren + 1, " %c %d %d", &state, &ppid, &pgid) != 3)
    return FALSE;
  if (state == 'Z' || state == 'X')
    return FALSE;

  info->pid = (pid_t) atoi (name);
  info->ppid = ppid;
  info->pgid = pgid;
  return TRUE;
}

/* Every live process this app started: its descendants (web processes, the
 * network process, their sandboxes, agents) and the members of agents'
 * process groups that left the tree (a daemon an agent started). `known`
 * holds every pid found by earlier scans and gains this scan's: a process
 * whose parent was killed first is reparented out of the tree, and must
 * still count as ours, with its own children. */
static GArray *
find_started_processes (GArray     *groups,
                        GHashTable *known)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (ProcessInfo));
  g_autoptr(GHashTable) ours = g_hash_table_new (NULL, NULL);
  GArray *found = g_array_new (FALSE, FALSE, sizeof (pid_t));
  pid_t self = getpid ();
  gboolean grew = TRUE;
  DIR *proc;
  struct dirent *entry;

  proc = opendir ("/proc");
  if (proc == NULL)
    return found;
  while ((entry = readdir (proc)) != NULL)
    {
      ProcessInfo info;

      if (g_ascii_isdigit (entry->d_name[0]) && read_process (entry->d_name, &info) &&
          info.pid != self)
        g_array_append_val (all, info);
    }
  closedir (proc);

  g_hash_table_add (ours, GINT_TO_POINTER (self));
  while (grew)
    {
      grew = FALSE;
      for (guint i = 0; i < all->len; i++)
        {
          ProcessInfo *info = &g_array_index (all, ProcessInfo, i);
          gboolean in_group = FALSE;

          if (g_hash_table_contains (ours, GINT_TO_POINTER (info->pid)))
            continue;

          for (guint j = 0; j < groups->len && !in_group; j++)
            in_group = info->pgid == g_array_index (groups, GPid, j);

          if (in_group || g_hash_table_contains (known, GINT_TO_POINTER (info->pid)) ||
              g_hash_table_contains (ours, GINT_TO_POINTER (info->ppid)))
            {
              g_hash_table_add (ours, GINT_TO_POINTER (info->pid));
              g_hash_table_add (known, GINT_TO_POINTER (info->pid));
              g_array_append_val (found, info->pid);
              grew = TRUE;
            }
        }
    }

  return found;
}

static void
signal_processes (GArray *pids,
                  int     signum)
{
  for (guint i = 0; i < pids->len; i++)
    kill (g_array_index (pids, pid_t, i), signum);
}

/* Waits, bounded, for the processes to be gone; answers those still there. */
static GArray *
wait_processes_gone (GArray     *groups,
                     GHashTable *known,
                     guint       timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) timeout_ms * 1000;
  GArray *left;

  for (;;)
    {
      left = find_started_processes (groups, known);
      if (left->len == 0 || g_get_monotonic_time () >= deadline)
        return left;
      g_array_unref (left);
      g_usleep (10 * 1000);
    }
}

/* The app is going: whatever it started goes with it, so nothing keeps
 * writing into its folders once it has exited (a network process flushing
 * its cache, an agent's dev server). Runs after the main loop has ended,
 * so waiting here blocks no one. */
void
_tw_application_end_started_processes (void)
{
  g_autoptr(GArray) groups = tw_agent_dup_process_groups ();
  g_autoptr(GHashTable) known = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) pids = find_started_processes (groups, known);
  g_autoptr(GArray) left = NULL;

  if (pids->len == 0)
    return;

  for (guint i = 0; i < groups->len; i++)
    kill (-g_array_index (groups, GPid, i), SIGTERM);
  signal_processes (pids, SIGTERM);

  left = wait_processes_gone (groups, known, END_GRACE_MS);
  if (left->len == 0)
    return;

  g_debug ("%u processes did not end on SIGTERM; killing them", left->len);
  for (guint i = 0; i < groups->len; i++)
    kill (-g_array_index (groups, GPid, i), SIGKILL);
  signal_processes (left, SIGKILL);
  g_array_unref (wait_processes_gone (groups, known, KILL_GRACE_MS));
}
