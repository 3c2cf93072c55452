/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-read-url.h"

#include "tw-json.h"
#include "tw-error.h"
#include "tw-page-runtime.h"
#include "tw-tab-reading.h"
#include "tw-web-context.h"

#include <libsoup/soup.h>
#include <string.h>

/* Responses longer than this are cut: the reader reads the first part. */
#define READ_URL_MAX_BYTES   (8 * 1024 * 1024)
#define READ_URL_MAX_HOPS    10
#define READ_URL_TIMEOUT_S   30
/* Directories above the page's own where an llms.txt is looked for, before
 * the site's root. */
#define LLMS_MAX_PARENTS     2

typedef enum
{
  STAGE_LLMS,   /* an llms.txt or llms-full.txt beside the page, then the site's */
  STAGE_PAGE,   /* the page itself, Markdown asked for first */
  STAGE_MD,     /* the .md form of the page's path */
} Stage;

typedef struct
{
  WebKitNetworkSession *session;
  SoupSession          *soup;
  JsonObject           *params;
  Stage                 stage;
  GUri                 *target;    /* what the page URL is */
  GUri                 *current;   /* what is being fetched, after redirects */
  guint                 hops;
  GPtrArray            *llms;      /* GUri *: where llms.txt may be, nearest first */
  guint                 llms_next; /* the next of them to try */
  GString              *llms_tried;
  SoupMessage          *message;
  GInputStream         *stream;
  GByteArray           *body;
  gboolean              cut;
  char                 *note;
  /* The page, kept while its .md form is tried. */
  char                 *page_url;
  guint                 page_status;
  char                 *page_type;
  GBytes               *page_body;
  /* The answer being converted. */
  char                 *source;
  char                 *final_url;
  guint                 status;
  char                 *content_type;
  WebKitWebView        *view;
  TwPageRuntime        *runtime;
  JsonObject           *convert_args;
  gulong                load_handler;
} ReadUrl;

static void
read_url_free (ReadUrl *data)
{
  g_clear_object (&data->session);
  g_clear_object (&data->soup);
  g_clear_pointer (&data->params, json_object_unref);
  g_clear_pointer (&data->target, g_uri_unref);
  g_clear_pointer (&data->current, g_uri_unref);
  g_clear_pointer (&data->llms, g_ptr_array_unref);
  if (data->llms_tried != NULL)
    g_string_free (data->llms_tried, TRUE);
  g_clear_object (&data->message);
  g_clear_object (&data->stream);
  g_clear_pointer (&data->body, g_byte_array_unref);
  g_free (data->note);
  g_free (data->page_url);
  g_free (data->page_type);
  g_clear_pointer (&data->page_body, g_bytes_unref);
  g_free (data->source);
  g_free (data->final_url);
  g_free (data->content_type);
  if (data->view != NULL)
    {
      g_clear_signal_handler (&data->load_handler, data->view);
      /* WebKit may still use the view while its callbacks return. */
      g_idle_add_once ((GSourceOnceFunc) g_object_unref, g_steal_pointer (&data->view));
    }
  g_clear_object (&data->runtime);
  g_clear_pointer (&data->convert_args, json_object_unref);
  g_free (data);
}

static void fetch (GTask *task);

static gboolean
is_http (GUri *uri)
{
  const char *scheme = g_uri_get_scheme (uri);

  return (g_ascii_strcasecmp (scheme, "http") == 0 || g_ascii_strcasecmp (scheme, "https") == 0) &&
         g_uri_get_host (uri) != NULL && *g_uri_get_host (uri) != '\0';
}

/* The media type of a Content-Type, lower case, without parameters. */
static char *
media_type (const char *content_type)
{
  const char *semi;

  if (content_type == NULL)
    return g_strdup ("");

  semi = strchr (content_type, ';');
  return g_strstrip (g_ascii_strdown (content_type, semi ? semi - content_type : -1));
}

static gboolean
is_markdown_type (const char *type)
{
  return g_str_equal (type, "text/markdown") || g_str_equal (type, "text/x-markdown");
}

static gboolean
is_html_type (const char *type)
{
  return g_str_equal (type, "text/html") || g_str_equal (type, "application/xhtml+xml");
}

static gboolean
is_text_type (const char *type)
{
  return g_str_has_prefix (type, "text/") || g_str_equal (type, "application/json") ||
         g_str_equal (type, "application/xml") || g_str_has_suffix (type, "+json") ||
         g_str_has_suffix (type, "+xml");
}

static gboolean
looks_like_html (GBytes *body)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (body, &size);
  gsize i = 0;

  while (i < size && g_ascii_isspace (data[i]))
    i++;

  return i < size && data[i] == '<';
}

/* The body as UTF-8 text, converted from the charset the server named. */
static char *
body_text (GBytes     *body,
           const char *content_type)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (body, &size);
  g_autoptr(GHashTable) params = NULL;
  const char *charset = NULL;

  if (content_type != NULL)
    {
      params = soup_header_parse_semi_param_list (content_type);
      charset = g_hash_table_lookup (params, "charset");
    }

  if (charset != NULL && g_ascii_strcasecmp (charset, "utf-8") != 0 &&
      g_ascii_strcasecmp (charset, "utf8") != 0)
    {
      g_autofree char *converted = g_convert (data, size, "UTF-8", charset, NULL, NULL, NULL);

      if (converted != NULL)
        return g_utf8_make_valid (converted, -1);
    }

  return g_utf8_make_valid (data, size);
}

/* The .md form of a page path: /guide/ -> /guide/index.md, /a.html ->
 * /a.md, /a -> /a.md. NULL when the path is one already. */
static GUri *
markdown_variant (GUri *uri)
{
  const char *path = g_uri_get_path (uri);
  g_autofree char *md = NULL;

  if (path == NULL || *path == '\0')
    path = "/";
  if (g_str_has_suffix (path, ".md") || g_str_has_suffix (path, ".txt"))
    return NULL;

  if (g_str_has_suffix (path, "/"))
    md = g_strconcat (path, "index.md", NULL);
  else if (g_str_has_suffix (path, ".html") || g_str_has_suffix (path, ".htm"))
    {
      g_autofree char *stem = g_strndup (path, strrchr (path, '.') - path);

      md = g_strconcat (stem, ".md", NULL);
    }
  else
    md = g_strconcat (path, ".md", NULL);

  return g_uri_build (G_URI_FLAGS_ENCODED, g_uri_get_scheme (uri), NULL, g_uri_get_host (uri),
                      g_uri_get_port (uri), md, g_uri_get_query (uri), NULL);
}

/* Where the llms.txt (or llms-full.txt) @name of the page @uri may be, as
 * the llms.txt proposal allows: beside the page (/docs/llms.txt for
 * /docs/guide), in the directories above it, and at the site's root, the
 * nearest first. */
static GPtrArray *
llms_candidates (GUri       *uri,
                 const char *name)
{
  GPtrArray *candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) g_uri_unref);
  const char *path = g_uri_get_path (uri);
  g_autofree char *dir = NULL;
  char *slash;

  if (path == NULL || *path != '/')
    path = "/";
  dir = g_strndup (path, strrchr (path, '/') - path);

  for (guint parents = 0; *dir != '\0' && parents <= LLMS_MAX_PARENTS; parents++)
    {
      g_autofree char *candidate = g_strconcat (dir, "/", name, NULL);

      g_ptr_array_add (candidates, g_uri_build (G_URI_FLAGS_ENCODED, g_uri_get_scheme (uri), NULL,
                                                g_uri_get_host (uri), g_uri_get_port (uri), candidate,
                                                NULL, NULL));
      slash = strrchr (dir, '/');
      *slash = '\0';
    }
  {
    g_autofree char *root = g_strconcat ("/", name, NULL);

    g_ptr_array_add (candidates, g_uri_build (G_URI_FLAGS_ENCODED, g_uri_get_scheme (uri), NULL,
                                              g_uri_get_host (uri), g_uri_get_port (uri), root, NULL, NULL));
  }
  return candidates;
}

static void
convert_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ReadUrl *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) value = NULL;
  JsonObject *answer;
  JsonObject *reply;
  JsonNode *next;

  value = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, &error);
  if (value == NULL || !JSON_NODE_HOLDS_OBJECT (value))
    {
      if (error == NULL)
        error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                     "the reader returned no text");
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  answer = json_node_get_object (value);
  reply = json_object_new ();
  json_object_set_string_member (reply, "url", data->final_url);
  json_object_set_int_member (reply, "status", data->status);
  json_object_set_string_member (reply, "contentType",
                                 data->content_type != NULL ? data->content_type : "");
  json_object_set_string_member (reply, "source", data->source);
  if (tw_json_get_string (answer, "title", NULL) != NULL && *tw_json_get_string (answer, "title", NULL) != '\0')
    json_object_set_string_member (reply, "title", tw_json_get_string (answer, "title", NULL));
  if (tw_json_get_string (answer, "mainContent", NULL) != NULL)
    json_object_set_string_member (reply, "mainContent", tw_json_get_string (answer, "mainContent", NULL));
  if (data->note != NULL || data->cut)
    {
      g_autofree char *note = g_strconcat (data->note != NULL ? data->note : "",
                                           data->note != NULL && data->cut ? "; " : "",
                                           data->cut ? "the response was longer than 8 MB and "
                                           "only its start was read" : "",
                                           NULL);

      json_object_set_string_member (reply, "note", note);
    }
  json_object_set_string_member (reply, "text", tw_json_get_string (answer, "text", NULL) != NULL
                                                   ? tw_json_get_string (answer, "text", NULL) : "");
  json_object_set_int_member (reply, "offset", json_object_get_int_member_with_default (answer, "offset", 0));
  json_object_set_int_member (reply, "total", json_object_get_int_member_with_default (answer, "total", 0));
  json_object_set_boolean_member (reply, "truncated",
                                  json_object_get_boolean_member_with_default (answer, "truncated",
                                                                               FALSE));
  next = json_object_get_member (answer, "nextOffset");
  if (next != NULL && JSON_NODE_HOLDS_VALUE (next))
    {
      g_autofree char *cursor = g_strdup_printf ("c%" G_GINT64_FORMAT, json_node_get_int (next));

      json_object_set_string_member (reply, "nextCursor", cursor);
    }

  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
reader_load_changed_cb (WebKitWebView   *view,
                        WebKitLoadEvent  event,
                        gpointer         user_data)
{
  GTask *task = user_data;
  ReadUrl *data = g_task_get_task_data (task);

  if (event != WEBKIT_LOAD_FINISHED)
    return;

  g_clear_signal_handler (&data->load_handler, view);
  tw_page_runtime_call_async (data->runtime, "readSource", data->convert_args,
                              g_task_get_cancellable (task), convert_cb, task);
}

/* Hands the text to read.js in a hidden web view of its own: Markdown and
 * text are filtered and cut there, HTML parsed and converted first. */
static void
convert (GTask      *task,
         const char *kind,
         const char *source,
         const char *url,
         guint       status,
         const char *content_type,
         GBytes     *body)
{
  ReadUrl *data = g_task_get_task_data (task);
  static const char * const copied[] = { "filter", "outline", "maxChars", "offset", NULL };
  g_autofree char *text = body_text (body, content_type);

  g_free (data->source);
  data->source = g_strdup (source);
  g_free (data->final_url);
  data->final_url = g_strdup (url);
  g_free (data->content_type);
  data->content_type = g_strdup (content_type);
  data->status = status;

  data->convert_args = json_object_new ();
  json_object_set_string_member (data->convert_args, "kind", kind);
  json_object_set_string_member (data->convert_args, "url", url);
  json_object_set_string_member (data->convert_args, "body", text);
  for (guint i = 0; copied[i] != NULL; i++)
    if (json_object_has_member (data->params, copied[i]))
      json_object_set_member (data->convert_args, copied[i],
                              json_node_copy (json_object_get_member (data->params, copied[i])));

  data->view = g_object_new (WEBKIT_TYPE_WEB_VIEW,
                             "web-context", tw_web_context_get_shared (),
                             "network-session", data->session,
                             NULL);
  g_object_ref_sink (data->view);
  data->runtime = tw_page_runtime_new (data->view);
  /* The task lives until the runtime answers; the handler goes with the
   * view in read_url_free(). */
  data->load_handler = g_signal_connect (data->view, "load-changed",
                                         G_CALLBACK (reader_load_changed_cb), g_object_ref (task));
  webkit_web_view_load_html (data->view, "", NULL);
}

static void
stage_done (GTask *task)
{
  ReadUrl *data = g_task_get_task_data (task);
  g_autoptr(GBytes) body = g_byte_array_free_to_bytes (g_steal_pointer (&data->body));
  g_autofree char *url = g_uri_to_string (data->current);
  guint status = soup_message_get_status (data->message);
  const char *content_type = soup_message_headers_get_one (soup_message_get_response_headers (data->message),
                                                           "Content-Type");
  g_autofree char *type = media_type (content_type);

  switch (data->stage)
    {
    case STAGE_LLMS:
      if (status == 200 && !is_html_type (type) && !looks_like_html (body))
        {
          convert (task, "markdown", g_str_has_suffix (url, "llms-full.txt") ? "llms-full.txt"
                                                                              : "llms.txt",
                   url, status, content_type, body);
          return;
        }
      g_string_append_printf (data->llms_tried, "%s%s (HTTP %u)", data->llms_tried->len > 0 ? ", " : "",
                              g_uri_get_path (g_ptr_array_index (data->llms, data->llms_next - 1)), status);
      if (data->llms_next < data->llms->len)
        {
          g_clear_pointer (&data->current, g_uri_unref);
          data->current = g_uri_ref (g_ptr_array_index (data->llms, data->llms_next++));
          data->hops = 0;
          fetch (task);
          return;
        }
      data->note = g_strdup_printf ("the site has no %s at %s; read the page instead",
                                    g_str_equal (tw_json_get_string (data->params, "llms", ""), "full")
                                    ? "llms-full.txt" : "llms.txt",
                                    data->llms_tried->str);
      data->stage = STAGE_PAGE;
      data->hops = 0;
      g_clear_pointer (&data->current, g_uri_unref);
      data->current = g_uri_ref (data->target);
      fetch (task);
      return;

    case STAGE_PAGE:
      if (is_markdown_type (type))
        {
          convert (task, "markdown", "markdown", url, status, content_type, body);
          return;
        }
      if (is_html_type (type) || (*type == '\0' && looks_like_html (body)))
        {
          g_autoptr(GUri) md = status >= 200 && status < 300 ? markdown_variant (data->current)
                                                             : NULL;

          if (md != NULL)
            {
              data->page_url = g_steal_pointer (&url);
              data->page_status = status;
              data->page_type = g_strdup (content_type);
              data->page_body = g_steal_pointer (&body);
              data->stage = STAGE_MD;
              g_clear_pointer (&data->current, g_uri_unref);
              data->current = g_steal_pointer (&md);
              data->hops = 0;
              fetch (task);
              return;
            }
          convert (task, "html", "extracted HTML", url, status, content_type, body);
          return;
        }
      if (is_text_type (type) || *type == '\0')
        {
          convert (task, "text", "text", url, status, content_type, body);
          return;
        }
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "%s is not a text page but %s (%zu bytes, HTTP %u); open it in "
                               "a tab or use browser_screenshot", url, type,
                               g_bytes_get_size (body), status);
      return;

    case STAGE_MD:
      if (status == 200 && (is_markdown_type (type) || g_str_equal (type, "text/plain")) &&
          !looks_like_html (body))
        {
          convert (task, "markdown", "markdown", url, status, content_type, body);
          return;
        }
      convert (task, "html", "extracted HTML", data->page_url, data->page_status,
               data->page_type, data->page_body);
      return;
    }
}

static void
read_body_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ReadUrl *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) chunk = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result,
                                                              &error);

  if (chunk == NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NAVIGATION_FAILED,
                               "reading the response failed: %s", error->message);
      return;
    }

  if (g_bytes_get_size (chunk) > 0 && data->body->len < READ_URL_MAX_BYTES)
    {
      gsize room = READ_URL_MAX_BYTES - data->body->len;
      gsize size = MIN (room, g_bytes_get_size (chunk));

      g_byte_array_append (data->body, g_bytes_get_data (chunk, NULL), size);
      data->cut = size < g_bytes_get_size (chunk);
      if (!data->cut && data->body->len < READ_URL_MAX_BYTES)
        {
          GCancellable *cancellable = g_task_get_cancellable (task);

          g_input_stream_read_bytes_async (data->stream, 64 * 1024, G_PRIORITY_DEFAULT,
                                           cancellable, read_body_cb, g_steal_pointer (&task));
          return;
        }
    }

  g_input_stream_close_async (data->stream, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
  g_clear_object (&data->stream);
  stage_done (task);
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ReadUrl *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  WebKitCookieManager *cookies = webkit_network_session_get_cookie_manager (data->session);
  GCancellable *cancellable;
  GSList *set_cookies;
  guint status;

  if (stream == NULL)
    {
      g_autofree char *url = g_uri_to_string (data->current);

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NAVIGATION_FAILED,
                                 "%s could not be fetched: %s", url, error->message);
      return;
    }

  /* Cookies the server set belong to the workspace, as a tab's would. */
  set_cookies = soup_cookies_from_response (data->message);
  for (GSList *l = set_cookies; l != NULL; l = l->next)
    webkit_cookie_manager_add_cookie (cookies, l->data, NULL, NULL, NULL);
  g_slist_free_full (set_cookies, (GDestroyNotify) soup_cookie_free);

  status = soup_message_get_status (data->message);
  if (SOUP_STATUS_IS_REDIRECTION (status) &&
      soup_message_headers_get_one (soup_message_get_response_headers (data->message),
                                    "Location") != NULL)
    {
      const char *location = soup_message_headers_get_one (soup_message_get_response_headers (data->message),
                                                           "Location");
      g_autoptr(GUri) next = g_uri_parse_relative (data->current, location, G_URI_FLAGS_ENCODED,
                                                   NULL);

      g_input_stream_close_async (stream, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
      if (next == NULL || !is_http (next))
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                   "the server redirected to \"%s\", which is not an http or "
                                   "https URL", location);
          return;
        }
      if (++data->hops > READ_URL_MAX_HOPS)
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NAVIGATION_FAILED,
                                   "more than %d redirects", READ_URL_MAX_HOPS);
          return;
        }
      g_clear_pointer (&data->current, g_uri_unref);
      data->current = g_steal_pointer (&next);
      fetch (task);
      return;
    }

  data->stream = g_steal_pointer (&stream);
  data->body = g_byte_array_new ();
  data->cut = FALSE;
  cancellable = g_task_get_cancellable (task);
  g_input_stream_read_bytes_async (data->stream, 64 * 1024, G_PRIORITY_DEFAULT,
                                   cancellable, read_body_cb, g_steal_pointer (&task));
}

static void
cookies_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ReadUrl *data = g_task_get_task_data (task);
  GList *cookies = webkit_cookie_manager_get_cookies_finish (WEBKIT_COOKIE_MANAGER (object),
                                                             result, NULL);
  SoupMessageHeaders *headers;
  GCancellable *cancellable;
  const char *accept;

  g_clear_object (&data->message);
  data->message = soup_message_new_from_uri (SOUP_METHOD_GET, data->current);
  /* Redirects are followed here, so that each hop gets its own cookies
   * and no cookie travels to another site. */
  soup_message_add_flags (data->message, SOUP_MESSAGE_NO_REDIRECT);
  headers = soup_message_get_request_headers (data->message);

  switch (data->stage)
    {
    case STAGE_LLMS:
      accept = "text/markdown, text/plain;q=0.9, */*;q=0.1";
      break;
    case STAGE_MD:
      accept = "text/markdown, text/plain;q=0.9";
      break;
    default:
      accept = "text/markdown, text/html;q=0.9, application/xhtml+xml;q=0.9, text/plain;q=0.8, "
               "*/*;q=0.5";
      break;
    }
  soup_message_headers_replace (headers, "Accept", accept);

  if (cookies != NULL)
    {
      GSList *list = NULL;
      g_autofree char *header = NULL;

      for (GList *l = cookies; l != NULL; l = l->next)
        list = g_slist_prepend (list, l->data);
      list = g_slist_reverse (list);
      header = soup_cookies_to_cookie_header (list);
      soup_message_headers_replace (headers, "Cookie", header);
      g_slist_free (list);
      g_list_free_full (cookies, (GDestroyNotify) soup_cookie_free);
    }

  cancellable = g_task_get_cancellable (task);
  soup_session_send_async (data->soup, data->message, G_PRIORITY_DEFAULT, cancellable, send_cb,
                           g_steal_pointer (&task));
}

static void
fetch (GTask *task)
{
  ReadUrl *data = g_task_get_task_data (task);
  g_autofree char *url = g_uri_to_string (data->current);

  webkit_cookie_manager_get_cookies (webkit_network_session_get_cookie_manager (data->session),
                                     url, g_task_get_cancellable (task), cookies_cb,
                                     g_object_ref (task));
}

void
tw_read_url_async (WebKitNetworkSession *session,
                   JsonObject           *params,
                   GCancellable         *cancellable,
                   GAsyncReadyCallback   callback,
                   gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  ReadUrl *data;
  const char *url = tw_json_get_string (params, "url", NULL);
  const char *llms = tw_json_get_string (params, "llms", NULL);
  const char *cursor = tw_json_get_string (params, "cursor", NULL);
  g_autoptr(GUri) uri = NULL;

  g_return_if_fail (WEBKIT_IS_NETWORK_SESSION (session));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_read_url_async);

  uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_ENCODED, NULL) : NULL;
  if (uri == NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "url must be an absolute http or https URL, like "
                               "https://example.com/docs");
      return;
    }
  if (!is_http (uri))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                               "only http and https URLs can be read, not \"%s\"", url);
      return;
    }
  if (llms != NULL && !g_str_equal (llms, "txt") && !g_str_equal (llms, "full"))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "llms must be \"txt\" (llms.txt) or \"full\" (llms-full.txt)");
      return;
    }

  data = g_new0 (ReadUrl, 1);
  data->session = g_object_ref (session);
  data->params = json_object_ref (params);
  data->target = g_uri_ref (uri);
  g_task_set_task_data (task, data, (GDestroyNotify) read_url_free);

  if (cursor != NULL)
    {
      char *end = NULL;
      gint64 offset = cursor[0] == 'c' && g_ascii_isdigit (cursor[1])
                      ? g_ascii_strtoll (cursor + 1, &end, 10) : -1;

      if (offset < 0 || *end != '\0' || offset > G_MAXINT32)
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "cursor must be the nextCursor a cut answer gave, like "
                                   "\"c40000\"");
          return;
        }
      json_object_set_int_member (data->params, "offset", offset);
    }

  data->soup = soup_session_new_with_options ("timeout", READ_URL_TIMEOUT_S,
                                              "user-agent", "Tabwright (browser_read)",
                                              NULL);

  if (llms != NULL)
    {
      data->stage = STAGE_LLMS;
      data->llms = llms_candidates (uri, g_str_equal (llms, "full") ? "llms-full.txt" : "llms.txt");
      data->llms_tried = g_string_new (NULL);
      data->current = g_uri_ref (g_ptr_array_index (data->llms, 0));
      data->llms_next = 1;
    }
  else
    {
      data->stage = STAGE_PAGE;
      data->current = g_uri_ref (uri);
    }

  fetch (task);
}

JsonObject *
tw_read_url_finish (GAsyncResult  *result,
                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
