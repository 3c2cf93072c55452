/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-geolocation.h"

#include "tw-error.h"

#define EMULATED_GEOLOCATION_KEY "tw-emulated-geolocation"
#define GEOLOCATION_DENIED_KEY   "tw-geolocation-denied"
#define DEFAULT_ACCURACY_M       10.0
/* How often a watched position is told again, as a device's location
 * service does: a page's new getCurrentPosition() waits for the next one. */
#define POSITION_INTERVAL_MS     500

/* A web context has one geolocation manager for all its views, and it
 * hands one position to every page that watches. So the tabs of a context
 * that emulate a geolocation all emulate the same one (a different one is
 * refused), and the others never get one: their pages are denied the
 * permission. Private tabs have a context of their own (tw-web-context.h),
 * so this is kept per manager. */
#define GEO_KEY "tw-emulated-geolocations"

typedef struct
{
  WebKitGeolocationManager *manager;
  gboolean                  started;
  guint                     interval_id;
  GList                    *views;   /* WebKitWebView *, weak: the ones emulating */
} Geo;

const TwGeolocation *
tw_tab_geolocation_get (WebKitWebView *view)
{
  return g_object_get_data (G_OBJECT (view), EMULATED_GEOLOCATION_KEY);
}

static void
publish_position (Geo *geo)
{
  const TwGeolocation *where;
  WebKitGeolocationPosition *position;

  if (!geo->started)
    return;

  if (geo->views == NULL)
    {
      webkit_geolocation_manager_failed (geo->manager, "No position: this tab emulates no geolocation");
      return;
    }

  where = tw_tab_geolocation_get (geo->views->data);
  position = webkit_geolocation_position_new (where->latitude, where->longitude, where->accuracy);
  /* 0: now. */
  webkit_geolocation_position_set_timestamp (position, 0);
  webkit_geolocation_manager_update_position (geo->manager, position);
  webkit_geolocation_position_free (position);
}

static gboolean
publish_again_cb (gpointer user_data)
{
  publish_position (user_data);
  return G_SOURCE_CONTINUE;
}

/* A page started watching the position: it only can in a tab that was
 * granted the permission, so a tab that emulates one. The person's real
 * position is never looked up. */
static gboolean
geolocation_start_cb (WebKitGeolocationManager   *manager,
                      Geo                        *geo)
{
  geo->started = TRUE;
  publish_position (geo);
  if (geo->interval_id == 0)
    geo->interval_id = g_timeout_add (POSITION_INTERVAL_MS, publish_again_cb, geo);
  return TRUE;
}

static void
geolocation_stop_cb (WebKitGeolocationManager   *manager,
                     Geo                        *geo)
{
  geo->started = FALSE;
  g_clear_handle_id (&geo->interval_id, g_source_remove);
}

static void
emulating_view_gone (gpointer  user_data,
                     GObject  *where_the_object_was)
{
  Geo *geo = user_data;

  geo->views = g_list_remove (geo->views, where_the_object_was);
}

static void
geo_free (Geo *geo)
{
  for (GList *l = geo->views; l != NULL; l = l->next)
    g_object_weak_unref (l->data, emulating_view_gone, geo);
  g_list_free (geo->views);
  g_clear_handle_id (&geo->interval_id, g_source_remove);
  g_free (geo);
}

static Geo *
geo_of (WebKitWebView *view)
{
  WebKitGeolocationManager *manager =
    webkit_web_context_get_geolocation_manager (webkit_web_view_get_context (view));
  Geo *geo = g_object_get_data (G_OBJECT (manager), GEO_KEY);

  if (geo == NULL)
    {
      geo = g_new0 (Geo, 1);
      geo->manager = manager;
      g_object_set_data_full (G_OBJECT (manager), GEO_KEY, geo, (GDestroyNotify) geo_free);
      g_signal_connect (manager, "start", G_CALLBACK (geolocation_start_cb), geo);
      g_signal_connect (manager, "stop", G_CALLBACK (geolocation_stop_cb), geo);
    }
  return geo;
}

void
tw_tab_geolocation_set (WebKitWebView       *view,
                        const TwGeolocation *where)
{
  Geo *geo = geo_of (view);
  gboolean emulating = tw_tab_geolocation_get (view) != NULL;

  if (where != NULL)
    {
      g_object_set_data_full (G_OBJECT (view), EMULATED_GEOLOCATION_KEY,
                              g_memdup2 (where, sizeof *where), g_free);
      if (!emulating)
        {
          geo->views = g_list_prepend (geo->views, view);
          g_object_weak_ref (G_OBJECT (view), emulating_view_gone, geo);
        }
    }
  else if (emulating)
    {
      g_object_set_data (G_OBJECT (view), EMULATED_GEOLOCATION_KEY, NULL);
      geo->views = g_list_remove (geo->views, view);
      g_object_weak_unref (G_OBJECT (view), emulating_view_gone, geo);
    }
  else
    return;

  publish_position (geo);
}

static gboolean
view_permission_request_cb (WebKitWebView           *view,
                            WebKitPermissionRequest *request,
                            gpointer                 user_data)
{
  if (!WEBKIT_IS_GEOLOCATION_PERMISSION_REQUEST (request))
    return FALSE;

  if (tw_tab_geolocation_get (view) != NULL)
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

gboolean
tw_tab_geolocation_read (WebKitWebView  *view,
                         JsonNode       *node,
                         TwGeolocation  *where,
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

  /* One position for every tab of the context that emulates one; see Geo
   * above. */
  for (GList *l = geo_of (view)->views; l != NULL; l = l->next)
    {
      const TwGeolocation *other = tw_tab_geolocation_get (l->data);

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

gboolean
tw_tab_geolocation_was_denied (WebKitWebView *view)
{
  return g_object_get_data (G_OBJECT (view), GEOLOCATION_DENIED_KEY) != NULL;
}

void
tw_tab_geolocation_attach (WebKitWebView *view)
{
  g_return_if_fail (WEBKIT_IS_WEB_VIEW (view));

  /* Watch its context's manager from the start. */
  geo_of (view);

  g_signal_connect (view, "permission-request", G_CALLBACK (view_permission_request_cb), NULL);
  g_signal_connect (view, "load-changed", G_CALLBACK (view_load_changed_cb), NULL);
}
