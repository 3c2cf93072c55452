/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-error.h"
#include "tw-test-util.h"

/* TwToolCall on its own: what a handler's command does on the way to the
 * browser service and back. The service here holds every command until the
 * test answers it, so the order in which commands reach the tabs is what
 * the test sees, never a matter of timing. */

/* A command the service was asked to run and has not answered yet. */
typedef struct
{
  GTask      *task;
  char       *browser_id;
  char       *label;
  JsonObject *params;
} Pending;

typedef struct
{
  GPtrArray *pending;  /* Pending*, in the order the service received them */
  GPtrArray *started;  /* char* labels, every command the service received */
} HoldingService;

static void
pending_free (Pending *pending)
{
  g_clear_object (&pending->task);
  g_free (pending->browser_id);
  g_free (pending->label);
  g_clear_pointer (&pending->params, json_object_unref);
  g_free (pending);
}

static void
holding_free (HoldingService *holding)
{
  g_ptr_array_unref (holding->pending);
  g_ptr_array_unref (holding->started);
  g_free (holding);
}

static void
holding_run (GTask                  *task,
             const TwServiceRequest *request,
             gpointer                run_data)
{
  HoldingService *holding = run_data;
  Pending *pending = g_new0 (Pending, 1);

  pending->task = g_object_ref (task);
  pending->browser_id = g_strdup (request->browser_id);
  pending->label = g_strdup (json_object_get_string_member_with_default (request->params, "label",
                                                                         "?"));
  pending->params = json_object_ref (request->params);
  g_ptr_array_add (holding->pending, pending);
  g_ptr_array_add (holding->started, g_strdup (pending->label));
}

static TwFakeService *
holding_service_new (HoldingService **out)
{
  HoldingService *holding = g_new0 (HoldingService, 1);

  holding->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) pending_free);
  holding->started = g_ptr_array_new_with_free_func (g_free);
  *out = holding;

  return tw_fake_service_new_full (holding_run, holding, (GDestroyNotify) holding_free);
}

/* The labels the service received so far, joined by spaces. */
static char *
started_labels (HoldingService *holding)
{
  GString *joined = g_string_new (NULL);

  for (guint i = 0; i < holding->started->len; i++)
    g_string_append_printf (joined, "%s%s", i > 0 ? " " : "",
                            (const char *) g_ptr_array_index (holding->started, i));

  return g_string_free (joined, FALSE);
}

/* Answers the held command @label with {"label": @label}. */
static void
answer (HoldingService *holding,
        const char     *label)
{
  for (guint i = 0; i < holding->pending->len; i++)
    {
      Pending *pending = g_ptr_array_index (holding->pending, i);
      JsonObject *reply;

      if (!g_str_equal (pending->label, label))
        continue;

      reply = json_object_new ();
      json_object_set_string_member (reply, "label", label);
      json_object_set_string_member (reply, "browserId", pending->browser_id);
      g_task_return_pointer (pending->task, reply, (GDestroyNotify) json_object_unref);
      g_ptr_array_remove_index (holding->pending, i);
      return;
    }

  g_error ("No command %s is held", label);
}

static gboolean
holding_cancelled (HoldingService *holding,
                   const char     *label)
{
  for (guint i = 0; i < holding->pending->len; i++)
    {
      Pending *pending = g_ptr_array_index (holding->pending, i);

      if (g_str_equal (pending->label, label))
        return g_cancellable_is_cancelled (g_task_get_cancellable (pending->task));
    }

  g_error ("No command %s is held", label);
}

/* The tools of this test */

static char *
format_label (JsonObject *result)
{
  return g_strdup_printf ("ran %s on %s",
                          json_object_get_string_member (result, "label"),
                          json_object_get_string_member (result, "browserId"));
}

/* Reloads the tab browserId, the command carrying the call's label. */
static void
tab_handler (TwToolCall *call)
{
  JsonObject *arguments = tw_tool_call_get_arguments (call);
  g_autoptr(JsonObject) params = json_object_new ();

  json_object_set_string_member (params, "label", json_object_get_string_member (arguments, "label"));
  tw_tool_call_run_command (call, TW_TAB_COMMAND_RELOAD,
                            json_object_get_string_member (arguments, "browserId"),
                            params, format_label);
}

/* As tab_handler, but the call gives up at once, as a handler does when its
 * own time limit passes before the tab answers. */
static void
gives_up_handler (TwToolCall *call)
{
  g_autoptr(GError) error = NULL;

  tab_handler (call);

  g_set_error_literal (&error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                       "The tab did not answer in time");
  tw_tool_call_return_error (call, error);
}

#define TAB_INPUT_SCHEMA \
  "{\"type\":\"object\",\"properties\":{" \
  "\"browserId\":{\"type\":\"string\",\"minLength\":1}," \
  "\"label\":{\"type\":\"string\"}}," \
  "\"required\":[\"browserId\",\"label\"],\"additionalProperties\":false}"

static const TwToolDef tab_tool = {
  .name = "test_tab_command",
  .title = "One tab command",
  .description = "Reloads a tab, labelled.",
  .input_schema = TAB_INPUT_SCHEMA,
  .output_schema = "{\"type\":\"object\",\"properties\":{\"label\":{\"type\":\"string\"}}}",
  .handler = tab_handler,
};

static const TwToolDef gives_up_tool = {
  .name = "test_gives_up",
  .title = "A command given up",
  .description = "Reloads a tab and fails before it answers.",
  .input_schema = TAB_INPUT_SCHEMA,
  .handler = gives_up_handler,
};

/* A tool that is one command: no handler, only its row. It forwards
 * "label" and not "note", and refuses the label "refused" before the
 * command runs. */
static gboolean
check_label (JsonObject  *arguments,
             GError     **error)
{
  if (g_str_equal (json_object_get_string_member (arguments, "label"), "refused"))
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "The label \"refused\" is refused");
      return FALSE;
    }

  return TRUE;
}

static const TwToolDef row_tool = {
  .name = "test_row",
  .title = "One row",
  .description = "Reloads a tab, labelled, through the generic handler.",
  .input_schema = "{\"type\":\"object\",\"properties\":{"
                  "\"browserId\":{\"type\":\"string\",\"minLength\":1},"
                  "\"label\":{\"type\":\"string\"},\"note\":{\"type\":\"string\"}},"
                  "\"required\":[\"browserId\",\"label\"],\"additionalProperties\":false}",
  .command = TW_TAB_COMMAND_RELOAD,
  .arguments = TW_TOOL_ARGUMENTS ("label"),
  .format = format_label,
  .check = check_label,
};

/* Answers with a picture whose first bytes are @arguments' "kind". */
static void
image_handler (TwToolCall *call)
{
  static const guint8 jpeg[] = { 0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10 };
  static const guint8 png[] = { 0x89, 'P', 'N', 'G', '\r', '\n' };
  const char *kind = json_object_get_string_member (tw_tool_call_get_arguments (call), "kind");
  g_autoptr(GBytes) bytes = NULL;

  if (g_str_equal (kind, "jpeg"))
    bytes = g_bytes_new_static (jpeg, sizeof jpeg);
  else
    bytes = g_bytes_new_static (png, sizeof png);

  tw_tool_call_return_image (call, NULL, bytes, NULL);
}

static const TwToolDef image_tool = {
  .name = "test_image",
  .title = "A picture",
  .description = "Answers with an image.",
  .input_schema = "{\"type\":\"object\",\"properties\":{\"kind\":{\"enum\":[\"jpeg\",\"png\"]}},"
                  "\"required\":[\"kind\"]}",
  .handler = image_handler,
};

/* Answers with text and a structured object, whatever its table says. */
static void
structured_handler (TwToolCall *call)
{
  JsonObject *structured = json_object_new ();

  json_object_set_string_member (structured, "label", "x");
  tw_tool_call_return_text (call, "done", structured);
}

static const TwToolDef text_only_tool = {
  .name = "test_text_only",
  .title = "Text only",
  .description = "Has no output schema.",
  .input_schema = "{\"type\":\"object\"}",
  .handler = structured_handler,
};

static const TwToolDef structured_tool = {
  .name = "test_structured",
  .title = "Structured",
  .description = "Has an output schema.",
  .input_schema = "{\"type\":\"object\"}",
  .output_schema = "{\"type\":\"object\",\"properties\":{\"label\":{\"type\":\"string\"}}}",
  .handler = structured_handler,
};

/* Calls as the tests make them */

typedef struct
{
  TwToolCall    *call;
  GCancellable  *cancellable;
  TwTestOutcome  outcome;
} Call;

static void
call_start (Call             *c,
            const TwToolDef  *def,
            TwFakeService    *service,
            const char       *arguments)
{
  g_autoptr(JsonObject) args = tw_test_parse_object (arguments);

  memset (c, 0, sizeof *c);
  c->cancellable = g_cancellable_new ();
  c->call = tw_tool_call_new (def, args, service != NULL ? TW_BROWSER_SERVICE (service) : NULL,
                              &tw_test_agent, c->cancellable);
  tw_tool_call_set_done_func (c->call, tw_test_outcome_done_cb, &c->outcome, NULL);
  tw_tool_call_start (c->call);
}

static void
call_clear (Call *c)
{
  g_clear_pointer (&c->call, tw_tool_call_unref);
  g_clear_object (&c->cancellable);
  tw_test_outcome_clear (&c->outcome);
}

static JsonObject *
call_await (Call       *c,
            const char *what)
{
  tw_test_wait_for_flag (&c->outcome.done, TW_TEST_TOOL_TIMEOUT_MS, what);

  return json_node_get_object (c->outcome.result);
}

static gboolean
n_pending_is (gpointer data)
{
  HoldingService *holding = ((gpointer *) data)[0];
  guint n = GPOINTER_TO_UINT (((gpointer *) data)[1]);

  return holding->started->len >= n;
}

/* Waits until the service has received @n commands in all. */
static void
wait_started (HoldingService *holding,
              guint           n)
{
  gpointer data[2] = { holding, GUINT_TO_POINTER (n) };

  tw_test_wait_until (n_pending_is, data, TW_TEST_TOOL_TIMEOUT_MS, "commands to reach the service");
}

/* Each call's command reaches the service at once, in the order the calls
 * started, and each answer goes back to its own call, in whatever order
 * they come. Ordering the commands of one tab is the tab's own business
 * (its queue, tested with real tabs in test-browser). */
static void
test_passes_through (void)
{
  HoldingService *holding;
  g_autoptr(TwFakeService) service = holding_service_new (&holding);
  Call a, b, c;
  g_autofree char *labels = NULL;

  call_start (&a, &tab_tool, service, "{\"browserId\": \"b1\", \"label\": \"A\"}");
  call_start (&b, &tab_tool, service, "{\"browserId\": \"b1\", \"label\": \"B\"}");
  call_start (&c, &tab_tool, service, "{\"browserId\": \"b2\", \"label\": \"C\"}");

  wait_started (holding, 3);
  labels = started_labels (holding);
  g_assert_cmpstr (labels, ==, "A B C");

  answer (holding, "C");
  g_assert_cmpstr (tw_test_result_text (call_await (&c, "C")), ==, "ran C on b2");
  answer (holding, "B");
  g_assert_cmpstr (tw_test_result_text (call_await (&b, "B")), ==, "ran B on b1");
  g_assert_false (a.outcome.done);
  answer (holding, "A");
  g_assert_cmpstr (tw_test_result_text (call_await (&a, "A")), ==, "ran A on b1");
  g_assert_cmpstr (json_object_get_string_member (tw_test_result_structured (json_node_get_object (a.outcome.result)), "label"), ==, "A");

  call_clear (&a);
  call_clear (&b);
  call_clear (&c);
}

/* Cancelling a call reaches the tab's command through its cancellable;
 * the call ends cancelled (browser_timeout for the agent), and the other
 * call goes on. */
static void
test_cancel_running (void)
{
  HoldingService *holding;
  g_autoptr(TwFakeService) service = holding_service_new (&holding);
  Call a, b;
  Pending *pending;

  call_start (&a, &tab_tool, service, "{\"browserId\": \"b1\", \"label\": \"A\"}");
  call_start (&b, &tab_tool, service, "{\"browserId\": \"b1\", \"label\": \"B\"}");
  wait_started (holding, 2);

  g_assert_false (holding_cancelled (holding, "A"));
  g_cancellable_cancel (a.cancellable);
  g_assert_true (holding_cancelled (holding, "A"));

  pending = g_ptr_array_index (holding->pending, 0);
  g_task_return_new_error (pending->task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Stopped by the test");
  g_ptr_array_remove_index (holding->pending, 0);

  call_await (&a, "the cancelled running call");
  g_assert_cmpstr (tw_test_result_error_code (json_node_get_object (a.outcome.result)), ==,
                   "browser_timeout");
  g_assert_error (a.outcome.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (holding_cancelled (holding, "B"));

  answer (holding, "B");
  g_assert_cmpstr (tw_test_result_text (call_await (&b, "B")), ==, "ran B on b1");

  call_clear (&a);
  call_clear (&b);
}

/* A call whose cancellable is cancelled before it starts never runs its
 * handler. */
static void
test_cancelled_before_start (void)
{
  HoldingService *holding;
  g_autoptr(TwFakeService) service = holding_service_new (&holding);
  g_autoptr(JsonObject) args = tw_test_parse_object ("{\"browserId\": \"b1\", \"label\": \"A\"}");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  TwTestOutcome outcome = { 0 };
  TwToolCall *call;

  g_cancellable_cancel (cancellable);
  call = tw_tool_call_new (&tab_tool, args, TW_BROWSER_SERVICE (service), &tw_test_agent, cancellable);
  tw_tool_call_set_done_func (call, tw_test_outcome_done_cb, &outcome, NULL);
  tw_tool_call_start (call);

  g_assert_true (outcome.done);
  g_assert_true (tw_tool_call_is_finished (call));
  g_assert_error (outcome.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (service->n_runs, ==, 0);

  tw_tool_call_unref (call);
  tw_test_outcome_clear (&outcome);
}

/* A tool that is one row runs its command on the tab of its browserId
 * with the arguments the row names, no others, and reads the answer with
 * the row's formatter; a check that fails ends the call before the
 * service sees it. */
static void
test_one_row (void)
{
  HoldingService *holding;
  g_autoptr(TwFakeService) service = holding_service_new (&holding);
  g_autofree char *forwarded = NULL;
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  Pending *pending;
  Call a, b;

  call_start (&a, &row_tool, service,
              "{\"browserId\": \"b3\", \"label\": \"R\", \"note\": \"kept here\"}");
  wait_started (holding, 1);
  pending = g_ptr_array_index (holding->pending, 0);
  g_assert_cmpstr (pending->browser_id, ==, "b3");
  json_node_set_object (node, pending->params);
  forwarded = json_to_string (node, FALSE);
  g_assert_cmpstr (forwarded, ==, "{\"label\":\"R\"}");

  answer (holding, "R");
  g_assert_cmpstr (tw_test_result_text (call_await (&a, "R")), ==, "ran R on b3");

  call_start (&b, &row_tool, service, "{\"browserId\": \"b3\", \"label\": \"refused\"}");
  call_await (&b, "the refused call");
  g_assert_cmpstr (tw_test_result_error_code (json_node_get_object (b.outcome.result)), ==,
                   "browser_invalid_argument");
  g_assert_cmpuint (service->n_runs, ==, 1);

  call_clear (&a);
  call_clear (&b);
}

/* A call that gave up on its own (its time limit) keeps the answer it
 * gave; the tab's late answer goes nowhere, and other calls are answered. */
static void
test_gave_up_then_late_answer (void)
{
  HoldingService *holding;
  g_autoptr(TwFakeService) service = holding_service_new (&holding);
  Call a, b;

  call_start (&a, &gives_up_tool, service, "{\"browserId\": \"b1\", \"label\": \"A\"}");
  g_assert_true (a.outcome.done);
  g_assert_cmpstr (tw_test_result_error_code (json_node_get_object (a.outcome.result)), ==,
                   "browser_timeout");

  call_start (&b, &tab_tool, service, "{\"browserId\": \"b1\", \"label\": \"B\"}");
  wait_started (holding, 2);
  g_assert_false (b.outcome.done);

  answer (holding, "A");
  g_assert_cmpstr (tw_test_result_error_code (json_node_get_object (a.outcome.result)), ==,
                   "browser_timeout");

  answer (holding, "B");
  g_assert_cmpstr (tw_test_result_text (call_await (&b, "B")), ==, "ran B on b1");

  call_clear (&a);
  call_clear (&b);
}

/* Arguments that fail the input schema are turned away before the
 * handler: the service is never asked. */
static void
test_invalid_arguments (void)
{
  HoldingService *holding;
  g_autoptr(TwFakeService) service = holding_service_new (&holding);
  Call a;

  call_start (&a, &tab_tool, service, "{\"browserId\": \"\", \"label\": \"A\"}");
  g_assert_true (a.outcome.done);
  g_assert_cmpstr (tw_test_result_error_code (json_node_get_object (a.outcome.result)), ==,
                   "browser_invalid_argument");
  g_assert_cmpuint (service->n_runs, ==, 0);
  call_clear (&a);

  call_start (&a, &tab_tool, service, "{\"browserId\": \"b1\", \"label\": \"A\", \"extra\": 1}");
  g_assert_cmpstr (tw_test_result_error_code (json_node_get_object (a.outcome.result)), ==,
                   "browser_invalid_argument");
  g_assert_cmpuint (service->n_runs, ==, 0);
  call_clear (&a);
}

/* Without a service (the stdio bridge before the app runs) a command fails
 * with browser_no_host. */
static void
test_no_service (void)
{
  Call a;

  call_start (&a, &tab_tool, NULL, "{\"browserId\": \"b1\", \"label\": \"A\"}");
  g_assert_true (a.outcome.done);
  g_assert_cmpstr (tw_test_result_error_code (json_node_get_object (a.outcome.result)), ==,
                   "browser_no_host");
  call_clear (&a);
}

/* A picture's MIME type comes from its first bytes. */
static void
test_image_type (void)
{
  const struct {
    const char *arguments;
    const char *mime_type;
  } cases[] = {
    { "{\"kind\": \"jpeg\"}", "image/jpeg" },
    { "{\"kind\": \"png\"}", "image/png" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Call a;
      JsonArray *content;
      JsonObject *item;

      call_start (&a, &image_tool, NULL, cases[i].arguments);
      content = json_object_get_array_member (json_node_get_object (a.outcome.result), "content");
      g_assert_cmpuint (json_array_get_length (content), ==, 1);
      item = json_array_get_object_element (content, 0);
      g_assert_cmpstr (json_object_get_string_member (item, "type"), ==, "image");
      g_assert_cmpstr (json_object_get_string_member (item, "mimeType"), ==, cases[i].mime_type);
      call_clear (&a);
    }
}

/* Structured content goes out only for tools with an output schema. */
static void
test_structured_content (void)
{
  Call a;

  call_start (&a, &text_only_tool, NULL, "{}");
  g_assert_cmpstr (tw_test_result_text (json_node_get_object (a.outcome.result)), ==, "done");
  g_assert_false (json_object_has_member (json_node_get_object (a.outcome.result), "structuredContent"));
  call_clear (&a);

  call_start (&a, &structured_tool, NULL, "{}");
  g_assert_cmpstr (tw_test_result_text (json_node_get_object (a.outcome.result)), ==, "done");
  g_assert_cmpstr (json_object_get_string_member (tw_test_result_structured (json_node_get_object (a.outcome.result)), "label"), ==, "x");
  call_clear (&a);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcp/tool-call/passes-through", test_passes_through);
  g_test_add_func ("/mcp/tool-call/one-row", test_one_row);
  g_test_add_func ("/mcp/tool-call/cancel-running", test_cancel_running);
  g_test_add_func ("/mcp/tool-call/cancelled-before-start", test_cancelled_before_start);
  g_test_add_func ("/mcp/tool-call/gave-up-then-late-answer", test_gave_up_then_late_answer);
  g_test_add_func ("/mcp/tool-call/invalid-arguments", test_invalid_arguments);
  g_test_add_func ("/mcp/tool-call/no-service", test_no_service);
  g_test_add_func ("/mcp/tool-call/image-type", test_image_type);
  g_test_add_func ("/mcp/tool-call/structured-content", test_structured_content);

  return g_test_run ();
}
