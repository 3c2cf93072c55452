/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "tw-error.h"
#include "tw-workspace-path.h"
#include "tw-test-util.h"

/* The one check between an agent's file path and the disk: what
 * browser_upload may read and browser_screenshot may write. A real folder
 * tree with links pointing in and out of the workspace. */

typedef struct
{
  char *root;       /* holds both folders */
  char *workspace;
  char *outside;
} Fixture;

static void
write_file (const char *path,
            const char *contents)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *docs = NULL;
  g_autofree char *file = NULL;
  g_autofree char *secret = NULL;
  g_autofree char *link = NULL;

  f->root = g_dir_make_tmp ("tabwright-path-XXXXXX", &error);
  g_assert_no_error (error);
  f->workspace = g_build_filename (f->root, "workspace", NULL);
  f->outside = g_build_filename (f->root, "outside", NULL);
  docs = g_build_filename (f->workspace, "docs", NULL);
  g_assert_cmpint (g_mkdir_with_parents (docs, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (f->outside, 0700), ==, 0);

  file = g_build_filename (docs, "report.txt", NULL);
  write_file (file, "numbers");
  secret = g_build_filename (f->outside, "secret.txt", NULL);
  write_file (secret, "secret");

  /* A link out of the workspace, one within it, and one to nowhere. */
  link = g_build_filename (f->workspace, "escape.txt", NULL);
  g_assert_cmpint (symlink (secret, link), ==, 0);
  g_free (link);
  link = g_build_filename (f->workspace, "escape-dir", NULL);
  g_assert_cmpint (symlink (f->outside, link), ==, 0);
  g_free (link);
  link = g_build_filename (f->workspace, "inside.txt", NULL);
  g_assert_cmpint (symlink ("docs/report.txt", link), ==, 0);
  g_free (link);
  link = g_build_filename (f->workspace, "dangling.png", NULL);
  g_assert_cmpint (symlink ("../outside/new.png", link), ==, 0);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  tw_test_remove_tree (f->root);
  g_free (f->root);
  g_free (f->workspace);
  g_free (f->outside);
}

static char *
check (Fixture             *f,
       const char          *path,
       TwWorkspacePathKind  kind,
       GError             **error)
{
  return tw_workspace_path_check (f->workspace, path, kind, error);
}

static void
assert_resolves_to (Fixture             *f,
                    const char          *path,
                    TwWorkspacePathKind  kind,
                    const char          *relative)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *resolved = check (f, path, kind, &error);
  g_autofree char *real_workspace = realpath (f->workspace, NULL);
  g_autofree char *expected = g_build_filename (real_workspace, relative, NULL);

  g_assert_no_error (error);
  g_assert_cmpstr (resolved, ==, expected);
}

static void
assert_fails (Fixture             *f,
              const char          *path,
              TwWorkspacePathKind  kind,
              TwBrowserError       code)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *resolved = check (f, path, kind, &error);

  g_assert_null (resolved);
  g_assert_error (error, TW_BROWSER_ERROR, (int) code);
}

static void
test_existing_inside (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *absolute = g_build_filename (f->workspace, "docs", "report.txt", NULL);

  assert_resolves_to (f, "docs/report.txt", TW_WORKSPACE_PATH_EXISTING_FILE, "docs/report.txt");
  assert_resolves_to (f, "./docs/../docs/report.txt", TW_WORKSPACE_PATH_EXISTING_FILE, "docs/report.txt");
  assert_resolves_to (f, absolute, TW_WORKSPACE_PATH_EXISTING_FILE, "docs/report.txt");
  /* A link that stays inside is fine, and names its target. */
  assert_resolves_to (f, "inside.txt", TW_WORKSPACE_PATH_EXISTING_FILE, "docs/report.txt");
}

static void
test_existing_outside (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *secret = g_build_filename (f->outside, "secret.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *resolved = NULL;

  assert_fails (f, secret, TW_WORKSPACE_PATH_EXISTING_FILE, TW_BROWSER_ERROR_DENIED);
  assert_fails (f, "../outside/secret.txt", TW_WORKSPACE_PATH_EXISTING_FILE, TW_BROWSER_ERROR_DENIED);
  assert_fails (f, "escape.txt", TW_WORKSPACE_PATH_EXISTING_FILE, TW_BROWSER_ERROR_DENIED);
  assert_fails (f, "escape-dir/secret.txt", TW_WORKSPACE_PATH_EXISTING_FILE, TW_BROWSER_ERROR_DENIED);
  assert_fails (f, "/etc/hostname", TW_WORKSPACE_PATH_EXISTING_FILE, TW_BROWSER_ERROR_DENIED);
  /* Outside and missing: refused as outside, so nothing outside is probed. */
  assert_fails (f, "../outside/nothing.txt", TW_WORKSPACE_PATH_EXISTING_FILE, TW_BROWSER_ERROR_DENIED);

  resolved = check (f, "escape.txt", TW_WORKSPACE_PATH_EXISTING_FILE, &error);
  g_assert_nonnull (strstr (error->message, "outside the workspace"));
}

static void
test_existing_bad (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *resolved = NULL;

  assert_fails (f, "missing.txt", TW_WORKSPACE_PATH_EXISTING_FILE, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  assert_fails (f, "docs", TW_WORKSPACE_PATH_EXISTING_FILE, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  assert_fails (f, "", TW_WORKSPACE_PATH_EXISTING_FILE, TW_BROWSER_ERROR_INVALID_ARGUMENT);

  /* Without a workspace nothing is allowed. */
  resolved = tw_workspace_path_check (NULL, "docs/report.txt", TW_WORKSPACE_PATH_EXISTING_FILE, &error);
  g_assert_null (resolved);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED);
}

static void
test_new_file (Fixture       *f,
               gconstpointer  data)
{
  assert_resolves_to (f, "shot.png", TW_WORKSPACE_PATH_NEW_FILE, "shot.png");
  assert_resolves_to (f, "docs/shot.png", TW_WORKSPACE_PATH_NEW_FILE, "docs/shot.png");
  /* Overwriting through a link that stays inside writes its target. */
  assert_resolves_to (f, "inside.txt", TW_WORKSPACE_PATH_NEW_FILE, "docs/report.txt");

  assert_fails (f, "../outside/shot.png", TW_WORKSPACE_PATH_NEW_FILE, TW_BROWSER_ERROR_DENIED);
  assert_fails (f, "escape-dir/shot.png", TW_WORKSPACE_PATH_NEW_FILE, TW_BROWSER_ERROR_DENIED);
  assert_fails (f, "escape.txt", TW_WORKSPACE_PATH_NEW_FILE, TW_BROWSER_ERROR_DENIED);
  /* A dangling link would create its target outside. */
  assert_fails (f, "dangling.png", TW_WORKSPACE_PATH_NEW_FILE, TW_BROWSER_ERROR_DENIED);
  assert_fails (f, "no-such-folder/shot.png", TW_WORKSPACE_PATH_NEW_FILE, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  assert_fails (f, "docs", TW_WORKSPACE_PATH_NEW_FILE, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  assert_fails (f, "docs/..", TW_WORKSPACE_PATH_NEW_FILE, TW_BROWSER_ERROR_INVALID_ARGUMENT);
}

/* The race of issue 15: the folder of savePath flips between a real folder
 * and a link to outside while files are written into it. Every write lands
 * inside or fails; none creates a file outside. */
typedef struct
{
  char          *workspace;
  char          *outside;
  volatile gint  stop;
  guint          flips;
} Flipper;

static gpointer
flip_thread (gpointer user_data)
{
  Flipper *flipper = user_data;
  g_autofree char *flip = g_build_filename (flipper->workspace, "flip", NULL);
  g_autofree char *real = g_build_filename (flipper->workspace, "flip-real", NULL);
  g_autofree char *evil = g_build_filename (flipper->workspace, "flip-evil", NULL);

  while (!g_atomic_int_get (&flipper->stop))
    {
      /* flip is the folder; make it the link, then the folder again. */
      if (rename (flip, real) == 0 && rename (evil, flip) == 0)
        flipper->flips++;
      if (rename (flip, evil) == 0 && rename (real, flip) == 0)
        flipper->flips++;
    }

  return NULL;
}

static void
test_write_race (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *flip = g_build_filename (f->workspace, "flip", NULL);
  g_autofree char *evil = g_build_filename (f->workspace, "flip-evil", NULL);
  g_autofree char *escaped = g_build_filename (f->outside, "shot.png", NULL);
  g_autoptr(GBytes) bytes = g_bytes_new_static ("png", 3);
  g_autoptr(GDir) dir = NULL;
  Flipper flipper = { f->workspace, f->outside, 0, 0 };
  GThread *thread;
  guint written = 0;
  guint refused = 0;
  const char *name;

  g_assert_cmpint (g_mkdir (flip, 0700), ==, 0);
  g_assert_cmpint (symlink (f->outside, evil), ==, 0);

  thread = g_thread_new ("flip", flip_thread, &flipper);
  for (guint i = 0; i < 3000; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *resolved = tw_workspace_path_write (f->workspace, "flip/shot.png", bytes, &error);

      if (resolved != NULL)
        {
          g_autofree char *real_workspace = realpath (f->workspace, NULL);

          g_assert_true (g_str_has_prefix (resolved, real_workspace));
          written++;
        }
      else
        {
          g_assert_true (g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED) ||
                         g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT));
          refused++;
        }

      g_assert_false (g_file_test (escaped, G_FILE_TEST_EXISTS));
    }
  g_atomic_int_set (&flipper.stop, 1);
  g_thread_join (thread);

  g_test_message ("%u written inside, %u refused, %u flips", written, refused, flipper.flips);

  /* Nothing outside at all, not even a temporary file. */
  dir = g_dir_open (f->outside, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_assert_cmpstr (name, ==, "secret.txt");
}

static void
test_write_and_read (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static ("picture", 7);
  g_autoptr(GError) error = NULL;
  g_autofree char *resolved = NULL;
  g_autofree char *read_back = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *secret = NULL;
  char buffer[16] = { 0 };
  int fd;

  resolved = tw_workspace_path_write (f->workspace, "docs/shot.png", bytes, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (resolved, "/workspace/docs/shot.png"));
  g_assert_true (g_file_get_contents (resolved, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "picture");

  /* Through a link that stays inside: its target is replaced. */
  g_clear_pointer (&resolved, g_free);
  resolved = tw_workspace_path_write (f->workspace, "inside.txt", bytes, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (resolved, "/workspace/docs/report.txt"));

  g_assert_null (tw_workspace_path_write (f->workspace, "escape-dir/shot.png", bytes, &error));
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED);
  g_clear_error (&error);
  g_assert_null (tw_workspace_path_write (f->workspace, "dangling.png", bytes, &error));
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED);
  g_clear_error (&error);
  secret = g_build_filename (f->outside, "new.png", NULL);
  g_assert_false (g_file_test (secret, G_FILE_TEST_EXISTS));

  fd = tw_workspace_path_open_read (f->workspace, "docs/report.txt", &read_back, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (read (fd, buffer, sizeof buffer - 1), ==, 7);
  g_assert_cmpstr (buffer, ==, "picture");
  close (fd);

  g_assert_cmpint (tw_workspace_path_open_read (f->workspace, "escape.txt", NULL, &error), ==, -1);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED);
  g_clear_error (&error);
  g_assert_cmpint (tw_workspace_path_open_read (f->workspace, "docs", NULL, &error), ==, -1);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)

  ADD ("/mcp/workspace-path/existing/inside", test_existing_inside);
  ADD ("/mcp/workspace-path/existing/outside", test_existing_outside);
  ADD ("/mcp/workspace-path/existing/bad", test_existing_bad);
  ADD ("/mcp/workspace-path/new-file", test_new_file);
  ADD ("/mcp/workspace-path/write-and-read", test_write_and_read);
  ADD ("/mcp/workspace-path/write-race", test_write_race);

#undef ADD

  return g_test_run ();
}
