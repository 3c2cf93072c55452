/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-history-search.h"

#include "tw-error.h"
#include "tw-json.h"

#include <stdio.h>
#include <string.h>

#define DEFAULT_RESULTS 10

static const char * const kind_names[] = {
  [TW_HISTORY_KIND_ALL] = "all",
  [TW_HISTORY_KIND_VISITS] = "visits",
  [TW_HISTORY_KIND_BOOKMARKS] = "bookmarks",
};

/* "30m", "12h", "7d", "2w": that long before now. */
static gint64
parse_span (const char *text)
{
  char *end = NULL;
  guint64 n;
  gint64 unit;

  if (!g_ascii_isdigit (text[0]))
    return 0;

  n = g_ascii_strtoull (text, &end, 10);
  if (end == NULL || end[0] == '\0' || end[1] != '\0' || n > 100000)
    return 0;

  switch (end[0])
    {
    case 'm': unit = G_TIME_SPAN_MINUTE; break;
    case 'h': unit = G_TIME_SPAN_HOUR; break;
    case 'd': unit = G_TIME_SPAN_DAY; break;
    case 'w': unit = 7 * G_TIME_SPAN_DAY; break;
    default: return 0;
    }

  return MAX (1, g_get_real_time () - (gint64) n * unit);
}

gint64
tw_history_parse_time (const char  *text,
                       gboolean     end,
                       GError     **error)
{
  g_autoptr(GDateTime) time = NULL;
  g_autoptr(GTimeZone) local = g_time_zone_new_local ();
  gint64 span;
  int year, month, day;
  char rest;

  if (text != NULL && (span = parse_span (text)) > 0)
    return span;

  /* A date alone is the whole day, in local time. */
  if (text != NULL && sscanf (text, "%4d-%2d-%2d%c", &year, &month, &day, &rest) == 3 &&
      strlen (text) == 10)
    {
      time = g_date_time_new (local, year, month, day, 0, 0, 0);
      if (time != NULL && end)
        {
          g_autoptr(GDateTime) next = g_date_time_add_days (time, 1);

          g_clear_pointer (&time, g_date_time_unref);
          time = g_date_time_add_seconds (next, -1e-6);
        }
    }
  else if (text != NULL)
    {
      time = g_date_time_new_from_iso8601 (text, local);
    }

  if (time == NULL)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "“%s” is not a time: give an ISO 8601 date (2026-12-05), a date and time "
                   "(2026-12-05T09:30), or a span back from now (30m, 12h, 7d, 2w)",
                   text != NULL ? text : "");
      return 0;
    }

  return MAX (1, g_date_time_to_unix (time) * G_USEC_PER_SEC + g_date_time_get_microsecond (time));
}

static char *
format_time (gint64 usec)
{
  g_autoptr(GDateTime) time = g_date_time_new_from_unix_utc (usec / G_USEC_PER_SEC);

  return time != NULL ? g_date_time_format (time, "%Y-%m-%dT%H:%M:%SZ") : g_strdup ("");
}

static JsonObject *
entry_to_json (TwHistoryEntry *entry)
{
  JsonObject *object = json_object_new ();
  JsonArray *visitors = json_array_new ();

  json_object_set_string_member (object, "url", entry->url);
  json_object_set_string_member (object, "title", entry->title);
  if (entry->last_visit > 0)
    {
      g_autofree char *last = format_time (entry->last_visit);

      json_object_set_string_member (object, "lastVisit", last);
    }
  json_object_set_int_member (object, "visits", entry->n_visits);
  for (guint i = 0; entry->visitors != NULL && entry->visitors[i] != NULL; i++)
    json_array_add_string_element (visitors, entry->visitors[i]);
  json_object_set_array_member (object, "visitors", visitors);
  json_object_set_boolean_member (object, "bookmarked", entry->bookmarked);
  if (entry->bookmarked)
    {
      g_autofree char *added = format_time (entry->bookmarked_at);

      json_object_set_string_member (object, "bookmarkedAt", added);
    }

  return object;
}

typedef struct
{
  char          *query;
  TwHistoryKind  kind;
} SearchData;

static void
search_data_free (SearchData *data)
{
  g_free (data->query);
  g_free (data);
}

static void
searched_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SearchData *data = g_task_get_task_data (task);
  g_autoptr(GPtrArray) entries = NULL;
  GError *error = NULL;
  JsonObject *reply;
  JsonArray *array;

  entries = tw_history_search_finish (TW_HISTORY (object), result, &error);
  if (entries == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  reply = json_object_new ();
  array = json_array_new ();
  json_object_set_string_member (reply, "query", data->query != NULL ? data->query : "");
  json_object_set_string_member (reply, "kind", kind_names[data->kind]);
  for (guint i = 0; i < entries->len; i++)
    json_array_add_object_element (array, entry_to_json (g_ptr_array_index (entries, i)));
  json_object_set_array_member (reply, "entries", array);

  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

void
tw_history_search_command_async (TwHistory           *history,
                                 JsonObject          *params,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  SearchData *data = g_new0 (SearchData, 1);
  const char *kind = tw_json_get_string (params, "kind", "all");
  const char *since_text = tw_json_get_string (params, "since", NULL);
  const char *until_text = tw_json_get_string (params, "until", NULL);
  gint64 limit = tw_json_get_int (params, "maxResults", DEFAULT_RESULTS);
  gint64 since = 0, until = 0;
  GError *error = NULL;

  g_task_set_source_tag (task, tw_history_search_command_async);
  g_task_set_task_data (task, data, (GDestroyNotify) search_data_free);
  data->query = g_strdup (tw_json_get_string (params, "query", NULL));

  data->kind = G_N_ELEMENTS (kind_names);
  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    if (g_str_equal (kind, kind_names[i]))
      data->kind = i;
  if (data->kind == G_N_ELEMENTS (kind_names))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "kind must be “all”, “visits” or “bookmarks”, not “%s”", kind);
      return;
    }

  if ((since_text != NULL && (since = tw_history_parse_time (since_text, FALSE, &error)) == 0) ||
      (until_text != NULL && (until = tw_history_parse_time (until_text, TRUE, &error)) == 0))
    {
      g_task_return_error (task, error);
      return;
    }

  if (until > 0 && since > until)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "since (%s) is after until (%s)", since_text, until_text);
      return;
    }

  tw_history_search_async (history, data->query, since, until, data->kind,
                           (guint) CLAMP (limit, 1, 100), cancellable, searched_cb,
                           g_steal_pointer (&task));
}

JsonObject *
tw_history_search_command_finish (GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
