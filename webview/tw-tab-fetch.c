/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-fetch.h"

#include "tw-error.h"

#include <string.h>

#define READ_CHUNK 65536

typedef struct
{
  SoupSession  *session;
  SoupMessage  *message;
  GInputStream *stream;
  GByteArray   *body;
  gboolean      truncated;
  guint         cookies_sent;
  gint64        max_chars;
  gboolean      show_secrets;
} Fetch;

static void
fetch_free (Fetch *fetch)
{
  g_clear_object (&fetch->stream);
  g_clear_object (&fetch->message);
  g_clear_object (&fetch->session);
  g_clear_pointer (&fetch->body, g_byte_array_unref);
  g_free (fetch);
}

static gboolean
is_text_type (const char *mime_type)
{
  if (mime_type == NULL)
    return FALSE;

  return g_str_has_prefix (mime_type, "text/") || strstr (mime_type, "json") != NULL ||
         strstr (mime_type, "xml") != NULL || strstr (mime_type, "javascript") != NULL ||
         strstr (mime_type, "x-www-form-urlencoded") != NULL;
}

static void
finish_fetch (GTask *task)
{
  Fetch *fetch = g_task_get_task_data (task);
  SoupMessageHeaders *headers = soup_message_get_response_headers (fetch->message);
  JsonObject *reply = json_object_new ();
  JsonObject *body = json_object_new ();
  JsonArray *list = json_array_new ();
  SoupMessageHeadersIter iter;
  const char *name;
  const char *value;
  const char *mime_type = soup_message_headers_get_content_type (headers, NULL);
  g_autofree char *url = g_uri_to_string (soup_message_get_uri (fetch->message));

  soup_message_headers_iter_init (&iter, headers);
  while (soup_message_headers_iter_next (&iter, &name, &value))
    {
      JsonObject *header = json_object_new ();
      g_autofree char *masked = NULL;

      if (!fetch->show_secrets && g_ascii_strcasecmp (name, "Set-Cookie") == 0)
        masked = g_strdup_printf ("(masked, %zu characters; showSecrets reveals it)",
                                  strlen (value));
      json_object_set_string_member (header, "name", name);
      json_object_set_string_member (header, "value", masked != NULL ? masked : value);
      json_array_add_object_element (list, header);
    }

  json_object_set_int_member (body, "size", fetch->body->len);
  json_object_set_boolean_member (body, "truncated", fetch->truncated);
  if (mime_type != NULL)
    json_object_set_string_member (body, "mimeType", mime_type);

  if (fetch->body->len == 0 ||
      ((is_text_type (mime_type) || mime_type == NULL) &&
       memchr (fetch->body->data, '\0', fetch->body->len) == NULL))
    {
      /* A cut may fall inside a character: keep the valid part. */
      g_autofree char *text = fetch->body->len > 0
                              ? g_utf8_make_valid ((const char *) fetch->body->data,
                                                   fetch->body->len)
                              : g_strdup ("");
      glong n_chars = g_utf8_strlen (text, -1);

      if (n_chars > fetch->max_chars)
        {
          *g_utf8_offset_to_pointer (text, fetch->max_chars) = '\0';
          json_object_set_boolean_member (body, "truncated", TRUE);
        }
      json_object_set_string_member (body, "kind",
                                     mime_type != NULL && strstr (mime_type, "json") != NULL
                                     ? "json" : "text");
      json_object_set_int_member (body, "chars", n_chars);
      json_object_set_string_member (body, "text", text);
    }
  else
    {
      json_object_set_string_member (body, "kind", "binary");
    }

  json_object_set_string_member (reply, "url", url);
  json_object_set_int_member (reply, "status", soup_message_get_status (fetch->message));
  json_object_set_string_member (reply, "statusText",
                                 soup_message_get_reason_phrase (fetch->message) != NULL
                                 ? soup_message_get_reason_phrase (fetch->message) : "");
  json_object_set_int_member (reply, "cookiesSent", fetch->cookies_sent);
  json_object_set_array_member (reply, "headers", list);
  json_object_set_object_member (reply, "body", body);

  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void read_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data);

/* The body is read a chunk at a time, up to TW_TAB_FETCH_MAX_BODY_BYTES. */
static void
read_next_chunk (GTask *task)
{
  Fetch *fetch = g_task_get_task_data (task);

  g_input_stream_read_bytes_async (fetch->stream, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   g_task_get_cancellable (task), read_cb, g_object_ref (task));
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result,
                                                              &error);

  if (bytes == NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NAVIGATION_FAILED,
                               "reading the response failed: %s", error->message);
      return;
    }

  if (g_bytes_get_size (bytes) == 0)
    {
      finish_fetch (task);
      return;
    }

  g_byte_array_append (fetch->body, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  if (fetch->body->len >= TW_TAB_FETCH_MAX_BODY_BYTES)
    {
      g_byte_array_set_size (fetch->body, TW_TAB_FETCH_MAX_BODY_BYTES);
      fetch->truncated = TRUE;
      finish_fetch (task);
      return;
    }

  read_next_chunk (task);
}

static void
sent_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  fetch->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (fetch->stream == NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NAVIGATION_FAILED,
                               "the request failed: %s", error->message);
      return;
    }

  read_next_chunk (task);
}

static void
cookies_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  GList *cookies = webkit_cookie_manager_get_cookies_finish (WEBKIT_COOKIE_MANAGER (object), result,
                                                             &error);
  SoupMessageHeaders *headers = soup_message_get_request_headers (fetch->message);

  if (cookies != NULL && soup_message_headers_get_one (headers, "Cookie") == NULL)
    {
      GSList *list = NULL;
      g_autofree char *header = NULL;

      for (GList *l = g_list_last (cookies); l != NULL; l = l->prev)
        list = g_slist_prepend (list, l->data);
      header = soup_cookies_to_cookie_header (list);
      g_slist_free (list);

      soup_message_headers_replace (headers, "Cookie", header);
      fetch->cookies_sent = g_list_length (cookies);
    }
  g_list_free_full (cookies, (GDestroyNotify) soup_cookie_free);

  soup_session_send_async (fetch->session, fetch->message, G_PRIORITY_DEFAULT,
                           g_task_get_cancellable (task), sent_cb, g_object_ref (task));
}

void
tw_tab_fetch_run (const TwTabJob *job,
                  GTask          *task)
{
  JsonObject *params = job->params;
  const char *url = json_object_get_string_member_with_default (params, "url", "");
  const char *method = json_object_get_string_member_with_default (params, "method", "GET");
  const char *body = json_object_get_string_member_with_default (params, "body", NULL);
  JsonNode *headers_node = json_object_get_member (params, "headers");
  WebKitNetworkSession *network = webkit_web_view_get_network_session (job->view);
  WebKitSettings *settings = webkit_web_view_get_settings (job->view);
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL);
  g_autofree char *upper = g_ascii_strup (method, -1);
  SoupMessageHeaders *request_headers;
  Fetch *fetch;

  g_return_if_fail (WEBKIT_IS_WEB_VIEW (job->view));

  if (uri == NULL || (g_strcmp0 (g_uri_get_scheme (uri), "http") != 0 &&
                      g_strcmp0 (g_uri_get_scheme (uri), "https") != 0))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                               "only http and https URLs are allowed; \"%s\" is not one", url);
      return;
    }

  fetch = g_new0 (Fetch, 1);
  g_task_set_task_data (task, fetch, (GDestroyNotify) fetch_free);
  fetch->body = g_byte_array_new ();
  fetch->max_chars = CLAMP (json_object_get_int_member_with_default (params, "maxBodyChars",
                                                                     TW_TAB_FETCH_DEFAULT_BODY_CHARS),
                            1, TW_TAB_FETCH_MAX_BODY_BYTES);
  fetch->show_secrets = json_object_get_boolean_member_with_default (params, "showSecrets", FALSE);
  fetch->session = soup_session_new_with_options ("user-agent",
                                                  webkit_settings_get_user_agent (settings),
                                                  "timeout", 30, NULL);
  fetch->message = soup_message_new_from_uri (upper, uri);
  if (fetch->message == NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "\"%s\" is not an HTTP method", method);
      return;
    }

  request_headers = soup_message_get_request_headers (fetch->message);
  if (headers_node != NULL && JSON_NODE_HOLDS_OBJECT (headers_node))
    {
      JsonObject *headers = json_node_get_object (headers_node);
      g_autoptr(GList) names = json_object_get_members (headers);

      for (GList *l = names; l != NULL; l = l->next)
        {
          const char *value = json_object_get_string_member_with_default (headers, l->data, NULL);

          /* Header names and values may not hold line breaks. */
          if (value == NULL || strpbrk (l->data, "\r\n:") != NULL || strpbrk (value, "\r\n") != NULL)
            {
              g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                       "header \"%s\" is not a valid header line",
                                       (const char *) l->data);
              return;
            }
          soup_message_headers_replace (request_headers, l->data, value);
        }
    }

  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));
      /* A copy: setting the body replaces the header it points into. */
      g_autofree char *type = g_strdup (soup_message_headers_get_one (request_headers,
                                                                      "Content-Type"));

      soup_message_set_request_body_from_bytes (fetch->message,
                                                type != NULL ? type : "text/plain;charset=UTF-8",
                                                bytes);
    }

  if (network == NULL)
    {
      soup_session_send_async (fetch->session, fetch->message, G_PRIORITY_DEFAULT, g_task_get_cancellable (task),
                               sent_cb, g_object_ref (task));
      return;
    }

  webkit_cookie_manager_get_cookies (webkit_network_session_get_cookie_manager (network), url,
                                     g_task_get_cancellable (task), cookies_cb, g_object_ref (task));
}
