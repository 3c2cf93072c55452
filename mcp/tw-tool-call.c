/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tool-call-private.h"

#include "tw-activity-log.h"
#include "tw-error.h"
#include "tw-json.h"
#include "tw-json-schema.h"
#include "tw-tool-registry.h"
#include "tw-tools.h"

struct _TwToolCall
{
  gatomicrefcount         ref_count;

  const TwToolDef        *def;
  JsonObject             *arguments;
  TwBrowserService       *service;
  char                   *agent_id;
  char                   *agent_name;
  TwCaller                caller;
  GCancellable           *cancellable;

  TwToolCallProgressFunc  progress_func;
  gpointer                progress_data;

  TwToolCallDoneFunc      done_func;
  gpointer                done_data;
  GDestroyNotify          done_destroy;

  /* Commands issued and not answered yet: a reply may go on with another. */
  guint                   running;

  /* What the person marked on the tab while no browser_annotate call
   * waited: it rides along with this call's result. */
  JsonObject             *annotation;

  guint                   started : 1;
  guint                   finished : 1;
};

/* One service command issued by a call. Commands on one tab run in the
 * order they were issued, whichever MCP session they came from: the tab
 * keeps that order, in its own queue. */
typedef struct
{
  TwToolCall       *call;
  TwTabCommand      command;
  char             *browser_id;
  JsonObject       *params;
  TwToolFormatFunc  format;
  TwToolReplyFunc   reply;
} CommandRun;

/* Numbers calls for the activity log and for what tabs report about the
 * command they run; never 0. */
static guint64 last_call_id;

TwToolCall *
tw_tool_call_new (const TwToolDef  *def,
                  JsonObject       *arguments,
                  TwBrowserService *service,
                  const TwCaller   *caller,
                  GCancellable     *cancellable)
{
  TwToolCall *call;

  g_return_val_if_fail (def != NULL, NULL);
  g_return_val_if_fail (service == NULL || TW_IS_BROWSER_SERVICE (service), NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);

  call = g_new0 (TwToolCall, 1);
  g_atomic_ref_count_init (&call->ref_count);
  call->def = def;
  call->arguments = arguments != NULL ? json_object_ref (arguments) : json_object_new ();
  call->service = service != NULL ? g_object_ref (service) : NULL;
  call->agent_id = g_strdup (caller != NULL ? caller->agent_id : NULL);
  call->agent_name = g_strdup (caller != NULL ? caller->agent_name : NULL);
  call->caller.agent_id = call->agent_id;
  call->caller.agent_name = call->agent_name;
  call->caller.call_id = ++last_call_id;
  call->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();

  return call;
}

TwToolCall *
tw_tool_call_ref (TwToolCall *call)
{
  g_return_val_if_fail (call != NULL, NULL);

  g_atomic_ref_count_inc (&call->ref_count);

  return call;
}

void
tw_tool_call_unref (TwToolCall *call)
{
  g_return_if_fail (call != NULL);

  if (!g_atomic_ref_count_dec (&call->ref_count))
    return;

  if (call->done_destroy != NULL)
    call->done_destroy (call->done_data);

  g_clear_pointer (&call->arguments, json_object_unref);
  g_clear_pointer (&call->annotation, json_object_unref);
  g_clear_object (&call->service);
  g_clear_object (&call->cancellable);
  g_free (call->agent_id);
  g_free (call->agent_name);
  g_free (call);
}

void
tw_tool_call_set_progress_func (TwToolCall             *call,
                                TwToolCallProgressFunc  func,
                                gpointer                user_data)
{
  g_return_if_fail (call != NULL);

  call->progress_func = func;
  call->progress_data = user_data;
}

void
tw_tool_call_set_done_func (TwToolCall         *call,
                            TwToolCallDoneFunc  func,
                            gpointer            user_data,
                            GDestroyNotify      destroy)
{
  g_return_if_fail (call != NULL);
  g_return_if_fail (!call->started);

  call->done_func = func;
  call->done_data = user_data;
  call->done_destroy = destroy;
}

gboolean
tw_tool_call_is_finished (TwToolCall *call)
{
  g_return_val_if_fail (call != NULL, FALSE);

  return call->finished;
}

const char *
tw_tool_call_get_name (TwToolCall *call)
{
  g_return_val_if_fail (call != NULL, NULL);

  return call->def->name;
}

JsonObject *
tw_tool_call_get_arguments (TwToolCall *call)
{
  g_return_val_if_fail (call != NULL, NULL);

  return call->arguments;
}

const TwCaller *
tw_tool_call_get_caller (TwToolCall *call)
{
  g_return_val_if_fail (call != NULL, NULL);

  return &call->caller;
}

GCancellable *
tw_tool_call_get_cancellable (TwToolCall *call)
{
  g_return_val_if_fail (call != NULL, NULL);

  return call->cancellable;
}

JsonObject *
tw_tool_call_copy_arguments (TwToolCall         *call,
                             const char * const *names)
{
  JsonObject *params;

  g_return_val_if_fail (call != NULL, NULL);
  g_return_val_if_fail (names != NULL, NULL);

  params = json_object_new ();
  for (guint i = 0; names[i] != NULL; i++)
    {
      JsonNode *node = json_object_get_member (call->arguments, names[i]);

      if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
        json_object_set_member (params, names[i], json_node_copy (node));
    }

  return params;
}

void
tw_tool_call_report_progress (TwToolCall *call,
                              double      progress,
                              double      total,
                              const char *message)
{
  g_return_if_fail (call != NULL);

  if (call->finished || call->progress_func == NULL)
    return;

  call->progress_func (call, progress, total, message, call->progress_data);
}

static void
tw_tool_call_finish (TwToolCall   *call,
                     JsonNode     *result,
                     const GError *error)
{
  g_assert (call != NULL);
  g_assert (result != NULL);

  call->finished = TRUE;

  if (call->service != NULL && tw_browser_service_get_activity (call->service) != NULL)
    tw_activity_log_end (tw_browser_service_get_activity (call->service),
                         call->caller.call_id, result, error);

  if (call->done_func != NULL)
    call->done_func (call, result, error, call->done_data);

  json_node_unref (result);

  /* Drops the reference tw_tool_call_start() took. */
  tw_tool_call_unref (call);
}

/* The person's annotation, after the result's own content: what they
 * wrote and marked, and the picture with the marks. */
static void
append_annotation (JsonArray  *content,
                   JsonObject *annotation)
{
  JsonObject *item = json_object_new ();
  g_autoptr(GString) text = g_string_new ("The person marked this tab for you (annotation, sent "
                                          "from the tab without a browser_annotate call).");
  const char *png = tw_json_get_string (annotation, "png", NULL);

  g_string_append_printf (text, "\nnote: %s", tw_json_get_string (annotation, "note", ""));
  tw_tools_annotate_append_marks (text, annotation);
  json_object_set_string_member (item, "type", "text");
  json_object_set_string_member (item, "text", text->str);
  json_array_add_object_element (content, item);

  if (png != NULL)
    {
      item = json_object_new ();
      json_object_set_string_member (item, "type", "image");
      json_object_set_string_member (item, "data", png);
      json_object_set_string_member (item, "mimeType", "image/png");
      json_array_add_object_element (content, item);
    }
}

static JsonNode *
build_result (TwToolCall  *call,
              const char  *text,
              GBytes      *png,
              JsonObject  *structured)
{
  g_autoptr(JsonObject) result = json_object_new ();
  g_autoptr(JsonArray) content = json_array_new ();
  JsonNode *node;

  if (text != NULL || png == NULL)
    {
      JsonObject *item = json_object_new ();

      json_object_set_string_member (item, "type", "text");
      json_object_set_string_member (item, "text", text != NULL ? text : "");
      json_array_add_object_element (content, item);
    }

  if (png != NULL)
    {
      JsonObject *item = json_object_new ();
      gsize size = 0;
      const guchar *data = g_bytes_get_data (png, &size);
      g_autofree char *base64 = g_base64_encode (data, size);

      json_object_set_string_member (item, "type", "image");
      json_object_set_string_member (item, "data", base64);
      /* browser_screenshot answers PNG, or JPEG when asked: tell them by
       * their first bytes. */
      json_object_set_string_member (item, "mimeType",
                                     size >= 3 && data[0] == 0xff && data[1] == 0xd8 &&
                                     data[2] == 0xff ? "image/jpeg" : "image/png");
      json_array_add_object_element (content, item);
    }

  if (call->annotation != NULL)
    append_annotation (content, call->annotation);

  json_object_set_array_member (result, "content", g_steal_pointer (&content));

  /* Text-only tools never send structuredContent: clients that prefer it
   * would otherwise show the model escaped JSON instead of the text. */
  if (structured != NULL && tw_tool_registry_get_output_schema (call->def) != NULL)
    {
      JsonNode *schema = tw_tool_registry_get_output_schema (call->def);
      g_autoptr(JsonNode) instance = json_node_new (JSON_NODE_OBJECT);
      g_autoptr(GError) error = NULL;

      json_node_set_object (instance, structured);
      if (schema != NULL && !tw_json_schema_validate (schema, instance, &error))
        g_warning ("%s returned structured content that does not match its outputSchema: %s",
                   call->def->name, error->message);

      json_object_set_object_member (result, "structuredContent", json_object_ref (structured));
    }

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, result);
  return node;
}

/* Finishes @call with a text block, an image block or both, taking
 * @structured; the text and the image each say what they need. */
static void
return_content (TwToolCall *call,
                const char *text,
                GBytes     *png,
                JsonObject *structured)
{
  g_autoptr(JsonObject) owned = structured;

  g_return_if_fail (call != NULL);
  g_return_if_fail (text != NULL || png != NULL);
  g_return_if_fail (call->started && !call->finished);

  tw_tool_call_finish (call, build_result (call, text, png, owned), NULL);
}

void
tw_tool_call_return_text (TwToolCall *call,
                          const char *text,
                          JsonObject *structured)
{
  return_content (call, text, NULL, structured);
}

void
tw_tool_call_return_image (TwToolCall *call,
                           const char *text,
                           GBytes     *png,
                           JsonObject *structured)
{
  g_return_if_fail (png != NULL);

  return_content (call, text, png, structured);
}

void
tw_tool_call_return_error (TwToolCall   *call,
                           const GError *error)
{
  g_return_if_fail (call != NULL);
  g_return_if_fail (error != NULL);
  g_return_if_fail (call->started && !call->finished);

  tw_tool_call_finish (call, tw_browser_error_to_tool_result (error), error);
}

/* The handler of every tool that is one command (TwToolDef). */
static void
run_one_command (TwToolCall *call)
{
  static const char * const no_arguments[] = { NULL };
  const TwToolDef *def = call->def;
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(GError) error = NULL;

  if (def->check != NULL && !def->check (call->arguments, &error))
    {
      tw_tool_call_return_error (call, error);
      return;
    }

  params = tw_tool_call_copy_arguments (call, def->arguments != NULL ? def->arguments
                                                                     : no_arguments);
  tw_tool_call_run_command (call, def->command,
                            tw_json_get_string (call->arguments, "browserId", NULL),
                            params, def->format);
}

static void
run_handler (TwToolCall *call)
{
  if (call->def->handler != NULL)
    call->def->handler (call);
  else
    run_one_command (call);
}

static void
approved_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(TwToolCall) call = user_data;
  g_autoptr(GError) error = NULL;
  gboolean approved;

  approved = tw_browser_service_approve_finish (TW_BROWSER_SERVICE (object), result, &error);
  if (call->finished)
    return;

  if (!approved)
    {
      tw_tool_call_return_error (call, error);
      return;
    }

  if (g_cancellable_set_error_if_cancelled (call->cancellable, &error))
    {
      tw_tool_call_return_error (call, error);
      return;
    }

  run_handler (call);
}

void
tw_tool_call_start (TwToolCall *call)
{
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *schema;

  g_return_if_fail (call != NULL);
  g_return_if_fail (!call->started);

  call->started = TRUE;
  tw_tool_call_ref (call);

  /* Every call shows in the workspace's activity, the ones turned away
   * included: the person sees what agents tried. */
  if (call->service != NULL && tw_browser_service_get_activity (call->service) != NULL)
    tw_activity_log_begin (tw_browser_service_get_activity (call->service),
                           &call->caller, call->def->name, call->arguments);

  /* The one place every tool passes through, current and future ones. */
  if (call->service != NULL &&
      !tw_browser_service_check_tool_group (call->service,
                                            tw_tool_registry_get_group (call->def),
                                            call->def->name, &error))
    {
      tw_tool_call_return_error (call, error);
      return;
    }

  arguments = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (arguments, call->arguments);

  schema = tw_tool_registry_get_input_schema (call->def);
  if (!tw_json_schema_validate_arguments (schema, arguments, &error))
    {
      tw_tool_call_return_error (call, error);
      return;
    }

  if (g_cancellable_set_error_if_cancelled (call->cancellable, &error))
    {
      tw_tool_call_return_error (call, error);
      return;
    }

  /* The person's say (issue 32): a call the person must allow waits here,
   * before anything of it runs. */
  if (call->service != NULL &&
      tw_browser_service_needs_approval (call->service, call))
    {
      tw_browser_service_approve_async (call->service, call, approved_cb,
                                        tw_tool_call_ref (call));
      return;
    }

  run_handler (call);
}

/* Commands. */

static void
command_run_free (CommandRun *run)
{
  g_clear_pointer (&run->call, tw_tool_call_unref);
  g_clear_pointer (&run->params, json_object_unref);
  g_free (run->browser_id);
  g_free (run);
}

static char *
default_format (JsonObject *result)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, result);
  return json_to_string (node, FALSE);
}

/* "Routed: GET http://…/api/items -> HTTP 201 (route r1)": the requests of
 * the tab that browser_route answered while the command ran, told by every
 * tool whose result the tab gave (see tw_tab_routes_describe_answered()). */
static char *
with_routed (char       *text,
             JsonObject *result)
{
  JsonArray *routed = tw_json_get_array (result, "routed");
  GString *out;

  if (routed == NULL || json_array_get_length (routed) == 0)
    return text;

  out = g_string_new (text);
  g_free (text);
  g_string_append (out, "\nRouted by browser_route:");
  for (guint i = 0; i < json_array_get_length (routed); i++)
    {
      JsonObject *answer = json_array_get_object_element (routed, i);
      const char *action = tw_json_get_string (answer, "action", "");

      g_string_append_printf (out, "%s %s %s -> ", i > 0 ? ";" : "", tw_json_get_string (answer, "method", "?"),
                              tw_json_get_string (answer, "url", "?"));
      if (g_str_equal (action, "fulfill"))
        g_string_append_printf (out, "HTTP %" G_GINT64_FORMAT, tw_json_get_int (answer, "status", 0));
      else if (g_str_equal (action, "abort"))
        g_string_append (out, "failed");
      else
        g_string_append (out, "sent with changed headers");
      g_string_append_printf (out, " (route %s)", tw_json_get_string (answer, "route", "?"));
    }
  return g_string_free (out, FALSE);
}

static void
command_run_return (CommandRun   *run,
                    JsonObject   *result,
                    const GError *error)
{
  TwToolCall *call = run->call;

  g_assert (call->running > 0);
  call->running--;

  /* A handler may have finished the call already, for example on its own
   * timeout; the late result then has nobody to go to. */
  if (call->finished)
    return;

  /* An annotation the tab kept for the next result goes beside it, not in
   * it: the result keeps to its tool's output schema. */
  if (result != NULL && json_object_has_member (result, "annotation"))
    {
      JsonNode *node = json_object_get_member (result, "annotation");

      if (JSON_NODE_HOLDS_OBJECT (node) && call->annotation == NULL)
        call->annotation = json_object_ref (json_node_get_object (node));
      json_object_remove_member (result, "annotation");
    }

  if (error != NULL)
    {
      tw_tool_call_return_error (call, error);
    }
  else if (run->reply != NULL)
    {
      run->reply (call, result);

      if (!call->finished && call->running == 0)
        {
          g_autoptr(GError) internal = NULL;

          g_critical ("%s did not finish its call", call->def->name);
          g_set_error (&internal, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                       "%s returned no result", call->def->name);
          tw_tool_call_return_error (call, internal);
        }
    }
  else
    {
      g_autofree char *text = NULL;

      text = run->format != NULL ? run->format (result) : default_format (result);
      text = with_routed (text, result);
      tw_tool_call_return_text (call, text, json_object_ref (result));
    }
}

static void
command_run_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  CommandRun *run = user_data;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = tw_browser_service_run_finish (TW_BROWSER_SERVICE (object), result, &error);
  if (reply == NULL && error == NULL)
    g_set_error (&error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                 "The browser returned no result for %s", tw_tab_command_to_string (run->command));

  command_run_return (run, reply, error);
  command_run_free (run);
}

static void
command_run_start (CommandRun *run)
{
  g_autoptr(GError) error = NULL;

  if (g_cancellable_set_error_if_cancelled (run->call->cancellable, &error))
    {
      command_run_return (run, NULL, error);
      command_run_free (run);
      return;
    }

  tw_browser_service_run_async (run->call->service,
                                &(TwServiceRequest) { run->command, run->browser_id, run->params,
                                                      &run->call->caller },
                                run->call->cancellable, command_run_done_cb, run);
}

static void
run_command (TwToolCall       *call,
             TwTabCommand      command,
             const char       *browser_id,
             JsonObject       *params,
             TwToolFormatFunc  format,
             TwToolReplyFunc   reply)
{
  CommandRun *run;

  g_return_if_fail (call != NULL);
  g_return_if_fail (call->started && !call->finished);
  g_return_if_fail (command < TW_TAB_COMMAND_LAST);
  g_return_if_fail (!tw_tab_command_targets_tab (command) || browser_id != NULL);

  if (call->service == NULL)
    {
      g_autoptr(GError) error = NULL;

      g_set_error_literal (&error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NO_HOST,
                           "No Tabwright window is serving this call");
      tw_tool_call_return_error (call, error);
      return;
    }

  run = g_new0 (CommandRun, 1);
  run->call = tw_tool_call_ref (call);
  run->command = command;
  run->browser_id = g_strdup (browser_id);
  run->params = params != NULL ? json_object_ref (params) : json_object_new ();
  run->format = format;
  run->reply = reply;

  call->running++;
  command_run_start (run);
}

void
tw_tool_call_run_command (TwToolCall       *call,
                          TwTabCommand      command,
                          const char       *browser_id,
                          JsonObject       *params,
                          TwToolFormatFunc  format)
{
  run_command (call, command, browser_id, params, format, NULL);
}

void
tw_tool_call_run_command_full (TwToolCall      *call,
                               TwTabCommand     command,
                               const char      *browser_id,
                               JsonObject      *params,
                               TwToolReplyFunc  reply)
{
  g_return_if_fail (reply != NULL);

  run_command (call, command, browser_id, params, NULL, reply);
}
