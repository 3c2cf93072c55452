/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-stdio-bridge-private.h"

#include "tw-json.h"
#include "tw-mcp-server-private.h"
#include "tw-workspace-id.h"

/* The session with the app. */

/* Forgets the session @generation when it is still the current one, so the
 * next request reads the runtime file again and opens a new one. */
void
tw_stdio_bridge_upstream_lost (TwStdioBridge *self,
                               guint          generation)
{
  if (self->state != UPSTREAM_READY || self->generation != generation)
    return;

  g_debug ("Lost the session with Tabwright");

  self->state = UPSTREAM_NONE;
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->protocol_version, g_free);
}

static void
upstream_failed (TwStdioBridge *self,
                 const char    *reason)
{
  Request *request;

  g_debug ("No session with Tabwright: %s", reason);

  self->state = UPSTREAM_NONE;
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->protocol_version, g_free);

  while ((request = g_queue_pop_head (&self->waiting)) != NULL)
    {
      tw_stdio_bridge_request_reply_no_host (request, reason);
      tw_stdio_bridge_request_finish (request);
    }
}

static void
upstream_ready (TwStdioBridge *self)
{
  Request *request;

  g_debug ("Session %s with Tabwright at %s", self->session_id, self->url);

  self->state = UPSTREAM_READY;
  self->generation++;

  while ((request = g_queue_pop_head (&self->waiting)) != NULL)
    tw_stdio_bridge_request_send (request);
}

static void
initialized_done_cb (Exchange     *exchange,
                     const GError *error,
                     gpointer      user_data)
{
  TwStdioBridge *self = exchange->self;
  g_autofree char *reason = NULL;

  if (self->task == NULL)
    return;

  if (error == NULL && SOUP_STATUS_IS_SUCCESSFUL (exchange->status))
    {
      upstream_ready (self);
      return;
    }

  reason = tw_stdio_bridge_describe_failure (self, exchange, error);
  upstream_failed (self, reason);
}

static void
initialize_message_cb (Exchange         *exchange,
                       TwJsonrpcMessage *message,
                       const char       *data,
                       gsize             length,
                       gpointer          user_data)
{
  TwStdioBridge *self = exchange->self;
  JsonNode *version;

  if (message->kind != TW_JSONRPC_MESSAGE_RESPONSE || message->result == NULL ||
      !JSON_NODE_HOLDS_OBJECT (message->result))
    return;

  version = json_object_get_member (json_node_get_object (message->result), "protocolVersion");
  if (tw_json_value_type (version) != G_TYPE_STRING)
    return;

  g_free (self->protocol_version);
  self->protocol_version = g_strdup (json_node_get_string (version));
}

static void
initialize_done_cb (Exchange     *exchange,
                    const GError *error,
                    gpointer      user_data)
{
  TwStdioBridge *self = exchange->self;
  g_autoptr(JsonNode) notification = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autofree char *reason = NULL;
  const char *session_id;
  char *text;
  gsize length = 0;

  if (self->task == NULL)
    return;

  if (error != NULL || !SOUP_STATUS_IS_SUCCESSFUL (exchange->status))
    {
      reason = tw_stdio_bridge_describe_failure (self, exchange, error);
      upstream_failed (self, reason);
      return;
    }

  if (self->protocol_version == NULL)
    {
      reason = g_strdup_printf ("Tabwright for %s did not accept the MCP handshake",
                                self->workspace_path);
      upstream_failed (self, reason);
      return;
    }

  session_id = soup_message_headers_get_one (soup_message_get_response_headers (exchange->msg),
                                             "Mcp-Session-Id");
  g_free (self->session_id);
  self->session_id = g_strdup (session_id);

  notification = tw_jsonrpc_new_notification ("notifications/initialized", NULL);
  text = tw_jsonrpc_to_string (notification, &length);
  body = g_bytes_new_take (text, length);

  tw_stdio_bridge_exchange_start (self, SOUP_METHOD_POST, body, TRUE, CONNECT_TIMEOUT_MS,
                                  NULL, initialized_done_cb, NULL);
}

static JsonObject *
dup_initialize_params (TwStdioBridge *self)
{
  JsonObject *params;
  JsonObject *client_info;

  if (self->client_params != NULL)
    return json_object_ref (self->client_params);

  /* A client that calls tools without initializing first is lenient
   * towards, and the app still needs a handshake. */
  params = json_object_new ();
  json_object_set_string_member (params, "protocolVersion", TW_MCP_PROTOCOL_VERSION_LATEST);
  json_object_set_object_member (params, "capabilities", json_object_new ());
  client_info = json_object_new ();
  json_object_set_string_member (client_info, "name", "tabwright-mcp");
  json_object_set_string_member (client_info, "version", PACKAGE_VERSION);
  json_object_set_object_member (params, "clientInfo", client_info);

  return params;
}

/* Whether libsoup can send requests to @url: http or https with a host. */
static gboolean
url_is_usable (const char *url)
{
  g_autoptr(SoupMessage) msg = soup_message_new (SOUP_METHOD_POST, url);

  return msg != NULL;
}

/* A token goes into an HTTP header: printable ASCII without spaces. */
static gboolean
token_is_usable (const char *token)
{
  if (token[0] == '\0')
    return FALSE;

  for (const char *p = token; *p != '\0'; p++)
    {
      if (!g_ascii_isgraph (*p))
        return FALSE;
    }

  return TRUE;
}

void
tw_stdio_bridge_upstream_connect (TwStdioBridge *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(JsonNode) request = NULL;
  g_autofree char *url = NULL;
  g_autofree char *token = NULL;
  g_autofree char *key = NULL;
  GBytes *body;
  char *text;
  gsize length = 0;

  g_assert (self->state == UPSTREAM_NONE);

  self->state = UPSTREAM_CONNECTING;
  g_clear_pointer (&self->session_id, g_free);
  g_clear_pointer (&self->protocol_version, g_free);

  /* Read each time: a restarted app listens on a new port. */
  if (!tw_workspace_id_read_runtime_file (self->workspace_path, &url, &token, &error))
    {
      g_autofree char *reason = g_strdup_printf ("Tabwright is not running for %s. "
                                                 "Start it with: tabwright --workspace %s",
                                                 self->workspace_path, self->workspace_path);

      upstream_failed (self, reason);
      return;
    }

  if (!url_is_usable (url) || !token_is_usable (token))
    {
      g_autofree char *reason = g_strdup_printf ("The runtime file of %s is damaged: it names "
                                                 "no usable URL and token",
                                                 self->workspace_path);

      upstream_failed (self, reason);
      return;
    }

  g_free (self->url);
  self->url = g_steal_pointer (&url);
  g_free (self->token);
  self->token = g_steal_pointer (&token);

  key = g_strdup_printf ("tabwright-mcp-%u", self->generation + 1);

  object = json_object_new ();
  json_object_set_string_member (object, "jsonrpc", "2.0");
  json_object_set_string_member (object, "id", key);
  json_object_set_string_member (object, "method", "initialize");
  json_object_set_object_member (object, "params", dup_initialize_params (self));
  request = json_node_init_object (json_node_alloc (), object);

  text = tw_jsonrpc_to_string (request, &length);
  body = g_bytes_new_take (text, length);

  tw_stdio_bridge_exchange_start (self, SOUP_METHOD_POST, body, FALSE, CONNECT_TIMEOUT_MS,
                                  initialize_message_cb, initialize_done_cb, NULL);
  g_bytes_unref (body);
}
