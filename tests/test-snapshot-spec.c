/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <libsoup/soup.h>

#include "tw-page-runtime.h"
#include "tw-test-webview.h"

/* Roles and names as the specs define them, checked on the snapshot text
 * an agent reads. The cases live in the .cases files of tests/fixtures/snapshot-spec,
 * built from HTML-AAM's element table, WAI-ARIA's role definitions and
 * accname's steps; each file is a list of
 *
 *   === what the case checks [where the spec says it]
 *   <html of the page's body>
 *   ---
 *   - the snapshot lines it must print
 *
 * Lines starting with "#" outside a case's HTML are comments. Each case is served
 * as a page of its own in a real web view; the snapshot's header line and
 * the ref numbers are left out of the comparison (refs become "@e"), so a
 * case states only roles, names, states and structure. */

#define LOAD_TIMEOUT_MS 20000
#define CALL_TIMEOUT_MS 30000

typedef struct
{
  char *file;
  char *title;
  char *html;
  char *expected;
} Case;

static SoupServer *server;
static char *base_url;
static GPtrArray *cases;
static WebKitNetworkSession *session;
/* One tab for all cases: each case is a navigation of it. */
static GtkWidget *window;
static WebKitWebView *view;
static TwPageRuntime *runtime;

static void
case_free (Case *c)
{
  g_free (c->file);
  g_free (c->title);
  g_free (c->html);
  g_free (c->expected);
  g_free (c);
}

static void
serve_cb (SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query)
{
  guint64 index = 0;
  const char *n = query ? g_hash_table_lookup (query, "case") : NULL;
  Case *c;
  char *page;

  if (!g_str_equal (path, "/case") || n == NULL ||
      !g_ascii_string_to_unsigned (n, 10, 0, cases->len - 1, &index, NULL))
    {
      tw_test_serve_not_found (msg);
      return;
    }
  c = g_ptr_array_index (cases, index);
  page = g_strconcat ("<!doctype html><html lang=en><meta charset=utf-8><title>case</title>"
                      "<body>", c->html, "</body></html>", NULL);
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "text/html; charset=utf-8", SOUP_MEMORY_TAKE,
                                    page, strlen (page));
}

/* Reads the cases of one file; a malformed file fails the run. */
static void
load_cases (const char *path)
{
  g_autofree char *text = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  Case *current = NULL;
  GString *html = NULL;
  GString *expected = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (g_str_has_prefix (line, "=== "))
        {
          if (current != NULL)
            {
              g_assert_nonnull (expected);
              current->html = g_string_free (g_steal_pointer (&html), FALSE);
              current->expected = g_strstrip (g_string_free (g_steal_pointer (&expected), FALSE));
              g_ptr_array_add (cases, current);
            }
          current = g_new0 (Case, 1);
          current->file = g_strdup (base);
          current->title = g_strdup (line + 4);
          html = g_string_new (NULL);
          continue;
        }
      if (current == NULL)
        {
          if (*line != '\0' && *line != '#')
            g_error ("%s:%u: text before the first case", base, i + 1);
          continue;
        }
      if (expected == NULL && g_str_equal (line, "---"))
        {
          expected = g_string_new (NULL);
          continue;
        }
      if (expected != NULL)
        {
          /* No snapshot line starts with "#": comments between cases. */
          if (*line != '#')
            g_string_append_printf (expected, "%s\n", line);
        }
      else
        g_string_append_printf (html, "%s\n", line);
    }

  if (current != NULL)
    {
      if (expected == NULL)
        g_error ("%s: case \"%s\" has no \"---\" line", base, current->title);
      current->html = g_string_free (html, FALSE);
      current->expected = g_strstrip (g_string_free (expected, FALSE));
      g_ptr_array_add (cases, current);
    }
}

/* The snapshot text without its header line, refs without their numbers. */
static char *
shape_text (const char *text)
{
  g_autoptr(GRegex) refs = g_regex_new (" @e[0-9]+", 0, 0, NULL);
  const char *body = strchr (text, '\n');

  g_assert_true (g_str_has_prefix (text, "Page: "));
  return g_regex_replace_literal (refs, body ? body + 1 : "", -1, 0, " @e", 0, NULL);
}

static void
test_case (gconstpointer data)
{
  guint index = GPOINTER_TO_UINT (data);
  Case *c = g_ptr_array_index (cases, index);
  g_autofree char *url = g_strdup_printf ("%scase?case=%u", base_url, index);
  g_autoptr(GAsyncResult) snapshotted = NULL;
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (tw_test_view_load (view, url, LOAD_TIMEOUT_MS));
  tw_page_runtime_snapshot_async (runtime, NULL, NULL, tw_test_store_result_cb, NULL);
  snapshotted = tw_test_await_result (CALL_TIMEOUT_MS, "a snapshot");
  result = tw_page_runtime_snapshot_finish (runtime, snapshotted, &error);
  g_assert_no_error (error);
  text = shape_text (json_object_get_string_member (result, "text"));

  /* A failed case fails the test and the run goes on with the next. */
  if (g_strcmp0 (text, c->expected) != 0)
    {
      g_printerr ("FAIL %s: %s\nexpected:\n%s\ngot:\n%s\n", c->file, c->title, c->expected, text);
      g_test_fail ();
    }
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *folder = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  const char *only = g_getenv ("TW_SPEC_CASES");
  const char *name;
  int ret;

  tw_test_init_gtk (&argc, &argv, NULL);

  cases = g_ptr_array_new_with_free_func ((GDestroyNotify) case_free);
  folder = g_test_build_filename (G_TEST_DIST, "fixtures", "snapshot-spec", NULL);
  dir = g_dir_open (folder, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      /* TW_SPEC_CASES=file.cases runs the cases of one file. */
      if (g_str_has_suffix (name, ".cases") && (only == NULL || g_str_equal (only, name)))
        g_ptr_array_add (files, g_build_filename (folder, name, NULL));
    }
  g_ptr_array_sort (files, compare_paths);
  for (guint i = 0; i < files->len; i++)
    load_cases (g_ptr_array_index (files, i));
  g_assert_cmpuint (cases->len, >, 0);

  server = tw_test_server_new (serve_cb, &base_url);
  session = webkit_network_session_new_ephemeral ();
  view = g_object_new (WEBKIT_TYPE_WEB_VIEW, "network-session", session, NULL);
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 768);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  runtime = tw_page_runtime_new (view);

  for (guint i = 0; i < cases->len; i++)
    {
      Case *c = g_ptr_array_index (cases, i);
      g_autofree char *path = g_strdup_printf ("/snapshot-spec/%s/%03u", c->file, i);

      g_test_add_data_func (path, GUINT_TO_POINTER (i), test_case);
    }

  ret = g_test_run ();
  g_print ("# %u spec cases in %u files\n", cases->len, files->len);

  g_clear_object (&runtime);
  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&server);
  g_clear_object (&session);
  g_clear_pointer (&cases, g_ptr_array_unref);
  g_free (base_url);

  return ret;
}
