/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>
#include <json-glib/json-glib.h>

#include "tw-browser-service.h"
#include "tw-tool.h"

G_BEGIN_DECLS

/* What the C test programs share: a loopback server for fixture pages,
 * waiting on the main loop without hanging, JSON from literals, private
 * XDG folders, and a browser service that records what a tool asks. */

/* Fixture server */

SoupServer *tw_test_server_new         (SoupServerCallback  callback,
                                        gpointer            user_data,
                                        char              **base_url);
void        tw_test_serve_not_found    (SoupServerMessage  *msg);
void        tw_test_serve_file         (SoupServerMessage  *msg,
                                        const char         *folder,
                                        const char         *path,
                                        gboolean            no_store);
guint16     tw_test_closed_port        (void);

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
void          tw_test_sleep_ms         (guint            ms);
void          tw_test_store_result_cb  (GObject         *object,
                                        GAsyncResult    *result,
                                        gpointer         user_data);
GAsyncResult *tw_test_await_result     (guint            timeout_ms,
                                        const char      *what);

/* JSON */

JsonObject *tw_test_parse_object       (const char *json);
char       *tw_test_object_to_string   (JsonObject *object);

/* Folders */

void        tw_test_remove_tree        (const char *path);
char       *tw_test_set_up_folders     (const char *tmpl,
                                        gboolean    with_state_home);

/* A browser service that records the last command it was asked to run
 * and answers it with @reply, or fails it with @error when that is set. */

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

/* How a tool call ended. */
typedef struct
{
  gboolean  done;
  JsonNode *result;
  GError   *error;
} TwTestOutcome;

void        tw_test_outcome_done_cb    (TwToolCall    *call,
                                        JsonNode      *result,
                                        const GError  *error,
                                        gpointer       user_data);
void        tw_test_outcome_clear      (TwTestOutcome *outcome);
void        tw_test_run_tool_full      (TwBrowserService *service,
                                        const TwCaller   *caller,
                                        const char       *name,
                                        const char       *arguments,
                                        TwTestOutcome    *outcome);
void        tw_test_run_tool           (TwFakeService *service,
                                        const char    *name,
                                        const char    *arguments,
                                        TwTestOutcome *outcome);

G_END_DECLS
