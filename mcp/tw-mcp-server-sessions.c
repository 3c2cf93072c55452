/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-mcp-server-private.h"

#include <string.h>

#include <libsoup/soup.h>

#include "tw-jsonrpc.h"

/* Sessions: made by initialize, looked up by the Mcp-Session-Id header,
 * ended by DELETE, by the token's session limit or when idle too long. A GET
 * opens a stream that carries the server's own notifications. */

/* Sessions. */

void
_tw_mcp_server_session_free (McpSession *session)
{
  GHashTableIter iter;
  gpointer value;

  /* Calls still running lose their session: end them first. */
  while (g_hash_table_size (session->pending) > 0)
    {
      g_hash_table_iter_init (&iter, session->pending);
      if (g_hash_table_iter_next (&iter, NULL, &value))
        _tw_mcp_server_pending_abandon (value, "Request cancelled: the session ended");
    }

  g_clear_pointer (&session->pending, g_hash_table_unref);

  /* Ending the session ends its streams: the client sees them close. */
  while (session->streams->len > 0)
    {
      g_autoptr(SoupServerMessage) msg = g_ptr_array_steal_index (session->streams,
                                                                  session->streams->len - 1);

      g_signal_handlers_disconnect_by_data (msg, session);
      soup_message_body_complete (soup_server_message_get_response_body (msg));
      soup_server_message_unpause (msg);
    }
  g_clear_pointer (&session->streams, g_ptr_array_unref);
  g_clear_pointer (&session->client, _tw_mcp_server_client_unref);
  g_free (session->protocol_version);
  g_free (session->id);
  g_free (session);
}

static gboolean
session_is_expired (TwMcpServer *self,
                    McpSession  *session,
                    gint64       now)
{
  return g_hash_table_size (session->pending) == 0 &&
         now - session->last_used > self->idle_timeout_us;
}

void
_tw_mcp_server_drop_sessions_of_client (TwMcpServer *self,
                                        McpClient   *client)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->sessions);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      McpSession *session = value;

      if (session->client == client)
        g_ptr_array_add (ids, g_strdup (session->id));
    }

  for (guint i = 0; i < ids->len; i++)
    g_hash_table_remove (self->sessions, g_ptr_array_index (ids, i));
}

/* Keeps a token under its session limit: the session used least recently
 * goes first, preferring one with no call in flight. */
void
_tw_mcp_server_make_room_for_session (TwMcpServer *self,
                                      McpClient   *client)
{
  for (;;)
    {
      McpSession *oldest_idle = NULL;
      McpSession *oldest = NULL;
      guint count = 0;
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, self->sessions);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          McpSession *session = value;

          if (session->client != client)
            continue;

          count++;
          if (oldest == NULL || session->last_used < oldest->last_used)
            oldest = session;
          if (g_hash_table_size (session->pending) == 0 &&
              (oldest_idle == NULL || session->last_used < oldest_idle->last_used))
            oldest_idle = session;
        }

      if (count < self->max_sessions_per_client || oldest == NULL)
        return;

      g_debug ("Dropping session %s of %s: too many sessions",
               (oldest_idle ? oldest_idle : oldest)->id, client->agent_name);
      g_hash_table_remove (self->sessions, (oldest_idle ? oldest_idle : oldest)->id);
    }
}

static gboolean
sweep_sessions_cb (gpointer user_data)
{
  TwMcpServer *self = user_data;
  gint64 now = g_get_monotonic_time ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->sessions);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      if (session_is_expired (self, value, now))
        g_hash_table_iter_remove (&iter);
    }

  return G_SOURCE_CONTINUE;
}

void
_tw_mcp_server_restart_sweep (TwMcpServer *self)
{
  guint interval_ms;

  g_clear_handle_id (&self->sweep_source, g_source_remove);

  if (self->soup == NULL)
    return;

  interval_ms = CLAMP (self->idle_timeout_us / 1000 / 2, 10, 60 * 1000);
  self->sweep_source = g_timeout_add (interval_ms, sweep_sessions_cb, self);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, self->sweep_source),
                            "[tabwright] expire MCP sessions");
}

McpSession *
_tw_mcp_server_lookup_session (TwMcpServer       *self,
                               SoupServerMessage *msg,
                               McpClient         *client)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *id = soup_message_headers_get_one (headers, "Mcp-Session-Id");
  McpSession *session;

  if (id == NULL)
    {
      _tw_mcp_server_reply_error (msg, SOUP_STATUS_BAD_REQUEST, NULL, TW_JSONRPC_ERROR_SERVER_ERROR,
                                  "Bad Request: the Mcp-Session-Id header is missing; "
                                  "send initialize first");
      return NULL;
    }

  session = g_hash_table_lookup (self->sessions, id);

  if (session != NULL && session_is_expired (self, session, g_get_monotonic_time ()))
    {
      g_hash_table_remove (self->sessions, id);
      session = NULL;
    }

  /* A session of another token is reported exactly like an unknown one. */
  if (session == NULL || session->client != client)
    {
      _tw_mcp_server_reply_error (msg, SOUP_STATUS_NOT_FOUND, NULL,
                                  TW_JSONRPC_ERROR_SESSION_NOT_FOUND,
                                  "Session not found: it ended or expired; "
                                  "send initialize to start a new one");
      return NULL;
    }

  return session;
}

void
_tw_mcp_server_handle_delete (TwMcpServer       *self,
                              SoupServerMessage *msg,
                              McpClient         *client)
{
  McpSession *session = _tw_mcp_server_lookup_session (self, msg, client);

  if (session == NULL)
    return;

  g_hash_table_remove (self->sessions, session->id);
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
}

/* Streams. A GET with the session's id opens a stream of server messages
 * (Streamable HTTP); it stays open until the client closes it or the
 * session ends. */

static void
stream_finished_cb (SoupServerMessage *msg,
                    McpSession        *session)
{
  g_signal_handlers_disconnect_by_data (msg, session);
  g_ptr_array_remove (session->streams, msg);
}

void
_tw_mcp_server_handle_get (TwMcpServer       *self,
                           SoupServerMessage *msg,
                           McpClient         *client)
{
  SoupMessageHeaders *request_headers = soup_server_message_get_request_headers (msg);
  const char *accept = soup_message_headers_get_one (request_headers, "Accept");
  McpSession *session;

  if (accept == NULL || strstr (accept, "text/event-stream") == NULL)
    {
      _tw_mcp_server_reply_error (msg, SOUP_STATUS_NOT_ACCEPTABLE, NULL,
                                  TW_JSONRPC_ERROR_SERVER_ERROR,
                                  "Not Acceptable: a GET opens a stream of server messages; "
                                  "send \"Accept: text/event-stream\"");
      return;
    }

  session = _tw_mcp_server_lookup_session (self, msg, client);
  if (session == NULL)
    return;

  session->last_used = g_get_monotonic_time ();

  _tw_mcp_server_start_event_stream (msg);

  g_ptr_array_add (session->streams, g_object_ref (msg));
  g_signal_connect (msg, "finished", G_CALLBACK (stream_finished_cb), session);
}

static void
session_send_notification (McpSession *session,
                           JsonNode   *notification)
{
  g_autofree char *json = tw_jsonrpc_to_string (notification, NULL);

  for (guint i = 0; i < session->streams->len; i++)
    {
      SoupServerMessage *msg = g_ptr_array_index (session->streams, i);

      _tw_mcp_server_send_event (msg, json);
      soup_server_message_unpause (msg);
    }
}

/* The person turned a tool group on or off in the client's workspace: every
 * session of the client learns it, and asks tools/list again. */
void
_tw_mcp_server_client_tools_changed_cb (TwBrowserService *service,
                                        McpClient        *client)
{
  g_autoptr(JsonNode) notification = NULL;
  GHashTableIter iter;
  gpointer value;

  if (client->server == NULL || client->revoked)
    return;

  notification = tw_jsonrpc_new_notification ("notifications/tools/list_changed", NULL);

  g_hash_table_iter_init (&iter, client->server->sessions);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      McpSession *session = value;

      if (session->client == client)
        session_send_notification (session, notification);
    }
}
