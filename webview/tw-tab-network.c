/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-network.h"

#include "tw-error.h"
#include "tw-json.h"
#include "tw-page-runtime.h"
#include "tw-workspace-path.h"

#include <string.h>

/* Listing */

static const char *
status_class (JsonObject *request)
{
  static const char *classes[] = { "1xx", "2xx", "3xx", "4xx", "5xx" };
  JsonNode *node = json_object_get_member (request, "status");
  gint64 status;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return "none";

  status = json_node_get_int (node);
  if (status < 100 || status > 599)
    return "none";

  return classes[status / 100 - 1];
}

static JsonObject *
list_requests (TwTabLog   *log,
               JsonObject *params)
{
  g_auto(GStrv) types = tw_json_get_strv (params, "type");
  g_auto(GStrv) statuses = tw_json_get_strv (params, "status");
  const char *method = json_object_get_string_member_with_default (params, "method", NULL);
  const char *url = json_object_get_string_member_with_default (params, "url", NULL);
  gboolean failed = json_object_get_boolean_member_with_default (params, "failed", FALSE);
  gint64 pages = json_object_get_int_member_with_default (params, "pages", 1);
  gint64 max_entries = json_object_get_int_member_with_default (params, "maxEntries",
                                                                TW_TAB_NETWORK_DEFAULT_ENTRIES);
  g_autoptr(JsonArray) all = tw_tab_log_get_network (log, (guint) CLAMP (pages, 0, 100));
  g_autoptr(GPtrArray) matched = g_ptr_array_new ();
  JsonArray *requests = json_array_new ();
  JsonObject *reply = json_object_new ();
  guint skip;

  for (guint i = 0; i < json_array_get_length (all); i++)
    {
      JsonObject *request = json_array_get_object_element (all, i);
      const char *state = json_object_get_string_member_with_default (request, "state", "");
      gint64 status = json_object_get_int_member_with_default (request, "status", 0);

      if (types != NULL &&
          !g_strv_contains ((const char * const *) types,
                            json_object_get_string_member_with_default (request, "resourceType", "")))
        continue;
      if (statuses != NULL && !g_strv_contains ((const char * const *) statuses, status_class (request)))
        continue;
      if (method != NULL &&
          g_ascii_strcasecmp (method, json_object_get_string_member_with_default (request, "method", "")) != 0)
        continue;
      if (url != NULL &&
          strstr (json_object_get_string_member_with_default (request, "url", ""), url) == NULL)
        continue;
      /* Failed: no response at all, or an HTTP error status. */
      if (failed && g_strcmp0 (state, "failed") != 0 && status < 400)
        continue;

      g_ptr_array_add (matched, request);
    }

  skip = matched->len > max_entries ? matched->len - (guint) max_entries : 0;
  for (guint i = skip; i < matched->len; i++)
    json_array_add_object_element (requests, json_object_ref (matched->pdata[i]));

  json_object_set_string_member (reply, "mode", "list");
  json_object_set_int_member (reply, "matched", matched->len);
  json_object_set_array_member (reply, "requests", requests);

  return reply;
}

/* One request in detail */

typedef struct
{
  TwPageRuntime *runtime;       /* weak */
  JsonObject    *request;
  char          *save_path;     /* resolved, or NULL */
  char          *workspace_dir;
  gint64         cursor;
  gint64         max_chars;
  GBytes        *body;
} Detail;

static void
detail_free (Detail *detail)
{
  g_clear_weak_pointer (&detail->runtime);
  g_clear_pointer (&detail->request, json_object_unref);
  g_free (detail->save_path);
  g_free (detail->workspace_dir);
  g_clear_pointer (&detail->body, g_bytes_unref);
  g_free (detail);
}

static void
add_unavailable (JsonObject *request,
                 const char *what)
{
  JsonNode *node = json_object_get_member (request, "unavailable");
  JsonArray *array;

  if (node == NULL)
    {
      json_object_set_array_member (request, "unavailable", json_array_new ());
      node = json_object_get_member (request, "unavailable");
    }
  array = json_node_get_array (node);
  json_array_add_string_element (array, what);
}

static gboolean
is_text_type (const char *mime_type)
{
  if (mime_type == NULL)
    return FALSE;

  return g_str_has_prefix (mime_type, "text/") ||
         g_str_has_suffix (mime_type, "+json") || g_str_has_suffix (mime_type, "+xml") ||
         g_str_has_suffix (mime_type, "/json") || g_str_has_suffix (mime_type, "/xml") ||
         g_str_has_suffix (mime_type, "/javascript") || g_str_has_suffix (mime_type, "/ecmascript") ||
         g_str_has_suffix (mime_type, "/x-www-form-urlencoded") ||
         g_str_has_suffix (mime_type, "/graphql");
}

static void
set_body (Detail *detail)
{
  JsonObject *request = detail->request;
  const char *mime_type = json_object_get_string_member_with_default (request, "mimeType", NULL);
  gsize size = 0;
  const char *data = g_bytes_get_data (detail->body, &size);
  JsonObject *body = json_object_new ();

  json_object_set_int_member (body, "size", (gint64) size);
  if (mime_type != NULL)
    json_object_set_string_member (body, "mimeType", mime_type);

  if (size == 0 || (is_text_type (mime_type) && g_utf8_validate_len (data, size, NULL)) ||
      (mime_type == NULL && g_utf8_validate_len (data, size, NULL) && memchr (data, '\0', size) == NULL))
    {
      glong n_chars = g_utf8_strlen (data, (gssize) size);
      gint64 start = MIN (detail->cursor, (gint64) n_chars);
      gint64 end = MIN (start + detail->max_chars, (gint64) n_chars);
      const char *from = g_utf8_offset_to_pointer (data, start);
      const char *to = g_utf8_offset_to_pointer (data, end);
      g_autofree char *text = g_strndup (from, to - from);

      json_object_set_string_member (body, "kind",
                                     mime_type != NULL && strstr (mime_type, "json") != NULL
                                     ? "json" : "text");
      json_object_set_int_member (body, "chars", n_chars);
      json_object_set_int_member (body, "offset", start);
      json_object_set_string_member (body, "text", text);
      if (end < n_chars)
        json_object_set_int_member (body, "nextCursor", end);
    }
  else
    {
      json_object_set_string_member (body, "kind", "binary");
    }

  json_object_set_object_member (request, "responseBody", body);
}

static void
return_detail (GTask *task)
{
  Detail *detail = g_task_get_task_data (task);
  JsonObject *reply = json_object_new ();

  json_object_set_string_member (reply, "mode", "request");
  json_object_set_int_member (reply, "matched", 1);
  json_object_set_object_member (reply, "request", json_object_ref (detail->request));
  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
timing_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Detail *detail = g_task_get_task_data (task);
  g_autoptr(JsonNode) timing = NULL;

  timing = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, NULL);
  if (timing != NULL && JSON_NODE_HOLDS_OBJECT (timing))
    json_object_set_member (detail->request, "timing", g_steal_pointer (&timing));

  if (!json_object_has_member (detail->request, "timing"))
    add_unavailable (detail->request, "timing: the page has no Resource Timing entry for this URL "
                     "(an earlier page, or the page cleared its entries)");

  return_detail (task);
}

/* Resource Timing, read in the runtime's world (network.js). */
static void
read_timing (GTask *task)
{
  Detail *detail = g_task_get_task_data (task);
  g_autoptr(JsonObject) args = NULL;

  if (detail->runtime == NULL)
    {
      add_unavailable (detail->request, "timing: the tab is gone");
      return_detail (task);
      g_object_unref (task);
      return;
    }

  args = json_object_new ();
  json_object_set_string_member (args, "url",
                                 json_object_get_string_member_with_default (detail->request, "url", ""));
  tw_page_runtime_call_async (detail->runtime, "network.timing", args,
                              g_task_get_cancellable (task), timing_cb, task);
}

static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Detail *detail = task_data;
  g_autoptr(GError) error = NULL;
  char *written = tw_workspace_path_write (detail->workspace_dir, detail->save_path, detail->body,
                                           &error);

  if (written == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, written, g_free);
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  GTask *task = user_data;
  Detail *detail = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *written = g_task_propagate_pointer (G_TASK (result), &error);

  if (written == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }

  json_object_set_string_member (detail->request, "savedPath", written);
  read_timing (task);
}

static void
after_body (GTask *task)
{
  Detail *detail = g_task_get_task_data (task);

  if (detail->save_path != NULL)
    {
      g_autoptr(GTask) save = g_task_new (NULL, g_task_get_cancellable (task), saved_cb, task);

      g_task_set_task_data (save, detail, NULL);
      g_task_run_in_thread (save, save_thread);
      return;
    }

  read_timing (task);
}

static void
body_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  GTask *task = user_data;
  Detail *detail = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gsize length = 0;
  guchar *data = webkit_web_resource_get_data_finish (WEBKIT_WEB_RESOURCE (object), result,
                                                      &length, &error);

  if (data == NULL && error != NULL)
    {
      g_autofree char *what = g_strdup_printf ("responseBody: WebKit no longer has it (%s)",
                                               error->message);

      if (detail->save_path != NULL)
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                                   "WebKit no longer has the body of this request (%s)",
                                   error->message);
          g_object_unref (task);
          return;
        }
      add_unavailable (detail->request, what);
      read_timing (task);
      return;
    }

  /* WebKit answers with one NUL byte when it kept no copy of the body. */
  if (data == NULL || (length == 1 && data[0] == '\0' &&
                       json_object_get_int_member_with_default (detail->request, "size", 0) != 1))
    {
      g_free (data);
      if (detail->save_path != NULL)
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                                   "WebKit kept no copy of the body of this request");
          g_object_unref (task);
          return;
        }
      add_unavailable (detail->request, "responseBody: WebKit kept no copy of it (a response "
                       "its memory cache did not keep)");
      read_timing (task);
      return;
    }

  detail->body = g_bytes_new_take (data, length);
  set_body (detail);
  after_body (task);
}

void
tw_tab_network_run (const TwTabJob *job,
                    GTask          *task)
{
  JsonObject *params = job->params;
  g_autoptr(WebKitWebResource) resource = NULL;
  g_autoptr(GBytes) response_text = NULL;
  g_autoptr(GError) error = NULL;
  const char *save_path = json_object_get_string_member_with_default (params, "savePath", NULL);
  gboolean show_secrets = json_object_get_boolean_member_with_default (params, "showSecrets", FALSE);
  Detail *detail;
  gint64 id;

  g_return_if_fail (TW_IS_TAB_LOG (job->log));
  g_return_if_fail (TW_IS_PAGE_RUNTIME (job->runtime));

  if (!json_object_has_member (params, "id"))
    {
      if (save_path != NULL || json_object_has_member (params, "cursor"))
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "\"savePath\" and \"cursor\" need the \"id\" of a request");
          return;
        }
      g_task_return_pointer (task, list_requests (job->log, params), (GDestroyNotify) json_object_unref);
      return;
    }

  id = json_object_get_int_member (params, "id");
  detail = g_new0 (Detail, 1);
  g_task_set_task_data (task, detail, (GDestroyNotify) detail_free);
  detail->request = id > 0 ? tw_tab_log_get_request (job->log, (guint64) id, show_secrets, &resource,
                                                     &response_text)
                           : NULL;
  if (detail->request == NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                               "the tab keeps no request %" G_GINT64_FORMAT
                               " (dropped, or never made)", id);
      return;
    }

  if (save_path != NULL)
    {
      detail->save_path = tw_workspace_path_check (job->workspace_dir, save_path,
                                                   TW_WORKSPACE_PATH_NEW_FILE, &error);
      if (detail->save_path == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      /* Written as the agent named it: the write checks again. */
      g_free (detail->save_path);
      detail->save_path = g_strdup (save_path);
      detail->workspace_dir = g_strdup (job->workspace_dir);
    }

  g_set_weak_pointer (&detail->runtime, job->runtime);
  detail->cursor = MAX (json_object_get_int_member_with_default (params, "cursor", 0), 0);
  detail->max_chars = CLAMP (json_object_get_int_member_with_default (params, "maxBodyChars",
                                                                      TW_TAB_NETWORK_DEFAULT_BODY_CHARS),
                             1, 1000000);

  if (!json_object_has_member (detail->request, "requestBody") &&
      g_strcmp0 (json_object_get_string_member_with_default (detail->request, "method", "GET"), "GET") != 0 &&
      g_strcmp0 (json_object_get_string_member_with_default (detail->request, "method", "GET"), "HEAD") != 0)
    add_unavailable (detail->request, "requestBody: only bodies sent by fetch() and "
                     "XMLHttpRequest are seen (not form submissions or beacons)");
  add_unavailable (detail->request, "requestHeaders: the Cookie header, which the network "
                   "process adds after WebKit reports the request");

  if (resource == NULL ||
      g_strcmp0 (json_object_get_string_member_with_default (detail->request, "state", ""), "pending") == 0)
    {
      if (save_path != NULL)
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "the response of request %" G_GINT64_FORMAT " is not complete",
                                   id);
          return;
        }
      add_unavailable (detail->request, "responseBody: the response is not complete");
      read_timing (g_object_ref (task));
      return;
    }

  /* fetch() and XMLHttpRequest bodies bypass WebKit's memory cache, whose
   * copy is all get_data() can give: the hook's copy stands in. */
  if (response_text != NULL)
    {
      detail->body = g_steal_pointer (&response_text);
      set_body (detail);
      after_body (g_object_ref (task));
      return;
    }

  webkit_web_resource_get_data (resource, g_task_get_cancellable (task), body_cb,
                                g_object_ref (task));
}
