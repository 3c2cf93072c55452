/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>
#include <json-glib/json-glib.h>

#include "tw-browser-service.h"
#include "tw-mcp-server.h"
#include "tw-tool.h"
#include "tw-tool-call-private.h"

G_BEGIN_DECLS

/* What the C test programs share: a loopback server for fixture pages,
 * waiting on the main loop without hanging, JSON from literals, private
 * XDG folders, a browser service that records what a tool asks, commands
 * of in-test services that take their time, and tool calls as an agent
 * makes them. */

/* Skipping */

void        tw_test_skip_or_fail       (const char         *reason);

/* Test programs */

/* How long a test waits for anything on the main loop (a page, a tool
 * call, a widget) before it fails: a deadline against hangs. */
#define TW_TEST_WAIT_MS 60000

/* A test of a program's fixture: its GTest path and function. */
typedef struct
{
  const char       *path;
  GTestFixtureFunc  test;
} TwTestFixtureCase;

#define TW_TEST_FIXTURE_CASE(path, test) { (path), (GTestFixtureFunc) (test) }
/* Adds the tests of the array @cases on fixtures of type @Type. */
#define TW_TEST_ADD_FIXTURE_CASES(Type, cases, set_up, tear_down) \
  tw_test_add_fixture_cases ((cases), G_N_ELEMENTS (cases), sizeof (Type), \
                             (GTestFixtureFunc) (set_up), (GTestFixtureFunc) (tear_down))

/* Adds the tests of @cases, each on a fixture of @fixture_size bytes that
 * @set_up makes and @tear_down ends. */
void        tw_test_add_fixture_cases  (const TwTestFixtureCase *cases,
                                        guint                    n_cases,
                                        gsize                    fixture_size,
                                        GTestFixtureFunc         set_up,
                                        GTestFixtureFunc         tear_down);

/* Fixture server */

/* Answers @msg, a request for @path with @query (or NULL). Every server of
 * tw_test_server_new() leaves a request for /hang unanswered (paused until
 * the server goes) without asking it. */
typedef void (*TwTestServeFunc) (SoupServerMessage *msg,
                                 const char        *path,
                                 GHashTable        *query);

SoupServer *tw_test_server_new         (TwTestServeFunc     serve,
                                        char              **base_url);
/* A server that answers every path with the one page @html (static). */
SoupServer *tw_test_server_new_page    (const char         *html,
                                        char              **base_url);
void        tw_test_serve_html         (SoupServerMessage  *msg,
                                        const char         *html);
void        tw_test_serve_not_found    (SoupServerMessage  *msg);
void        tw_test_serve_file         (SoupServerMessage  *msg,
                                        const char         *folder,
                                        const char         *path,
                                        gboolean            no_store);
/* tw_test_serve_file() for a page that names the addresses of two servers
 * as {{A}} and {{B}} (a page with frames of two origins): they are replaced
 * by @a and @b, and the page is never cached. */
void        tw_test_serve_file_of_two  (SoupServerMessage  *msg,
                                        const char         *folder,
                                        const char         *path,
                                        const char         *a,
                                        const char         *b);
guint16     tw_test_closed_port        (void);

/* Runs the program's tests (g_test_run()) with a fixture server up that
 * answers with @serve, its address in *@base_url meanwhile (freed after);
 * returns what g_test_run() does. */
int         tw_test_run_with_server    (TwTestServeFunc     serve,
                                        char              **base_url);
/* The same with a server that answers every path with @html (static). */
int         tw_test_run_with_page      (const char         *html,
                                        char              **base_url);

/* Waiting on the main loop */

typedef gboolean (*TwTestCondition) (gpointer data);

gboolean      tw_test_flag_is_set      (gpointer         data);
void          tw_test_wait_until       (TwTestCondition  condition,
                                        gpointer         data,
                                        guint            timeout_ms,
                                        const char      *what);
void          tw_test_wait_for_flag    (gboolean        *flag,
                                        guint            timeout_ms,
                                        const char      *what);
void          tw_test_await_sole_ref   (gpointer         object,
                                        guint            timeout_ms,
                                        const char      *what);
void          tw_test_store_result_cb  (GObject         *object,
                                        GAsyncResult    *result,
                                        gpointer         user_data);
GAsyncResult *tw_test_await_result     (guint            timeout_ms,
                                        const char      *what);

/* JSON and text */

JsonNode   *tw_test_parse_json         (const char    *text);
JsonObject *tw_test_parse_object       (const char    *json);
char       *tw_test_object_to_string   (JsonObject    *object);
char       *tw_test_find_ref           (const char    *snapshot,
                                        const char    *needle);
char       *tw_test_replace            (const char    *haystack,
                                        const char    *needle,
                                        const char    *replacement);
gboolean    tw_test_log_contains       (GPtrArray     *log,
                                        const char    *entry);
int         tw_test_log_index          (GPtrArray     *log,
                                        const char    *entry);
int         tw_test_compare_doubles    (gconstpointer  a,
                                        gconstpointer  b);

/* Folders */

void        tw_test_remove_tree        (const char *path);
char       *tw_test_set_up_folders     (const char *tmpl,
                                        gboolean    with_state_home);
char       *tw_test_make_folder        (const char *parent,
                                        const char *name);
guint       tw_test_file_mode          (const char *path);

/* A browser service that records the last command it was asked to run,
 * and who asked, and answers it with @reply, or fails it with @error when
 * that is set; or, made with tw_fake_service_new_full(), hands every
 * command to @run; or, made with tw_fake_service_new_tabs(), plays tabs. */

#define TW_TYPE_FAKE_SERVICE (tw_fake_service_get_type ())
G_DECLARE_FINAL_TYPE (TwFakeService, tw_fake_service, TW, FAKE_SERVICE, GObject)

/* Runs @request; @task, whose source object is the service, returns a
 * JsonObject or an error. */
typedef void (*TwFakeServiceRunFunc) (GTask                  *task,
                                      const TwServiceRequest *request,
                                      gpointer                run_data);

struct _TwFakeService
{
  GObject               parent_instance;
  TwTabCommand          command;
  char                 *browser_id;
  JsonObject           *params;
  char                 *agent_id;      /* the caller's */
  char                 *agent_name;
  JsonObject           *reply;
  GError               *error;
  guint                 n_runs;
  TwFakeServiceRunFunc  run;
  gpointer              run_data;
  GDestroyNotify        run_data_free;
  char                **tool_groups;   /* offered tool groups; NULL: all */
  /* The tabs tw_fake_service_new_tabs() plays, and each command they ran:
   * "start b1 navigate http://…", then "end …" or "cancelled …" ("-" for
   * a command on no tab, such as "start - new_tab"). */
  GHashTable           *tabs;          /* browserId -> JsonObject */
  guint                 next_tab;
  GPtrArray            *log;
};

TwFakeService *tw_fake_service_new_full (TwFakeServiceRunFunc run,
                                         gpointer             run_data,
                                         GDestroyNotify       run_data_free);

/* Plays tabs as JSON objects, named "b1", "b2", … as they open and
 * listed in no set order: it lists, opens, closes, navigates and reloads
 * them, and has no page before or after the one shown. A page at an http
 * URL is titled "Page " and its path in capitals, with status 200
 * ("/dialog" has an alert); any other has no title and no status. A
 * command on a page at a URL with "ms=N" in it takes N ms, with "/hang"
 * never ends until cancelled, and with "/ignore-cancel" ends in its time
 * even when cancelled. */
TwFakeService *tw_fake_service_new_tabs (void);

/* Offers only @groups (NULL: all) and emits "tools-changed". */
void           tw_fake_service_set_tool_groups (TwFakeService      *self,
                                                const char * const *groups);

/* The protocol versions a client may ask for in initialize, and the one
 * the server answers: the one asked for when it knows it, else its latest. */
typedef struct
{
  const char *requested;
  const char *answered;
} TwTestProtocolVersion;

extern const TwTestProtocolVersion tw_test_protocol_versions[];
extern const guint                 tw_test_n_protocol_versions;

/* Records in @log each call @server starts, as "started <serial> <agent id>
 * <agent name> <tool> <arguments as JSON>", and each it finishes, as
 * "finished <serial> ok|error <error code or ->". */
void        tw_test_record_calls       (TwMcpServer      *server,
                                        GPtrArray        *log);

/* Tools of the tests only */

void        tw_test_progress_handler   (TwToolCall *call);

/* Reports progress twice, then finishes with "Finished in 3 steps". */
#define TW_TEST_PROGRESS_TOOL \
  { \
    .name = "test_progress", \
    .title = "Count to three", \
    .description = "Reports progress twice, then finishes.", \
    .input_schema = "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}", \
    .handler = tw_test_progress_handler, \
  }

/* Tool calls */

/* How long a tool call may take before the test fails. */
#define TW_TEST_TOOL_TIMEOUT_MS 60000

/* Agents the tests call tools as: a generic one, and Ada. */
extern const TwCaller tw_test_agent;
extern const TwCaller tw_test_ada;

/* How a tool call ended, and the progress it reported on the way. */
typedef struct
{
  gboolean  done;
  JsonNode *result;
  GError   *error;
  guint     n_progress;
  double    last_total;
} TwTestOutcome;

void        tw_test_outcome_done_cb    (TwToolCall    *call,
                                        JsonNode      *result,
                                        const GError  *error,
                                        gpointer       user_data);
void        tw_test_outcome_clear      (TwTestOutcome *outcome);
TwToolCall *tw_test_start_tool         (TwBrowserService *service,
                                        const TwCaller   *caller,
                                        const char       *name,
                                        const char       *arguments,
                                        TwTestOutcome    *outcome);
JsonObject *tw_test_await_tool         (TwTestOutcome    *outcome,
                                        const char       *what);
/* The same, for a call that must succeed; its text goes to the test's log. */
JsonObject *tw_test_await_tool_ok      (TwTestOutcome    *outcome,
                                        const char       *what);
JsonObject *tw_test_call_tool          (TwBrowserService *service,
                                        const TwCaller   *caller,
                                        const char       *name,
                                        const char       *arguments);
JsonObject *tw_test_call_tool_ok       (TwBrowserService *service,
                                        const TwCaller   *caller,
                                        const char       *name,
                                        const char       *arguments);
/* tw_test_call_tool_ok() with the arguments made from @format. */
JsonObject *tw_test_call_ok_printf     (TwBrowserService *service,
                                        const TwCaller   *caller,
                                        const char       *name,
                                        const char       *format,
                                        ...) G_GNUC_PRINTF (4, 5);
void        tw_test_run_tool_full      (TwBrowserService *service,
                                        const TwCaller   *caller,
                                        const char       *name,
                                        const char       *arguments,
                                        TwTestOutcome    *outcome);
void        tw_test_run_tool           (TwFakeService *service,
                                        const char    *name,
                                        const char    *arguments,
                                        TwTestOutcome *outcome);

/* What a tool call answered: its CallToolResult object. */

gboolean    tw_test_result_is_error    (JsonObject *result);
const char *tw_test_result_text        (JsonObject *result);
JsonObject *tw_test_result_structured  (JsonObject *result);
const char *tw_test_result_error_code  (JsonObject *result);

G_END_DECLS
