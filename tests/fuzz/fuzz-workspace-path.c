/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "fuzz-target.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tw-error.h"
#include "tw-workspace-path.h"

/* A workspace with what a hostile agent would plant in it: links out of it,
 * a link loop, a link to a folder inside, and a file outside next to it. */
static char *workspace;
static char *resolved_workspace;
static char *tree_root;

static void
remove_tree (void)
{
  const char *entries[] = { "ws/sub/inner.txt", "ws/sub/etc", "ws/sub", "ws/file.txt", "ws/link-out",
                            "ws/link-in", "ws/loop", "ws/dangling", "ws", "outside.txt" };

  /* Whatever a NEW_FILE check let through was only resolved, never made. */
  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      g_autofree char *path = g_build_filename (tree_root, entries[i], NULL);

      if (g_remove (path) != 0)
        g_printerr ("Could not remove %s\n", path);
    }
  g_rmdir (tree_root);
}

static void
make_tree (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("tabwright-fuzz-XXXXXX", &error);
  g_autofree char *sub = NULL;

  g_assert_no_error (error);
  workspace = g_build_filename (root, "ws", NULL);
  sub = g_build_filename (workspace, "sub", NULL);
  g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);

#define IN(...) g_build_filename (workspace, __VA_ARGS__, NULL)
  {
    g_autofree char *file = IN ("file.txt");
    g_autofree char *inner = IN ("sub", "inner.txt");
    g_autofree char *outside = g_build_filename (root, "outside.txt", NULL);
    g_autofree char *link_out = IN ("link-out");
    g_autofree char *link_etc = IN ("sub", "etc");
    g_autofree char *link_in = IN ("link-in");
    g_autofree char *loop = IN ("loop");
    g_autofree char *dangling = IN ("dangling");

    g_assert_true (g_file_set_contents (file, "x", 1, NULL));
    g_assert_true (g_file_set_contents (inner, "x", 1, NULL));
    g_assert_true (g_file_set_contents (outside, "x", 1, NULL));
    g_assert_cmpint (symlink ("../outside.txt", link_out), ==, 0);
    g_assert_cmpint (symlink ("/etc", link_etc), ==, 0);
    g_assert_cmpint (symlink ("sub", link_in), ==, 0);
    g_assert_cmpint (symlink ("loop", loop), ==, 0);
    g_assert_cmpint (symlink ("../nowhere/x", dangling), ==, 0);
  }
#undef IN

  resolved_workspace = realpath (workspace, NULL);
  g_assert_nonnull (resolved_workspace);
  tree_root = g_strdup (root);
  atexit (remove_tree);
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  make_tree ();
  return 0;
}

static void
check (const char          *path,
       TwWorkspacePathKind  kind)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *resolved = tw_workspace_path_check (workspace, path, kind, &error);
  gsize prefix = strlen (resolved_workspace);

  if (resolved == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED) ||
                     g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT));
      return;
    }

  /* Whatever it let through lies inside the workspace. */
  g_assert_no_error (error);
  if (strncmp (resolved, resolved_workspace, prefix) != 0 ||
      (resolved[prefix] != '/' && resolved[prefix] != '\0'))
    g_error ("\"%s\" resolved to %s, outside %s", path, resolved, resolved_workspace);
  g_assert_null (strstr (resolved, "/../"));

  if (kind == TW_WORKSPACE_PATH_EXISTING_FILE)
    g_assert_true (g_file_test (resolved, G_FILE_TEST_IS_REGULAR));
}

/* The workspace-path resolver on any path an agent could send: a string up
 * to its first NUL, as JSON strings reach it. */
int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = g_strndup (data != NULL ? (const char *) data : "", size);

  if (workspace == NULL)
    make_tree ();

  check (path, TW_WORKSPACE_PATH_EXISTING_FILE);
  check (path, TW_WORKSPACE_PATH_NEW_FILE);

  return 0;
}
