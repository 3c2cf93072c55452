/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gtk/gtk.h>
#include <libsoup/soup.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "tw-error.h"
#include "tw-load-watch.h"
#include "tw-page-runtime.h"
#include "tw-tab-actions.h"
#include "tw-view-frame.h"
#include "tw-web-context.h"
#include "tw-test-webview.h"

/* The interaction commands on real WebKit views, the way an agent drives
 * them: take a snapshot, find the ref of an element by its role and name,
 * act on it, then check what the page itself recorded (the events it
 * received, the state its scripts keep) and what the result says. Pages
 * come from tests/fixtures/actions/ over a SoupServer on loopback, React
 * from the project's node_modules. */

#define CALL_TIMEOUT_MS 60000

static SoupServer *server;
static char *base_url;
static WebKitNetworkSession *session;
static char *workspace;

/* The test server */

static gboolean
unpause_cb (gpointer user_data)
{
  SoupServerMessage *msg = user_data;
  static const char body[] = "{\"items\": [\"Apples\", \"Pears\"]}";

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_STATIC, body, strlen (body));
  soup_server_message_unpause (msg);
  g_object_unref (msg);

  return G_SOURCE_REMOVE;
}

static void
serve_cb (SoupServerMessage *msg,
          const char        *path,
          GHashTable        *query)
{
  /* A slow API: answers after 300 ms, so the page renders late. */
  if (g_str_equal (path, "/api/slow"))
    {
      soup_server_message_pause (msg);
      g_timeout_add (300, unpause_cb, g_object_ref (msg));
      return;
    }

  /* React and its friends come from the project's node_modules. */
  if (g_str_has_prefix (path, "/node_modules/"))
    tw_test_serve_file (msg, "..", path, TRUE);
  else
    tw_test_serve_file (msg, "fixtures/actions", path, TRUE);
}

/* A page: one web view in a window with its runtime, as a tab has them. */

typedef struct
{
  GtkWindow     *window;
  TwViewFrame   *frame;
  WebKitWebView *view;
  TwPageRuntime *runtime;
  GPtrArray     *dialogs;
  GPtrArray     *popups;
  GPtrArray     *refs;
  char          *snapshot;
} Page;

/* What a tab does with dialogs: alert accepted, the others dismissed. */
static gboolean
script_dialog_cb (WebKitWebView      *view,
                  WebKitScriptDialog *dialog,
                  Page               *page)
{
  static const char *names[] = { "alert", "confirm", "prompt", "beforeunload" };
  WebKitScriptDialogType type = webkit_script_dialog_get_dialog_type (dialog);

  g_ptr_array_add (page->dialogs, g_strdup_printf ("%s:%s", names[type],
                                                   webkit_script_dialog_get_message (dialog)));
  if (type == WEBKIT_SCRIPT_DIALOG_ALERT)
    webkit_script_dialog_confirm_set_confirmed (dialog, TRUE);
  else if (type != WEBKIT_SCRIPT_DIALOG_PROMPT)
    webkit_script_dialog_confirm_set_confirmed (dialog, FALSE);
  webkit_script_dialog_close (dialog);

  return TRUE;
}

static GtkWidget *
create_cb (WebKitWebView          *view,
           WebKitNavigationAction *action,
           Page                   *page)
{
  g_ptr_array_add (page->popups,
                   g_strdup (webkit_uri_request_get_uri (webkit_navigation_action_get_request (action))));
  return NULL;
}

/* A page in a window, or in the background the way agents' tabs mostly
 * are: never shown, sized off screen by its TwViewFrame. */
static void
page_init (Page     *page,
           gboolean  shown)
{
  page->view = tw_test_web_view_new (session);
  /* A tab follows its view's loads before anything else does. */
  tw_load_watch_attach (page->view);
  page->runtime = tw_page_runtime_new (page->view);
  page->dialogs = g_ptr_array_new_with_free_func (g_free);
  page->popups = g_ptr_array_new_with_free_func (g_free);
  page->refs = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (page->view, "script-dialog", G_CALLBACK (script_dialog_cb), page);
  g_signal_connect (page->view, "create", G_CALLBACK (create_cb), page);

  if (shown)
    {
      page->window = GTK_WINDOW (gtk_window_new ());
      gtk_window_set_default_size (page->window, 900, 700);
      gtk_window_set_child (page->window, GTK_WIDGET (page->view));
      gtk_window_present (page->window);
    }
  else
    {
      page->frame = g_object_ref_sink (tw_view_frame_new (page->view));
    }
}

static void
page_clear (Page *page)
{
  g_signal_handlers_disconnect_by_data (page->view, page);
  if (page->window != NULL)
    gtk_window_destroy (page->window);
  g_clear_object (&page->frame);
  g_clear_object (&page->runtime);
  g_ptr_array_unref (page->dialogs);
  g_ptr_array_unref (page->popups);
  g_ptr_array_unref (page->refs);
  g_free (page->snapshot);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Page, page_clear)

/* Loads @path; the snapshot of the page before is forgotten. */
static void
page_load (Page       *page,
           const char *path)
{
  g_autofree char *url = g_strconcat (base_url, path, NULL);

  tw_test_view_load (page->view, url, CALL_TIMEOUT_MS);
  g_clear_pointer (&page->snapshot, g_free);
}

/* The fixture of most tests: a shown page with @data, a file of
 * tests/fixtures/actions/, loaded. */
static void
page_setup (Page          *page,
            gconstpointer  data)
{
  page_init (page, TRUE);
  page_load (page, data);
}

/* The same in the background. */
static void
background_page_setup (Page          *page,
                       gconstpointer  data)
{
  page_init (page, FALSE);
  page_load (page, data);
}

static void
page_teardown (Page          *page,
               gconstpointer  data)
{
  page_clear (page);
}

/* Runs @script in the page's own world and returns its value as a string
 * (JSON for objects). */
static char *
page_eval (Page       *page,
           const char *script)
{
  return tw_test_view_evaluate_string (page->view, script, CALL_TIMEOUT_MS);
}

#define assert_eval(page, script, expected) \
  G_STMT_START { \
    g_autofree char *_v = page_eval ((page), (script)); \
    g_assert_cmpstr (_v, ==, (expected)); \
  } G_STMT_END

/* Takes a snapshot, as an agent does before acting; page_ref() reads it. */
static const char *
page_snapshot (Page *page)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(GError) error = NULL;

  tw_page_runtime_snapshot_async (page->runtime, NULL, NULL, tw_test_store_result_cb, NULL);
  result = tw_test_await_result (CALL_TIMEOUT_MS, "a snapshot");
  object = tw_page_runtime_snapshot_finish (page->runtime, result, &error);
  g_assert_no_error (error);

  g_free (page->snapshot);
  page->snapshot = g_strdup (json_object_get_string_member (object, "text"));
  return page->snapshot;
}

/* The ref on the first line of the last snapshot that holds @needle, such
 * as `button "Save"`; the page keeps it. */
static const char *
page_ref (Page       *page,
          const char *needle)
{
  if (page->snapshot == NULL)
    page_snapshot (page);

  g_ptr_array_add (page->refs, tw_test_find_ref (page->snapshot, needle));
  return g_ptr_array_index (page->refs, page->refs->len - 1);
}

static TwTabActionsOptions test_options = {
  .actionable_timeout_ms = 1500,
};

/* Runs one command with parameters given as printf-style JSON. */
G_GNUC_PRINTF (4, 0)
static JsonObject *
run_valist (Page          *page,
            TwTabCommand   command,
            GError       **error,
            const char    *format,
            va_list        args)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JsonObject) params = NULL;
  g_autofree char *json = g_strdup_vprintf (format, args);

  params = tw_test_parse_object (json);
  test_options.workspace_dir = workspace;
  tw_tab_actions_run_async (page->view, page->runtime, command, params, &test_options,
                            NULL, tw_test_store_result_cb, NULL);
  result = tw_test_await_result (CALL_TIMEOUT_MS, tw_tab_command_to_string (command));

  return tw_tab_actions_run_finish (page->view, result, error);
}

G_GNUC_PRINTF (4, 5)
static JsonObject *
run (Page          *page,
     TwTabCommand   command,
     GError       **error,
     const char    *format,
     ...)
{
  JsonObject *result;
  va_list args;

  va_start (args, format);
  result = run_valist (page, command, error, format, args);
  va_end (args);

  return result;
}

/* The same, for a command that must succeed. */
#define run_ok(page, command, ...) \
  ({ \
    g_autoptr(GError) _error = NULL; \
    JsonObject *_result = run ((page), (command), &_error, __VA_ARGS__); \
    g_assert_no_error (_error); \
    g_assert_nonnull (_result); \
    _result; \
  })

/* The same, for a command whose result the test does not read. */
#define act(page, command, ...) json_object_unref (run_ok ((page), (command), __VA_ARGS__))

static const char *
element_member (JsonObject *result,
                const char *member)
{
  JsonObject *element = json_object_get_object_member (result, "element");

  g_assert_nonnull (element);
  return json_object_get_string_member (element, member);
}

/* Clicks */

static void
test_click_sequence (Page          *page,
                     gconstpointer  data)
{
  g_autoptr(JsonObject) result = NULL;
  const char *save = page_ref (page, "button \"Save\"");

  result = run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", save);

  /* The page saw a person's click: the pointer arrived, pressed, took the
   * focus, released, clicked once. */
  assert_eval (page, "seq('pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', "
               "'mousemove', 'pointerdown', 'mousedown', 'focus', 'pointerup', 'mouseup', 'click')",
               "pointerover:save pointerenter:html pointerenter:body pointerenter:main pointerenter:save "
               "mouseover:save mouseenter:html mouseenter:body mouseenter:main mouseenter:save "
               "pointermove:save mousemove:save pointerdown:save mousedown:save focus:save "
               "pointerup:save mouseup:save click:save");
  assert_eval (page, "events.filter(e => e.type === 'click').map(e => [e.detail, e.button, e.buttons].join()).join()",
               "1,0,0");
  assert_eval (page, "events.filter(e => e.type === 'mousedown').map(e => [e.detail, e.button, e.buttons].join()).join()",
               "1,0,1");
  /* At the middle of the button, in the page's own coordinates. */
  assert_eval (page, "(() => { const r = save.getBoundingClientRect(); const c = events.find(e => e.type === 'click'); "
               "return Math.abs(c.x - (r.left + r.width / 2)) < 1 && Math.abs(c.y - (r.top + r.height / 2)) < 1; })()",
               "true");
  assert_eval (page, "document.activeElement.id", "save");
  assert_eval (page, "save.textContent", "Saved");

  g_assert_cmpstr (element_member (result, "ref"), ==, save);
  g_assert_cmpstr (element_member (result, "role"), ==, "button");
  g_assert_cmpstr (element_member (result, "name"), ==, "Save");
  g_assert_true (g_str_has_suffix (json_object_get_string_member (result, "url"), "/click.html"));
  g_assert_cmpstr (json_object_get_string_member (result, "title"), ==, "Click");
  g_assert_false (json_object_has_member (result, "navigated"));
}

static void
test_click_double_right_modifiers (Page          *page,
                                   gconstpointer  data)
{
  g_autoptr(JsonObject) twice = NULL;
  g_autoptr(JsonObject) right = NULL;
  const char *area = page_ref (page, "button \"Drawing area\"");
  const char *one = page_ref (page, "link \"Row one\"");
  const char *two = page_ref (page, "link \"Row two\"");

  twice = run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\", \"doubleClick\": true}", area);
  /* Two presses with detail 1 then 2, and dblclick after the second. */
  assert_eval (page, "events.filter(e => ['mousedown', 'mouseup', 'click', 'dblclick'].includes(e.type))"
               ".map(e => e.type + e.detail).join(' ')",
               "mousedown1 mouseup1 click1 mousedown2 mouseup2 click2 dblclick2");
  g_assert_true (json_object_get_boolean_member (twice, "doubleClick"));

  page_eval (page, "clearEvents()");
  right = run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\", \"button\": \"right\"}", area);
  /* A right click opens the context menu on press, as on Linux, and is
   * no click. */
  assert_eval (page, "seq('mousedown', 'contextmenu', 'mouseup', 'click', 'auxclick')",
               "mousedown:area contextmenu:area mouseup:area auxclick:area");
  assert_eval (page, "events.filter(e => e.type === 'mousedown').map(e => e.button + '/' + e.buttons).join()", "2/2");
  assert_eval (page, "document.getElementById('menu-state').textContent", "context menu opened");
  g_assert_cmpstr (json_object_get_string_member (right, "button"), ==, "right");

  /* Shift held around the click: the page sees Shift go down, a click
   * with shiftKey, then Shift come up. */
  run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", one);
  page_eval (page, "clearEvents()");
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\", \"modifiers\": [\"Shift\"]}", two);
  assert_eval (page, "seq('keydown', 'click', 'keyup')", "keydown:row-one click:row-two keyup:row-two");
  assert_eval (page, "events.filter(e => e.type === 'keydown').map(e => e.key + e.shift).join()", "Shifttrue");
  assert_eval (page, "window.selected.join()", "one,shift+two");
}

static void
test_click_label_checkbox (Page          *page,
                           gconstpointer  data)
{
  const char *terms = page_ref (page, "checkbox \"I accept the terms\"");
  const char *name = page_ref (page, "textbox \"Your name\"");

  /* The real checkbox is a 1 px transparent input beside its styled
   * box: the click checks it, with one click event on it. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", terms);
  assert_eval (page, "document.getElementById('terms').checked", "true");
  assert_eval (page, "seq('click', 'change')", "click:terms change:terms");

  /* Clicking a text field puts the caret at the end of its text. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", name);
  assert_eval (page, "document.activeElement.id + ':' + document.activeElement.selectionStart + ':' + "
               "document.activeElement.selectionEnd", "name:3:3");
}

/* A data grid's column header names the column by its text, held in a
 * child that handles the click; the header's ref is what an agent clicks,
 * and the click sorts the grid as a person's would. */
static void
test_click_grid_header (Page          *page,
                        gconstpointer  data)
{
  const char *price;
  const char *text;

  text = page_snapshot (page);
  g_assert_nonnull (strstr (text, "columnheader \"Price Column menu\" @e"));
  g_assert_null (strstr (text, "- text: Price"));
  price = page_ref (page, "columnheader \"Price Column menu\"");

  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", price);
  assert_eval (page, "clicks.join()", "price");
  assert_eval (page, "document.querySelector('[data-key=price]').getAttribute('aria-sort')", "ascending");
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", price);
  assert_eval (page, "[...document.querySelectorAll('#body [role=row] [role=gridcell]:first-child')]"
               ".map(c => c.textContent).join()", "Desk,Chair,Lamp");
  assert_eval (page, "document.querySelector('[data-key=price]').getAttribute('aria-sort')", "descending");
}

static void
assert_error (GError         *error,
              TwBrowserError  code,
              const char     *fragment)
{
  g_assert_error (error, TW_BROWSER_ERROR, (int) code);
  if (fragment != NULL && strstr (error->message, fragment) == NULL)
    g_error ("\"%s\" is not in the error \"%s\"", fragment, error->message);
}

/* Runs one command that must fail with @code, its message holding
 * @fragment (unless NULL). */
G_GNUC_PRINTF (5, 6)
static void
assert_run_error (Page           *page,
                  TwTabCommand    command,
                  TwBrowserError  code,
                  const char     *fragment,
                  const char     *format,
                  ...)
{
  g_autoptr(JsonObject) result = NULL;
  g_autoptr(GError) error = NULL;
  va_list args;

  va_start (args, format);
  result = run_valist (page, command, &error, format, args);
  va_end (args);

  g_assert_null (result);
  assert_error (error, code, fragment);
}

static void
test_click_not_interactable (Page          *page,
                             gconstpointer  data)
{
  const char *covered = page_ref (page, "button \"Pay now\"");
  const char *ghost = page_ref (page, "button \"Ghost\"");
  const char *vanishing = page_ref (page, "button \"Vanishing\"");
  const char *mover = page_ref (page, "button \"Moving target\"");
  const char *replaced = page_ref (page, "button \"Replace me\"");
  GError *error = NULL;
  JsonObject *result;
  gint64 start;

  /* Covered: the error names what covers it, by role and name, after
   * waiting for it to go away. */
  start = g_get_monotonic_time ();
  result = run (page, TW_TAB_COMMAND_CLICK, &error, "{\"ref\": \"%s\"}", covered);
  g_assert_null (result);
  assert_error (error, TW_BROWSER_ERROR_NOT_INTERACTABLE, "is covered by dialog \"Cookie consent\"");
  g_assert_nonnull (strstr (error->message, covered));
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 1400 * 1000);
  g_clear_error (&error);
  assert_eval (page, "document.getElementById('covered').textContent", "Pay now");
  assert_eval (page, "seq('click')", "");

  assert_run_error (page, TW_TAB_COMMAND_CLICK, TW_BROWSER_ERROR_NOT_INTERACTABLE,
                    "does not receive pointer events", "{\"ref\": \"%s\"}", ghost);

  page_eval (page, "document.getElementById('vanishing').style.visibility = 'hidden'");
  assert_run_error (page, TW_TAB_COMMAND_CLICK, TW_BROWSER_ERROR_NOT_INTERACTABLE, "is not visible",
                    "{\"ref\": \"%s\"}", vanishing);

  /* Never still: a timeout, not a click on a moving target. */
  assert_run_error (page, TW_TAB_COMMAND_CLICK, TW_BROWSER_ERROR_TIMEOUT, "still moving",
                    "{\"ref\": \"%s\"}", mover);
  assert_eval (page, "document.getElementById('mover').textContent", "Moving target");

  /* Re-rendered: the ref never acts on the new element. */
  page_eval (page, "(() => { const old = document.getElementById('replaced'); const b = old.cloneNode(true); "
             "b.onclick = () => { b.textContent = 'New clicked'; }; old.replaceWith(b); })()");
  assert_run_error (page, TW_TAB_COMMAND_CLICK, TW_BROWSER_ERROR_STALE_REF, "take a new snapshot",
                    "{\"ref\": \"%s\"}", replaced);
  assert_eval (page, "document.getElementById('replaced').textContent", "Replace me");

  /* A ref that was never printed, and text that is no ref. */
  assert_run_error (page, TW_TAB_COMMAND_CLICK, TW_BROWSER_ERROR_STALE_REF, NULL,
                    "{\"ref\": \"@e999999\"}");
  assert_run_error (page, TW_TAB_COMMAND_CLICK, TW_BROWSER_ERROR_INVALID_ARGUMENT, "is not a ref",
                    "{\"ref\": \"Save\"}");
}

static void
test_click_waits (Page          *page,
                  gconstpointer  data)
{
  const char *shaded = page_ref (page, "button \"Shaded\"");
  const char *disabled = page_ref (page, "button \"Later enabled\"");
  const char *far = page_ref (page, "button \"Far away\"");

  /* What stands in the way goes away while the click waits. */
  page_eval (page, "setTimeout(() => document.getElementById('shade').remove(), 300)");
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", shaded);
  assert_eval (page, "document.getElementById('shaded').textContent", "Shade clicked");

  page_eval (page, "setTimeout(() => document.getElementById('disabled').disabled = false, 300)");
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", disabled);
  assert_eval (page, "document.getElementById('disabled').textContent", "Enabled click");

  /* Far below the fold: scrolled into view first. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", far);
  assert_eval (page, "document.getElementById('far').textContent", "Far clicked");
  assert_eval (page, "window.scrollY > 1500", "true");
}

static void
test_click_navigation (Page          *page,
                       gconstpointer  data)
{
  g_autoptr(JsonObject) followed = NULL;
  g_autoptr(JsonObject) routed = NULL;
  const char *link = page_ref (page, "link \"Next page\"");
  const char *route = page_ref (page, "button \"Client route\"");
  const char *load = page_ref (page, "button \"Load items\"");
  const char *later_ref = page_ref (page, "button \"Later text\"");
  const char *open = page_ref (page, "button \"Open popup\"");

  /* Work that finishes after the click (a fetch, a timer) is done by the
   * time the result comes. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", load);
  assert_eval (page, "Array.from(document.querySelectorAll('#list li')).map(li => li.textContent).join()",
               "Apples,Pears");
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", later_ref);
  assert_eval (page, "document.getElementById('message').textContent", "Done later");

  /* The page asked for a popup, with the user activation of the click. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", open);
  g_assert_cmpuint (page->popups->len, ==, 1);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (page->popups, 0), "/next.html?popup"));

  routed = run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", route);
  g_assert_true (json_object_get_boolean_member (routed, "navigated"));
  g_assert_true (g_str_has_suffix (json_object_get_string_member (routed, "url"), "/navigation.html?route=2"));

  followed = run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", link);
  g_assert_true (json_object_get_boolean_member (followed, "navigated"));
  g_assert_true (g_str_has_suffix (json_object_get_string_member (followed, "url"), "/next.html"));
  g_assert_cmpstr (json_object_get_string_member (followed, "title"), ==, "Next page");
  g_assert_false (json_object_has_member (followed, "loading"));
  assert_eval (page, "document.querySelector('h1').textContent", "You arrived");
}

/* A click whose page never comes answers before the command's one time
 * limit, saying the page is still loading; a click whose page fails says
 * why. Either way the click happened, and the result is no error. */
static void
test_click_navigation_limits (Page          *page,
                              gconstpointer  data)
{
  g_autoptr(JsonObject) failed = NULL;
  g_autoptr(JsonObject) hanging = NULL;
  g_autofree char *script = NULL;
  const char *closed;
  const char *hang;
  TwTabActionsOptions saved = test_options;

  tw_test_view_keep_error_pages_away (page->view);
  script = g_strdup_printf ("document.body.insertAdjacentHTML('beforeend', "
                            "'<a href=\"http://127.0.0.1:%u/\">Closed</a> <a href=\"/hang\">Hang</a>')",
                            tw_test_closed_port ());
  page_eval (page, script);
  closed = page_ref (page, "link \"Closed\"");
  hang = page_ref (page, "link \"Hang\"");

  failed = run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", closed);
  g_assert_true (json_object_has_member (failed, "loadError"));
  g_assert_false (json_object_has_member (failed, "loading"));

  page_load (page, "navigation.html");
  page_eval (page, script);
  page_snapshot (page);
  hang = page_ref (page, "link \"Hang\"");
  /* The limit leaves the settle (1.5 s) and a second to answer in. */
  test_options.deadline_us = g_get_monotonic_time () + 4 * G_USEC_PER_SEC;
  hanging = run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", hang);
  test_options = saved;
  g_assert_true (json_object_get_boolean_member (hanging, "loading"));
  g_assert_false (json_object_has_member (hanging, "loadError"));

  webkit_web_view_stop_loading (page->view);
}

/* WebKit decides on a navigation before its load starts, and the web
 * process may answer the settle wait in between: a busy machine, or a
 * decision taken later (the person's OK on a form). Here the view holds
 * each decision on a navigation for @data milliseconds, then takes it as
 * the page asked (use), or refuses it when @data is negative. */
typedef struct
{
  WebKitPolicyDecision *decision;
  gboolean              use;
} HeldDecision;

static gboolean
release_decision_cb (gpointer user_data)
{
  HeldDecision *held = user_data;

  if (held->use)
    webkit_policy_decision_use (held->decision);
  else
    webkit_policy_decision_ignore (held->decision);
  g_object_unref (held->decision);
  g_free (held);

  return G_SOURCE_REMOVE;
}

static gboolean
hold_decision_cb (WebKitWebView            *view,
                  WebKitPolicyDecision     *decision,
                  WebKitPolicyDecisionType  type,
                  gpointer                  user_data)
{
  int hold_ms = GPOINTER_TO_INT (user_data);
  HeldDecision *held;

  if (type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION)
    return FALSE;

  held = g_new0 (HeldDecision, 1);
  held->decision = g_object_ref (decision);
  held->use = hold_ms >= 0;
  g_timeout_add (ABS (hold_ms), release_decision_cb, held);

  return TRUE;
}

/* A click on a link whose navigation is decided on late still answers with
 * the page it led to, and so do a button sending a form and a script
 * setting the address; one whose navigation is refused answers soon after,
 * on the page it stayed on. */
static void
test_click_navigation_decided_late (Page          *page,
                                    gconstpointer  data)
{
  g_autoptr(JsonObject) followed = NULL;
  g_autoptr(JsonObject) sent = NULL;
  g_autoptr(JsonObject) moved = NULL;
  g_autoptr(JsonObject) refused = NULL;
  gint64 started;
  gulong handler;

  handler = g_signal_connect (page->view, "decide-policy", G_CALLBACK (hold_decision_cb),
                              GINT_TO_POINTER (300));
  followed = run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", page_ref (page, "link \"Next page\""));
  g_assert_true (json_object_get_boolean_member_with_default (followed, "navigated", FALSE));
  g_assert_true (g_str_has_suffix (json_object_get_string_member (followed, "url"), "/next.html"));
  g_assert_cmpstr (json_object_get_string_member (followed, "title"), ==, "Next page");

  /* A form sent, the same way. */
  page_load (page, "navigation.html");
  sent = run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", page_ref (page, "button \"Search\""));
  g_assert_true (json_object_get_boolean_member_with_default (sent, "navigated", FALSE));
  g_assert_true (g_str_has_suffix (json_object_get_string_member (sent, "url"), "/next.html?q="));

  /* And a script that navigates. */
  page_load (page, "navigation.html");
  moved = run_ok (page, TW_TAB_COMMAND_EVALUATE, "{\"function\": \"() => { location.href = 'next.html'; }\"}");
  g_assert_true (json_object_get_boolean_member_with_default (moved, "navigated", FALSE));
  g_assert_true (g_str_has_suffix (json_object_get_string_member (moved, "url"), "/next.html"));
  g_signal_handler_disconnect (page->view, handler);

  page_load (page, "navigation.html");
  handler = g_signal_connect (page->view, "decide-policy", G_CALLBACK (hold_decision_cb),
                              GINT_TO_POINTER (-300));
  started = g_get_monotonic_time ();
  refused = run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", page_ref (page, "link \"Next page\""));
  g_assert_false (json_object_get_boolean_member_with_default (refused, "navigated", FALSE));
  g_assert_true (g_str_has_suffix (json_object_get_string_member (refused, "url"), "/navigation.html"));
  /* The load it waited for could have started within a second at most. */
  g_assert_cmpint (g_get_monotonic_time () - started, <, 5 * G_USEC_PER_SEC);
  g_signal_handler_disconnect (page->view, handler);
}

/* Text entry */

static void
test_fill (Page          *page,
           gconstpointer  data)
{
  const char *email = page_ref (page, "textbox \"Email\"");
  const char *code = page_ref (page, "textbox \"Code\"");
  const char *age = page_ref (page, "spinbutton \"Age\"");
  const char *birthday = page_ref (page, "\"Birthday\"");
  const char *volume = page_ref (page, "slider \"Volume\"");
  const char *message = page_ref (page, "textbox \"Message\"");
  const char *notes = page_ref (page, "textbox \"Notes\"");
  const char *country = page_ref (page, "combobox \"Country\"");
  const char *send = page_ref (page, "button \"Send\"");
  const char *readonly = page_ref (page, "textbox \"Read only\"");
  GError *error = NULL;
  JsonObject *result;

  /* The old text is selected and typed over: trusted beforeinput and
   * input events, as from a keyboard. */
  result = run_ok (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"ada@example.com\"}", email);
  g_assert_cmpstr (json_object_get_string_member (result, "value"), ==, "ada@example.com");
  g_assert_false (json_object_has_member (result, "changedByPage"));
  g_assert_cmpstr (element_member (result, "name"), ==, "Email");
  json_object_unref (result);
  assert_eval (page, "document.getElementById('email').value", "ada@example.com");
  assert_eval (page, "events.filter(e => e.type === 'input' || e.type === 'beforeinput')"
               ".map(e => [e.type, e.inputType, e.data, e.trusted].join('/')).join(' ')",
               "beforeinput/insertText/ada@example.com/true input/insertText/ada@example.com/true");
  assert_eval (page, "document.activeElement.id", "email");

  /* The page has the last word: a length limit cuts the text, and the
   * result says so. */
  result = run_ok (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"123456\"}", code);
  g_assert_cmpstr (json_object_get_string_member (result, "value"), ==, "1234");
  g_assert_true (json_object_get_boolean_member (result, "changedByPage"));
  json_object_unref (result);

  /* Leaving the field for the next one fires its change event, natively. */
  assert_eval (page, "seq('change')", "change:email");

  assert_run_error (page, TW_TAB_COMMAND_FILL, TW_BROWSER_ERROR_INVALID_ARGUMENT, "is not a number",
                    "{\"ref\": \"%s\", \"value\": \"forty\"}", age);
  act (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"42\"}", age);
  assert_eval (page, "document.getElementById('age').value", "42");

  /* Pickers take their value directly, with input and change. */
  page_eval (page, "clearEvents()");
  act (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"2024-02-29\"}", birthday);
  assert_eval (page, "document.getElementById('birthday').value", "2024-02-29");
  assert_eval (page, "seq('input', 'change')", "change:age input:birthday change:birthday");
  assert_run_error (page, TW_TAB_COMMAND_FILL, TW_BROWSER_ERROR_INVALID_ARGUMENT, "YYYY-MM-DD",
                    "{\"ref\": \"%s\", \"value\": \"tomorrow\"}", birthday);
  assert_eval (page, "document.getElementById('birthday').value", "2024-02-29");
  act (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"8\"}", volume);
  assert_eval (page, "document.getElementById('volume').value", "8");

  act (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"Line one\\nLine two\"}", message);
  assert_eval (page, "JSON.stringify(document.getElementById('message').value)", "\"Line one\\nLine two\"");

  result = run_ok (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"Hello notes\"}", notes);
  g_assert_cmpstr (json_object_get_string_member (result, "value"), ==, "Hello notes");
  json_object_unref (result);
  assert_eval (page, "document.getElementById('notes').textContent", "Hello notes");

  /* An empty value clears the field. */
  page_eval (page, "clearEvents()");
  act (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"\"}", email);
  assert_eval (page, "document.getElementById('email').value", "");
  assert_eval (page, "events.filter(e => e.type === 'input').map(e => e.inputType + '/' + e.trusted).join()",
               "deleteContentBackward/true");

  /* A dropdown given to fill is chosen from. */
  act (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"Germany\"}", country);
  assert_eval (page, "document.getElementById('country').value", "de");

  /* No text field at all: refused at once, without waiting for the
   * element to become one (an error after waiting says how long). */
  result = run (page, TW_TAB_COMMAND_FILL, &error, "{\"ref\": \"%s\", \"value\": \"x\"}", send);
  assert_error (error, TW_BROWSER_ERROR_NOT_INTERACTABLE, "is not a text field");
  g_assert_null (strstr (error->message, "waited"));
  g_clear_error (&error);

  assert_run_error (page, TW_TAB_COMMAND_FILL, TW_BROWSER_ERROR_NOT_INTERACTABLE, "is read-only",
                    "{\"ref\": \"%s\", \"value\": \"x\"}", readonly);
  assert_eval (page, "document.getElementById('readonly').value", "fixed");
}

static void
test_type (Page          *page,
           gconstpointer  data)
{
  g_autoptr(JsonObject) typed = NULL;
  g_autoptr(JsonObject) more = NULL;
  const char *code = page_ref (page, "textbox \"Code\"");
  const char *search = page_ref (page, "textbox \"Search\"");

  typed = run_ok (page, TW_TAB_COMMAND_TYPE, "{\"ref\": \"%s\", \"text\": \"Hi!\"}", code);
  assert_eval (page, "document.getElementById('code').value", "Hi!");
  /* Every character is a whole key press, with the key, code and legacy
   * key codes of a US keyboard, and trusted input. */
  assert_eval (page, "events.filter(e => ['keydown', 'keypress', 'beforeinput', 'input', 'keyup'].includes(e.type))"
               ".map(e => e.type + '(' + (e.key || e.data) + (e.code ? ',' + e.code : '') + ')').join(' ')",
               "keydown(H,KeyH) keypress(H,KeyH) beforeinput(H) input(H) keyup(H,KeyH) "
               "keydown(i,KeyI) keypress(i,KeyI) beforeinput(i) input(i) keyup(i,KeyI) "
               "keydown(!,Digit1) keypress(!,Digit1) beforeinput(!) input(!) keyup(!,Digit1)");
  assert_eval (page, "events.filter(e => e.type === 'keydown').map(e => e.keyCode + (e.shift ? 'S' : '')).join()",
               "72S,73,49S");
  assert_eval (page, "events.filter(e => e.type === 'keypress').map(e => e.charCode).join()", "72,105,33");
  assert_eval (page, "events.filter(e => e.type === 'input').every(e => e.trusted)", "true");
  g_assert_cmpstr (json_object_get_string_member (typed, "value"), ==, "Hi!");
  g_assert_cmpstr (json_object_get_string_member (typed, "typed"), ==, "Hi!");

  /* Without a ref the text goes where the focus is, after what is there. */
  more = run_ok (page, TW_TAB_COMMAND_TYPE, "{\"text\": \"é\"}");
  assert_eval (page, "document.getElementById('code').value", "Hi!é");
  g_assert_true (json_object_get_boolean_member (more, "editable"));

  /* A line break is Enter: the one-field form submits itself. */
  act (page, TW_TAB_COMMAND_TYPE, "{\"ref\": \"%s\", \"text\": \"kittens\\n\"}", search);
  assert_eval (page, "window.searched", "kittens");
}

static void
test_keypress (Page          *page,
               gconstpointer  data)
{
  const char *email = page_ref (page, "textbox \"Email\"");
  const char *subscribe = page_ref (page, "checkbox \"Subscribe\"");
  const char *help = page_ref (page, "button \"Help\"");
  const char *country = page_ref (page, "combobox \"Country\"");
  const char *small = page_ref (page, "radio \"Small\"");
  const char *shortcuts = page_ref (page, "\"Shortcut area\"");
  JsonObject *result;

  /* Enter in a field clicks the form's default button. */
  result = run_ok (page, TW_TAB_COMMAND_KEYPRESS, "{\"ref\": \"%s\", \"key\": \"Enter\"}", email);
  assert_eval (page, "window.submitted + ':' + window.submitter", "1:Send");
  assert_eval (page, "seq('keydown', 'keypress', 'click', 'submit', 'keyup')",
               "keydown:email keypress:email click:send submit:signup keyup:email");
  g_assert_cmpstr (json_object_get_string_member (result, "key"), ==, "Enter");
  json_object_unref (result);

  /* Tab and Shift+Tab follow the tab order. */
  result = run_ok (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"Tab\"}");
  assert_eval (page, "document.activeElement.id", "code");
  g_assert_cmpstr (json_object_get_string_member (result, "focused"), ==, "textbox \"Code\"");
  json_object_unref (result);
  result = run_ok (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"Shift+Tab\"}");
  assert_eval (page, "document.activeElement.id", "email");
  json_object_unref (result);
  /* Focus events came with it, and keyup went to the new element. */
  assert_eval (page, "events.filter(e => ['keydown', 'blur', 'focus', 'keyup'].includes(e.type)).slice(-6)"
               ".map(e => e.type + ':' + (e.key || '') + ':' + e.target).join(' ')",
               "keydown:Shift:code keydown:Tab:code blur::code focus::email keyup:Tab:email keyup:Shift:email");
  /* A radio group is one stop: from the checkbox, Tab reaches the checked
   * radio and then leaves the group. */
  result = run_ok (page, TW_TAB_COMMAND_KEYPRESS, "{\"ref\": \"%s\", \"key\": \"Tab\"}", subscribe);
  assert_eval (page, "document.activeElement.id", "size-s");
  json_object_unref (result);
  result = run_ok (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"Tab\"}");
  assert_eval (page, "document.activeElement.id", "readonly");
  json_object_unref (result);

  /* Space presses buttons and ticks checkboxes, on release. */
  result = run_ok (page, TW_TAB_COMMAND_KEYPRESS, "{\"ref\": \"%s\", \"key\": \"Space\"}", subscribe);
  assert_eval (page, "document.getElementById('subscribe').checked", "true");
  json_object_unref (result);
  result = run_ok (page, TW_TAB_COMMAND_KEYPRESS, "{\"ref\": \"%s\", \"key\": \" \"}", help);
  assert_eval (page, "window.helped", "true");
  json_object_unref (result);

  /* Arrows move in dropdowns and radio groups. */
  page_eval (page, "clearEvents()");
  result = run_ok (page, TW_TAB_COMMAND_KEYPRESS, "{\"ref\": \"%s\", \"key\": \"ArrowDown\"}", country);
  assert_eval (page, "document.getElementById('country').value", "fr");
  assert_eval (page, "seq('input', 'change')", "input:country change:country");
  json_object_unref (result);
  result = run_ok (page, TW_TAB_COMMAND_KEYPRESS, "{\"ref\": \"%s\", \"key\": \"ArrowRight\"}", small);
  assert_eval (page, "document.activeElement.id + ':' + document.getElementById('size-m').checked", "size-m:true");
  json_object_unref (result);

  /* Shortcuts: select all, then delete it. */
  act (page, TW_TAB_COMMAND_KEYPRESS, "{\"ref\": \"%s\", \"key\": \"Control+A\"}", email);
  result = run_ok (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"Backspace\"}");
  assert_eval (page, "document.getElementById('email').value", "");
  g_assert_cmpstr (json_object_get_string_member (result, "value"), ==, "");
  json_object_unref (result);

  /* A page that handles the key itself. */
  result = run_ok (page, TW_TAB_COMMAND_KEYPRESS, "{\"ref\": \"%s\", \"key\": \"Control+s\"}", shortcuts);
  assert_eval (page, "window.saved", "true");
  g_assert_true (json_object_get_boolean_member (result, "prevented"));
  json_object_unref (result);

  assert_run_error (page, TW_TAB_COMMAND_KEYPRESS, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                    "not a modifier", "{\"key\": \"Hyper+Q\"}");
  assert_run_error (page, TW_TAB_COMMAND_KEYPRESS, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                    "is not a key", "{\"key\": \"Enterr\"}");
}

static void
test_select (Page          *page,
             gconstpointer  data)
{
  const char *country = page_ref (page, "combobox \"Country\"");
  const char *email = page_ref (page, "textbox \"Email\"");
  JsonObject *result;
  JsonObject *selected;

  result = run_ok (page, TW_TAB_COMMAND_SELECT, "{\"ref\": \"%s\", \"value\": \"France\"}", country);
  selected = json_object_get_object_member (result, "selected");
  g_assert_cmpstr (json_object_get_string_member (selected, "value"), ==, "fr");
  g_assert_cmpstr (json_object_get_string_member (selected, "label"), ==, "France");
  g_assert_true (json_object_get_boolean_member (result, "changed"));
  json_object_unref (result);
  assert_eval (page, "document.getElementById('country').value", "fr");
  assert_eval (page, "seq('click', 'input', 'change')", "click:country input:country change:country");
  assert_eval (page, "events.filter(e => e.type === 'change').every(e => !e.trusted)", "true");

  act (page, TW_TAB_COMMAND_SELECT, "{\"ref\": \"%s\", \"value\": \"de\"}", country);
  assert_eval (page, "document.getElementById('country').value", "de");

  page_eval (page, "clearEvents()");
  result = run_ok (page, TW_TAB_COMMAND_SELECT, "{\"ref\": \"%s\", \"value\": \"germany\"}", country);
  g_assert_false (json_object_get_boolean_member (result, "changed"));
  json_object_unref (result);
  assert_eval (page, "seq('change')", "");

  assert_run_error (page, TW_TAB_COMMAND_SELECT, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                    "has no option \"Spain\"; its options are \"Choose…\" (value \"\"), \"France\" (value \"fr\")",
                    "{\"ref\": \"%s\", \"value\": \"Spain\"}", country);

  assert_run_error (page, TW_TAB_COMMAND_SELECT, TW_BROWSER_ERROR_NOT_INTERACTABLE,
                    "option \"Italy\"", "{\"ref\": \"%s\", \"value\": \"Italy\"}", country);
  assert_eval (page, "document.getElementById('country').value", "de");

  assert_run_error (page, TW_TAB_COMMAND_SELECT, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                    "is not a dropdown", "{\"ref\": \"%s\", \"value\": \"x\"}", email);
}

/* Frameworks and widgets */

/* Waits until @condition, a script expression, is true in the page. */
static void
page_wait_for (Page       *page,
               const char *condition)
{
  g_autofree char *script = g_strdup_printf ("!!(%s)", condition);

  tw_test_view_wait_for_string (page->view, script, "true", CALL_TIMEOUT_MS);
}

/* The fixture of the React test: its app, rendered. */
static void
react_page_setup (Page          *page,
                  gconstpointer  data)
{
  page_setup (page, data);
  page_wait_for (page, "document.querySelector('h1')");
}

static void
test_react (Page          *page,
            gconstpointer  data)
{
  const char *username = page_ref (page, "textbox \"Username\"");
  const char *bio = page_ref (page, "textbox \"Bio\"");
  const char *agree = page_ref (page, "checkbox \"Agree to the terms\"");
  const char *plan = page_ref (page, "combobox \"Plan\"");
  const char *counter = page_ref (page, "button \"Clicked 0 times\"");
  const char *beta = page_ref (page, "button \"Remove Beta\"");
  JsonObject *result;

  /* React's state follows: the input events reached its handlers. */
  act (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"Ada\"}", username);
  assert_eval (page, "appState.name", "Ada");
  assert_eval (page, "document.getElementById('greeting').textContent", "Hello, Ada!");

  result = run_ok (page, TW_TAB_COMMAND_TYPE, "{\"ref\": \"%s\", \"text\": \" Lovelace\"}", username);
  g_assert_cmpstr (json_object_get_string_member (result, "value"), ==, "Ada Lovelace");
  json_object_unref (result);
  assert_eval (page, "appState.name", "Ada Lovelace");
  assert_eval (page, "document.getElementById('greeting').textContent", "Hello, Ada Lovelace!");

  /* The app rewrites what was filled; the result tells. */
  result = run_ok (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"quiet\"}", bio);
  g_assert_cmpstr (json_object_get_string_member (result, "value"), ==, "QUIET");
  g_assert_true (json_object_get_boolean_member (result, "changedByPage"));
  json_object_unref (result);

  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", agree);
  assert_eval (page, "appState.agree", "true");

  act (page, TW_TAB_COMMAND_SELECT, "{\"ref\": \"%s\", \"value\": \"Pro\"}", plan);
  assert_eval (page, "appState.plan", "pro");

  /* The click renames the button: the old ref no longer matches it. */
  result = run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", counter);
  g_assert_cmpstr (element_member (result, "name"), ==, "Clicked 0 times");
  json_object_unref (result);
  assert_eval (page, "appState.count", "1");
  assert_run_error (page, TW_TAB_COMMAND_CLICK, TW_BROWSER_ERROR_STALE_REF,
                    "is now button \"Clicked 1 times\"", "{\"ref\": \"%s\"}", counter);
  assert_eval (page, "appState.count", "1");

  /* Removed by a re-render: stale, never acting on a neighbour. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", beta);
  assert_eval (page, "appState.items.join()", "Alpha,Gamma");
  assert_run_error (page, TW_TAB_COMMAND_CLICK, TW_BROWSER_ERROR_STALE_REF,
                    "was removed from the page", "{\"ref\": \"%s\"}", beta);
  assert_eval (page, "appState.items.join()", "Alpha,Gamma");
}

static void
test_widgets (Page          *page,
              gconstpointer  data)
{
  const char *actions = page_ref (page, "button \"Actions\"");
  const char *fruit = page_ref (page, "combobox \"Fruit\"");
  const char *privacy = page_ref (page, "tab \"Privacy\"");
  const char *edit = page_ref (page, "button \"Edit profile\"");
  const char *faq = page_ref (page, "button \"What is Tabwright?\"");
  const char *products = page_ref (page, "link \"Products\"");
  const char *heading = page_ref (page, "heading \"Widgets\"");
  const char *delete_item;
  const char *blueberry;
  const char *fruits;
  const char *display_name;
  const char *save_profile;
  JsonObject *result;

  /* Menu button: open with a click, move with arrows, choose with Enter;
   * focus goes back to the button. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", actions);
  assert_eval (page, "document.activeElement.textContent", "Copy");
  result = run_ok (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"ArrowDown\"}");
  g_assert_cmpstr (json_object_get_string_member (result, "focused"), ==, "menuitem \"Rename\"");
  g_assert_true (json_object_get_boolean_member (result, "prevented"));
  json_object_unref (result);
  act (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"Enter\"}");
  assert_eval (page, "document.getElementById('menu-result').textContent", "Chose Rename");
  assert_eval (page, "document.activeElement.id + ':' + document.getElementById('actions-menu').hidden",
               "menu-button:true");
  /* ArrowUp on the button opens it at the last item; Escape closes it. */
  act (page, TW_TAB_COMMAND_KEYPRESS, "{\"ref\": \"%s\", \"key\": \"ArrowUp\"}", actions);
  assert_eval (page, "document.activeElement.textContent", "Delete");
  act (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"Escape\"}");
  assert_eval (page, "document.getElementById('actions-menu').hidden", "true");
  /* And a menu item is clicked like anything else. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", actions);
  page_snapshot (page);
  delete_item = page_ref (page, "menuitem \"Delete\"");
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", delete_item);
  assert_eval (page, "document.getElementById('menu-result').textContent", "Chose Delete");

  /* Combobox: typing filters the list, arrows move, Enter picks. */
  act (page, TW_TAB_COMMAND_TYPE, "{\"ref\": \"%s\", \"text\": \"ap\"}", fruit);
  assert_eval (page, "Array.from(document.querySelectorAll('#fruit-list [role=option]')).map(o => o.textContent).join()",
               "Apple,Apricot");
  act (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"ArrowDown\"}");
  act (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"ArrowDown\"}");
  act (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"Enter\"}");
  assert_eval (page, "window.pickedFruit + ':' + document.getElementById('fruit').value", "Apricot:Apricot");
  /* Its options are clicked, or chosen with browser_select on the list. */
  act (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"b\"}", fruit);
  page_snapshot (page);
  blueberry = page_ref (page, "option \"Blueberry\"");
  fruits = page_ref (page, "listbox \"Fruits\"");
  act (page, TW_TAB_COMMAND_SELECT, "{\"ref\": \"%s\", \"value\": \"Banana\"}", fruits);
  assert_eval (page, "window.pickedFruit", "Banana");
  /* The list closed with the pick: its options are there but hidden. */
  assert_run_error (page, TW_TAB_COMMAND_CLICK, TW_BROWSER_ERROR_NOT_INTERACTABLE,
                    "option \"Blueberry\" is not visible", "{\"ref\": \"%s\"}", blueberry);
  assert_run_error (page, TW_TAB_COMMAND_SELECT, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                    "click it to open its list", "{\"ref\": \"%s\", \"value\": \"Banana\"}", fruit);

  /* Tabs: click one, then arrows. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", privacy);
  assert_eval (page, "document.getElementById('panel-privacy').hidden", "false");
  act (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"ArrowRight\"}");
  assert_eval (page, "document.getElementById('tab-about').getAttribute('aria-selected') + ':' + "
               "document.getElementById('panel-about').hidden", "true:false");

  /* Modal dialog: what is behind it cannot be clicked, Escape closes it
   * and the focus comes back. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", edit);
  assert_eval (page, "document.getElementById('profile').open", "true");
  assert_run_error (page, TW_TAB_COMMAND_CLICK, TW_BROWSER_ERROR_NOT_INTERACTABLE,
                    "covered by dialog \"Profile\"", "{\"ref\": \"%s\"}", faq);
  act (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"Escape\"}");
  assert_eval (page, "document.getElementById('profile').open + ':' + document.activeElement.id", "false:open-dialog");
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", edit);
  page_snapshot (page);
  display_name = page_ref (page, "textbox \"Display name\"");
  save_profile = page_ref (page, "button \"Save profile\"");
  act (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"Ada\"}", display_name);
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", save_profile);
  assert_eval (page, "document.getElementById('profile-result').textContent", "Saved Ada");

  /* Disclosure: click opens, Enter closes. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", faq);
  assert_eval (page, "document.getElementById('faq-answer').hidden", "false");
  page_snapshot (page);
  faq = page_ref (page, "button \"What is Tabwright?\"");
  act (page, TW_TAB_COMMAND_KEYPRESS, "{\"ref\": \"%s\", \"key\": \"Enter\"}", faq);
  assert_eval (page, "document.getElementById('faq-answer').hidden", "true");

  /* Hover menu: opened by mouseenter, closed by mouseleave. */
  result = run_ok (page, TW_TAB_COMMAND_HOVER, "{\"ref\": \"%s\"}", products);
  g_assert_cmpstr (element_member (result, "name"), ==, "Products");
  json_object_unref (result);
  assert_eval (page, "document.getElementById('products-menu').classList.contains('open')", "true");
  page_snapshot (page);
  page_ref (page, "link \"Laptops\"");
  act (page, TW_TAB_COMMAND_HOVER, "{\"ref\": \"%s\"}", heading);
  assert_eval (page, "document.getElementById('products-menu').classList.contains('open')", "false");
  assert_eval (page, "seq('mouseenter', 'mouseleave').split(' ').filter(s => s.endsWith('products-menu')).join(' ')",
               "mouseenter:products-menu mouseleave:products-menu");
}

/* Drag and drop */

static void
test_drag (Page          *page,
           gconstpointer  data)
{
  const char *apples = page_ref (page, "Apples");
  const char *bread = page_ref (page, "Bread");
  const char *cheese = page_ref (page, "Cheese");
  const char *dates = page_ref (page, "Dates");
  const char *trash = page_ref (page, "region \"Trash\"");
  const char *locked = page_ref (page, "region \"Locked\"");
  const char *write = page_ref (page, "Write");
  const char *ship = page_ref (page, "Ship");
  JsonObject *result;

  /* HTML drag and drop: the page reads the DataTransfer it filled. */
  result = run_ok (page, TW_TAB_COMMAND_DRAG, "{\"sourceRef\": \"%s\", \"targetRef\": \"%s\"}", apples, cheese);
  g_assert_cmpstr (json_object_get_string_member (result, "mode"), ==, "html5");
  g_assert_true (json_object_get_boolean_member (result, "dropped"));
  json_object_unref (result);
  assert_eval (page, "order('groceries')", "Bread,Cheese,Apples,Dates");
  assert_eval (page, "dropData.join()", "apples");
  assert_eval (page, "seq('dragstart', 'drop', 'dragend')", "dragstart:apples drop:cheese dragend:apples");
  assert_eval (page, "seq('dragenter').split(' ').pop() + ' ' + seq('dragover').split(' ').pop()",
               "dragenter:cheese dragover:cheese");

  act (page, TW_TAB_COMMAND_DRAG, "{\"sourceRef\": \"%s\", \"targetRef\": \"%s\"}", bread, trash);
  assert_eval (page, "order('groceries') + ' / ' + document.getElementById('trash').textContent",
               "Cheese,Apples,Dates / Trash: bread");

  /* A target that never accepts: no drop, and the page is told so. */
  page_eval (page, "clearEvents()");
  result = run_ok (page, TW_TAB_COMMAND_DRAG, "{\"sourceRef\": \"%s\", \"targetRef\": \"%s\"}", dates, locked);
  g_assert_false (json_object_get_boolean_member (result, "dropped"));
  json_object_unref (result);
  assert_eval (page, "order('groceries') + ':' + seq('drop') + ':' + seq('dragleave', 'dragend').split(' ').slice(-2).join(' ')",
               "Cheese,Apples,Dates::dragleave:locked dragend:dates");

  /* A list sorted with pointer events. */
  page_eval (page, "clearEvents()");
  result = run_ok (page, TW_TAB_COMMAND_DRAG, "{\"sourceRef\": \"%s\", \"targetRef\": \"%s\"}", write, ship);
  g_assert_cmpstr (json_object_get_string_member (result, "mode"), ==, "pointer");
  g_assert_true (json_object_get_boolean_member (result, "dropped"));
  json_object_unref (result);
  assert_eval (page, "order('tasks')", "Test,Ship,Write");
  assert_eval (page, "seq('pointerdown', 'pointerup')", "pointerdown:write pointerup:ship");
  assert_eval (page, "events.filter(e => e.type === 'pointermove' && e.buttons === 1).length >= 8", "true");
}

/* Uploads */

static char *
workspace_file (const char *name,
                const char *contents)
{
  g_autofree char *path = g_build_filename (workspace, name, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_mkdir_with_parents (dir, 0700);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&path);
}

static void
test_upload (Page          *page,
             gconstpointer  data)
{
  const char *avatar = page_ref (page, "\"Avatar\"");
  const char *attachments = page_ref (page, "\"Attachments\"");
  const char *choose = page_ref (page, "button \"Choose files\"");
  const char *nothing = page_ref (page, "button \"Does nothing\"");
  g_autofree char *a = workspace_file ("a.txt", "hello");
  g_autofree char *b = workspace_file ("docs/b.txt", "second file");
  g_autofree char *outside_dir = g_dir_make_tmp ("tabwright-outside-XXXXXX", NULL);
  g_autofree char *outside = g_build_filename (outside_dir, "secret.txt", NULL);
  g_autofree char *escape = g_build_filename (workspace, "escape.txt", NULL);
  JsonObject *result;
  JsonArray *files;

  g_file_set_contents (outside, "secret", -1, NULL);
  g_assert_cmpint (symlink (outside, escape), ==, 0);

  /* A path relative to the workspace, through WebKit's own chooser: the
   * page gets a trusted change and a real file to read. */
  result = run_ok (page, TW_TAB_COMMAND_UPLOAD, "{\"ref\": \"%s\", \"filePaths\": [\"a.txt\"]}", avatar);
  files = json_object_get_array_member (result, "files");
  g_assert_cmpuint (json_array_get_length (files), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (files, 0), ==, "a.txt");
  json_object_unref (result);
  page_wait_for (page, "uploads.length === 1");
  assert_eval (page, "JSON.stringify(uploads[0])",
               "{\"input\":\"avatar\",\"trusted\":true,\"files\":[{\"name\":\"a.txt\",\"size\":5,\"text\":\"hello\"}]}");

  act (page, TW_TAB_COMMAND_UPLOAD, "{\"ref\": \"%s\", \"filePaths\": [\"%s\", \"docs/b.txt\"]}",
       attachments, a);
  page_wait_for (page, "uploads.length === 2");
  assert_eval (page, "uploads[1].files.map(f => f.name + '=' + f.text).join()", "a.txt=hello,b.txt=second file");

  /* A button that opens a hidden input's chooser works the same. */
  act (page, TW_TAB_COMMAND_UPLOAD, "{\"ref\": \"%s\", \"filePaths\": [\"docs/b.txt\"]}", choose);
  page_wait_for (page, "uploads.length === 3");
  assert_eval (page, "uploads[2].input + ':' + uploads[2].files[0].name", "hidden-input:b.txt");

  /* Anything outside the workspace is refused and nothing is set. */
  assert_run_error (page, TW_TAB_COMMAND_UPLOAD, TW_BROWSER_ERROR_DENIED,
                    "is outside the workspace",
                    "{\"ref\": \"%s\", \"filePaths\": [\"a.txt\", \"%s\"]}", attachments, outside);
  assert_run_error (page, TW_TAB_COMMAND_UPLOAD, TW_BROWSER_ERROR_DENIED,
                    "is outside the workspace",
                    "{\"ref\": \"%s\", \"filePaths\": [\"escape.txt\"]}", avatar);
  assert_run_error (page, TW_TAB_COMMAND_UPLOAD, TW_BROWSER_ERROR_DENIED, NULL,
                    "{\"ref\": \"%s\", \"filePaths\": [\"../%s/secret.txt\"]}", avatar, strrchr (outside_dir, '/') + 1);
  assert_run_error (page, TW_TAB_COMMAND_UPLOAD, TW_BROWSER_ERROR_INVALID_ARGUMENT, "No such file",
                    "{\"ref\": \"%s\", \"filePaths\": [\"missing.txt\"]}", avatar);
  assert_run_error (page, TW_TAB_COMMAND_UPLOAD, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                    "takes one file",
                    "{\"ref\": \"%s\", \"filePaths\": [\"a.txt\", \"docs/b.txt\"]}", avatar);
  /* An upload that works after them is the next the page sees: none of the
   * refused ones reached it, not even late. */
  act (page, TW_TAB_COMMAND_UPLOAD, "{\"ref\": \"%s\", \"filePaths\": [\"docs/b.txt\"]}", avatar);
  page_wait_for (page, "uploads.length >= 4");
  assert_eval (page, "uploads.length", "4");
  assert_eval (page, "uploads[3].input + ':' + uploads[3].files[0].name", "avatar:b.txt");
  assert_eval (page, "document.getElementById('avatar').files[0].name", "b.txt");

  assert_run_error (page, TW_TAB_COMMAND_UPLOAD, TW_BROWSER_ERROR_NOT_INTERACTABLE,
                    "opened no file chooser",
                    "{\"ref\": \"%s\", \"filePaths\": [\"a.txt\"]}", nothing);

  /* A plain click on a file input never leaves a chooser open on the
   * person's screen: it is closed, and the result says what to use. */
  result = run_ok (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", avatar);
  g_assert_true (json_object_get_boolean_member (result, "fileChooser"));
  json_object_unref (result);

  g_unlink (escape);
  g_unlink (outside);
  g_rmdir (outside_dir);
}

/* Scrolling */

static void
test_scroll (Page          *page,
             gconstpointer  data)
{
  const char *messages = page_ref (page, "log \"Messages\"");
  const char *map = page_ref (page, "application \"Map\"");
  JsonObject *result;

  result = run_ok (page, TW_TAB_COMMAND_SCROLL, "{\"deltaX\": 0, \"deltaY\": 500}");
  g_assert_cmpstr (json_object_get_string_member (result, "scrolled"), ==, "page");
  g_assert_cmpint (json_object_get_int_member (result, "scrollY"), ==, 500);
  g_assert_cmpint (json_object_get_int_member (result, "movedY"), ==, 500);
  json_object_unref (result);
  assert_eval (page, "window.scrollY", "500");
  assert_eval (page, "events.filter(e => e.type === 'wheel').map(e => e.deltaY).join()", "500");
  page_wait_for (page, "window.scrolls > 0");

  /* A ref'd container scrolls itself, not the page. */
  result = run_ok (page, TW_TAB_COMMAND_SCROLL, "{\"ref\": \"%s\", \"deltaX\": 0, \"deltaY\": 200}", messages);
  g_assert_cmpstr (json_object_get_string_member (result, "scrolled"), ==, "log \"Messages\"");
  g_assert_cmpint (json_object_get_int_member (result, "scrollY"), ==, 200);
  json_object_unref (result);
  assert_eval (page, "document.getElementById('messages').scrollTop", "200");
  /* The wheel event goes to what is under the pointer: a message. */
  assert_eval (page, "events.filter(e => e.type === 'wheel').pop().target", "p");

  /* The page may take the wheel for itself. */
  result = run_ok (page, TW_TAB_COMMAND_SCROLL, "{\"ref\": \"%s\", \"deltaX\": 0, \"deltaY\": 100}", map);
  g_assert_true (json_object_get_boolean_member (result, "prevented"));
  json_object_unref (result);
  assert_eval (page, "window.zoom + ':' + document.getElementById('map').scrollTop", "0.5:0");

  result = run_ok (page, TW_TAB_COMMAND_SCROLL, "{\"deltaX\": 0, \"deltaY\": 100000}");
  g_assert_true (json_object_get_boolean_member (result, "atBottom"));
  json_object_unref (result);
}

/* browser_evaluate */

static void
test_evaluate (Page          *page,
               gconstpointer  data)
{
  const char *city = page_ref (page, "textbox \"City\"");
  JsonObject *result;
  JsonNode *value;

  /* The page's own world: its globals are there, ours are not. */
  result = run_ok (page, TW_TAB_COMMAND_EVALUATE, "{\"function\": \"() => appState.user + ':' + typeof __tabwright\"}");
  g_assert_cmpstr (json_object_get_string_member (result, "result"), ==, "ada:undefined");
  g_assert_cmpstr (json_object_get_string_member (result, "resultType"), ==, "string");
  g_assert_false (json_object_get_boolean_member (result, "truncated"));
  json_object_unref (result);

  result = run_ok (page, TW_TAB_COMMAND_EVALUATE, "{\"function\": \"(el) => el.value + '/' + el.id;\", \"ref\": \"%s\"}", city);
  g_assert_cmpstr (json_object_get_string_member (result, "result"), ==, "Lyon/city");
  g_assert_cmpstr (element_member (result, "name"), ==, "City");
  json_object_unref (result);

  result = run_ok (page, TW_TAB_COMMAND_EVALUATE, "{\"function\": \"async () => await later()\"}");
  g_assert_cmpstr (json_object_get_string_member (result, "result"), ==, "resolved late");
  json_object_unref (result);

  result = run_ok (page, TW_TAB_COMMAND_EVALUATE, "{\"function\": \"() => ({ state: appState, list: document.querySelector('li'), "
                   "when: new Date(0), n: NaN })\"}");
  value = json_object_get_member (result, "result");
  {
    g_autofree char *json = json_to_string (value, FALSE);

    g_assert_cmpstr (json, ==, "{\"state\":{\"user\":\"ada\",\"items\":[1,2,3],\"nested\":{\"deep\":true}},"
                     "\"list\":\"<li>\",\"when\":\"1970-01-01T00:00:00.000Z\",\"n\":\"NaN\"}");
  }
  json_object_unref (result);

  result = run_ok (page, TW_TAB_COMMAND_EVALUATE, "{\"function\": \"() => { const o = { name: 'loop' }; o.self = o; return o; }\"}");
  value = json_object_get_member (result, "result");
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (value), "self"), ==, "[Circular]");
  json_object_unref (result);

  result = run_ok (page, TW_TAB_COMMAND_EVALUATE, "{\"function\": \"() => { window.touched = 1; }\"}");
  g_assert_cmpstr (json_object_get_string_member (result, "resultType"), ==, "undefined");
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (result, "result")));
  json_object_unref (result);
  assert_eval (page, "window.touched", "1");

  /* Results past 64 KB are cut, and say so. */
  result = run_ok (page, TW_TAB_COMMAND_EVALUATE, "{\"function\": \"() => 'x'.repeat(200000)\"}");
  g_assert_true (json_object_get_boolean_member (result, "truncated"));
  g_assert_cmpuint (strlen (json_object_get_string_member (result, "result")), <=, TW_TAB_ACTIONS_MAX_RESULT_BYTES);
  g_assert_cmpuint (strlen (json_object_get_string_member (result, "result")), >, 60000);
  json_object_unref (result);

  assert_run_error (page, TW_TAB_COMMAND_EVALUATE, TW_BROWSER_ERROR_SCRIPT_ERROR, "TypeError: boom",
                    "{\"function\": \"() => { throw new TypeError('boom'); }\"}");
  assert_run_error (page, TW_TAB_COMMAND_EVALUATE, TW_BROWSER_ERROR_SCRIPT_ERROR, "plain",
                    "{\"function\": \"async () => { await null; throw 'plain'; }\"}");
  assert_run_error (page, TW_TAB_COMMAND_EVALUATE, TW_BROWSER_ERROR_SCRIPT_ERROR, "SyntaxError",
                    "{\"function\": \"() => {\"}");
  assert_run_error (page, TW_TAB_COMMAND_EVALUATE, TW_BROWSER_ERROR_STALE_REF, NULL,
                    "{\"function\": \"(el) => el.value\", \"ref\": \"@e99999\"}");
}

/* Background tabs */

static void
test_background (Page          *page,
                 gconstpointer  data)
{
  const char *load = page_ref (page, "button \"Load items\"");
  const char *later = page_ref (page, "button \"Later text\"");
  const char *query = page_ref (page, "textbox \"Query\"");
  const char *search;
  JsonObject *result;

  /* Nothing shows the page: it is hidden, its animation frames never run
   * and its timers are throttled, yet actions work and settle. */
  assert_eval (page, "document.visibilityState", "hidden");

  /* How long such a click takes is a figure of bench/run. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", later);
  assert_eval (page, "document.getElementById('message').textContent", "Done later");

  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", load);
  assert_eval (page, "Array.from(document.querySelectorAll('#list li')).map(li => li.textContent).join()",
               "Apples,Pears");

  result = run_ok (page, TW_TAB_COMMAND_TYPE, "{\"ref\": \"%s\", \"text\": \"cats\\n\"}", query);
  g_assert_true (json_object_get_boolean_member (result, "navigated"));
  g_assert_true (g_str_has_suffix (json_object_get_string_member (result, "url"), "/next.html?q=cats"));
  json_object_unref (result);
  assert_eval (page, "document.getElementById('query').textContent", "?q=cats");

  page_load (page, "form.html");
  search = page_ref (page, "textbox \"Search\"");
  act (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"dogs\"}", search);
  act (page, TW_TAB_COMMAND_KEYPRESS, "{\"key\": \"Enter\"}");
  assert_eval (page, "window.searched", "dogs");
}

/* Shadow roots and frames */

static void
test_frames (Page          *page,
             gconstpointer  data)
{
  const char *amount = page_ref (page, "textbox \"Amount\"");
  const char *add = page_ref (page, "button \"Add one\"");
  const char *card = page_ref (page, "textbox \"Card number\"");
  const char *pay = page_ref (page, "button \"Pay\"");
  JsonObject *result;

  /* Inside an open shadow root: the hit test looks through the host. */
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", add);
  assert_eval (page, "window.shadowClicks + ':' + window.composedTarget", "1:add");
  act (page, TW_TAB_COMMAND_FILL, "{\"ref\": \"%s\", \"value\": \"12\"}", amount);
  assert_eval (page, "document.querySelector('counter-card').shadowRoot.getElementById('amount').value", "12");

  /* Inside a same-origin frame: events carry the frame's own coordinates
   * and typing reaches its document. */
  result = run_ok (page, TW_TAB_COMMAND_TYPE, "{\"ref\": \"%s\", \"text\": \"4242\"}", card);
  g_assert_cmpstr (json_object_get_string_member (result, "value"), ==, "4242");
  json_object_unref (result);
  act (page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", pay);
  assert_eval (page, "(() => { const d = document.querySelector('iframe').contentDocument; "
               "const w = d.defaultView; const r = w.payRect; const e = w.payEvent; "
               "return d.getElementById('pay').textContent + ':' + "
               "(Math.abs(e.x - (r.left + r.width / 2)) < 1 && Math.abs(e.y - (r.top + r.height / 2)) < 1); })()",
               "Paid 4242:true");
}

/* Timing (run with -m perf) */

static void
measure_clicks (gboolean shown)
{
  g_auto(Page) page = { 0 };
  const char *count;
  double samples[30];

  page_init (&page, shown);
  page_load (&page, "bench.html");
  count = page_ref (&page, "button \"Count\"");

  for (guint i = 0; i < G_N_ELEMENTS (samples) + 5; i++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(JsonObject) result = run_ok (&page, TW_TAB_COMMAND_CLICK, "{\"ref\": \"%s\"}", count);

      if (i >= 5)
        samples[i - 5] = (g_get_monotonic_time () - start) / 1000.0;
    }

  assert_eval (&page, "String(window.clicks)", "35");
  qsort (samples, G_N_ELEMENTS (samples), sizeof (double), tw_test_compare_doubles);
  g_test_message ("click on a %s page: median %.1f ms, p90 %.1f ms", shown ? "shown" : "background",
                  samples[G_N_ELEMENTS (samples) / 2], samples[G_N_ELEMENTS (samples) * 9 / 10]);
  g_test_minimized_result (samples[G_N_ELEMENTS (samples) / 2], "median click %.1f ms",
                           samples[G_N_ELEMENTS (samples) / 2]);
}

static void
test_perf_click (void)
{
  measure_clicks (TRUE);
  measure_clicks (FALSE);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  gtk_test_init (&argc, &argv, NULL);

  server = tw_test_server_new (serve_cb, &base_url);
  session = webkit_network_session_new_ephemeral ();
  workspace = g_dir_make_tmp ("tabwright-actions-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add ("/actions/click/sequence", Page, "click.html",
              page_setup, test_click_sequence, page_teardown);
  g_test_add ("/actions/click/double-right-modifiers", Page, "click.html",
              page_setup, test_click_double_right_modifiers, page_teardown);
  g_test_add ("/actions/click/label-checkbox", Page, "click.html",
              page_setup, test_click_label_checkbox, page_teardown);
  g_test_add ("/actions/click/grid-header", Page, "grid.html",
              page_setup, test_click_grid_header, page_teardown);
  g_test_add ("/actions/click/not-interactable", Page, "actionability.html",
              page_setup, test_click_not_interactable, page_teardown);
  g_test_add ("/actions/click/waits", Page, "actionability.html",
              page_setup, test_click_waits, page_teardown);
  g_test_add ("/actions/click/navigation", Page, "navigation.html",
              page_setup, test_click_navigation, page_teardown);
  g_test_add ("/actions/click/navigation-limits", Page, "navigation.html",
              page_setup, test_click_navigation_limits, page_teardown);
  g_test_add ("/actions/click/navigation-decided-late", Page, "navigation.html",
              page_setup, test_click_navigation_decided_late, page_teardown);
  g_test_add ("/actions/fill", Page, "form.html",
              page_setup, test_fill, page_teardown);
  g_test_add ("/actions/type", Page, "form.html",
              page_setup, test_type, page_teardown);
  g_test_add ("/actions/keypress", Page, "form.html",
              page_setup, test_keypress, page_teardown);
  g_test_add ("/actions/select", Page, "form.html",
              page_setup, test_select, page_teardown);
  g_test_add ("/actions/react", Page, "react.html",
              react_page_setup, test_react, page_teardown);
  g_test_add ("/actions/widgets", Page, "widgets.html",
              page_setup, test_widgets, page_teardown);
  g_test_add ("/actions/drag", Page, "drag.html",
              page_setup, test_drag, page_teardown);
  g_test_add ("/actions/upload", Page, "upload.html",
              page_setup, test_upload, page_teardown);
  g_test_add ("/actions/scroll", Page, "scroll.html",
              page_setup, test_scroll, page_teardown);
  g_test_add ("/actions/evaluate", Page, "evaluate.html",
              page_setup, test_evaluate, page_teardown);
  g_test_add ("/actions/frames", Page, "frames.html",
              page_setup, test_frames, page_teardown);
  g_test_add ("/actions/background", Page, "navigation.html",
              background_page_setup, test_background, page_teardown);
  /* A measurement, not a check: there only when asked for (-m perf), so
   * the suite has no test that always skips. */
  if (g_test_perf ())
    g_test_add_func ("/actions/perf/click", test_perf_click);

  status = g_test_run ();

  tw_test_remove_tree (workspace);
  g_clear_pointer (&workspace, g_free);
  g_clear_object (&server);
  g_clear_object (&session);
  return status;
}
