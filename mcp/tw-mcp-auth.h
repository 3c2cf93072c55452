/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The checks every MCP request passes before it is read: pure functions, so
 * the accept and reject rules can be tested as tables. */

/* Compares two secrets in time that depends only on their lengths, never on
 * where they first differ. */
gboolean  tw_mcp_auth_token_equal      (const char *expected,
                                        const char *given);

/* Returns the token of an "Authorization: Bearer <token>" header value (the
 * scheme is case-insensitive), or NULL when @authorization is NULL, uses
 * another scheme or carries no token. */
char     *tw_mcp_auth_dup_bearer_token (const char *authorization);

/* TRUE when @authorization carries exactly @token. */
gboolean  tw_mcp_auth_check_bearer     (const char *authorization,
                                        const char *token);

/* DNS-rebinding defence: a Host header must name the loopback server itself,
 * "127.0.0.1:<port>", "localhost:<port>" or "[::1]:<port>" (case-insensitive). */
gboolean  tw_mcp_auth_host_allowed     (const char *host,
                                        guint16     port);

/* An absent Origin (NULL) is fine; a present one must be an http or https
 * origin on 127.0.0.1, localhost or [::1], any port. "null" is refused. */
gboolean  tw_mcp_auth_origin_allowed   (const char *origin);

G_END_DECLS
