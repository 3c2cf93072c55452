/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-console.h"

#include "tw-cancellable.h"
#include "tw-error.h"
#include "tw-json.h"

#include <string.h>

typedef struct
{
  TwTabLog      *log;
  char         **levels;   /* NULL: any */
  char         **sources;  /* NULL: any */
  char          *text;     /* casefolded, or NULL */
  gboolean       all_pages;
  guint          max_entries;
  guint          timeout_ms;
  gint64         started;

  gulong         added_id;
  guint          timeout_source;
  GSource       *cancel_watch;
} ConsoleQuery;

static void
console_query_free (ConsoleQuery *query)
{
  g_assert (query->added_id == 0);
  g_assert (query->timeout_source == 0);
  g_assert (query->cancel_watch == NULL);
  g_clear_object (&query->log);
  g_strfreev (query->levels);
  g_strfreev (query->sources);
  g_free (query->text);
  g_free (query);
}

static gboolean
query_matches (ConsoleQuery *query,
               JsonObject   *message)
{
  const char *level = json_object_get_string_member_with_default (message, "level", "");
  const char *source = json_object_get_string_member_with_default (message, "source", "");

  if (query->levels != NULL && !g_strv_contains ((const char * const *) query->levels, level))
    return FALSE;
  if (query->sources != NULL && !g_strv_contains ((const char * const *) query->sources, source))
    return FALSE;

  if (query->text != NULL)
    {
      g_autofree char *folded =
        g_utf8_casefold (json_object_get_string_member_with_default (message, "text", ""), -1);

      if (strstr (folded, query->text) == NULL)
        return FALSE;
    }

  return TRUE;
}

/* The matching messages, the newest @max_entries of them; only those newer
 * than @after_id when it is not 0. */
static JsonObject *
query_run (ConsoleQuery *query,
           TwTabLog     *log,
           guint64       after_id,
           const char   *mode)
{
  g_autoptr(JsonArray) all = tw_tab_log_get_console (log, !query->all_pages);
  g_autoptr(GPtrArray) matched = g_ptr_array_new ();
  JsonArray *messages = json_array_new ();
  JsonObject *reply = json_object_new ();
  guint64 newest = 0;
  guint skip;

  for (guint i = 0; i < json_array_get_length (all); i++)
    {
      JsonObject *message = json_array_get_object_element (all, i);
      guint64 id = (guint64) json_object_get_int_member (message, "id");

      newest = MAX (newest, id);
      if (id > after_id && query_matches (query, message))
        g_ptr_array_add (matched, message);
    }

  skip = matched->len > query->max_entries ? matched->len - query->max_entries : 0;
  for (guint i = skip; i < matched->len; i++)
    json_array_add_object_element (messages, json_object_ref (matched->pdata[i]));

  /* What the agent has now seen: a wait looks for messages after these. */
  tw_tab_log_set_console_read_id (log, newest);

  json_object_set_string_member (reply, "mode", mode);
  json_object_set_int_member (reply, "matched", matched->len);
  json_object_set_array_member (reply, "messages", messages);

  return reply;
}

/* Waiting */

static void
wait_cleanup (GTask *task)
{
  ConsoleQuery *query = g_task_get_task_data (task);

  g_clear_signal_handler (&query->added_id, query->log);
  g_clear_handle_id (&query->timeout_source, g_source_remove);
  g_clear_pointer (&query->cancel_watch, tw_cancellable_unwatch);
}

static void
console_added_cb (TwTabLog *log,
                  guint64   id,
                  GTask    *task)
{
  ConsoleQuery *query = g_task_get_task_data (task);
  g_autoptr(JsonObject) message = tw_tab_log_get_console_message (log, id);
  JsonObject *reply;

  if (message == NULL || !query_matches (query, message))
    return;

  reply = query_run (query, log, id - 1, "wait");
  json_object_set_int_member (reply, "waitedMs",
                              (g_get_monotonic_time () - query->started) / 1000);
  wait_cleanup (task);
  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
  g_object_unref (task);
}

static gboolean
wait_timeout_cb (gpointer user_data)
{
  GTask *task = user_data;
  ConsoleQuery *query = g_task_get_task_data (task);

  query->timeout_source = 0;
  wait_cleanup (task);
  g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                           "no matching console message came within %u ms",
                           query->timeout_ms);
  g_object_unref (task);

  return G_SOURCE_REMOVE;
}

static void
wait_cancelled_cb (gpointer user_data)
{
  GTask *task = user_data;
  ConsoleQuery *query = g_task_get_task_data (task);

  /* The task then returns G_IO_ERROR_CANCELLED. */
  g_clear_handle_id (&query->timeout_source, g_source_remove);
  wait_timeout_cb (task);
}

void
tw_tab_console_run (const TwTabJob *job,
                    GTask          *task)
{
  TwTabLog *log = job->log;
  JsonObject *params = job->params;
  ConsoleQuery *query;
  JsonObject *reply;
  gboolean has_id = json_object_has_member (params, "id");
  gboolean wait = json_object_get_boolean_member_with_default (params, "wait", FALSE);
  gboolean clear = json_object_get_boolean_member_with_default (params, "clear", FALSE);
  const char *text = json_object_get_string_member_with_default (params, "text", NULL);

  g_return_if_fail (TW_IS_TAB_LOG (log));

  if (has_id + wait + clear > 1)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "give at most one of \"id\", \"wait\" and \"clear\"");
      return;
    }

  if (has_id)
    {
      gint64 id = json_object_get_int_member (params, "id");
      JsonObject *message = id > 0 ? tw_tab_log_get_console_message (log, (guint64) id) : NULL;
      JsonArray *messages;

      if (message == NULL)
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                                   "the tab keeps no console message %" G_GINT64_FORMAT
                                   " (cleared, dropped, or never logged)", id);
          return;
        }

      tw_tab_log_set_console_read_id (log, (guint64) id);
      messages = json_array_new ();
      json_array_add_object_element (messages, message);
      reply = json_object_new ();
      json_object_set_string_member (reply, "mode", "message");
      json_object_set_int_member (reply, "matched", 1);
      json_object_set_array_member (reply, "messages", messages);
      g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
      return;
    }

  if (clear)
    {
      guint n = tw_tab_log_clear_console (log);

      reply = json_object_new ();
      json_object_set_string_member (reply, "mode", "clear");
      json_object_set_int_member (reply, "matched", 0);
      json_object_set_int_member (reply, "cleared", n);
      json_object_set_array_member (reply, "messages", json_array_new ());
      g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
      return;
    }

  query = g_new0 (ConsoleQuery, 1);
  query->log = g_object_ref (log);
  query->levels = tw_json_get_strv (params, "level");
  query->sources = tw_json_get_strv (params, "source");
  query->text = text != NULL ? g_utf8_casefold (text, -1) : NULL;
  query->all_pages = json_object_get_boolean_member_with_default (params, "allPages", FALSE);
  query->max_entries = (guint) CLAMP (json_object_get_int_member_with_default (params, "maxEntries",
                                                                               TW_TAB_CONSOLE_DEFAULT_ENTRIES),
                                      1, TW_TAB_LOG_DEFAULT_CAPACITY);
  query->timeout_ms = (guint) CLAMP (json_object_get_int_member_with_default (params, "timeoutMs",
                                                                              TW_TAB_CONSOLE_DEFAULT_TIMEOUT_MS),
                                     1, TW_TAB_CONSOLE_MAX_TIMEOUT_MS);
  query->started = g_get_monotonic_time ();
  g_task_set_task_data (task, query, (GDestroyNotify) console_query_free);

  if (!wait)
    {
      g_task_return_pointer (task, query_run (query, log, 0, "list"),
                             (GDestroyNotify) json_object_unref);
      return;
    }

  /* A matching message that came since the last read answers at once. */
  reply = query_run (query, log, tw_tab_log_get_console_read_id (log), "wait");
  if (json_object_get_int_member (reply, "matched") > 0)
    {
      json_object_set_int_member (reply, "waitedMs", 0);
      g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
      return;
    }
  json_object_unref (reply);

  query->added_id = g_signal_connect (log, "console-added", G_CALLBACK (console_added_cb), task);
  query->timeout_source = g_timeout_add (query->timeout_ms, wait_timeout_cb, task);
  query->cancel_watch = tw_cancellable_watch (g_task_get_cancellable (task), wait_cancelled_cb,
                                              task, NULL);
  /* Held until the wait ends. */
  g_object_ref (task);
}
