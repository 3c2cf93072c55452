/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What a Tabwright MCP server says about itself, shared by the HTTP server
 * and the stdio bridge so that both answer initialize alike: the protocol
 * versions they speak, how one is chosen, and the initialize result. */

/* TRUE for a version the server speaks. */
gboolean    tw_mcp_protocol_version_is_supported  (const char   *version);

/* The version to answer to a client that asked for @requested: the same
 * when supported, the latest otherwise (the client then decides whether it
 * can go on). */
const char *tw_mcp_protocol_negotiate_version     (const char   *requested);

/* "2025-11-25, 2025-06-18, 2025-03-26", for error messages. */
char       *tw_mcp_protocol_dup_supported_versions (void);

/* Answers the params of an initialize request: the result object
 * (protocolVersion, capabilities, serverInfo, instructions). Sets @version
 * to the negotiated version when not NULL. Fails with
 * TW_JSONRPC_ERROR_INVALID_PARAMS when the params have no protocolVersion
 * string. */
JsonNode   *tw_mcp_protocol_initialize            (JsonObject   *params,
                                                   const char  **version,
                                                   GError      **error);

G_END_DECLS
