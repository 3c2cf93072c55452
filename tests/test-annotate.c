/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <libsoup/soup.h>

#include "tw-annotation-layer.h"
#include "tw-browser.h"
#include "tw-tab-page.h"
#include "tw-window.h"
#include "tw-test-webview.h"
#include "tw-test-window.h"

/* Teach (issue 33): the person marks a tab (boxes, points, a note) and an
 * agent's waiting browser_annotate call gets the note, a picture with the
 * marks and the refs of the marked elements, which the next snapshot
 * prints for the same elements. The layer is driven through its API (as
 * the drag gesture and the buttons do), the call is a real tool call on a
 * real window. */

static char *base_url;

/* A button and a link where the test can mark them. */
static const char page_html[] =
  "<!doctype html><html><head><title>Teach</title>"
  "<style>body { margin: 0 } #b { position: absolute; left: 20px; top: 20px; width: 120px; "
  "height: 40px } #l { position: absolute; left: 20px; top: 120px; display: block; "
  "width: 100px; height: 20px }</style></head><body>"
  "<button id='b'>Save draft</button>"
  "<a id='l' href='#help'>Help page</a>"
  "<p style='position: absolute; top: 300px'>Some text</p>"
  "</body></html>";

typedef struct
{
  TwBrowser         *browser;
  TwWindow          *window;
  TwBrowserTab      *tab;
  TwAnnotationLayer *layer;
  char              *id_args;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autofree char *url = g_strconcat (base_url, "teach", NULL);

  fixture->browser = tw_browser_new (NULL, NULL);
  fixture->window = tw_test_window_new (fixture->browser, "teach", "/tmp", 1000, 700);

  fixture->tab = tw_test_open_tab (fixture->browser, &tw_test_ada, url);
  fixture->id_args = tw_test_tab_id_args (fixture->tab);
  fixture->layer = tw_tab_page_get_annotation_layer (
    TW_TAB_PAGE (tw_window_get_tab_page (fixture->window, fixture->tab)));
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  tw_test_window_close (fixture->window, &fixture->browser);
  g_clear_pointer (&fixture->id_args, g_free);
}

static gboolean
layer_active (gpointer data)
{
  return tw_annotation_layer_get_active (data);
}

static TwToolCall *
start_annotate (Fixture       *fixture,
                TwTestOutcome *state)
{
  g_assert_false (tw_annotation_layer_get_active (fixture->layer));

  return tw_test_start_asking_tool (fixture->browser, &tw_test_ada, "browser_annotate", fixture->tab,
                                    "Show me what to press.", 0, layer_active, fixture->layer, state);
}

/* The ref the result gives for "ROLE "NAME"", e.g. "@e3". */
static char *
marked_ref (const char *text,
            const char *role_and_name)
{
  g_autofree char *pattern = g_strdup_printf ("- (@e[0-9]+) %s\n", role_and_name);
  g_autoptr(GRegex) regex = g_regex_new (pattern, 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autofree char *with_end = g_strconcat (text, "\n", NULL);

  if (!g_regex_match (regex, with_end, 0, &match))
    return NULL;

  return g_match_info_fetch (match, 1);
}

static void
test_sent (Fixture       *fixture,
           gconstpointer  data)
{
  TwTestOutcome state = { 0 };
  g_autoptr(TwToolCall) call = start_annotate (fixture, &state);
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(JsonObject) snapshot = NULL;
  g_autofree char *button_ref = NULL;
  g_autofree char *link_ref = NULL;
  g_autofree char *button_line = NULL;
  g_autofree char *link_line = NULL;
  JsonArray *content;
  JsonObject *image;
  const char *text;

  /* The client heard that the call waits on purpose, and the tab says who asks. */
  g_assert_cmpuint (state.n_progress, >=, 1);
  g_assert_cmpstr (tw_browser_tab_get_annotate_message (fixture->tab), ==, "Show me what to press.");
  g_assert_cmpstr (tw_browser_tab_get_annotate_agent (fixture->tab), ==, "Ada");

  /* Nothing to send yet: refused, the mode stays open. */
  g_assert_false (tw_annotation_layer_send (fixture->layer));
  g_assert_true (tw_annotation_layer_get_active (fixture->layer));

  /* A box around the button, drawn from its bottom right; a point on the link. */
  tw_annotation_layer_add_box (fixture->layer, 150, 70, -140, -60);
  tw_annotation_layer_add_point (fixture->layer, 50, 130);
  tw_annotation_layer_set_note (fixture->layer, "Press this, not the help link");
  g_assert_cmpuint (tw_annotation_layer_get_n_marks (fixture->layer), ==, 2);
  g_assert_true (tw_annotation_layer_send (fixture->layer));
  g_assert_false (tw_annotation_layer_get_active (fixture->layer));

  result = tw_test_await_tool_ok (&state, "browser_annotate");
  text = tw_test_result_text (result);
  g_assert_nonnull (strstr (text, "note: Press this, not the help link"));
  g_assert_nonnull (strstr (text, "mark 1: box at 10,10 size 140x60:"));
  g_assert_nonnull (strstr (text, "mark 2: point at 50,130:"));

  button_ref = marked_ref (text, "button \"Save draft\"");
  link_ref = marked_ref (text, "link \"Help page\"");
  g_assert_nonnull (button_ref);
  g_assert_nonnull (link_ref);
  /* The box holds the button only; the point is on the link only. */
  g_assert_null (strstr (strstr (text, "mark 1:"), "Help page\"\nmark 2"));
  g_assert_null (marked_ref (text, "paragraph"));

  /* The picture, with the marks on it. */
  content = json_object_get_array_member (result, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 2);
  image = json_array_get_object_element (content, 1);
  g_assert_cmpstr (json_object_get_string_member (image, "type"), ==, "image");
  g_assert_cmpstr (json_object_get_string_member (image, "mimeType"), ==, "image/png");
  g_assert_cmpuint (strlen (json_object_get_string_member (image, "data")), >, 100);

  /* The next snapshot prints the same refs for the same elements. */
  snapshot = tw_test_call_tool_ok (TW_BROWSER_SERVICE (fixture->browser), &tw_test_ada, "browser_snapshot",
                                   fixture->id_args);
  button_line = g_strdup_printf ("button \"Save draft\" %s", button_ref);
  link_line = g_strdup_printf ("link \"Help page\" %s", link_ref);
  g_test_message ("%s", tw_test_result_text (snapshot));
  g_assert_nonnull (strstr (tw_test_result_text (snapshot), button_line));
  g_assert_nonnull (strstr (tw_test_result_text (snapshot), link_line));

  /* The call is over: nothing waits, nothing to cancel. */
  g_assert_null (tw_browser_tab_get_annotate_message (fixture->tab));
  g_assert_false (tw_browser_tab_cancel_annotation (fixture->tab));
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  TwTestOutcome state = { 0 };
  g_autoptr(TwToolCall) call = start_annotate (fixture, &state);
  g_autoptr(JsonObject) result = NULL;

  tw_annotation_layer_add_point (fixture->layer, 50, 130);
  tw_annotation_layer_cancel (fixture->layer);
  g_assert_false (tw_annotation_layer_get_active (fixture->layer));

  result = tw_test_await_tool_ok (&state, "browser_annotate");
  g_assert_true (g_str_has_prefix (tw_test_result_text (result),
                                   "The person cancelled the annotation"));
  g_assert_nonnull (strstr (tw_test_result_text (result), "outcome: cancelled"));
  g_assert_null (tw_browser_tab_get_annotate_message (fixture->tab));
}

static void
test_bad_input (Fixture       *fixture,
                gconstpointer  data)
{
  tw_test_check_asking_tool_input (fixture->browser, &tw_test_ada, "browser_annotate", fixture->tab);

  /* None of them opened the mode or left a call waiting. */
  g_assert_false (tw_annotation_layer_get_active (fixture->layer));
  g_assert_null (tw_browser_tab_get_annotate_message (fixture->tab));
}

/* Marks made from the tab menu, with no call waiting, ride along with the
 * agent's next result on the tab. */
static gboolean
annotation_ready (gpointer data)
{
  return !tw_browser_tab_get_annotation_sending (data);
}

static void
test_next_result (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(JsonObject) later = NULL;
  g_autofree char *button_line = NULL;
  g_autofree char *button_ref = NULL;
  JsonArray *content;
  const char *marked;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->window), "win.annotate-tab", "s",
                                             tw_browser_tab_get_id (fixture->tab)));
  g_assert_true (tw_annotation_layer_get_active (fixture->layer));
  /* Open already: starting again does nothing. */
  g_assert_false (tw_annotation_layer_start (fixture->layer));
  tw_annotation_layer_add_point (fixture->layer, 50, 40);
  tw_annotation_layer_set_note (fixture->layer, "Use this button");
  g_assert_true (tw_annotation_layer_send (fixture->layer));
  g_assert_false (tw_annotation_layer_get_active (fixture->layer));
  tw_test_wait_until (annotation_ready, fixture->tab, TW_TEST_WAIT_MS, "the annotation to be drawn");

  /* The snapshot's own text comes first, the annotation and its picture after. */
  result = tw_test_call_tool_ok (TW_BROWSER_SERVICE (fixture->browser), &tw_test_ada, "browser_snapshot",
                                 fixture->id_args);
  content = json_object_get_array_member (result, "content");
  g_assert_cmpuint (json_array_get_length (content), ==, 3);
  marked = json_object_get_string_member (json_array_get_object_element (content, 1), "text");
  g_test_message ("%s", marked);
  g_assert_nonnull (strstr (marked, "note: Use this button"));
  button_ref = marked_ref (marked, "button \"Save draft\"");
  g_assert_nonnull (button_ref);
  button_line = g_strdup_printf ("button \"Save draft\" %s", button_ref);
  g_assert_nonnull (strstr (tw_test_result_text (result), button_line));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (content, 2), "type"),
                   ==, "image");

  /* Once only. */
  later = tw_test_call_tool_ok (TW_BROWSER_SERVICE (fixture->browser), &tw_test_ada, "browser_snapshot",
                                fixture->id_args);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (later, "content")), ==, 1);
}

static const TwTestFixtureCase annotate_cases[] = {
  TW_TEST_FIXTURE_CASE ("/ui/teach/annotate/sent", test_sent),
  TW_TEST_FIXTURE_CASE ("/ui/teach/annotate/cancel", test_cancel),
  TW_TEST_FIXTURE_CASE ("/ui/teach/annotate/bad-input", test_bad_input),
  TW_TEST_FIXTURE_CASE ("/ui/teach/annotate/next-result", test_next_result),
};

int
main (int   argc,
      char *argv[])
{
  tw_test_init_gtk (&argc, &argv, adw_init);
  TW_TEST_ADD_FIXTURE_CASES (Fixture, annotate_cases, fixture_set_up, fixture_tear_down);

  return tw_test_run_with_page (page_html, &base_url);
}
