/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-page-runtime.h"
#include "tw-page-runtime-jobs.h"
#include "tw-page-runtime-private.h"

#include "tw-evaluate-script.h"
#include "tw-script.h"

#include "tw-error.h"
#include "tw-json.h"

#define RUNTIME_RESOURCE_PATH      "/io/github/tabwright/Tabwright/runtime/"
#define RUNTIME_CALL_RESOURCE_PATH "/io/github/tabwright/Tabwright/runtime-call/"


/* The modules of webview/runtime/, in load order: tw_runtime_modules of
 * meson.build, which also puts them in the GResource bundle. */
static const char * const runtime_modules[] = { TW_RUNTIME_MODULES };


struct _TwPageRuntime
{
  GObject           parent_instance;

  WebKitWebView    *view;
  WebKitUserScript *script;
  WebKitUserScript *page_world_script;

  guint64           next_ref;
  guint             last_snapshot_id;
  guint             commits;
  gboolean          crashed;
  gboolean          unanswered;  /* the last call timed out unanswered */

  /* The last long text the page sent (a snapshot, say) and the page's id
   * for it: when a call would answer the same text again, the page sends
   * the id instead, and the text is taken from here (api.js). */
  char             *held_text;   /* GRefString */
  char             *held_id;
};

G_DEFINE_FINAL_TYPE (TwPageRuntime, tw_page_runtime, G_TYPE_OBJECT)

/* The modules wrapped in one function (webview/runtime/call/install.js), so
 * their declarations share a scope of their own. Built once per process. */
static const char *
tw_page_runtime_get_source (void)
{
  static char *source;

  if (g_once_init_enter (&source))
    {
      g_autoptr(GString) modules = g_string_new (NULL);

      for (guint i = 0; i < G_N_ELEMENTS (runtime_modules); i++)
        {
          g_autofree char *path = g_strconcat (RUNTIME_RESOURCE_PATH, runtime_modules[i], NULL);
          g_autoptr(GBytes) bytes = NULL;
          g_autoptr(GError) error = NULL;

          bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
          if (bytes == NULL)
            g_error ("The page runtime module %s is missing: %s", path, error->message);

          if (i > 0)
            g_string_append (modules, "\n");
          g_string_append_len (modules, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
        }

      g_once_init_leave (&source,
                         tw_script_expand (tw_script_get (RUNTIME_CALL_RESOURCE_PATH "install.js"),
                                           "tabwrightModules", modules->str,
                                           NULL));
    }

  return source;
}

/* The body every call runs in the isolated world (webview/runtime/call/). */
static const char *
tw_page_runtime_get_call_body (void)
{
  return tw_script_get (RUNTIME_CALL_RESOURCE_PATH "call.js");
}

/* Pointer capture in the page's own world (webview/page-world/). */
static const char *
tw_page_runtime_get_page_world_source (void)
{
  return tw_script_get ("/io/github/tabwright/Tabwright/page-world/pointer-capture.js");
}

static void
on_load_changed_cb (TwPageRuntime   *self,
                    WebKitLoadEvent  load_event,
                    WebKitWebView   *view)
{
  g_assert (TW_IS_PAGE_RUNTIME (self));

  /* A new document, perhaps in a new web process after a crash. */
  if (load_event == WEBKIT_LOAD_COMMITTED)
    {
      self->commits++;
      /* The new document never saw the held text. */
      g_clear_pointer (&self->held_text, g_ref_string_release);
      g_clear_pointer (&self->held_id, g_free);
      self->crashed = FALSE;
      self->unanswered = FALSE;
    }
}

static void
on_web_process_terminated_cb (TwPageRuntime                     *self,
                              WebKitWebProcessTerminationReason  reason,
                              WebKitWebView                     *view)
{
  g_assert (TW_IS_PAGE_RUNTIME (self));

  self->crashed = TRUE;
  self->unanswered = FALSE;
}

static void
tw_page_runtime_dispose (GObject *object)
{
  TwPageRuntime *self = TW_PAGE_RUNTIME (object);

  if (self->view != NULL && self->script != NULL)
    {
      webkit_user_content_manager_remove_script (webkit_web_view_get_user_content_manager (self->view),
                                                 self->script);
      webkit_user_content_manager_remove_script (webkit_web_view_get_user_content_manager (self->view),
                                                 tw_evaluate_script_get_user_script ());
    }
  if (self->view != NULL && self->page_world_script != NULL)
    webkit_user_content_manager_remove_script (webkit_web_view_get_user_content_manager (self->view),
                                               self->page_world_script);
  g_clear_pointer (&self->script, webkit_user_script_unref);
  g_clear_pointer (&self->page_world_script, webkit_user_script_unref);
  g_clear_weak_pointer (&self->view);
  g_clear_pointer (&self->held_text, g_ref_string_release);
  g_clear_pointer (&self->held_id, g_free);

  G_OBJECT_CLASS (tw_page_runtime_parent_class)->dispose (object);
}

static void
tw_page_runtime_class_init (TwPageRuntimeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_page_runtime_dispose;
}

static void
tw_page_runtime_init (TwPageRuntime *self)
{
  self->next_ref = 1;
}

TwPageRuntime *
tw_page_runtime_new (WebKitWebView *view)
{
  TwPageRuntime *self;

  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);

  self = g_object_new (TW_TYPE_PAGE_RUNTIME, NULL);
  g_set_weak_pointer (&self->view, view);

  self->script = webkit_user_script_new_for_world (tw_page_runtime_get_source (),
                                                   WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                                   WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START,
                                                   TW_PAGE_RUNTIME_WORLD,
                                                   NULL, NULL);
  webkit_user_content_manager_add_script (webkit_web_view_get_user_content_manager (view),
                                          self->script);
  /* browser_evaluate's helper in the page's own world, there before any
   * page script. */
  webkit_user_content_manager_add_script (webkit_web_view_get_user_content_manager (view),
                                          tw_evaluate_script_get_user_script ());

  /* Pointer capture for the agent's pointer has to patch the page's own
   * Element methods, which the isolated world cannot reach. */
  self->page_world_script = webkit_user_script_new (tw_page_runtime_get_page_world_source (),
                                                    WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                                    WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START,
                                                    NULL, NULL);
  webkit_user_content_manager_add_script (webkit_web_view_get_user_content_manager (view),
                                          self->page_world_script);

  g_signal_connect_object (view, "load-changed",
                           G_CALLBACK (on_load_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (view, "web-process-terminated",
                           G_CALLBACK (on_web_process_terminated_cb), self, G_CONNECT_SWAPPED);

  return self;
}

guint64
tw_page_runtime_get_next_ref (TwPageRuntime *self)
{
  g_return_val_if_fail (TW_IS_PAGE_RUNTIME (self), 0);

  return self->next_ref;
}

/* Calls into the page. */

typedef struct
{
  char         *function_name;
  char         *args_json;
  guint         timeout_ms;
  GCancellable *page_cancellable;
  GCancellable *caller_cancellable;
  gulong        caller_cancelled_id;
  guint         timeout_id;
  gint64        started;
  guint64       frame;
  guint         commits;
  gboolean      installed;
  gboolean      completed;
  /* The text the page holds beside this call, as sent with it: an answer
   * that names it takes it from here, whatever later calls hold. */
  char         *held_text;   /* GRefString */
  char         *held_id;
} CallData;

static void
call_data_free (CallData *data)
{
  g_assert (data->timeout_id == 0);
  g_assert (data->caller_cancelled_id == 0);

  g_free (data->function_name);
  g_free (data->args_json);
  g_clear_pointer (&data->held_text, g_ref_string_release);
  g_free (data->held_id);
  g_clear_object (&data->page_cancellable);
  g_clear_object (&data->caller_cancellable);
  g_free (data);
}

/* Ends a call once: the first of the page's answer, the time limit and the
 * caller's cancellation wins, and later ones find it completed. */
static gboolean
call_complete_begin (GTask *task)
{
  CallData *data = g_task_get_task_data (task);

  if (data->completed)
    return FALSE;

  data->completed = TRUE;
  g_clear_handle_id (&data->timeout_id, g_source_remove);
  if (data->caller_cancelled_id != 0)
    {
      g_cancellable_disconnect (data->caller_cancellable, data->caller_cancelled_id);
      data->caller_cancelled_id = 0;
    }

  g_debug ("Runtime call %s finished after %.1f ms", data->function_name,
           (g_get_monotonic_time () - data->started) / 1000.0);

  return TRUE;
}

static void
call_return_error (GTask  *task,
                   GError *error)
{
  if (call_complete_begin (task))
    g_task_return_error (task, error);
  else
    g_error_free (error);
}

static gboolean
call_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  CallData *data = g_task_get_task_data (task);

  data->timeout_id = 0;
  TW_PAGE_RUNTIME (g_task_get_source_object (task))->unanswered = TRUE;
  g_cancellable_cancel (data->page_cancellable);
  call_return_error (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                                        "The page did not answer within %u ms; a script on it "
                                        "may be busy", data->timeout_ms));

  return G_SOURCE_REMOVE;
}

static void
call_caller_cancelled_cb (GCancellable *cancellable,
                          GCancellable *page_cancellable)
{
  /* WebKit then completes the call with G_IO_ERROR_CANCELLED. */
  g_cancellable_cancel (page_cancellable);
}

static void call_start (GTask *task);

guint64
tw_page_runtime_ref_frame (const char *ref)
{
  const char *p = ref;
  guint64 frame = 0;

  if (p == NULL)
    return 0;

  while (g_ascii_isspace (*p))
    p++;
  if (*p == '@')
    p++;
  if (*p != 'f' || !g_ascii_isdigit (p[1]))
    return 0;

  for (p++; g_ascii_isdigit (*p); p++)
    {
      if (frame > G_MAXUINT32)
        return 0;
      frame = frame * 10 + (guint64) (*p - '0');
    }

  return *p == 'e' ? frame : 0;
}

/* The frame a call goes to: the one its refs name, or the one its "frame"
 * member names (calls of an action on an element of a frame that name no
 * ref themselves, such as key strokes); 0 for the main frame. */
static gboolean
call_frame (JsonObject  *args,
            guint64     *frame,
            GError     **error)
{
  static const char * const members[] = { "ref", "sourceRef", "targetRef" };
  gboolean named = FALSE;
  JsonNode *node;

  *frame = 0;
  if (args == NULL)
    return TRUE;

  if ((node = json_object_get_member (args, "frame")) != NULL &&
      JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64 &&
      json_node_get_int (node) > 0)
    {
      *frame = json_node_get_int (node);
      named = TRUE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      guint64 in;

      node = json_object_get_member (args, members[i]);
      if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
          json_node_get_value_type (node) != G_TYPE_STRING)
        continue;

      in = tw_page_runtime_ref_frame (json_node_get_string (node));
      if (named && in != *frame)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "%s \"%s\" is in another frame than the other element; both must be "
                       "in the same frame", members[i], json_node_get_string (node));
          return FALSE;
        }
      *frame = in;
      named = TRUE;
    }

  return TRUE;
}

static void
call_installed_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JSCValue) value = NULL;
  g_autoptr(GError) error = NULL;
  CallData *data = g_task_get_task_data (task);

  value = webkit_web_view_evaluate_javascript_finish (WEBKIT_WEB_VIEW (object), result, &error);

  if (data->completed)
    return;

  if (error != NULL)
    {
      call_return_error (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                            "Could not install the page runtime: %s",
                                            error->message));
      return;
    }

  call_start (task);
}

/* The call could not reach the page, or the page did not answer it. Takes
 * the error. */
static void
call_fail (GTask  *task,
           GError *error)
{
  TwPageRuntime *self = g_task_get_source_object (task);
  CallData *data = g_task_get_task_data (task);
  g_autoptr(GError) owned = error;

  if (self->crashed)
    call_return_error (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED,
                                          "The tab's web process has died; "
                                          "browser_reload recovers it"));
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    call_return_error (task, g_steal_pointer (&owned));
  else if (self->commits != data->commits)
    /* The document went away under the call; the same call on the new
     * one may well succeed. */
    call_return_error (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                                          "The page navigated while %s ran; try again",
                                          data->function_name));
  else if (error->domain == WEBKIT_JAVASCRIPT_ERROR)
    call_return_error (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_SCRIPT_ERROR,
                                          "The page runtime call %s failed: %s",
                                          data->function_name, error->message));
  else
    call_return_error (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                          "The page runtime call %s failed: %s",
                                          data->function_name, error->message));
}

static void call_take_answer (GTask      *task,
                              const char *json,
                              const char *text);

static void
call_finished_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TwPageRuntime *self = g_task_get_source_object (task);
  CallData *data = g_task_get_task_data (task);
  g_autoptr(JSCValue) value = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  value = webkit_web_view_call_async_javascript_function_finish (WEBKIT_WEB_VIEW (object),
                                                                 result, &error);

  if (data->completed)
    return;

  if (error != NULL)
    {
      call_fail (task, g_steal_pointer (&error));
      return;
    }

  if (value == NULL || jsc_value_is_null (value) || jsc_value_is_undefined (value))
    {
      /* The document predates the user script: install the runtime into it
       * once, then ask again. */
      if (!data->installed && self->view != NULL)
        {
          data->installed = TRUE;
          webkit_web_view_evaluate_javascript (self->view,
                                               tw_page_runtime_get_source (), -1,
                                               TW_PAGE_RUNTIME_WORLD,
                                               "tabwright-runtime.js",
                                               data->page_cancellable,
                                               call_installed_cb,
                                               g_object_ref (task));
          return;
        }

      call_return_error (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                            "The page runtime is missing from this document"));
      return;
    }

  /* A long text comes beside the JSON, as [json, text] (api.js). */
  if (jsc_value_is_array (value))
    {
      g_autoptr(JSCValue) first = jsc_value_object_get_property_at_index (value, 0);
      g_autoptr(JSCValue) second = jsc_value_object_get_property_at_index (value, 1);

      if (jsc_value_is_string (first) && jsc_value_is_string (second))
        {
          g_autofree char *text = jsc_value_to_string (second);

          json = jsc_value_to_string (first);
          call_take_answer (task, json, text);
          return;
        }
    }

  if (!jsc_value_is_string (value))
    {
      call_return_error (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                            "The page runtime answered %s with a non-string",
                                            data->function_name));
      return;
    }

  json = jsc_value_to_string (value);
  call_take_answer (task, json, NULL);
}

/* The runtime's answer: {ok, value, nextRef} or {ok: false, error}; @text,
 * when the answer came as [json, text], is the value's "text" member. */
static void
call_take_answer (GTask      *task,
                  const char *json,
                  const char *text)
{
  TwPageRuntime *self = g_task_get_source_object (task);
  CallData *data = g_task_get_task_data (task);
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *answer;
  JsonNode *root;

  /* The value takes the text that came beside it, or the one held for it:
   * its object stays open. */
  parser = text != NULL || strstr (json, "\"textHeld\"") != NULL ? json_parser_new ()
                                                                 : json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, json, -1, &error) ||
      (root = json_parser_get_root (parser)) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (root))
    {
      call_return_error (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                            "The page runtime answered %s with bad JSON",
                                            data->function_name));
      return;
    }

  answer = json_node_get_object (root);
  self->unanswered = FALSE;

  /* A long text: the page keeps its id, so that the same text again comes
   * as the id alone. */
  if (text != NULL && json_object_has_member (answer, "textId"))
    {
      g_clear_pointer (&self->held_text, g_ref_string_release);
      g_free (self->held_id);
      self->held_text = g_ref_string_new (text);
      self->held_id = g_strdup (tw_json_get_string (answer, "textId", ""));
    }
  else if (text == NULL && json_object_has_member (answer, "textHeld"))
    {
      if (data->held_id == NULL ||
          g_strcmp0 (tw_json_get_string (answer, "textHeld", NULL), data->held_id) != 0)
        {
          call_return_error (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                                "The page runtime answered %s with a text it "
                                                "never sent", data->function_name));
          return;
        }
      text = data->held_text;
    }

  if (json_object_has_member (answer, "nextRef"))
    {
      gint64 next = json_object_get_int_member (answer, "nextRef");

      if (next > 0 && (guint64) next > self->next_ref)
        self->next_ref = next;
    }

  if (json_object_get_boolean_member_with_default (answer, "ok", FALSE))
    {
      JsonNode *result_node = json_object_get_member (answer, "value");
      JsonNode *copy = result_node != NULL ? json_node_copy (result_node)
                                           : json_node_new (JSON_NODE_NULL);

      if (text != NULL && JSON_NODE_HOLDS_OBJECT (copy))
        json_object_set_string_member (json_node_get_object (copy), "text", text);

      if (call_complete_begin (task))
        g_task_return_pointer (task, copy, (GDestroyNotify) json_node_unref);
      else
        json_node_unref (copy);
    }
  else
    {
      JsonNode *err = json_object_get_member (answer, "error");
      const char *code = NULL;
      const char *message = NULL;

      if (err != NULL && JSON_NODE_HOLDS_OBJECT (err))
        {
          code = json_object_get_string_member_with_default (json_node_get_object (err),
                                                             "code", NULL);
          message = json_object_get_string_member_with_default (json_node_get_object (err),
                                                                "message", NULL);
        }

      call_return_error (task, g_error_new_literal (TW_BROWSER_ERROR,
                                                    tw_browser_error_code_from_name (code),
                                                    message != NULL ? message
                                                                    : "The page runtime failed"));
    }
}

static void
call_start (GTask *task)
{
  TwPageRuntime *self = g_task_get_source_object (task);
  CallData *data = g_task_get_task_data (task);
  GVariantDict dict;

  if (self->view == NULL)
    {
      call_return_error (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                                            "The tab is closed"));
      return;
    }

  g_variant_dict_init (&dict, NULL);
  if (data->frame != 0)
    {
      /* A frame of another origin: the main frame's runtime hands the call
       * to that frame's (webview/runtime/frames.js), within this call. */
      g_autoptr(JsonObject) forward = json_object_new ();
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
      g_autofree char *forward_json = NULL;

      json_object_set_int_member (forward, "frame", data->frame);
      json_object_set_string_member (forward, "fn", data->function_name);
      json_object_set_string_member (forward, "args", data->args_json);
      json_node_set_object (node, forward);
      forward_json = json_to_string (node, FALSE);
      g_variant_dict_insert (&dict, "fn", "s", "frames.forward");
      g_variant_dict_insert (&dict, "args", "s", forward_json);
    }
  else
    {
      g_variant_dict_insert (&dict, "fn", "s", data->function_name);
      g_variant_dict_insert (&dict, "args", "s", data->args_json);
    }
  /* JavaScript numbers are doubles; refs stay far below 2^53. */
  g_variant_dict_insert (&dict, "nextRef", "d", (double) self->next_ref);
  g_clear_pointer (&data->held_text, g_ref_string_release);
  g_clear_pointer (&data->held_id, g_free);
  if (self->held_id != NULL)
    {
      data->held_text = g_ref_string_acquire (self->held_text);
      data->held_id = g_strdup (self->held_id);
    }
  g_variant_dict_insert (&dict, "held", "s", self->held_id != NULL ? self->held_id : "");

  webkit_web_view_call_async_javascript_function (self->view,
                                                  tw_page_runtime_get_call_body (), -1,
                                                  g_variant_dict_end (&dict),
                                                  TW_PAGE_RUNTIME_WORLD,
                                                  "tabwright-call.js",
                                                  data->page_cancellable,
                                                  call_finished_cb,
                                                  g_object_ref (task));
}

void
tw_page_runtime_call_with_timeout_async (TwPageRuntime       *self,
                                         const char          *function_name,
                                         JsonObject          *args,
                                         guint                timeout_ms,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonNode) args_node = NULL;
  g_autoptr(GError) error = NULL;
  guint64 frame = 0;
  CallData *data;

  g_return_if_fail (TW_IS_PAGE_RUNTIME (self));
  g_return_if_fail (function_name != NULL);
  g_return_if_fail (timeout_ms > 0);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_page_runtime_call_with_timeout_async);

  if (!call_frame (args, &frame, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data = g_new0 (CallData, 1);
  data->frame = frame;
  data->function_name = g_strdup (function_name);
  args_node = json_node_new (JSON_NODE_OBJECT);
  if (args != NULL)
    json_node_set_object (args_node, args);
  else
    json_node_take_object (args_node, json_object_new ());
  data->args_json = json_to_string (args_node, FALSE);
  data->timeout_ms = timeout_ms;
  data->page_cancellable = g_cancellable_new ();
  data->started = g_get_monotonic_time ();
  data->commits = self->commits;
  g_task_set_task_data (task, data, (GDestroyNotify) call_data_free);

  if (self->crashed)
    {
      call_return_error (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED,
                                            "The tab's web process has died; "
                                            "browser_reload recovers it"));
      return;
    }

  if (cancellable != NULL)
    {
      data->caller_cancellable = g_object_ref (cancellable);
      data->caller_cancelled_id = g_cancellable_connect (cancellable,
                                                         G_CALLBACK (call_caller_cancelled_cb),
                                                         g_object_ref (data->page_cancellable),
                                                         g_object_unref);
    }

  data->timeout_id = g_timeout_add_full (G_PRIORITY_DEFAULT, timeout_ms,
                                         call_timeout_cb,
                                         g_object_ref (task), g_object_unref);

  call_start (task);
}

void
tw_page_runtime_call_async (TwPageRuntime       *self,
                            const char          *function_name,
                            JsonObject          *args,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  tw_page_runtime_call_with_timeout_async (self, function_name, args,
                                           TW_PAGE_RUNTIME_DEFAULT_TIMEOUT_MS,
                                           cancellable, callback, user_data);
}

JsonNode *
tw_page_runtime_call_finish (TwPageRuntime  *self,
                             GAsyncResult   *result,
                             GError        **error)
{
  g_return_val_if_fail (TW_IS_PAGE_RUNTIME (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

JsonObject *
tw_page_runtime_call_finish_object (TwPageRuntime  *self,
                                    GAsyncResult   *result,
                                    GError        **error,
                                    const char     *no_object_format,
                                    ...)
{
  g_autoptr(JsonNode) node = tw_page_runtime_call_finish (self, result, error);
  va_list args;

  if (node == NULL)
    return NULL;
  if (JSON_NODE_HOLDS_OBJECT (node))
    return json_object_ref (json_node_get_object (node));

  va_start (args, no_object_format);
  g_propagate_error (error, g_error_new_valist (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                                no_object_format, args));
  va_end (args);
  return NULL;
}

/* A call that completes a task of its caller's with the object the page
 * answers; any other value fails with @no_object_message. */
typedef struct
{
  GTask      *task;
  const char *no_object_message;
} ObjectCall;

static void
object_call_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autofree ObjectCall *call = user_data;
  g_autoptr(GTask) task = call->task;
  GError *error = NULL;
  JsonObject *answer;

  answer = tw_page_runtime_call_finish_object (TW_PAGE_RUNTIME (object), result, &error,
                                               "%s", call->no_object_message);
  if (answer == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, answer, (GDestroyNotify) json_object_unref);
}

/* Runs @function_name with @args, within @task's cancellable, and
 * completes @task with the object it answers or with the call's error; a
 * value that is no object fails with @no_object_message. */
static void
call_for_object (TwPageRuntime *self,
                 const char    *function_name,
                 JsonObject    *args,
                 const char    *no_object_message,
                 GTask         *task)
{
  ObjectCall *call = g_new0 (ObjectCall, 1);

  call->task = g_object_ref (task);
  call->no_object_message = no_object_message;
  tw_page_runtime_call_async (self, function_name, args, g_task_get_cancellable (task),
                              object_call_cb, call);
}

/* Ref resolution. */

void
tw_page_runtime_resolve_ref_async (TwPageRuntime       *self,
                                   const char          *ref,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonObject) args = NULL;

  g_return_if_fail (TW_IS_PAGE_RUNTIME (self));
  g_return_if_fail (ref != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_page_runtime_resolve_ref_async);

  args = json_object_new ();
  json_object_set_string_member (args, "ref", ref);

  call_for_object (self, "resolveRef", args,
                   "The page runtime resolved a ref to something else", task);
}

JsonObject *
tw_page_runtime_resolve_ref_finish (TwPageRuntime  *self,
                                    GAsyncResult   *result,
                                    GError        **error)
{
  g_return_val_if_fail (TW_IS_PAGE_RUNTIME (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Performance: the runtime's performance.js measures the page. */

void
tw_page_runtime_performance_run (const TwTabJob *job,
                                 GTask          *task)
{
  g_return_if_fail (TW_IS_PAGE_RUNTIME (job->runtime));

  call_for_object (job->runtime, "performance.report", job->params,
                   "the page runtime returned no measurements", task);
}


gboolean
tw_page_runtime_get_unanswered (TwPageRuntime *self)
{
  g_return_val_if_fail (TW_IS_PAGE_RUNTIME (self), FALSE);

  return self->unanswered;
}

static gboolean
read_number (JsonObject *object,
             const char *member,
             double     *value)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      (json_node_get_value_type (node) != G_TYPE_DOUBLE &&
       json_node_get_value_type (node) != G_TYPE_INT64))
    return FALSE;

  *value = json_node_get_double (node);
  return TRUE;
}

gboolean
tw_page_runtime_read_rect (JsonObject      *object,
                           const char      *member,
                           graphene_rect_t *rect)
{
  JsonNode *node = json_object_get_member (object, member);
  JsonObject *r;
  double x, y, width, height;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;

  r = json_node_get_object (node);
  if (!read_number (r, "x", &x) || !read_number (r, "y", &y) ||
      !read_number (r, "width", &width) || !read_number (r, "height", &height))
    return FALSE;

  graphene_rect_init (rect, x, y, width, height);
  return TRUE;
}

guint
_tw_page_runtime_next_snapshot_id (TwPageRuntime *self,
                                   gboolean      *had_snapshot)
{
  *had_snapshot = self->last_snapshot_id > 0;
  return ++self->last_snapshot_id;
}
