/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-history.h"

#include "tw-error.h"
#include "tw-test-webview.h"

#include <glib/gstdio.h>
#include <string.h>

/* A workspace's history and bookmarks: visits by the person and agents,
 * prefix search over addresses and titles, time ranges, bookmarks, what is
 * kept on disk across a restart, and a query's syntax taken as text. */

/* Searches @history as tw_history_search_async() does, and waits for the
 * answer: the entries, or NULL with @error set. */
static GPtrArray *
search_full (TwHistory      *history,
             const char     *query,
             gint64          since,
             gint64          until,
             TwHistoryKind   kind,
             guint           limit,
             GError        **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  tw_history_search_async (history, query, since, until, kind, limit, NULL,
                           tw_test_store_result_cb, NULL);
  result = tw_test_await_result (TW_TEST_WAIT_MS, "the history search");

  return tw_history_search_finish (history, result, error);
}

static GPtrArray *
search (TwHistory     *history,
        const char    *query,
        gint64         since,
        gint64         until,
        TwHistoryKind  kind)
{
  g_autoptr(GError) error = NULL;
  GPtrArray *entries = search_full (history, query, since, until, kind, 20, &error);

  g_assert_no_error (error);
  g_assert_nonnull (entries);

  return entries;
}

static TwHistoryEntry *
entry (GPtrArray *entries,
       guint      i)
{
  g_assert_cmpuint (i, <, entries->len);
  return g_ptr_array_index (entries, i);
}

static void
test_visits (void)
{
  g_autoptr(TwHistory) history = tw_history_new (NULL);
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GPtrArray) docs = NULL;
  g_autoptr(GPtrArray) cafe = NULL;
  g_autoptr(GPtrArray) none = NULL;
  TwHistoryEntry *first;

  tw_history_add_visit (history, "http://127.0.0.1:8000/docs/install", "Installing Tabwright",
                        TW_HISTORY_PERSON);
  tw_history_add_visit (history, "http://127.0.0.1:8000/menu", "", "Claude Code");
  tw_history_set_title (history, "http://127.0.0.1:8000/menu", "Café menu");
  tw_history_add_visit (history, "http://127.0.0.1:8000/docs/install", "Installing Tabwright",
                        "Codex");
  /* Not pages a person would look for again. */
  tw_history_add_visit (history, "about:blank", "", "Codex");
  tw_history_add_visit (history, "data:text/html,<p>x", "", "Codex");

  all = search (history, NULL, 0, 0, TW_HISTORY_KIND_ALL);
  g_assert_cmpuint (all->len, ==, 2);

  /* Latest first, with every visitor, latest first. */
  first = entry (all, 0);
  g_assert_cmpstr (first->url, ==, "http://127.0.0.1:8000/docs/install");
  g_assert_cmpstr (first->title, ==, "Installing Tabwright");
  g_assert_cmpuint (first->n_visits, ==, 2);
  g_assert_cmpstrv (first->visitors, ((const char *[]) { "Codex", TW_HISTORY_PERSON, NULL }));
  g_assert_false (first->bookmarked);
  g_assert_cmpint (first->last_visit, >, 0);
  g_assert_cmpstr (entry (all, 1)->title, ==, "Café menu");
  g_assert_cmpstrv (entry (all, 1)->visitors, ((const char *[]) { "Claude Code", NULL }));

  /* Words of the address or the title, as typed so far; accents folded. */
  docs = search (history, "inst", 0, 0, TW_HISTORY_KIND_ALL);
  g_assert_cmpuint (docs->len, ==, 1);
  g_assert_cmpstr (entry (docs, 0)->url, ==, "http://127.0.0.1:8000/docs/install");
  cafe = search (history, "cafe MEN", 0, 0, TW_HISTORY_KIND_VISITS);
  g_assert_cmpuint (cafe->len, ==, 1);
  g_assert_cmpstr (entry (cafe, 0)->url, ==, "http://127.0.0.1:8000/menu");
  none = search (history, "cafe install", 0, 0, TW_HISTORY_KIND_ALL);
  g_assert_cmpuint (none->len, ==, 0);
}

static void
test_query_syntax (void)
{
  g_autoptr(TwHistory) history = tw_history_new (NULL);
  const char *queries[] = {
    "\"", "*", "title:menu", "NEAR(a b)", "a OR", "-", "^x", "\"menu", "menu\"*", "( )",
    "\xff\xfe", "",
  };

  tw_history_add_visit (history, "http://127.0.0.1/menu", "Menu", TW_HISTORY_PERSON);

  /* FTS5's own syntax in a query is text; a query with no words lists
   * everything. */
  for (guint i = 0; i < G_N_ELEMENTS (queries); i++)
    {
      g_autoptr(GPtrArray) found = search (history, queries[i], 0, 0, TW_HISTORY_KIND_ALL);

      g_assert_cmpuint (found->len, <=, 1);
    }

  {
    g_autoptr(GPtrArray) found = search (history, "title:menu", 0, 0, TW_HISTORY_KIND_ALL);

    g_assert_cmpuint (found->len, ==, 0);
  }
  {
    g_autoptr(GPtrArray) found = search (history, "\"menu\"", 0, 0, TW_HISTORY_KIND_ALL);

    g_assert_cmpuint (found->len, ==, 1);
  }
}

static void
test_time_range (void)
{
  g_autoptr(TwHistory) history = tw_history_new (NULL);
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) after = NULL;
  gint64 middle;

  tw_history_add_visit (history, "http://127.0.0.1/old", "Old", TW_HISTORY_PERSON);
  tw_test_flush_history (history);
  middle = g_get_real_time () + 1;
  while (g_get_real_time () <= middle)
    ;
  tw_history_add_visit (history, "http://127.0.0.1/new", "New", "Codex");

  before = search (history, NULL, 0, middle, TW_HISTORY_KIND_VISITS);
  g_assert_cmpuint (before->len, ==, 1);
  g_assert_cmpstr (entry (before, 0)->url, ==, "http://127.0.0.1/old");
  after = search (history, NULL, middle, 0, TW_HISTORY_KIND_VISITS);
  g_assert_cmpuint (after->len, ==, 1);
  g_assert_cmpstr (entry (after, 0)->url, ==, "http://127.0.0.1/new");
}

static void
count_cb (TwHistory *history,
          guint     *n)
{
  (*n)++;
}

static void
test_bookmarks_kept (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tabwright-history-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "history.sqlite", NULL);
  guint changes = 0;

  {
    g_autoptr(TwHistory) history = tw_history_new (path);
    g_autoptr(GPtrArray) marks = NULL;
    g_autoptr(GPtrArray) all = NULL;

    g_signal_connect (history, "bookmarks-changed", G_CALLBACK (count_cb), &changes);
    tw_history_add_visit (history, "http://127.0.0.1/a", "A page", TW_HISTORY_PERSON);
    tw_history_set_bookmarked (history, "http://127.0.0.1/a", "A page", TRUE);
    tw_history_set_bookmarked (history, "http://127.0.0.1/never-visited", "Reading list", TRUE);
    tw_history_set_bookmarked (history, "about:blank", "", TRUE);
    g_assert_true (tw_history_is_bookmarked (history, "http://127.0.0.1/a"));
    g_assert_false (tw_history_is_bookmarked (history, "about:blank"));
    g_assert_cmpuint (changes, >=, 2);

    marks = search (history, NULL, 0, 0, TW_HISTORY_KIND_BOOKMARKS);
    g_assert_cmpuint (marks->len, ==, 2);
    for (guint i = 0; i < marks->len; i++)
      g_assert_true (entry (marks, i)->bookmarked);

    /* A bookmark never visited is found, but not as a visit. */
    all = search (history, "reading", 0, 0, TW_HISTORY_KIND_ALL);
    g_assert_cmpuint (all->len, ==, 1);
    g_assert_cmpuint (entry (all, 0)->n_visits, ==, 0);
    g_assert_cmpint (entry (all, 0)->last_visit, ==, 0);
    g_clear_pointer (&all, g_ptr_array_unref);
    all = search (history, "reading", 0, 0, TW_HISTORY_KIND_VISITS);
    g_assert_cmpuint (all->len, ==, 0);

    tw_history_set_bookmarked (history, "http://127.0.0.1/never-visited", NULL, FALSE);
    g_assert_false (tw_history_is_bookmarked (history, "http://127.0.0.1/never-visited"));
    tw_test_flush_history (history);
  }

  /* Kept on disk: a new store knows the bookmark and the visit. */
  {
    g_autoptr(TwHistory) history = tw_history_new (path);
    g_autoptr(GPtrArray) all = NULL;

    all = search (history, NULL, 0, 0, TW_HISTORY_KIND_ALL);
    g_assert_cmpuint (all->len, ==, 1);
    g_assert_cmpstr (entry (all, 0)->url, ==, "http://127.0.0.1/a");
    g_assert_true (entry (all, 0)->bookmarked);
    g_assert_cmpuint (entry (all, 0)->n_visits, ==, 1);
    /* The search ran after the bookmarks were read. */
    g_assert_true (tw_history_is_bookmarked (history, "http://127.0.0.1/a"));
  }

  g_remove (path);
  g_rmdir (dir);
}

static gboolean
lookup_bookmark (TwHistory  *history,
                 const char *url)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gboolean bookmarked;

  tw_history_lookup_bookmark_async (history, url, NULL, tw_test_store_result_cb, NULL);
  result = tw_test_await_result (TW_TEST_WAIT_MS, "the bookmark lookup");
  bookmarked = tw_history_lookup_bookmark_finish (history, result, &error);
  g_assert_no_error (error);

  return bookmarked;
}

/* After a restart, before the bookmarks are read: the database answers
 * for each page, and a change made meanwhile is neither lost nor undone
 * by what was read before it. */
static void
test_bookmarks_before_read (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tabwright-history-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "history.sqlite", NULL);

  {
    g_autoptr(TwHistory) history = tw_history_new (path);

    tw_history_set_bookmarked (history, "http://127.0.0.1/kept", "Kept", TRUE);
    tw_history_set_bookmarked (history, "http://127.0.0.1/removed", "Removed", TRUE);
    tw_test_flush_history (history);
  }

  {
    g_autoptr(TwHistory) history = tw_history_new (path);

    /* No main loop has run: the bookmarks are not read yet. */
    tw_history_set_bookmarked (history, "http://127.0.0.1/removed", NULL, FALSE);
    tw_history_set_bookmarked (history, "http://127.0.0.1/new", "New", TRUE);
    g_assert_true (lookup_bookmark (history, "http://127.0.0.1/kept"));
    g_assert_false (lookup_bookmark (history, "http://127.0.0.1/removed"));
    g_assert_true (lookup_bookmark (history, "http://127.0.0.1/new"));
    g_assert_false (lookup_bookmark (history, "http://127.0.0.1/never"));
    tw_test_flush_history (history);
    g_assert_true (tw_history_is_bookmarked (history, "http://127.0.0.1/kept"));
    g_assert_false (tw_history_is_bookmarked (history, "http://127.0.0.1/removed"));
    g_assert_true (tw_history_is_bookmarked (history, "http://127.0.0.1/new"));
  }

  {
    g_autoptr(TwHistory) history = tw_history_new (path);

    g_assert_false (lookup_bookmark (history, "http://127.0.0.1/removed"));
    g_assert_true (lookup_bookmark (history, "http://127.0.0.1/new"));
  }

  g_remove (path);
  g_rmdir (dir);
}

static void
test_unavailable (void)
{
  g_autoptr(TwHistory) history = tw_history_new ("/proc/no-such-dir/history.sqlite");
  g_autoptr(GError) error = NULL;
  GPtrArray *entries = search_full (history, "x", 0, 0, TW_HISTORY_KIND_ALL, 5, &error);

  g_assert_null (entries);
  g_assert_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL);
  g_assert_nonnull (strstr (error->message, "history is not available"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/history/visits", test_visits);
  g_test_add_func ("/history/query-syntax", test_query_syntax);
  g_test_add_func ("/history/time-range", test_time_range);
  g_test_add_func ("/history/bookmarks-kept", test_bookmarks_kept);
  g_test_add_func ("/history/bookmarks-before-read", test_bookmarks_before_read);
  g_test_add_func ("/history/unavailable", test_unavailable);

  return g_test_run ();
}
