/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-cancellable.h"

/* A watch on a cancellable calls back from the main loop, once, never from
 * inside GCancellable's handler, and never after it was ended. */

typedef struct
{
  GCancellable *cancellable;
  guint         calls;
  guint         destroyed;
  gboolean      inside_cancel;
} Fixture;

static void
cancelled_cb (gpointer user_data)
{
  Fixture *fixture = user_data;

  /* Not from inside g_cancellable_cancel(). */
  g_assert_false (fixture->inside_cancel);
  fixture->calls++;
}

static void
destroyed_cb (gpointer user_data)
{
  Fixture *fixture = user_data;

  fixture->destroyed++;
}

static void
cancel (Fixture *fixture)
{
  fixture->inside_cancel = TRUE;
  g_cancellable_cancel (fixture->cancellable);
  fixture->inside_cancel = FALSE;
}

static void
iterate (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
test_called_from_the_loop (void)
{
  Fixture fixture = { .cancellable = g_cancellable_new () };
  GSource *watch = tw_cancellable_watch (fixture.cancellable, cancelled_cb, &fixture,
                                         destroyed_cb);

  iterate ();
  g_assert_cmpuint (fixture.calls, ==, 0);

  cancel (&fixture);
  g_assert_cmpuint (fixture.calls, ==, 0);
  iterate ();
  g_assert_cmpuint (fixture.calls, ==, 1);
  g_assert_cmpuint (fixture.destroyed, ==, 1);

  /* Once only, and ending a watch that fired is harmless. */
  g_cancellable_cancel (fixture.cancellable);
  iterate ();
  g_assert_cmpuint (fixture.calls, ==, 1);
  tw_cancellable_unwatch (watch);
  g_assert_cmpuint (fixture.destroyed, ==, 1);

  g_object_unref (fixture.cancellable);
}

static void
test_already_cancelled (void)
{
  Fixture fixture = { .cancellable = g_cancellable_new () };
  GSource *watch;

  cancel (&fixture);
  watch = tw_cancellable_watch (fixture.cancellable, cancelled_cb, &fixture, destroyed_cb);
  g_assert_cmpuint (fixture.calls, ==, 0);
  iterate ();
  g_assert_cmpuint (fixture.calls, ==, 1);

  tw_cancellable_unwatch (watch);
  g_object_unref (fixture.cancellable);
}

static void
test_unwatched (void)
{
  Fixture fixture = { .cancellable = g_cancellable_new () };
  GSource *watch = tw_cancellable_watch (fixture.cancellable, cancelled_cb, &fixture,
                                         destroyed_cb);

  /* Cancelled, but ended before the loop ran: no call. */
  cancel (&fixture);
  g_clear_pointer (&watch, tw_cancellable_unwatch);
  g_assert_cmpuint (fixture.destroyed, ==, 1);
  iterate ();
  g_assert_cmpuint (fixture.calls, ==, 0);
  g_assert_null (watch);

  g_object_unref (fixture.cancellable);
}

static void
test_no_cancellable (void)
{
  Fixture fixture = { 0 };

  g_assert_null (tw_cancellable_watch (NULL, cancelled_cb, &fixture, destroyed_cb));
  g_assert_cmpuint (fixture.destroyed, ==, 1);
  tw_cancellable_unwatch (NULL);
}

/* Cancelled from another thread: the call still comes from this loop. */
static gpointer
cancel_thread (gpointer data)
{
  g_cancellable_cancel (data);

  return NULL;
}

static void
thread_cancelled_cb (gpointer user_data)
{
  GThread **thread = user_data;

  g_assert_true (g_thread_self () != *thread);
  *thread = NULL;
}

static void
test_other_thread (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  GThread *thread = NULL;
  GThread *canceller;
  GSource *watch = tw_cancellable_watch (cancellable, thread_cancelled_cb, &thread, NULL);

  canceller = thread = g_thread_new ("cancel", cancel_thread, cancellable);
  g_thread_join (g_thread_ref (canceller));
  while (thread != NULL)
    g_main_context_iteration (NULL, TRUE);
  tw_cancellable_unwatch (watch);
  g_thread_unref (canceller);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcp/cancellable/called-from-the-loop", test_called_from_the_loop);
  g_test_add_func ("/mcp/cancellable/already-cancelled", test_already_cancelled);
  g_test_add_func ("/mcp/cancellable/unwatched", test_unwatched);
  g_test_add_func ("/mcp/cancellable/no-cancellable", test_no_cancellable);
  g_test_add_func ("/mcp/cancellable/other-thread", test_other_thread);

  return g_test_run ();
}
