/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib/gstdio.h>
#include <glib-unix.h>

#include "tw-browser-service.h"
#include "tw-error.h"
#include "tw-json.h"
#include "tw-jsonrpc.h"
#include "tw-mcp-protocol.h"
#include "tw-mcp-server.h"
#include "tw-mcp-server-private.h"
#include "tw-stdio-bridge.h"
#include "tw-stdio-bridge-private.h"
#include "tw-tool-registry.h"
#include "tw-tool-registry-private.h"
#include "tw-workspace-id.h"
#include "tw-test-util.h"

/* The stdio bridge as an MCP client sees it: lines written to its input,
 * lines read from its output, and in between a real TwMcpServer on loopback
 * standing in for the app, found through a runtime file in a private
 * XDG_RUNTIME_DIR. The app's tabs are a TwFakeService's played tabs. */

#define TOKEN "bridge-test-token-0123456789"
#define OTHER_TOKEN "bridge-test-token-9876543210"
#define WAIT_LIMIT_MS 10000

static const TwToolDef test_tools[] = {
  TW_TEST_PROGRESS_TOOL,
};

/* Fixture: the bridge on two pipes, and maybe an app. */

typedef struct
{
  char             *workspace;
  TwFakeService    *service;
  TwMcpServer      *server;
  GPtrArray        *started;     /* the calls the app started and finished */

  TwStdioBridge    *bridge;
  GOutputStream    *to_bridge;
  GDataInputStream *from_bridge;
  GCancellable     *cancellable;
  GPtrArray        *messages;    /* JsonNode*, every line the bridge wrote */
  gboolean          output_closed;
  gboolean          reading;     /* a read of the bridge's output is on its way */
  gboolean          run_done;
  gboolean          run_ok;
  GError           *run_error;
} Fixture;

static void read_next (Fixture *f);

static void
read_line_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Fixture *f = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *line = NULL;
  JsonObject *message;
  gsize length = 0;

  f->reading = FALSE;
  line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (object), result,
                                               &length, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_assert_no_error (error);

  if (line == NULL)
    {
      f->output_closed = TRUE;
      return;
    }

  /* Nothing but JSON-RPC, one message per line. */
  if (!json_parser_load_from_data (parser, line, length, &error))
    g_error ("The bridge wrote a line that is not JSON: %s (%s)", line, error->message);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  message = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (message, "jsonrpc"), ==, "2.0");

  g_ptr_array_add (f->messages, json_node_copy (json_parser_get_root (parser)));
  read_next (f);
}

static void
read_next (Fixture *f)
{
  f->reading = TRUE;
  g_data_input_stream_read_line_async (f->from_bridge, G_PRIORITY_DEFAULT, f->cancellable,
                                       read_line_cb, f);
}

static void
run_done_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Fixture *f = user_data;

  f->run_ok = tw_stdio_bridge_run_finish (TW_STDIO_BRIDGE (object), result, &f->run_error);
  f->run_done = TRUE;
}

typedef gboolean (*Condition) (Fixture *f, gconstpointer data);

typedef struct
{
  Fixture       *f;
  Condition      condition;
  gconstpointer  data;
} Wait;

static gboolean
wait_is_over (gpointer data)
{
  Wait *wait = data;

  return wait->condition (wait->f, wait->data);
}

static void
wait_for (Fixture       *f,
          Condition      condition,
          gconstpointer  data,
          const char    *what)
{
  Wait wait = { f, condition, data };

  tw_test_wait_until (wait_is_over, &wait, WAIT_LIMIT_MS, what);
}

/* Whether @message has the integer id @id. */
static gboolean
has_id (JsonNode *message,
        gint64    id)
{
  JsonNode *node = json_object_get_member (json_node_get_object (message), "id");

  return tw_json_value_type (node) == G_TYPE_INT64 && json_node_get_int (node) == id;
}

static JsonNode *
find_message (Fixture *f,
              gint64   id)
{
  for (guint i = 0; i < f->messages->len; i++)
    {
      if (has_id (g_ptr_array_index (f->messages, i), id))
        return g_ptr_array_index (f->messages, i);
    }

  return NULL;
}

static int
message_index (Fixture *f,
               gint64   id)
{
  JsonNode *node = find_message (f, id);

  for (guint i = 0; i < f->messages->len; i++)
    {
      if (g_ptr_array_index (f->messages, i) == node)
        return i;
    }

  return -1;
}

static gboolean
has_message_cond (Fixture      *f,
                  gconstpointer data)
{
  return find_message (f, *(const gint64 *) data) != NULL;
}

static void
send_line (Fixture    *f,
           const char *line)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_strconcat (line, "\n", NULL);

  g_output_stream_write_all (f->to_bridge, text, strlen (text), NULL, NULL, &error);
  g_assert_no_error (error);
}

static void
G_GNUC_PRINTF (2, 3)
send_printf (Fixture    *f,
             const char *format,
             ...)
{
  g_autofree char *line = NULL;
  va_list args;

  va_start (args, format);
  line = g_strdup_vprintf (format, args);
  va_end (args);

  send_line (f, line);
}

/* Sends a browser_new_tab call without waiting for its answer. */
static void
send_new_tab (Fixture    *f,
              gint64      id,
              const char *url)
{
  send_printf (f, "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"method\":\"tools/call\","
               "\"params\":{\"name\":\"browser_new_tab\",\"arguments\":{\"url\":\"%s\"}}}",
               id, url);
}

/* Sends a request and returns the bridge's answer to it. */
static JsonObject *
request (Fixture    *f,
         gint64      id,
         const char *method,
         const char *params)
{
  g_autofree char *what = NULL;
  JsonNode *answer;

  what = g_strdup_printf ("the answer to %s (id %" G_GINT64_FORMAT ")", method, id);

  if (params != NULL)
    send_printf (f, "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ","
                 "\"method\":\"%s\",\"params\":%s}", id, method, params);
  else
    send_printf (f, "{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"method\":\"%s\"}",
                 id, method);

  wait_for (f, has_message_cond, &id, what);
  answer = find_message (f, id);

  return json_node_get_object (answer);
}

static JsonObject *
get_result (JsonObject *answer)
{
  JsonObject *error = tw_json_get_object (answer, "error");

  if (error != NULL)
    g_error ("Expected a result, got the error %s",
             json_object_get_string_member (error, "message"));

  return json_object_get_object_member (answer, "result");
}

static void
assert_error (JsonObject *answer,
              int         code)
{
  JsonObject *error = tw_json_get_object (answer, "error");

  g_assert_false (json_object_has_member (answer, "result"));
  g_assert_nonnull (error);
  g_assert_cmpint (json_object_get_int_member (error, "code"), ==, code);
}

/* Checks a browser_no_host tool result as DESIGN.md §4 describes it, and
 * returns its message. */
static const char *
assert_no_host (JsonObject *answer)
{
  JsonObject *result = get_result (answer);
  JsonObject *structured;
  JsonObject *error;
  g_autofree char *expected_text = NULL;

  g_assert_true (json_object_get_boolean_member (result, "isError"));
  structured = json_object_get_object_member (result, "structuredContent");
  error = json_object_get_object_member (structured, "error");
  g_assert_cmpstr (json_object_get_string_member (error, "code"), ==, "browser_no_host");
  g_assert_true (json_object_get_boolean_member (error, "retryable"));

  expected_text = g_strdup_printf ("Error: browser_no_host — %s\n%s",
                                   json_object_get_string_member (error, "message"),
                                   tw_browser_error_code_next_step (TW_BROWSER_ERROR_NO_HOST));
  g_assert_cmpstr (tw_test_result_text (result), ==, expected_text);

  return json_object_get_string_member (error, "message");
}

static JsonObject *
call_tool (Fixture    *f,
           gint64      id,
           const char *name,
           const char *arguments)
{
  g_autofree char *params = g_strdup_printf ("{\"name\":\"%s\",\"arguments\":%s}", name, arguments);

  return request (f, id, "tools/call", params);
}

static void
initialize (Fixture *f)
{
  JsonObject *result;

  result = get_result (request (f, 1, "initialize",
                                "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                                "\"clientInfo\":{\"name\":\"bridge-test\",\"version\":\"1\"}}"));

  g_assert_cmpstr (json_object_get_string_member (result, "protocolVersion"), ==, "2025-06-18");
  send_line (f, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
}

/* The app. */

static void
write_runtime_file (Fixture    *f,
                    const char *url,
                    const char *token,
                    gint64      pid)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = tw_workspace_id_from_path (f->workspace);
  g_autofree char *file = tw_workspace_id_dup_runtime_file (id);
  g_autofree char *dir = g_path_get_dirname (file);
  g_autofree char *contents = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "url");
  json_builder_add_string_value (builder, url);
  json_builder_set_member_name (builder, "token");
  json_builder_add_string_value (builder, token);
  json_builder_set_member_name (builder, "workspace");
  json_builder_add_string_value (builder, f->workspace);
  json_builder_set_member_name (builder, "workspaceId");
  json_builder_add_string_value (builder, id);
  json_builder_set_member_name (builder, "pid");
  json_builder_add_int_value (builder, pid);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  contents = json_generator_to_data (generator, NULL);

  g_file_set_contents_full (file, contents, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error);
  g_assert_no_error (error);
}

static void
remove_runtime_file (Fixture *f)
{
  g_autofree char *id = tw_workspace_id_from_path (f->workspace);
  g_autofree char *file = tw_workspace_id_dup_runtime_file (id);

  g_unlink (file);
}

/* Starts the app's server on a free port with @token and publishes it. */
static void
start_app (Fixture    *f,
           const char *token)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;

  g_assert_null (f->server);

  f->server = tw_mcp_server_new ();
  tw_mcp_server_add_client (f->server, token, "external", "External client",
                            TW_BROWSER_SERVICE (f->service));
  tw_test_record_calls (f->server, f->started);
  tw_mcp_server_start (f->server, 0, &error);
  g_assert_no_error (error);

  url = tw_mcp_server_dup_url (f->server);
  write_runtime_file (f, url, token, getpid ());
}

/* Stops the app the way it quits: the server goes, the runtime file too. */
static void
stop_app (Fixture *f)
{
  g_signal_handlers_disconnect_by_data (f->server, f->started);
  tw_mcp_server_stop (f->server);
  g_clear_object (&f->server);
  remove_runtime_file (f);
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) bridge_input = NULL;
  g_autoptr(GOutputStream) bridge_output = NULL;
  g_autoptr(GInputStream) output_reader = NULL;
  g_autofree char *dir = NULL;
  int to_bridge[2];
  int from_bridge[2];

  /* G_TEST_OPTION_ISOLATE_DIRS gives each test its own XDG directories, so
   * the runtime file lands in a private XDG_RUNTIME_DIR. */
  dir = g_build_filename (g_get_user_data_dir (), "my workspace", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  f->workspace = tw_workspace_id_canonicalize_path (dir, NULL, &error);
  g_assert_no_error (error);

  f->service = tw_fake_service_new_tabs ();
  f->started = g_ptr_array_new_with_free_func (g_free);
  f->messages = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  f->cancellable = g_cancellable_new ();

  g_assert_true (g_unix_open_pipe (to_bridge, FD_CLOEXEC, NULL));
  g_assert_true (g_unix_open_pipe (from_bridge, FD_CLOEXEC, NULL));
  /* The bridge's ends are non-blocking, as tabwright-mcp makes its stdin and
   * stdout: a blocking pipe would make its asynchronous write of a reply
   * larger than the pipe's buffer (tools/list) wait for this very thread. */
  g_assert_true (g_unix_set_fd_nonblocking (to_bridge[0], TRUE, NULL));
  g_assert_true (g_unix_set_fd_nonblocking (from_bridge[1], TRUE, NULL));

  bridge_input = g_unix_input_stream_new (to_bridge[0], TRUE);
  f->to_bridge = g_unix_output_stream_new (to_bridge[1], TRUE);
  bridge_output = g_unix_output_stream_new (from_bridge[1], TRUE);
  output_reader = g_unix_input_stream_new (from_bridge[0], TRUE);
  f->from_bridge = g_data_input_stream_new (output_reader);

  f->bridge = tw_stdio_bridge_new (f->workspace, bridge_input, bridge_output);
  tw_stdio_bridge_run_async (f->bridge, NULL, run_done_cb, f);
  read_next (f);
}

static gboolean
run_done_cond (Fixture      *f,
               gconstpointer data)
{
  return f->run_done;
}

static gboolean
read_done_cond (Fixture      *f,
                gconstpointer data)
{
  return !f->reading;
}

static void
close_input (Fixture *f)
{
  g_autoptr(GError) error = NULL;

  g_output_stream_close (f->to_bridge, NULL, &error);
  g_assert_no_error (error);
}

/* The fixture with the app running and the bridge's session initialized. */
static void
fixture_set_up_connected (Fixture       *f,
                          gconstpointer  data)
{
  fixture_set_up (f, data);
  start_app (f, TOKEN);
  initialize (f);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  /* The end of the input ends the bridge, and nothing else is needed. */
  if (!g_output_stream_is_closed (f->to_bridge))
    close_input (f);
  wait_for (f, run_done_cond, NULL, "the bridge to end at the end of its input");
  g_assert_no_error (f->run_error);
  g_assert_true (f->run_ok);

  g_cancellable_cancel (f->cancellable);
  g_clear_object (&f->bridge);

  if (f->server != NULL)
    stop_app (f);

  /* The cancelled read of the bridge's output finishes on the main loop,
   * and must before the fixture it writes to is gone. */
  wait_for (f, read_done_cond, NULL, "the cancelled read of the bridge's output to finish");

  g_clear_object (&f->from_bridge);
  g_clear_object (&f->to_bridge);
  g_clear_object (&f->cancellable);
  g_clear_object (&f->service);
  g_clear_pointer (&f->messages, g_ptr_array_unref);
  g_clear_pointer (&f->started, g_ptr_array_unref);
  g_free (f->workspace);
}

/* Tests. */

static void
test_handshake (Fixture       *f,
                gconstpointer  data)
{
  const TwTestProtocolVersion *versions = tw_test_protocol_versions;
  g_autoptr(JsonNode) tools = tw_tool_registry_list_tools ();
  JsonObject *answer;
  JsonObject *result = NULL;
  JsonObject *info;
  guint n_messages;

  /* Without any app, the handshake is the one the app's server gives. */
  for (guint i = 0; i < tw_test_n_protocol_versions; i++)
    {
      g_autofree char *params = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(JsonNode) expected = NULL;
      JsonObject *sent;

      params = g_strdup_printf ("{\"protocolVersion\":\"%s\",\"capabilities\":{},"
                                "\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}",
                                versions[i].requested);
      answer = request (f, 100 + i, "initialize", params);
      result = get_result (answer);
      g_assert_cmpstr (json_object_get_string_member (result, "protocolVersion"),
                       ==, versions[i].answered);

      g_assert_true (json_parser_load_from_data (parser, params, -1, NULL));
      sent = json_node_get_object (json_parser_get_root (parser));
      expected = tw_mcp_protocol_initialize (sent, NULL, NULL);
      g_assert_true (json_node_equal (expected, json_object_get_member (answer, "result")));
    }

  info = json_object_get_object_member (result, "serverInfo");
  g_assert_cmpstr (json_object_get_string_member (info, "name"), ==, "tabwright");
  g_assert_cmpstr (json_object_get_string_member (info, "version"), ==, PACKAGE_VERSION);
  g_assert_true (json_object_has_member (json_object_get_object_member (result, "capabilities"),
                                         "tools"));

  assert_error (request (f, 110, "initialize", "{\"capabilities\":{}}"),
                TW_JSONRPC_ERROR_INVALID_PARAMS);

  /* A notification gets no answer: the next line out answers the ping. */
  n_messages = f->messages->len;
  send_line (f, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
  result = get_result (request (f, 2, "ping", NULL));
  g_assert_cmpuint (json_object_get_size (result), ==, 0);
  g_assert_cmpint (message_index (f, 2), ==, n_messages);

  /* The same tools as the app, from the same tables. */
  answer = request (f, 3, "tools/list", NULL);
  result = get_result (answer);
  g_assert_true (json_node_equal (tools, json_object_get_member (answer, "result")));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (result, "tools")), ==,
                    tw_tool_registry_get_n_tools ());

  assert_error (request (f, 4, "resources/list", NULL), TW_JSONRPC_ERROR_METHOD_NOT_FOUND);
}

static void
test_no_app (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *closed_url = NULL;
  const char *message;

  initialize (f);

  /* No runtime file. */
  message = assert_no_host (call_tool (f, 2, "browser_list_tabs", "{}"));
  g_assert_nonnull (strstr (message, f->workspace));
  g_assert_nonnull (strstr (message, "tabwright --workspace"));

  /* A runtime file left behind by a Tabwright that crashed. */
  write_runtime_file (f, "http://127.0.0.1:9/mcp", TOKEN, G_MAXINT - 1);
  assert_no_host (call_tool (f, 3, "browser_new_tab", "{\"url\":\"http://a.test/\"}"));

  /* A live process, but nobody listens on the port any more. */
  {
    g_autoptr(TwMcpServer) server = tw_mcp_server_new ();
    g_autoptr(GError) error = NULL;

    tw_mcp_server_start (server, 0, &error);
    g_assert_no_error (error);
    closed_url = tw_mcp_server_dup_url (server);
    tw_mcp_server_stop (server);
  }
  write_runtime_file (f, closed_url, TOKEN, getpid ());
  message = assert_no_host (call_tool (f, 4, "browser_list_tabs", "{}"));
  g_assert_nonnull (strstr (message, "does not answer"));

  /* What the app would say about the call itself does not depend on it. */
  assert_error (call_tool (f, 5, "browser_no_such_tool", "{}"), TW_JSONRPC_ERROR_INVALID_PARAMS);
  assert_error (request (f, 6, "tools/call", "{\"arguments\":{}}"),
                TW_JSONRPC_ERROR_INVALID_PARAMS);
  assert_error (request (f, 7, "tools/call", NULL), TW_JSONRPC_ERROR_INVALID_PARAMS);

  /* ping and tools/list still work. */
  get_result (request (f, 8, "ping", NULL));
  get_result (request (f, 9, "tools/list", NULL));
}

static void
test_malformed (Fixture       *f,
                gconstpointer  data)
{
  static const struct {
    const char *line;
    int         code;
    gint64      id;      /* 0: null */
  } cases[] = {
    { "this is not json", TW_JSONRPC_ERROR_PARSE_ERROR, 0 },
    { "{\"jsonrpc\":\"2.0\",\"id\":", TW_JSONRPC_ERROR_PARSE_ERROR, 0 },
    { "{\"jsonrpc\":\"1.0\",\"id\":41,\"method\":\"ping\"}", TW_JSONRPC_ERROR_INVALID_REQUEST, 41 },
    { "{\"jsonrpc\":\"2.0\",\"id\":42}", TW_JSONRPC_ERROR_INVALID_REQUEST, 42 },
    { "{\"jsonrpc\":\"2.0\",\"id\":43,\"method\":\"tools/call\",\"params\":[1]}",
      TW_JSONRPC_ERROR_INVALID_REQUEST, 43 },
    { "[{\"jsonrpc\":\"2.0\",\"id\":44,\"method\":\"ping\"}]",
      TW_JSONRPC_ERROR_INVALID_REQUEST, 0 },
    { "\"just a string\"", TW_JSONRPC_ERROR_INVALID_REQUEST, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guint before = f->messages->len;
      guint expected = before + 1;
      JsonObject *answer;
      JsonNode *id;

      send_line (f, cases[i].line);
      /* The ping after it proves the bridge read on, and orders the output. */
      request (f, 1000 + i, "ping", NULL);

      g_assert_cmpuint (f->messages->len, ==, expected + 1);
      answer = json_node_get_object (g_ptr_array_index (f->messages, before));
      assert_error (answer, cases[i].code);

      id = json_object_get_member (answer, "id");
      if (cases[i].id == 0)
        g_assert_true (JSON_NODE_HOLDS_NULL (id));
      else
        g_assert_cmpint (json_node_get_int (id), ==, cases[i].id);
    }

  /* Invalid UTF-8 is a parse error, and blank lines are no messages. */
  {
    guint before = f->messages->len;

    send_line (f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xff\"}");
    send_line (f, "");
    send_line (f, "   \r");
    request (f, 2000, "ping", NULL);
    g_assert_cmpuint (f->messages->len, ==, before + 2);
    assert_error (json_node_get_object (g_ptr_array_index (f->messages, before)),
                  TW_JSONRPC_ERROR_PARSE_ERROR);
  }

  /* A CRLF line is read like an LF line. */
  send_line (f, "{\"jsonrpc\":\"2.0\",\"id\":3000,\"method\":\"ping\"}\r");
  {
    gint64 id = 3000;

    wait_for (f, has_message_cond, &id, "the answer to a CRLF line");
    get_result (json_node_get_object (find_message (f, 3000)));
  }
}

static void
test_relay (Fixture       *f,
            gconstpointer  data)
{
  JsonObject *result;
  JsonObject *structured;
  JsonArray *tabs;

  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 0);

  /* The session with the app opens on the first request that needs it:
   * tools/list, since the app lists the tool groups the workspace offers. */
  get_result (request (f, 2, "tools/list", NULL));
  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 1);

  result = get_result (call_tool (f, 3, "browser_new_tab", "{\"url\":\"http://a.test/one\"}"));
  g_assert_false (json_object_get_boolean_member_with_default (result, "isError", FALSE));
  structured = json_object_get_object_member (result, "structuredContent");
  g_assert_cmpstr (json_object_get_string_member (structured, "browserId"), ==, "b1");
  g_assert_cmpstr (json_object_get_string_member (structured, "url"), ==, "http://a.test/one");
  g_assert_nonnull (strstr (tw_test_result_text (result), "b1"));
  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 1);

  /* The app attributes the calls to the workspace's external client. */
  result = get_result (call_tool (f, 4, "browser_list_tabs", "{}"));
  structured = json_object_get_object_member (result, "structuredContent");
  tabs = json_object_get_array_member (structured, "tabs");
  g_assert_cmpuint (json_array_get_length (tabs), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (tabs, 0), "owner"),
                   ==, "External client");
  g_assert_true (tw_test_log_contains (f->started,
                                       "started 2 external External client browser_list_tabs {}"));

  /* Tool errors come back as the app sent them. */
  result = get_result (call_tool (f, 5, "browser_close_tab", "{\"browserId\":\"b99\"}"));
  g_assert_true (json_object_get_boolean_member (result, "isError"));
  g_assert_true (g_str_has_prefix (tw_test_result_text (result), "Error: browser_not_found — "));

  result = get_result (call_tool (f, 6, "browser_new_tab", "{\"url\":42}"));
  g_assert_true (g_str_has_prefix (tw_test_result_text (result), "Error: browser_invalid_argument — "));

  /* So do protocol errors of the app. */
  assert_error (call_tool (f, 7, "browser_no_such_tool", "{}"), TW_JSONRPC_ERROR_INVALID_PARAMS);

  /* One session served every call. */
  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 1);
}

static gboolean
service_log_cond (Fixture      *f,
                  gconstpointer data)
{
  return tw_test_log_contains (f->service->log, data);
}

/* Whether the bridge is done with the request whose id key is @data: it
 * got the app's answer, or gave up on it. */
static gboolean
bridge_done_cond (Fixture      *f,
                  gconstpointer data)
{
  return !g_hash_table_contains (f->bridge->requests, data);
}

/* Whether the bridge wrote two messages with the id *@data. */
static gboolean
two_messages_cond (Fixture      *f,
                   gconstpointer data)
{
  guint n = 0;

  for (guint i = 0; i < f->messages->len; i++)
    {
      if (has_id (g_ptr_array_index (f->messages, i), *(const gint64 *) data))
        n++;
    }

  return n >= 2;
}

static void
test_concurrent (Fixture       *f,
                 gconstpointer  data)
{
  gint64 slow = 10;

  /* A slow call does not hold up a quick one behind it. */
  send_new_tab (f, 10, "http://a.test/slow?ms=1500");
  get_result (call_tool (f, 11, "browser_list_tabs", "{}"));
  g_assert_null (find_message (f, 10));

  wait_for (f, has_message_cond, &slow, "the slow call");
  get_result (json_node_get_object (find_message (f, 10)));
  g_assert_cmpint (message_index (f, 11), <, message_index (f, 10));

  /* A request id still in flight cannot be used again. */
  send_new_tab (f, 12, "http://a.test/slow?ms=500");
  wait_for (f, service_log_cond, "start - new_tab http://a.test/slow?ms=500", "the first call with id 12 to reach the app");
  send_line (f, "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\",\"params\":"
             "{\"name\":\"browser_list_tabs\",\"arguments\":{}}}");
  {
    gint64 id = 12;

    wait_for (f, has_message_cond, &id, "the answer to the duplicate id");
    assert_error (json_node_get_object (find_message (f, 12)), TW_JSONRPC_ERROR_INVALID_REQUEST);
    /* The first call with that id still gets its own answer. */
    wait_for (f, two_messages_cond, &id, "the answer to the first call with id 12");
  }
}

static void
test_progress (Fixture       *f,
               gconstpointer  data)
{
  JsonObject *result;
  int first = -1;
  guint n_progress = 0;

  result = get_result (request (f, 5, "tools/call",
                                "{\"name\":\"test_progress\",\"arguments\":{},"
                                "\"_meta\":{\"progressToken\":\"tok-1\"}}"));
  g_assert_cmpstr (tw_test_result_text (result), ==, "Finished in 3 steps");

  /* Each progress event of the app's stream became a line, before the
   * result. */
  for (guint i = 0; i < f->messages->len; i++)
    {
      JsonObject *message = json_node_get_object (g_ptr_array_index (f->messages, i));
      JsonObject *params;

      if (g_strcmp0 (json_object_get_string_member_with_default (message, "method", NULL),
                     "notifications/progress") != 0)
        continue;

      params = json_object_get_object_member (message, "params");
      g_assert_cmpstr (json_object_get_string_member (params, "progressToken"), ==, "tok-1");
      g_assert_cmpfloat (json_object_get_double_member (params, "progress"), ==, n_progress + 1);
      g_assert_cmpfloat (json_object_get_double_member (params, "total"), ==, 3);
      if (first < 0)
        first = i;
      n_progress++;
    }

  g_assert_cmpuint (n_progress, ==, 2);
  g_assert_cmpint (first, <, message_index (f, 5));
}

/* Starts a call (id @id) that never ends by itself on the app, and waits
 * until the app has the call. */
static void
start_hanging_call (Fixture *f,
                    gint64   id)
{
  send_new_tab (f, id, "http://a.test/hang");
  wait_for (f, service_log_cond, "start - new_tab http://a.test/hang", "the call to reach the app");
}

/* Waits for @what, the answer to request @id, which must be
 * browser_no_host; returns its message. */
static const char *
await_no_host (Fixture    *f,
               gint64      id,
               const char *what)
{
  wait_for (f, has_message_cond, &id, what);

  return assert_no_host (json_node_get_object (find_message (f, id)));
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  start_hanging_call (f, 20);

  send_line (f, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
             "\"params\":{\"requestId\":20,\"reason\":\"changed my mind\"}}");
  wait_for (f, service_log_cond, "cancelled - new_tab http://a.test/hang", "the app to cancel the call");

  /* A cancelled request gets no answer: the bridge drops the app's answer
   * to it, and anything it wrote before then comes before the answer to
   * the next request. And the bridge goes on. */
  wait_for (f, bridge_done_cond, "i:20", "the bridge to be done with the cancelled request 20");
  get_result (call_tool (f, 21, "browser_list_tabs", "{}"));
  g_assert_null (find_message (f, 20));

  /* Cancelling what is unknown or finished is harmless. */
  send_line (f, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
             "\"params\":{\"requestId\":21}}");
  send_line (f, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
             "\"params\":{\"requestId\":\"x\"}}");
  get_result (request (f, 22, "ping", NULL));
}

static void
test_restart (Fixture       *f,
              gconstpointer  data)
{
  JsonObject *result;
  const char *message;

  initialize (f);

  /* The app starts after the bridge. */
  assert_no_host (call_tool (f, 2, "browser_list_tabs", "{}"));
  start_app (f, TOKEN);
  get_result (call_tool (f, 3, "browser_new_tab", "{\"url\":\"http://a.test/one\"}"));

  /* The app quits: calls fail, and say why. */
  stop_app (f);
  message = assert_no_host (call_tool (f, 4, "browser_list_tabs", "{}"));
  g_assert_nonnull (strstr (message, "not running"));

  /* It comes back on another port: the next call just works. */
  start_app (f, TOKEN);
  result = get_result (call_tool (f, 5, "browser_list_tabs", "{}"));
  g_assert_false (json_object_get_boolean_member_with_default (result, "isError", FALSE));

  /* It quits and comes back between two calls, without the bridge seeing
   * it go: the old port refuses, the bridge reads the runtime file again
   * and sends the call once more. */
  tw_mcp_server_stop (f->server);
  g_clear_object (&f->server);
  start_app (f, TOKEN);
  result = get_result (call_tool (f, 6, "browser_list_tabs", "{}"));
  g_assert_false (json_object_get_boolean_member_with_default (result, "isError", FALSE));

  /* The session ended (the app forgot it): a new one opens. */
  tw_mcp_server_remove_client (f->server, TOKEN);
  tw_mcp_server_add_client (f->server, TOKEN, "external", "External client",
                            TW_BROWSER_SERVICE (f->service));
  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 0);
  result = get_result (call_tool (f, 7, "browser_list_tabs", "{}"));
  g_assert_false (json_object_get_boolean_member_with_default (result, "isError", FALSE));
  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 1);

  /* The workspace's token changed: 401, then the new one from the file. */
  tw_mcp_server_remove_client (f->server, TOKEN);
  tw_mcp_server_add_client (f->server, OTHER_TOKEN, "external", "External client",
                            TW_BROWSER_SERVICE (f->service));
  {
    g_autofree char *url = tw_mcp_server_dup_url (f->server);

    write_runtime_file (f, url, OTHER_TOKEN, getpid ());
  }
  result = get_result (call_tool (f, 8, "browser_list_tabs", "{}"));
  g_assert_false (json_object_get_boolean_member_with_default (result, "isError", FALSE));

  /* A token nobody accepts is no app to talk to. */
  tw_mcp_server_remove_client (f->server, OTHER_TOKEN);
  message = assert_no_host (call_tool (f, 9, "browser_list_tabs", "{}"));
  g_assert_nonnull (strstr (message, "token"));
}

static void
test_app_quits_during_call (Fixture       *f,
                            gconstpointer  data)
{
  const char *message;

  start_hanging_call (f, 30);
  stop_app (f);

  /* The call ends with an error the agent can act on, not silence. */
  message = await_no_host (f, 30, "the call to end with the app");
  g_assert_nonnull (strstr (message, "quit"));

  assert_no_host (call_tool (f, 31, "browser_list_tabs", "{}"));
}

static void
test_workspace_closes_during_call (Fixture       *f,
                                   gconstpointer  data)
{
  const char *message;

  start_hanging_call (f, 50);

  /* The app keeps running but stops serving the workspace: it cancels the
   * call itself, which the agent learns as browser_no_host. */
  tw_mcp_server_remove_client (f->server, TOKEN);
  message = await_no_host (f, 50, "the call to end with the workspace");
  g_assert_nonnull (strstr (message, "stopped the call"));
  g_assert_true (tw_test_log_contains (f->service->log, "cancelled - new_tab http://a.test/hang"));
}

static void
test_end_of_input (Fixture       *f,
                   gconstpointer  data)
{
  gint64 id = 40;

  send_new_tab (f, 40, "http://a.test/slow?ms=300");
  close_input (f);

  /* The bridge answers what it read before the end, then ends its session
   * with the app and stops. */
  wait_for (f, run_done_cond, NULL, "the bridge to end");
  g_assert_no_error (f->run_error);
  g_assert_true (f->run_ok);
  g_assert_true (has_message_cond (f, &id));
  get_result (json_node_get_object (find_message (f, 40)));
  g_assert_cmpuint (tw_mcp_server_get_n_sessions (f->server), ==, 0);
}

static void
test_stop (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TwStdioBridge) bridge = NULL;
  g_autoptr(GInputStream) input = NULL;
  g_autoptr(GOutputStream) output = NULL;
  int fds[2];

  start_app (f, TOKEN);

  /* Cancelling the run stops the bridge even with a call in flight, and
   * the app learns that its client went away. */
  g_assert_true (g_unix_open_pipe (fds, FD_CLOEXEC, NULL));
  input = g_unix_input_stream_new (fds[0], TRUE);
  output = g_memory_output_stream_new_resizable ();
  {
    const char *line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                       "{\"name\":\"browser_new_tab\","
                       "\"arguments\":{\"url\":\"http://b.test/hang\"}}}\n";

    g_assert_cmpint (write (fds[1], line, strlen (line)), ==, strlen (line));
  }

  bridge = tw_stdio_bridge_new (f->workspace, input, output);
  {
    Fixture other = { 0 };

    tw_stdio_bridge_run_async (bridge, cancellable, run_done_cb, &other);
    wait_for (f, service_log_cond, "start - new_tab http://b.test/hang", "the call to reach the app");
    g_cancellable_cancel (cancellable);
    wait_for (&other, run_done_cond, NULL, "the bridge to stop");
    g_assert_error (other.run_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    g_assert_false (other.run_ok);
    g_clear_error (&other.run_error);
  }

  wait_for (f, service_log_cond, "cancelled - new_tab http://b.test/hang", "the app to cancel the call");
  close (fds[1]);
}

/* The workspace id and runtime file, which the app and the bridge must
 * compute alike. */

static void
test_workspace_id (void)
{
  static const struct {
    const char *path;
    const char *name;
  } cases[] = {
    { "/home/ada/My App", "my-app" },
    { "/home/ada/..hidden.", "hidden" },
    { "/srv/Ünïcode ✓ folder", "n-code-folder" },
    { "/", "workspace" },
    { "/tmp/a_b.c", "a_b.c" },
    { "/tmp/an-extremely-long-folder-name-that-goes-on", "an-extremely-long-folder-name-th" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *id = tw_workspace_id_from_path (cases[i].path);
      g_autofree char *checksum = NULL;
      g_autofree char *expected = NULL;

      checksum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, cases[i].path, -1);
      expected = g_strdup_printf ("%s-%.8s", cases[i].name, checksum);
      g_assert_cmpstr (id, ==, expected);
    }
}

static void
test_workspace_runtime_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *workspace = NULL;
  g_autofree char *link = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *id = NULL;
  g_autofree char *file = NULL;
  g_autofree char *expected_file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *url = NULL;
  g_autofree char *token = NULL;
  g_autofree char *contents = NULL;

  workspace = g_build_filename (g_get_user_data_dir (), "ws", NULL);
  g_assert_cmpint (g_mkdir_with_parents (workspace, 0700), ==, 0);

  /* Canonical paths follow links, so both names of a folder are one
   * workspace. */
  link = g_build_filename (g_get_user_data_dir (), "ws-link", NULL);
  g_assert_cmpint (symlink (workspace, link), ==, 0);
  canonical = tw_workspace_id_canonicalize_path ("ws-link/.", g_get_user_data_dir (), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (canonical, ==, workspace);

  g_assert_null (tw_workspace_id_canonicalize_path ("no-such", g_get_user_data_dir (), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  id = tw_workspace_id_from_path (workspace);
  file = tw_workspace_id_dup_runtime_file (id);
  expected_file = g_strdup_printf ("%s/tabwright/%s.json", g_get_user_runtime_dir (), id);
  g_assert_cmpstr (file, ==, expected_file);

  /* No file: nobody serves the workspace. */
  g_assert_false (tw_workspace_id_read_runtime_file (workspace, &url, &token, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  dir = g_path_get_dirname (file);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);

  /* A live Tabwright. */
  contents = g_strdup_printf ("{\"url\":\"http://127.0.0.1:1/mcp\",\"token\":\"t\","
                              "\"workspace\":\"%s\",\"pid\":%d}", workspace, getpid ());
  g_assert_true (g_file_set_contents (file, contents, -1, NULL));
  g_assert_true (tw_workspace_id_read_runtime_file (workspace, &url, &token, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (url, ==, "http://127.0.0.1:1/mcp");
  g_assert_cmpstr (token, ==, "t");

  /* A file that names another folder, or a process that is gone. */
  g_clear_pointer (&contents, g_free);
  contents = g_strdup_printf ("{\"url\":\"http://127.0.0.1:1/mcp\",\"token\":\"t\","
                              "\"workspace\":\"/elsewhere\",\"pid\":%d}", getpid ());
  g_assert_true (g_file_set_contents (file, contents, -1, NULL));
  g_assert_false (tw_workspace_id_read_runtime_file (workspace, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  g_clear_pointer (&contents, g_free);
  contents = g_strdup_printf ("{\"url\":\"http://127.0.0.1:1/mcp\",\"token\":\"t\","
                              "\"workspace\":\"%s\",\"pid\":%d}", workspace, G_MAXINT - 1);
  g_assert_true (g_file_set_contents (file, contents, -1, NULL));
  g_assert_false (tw_workspace_id_read_runtime_file (workspace, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Not JSON at all. */
  g_assert_true (g_file_set_contents (file, "{garbage", -1, NULL));
  g_assert_false (tw_workspace_id_read_runtime_file (workspace, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  tw_tool_registry_add_tools_for_testing (test_tools, G_N_ELEMENTS (test_tools));

  g_test_add_func ("/mcp/workspace-id/id", test_workspace_id);
  g_test_add_func ("/mcp/workspace-id/runtime-file", test_workspace_runtime_file);

#define ADD(path, func) \
  g_test_add ("/mcp/stdio-bridge/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
#define ADD_CONNECTED(path, func) \
  g_test_add ("/mcp/stdio-bridge/" path, Fixture, NULL, fixture_set_up_connected, func, \
              fixture_tear_down)

  ADD ("handshake", test_handshake);
  ADD ("no-app", test_no_app);
  ADD ("malformed", test_malformed);
  ADD_CONNECTED ("relay", test_relay);
  ADD_CONNECTED ("concurrent", test_concurrent);
  ADD_CONNECTED ("progress", test_progress);
  ADD_CONNECTED ("cancel", test_cancel);
  ADD ("restart", test_restart);
  ADD_CONNECTED ("app-quits-during-call", test_app_quits_during_call);
  ADD_CONNECTED ("workspace-closes-during-call", test_workspace_closes_during_call);
  ADD_CONNECTED ("end-of-input", test_end_of_input);
  ADD ("stop", test_stop);

#undef ADD
#undef ADD_CONNECTED

  return g_test_run ();
}
