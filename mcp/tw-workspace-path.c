/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-workspace-path.h"

#include "tw-error.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
