/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <libsoup/soup.h>

#include "tw-load-watch.h"
#include "tw-test-webview.h"

/* The one load watcher of a tab, on a real WebKit view and a loopback
 * server: a load that finishes, one that fails, one that never answers,
 * a step inside the document, nothing at all, a load that another
 * replaces, and two watches on one view beside a handler that keeps
 * WebKit's error page away. */

#define WAIT_MS 30000

static SoupServer *server;
static char *base_url;

static void
serve_cb (SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query)
{
  tw_test_serve_html (msg, "<!doctype html><title>Page</title><p>A page.</p>"
                      "<a id=next href='#later'>Later</a>");
}

typedef struct
{
  gboolean  ended;
  TwLoadEnd end;
  guint     calls;
  guint     starts;
} Outcome;

static void
ended_cb (TwLoadWatch *watch,
          TwLoadEnd    end,
          gpointer     user_data)
{
  Outcome *outcome = user_data;

  outcome->ended = TRUE;
  outcome->end = end;
  outcome->calls++;
}

static void
started_cb (TwLoadWatch *watch,
            gpointer     user_data)
{
  Outcome *outcome = user_data;

  outcome->starts++;
}

static char *
url (const char *path)
{
  return g_strconcat (base_url, path + 1, NULL);
}

/* A tab without a runtime and the watch a test makes on it, which counts
 * the loads it sees start; the outcome is that of its waits. */
typedef struct
{
  TwTestTab   *tab;
  TwLoadWatch *watch;
  Outcome      started;
  Outcome      outcome;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  fixture->tab = tw_test_tab_new (FALSE);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_pointer (&fixture->watch, tw_load_watch_free);
  g_clear_pointer (&fixture->tab, tw_test_tab_free);
}

static TwLoadWatch *
fixture_watch (Fixture *fixture)
{
  fixture->watch = tw_load_watch_new (fixture->tab->view, TW_LOAD_WATCH_NONE);
  tw_load_watch_set_start_func (fixture->watch, started_cb, &fixture->started);
  return fixture->watch;
}

/* The fixture's watch, made before @uri loads and waited on with a grace
 * period of 300 ms until it ends. */
static TwLoadWatch *
watch_load (Fixture    *fixture,
            const char *uri,
            const char *what)
{
  TwLoadWatch *watch = fixture_watch (fixture);

  webkit_web_view_load_uri (fixture->tab->view, uri);
  tw_load_watch_wait (watch, 300, 0, ended_cb, &fixture->outcome);
  tw_test_wait_for_flag (&fixture->outcome.ended, WAIT_MS, what);
  return watch;
}

static void
test_loaded (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *page = url ("/page");
  TwLoadWatch *watch = watch_load (fixture, page, "the load to end");

  g_assert_cmpint (fixture->outcome.end, ==, TW_LOAD_END_LOADED);
  g_assert_cmpuint (fixture->outcome.calls, ==, 1);
  g_assert_cmpuint (fixture->started.starts, ==, 1);
  g_assert_true (tw_load_watch_get_committed (watch));
  g_assert_false (tw_load_watch_is_loading (watch));
  g_assert_cmpint (tw_load_watch_get_first_start (watch), >, 0);
  g_assert_null (tw_load_watch_get_error (watch));
  g_assert_cmpstr (webkit_web_view_get_uri (fixture->tab->view), ==, page);

  /* A load that ended before anyone waited ends the next wait at once. */
  fixture->outcome.ended = FALSE;
  tw_load_watch_wait (watch, 300, 0, ended_cb, &fixture->outcome);
  g_assert_true (fixture->outcome.ended);
  g_assert_cmpint (fixture->outcome.end, ==, TW_LOAD_END_LOADED);
}

static void
test_failed (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *closed = g_strdup_printf ("http://127.0.0.1:%u/", tw_test_closed_port ());
  TwLoadWatch *watch = watch_load (fixture, closed, "the load to fail");

  g_assert_cmpint (fixture->outcome.end, ==, TW_LOAD_END_FAILED);
  g_assert_nonnull (tw_load_watch_get_error (watch));
  g_assert_false (g_error_matches (tw_load_watch_get_error (watch), WEBKIT_NETWORK_ERROR,
                                   WEBKIT_NETWORK_ERROR_CANCELLED));
  g_assert_cmpstr (tw_load_watch_get_failing_uri (watch), ==, closed);
  g_assert_false (tw_load_watch_is_loading (watch));
}

/* A tab keeps WebKit's error page away with a "load-failed" handler that
 * returns TRUE, which stops the signal: the watches, attached first, still
 * hear of the failure, and so does every watch of the view. */
static void
test_two_watches_and_a_handler (Fixture       *fixture,
                                gconstpointer  data)
{
  g_autofree char *closed = g_strdup_printf ("http://127.0.0.1:%u/", tw_test_closed_port ());
  TwLoadWatch *first, *second;
  Outcome a = { 0 }, b = { 0 };

  tw_test_view_keep_error_pages_away (fixture->tab->view);

  first = fixture_watch (fixture);
  second = tw_load_watch_new (fixture->tab->view, TW_LOAD_WATCH_NONE);
  webkit_web_view_load_uri (fixture->tab->view, closed);
  tw_load_watch_wait (first, 300, 0, ended_cb, &a);
  tw_load_watch_wait (second, 0, 0, ended_cb, &b);
  /* Nothing had started yet: a wait without grace ends at once. */
  g_assert_true (b.ended);
  g_assert_cmpint (b.end, ==, TW_LOAD_END_NONE);

  tw_test_wait_for_flag (&a.ended, WAIT_MS, "the first watch to hear of the failure");
  g_assert_cmpint (a.end, ==, TW_LOAD_END_FAILED);
  /* The second heard it too, and says so to its next wait. */
  b.ended = FALSE;
  tw_load_watch_wait (second, 0, 0, ended_cb, &b);
  g_assert_true (b.ended);
  g_assert_cmpint (b.end, ==, TW_LOAD_END_FAILED);
  g_assert_nonnull (tw_load_watch_get_error (second));

  tw_load_watch_free (second);
}

static void
test_timed_out (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *hang = url ("/hang");
  TwLoadWatch *watch = fixture_watch (fixture);
  Outcome outcome = { 0 };

  webkit_web_view_load_uri (fixture->tab->view, hang);
  tw_test_wait_until (tw_test_flag_is_set, &fixture->started.starts, WAIT_MS, "the load to start");
  g_assert_true (tw_load_watch_is_loading (watch));

  /* The deadline is the one limit: 200 ms from now, the server has not
   * answered and never will. */
  tw_load_watch_wait (watch, 300, g_get_monotonic_time () + 200 * 1000, ended_cb, &outcome);
  tw_test_wait_for_flag (&outcome.ended, WAIT_MS, "the deadline");
  g_assert_cmpint (outcome.end, ==, TW_LOAD_END_TIMED_OUT);
  g_assert_true (tw_load_watch_is_loading (watch));

  webkit_web_view_stop_loading (fixture->tab->view);
}

/* A load that another replaces: the watch follows the second one. */
static void
test_replaced (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *hang = url ("/hang");
  g_autofree char *page = url ("/page");
  TwLoadWatch *watch = fixture_watch (fixture);
  Outcome outcome = { 0 };

  webkit_web_view_load_uri (fixture->tab->view, hang);
  tw_load_watch_wait (watch, 2000, 0, ended_cb, &outcome);
  tw_test_wait_until (tw_test_flag_is_set, &fixture->started.starts, WAIT_MS, "the first load to start");

  webkit_web_view_load_uri (fixture->tab->view, page);
  tw_test_wait_for_flag (&outcome.ended, WAIT_MS, "the second load to end");

  g_assert_cmpint (outcome.end, ==, TW_LOAD_END_LOADED);
  g_assert_cmpuint (outcome.calls, ==, 1);
  g_assert_cmpstr (webkit_web_view_get_uri (fixture->tab->view), ==, page);
  g_assert_null (tw_load_watch_get_error (watch));
}

/* The watch of a page loaded before it, waiting with a grace period of
 * @grace_ms. */
static TwLoadWatch *
watch_loaded_page (Fixture *fixture,
                   guint    grace_ms,
                   Outcome *outcome)
{
  g_autofree char *page = url ("/page");
  TwLoadWatch *watch;

  tw_test_tab_load (fixture->tab, page);
  watch = fixture_watch (fixture);
  tw_load_watch_wait (watch, grace_ms, 0, ended_cb, outcome);
  return watch;
}

/* A step inside the document reports no load: the address change ends
 * the wait long before its grace period would. */
static void
test_same_document (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *later = url ("/page#later");
  Outcome outcome = { 0 };
  TwLoadWatch *watch = watch_loaded_page (fixture, 60000, &outcome);

  tw_test_tab_eval (fixture->tab, "history.pushState({}, '', '#later')");
  tw_test_wait_for_flag (&outcome.ended, WAIT_MS, "the step inside the document");

  g_assert_cmpint (outcome.end, ==, TW_LOAD_END_NONE);
  g_assert_false (tw_load_watch_get_committed (watch));
  g_assert_cmpint (tw_load_watch_get_first_start (watch), ==, 0);
  g_assert_cmpstr (webkit_web_view_get_uri (fixture->tab->view), ==, later);
}

/* Nothing happens: the grace period ends the wait. */
static void
test_nothing (Fixture       *fixture,
              gconstpointer  data)
{
  Outcome outcome = { 0 };

  watch_loaded_page (fixture, 100, &outcome);
  g_assert_false (outcome.ended);
  tw_test_wait_for_flag (&outcome.ended, WAIT_MS, "the grace period");
  g_assert_cmpint (outcome.end, ==, TW_LOAD_END_NONE);
  g_assert_cmpuint (outcome.calls, ==, 1);
}

/* A watch freed from its own callback: the command it belongs to ended. */
static void
free_watch_cb (TwLoadWatch *watch,
               TwLoadEnd    end,
               gpointer     user_data)
{
  Outcome *outcome = user_data;

  tw_load_watch_free (watch);
  outcome->ended = TRUE;
  outcome->end = end;
}

static void
test_freed_in_callback (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *page = url ("/page");
  TwLoadWatch *watch = tw_load_watch_new (fixture->tab->view, TW_LOAD_WATCH_NONE);
  TwLoadWatch *other = fixture_watch (fixture);
  Outcome outcome = { 0 }, second = { 0 };

  webkit_web_view_load_uri (fixture->tab->view, page);
  tw_load_watch_wait (watch, 300, 0, free_watch_cb, &outcome);
  tw_load_watch_wait (other, 300, 0, ended_cb, &second);
  tw_test_wait_for_flag (&outcome.ended, WAIT_MS, "the load to end");
  tw_test_wait_for_flag (&second.ended, WAIT_MS, "the other watch to hear of it");
  g_assert_cmpint (outcome.end, ==, TW_LOAD_END_LOADED);
  g_assert_cmpint (second.end, ==, TW_LOAD_END_LOADED);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  gtk_test_init (&argc, &argv, NULL);

  server = tw_test_server_new (serve_cb, &base_url);

  g_test_add ("/load-watch/loaded", Fixture, NULL, fixture_setup, test_loaded, fixture_teardown);
  g_test_add ("/load-watch/failed", Fixture, NULL, fixture_setup, test_failed, fixture_teardown);
  g_test_add ("/load-watch/two-watches-and-a-handler", Fixture, NULL, fixture_setup, test_two_watches_and_a_handler, fixture_teardown);
  g_test_add ("/load-watch/timed-out", Fixture, NULL, fixture_setup, test_timed_out, fixture_teardown);
  g_test_add ("/load-watch/replaced", Fixture, NULL, fixture_setup, test_replaced, fixture_teardown);
  g_test_add ("/load-watch/same-document", Fixture, NULL, fixture_setup, test_same_document, fixture_teardown);
  g_test_add ("/load-watch/nothing", Fixture, NULL, fixture_setup, test_nothing, fixture_teardown);
  g_test_add ("/load-watch/freed-in-callback", Fixture, NULL, fixture_setup, test_freed_in_callback, fixture_teardown);

  status = g_test_run ();

  tw_test_tab_clear_session ();
  g_object_unref (server);
  g_free (base_url);

  return status;
}
