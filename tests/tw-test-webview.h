/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>
#include <webkit/webkit.h>

#include "tw-browser.h"
#include "tw-history.h"
#include "tw-page-runtime.h"
#include "tw-timeline.h"
#include "tw-test-util.h"

G_BEGIN_DECLS

/* What the C tests with real web views share: loading a page and running
 * script in it, waiting on the main loop until they are done. */

/* Starts a test program with GTK: GTest, GTK, then @init (such as
 * adw_init) unless it is NULL. */
void      tw_test_init_gtk       (int           *argc,
                                  char        ***argv,
                                  void         (*init)(void));

gboolean  tw_test_view_load      (WebKitWebView *view,
                                  const char    *url,
                                  guint          timeout_ms);
JSCValue *tw_test_view_evaluate  (WebKitWebView *view,
                                  const char    *script,
                                  guint          timeout_ms);
/* The value of @script as tw_test_view_evaluate() gets it, as a string:
 * JSON for objects and arrays. */
char     *tw_test_view_evaluate_string (WebKitWebView *view,
                                        const char    *script,
                                        guint          timeout_ms);
/* Waits until @script, run again and again, gives @expected (as
 * tw_test_view_evaluate_string() puts it). */
void      tw_test_view_wait_for_string (WebKitWebView *view,
                                        const char    *script,
                                        const char    *expected,
                                        guint          timeout_ms);

/* As a tab does: WebKit's error page stays away (a "load-failed" handler
 * that returns TRUE), connected after the view's load watches, which still
 * hear of the failure. */
void      tw_test_view_keep_error_pages_away (WebKitWebView *view);
/* A web view of the app's shared web context (with its web-process
 * extension) on @session, as a tab's. */
WebKitWebView *tw_test_web_view_new (WebKitNetworkSession *session);

/* A web view in a window of its own, on one ephemeral network session the
 * tabs of a test program share, with the page runtime when asked for. */
typedef struct
{
  GtkWidget     *window;
  WebKitWebView *view;
  TwPageRuntime *runtime;
} TwTestTab;

/* How long a test tab waits for a load, and for a runtime call, before
 * the test fails: deadlines against hangs, not speed limits, so long
 * enough for a 200,000-element page on a 2-core machine with a load
 * average of 16 (20 s was not). */
#define TW_TEST_TAB_LOAD_TIMEOUT_MS 60000
#define TW_TEST_TAB_CALL_TIMEOUT_MS 60000

TwTestTab  *tw_test_tab_new           (gboolean     with_runtime);
void        tw_test_tab_free          (TwTestTab   *tab);
/* Drops the shared session; at the end of a program. */
void        tw_test_tab_clear_session (void);

/* Loads @url and fails the test unless it loads. */
void        tw_test_tab_load          (TwTestTab   *tab,
                                       const char  *url);
/* Runs @script in the page's own world, as the page's scripts would. */
void        tw_test_tab_eval          (TwTestTab   *tab,
                                       const char  *script);

/* The runtime's calls, waited for. @options_json and @args_json are JSON
 * text, or NULL for none. */
JsonObject *tw_test_tab_snapshot      (TwTestTab   *tab,
                                       const char  *options_json,
                                       GError     **error);
JsonNode   *tw_test_tab_call          (TwTestTab   *tab,
                                       const char  *function_name,
                                       const char  *args_json,
                                       guint        timeout_ms,
                                       GError     **error);
JsonObject *tw_test_tab_resolve       (TwTestTab   *tab,
                                       const char  *ref,
                                       GError     **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwTestTab, tw_test_tab_free)

/* A test fixture: a tab with the page runtime, showing the page at @url
 * (the test's data) unless that is NULL. */
typedef struct
{
  TwTestTab *tab;
} TwTestTabFixture;

void        tw_test_tab_fixture_set_up    (TwTestTabFixture *fixture,
                                           gconstpointer     url);
void        tw_test_tab_fixture_tear_down (TwTestTabFixture *fixture,
                                           gconstpointer     url);

/* A browser's tabs, as agents see them */

/* Opens @url (NULL: a blank page) in a new tab of @caller's with
 * browser_new_tab, as an agent does, and returns the tab (the browser
 * keeps it). */
TwBrowserTab *tw_test_open_tab      (TwBrowser       *browser,
                                     const TwCaller  *caller,
                                     const char      *url);
/* Waits until @tab's view is on screen with its size and the page is laid
 * out in it: its viewport, in CSS pixels at the view's zoom, is the view's
 * size. @what says what the test waits for. */
void          tw_test_tab_wait_laid_out (TwBrowserTab   *tab,
                                         const char     *what);
/* {"browserId": "<the tab's id>"}, the arguments of most tab tools. */
char         *tw_test_tab_id_args   (TwBrowserTab    *tab);
/* Starts @tool, a call that waits for the person, on @tab as @caller,
 * with @message and, unless it is 0, @timeout_ms; then waits until @asked
 * (given @asked_data) says the person sees what the agent asks. */
TwToolCall   *tw_test_start_asking_tool (TwBrowser        *browser,
                                         const TwCaller   *caller,
                                         const char       *tool,
                                         TwBrowserTab     *tab,
                                         const char       *message,
                                         guint             timeout_ms,
                                         TwTestCondition   asked,
                                         gpointer          asked_data,
                                         TwTestOutcome    *outcome);
/* Calls @tool, a call that waits for the person, on @tab without a
 * message, with a time limit too short, and on an unknown tab: each fails
 * with its error code, as text that says so. */
void          tw_test_check_asking_tool_input (TwBrowser        *browser,
                                               const TwCaller   *caller,
                                               const char       *tool,
                                               TwBrowserTab     *tab);
/* Closes every tab of *@browser, then drops it. */
void          tw_test_close_browser (TwBrowser      **browser);

/* Writes what @history holds to disk, and waits until it has. */
void          tw_test_flush_history (TwHistory      *history);

/* A workspace's browser whose tool calls a timeline records, in a data
 * folder of its own. */
typedef struct
{
  char       *data_dir;
  TwBrowser  *browser;
  TwTimeline *timeline;
} TwTestRecording;

/* A recording that keeps @max_bytes of the timeline at the most. */
TwTestRecording *tw_test_recording_new  (guint64          max_bytes);
/* Waits until the timeline has written down every call, closes the
 * browser's tabs and removes the data folder. */
void             tw_test_recording_free (TwTestRecording *recording);
/* Waits until @timeline has written down every call it recorded. */
void             tw_test_wait_for_timeline (TwTimeline   *timeline);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwTestRecording, tw_test_recording_free)

G_END_DECLS
