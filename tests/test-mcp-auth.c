/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "tw-mcp-auth.h"
#include "tw-mcp-server.h"

#define TOKEN "k9Xq2-_abcDEF0123456789ghijklmnopqrstuvwxyzAB"

static void
test_token_equal (void)
{
  g_assert_true (tw_mcp_auth_token_equal (TOKEN, TOKEN));

  g_assert_false (tw_mcp_auth_token_equal (TOKEN, TOKEN "x"));
  g_assert_false (tw_mcp_auth_token_equal (TOKEN, "k9Xq2"));
  g_assert_false (tw_mcp_auth_token_equal (TOKEN, ""));
  g_assert_false (tw_mcp_auth_token_equal (TOKEN, NULL));
  g_assert_false (tw_mcp_auth_token_equal ("", ""));
  g_assert_false (tw_mcp_auth_token_equal (NULL, NULL));
  g_assert_false (tw_mcp_auth_token_equal ("abc", "abd"));
  g_assert_false (tw_mcp_auth_token_equal ("abc", "ABC"));
  /* Repeating the secret must not match it. */
  g_assert_false (tw_mcp_auth_token_equal ("ab", "abab"));
}

static void
test_bearer (void)
{
  static const struct {
    const char *header;
    gboolean    accepted;
  } cases[] = {
    { "Bearer " TOKEN, TRUE },
    { "bearer " TOKEN, TRUE },
    { "BEARER " TOKEN, TRUE },
    { "BeArEr " TOKEN, TRUE },
    { "Bearer   " TOKEN, TRUE },
    { "  Bearer " TOKEN "  ", TRUE },
    { "Bearer\t" TOKEN, TRUE },
    { NULL, FALSE },
    { "", FALSE },
    { "Bearer", FALSE },
    { "Bearer ", FALSE },
    { "Bearer" TOKEN, FALSE },
    { "Basic " TOKEN, FALSE },
    { "Token " TOKEN, FALSE },
    { TOKEN, FALSE },
    { "Bearer " TOKEN "x", FALSE },
    { "Bearer x" TOKEN, FALSE },
    { "Bearer " TOKEN " extra", FALSE },
    { "Bearer wrong-token", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (tw_mcp_auth_check_bearer (cases[i].header, TOKEN) != cases[i].accepted)
        g_error ("Authorization \"%s\" should be %s", cases[i].header,
                 cases[i].accepted ? "accepted" : "refused");
    }
}

static void
test_dup_bearer (void)
{
  g_autofree char *token = tw_mcp_auth_dup_bearer_token ("bearer  abc.DEF~+/=  ");
  g_autofree char *none = tw_mcp_auth_dup_bearer_token ("Bearer a b");

  g_assert_cmpstr (token, ==, "abc.DEF~+/=");
  g_assert_null (none);
}

static void
test_host (void)
{
  static const struct {
    const char *host;
    gboolean    accepted;
  } cases[] = {
    { "127.0.0.1:8123", TRUE },
    { "localhost:8123", TRUE },
    { "LOCALHOST:8123", TRUE },
    { "LocalHost:8123", TRUE },
    { "[::1]:8123", TRUE },
    { NULL, FALSE },
    { "", FALSE },
    { "127.0.0.1", FALSE },
    { "localhost", FALSE },
    { "[::1]", FALSE },
    { "127.0.0.1:8124", FALSE },
    { "127.0.0.1:08123", FALSE },
    { "127.0.0.1:81230", FALSE },
    { "127.0.0.1:8123 ", FALSE },
    { "127.0.0.2:8123", FALSE },
    { "0.0.0.0:8123", FALSE },
    { "::1:8123", FALSE },
    { "localhost.:8123", FALSE },
    { "evil.com:8123", FALSE },
    { "localhost.evil.com:8123", FALSE },
    { "127.0.0.1.nip.io:8123", FALSE },
    { "127.0.0.1:8123@evil.com", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (tw_mcp_auth_host_allowed (cases[i].host, 8123) != cases[i].accepted)
        g_error ("Host \"%s\" should be %s", cases[i].host,
                 cases[i].accepted ? "accepted" : "refused");
    }

  g_assert_false (tw_mcp_auth_host_allowed ("127.0.0.1:0", 0));
}

static void
test_origin (void)
{
  static const struct {
    const char *origin;
    gboolean    accepted;
  } cases[] = {
    { NULL, TRUE },
    { "http://127.0.0.1", TRUE },
    { "http://127.0.0.1:3000", TRUE },
    { "https://127.0.0.1:8443", TRUE },
    { "http://localhost:5173", TRUE },
    { "HTTP://LOCALHOST:5173", TRUE },
    { "https://localhost", TRUE },
    { "http://[::1]:8080", TRUE },
    { "http://localhost:5173/", TRUE },
    { "null", FALSE },
    { "NULL", FALSE },
    { "", FALSE },
    { "localhost", FALSE },
    { "file://", FALSE },
    { "file:///home/user/page.html", FALSE },
    { "ftp://127.0.0.1", FALSE },
    { "chrome-extension://abcdef", FALSE },
    { "http://evil.com", FALSE },
    { "https://evil.com:443", FALSE },
    { "http://localhost.evil.com", FALSE },
    { "http://127.0.0.1.nip.io", FALSE },
    { "http://localhost@evil.com", FALSE },
    { "http://evil.com@localhost", FALSE },
    { "http://127.0.0.2", FALSE },
    { "http://0.0.0.0:8000", FALSE },
    { "http://localhost/path", FALSE },
    { "http://localhost?x=1", FALSE },
    { "http://localhost#frag", FALSE },
    { "http://", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      if (tw_mcp_auth_origin_allowed (cases[i].origin) != cases[i].accepted)
        g_error ("Origin \"%s\" should be %s", cases[i].origin,
                 cases[i].accepted ? "accepted" : "refused");
    }
}

static void
test_generate_token (void)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < 100; i++)
    {
      char *token = tw_mcp_generate_token ();
      g_autofree char *header = g_strdup_printf ("Bearer %s", token);

      /* 32 bytes of base64url without padding. */
      g_assert_cmpuint (strlen (token), ==, 43);
      for (const char *p = token; *p != '\0'; p++)
        g_assert_true (g_ascii_isalnum (*p) || *p == '-' || *p == '_');

      g_assert_true (tw_mcp_auth_check_bearer (header, token));
      g_assert_false (g_hash_table_contains (seen, token));
      g_hash_table_add (seen, token);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/mcp/auth/token-equal", test_token_equal);
  g_test_add_func ("/mcp/auth/bearer", test_bearer);
  g_test_add_func ("/mcp/auth/dup-bearer", test_dup_bearer);
  g_test_add_func ("/mcp/auth/host", test_host);
  g_test_add_func ("/mcp/auth/origin", test_origin);
  g_test_add_func ("/mcp/auth/generate-token", test_generate_token);

  return g_test_run ();
}
