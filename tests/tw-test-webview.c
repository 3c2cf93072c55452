/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-test-webview.h"

typedef struct
{
  gboolean loaded;
  gboolean failed;
} Load;

static void
load_changed_cb (WebKitWebView   *view,
                 WebKitLoadEvent  event,
                 Load            *load)
{
  if (event == WEBKIT_LOAD_FINISHED)
    load->loaded = TRUE;
}

static gboolean
load_failed_cb (WebKitWebView   *view,
                WebKitLoadEvent  event,
                const char      *uri,
                GError          *error,
                Load            *load)
{
  g_printerr ("Load of %s failed: %s\n", uri, error->message);
  load->failed = TRUE;
  return FALSE;
}

/* Loads @url in @view and waits until the load has finished, failing the
 * test when that takes longer than @timeout_ms. Returns FALSE when the
 * load failed on the way (an error page may still have loaded). */
gboolean
tw_test_view_load (WebKitWebView *view,
                   const char    *url,
                   guint          timeout_ms)
{
  Load load = { FALSE, FALSE };
  gulong changed = g_signal_connect (view, "load-changed", G_CALLBACK (load_changed_cb), &load);
  gulong failed = g_signal_connect (view, "load-failed", G_CALLBACK (load_failed_cb), &load);

  webkit_web_view_load_uri (view, url);
  tw_test_wait_for_flag (&load.loaded, timeout_ms, url);
  g_signal_handler_disconnect (view, changed);
  g_signal_handler_disconnect (view, failed);

  return !load.failed;
}

/* Runs @script in the page's own world, as page scripts would, and returns
 * its value; a script that throws fails the test. */
JSCValue *
tw_test_view_evaluate (WebKitWebView *view,
                       const char    *script,
                       guint          timeout_ms)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  JSCValue *value;

  webkit_web_view_evaluate_javascript (view, script, -1, NULL, NULL, NULL,
                                       tw_test_store_result_cb, NULL);
  result = tw_test_await_result (timeout_ms, script);
  value = webkit_web_view_evaluate_javascript_finish (view, result, &error);
  g_assert_no_error (error);

  return value;
}
