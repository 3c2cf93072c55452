/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-mcp-server.h"
#include "tw-mcp-server-private.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <libsoup/soup.h>

/* The object, its clients and the public API. The parts of the server live
 * beside it, over tw-mcp-server-private.h: tw-mcp-server-http.c (requests
 * arriving and replies leaving), tw-mcp-server-methods.c (the JSON-RPC
 * methods), tw-mcp-server-calls.c (tools/call in flight) and
 * tw-mcp-server-sessions.c (sessions and their streams). */

G_DEFINE_FINAL_TYPE (TwMcpServer, tw_mcp_server, G_TYPE_OBJECT)

guint _tw_mcp_server_signals[N_SIGNALS];

/* Clients. */

static void
mcp_client_clear (McpClient *client)
{
  if (client->service != NULL)
    g_clear_signal_handler (&client->tools_changed_handler, client->service);
  g_free (client->token);
  g_free (client->agent_id);
  g_free (client->agent_name);
  g_clear_object (&client->service);
}

McpClient *
_tw_mcp_server_client_ref (McpClient *client)
{
  return g_rc_box_acquire (client);
}

void
_tw_mcp_server_client_unref (McpClient *client)
{
  g_rc_box_release_full (client, (GDestroyNotify) mcp_client_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpClient, _tw_mcp_server_client_unref)

/* Random identifiers. */

static void
fill_random (guint8 *buffer,
             gsize   length)
{
  gsize filled = 0;

  while (filled < length)
    {
      ssize_t n = getrandom (buffer + filled, length - filled, 0);

      if (n < 0 && errno == EINTR)
        continue;

      if (n < 0)
        {
          int fd = open ("/dev/urandom", O_RDONLY | O_CLOEXEC);

          if (fd < 0)
            g_error ("No source of random numbers: %s", g_strerror (errno));

          while (filled < length)
            {
              ssize_t r = read (fd, buffer + filled, length - filled);

              if (r < 0 && errno == EINTR)
                continue;
              if (r <= 0)
                g_error ("Could not read /dev/urandom: %s", g_strerror (errno));
              filled += r;
            }

          close (fd);
          return;
        }

      filled += n;
    }
}

char *
tw_mcp_generate_token (void)
{
  guint8 bytes[32];
  char *text;
  char *out;

  fill_random (bytes, sizeof bytes);
  text = g_base64_encode (bytes, sizeof bytes);

  /* base64url without padding: safe in URLs, headers and shell snippets. */
  out = text;
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '=')
        continue;
      *out++ = *p == '+' ? '-' : *p == '/' ? '_' : *p;
    }
  *out = '\0';

  return text;
}

/* GObject. */

static void
abandon_all (TwMcpServer *self)
{
  g_hash_table_remove_all (self->sessions);
}

static void
tw_mcp_server_dispose (GObject *object)
{
  TwMcpServer *self = TW_MCP_SERVER (object);

  tw_mcp_server_stop (self);

  for (guint i = 0; i < self->clients->len; i++)
    {
      McpClient *client = g_ptr_array_index (self->clients, i);

      client->revoked = TRUE;
      client->server = NULL;
    }
  g_ptr_array_set_size (self->clients, 0);

  G_OBJECT_CLASS (tw_mcp_server_parent_class)->dispose (object);
}

static void
tw_mcp_server_finalize (GObject *object)
{
  TwMcpServer *self = TW_MCP_SERVER (object);

  g_clear_pointer (&self->sessions, g_hash_table_unref);
  g_clear_pointer (&self->clients, g_ptr_array_unref);
  g_clear_pointer (&self->idle_connections, g_hash_table_unref);

  G_OBJECT_CLASS (tw_mcp_server_parent_class)->finalize (object);
}

static void
tw_mcp_server_class_init (TwMcpServerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_mcp_server_dispose;
  object_class->finalize = tw_mcp_server_finalize;

  /**
   * TwMcpServer::call-started:
   * @serial: identifies the call in call-finished
   * @agent_id: the caller's agent id
   * @agent_name: the caller's display name
   * @tool: the tool name
   * @arguments: (nullable): the arguments as sent
   *
   * A tools/call was accepted and its handler is about to run.
   */
  _tw_mcp_server_signals[CALL_STARTED] =
    g_signal_new ("call-started",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 5,
                  G_TYPE_UINT64,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_OBJECT);

  /**
   * TwMcpServer::call-finished:
   * @serial: as given by call-started
   * @is_error: whether the result is an error
   * @error_code: (nullable): the browser_* error code, or "cancelled" when
   *   the client cancelled the call or went away
   * @duration_ms: time from call-started
   */
  _tw_mcp_server_signals[CALL_FINISHED] =
    g_signal_new ("call-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 4,
                  G_TYPE_UINT64,
                  G_TYPE_BOOLEAN,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_DOUBLE);
}

/* A connection time limit from the environment, where tests and people
 * who need other limits set them (TABWRIGHT_MCP_HEADER_TIMEOUT_MS,
 * TABWRIGHT_MCP_BODY_TIMEOUT_MS, TABWRIGHT_MCP_IDLE_TIMEOUT_MS), or the
 * default when it is unset or not a positive number of milliseconds. */
static guint
limit_from_env (const char *name,
                guint       fallback)
{
  const char *text = g_getenv (name);
  guint64 value = 0;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 1, G_MAXUINT, &value, NULL))
    return fallback;

  return (guint) value;
}

static void
tw_mcp_server_init (TwMcpServer *self)
{
  self->clients = g_ptr_array_new_with_free_func ((GDestroyNotify) _tw_mcp_server_client_unref);
  self->sessions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                          (GDestroyNotify) _tw_mcp_server_session_free);
  self->idle_timeout_us = (gint64) TW_MCP_SESSION_IDLE_TIMEOUT_MS * 1000;
  self->max_sessions_per_client = TW_MCP_MAX_SESSIONS_PER_CLIENT;
  self->header_timeout_ms = limit_from_env ("TABWRIGHT_MCP_HEADER_TIMEOUT_MS",
                                            TW_MCP_HEADER_TIMEOUT_MS);
  self->body_timeout_ms = limit_from_env ("TABWRIGHT_MCP_BODY_TIMEOUT_MS", TW_MCP_BODY_TIMEOUT_MS);
  self->idle_timeout_ms = limit_from_env ("TABWRIGHT_MCP_IDLE_TIMEOUT_MS", TW_MCP_IDLE_TIMEOUT_MS);
  self->idle_connections = _tw_mcp_server_idle_table_new ();
}

TwMcpServer *
tw_mcp_server_new (void)
{
  return g_object_new (TW_TYPE_MCP_SERVER, NULL);
}

gboolean
tw_mcp_server_start (TwMcpServer  *self,
                     guint16       port,
                     GError      **error)
{
  g_autoptr(SoupServer) soup = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GSocketAddress) local = NULL;

  g_return_val_if_fail (TW_IS_MCP_SERVER (self), FALSE);
  g_return_val_if_fail (self->soup == NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  soup = soup_server_new ("server-header", "Tabwright/" PACKAGE_VERSION, NULL);
  soup_server_add_handler (soup, NULL, _tw_mcp_server_handler_cb, self, NULL);
  g_signal_connect_object (soup, "request-started", G_CALLBACK (_tw_mcp_server_request_started_cb),
                           self, 0);
  g_signal_connect_object (soup, "request-finished", G_CALLBACK (_tw_mcp_server_request_done_cb),
                           self, 0);
  g_signal_connect_object (soup, "request-aborted", G_CALLBACK (_tw_mcp_server_request_done_cb),
                           self, 0);

  /* Loopback only: the server is for agents on this machine. The socket is
   * made here rather than by soup_server_listen() for its backlog: libsoup
   * keeps GSocket's default of 10, and agents connecting in parallel then
   * overflow the queue and wait for their SYN to be sent again, for seconds. */
  address = g_inet_socket_address_new_from_string ("127.0.0.1", port);
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, error);
  if (socket == NULL)
    return FALSE;
  g_socket_set_listen_backlog (socket, TW_MCP_LISTEN_BACKLOG);
  if (!g_socket_bind (socket, address, TRUE, error) ||
      !g_socket_listen (socket, error) ||
      !soup_server_listen_socket (soup, socket, 0, error))
    return FALSE;

  /* From the socket rather than soup_server_get_uris(), which leaks an
   * address each time in libsoup 3.2. */
  local = g_socket_get_local_address (socket, error);
  if (local == NULL)
    {
      soup_server_disconnect (soup);
      return FALSE;
    }

  self->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local));
  self->soup = g_steal_pointer (&soup);

  _tw_mcp_server_restart_sweep (self);

  g_debug ("MCP server listening on http://127.0.0.1:%u" MCP_PATH, self->port);

  return TRUE;
}

void
tw_mcp_server_stop (TwMcpServer *self)
{
  g_return_if_fail (TW_IS_MCP_SERVER (self));

  g_clear_handle_id (&self->sweep_source, g_source_remove);
  abandon_all (self);
  g_hash_table_remove_all (self->idle_connections);

  if (self->soup != NULL)
    {
      /* Nothing may reach this object through the server after this, even
       * if libsoup keeps it alive a little longer. */
      soup_server_remove_handler (self->soup, NULL);
      g_signal_handlers_disconnect_by_data (self->soup, self);
      soup_server_disconnect (self->soup);
      g_clear_object (&self->soup);
    }

  self->port = 0;
}

guint16
tw_mcp_server_get_port (TwMcpServer *self)
{
  g_return_val_if_fail (TW_IS_MCP_SERVER (self), 0);

  return self->port;
}

char *
tw_mcp_server_dup_url (TwMcpServer *self)
{
  g_return_val_if_fail (TW_IS_MCP_SERVER (self), NULL);

  if (self->port == 0)
    return NULL;

  return g_strdup_printf ("http://127.0.0.1:%u" MCP_PATH, self->port);
}

void
tw_mcp_server_add_client (TwMcpServer      *self,
                          const char       *token,
                          const char       *agent_id,
                          const char       *agent_name,
                          TwBrowserService *service)
{
  McpClient *client;

  g_return_if_fail (TW_IS_MCP_SERVER (self));
  g_return_if_fail (token != NULL && token[0] != '\0');
  g_return_if_fail (agent_id != NULL);
  g_return_if_fail (service == NULL || TW_IS_BROWSER_SERVICE (service));

  /* Registering a token again replaces what it stands for. */
  tw_mcp_server_remove_client (self, token);

  client = g_rc_box_new0 (McpClient);
  client->token = g_strdup (token);
  client->agent_id = g_strdup (agent_id);
  client->agent_name = g_strdup (agent_name != NULL ? agent_name : agent_id);
  client->service = service != NULL ? g_object_ref (service) : NULL;
  client->server = self;
  if (service != NULL)
    client->tools_changed_handler =
      g_signal_connect (service, "tools-changed",
                        G_CALLBACK (_tw_mcp_server_client_tools_changed_cb), client);

  g_ptr_array_add (self->clients, client);
}

void
tw_mcp_server_remove_client (TwMcpServer *self,
                             const char  *token)
{
  g_return_if_fail (TW_IS_MCP_SERVER (self));
  g_return_if_fail (token != NULL);

  for (guint i = 0; i < self->clients->len; i++)
    {
      McpClient *client = g_ptr_array_index (self->clients, i);

      if (g_strcmp0 (client->token, token) == 0)
        {
          g_autoptr(McpClient) removed = _tw_mcp_server_client_ref (client);

          removed->revoked = TRUE;
          removed->server = NULL;
          g_ptr_array_remove_index (self->clients, i);

          /* Ending the sessions cancels their calls in flight. */
          _tw_mcp_server_drop_sessions_of_client (self, removed);
          return;
        }
    }
}

void
tw_mcp_server_set_session_limits (TwMcpServer *self,
                                  guint        idle_timeout_ms,
                                  guint        max_sessions_per_client)
{
  g_return_if_fail (TW_IS_MCP_SERVER (self));
  g_return_if_fail (max_sessions_per_client > 0);

  self->idle_timeout_us = (gint64) idle_timeout_ms * 1000;
  self->max_sessions_per_client = max_sessions_per_client;

  _tw_mcp_server_restart_sweep (self);
}

void
tw_mcp_server_set_connection_limits (TwMcpServer *self,
                                     guint        header_timeout_ms,
                                     guint        body_timeout_ms,
                                     guint        idle_timeout_ms)
{
  g_return_if_fail (TW_IS_MCP_SERVER (self));
  g_return_if_fail (header_timeout_ms > 0 && body_timeout_ms > 0 && idle_timeout_ms > 0);

  self->header_timeout_ms = header_timeout_ms;
  self->body_timeout_ms = body_timeout_ms;
  self->idle_timeout_ms = idle_timeout_ms;
}

guint
tw_mcp_server_get_n_sessions (TwMcpServer *self)
{
  g_return_val_if_fail (TW_IS_MCP_SERVER (self), 0);

  return g_hash_table_size (self->sessions);
}
