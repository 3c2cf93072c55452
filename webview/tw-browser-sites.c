/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-private.h"

#include "tw-error.h"
#include "tw-filter-store.h"
#include "tw-json.h"

#include <string.h>

/* The sites an agent may reach (issue 32): the workspace's list, or its
 * preset's. Tool calls that would load elsewhere are refused before
 * anything loads, and each of the agent's tabs carries a content filter
 * that blocks its pages' loads outside the list. */

/* Sites */

static char * const *
allowed_sites (TwBrowser      *self,
               TwBrowserAgent *agent)
{
  if (agent != NULL && agent->policy.allowed_sites != NULL)
    return agent->policy.allowed_sites;

  return self->policy.allowed_sites;
}

static gboolean
host_matches (const char *pattern,
              const char *host,
              int         port)
{
  g_autofree char *pattern_host = NULL;
  const char *colon = strrchr (pattern, ':');
  gsize host_length = strlen (host);

  /* "host:port" names one port; "[::1]" has colons of its own. */
  if (colon != NULL && strchr (colon, ']') == NULL && colon != pattern)
    {
      if (port != (int) g_ascii_strtoll (colon + 1, NULL, 10))
        return FALSE;
      pattern_host = g_strndup (pattern, colon - pattern);
    }
  else
    {
      pattern_host = g_strdup (pattern);
    }

  if (g_str_has_prefix (pattern_host, "*."))
    {
      const char *domain = pattern_host + 2;
      gsize domain_length = strlen (domain);

      return g_str_equal (host, domain) ||
             (host_length > domain_length && g_str_has_suffix (host, domain) &&
              host[host_length - domain_length - 1] == '.');
    }

  return g_str_equal (host, pattern_host);
}

/* Whether @url is within @sites; URLs that reach no host (about:blank,
 * data:) always are. */
static gboolean
url_allowed (char * const *sites,
             const char   *url)
{
  g_autoptr(GUri) uri = NULL;
  g_autofree char *host = NULL;
  const char *scheme;
  int port;

  if (sites == NULL || url == NULL)
    return TRUE;

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (uri == NULL || g_uri_get_host (uri) == NULL || g_uri_get_host (uri)[0] == '\0')
    return TRUE;

  scheme = g_uri_get_scheme (uri);
  port = g_uri_get_port (uri);
  if (port < 0)
    port = g_ascii_strcasecmp (scheme, "https") == 0 || g_ascii_strcasecmp (scheme, "wss") == 0
           ? 443 : 80;
  host = g_ascii_strdown (g_uri_get_host (uri), -1);
  if (host[0] == '[')
    {
      char *end = strchr (host, ']');

      if (end != NULL)
        *end = '\0';
      memmove (host, host + 1, strlen (host));
    }

  for (guint i = 0; sites[i] != NULL; i++)
    if (host_matches (sites[i], host, port))
      return TRUE;

  return FALSE;
}

gboolean
tw_browser_check_sites (TwBrowser               *self,
                        const TwServiceRequest  *request,
                        GError                 **error)
{
  const TwCaller *caller = request->caller;
  char * const *sites;
  const char *url;

  if (tw_browser_caller_is_person (self, caller))
    return TRUE;

  switch (request->command)
    {
    case TW_TAB_COMMAND_NEW_TAB:
    case TW_TAB_COMMAND_NAVIGATE:
    case TW_TAB_COMMAND_FETCH:
    case TW_TAB_COMMAND_READ_URL:
      break;

    default:
      return TRUE;
    }

  sites = allowed_sites (self, tw_browser_find_agent (self, caller->agent_id));
  url = tw_json_get_string (request->params, "url", NULL);
  if (url_allowed (sites, url))
    return TRUE;

  {
    g_autofree char *list = g_strjoinv (", ", (char **) sites);

    g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                 "%s is outside the sites this agent may reach (%s); nothing was loaded. "
                 "Stay on those sites, or ask the person to allow this one (Preferences, "
                 "Agents' Limits, or the agent's preset)", url, list);
  }

  return FALSE;
}

/* Every load of the tab, documents included, outside @sites is blocked by
 * a content filter: the first rules block all http(s) and ws(s) loads, and
 * later rules let the allowed hosts through. */
static const char * const filter_schemes[] = { "^https?://", "^wss?://" };

static char *
sites_filter_json (char * const *sites)
{
  g_autoptr(GString) json = g_string_new ("[");

  /* Content filters know no alternatives ("a|b"): one rule per scheme. */
  for (guint s = 0; s < G_N_ELEMENTS (filter_schemes); s++)
    g_string_append_printf (json, "%s{\"trigger\":{\"url-filter\":\"%s\"},"
                            "\"action\":{\"type\":\"block\"}}", s > 0 ? "," : "",
                            filter_schemes[s]);

  for (guint i = 0; sites[i] != NULL; i++)
    {
      const char *site = sites[i];
      const char *colon = strrchr (site, ':');
      g_autofree char *host = NULL;
      g_autofree char *port = NULL;
      g_autoptr(GString) regex = g_string_new (NULL);

      if (colon != NULL && strchr (colon, ']') == NULL && colon != site)
        {
          host = g_strndup (site, colon - site);
          port = g_strdup (colon + 1);
        }
      else
        {
          host = g_strdup (site);
        }

      if (g_str_has_prefix (host, "*."))
        g_string_append (regex, "([^/:?#]*\\\\.)?");
      for (const char *p = g_str_has_prefix (host, "*.") ? host + 2 : host; *p != '\0'; p++)
        {
          /* Only what a host name holds: anything else could not match. */
          if (g_ascii_isalnum (*p) || *p == '-')
            g_string_append_c (regex, *p);
          else if (*p == '.' || *p == '[' || *p == ']')
            g_string_append_printf (regex, "\\\\%c", *p);
          else if (*p == ':')
            g_string_append_c (regex, ':');
        }
      if (port != NULL)
        g_string_append_printf (regex, ":%d[/?#]", (int) g_ascii_strtoll (port, NULL, 10));
      else
        g_string_append (regex, "(:[0-9]+)?[/?#]");

      for (guint s = 0; s < G_N_ELEMENTS (filter_schemes); s++)
        g_string_append_printf (json, ",{\"trigger\":{\"url-filter\":\"%s%s\"},"
                                "\"action\":{\"type\":\"ignore-previous-rules\"}}",
                                filter_schemes[s], regex->str);
    }

  g_string_append_c (json, ']');

  return g_string_free (g_steal_pointer (&json), FALSE);
}

static void
sites_filter_saved_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TwBrowserTab *tab = g_task_get_task_data (task);
  g_autoptr(WebKitUserContentFilter) filter = NULL;
  g_autoptr(GError) error = NULL;

  filter = webkit_user_content_filter_store_save_finish (WEBKIT_USER_CONTENT_FILTER_STORE (object),
                                                         result, &error);
  if (filter == NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "cannot compile the filter of the agent's allowed sites: %s",
                               error->message);
      return;
    }

  webkit_user_content_manager_add_filter (
    webkit_web_view_get_user_content_manager (tw_browser_tab_get_view (tab)), filter);
  g_task_return_boolean (task, TRUE);
}

void
tw_browser_limit_tab_sites_async (TwBrowser           *self,
                                  TwBrowserTab        *tab,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *json = NULL;
  g_autofree char *checksum = NULL;
  g_autofree char *id = NULL;
  g_autoptr(GBytes) bytes = NULL;
  char * const *sites = NULL;

  g_return_if_fail (TW_IS_BROWSER (self));
  g_return_if_fail (TW_IS_BROWSER_TAB (tab));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, tw_browser_limit_tab_sites_async);
  g_task_set_task_data (task, g_object_ref (tab), g_object_unref);

  if (tw_browser_tab_get_owner_id (tab) != NULL &&
      g_strcmp0 (tw_browser_tab_get_owner_id (tab), self->person_id) != 0)
    sites = allowed_sites (self, tw_browser_find_agent (self, tw_browser_tab_get_owner_id (tab)));

  if (sites == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  json = sites_filter_json (sites);
  checksum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, json, -1);
  id = g_strdup_printf ("sites-%s", checksum);
  bytes = g_bytes_new (json, strlen (json));
  webkit_user_content_filter_store_save (tw_filter_store_get_default (), id, bytes, NULL,
                                         sites_filter_saved_cb,
                                         g_steal_pointer (&task));
}

gboolean
tw_browser_limit_tab_sites_finish (TwBrowser     *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
