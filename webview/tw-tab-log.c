/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-log-private.h"

#include "extension/tw-web-process-extension.h"
#include "tw-web-context.h"

#include <string.h>

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

Entry *
tw_tab_log_entry_new (EntryType type)
{
  Entry *entry = g_rc_box_new0 (Entry);

  entry->type = type;
  entry->time = g_date_time_new_now_local ();
  entry->size = -1;

  return entry;
}

Entry *
tw_tab_log_entry_ref (Entry *entry)
{
  return g_rc_box_acquire (entry);
}

void
tw_tab_log_entry_unref (Entry *entry)
{
  g_rc_box_release_full (entry, (GDestroyNotify) entry_clear);
}

char *
tw_tab_log_clip (const char *text,
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

void
tw_tab_log_push (TwTabLog *self,
                 Entry    *entry)
{
  entry->id = ++self->next_id;
  g_queue_push_tail (&self->entries, entry);

  while (self->entries.length > self->capacity)
    {
      if (self->main_link == self->entries.head)
        self->main_link = NULL;

      tw_tab_log_entry_unref (g_queue_pop_head (&self->entries));
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
  TwConsoleMessage console;
  const char *url;
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
      tw_tab_log_add_request_body (self, method, url, body);
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

  g_variant_get (params, "(&s&s&s&st&s&s)", &console.level, &console.source, &console.text,
                 &console.url, &line, &console.args, &console.stack);
  console.line = (guint) MIN (line, G_MAXUINT);
  if (console.args[0] == '\0')
    console.args = NULL;
  if (console.stack[0] == '\0')
    console.stack = NULL;
  tw_tab_log_add_console (self, &console);

  return TRUE;
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

  entry = tw_tab_log_entry_new (ENTRY_NAVIGATION);
  entry->url = tw_tab_log_clip (webkit_web_view_get_uri (view), MAX_URL_CHARS);

  if (self->main_link != NULL)
    {
      /* The marker takes the place, and so the id order, of the request. */
      entry->id = ++self->next_id;
      g_queue_insert_before (&self->entries, self->main_link, entry);
      self->main_link = NULL;

      while (self->entries.length > self->capacity)
        {
          tw_tab_log_entry_unref (g_queue_pop_head (&self->entries));
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

  g_queue_clear_full (&self->entries, (GDestroyNotify) tw_tab_log_entry_unref);
  g_queue_clear_full (&self->bodies, (GDestroyNotify) tw_tab_log_pending_body_free);

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
  g_signal_connect (view, "resource-load-started",
                    G_CALLBACK (tw_tab_log_resource_load_started_cb), self);
  g_signal_connect (view, "load-changed", G_CALLBACK (load_changed_cb), self);

  /* WebKit keeps the console of private (ephemeral) sessions to itself: it
   * reports neither console.log() calls nor uncaught exceptions from them.
   * The extension reports them in the web processes of private tabs'
   * context; elsewhere, say so once, rather than let an empty console look
   * like a quiet page. */
  session = webkit_web_view_get_network_session (view);
  if (session != NULL && webkit_network_session_is_ephemeral (session) &&
      !tw_web_context_is_private (webkit_web_view_get_context (view)))
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

guint64
tw_tab_log_add_console (TwTabLog               *self,
                        const TwConsoleMessage *message)
{
  Entry *entry;
  guint64 id;

  g_return_val_if_fail (TW_IS_TAB_LOG (self), 0);
  g_return_val_if_fail (message != NULL && message->level != NULL, 0);

  entry = tw_tab_log_entry_new (ENTRY_CONSOLE);
  entry->level = g_strdup (message->level);
  entry->source = g_strdup (message->source != NULL ? message->source : "other");
  entry->text = tw_tab_log_clip (message->text != NULL ? message->text : "", MAX_TEXT_CHARS);
  entry->url = message->url != NULL && message->url[0] != '\0'
               ? tw_tab_log_clip (message->url, MAX_URL_CHARS) : NULL;
  entry->line = message->line;

  /* WebKit names the caller of the console method, which is the page-world
   * hook's wrapper: the page's own code is the first frame of the stack. */
  if (entry->url != NULL && g_str_has_suffix (entry->url, HOOK_SOURCE_URL))
    {
      g_autoptr(JsonArray) frames = message->stack != NULL
                                    ? tw_tab_log_parse_stack (message->stack) : NULL;
      JsonObject *top = frames != NULL && json_array_get_length (frames) > 0
                        ? json_array_get_object_element (frames, 0) : NULL;

      g_clear_pointer (&entry->url, g_free);
      entry->line = 0;
      if (top != NULL && json_object_get_string_member (top, "url")[0] != '\0')
        {
          entry->url = tw_tab_log_clip (json_object_get_string_member (top, "url"), MAX_URL_CHARS);
          entry->line = (guint) json_object_get_int_member_with_default (top, "line", 0);
        }
    }

  entry->args = g_strdup (message->args);
  entry->stack = g_strdup (message->stack);

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

  entry = tw_tab_log_entry_new (ENTRY_NAVIGATION);
  entry->url = tw_tab_log_clip (url != NULL ? url : "", MAX_URL_CHARS);

  tw_tab_log_push (self, entry);
}

void
tw_tab_log_add_note (TwTabLog   *self,
                     const char *text)
{
  Entry *entry;

  g_return_if_fail (TW_IS_TAB_LOG (self));
  g_return_if_fail (text != NULL);

  entry = tw_tab_log_entry_new (ENTRY_NOTE);
  entry->text = tw_tab_log_clip (text, MAX_TEXT_CHARS);

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

static const char *
entry_type_to_string (EntryType type)
{
  switch (type)
    {
    case ENTRY_CONSOLE:
      return "console";
    case ENTRY_NETWORK:
      return "network";
    case ENTRY_NAVIGATION:
      return "navigation";
    case ENTRY_NOTE:
    default:
      return "note";
    }
}

JsonObject *
tw_tab_log_entry_to_json (const Entry *entry)
{
  JsonObject *object = json_object_new ();
  g_autofree char *time = g_date_time_format (entry->time, "%Y-%m-%dT%H:%M:%S.%f%:z");

  /* %f gives microseconds; milliseconds are plenty and read better. */
  if (time != NULL && strlen (time) > 26)
    memmove (time + 23, time + 26, strlen (time + 26) + 1);

  json_object_set_string_member (object, "type", entry_type_to_string (entry->type));
  json_object_set_string_member (object, "time", time);

  switch (entry->type)
    {
    case ENTRY_CONSOLE:
      json_object_set_string_member (object, "level", entry->level);
      json_object_set_string_member (object, "source", entry->source);
      json_object_set_string_member (object, "text", entry->text);
      if (entry->url != NULL)
        json_object_set_string_member (object, "url", entry->url);
      if (entry->line > 0)
        json_object_set_int_member (object, "line", entry->line);
      break;

    case ENTRY_NETWORK:
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
      json_object_set_string_member (object, "url", entry->url);
      break;

    case ENTRY_NOTE:
    default:
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
    json_array_add_object_element (array, tw_tab_log_entry_to_json (link->data));

  return array;
}
