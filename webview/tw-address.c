/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-address.h"

#include "tw-error.h"

#include <string.h>

gboolean
tw_address_check_url (const char  *url,
                      GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *scheme = NULL;
  const char *host;

  if (url == NULL || url[0] == '\0')
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "no URL given");
      return FALSE;
    }

  if (g_str_equal (url, "about:blank"))
    return TRUE;

  scheme = g_uri_parse_scheme (url);
  if (scheme == NULL)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "“%s” is not an absolute URL; start it with http:// or https://", url);
      return FALSE;
    }

  if (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                   "only http and https URLs can be opened, not %s: URLs", scheme);
      return FALSE;
    }

  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED, &local_error);
  if (uri == NULL)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "“%s” is not a valid URL: %s", url, local_error->message);
      return FALSE;
    }

  host = g_uri_get_host (uri);
  if (host == NULL || host[0] == '\0')
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "“%s” has no host name", url);
      return FALSE;
    }

  return TRUE;
}

/* Development servers rarely speak TLS, so addresses that can only be local
 * get http:// while everything else gets https://. */
static gboolean
host_is_local (const char *authority)
{
  g_autofree char *host = NULL;
  const char *colon;
  gboolean has_port;

  if (authority[0] == '[')
    return TRUE;

  colon = strrchr (authority, ':');
  has_port = colon != NULL;
  host = has_port ? g_strndup (authority, colon - authority) : g_strdup (authority);

  if (has_port)
    return TRUE;

  return g_ascii_strcasecmp (host, "localhost") == 0 ||
         g_str_has_suffix (host, ".localhost") ||
         g_hostname_is_ip_address (host) ||
         strchr (host, '.') == NULL;
}

char *
tw_address_normalize (const char  *text,
                      GError     **error)
{
  g_autofree char *trimmed = NULL;
  g_autofree char *scheme = NULL;
  g_autofree char *candidate = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  trimmed = g_strstrip (g_strdup (text));

  if (trimmed[0] == '\0')
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "Type a web address");
      return NULL;
    }

  for (const char *p = trimmed; *p != '\0'; p++)
    {
      if (g_ascii_isspace (*p))
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "“%s” is not a web address", trimmed);
          return NULL;
        }
    }

  scheme = g_uri_parse_scheme (trimmed);

  /* "localhost:8000" parses as the scheme "localhost"; a port number right
   * after the colon says it is a host instead. */
  if (scheme != NULL && g_ascii_isdigit (trimmed[strlen (scheme) + 1]))
    g_clear_pointer (&scheme, g_free);

  if (scheme != NULL)
    {
      candidate = g_strdup (trimmed);
    }
  else
    {
      g_autofree char *authority = NULL;
      size_t len = strcspn (trimmed, "/?#");

      authority = g_strndup (trimmed, len);
      if (authority[0] == '\0')
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "“%s” is not a web address", trimmed);
          return NULL;
        }

      candidate = g_strconcat (host_is_local (authority) ? "http://" : "https://", trimmed, NULL);
    }

  if (!tw_address_check_url (candidate, error))
    return NULL;

  return g_steal_pointer (&candidate);
}
