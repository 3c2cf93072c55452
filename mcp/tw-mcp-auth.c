/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-mcp-auth.h"

#include <string.h>

static const char * const loopback_hosts[] = { "127.0.0.1", "localhost", "[::1]" };

gboolean
tw_mcp_auth_token_equal (const char *expected,
                         const char *given)
{
  gsize expected_len;
  gsize given_len;
  gsize diff;

  if (expected == NULL || given == NULL)
    return FALSE;

  expected_len = strlen (expected);
  given_len = strlen (given);

  /* An empty secret must never match anything. */
  if (expected_len == 0)
    return FALSE;

  /* Walk the whole given string whatever happens, so the time taken tells an
   * attacker only the length of what they sent. */
  diff = expected_len ^ given_len;
  for (gsize i = 0; i < given_len; i++)
    diff |= (gsize) ((guchar) given[i] ^ (guchar) expected[i % expected_len]);

  return diff == 0;
}

char *
tw_mcp_auth_dup_bearer_token (const char *authorization)
{
  const char *token;
  const char *end;

  if (authorization == NULL)
    return NULL;

  while (*authorization == ' ' || *authorization == '\t')
    authorization++;

  if (g_ascii_strncasecmp (authorization, "Bearer", 6) != 0)
    return NULL;

  token = authorization + 6;
  if (*token != ' ' && *token != '\t')
    return NULL;
  while (*token == ' ' || *token == '\t')
    token++;

  end = token + strlen (token);
  while (end > token && (end[-1] == ' ' || end[-1] == '\t'))
    end--;

  if (end == token)
    return NULL;

  /* RFC 6750 tokens are one word of visible ASCII. */
  for (const char *p = token; p < end; p++)
    {
      if (*p <= ' ' || *p > '~')
        return NULL;
    }

  return g_strndup (token, end - token);
}

gboolean
tw_mcp_auth_check_bearer (const char *authorization,
                          const char *token)
{
  g_autofree char *given = tw_mcp_auth_dup_bearer_token (authorization);

  return tw_mcp_auth_token_equal (token, given);
}

gboolean
tw_mcp_auth_host_allowed (const char *host,
                          guint16     port)
{
  if (host == NULL || port == 0)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (loopback_hosts); i++)
    {
      g_autofree char *expected = g_strdup_printf ("%s:%u", loopback_hosts[i], port);

      if (g_ascii_strcasecmp (host, expected) == 0)
        return TRUE;
    }

  return FALSE;
}

gboolean
tw_mcp_auth_origin_allowed (const char *origin)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  const char *host;
  const char *path;

  if (origin == NULL)
    return TRUE;

  /* "null" is what sandboxed frames and file: pages send. */
  if (g_ascii_strcasecmp (origin, "null") == 0)
    return FALSE;

  uri = g_uri_parse (origin, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL)
    return FALSE;

  scheme = g_uri_get_scheme (uri);
  if (g_strcmp0 (scheme, "http") != 0 && g_strcmp0 (scheme, "https") != 0)
    return FALSE;

  /* An origin is scheme, host and port; anything more is not an origin. */
  path = g_uri_get_path (uri);
  if (g_uri_get_userinfo (uri) != NULL ||
      g_uri_get_query (uri) != NULL ||
      g_uri_get_fragment (uri) != NULL ||
      (path[0] != '\0' && g_strcmp0 (path, "/") != 0))
    return FALSE;

  host = g_uri_get_host (uri);
  if (host == NULL)
    return FALSE;

  /* GUri drops the brackets around IPv6 literals. */
  return g_ascii_strcasecmp (host, "127.0.0.1") == 0 ||
         g_ascii_strcasecmp (host, "localhost") == 0 ||
         g_ascii_strcasecmp (host, "::1") == 0;
}
