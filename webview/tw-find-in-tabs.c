/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-find-in-tabs.h"

#include "tw-browser-tab-private.h"
#include "tw-error.h"

/* The most text of one page the index keeps: enough for any article, and a
 * bound on what a huge page costs to read on every change. */
#define MAX_INDEXED_CHARS 200000

#define DEFAULT_RESULTS 5
#define MAX_RESULTS     20

typedef struct
{
  TwTextIndex *index;
  char        *query;
  guint        limit;
  guint        pending;
  guint        n_tabs;
  guint        n_read;
  guint        n_unchanged;
  /* browserId -> how its row was indexed, and why when not from its page. */
  GHashTable  *indexed;
  GHashTable  *notes;
} FindData;

typedef struct
{
  GTask *task;
  char  *id;
  char  *url;
  char  *title;
} TabRead;

static void
find_data_free (FindData *data)
{
  g_clear_object (&data->index);
  g_free (data->query);
  g_clear_pointer (&data->indexed, g_hash_table_unref);
  g_clear_pointer (&data->notes, g_hash_table_unref);
  g_free (data);
}

static void
tab_read_free (TabRead *read)
{
  g_clear_object (&read->task);
  g_free (read->id);
  g_free (read->url);
  g_free (read->title);
  g_free (read);
}

static void
set_indexed (FindData   *data,
             const char *id,
             const char *how,
             const char *note)
{
  g_hash_table_replace (data->indexed, g_strdup (id), g_strdup (how));
  if (note != NULL)
    g_hash_table_replace (data->notes, g_strdup (id), g_strdup (note));
}

/* A tab whose page cannot be read now: the text of its last read when the
 * index has one, else its title and URL. */
static void
index_unread (FindData   *data,
              const char *id,
              const char *url,
              const char *title,
              const char *why)
{
  g_autofree char *version = tw_text_index_get_version (data->index, id);
  g_autofree char *note = NULL;

  if (version != NULL && !g_str_has_prefix (version, "title:"))
    {
      note = g_strdup_printf ("%s: matched on the text of an earlier read", why);
      set_indexed (data, id, "earlier", note);
      return;
    }

  note = g_strdup_printf ("%s: matched on its title and URL only", why);
  tw_text_index_put (data->index, id, "title:", url, title, "", NULL);
  set_indexed (data, id, "title", note);
}

/* Three significant digits: the order matters, not the figure. */
static double
round_score (double score)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buffer, sizeof buffer, "%.3g", score);

  return g_ascii_strtod (buffer, NULL);
}

static JsonObject *
build_reply (FindData   *data,
             GPtrArray  *hits)
{
  JsonObject *reply = json_object_new ();
  JsonArray *matches = json_array_new ();

  for (guint i = 0; i < hits->len; i++)
    {
      TwTextHit *hit = g_ptr_array_index (hits, i);
      JsonObject *match = json_object_new ();
      const char *how = g_hash_table_lookup (data->indexed, hit->id);
      const char *note = g_hash_table_lookup (data->notes, hit->id);

      json_object_set_string_member (match, "browserId", hit->id);
      json_object_set_string_member (match, "url", hit->url);
      json_object_set_string_member (match, "title", hit->title);
      json_object_set_double_member (match, "score", round_score (hit->score));
      json_object_set_string_member (match, "snippet", hit->snippet);
      json_object_set_string_member (match, "indexed", how != NULL ? how : "page");
      if (note != NULL)
        json_object_set_string_member (match, "note", note);
      json_array_add_object_element (matches, match);
    }

  json_object_set_string_member (reply, "query", data->query);
  json_object_set_int_member (reply, "tabs", data->n_tabs);
  json_object_set_int_member (reply, "read", data->n_read);
  json_object_set_int_member (reply, "unchanged", data->n_unchanged);
  json_object_set_array_member (reply, "matches", matches);

  return reply;
}

static void
finish_search (GTask *task)
{
  FindData *data = g_task_get_task_data (task);
  g_autoptr(GPtrArray) hits = NULL;
  GError *error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;

  hits = tw_text_index_search (data->index, data->query, data->limit, &error);
  if (hits == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  g_task_return_pointer (task, build_reply (data, hits), (GDestroyNotify) json_object_unref);
}

static void
tab_read_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  TabRead *read = user_data;
  FindData *data = g_task_get_task_data (read->task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = NULL;

  value = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);
  if (value == NULL || !JSON_NODE_HOLDS_OBJECT (value))
    {
      g_autofree char *why = g_strdup_printf ("the page could not be read now (%s)",
                                              error != NULL ? error->message
                                                            : "no answer");

      index_unread (data, read->id, read->url, read->title, why);
    }
  else
    {
      JsonObject *page = json_node_get_object (value);
      const char *version = json_object_get_string_member_with_default (page, "version", "");

      if (json_object_get_boolean_member_with_default (page, "unchanged", FALSE))
        {
          data->n_unchanged++;
          set_indexed (data, read->id, "page", NULL);
        }
      else
        {
          g_autoptr(GError) put_error = NULL;

          if (!tw_text_index_put (data->index, read->id, version,
                                  json_object_get_string_member_with_default (page, "url", read->url),
                                  json_object_get_string_member_with_default (page, "title",
                                                                              read->title),
                                  json_object_get_string_member_with_default (page, "text", ""),
                                  &put_error))
            g_warning ("%s", put_error->message);
          data->n_read++;
          set_indexed (data, read->id, "page",
                       json_object_get_boolean_member_with_default (page, "truncated", FALSE)
                       ? "a long page: only its first 200000 characters are indexed" : NULL);
        }
    }

  if (--data->pending == 0)
    finish_search (read->task);

  tab_read_free (read);
}

void
tw_find_in_tabs_async (TwTextIndex         *index,
                       GListModel          *tabs,
                       JsonObject          *params,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GStrvBuilder) ids = g_strv_builder_new ();
  g_auto(GStrv) open_ids = NULL;
  g_autofree char *match = NULL;
  FindData *data;
  const char *query;
  gint64 limit = DEFAULT_RESULTS;
  guint n_tabs;

  g_return_if_fail (TW_IS_TEXT_INDEX (index));
  g_return_if_fail (G_IS_LIST_MODEL (tabs));
  g_return_if_fail (params != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_find_in_tabs_async);

  query = json_object_get_string_member_with_default (params, "query", NULL);
  if (query == NULL || (match = tw_text_index_build_match (query)) == NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "query must be text with at least one word to search for");
      return;
    }

  if (json_object_has_member (params, "maxResults"))
    {
      JsonNode *node = json_object_get_member (params, "maxResults");

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
          json_node_get_int (node) < 1 || json_node_get_int (node) > MAX_RESULTS)
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "maxResults must be an integer from 1 to %d", MAX_RESULTS);
          return;
        }
      limit = json_node_get_int (node);
    }

  data = g_new0 (FindData, 1);
  data->index = g_object_ref (index);
  data->query = g_strdup (query);
  data->limit = (guint) limit;
  data->indexed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  data->notes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_task_set_task_data (task, data, (GDestroyNotify) find_data_free);

  /* One count for this function, so that answers arriving at once cannot
   * finish the search before every tab was asked. */
  data->pending = 1;

  n_tabs = g_list_model_get_n_items (tabs);
  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (tabs, i);
      const char *id = tw_browser_tab_get_id (tab);
      const char *url = tw_browser_tab_get_uri (tab);
      const char *title = tw_browser_tab_get_title (tab);
      g_autofree char *version = NULL;
      g_autoptr(JsonObject) args = NULL;
      TabRead *read;

      if (tw_browser_tab_is_closed (tab))
        continue;

      g_strv_builder_add (ids, id);
      data->n_tabs++;

      /* Searching never loads a restored tab: that is the person's or an
       * agent's choice to make. */
      if (tw_browser_tab_get_deferred (tab))
        {
          tw_text_index_put (index, id, "title:", url, title, "", NULL);
          set_indexed (data, id, "title",
                       "a restored tab not loaded yet: matched on its saved title and URL");
          continue;
        }

      if (tw_browser_tab_get_paused (tab))
        {
          index_unread (data, id, url, title, "paused by the person");
          continue;
        }

      if (tw_browser_tab_get_crashed (tab))
        {
          index_unread (data, id, url, title, "its web process crashed");
          continue;
        }

      version = tw_text_index_get_version (index, id);
      args = json_object_new ();
      if (version != NULL)
        json_object_set_string_member (args, "since", version);
      json_object_set_int_member (args, "maxChars", MAX_INDEXED_CHARS);

      read = g_new0 (TabRead, 1);
      read->task = g_object_ref (task);
      read->id = g_strdup (id);
      read->url = g_strdup (url);
      read->title = g_strdup (title);
      data->pending++;
      tw_page_runtime_call_async (tw_browser_tab_get_runtime (tab), "textIndex.read", args,
                                  cancellable, tab_read_cb, read);
    }

  open_ids = g_strv_builder_end (ids);
  tw_text_index_retain (index, (const char * const *) open_ids);

  if (--data->pending == 0)
    finish_search (task);
}

JsonObject *
tw_find_in_tabs_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
