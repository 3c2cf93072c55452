/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "fuzz-target.h"

#include <string.h>

#include "tw-jsonrpc.h"

/* The JSON-RPC parser on any bytes. Besides not crashing, it must agree
 * with itself: a body is a parse error exactly when the strict check refuses
 * it, whatever the strict check lets through json-glib reads, and what the
 * server writes back passes the strict check again and reads back the
 * same. */
int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  const char *text = (const char *) data;
  g_autoptr(TwJsonrpcMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  gboolean strict;

  if (size > TW_JSONRPC_MAX_LENGTH)
    return 0;

  strict = tw_jsonrpc_check_strict (text, size, TW_JSONRPC_MAX_DEPTH, NULL);
  message = tw_jsonrpc_message_parse (text, size, &error);

  if (message == NULL)
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == TW_JSONRPC_ERROR);
      g_assert_true (error->code == TW_JSONRPC_ERROR_PARSE_ERROR ||
                     error->code == TW_JSONRPC_ERROR_INVALID_REQUEST);
      g_assert_true ((error->code == TW_JSONRPC_ERROR_PARSE_ERROR) == !strict);
      g_assert_true (g_utf8_validate (error->message, -1, NULL));
    }
  else
    {
      g_autoptr(JsonNode) reply = NULL;
      g_autofree char *reply_text = NULL;
      gsize reply_length = 0;

      g_assert_true (strict);
      g_assert_true (message->kind == TW_JSONRPC_MESSAGE_RESPONSE || message->method != NULL);
      if (message->kind == TW_JSONRPC_MESSAGE_REQUEST)
        {
          g_autofree char *key = tw_jsonrpc_id_to_key (message->id);

          g_assert_nonnull (key);
        }

      reply = tw_jsonrpc_new_error (message->id, TW_JSONRPC_ERROR_METHOD_NOT_FOUND,
                                    message->method != NULL ? message->method : "response");
      reply_text = tw_jsonrpc_to_string (reply, &reply_length);
      g_assert_true (tw_jsonrpc_check_strict (reply_text, reply_length, TW_JSONRPC_MAX_DEPTH, NULL));
    }

  if (strict)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(JsonParser) reparser = json_parser_new ();
      g_autofree char *again = NULL;
      gsize again_length = 0;
      JsonNode *root;

      g_assert_true (json_parser_load_from_data (parser, text, size, NULL));
      root = json_parser_get_root (parser);
      g_assert_nonnull (root);
      again = tw_jsonrpc_to_string (root, &again_length);
      g_assert_cmpuint (again_length, ==, strlen (again));
      g_assert_true (tw_jsonrpc_check_strict (again, again_length, TW_JSONRPC_MAX_DEPTH, NULL));
      g_assert_true (json_parser_load_from_data (reparser, again, again_length, NULL));
      g_assert_true (json_node_equal (root, json_parser_get_root (reparser)));
    }

  return 0;
}
