/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-reclaim.h"

#include <gio/gio.h>

#ifdef HAVE_MALLOC_TRIM
#include <malloc.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Closing a tab frees its objects, but two things stay:
 *
 * - The allocator keeps the freed heap for the next allocation: a page's
 *   frames, its log and its snapshot leave tens of megabytes that glibc
 *   returns to the system only when asked (malloc_trim()).
 *
 * - WebKitGTK 2.50 runs each sandboxed web process with a D-Bus proxy of
 *   its own (xdg-dbus-proxy, under bwrap), which quits once the app closes
 *   its end of a pipe between them. WebKit never closes that end: the proxy
 *   outlives its web process for as long as the app runs, holding two of
 *   the app's descriptors (the pipe and the pidfd that watches its bwrap)
 *   and three processes. Here the app closes the pipe of every proxy whose
 *   web process is gone; the proxy quits, GLib reaps its bwrap and drops
 *   the pidfd.
 *
 * Both run on a worker thread (the pipes found there are closed on the
 * main thread), a moment after a tab closes and again a few times after,
 * since a web process ends a while after its view. */

/* glibc's allocator gives a block past its mmap threshold a map of its
 * own, unmapped when the block is freed, but raises that threshold to the
 * size of the largest such block freed, up to 32 MB, and the threshold for
 * handing back the free top of a heap to twice that. So once a page's
 * first frame or picture of 1280×1024 (5 MB) was freed, the next ones came
 * from the heaps, among the smaller blocks allocated while they were in
 * use, and stayed with the app after their tabs closed: malloc_trim()
 * after the close gave back only part of them. Fixed thresholds of 1 MB
 * (which also stop them growing) keep every large block in a map of its
 * own and hand back the free top of a heap past 1 MB. After a burst of 20
 * tabs closed, e2e-leaks saw the app's own memory 25 MB above its
 * baseline without them, 12–13 MB with them. */
#define LARGE_BLOCK_BYTES (1024 * 1024)

void
tw_reclaim_tune_allocator (void)
{
  static gsize tuned = 0;

  if (!g_once_init_enter (&tuned))
    return;

#if defined(HAVE_MALLOC_TRIM) && defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
  mallopt (M_MMAP_THRESHOLD, LARGE_BLOCK_BYTES);
  mallopt (M_TRIM_THRESHOLD, LARGE_BLOCK_BYTES);
#endif

  g_once_init_leave (&tuned, 1);
}

/* Seconds after the last close at which a pass runs. */
static const guint pass_delays[] = { 1, 2, 4, 8, 16 };

static guint next_pass;
static guint pass_source;
static gboolean pass_running;

typedef struct
{
  int      pid;
  int      ppid;
  guint64  start;   /* clock ticks after boot */
  char     comm[16];
} Proc;

static gboolean
read_proc (int   pid,
           Proc *out)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *text = NULL;
  g_auto(GStrv) fields = NULL;
  const char *open;
  const char *close;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;

  /* "pid (comm) state ppid …": comm may hold spaces and parentheses. */
  open = strchr (text, '(');
  close = strrchr (text, ')');
  if (open == NULL || close == NULL || close < open || close[1] == '\0')
    return FALSE;

  fields = g_strsplit (close + 2, " ", 0);
  /* state is field 3 of stat(5); ppid 4; starttime 22. */
  if (g_strv_length (fields) < 20)
    return FALSE;

  out->pid = pid;
  out->ppid = atoi (fields[1]);
  out->start = g_ascii_strtoull (fields[19], NULL, 10);
  g_strlcpy (out->comm, open + 1, MIN ((gsize) (close - open), sizeof out->comm));

  return TRUE;
}

/* Every process below this one. */
static GArray *
list_descendants (void)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (Proc));
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Proc));
  g_autoptr(GHashTable) family = g_hash_table_new (NULL, NULL);
  const char *name;
  gboolean grew = TRUE;

  if (dir == NULL)
    return out;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      Proc proc;

      if (!g_ascii_isdigit (name[0]) || !read_proc (atoi (name), &proc))
        continue;
      g_array_append_val (all, proc);
    }

  g_hash_table_add (family, GINT_TO_POINTER (getpid ()));
  while (grew)
    {
      grew = FALSE;
      for (guint i = 0; i < all->len; i++)
        {
          Proc *proc = &g_array_index (all, Proc, i);

          if (!g_hash_table_contains (family, GINT_TO_POINTER (proc->pid)) &&
              g_hash_table_contains (family, GINT_TO_POINTER (proc->ppid)))
            {
              g_hash_table_add (family, GINT_TO_POINTER (proc->pid));
              g_array_append_val (out, *proc);
              grew = TRUE;
            }
        }
    }

  return out;
}

/* The first process named @comm at or below @pid. */
static const Proc *
find_below (GArray     *procs,
            int         pid,
            const char *comm)
{
  for (guint i = 0; i < procs->len; i++)
    {
      const Proc *proc = &g_array_index (procs, Proc, i);

      if (proc->ppid != pid)
        continue;
      if (g_str_equal (proc->comm, comm))
        return proc;
      if ((proc = find_below (procs, proc->pid, comm)) != NULL)
        return proc;
    }

  return NULL;
}

static gboolean
started_before (const Proc *a,
                const Proc *b)
{
  return a->start < b->start || (a->start == b->start && a->pid < b->pid);
}

static int
fd_access_mode (int         pid,
                const char *fd)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/fdinfo/%s", pid, fd);
  g_autofree char *text = NULL;
  const char *flags;

  if (!g_file_get_contents (path, &text, NULL, NULL) ||
      (flags = strstr (text, "flags:")) == NULL)
    return -1;

  return (int) (g_ascii_strtoull (flags + 6, NULL, 8) & O_ACCMODE);
}

/* The pipes @pid holds open with @mode, by inode. */
static GHashTable *
pipes_of (int pid,
          int mode)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/fd", pid);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  GHashTable *out = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  const char *name;

  if (dir == NULL)
    return out;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *link = g_strdup_printf ("%s/%s", path, name);
      g_autofree char *target = g_file_read_link (link, NULL);
      gint64 inode;

      if (target == NULL || !g_str_has_prefix (target, "pipe:[") ||
          fd_access_mode (pid, name) != mode)
        continue;

      inode = g_ascii_strtoll (target + 6, NULL, 10);
      g_hash_table_insert (out, g_memdup2 (&inode, sizeof inode), g_strdup (name));
    }

  return out;
}

/* Closes the app's end of the pipe of every D-Bus proxy whose web process
 * is gone. WebKit starts a proxy right before its web process, both under
 * a bwrap of their own that is a child of the app, so a web process goes
 * with the last proxy started before it. Proxies started after the newest
 * web process are left alone: their web process may be starting. */
typedef struct
{
  int    fd;
  gint64 inode;
  int    proxy;
} OrphanPipe;

static GArray *
find_orphan_proxies (void)
{
  g_autoptr(GArray) procs = list_descendants ();
  g_autoptr(GPtrArray) proxies = g_ptr_array_new ();
  g_autoptr(GPtrArray) webs = g_ptr_array_new ();
  g_autoptr(GHashTable) claimed = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) own_reads = NULL;
  const Proc *newest_web = NULL;
  GArray *orphans = g_array_new (FALSE, FALSE, sizeof (OrphanPipe));

  for (guint i = 0; i < procs->len; i++)
    {
      const Proc *proc = &g_array_index (procs, Proc, i);

      if (proc->ppid != getpid () || !g_str_equal (proc->comm, "bwrap"))
        continue;
      if (find_below (procs, proc->pid, "xdg-dbus-proxy") != NULL)
        g_ptr_array_add (proxies, (gpointer) proc);
      else if (find_below (procs, proc->pid, "WebKitWebProces") != NULL)
        g_ptr_array_add (webs, (gpointer) proc);
    }

  for (guint i = 0; i < webs->len; i++)
    {
      const Proc *web = g_ptr_array_index (webs, i);
      const Proc *latest = NULL;

      if (newest_web == NULL || started_before (newest_web, web))
        newest_web = web;

      for (guint j = 0; j < proxies->len; j++)
        {
          const Proc *proxy = g_ptr_array_index (proxies, j);

          if (started_before (proxy, web) && (latest == NULL || started_before (latest, proxy)))
            latest = proxy;
        }
      if (latest != NULL)
        g_hash_table_add (claimed, (gpointer) latest);
    }

  if (newest_web == NULL)
    return orphans;

  own_reads = pipes_of (getpid (), O_RDONLY);

  for (guint i = 0; i < proxies->len; i++)
    {
      const Proc *proxy = g_ptr_array_index (proxies, i);
      const Proc *leaf;
      g_autoptr(GHashTable) writes = NULL;
      GHashTableIter iter;
      gpointer key;
      gpointer value;

      if (g_hash_table_contains (claimed, proxy) || !started_before (proxy, newest_web))
        continue;

      leaf = find_below (procs, proxy->pid, "xdg-dbus-proxy");
      writes = pipes_of (leaf->pid, O_WRONLY);

      /* The proxy writes to its end; the app reads the other. */
      g_hash_table_iter_init (&iter, writes);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          const char *own_fd = g_hash_table_lookup (own_reads, key);
          OrphanPipe orphan;

          if (own_fd == NULL)
            continue;

          orphan.fd = atoi (own_fd);
          orphan.inode = *(gint64 *) key;
          orphan.proxy = leaf->pid;
          g_array_append_val (orphans, orphan);
        }
    }

  return orphans;
}

/* On the main thread, where WebKit opens and closes the descriptors of the
 * processes it starts: the descriptor is still the proxy's pipe when it is
 * closed, never a number reused a moment before by a starting process. */
static void
close_orphan_pipes (GArray *orphans)
{
  for (guint i = 0; i < orphans->len; i++)
    {
      const OrphanPipe *orphan = &g_array_index (orphans, OrphanPipe, i);
      struct stat st;

      if (fstat (orphan->fd, &st) != 0 || !S_ISFIFO (st.st_mode) ||
          (gint64) st.st_ino != orphan->inode)
        continue;

      g_debug ("Ending the D-Bus proxy %d of a web process that is gone", orphan->proxy);
      close (orphan->fd);
    }
}

static void
pass_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GArray *orphans = NULL;

#ifdef __linux__
  orphans = find_orphan_proxies ();
#endif
#ifdef HAVE_MALLOC_TRIM
  malloc_trim (0);
#endif
  g_task_return_pointer (task, orphans, orphans != NULL ? (GDestroyNotify) g_array_unref : NULL);
}

static gboolean pass_cb (gpointer user_data);

static void
schedule_next_pass (void)
{
  g_autoptr(GSource) source = NULL;

  g_clear_handle_id (&pass_source, g_source_remove);
  if (next_pass >= G_N_ELEMENTS (pass_delays))
    return;

  source = g_timeout_source_new_seconds (pass_delays[next_pass] -
                                         (next_pass > 0 ? pass_delays[next_pass - 1] : 0));
  g_source_set_callback (source, pass_cb, NULL, NULL);
  g_source_set_static_name (source, "[tabwright] reclaim after close");
  pass_source = g_source_attach (source, NULL);
}

static void
pass_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GArray) orphans = g_task_propagate_pointer (G_TASK (result), NULL);

  if (orphans != NULL)
    close_orphan_pipes (orphans);

  pass_running = FALSE;
  next_pass++;
  if (pass_source == 0)
    schedule_next_pass ();
}

static gboolean
pass_cb (gpointer user_data)
{
  g_autoptr(GTask) task = NULL;

  pass_source = 0;

  /* One pass at a time; the one running counts. */
  if (pass_running)
    return G_SOURCE_REMOVE;

  pass_running = TRUE;
  task = g_task_new (NULL, NULL, pass_done_cb, NULL);
  g_task_set_source_tag (task, pass_cb);
  g_task_run_in_thread (task, pass_thread);

  return G_SOURCE_REMOVE;
}

void
tw_reclaim_after_close (void)
{
  next_pass = 0;
  if (!pass_running)
    schedule_next_pass ();
}
