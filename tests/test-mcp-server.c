/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "tw-activity-log.h"
#include "tw-browser-service.h"
#include "tw-error.h"
#include "tw-json-schema.h"
#include "tw-mcp-server.h"
#include "tw-mcp-server-private.h"
#include "tw-tool-registry.h"
#include "tw-tool-registry-private.h"
#include "tw-test-util.h"

/* The MCP server end to end over real HTTP on loopback: a SoupServer in this
 * process, a SoupSession client, and a TwFakeService that plays tabs as
 * JSON objects. Real tabs are tested with WebKit elsewhere. */

#define TOKEN_A "token-a-0123456789"
#define TOKEN_B "token-b-9876543210"
/* A request every session answers at once, with an empty result. */
#define PING "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"
/* Under valgrind (TW_TEST_SLOWDOWN=20) everything takes longer. */
#define WAIT_LIMIT_MS (10000 * slowdown ())

static guint
slowdown (void)
{
  const char *factor = g_getenv ("TW_TEST_SLOWDOWN");

  return factor != NULL && atoi (factor) > 0 ? atoi (factor) : 1;
}

/* Tools that exist only in this test. */

static void
text_only_handler (TwToolCall *call)
{
  JsonObject *structured = json_object_new ();

  json_object_set_int_member (structured, "ignored", 1);
  tw_tool_call_return_text (call, "Plain words for the model.", structured);
}

static void
image_handler (TwToolCall *call)
{
  static const guint8 png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  g_autoptr(GBytes) bytes = g_bytes_new_static (png, sizeof png);
  JsonObject *structured = json_object_new ();

  json_object_set_int_member (structured, "width", 1);
  tw_tool_call_return_image (call, "A picture", bytes, structured);
}

static const TwToolDef test_tools[] = {
  TW_TEST_PROGRESS_TOOL,
  {
    .name = "test_text_only",
    .title = "Say something",
    .description = "Returns text only.",
    .input_schema = "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
    .handler = text_only_handler,
  },
  {
    .name = "test_image",
    .title = "Show a picture",
    .description = "Returns an image.",
    .input_schema = "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
    .output_schema = "{\"type\":\"object\",\"properties\":{\"width\":{\"type\":\"integer\"}}}",
    .handler = image_handler,
  },
};

/* A tool of its own offered group, for the tool-group tests. */
#define TEST_GROUP "test-extra"

static const TwToolDef test_group_tools[] = {
  {
    .name = "test_grouped",
    .title = "Say something else",
    .description = "Returns text only; offered in the test-extra group.",
    .input_schema = "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}",
    .handler = text_only_handler,
  },
};

/* Fixture. */

typedef struct
{
  TwMcpServer   *server;
  TwFakeService *service;
  TwFakeService *other_service;
  SoupSession   *session;
  char          *url;
  GPtrArray     *signals;   /* "started 1 agent-a Agent A browser_navigate {...}", "finished 1 error browser_denied" */
  char          *session_id;  /* TOKEN_A's session, when the set-up opens one */
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->service = tw_fake_service_new_tabs ();
  f->other_service = tw_fake_service_new_tabs ();
  f->signals = g_ptr_array_new_with_free_func (g_free);

  f->server = tw_mcp_server_new ();
  tw_mcp_server_start (f->server, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_mcp_server_get_port (f->server), >, 0);

  tw_mcp_server_add_client (f->server, TOKEN_A, "agent-a", "Agent A", TW_BROWSER_SERVICE (f->service));
  tw_mcp_server_add_client (f->server, TOKEN_B, "agent-b", "Agent B", TW_BROWSER_SERVICE (f->other_service));

  tw_test_record_calls (f->server, f->signals);

  f->url = tw_mcp_server_dup_url (f->server);
  g_assert_true (g_str_has_prefix (f->url, "http://127.0.0.1:"));
  g_assert_true (g_str_has_suffix (f->url, "/mcp"));

  /* Enough connections for the concurrency tests. */
  f->session = soup_session_new_with_options ("max-conns", 64, "max-conns-per-host", 32, NULL);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  soup_session_abort (f->session);
  g_clear_object (&f->session);

  tw_mcp_server_stop (f->server);
  tw_test_await_sole_ref (f->server, TW_TEST_TOOL_TIMEOUT_MS,
                          "the stopped MCP server's connections to let it go");
  g_assert_finalize_object (f->server);

  tw_test_await_sole_ref (f->service, TW_TEST_TOOL_TIMEOUT_MS,
                          "the finished calls to let the first browser service go");
  g_assert_finalize_object (f->service);
  tw_test_await_sole_ref (f->other_service, TW_TEST_TOOL_TIMEOUT_MS,
                          "the finished calls to let the second browser service go");
  g_assert_finalize_object (f->other_service);

  g_ptr_array_unref (f->signals);
  g_free (f->session_id);
  g_free (f->url);
}

/* HTTP exchanges. */

typedef struct
{
  SoupMessage  *msg;
  GCancellable *cancellable;
  GBytes       *body;
  GError       *error;
  JsonNode     *json;
  gboolean      done;
} Exchange;

static void
exchange_free (Exchange *x)
{
  g_clear_object (&x->msg);
  g_clear_object (&x->cancellable);
  g_clear_pointer (&x->body, g_bytes_unref);
  g_clear_pointer (&x->json, json_node_unref);
  g_clear_error (&x->error);
  g_free (x);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Exchange, exchange_free)

static Exchange *
exchange_new (Fixture    *f,
              const char *method,
              const char *token,
              const char *session_id,
              const char *body)
{
  Exchange *x = g_new0 (Exchange, 1);
  SoupMessageHeaders *headers;

  x->msg = soup_message_new (method, f->url);
  x->cancellable = g_cancellable_new ();
  headers = soup_message_get_request_headers (x->msg);

  soup_message_headers_replace (headers, "Accept", "application/json, text/event-stream");
  if (token != NULL)
    {
      g_autofree char *value = g_strdup_printf ("Bearer %s", token);

      soup_message_headers_replace (headers, "Authorization", value);
    }
  if (session_id != NULL)
    soup_message_headers_replace (headers, "Mcp-Session-Id", session_id);
  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (x->msg, "application/json", bytes);
    }

  return x;
}

static void
exchange_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Exchange *x = user_data;
  const char *type;

  x->body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &x->error);
  x->done = TRUE;

  type = soup_message_headers_get_content_type (soup_message_get_response_headers (x->msg), NULL);
  if (x->body != NULL && g_strcmp0 (type, "application/json") == 0)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      gsize size;
      const char *data = g_bytes_get_data (x->body, &size);

      json_parser_load_from_data (parser, data, size, &error);
      g_assert_no_error (error);
      x->json = json_node_copy (json_parser_get_root (parser));
    }
}

static void
exchange_send (Fixture  *f,
               Exchange *x)
{
  soup_session_send_and_read_async (f->session, x->msg, G_PRIORITY_DEFAULT, x->cancellable,
                                    exchange_done_cb, x);
}

static void
exchange_wait (Exchange *x)
{
  tw_test_wait_for_flag (&x->done, WAIT_LIMIT_MS, "an HTTP reply");
}

static void
exchange_run (Fixture  *f,
              Exchange *x)
{
  exchange_send (f, x);
  exchange_wait (x);
}

static Exchange *
post (Fixture    *f,
      const char *token,
      const char *session_id,
      const char *body)
{
  Exchange *x = exchange_new (f, "POST", token, session_id, body);

  exchange_run (f, x);
  g_assert_no_error (x->error);

  return x;
}

static guint
status (Exchange *x)
{
  return soup_message_get_status (x->msg);
}

static const char *
response_header (Exchange   *x,
                 const char *name)
{
  return soup_message_headers_get_one (soup_message_get_response_headers (x->msg), name);
}

static char *
body_text (Exchange *x)
{
  gsize size = 0;
  const char *data = x->body != NULL ? g_bytes_get_data (x->body, &size) : NULL;

  return g_strndup (data != NULL ? data : "", size);
}

/* JSONPath look-ups on a reply; the first match, or NULL. */
static JsonNode *
jnode (JsonNode   *root,
       const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) matches = NULL;
  JsonArray *array;

  g_assert_nonnull (root);
  matches = json_path_query (path, root, &error);
  g_assert_no_error (error);

  array = json_node_get_array (matches);
  if (json_array_get_length (array) == 0)
    return NULL;

  return json_node_copy (json_array_get_element (array, 0));
}

static char *
jstr (JsonNode   *root,
      const char *path)
{
  g_autoptr(JsonNode) node = jnode (root, path);

  if (node == NULL)
    return NULL;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));

  return json_to_string (node, FALSE);
}

/* The first match of @path, which must be there. */
static JsonNode *
jrequired (JsonNode   *root,
           const char *path)
{
  JsonNode *node = jnode (root, path);

  if (node == NULL)
    g_error ("%s is missing", path);

  return node;
}

static gint64
jint (JsonNode   *root,
      const char *path)
{
  g_autoptr(JsonNode) node = jrequired (root, path);

  return json_node_get_int (node);
}

static gboolean
jbool (JsonNode   *root,
       const char *path)
{
  g_autoptr(JsonNode) node = jrequired (root, path);

  return json_node_get_boolean (node);
}

static gboolean
jis_null (JsonNode   *root,
          const char *path)
{
  g_autoptr(JsonNode) node = jnode (root, path);

  return node != NULL && JSON_NODE_HOLDS_NULL (node);
}

/* Ends @session_id (NULL: none named) with a DELETE as @token's client;
 * returns the HTTP status of the answer. */
static guint
delete_session (Fixture    *f,
                const char *token,
                const char *session_id)
{
  g_autoptr(Exchange) x = exchange_new (f, "DELETE", token, session_id, NULL);

  exchange_run (f, x);
  return status (x);
}

static void
assert_jsonrpc_error (Exchange   *x,
                      guint       http_status,
                      int         code,
                      const char *message_prefix)
{
  g_autofree char *message = NULL;

  g_assert_cmpuint (status (x), ==, http_status);
  g_assert_nonnull (x->json);
  g_assert_cmpint (jint (x->json, "$.error.code"), ==, code);
  message = jstr (x->json, "$.error.message");
  if (!g_str_has_prefix (message, message_prefix))
    g_error ("Error message \"%s\" does not start with \"%s\"", message, message_prefix);
}

/* A client's initialize request, asking for protocol @version. */
static char *
initialize_request (const char *version)
{
  return g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\","
                          "\"params\":{\"protocolVersion\":\"%s\",\"capabilities\":{},"
                          "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}",
                          version);
}

static char *
initialize_with (Fixture    *f,
                 const char *token,
                 const char *version)
{
  g_autofree char *body = initialize_request (version);
  g_autoptr(Exchange) x = post (f, token, NULL, body);
  g_autoptr(Exchange) initialized = NULL;
  g_autofree char *session_id = NULL;

  g_assert_cmpuint (status (x), ==, 200);
  session_id = g_strdup (response_header (x, "Mcp-Session-Id"));
  g_assert_nonnull (session_id);

  initialized = post (f, token, session_id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  g_assert_cmpuint (status (initialized), ==, 202);

  return g_steal_pointer (&session_id);
}

static char *
initialize (Fixture    *f,
            const char *token)
{
  return initialize_with (f, token, "2025-11-25");
}

static char *
tool_call_body (int         id,
                const char *tool,
                const char *arguments)
{
  return g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\","
                          "\"params\":{\"name\":\"%s\",\"arguments\":%s}}",
                          id, tool, arguments);
}

static Exchange *
start_tool_call (Fixture    *f,
                 const char *session_id,
                 int         id,
                 const char *tool,
                 const char *arguments)
{
  g_autofree char *body = tool_call_body (id, tool, arguments);
  Exchange *x = exchange_new (f, "POST", TOKEN_A, session_id, body);

  exchange_send (f, x);
  return x;
}

static Exchange *
call_tool (Fixture    *f,
           const char *session_id,
           int         id,
           const char *tool,
           const char *arguments)
{
  Exchange *x = start_tool_call (f, session_id, id, tool, arguments);

  exchange_wait (x);
  g_assert_no_error (x->error);
  g_assert_cmpuint (status (x), ==, 200);
  g_assert_nonnull (x->json);
  g_assert_cmpint (jint (x->json, "$.id"), ==, id);

  return x;
}

/* Most tests speak as TOKEN_A's client in one initialised session. */
static void
fixture_setup_session (Fixture       *f,
                       gconstpointer  data)
{
  fixture_setup (f, data);
  f->session_id = initialize (f, TOKEN_A);
}

/* That session with tab b1 open, opened by its request 1. */
static void
fixture_setup_tab (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(Exchange) opened = NULL;
  g_autofree char *browser_id = NULL;

  fixture_setup_session (f, data);
  opened = call_tool (f, f->session_id, 1, "browser_new_tab", "{}");
  browser_id = jstr (opened->json, "$.result.structuredContent.browserId");
  g_assert_cmpstr (browser_id, ==, "b1");
}

/* The server still answers: every failure test ends with this. */
static void
assert_still_serving (Fixture    *f,
                      const char *session_id)
{
  g_autoptr(Exchange) x = post (f, TOKEN_A, session_id, "{\"jsonrpc\":\"2.0\",\"id\":\"alive\",\"method\":\"ping\"}");
  g_autofree char *result = NULL;

  g_assert_cmpuint (status (x), ==, 200);
  result = jstr (x->json, "$.result");
  g_assert_cmpstr (result, ==, "{}");
}

/* Checks a successful structured result: the text says what the structured
 * content says, and the structured content matches the tool's outputSchema. */
static void
assert_structured_result (Exchange   *x,
                          const char *tool,
                          const char *expected_text)
{
  g_autofree char *text = jstr (x->json, "$.result.content[0].text");
  g_autofree char *type = jstr (x->json, "$.result.content[0].type");
  g_autoptr(JsonNode) structured = jnode (x->json, "$.result.structuredContent");
  g_autoptr(JsonNode) is_error = jnode (x->json, "$.result.isError");
  g_autoptr(GError) error = NULL;
  JsonNode *schema = tw_tool_registry_get_output_schema (tw_tool_registry_lookup (tool));

  g_assert_cmpstr (type, ==, "text");
  g_assert_cmpstr (text, ==, expected_text);
  g_assert_true (is_error == NULL || !json_node_get_boolean (is_error));
  g_assert_nonnull (structured);
  g_assert_nonnull (schema);
  tw_json_schema_validate (schema, structured, &error);
  g_assert_no_error (error);
}

static void
assert_tool_error (Exchange   *x,
                   const char *code,
                   const char *text_prefix)
{
  g_autofree char *text = jstr (x->json, "$.result.content[0].text");
  g_autofree char *structured_code = jstr (x->json, "$.result.structuredContent.error.code");
  g_autofree char *prefix = g_strdup_printf ("Error: %s — %s", code, text_prefix);

  g_assert_true (jbool (x->json, "$.result.isError"));
  g_assert_cmpstr (structured_code, ==, code);
  if (!g_str_has_prefix (text, prefix))
    g_error ("Tool error text \"%s\" does not start with \"%s\"", text, prefix);
}

/* Tests. */

static void
test_initialize (Fixture       *f,
                 gconstpointer  data)
{
  const TwTestProtocolVersion *versions = tw_test_protocol_versions;
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < tw_test_n_protocol_versions; i++)
    {
      g_autofree char *body = initialize_request (versions[i].requested);
      g_autoptr(Exchange) x = post (f, TOKEN_A, NULL, body);
      g_autofree char *version = NULL;
      g_autofree char *name = NULL;
      g_autofree char *title = NULL;
      g_autofree char *server_version = NULL;
      g_autofree char *instructions = NULL;
      const char *session_id;

      g_assert_cmpuint (status (x), ==, 200);
      g_assert_cmpstr (response_header (x, "Content-Type"), ==, "application/json");

      version = jstr (x->json, "$.result.protocolVersion");
      g_assert_cmpstr (version, ==, versions[i].answered);

      name = jstr (x->json, "$.result.serverInfo.name");
      title = jstr (x->json, "$.result.serverInfo.title");
      server_version = jstr (x->json, "$.result.serverInfo.version");
      g_assert_cmpstr (name, ==, "tabwright");
      g_assert_cmpstr (title, ==, "Tabwright");
      g_assert_cmpstr (server_version, ==, PACKAGE_VERSION);
      /* Tool groups: the server tells its sessions when the list changes. */
      g_assert_true (jbool (x->json, "$.result.capabilities.tools.listChanged"));

      instructions = jstr (x->json, "$.result.instructions");
      /* What Tabwright is, where to start, and that tools act by the snapshot's refs. */
      g_assert_nonnull (strstr (instructions, "Tabwright is a web browser"));
      g_assert_nonnull (strstr (instructions, "Start with browser_new_tab"));
      g_assert_nonnull (strstr (instructions, "browser_snapshot"));
      g_assert_nonnull (strstr (instructions, "@e5"));

      session_id = response_header (x, "Mcp-Session-Id");
      g_assert_nonnull (session_id);
      g_assert_cmpuint (strlen (session_id), >=, 32);
      for (const char *p = session_id; *p != '\0'; p++)
        g_assert_true (*p >= 0x21 && *p <= 0x7e);
      g_assert_false (g_hash_table_contains (ids, session_id));
      g_hash_table_add (ids, g_strdup (session_id));
    }

  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, tw_test_n_protocol_versions);
}

static void
test_initialize_invalid (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(Exchange) x = post (f, TOKEN_A, NULL, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"initialize\",\"params\":{}}");
  g_autofree char *session_id = NULL;

  assert_jsonrpc_error (x, 200, -32602, "Invalid params: \"protocolVersion\"");
  g_assert_cmpint (jint (x->json, "$.id"), ==, 4);
  g_assert_null (response_header (x, "Mcp-Session-Id"));
  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 0);

  session_id = initialize (f, TOKEN_A);
  assert_still_serving (f, session_id);
}

static void
test_session_required (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *session_id = initialize (f, TOKEN_A);
  g_autofree char *other_session = initialize (f, TOKEN_B);
  g_autoptr(Exchange) missing = post (f, TOKEN_A, NULL, PING);
  g_autoptr(Exchange) unknown = post (f, TOKEN_A, "no-such-session", PING);
  g_autoptr(Exchange) other = post (f, TOKEN_A, other_session, PING);
  g_autoptr(Exchange) notification = post (f, TOKEN_A, NULL, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  g_autoptr(Exchange) after_delete = NULL;

  assert_jsonrpc_error (missing, 400, -32000, "Bad Request: the Mcp-Session-Id header is missing");
  g_assert_true (jis_null (missing->json, "$.id"));
  assert_jsonrpc_error (unknown, 404, -32001, "Session not found");
  /* Another token's session looks exactly like an unknown one. */
  assert_jsonrpc_error (other, 404, -32001, "Session not found");
  assert_jsonrpc_error (notification, 400, -32000, "Bad Request");

  g_assert_cmpuint (delete_session (f, TOKEN_A, NULL), ==, 400);
  g_assert_cmpuint (delete_session (f, TOKEN_A, "no-such-session"), ==, 404);
  g_assert_cmpuint (delete_session (f, TOKEN_A, other_session), ==, 404);

  g_assert_cmpuint (delete_session (f, TOKEN_A, session_id), ==, 200);
  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 1);

  after_delete = post (f, TOKEN_A, session_id, PING);
  assert_jsonrpc_error (after_delete, 404, -32001, "Session not found");

  g_assert_cmpuint (delete_session (f, TOKEN_A, session_id), ==, 404);

  g_free (session_id);
  session_id = initialize (f, TOKEN_A);
  assert_still_serving (f, session_id);
}

static void
test_protocol_version_header (Fixture       *f,
                              gconstpointer  data)
{
  const char *good[] = { "2025-11-25", "2025-06-18", "2025-03-26" };
  g_autoptr(Exchange) bad = exchange_new (f, "POST", TOKEN_A, f->session_id, PING);

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(Exchange) x = exchange_new (f, "POST", TOKEN_A, f->session_id, PING);

      soup_message_headers_replace (soup_message_get_request_headers (x->msg),
                                    "MCP-Protocol-Version", good[i]);
      exchange_run (f, x);
      g_assert_cmpuint (status (x), ==, 200);
    }

  soup_message_headers_replace (soup_message_get_request_headers (bad->msg),
                                "MCP-Protocol-Version", "2024-11-05");
  exchange_run (f, bad);
  assert_jsonrpc_error (bad, 400, -32000, "Bad Request: unsupported MCP-Protocol-Version \"2024-11-05\"");

  assert_still_serving (f, f->session_id);
}

static void
test_ping (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(Exchange) x = post (f, TOKEN_A, f->session_id, "{\"jsonrpc\":\"2.0\",\"id\":\"p-1\",\"method\":\"ping\"}");
  g_autofree char *id = jstr (x->json, "$.id");
  g_autofree char *result = jstr (x->json, "$.result");
  g_autofree char *version = jstr (x->json, "$.jsonrpc");

  g_assert_cmpuint (status (x), ==, 200);
  g_assert_cmpstr (version, ==, "2.0");
  g_assert_cmpstr (id, ==, "p-1");
  g_assert_cmpstr (result, ==, "{}");
}

static void
test_tools_list (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(Exchange) x = post (f, TOKEN_A, f->session_id,
                                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{\"cursor\":\"ignored\"}}");
  g_autoptr(JsonNode) tools_node = jnode (x->json, "$.result.tools");
  JsonArray *tools = json_node_get_array (tools_node);
  const char *expected[] = {
    "browser_list_tabs", "browser_new_tab", "browser_close_tab",
    "browser_navigate", "browser_back", "browser_forward", "browser_reload",
  };

  g_assert_cmpuint (status (x), ==, 200);
  g_assert_cmpuint (json_array_get_length (tools), ==, tw_tool_registry_get_n_tools ());

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      gboolean found = FALSE;

      for (guint j = 0; j < json_array_get_length (tools); j++)
        {
          JsonObject *tool = json_array_get_object_element (tools, j);

          if (g_str_equal (json_object_get_string_member (tool, "name"), expected[i]))
            found = TRUE;
        }

      if (!found)
        g_error ("tools/list lacks %s", expected[i]);
    }

  for (guint j = 0; j < json_array_get_length (tools); j++)
    {
      JsonObject *tool = json_array_get_object_element (tools, j);
      const TwToolDef *def = tw_tool_registry_lookup (json_object_get_string_member (tool, "name"));
      JsonObject *input = json_object_get_object_member (tool, "inputSchema");
      JsonObject *annotations = json_object_get_object_member (tool, "annotations");

      g_assert_nonnull (def);
      g_assert_cmpstr (json_object_get_string_member (tool, "title"), ==, def->title);
      g_assert_cmpstr (json_object_get_string_member (tool, "description"), ==, def->description);
      g_assert_cmpstr (json_object_get_string_member (input, "type"), ==, "object");
      g_assert_cmpint (json_object_has_member (tool, "outputSchema"), ==,
                       tw_tool_registry_get_output_schema (def) != NULL);
      if (tw_tool_registry_get_output_schema (def) != NULL)
        {
          /* Error results must validate against the announced schema too. */
          JsonObject *output = json_object_get_object_member (tool, "outputSchema");
          JsonObject *properties = json_object_get_object_member (output, "properties");

          g_assert_cmpstr (json_object_get_string_member (output, "type"), ==, "object");
          g_assert_true (json_object_has_member (properties, "error"));
          g_assert_false (json_object_has_member (output, "required"));
        }
      g_assert_cmpstr (json_object_get_string_member (annotations, "title"), ==, def->title);
      g_assert_cmpint (json_object_get_boolean_member (annotations, "readOnlyHint"), ==, def->read_only);
      g_assert_cmpint (json_object_get_boolean_member (annotations, "destructiveHint"), ==, def->destructive);
      g_assert_cmpint (json_object_get_boolean_member (annotations, "idempotentHint"), ==, def->idempotent);
      g_assert_cmpint (json_object_get_boolean_member (annotations, "openWorldHint"), ==, def->open_world);
      /* The search hint, for Claude Code's ToolSearch, is the only _meta member. */
      if (def->search_hint != NULL)
        {
          JsonObject *meta = json_object_get_object_member (tool, "_meta");

          g_assert_cmpuint (json_object_get_size (meta), ==, 1);
          g_assert_cmpstr (json_object_get_string_member (meta, "anthropic/searchHint"), ==, def->search_hint);
        }
      else
        {
          g_assert_false (json_object_has_member (tool, "_meta"));
        }
    }
}

static void
test_tools_call_structured (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(Exchange) empty_list = call_tool (f, f->session_id, 1, "browser_list_tabs", "{}");
  g_autoptr(Exchange) opened = call_tool (f, f->session_id, 2, "browser_new_tab", "{\"url\":\"http://127.0.0.1:9/a\"}");
  g_autoptr(Exchange) blank = call_tool (f, f->session_id, 3, "browser_new_tab", "{}");
  g_autoptr(Exchange) navigated = call_tool (f, f->session_id, 4, "browser_navigate",
                                             "{\"browserId\":\"b1\",\"url\":\"http://127.0.0.1:9/dialog\"}");
  g_autoptr(Exchange) reloaded = call_tool (f, f->session_id, 5, "browser_reload", "{\"browserId\":\"b1\"}");
  g_autoptr(Exchange) listed = call_tool (f, f->session_id, 6, "browser_list_tabs", "{}");
  g_autoptr(Exchange) back = call_tool (f, f->session_id, 7, "browser_back", "{\"browserId\":\"b1\"}");
  g_autoptr(Exchange) closed = call_tool (f, f->session_id, 8, "browser_close_tab", "{\"browserId\":\"b2\"}");
  g_autoptr(Exchange) gone = call_tool (f, f->session_id, 9, "browser_navigate",
                                        "{\"browserId\":\"b2\",\"url\":\"http://127.0.0.1:9/\"}");
  g_autofree char *browser_id = jstr (opened->json, "$.result.structuredContent.browserId");
  g_autofree char *url = jstr (navigated->json, "$.result.structuredContent.url");
  g_autofree char *dialog = jstr (navigated->json, "$.result.structuredContent.dialogs[0].message");
  g_autofree char *owner = jstr (listed->json, "$.result.structuredContent.tabs[0].owner");

  assert_structured_result (empty_list, "browser_list_tabs", "No tabs open.");
  assert_structured_result (opened, "browser_new_tab", "Opened a new tab.\nbrowserId: b1\nurl: http://127.0.0.1:9/a\n"
                            "title: \"Page A\"\nstatus: 200");
  g_assert_cmpstr (browser_id, ==, "b1");
  g_assert_cmpint (jint (opened->json, "$.result.structuredContent.status"), ==, 200);
  assert_structured_result (blank, "browser_new_tab", "Opened a new tab.\nbrowserId: b2\nurl: about:blank\n"
                            "title: (none)\nstatus: none (no HTTP response)");
  assert_structured_result (navigated, "browser_navigate",
                            "Navigated to the page.\nbrowserId: b1\nurl: http://127.0.0.1:9/dialog\n"
                            "title: \"Page DIALOG\"\nstatus: 200\n"
                            "Dialog: alert \"Hello\" (accepted)");
  g_assert_cmpstr (url, ==, "http://127.0.0.1:9/dialog");
  g_assert_cmpstr (dialog, ==, "Hello");
  assert_structured_result (reloaded, "browser_reload",
                            "Reloaded the page.\nbrowserId: b1\nurl: http://127.0.0.1:9/dialog\n"
                            "title: \"Page DIALOG\"\nstatus: 200\n"
                            "Dialog: alert \"Hello\" (accepted)");
  g_assert_cmpstr (owner, ==, "Agent A");
  assert_tool_error (back, "browser_denied", "There is no earlier page in b1");
  assert_structured_result (closed, "browser_close_tab", "Closed the tab; its browserId no longer works.\nbrowserId: b2");
  g_assert_true (jbool (closed->json, "$.result.structuredContent.closed"));
  assert_tool_error (gone, "browser_not_found", "No tab b2");

  /* A count, then each tab on one labelled line; the fake service lists
   * them in hash order. */
  {
    g_autofree char *text = jstr (listed->json, "$.result.content[0].text");
    g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

    g_assert_cmpuint (g_strv_length (lines), ==, 3);
    g_assert_cmpstr (lines[0], ==, "2 open tabs:");
    g_assert_true (g_strv_contains ((const char * const *) lines,
                                    "- browserId: b1, url: http://127.0.0.1:9/dialog, "
                                    "title: \"Page DIALOG\", owner: Agent A"));
    g_assert_true (g_strv_contains ((const char * const *) lines,
                                    "- browserId: b2, url: about:blank, title: (none), owner: Agent A"));
  }

  /* The service saw who called. */
  g_assert_cmpstr (f->service->agent_id, ==, "agent-a");
  g_assert_cmpstr (f->service->agent_name, ==, "Agent A");
  g_assert_cmpuint (f->other_service->log->len, ==, 0);
}

static void
test_tools_call_content_kinds (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(Exchange) text = call_tool (f, f->session_id, 1, "test_text_only", "{}");
  g_autoptr(Exchange) image = call_tool (f, f->session_id, 2, "test_image", "{}");
  g_autoptr(JsonNode) structured = jnode (text->json, "$.result.structuredContent");
  g_autofree char *plain = jstr (text->json, "$.result.content[0].text");
  g_autofree char *image_type = jstr (image->json, "$.result.content[1].type");
  g_autofree char *image_data = jstr (image->json, "$.result.content[1].data");
  g_autofree char *mime = jstr (image->json, "$.result.content[1].mimeType");
  g_autofree char *caption = jstr (image->json, "$.result.content[0].text");
  gsize decoded_len = 0;
  g_autofree guchar *decoded = NULL;

  /* Text-only tools never send structuredContent. */
  g_assert_null (structured);
  g_assert_cmpstr (plain, ==, "Plain words for the model.");

  g_assert_cmpstr (caption, ==, "A picture");
  g_assert_cmpstr (image_type, ==, "image");
  g_assert_cmpstr (mime, ==, "image/png");
  decoded = g_base64_decode (image_data, &decoded_len);
  g_assert_cmpuint (decoded_len, ==, 8);
  g_assert_cmpmem (decoded, 4, "\x89PNG", 4);
  g_assert_cmpint (jint (image->json, "$.result.structuredContent.width"), ==, 1);
}

static void
test_unknown_tool (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(Exchange) unknown = post (f, TOKEN_A, f->session_id,
                                      "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"browser_fly\",\"arguments\":{}}}");
  g_autoptr(Exchange) no_name = post (f, TOKEN_A, f->session_id,
                                      "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"arguments\":{}}}");
  g_autoptr(Exchange) no_params = post (f, TOKEN_A, f->session_id,
                                        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\"}");
  g_autofree char *message = jstr (unknown->json, "$.error.message");

  assert_jsonrpc_error (unknown, 200, -32602, "Unknown tool: browser_fly");
  g_assert_cmpstr (message, ==, "Unknown tool: browser_fly");
  g_assert_cmpint (jint (unknown->json, "$.id"), ==, 3);
  assert_jsonrpc_error (no_name, 200, -32602, "Invalid params: \"name\"");
  assert_jsonrpc_error (no_params, 200, -32602, "Invalid params: \"name\"");

  /* No call ran, so the activity feed saw nothing. */
  g_assert_cmpuint (f->signals->len, ==, 0);
  assert_still_serving (f, f->session_id);
}

static void
test_invalid_arguments (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(Exchange) wrong_type = call_tool (f, f->session_id, 1, "browser_navigate", "{\"browserId\":\"b1\",\"url\":5}");
  g_autoptr(Exchange) missing = call_tool (f, f->session_id, 2, "browser_navigate", "{\"url\":\"http://a/\"}");
  g_autoptr(Exchange) unknown = call_tool (f, f->session_id, 3, "browser_close_tab", "{\"browserId\":\"b1\",\"force\":true}");
  g_autoptr(Exchange) empty_id = call_tool (f, f->session_id, 4, "browser_reload", "{\"browserId\":\"\"}");
  g_autoptr(Exchange) not_object = call_tool (f, f->session_id, 5, "browser_reload", "[\"b1\"]");
  g_autoptr(Exchange) absent = post (f, TOKEN_A, f->session_id,
                                     "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"browser_list_tabs\"}}");
  /* Every string has a bound, whether its schema states one or not. */
  g_autofree char *long_path = g_strnfill (1024 * 1024, 'a');
  g_autofree char *long_args = g_strdup_printf ("{\"browserId\":\"b1\",\"url\":\"http://a/%s\"}", long_path);
  g_autoptr(Exchange) too_long = call_tool (f, f->session_id, 7, "browser_navigate", long_args);

  assert_tool_error (wrong_type, "browser_invalid_argument", "\"url\" must be a string");
  assert_tool_error (missing, "browser_invalid_argument", "missing required argument \"browserId\"");
  assert_tool_error (unknown, "browser_invalid_argument", "unknown argument \"force\"");
  assert_tool_error (empty_id, "browser_invalid_argument", "\"browserId\" must not be empty");
  assert_tool_error (not_object, "browser_invalid_argument", "arguments must be an object");
  assert_tool_error (too_long, "browser_invalid_argument", "\"url\" must be at most 10000 characters long");
  g_assert_false (jbool (wrong_type->json, "$.result.structuredContent.error.retryable"));

  /* Omitted arguments are an empty object. */
  assert_structured_result (absent, "browser_list_tabs", "No tabs open.");

  /* Only the valid call reached the service. */
  g_assert_cmpuint (f->service->log->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (f->service->log, 0), ==, "start - list_tabs");
  assert_still_serving (f, f->session_id);
}

static void
test_non_http_url (Fixture       *f,
                   gconstpointer  data)
{
  const char *urls[] = {
    "file:///etc/passwd",
    "javascript:alert(1)",
    "data:text/html,<b>x</b>",
    "about:config",
    "ftp://127.0.0.1/",
    "example.com",
    "http://",
    "view-source:http://127.0.0.1/",
  };

  for (guint i = 0; i < G_N_ELEMENTS (urls); i++)
    {
      g_autofree char *arguments = g_strdup_printf ("{\"browserId\":\"b1\",\"url\":\"%s\"}", urls[i]);
      g_autofree char *new_tab_arguments = g_strdup_printf ("{\"url\":\"%s\"}", urls[i]);
      g_autoptr(Exchange) navigate = call_tool (f, f->session_id, 10 + i, "browser_navigate", arguments);
      g_autoptr(Exchange) new_tab = call_tool (f, f->session_id, 100 + i, "browser_new_tab", new_tab_arguments);

      assert_tool_error (navigate, "browser_denied", "Only http and https URLs are allowed");
      assert_tool_error (new_tab, "browser_denied", "Only http and https URLs are allowed");
    }

  /* None of them reached the tab. */
  g_assert_cmpuint (f->service->log->len, ==, 2);
  assert_still_serving (f, f->session_id);
}

static void
test_protocol_errors (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(Exchange) malformed = post (f, TOKEN_A, f->session_id, "{\"jsonrpc\":\"2.0\",\"id\":1,");
  g_autoptr(Exchange) batch = post (f, TOKEN_A, f->session_id, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
  g_autoptr(Exchange) invalid = post (f, TOKEN_A, f->session_id, "{\"id\":1,\"method\":\"ping\"}");
  g_autoptr(Exchange) unknown = post (f, TOKEN_A, f->session_id, "{\"jsonrpc\":\"2.0\",\"id\":\"u\",\"method\":\"resources/list\"}");
  g_autoptr(Exchange) empty = post (f, TOKEN_A, f->session_id, "");
  g_autoptr(Exchange) notification = post (f, TOKEN_A, f->session_id, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\"}");
  g_autoptr(Exchange) response = post (f, TOKEN_A, f->session_id, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
  g_autofree char *unknown_id = jstr (unknown->json, "$.id");

  assert_jsonrpc_error (malformed, 400, -32700, "Parse error");
  g_assert_true (jis_null (malformed->json, "$.id"));
  assert_jsonrpc_error (batch, 400, -32600, "Batch requests are not supported");
  assert_jsonrpc_error (invalid, 400, -32600, "Invalid Request");
  assert_jsonrpc_error (unknown, 200, -32601, "Method not found: resources/list");
  g_assert_cmpstr (unknown_id, ==, "u");
  assert_jsonrpc_error (empty, 400, -32700, "Parse error");

  /* Notifications and responses are accepted without a body. */
  g_assert_cmpuint (status (notification), ==, 202);
  g_assert_cmpuint (g_bytes_get_size (notification->body), ==, 0);
  g_assert_cmpuint (status (response), ==, 202);
  g_assert_cmpuint (g_bytes_get_size (response->body), ==, 0);

  assert_still_serving (f, f->session_id);
}

static void
test_content_type (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(Exchange) x = exchange_new (f, "POST", TOKEN_A, f->session_id, NULL);
  g_autoptr(GBytes) body = g_bytes_new_static (PING, strlen (PING));
  g_autoptr(Exchange) charset = exchange_new (f, "POST", TOKEN_A, f->session_id, NULL);

  soup_message_set_request_body_from_bytes (x->msg, "text/plain", body);
  exchange_run (f, x);
  assert_jsonrpc_error (x, 415, -32000, "Unsupported Media Type");

  soup_message_set_request_body_from_bytes (charset->msg, "application/json; charset=utf-8", body);
  exchange_run (f, charset);
  g_assert_cmpuint (status (charset), ==, 200);

  assert_still_serving (f, f->session_id);
}

/* A TCP connection to the server on loopback, for a client that speaks
 * HTTP by hand; its reads and writes give up after @timeout_s seconds
 * (0: never). */
static GSocketConnection *
raw_connect (guint16 port,
             guint   timeout_s)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GError) error = NULL;
  GSocketConnection *connection;

  g_socket_client_set_timeout (client, timeout_s);
  connection = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, &error);
  g_assert_no_error (error);

  return connection;
}

/* Reads one HTTP reply from @input: its headers and Content-Length body,
 * a byte at a time, so nothing of a next reply is read. */
static char *
read_one_reply (GInputStream  *input,
                GError       **error)
{
  GString *reply = g_string_new (NULL);
  gssize wanted = -1;
  char byte;

  while (wanted < 0 || (gssize) reply->len < wanted)
    {
      if (g_input_stream_read (input, &byte, 1, NULL, error) != 1)
        break;
      g_string_append_c (reply, byte);
      if (wanted < 0 && g_str_has_suffix (reply->str, "\r\n\r\n"))
        {
          const char *length = strstr (reply->str, "Content-Length: ");

          wanted = reply->len + (length ? atoi (length + 16) : 0);
        }
    }

  return g_string_free (reply, FALSE);
}

/* The head of a raw HTTP/1.1 POST to the server on @port in @session_id,
 * for a JSON body of @length bytes; @extra are more header lines, each
 * ending in CRLF. */
static char *
raw_post_head (guint16     port,
               const char *session_id,
               gsize       length,
               const char *extra)
{
  return g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
                          "Authorization: Bearer " TOKEN_A "\r\n"
                          "Mcp-Session-Id: %s\r\n"
                          "Content-Type: application/json\r\n"
                          "Content-Length: %zu\r\n%s\r\n",
                          port, session_id, length, extra);
}

typedef struct
{
  guint16  port;
  char    *request;
  char    *reply;
  gboolean done;
} RawExchange;

/* Blocking socket I/O in a thread, while the main thread serves. Writes
 * @request, then reads one response. */
static void
raw_exchange_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  RawExchange *raw = task_data;
  g_autoptr(GSocketConnection) connection = raw_connect (raw->port, 10);
  g_autoptr(GError) error = NULL;

  g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                             raw->request, strlen (raw->request), NULL, NULL, &error);
  g_assert_no_error (error);

  raw->reply = read_one_reply (g_io_stream_get_input_stream (G_IO_STREAM (connection)), &error);
  g_assert_no_error (error);
  g_task_return_boolean (task, TRUE);
}

/* Runs @func with @data in a thread of its own, as a client apart from the
 * main loop the server runs in; sets *@done when it returns. */
static void
client_thread_done_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  *(gboolean *) user_data = TRUE;
}

static void
start_client_thread (GTaskThreadFunc  func,
                     gpointer         data,
                     gboolean        *done)
{
  g_autoptr(GTask) task = g_task_new (NULL, NULL, client_thread_done_cb, done);

  g_task_set_task_data (task, data, NULL);
  g_task_run_in_thread (task, func);
}

static char *
raw_exchange (Fixture    *f,
              const char *request)
{
  RawExchange raw = { tw_mcp_server_get_port (f->server), (char *) request, NULL, FALSE };

  start_client_thread (raw_exchange_thread, &raw, &raw.done);
  tw_test_wait_for_flag (&raw.done, WAIT_LIMIT_MS, "a raw HTTP reply");

  return raw.reply;
}

static GBytes *
big_body (gsize size)
{
  char *data = g_malloc (size);

  /* Valid JSON if it were ever read whole: a long string. */
  memset (data, 'x', size);
  data[0] = '"';
  data[size - 1] = '"';

  return g_bytes_new_take (data, size);
}

static void
test_body_too_large (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GBytes) ten_mb = big_body (10 * 1024 * 1024);
  g_autoptr(Exchange) sized = exchange_new (f, "POST", TOKEN_A, f->session_id, NULL);
  g_autoptr(Exchange) chunked = exchange_new (f, "POST", TOKEN_A, f->session_id, NULL);
  g_autoptr(Exchange) at_limit = exchange_new (f, "POST", TOKEN_A, f->session_id, NULL);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GBytes) four_mb = big_body (TW_MCP_MAX_BODY_SIZE);

  /* Content-Length says 10 MB: refused from the headers. */
  soup_message_set_request_body_from_bytes (sized->msg, "application/json", ten_mb);
  exchange_run (f, sized);
  g_assert_no_error (sized->error);
  assert_jsonrpc_error (sized, 413, -32000, "Payload Too Large");

  /* No length given (chunked): refused once the count passes 4 MiB. */
  stream = g_memory_input_stream_new_from_bytes (ten_mb);
  soup_message_set_request_body (chunked->msg, "application/json", stream, -1);
  exchange_run (f, chunked);
  g_assert_no_error (chunked->error);
  assert_jsonrpc_error (chunked, 413, -32000, "Payload Too Large");

  /* A client that waits for 100 Continue is refused before sending the
   * body at all. (Spoken by hand: libsoup's own client does not cope with
   * a final answer to Expect.) */
  {
    g_autofree char *request = raw_post_head (tw_mcp_server_get_port (f->server), f->session_id,
                                              10 * 1024 * 1024, "Expect: 100-continue\r\n");
    g_autofree char *reply = raw_exchange (f, request);

    if (!g_str_has_prefix (reply, "HTTP/1.1 413 "))
      g_error ("Expected 413, got: %s", reply);
    g_assert_nonnull (strstr (reply, "Payload Too Large"));
  }

  /* Exactly 4 MiB is read; it is a JSON string, not a message. */
  soup_message_set_request_body_from_bytes (at_limit->msg, "application/json", four_mb);
  exchange_run (f, at_limit);
  assert_jsonrpc_error (at_limit, 400, -32600, "Invalid Request");

  assert_still_serving (f, f->session_id);
}

static void
test_auth (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(Exchange) missing = post (f, NULL, f->session_id, PING);
  g_autoptr(Exchange) wrong = post (f, "token-a-012345678", f->session_id, PING);
  g_autoptr(Exchange) basic = exchange_new (f, "POST", NULL, f->session_id, PING);

  assert_jsonrpc_error (missing, 401, -32000, "Unauthorized");
  g_assert_cmpstr (response_header (missing, "WWW-Authenticate"), ==, "Bearer");
  g_assert_true (jis_null (missing->json, "$.id"));
  assert_jsonrpc_error (wrong, 401, -32000, "Unauthorized");
  g_assert_cmpstr (response_header (wrong, "WWW-Authenticate"), ==, "Bearer");

  soup_message_headers_replace (soup_message_get_request_headers (basic->msg),
                                "Authorization", "Basic dXNlcjpwYXNz");
  exchange_run (f, basic);
  assert_jsonrpc_error (basic, 401, -32000, "Unauthorized");

  assert_still_serving (f, f->session_id);
}

static Exchange *
post_with_header (Fixture    *f,
                  const char *token,
                  const char *session_id,
                  const char *name,
                  const char *value)
{
  Exchange *x = exchange_new (f, "POST", token, session_id, PING);

  soup_message_headers_replace (soup_message_get_request_headers (x->msg), name, value);
  exchange_run (f, x);
  g_assert_no_error (x->error);

  return x;
}

static void
test_origin_and_host (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *localhost = g_strdup_printf ("localhost:%u", tw_mcp_server_get_port (f->server));
  g_autofree char *ipv6 = g_strdup_printf ("[::1]:%u", tw_mcp_server_get_port (f->server));
  g_autofree char *evil_host = g_strdup_printf ("evil.example:%u", tw_mcp_server_get_port (f->server));
  g_autoptr(Exchange) foreign_origin = post_with_header (f, TOKEN_A, f->session_id, "Origin", "https://evil.example");
  g_autoptr(Exchange) null_origin = post_with_header (f, TOKEN_A, f->session_id, "Origin", "null");
  g_autoptr(Exchange) local_origin = post_with_header (f, TOKEN_A, f->session_id, "Origin", "http://localhost:5173");
  g_autoptr(Exchange) foreign_host = post_with_header (f, TOKEN_A, f->session_id, "Host", evil_host);
  g_autoptr(Exchange) wrong_port = post_with_header (f, TOKEN_A, f->session_id, "Host", "127.0.0.1:1");
  g_autoptr(Exchange) localhost_host = post_with_header (f, TOKEN_A, f->session_id, "Host", localhost);
  g_autoptr(Exchange) ipv6_host = post_with_header (f, TOKEN_A, f->session_id, "Host", ipv6);
  /* Host is checked before the token, Origin before the token too: a
   * rebinding page learns nothing about tokens. */
  g_autoptr(Exchange) foreign_host_no_token = post_with_header (f, NULL, f->session_id, "Host", evil_host);
  g_autoptr(Exchange) foreign_origin_no_token = post_with_header (f, NULL, f->session_id, "Origin", "http://evil.example");

  assert_jsonrpc_error (foreign_origin, 403, -32000, "Forbidden");
  assert_jsonrpc_error (null_origin, 403, -32000, "Forbidden");
  g_assert_cmpuint (status (local_origin), ==, 200);
  assert_jsonrpc_error (foreign_host, 403, -32000, "Forbidden: the Host header");
  assert_jsonrpc_error (wrong_port, 403, -32000, "Forbidden: the Host header");
  g_assert_cmpuint (status (localhost_host), ==, 200);
  g_assert_cmpuint (status (ipv6_host), ==, 200);
  assert_jsonrpc_error (foreign_host_no_token, 403, -32000, "Forbidden: the Host header");
  assert_jsonrpc_error (foreign_origin_no_token, 403, -32000, "Forbidden");
  g_assert_null (response_header (foreign_origin_no_token, "WWW-Authenticate"));

  assert_still_serving (f, f->session_id);
}

static void
test_methods_and_paths (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(Exchange) get = exchange_new (f, "GET", TOKEN_A, f->session_id, NULL);
  g_autoptr(Exchange) put = exchange_new (f, "PUT", TOKEN_A, f->session_id, "{}");
  g_autoptr(Exchange) other_path = exchange_new (f, "POST", TOKEN_A, f->session_id, PING);
  g_autoptr(GUri) uri = NULL;
  g_autofree char *other_url = g_strdup_printf ("http://127.0.0.1:%u/mcp/extra", tw_mcp_server_get_port (f->server));

  /* A GET that does not accept an event stream cannot have one. */
  soup_message_headers_replace (soup_message_get_request_headers (get->msg), "Accept",
                                "application/json");
  exchange_run (f, get);
  assert_jsonrpc_error (get, 406, -32000, "Not Acceptable");

  exchange_run (f, put);
  assert_jsonrpc_error (put, 405, -32000, "Method Not Allowed");
  g_assert_cmpstr (response_header (put, "Allow"), ==, "GET, POST, DELETE");

  uri = g_uri_parse (other_url, G_URI_FLAGS_NONE, NULL);
  soup_message_set_uri (other_path->msg, uri);
  exchange_run (f, other_path);
  assert_jsonrpc_error (other_path, 404, -32000, "Not Found");

  assert_still_serving (f, f->session_id);
}

static guint
count_started (Fixture *f)
{
  guint n = 0;

  for (guint i = 0; i < f->signals->len; i++)
    n += g_str_has_prefix (g_ptr_array_index (f->signals, i), "started ");
  return n;
}

typedef struct
{
  Fixture *f;
  guint    n;
} StartedQuery;

static gboolean
started_reached (gpointer data)
{
  StartedQuery *query = data;

  return count_started (query->f) >= query->n;
}

/* Starts a call and waits until the server has taken it in, so that calls
 * started one after the other reach it in that order. */
static Exchange *
start_tool_call_in_order (Fixture    *f,
                          const char *session_id,
                          int         id,
                          const char *tool,
                          const char *arguments)
{
  StartedQuery query = { f, count_started (f) + 1 };
  Exchange *x = start_tool_call (f, session_id, id, tool, arguments);

  tw_test_wait_until (started_reached, &query, WAIT_LIMIT_MS, "the server to start the call");
  return x;
}

static void
test_calls_in_order (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *session_id = initialize (f, TOKEN_A);
  g_autofree char *other_session = initialize (f, TOKEN_A);
  g_autoptr(Exchange) one = call_tool (f, session_id, 1, "browser_new_tab", "{}");
  g_autoptr(Exchange) two = call_tool (f, session_id, 2, "browser_new_tab", "{}");
  GPtrArray *log = f->service->log;
  Exchange *calls[4];

  g_ptr_array_set_size (log, 0);

  /* Three calls on b1 from two sessions, slow first, and one on b2 issued
   * while b1 is busy. */
  calls[0] = start_tool_call_in_order (f, session_id, 10, "browser_navigate",
                                       "{\"browserId\":\"b1\",\"url\":\"http://127.0.0.1:9/first?ms=600\"}");
  calls[1] = start_tool_call_in_order (f, session_id, 11, "browser_navigate",
                                       "{\"browserId\":\"b2\",\"url\":\"http://127.0.0.1:9/other?ms=50\"}");
  calls[2] = start_tool_call_in_order (f, other_session, 12, "browser_navigate",
                                       "{\"browserId\":\"b1\",\"url\":\"http://127.0.0.1:9/second\"}");
  calls[3] = start_tool_call_in_order (f, session_id, 13, "browser_reload", "{\"browserId\":\"b1\"}");

  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    exchange_wait (calls[i]);

  for (guint i = 0; i < log->len; i++)
    g_test_message ("service: %s", (char *) g_ptr_array_index (log, i));

  /* The commands reach the service in the order the calls came, from
   * either session, at once: keeping one tab's commands in order is the
   * tab's own queue's business (test-browser's same-tab-in-order). */
  g_assert_cmpint (tw_test_log_index (log, "start b1 navigate http://127.0.0.1:9/first?ms=600"), <,
                   tw_test_log_index (log, "start b2 navigate http://127.0.0.1:9/other?ms=50"));
  g_assert_cmpint (tw_test_log_index (log, "start b2 navigate http://127.0.0.1:9/other?ms=50"), <,
                   tw_test_log_index (log, "start b1 navigate http://127.0.0.1:9/second"));
  g_assert_cmpint (tw_test_log_index (log, "start b1 navigate http://127.0.0.1:9/second"), <,
                   tw_test_log_index (log, "start b1 reload"));
  g_assert_cmpint (tw_test_log_index (log, "start b1 reload"), <,
                   tw_test_log_index (log, "end b1 navigate http://127.0.0.1:9/first?ms=600"));

  /* b2 did not wait for b1. */
  g_assert_cmpint (tw_test_log_index (log, "end b2 navigate http://127.0.0.1:9/other?ms=50"), <,
                   tw_test_log_index (log, "end b1 navigate http://127.0.0.1:9/first?ms=600"));

  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      g_assert_cmpuint (status (calls[i]), ==, 200);
      g_assert_null (jnode (calls[i]->json, "$.result.isError"));
      exchange_free (calls[i]);
    }

  assert_structured_result (one, "browser_new_tab",
                            "Opened a new tab.\nbrowserId: b1\nurl: about:blank\n"
                            "title: (none)\nstatus: none (no HTTP response)");
  assert_structured_result (two, "browser_new_tab",
                            "Opened a new tab.\nbrowserId: b2\nurl: about:blank\n"
                            "title: (none)\nstatus: none (no HTTP response)");
}

typedef struct
{
  TwFakeService *service;
  const char    *entry;
} LogQuery;

static gboolean
log_has_entry (gpointer data)
{
  LogQuery *query = data;

  return tw_test_log_contains (query->service->log, query->entry);
}

static void
wait_for_log (TwFakeService *service,
              const char    *entry)
{
  LogQuery query = { service, entry };
  g_autofree char *what = g_strdup_printf ("\"%s\" in the service log", entry);

  tw_test_wait_until (log_has_entry, &query, WAIT_LIMIT_MS, what);
}

/* A tab command that never ends by itself: browser_navigate to /hang. */
#define HANG_URL "http://127.0.0.1:9/hang"

/* Starts browser_navigate to HANG_URL on b1 as request @id of @session_id
 * and waits until the tab runs it. */
static Exchange *
start_hanging_call (Fixture    *f,
                    const char *session_id,
                    int         id)
{
  Exchange *x = start_tool_call (f, session_id, id, "browser_navigate",
                                 "{\"browserId\":\"b1\",\"url\":\"" HANG_URL "\"}");

  wait_for_log (f->service, "start b1 navigate " HANG_URL);
  return x;
}

/* The client's notifications/cancelled for request @id. */
static Exchange *
cancel_request (Fixture    *f,
                const char *session_id,
                int         id)
{
  g_autofree char *body = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                                           "\"params\":{\"requestId\":%d}}", id);

  return post (f, TOKEN_A, session_id, body);
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(Exchange) hanging = start_hanging_call (f, f->session_id, 5);
  g_autoptr(Exchange) queued = NULL;
  g_autoptr(Exchange) cancel_queued = NULL;
  g_autoptr(Exchange) cancel = NULL;
  g_autoptr(Exchange) cancel_unknown = NULL;


  /* Two calls in flight; cancelling one ends it at once and leaves the
   * other running. (A command cancelled while it waits in a tab's queue
   * never runs: the tab's business, test-browser's cancel-queued.) */
  queued = start_tool_call (f, f->session_id, 6, "browser_navigate",
                            "{\"browserId\":\"b1\",\"url\":\"" HANG_URL "?second\"}");
  wait_for_log (f->service, "start b1 navigate " HANG_URL "?second");
  g_assert_false (queued->done);

  cancel_queued = post (f, TOKEN_A, f->session_id,
                        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":6,\"reason\":\"changed my mind\"}}");
  g_assert_cmpuint (status (cancel_queued), ==, 202);
  exchange_wait (queued);
  assert_jsonrpc_error (queued, 200, -32800, "Request cancelled");
  g_assert_cmpint (jint (queued->json, "$.id"), ==, 6);
  wait_for_log (f->service, "cancelled b1 navigate " HANG_URL "?second");
  g_assert_false (hanging->done);

  cancel = cancel_request (f, f->session_id, 5);
  g_assert_cmpuint (status (cancel), ==, 202);
  exchange_wait (hanging);
  assert_jsonrpc_error (hanging, 200, -32800, "Request cancelled");
  g_assert_cmpint (jint (hanging->json, "$.id"), ==, 5);

  /* The service saw the cancellable of each command fire. */
  wait_for_log (f->service, "cancelled b1 navigate " HANG_URL);

  /* Cancelling what is not running is not an error. */
  cancel_unknown = cancel_request (f, f->session_id, 99);
  g_assert_cmpuint (status (cancel_unknown), ==, 202);

  g_assert_true (tw_test_log_contains (f->signals, "finished 2 error cancelled"));
  g_assert_true (tw_test_log_contains (f->signals, "finished 3 error cancelled"));
  assert_still_serving (f, f->session_id);

  /* The tab works again. */
  {
    g_autoptr(Exchange) after = call_tool (f, f->session_id, 7, "browser_reload", "{\"browserId\":\"b1\"}");

    g_assert_null (jnode (after->json, "$.result.isError"));
  }
}

static void
test_signals (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(Exchange) opened = call_tool (f, f->session_id, 1, "browser_new_tab", "{\"url\":\"http://127.0.0.1:9/a\"}");
  g_autoptr(Exchange) denied = call_tool (f, f->session_id, 2, "browser_navigate", "{\"browserId\":\"b1\",\"url\":\"file:///x\"}");
  g_autoptr(Exchange) invalid = call_tool (f, f->session_id, 3, "browser_back", "{}");
  g_autoptr(Exchange) hanging = start_hanging_call (f, f->session_id, 4);
  g_autoptr(Exchange) cancel = NULL;
  const char *expected[] = {
    "started 1 agent-a Agent A browser_new_tab {\"url\":\"http://127.0.0.1:9/a\"}",
    "finished 1 ok -",
    "started 2 agent-a Agent A browser_navigate {\"browserId\":\"b1\",\"url\":\"file:///x\"}",
    "finished 2 error browser_denied",
    "started 3 agent-a Agent A browser_back {}",
    "finished 3 error browser_invalid_argument",
    "started 4 agent-a Agent A browser_navigate {\"browserId\":\"b1\",\"url\":\"http://127.0.0.1:9/hang\"}",
    "finished 4 error cancelled",
  };

  cancel = cancel_request (f, f->session_id, 4);
  exchange_wait (hanging);

  g_assert_cmpuint (f->signals->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpstr (g_ptr_array_index (f->signals, i), ==, expected[i]);
}

static void
test_client_disconnect (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(Exchange) hanging = start_hanging_call (f, f->session_id, 2);

  /* The client gives up and closes the connection. */
  g_cancellable_cancel (hanging->cancellable);
  exchange_wait (hanging);
  g_assert_error (hanging->error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  wait_for_log (f->service, "cancelled b1 navigate " HANG_URL);
  g_assert_true (tw_test_log_contains (f->signals, "finished 2 error cancelled"));

  assert_still_serving (f, f->session_id);
}

static void
test_late_result_dropped (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(Exchange) slow = start_tool_call (f, f->session_id, 2, "browser_navigate",
                                              "{\"browserId\":\"b1\",\"url\":\"http://127.0.0.1:9/ignore-cancel?ms=300\"}");
  g_autoptr(Exchange) next = NULL;
  GPtrArray *log = f->service->log;

  wait_for_log (f->service, "start b1 navigate http://127.0.0.1:9/ignore-cancel?ms=300");

  /* The client goes away; this service does not notice cancellation and
   * delivers its result later, to nobody. */
  g_cancellable_cancel (slow->cancellable);
  exchange_wait (slow);
  g_assert_true (tw_test_log_contains (f->signals, "finished 2 error cancelled"));
  g_assert_false (tw_test_log_contains (log, "end b1 navigate http://127.0.0.1:9/ignore-cancel?ms=300"));

  /* The next call is answered; the late result, when it comes, goes to
   * nobody. */
  next = call_tool (f, f->session_id, 3, "browser_reload", "{\"browserId\":\"b1\"}");
  g_assert_null (jnode (next->json, "$.result.isError"));
  wait_for_log (f->service, "end b1 navigate http://127.0.0.1:9/ignore-cancel?ms=300");
  g_assert_true (tw_test_log_contains (f->signals, "finished 2 error cancelled"));
  g_assert_false (tw_test_log_contains (f->signals, "finished 2 ok -"));

  assert_still_serving (f, f->session_id);
}

static void
test_revoke (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *other_session = initialize (f, TOKEN_B);
  g_autoptr(Exchange) hanging = start_hanging_call (f, f->session_id, 2);
  g_autoptr(Exchange) after = NULL;
  g_autoptr(Exchange) reinit = NULL;
  g_autoptr(Exchange) other = NULL;

  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 2);

  tw_mcp_server_remove_client (f->server, TOKEN_A);

  /* The call in flight is cancelled and its request answered. */
  exchange_wait (hanging);
  assert_jsonrpc_error (hanging, 200, -32800, "Request cancelled");
  wait_for_log (f->service, "cancelled b1 navigate " HANG_URL);
  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 1);

  after = post (f, TOKEN_A, f->session_id, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
  assert_jsonrpc_error (after, 401, -32000, "Unauthorized");
  reinit = post (f, TOKEN_A, NULL, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\"}}");
  assert_jsonrpc_error (reinit, 401, -32000, "Unauthorized");

  /* Other tokens are unaffected. */
  other = post (f, TOKEN_B, other_session, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}");
  g_assert_cmpuint (status (other), ==, 200);
}

typedef struct
{
  char *event;
  char *data;
} SseEvent;

static void
sse_event_free (SseEvent *event)
{
  g_free (event->event);
  g_free (event->data);
  g_free (event);
}

static GPtrArray *
parse_sse (const char *text)
{
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify) sse_event_free);
  g_auto(GStrv) blocks = g_strsplit (text, "\n\n", -1);

  for (guint i = 0; blocks[i] != NULL; i++)
    {
      g_auto(GStrv) lines = g_strsplit (blocks[i], "\n", -1);
      SseEvent *event;

      if (blocks[i][0] == '\0')
        continue;

      event = g_new0 (SseEvent, 1);
      for (guint j = 0; lines[j] != NULL; j++)
        {
          if (g_str_has_prefix (lines[j], "event: "))
            event->event = g_strdup (lines[j] + 7);
          else if (g_str_has_prefix (lines[j], "data: "))
            event->data = g_strdup (lines[j] + 6);
        }
      g_ptr_array_add (events, event);
    }

  return events;
}

/* Tool groups. */

static gboolean
list_has_tool (Fixture    *f,
               const char *token,
               const char *session_id,
               const char *name,
               guint      *n_tools)
{
  g_autoptr(Exchange) x = post (f, token, session_id,
                                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
  g_autoptr(JsonNode) tools_node = jnode (x->json, "$.result.tools");
  JsonArray *tools = json_node_get_array (tools_node);
  gboolean found = FALSE;

  g_assert_cmpuint (status (x), ==, 200);
  for (guint i = 0; i < json_array_get_length (tools); i++)
    {
      JsonObject *tool = json_array_get_object_element (tools, i);

      if (g_str_equal (json_object_get_string_member (tool, "name"), name))
        found = TRUE;
    }

  if (n_tools != NULL)
    *n_tools = json_array_get_length (tools);
  return found;
}

static void
test_tool_groups_list (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *session_a = initialize (f, TOKEN_A);
  g_autofree char *session_b = initialize (f, TOKEN_B);
  const char *core_only[] = { "core", NULL };
  const char *none[] = { NULL };
  guint n_all = 0;
  guint n_core = 0;
  guint n_none = 0;
  guint n_other = 0;

  g_assert_true (tw_tool_registry_has_group ("core"));
  g_assert_true (tw_tool_registry_has_group (TEST_GROUP));
  g_assert_false (tw_tool_registry_has_group ("no-such-group"));
  g_assert_cmpstr (tw_tool_registry_get_group_name (0), ==, "core");
  g_assert_cmpstr (tw_tool_registry_get_group (tw_tool_registry_lookup ("browser_click")), ==, "core");
  g_assert_cmpuint (tw_tool_registry_get_group_n_tools (TEST_GROUP), ==, 1);

  /* Every group is offered by a service that does not choose. */
  g_assert_true (list_has_tool (f, TOKEN_A, session_a, "test_grouped", &n_all));
  g_assert_cmpuint (n_all, ==, tw_tool_registry_get_n_tools ());

  tw_fake_service_set_tool_groups (f->service, core_only);
  g_assert_false (list_has_tool (f, TOKEN_A, session_a, "test_grouped", &n_core));
  g_assert_true (list_has_tool (f, TOKEN_A, session_a, "browser_click", NULL));
  /* Everything but core's tools and the test tools of no group is left out. */
  for (guint i = 0; i < tw_tool_registry_get_n_groups (); i++)
    if (!g_str_equal (tw_tool_registry_get_group_name (i), "core"))
      n_other += tw_tool_registry_get_group_n_tools (tw_tool_registry_get_group_name (i));
  g_assert_cmpuint (n_other, >=, 1);
  g_assert_cmpuint (n_core, ==, n_all - n_other);
  /* Another workspace keeps its own choice. */
  g_assert_true (list_has_tool (f, TOKEN_B, session_b, "test_grouped", NULL));

  /* No group: only the test tools that belong to none are left. */
  tw_fake_service_set_tool_groups (f->service, none);
  g_assert_false (list_has_tool (f, TOKEN_A, session_a, "browser_list_tabs", &n_none));
  g_assert_cmpuint (n_none, ==, n_all - tw_tool_registry_get_group_n_tools ("core") - n_other);

  tw_fake_service_set_tool_groups (f->service, NULL);
  g_assert_true (list_has_tool (f, TOKEN_A, session_a, "test_grouped", NULL));
}

static void
test_tool_groups_disabled (Fixture       *f,
                           gconstpointer  data)
{
  const char *extra_only[] = { TEST_GROUP, NULL };
  g_autoptr(Exchange) off = NULL;
  g_autoptr(Exchange) on = NULL;
  g_autofree char *text = NULL;
  g_autofree char *message = NULL;
  guint started = f->service->log->len;

  tw_fake_service_set_tool_groups (f->service, extra_only);

  off = call_tool (f, f->session_id, 3, "browser_new_tab", "{\"url\":\"http://example.test/\"}");
  assert_tool_error (off, "browser_disabled", "browser_new_tab belongs to the \"core\" tools");
  text = jstr (off->json, "$.result.content[0].text");
  message = jstr (off->json, "$.result.structuredContent.error.message");
  g_assert_true (g_str_has_prefix (text, "Error: browser_disabled — "));
  g_assert_nonnull (strstr (message, "browser_new_tab belongs to the \"core\" tools"));
  g_assert_false (jbool (off->json, "$.result.structuredContent.error.retryable"));
  /* Turned away before it reached the tabs. */
  g_assert_cmpuint (f->service->log->len, ==, started);

  /* Bad arguments to a tool that is off still say browser_disabled: the
   * group decides first. */
  {
    g_autoptr(Exchange) bad = call_tool (f, f->session_id, 4, "browser_click", "{\"nonsense\":1}");

    assert_tool_error (bad, "browser_disabled", "browser_click belongs to");
  }

  on = call_tool (f, f->session_id, 5, "test_grouped", "{}");
  {
    g_autofree char *on_text = jstr (on->json, "$.result.content[0].text");

    g_assert_cmpstr (on_text, ==, "Plain words for the model.");
  }

  tw_fake_service_set_tool_groups (f->service, NULL);
  {
    g_autoptr(Exchange) again = call_tool (f, f->session_id, 6, "browser_new_tab",
                                           "{\"url\":\"http://example.test/\"}");
    g_autofree char *browser_id = jstr (again->json, "$.result.structuredContent.browserId");

    g_assert_nonnull (browser_id);
    g_assert_cmpuint (f->service->log->len, >, started);
  }
  assert_still_serving (f, f->session_id);
}

/* A GET stream read as it arrives. */
typedef struct
{
  SoupMessage  *msg;
  GInputStream *stream;
  GString      *data;
  GError       *error;
  char          buffer[4096];
  gboolean      waiting;
  gboolean      eof;
} Stream;

static void
stream_free (Stream *st)
{
  g_clear_object (&st->stream);
  g_clear_object (&st->msg);
  g_string_free (st->data, TRUE);
  g_clear_error (&st->error);
  g_free (st);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Stream, stream_free)

static void
stream_sent_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Stream *st = user_data;

  st->stream = soup_session_send_finish (SOUP_SESSION (object), result, &st->error);
  st->waiting = FALSE;
}

static void
stream_read_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Stream *st = user_data;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &st->error);

  if (n > 0)
    g_string_append_len (st->data, st->buffer, n);
  else
    st->eof = TRUE;
  st->waiting = FALSE;
}

static Stream *
stream_open (Fixture    *f,
             const char *token,
             const char *session_id)
{
  Stream *st = g_new0 (Stream, 1);
  g_autofree char *auth = g_strdup_printf ("Bearer %s", token);
  SoupMessageHeaders *headers;

  st->data = g_string_new (NULL);
  st->msg = soup_message_new ("GET", f->url);
  headers = soup_message_get_request_headers (st->msg);
  soup_message_headers_replace (headers, "Accept", "text/event-stream");
  soup_message_headers_replace (headers, "Authorization", auth);
  soup_message_headers_replace (headers, "Mcp-Session-Id", session_id);

  st->waiting = TRUE;
  soup_session_send_async (f->session, st->msg, G_PRIORITY_DEFAULT, NULL, stream_sent_cb, st);
  while (st->waiting)
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (st->error);

  return st;
}

/* The data of the next event, or NULL at the end of the stream. */
static char *
stream_next_event (Stream *st)
{
  for (;;)
    {
      const char *end = strstr (st->data->str, "\n\n");

      if (end != NULL)
        {
          g_autofree char *event = g_strndup (st->data->str, end - st->data->str);
          const char *data = strstr (event, "data: ");

          g_string_erase (st->data, 0, end - st->data->str + 2);
          g_assert_true (g_str_has_prefix (event, "event: message\n"));
          g_assert_nonnull (data);
          return g_strdup (data + strlen ("data: "));
        }

      if (st->eof)
        return NULL;

      st->waiting = TRUE;
      g_input_stream_read_async (st->stream, st->buffer, sizeof st->buffer, G_PRIORITY_DEFAULT,
                                 NULL, stream_read_cb, st);
      while (st->waiting)
        g_main_context_iteration (NULL, TRUE);
      g_assert_no_error (st->error);
    }
}

static void
test_tool_groups_list_changed (Fixture       *f,
                               gconstpointer  data)
{
  g_autofree char *session_id = initialize (f, TOKEN_A);
  g_autofree char *other_session = initialize (f, TOKEN_A);
  g_autoptr(Stream) stream = stream_open (f, TOKEN_A, session_id);
  g_autoptr(Stream) other = stream_open (f, TOKEN_A, other_session);
  const char *core_only[] = { "core", NULL };
  g_autofree char *event = NULL;
  g_autofree char *other_event = NULL;
  g_autoptr(JsonNode) message = NULL;
  g_autofree char *method = NULL;

  g_assert_cmpuint (soup_message_get_status (stream->msg), ==, 200);
  g_assert_cmpstr (soup_message_headers_get_content_type (soup_message_get_response_headers (stream->msg), NULL),
                   ==, "text/event-stream");

  /* Every session of the workspace hears of it, and the list says so. */
  tw_fake_service_set_tool_groups (f->service, core_only);
  event = stream_next_event (stream);
  other_event = stream_next_event (other);
  g_assert_nonnull (event);
  message = tw_test_parse_json (event);
  method = jstr (message, "$.method");
  g_assert_cmpstr (method, ==, "notifications/tools/list_changed");
  g_assert_false (json_object_has_member (json_node_get_object (message), "id"));
  g_assert_cmpstr (other_event, ==, event);
  g_assert_false (list_has_tool (f, TOKEN_A, session_id, "test_grouped", NULL));

  tw_fake_service_set_tool_groups (f->service, NULL);
  g_free (event);
  event = stream_next_event (stream);
  g_assert_nonnull (strstr (event, "notifications/tools/list_changed"));
  g_assert_true (list_has_tool (f, TOKEN_A, session_id, "test_grouped", NULL));

  /* Ending the session ends its stream. */
  g_assert_cmpuint (delete_session (f, TOKEN_A, session_id), ==, 200);
  g_assert_null (stream_next_event (stream));

  /* A stream needs a live session of its own token. */
  {
    g_autoptr(Exchange) stale = exchange_new (f, "GET", TOKEN_A, session_id, NULL);
    g_autoptr(Exchange) foreign = exchange_new (f, "GET", TOKEN_B, other_session, NULL);

    soup_message_headers_replace (soup_message_get_request_headers (stale->msg), "Accept",
                                  "text/event-stream");
    soup_message_headers_replace (soup_message_get_request_headers (foreign->msg), "Accept",
                                  "text/event-stream");
    exchange_run (f, stale);
    exchange_run (f, foreign);
    assert_jsonrpc_error (stale, 404, -32001, "Session not found");
    assert_jsonrpc_error (foreign, 404, -32001, "Session not found");
  }

  assert_still_serving (f, other_session);
}

static void
test_progress_sse (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(Exchange) x = post (f, TOKEN_A, f->session_id,
                                "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\","
                                "\"params\":{\"name\":\"test_progress\",\"arguments\":{},\"_meta\":{\"progressToken\":\"p-1\"}}}");
  g_autoptr(Exchange) plain = call_tool (f, f->session_id, 10, "test_progress", "{}");
  g_autofree char *text = body_text (x);
  g_autoptr(GPtrArray) events = parse_sse (text);

  g_assert_cmpuint (status (x), ==, 200);
  g_assert_cmpstr (soup_message_headers_get_content_type (soup_message_get_response_headers (x->msg), NULL),
                   ==, "text/event-stream");
  g_assert_cmpuint (events->len, ==, 3);

  for (guint i = 0; i < 2; i++)
    {
      SseEvent *event = g_ptr_array_index (events, i);
      g_autoptr(JsonNode) message = tw_test_parse_json (event->data);
      g_autofree char *method = jstr (message, "$.method");
      g_autofree char *token = jstr (message, "$.params.progressToken");
      g_autofree char *note = jstr (message, "$.params.message");
      g_autofree char *expected_note = g_strdup_printf ("Step %u", i + 1);
      g_autoptr(JsonNode) progress = jnode (message, "$.params.progress");
      g_autoptr(JsonNode) total = jnode (message, "$.params.total");

      g_assert_cmpstr (event->event, ==, "message");
      g_assert_cmpstr (method, ==, "notifications/progress");
      g_assert_cmpstr (token, ==, "p-1");
      g_assert_cmpfloat (json_node_get_double (progress), ==, i + 1);
      g_assert_cmpfloat (json_node_get_double (total), ==, 3);
      g_assert_cmpstr (note, ==, expected_note);
    }

  {
    SseEvent *event = g_ptr_array_index (events, 2);
    g_autoptr(JsonNode) message = tw_test_parse_json (event->data);
    g_autofree char *result_text = jstr (message, "$.result.content[0].text");

    g_assert_cmpint (jint (message, "$.id"), ==, 9);
    g_assert_cmpstr (result_text, ==, "Finished in 3 steps");
  }

  /* A call that fails at once still answers on the stream it asked for. */
  {
    g_autoptr(Exchange) denied = post (f, TOKEN_A, f->session_id,
                                       "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\","
                                       "\"params\":{\"name\":\"browser_navigate\",\"arguments\":{\"browserId\":\"b1\",\"url\":\"file:///\"},"
                                       "\"_meta\":{\"progressToken\":7}}}");
    g_autofree char *denied_text = body_text (denied);
    g_autoptr(GPtrArray) denied_events = parse_sse (denied_text);
    g_autoptr(JsonNode) message = NULL;
    g_autofree char *code = NULL;

    g_assert_cmpstr (soup_message_headers_get_content_type (soup_message_get_response_headers (denied->msg), NULL),
                     ==, "text/event-stream");
    g_assert_cmpuint (denied_events->len, ==, 1);
    message = tw_test_parse_json (((SseEvent *) g_ptr_array_index (denied_events, 0))->data);
    code = jstr (message, "$.result.structuredContent.error.code");
    g_assert_cmpint (jint (message, "$.id"), ==, 11);
    g_assert_cmpstr (code, ==, "browser_denied");
  }

  /* Without a progress token the same tool answers with plain JSON. */
  g_assert_cmpstr (soup_message_headers_get_content_type (soup_message_get_response_headers (plain->msg), NULL),
                   ==, "application/json");
  {
    g_autofree char *plain_text = jstr (plain->json, "$.result.content[0].text");

    g_assert_cmpstr (plain_text, ==, "Finished in 3 steps");
  }

  assert_still_serving (f, f->session_id);
}

static gboolean
one_session_left (gpointer data)
{
  return tw_mcp_server_get_n_sessions (data) == 1;
}

static void
test_session_expiry (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *idle_session = initialize (f, TOKEN_A);
  g_autoptr(Exchange) hanging = start_hanging_call (f, f->session_id, 2);
  g_autoptr(Exchange) expired = NULL;
  g_autoptr(Exchange) cancel = NULL;

  /* Shorten the idle time only now, so nothing expires while the test is
   * still setting up, however slowly it runs. */
  tw_mcp_server_set_session_limits (f->server, 100, 64);
  tw_test_wait_until (one_session_left, f->server, TW_TEST_TOOL_TIMEOUT_MS,
                      "the idle session to expire");

  /* The idle session is gone; the one with a call in flight is not. */
  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 1);
  expired = post (f, TOKEN_A, idle_session, PING);
  assert_jsonrpc_error (expired, 404, -32001, "Session not found");

  cancel = cancel_request (f, f->session_id, 2);
  g_assert_cmpuint (status (cancel), ==, 202);
  exchange_wait (hanging);
}

static void
test_session_limit (Fixture       *f,
                    gconstpointer  data)
{
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *third = NULL;
  g_autofree char *other = NULL;
  g_autoptr(Exchange) x = NULL;

  tw_mcp_server_set_session_limits (f->server, 60 * 1000, 2);
  first = initialize (f, TOKEN_A);
  second = initialize (f, TOKEN_A);
  other = initialize (f, TOKEN_B);

  /* Use the first again so the second is now the least recently used. */
  assert_still_serving (f, first);
  third = initialize (f, TOKEN_A);

  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 3);
  x = post (f, TOKEN_A, second, PING);
  assert_jsonrpc_error (x, 404, -32001, "Session not found");
  assert_still_serving (f, first);
  assert_still_serving (f, third);

  /* Another token's sessions do not count against this one's. */
  {
    g_autoptr(Exchange) y = post (f, TOKEN_B, other, PING);

    g_assert_cmpuint (status (y), ==, 200);
  }
}

static void
test_duplicate_request_id (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(Exchange) hanging = start_hanging_call (f, f->session_id, 2);
  g_autoptr(Exchange) duplicate = NULL;
  g_autoptr(Exchange) cancel = NULL;

  duplicate = call_tool (f, f->session_id, 2, "browser_reload", "{\"browserId\":\"b1\"}");
  assert_jsonrpc_error (duplicate, 200, -32600, "Invalid Request: a request with this id");

  cancel = cancel_request (f, f->session_id, 2);
  exchange_wait (hanging);
  assert_jsonrpc_error (hanging, 200, -32800, "Request cancelled");
}

static void
test_stop_with_calls_in_flight (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(Exchange) hanging = start_hanging_call (f, f->session_id, 2);


  /* Stopping ends the session and cancels the call; nothing waits on it. */
  tw_mcp_server_stop (f->server);
  wait_for_log (f->service, "cancelled b1 navigate " HANG_URL);
  exchange_wait (hanging);
  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 0);
  g_assert_cmpuint (tw_mcp_server_get_port (f->server), ==, 0);
}

/* Hostile bodies over HTTP: nesting that once overflowed the stack and JSON
 * that json-glib alone reads leniently. Each is a parse error; nothing runs. */
static void
test_hostile_json (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GString) deep = g_string_new ("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"a\":");
  const char *lenient[] = {
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}",
    "{'jsonrpc':'2.0','id':3,'method':'ping'}",
    "{\"jsonrpc\":\"2.0\",/**/\"id\":3,\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":0x3,\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":03,\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\\u0000x\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"browser_close_tab\","
    "\"arguments\":{\"browserId\":\"b1\\u0000x\"}}}",
  };

  for (guint i = 0; i < 1000000; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 1000000; i++)
    g_string_append_c (deep, ']');
  g_string_append (deep, "}}");

  {
    g_autoptr(Exchange) x = post (f, TOKEN_A, f->session_id, deep->str);

    assert_jsonrpc_error (x, 400, -32700, "Parse error: arrays and objects nest deeper than");
  }

  for (guint i = 0; i < G_N_ELEMENTS (lenient); i++)
    {
      g_autoptr(Exchange) x = post (f, TOKEN_A, f->session_id, lenient[i]);

      assert_jsonrpc_error (x, 400, -32700, "Parse error: ");
      g_assert_true (jis_null (x->json, "$.id"));
    }

  /* Only the new tab reached the service: b1 is still open. */
  g_assert_cmpuint (f->service->log->len, ==, 2);
  g_assert_true (g_hash_table_contains (f->service->tabs, "b1"));
  assert_still_serving (f, f->session_id);
}

/* Schema-violating arguments, made from every tool's own inputSchema: a
 * valid argument set is built from the schema, then broken one rule at a
 * time. Each must fail with browser_invalid_argument, and none may reach the
 * service. */

static JsonNode *valid_instance (JsonObject *schema,
                                 const char *name);

static gboolean
schema_allows (JsonObject *schema,
               const char *type)
{
  JsonNode *node = json_object_get_member (schema, "type");

  if (node == NULL)
    return TRUE;
  if (JSON_NODE_HOLDS_VALUE (node))
    return g_str_equal (json_node_get_string (node), type) ||
           (g_str_equal (type, "integer") && g_str_equal (json_node_get_string (node), "number"));

  for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
    {
      const char *allowed = json_array_get_string_element (json_node_get_array (node), i);

      if (g_str_equal (allowed, type) || (g_str_equal (type, "integer") && g_str_equal (allowed, "number")))
        return TRUE;
    }
  return FALSE;
}

static const char *
first_type (JsonObject *schema)
{
  JsonNode *node = json_object_get_member (schema, "type");

  if (node == NULL)
    return "string";
  if (JSON_NODE_HOLDS_VALUE (node))
    return json_node_get_string (node);
  return json_array_get_string_element (json_node_get_array (node), 0);
}

static JsonNode *
valid_instance (JsonObject *schema,
                const char *name)
{
  const char *type = first_type (schema);
  JsonNode *node;

  if (json_object_has_member (schema, "enum"))
    return json_node_copy (json_array_get_element (json_object_get_array_member (schema, "enum"), 0));

  if (g_str_equal (type, "object"))
    {
      JsonObject *object = json_object_new ();
      JsonObject *properties = json_object_has_member (schema, "properties")
                               ? json_object_get_object_member (schema, "properties") : NULL;
      JsonArray *required = json_object_has_member (schema, "required")
                            ? json_object_get_array_member (schema, "required") : NULL;

      for (guint i = 0; required != NULL && i < json_array_get_length (required); i++)
        {
          const char *member = json_array_get_string_element (required, i);

          json_object_set_member (object, member,
                                  valid_instance (json_object_get_object_member (properties, member), member));
        }
      node = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (node, object);
      return node;
    }

  if (g_str_equal (type, "array"))
    {
      JsonArray *array = json_array_new ();
      gint64 min = json_object_has_member (schema, "minItems") ? json_object_get_int_member (schema, "minItems") : 0;

      for (gint64 i = 0; i < min; i++)
        json_array_add_element (array, valid_instance (json_object_get_object_member (schema, "items"), name));
      node = json_node_new (JSON_NODE_ARRAY);
      json_node_take_array (node, array);
      return node;
    }

  node = json_node_new (JSON_NODE_VALUE);
  if (g_str_equal (type, "boolean"))
    json_node_set_boolean (node, TRUE);
  else if (g_str_equal (type, "integer") || g_str_equal (type, "number"))
    {
      double minimum = json_object_has_member (schema, "minimum")
                       ? json_object_get_double_member (schema, "minimum") : 1;
      gint64 value = (gint64) minimum;

      json_node_set_int (node, (double) value < minimum ? value + 1 : value);
    }
  else if (g_str_equal (type, "null"))
    json_node_init_null (node);
  else if (g_strcmp0 (name, "url") == 0)
    json_node_set_string (node, "http://127.0.0.1:9/page");
  else
    json_node_set_string (node, "b1");

  return node;
}

typedef struct
{
  GPtrArray *arguments;  /* JSON text */
  GPtrArray *why;
} Violations;

static void
add_violation (Violations *v,
               JsonObject *arguments,
               const char *format,
               ...) G_GNUC_PRINTF (3, 4);

static void
add_violation (Violations *v,
               JsonObject *arguments,
               const char *format,
               ...)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  va_list args;

  json_node_set_object (node, arguments);
  g_ptr_array_add (v->arguments, json_to_string (node, FALSE));
  va_start (args, format);
  g_ptr_array_add (v->why, g_strdup_vprintf (format, args));
  va_end (args);
}

/* Values of each JSON type, to put where the schema wants another. */
static JsonNode *
value_of_type (const char *type)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *text = g_str_equal (type, "string") ? "\"s\"" :
                     g_str_equal (type, "integer") ? "7" :
                     g_str_equal (type, "number") ? "7.5" :
                     g_str_equal (type, "boolean") ? "true" :
                     g_str_equal (type, "null") ? "null" :
                     g_str_equal (type, "array") ? "[]" : "{}";

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  return json_node_copy (json_parser_get_root (parser));
}

/* Breaks @base (valid) at member @member of @schema_object, in every way
 * the member's schema forbids. @holder is the object that holds the member
 * inside @base. */
static void
violate_member (Violations *v,
                JsonObject *base,
                JsonObject *holder,
                const char *member,
                JsonObject *schema,
                const char *path)
{
  static const char *all_types[] = { "string", "integer", "number", "boolean", "null", "array", "object" };
  g_autoptr(JsonNode) saved = json_object_has_member (holder, member)
                              ? json_node_copy (json_object_get_member (holder, member)) : NULL;

#define TRY(value, ...) G_STMT_START { \
    json_object_set_member (holder, member, (value)); \
    add_violation (v, base, __VA_ARGS__); \
} G_STMT_END

  for (guint i = 0; i < G_N_ELEMENTS (all_types); i++)
    {
      if (!schema_allows (schema, all_types[i]) &&
          !(g_str_equal (all_types[i], "number") && schema_allows (schema, "integer") && FALSE))
        TRY (value_of_type (all_types[i]), "%s: %s instead of %s", path, all_types[i], first_type (schema));
    }

  if (json_object_has_member (schema, "enum") && schema_allows (schema, "string"))
    TRY (json_node_init_string (json_node_alloc (), "not-one-of-them"), "%s: not in enum", path);

  if (json_object_has_member (schema, "minimum"))
    TRY (json_node_init_double (json_node_alloc (), json_object_get_double_member (schema, "minimum") - 1),
         "%s: below minimum", path);
  if (json_object_has_member (schema, "maximum"))
    TRY (json_node_init_double (json_node_alloc (), json_object_get_double_member (schema, "maximum") + 1),
         "%s: above maximum", path);

  if (json_object_has_member (schema, "minLength") && json_object_get_int_member (schema, "minLength") > 0)
    {
      g_autofree char *text = g_strnfill (json_object_get_int_member (schema, "minLength") - 1, 'x');

      TRY (json_node_init_string (json_node_alloc (), text), "%s: shorter than minLength", path);
    }
  if (json_object_has_member (schema, "maxLength"))
    {
      g_autofree char *text = g_strnfill (json_object_get_int_member (schema, "maxLength") + 1, 'x');

      TRY (json_node_init_string (json_node_alloc (), text), "%s: longer than maxLength", path);
    }

  if (g_str_equal (first_type (schema), "array"))
    {
      JsonObject *items = json_object_has_member (schema, "items") ? json_object_get_object_member (schema, "items") : NULL;
      gint64 min = json_object_has_member (schema, "minItems") ? json_object_get_int_member (schema, "minItems") : 0;

      if (min > 0)
        {
          JsonArray *array = json_array_new ();
          JsonNode *node = json_node_new (JSON_NODE_ARRAY);

          for (gint64 i = 0; i < min - 1; i++)
            json_array_add_element (array, valid_instance (items, member));
          json_node_take_array (node, array);
          TRY (node, "%s: fewer than minItems", path);
        }
      if (json_object_has_member (schema, "maxItems"))
        {
          JsonArray *array = json_array_new ();
          JsonNode *node = json_node_new (JSON_NODE_ARRAY);

          for (gint64 i = 0; i <= json_object_get_int_member (schema, "maxItems"); i++)
            json_array_add_element (array, valid_instance (items, member));
          json_node_take_array (node, array);
          TRY (node, "%s: more than maxItems", path);
        }
      if (items != NULL)
        {
          for (guint i = 0; i < G_N_ELEMENTS (all_types); i++)
            {
              JsonArray *array;
              JsonNode *node;

              if (schema_allows (items, all_types[i]))
                continue;
              array = json_array_new ();
              for (gint64 n = 0; n < MAX (min, 1); n++)
                json_array_add_element (array, value_of_type (all_types[i]));
              node = json_node_new (JSON_NODE_ARRAY);
              json_node_take_array (node, array);
              TRY (node, "%s[]: %s items", path, all_types[i]);
            }
        }
    }

  if (g_str_equal (first_type (schema), "object") && json_object_has_member (schema, "properties"))
    {
      JsonObject *properties = json_object_get_object_member (schema, "properties");
      g_autoptr(JsonNode) inner = valid_instance (schema, member);
      g_autoptr(GList) names = json_object_get_members (properties);
      JsonArray *required = json_object_has_member (schema, "required")
                            ? json_object_get_array_member (schema, "required") : NULL;

      json_object_set_member (holder, member, json_node_copy (inner));
      for (const GList *l = names; l != NULL; l = l->next)
        {
          g_autofree char *inner_path = g_strdup_printf ("%s.%s", path, (const char *) l->data);
          JsonObject *object = json_node_get_object (json_object_get_member (holder, member));

          violate_member (v, base, object, l->data, json_object_get_object_member (properties, l->data), inner_path);
        }
      for (guint i = 0; required != NULL && i < json_array_get_length (required); i++)
        {
          JsonObject *object = json_node_get_object (json_object_get_member (holder, member));
          const char *name = json_array_get_string_element (required, i);
          g_autoptr(JsonNode) kept = json_node_copy (json_object_get_member (object, name));

          json_object_remove_member (object, name);
          add_violation (v, base, "%s.%s: missing", path, name);
          json_object_set_member (object, name, g_steal_pointer (&kept));
        }
      if (json_object_has_member (schema, "additionalProperties") &&
          JSON_NODE_HOLDS_VALUE (json_object_get_member (schema, "additionalProperties")) &&
          !json_object_get_boolean_member (schema, "additionalProperties"))
        {
          JsonObject *object = json_node_get_object (json_object_get_member (holder, member));

          json_object_set_string_member (object, "zzUnexpected", "x");
          add_violation (v, base, "%s: extra property", path);
          json_object_remove_member (object, "zzUnexpected");
        }
    }

#undef TRY

  if (saved != NULL)
    json_object_set_member (holder, member, g_steal_pointer (&saved));
  else
    json_object_remove_member (holder, member);
}

static void
test_schema_violations (Fixture       *f,
                        gconstpointer  data)
{
  Violations v = { g_ptr_array_new_with_free_func (g_free), g_ptr_array_new_with_free_func (g_free) };
  g_autoptr(GPtrArray) tools = g_ptr_array_new ();
  int id = 100;

  for (guint t = 0; t < tw_tool_registry_get_n_tools (); t++)
    {
      const TwToolDef *def = tw_tool_registry_get_tool (t);
      JsonObject *schema = json_node_get_object (tw_tool_registry_get_input_schema (def));
      g_autoptr(JsonNode) root = json_node_new (JSON_NODE_OBJECT);
      g_autoptr(JsonNode) base_node = NULL;
      JsonObject *base;
      guint before = v.arguments->len;

      if (!g_str_has_prefix (def->name, "browser_"))
        continue;

      /* The whole arguments object is the member "arguments" of a holder. */
      base_node = valid_instance (schema, NULL);
      base = json_node_get_object (base_node);
      {
        g_autoptr(JsonObject) holder = json_object_new ();
        g_autoptr(GList) names = NULL;
        JsonObject *properties = json_object_has_member (schema, "properties")
                                 ? json_object_get_object_member (schema, "properties") : NULL;
        JsonArray *required = json_object_has_member (schema, "required")
                              ? json_object_get_array_member (schema, "required") : NULL;

        names = properties != NULL ? json_object_get_members (properties) : NULL;
        for (const GList *l = names; l != NULL; l = l->next)
          violate_member (&v, base, base, l->data, json_object_get_object_member (properties, l->data), l->data);
        for (guint i = 0; required != NULL && i < json_array_get_length (required); i++)
          {
            const char *name = json_array_get_string_element (required, i);
            g_autoptr(JsonNode) kept = json_node_copy (json_object_get_member (base, name));

            json_object_remove_member (base, name);
            add_violation (&v, base, "%s: missing", name);
            json_object_set_member (base, name, g_steal_pointer (&kept));
          }
        json_object_set_string_member (base, "zzUnexpected", "x");
        add_violation (&v, base, "extra argument");
        json_object_remove_member (base, "zzUnexpected");
      }

      for (guint i = before; i < v.arguments->len; i++)
        g_ptr_array_add (tools, (gpointer) def->name);
    }

  g_test_message ("%u schema-violating argument sets", v.arguments->len);
  g_assert_cmpuint (v.arguments->len, >, 300);

  for (guint i = 0; i < v.arguments->len; i++)
    {
      g_autoptr(Exchange) x = call_tool (f, f->session_id, id++, g_ptr_array_index (tools, i),
                                         g_ptr_array_index (v.arguments, i));
      g_autofree char *code = jstr (x->json, "$.result.structuredContent.error.code");

      if (g_strcmp0 (code, "browser_invalid_argument") != 0)
        g_error ("%s %s (%s) got %s: %s", (const char *) g_ptr_array_index (tools, i),
                 (const char *) g_ptr_array_index (v.arguments, i),
                 (const char *) g_ptr_array_index (v.why, i), code, body_text (x));
    }

  /* Nothing reached the tabs. */
  g_assert_cmpuint (f->service->log->len, ==, 0);

  g_ptr_array_unref (v.arguments);
  g_ptr_array_unref (v.why);
  assert_still_serving (f, f->session_id);
}

/* A slow client: sends its request a byte at a time, or nothing at all. */
typedef struct
{
  guint16   port;
  char     *request;   /* NULL: send nothing */
  gsize     at_once;   /* bytes of @request sent in one go first */
  guint     pace_ms;
  gint      bytes_sent;
  gboolean  closed;    /* the server closed the connection */
  gboolean  done;
} SlowClient;

static void
slow_client_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  SlowClient *slow = task_data;
  g_autoptr(GSocketConnection) connection = raw_connect (slow->port, 0);
  g_autoptr(GError) error = NULL;
  GSocket *socket = g_socket_connection_get_socket (connection);
  gsize length = slow->request != NULL ? strlen (slow->request) : 0;

  if (slow->at_once > 0)
    {
      g_assert_cmpint (g_socket_send (socket, slow->request, slow->at_once, NULL, &error), ==, slow->at_once);
      g_atomic_int_add (&slow->bytes_sent, slow->at_once);
    }

  /* The pace is the attack, not a wait for a condition: the loop ends when
   * the server closes the connection, which is what the test waits for. */
  for (gsize i = slow->at_once;; i++)
    {
      char byte;
      gssize n;

      if (g_socket_condition_timed_wait (socket, G_IO_IN, slow->pace_ms * 1000, NULL, NULL))
        {
          n = g_socket_receive (socket, &byte, 1, NULL, NULL);
          if (n <= 0)
            break;
          /* A reply: the server did not wait for the rest. */
          g_error ("The server answered a request that never finished");
        }

      if (i < length)
        {
          if (g_socket_send (socket, slow->request + i, 1, NULL, NULL) < 0)
            break;
          g_atomic_int_inc (&slow->bytes_sent);
        }
    }

  slow->closed = TRUE;
}

static gboolean
slow_client_sent_some (gpointer data)
{
  return g_atomic_int_get (&((SlowClient *) data)->bytes_sent) >= 3;
}

static void
test_slow_clients (Fixture       *f,
                   gconstpointer  data)
{
  guint16 port = tw_mcp_server_get_port (f->server);
  g_autofree char *pad = g_strnfill (100000, 'a');
  g_autofree char *headers = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nX-Pad: %s\r\n\r\n",
                                              port, pad);
  g_autofree char *body_headers = raw_post_head (port, f->session_id, 100000, "");
  g_autofree char *body = g_strdup_printf ("%s{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\","
                                           "\"params\":{\"pad\":\"%s", body_headers, pad);
  /* Headers a byte at a time; headers at once, then the body a byte at a
   * time; nothing at all. */
  SlowClient slow_headers = { port, headers, 0, 20, 0, FALSE, FALSE };
  SlowClient slow_body = { port, body, strlen (body_headers), 20, 0, FALSE, FALSE };
  SlowClient idle = { port, NULL, 0, 20, 0, FALSE, FALSE };

  tw_mcp_server_set_connection_limits (f->server, 1000, 1000, 1000);

  start_client_thread (slow_client_thread, &slow_headers, &slow_headers.done);
  start_client_thread (slow_client_thread, &slow_body, &slow_body.done);
  start_client_thread (slow_client_thread, &idle, &idle.done);
  tw_test_wait_until (slow_client_sent_some, &slow_headers, WAIT_LIMIT_MS, "the slow client to start");

  /* Other calls are answered meanwhile. */
  assert_still_serving (f, f->session_id);

  tw_test_wait_for_flag (&slow_headers.done, WAIT_LIMIT_MS, "the server to close the slow-header client");
  tw_test_wait_for_flag (&slow_body.done, WAIT_LIMIT_MS, "the server to close the slow-body client");
  tw_test_wait_for_flag (&idle.done, WAIT_LIMIT_MS, "the server to close the idle client");
  g_assert_true (slow_headers.closed && slow_body.closed && idle.closed);
  /* They were cut off, not let through: the slow body got its headers in
   * and was closed while its body trickled. */
  g_assert_cmpint (slow_headers.bytes_sent, <, (gint) strlen (headers));
  g_assert_cmpint (slow_body.bytes_sent, >=, (gint) strlen (body_headers));
  g_assert_cmpint (slow_body.bytes_sent, <, (gint) strlen (body));

  assert_still_serving (f, f->session_id);
}

/* Two requests one after the other on one connection, as clients with
 * keep-alive send them (Node's http does, and does not retry a POST on a
 * connection the server closed). Both get their answer. */
typedef struct
{
  guint16   port;
  char     *request;
  char     *replies[2];
  gboolean  done;
} KeepAlive;

static void
keep_alive_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  KeepAlive *k = task_data;
  g_autoptr(GSocketConnection) connection = raw_connect (k->port, 0);
  GOutputStream *output = g_io_stream_get_output_stream (G_IO_STREAM (connection));

  for (guint i = 0; i < 2; i++)
    {
      if (!g_output_stream_write_all (output, k->request, strlen (k->request), NULL, NULL, NULL))
        break;
      k->replies[i] = read_one_reply (g_io_stream_get_input_stream (G_IO_STREAM (connection)), NULL);
    }
}

/* PING in @session_id as a raw HTTP/1.1 request to the server on @port. */
static char *
raw_ping (guint16     port,
          const char *session_id)
{
  g_autofree char *head = raw_post_head (port, session_id, strlen (PING), "");

  return g_strconcat (head, PING, NULL);
}

static void
test_keep_alive (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *request = raw_ping (tw_mcp_server_get_port (f->server), f->session_id);
  KeepAlive k = { tw_mcp_server_get_port (f->server), request, { NULL, NULL }, FALSE };

  start_client_thread (keep_alive_thread, &k, &k.done);
  tw_test_wait_for_flag (&k.done, WAIT_LIMIT_MS, "two replies on one connection");

  for (guint i = 0; i < 2; i++)
    {
      if (k.replies[i] == NULL || !g_str_has_prefix (k.replies[i], "HTTP/1.1 200 "))
        g_error ("Reply %u on the connection: %s", i + 1, k.replies[i] ? k.replies[i] : "(none: closed)");
      g_assert_true (g_str_has_suffix (k.replies[i], "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"));
      g_free (k.replies[i]);
    }
}

/* Clients that keep their connection after a reply: one sits idle, one
 * sends the start of its next request a byte at a time without ending the
 * line, some hang up. */
typedef enum
{
  KEPT_IDLE,
  KEPT_TRICKLE,
  KEPT_HANG_UP,
} KeptMode;

typedef struct
{
  guint16   port;
  char     *request;
  KeptMode  mode;
  char     *reply;
  gboolean  closed;    /* the server closed the connection */
  gboolean  done;
} KeptClient;

static void
kept_client_thread (GTask        *task,
                    gpointer      source_object,
                    gpointer      task_data,
                    GCancellable *cancellable)
{
  static const char next[] = "POST /mcp HTTP/1.1";
  KeptClient *k = task_data;
  g_autoptr(GSocketConnection) connection = raw_connect (k->port, 0);
  GSocket *socket = g_socket_connection_get_socket (connection);

  g_assert_true (g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (connection)),
                                            k->request, strlen (k->request), NULL, NULL, NULL));
  k->reply = read_one_reply (g_io_stream_get_input_stream (G_IO_STREAM (connection)), NULL);

  if (k->mode == KEPT_HANG_UP)
    {
      g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
      return;
    }

  /* Until the server closes the connection; the pace is the client's
   * behaviour, not a wait for a condition. */
  for (gsize i = 0;; i++)
    {
      if (g_socket_condition_timed_wait (socket, G_IO_IN, 20 * 1000, NULL, NULL))
        {
          char byte;

          if (g_socket_receive (socket, &byte, 1, NULL, NULL) <= 0)
            break;
          g_error ("The server answered a request that never finished");
        }

      if (k->mode == KEPT_TRICKLE && i < strlen (next) &&
          g_socket_send (socket, next + i, 1, NULL, NULL) < 0)
        break;
    }

  k->closed = TRUE;
}

/* Connections to @port that this process holds although their client
 * closed them (TCP state CLOSE-WAIT). */
static guint
count_close_wait (guint16 port)
{
  g_autoptr(GHashTable) own = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  g_autofree char *table = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *local = g_strdup_printf (":%04X", port);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc/self/fd", name, NULL);
      g_autofree char *target = g_file_read_link (path, NULL);

      if (target != NULL && g_str_has_prefix (target, "socket:["))
        g_hash_table_add (own, g_strndup (target + 8, strlen (target) - 9));
    }

  g_assert_true (g_file_get_contents ("/proc/self/net/tcp", &table, NULL, NULL));
  lines = g_strsplit (table, "\n", -1);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      GPtrArray *cols = g_ptr_array_new ();

      for (guint j = 0; fields[j] != NULL; j++)
        if (fields[j][0] != '\0')
          g_ptr_array_add (cols, fields[j]);

      /* sl local_address rem_address st ... inode (the tenth column) */
      if (cols->len > 9 &&
          g_str_has_suffix (g_ptr_array_index (cols, 1), local) &&
          g_str_equal (g_ptr_array_index (cols, 3), "08") &&
          g_hash_table_contains (own, g_ptr_array_index (cols, 9)))
        n++;
      g_ptr_array_free (cols, TRUE);
    }

  return n;
}

typedef struct
{
  guint16 port;
} CloseWaitQuery;

static gboolean
no_close_wait (gpointer data)
{
  return count_close_wait (((CloseWaitQuery *) data)->port) == 0;
}

static void
test_idle_connections (Fixture       *f,
                       gconstpointer  data)
{
  guint16 port = tw_mcp_server_get_port (f->server);
  g_autofree char *request = raw_ping (port, f->session_id);
  g_autoptr(Exchange) long_call = NULL;
  KeptClient idle = { port, request, KEPT_IDLE, NULL, FALSE, FALSE };
  KeptClient trickle = { port, request, KEPT_TRICKLE, NULL, FALSE, FALSE };
  KeptClient hang_ups[5];
  CloseWaitQuery query = { port };

  tw_mcp_server_set_connection_limits (f->server, WAIT_LIMIT_MS, WAIT_LIMIT_MS, 300);

  /* A call that takes several times the idle limit is not cut off. */
  long_call = start_tool_call_in_order (f, f->session_id, 2, "browser_navigate",
                                        "{\"browserId\":\"b1\",\"url\":\"http://127.0.0.1:9/page?ms=1500\"}");

  start_client_thread (kept_client_thread, &idle, &idle.done);
  start_client_thread (kept_client_thread, &trickle, &trickle.done);
  for (guint i = 0; i < G_N_ELEMENTS (hang_ups); i++)
    {
      hang_ups[i] = (KeptClient) { port, request, KEPT_HANG_UP, NULL, FALSE, FALSE };
      start_client_thread (kept_client_thread, &hang_ups[i], &hang_ups[i].done);
    }

  tw_test_wait_for_flag (&idle.done, WAIT_LIMIT_MS, "the server to close the idle connection");
  tw_test_wait_for_flag (&trickle.done, WAIT_LIMIT_MS, "the server to close the trickling connection");
  for (guint i = 0; i < G_N_ELEMENTS (hang_ups); i++)
    tw_test_wait_for_flag (&hang_ups[i].done, WAIT_LIMIT_MS, "a client to hang up");

  /* Each got its first reply; the server then closed the two that stayed. */
  for (guint i = 0; i < G_N_ELEMENTS (hang_ups) + 2; i++)
    {
      KeptClient *k = i < 2 ? (i == 0 ? &idle : &trickle) : &hang_ups[i - 2];

      if (k->reply == NULL || !g_str_has_prefix (k->reply, "HTTP/1.1 200 "))
        g_error ("Client %u got %s", i, k->reply ? k->reply : "(no reply)");
      g_free (k->reply);
    }
  g_assert_true (idle.closed && trickle.closed);

  /* Connections whose clients hung up are closed, not kept. */
  tw_test_wait_until (no_close_wait, &query, WAIT_LIMIT_MS,
                      "the server to close the connections its clients closed");

  exchange_wait (long_call);
  g_assert_no_error (long_call->error);
  g_assert_cmpuint (status (long_call), ==, 200);
  {
    g_autoptr(JsonNode) failed = jnode (long_call->json, "$.result.isError");
    g_autoptr(JsonNode) content = jnode (long_call->json, "$.result.content");

    g_assert_nonnull (content);
    g_assert_true (failed == NULL || !json_node_get_boolean (failed));
  }

  assert_still_serving (f, f->session_id);
}

/* The kernel's queue of connections not yet accepted is as long as the
 * server asked for (ss shows it as the Send-Q of a listening socket). */
static void
test_listen_backlog (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *ss = g_find_program_in_path ("ss");
  g_autofree char *command = NULL;
  g_autofree char *out = NULL;
  g_autofree char *somaxconn_text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) fields = NULL;
  int status = 0;
  guint64 somaxconn;

  if (ss == NULL)
    {
      tw_test_skip_or_fail ("ss (iproute2) is not installed");
      return;
    }

  g_file_get_contents ("/proc/sys/net/core/somaxconn", &somaxconn_text, NULL, &error);
  g_assert_no_error (error);
  somaxconn = g_ascii_strtoull (somaxconn_text, NULL, 10);

  command = g_strdup_printf ("%s -Hltn 'sport = :%u'", ss, tw_mcp_server_get_port (f->server));
  g_spawn_command_line_sync (command, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_strstrip (out);
  g_test_message ("%s", out);
  fields = g_regex_split_simple ("\\s+", out, 0, 0);
  g_assert_cmpuint (g_strv_length (fields), >=, 4);
  g_assert_cmpstr (fields[0], ==, "LISTEN");
  g_assert_cmpuint (g_ascii_strtoull (fields[2], NULL, 10), ==, MIN (TW_MCP_LISTEN_BACKLOG, somaxconn));
}

/* What a failed call with a 1 MB browserId leaves in the activity log that
 * the feed shows: the log keeps a bounded amount per call, whatever the call
 * carried and whatever its error message echoed. */
static void
test_activity_log_bounded (void)
{
  g_autoptr(TwActivityLog) log = tw_activity_log_new (0);
  g_autofree char *huge = g_strnfill (1024 * 1024, 'b');
  gsize stored;

  for (guint i = 1; i <= 10; i++)
    {
      g_autoptr(JsonObject) arguments = json_object_new ();
      g_autoptr(GError) error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                                             "No tab %s in this workspace", huge);
      g_autoptr(JsonNode) result = tw_browser_error_to_tool_result (error);
      TwCaller caller = { huge, huge, i };
      TwActivityEntry *entry;

      json_object_set_string_member (arguments, "browserId", huge);
      json_object_set_string_member (arguments, "url", huge);
      json_object_set_string_member (arguments, "ref", huge);
      tw_activity_log_begin (log, &caller, "browser_navigate", arguments);
      tw_activity_log_set_target (log, i, huge, huge);
      tw_activity_log_end (log, i, result, error);

      entry = tw_activity_log_lookup (log, i);
      g_assert_nonnull (entry);
      g_assert_cmpint (tw_activity_entry_get_state (entry), ==, TW_ACTIVITY_FAILED);
      g_assert_cmpstr (tw_activity_entry_get_error_code (entry), ==, "browser_not_found");
      /* Still says what it was, cut short. */
      g_assert_true (g_str_has_prefix (tw_activity_entry_get_browser_id (entry), "bbbb"));
      g_assert_true (g_str_has_suffix (tw_activity_entry_get_browser_id (entry), "…"));
      g_assert_true (g_str_has_prefix (tw_activity_entry_get_error_message (entry), "No tab bbbb"));
    }

  stored = tw_activity_log_get_stored_bytes (log);
  g_test_message ("10 failed 1 MB calls: %" G_GSIZE_FORMAT " bytes stored", stored);
  g_assert_cmpuint (stored, <, 10 * 4096);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  tw_tool_registry_add_tools_for_testing (test_tools, G_N_ELEMENTS (test_tools));
  tw_tool_registry_add_group_for_testing (TEST_GROUP, test_group_tools,
                                          G_N_ELEMENTS (test_group_tools));

#define ADD_WITH(path, func, setup) \
  g_test_add ("/mcp/server/" path, Fixture, NULL, setup, func, fixture_teardown)
#define ADD(path, func) ADD_WITH (path, func, fixture_setup)
#define ADD_SESSION(path, func) ADD_WITH (path, func, fixture_setup_session)
#define ADD_TAB(path, func) ADD_WITH (path, func, fixture_setup_tab)

  ADD ("initialize", test_initialize);
  ADD ("initialize-invalid", test_initialize_invalid);
  ADD ("session-required", test_session_required);
  ADD_SESSION ("protocol-version-header", test_protocol_version_header);
  ADD_SESSION ("ping", test_ping);
  ADD_SESSION ("tools-list", test_tools_list);
  ADD_SESSION ("tools-call-structured", test_tools_call_structured);
  ADD_SESSION ("tools-call-content-kinds", test_tools_call_content_kinds);
  ADD_SESSION ("unknown-tool", test_unknown_tool);
  ADD_SESSION ("invalid-arguments", test_invalid_arguments);
  ADD_TAB ("non-http-url", test_non_http_url);
  ADD_SESSION ("protocol-errors", test_protocol_errors);
  ADD_SESSION ("content-type", test_content_type);
  ADD_SESSION ("body-too-large", test_body_too_large);
  ADD_SESSION ("auth", test_auth);
  ADD_SESSION ("origin-and-host", test_origin_and_host);
  ADD_SESSION ("methods-and-paths", test_methods_and_paths);
  ADD ("calls-in-order", test_calls_in_order);
  ADD_TAB ("cancel", test_cancel);
  ADD_SESSION ("signals", test_signals);
  ADD_TAB ("client-disconnect", test_client_disconnect);
  ADD_TAB ("late-result-dropped", test_late_result_dropped);
  ADD_TAB ("revoke", test_revoke);
  ADD_SESSION ("progress-sse", test_progress_sse);
  ADD ("tool-groups-list", test_tool_groups_list);
  ADD_SESSION ("tool-groups-disabled", test_tool_groups_disabled);
  ADD ("tool-groups-list-changed", test_tool_groups_list_changed);
  ADD_TAB ("session-expiry", test_session_expiry);
  ADD ("session-limit", test_session_limit);
  ADD_TAB ("duplicate-request-id", test_duplicate_request_id);
  ADD_TAB ("stop-with-calls-in-flight", test_stop_with_calls_in_flight);
  ADD_TAB ("hostile-json", test_hostile_json);
  ADD_SESSION ("schema-violations", test_schema_violations);
  ADD_SESSION ("slow-clients", test_slow_clients);
  ADD ("listen-backlog", test_listen_backlog);
  ADD_SESSION ("keep-alive", test_keep_alive);
  ADD_TAB ("idle-connections", test_idle_connections);

#undef ADD_TAB
#undef ADD_SESSION
#undef ADD
#undef ADD_WITH

  g_test_add_func ("/mcp/server/activity-log-bounded", test_activity_log_bounded);

  return g_test_run ();
}
