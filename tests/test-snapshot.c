/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <unistd.h>

#include <gtk/gtk.h>
#include <libsoup/soup.h>

#include "tw-error.h"
#include "tw-page-runtime.h"
#include "tw-test-webview.h"

/* The snapshot engine against real WebKit web views: pages come from
 * tests/fixtures/snapshot/ through two SoupServers on different ports, so
 * frames of the same origin and of another origin are real.
 *
 * Spec fixtures mark elements with data-expect-role, data-expect-name,
 * data-expect-description and data-expect-states; the runtime's
 * checkExpectations hook reports what it computes for each and every case
 * is compared here. Golden fixtures (<name>.html with <name>.txt) hold the
 * exact snapshot text an agent must see. */

#define LOAD_TIMEOUT_MS TW_TEST_TAB_LOAD_TIMEOUT_MS
#define CALL_TIMEOUT_MS TW_TEST_TAB_CALL_TIMEOUT_MS

static SoupServer *server_a;
static SoupServer *server_b;
static char *base_a;
static char *base_b;
/* The addresses the tests on a page fixture load, kept for the run. */
static GPtrArray *page_urls;
static guint total_cases;

/* The servers */

/* Pages made by code: sizes that would be silly to keep as files. */
static char *
make_table_page (guint rows)
{
  GString *page = g_string_new ("<!doctype html><title>Big table</title><main><h1>Orders</h1>"
                                "<table><thead><tr><th>Pick</th><th>Order</th><th>Status</th>"
                                "<th>Action</th></tr></thead><tbody>");

  for (guint i = 1; i <= rows; i++)
    g_string_append_printf (page,
                            "<tr><td><input type=checkbox aria-label=\"Select row %u\"></td>"
                            "<td><a href=\"/order/%u\">Order %u</a></td>"
                            "<td><select aria-label=\"Status of order %u\"><option>Open</option>"
                            "<option>Shipped</option><option>Closed</option></select></td>"
                            "<td><button>Delete</button></td></tr>",
                            i, i, i, i);
  g_string_append (page, "</tbody></table></main>");

  return g_string_free (page, FALSE);
}

static char *
make_huge_page (guint elements)
{
  GString *page = g_string_new ("<!doctype html><title>Huge</title><main><h1>Huge page</h1>");
  guint made = 0;

  /* Sections of 50 list items with a link each: three elements per item. */
  while (made < elements)
    {
      g_string_append (page, "<section><ul>");
      for (guint i = 0; i < 50 && made < elements; i++, made += 3)
        g_string_append_printf (page, "<li><a href=\"#%u\">Item <b>%u</b></a></li>", made, made);
      g_string_append (page, "</ul></section>");
      made += 2;
    }
  g_string_append (page, "</main>");

  return g_string_free (page, FALSE);
}

/* Whether the busy page has started its endless loop. */
static gboolean busy_page_spins;

static void
serve_cb (SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query)
{
  char *contents;

  if (g_str_equal (path, "/busy-starts"))
    {
      busy_page_spins = TRUE;
      soup_server_message_set_status (msg, SOUP_STATUS_NO_CONTENT, NULL);
      return;
    }

  if (g_str_equal (path, "/generated/table"))
    {
      const char *rows = query ? g_hash_table_lookup (query, "rows") : NULL;

      contents = make_table_page (rows ? atoi (rows) : 3000);
    }
  else if (g_str_equal (path, "/generated/huge"))
    {
      const char *n = query ? g_hash_table_lookup (query, "elements") : NULL;

      contents = make_huge_page (n ? atoi (n) : 200000);
    }
  else
    {
      /* Fixtures name the other server as {{B}} and their own as {{A}}. */
      tw_test_serve_file_of_two (msg, "fixtures/snapshot", path, base_a, base_b);
      return;
    }

  soup_message_headers_append (soup_server_message_get_response_headers (msg),
                               "Cache-Control", "no-store");
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_TAKE, contents, strlen (contents));
}

static char *
start_server (SoupServer **server)
{
  char *base;

  *server = tw_test_server_new (serve_cb, &base);

  /* "http://127.0.0.1:port/" without the last slash. */
  base[strlen (base) - 1] = '\0';

  return base;
}

static char *
url_a (const char *path)
{
  return g_strconcat (base_a, path, NULL);
}

/* Tabs: a web view in a window, with its runtime */

static void
tab_load (TwTestTab  *tab,
          const char *path)
{
  g_autofree char *url = g_str_has_prefix (path, "http") ? g_strdup (path) : url_a (path);

  tw_test_tab_load (tab, url);
}

/* The snapshot text with the servers' addresses as http://A and http://B,
 * so goldens do not depend on ports. */
static char *
tab_snapshot_text (TwTestTab  *tab,
                   const char *options_json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) result = tw_test_tab_snapshot (tab, options_json, &error);
  g_autofree char *with_a = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (result);
  with_a = tw_test_replace (json_object_get_string_member (result, "text"), base_a, "http://A");

  return tw_test_replace (with_a, base_b, "http://B");
}

static gboolean
snapshot_shows_save (gpointer data)
{
  g_autofree char *text = tab_snapshot_text (data, NULL);

  return strstr (text, "button \"Save\"") != NULL;
}

/* Spec fixtures */

static void
test_spec_fixture (gconstpointer data)
{
  const char *fixture = data;
  g_autoptr(TwTestTab) tab = tw_test_tab_new (TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *path = g_strconcat ("/", fixture, NULL);
  JsonArray *checks;
  guint failures = 0;

  tab_load (tab, path);
  node = tw_test_tab_call (tab, "checkExpectations", NULL, CALL_TIMEOUT_MS, &error);
  g_assert_no_error (error);
  checks = json_object_get_array_member (json_node_get_object (node), "checks");
  g_assert_cmpuint (json_array_get_length (checks), >, 0);

  for (guint i = 0; i < json_array_get_length (checks); i++)
    {
      JsonObject *check = json_array_get_object_element (checks, i);
      const char *expected = json_object_get_string_member (check, "expected");
      const char *actual = json_object_get_string_member (check, "actual");

      if (g_strcmp0 (expected, actual) != 0)
        {
          g_test_message ("%s: %s: %s: expected \"%s\", got \"%s\"", fixture,
                          json_object_get_string_member (check, "case"),
                          json_object_get_string_member (check, "field"),
                          expected, actual);
          g_printerr ("FAIL %s: [%s] %s: expected \"%s\", got \"%s\"\n", fixture,
                      json_object_get_string_member (check, "field"),
                      json_object_get_string_member (check, "case"),
                      expected, actual);
          failures++;
        }
    }

  total_cases += json_array_get_length (checks);
  g_test_message ("%s: %u cases, %u failed (%u spec cases so far)", fixture,
                  json_array_get_length (checks), failures, total_cases);
  g_assert_cmpuint (failures, ==, 0);
}

/* Golden snapshots */

typedef struct
{
  const char *name;
  const char *options;
} Golden;

static void
test_golden (gconstpointer data)
{
  const Golden *golden = data;
  g_autoptr(TwTestTab) tab = tw_test_tab_new (TRUE);
  g_autofree char *page = g_strconcat ("/", golden->name, ".html", NULL);
  g_autofree char *file = g_test_build_filename (G_TEST_DIST, "fixtures", "snapshot",
                                                 golden->name, NULL);
  g_autofree char *golden_file = g_strconcat (file, golden->options ? "-options" : "", ".txt",
                                              NULL);
  g_autofree char *expected = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  tab_load (tab, page);
  text = tab_snapshot_text (tab, golden->options);

  if (g_getenv ("TW_WRITE_GOLDEN") != NULL)
    {
      /* For writing a new fixture's golden, which is then read and checked
       * by hand before it is committed. */
      g_autofree char *with_newline = g_strconcat (text, "\n", NULL);

      g_file_set_contents (golden_file, with_newline, -1, &error);
      g_assert_no_error (error);
    }

  g_file_get_contents (golden_file, &expected, NULL, &error);
  g_assert_no_error (error);
  g_strchomp (expected);
  if (g_strcmp0 (expected, text) != 0)
    g_printerr ("Snapshot of %s:\n%s\n", golden->name, text);
  g_assert_cmpstr (text, ==, expected);
}

static const char * const spec_fixtures[] = {
  "roles-explicit.html",
  "roles-implicit.html",
  "roles-context.html",
  "names-aria.html",
  "names-native.html",
  "names-content.html",
  "names-css.html",
  "states.html",
  "shadow.html",
  "frames.html",
};

static const Golden goldens[] = {
  { "format", NULL },
  { "shaping", NULL },
  { "hidden", NULL },
  { "hidden-fast", NULL },
  { "forms", NULL },
  { "forms", "{\"interactive\": true}" },
  { "shadow", NULL },
  { "frames", NULL },
  { "hostile", NULL },
  { "modal", NULL },
};

/* Refs */

static void
assert_stale (TwTestTab  *tab,
              const char *ref,
              const char *message_part)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) info = tw_test_tab_resolve (tab, ref, &error);

  g_assert_null (info);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_STALE_REF);
  if (message_part != NULL && strstr (error->message, message_part) == NULL)
    g_error ("Stale ref message \"%s\" does not say \"%s\"", error->message, message_part);
}

static guint
ref_number (const char *ref)
{
  g_assert_true (g_str_has_prefix (ref, "@e"));
  return atoi (ref + 2);
}

/* The largest ref number in a snapshot text. */
static guint
max_ref (const char *text)
{
  guint max = 0;

  for (const char *p = strstr (text, " @e"); p != NULL; p = strstr (p + 1, " @e"))
    max = MAX (max, (guint) atoi (p + 3));

  return max;
}

static guint
min_ref (const char *text)
{
  guint min = G_MAXUINT;

  for (const char *p = strstr (text, " @e"); p != NULL; p = strstr (p + 1, " @e"))
    min = MIN (min, (guint) atoi (p + 3));

  return min;
}

static void
test_refs_stable (TwTestTabFixture *fixture,
                  gconstpointer     data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) info = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *third = NULL;
  g_autofree char *save = NULL;
  g_autofree char *del = NULL;
  g_autofree char *one = NULL;
  g_autofree char *added = NULL;
  g_autofree char *del_again = NULL;
  g_autofree char *bare = NULL;

  first = tab_snapshot_text (fixture->tab, NULL);
  second = tab_snapshot_text (fixture->tab, NULL);

  /* The same live elements keep their refs: the text does not change. */
  g_assert_cmpstr (first, ==, second);

  save = tw_test_find_ref (first, "button \"Save\"");
  del = tw_test_find_ref (first, "button \"Delete\"");
  one = tw_test_find_ref (first, "link \"One\"");

  info = tw_test_tab_resolve (fixture->tab, save, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (info, "role"), ==, "button");
  g_assert_cmpstr (json_object_get_string_member (info, "name"), ==, "Save");
  g_assert_cmpstr (json_object_get_string_member (info, "ref"), ==, save);
  g_assert_true (json_object_get_boolean_member (info, "visible"));
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (info, "rect"), "width"), >, 0);
  g_clear_pointer (&info, json_object_unref);

  /* "e3" is accepted as well as "@e3". */
  bare = g_strdup (save + 1);
  info = tw_test_tab_resolve (fixture->tab, bare, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (info, "name"), ==, "Save");
  g_clear_pointer (&info, json_object_unref);

  /* A new element gets a new number; the others keep theirs. */
  tw_test_tab_eval (fixture->tab, "const b = document.createElement('button'); b.textContent = 'Added';"
                    "document.querySelector('main').append(b);");
  third = tab_snapshot_text (fixture->tab, NULL);
  added = tw_test_find_ref (third, "button \"Added\"");
  g_assert_cmpuint (ref_number (added), >, max_ref (first));
  g_assert_cmpstr (tw_test_find_ref (third, "button \"Save\""), ==, save);

  /* Re-rendered: an equal element in place of the old one is a different
   * element, so the old ref is stale and the new one gets a new number. */
  tw_test_tab_eval (fixture->tab, "const d = document.getElementById('del'); d.outerHTML = d.outerHTML;");
  assert_stale (fixture->tab, del, "removed");
  g_clear_pointer (&third, g_free);
  third = tab_snapshot_text (fixture->tab, NULL);
  del_again = tw_test_find_ref (third, "button \"Delete\"");
  g_assert_cmpstr (del_again, !=, del);
  g_assert_cmpuint (ref_number (del_again), >, ref_number (added));

  /* Removed. */
  tw_test_tab_eval (fixture->tab, "document.querySelector('a[href=\"#1\"]').remove();");
  assert_stale (fixture->tab, one, "removed");

  /* Same element, another name: the ref no longer matches what was
   * printed. */
  tw_test_tab_eval (fixture->tab, "document.getElementById('save').textContent = 'Saving…';");
  assert_stale (fixture->tab, save, "Saving");

  /* Same element, another role. */
  tw_test_tab_eval (fixture->tab, "document.getElementById('save').textContent = 'Save';"
                    "document.getElementById('save').setAttribute('role', 'link');");
  assert_stale (fixture->tab, save, "link");
  tw_test_tab_eval (fixture->tab, "document.getElementById('save').removeAttribute('role');");
  info = tw_test_tab_resolve (fixture->tab, save, &error);
  g_assert_no_error (error);
  g_clear_pointer (&info, json_object_unref);

  /* Never issued. */
  assert_stale (fixture->tab, "@e9999", NULL);

  /* Not refs at all. */
  for (guint i = 0; i < 4; i++)
    {
      static const char * const bad[] = { "save", "@e0", "@x3", "" };

      info = tw_test_tab_resolve (fixture->tab, bad[i], &error);
      g_assert_null (info);
      g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
      g_clear_error (&error);
    }
}

static void
test_refs_navigation (TwTestTabFixture *fixture,
                      gconstpointer     data)
{
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *save = NULL;
  guint next_before;

  first = tab_snapshot_text (fixture->tab, NULL);
  save = tw_test_find_ref (first, "button \"Save\"");
  next_before = tw_page_runtime_get_next_ref (fixture->tab->runtime);
  g_assert_cmpuint (next_before, ==, max_ref (first) + 1);

  /* The same page again is a new document: the old refs name nothing, and
   * numbering continues instead of starting over. */
  tab_load (fixture->tab, "/refs.html");
  assert_stale (fixture->tab, save, "not on the current page");
  second = tab_snapshot_text (fixture->tab, NULL);
  g_assert_cmpuint (ref_number (tw_test_find_ref (second, "button \"Save\"")), >=, next_before);
  g_assert_cmpuint (tw_page_runtime_get_next_ref (fixture->tab->runtime), >, next_before);
  g_assert_cmpuint (min_ref (second), >=, next_before);
}

static void
test_refs_two_tabs (void)
{
  g_autoptr(TwTestTab) one = tw_test_tab_new (TRUE);
  g_autoptr(TwTestTab) two = tw_test_tab_new (TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) info = NULL;
  g_autofree char *text_one = NULL;
  g_autofree char *text_two = NULL;
  g_autofree char *ref_one = NULL;

  tab_load (one, "/refs.html");
  tab_load (two, "/shaping.html");
  text_one = tab_snapshot_text (one, NULL);
  text_two = tab_snapshot_text (two, NULL);

  /* Each tab numbers its own elements: the same ref names a different
   * element in each, and each resolves to its own. */
  g_assert_true (strstr (text_one, " @e1") != NULL);
  g_assert_true (strstr (text_two, " @e1") != NULL);
  ref_one = tw_test_find_ref (text_one, "button \"Save\"");

  info = tw_test_tab_resolve (one, ref_one, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (info, "name"), ==, "Save");
  g_clear_pointer (&info, json_object_unref);

  info = tw_test_tab_resolve (two, ref_one, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (info, "name"), !=, "Save");
  g_clear_pointer (&info, json_object_unref);

  /* A number only the first tab has handed out is unknown in the second. */
  {
    g_autofree char *high = NULL;

    tw_test_tab_eval (one, "for (let i = 0; i < 100; i++) { const b = document.createElement('button');"
                      "b.textContent = 'More ' + i; document.body.append(b); }");
    g_free (text_one);
    text_one = tab_snapshot_text (one, NULL);
    g_assert_cmpuint (max_ref (text_one), >, max_ref (text_two));
    high = g_strdup_printf ("@e%u", max_ref (text_one));
    info = tw_test_tab_resolve (one, high, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (json_object_get_string_member (info, "name"), ==, "More 99");
    g_clear_pointer (&info, json_object_unref);
    assert_stale (two, high, NULL);
  }
}

/* Frames and shadow DOM */

static void
test_frames_refs (TwTestTabFixture *fixture,
                  gconstpointer     data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) info = NULL;
  g_autoptr(JsonObject) frame_info = NULL;
  g_autofree char *text = NULL;
  g_autofree char *inside = NULL;
  g_autofree char *deep = NULL;
  g_autofree char *frame = NULL;
  JsonObject *rect;
  JsonObject *frame_rect;

  text = tab_snapshot_text (fixture->tab, NULL);
  inside = tw_test_find_ref (text, "button \"Inside the same-origin frame\"");
  deep = tw_test_find_ref (text, "link \"Deep link\"");
  frame = tw_test_find_ref (text, "iframe \"Same origin\"");

  /* Refs inside a same-origin frame resolve, with a rectangle in the
   * coordinates of the top-level viewport. */
  info = tw_test_tab_resolve (fixture->tab, inside, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (info, "role"), ==, "button");
  g_assert_true (g_str_has_suffix (json_object_get_string_member (info, "frameUrl"), "/frame-inner.html"));
  frame_info = tw_test_tab_resolve (fixture->tab, frame, &error);
  g_assert_no_error (error);
  rect = json_object_get_object_member (info, "rect");
  frame_rect = json_object_get_object_member (frame_info, "rect");
  g_assert_cmpfloat (json_object_get_double_member (rect, "x"), >=, json_object_get_double_member (frame_rect, "x"));
  g_assert_cmpfloat (json_object_get_double_member (rect, "y"), >, json_object_get_double_member (frame_rect, "y"));
  g_clear_pointer (&info, json_object_unref);

  info = tw_test_tab_resolve (fixture->tab, deep, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (info, "name"), ==, "Deep link");
  g_clear_pointer (&info, json_object_unref);

  /* The frame goes to another document: its old elements are gone. */
  {
    g_autofree char *script = g_strdup_printf ("document.querySelector('iframe').src = '%s/refs.html';", base_a);

    tw_test_tab_eval (fixture->tab, script);
    tw_test_wait_until (snapshot_shows_save, fixture->tab, LOAD_TIMEOUT_MS,
                        "the snapshot to show the frame's new document");
    assert_stale (fixture->tab, inside, NULL);
  }
}

/* Robustness */

static void
busy_page_times_out (void)
{
  g_autoptr(TwTestTab) tab = tw_test_tab_new (TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) result = NULL;
  gint64 start;
  double seconds;

  tab_load (tab, "/busy.html");
  /* The page starts an endless loop shortly after it loaded, once it has
   * told the server so with a synchronous request. */
  busy_page_spins = FALSE;
  tw_test_tab_eval (tab, "setTimeout(() => { const r = new XMLHttpRequest (); "
                    "r.open ('GET', '/busy-starts', false); r.send (); for (;;) {} }, 0); 1");
  tw_test_wait_for_flag (&busy_page_spins, LOAD_TIMEOUT_MS, "the page to start its endless loop");

  start = g_get_monotonic_time ();
  result = tw_test_tab_snapshot (tab, NULL, &error);
  seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;

  g_assert_null (result);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT);
  /* The test's first process checks for this line: a subprocess's test
   * messages are not printed. */
  g_print ("busy page: timed out after %.2f s\n", seconds);
  g_assert_cmpfloat (seconds, >=, TW_PAGE_RUNTIME_DEFAULT_TIMEOUT_MS / 1000.0 - 0.2);

  /* The page would spin on and slow down the tests that follow. */
  webkit_web_view_terminate_web_process (tab->view);
}

/* The snapshot call's limit is the snapshot's budget plus a margin. The
 * test runs in a process of its own, which keeps the default budget: the
 * call gives up when an agent's would, not after the raised budget the
 * other tests have. */
static void
test_busy_page (void)
{
  gint64 start;

  if (g_test_subprocess ())
    {
      busy_page_times_out ();
      return;
    }

  start = g_get_monotonic_time ();
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_message ("busy page: its process ended after %.2f s",
                  (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*busy page: timed out after *");
}

static void
test_huge_page (TwTestTabFixture *fixture,
                gconstpointer     data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) result = NULL;
  const char *text;
  gint64 start;
  double ms;

  /* The page's own first layout is not the snapshot's time: wait until the
   * page answers a trivial call. */
  json_node_unref (tw_test_tab_call (fixture->tab, "ping", NULL, CALL_TIMEOUT_MS, &error));
  g_assert_no_error (error);
  start = g_get_monotonic_time ();
  result = tw_test_tab_snapshot (fixture->tab, NULL, &error);
  ms = (g_get_monotonic_time () - start) / 1000.0;
  g_assert_no_error (error);

  text = json_object_get_string_member (result, "text");
  g_print ("# 200,000-element page: snapshot in %.0f ms, %" G_GINT64_FORMAT " elements read%s\n",
           ms, json_object_get_int_member (result, "elements"),
           json_object_get_boolean_member (result, "partial") ? ", partial with a note" : "");
  g_assert_cmpint (g_utf8_strlen (text, -1), <=, TW_SNAPSHOT_DEFAULT_CHARS);
  g_assert_true (json_object_get_boolean_member (result, "truncated"));
  g_assert_true (strstr (text, "\n… cut at 40000 characters: call browser_snapshot again with cursor \"") != NULL);
  g_assert_true (strstr (text, "- heading \"Huge page\" @e") != NULL);
  g_assert_true (strstr (text, "- link \"Item 0\" @e") != NULL);
}

/* Main-thread CPU time, in milliseconds, of this process and of the WebKit
 * web processes it started (through bubblewrap, so at any depth below it).
 * A snapshot runs on those two threads, one after the other, so this is
 * what it costs; unlike wall-clock time it does not grow when other
 * programs keep the machine busy, and unlike the processes' total it leaves
 * out the JIT compiler and garbage collector threads that run alongside. */
static double
thread_ms (guint64 pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%" G_GUINT64_FORMAT "/task/%" G_GUINT64_FORMAT
                                           "/stat", pid, pid);
  g_autofree char *stat = NULL;
  g_auto(GStrv) fields = NULL;
  const char *after;

  if (!g_file_get_contents (path, &stat, NULL, NULL) || (after = strrchr (stat, ')')) == NULL)
    return 0;

  /* After "pid (comm)": state ppid … utime (14th field) stime (15th). */
  fields = g_strsplit (after + 2, " ", -1);
  if (g_strv_length (fields) < 13)
    return 0;

  return (g_ascii_strtoull (fields[11], NULL, 10) + g_ascii_strtoull (fields[12], NULL, 10)) *
         1000.0 / sysconf (_SC_CLK_TCK);
}

static double
cpu_ms (void)
{
  g_autoptr(GHashTable) parents = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) web_processes = g_ptr_array_new ();
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  double total = thread_ms (getpid ());
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *stat = NULL;
      g_auto(GStrv) fields = NULL;
      const char *after;
      guint64 pid;

      if (!g_ascii_string_to_unsigned (name, 10, 1, G_MAXINT, &pid, NULL))
        continue;
      path = g_strdup_printf ("/proc/%s/stat", name);
      if (!g_file_get_contents (path, &stat, NULL, NULL) || (after = strrchr (stat, ')')) == NULL)
        continue;

      fields = g_strsplit (after + 2, " ", -1);
      if (g_strv_length (fields) < 2)
        continue;
      g_hash_table_insert (parents, GSIZE_TO_POINTER (pid),
                           GSIZE_TO_POINTER (g_ascii_strtoull (fields[1], NULL, 10)));
      if (strstr (stat, "(WebKitWebProces") != NULL)
        g_ptr_array_add (web_processes, GSIZE_TO_POINTER (pid));
    }

  for (guint i = 0; i < web_processes->len; i++)
    {
      gsize pid = GPOINTER_TO_SIZE (g_ptr_array_index (web_processes, i));

      /* Only the web processes of this test program. */
      for (gsize p = pid, depth = 0; p > 1 && depth < 16; depth++)
        {
          p = GPOINTER_TO_SIZE (g_hash_table_lookup (parents, GSIZE_TO_POINTER (p)));
          if (p == (gsize) getpid ())
            {
              total += thread_ms (pid);
              break;
            }
        }
    }

  return total;
}

static void
test_table_speed (TwTestTabFixture *fixture,
                  gconstpointer     data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) all = g_string_new (NULL);
  g_autofree char *cursor = NULL;
  double times[9];
  double cpu[9];
  guint deletes = 0;

  json_node_unref (tw_test_tab_call (fixture->tab, "ping", NULL, CALL_TIMEOUT_MS, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      g_autoptr(JsonObject) result = NULL;
      gint64 start = g_get_monotonic_time ();
      double cpu_start = cpu_ms ();

      result = tw_test_tab_snapshot (fixture->tab, NULL, &error);
      times[i] = (g_get_monotonic_time () - start) / 1000.0;
      cpu[i] = cpu_ms () - cpu_start;
      g_assert_no_error (error);
      g_assert_true (json_object_get_boolean_member (result, "truncated"));
    }
  qsort (times, G_N_ELEMENTS (times), sizeof (double), tw_test_compare_doubles);
  qsort (cpu, G_N_ELEMENTS (cpu), sizeof (double), tw_test_compare_doubles);
  g_print ("# 3,000-row table: full snapshot median %.0f ms of main-thread CPU time "
           "(min %.0f, max %.0f), %.0f ms wall clock (min %.0f, max %.0f)\n",
           cpu[4], cpu[0], cpu[8], times[4], times[0], times[8]);
  /* Speed figures live in bench/ (a timed assertion would flake on a busy
   * machine); here each call only has to succeed, within its own limit. */

  /* Every row's widgets are there, with their roles and names, across the
   * pages the cursor leads through. */
  do
    {
      g_autoptr(JsonObject) result = NULL;
      g_autofree char *options = NULL;

      options = cursor ? g_strdup_printf ("{\"cursor\": \"%s\", \"maxChars\": 200000}", cursor)
                       : g_strdup ("{\"maxChars\": 200000}");
      result = tw_test_tab_snapshot (fixture->tab, options, &error);
      g_assert_no_error (error);
      g_string_append (all, json_object_get_string_member (result, "text"));
      g_free (cursor);
      cursor = g_strdup (json_object_get_string_member_with_default (result, "nextCursor", NULL));
    }while (cursor != NULL);

  for (const char *p = strstr (all->str, "- button \"Delete\" @e"); p != NULL;
       p = strstr (p + 1, "- button \"Delete\" @e"))
    deletes++;
  g_assert_cmpuint (deletes, ==, 3000);
  g_assert_true (strstr (all->str, "- checkbox \"Select row 3000\" @e") != NULL);
  g_assert_true (strstr (all->str, "- link \"Order 2999\" @e") != NULL);
  g_assert_true (strstr (all->str, "- combobox \"Status of order 1\" @e") != NULL);
  /* A drop-down prints its options once and its selected one as its text;
   * the others with the same options point at the first. */
  g_assert_true (strstr (all->str, " [options=\"Open\",\"Shipped\",\"Closed\"]: Open\n") != NULL);
  g_assert_true (strstr (all->str, "- combobox \"Status of order 3000\" @e") != NULL);
  g_assert_true (strstr (all->str, " [options=@e") != NULL);
  /* The rows sit in the table's row groups (HTML-AAM: thead and tbody). */
  g_assert_true (strstr (all->str, "\n  - table @e") != NULL);
  g_assert_true (strstr (all->str, "\n    - rowgroup @e") != NULL);
  g_assert_true (strstr (all->str, "\n      - row @e") != NULL);
  g_print ("# 3,000-row table: %" G_GSIZE_FORMAT " characters in all\n", all->len);
}

/* Paging */

static char *
body_of (const char *text)
{
  const char *start = strchr (text, '\n');
  const char *end;

  if (start == NULL)
    return g_strdup ("");
  start++;
  end = strstr (start, "\n… cut at ");
  return end ? g_strndup (start, end - start + 1) : g_strconcat (start, "\n", NULL);
}

/* Like g_assert_cmpstr(), but shows only the first line that differs. */
static void
assert_same_lines (const char *actual,
                   const char *expected)
{
  g_auto(GStrv) a = g_strsplit (actual, "\n", -1);
  g_auto(GStrv) e = g_strsplit (expected, "\n", -1);
  guint i;

  for (i = 0; a[i] != NULL && e[i] != NULL; i++)
    {
      if (g_strcmp0 (a[i], e[i]) != 0)
        g_error ("Line %u differs:\n  got:      %s\n  expected: %s", i + 1, a[i], e[i]);
    }
  if (a[i] != NULL || e[i] != NULL)
    g_error ("Line %u: one text ends before the other", i + 1);
}

static void
test_paging (TwTestTabFixture *fixture,
             gconstpointer     data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) full = NULL;
  g_autoptr(GString) joined = g_string_new (NULL);
  g_autofree char *cursor = NULL;
  g_autofree char *full_body = NULL;
  guint pages = 0;

  full = tw_test_tab_snapshot (fixture->tab, "{\"maxChars\": 200000}", &error);
  g_assert_no_error (error);
  g_assert_false (json_object_get_boolean_member (full, "truncated"));
  g_assert_false (json_object_has_member (full, "nextCursor"));
  full_body = body_of (json_object_get_string_member (full, "text"));

  do
    {
      g_autoptr(JsonObject) result = NULL;
      g_autofree char *options = NULL;
      g_autofree char *body = NULL;
      const char *text;

      options = cursor ? g_strdup_printf ("{\"cursor\": \"%s\", \"maxChars\": 1000}", cursor)
                       : g_strdup ("{\"maxChars\": 1000}");
      result = tw_test_tab_snapshot (fixture->tab, options, &error);
      g_assert_no_error (error);
      text = json_object_get_string_member (result, "text");
      g_assert_cmpint (g_utf8_strlen (text, -1), <=, 1000);
      g_assert_true (g_str_has_prefix (text, "Page: Long page — "));
      body = body_of (text);
      g_string_append (joined, body);
      g_free (cursor);
      cursor = g_strdup (json_object_get_string_member_with_default (result, "nextCursor", NULL));
      g_assert_cmpint (json_object_get_boolean_member (result, "truncated"), ==, cursor != NULL);
      if (cursor != NULL)
        {
          g_autofree char *tail = g_strdup_printf ("\n… cut at 1000 characters: call browser_snapshot again with cursor \"%s\" to continue", cursor);

          g_assert_true (g_str_has_suffix (text, tail));
        }
      pages++;
    }while (cursor != NULL);

  /* The pages, put together, are the whole snapshot, with nothing lost or
   * repeated at the cuts. */
  g_assert_cmpuint (pages, >, 3);
  assert_same_lines (joined->str, full_body);
}

static void
test_bad_options (TwTestTabFixture *fixture,
                  gconstpointer     data)
{
  static const char * const bad[] = {
    "{\"maxChars\": 999}",
    "{\"maxChars\": 1000001}",
    "{\"maxChars\": 1500.5}",
    "{\"maxChars\": \"many\"}",
    "{\"interactive\": \"yes\"}",
    "{\"ref\": 3}",
    "{\"ref\": \"button\"}",
    "{\"cursor\": \"nonsense\"}",
    "{\"cursor\": \"99:0\"}",
  };
  g_autofree char *text = NULL;
  g_autofree char *cursor = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonObject) result = tw_test_tab_snapshot (fixture->tab, bad[i], &error);

      g_assert_null (result);
      g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
    }

  /* A cursor dies with its document. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonObject) result = tw_test_tab_snapshot (fixture->tab, "{\"maxChars\": 1000}", &error);
    g_autoptr(JsonObject) again = NULL;
    g_autofree char *options = NULL;

    g_assert_no_error (error);
    cursor = g_strdup (json_object_get_string_member (result, "nextCursor"));
    options = g_strdup_printf ("{\"cursor\": \"%s\"}", cursor);
    tab_load (fixture->tab, "/long.html");
    again = tw_test_tab_snapshot (fixture->tab, options, &error);
    g_assert_null (again);
    g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
    g_assert_true (strstr (error->message, "expired") != NULL);
  }
}

static void
test_subtree (TwTestTabFixture *fixture,
              gconstpointer     data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) result = NULL;
  g_autofree char *text = NULL;
  g_autofree char *form = NULL;
  g_autofree char *options = NULL;
  g_autofree char *part = NULL;
  g_autofree char *expected = NULL;

  text = tab_snapshot_text (fixture->tab, NULL);
  form = tw_test_find_ref (text, "form \"Sign up\"");
  options = g_strdup_printf ("{\"ref\": \"%s\"}", form);
  part = tab_snapshot_text (fixture->tab, options);

  /* The element's own line first, its content below, refs unchanged. */
  expected = g_strdup_printf ("- form \"Sign up\" %s", form);
  g_assert_true (strstr (part, expected) != NULL);
  g_assert_true (strstr (part, tw_test_find_ref (text, "textbox \"Email\"")) != NULL);
  g_assert_null (strstr (part, "heading \"Forms\""));

  /* A ref whose element is hidden has nothing to show. */
  tw_test_tab_eval (fixture->tab, "document.querySelector('form').style.display = 'none';");
  result = tw_test_tab_snapshot (fixture->tab, options, &error);
  g_assert_null (result);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_INTERACTABLE);
  g_clear_error (&error);

  /* A ref whose element is gone. */
  tw_test_tab_eval (fixture->tab, "document.querySelector('form').remove();");
  result = tw_test_tab_snapshot (fixture->tab, options, &error);
  g_assert_null (result);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_STALE_REF);
}

static void
test_installed_late (void)
{
  g_autoptr(TwTestTab) tab = tw_test_tab_new (FALSE);
  g_autofree char *text = NULL;

  /* The page loaded before the runtime existed: the first call installs it
   * into the document. */
  tab_load (tab, "/refs.html");
  tab->runtime = tw_page_runtime_new (tab->view);
  text = tab_snapshot_text (tab, NULL);
  g_assert_true (strstr (text, "- button \"Save\" @e") != NULL);
}

static void
test_deep_page (TwTestTabFixture *fixture,
                gconstpointer     data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) info = NULL;
  g_autofree char *text = NULL;
  g_autofree char *link = NULL;

  text = tab_snapshot_text (fixture->tab, NULL);

  /* What is within reach is there, with a note about what is not. */
  g_assert_true (strstr (text, "- button \"Before the depths\" @e") != NULL);
  g_assert_true (strstr (text, "- button \"After the depths\" @e") != NULL);
  g_assert_null (strstr (text, "At the bottom"));
  g_assert_true (strstr (text, "\n… parts nested deeper than 400 levels are left out") != NULL);

  /* A name whose text lies thousands of levels down is cut short, and the
   * ref to it still resolves. */
  link = tw_test_find_ref (text, "- link");
  info = tw_test_tab_resolve (fixture->tab, link, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (info, "role"), ==, "link");
}

static void
test_blank_tab (void)
{
  g_autoptr(TwTestTab) tab = tw_test_tab_new (TRUE);
  g_autofree char *text = NULL;

  /* A tab that never loaded a page still answers. */
  text = tab_snapshot_text (tab, NULL);
  g_assert_cmpstr (text, ==, "Page: about:blank\n(the page shows no content)");
}

static void
test_call_errors (TwTestTabFixture *fixture,
                  gconstpointer     data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  node = tw_test_tab_call (fixture->tab, "noSuchFunction", NULL, TW_PAGE_RUNTIME_DEFAULT_TIMEOUT_MS, &error);
  g_assert_null (node);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL);
  g_clear_error (&error);

  node = tw_test_tab_call (fixture->tab, "resolveRef", "{\"ref\": 12}", TW_PAGE_RUNTIME_DEFAULT_TIMEOUT_MS, &error);
  g_assert_null (node);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  node = tw_test_tab_call (fixture->tab, "ping", NULL, TW_PAGE_RUNTIME_DEFAULT_TIMEOUT_MS, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (json_object_get_string_member (json_node_get_object (node), "url"),
                                   "/refs.html"));
}

/* The tests on a tab that shows one page of the first server. */
static const struct
{
  const char *path;
  const char *page;
  void      (*test) (TwTestTabFixture *fixture,
                     gconstpointer     url);
} page_cases[] = {
  { "/snapshot/refs/stable", "/refs.html", test_refs_stable },
  { "/snapshot/refs/navigation", "/refs.html", test_refs_navigation },
  { "/snapshot/frames/refs", "/frames.html", test_frames_refs },
  { "/snapshot/options/paging", "/long.html", test_paging },
  { "/snapshot/options/bad", "/long.html", test_bad_options },
  { "/snapshot/options/subtree", "/forms.html", test_subtree },
  { "/snapshot/runtime/call-errors", "/refs.html", test_call_errors },
  { "/snapshot/robust/deep-page", "/deep.html", test_deep_page },
  { "/snapshot/robust/huge-page", "/generated/huge?elements=200000", test_huge_page },
  { "/snapshot/speed/table-3000-rows", "/generated/table?rows=3000", test_table_speed },
};

int
main (int   argc,
      char *argv[])
{
  int ret;

  /* The 3,000-row table must be read whole, in pages, however busy the
   * machine (two tests run side by side): the snapshot's default budget of
   * 2 s would give a partial tree there. The busy page's test runs in a
   * process of its own with the default budget; it inherits the
   * environment, so the variable goes before any thread starts. */
  if (g_strv_contains ((const char * const *) argv, "--GTestSubprocess"))
    g_unsetenv ("TABWRIGHT_SNAPSHOT_BUDGET_MS");
  else
    g_setenv ("TABWRIGHT_SNAPSHOT_BUDGET_MS", "8000", TRUE);
  tw_test_init_gtk (&argc, &argv, NULL);

  base_a = start_server (&server_a);
  base_b = start_server (&server_b);
  page_urls = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (spec_fixtures); i++)
    {
      g_autofree char *test_path = g_strconcat ("/snapshot/spec/", spec_fixtures[i], NULL);

      g_test_add_data_func (test_path, spec_fixtures[i], test_spec_fixture);
    }

  for (guint i = 0; i < G_N_ELEMENTS (goldens); i++)
    {
      g_autofree char *test_path = g_strconcat ("/snapshot/golden/", goldens[i].name,
                                                goldens[i].options ? "-options" : "", NULL);

      g_test_add_data_func (test_path, &goldens[i], test_golden);
    }

  for (guint i = 0; i < G_N_ELEMENTS (page_cases); i++)
    {
      char *url = url_a (page_cases[i].page);

      g_ptr_array_add (page_urls, url);
      g_test_add (page_cases[i].path, TwTestTabFixture, url, tw_test_tab_fixture_set_up,
                  page_cases[i].test, tw_test_tab_fixture_tear_down);
    }
  g_test_add_func ("/snapshot/refs/two-tabs", test_refs_two_tabs);
  g_test_add_func ("/snapshot/runtime/installed-late", test_installed_late);
  g_test_add_func ("/snapshot/runtime/blank-tab", test_blank_tab);
  /* Last: the stuck page's web process is killed, but it costs a moment. */
  g_test_add_func ("/snapshot/robust/busy-page", test_busy_page);

  ret = g_test_run ();
  g_ptr_array_unref (page_urls);

  if (total_cases > 0)
    g_print ("# %u spec-derived role, name, description and state cases checked\n", total_cases);

  g_clear_object (&server_a);
  g_clear_object (&server_b);
  tw_test_tab_clear_session ();
  g_free (base_a);
  g_free (base_b);

  return ret;
}
