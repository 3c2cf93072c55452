/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* JSON-RPC 2.0 framing as MCP uses it: one message per HTTP body (batches were
 * removed in MCP 2025-06-18), params always an object, ids strings or
 * integers. */

#define TW_JSONRPC_ERROR (tw_jsonrpc_error_quark ())

/* The codes are the numbers that go on the wire. */
typedef enum
{
  TW_JSONRPC_ERROR_PARSE_ERROR       = -32700,
  TW_JSONRPC_ERROR_INVALID_REQUEST   = -32600,
  TW_JSONRPC_ERROR_METHOD_NOT_FOUND  = -32601,
  TW_JSONRPC_ERROR_INVALID_PARAMS    = -32602,
  TW_JSONRPC_ERROR_INTERNAL_ERROR    = -32603,
  /* Implementation-defined server errors, as the MCP SDKs use them. */
  TW_JSONRPC_ERROR_SERVER_ERROR      = -32000,
  TW_JSONRPC_ERROR_SESSION_NOT_FOUND = -32001,
  /* MCP: the client cancelled the request. */
  TW_JSONRPC_ERROR_REQUEST_CANCELLED = -32800,
} TwJsonrpcError;

typedef enum
{
  TW_JSONRPC_MESSAGE_REQUEST,
  TW_JSONRPC_MESSAGE_NOTIFICATION,
  TW_JSONRPC_MESSAGE_RESPONSE,
} TwJsonrpcMessageKind;

typedef struct
{
  TwJsonrpcMessageKind  kind;
  /* Requests and responses: a string or integer node (a response to a
   * request that could not be read may carry a null id). NULL for
   * notifications. */
  JsonNode             *id;
  /* Requests and notifications. */
  char                 *method;
  /* Requests and notifications: NULL when the message had no params. */
  JsonObject           *params;
  /* Responses: exactly one of these is set. */
  JsonNode             *result;
  JsonObject           *error;
} TwJsonrpcMessage;

/* How deep arrays and objects may nest in a message, and how long a body
 * may be. json-glib parses recursively, so depth is checked before it runs. */
#define TW_JSONRPC_MAX_DEPTH 100
#define TW_JSONRPC_MAX_LENGTH (4 * 1024 * 1024)

GQuark            tw_jsonrpc_error_quark          (void);

/* Checks that @data (not NUL-terminated) is exactly one RFC 8259 JSON text
 * that json-glib will read as written: nothing after the value, no comments,
 * single quotes, bare words, hex, octal or leading-zero numbers, no raw
 * control characters or lone surrogates in strings, no duplicate member
 * names, no integer beyond 64 bits or number beyond a double, no nesting
 * deeper than @max_depth, and no \u0000 (json-glib keeps strings as C
 * strings and would cut them there). On failure @error is PARSE_ERROR and
 * names the byte offset and what was wrong. Iterative where it matters, so
 * any input is safe to give it. */
gboolean          tw_jsonrpc_check_strict         (const char        *data,
                                                   gsize              length,
                                                   guint              max_depth,
                                                   GError           **error);

/* Parses and validates one HTTP body, strictly (see above, with
 * TW_JSONRPC_MAX_DEPTH and TW_JSONRPC_MAX_LENGTH). On failure @error is in
 * the TW_JSONRPC_ERROR domain, with PARSE_ERROR for text that is not strict
 * JSON and INVALID_REQUEST for JSON that is not a valid message. */
TwJsonrpcMessage *tw_jsonrpc_message_parse        (const char        *data,
                                                   gssize             length,
                                                   GError           **error);
void              tw_jsonrpc_message_free         (TwJsonrpcMessage  *message);

/* A stable key for an id, usable in hash tables: "s:<string>" or "i:<n>". */
char             *tw_jsonrpc_id_to_key            (JsonNode          *id);
gboolean          tw_jsonrpc_id_is_valid          (JsonNode          *id);

/* Builders. @id may be NULL, which writes a null id. */
JsonNode         *tw_jsonrpc_new_result           (JsonNode          *id,
                                                   JsonNode          *result);
JsonNode         *tw_jsonrpc_new_error            (JsonNode          *id,
                                                   int                code,
                                                   const char        *message);
/* Uses error->code as the JSON-RPC code when @error is in TW_JSONRPC_ERROR,
 * and INTERNAL_ERROR otherwise. */
JsonNode         *tw_jsonrpc_new_error_from_gerror (JsonNode         *id,
                                                    const GError     *error);
JsonNode         *tw_jsonrpc_new_notification     (const char        *method,
                                                   JsonObject        *params);

/* Compact JSON text of any node, valid whatever numbers it holds (NaN and
 * infinities become null), strings made valid UTF-8. */
char             *tw_jsonrpc_to_string            (JsonNode          *message,
                                                   gsize             *length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwJsonrpcMessage, tw_jsonrpc_message_free)

G_END_DECLS
