/* SPDX-License-Identifier: GPL-3.0-or-later */
/* O_PATH and renameat() */
#define _GNU_SOURCE
#include "config.h"

#include "tw-workspace-path.h"

#include "tw-error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* realpath(3) with a malloc'ed result, turned into a GLib string. */
static char *
resolve (const char *path,
         int        *saved_errno)
{
  char *resolved = realpath (path, NULL);
  char *copy;

  if (resolved == NULL)
    {
      *saved_errno = errno;
      return NULL;
    }

  copy = g_strdup (resolved);
  free (resolved);
  return copy;
}

static gboolean
is_inside (const char *root,
           const char *path)
{
  gsize len = strlen (root);

  if (strcmp (root, "/") == 0)
    return path[0] == '/';

  return strncmp (path, root, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

static char *
deny (const char  *path,
      const char  *workspace,
      GError     **error)
{
  g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
               "\"%s\" is outside the workspace %s: only files inside the workspace folder "
               "can be used (symbolic links are followed)",
               path, workspace);
  return NULL;
}

char *
tw_workspace_path_check (const char           *workspace_dir,
                         const char           *path,
                         TwWorkspacePathKind   kind,
                         GError              **error)
{
  g_autofree char *root = NULL;
  g_autofree char *joined = NULL;
  g_autofree char *resolved = NULL;
  int saved_errno = 0;
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (kind == TW_WORKSPACE_PATH_EXISTING_FILE ||
                        kind == TW_WORKSPACE_PATH_NEW_FILE, NULL);

  if (workspace_dir == NULL || workspace_dir[0] == '\0' ||
      (root = resolve (workspace_dir, &saved_errno)) == NULL)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                   "This tab has no workspace folder, so no file can be used");
      return NULL;
    }

  if (path[0] == '\0')
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "The file path is empty");
      return NULL;
    }

  joined = g_path_is_absolute (path) ? g_strdup (path) : g_build_filename (root, path, NULL);

  /* Outside already on paper ("..", another absolute path): refused before
   * the file system is asked anything, so nothing outside is probed. */
  {
    g_autofree char *lexical = g_canonicalize_filename (joined, NULL);
    g_autofree char *lexical_root = g_canonicalize_filename (workspace_dir, NULL);

    if (!is_inside (root, lexical) && !is_inside (lexical_root, lexical))
      return deny (path, root, error);
  }

  if (kind == TW_WORKSPACE_PATH_EXISTING_FILE)
    {
      resolved = resolve (joined, &saved_errno);
      if (resolved == NULL)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "No such file \"%s\": %s", path, g_strerror (saved_errno));
          return NULL;
        }

      if (!is_inside (root, resolved))
        return deny (path, root, error);

      if (stat (resolved, &st) != 0 || !S_ISREG (st.st_mode))
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "\"%s\" is not a regular file", path);
          return NULL;
        }

      return g_steal_pointer (&resolved);
    }
  else
    {
      g_autofree char *dirname = g_path_get_dirname (joined);
      g_autofree char *basename = g_path_get_basename (joined);
      g_autofree char *parent = NULL;

      if (g_str_equal (basename, "..") || g_str_equal (basename, ".") ||
          g_str_equal (basename, "/"))
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "\"%s\" names a folder, not a file", path);
          return NULL;
        }

      parent = resolve (dirname, &saved_errno);
      if (parent == NULL)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "The folder of \"%s\" does not exist: %s", path, g_strerror (saved_errno));
          return NULL;
        }

      if (!is_inside (root, parent))
        return deny (path, root, error);

      resolved = g_build_filename (parent, basename, NULL);

      /* An existing entry is written through, so a link must lead inside
       * too; a dangling link would create its target wherever it points. */
      if (lstat (resolved, &st) == 0)
        {
          g_autofree char *target = resolve (resolved, &saved_errno);

          if (target == NULL || !is_inside (root, target))
            return deny (path, root, error);

          if (stat (target, &st) == 0 && S_ISDIR (st.st_mode))
            {
              g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "\"%s\" is a folder, not a file", path);
              return NULL;
            }

          g_clear_pointer (&resolved, g_free);
          resolved = g_steal_pointer (&target);
        }

      return g_steal_pointer (&resolved);
    }
}

/* Opens the folder that holds @resolved (a path tw_workspace_path_check()
 * answered, so free of links and "..") by walking down from the workspace
 * root with O_NOFOLLOW. A component that became a link, or stopped being a
 * folder, since the check fails the walk: nothing is opened outside. */
static int
open_parent_inside (const char  *workspace_dir,
                    const char  *resolved,
                    const char  *path,
                    char       **basename,
                    GError     **error)
{
  g_autofree char *root = NULL;
  g_auto(GStrv) parts = NULL;
  int saved_errno = 0;
  int fd;
  guint n;

  root = resolve (workspace_dir, &saved_errno);
  if (root == NULL || !is_inside (root, resolved) || strcmp (root, resolved) == 0)
    {
      deny (path, root != NULL ? root : workspace_dir, error);
      return -1;
    }

  fd = open (root, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    {
      saved_errno = errno;
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                   "The workspace folder %s cannot be opened: %s", root, g_strerror (saved_errno));
      return -1;
    }

  parts = g_strsplit (resolved + (strcmp (root, "/") == 0 ? 1 : strlen (root) + 1), "/", -1);
  n = g_strv_length (parts);

  for (guint i = 0; i + 1 < n; i++)
    {
      int next;

      if (parts[i][0] == '\0' || strcmp (parts[i], ".") == 0 || strcmp (parts[i], "..") == 0)
        {
          close (fd);
          deny (path, root, error);
          return -1;
        }

      next = openat (fd, parts[i], O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      saved_errno = errno;
      close (fd);
      if (next < 0)
        {
          /* ELOOP or ENOTDIR: the folder was swapped for a link or a file
           * after the check. */
          if (saved_errno == ELOOP || saved_errno == ENOTDIR)
            deny (path, root, error);
          else
            g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                         "The folder of \"%s\" cannot be opened: %s", path, g_strerror (saved_errno));
          return -1;
        }
      fd = next;
    }

  if (n == 0 || parts[n - 1][0] == '\0')
    {
      close (fd);
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "\"%s\" names a folder, not a file", path);
      return -1;
    }

  *basename = g_strdup (parts[n - 1]);
  return fd;
}

static gboolean
write_all (int           fd,
           const guint8 *data,
           gsize         size)
{
  while (size > 0)
    {
      ssize_t written = write (fd, data, size);

      if (written < 0)
        {
          if (errno == EINTR)
            continue;
          return FALSE;
        }
      data += written;
      size -= written;
    }

  return TRUE;
}

char *
tw_workspace_path_write (const char  *workspace_dir,
                         const char  *path,
                         GBytes      *contents,
                         GError     **error)
{
  g_autofree char *resolved = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *temp = NULL;
  const guint8 *data;
  gsize size = 0;
  int saved_errno;
  int dir_fd;
  int fd = -1;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (contents != NULL, NULL);

  resolved = tw_workspace_path_check (workspace_dir, path, TW_WORKSPACE_PATH_NEW_FILE, error);
  if (resolved == NULL)
    return NULL;

  dir_fd = open_parent_inside (workspace_dir, resolved, path, &basename, error);
  if (dir_fd < 0)
    return NULL;

  /* A fresh name in the opened folder, created exclusively and never
   * through a link. */
  for (guint attempt = 0; fd < 0 && attempt < 16; attempt++)
    {
      g_free (temp);
      temp = g_strdup_printf (".%s.%08x.tmp", basename, g_random_int ());
      fd = openat (dir_fd, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
      if (fd < 0 && errno != EEXIST)
        break;
    }

  if (fd < 0)
    {
      saved_errno = errno;
      close (dir_fd);
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "Could not write \"%s\": %s", path, g_strerror (saved_errno));
      return NULL;
    }

  data = g_bytes_get_data (contents, &size);
  if (!write_all (fd, data, size) || fsync (fd) != 0)
    {
      saved_errno = errno;
      close (fd);
      unlinkat (dir_fd, temp, 0);
      close (dir_fd);
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "Could not write \"%s\": %s", path, g_strerror (saved_errno));
      return NULL;
    }
  close (fd);

  /* rename(2) replaces a link at the final name rather than following it,
   * so a link planted there after the check is replaced, not written
   * through. */
  if (renameat (dir_fd, temp, dir_fd, basename) != 0)
    {
      saved_errno = errno;
      unlinkat (dir_fd, temp, 0);
      close (dir_fd);
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "Could not write \"%s\": %s", path, g_strerror (saved_errno));
      return NULL;
    }

  close (dir_fd);
  return g_steal_pointer (&resolved);
}

int
tw_workspace_path_open_read (const char  *workspace_dir,
                             const char  *path,
                             char       **resolved_out,
                             GError     **error)
{
  g_autofree char *resolved = NULL;
  g_autofree char *basename = NULL;
  struct stat st;
  int saved_errno;
  int dir_fd;
  int fd;

  g_return_val_if_fail (path != NULL, -1);

  resolved = tw_workspace_path_check (workspace_dir, path, TW_WORKSPACE_PATH_EXISTING_FILE, error);
  if (resolved == NULL)
    return -1;

  dir_fd = open_parent_inside (workspace_dir, resolved, path, &basename, error);
  if (dir_fd < 0)
    return -1;

  fd = openat (dir_fd, basename, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  saved_errno = errno;
  close (dir_fd);
  if (fd < 0)
    {
      if (saved_errno == ELOOP)
        deny (path, workspace_dir, error);
      else
        g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                     "Could not open \"%s\": %s", path, g_strerror (saved_errno));
      return -1;
    }

  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "\"%s\" is not a regular file", path);
      return -1;
    }

  if (resolved_out != NULL)
    *resolved_out = g_steal_pointer (&resolved);
  return fd;
}
