/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-actions-private.h"

#include "tw-error.h"
#include "tw-evaluate-script.h"

/* browser_evaluate, in the page's own world; its result is written out by
 * the helper of tw-evaluate-script.c, which the page cannot tamper with. */

/* Cuts @text at @max bytes without splitting a UTF-8 character. */
static char *
utf8_cut (const char *text,
          gsize       max)
{
  const char *end = text + max;

  while (end > text && (*end & 0xC0) == 0x80)
    end--;

  return g_strndup (text, end - text);
}

static void
evaluate_timed_out (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);

  _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                                               "The function did not finish within %.1f s; it may wait for "
                                               "something that never happens, or loop",
                                               run->script_timeout_ms / 1000.0));
}

static void
evaluate_lost (GTask *task)
{
  _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                               "The page's answer to the function was lost"));
}

/* The helper always answers a string, so WebKit only fails to convert the
 * answer when there was none: the web process died under the call. The
 * tab reports that as browser_crashed when WebKit tells it, right after;
 * should that never come, the call fails after a bounded wait. */
static gboolean
evaluate_answer_lost (GTask        *task,
                      const GError *error)
{
  if (error->domain != WEBKIT_JAVASCRIPT_ERROR ||
      g_strcmp0 (error->message, "Unsupported result type") != 0)
    return FALSE;

  g_debug ("browser_evaluate lost its answer (%s); waiting for the tab to hear of a crash",
           error->message);
  _tw_tab_actions_run_start_timer (task, 2000, evaluate_lost);
  return TRUE;
}

static void evaluate_answer (GTask      *task,
                             JsonObject *answer);

static void
evaluate_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ActionRun *run = g_task_get_task_data (task);
  g_autoptr(JSCValue) value = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autofree char *json = NULL;
  JsonNode *root;

  value = webkit_web_view_call_async_javascript_function_finish (WEBKIT_WEB_VIEW (object),
                                                                 result, &error);

  if (_tw_tab_actions_run_is_done (task))
    return;

  g_clear_handle_id (&run->timer_id, g_source_remove);

  if (value == NULL)
    {
      if (_tw_tab_actions_run_navigated (run) && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          json_object_set_null_member (run->result, "result");
          json_object_set_boolean_member (run->result, "truncated", FALSE);
          _tw_tab_actions_run_navigation_wait (task);
        }
      else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        _tw_tab_actions_run_fail (task, g_steal_pointer (&error));
      else if (evaluate_answer_lost (task, error))
        return;
      else if (error->domain == WEBKIT_JAVASCRIPT_ERROR)
        _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_SCRIPT_ERROR,
                                                     "%s", error->message));
      else
        _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                                     "The function could not run: %s", error->message));
      return;
    }

  /* The page serialises its answer itself, keeping the order of object
   * members; jsc_value_to_json() would not. */
  json = jsc_value_is_string (value) ? jsc_value_to_string (value) : jsc_value_to_json (value, 0);
  parser = json_parser_new_immutable ();
  if (json == NULL || !json_parser_load_from_data (parser, json, -1, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                                   "The function's result could not be read"));
      return;
    }

  evaluate_answer (task, json_node_get_object (root));
}

/* The helper's answer (evaluate.js): the function's value, its exception,
 * or that the element could not be handed to it. */
static void
evaluate_answer (GTask      *task,
                 JsonObject *answer)
{
  ActionRun *run = g_task_get_task_data (task);
  JsonNode *value_node;

  if (json_object_get_boolean_member_with_default (answer, "missing", FALSE))
    {
      _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_STALE_REF,
                                                   "%s could not be handed to the function: it left the page; "
                                                   "take a new snapshot",
                                                   json_object_get_string_member_with_default (run->params, "ref", "")));
      return;
    }

  if (json_object_get_boolean_member_with_default (answer, "threw", FALSE))
    {
      const char *message = json_object_get_string_member_with_default (answer, "message", "an exception");
      const char *where = json_object_get_string_member_with_default (answer, "where", "");

      if (where[0] != '\0' && strstr (message, where) == NULL)
        _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_SCRIPT_ERROR,
                                                     "The function threw %s (%s)", message, where));
      else
        _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_SCRIPT_ERROR,
                                                     "The function threw %s", message));
      return;
    }

  value_node = json_object_get_member (answer, "value");
  {
    g_autofree char *text = value_node != NULL ? json_to_string (value_node, FALSE) : g_strdup ("null");
    gboolean truncated = json_object_get_boolean_member_with_default (answer, "truncated", FALSE);

    if (strlen (text) > TW_TAB_ACTIONS_MAX_RESULT_BYTES)
      {
        /* Too long to hand back as a value: its JSON text, cut. */
        g_autofree char *cut = utf8_cut (text, TW_TAB_ACTIONS_MAX_RESULT_BYTES);

        json_object_set_string_member (run->result, "result", cut);
        truncated = TRUE;
      }
    else
      {
        json_object_set_member (run->result, "result",
                                value_node != NULL ? json_node_copy (value_node)
                                                   : json_node_new (JSON_NODE_NULL));
      }

    json_object_set_boolean_member (run->result, "truncated", truncated);
    json_object_set_string_member (run->result, "resultType",
                                   json_object_get_string_member_with_default (answer, "type", "undefined"));
  }

  /* A script that set the address: its navigation may be decided on and
   * not loading yet, as after a click. */
  if (tw_load_watch_is_navigating (run->watch))
    _tw_tab_actions_run_navigation_wait (task);
  else
    _tw_tab_actions_run_succeed (task);
}

static void
run_evaluate_in_page (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  g_autofree char *body = tw_evaluate_script_build_body (json_object_get_string_member (run->params, "function"));
  GVariantDict dict;

  run->phase = PHASE_ACT;
  run->acted = TRUE;
  g_clear_object (&run->step_cancellable);
  run->step_cancellable = g_cancellable_new ();

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "nonce", "s", run->nonce != NULL ? run->nonce : "");
  g_variant_dict_insert (&dict, "maxBytes", "d", (double) TW_TAB_ACTIONS_MAX_RESULT_BYTES);

  _tw_tab_actions_run_start_timer (task, run->script_timeout_ms, evaluate_timed_out);

  /* A NULL world is the page's own: the function sees the page's globals,
   * as the agent expects. */
  webkit_web_view_call_async_javascript_function (run->view, body, -1,
                                                  g_variant_dict_end (&dict),
                                                  NULL, "tabwright-evaluate.js",
                                                  run->step_cancellable,
                                                  evaluate_done_cb, g_object_ref (task));
}

static void
evaluate_in_frame_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ActionRun *run = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = _tw_tab_actions_run_call_finish (task, object, result);

  if (node == NULL)
    return;

  g_clear_handle_id (&run->timer_id, g_source_remove);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      _tw_tab_actions_run_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                                   "The function's result could not be read"));
      return;
    }

  evaluate_answer (task, json_node_get_object (node));
}

/* With a ref inside a frame of another origin: the function runs in that
 * frame's own world (the UI process can only run scripts in the main
 * frame's), through the frame's runtime and the web-process extension
 * (webview/runtime/frames.js, frames.evaluate). */
static void
run_evaluate_in_frame (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  g_autofree char *body = tw_evaluate_script_build_body (json_object_get_string_member (run->params, "function"));
  g_autofree char *source = g_strdup_printf ("(async function (nonce, maxBytes) {\n%s\n})", body);
  g_autoptr(JsonObject) args = json_object_new ();

  run->phase = PHASE_ACT;
  run->acted = TRUE;

  json_object_set_int_member (args, "frame", run->frame);
  json_object_set_string_member (args, "source", source);
  json_object_set_string_member (args, "nonce", run->nonce != NULL ? run->nonce : "");
  json_object_set_double_member (args, "maxBytes", (double) TW_TAB_ACTIONS_MAX_RESULT_BYTES);

  _tw_tab_actions_run_start_timer (task, run->script_timeout_ms, evaluate_timed_out);
  /* The runtime's own limit comes after the function's, which says more. */
  tw_page_runtime_call_with_timeout_async (run->runtime, "frames.evaluate", args,
                                           run->script_timeout_ms + 5000,
                                           g_task_get_cancellable (task),
                                           evaluate_in_frame_cb, g_object_ref (task));
}

static void
evaluate_exposed (GTask      *task,
                  JsonObject *answer)
{
  ActionRun *run = g_task_get_task_data (task);

  if (answer != NULL && json_object_has_member (answer, "element"))
    json_object_set_member (run->result, "element",
                            json_node_copy (json_object_get_member (answer, "element")));

  if (run->frame != 0)
    run_evaluate_in_frame (task);
  else
    run_evaluate_in_page (task);
}

/* Starting: with a ref, the element is first handed to the page's world
 * under a nonce of this run; the function runs once that is done. */
void
_tw_tab_actions_run_evaluate (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  JsonObject *params = run->params;

  if (json_object_has_member (params, "ref") &&
      !JSON_NODE_HOLDS_NULL (json_object_get_member (params, "ref")))
    {
      g_autoptr(JsonObject) args = json_object_new ();
      g_autofree char *uuid = g_uuid_string_random ();
      g_auto(GStrv) parts = g_strsplit (uuid, "-", -1);

      run->nonce = g_strjoinv ("", parts);
      json_object_set_string_member (args, "ref", json_object_get_string_member (params, "ref"));
      json_object_set_string_member (args, "nonce", run->nonce);
      _tw_tab_actions_run_step (task, "actions.exposeElement", args, evaluate_exposed);
    }
  else
    {
      run_evaluate_in_page (task);
    }
}
