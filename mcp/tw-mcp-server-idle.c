/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-mcp-server-private.h"

#include <sys/socket.h>

/* Connections between requests. After a reply, libsoup keeps a connection
 * open for the client's next request and says nothing of it until that
 * request's first line has come: a client may sit there for ever, or send
 * its next request a byte at a time without ending a line. And libsoup 3.2
 * never closes a connection that its client closed while it waited there,
 * so every client that hangs up after a reply would leave the app one
 * socket more.
 *
 * So from the end of each request until the first line of the next, the
 * connection is watched here: it is closed when it has sent no request line
 * for the idle time, and at once when its client hangs up. Closing takes the
 * connection from libsoup first (soup_server_message_steal_connection() on
 * its last request), so libsoup forgets it, then closes its socket.
 *
 * The watch runs at a higher priority than libsoup's own reading of the
 * socket, so it sees the end of the stream before libsoup does: libsoup
 * 3.2 crashes when a connection is taken from it after it read that end
 * and dropped its reader. When data comes instead, the watch stops and
 * leaves it to libsoup. */

typedef struct
{
  TwMcpServer       *server;   /* not owned: it owns this record */
  GSocket           *socket;
  SoupServerMessage *last;     /* the connection's last request */
  GSource           *timeout;
  GSource           *watch;
} McpIdle;

static void
idle_free (McpIdle *idle)
{
  if (idle->timeout != NULL)
    g_source_destroy (idle->timeout);
  if (idle->watch != NULL)
    g_source_destroy (idle->watch);
  g_clear_pointer (&idle->timeout, g_source_unref);
  g_clear_pointer (&idle->watch, g_source_unref);
  g_clear_object (&idle->last);
  g_clear_object (&idle->socket);
  g_free (idle);
}

GHashTable *
_tw_mcp_server_idle_table_new (void)
{
  return g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) idle_free);
}

/* What the client left on the connection: 1 when data waits, 0 when the
 * client closed it, -1 when nothing came (or the socket failed). */
static int
peek_socket (GSocket *socket)
{
  char byte;
  gssize n = recv (g_socket_get_fd (socket), &byte, 1, MSG_PEEK | MSG_DONTWAIT);

  return n > 0 ? 1 : (n == 0 ? 0 : -1);
}

/* Takes the connection from libsoup and closes it. @steal is FALSE when
 * libsoup may have read the end of the stream already (see above): then
 * only the socket is closed, and libsoup keeps a few bytes of a connection
 * that is gone. */
static void
close_connection (McpIdle  *idle,
                  gboolean  steal)
{
  TwMcpServer *self = idle->server;
  g_autoptr(GSocket) socket = g_object_ref (idle->socket);

  if (!g_socket_is_closed (socket))
    {
      g_autoptr(SoupServerMessage) last = g_object_ref (idle->last);

      /* The record goes first: stealing may run handlers that look it up. */
      g_hash_table_remove (self->idle_connections, socket);

      if (steal)
        {
          g_autoptr(GIOStream) stream = soup_server_message_steal_connection (last);

          if (stream != NULL)
            g_io_stream_close (stream, NULL, NULL);
        }
      g_socket_close (socket, NULL);
      return;
    }

  g_hash_table_remove (self->idle_connections, socket);
}

static gboolean
idle_timeout_cb (gpointer user_data)
{
  McpIdle *idle = user_data;

  g_clear_pointer (&idle->timeout, g_source_unref);
  g_debug ("Closing an MCP connection that sent no request for %u ms",
           idle->server->idle_timeout_ms);

  /* Data waiting, or nothing: libsoup is still reading the next request.
   * The end of the stream: libsoup may have read it after the watch left
   * the data to it. */
  close_connection (idle, !g_socket_is_closed (idle->socket) && peek_socket (idle->socket) != 0);

  return G_SOURCE_REMOVE;
}

static gboolean
idle_watch_cb (GSocket      *socket,
               GIOCondition  condition,
               gpointer      user_data)
{
  McpIdle *idle = user_data;

  if (g_socket_is_closed (socket))
    {
      /* libsoup closed it: nothing to watch. */
      g_clear_pointer (&idle->watch, g_source_unref);
      g_hash_table_remove (idle->server->idle_connections, socket);
      return G_SOURCE_REMOVE;
    }

  switch (peek_socket (socket))
    {
    case 1:
      /* The next request is coming: libsoup reads it; the time limit stays
       * until its first line is in. */
      g_clear_pointer (&idle->watch, g_source_unref);
      return G_SOURCE_REMOVE;

    case 0:
      g_debug ("Closing an MCP connection its client closed");
      g_clear_pointer (&idle->watch, g_source_unref);
      close_connection (idle, TRUE);
      return G_SOURCE_REMOVE;

    default:
      if ((condition & (G_IO_HUP | G_IO_ERR)) != 0)
        {
          g_clear_pointer (&idle->watch, g_source_unref);
          close_connection (idle, TRUE);
          return G_SOURCE_REMOVE;
        }
      return G_SOURCE_CONTINUE;
    }
}

/* Whether libsoup keeps the connection of @msg for another request, by the
 * rules of HTTP/1.x it follows (its own test is private). */
static gboolean
is_keep_alive (SoupServerMessage *msg)
{
  SoupMessageHeaders *request = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *response = soup_server_message_get_response_headers (msg);

  if (soup_message_headers_header_contains (request, "Connection", "close") ||
      soup_message_headers_header_contains (response, "Connection", "close"))
    return FALSE;

  if (soup_server_message_get_http_version (msg) == SOUP_HTTP_1_0)
    return soup_message_headers_header_contains (request, "Connection", "Keep-Alive");

  return soup_server_message_get_http_version (msg) == SOUP_HTTP_1_1;
}

/* A request ended, answered or not. If libsoup keeps its connection for
 * another one, the connection is idle from now. */
void
_tw_mcp_server_request_done_cb (SoupServer        *soup,
                                SoupServerMessage *msg,
                                TwMcpServer       *self)
{
  GSocket *socket = soup_server_message_get_socket (msg);
  McpIdle *idle;

  if (socket == NULL || g_socket_is_closed (socket) || !is_keep_alive (msg))
    return;

  idle = g_new0 (McpIdle, 1);
  idle->server = self;
  idle->socket = g_object_ref (socket);
  idle->last = g_object_ref (msg);

  idle->timeout = g_timeout_source_new (self->idle_timeout_ms);
  g_source_set_callback (idle->timeout, idle_timeout_cb, idle, NULL);
  g_source_set_static_name (idle->timeout, "[tabwright] MCP idle connection");
  g_source_attach (idle->timeout, g_main_context_get_thread_default ());

  idle->watch = g_socket_create_source (socket, G_IO_IN | G_IO_HUP | G_IO_ERR, NULL);
  g_source_set_priority (idle->watch, G_PRIORITY_HIGH);
  g_source_set_callback (idle->watch, G_SOURCE_FUNC (idle_watch_cb), idle, NULL);
  g_source_set_static_name (idle->watch, "[tabwright] MCP idle connection hang-up");
  g_source_attach (idle->watch, g_main_context_get_thread_default ());

  g_hash_table_replace (self->idle_connections, socket, idle);
}

/* A request's first line came: the connection is busy again. */
void
_tw_mcp_server_connection_busy (TwMcpServer       *self,
                                SoupServerMessage *msg)
{
  GSocket *socket = soup_server_message_get_socket (msg);

  if (socket != NULL)
    g_hash_table_remove (self->idle_connections, socket);
}
