/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-log.h"

#include "extension/tw-web-process-extension.h"

#include <string.h>

typedef enum
{
  ENTRY_CONSOLE,
  ENTRY_NETWORK,
  ENTRY_NAVIGATION,
  ENTRY_NOTE,
} EntryType;

typedef enum
{
  NETWORK_PENDING,
  NETWORK_FINISHED,
  NETWORK_FAILED,
} NetworkState;

/* Entries are reference counted: a network entry is also held by the signal
 * handlers of its WebKitWebResource, which may outlive its place in the
 * ring. */
typedef struct
{
  EntryType     type;
  GDateTime    *time;
  guint64       id;         /* from 1, never reused in the tab */

  /* Console. */
  char         *level;
  char         *source;
  char         *text;       /* also the text of a note */
  guint         line;
  char         *args;       /* JSON array of the arguments, or NULL */
  char         *stack;      /* JavaScriptCore's stack text, or NULL */

  /* Network, and the URL of console messages and navigations. */
  char         *url;
  char         *method;
  char         *resource_type;
  char         *mime_type;
  char         *failure;
  NetworkState  state;
  guint         status;
  gint64        size;       /* -1 when unknown */
  gint64        started_us; /* monotonic */
  gint64        duration_us;
  WebKitWebResource  *resource;          /* for the body, until the entry goes */
  SoupMessageHeaders *request_headers;
  SoupMessageHeaders *response_headers;
  char               *status_text;
  char               *request_body;      /* as the page-world hook described it */
  GBytes             *response_text;     /* as the page-world hook read it */
} Entry;

struct _TwTabLog
{
  GObject        parent_instance;

  GQueue         entries;   /* Entry*, oldest first */
  guint          capacity;
  guint64        n_dropped;

  WebKitWebView *view;      /* weak */
  GList         *main_link; /* the entry of the main resource being loaded */

  guint64        next_id;
  guint64        console_read_id;

  /* Request bodies the page-world hook described before WebKit reported
   * their request: {method, url, body}, oldest first. */
  GQueue         bodies;
};

G_DEFINE_FINAL_TYPE (TwTabLog, tw_tab_log, G_TYPE_OBJECT)

enum {
  CONSOLE_ADDED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
entry_clear (Entry *entry)
{
  g_clear_pointer (&entry->time, g_date_time_unref);
  g_clear_pointer (&entry->level, g_free);
  g_clear_pointer (&entry->source, g_free);
  g_clear_pointer (&entry->text, g_free);
  g_clear_pointer (&entry->url, g_free);
  g_clear_pointer (&entry->method, g_free);
  g_clear_pointer (&entry->resource_type, g_free);
  g_clear_pointer (&entry->mime_type, g_free);
  g_clear_pointer (&entry->failure, g_free);
  g_clear_pointer (&entry->args, g_free);
  g_clear_pointer (&entry->stack, g_free);
  g_clear_object (&entry->resource);
  g_clear_pointer (&entry->request_headers, soup_message_headers_unref);
  g_clear_pointer (&entry->response_headers, soup_message_headers_unref);
  g_clear_pointer (&entry->status_text, g_free);
  g_clear_pointer (&entry->request_body, g_free);
  g_clear_pointer (&entry->response_text, g_bytes_unref);
}

static Entry *
entry_new (EntryType type)
{
  Entry *entry = g_rc_box_new0 (Entry);

  entry->type = type;
  entry->time = g_date_time_new_now_local ();
  entry->size = -1;

  return entry;
}

static Entry *
entry_ref (Entry *entry)
{
  return g_rc_box_acquire (entry);
}

static void
entry_unref (Entry *entry)
{
  g_rc_box_release_full (entry, (GDestroyNotify) entry_clear);
}

/* Longest console text and URL an entry keeps, in characters: a page that
 * logs a megabyte, or loads a large data: URL, must not fill the ring with
 * it. */
#define MAX_TEXT_CHARS 4000
/* How much of the response bodies the page-world hook read a tab keeps. */
#define MAX_RESPONSE_TEXT_BYTES (32 * 1024 * 1024)
#define MAX_URL_CHARS  1000

static char *
clip (const char *text,
      glong       max_chars)
{
  const char *end = text;
  GString *clipped;

  if (text == NULL)
    return NULL;

  for (glong n = 0; *end != '\0' && n < max_chars; n++)
    end = g_utf8_next_char (end);

  if (*end == '\0')
    return g_strdup (text);

  clipped = g_string_new_len (text, end - text);
  g_string_append (clipped, "…");
  return g_string_free (clipped, FALSE);
}

#define HOOK_SOURCE_URL "tabwright-console-hook.js"

static JsonArray *parse_stack (const char *stack);
static void add_request_body (TwTabLog   *self,
                              const char *method,
                              const char *url,
                              const char *body);

static void
tw_tab_log_push (TwTabLog *self,
                 Entry    *entry)
{
  entry->id = ++self->next_id;
  g_queue_push_tail (&self->entries, entry);

  while (self->entries.length > self->capacity)
    {
      if (self->main_link == self->entries.head)
        self->main_link = NULL;

      entry_unref (g_queue_pop_head (&self->entries));
      self->n_dropped++;
    }
}

/* Console messages: the web-process extension forwards each one as a user
 * message, because WebKit only exposes them inside the web process. */

static gboolean
user_message_received_cb (WebKitWebView     *view,
                          WebKitUserMessage *message,
                          TwTabLog          *self)
{
  GVariant *params;
  const char *level;
  const char *source;
  const char *text;
  const char *url;
  const char *args;
  const char *stack;
  guint64 line;

  if (g_strcmp0 (webkit_user_message_get_name (message), TW_WEB_EXTENSION_RESPONSE_BODY) == 0)
    {
      const char *method;
      const char *body;
      guint n = 0;

      params = webkit_user_message_get_parameters (message);
      if (params == NULL || !g_variant_is_of_type (params, G_VARIANT_TYPE ("(sss)")))
        return TRUE;
      g_variant_get (params, "(&s&s&s)", &method, &url, &body);

      /* The newest request of that method and URL without one. */
      for (GList *link = self->entries.tail; link != NULL && n < 100; link = link->prev, n++)
        {
          Entry *entry = link->data;

          if (entry->type == ENTRY_NETWORK && entry->response_text == NULL &&
              g_strcmp0 (entry->method, method) == 0 && g_strcmp0 (entry->url, url) == 0)
            {
              entry->response_text = g_bytes_new (body, strlen (body));
              break;
            }
        }

      /* The copies are bounded as a whole: the oldest go first. */
      {
        gsize total = 0;

        for (GList *link = self->entries.tail; link != NULL; link = link->prev)
          {
            Entry *entry = link->data;

            if (entry->response_text == NULL)
              continue;
            total += g_bytes_get_size (entry->response_text);
            if (total > MAX_RESPONSE_TEXT_BYTES)
              g_clear_pointer (&entry->response_text, g_bytes_unref);
          }
      }
      return TRUE;
    }

  if (g_strcmp0 (webkit_user_message_get_name (message), TW_WEB_EXTENSION_REQUEST_BODY) == 0)
    {
      const char *method;
      const char *body;

      params = webkit_user_message_get_parameters (message);
      if (params == NULL || !g_variant_is_of_type (params, G_VARIANT_TYPE ("(sss)")))
        return TRUE;
      g_variant_get (params, "(&s&s&s)", &method, &url, &body);
      add_request_body (self, method, url, body);
      return TRUE;
    }

  if (g_strcmp0 (webkit_user_message_get_name (message), TW_WEB_EXTENSION_CONSOLE_MESSAGE) != 0)
    return FALSE;

  params = webkit_user_message_get_parameters (message);
  if (params == NULL || !g_variant_is_of_type (params, G_VARIANT_TYPE ("(sssstss)")))
    {
      g_warning ("Ignoring a console message with parameters of the wrong type");
      return TRUE;
    }

  g_variant_get (params, "(&s&s&s&st&s&s)", &level, &source, &text, &url, &line, &args, &stack);
  tw_tab_log_add_console_full (self, level, source, text, url, (guint) MIN (line, G_MAXUINT),
                               args[0] != '\0' ? args : NULL, stack[0] != '\0' ? stack : NULL);

  return TRUE;
}

/* Network entries. */

typedef struct
{
  char *method;
  char *url;
  char *body;
} PendingBody;

static void
pending_body_free (PendingBody *pending)
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
          pending_body_free (pending);
          g_queue_delete_link (&self->bodies, link);
          return;
        }
    }
}

/* A body described after its request was reported goes to the newest
 * request of that method and URL that has none; otherwise it waits. */
static void
add_request_body (TwTabLog   *self,
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
    pending_body_free (g_queue_pop_head (&self->bodies));
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
      entry->url = clip (webkit_web_resource_get_uri (resource), MAX_URL_CHARS);
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

static void
resource_load_started_cb (WebKitWebView     *view,
                          WebKitWebResource *resource,
                          WebKitURIRequest  *request,
                          TwTabLog          *self)
{
  gboolean is_main = webkit_web_view_get_main_resource (view) == resource;
  const char *method = webkit_uri_request_get_http_method (request);
  Entry *entry = entry_new (ENTRY_NETWORK);

  entry->method = g_strdup (method != NULL ? method : "GET");
  entry->url = clip (webkit_uri_request_get_uri (request), MAX_URL_CHARS);
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
                         entry_ref (entry), (GClosureNotify) (void (*)(void))entry_unref, 0);
  g_signal_connect_data (resource, "failed", G_CALLBACK (resource_failed_cb),
                         entry_ref (entry), (GClosureNotify) (void (*)(void))entry_unref, 0);

  tw_tab_log_push (self, entry);

  if (is_main)
    self->main_link = self->entries.tail;
}

/* A committed load starts a new document: the marker goes right before the
 * request of that document, so everything after it belongs to the new
 * page. */
static void
load_changed_cb (WebKitWebView   *view,
                 WebKitLoadEvent  load_event,
                 TwTabLog        *self)
{
  Entry *entry;

  if (load_event != WEBKIT_LOAD_COMMITTED)
    return;

  entry = entry_new (ENTRY_NAVIGATION);
  entry->url = clip (webkit_web_view_get_uri (view), MAX_URL_CHARS);

  if (self->main_link != NULL)
    {
      /* The marker takes the place, and so the id order, of the request. */
      entry->id = ++self->next_id;
      g_queue_insert_before (&self->entries, self->main_link, entry);
      self->main_link = NULL;

      while (self->entries.length > self->capacity)
        {
          entry_unref (g_queue_pop_head (&self->entries));
          self->n_dropped++;
        }
    }
  else
    {
      tw_tab_log_push (self, entry);
    }
}

static void
tw_tab_log_detach (TwTabLog *self)
{
  if (self->view == NULL)
    return;

  g_signal_handlers_disconnect_by_data (self->view, self);
  g_clear_weak_pointer (&self->view);
}

static void
tw_tab_log_dispose (GObject *object)
{
  TwTabLog *self = TW_TAB_LOG (object);

  tw_tab_log_detach (self);

  G_OBJECT_CLASS (tw_tab_log_parent_class)->dispose (object);
}

static void
tw_tab_log_finalize (GObject *object)
{
  TwTabLog *self = TW_TAB_LOG (object);

  g_queue_clear_full (&self->entries, (GDestroyNotify) entry_unref);
  g_queue_clear_full (&self->bodies, (GDestroyNotify) pending_body_free);

  G_OBJECT_CLASS (tw_tab_log_parent_class)->finalize (object);
}

static void
tw_tab_log_class_init (TwTabLogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_tab_log_dispose;
  object_class->finalize = tw_tab_log_finalize;

  /**
   * TwTabLog::console-added:
   * @id: the id of the new console message
   *
   * A console message was added.
   */
  signals[CONSOLE_ADDED] =
    g_signal_new ("console-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT64);
}

static void
tw_tab_log_init (TwTabLog *self)
{
  g_queue_init (&self->entries);
  g_queue_init (&self->bodies);
  self->capacity = TW_TAB_LOG_DEFAULT_CAPACITY;
}

TwTabLog *
tw_tab_log_new (guint capacity)
{
  TwTabLog *self;

  g_return_val_if_fail (capacity > 0, NULL);

  self = g_object_new (TW_TYPE_TAB_LOG, NULL);
  self->capacity = capacity;

  return self;
}

void
tw_tab_log_attach (TwTabLog      *self,
                   WebKitWebView *view)
{
  WebKitNetworkSession *session;

  g_return_if_fail (TW_IS_TAB_LOG (self));
  g_return_if_fail (WEBKIT_IS_WEB_VIEW (view));

  tw_tab_log_detach (self);
  g_set_weak_pointer (&self->view, view);

  g_signal_connect (view, "user-message-received", G_CALLBACK (user_message_received_cb), self);
  g_signal_connect (view, "resource-load-started", G_CALLBACK (resource_load_started_cb), self);
  g_signal_connect (view, "load-changed", G_CALLBACK (load_changed_cb), self);

  /* WebKit keeps the console of private (ephemeral) sessions to itself: it
   * reports neither console.log() calls nor uncaught exceptions from them.
   * Say so once, rather than let an empty console look like a quiet page. */
  session = webkit_web_view_get_network_session (view);
  if (session != NULL && webkit_network_session_is_ephemeral (session))
    tw_tab_log_add_note (self, "This tab uses a private session: WebKit reports no console "
                         "messages or JavaScript exceptions from it, only the engine's "
                         "load errors and network requests");
}

guint
tw_tab_log_get_capacity (TwTabLog *self)
{
  g_return_val_if_fail (TW_IS_TAB_LOG (self), 0);

  return self->capacity;
}

guint
tw_tab_log_get_n_entries (TwTabLog *self)
{
  g_return_val_if_fail (TW_IS_TAB_LOG (self), 0);

  return self->entries.length;
}

guint64
tw_tab_log_get_n_dropped (TwTabLog *self)
{
  g_return_val_if_fail (TW_IS_TAB_LOG (self), 0);

  return self->n_dropped;
}

void
tw_tab_log_add_console (TwTabLog   *self,
                        const char *level,
                        const char *source,
                        const char *text,
                        const char *url,
                        guint       line)
{
  g_return_if_fail (TW_IS_TAB_LOG (self));
  g_return_if_fail (level != NULL);

  tw_tab_log_add_console_full (self, level, source, text, url, line, NULL, NULL);
}

guint64
tw_tab_log_add_console_full (TwTabLog   *self,
                             const char *level,
                             const char *source,
                             const char *text,
                             const char *url,
                             guint       line,
                             const char *args,
                             const char *stack)
{
  Entry *entry;
  guint64 id;

  g_return_val_if_fail (TW_IS_TAB_LOG (self), 0);
  g_return_val_if_fail (level != NULL, 0);

  entry = entry_new (ENTRY_CONSOLE);
  entry->level = g_strdup (level);
  entry->source = g_strdup (source != NULL ? source : "other");
  entry->text = clip (text != NULL ? text : "", MAX_TEXT_CHARS);
  entry->url = url != NULL && url[0] != '\0' ? clip (url, MAX_URL_CHARS) : NULL;
  entry->line = line;

  /* WebKit names the caller of the console method, which is the page-world
   * hook's wrapper: the page's own code is the first frame of the stack. */
  if (entry->url != NULL && g_str_has_suffix (entry->url, HOOK_SOURCE_URL))
    {
      g_autoptr(JsonArray) frames = stack != NULL ? parse_stack (stack) : NULL;
      JsonObject *top = frames != NULL && json_array_get_length (frames) > 0
                        ? json_array_get_object_element (frames, 0) : NULL;

      g_clear_pointer (&entry->url, g_free);
      entry->line = 0;
      if (top != NULL && json_object_get_string_member (top, "url")[0] != '\0')
        {
          entry->url = clip (json_object_get_string_member (top, "url"), MAX_URL_CHARS);
          entry->line = (guint) json_object_get_int_member_with_default (top, "line", 0);
        }
    }

  entry->args = g_strdup (args);
  entry->stack = g_strdup (stack);

  tw_tab_log_push (self, entry);
  id = entry->id;
  g_signal_emit (self, signals[CONSOLE_ADDED], 0, id);

  return id;
}

void
tw_tab_log_add_navigation (TwTabLog   *self,
                           const char *url)
{
  Entry *entry;

  g_return_if_fail (TW_IS_TAB_LOG (self));

  entry = entry_new (ENTRY_NAVIGATION);
  entry->url = clip (url != NULL ? url : "", MAX_URL_CHARS);

  tw_tab_log_push (self, entry);
}

void
tw_tab_log_add_note (TwTabLog   *self,
                     const char *text)
{
  Entry *entry;

  g_return_if_fail (TW_IS_TAB_LOG (self));
  g_return_if_fail (text != NULL);

  entry = entry_new (ENTRY_NOTE);
  entry->text = clip (text, MAX_TEXT_CHARS);

  tw_tab_log_push (self, entry);
}

static const char *
network_state_to_string (NetworkState state)
{
  switch (state)
    {
    case NETWORK_FINISHED:
      return "finished";
    case NETWORK_FAILED:
      return "failed";
    case NETWORK_PENDING:
    default:
      return "pending";
    }
}

static JsonObject *
entry_to_json (const Entry *entry)
{
  JsonObject *object = json_object_new ();
  g_autofree char *time = g_date_time_format (entry->time, "%Y-%m-%dT%H:%M:%S.%f%:z");

  /* %f gives microseconds; milliseconds are plenty and read better. */
  if (time != NULL && strlen (time) > 26)
    memmove (time + 23, time + 26, strlen (time + 26) + 1);

  switch (entry->type)
    {
    case ENTRY_CONSOLE:
      json_object_set_string_member (object, "type", "console");
      json_object_set_string_member (object, "time", time);
      json_object_set_string_member (object, "level", entry->level);
      json_object_set_string_member (object, "source", entry->source);
      json_object_set_string_member (object, "text", entry->text);
      if (entry->url != NULL)
        json_object_set_string_member (object, "url", entry->url);
      if (entry->line > 0)
        json_object_set_int_member (object, "line", entry->line);
      break;

    case ENTRY_NETWORK:
      json_object_set_string_member (object, "type", "network");
      json_object_set_string_member (object, "time", time);
      json_object_set_string_member (object, "method", entry->method);
      json_object_set_string_member (object, "url", entry->url);
      json_object_set_string_member (object, "resourceType", entry->resource_type);
      json_object_set_string_member (object, "state", network_state_to_string (entry->state));
      if (entry->status > 0)
        json_object_set_int_member (object, "status", entry->status);
      else
        json_object_set_null_member (object, "status");
      if (entry->state != NETWORK_PENDING)
        json_object_set_int_member (object, "durationMs", entry->duration_us / 1000);
      if (entry->size >= 0)
        json_object_set_int_member (object, "size", entry->size);
      if (entry->mime_type != NULL)
        json_object_set_string_member (object, "mimeType", entry->mime_type);
      if (entry->failure != NULL)
        json_object_set_string_member (object, "failure", entry->failure);
      break;

    case ENTRY_NAVIGATION:
      json_object_set_string_member (object, "type", "navigation");
      json_object_set_string_member (object, "time", time);
      json_object_set_string_member (object, "url", entry->url);
      break;

    case ENTRY_NOTE:
    default:
      json_object_set_string_member (object, "type", "note");
      json_object_set_string_member (object, "time", time);
      json_object_set_string_member (object, "text", entry->text);
      break;
    }

  return object;
}

JsonArray *
tw_tab_log_get_entries (TwTabLog *self,
                        guint     max_entries)
{
  JsonArray *array;
  GList *link;
  guint skip = 0;

  g_return_val_if_fail (TW_IS_TAB_LOG (self), NULL);

  if (max_entries > 0 && self->entries.length > max_entries)
    skip = self->entries.length - max_entries;

  array = json_array_sized_new (self->entries.length - skip);
  link = g_queue_peek_nth_link (&self->entries, skip);

  for (; link != NULL; link = link->next)
    json_array_add_object_element (array, entry_to_json (link->data));

  return array;
}

/* The console in depth (browser_console). */

/* JavaScriptCore writes one frame a line: "name@url:line:column",
 * "url:line:column" for code outside a function, "name@[native code]". The
 * frames of the page-world hook itself are left out. */
static JsonArray *
parse_stack (const char *stack)
{
  g_auto(GStrv) lines = g_strsplit (stack, "\n", 200);
  JsonArray *frames = json_array_new ();

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *text = g_strstrip (lines[i]);
      const char *at = strchr (text, '@');
      g_autofree char *function = NULL;
      g_autofree char *location = NULL;
      guint64 number = 0;
      guint64 column = 0;
      char *colon;
      JsonObject *frame;

      if (text[0] == '\0')
        continue;

      if (at != NULL && (strstr (text, "://") == NULL || at < strstr (text, "://")))
        {
          function = g_strndup (text, at - text);
          location = g_strdup (at + 1);
        }
      else
        {
          function = g_strdup ("");
          location = g_strdup (text);
        }

      /* Two trailing numbers: line and column. */
      colon = strrchr (location, ':');
      if (colon != NULL && colon[1] != '\0' &&
          g_ascii_string_to_unsigned (colon + 1, 10, 0, G_MAXUINT, &column, NULL))
        {
          *colon = '\0';
          colon = strrchr (location, ':');
          if (colon != NULL && colon[1] != '\0' &&
              g_ascii_string_to_unsigned (colon + 1, 10, 0, G_MAXUINT, &number, NULL))
            {
              *colon = '\0';
            }
          else
            {
              /* Only one number: it is the line. */
              number = column;
              column = 0;
            }
        }

      if (g_str_has_suffix (location, HOOK_SOURCE_URL))
        continue;

      frame = json_object_new ();
      json_object_set_string_member (frame, "function", function);
      json_object_set_string_member (frame, "url", location);
      if (number > 0)
        json_object_set_int_member (frame, "line", (gint64) number);
      if (column > 0)
        json_object_set_int_member (frame, "column", (gint64) column);
      json_array_add_object_element (frames, frame);

      if (json_array_get_length (frames) >= 50)
        break;
    }

  return frames;
}

static JsonObject *
console_to_json (const Entry *entry,
                 gboolean     detail)
{
  JsonObject *object = entry_to_json (entry);
  g_autoptr(JsonArray) frames = entry->stack != NULL ? parse_stack (entry->stack) : NULL;

  json_object_remove_member (object, "type");
  json_object_set_int_member (object, "id", (gint64) entry->id);

  /* Where the message really came from: the first frame that is not the
   * hook, with its column, which WebKit's own report lacks. */
  if (frames != NULL && json_array_get_length (frames) > 0)
    {
      JsonObject *top = json_array_get_object_element (frames, 0);

      if (json_object_has_member (top, "column") &&
          g_strcmp0 (json_object_get_string_member (top, "url"), entry->url) == 0)
        json_object_set_int_member (object, "column",
                                    json_object_get_int_member (top, "column"));
      if (entry->url == NULL && json_object_get_string_member (top, "url")[0] != '\0')
        {
          json_object_set_string_member (object, "url", json_object_get_string_member (top, "url"));
          if (json_object_has_member (top, "line"))
            json_object_set_int_member (object, "line", json_object_get_int_member (top, "line"));
          if (json_object_has_member (top, "column"))
            json_object_set_int_member (object, "column",
                                        json_object_get_int_member (top, "column"));
        }
    }

  if (!detail)
    return object;

  if (entry->args != NULL)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (json_parser_load_from_data (parser, entry->args, -1, NULL) &&
          JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
        json_object_set_member (object, "args", json_node_copy (json_parser_get_root (parser)));
    }

  if (frames != NULL)
    json_object_set_array_member (object, "stack", json_array_ref (frames));

  return object;
}

JsonArray *
tw_tab_log_get_console (TwTabLog *self,
                        gboolean  current_page)
{
  JsonArray *array;
  GList *link = self->entries.head;

  g_return_val_if_fail (TW_IS_TAB_LOG (self), NULL);

  if (current_page)
    {
      for (GList *l = self->entries.tail; l != NULL; l = l->prev)
        {
          if (((Entry *) l->data)->type == ENTRY_NAVIGATION)
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

      if (entry->type == ENTRY_CONSOLE)
        json_array_add_object_element (array, console_to_json (entry, FALSE));
    }

  return array;
}

JsonObject *
tw_tab_log_get_console_message (TwTabLog *self,
                                guint64   id)
{
  g_return_val_if_fail (TW_IS_TAB_LOG (self), NULL);

  for (GList *link = self->entries.tail; link != NULL; link = link->prev)
    {
      Entry *entry = link->data;

      if (entry->id == id && entry->type == ENTRY_CONSOLE)
        return console_to_json (entry, TRUE);
      if (entry->id < id)
        break;
    }

  return NULL;
}

guint
tw_tab_log_clear_console (TwTabLog *self)
{
  GList *link;
  guint n = 0;

  g_return_val_if_fail (TW_IS_TAB_LOG (self), 0);

  link = self->entries.head;
  while (link != NULL)
    {
      GList *next = link->next;
      Entry *entry = link->data;

      if (entry->type == ENTRY_CONSOLE)
        {
          g_queue_delete_link (&self->entries, link);
          entry_unref (entry);
          n++;
        }
      link = next;
    }

  self->console_read_id = self->next_id;

  return n;
}

guint64
tw_tab_log_get_console_read_id (TwTabLog *self)
{
  g_return_val_if_fail (TW_IS_TAB_LOG (self), 0);

  return self->console_read_id;
}

void
tw_tab_log_set_console_read_id (TwTabLog *self,
                                guint64   id)
{
  g_return_if_fail (TW_IS_TAB_LOG (self));

  self->console_read_id = MAX (self->console_read_id, id);
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
  JsonObject *object = entry_to_json (entry);

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
