/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-workspace-id.h"
#include "tw-test-util.h"

#include <glib/gstdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* How a workspace folder is named and how the stdio bridge finds the
 * Tabwright that serves it, on real folders and runtime files. */

static char *test_root;

/* A folder of the running test's own, below the home folder. */
static char *
make_folder (const char *name)
{
  return tw_test_make_folder (g_get_home_dir (), name);
}

/* A pid that no process has: a child that has been reaped. The child is
 * spawned and reaped here, by waitpid(): GSubprocess reaps its child in
 * GLib's worker thread, and forgets its pid as soon as it has. */
static GPid
dead_pid (void)
{
  const char *argv[] = { "true", NULL };
  g_autoptr(GError) error = NULL;
  GPid pid = 0;
  int status = 0;

  g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);

  return pid;
}

static void
write_runtime_file (const char *path,
                    const char *json)
{
  g_autofree char *id = tw_workspace_id_from_path (path);
  g_autofree char *file = tw_workspace_id_dup_runtime_file (id);
  g_autofree char *folder = g_path_get_dirname (file);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_file_set_contents (file, json, -1, &error);
  g_assert_no_error (error);
}

/* Ids and folders */

static void
test_id (void)
{
  static const struct {
    const char *path;
    const char *name;
  } cases[] = {
    { "/home/ada/My Project!", "my-project" },
    { "/srv/web_app.v2", "web_app.v2" },
    { "/home/ada/.dotfiles", "dotfiles" },
    { "/home/ada/Übung", "bung" },
    { "/", "workspace" },
    { "/home/ada/a-very-long-folder-name-that-goes-on-and-on-and-on",
      "a-very-long-folder-name-that-goe" },
    { "/tmp/...hidden...", "hidden" },
    { "/tmp/€€€", "workspace" },
    { "/x/--a--b--", "a-b" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *id = tw_workspace_id_from_path (cases[i].path);
      g_autofree char *checksum = g_compute_checksum_for_string (G_CHECKSUM_SHA256,
                                                                 cases[i].path, -1);
      g_autofree char *expected = g_strdup_printf ("%s-%.8s", cases[i].name, checksum);

      g_assert_cmpstr (id, ==, expected);
    }

  /* Same basename, different folders: different workspaces. */
  {
    g_autofree char *a = tw_workspace_id_from_path ("/one/app");
    g_autofree char *b = tw_workspace_id_from_path ("/two/app");

    g_assert_cmpstr (a, !=, b);
    g_assert_true (g_str_has_prefix (a, "app-"));
    g_assert_true (g_str_has_prefix (b, "app-"));
  }
}

static void
test_canonicalize (void)
{
  g_autofree char *folder = make_folder ("project");
  g_autofree char *parent = g_path_get_dirname (folder);
  g_autofree char *link = g_build_filename (parent, "link", NULL);
  g_autofree char *file = g_build_filename (folder, "notes.txt", NULL);
  g_autofree char *via_relative = NULL;
  g_autofree char *via_link = NULL;
  g_autofree char *via_dots = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *not_folder = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (symlink (folder, link), ==, 0);
  g_assert_true (g_file_set_contents (file, "hi", -1, NULL));

  /* Every way of naming the folder gives the same workspace. */
  via_relative = tw_workspace_id_canonicalize_path ("project", parent, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (via_relative, ==, folder);

  via_link = tw_workspace_id_canonicalize_path (link, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (via_link, ==, folder);

  via_dots = tw_workspace_id_canonicalize_path ("./link/../project/.", parent, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (via_dots, ==, folder);

  missing = tw_workspace_id_canonicalize_path ("nowhere", parent, &error);
  g_assert_null (missing);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  not_folder = tw_workspace_id_canonicalize_path (file, NULL, &error);
  g_assert_null (not_folder);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY);
}

static void
test_runtime_file_location (void)
{
  g_autofree char *file = tw_workspace_id_dup_runtime_file ("app-12345678");
  g_autofree char *expected = g_build_filename (g_getenv ("XDG_RUNTIME_DIR"), "tabwright",
                                                "app-12345678.json", NULL);

  g_assert_cmpstr (file, ==, expected);
}

/* The bridge finds a Tabwright only through a file naming this folder and a
 * live pid; anything else is G_IO_ERROR_NOT_FOUND. */
static void
test_read_runtime_file (void)
{
  g_autofree char *folder = make_folder ("served");
  g_autofree char *path = tw_workspace_id_canonicalize_path (folder, NULL, NULL);
  g_autofree char *url = NULL;
  g_autofree char *token = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) loaded = NULL;
  g_autofree char *id = tw_workspace_id_from_path (path);
  g_autofree char *file = tw_workspace_id_dup_runtime_file (id);

  /* No file at all. */
  g_assert_false (tw_workspace_id_read_runtime_file (path, &url, &token, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* A live Tabwright: this test's own pid. */
  json = g_strdup_printf ("{\"url\": \"http://127.0.0.1:4100/mcp\", \"token\": \"secret\", "
                          "\"workspace\": \"%s\", \"pid\": %d}", path, (int) getpid ());
  write_runtime_file (path, json);
  g_assert_true (tw_workspace_id_read_runtime_file (path, &url, &token, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (url, ==, "http://127.0.0.1:4100/mcp");
  g_assert_cmpstr (token, ==, "secret");
  g_clear_pointer (&url, g_free);
  g_clear_pointer (&token, g_free);

  loaded = tw_workspace_id_load_runtime_file (file, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (loaded, "workspace"), ==, path);

  /* Left behind by a Tabwright that crashed: nobody serves the folder. */
  g_clear_pointer (&json, g_free);
  json = g_strdup_printf ("{\"url\": \"http://127.0.0.1:4100/mcp\", \"token\": \"secret\", "
                          "\"workspace\": \"%s\", \"pid\": %d}", path, (int) dead_pid ());
  write_runtime_file (path, json);
  g_assert_false (tw_workspace_id_read_runtime_file (path, &url, &token, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_null (url);
  g_clear_error (&error);

  /* A file of another folder whose id collides. */
  g_clear_pointer (&json, g_free);
  json = g_strdup_printf ("{\"url\": \"http://127.0.0.1:4100/mcp\", \"token\": \"secret\", "
                          "\"workspace\": \"/elsewhere\", \"pid\": %d}", (int) getpid ());
  write_runtime_file (path, json);
  g_assert_false (tw_workspace_id_read_runtime_file (path, &url, &token, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* No token. */
  g_clear_pointer (&json, g_free);
  json = g_strdup_printf ("{\"url\": \"http://127.0.0.1:4100/mcp\", "
                          "\"workspace\": \"%s\", \"pid\": %d}", path, (int) getpid ());
  write_runtime_file (path, json);
  g_assert_false (tw_workspace_id_read_runtime_file (path, &url, &token, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Not a JSON object. */
  write_runtime_file (path, "[1, 2]");
  g_clear_pointer (&loaded, json_object_unref);
  loaded = tw_workspace_id_load_runtime_file (file, &error);
  g_assert_null (loaded);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  g_assert_false (tw_workspace_id_read_runtime_file (path, &url, &token, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  test_root = tw_test_set_up_folders ("tw-test-workspace-id-XXXXXX", FALSE);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcp/workspace-id/from-path", test_id);
  g_test_add_func ("/mcp/workspace-id/canonicalize", test_canonicalize);
  g_test_add_func ("/mcp/workspace-id/runtime-file-location", test_runtime_file_location);
  g_test_add_func ("/mcp/workspace-id/read-runtime-file", test_read_runtime_file);

  status = g_test_run ();
  tw_test_remove_tree (test_root);
  g_free (test_root);

  return status;
}
