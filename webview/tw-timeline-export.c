/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "tw-browser-tab.h"
#include "tw-error.h"
#include "tw-tab-log.h"
#include "tw-timeline-export.h"
#include "tw-timeline-video.h"

typedef struct
{
  char       *agent_id;
  char       *browser_id;
  char       *folder;
  GListModel *steps;
  JsonNode   *har;
  GPtrArray  *console;
} Export;

static void
export_free (Export *export)
{
  g_free (export->agent_id);
  g_free (export->browser_id);
  g_free (export->folder);
  g_clear_object (&export->steps);
  g_clear_pointer (&export->har, json_node_unref);
  g_clear_pointer (&export->console, g_ptr_array_unref);
  g_free (export);
}

/* HAR wants dates with their offset; the log keeps local time. */
static char *
har_date (const char *time)
{
  g_autoptr(GTimeZone) local = g_time_zone_new_local ();
  g_autoptr(GDateTime) date = time != NULL ? g_date_time_new_from_iso8601 (time, local) : NULL;

  if (date == NULL)
    date = g_date_time_new_now_local ();

  return g_date_time_format (date, "%Y-%m-%dT%H:%M:%S.%f%:z");
}

static JsonArray *
har_headers (JsonObject *request,
             const char *member)
{
  JsonArray *headers = json_array_new ();
  JsonArray *source = request != NULL && json_object_has_member (request, member)
                        ? json_object_get_array_member (request, member) : NULL;

  for (guint i = 0; source != NULL && i < json_array_get_length (source); i++)
    {
      JsonObject *header = json_array_get_object_element (source, i);
      JsonObject *copy = json_object_new ();

      json_object_set_string_member (copy, "name", json_object_get_string_member_with_default (header, "name", ""));
      json_object_set_string_member (copy, "value", json_object_get_string_member_with_default (header, "value", ""));
      json_array_add_object_element (headers, copy);
    }

  return headers;
}

static JsonArray *
har_query (const char *url)
{
  JsonArray *query = json_array_new ();
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_ENCODED_QUERY, NULL);
  GUriParamsIter iter;
  char *name;
  char *value;

  if (uri == NULL || g_uri_get_query (uri) == NULL)
    return query;
  g_uri_params_iter_init (&iter, g_uri_get_query (uri), -1, "&", G_URI_PARAMS_NONE);
  while (g_uri_params_iter_next (&iter, &name, &value, NULL))
    {
      JsonObject *param = json_object_new ();

      json_object_set_string_member (param, "name", name);
      json_object_set_string_member (param, "value", value);
      json_array_add_object_element (query, param);
      g_free (name);
      g_free (value);
    }

  return query;
}

/* One request of a tab's log as a HAR entry. */
static JsonObject *
har_entry (TwTabLog   *log,
           JsonObject *request,
           const char *browser_id)
{
  g_autoptr(JsonObject) full = NULL;
  g_autoptr(GBytes) text = NULL;
  g_autofree char *started = har_date (json_object_get_string_member_with_default (request, "time", NULL));
  const char *url = json_object_get_string_member_with_default (request, "url", "");
  JsonObject *entry = json_object_new ();
  JsonObject *har_request = json_object_new ();
  JsonObject *response = json_object_new ();
  JsonObject *content = json_object_new ();
  JsonObject *timings = json_object_new ();
  JsonNode *status = json_object_get_member (request, "status");
  double duration = json_object_get_double_member_with_default (request, "durationMs", 0);
  gint64 size = json_object_get_int_member_with_default (request, "size", -1);

  full = tw_tab_log_get_request (log, json_object_get_int_member (request, "id"), FALSE, NULL, &text);

  json_object_set_string_member (entry, "pageref", browser_id);
  json_object_set_string_member (entry, "startedDateTime", started);
  json_object_set_double_member (entry, "time", duration);

  json_object_set_string_member (har_request, "method",
                                 json_object_get_string_member_with_default (request, "method", "GET"));
  json_object_set_string_member (har_request, "url", url);
  json_object_set_string_member (har_request, "httpVersion", "HTTP/1.1");
  json_object_set_array_member (har_request, "cookies", json_array_new ());
  json_object_set_array_member (har_request, "headers", har_headers (full, "requestHeaders"));
  json_object_set_array_member (har_request, "queryString", har_query (url));
  json_object_set_int_member (har_request, "headersSize", -1);
  json_object_set_int_member (har_request, "bodySize", -1);
  if (full != NULL && json_object_has_member (full, "requestBody") &&
      JSON_NODE_HOLDS_VALUE (json_object_get_member (full, "requestBody")))
    {
      JsonObject *post = json_object_new ();

      json_object_set_string_member (post, "mimeType", "");
      json_object_set_string_member (post, "text", json_object_get_string_member (full, "requestBody"));
      json_object_set_object_member (har_request, "postData", post);
    }
  json_object_set_object_member (entry, "request", har_request);

  json_object_set_int_member (response, "status",
                              status != NULL && JSON_NODE_HOLDS_VALUE (status) ? json_node_get_int (status) : 0);
  json_object_set_string_member (response, "statusText",
                                 json_object_get_string_member_with_default (request, "statusText", ""));
  json_object_set_string_member (response, "httpVersion", "HTTP/1.1");
  json_object_set_array_member (response, "cookies", json_array_new ());
  json_object_set_array_member (response, "headers", har_headers (full, "responseHeaders"));
  json_object_set_int_member (content, "size", MAX (size, 0));
  json_object_set_string_member (content, "mimeType",
                                 json_object_get_string_member_with_default (request, "mimeType", ""));
  if (text != NULL)
    {
      g_autofree char *body = g_strndup (g_bytes_get_data (text, NULL), g_bytes_get_size (text));

      if (g_utf8_validate (body, -1, NULL))
        json_object_set_string_member (content, "text", body);
    }
  json_object_set_object_member (response, "content", content);
  json_object_set_string_member (response, "redirectURL", "");
  json_object_set_int_member (response, "headersSize", -1);
  json_object_set_int_member (response, "bodySize", size);
  json_object_set_object_member (entry, "response", response);

  json_object_set_object_member (entry, "cache", json_object_new ());
  json_object_set_int_member (timings, "send", 0);
  json_object_set_double_member (timings, "wait", duration);
  json_object_set_int_member (timings, "receive", 0);
  json_object_set_object_member (entry, "timings", timings);
  if (json_object_has_member (request, "failure"))
    json_object_set_string_member (entry, "comment", json_object_get_string_member (request, "failure"));

  return entry;
}

/* The network and console of every tab the calls used, read now, on the
 * main thread, where the logs live. */
static void
read_tabs (Export    *export,
           TwBrowser *browser)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  JsonObject *log = json_object_new ();
  JsonObject *creator = json_object_new ();
  JsonArray *pages = json_array_new ();
  JsonArray *entries = json_array_new ();
  JsonObject *root = json_object_new ();
  guint n = g_list_model_get_n_items (export->steps);

  export->console = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TwTimelineStep) step = g_list_model_get_item (export->steps, i);
      const char *id = tw_timeline_step_get_browser_id (step);
      TwBrowserTab *tab;
      TwTabLog *tab_log;
      g_autoptr(JsonArray) network = NULL;
      g_autoptr(JsonArray) console = NULL;

      if (id == NULL || g_hash_table_contains (seen, id))
        continue;
      g_hash_table_add (seen, (gpointer) id);
      tab = browser != NULL ? tw_browser_lookup_tab (browser, id) : NULL;
      if (tab == NULL)
        continue;
      tab_log = tw_browser_tab_get_log (tab);

      {
        JsonObject *page = json_object_new ();
        JsonObject *page_timings = json_object_new ();
        g_autofree char *started = har_date (tw_timeline_step_get_time (step));

        json_object_set_string_member (page, "startedDateTime", started);
        json_object_set_string_member (page, "id", id);
        json_object_set_string_member (page, "title", id);
        json_object_set_object_member (page, "pageTimings", page_timings);
        json_array_add_object_element (pages, page);
      }

      network = tw_tab_log_get_network (tab_log, 0);
      for (guint j = 0; j < json_array_get_length (network); j++)
        json_array_add_object_element (entries, har_entry (tab_log, json_array_get_object_element (network, j), id));

      console = tw_tab_log_get_console (tab_log, FALSE);
      for (guint j = 0; j < json_array_get_length (console); j++)
        {
          JsonObject *message = json_array_get_object_element (console, j);

          json_object_set_string_member (message, "browserId", id);
          g_ptr_array_add (export->console, json_object_ref (message));
        }
    }

  json_object_set_string_member (log, "version", "1.2");
  json_object_set_string_member (creator, "name", "Tabwright");
  json_object_set_string_member (creator, "version", PACKAGE_VERSION);
  json_object_set_object_member (log, "creator", creator);
  json_object_set_array_member (log, "pages", pages);
  json_object_set_array_member (log, "entries", entries);
  json_object_set_object_member (root, "log", log);
  export->har = json_node_init_object (json_node_alloc (), root);
  json_object_unref (root);
}

static char *
to_json (JsonNode *node,
         gboolean  pretty)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_pretty (generator, pretty);
  json_generator_set_root (generator, node);

  return json_generator_to_data (generator, NULL);
}

/* Copies a picture into images/, as the timeline keeps them (so the
 * lines read back as there), and returns its name in the folder. */
static char *
copy_picture (const char *path,
              const char *folder,
              GError    **error)
{
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *target = g_build_filename (folder, "images", base, NULL);
  g_autoptr(GFile) from = g_file_new_for_path (path);
  g_autoptr(GFile) to = g_file_new_for_path (target);

  if (!g_file_copy (from, to, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, error))
    return NULL;

  return g_build_filename ("images", base, NULL);
}

static void
write_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  Export *export = task_data;
  g_autoptr(GString) calls = g_string_new (NULL);
  g_autoptr(GString) console = g_string_new (NULL);
  g_autofree char *pictures = g_build_filename (export->folder, "images", NULL);
  g_autofree char *har = to_json (export->har, TRUE);
  g_autofree char *calls_path = g_build_filename (export->folder, "calls.jsonl", NULL);
  g_autofree char *har_path = g_build_filename (export->folder, "network.har", NULL);
  g_autofree char *console_path = g_build_filename (export->folder, "console.jsonl", NULL);
  g_autofree char *video_path = g_build_filename (export->folder, "video.webm", NULL);
  guint n = g_list_model_get_n_items (export->steps);
  TwTimelineExportCounts *counts = g_new0 (TwTimelineExportCounts, 1);
  GError *error = NULL;

  if (g_mkdir_with_parents (pictures, 0755) != 0)
    {
      int saved = errno;

      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved),
                               "Cannot make the folder %s: %s", pictures, g_strerror (saved));
      g_free (counts);
      return;
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(TwTimelineStep) step = g_list_model_get_item (export->steps, i);
      g_autoptr(JsonNode) node = json_from_string (tw_timeline_step_get_line (step), NULL);
      const char *paths[2] = { tw_timeline_step_get_before_path (step), tw_timeline_step_get_after_path (step) };
      const char *names[2] = { "before", "after" };
      g_autofree char *line = NULL;

      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        continue;
      for (guint j = 0; j < 2; j++)
        {
          g_autofree char *name = NULL;

          json_object_remove_member (json_node_get_object (node), names[j]);
          if (paths[j] == NULL || !g_file_test (paths[j], G_FILE_TEST_IS_REGULAR))
            continue;
          name = copy_picture (paths[j], export->folder, &error);
          if (name == NULL)
            {
              g_task_return_error (task, error);
              g_free (counts);
              return;
            }
          counts->images++;
          json_object_set_string_member (json_node_get_object (node), names[j], name);
        }
      line = to_json (node, FALSE);
      g_string_append (calls, line);
      g_string_append_c (calls, '\n');
    }

  for (guint i = 0; i < export->console->len; i++)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), g_ptr_array_index (export->console, i));
      g_autofree char *line = to_json (node, FALSE);

      g_string_append (console, line);
      g_string_append_c (console, '\n');
    }

  if (!g_file_set_contents (calls_path, calls->str, calls->len, &error) ||
      !g_file_set_contents (har_path, har, -1, &error) ||
      !g_file_set_contents (console_path, console->str, console->len, &error))
    {
      g_task_return_error (task, error);
      g_free (counts);
      return;
    }

  /* GStreamer encodes in its own threads; this one waits for it. */
  if (!tw_timeline_video_write (export->steps, video_path, &error))
    {
      g_task_return_error (task, error);
      g_free (counts);
      return;
    }

  counts->calls = n;
  counts->requests = json_array_get_length (json_object_get_array_member (
                                              json_object_get_object_member (json_node_get_object (export->har), "log"), "entries"));
  counts->console = export->console->len;
  g_task_return_pointer (task, counts, g_free);
}

/* Only the calls on the chosen tab. */
static GListModel *
filter_steps (GListModel *steps,
              const char *browser_id)
{
  GListStore *store = g_list_store_new (TW_TYPE_TIMELINE_STEP);

  for (guint i = 0; i < g_list_model_get_n_items (steps); i++)
    {
      g_autoptr(TwTimelineStep) step = g_list_model_get_item (steps, i);

      if (browser_id == NULL || g_strcmp0 (tw_timeline_step_get_browser_id (step), browser_id) == 0)
        g_list_store_append (store, step);
    }

  return G_LIST_MODEL (store);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Export *export = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) steps = tw_timeline_load_finish (TW_TIMELINE (source), result, &error);

  if (steps == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  export->steps = filter_steps (steps, export->browser_id);
  if (g_list_model_get_n_items (export->steps) == 0)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                               "The session recorded no call on tab %s", export->browser_id);
      return;
    }
  read_tabs (export, tw_timeline_get_browser (TW_TIMELINE (source)));
  g_task_run_in_thread (task, write_thread);
}

void
tw_timeline_export_async (TwTimeline          *timeline,
                          const char          *agent_id,
                          const char          *browser_id,
                          const char          *folder,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (timeline, cancellable, callback, user_data);
  Export *export = g_new0 (Export, 1);

  g_return_if_fail (TW_IS_TIMELINE (timeline));
  g_return_if_fail (agent_id != NULL);
  g_return_if_fail (folder != NULL);

  g_task_set_source_tag (task, tw_timeline_export_async);
  tw_timeline_video_init ();
  export->agent_id = g_strdup (agent_id);
  export->browser_id = g_strdup (browser_id);
  export->folder = g_strdup (folder);
  g_task_set_task_data (task, export, (GDestroyNotify) export_free);
  tw_timeline_load_session_async (timeline, agent_id, cancellable, loaded_cb, g_steal_pointer (&task));
}

gboolean
tw_timeline_export_finish_counts (TwTimeline             *timeline,
                                  GAsyncResult           *result,
                                  TwTimelineExportCounts *counts,
                                  GError                **error)
{
  g_autofree TwTimelineExportCounts *written = NULL;

  g_return_val_if_fail (g_task_is_valid (result, timeline), FALSE);

  written = g_task_propagate_pointer (G_TASK (result), error);
  if (written == NULL)
    return FALSE;
  if (counts != NULL)
    *counts = *written;

  return TRUE;
}

gssize
tw_timeline_export_finish (TwTimeline   *timeline,
                           GAsyncResult *result,
                           GError      **error)
{
  TwTimelineExportCounts counts;

  g_return_val_if_fail (g_task_is_valid (result, timeline), -1);

  if (!tw_timeline_export_finish_counts (timeline, result, &counts, error))
    return -1;

  return counts.calls;
}
