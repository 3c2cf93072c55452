/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-storage-private.h"

#include "tw-json.h"
#include "tw-error.h"

#include <string.h>

/* browser_cookies: the cookies of the workspace's network session. */

static const char *
same_site_to_string (SoupSameSitePolicy policy)
{
  switch (policy)
    {
    case SOUP_SAME_SITE_POLICY_STRICT:
      return "Strict";
    case SOUP_SAME_SITE_POLICY_LAX:
      return "Lax";
    case SOUP_SAME_SITE_POLICY_NONE:
    default:
      return "None";
    }
}

/* The shape Playwright's storage state uses, so files move between the
 * two: expires in seconds since the epoch, -1 for a session cookie. */
JsonObject *
_tw_tab_storage_cookie_to_json (SoupCookie *cookie)
{
  JsonObject *object = json_object_new ();
  GDateTime *expires = soup_cookie_get_expires (cookie);

  json_object_set_string_member (object, "name", soup_cookie_get_name (cookie));
  json_object_set_string_member (object, "value", soup_cookie_get_value (cookie));
  json_object_set_string_member (object, "domain", soup_cookie_get_domain (cookie));
  json_object_set_string_member (object, "path", soup_cookie_get_path (cookie));
  json_object_set_int_member (object, "expires",
                              expires != NULL ? g_date_time_to_unix (expires) : -1);
  json_object_set_boolean_member (object, "httpOnly", soup_cookie_get_http_only (cookie));
  json_object_set_boolean_member (object, "secure", soup_cookie_get_secure (cookie));
  json_object_set_string_member (object, "sameSite",
                                 same_site_to_string (soup_cookie_get_same_site_policy (cookie)));

  return object;
}

/* A cookie from a browser_cookies set call or a storage state file: name,
 * value, and a domain or a URL to take the domain from. */
SoupCookie *
_tw_tab_storage_cookie_from_json (JsonObject  *object,
                                  GError     **error)
{
  const char *name = tw_json_get_string (object, "name", NULL);
  const char *value = tw_json_get_string (object, "value", NULL);
  const char *domain = tw_json_get_string (object, "domain", NULL);
  const char *url = tw_json_get_string (object, "url", NULL);
  const char *path = tw_json_get_string (object, "path", NULL);
  const char *same_site = tw_json_get_string (object, "sameSite", NULL);
  double expires = tw_json_get_number (object, "expires", -1);
  g_autofree char *url_host = NULL;
  gboolean secure_default = FALSE;
  SoupSameSitePolicy policy = SOUP_SAME_SITE_POLICY_LAX;
  SoupCookie *cookie;

  if (name == NULL || *name == '\0' || strpbrk (name, "=;, \t\r\n") != NULL)
    {
      g_propagate_error (error,
                         _tw_tab_storage_invalid ("a cookie needs a name without “=”, “;”, commas or "
                                                  "white space"));
      return NULL;
    }

  if (value == NULL)
    value = "";
  if (strpbrk (value, ";\r\n") != NULL)
    {
      g_propagate_error (error,
                         _tw_tab_storage_invalid ("the value of cookie “%s” contains “;” or a line break",
                                                  name));
      return NULL;
    }

  if (url != NULL)
    {
      g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
      const char *scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;

      if (uri == NULL || g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0' ||
          (g_strcmp0 (scheme, "http") != 0 && g_strcmp0 (scheme, "https") != 0))
        {
          g_propagate_error (error,
                             _tw_tab_storage_invalid ("the url of cookie “%s” is not an http(s) URL: %s",
                                                      name, url));
          return NULL;
        }

      url_host = g_strdup (g_uri_get_host (uri));
      secure_default = g_strcmp0 (scheme, "https") == 0;
      if (domain == NULL)
        domain = url_host;
    }

  if (domain == NULL || *domain == '\0' || strpbrk (domain, "/:; \t") != NULL)
    {
      g_propagate_error (error,
                         _tw_tab_storage_invalid ("cookie “%s” needs a domain (e.g. \"example.com\") or "
                                                  "a url (e.g. \"https://example.com/\")", name));
      return NULL;
    }

  if (path == NULL)
    path = "/";
  if (*path != '/')
    {
      g_propagate_error (error,
                         _tw_tab_storage_invalid ("the path of cookie “%s” must start with “/”", name));
      return NULL;
    }

  if (same_site != NULL)
    {
      if (g_ascii_strcasecmp (same_site, "Strict") == 0)
        policy = SOUP_SAME_SITE_POLICY_STRICT;
      else if (g_ascii_strcasecmp (same_site, "Lax") == 0)
        policy = SOUP_SAME_SITE_POLICY_LAX;
      else if (g_ascii_strcasecmp (same_site, "None") == 0)
        policy = SOUP_SAME_SITE_POLICY_NONE;
      else
        {
          g_propagate_error (error,
                             _tw_tab_storage_invalid ("sameSite of cookie “%s” must be Strict, Lax or None",
                                                      name));
          return NULL;
        }
    }

  cookie = soup_cookie_new (name, value, domain, path, -1);
  if (expires > 0)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_utc ((gint64) expires);

      if (when == NULL)
        {
          soup_cookie_free (cookie);
          g_propagate_error (error,
                             _tw_tab_storage_invalid ("expires of cookie “%s” is out of range", name));
          return NULL;
        }
      soup_cookie_set_expires (cookie, when);
    }
  soup_cookie_set_http_only (cookie, tw_json_get_boolean (object, "httpOnly", FALSE));
  soup_cookie_set_secure (cookie, tw_json_get_boolean (object, "secure", secure_default));
  soup_cookie_set_same_site_policy (cookie, policy);

  return cookie;
}

/* The domain filter of list, get, delete and clear matches the cookie's
 * domain and its subdomains: "example.com" finds cookies of
 * ".example.com" and "www.example.com". */
static gboolean
cookie_matches (SoupCookie *cookie,
                const char *name,
                const char *domain,
                const char *path)
{
  const char *cookie_domain = soup_cookie_get_domain (cookie);

  if (name != NULL && g_strcmp0 (soup_cookie_get_name (cookie), name) != 0)
    return FALSE;
  if (path != NULL && g_strcmp0 (soup_cookie_get_path (cookie), path) != 0)
    return FALSE;

  if (domain != NULL)
    {
      gsize length, domain_length;

      if (*domain == '.')
        domain++;
      if (*cookie_domain == '.')
        cookie_domain++;

      length = strlen (cookie_domain);
      domain_length = strlen (domain);
      if (g_ascii_strcasecmp (cookie_domain, domain) != 0 &&
          !(length > domain_length && cookie_domain[length - domain_length - 1] == '.' &&
            g_ascii_strcasecmp (cookie_domain + length - domain_length, domain) == 0))
        return FALSE;
    }

  return TRUE;
}

gboolean
_tw_tab_storage_cookie_same_slot (SoupCookie *a,
                                  SoupCookie *b)
{
  return g_strcmp0 (soup_cookie_get_name (a), soup_cookie_get_name (b)) == 0 &&
         g_ascii_strcasecmp (soup_cookie_get_domain (a), soup_cookie_get_domain (b)) == 0 &&
         g_strcmp0 (soup_cookie_get_path (a), soup_cookie_get_path (b)) == 0;
}

gboolean
_tw_tab_storage_get_cookies_finish (GTask         *task,
                                    GObject       *manager,
                                    GAsyncResult  *result,
                                    GList        **cookies)
{
  g_autoptr(GError) error = NULL;

  *cookies = webkit_cookie_manager_get_all_cookies_finish (WEBKIT_COOKIE_MANAGER (manager), result,
                                                           &error);
  if (error != NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "WebKit could not list the cookies: %s", error->message);
      return FALSE;
    }

  return TRUE;
}

void
_tw_tab_storage_cookie_list_free (GList *cookies)
{
  g_list_free_full (cookies, (GDestroyNotify) soup_cookie_free);
}

typedef struct
{
  WebKitCookieManager *manager;
  WebKitWebsiteDataManager *data_manager;
  JsonObject          *params;
  char                *action;
  SoupCookie          *cookie;   /* set: the cookie being set */
  guint                removed;
} CookiesData;

static void
cookies_data_free (CookiesData *data)
{
  g_clear_object (&data->manager);
  g_clear_object (&data->data_manager);
  g_clear_pointer (&data->params, json_object_unref);
  g_free (data->action);
  g_clear_pointer (&data->cookie, soup_cookie_free);
  g_free (data);
}

JsonArray *
_tw_tab_storage_cookies_to_json (GList      *cookies,
                                 const char *name,
                                 const char *domain,
                                 const char *path)
{
  JsonArray *array = json_array_new ();

  for (GList *l = cookies; l != NULL; l = l->next)
    if (cookie_matches (l->data, name, domain, path))
      json_array_add_object_element (array, _tw_tab_storage_cookie_to_json (l->data));

  return array;
}

/* A delete or a clear is done, or WebKit says why not: {action, removed}. */
static void
return_removed (GTask        *task,
                const GError *error)
{
  CookiesData *data = g_task_get_task_data (task);
  JsonObject *reply;

  if (error != NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "WebKit could not remove the cookies: %s", error->message);
      return;
    }

  reply = json_object_new ();
  json_object_set_string_member (reply, "action", data->action);
  json_object_set_int_member (reply, "removed", data->removed);
  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
cookies_replaced_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  webkit_cookie_manager_replace_cookies_finish (WEBKIT_COOKIE_MANAGER (object), result, &error);
  return_removed (task, error);
}

static void
cookies_cleared_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  webkit_website_data_manager_clear_finish (WEBKIT_WEBSITE_DATA_MANAGER (object), result, &error);
  return_removed (task, error);
}

/* After a set, the session is asked again: a cookie it refused (expired,
 * a domain it will not keep) is an error, not a success. */
static void
cookies_verified_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CookiesData *data = g_task_get_task_data (task);
  GList *cookies;
  JsonObject *reply;

  if (!_tw_tab_storage_get_cookies_finish (task, object, result, &cookies))
    return;

  for (GList *l = cookies; l != NULL; l = l->next)
    if (_tw_tab_storage_cookie_same_slot (l->data, data->cookie) &&
        g_strcmp0 (soup_cookie_get_value (l->data), soup_cookie_get_value (data->cookie)) == 0)
      {
        reply = json_object_new ();
        json_object_set_string_member (reply, "action", "set");
        json_object_set_object_member (reply, "cookie", _tw_tab_storage_cookie_to_json (l->data));
        _tw_tab_storage_cookie_list_free (cookies);
        g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
        return;
      }

  _tw_tab_storage_cookie_list_free (cookies);
  g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "the session did not keep cookie “%s” (is expires in the past?)",
                           soup_cookie_get_name (data->cookie));
}

static void
cookie_added_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!webkit_cookie_manager_add_cookie_finish (WEBKIT_COOKIE_MANAGER (object), result, &error))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "WebKit could not set the cookie: %s", error->message);
      return;
    }

  webkit_cookie_manager_get_all_cookies (WEBKIT_COOKIE_MANAGER (object),
                                         g_task_get_cancellable (task),
                                         cookies_verified_cb, g_object_ref (task));
}

static void
cookies_listed_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CookiesData *data = g_task_get_task_data (task);
  const char *name = tw_json_get_string (data->params, "name", NULL);
  const char *domain = tw_json_get_string (data->params, "domain", NULL);
  const char *path = tw_json_get_string (data->params, "path", NULL);
  GList *cookies;
  GList *kept = NULL;

  if (!_tw_tab_storage_get_cookies_finish (task, object, result, &cookies))
    return;

  if (g_str_equal (data->action, "list") || g_str_equal (data->action, "get"))
    {
      JsonObject *reply = json_object_new ();

      json_object_set_string_member (reply, "action", data->action);
      json_object_set_array_member (reply, "cookies",
                                    _tw_tab_storage_cookies_to_json (cookies, name, domain, path));
      _tw_tab_storage_cookie_list_free (cookies);
      g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
      return;
    }

  /* delete and clear: the session keeps what does not match. */
  for (GList *l = cookies; l != NULL; l = l->next)
    {
      if (cookie_matches (l->data, name, domain, path))
        data->removed++;
      else
        kept = g_list_prepend (kept, soup_cookie_copy (l->data));
    }
  _tw_tab_storage_cookie_list_free (cookies);

  if (data->removed == 0)
    {
      JsonObject *reply = json_object_new ();

      _tw_tab_storage_cookie_list_free (kept);
      json_object_set_string_member (reply, "action", data->action);
      json_object_set_int_member (reply, "removed", 0);
      g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
      return;
    }

  /* WebKit replaces cookies with a list of at least one. */
  if (kept == NULL)
    {
      webkit_website_data_manager_clear (data->data_manager, WEBKIT_WEBSITE_DATA_COOKIES, 0,
                                         g_task_get_cancellable (task),
                                         cookies_cleared_cb, g_object_ref (task));
      return;
    }

  kept = g_list_reverse (kept);
  webkit_cookie_manager_replace_cookies (WEBKIT_COOKIE_MANAGER (object), kept,
                                         g_task_get_cancellable (task),
                                         cookies_replaced_cb, g_object_ref (task));
  _tw_tab_storage_cookie_list_free (kept);
}

void
tw_tab_storage_cookies_async (WebKitNetworkSession *session,
                              JsonObject           *params,
                              GCancellable         *cancellable,
                              GAsyncReadyCallback   callback,
                              gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  CookiesData *data;
  const char *action;

  g_return_if_fail (WEBKIT_IS_NETWORK_SESSION (session));
  g_return_if_fail (params != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_tab_storage_cookies_async);

  action = tw_json_get_string (params, "action", NULL);
  if (action == NULL)
    action = "list";

  data = g_new0 (CookiesData, 1);
  data->manager = g_object_ref (webkit_network_session_get_cookie_manager (session));
  data->data_manager = g_object_ref (webkit_network_session_get_website_data_manager (session));
  data->params = json_object_ref (params);
  data->action = g_strdup (action);
  g_task_set_task_data (task, data, (GDestroyNotify) cookies_data_free);

  if (g_str_equal (action, "set"))
    {
      data->cookie = _tw_tab_storage_cookie_from_json (params, &error);
      if (data->cookie == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }

      webkit_cookie_manager_add_cookie (data->manager, data->cookie, cancellable,
                                        cookie_added_cb, g_steal_pointer (&task));
      return;
    }

  if ((g_str_equal (action, "get") || g_str_equal (action, "delete")) &&
      tw_json_get_string (params, "name", NULL) == NULL)
    {
      g_task_return_error (task,
                           _tw_tab_storage_invalid ("action “%s” needs the cookie's name", action));
      return;
    }

  if (!g_str_equal (action, "list") && !g_str_equal (action, "get") &&
      !g_str_equal (action, "delete") && !g_str_equal (action, "clear"))
    {
      g_task_return_error (task,
                           _tw_tab_storage_invalid ("action must be list, get, set, delete or clear"));
      return;
    }

  webkit_cookie_manager_get_all_cookies (data->manager, cancellable, cookies_listed_cb,
                                         g_steal_pointer (&task));
}

JsonObject *
tw_tab_storage_cookies_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
