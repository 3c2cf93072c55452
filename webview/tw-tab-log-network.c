/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-log-private.h"

#include <string.h>

/* TwTabLog's network requests: recorded as WebKit reports them, with the
 * bodies the page-world hook describes, and read back for browser_network
 * and browser_wait. */

/* Network entries. */

struct _PendingBody
{
  char *method;
  char *url;
  char *body;
};

void
tw_tab_log_pending_body_free (PendingBody *pending)
{
  g_free (pending->method);
  g_free (pending->url);
  g_free (pending->body);
  g_free (pending);
}

#define MAX_PENDING_BODIES 32

/* The body the hook described for @entry's request, if it came first. */
static void
take_request_body (TwTabLog *self,
                   Entry    *entry)
{
  for (GList *link = self->bodies.head; link != NULL; link = link->next)
    {
      PendingBody *pending = link->data;

      if (g_strcmp0 (pending->method, entry->method) == 0 &&
          g_strcmp0 (pending->url, entry->url) == 0)
        {
          entry->request_body = g_steal_pointer (&pending->body);
          tw_tab_log_pending_body_free (pending);
          g_queue_delete_link (&self->bodies, link);
          return;
        }
    }
}

/* A body described after its request was reported goes to the newest
 * request of that method and URL that has none; otherwise it waits. */
void
tw_tab_log_add_request_body (TwTabLog   *self,
                             const char *method,
                             const char *url,
                             const char *body)
{
  PendingBody *pending;
  guint n = 0;

  for (GList *link = self->entries.tail; link != NULL && n < 100; link = link->prev, n++)
    {
      Entry *entry = link->data;

      if (entry->type == ENTRY_NETWORK && entry->request_body == NULL &&
          g_strcmp0 (entry->method, method) == 0 && g_strcmp0 (entry->url, url) == 0 &&
          entry->started_us >= g_get_monotonic_time () - 2 * G_USEC_PER_SEC)
        {
          entry->request_body = g_strdup (body);
          return;
        }
    }

  pending = g_new0 (PendingBody, 1);
  pending->method = g_strdup (method);
  pending->url = g_strdup (url);
  pending->body = g_strdup (body);
  g_queue_push_tail (&self->bodies, pending);
  while (self->bodies.length > MAX_PENDING_BODIES)
    tw_tab_log_pending_body_free (g_queue_pop_head (&self->bodies));
}

static const char *
resource_type_from_fetch_dest (const char *dest)
{
  static const struct {
    const char *dest;
    const char *type;
  } types[] = {
    { "document", "document" },
    { "iframe", "document" },
    { "frame", "document" },
    { "style", "stylesheet" },
    { "script", "script" },
    { "image", "image" },
    { "font", "font" },
    { "audio", "media" },
    { "video", "media" },
    { "track", "media" },
    { "worker", "worker" },
    { "sharedworker", "worker" },
    { "serviceworker", "worker" },
    { "manifest", "manifest" },
    { "object", "object" },
    { "embed", "object" },
    /* fetch(), XMLHttpRequest and beacons have no destination. */
    { "empty", "fetch" },
  };

  if (dest == NULL)
    return NULL;

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      if (g_ascii_strcasecmp (dest, types[i].dest) == 0)
        return types[i].type;
    }

  return "other";
}

/* Sec-Fetch-Dest says what the page wanted the resource for; WebKit sends
 * it to local and secure origins. For the others the Accept header WebKit
 * chose for the request is the next best hint. */
static const char *
guess_resource_type (WebKitURIRequest *request,
                     gboolean          is_main)
{
  SoupMessageHeaders *headers = webkit_uri_request_get_http_headers (request);
  const char *type = NULL;
  const char *accept;

  if (is_main)
    return "document";

  if (headers == NULL)
    return "other";

  type = resource_type_from_fetch_dest (soup_message_headers_get_one (headers, "Sec-Fetch-Dest"));
  if (type != NULL)
    return type;

  accept = soup_message_headers_get_one (headers, "Accept");
  if (accept == NULL)
    return "other";
  if (g_str_has_prefix (accept, "text/html"))
    return "document";
  if (g_str_has_prefix (accept, "text/css"))
    return "stylesheet";
  if (g_str_has_prefix (accept, "image/"))
    return "image";

  return "other";
}

static void
entry_update_from_response (Entry             *entry,
                            WebKitWebResource *resource)
{
  WebKitURIResponse *response = webkit_web_resource_get_response (resource);
  const char *mime_type;
  guint64 length;

  /* Redirects end at another URL than the one requested. */
  if (webkit_web_resource_get_uri (resource) != NULL)
    {
      g_free (entry->url);
      entry->url = tw_tab_log_clip (webkit_web_resource_get_uri (resource), MAX_URL_CHARS);
    }

  if (response == NULL)
    return;

  entry->status = webkit_uri_response_get_status_code (response);

  if (webkit_uri_response_get_http_headers (response) != NULL)
    {
      g_clear_pointer (&entry->response_headers, soup_message_headers_unref);
      entry->response_headers = soup_message_headers_ref (webkit_uri_response_get_http_headers (response));
    }
  if (entry->status_text == NULL && entry->status > 0)
    entry->status_text = g_strdup (soup_status_get_phrase (entry->status));

  mime_type = webkit_uri_response_get_mime_type (response);
  if (mime_type != NULL && mime_type[0] != '\0')
    {
      g_free (entry->mime_type);
      entry->mime_type = g_strdup (mime_type);
    }

  length = webkit_uri_response_get_content_length (response);
  if (length > 0)
    entry->size = (gint64) MIN (length, (guint64) G_MAXINT64);
}

static void
resource_finished_cb (WebKitWebResource *resource,
                      Entry             *entry)
{
  if (entry->state != NETWORK_PENDING)
    return;

  entry->state = NETWORK_FINISHED;
  entry->duration_us = g_get_monotonic_time () - entry->started_us;
  entry_update_from_response (entry, resource);
}

static void
resource_failed_cb (WebKitWebResource *resource,
                    GError            *error,
                    Entry             *entry)
{
  if (entry->state != NETWORK_PENDING)
    return;

  entry->state = NETWORK_FAILED;
  entry->duration_us = g_get_monotonic_time () - entry->started_us;
  entry_update_from_response (entry, resource);

  g_free (entry->failure);
  entry->failure = g_strdup (error != NULL ? error->message : "The load failed");
}

void
tw_tab_log_resource_load_started_cb (WebKitWebView     *view,
                                     WebKitWebResource *resource,
                                     WebKitURIRequest  *request,
                                     TwTabLog          *self)
{
  gboolean is_main = webkit_web_view_get_main_resource (view) == resource;
  const char *method = webkit_uri_request_get_http_method (request);
  Entry *entry = tw_tab_log_entry_new (ENTRY_NETWORK);

  entry->method = g_strdup (method != NULL ? method : "GET");
  entry->url = tw_tab_log_clip (webkit_uri_request_get_uri (request), MAX_URL_CHARS);
  entry->resource_type = g_strdup (guess_resource_type (request, is_main));
  entry->started_us = g_get_monotonic_time ();
  entry->state = NETWORK_PENDING;
  entry->resource = g_object_ref (resource);
  if (webkit_uri_request_get_http_headers (request) != NULL)
    entry->request_headers = soup_message_headers_ref (webkit_uri_request_get_http_headers (request));
  take_request_body (self, entry);

  /* The resource emits exactly one of the two; each handler keeps the entry
   * alive for as long as the resource may still call it. */
  g_signal_connect_data (resource, "finished", G_CALLBACK (resource_finished_cb),
                         tw_tab_log_entry_ref (entry),
                         (GClosureNotify) (void (*)(void))tw_tab_log_entry_unref, 0);
  g_signal_connect_data (resource, "failed", G_CALLBACK (resource_failed_cb),
                         tw_tab_log_entry_ref (entry),
                         (GClosureNotify) (void (*)(void))tw_tab_log_entry_unref, 0);

  tw_tab_log_push (self, entry);

  if (is_main)
    self->main_link = self->entries.tail;
}
/* The network in depth (browser_network). */

static gboolean
is_secret_header (const char *name)
{
  return g_ascii_strcasecmp (name, "Authorization") == 0 ||
         g_ascii_strcasecmp (name, "Proxy-Authorization") == 0 ||
         g_ascii_strcasecmp (name, "Cookie") == 0 ||
         g_ascii_strcasecmp (name, "Set-Cookie") == 0;
}

static JsonArray *
headers_to_json (SoupMessageHeaders *headers,
                 gboolean            show_secrets)
{
  JsonArray *array = json_array_new ();
  SoupMessageHeadersIter iter;
  const char *name;
  const char *value;

  if (headers == NULL)
    return array;

  soup_message_headers_iter_init (&iter, headers);
  while (soup_message_headers_iter_next (&iter, &name, &value))
    {
      JsonObject *header = json_object_new ();
      g_autofree char *masked = NULL;

      if (!show_secrets && is_secret_header (name))
        masked = g_strdup_printf ("(masked, %zu characters; showSecrets reveals it)",
                                  strlen (value));

      json_object_set_string_member (header, "name", name);
      json_object_set_string_member (header, "value", masked != NULL ? masked : value);
      json_array_add_object_element (array, header);
    }

  return array;
}

static JsonObject *
network_to_json (const Entry *entry)
{
  JsonObject *object = tw_tab_log_entry_to_json (entry);

  json_object_remove_member (object, "type");
  json_object_set_int_member (object, "id", (gint64) entry->id);
  if (entry->status_text != NULL && entry->status_text[0] != '\0')
    json_object_set_string_member (object, "statusText", entry->status_text);

  return object;
}

JsonArray *
tw_tab_log_get_network (TwTabLog *self,
                        guint     n_pages)
{
  JsonArray *array;
  GList *link = self->entries.head;

  g_return_val_if_fail (TW_IS_TAB_LOG (self), NULL);

  /* The requests of the newest @n_pages documents. */
  if (n_pages > 0)
    {
      guint seen = 0;

      for (GList *l = self->entries.tail; l != NULL; l = l->prev)
        {
          if (((Entry *) l->data)->type == ENTRY_NAVIGATION && ++seen == n_pages)
            {
              link = l->next;
              break;
            }
        }
    }

  array = json_array_new ();
  for (; link != NULL; link = link->next)
    {
      Entry *entry = link->data;

      if (entry->type == ENTRY_NETWORK)
        json_array_add_object_element (array, network_to_json (entry));
    }

  return array;
}

JsonArray *
tw_tab_log_get_in_flight (TwTabLog *self,
                          gint64   *last_activity_us)
{
  g_autoptr(GPtrArray) newest_first = g_ptr_array_new ();
  JsonArray *array;
  gint64 now = g_get_monotonic_time ();
  gint64 last = 0;

  g_return_val_if_fail (TW_IS_TAB_LOG (self), NULL);

  /* Requests of earlier documents that never ended are WebKit's to cancel;
   * only the current document's count. */
  for (GList *l = self->entries.tail; l != NULL; l = l->prev)
    {
      Entry *entry = l->data;

      if (entry->type == ENTRY_NAVIGATION)
        break;
      if (entry->type != ENTRY_NETWORK)
        continue;

      last = MAX (last, entry->started_us);
      if (entry->state != NETWORK_PENDING)
        {
          last = MAX (last, entry->started_us + entry->duration_us);
          continue;
        }

      {
        JsonObject *request = json_object_new ();

        json_object_set_int_member (request, "id", (gint64) entry->id);
        json_object_set_string_member (request, "method", entry->method);
        json_object_set_string_member (request, "url", entry->url);
        json_object_set_string_member (request, "resourceType", entry->resource_type);
        json_object_set_int_member (request, "pendingMs", (now - entry->started_us) / 1000);
        g_ptr_array_add (newest_first, request);
      }
    }

  array = json_array_new ();
  for (guint i = newest_first->len; i > 0; i--)
    json_array_add_object_element (array, g_ptr_array_index (newest_first, i - 1));

  if (last_activity_us != NULL)
    *last_activity_us = last;

  return array;
}

JsonObject *
tw_tab_log_get_request (TwTabLog           *self,
                        guint64             id,
                        gboolean            show_secrets,
                        WebKitWebResource **resource,
                        GBytes            **response_text)
{
  g_return_val_if_fail (TW_IS_TAB_LOG (self), NULL);

  for (GList *link = self->entries.tail; link != NULL; link = link->prev)
    {
      Entry *entry = link->data;

      if (entry->id == id && entry->type == ENTRY_NETWORK)
        {
          JsonObject *object = network_to_json (entry);

          json_object_set_array_member (object, "requestHeaders",
                                        headers_to_json (entry->request_headers, show_secrets));
          json_object_set_array_member (object, "responseHeaders",
                                        headers_to_json (entry->response_headers, show_secrets));
          if (entry->request_body != NULL)
            json_object_set_string_member (object, "requestBody", entry->request_body);
          if (resource != NULL)
            *resource = entry->resource != NULL ? g_object_ref (entry->resource) : NULL;
          if (response_text != NULL)
            *response_text = entry->response_text != NULL ? g_bytes_ref (entry->response_text)
                                                          : NULL;
          return object;
        }
      if (entry->id < id)
        break;
    }

  return NULL;
}
