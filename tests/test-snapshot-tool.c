/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-error.h"
#include "tw-tool-call-private.h"
#include "tw-tool-registry.h"

/* The browser_snapshot tool without a display: its table row, its schema,
 * and what its handler asks of the browser service and answers, through a
 * fake service that records the command. */

#define TW_TYPE_FAKE_SERVICE (tw_fake_service_get_type ())
G_DECLARE_FINAL_TYPE (TwFakeService, tw_fake_service, TW, FAKE_SERVICE, GObject)

struct _TwFakeService
{
  GObject       parent_instance;
  TwTabCommand  command;
  char         *browser_id;
  JsonObject   *params;
  JsonObject   *reply;
  GError       *error;
  guint         n_runs;
};

static void tw_fake_service_iface_init (TwBrowserServiceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TwFakeService, tw_fake_service, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TW_TYPE_BROWSER_SERVICE,
                                                      tw_fake_service_iface_init))

static void
tw_fake_service_run_async (TwBrowserService    *service,
                           TwTabCommand         command,
                           const char          *browser_id,
                           JsonObject          *params,
                           const TwCaller      *caller,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  TwFakeService *self = TW_FAKE_SERVICE (service);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  self->n_runs++;
  self->command = command;
  g_free (self->browser_id);
  self->browser_id = g_strdup (browser_id);
  g_clear_pointer (&self->params, json_object_unref);
  self->params = json_object_ref (params);

  if (self->error != NULL)
    g_task_return_error (task, g_error_copy (self->error));
  else
    g_task_return_pointer (task, json_object_ref (self->reply), (GDestroyNotify) json_object_unref);
}

static JsonObject *
tw_fake_service_run_finish (TwBrowserService  *service,
                            GAsyncResult      *result,
                            GError           **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
tw_fake_service_iface_init (TwBrowserServiceInterface *iface)
{
  iface->run_async = tw_fake_service_run_async;
  iface->run_finish = tw_fake_service_run_finish;
}

static void
tw_fake_service_finalize (GObject *object)
{
  TwFakeService *self = TW_FAKE_SERVICE (object);

  g_free (self->browser_id);
  g_clear_pointer (&self->params, json_object_unref);
  g_clear_pointer (&self->reply, json_object_unref);
  g_clear_error (&self->error);

  G_OBJECT_CLASS (tw_fake_service_parent_class)->finalize (object);
}

static void
tw_fake_service_class_init (TwFakeServiceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_fake_service_finalize;
}

static void
tw_fake_service_init (TwFakeService *self)
{
}

static JsonObject *
object_from (const char *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);

  g_assert_nonnull (node);
  return json_object_ref (json_node_get_object (node));
}

typedef struct
{
  gboolean  done;
  JsonNode *result;
  GError   *error;
} Outcome;

static void
done_cb (TwToolCall   *call,
         JsonNode     *result,
         const GError *error,
         gpointer      user_data)
{
  Outcome *outcome = user_data;

  outcome->done = TRUE;
  outcome->result = json_node_copy (result);
  outcome->error = error ? g_error_copy (error) : NULL;
}

/* Runs browser_snapshot with @arguments against @service. */
static void
run_tool (TwFakeService *service,
          const char    *arguments,
          Outcome       *outcome)
{
  static const TwCaller caller = { "agent-1", "Test Agent" };
  const TwToolDef *def = tw_tool_registry_lookup ("browser_snapshot");
  g_autoptr(JsonObject) args = object_from (arguments);
  g_autoptr(TwToolCall) call = NULL;

  call = tw_tool_call_new (def, args, TW_BROWSER_SERVICE (service), &caller, NULL);
  tw_tool_call_set_done_func (call, done_cb, outcome, NULL);
  tw_tool_call_start (call);
  while (!outcome->done)
    g_main_context_iteration (NULL, TRUE);
}

static const char *
result_text (JsonNode *result)
{
  JsonArray *content = json_object_get_array_member (json_node_get_object (result), "content");

  g_assert_cmpuint (json_array_get_length (content), ==, 1);
  return json_object_get_string_member (json_array_get_object_element (content, 0), "text");
}

static void
test_table_row (void)
{
  const TwToolDef *def = tw_tool_registry_lookup ("browser_snapshot");
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (def);
  g_assert_true (tw_tool_registry_check (&error));
  g_assert_no_error (error);

  /* Text only: clients that prefer structuredContent would otherwise show
   * the model an escaped JSON string instead of the tree. */
  g_assert_null (def->output_schema);
  g_assert_true (def->read_only);
  g_assert_false (def->destructive);

  /* Words agents search for. */
  for (guint i = 0; i < 5; i++)
    {
      static const char * const words[] = { "Read the page", "ref", "click", "fill", "cursor" };

      g_assert_nonnull (strstr (def->description, words[i]));
    }
}

static void
test_passes_options (void)
{
  g_autoptr(TwFakeService) service = g_object_new (TW_TYPE_FAKE_SERVICE, NULL);
  Outcome outcome = { 0 };
  JsonObject *result;

  service->reply = object_from ("{\"browserId\": \"b4\", \"url\": \"http://127.0.0.1:1/\","
                                " \"title\": \"T\", \"truncated\": false,"
                                " \"text\": \"Page: T — http://127.0.0.1:1/\\n- button \\\"Go\\\" @e1\"}");
  run_tool (service, "{\"browserId\": \"b4\", \"interactive\": true, \"ref\": \"@e2\","
                     " \"maxChars\": 5000, \"cursor\": \"3:10\"}", &outcome);

  g_assert_no_error (outcome.error);
  g_assert_cmpuint (service->n_runs, ==, 1);
  g_assert_cmpint (service->command, ==, TW_TAB_COMMAND_SNAPSHOT);
  g_assert_cmpstr (service->browser_id, ==, "b4");
  g_assert_false (json_object_has_member (service->params, "browserId"));
  g_assert_true (json_object_get_boolean_member (service->params, "interactive"));
  g_assert_cmpstr (json_object_get_string_member (service->params, "ref"), ==, "@e2");
  g_assert_cmpint (json_object_get_int_member (service->params, "maxChars"), ==, 5000);
  g_assert_cmpstr (json_object_get_string_member (service->params, "cursor"), ==, "3:10");

  /* The reply is the tree as text, and nothing else. */
  result = json_node_get_object (outcome.result);
  g_assert_cmpstr (result_text (outcome.result), ==, "Page: T — http://127.0.0.1:1/\n- button \"Go\" @e1");
  g_assert_false (json_object_has_member (result, "structuredContent"));
  g_assert_false (json_object_get_boolean_member_with_default (result, "isError", FALSE));

  json_node_unref (outcome.result);
}

static void
test_omitted_options (void)
{
  g_autoptr(TwFakeService) service = g_object_new (TW_TYPE_FAKE_SERVICE, NULL);
  Outcome outcome = { 0 };

  service->reply = object_from ("{\"text\": \"Page: about:blank\\n(the page shows no content)\","
                                " \"dialogs\": [{\"type\": \"alert\", \"message\": \"Hi\"},"
                                "              {\"type\": \"confirm\", \"message\": \"Sure?\"}]}");
  run_tool (service, "{\"browserId\": \"b1\"}", &outcome);

  g_assert_no_error (outcome.error);
  g_assert_cmpuint (json_object_get_size (service->params), ==, 0);
  /* Dialogs the page opened meanwhile are reported after the tree. */
  g_assert_cmpstr (result_text (outcome.result), ==,
                   "Page: about:blank\n(the page shows no content)\n"
                   "Dialog: alert \"Hi\" (accepted)\n"
                   "Dialog: confirm \"Sure?\" (dismissed)");

  json_node_unref (outcome.result);
}

static void
test_bad_arguments (void)
{
  static const char * const bad[] = {
    "{}",
    "{\"browserId\": \"\"}",
    "{\"browserId\": \"b1\", \"maxChars\": 999}",
    "{\"browserId\": \"b1\", \"maxChars\": 200001}",
    "{\"browserId\": \"b1\", \"maxChars\": 2000.5}",
    "{\"browserId\": \"b1\", \"maxChars\": \"40000\"}",
    "{\"browserId\": \"b1\", \"interactive\": \"yes\"}",
    "{\"browserId\": \"b1\", \"ref\": 3}",
    "{\"browserId\": \"b1\", \"ref\": \"\"}",
    "{\"browserId\": \"b1\", \"cursor\": 7}",
    "{\"browserId\": \"b1\", \"depth\": 2}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(TwFakeService) service = g_object_new (TW_TYPE_FAKE_SERVICE, NULL);
      Outcome outcome = { 0 };

      service->reply = json_object_new ();
      run_tool (service, bad[i], &outcome);

      /* Refused before the tab is asked. */
      g_assert_cmpuint (service->n_runs, ==, 0);
      g_assert_error (outcome.error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT);
      g_assert_true (g_str_has_prefix (result_text (outcome.result), "browser_invalid_argument: "));

      g_clear_error (&outcome.error);
      json_node_unref (outcome.result);
    }
}

static void
test_service_error (void)
{
  g_autoptr(TwFakeService) service = g_object_new (TW_TYPE_FAKE_SERVICE, NULL);
  Outcome outcome = { 0 };
  JsonObject *structured;

  service->error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_STALE_REF,
                                "@e9 was removed from the page; take a new snapshot");
  run_tool (service, "{\"browserId\": \"b1\", \"ref\": \"@e9\"}", &outcome);

  g_assert_error (outcome.error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_STALE_REF);
  g_assert_cmpstr (result_text (outcome.result), ==,
                   "browser_stale_ref: @e9 was removed from the page; take a new snapshot");
  structured = json_object_get_object_member (json_node_get_object (outcome.result), "structuredContent");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (structured, "error"), "code"),
                   ==, "browser_stale_ref");

  g_clear_error (&outcome.error);
  json_node_unref (outcome.result);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/snapshot-tool/table-row", test_table_row);
  g_test_add_func ("/snapshot-tool/passes-options", test_passes_options);
  g_test_add_func ("/snapshot-tool/omitted-options", test_omitted_options);
  g_test_add_func ("/snapshot-tool/bad-arguments", test_bad_arguments);
  g_test_add_func ("/snapshot-tool/service-error", test_service_error);

  return g_test_run ();
}
