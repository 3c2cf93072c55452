/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-emulation.h"

#include "tw-error.h"

#include <string.h>

#define EMULATED_USER_AGENT_KEY  "tw-emulated-user-agent"
#define EMULATED_GEOLOCATION_KEY "tw-emulated-geolocation"
#define GEOLOCATION_DENIED_KEY   "tw-geolocation-denied"
#define MAX_USER_AGENT_LENGTH    1000
#define DEFAULT_ACCURACY_M       10.0
/* How often a watched position is told again, as a device's location
 * service does: a page's new getCurrentPosition() waits for the next one. */
#define POSITION_INTERVAL_MS     500

typedef struct
{
  double latitude;
  double longitude;
  double accuracy;
} Geolocation;

/* The web context has one geolocation manager for all its views, and it
 * hands one position to every page that watches. So the tabs that emulate a
 * geolocation all emulate the same one (a different one is refused), and
 * the others never get one: their pages are denied the permission. */
static struct
{
  WebKitGeolocationManager *manager;
  gboolean                  started;
  guint                     interval_id;
  GList                    *views;   /* WebKitWebView *, weak: the ones emulating */
} geo;

static const Geolocation *
view_geolocation (WebKitWebView *view)
{
  return g_object_get_data (G_OBJECT (view), EMULATED_GEOLOCATION_KEY);
}

static void
publish_position (void)
{
  const Geolocation *where;
  WebKitGeolocationPosition *position;

  if (geo.manager == NULL || !geo.started)
    return;

  if (geo.views == NULL)
    {
      webkit_geolocation_manager_failed (geo.manager, "No position: this tab emulates no geolocation");
      return;
    }

  where = view_geolocation (geo.views->data);
  position = webkit_geolocation_position_new (where->latitude, where->longitude, where->accuracy);
  /* 0: now. */
  webkit_geolocation_position_set_timestamp (position, 0);
  webkit_geolocation_manager_update_position (geo.manager, position);
  webkit_geolocation_position_free (position);
}

/* A page started watching the position: it only can in a tab that was
 * granted the permission, so a tab that emulates one. The person's real
 * position is never looked up. */
static gboolean
publish_again_cb (gpointer user_data)
{
  publish_position ();
  return G_SOURCE_CONTINUE;
}

static gboolean
geolocation_start_cb (WebKitGeolocationManager *manager,
                      gpointer                  user_data)
{
  geo.started = TRUE;
  publish_position ();
  if (geo.interval_id == 0)
    geo.interval_id = g_timeout_add (POSITION_INTERVAL_MS, publish_again_cb, NULL);
  return TRUE;
}

static void
geolocation_stop_cb (WebKitGeolocationManager *manager,
                     gpointer                  user_data)
{
  geo.started = FALSE;
  g_clear_handle_id (&geo.interval_id, g_source_remove);
}

static void
emulating_view_gone (gpointer  user_data,
                     GObject  *where_the_object_was)
{
  geo.views = g_list_remove (geo.views, where_the_object_was);
}

static void
set_geolocation (WebKitWebView     *view,
                 const Geolocation *where)
{
  gboolean emulating = view_geolocation (view) != NULL;

  if (where != NULL)
    {
      g_object_set_data_full (G_OBJECT (view), EMULATED_GEOLOCATION_KEY,
                              g_memdup2 (where, sizeof *where), g_free);
      if (!emulating)
        {
          geo.views = g_list_prepend (geo.views, view);
          g_object_weak_ref (G_OBJECT (view), emulating_view_gone, NULL);
        }
    }
  else if (emulating)
    {
      g_object_set_data (G_OBJECT (view), EMULATED_GEOLOCATION_KEY, NULL);
      geo.views = g_list_remove (geo.views, view);
      g_object_weak_unref (G_OBJECT (view), emulating_view_gone, NULL);
    }
  else
    return;

  publish_position ();
}

static gboolean
view_permission_request_cb (WebKitWebView           *view,
                            WebKitPermissionRequest *request,
                            gpointer                 user_data)
{
  if (!WEBKIT_IS_GEOLOCATION_PERMISSION_REQUEST (request))
    return FALSE;

  if (view_geolocation (view) != NULL)
    {
      webkit_permission_request_allow (request);
    }
  else
    {
      /* WebKit keeps the answer for the rest of the page's life. */
      g_object_set_data (G_OBJECT (view), GEOLOCATION_DENIED_KEY, GINT_TO_POINTER (TRUE));
      webkit_permission_request_deny (request);
    }
  return TRUE;
}

static void
view_load_changed_cb (WebKitWebView   *view,
                      WebKitLoadEvent  event,
                      gpointer         user_data)
{
  if (event == WEBKIT_LOAD_COMMITTED)
    g_object_set_data (G_OBJECT (view), GEOLOCATION_DENIED_KEY, NULL);
}

void
tw_tab_emulation_attach (WebKitWebView *view)
{
  g_return_if_fail (WEBKIT_IS_WEB_VIEW (view));

  if (geo.manager == NULL)
    {
      geo.manager = webkit_web_context_get_geolocation_manager (webkit_web_view_get_context (view));
      g_signal_connect (geo.manager, "start", G_CALLBACK (geolocation_start_cb), NULL);
      g_signal_connect (geo.manager, "stop", G_CALLBACK (geolocation_stop_cb), NULL);
    }
  g_return_if_fail (geo.manager == webkit_web_context_get_geolocation_manager (webkit_web_view_get_context (view)));

  g_signal_connect (view, "permission-request", G_CALLBACK (view_permission_request_cb), NULL);
  g_signal_connect (view, "load-changed", G_CALLBACK (view_load_changed_cb), NULL);
}

JsonObject *
tw_tab_emulation_describe (WebKitWebView *view)
{
  const char *user_agent;
  const Geolocation *where;
  JsonObject *object;

  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);

  user_agent = g_object_get_data (G_OBJECT (view), EMULATED_USER_AGENT_KEY);
  where = view_geolocation (view);
  if (user_agent == NULL && where == NULL)
    return NULL;

  object = json_object_new ();
  if (user_agent != NULL)
    json_object_set_string_member (object, "userAgent", user_agent);
  if (where != NULL)
    {
      JsonObject *position = json_object_new ();

      json_object_set_double_member (position, "latitude", where->latitude);
      json_object_set_double_member (position, "longitude", where->longitude);
      json_object_set_double_member (position, "accuracy", where->accuracy);
      json_object_set_object_member (object, "geolocation", position);
    }
  return object;
}

static gboolean
check_user_agent (const char  *user_agent,
                  GError     **error)
{
  if (user_agent[0] == '\0' || strlen (user_agent) > MAX_USER_AGENT_LENGTH ||
      !g_utf8_validate (user_agent, -1, NULL))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "userAgent must be 1 to %d characters of text", MAX_USER_AGENT_LENGTH);
      return FALSE;
    }

  /* It goes into an HTTP header as it is. */
  for (const char *p = user_agent; *p != '\0'; p++)
    {
      if ((guchar) *p < 0x20 || *p == 0x7f)
        {
          g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "userAgent must not contain control characters such as line breaks");
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
read_number (JsonObject  *object,
             const char  *member,
             double       min,
             double       max,
             double      *value,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      (json_node_get_value_type (node) != G_TYPE_DOUBLE && json_node_get_value_type (node) != G_TYPE_INT64) ||
      !(json_node_get_double (node) >= min && json_node_get_double (node) <= max))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "geolocation.%s must be a number from %g to %g", member, min, max);
      return FALSE;
    }
  *value = json_node_get_double (node);
  return TRUE;
}

static gboolean
read_geolocation (WebKitWebView  *view,
                  JsonNode       *node,
                  Geolocation    *where,
                  GError        **error)
{
  JsonObject *object;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "geolocation must be an object {latitude, longitude, accuracy?}");
      return FALSE;
    }
  object = json_node_get_object (node);
  where->accuracy = DEFAULT_ACCURACY_M;
  if (!read_number (object, "latitude", -90, 90, &where->latitude, error) ||
      !read_number (object, "longitude", -180, 180, &where->longitude, error) ||
      (json_object_has_member (object, "accuracy") &&
       !read_number (object, "accuracy", 0, 1e7, &where->accuracy, error)))
    return FALSE;

  /* One position for every tab that emulates one; see geo above. */
  for (GList *l = geo.views; l != NULL; l = l->next)
    {
      const Geolocation *other = view_geolocation (l->data);

      if (l->data == view)
        continue;
      if (other->latitude != where->latitude || other->longitude != where->longitude ||
          other->accuracy != where->accuracy)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "another tab already emulates the geolocation %g, %g (accuracy %g m), and "
                       "WebKit gives all tabs one position: use the same one, or reset that tab first",
                       other->latitude, other->longitude, other->accuracy);
          return FALSE;
        }
    }
  return TRUE;
}

JsonObject *
tw_tab_emulation_apply (WebKitWebView  *view,
                        JsonObject     *params,
                        GError        **error)
{
  WebKitSettings *settings;
  JsonNode *node;
  JsonNode *geolocation;
  const char *user_agent = NULL;
  Geolocation where = { 0, };
  gboolean reset;
  JsonObject *result;
  JsonObject *emulation;

  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);
  g_return_val_if_fail (params != NULL, NULL);

  reset = json_object_get_boolean_member_with_default (params, "reset", FALSE);
  node = json_object_get_member (params, "userAgent");
  if (node != NULL && (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING))
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "userAgent must be a string");
      return NULL;
    }
  if (node != NULL)
    user_agent = json_node_get_string (node);
  geolocation = json_object_get_member (params, "geolocation");

  if (reset && (user_agent != NULL || geolocation != NULL))
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "give either reset or what to emulate, not both");
      return NULL;
    }
  if (!reset && user_agent == NULL && geolocation == NULL)
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "say what to emulate (userAgent, geolocation), or reset: true to undo it");
      return NULL;
    }
  /* Everything is checked before anything changes. */
  if (user_agent != NULL && !check_user_agent (user_agent, error))
    return NULL;
  if (geolocation != NULL && !read_geolocation (view, geolocation, &where, error))
    return NULL;

  settings = webkit_web_view_get_settings (view);
  if (reset || user_agent != NULL)
    {
      /* NULL brings back WebKit's own user agent. */
      webkit_settings_set_user_agent (settings, user_agent);
      g_object_set_data_full (G_OBJECT (view), EMULATED_USER_AGENT_KEY, g_strdup (user_agent), g_free);
    }
  if (reset || geolocation != NULL)
    set_geolocation (view, geolocation != NULL ? &where : NULL);

  result = json_object_new ();
  emulation = tw_tab_emulation_describe (view);
  json_object_set_object_member (result, "emulation", emulation != NULL ? emulation : json_object_new ());
  json_object_set_string_member (result, "userAgent", webkit_settings_get_user_agent (settings));
  json_object_set_boolean_member (result, "reset", reset);
  if (geolocation != NULL && g_object_get_data (G_OBJECT (view), GEOLOCATION_DENIED_KEY) != NULL)
    json_object_set_boolean_member (result, "pageDenied", TRUE);

  return result;
}
