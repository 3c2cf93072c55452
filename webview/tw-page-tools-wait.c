/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-page-tools.h"
#include "tw-page-tools-private.h"

#include "tw-json.h"
#include "tw-evaluate-script.h"
#include "tw-error.h"

#include <string.h>

/* How often browser_wait looks again, and how long one look may take before
 * it counts as unanswered. */
#define WAIT_POLL_INTERVAL_MS 100
/* loadState networkidle: how long no request of the tab may be in flight. */
#define NETWORK_IDLE_MS 500
#define WAIT_CHECK_TIMEOUT_MS 2000
/* How long a wait whose time ran out still waits for the look on its way,
 * to say what the page shows. */
#define WAIT_REPORT_GRACE_MS 500

static const char *
view_title (WebKitWebView *view)
{
  const char *title = webkit_web_view_get_title (view);

  return title != NULL ? title : "";
}

static const char *
view_uri (WebKitWebView *view)
{
  const char *uri = webkit_web_view_get_uri (view);

  return uri != NULL ? uri : "about:blank";
}

/* browser_wait */

typedef struct
{
  WebKitWebView *view;
  TwPagePoll     poll;
  char          *text;
  char          *url;
  /* The other conditions (wait.js): "textGone", "selector", "ref" or
   * "loadState", the arguments of its look, and what it waits for. */
  char          *kind;
  JsonObject    *condition;
  char          *value;
  guint          timeout_ms;
  gint64         started;

  guint          deadline_id;
  gulong         uri_handler;

  guint          n_checks;
  char          *excerpt;
  char          *check_problem;

  /* loadState networkidle judged from WebKit's own view of the tab's
   * requests (@log): the page has loaded and none of its requests has been
   * in flight for NETWORK_IDLE_MS. */
  TwTabLog      *log;
  gboolean       network_idle;

  /* The time ran out while a look was in flight: its answer, if it comes
   * within WAIT_REPORT_GRACE_MS, says what the page shows, and then the
   * wait ends. */
  gboolean       expired;
} WaitData;

static void
wait_data_free (WaitData *data)
{
  g_assert (data->deadline_id == 0);

  _tw_page_poll_clear (&data->poll);
  g_clear_object (&data->view);
  g_clear_object (&data->log);
  g_free (data->text);
  g_free (data->url);
  g_free (data->kind);
  g_clear_pointer (&data->condition, json_object_unref);
  g_free (data->value);
  g_free (data->excerpt);
  g_free (data->check_problem);
  g_free (data);
}

static void
wait_stop (GTask *task)
{
  WaitData *data = g_task_get_task_data (task);
  WebKitWebView *view = data->view;

  _tw_page_poll_stop (&data->poll);
  g_clear_handle_id (&data->deadline_id, g_source_remove);
  g_clear_signal_handler (&data->uri_handler, view);
}

static void
wait_succeed (GTask      *task,
              const char *matched)
{
  WaitData *data = g_task_get_task_data (task);
  WebKitWebView *view = data->view;
  g_autoptr(GTask) hold = NULL;
  JsonObject *reply;

  if (data->poll.done)
    return;

  /* Removing the sources may drop every other reference. */
  hold = g_object_ref (task);
  wait_stop (task);

  reply = json_object_new ();
  json_object_set_string_member (reply, "url", view_uri (view));
  json_object_set_string_member (reply, "title", view_title (view));
  json_object_set_string_member (reply, "matched", matched);
  json_object_set_string_member (reply, "value", data->value != NULL ? data->value
                                                 : data->text != NULL ? data->text : data->url);
  json_object_set_int_member (reply, "elapsedMs", (g_get_monotonic_time () - data->started) / 1000);
  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
wait_fail (GTask  *task,
           GError *error)
{
  WaitData *data = g_task_get_task_data (task);
  g_autoptr(GTask) hold = NULL;

  if (data->poll.done)
    {
      g_error_free (error);
      return;
    }

  hold = g_object_ref (task);
  wait_stop (task);
  g_task_return_error (task, error);
}

static gboolean
wait_url_matches (GTask *task)
{
  WaitData *data = g_task_get_task_data (task);
  WebKitWebView *view = data->view;
  const char *uri = webkit_web_view_get_uri (view);

  return uri != NULL && strstr (uri, data->url) != NULL;
}

static void
wait_uri_changed_cb (WebKitWebView *view,
                     GParamSpec    *pspec,
                     GTask         *task)
{
  if (wait_url_matches (task))
    wait_succeed (task, "url");
}

/* After the page's load event: whether none of the tab's requests has been
 * in flight for NETWORK_IDLE_MS, from the requests WebKit itself reports
 * (pending ones, failed ones, beacons and cross-origin ones included,
 * which the page's Resource Timing never lists). Otherwise the excerpt
 * names the requests still in flight, or when the last one ended. */
static gboolean
wait_network_idle (WaitData *data)
{
  gint64 last_us = 0;
  g_autoptr(JsonArray) in_flight = tw_tab_log_get_in_flight (data->log, &last_us);
  guint n = json_array_get_length (in_flight);
  gint64 quiet_ms = last_us > 0 ? (g_get_monotonic_time () - last_us) / 1000 : G_MAXINT64;
  GString *excerpt;

  g_free (data->excerpt);

  if (n == 0)
    {
      if (quiet_ms >= NETWORK_IDLE_MS)
        {
          data->excerpt = g_strdup ("no request in flight");
          return TRUE;
        }

      data->excerpt = g_strdup_printf ("the last request ended %" G_GINT64_FORMAT " ms ago",
                                       quiet_ms);
      return FALSE;
    }

  excerpt = g_string_new (NULL);
  g_string_append_printf (excerpt, "%u request%s still in flight: ", n, n == 1 ? "" : "s");
  for (guint i = 0; i < MIN (n, 5u); i++)
    {
      JsonObject *request = json_array_get_object_element (in_flight, i);

      g_string_append_printf (excerpt, "%s%s %s (%s, for %" G_GINT64_FORMAT " ms)",
                              i > 0 ? ", " : "",
                              json_object_get_string_member_with_default (request, "method", "GET"),
                              json_object_get_string_member_with_default (request, "url", ""),
                              json_object_get_string_member_with_default (request, "resourceType",
                                                                          "other"),
                              json_object_get_int_member_with_default (request, "pendingMs", 0));
    }
  if (n > 5)
    g_string_append_printf (excerpt, " and %u more", n - 5);
  data->excerpt = g_string_free (excerpt, FALSE);

  return FALSE;
}

static void wait_report_timeout (GTask *task);

static void
wait_check_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  WaitData *data = g_task_get_task_data (task);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *answer;

  if (!_tw_page_poll_look_finish (&data->poll, result, &node, &error))
    return;

  data->n_checks++;

  if (node == NULL)
    {
      /* A crashed page will not come back by itself; anything else (a
       * navigation tore the document down, a busy script) may pass, so the
       * next poll looks again. */
      if (g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_CRASHED) ||
          g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT))
        {
          wait_fail (task, g_steal_pointer (&error));
          return;
        }

      g_free (data->check_problem);
      data->check_problem = g_strdup (error->message);
      goto checked;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    goto checked;

  answer = json_node_get_object (node);

  g_clear_pointer (&data->check_problem, g_free);
  g_free (data->excerpt);
  data->excerpt = g_strdup (json_object_get_string_member_with_default (answer, "excerpt", ""));

  if (json_object_get_boolean_member_with_default (answer, "found", FALSE) &&
      (!data->network_idle || wait_network_idle (data)))
    wait_succeed (task, data->kind != NULL ? data->kind : "text");

checked:
  if (data->expired)
    wait_report_timeout (task);
}

/* A "function" wait: the agent's predicate runs in the page's own world,
 * as browser_evaluate's functions do, and holds once it returns a truthy
 * value. */
static gboolean
json_truthy (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;
  if (!JSON_NODE_HOLDS_VALUE (node))
    return TRUE;
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_BOOLEAN:
      return json_node_get_boolean (node);
    case G_TYPE_INT64:
      return json_node_get_int (node) != 0;
    case G_TYPE_DOUBLE:
      return json_node_get_double (node) != 0.0;
    case G_TYPE_STRING:
      return json_node_get_string (node)[0] != '\0';
    default:
      return TRUE;
    }
}

static void
wait_function_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  WaitData *data = g_task_get_task_data (task);
  g_autoptr(JSCValue) value = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  JsonObject *answer;

  value = webkit_web_view_call_async_javascript_function_finish (WEBKIT_WEB_VIEW (object),
                                                                 result, &error);
  if (!_tw_page_poll_look_done (&data->poll))
    return;

  data->n_checks++;

  if (value == NULL)
    {
      g_free (data->check_problem);
      data->check_problem = g_strdup (error->message);
      goto checked;
    }

  json = jsc_value_is_string (value) ? jsc_value_to_string (value) : jsc_value_to_json (value, 0);
  if (json == NULL || !json_parser_load_from_data (parser, json, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    goto checked;

  answer = json_node_get_object (json_parser_get_root (parser));
  if (json_object_has_member (answer, "threw"))
    {
      wait_fail (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_SCRIPT_ERROR,
                                    "The function of the wait threw: %s",
                                    json_object_get_string_member_with_default (answer, "message",
                                                                                "an exception")));
      return;
    }

  g_clear_pointer (&data->check_problem, g_free);
  g_free (data->excerpt);
  {
    g_autofree char *returned = json_object_has_member (answer, "value")
                                ? json_to_string (json_object_get_member (answer, "value"), FALSE)
                                : g_strdup ("undefined");

    if (strlen (returned) > 200)
      returned[200] = '\0';
    data->excerpt = g_strdup_printf ("the function returned %s", returned);
  }

  if (json_truthy (json_object_get_member (answer, "value")))
    wait_succeed (task, "function");

checked:
  if (data->expired)
    wait_report_timeout (task);
}

static void
wait_check_function (GTask *task)
{
  WaitData *data = g_task_get_task_data (task);
  WebKitWebView *view = data->view;
  g_autofree char *body = tw_evaluate_script_build_body (data->value);
  GVariantDict dict;

  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "nonce", "s", "");
  g_variant_dict_insert (&dict, "maxBytes", "d", 4096.0);
  data->poll.check_in_flight = TRUE;
  webkit_web_view_call_async_javascript_function (view, body, -1, g_variant_dict_end (&dict),
                                                  NULL, "tabwright-wait.js",
                                                  data->poll.check_cancellable, wait_function_cb,
                                                  g_object_ref (task));
}

static void
wait_check_text (GTask *task)
{
  WaitData *data = g_task_get_task_data (task);
  g_autoptr(JsonObject) args = NULL;

  if (data->poll.check_in_flight)
    return;

  if (g_strcmp0 (data->kind, "function") == 0)
    {
      wait_check_function (task);
      return;
    }

  if (data->condition != NULL)
    {
      args = json_object_ref (data->condition);
    }
  else
    {
      args = json_object_new ();
      json_object_set_string_member (args, "text", data->text);
    }

  _tw_page_poll_look (&data->poll, task,
                      data->condition != NULL ? "wait.check" : "pageState.findText",
                      args, WAIT_CHECK_TIMEOUT_MS, wait_check_cb);
}

static gboolean
wait_poll_cb (gpointer user_data)
{
  GTask *task = user_data;
  WaitData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (_tw_page_poll_cancelled (&data->poll, task, &error))
    {
      wait_fail (task, g_steal_pointer (&error));
      return G_SOURCE_REMOVE;
    }

  if (data->url != NULL)
    {
      if (wait_url_matches (task))
        {
          data->poll.poll_id = 0;
          wait_succeed (task, "url");
          return G_SOURCE_REMOVE;
        }
    }
  else
    {
      wait_check_text (task);
    }

  return G_SOURCE_CONTINUE;
}

static void
wait_report_timeout (GTask *task)
{
  WaitData *data = g_task_get_task_data (task);
  WebKitWebView *view = data->view;
  g_autofree char *shows = NULL;
  GError *error;

  if (data->url != NULL)
    {
      if (wait_url_matches (task))
        {
          wait_succeed (task, "url");
          return;
        }

      error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                           "The URL did not come to contain \"%s\" within %u ms; "
                           "the tab is at %s (\"%s\")",
                           data->url, data->timeout_ms, view_uri (view), view_title (view));
      wait_fail (task, error);
      return;
    }

  if (data->kind != NULL)
    {
      if (data->excerpt != NULL && data->check_problem == NULL)
        shows = g_strdup (data->excerpt);
      else
        shows = g_strdup ("the page did not answer in time (is a script keeping it busy?)");

      error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                           "The wait for %s %s did not hold within %u ms. The tab shows \"%s\" "
                           "at %s; %s",
                           data->kind, data->value, data->timeout_ms, view_title (view),
                           view_uri (view), shows);
      wait_fail (task, error);
      return;
    }

  if (data->excerpt != NULL && data->check_problem == NULL)
    shows = g_strdup_printf ("its visible text begins: \"%s\"", data->excerpt);
  else if (data->n_checks == 0 || data->check_problem != NULL)
    shows = g_strdup ("the page did not answer in time (is a script keeping it busy?)");
  else
    shows = g_strdup ("it shows no text");

  error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                       "The text \"%s\" did not appear within %u ms. The tab shows \"%s\" "
                       "at %s; %s",
                       data->text, data->timeout_ms, view_title (view), view_uri (view), shows);
  wait_fail (task, error);
}

static gboolean
wait_deadline_cb (gpointer user_data)
{
  GTask *task = user_data;
  WaitData *data = g_task_get_task_data (task);

  data->deadline_id = 0;

  /* On a busy machine the look may still be on its way: what the page
   * shows comes with its answer, if it comes within WAIT_REPORT_GRACE_MS,
   * and no other look starts meanwhile. */
  if (data->url == NULL && data->poll.check_in_flight && !data->expired)
    {
      data->expired = TRUE;
      g_clear_handle_id (&data->poll.poll_id, g_source_remove);
      data->deadline_id = g_timeout_add_full (G_PRIORITY_DEFAULT, WAIT_REPORT_GRACE_MS,
                                              wait_deadline_cb, g_object_ref (task),
                                              g_object_unref);
      g_source_set_static_name (g_main_context_find_source_by_id (NULL, data->deadline_id),
                                "[tabwright] browser_wait report");
      return G_SOURCE_REMOVE;
    }

  wait_report_timeout (task);
  return G_SOURCE_REMOVE;
}

static gboolean
is_blank (const char *text)
{
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      if (!g_unichar_isspace (g_utf8_get_char (p)))
        return FALSE;
    }

  return TRUE;
}

void
tw_page_tools_wait_run (const TwTabJob *job,
                        GTask          *task)
{
  TwTabLog *log = job->log;
  JsonObject *params = job->params;
  g_autoptr(GError) error = NULL;
  gint64 timeout_ms = TW_PAGE_TOOLS_WAIT_DEFAULT_TIMEOUT_MS;
  g_autofree char *data_kind = NULL;
  g_autofree char *data_value = NULL;
  g_autoptr(JsonObject) condition = NULL;
  const char *text;
  const char *url;
  WaitData *data;

  g_return_if_fail (WEBKIT_IS_WEB_VIEW (job->view));
  g_return_if_fail (TW_IS_PAGE_RUNTIME (job->runtime));
  g_return_if_fail (log == NULL || TW_IS_TAB_LOG (log));

  text = tw_json_get_string_arg (params, "text", &error);
  if (error == NULL)
    url = tw_json_get_string_arg (params, "url", &error);
  if (error == NULL)
    _tw_page_tools_get_int_param (params, "timeoutMs", &timeout_ms, &error);
  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  {
    static const char * const kinds[] = { "textGone", "selector", "ref", "loadState", "function",
                                          NULL };
    const char *kind = NULL;
    const char *state = NULL;
    guint n_given = (text != NULL) + (url != NULL);

    for (guint i = 0; error == NULL && kinds[i] != NULL; i++)
      {
        const char *value = tw_json_get_string_arg (params, kinds[i], &error);

        if (value != NULL)
          {
            n_given++;
            kind = kinds[i];
            g_free (data_value);
            data_value = g_strdup (value);
          }
      }
    if (error == NULL)
      state = tw_json_get_string_arg (params, "state", &error);
    if (error != NULL)
      {
        g_task_return_error (task, g_steal_pointer (&error));
        return;
      }

    if (n_given != 1)
      {
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                 "Give exactly one of \"text\", \"textGone\", \"url\", "
                                 "\"selector\", \"ref\", \"loadState\" and \"function\"");
        return;
      }
    if (state != NULL && g_strcmp0 (kind, "selector") != 0 && g_strcmp0 (kind, "ref") != 0)
      {
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                 "\"state\" goes with \"selector\" or \"ref\"");
        return;
      }
    if (state != NULL && !g_strv_contains ((const char * const []) { "attached", "detached",
                                                                     "visible", "hidden", NULL },
                                           state))
      {
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                 "\"state\" must be attached, detached, visible or hidden");
        return;
      }
    if (g_strcmp0 (kind, "loadState") == 0 &&
        !g_strv_contains ((const char * const []) { "domcontentloaded", "load", "networkidle",
                                                    NULL }, data_value))
      {
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                 "\"loadState\" must be domcontentloaded, load or networkidle");
        return;
      }
    if (kind != NULL && (is_blank (data_value)))
      {
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                 "\"%s\" must not be empty", kind);
        return;
      }
    if (state == NULL && (g_strcmp0 (kind, "selector") == 0 || g_strcmp0 (kind, "ref") == 0))
      state = "visible";
    if (kind != NULL)
      {
        data_kind = g_strdup (kind);
        condition = json_object_new ();
        json_object_set_string_member (condition, kind, data_value);
        if (state != NULL)
          json_object_set_string_member (condition, "state", state);
        if (state != NULL)
          {
            char *described = g_strdup_printf ("%s %s", data_value, state);

            g_free (data_value);
            data_value = described;
          }
      }
  }

  if ((text != NULL && is_blank (text)) || (url != NULL && url[0] == '\0'))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "\"%s\" must not be empty", text != NULL ? "text" : "url");
      return;
    }

  if (timeout_ms < TW_PAGE_TOOLS_WAIT_MIN_TIMEOUT_MS ||
      timeout_ms > TW_PAGE_TOOLS_WAIT_MAX_TIMEOUT_MS)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "\"timeoutMs\" must be between %d and %d",
                               TW_PAGE_TOOLS_WAIT_MIN_TIMEOUT_MS,
                               TW_PAGE_TOOLS_WAIT_MAX_TIMEOUT_MS);
      return;
    }

  data = g_new0 (WaitData, 1);
  data->view = g_object_ref (job->view);
  _tw_page_poll_init (&data->poll, job->runtime);
  data->text = g_strdup (text);
  data->url = g_strdup (url);
  data->kind = g_steal_pointer (&data_kind);
  data->condition = g_steal_pointer (&condition);
  data->value = g_steal_pointer (&data_value);
  data->timeout_ms = timeout_ms;
  data->started = g_get_monotonic_time ();
  /* With the tab's log, network idle is judged here once the page says it
   * has loaded; without one, the page judges it from its Resource Timing. */
  if (log != NULL && g_strcmp0 (data->kind, "loadState") == 0 &&
      g_strcmp0 (data->value, "networkidle") == 0)
    {
      data->log = g_object_ref (log);
      data->network_idle = TRUE;
      json_object_set_string_member (data->condition, "loadState", "load");
    }
  g_task_set_task_data (task, data, (GDestroyNotify) wait_data_free);

  if (url != NULL)
    {
      if (wait_url_matches (task))
        {
          wait_succeed (task, "url");
          return;
        }

      /* notify::uri also fires for history.pushState and fragment changes,
       * which load nothing. */
      data->uri_handler = g_signal_connect (job->view, "notify::uri",
                                            G_CALLBACK (wait_uri_changed_cb), task);
    }
  else
    {
      wait_check_text (task);
    }

  /* Each source keeps the task alive until wait_stop() removes it. */
  _tw_page_poll_start (&data->poll, task, WAIT_POLL_INTERVAL_MS, wait_poll_cb,
                       "[tabwright] browser_wait poll");
  data->deadline_id = g_timeout_add_full (G_PRIORITY_DEFAULT, timeout_ms,
                                          wait_deadline_cb, g_object_ref (task), g_object_unref);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, data->deadline_id),
                            "[tabwright] browser_wait deadline");
}
