/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-error.h"
#include "tw-tool-call-private.h"
#include "tw-tool-registry.h"
#include "tw-test-util.h"

/* The interaction tools without a display: what each handler asks of the
 * browser service, and the text an agent reads for a given result, through
 * a fake service that records the command and answers with a canned
 * result. The real actions are tested in test-actions. */

/* One tool call: its arguments, what the service must be asked, the result
 * it answers with, and the text the agent then reads. */
typedef struct
{
  const char   *tool;
  const char   *arguments;
  TwTabCommand  command;
  const char   *params;
  const char   *reply;
  const char   *text;
} Case;

static const Case cases[] = {
  {
    "browser_click", "{\"browserId\": \"b3\", \"ref\": \"@e7\"}",
    TW_TAB_COMMAND_CLICK, "{\"ref\":\"@e7\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://127.0.0.1:8000/\", \"title\": \"Shop\", \"button\": \"left\", "
    "\"element\": {\"ref\": \"@e7\", \"role\": \"button\", \"name\": \"Save\"}}",
    "Clicked button \"Save\" @e7.\nbrowserId: b3\nurl: http://127.0.0.1:8000/\ntitle: \"Shop\"",
  },
  {
    "browser_click", "{\"browserId\": \"b3\", \"ref\": \"e7\", \"doubleClick\": true, \"modifiers\": [\"Shift\"]}",
    TW_TAB_COMMAND_CLICK, "{\"ref\":\"e7\",\"doubleClick\":true,\"modifiers\":[\"Shift\"]}",
    "{\"browserId\": \"b3\", \"url\": \"http://127.0.0.1:8000/next\", \"title\": \"Next\", \"doubleClick\": true, "
    "\"navigated\": true, \"newTabs\": [\"b4\"], \"dialogs\": [{\"type\": \"confirm\", \"message\": \"Sure?\"}], "
    "\"element\": {\"ref\": \"@e7\", \"role\": \"link\", \"name\": \"Next\"}}",
    "Double-clicked link \"Next\" @e7.\n"
    "The tab went to another page.\nbrowserId: b3\nurl: http://127.0.0.1:8000/next\ntitle: \"Next\"\n"
    "newTab browserId: b4\n"
    "Dialog: confirm \"Sure?\" (dismissed)",
  },
  {
    "browser_click", "{\"browserId\": \"b3\", \"ref\": \"@e2\", \"button\": \"right\"}",
    TW_TAB_COMMAND_CLICK, "{\"ref\":\"@e2\",\"button\":\"right\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"\", \"button\": \"right\", \"fileChooser\": true, "
    "\"element\": {\"ref\": \"@e2\", \"role\": \"generic\", \"name\": \"\"}}",
    "Right-clicked element @e2.\n"
    "The page opened a file chooser, which was closed: use browser_upload with this ref to choose files.\nbrowserId: b3\nurl: http://a/\ntitle: (none)",
  },
  {
    "browser_fill", "{\"browserId\": \"b3\", \"ref\": \"@e5\", \"value\": \"123456\"}",
    TW_TAB_COMMAND_FILL, "{\"ref\":\"@e5\",\"value\":\"123456\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"Form\", \"value\": \"1234\", \"changedByPage\": true, "
    "\"element\": {\"ref\": \"@e5\", \"role\": \"textbox\", \"name\": \"Code\"}}",
    "Filled textbox \"Code\" @e5: it now holds \"1234\". That differs from the value given: the page "
    "changed or limited it.\nbrowserId: b3\nurl: http://a/\ntitle: \"Form\"",
  },
  {
    "browser_type", "{\"browserId\": \"b3\", \"text\": \"hi\\n\"}",
    TW_TAB_COMMAND_TYPE, "{\"text\":\"hi\\n\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"Form\", \"typed\": \"hi\\n\", "
    "\"focused\": \"<body>\", \"editable\": false}",
    "Typed \"hi\n\". No text field had the focus (it is on <body>), so the page got the key presses but "
    "no text went in; pass a ref to type into a field.\nbrowserId: b3\nurl: http://a/\ntitle: \"Form\"",
  },
  {
    "browser_type", "{\"browserId\": \"b3\", \"text\": \"Ada\", \"ref\": \"@e5\"}",
    TW_TAB_COMMAND_TYPE, "{\"ref\":\"@e5\",\"text\":\"Ada\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"Form\", \"typed\": \"Ada\", \"editable\": true, "
    "\"value\": \"Ada\", \"element\": {\"ref\": \"@e5\", \"role\": \"textbox\", \"name\": \"Name\"}}",
    "Typed \"Ada\" into textbox \"Name\" @e5. The field now holds \"Ada\".\nbrowserId: b3\nurl: http://a/\ntitle: \"Form\"",
  },
  {
    "browser_keypress", "{\"browserId\": \"b3\", \"key\": \"Control+S\"}",
    TW_TAB_COMMAND_KEYPRESS, "{\"key\":\"Control+S\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"Editor\", \"key\": \"Control+S\", "
    "\"focused\": \"textbox \\\"Notes\\\"\", \"prevented\": true}",
    "Pressed Control+S; the focus is now on textbox \"Notes\". The page handled the key itself (it "
    "cancelled the browser's default action).\nbrowserId: b3\nurl: http://a/\ntitle: \"Editor\"",
  },
  {
    "browser_hover", "{\"browserId\": \"b3\", \"ref\": \"@e9\"}",
    TW_TAB_COMMAND_HOVER, "{\"ref\":\"@e9\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"Menu\", "
    "\"element\": {\"ref\": \"@e9\", \"role\": \"link\", \"name\": \"Products\"}}",
    "Moved the pointer onto link \"Products\" @e9.\nbrowserId: b3\nurl: http://a/\ntitle: \"Menu\"",
  },
  {
    "browser_select", "{\"browserId\": \"b3\", \"ref\": \"@e6\", \"value\": \"France\"}",
    TW_TAB_COMMAND_SELECT, "{\"ref\":\"@e6\",\"value\":\"France\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"Form\", \"changed\": true, "
    "\"selected\": {\"value\": \"fr\", \"label\": \"France\"}, "
    "\"element\": {\"ref\": \"@e6\", \"role\": \"combobox\", \"name\": \"Country\"}}",
    "Selected \"France\" (value \"fr\") in combobox \"Country\" @e6.\nbrowserId: b3\nurl: http://a/\ntitle: \"Form\"",
  },
  {
    "browser_drag", "{\"browserId\": \"b3\", \"sourceRef\": \"@e4\", \"targetRef\": \"@e6\"}",
    TW_TAB_COMMAND_DRAG, "{\"sourceRef\":\"@e4\",\"targetRef\":\"@e6\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"Board\", \"mode\": \"html5\", \"dropped\": true, "
    "\"source\": {\"ref\": \"@e4\", \"role\": \"listitem\", \"name\": \"\"}, "
    "\"target\": {\"ref\": \"@e6\", \"role\": \"region\", \"name\": \"Done\"}}",
    "Dragged listitem @e4 onto region \"Done\" @e6 with HTML drag and drop; the page accepted the drop.\nbrowserId: b3\nurl: http://a/\ntitle: \"Board\"",
  },
  {
    "browser_drag", "{\"browserId\": \"b3\", \"sourceRef\": \"@e2\", \"targetRef\": \"@e5\"}",
    TW_TAB_COMMAND_DRAG, "{\"sourceRef\":\"@e2\",\"targetRef\":\"@e5\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"Slider\", \"mode\": \"pointer\", \"dropped\": true, "
    "\"onTarget\": true, \"pageChanged\": true, \"captured\": true, \"releasedOn\": \"button \\\"75\\\"\", "
    "\"source\": {\"ref\": \"@e2\", \"role\": \"slider\", \"name\": \"Volume\"}, "
    "\"target\": {\"ref\": \"@e5\", \"role\": \"button\", \"name\": \"75\"}}",
    "Dragged slider \"Volume\" @e2 onto button \"75\" @e5 with the pointer (press, move, rest, release on the target); "
    "the page changed during the drag. The page captured the pointer.\nbrowserId: b3\nurl: http://a/\ntitle: \"Slider\"",
  },
  {
    "browser_drag", "{\"browserId\": \"b3\", \"sourceRef\": \"@e2\", \"targetRef\": \"@e5\"}",
    TW_TAB_COMMAND_DRAG, "{\"sourceRef\":\"@e2\",\"targetRef\":\"@e5\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"Form\", \"mode\": \"pointer\", \"dropped\": false, "
    "\"onTarget\": true, \"pageChanged\": false, \"captured\": false, \"releasedOn\": \"button \\\"Cancel\\\"\", "
    "\"source\": {\"ref\": \"@e2\", \"role\": \"button\", \"name\": \"Save\"}, "
    "\"target\": {\"ref\": \"@e5\", \"role\": \"button\", \"name\": \"Cancel\"}}",
    "Dragged button \"Save\" @e2 onto button \"Cancel\" @e5 with the pointer and released it on the target, "
    "but the page did not change: it may not have taken the drag.\nbrowserId: b3\nurl: http://a/\ntitle: \"Form\"",
  },
  {
    "browser_drag", "{\"browserId\": \"b3\", \"sourceRef\": \"@e2\", \"targetRef\": \"@e5\"}",
    TW_TAB_COMMAND_DRAG, "{\"sourceRef\":\"@e2\",\"targetRef\":\"@e5\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"Board\", \"mode\": \"pointer\", \"dropped\": false, "
    "\"onTarget\": false, \"pageChanged\": true, \"captured\": false, \"releasedOn\": \"dialog \\\"Cookies\\\"\", "
    "\"source\": {\"ref\": \"@e2\", \"role\": \"listitem\", \"name\": \"Write\"}, "
    "\"target\": {\"ref\": \"@e5\", \"role\": \"listitem\", \"name\": \"Ship\"}}",
    "Dragged listitem \"Write\" @e2 onto listitem \"Ship\" @e5 with the pointer, but the release did not land on the target "
    "(it landed on dialog \"Cookies\"); the page changed during the drag.\nbrowserId: b3\nurl: http://a/\ntitle: \"Board\"",
  },
  {
    "browser_upload", "{\"browserId\": \"b3\", \"ref\": \"@e8\", \"filePaths\": [\"a.txt\", \"docs/b.png\"]}",
    TW_TAB_COMMAND_UPLOAD, "{\"ref\":\"@e8\",\"filePaths\":[\"a.txt\",\"docs/b.png\"]}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"Upload\", \"files\": [\"a.txt\", \"b.png\"], "
    "\"element\": {\"ref\": \"@e8\", \"role\": \"button\", \"name\": \"Choose files\"}}",
    "The page now has 2 files: a.txt, b.png (chosen through button \"Choose files\" @e8).\nbrowserId: b3\nurl: http://a/\ntitle: \"Upload\"",
  },
  {
    "browser_scroll", "{\"browserId\": \"b3\", \"deltaX\": 0, \"deltaY\": 600}",
    TW_TAB_COMMAND_SCROLL, "{\"deltaX\":0,\"deltaY\":600}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"Feed\", \"scrolled\": \"page\", "
    "\"scrollX\": 0, \"scrollY\": 600, \"movedX\": 0, \"movedY\": 600, \"atBottom\": true}",
    "Scrolled the page by 0, 600; its scroll position is now 0, 600. It reached the bottom.\nbrowserId: b3\nurl: http://a/\ntitle: \"Feed\"",
  },
  {
    "browser_evaluate", "{\"browserId\": \"b3\", \"function\": \"() => ({ a: 1 })\"}",
    TW_TAB_COMMAND_EVALUATE, "{\"function\":\"() => ({ a: 1 })\"}",
    "{\"browserId\": \"b3\", \"url\": \"http://a/\", \"title\": \"App\", \"result\": {\"a\": 1}, "
    "\"resultType\": \"object\", \"truncated\": false}",
    "Result (object): {\n  \"a\" : 1\n}\nbrowserId: b3\nurl: http://a/\ntitle: \"App\"",
  },
};

static void
test_case (gconstpointer data)
{
  const Case *c = data;
  g_autoptr(TwFakeService) service = g_object_new (TW_TYPE_FAKE_SERVICE, NULL);
  g_autofree char *params = NULL;
  TwTestOutcome outcome = { 0 };
  JsonObject *result;

  service->reply = tw_test_parse_object (c->reply);
  tw_test_run_tool (service, c->tool, c->arguments, &outcome);

  g_assert_no_error (outcome.error);
  g_assert_cmpint (service->command, ==, c->command);
  g_assert_cmpstr (service->browser_id, ==, "b3");
  params = tw_test_object_to_string (service->params);
  g_assert_cmpstr (params, ==, c->params);

  /* The text says what the structured result says. */
  g_assert_cmpstr (tw_test_result_text (json_node_get_object (outcome.result)), ==, c->text);
  result = json_node_get_object (outcome.result);
  g_assert_true (json_object_has_member (result, "structuredContent"));
  g_assert_false (json_object_get_boolean_member_with_default (result, "isError", FALSE));

  tw_test_outcome_clear (&outcome);
}

static void
test_errors (void)
{
  g_autoptr(TwFakeService) service = g_object_new (TW_TYPE_FAKE_SERVICE, NULL);
  TwTestOutcome outcome = { 0 };

  /* Schema failures never reach the tab. */
  tw_test_run_tool (service, "browser_click", "{\"browserId\": \"b3\", \"ref\": \"@e1\", \"button\": \"side\"}", &outcome);
  g_assert_error (outcome.error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  g_assert_null (service->params);
  tw_test_outcome_clear (&outcome);
  memset (&outcome, 0, sizeof outcome);

  tw_test_run_tool (service, "browser_scroll", "{\"browserId\": \"b3\", \"deltaY\": 10}", &outcome);
  g_assert_error (outcome.error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  tw_test_outcome_clear (&outcome);
  memset (&outcome, 0, sizeof outcome);

  tw_test_run_tool (service, "browser_upload", "{\"browserId\": \"b3\", \"ref\": \"@e1\", \"filePaths\": []}", &outcome);
  g_assert_error (outcome.error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
  g_assert_null (service->params);
  tw_test_outcome_clear (&outcome);
  memset (&outcome, 0, sizeof outcome);

  /* The tab's errors come back as a failure naming their code, then what to do. */
  service->error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_INTERACTABLE,
                                        "@e7 button \"Pay\" is covered by dialog \"Cookies\"");
  tw_test_run_tool (service, "browser_click", "{\"browserId\": \"b3\", \"ref\": \"@e7\"}", &outcome);
  g_assert_error (outcome.error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_INTERACTABLE);
  g_assert_cmpstr (tw_test_result_text (json_node_get_object (outcome.result)), ==,
                   "Error: browser_not_interactable — @e7 button \"Pay\" is covered by dialog \"Cookies\"\n"
                   "Take a new browser_snapshot; close or scroll away what is in the way, or wait "
                   "until the element is enabled, then retry.");
  tw_test_outcome_clear (&outcome);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;

  g_test_init (&argc, &argv, NULL);

  /* Every table is well formed, ours included. */
  g_assert_true (tw_tool_registry_check (&error));
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/mcp/input-tools/%s/%u", cases[i].tool + strlen ("browser_"), i);

      g_test_add_data_func (path, &cases[i], test_case);
    }
  g_test_add_func ("/mcp/input-tools/errors", test_errors);

  return g_test_run ();
}
