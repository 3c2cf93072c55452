/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-emulation.h"

#include "tw-error.h"
#include "tw-filter-store.h"
#include "tw-json.h"
#include "tw-script.h"
#include "tw-tab-geolocation.h"
#include "tw-page-tools.h"

#include <string.h>

#define EMULATED_USER_AGENT_KEY  "tw-emulated-user-agent"
#define PAGE_STATE_KEY           "tw-emulated-page-state"
#define PAGE_SCRIPT_RESOURCE     "/io/github/tabwright/Tabwright/page-world/emulation.js"
#define MEDIA_SCRIPT_RESOURCE    "/io/github/tabwright/Tabwright/page-world/media.js"
/* Every request of the tab's pages to the network: documents, frames,
 * subresources, fetch, XMLHttpRequest, beacons and WebSockets. data:, blob:
 * and about: need none and still load. */
#define OFFLINE_FILTER_ID        "tabwright-offline-1"
#define OFFLINE_RULES \
  "[{\"trigger\": {\"url-filter\": \"^https?://\"}, \"action\": {\"type\": \"block\"}}," \
  " {\"trigger\": {\"url-filter\": \"^wss?://\"}, \"action\": {\"type\": \"block\"}}]"
#define MAX_USER_AGENT_LENGTH    1000

/* Devices: a viewport, the user agent of that device's browser (WebKit's
 * own, Safari's, so the engine a site detects is the one it gets) and
 * touch support as scripts detect it. */
typedef struct
{
  const char *name;
  int         width;
  int         height;
  const char *user_agent;
} Device;

static const Device devices[] = {
  { "phone", 390, 844,
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1" },
  { "tablet", 820, 1180,
    "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1" },
};

/* The media features a tab may answer for its pages (page-world/media.js),
 * each a browser_emulate parameter with its values. WebKitGTK answers the
 * first three for the whole display and has no print media type for a
 * view, so the page's world answers them: see tw-tab-emulation.h. */
typedef struct
{
  const char *name;
  const char *values[3];
} MediaFeature;

static const MediaFeature media_features[] = {
  { "colorScheme", { "light", "dark", NULL } },
  { "reducedMotion", { "reduce", "no-preference", NULL } },
  { "forcedColors", { "active", "none", NULL } },
  { "media", { "print", "screen", NULL } },
};

#define N_MEDIA_FEATURES G_N_ELEMENTS (media_features)

/* What a tab emulates in its pages' own world and its network: offline
 * and a device. The tab's content manager (its own, see tw-browser-tab.c)
 * carries a user script with this state (webview/page-world/emulation.js)
 * while any of it is on, and, while offline, a content filter that blocks
 * every network request, compiled once for all tabs. */
typedef struct
{
  gboolean          offline;
  const Device     *device;
  /* What the user script and the filter carry now. */
  gboolean          page_offline;
  gboolean          page_touch;
  /* The viewport override the device replaced; 0 × 0: none. */
  int               saved_width;
  int               saved_height;
  WebKitUserScript *script;
  /* Media features: values of media_features, NULL for the display's. */
  const char       *media[N_MEDIA_FEATURES];
  WebKitUserScript *media_script;
} PageState;

static struct
{
  WebKitUserContentFilter      *filter;
  GPtrArray                    *waiting;   /* GTask *: applies waiting for the filter */
  GError                       *error;     /* why it could not be compiled */
} offline;

static void
page_state_free (PageState *state)
{
  g_clear_pointer (&state->script, webkit_user_script_unref);
  g_clear_pointer (&state->media_script, webkit_user_script_unref);
  g_free (state);
}

static PageState *
page_state (WebKitWebView *view)
{
  PageState *state = g_object_get_data (G_OBJECT (view), PAGE_STATE_KEY);

  if (state == NULL)
    {
      state = g_new0 (PageState, 1);
      g_object_set_data_full (G_OBJECT (view), PAGE_STATE_KEY, state, (GDestroyNotify) page_state_free);
    }
  return state;
}

gboolean
tw_tab_emulation_is_offline (WebKitWebView *view)
{
  PageState *state;

  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), FALSE);

  state = g_object_get_data (G_OBJECT (view), PAGE_STATE_KEY);
  return state != NULL && state->offline;
}

static gboolean
emulates_media (PageState *state)
{
  for (gsize i = 0; i < N_MEDIA_FEATURES; i++)
    {
      if (state->media[i] != NULL)
        return TRUE;
    }
  return FALSE;
}

JsonObject *
tw_tab_emulation_describe (WebKitWebView *view)
{
  const char *user_agent;
  const TwGeolocation *where;
  PageState *state;
  JsonObject *object;

  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);

  user_agent = g_object_get_data (G_OBJECT (view), EMULATED_USER_AGENT_KEY);
  where = tw_tab_geolocation_get (view);
  state = g_object_get_data (G_OBJECT (view), PAGE_STATE_KEY);
  if (user_agent == NULL && where == NULL &&
      (state == NULL || (!state->offline && state->device == NULL && !emulates_media (state))))
    return NULL;

  object = json_object_new ();
  if (state != NULL && state->device != NULL)
    json_object_set_string_member (object, "device", state->device->name);
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
  if (state != NULL && state->offline)
    json_object_set_boolean_member (object, "offline", TRUE);
  for (gsize i = 0; state != NULL && i < N_MEDIA_FEATURES; i++)
    {
      if (state->media[i] != NULL)
        json_object_set_string_member (object, media_features[i].name, state->media[i]);
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

/* The steps of an apply take the task's reference and pass it on. */
typedef struct
{
  JsonObject    *params;
  WebKitWebView *view;
  TwViewFrame   *frame;
  TwPageRuntime *runtime;
  const char    *user_agent;
  JsonNode      *geolocation;
  TwGeolocation  where;
  int            offline;        /* -1: not given */
  gboolean       device_given;
  const Device  *device;         /* NULL with device_given: "desktop" */
  gboolean       reset;
  const char    *media[N_MEDIA_FEATURES];   /* given: values of media_features */
  gboolean       media_given;
  JsonObject    *viewport;       /* what the page measured after the device's */
  JsonObject    *page;           /* what emulation.js said after */
  JsonObject    *page_media;     /* what media.js said after */
} Apply;

static void
apply_free (Apply *apply)
{
  json_object_unref (apply->params);
  g_object_unref (apply->view);
  g_object_unref (apply->frame);
  g_object_unref (apply->runtime);
  g_clear_pointer (&apply->viewport, json_object_unref);
  g_clear_pointer (&apply->page, json_object_unref);
  g_clear_pointer (&apply->page_media, json_object_unref);
  g_free (apply);
}

static void
finish_apply (GTask *task)
{
  Apply *apply = g_task_get_task_data (task);
  WebKitWebView *view = apply->view;
  WebKitSettings *settings = webkit_web_view_get_settings (view);
  JsonObject *result = json_object_new ();
  JsonObject *emulation = tw_tab_emulation_describe (view);

  json_object_set_object_member (result, "emulation", emulation != NULL ? emulation : json_object_new ());
  json_object_set_string_member (result, "userAgent", webkit_settings_get_user_agent (settings));
  json_object_set_boolean_member (result, "reset", apply->reset);
  if (apply->geolocation != NULL && tw_tab_geolocation_was_denied (view))
    json_object_set_boolean_member (result, "pageDenied", TRUE);
  if (apply->offline >= 0 || apply->reset)
    json_object_set_boolean_member (result, "offline", tw_tab_emulation_is_offline (view));
  if (apply->viewport != NULL)
    json_object_set_object_member (result, "viewport", json_object_ref (apply->viewport));
  if (apply->page != NULL)
    {
      JsonNode *on_line = json_object_get_member (apply->page, "onLine");
      JsonNode *touch_points = json_object_get_member (apply->page, "maxTouchPoints");

      if (on_line != NULL && JSON_NODE_HOLDS_VALUE (on_line) && json_node_get_value_type (on_line) == G_TYPE_BOOLEAN)
        json_object_set_boolean_member (result, "pageOnLine", json_node_get_boolean (on_line));
      if (touch_points != NULL && JSON_NODE_HOLDS_VALUE (touch_points) &&
          json_node_get_value_type (touch_points) == G_TYPE_INT64)
        json_object_set_int_member (result, "pageMaxTouchPoints", json_node_get_int (touch_points));
    }
  if (apply->page_media != NULL)
    json_object_set_object_member (result, "pageMedia", json_object_ref (apply->page_media));

  g_task_return_pointer (task, result, (GDestroyNotify) json_object_unref);
  g_object_unref (task);
}

/* What a page-world script answered, or NULL. A page that is gone or
 * loading still gets the user script; the result only says what the page
 * said when it could be asked. */
static JsonObject *
evaluated_object (GObject      *object,
                  GAsyncResult *result)
{
  g_autoptr(JSCValue) value = NULL;
  g_autofree char *json = NULL;
  g_autoptr(JsonNode) node = NULL;

  value = webkit_web_view_evaluate_javascript_finish (WEBKIT_WEB_VIEW (object), result, NULL);
  if (value == NULL || !jsc_value_is_object (value))
    return NULL;
  json = jsc_value_to_json (value, 0);
  node = json != NULL ? json_from_string (json, NULL) : NULL;
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_object_ref (json_node_get_object (node));
}

/* Every document of the tab starts with media.js and the tab's media
 * state: with nothing emulated it only keeps the MediaQueryLists the page
 * makes, so that an emulation set later reaches them too. */
static void
set_media_script (WebKitWebView *view,
                  PageState     *state,
                  const char    *state_json)
{
  tw_script_set_page_world_start (webkit_web_view_get_user_content_manager (view),
                                  &state->media_script, MEDIA_SCRIPT_RESOURCE, state_json);
}

static void
media_evaluated_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GTask *task = user_data;
  Apply *apply = g_task_get_task_data (task);

  apply->page_media = evaluated_object (object, result);
  /* Empty: the page shown could not be asked. */
  if (apply->page_media == NULL)
    apply->page_media = json_object_new ();
  finish_apply (task);
}

/* The media features, in the pages' own world. */
static void
set_media_state (GTask *task)
{
  Apply *apply = g_task_get_task_data (task);
  WebKitWebView *view = apply->view;
  PageState *state = page_state (view);
  gboolean changed = FALSE;
  g_autoptr(GString) state_json = g_string_new ("{");
  g_autofree char *script = NULL;

  for (gsize i = 0; i < N_MEDIA_FEATURES; i++)
    {
      const char *value = apply->reset ? NULL : apply->media[i] != NULL ? apply->media[i] : state->media[i];

      changed |= value != state->media[i];
      state->media[i] = value;
      /* Names and values come from media_features: nothing to escape. */
      g_string_append_printf (state_json, "%s\"%s\": ", i > 0 ? ", " : "", media_features[i].name);
      if (value != NULL)
        g_string_append_printf (state_json, "\"%s\"", value);
      else
        g_string_append (state_json, "null");
    }
  g_string_append_c (state_json, '}');

  if (!changed && !apply->media_given)
    {
      finish_apply (task);
      return;
    }

  set_media_script (view, state, state_json->str);

  /* The page shown answers at once, and its queries fire change. */
  script = tw_script_page_world_call (MEDIA_SCRIPT_RESOURCE, state_json->str, TRUE);
  webkit_web_view_evaluate_javascript (view, script, -1, NULL, "tabwright-media.js",
                                       g_task_get_cancellable (task), media_evaluated_cb, task);
}

static void
page_evaluated_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = user_data;
  Apply *apply = g_task_get_task_data (task);

  apply->page = evaluated_object (object, result);
  set_media_state (task);
}

/* Offline and touch, in the network and the pages. */
static void
set_page_state (GTask *task)
{
  Apply *apply = g_task_get_task_data (task);
  WebKitWebView *view = apply->view;
  WebKitUserContentManager *manager = webkit_web_view_get_user_content_manager (view);
  PageState *state = page_state (view);
  g_autofree char *state_json = NULL;
  g_autofree char *script = NULL;

  if (apply->reset)
    state->offline = FALSE;
  else if (apply->offline >= 0)
    state->offline = apply->offline;

  if (state->offline == state->page_offline && (state->device != NULL) == state->page_touch)
    {
      set_media_state (task);
      return;
    }

  if (state->offline && !state->page_offline)
    webkit_user_content_manager_add_filter (manager, offline.filter);
  else if (!state->offline && state->page_offline)
    webkit_user_content_manager_remove_filter_by_id (manager, OFFLINE_FILTER_ID);
  state->page_offline = state->offline;
  state->page_touch = state->device != NULL;

  state_json = g_strdup_printf ("{\"offline\": %s, \"touch\": %s}", state->offline ? "true" : "false",
                                state->device != NULL ? "true" : "false");
  tw_script_set_page_world_start (manager, &state->script, PAGE_SCRIPT_RESOURCE,
                                  state->offline || state->device != NULL ? state_json : NULL);

  /* The page shown learns it now, with the events a browser fires. */
  script = tw_script_page_world_call (PAGE_SCRIPT_RESOURCE, state_json, TRUE);
  webkit_web_view_evaluate_javascript (view, script, -1, NULL, "tabwright-emulation.js",
                                       g_task_get_cancellable (task), page_evaluated_cb, task);
}

static void
device_resized_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = user_data;
  Apply *apply = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  apply->viewport = g_task_propagate_pointer (G_TASK (result), &error);
  if (apply->viewport == NULL)
    {
      /* The user agent, position and viewport are set; only the page did
       * not confirm its new size in time. The rest still applies. */
      g_debug ("The device's viewport was not confirmed: %s", error->message);
    }
  set_page_state (task);
}

/* The device's viewport, then the page state. */
static void
set_device (GTask *task)
{
  Apply *apply = g_task_get_task_data (task);
  WebKitWebView *view = apply->view;
  PageState *state = page_state (view);
  const Device *before = state->device;
  const Device *after = apply->reset ? NULL : apply->device_given ? apply->device : before;
  g_autoptr(JsonObject) size = NULL;
  g_autoptr(GTask) resize_task = NULL;
  TwTabJob resize = { .view = view, .frame = apply->frame, .runtime = apply->runtime };

  if (after == before)
    {
      set_page_state (task);
      return;
    }

  if (before == NULL)
    {
      /* Kept to give back when the device goes. */
      if (!tw_view_frame_get_viewport_size (apply->frame, &state->saved_width, &state->saved_height))
        state->saved_width = state->saved_height = 0;
    }
  state->device = after;

  /* Back to filling the frame: there is no size to wait for. */
  if (after == NULL && state->saved_width == 0)
    {
      tw_view_frame_set_viewport_size (apply->frame, 0, 0, NULL);
      set_page_state (task);
      return;
    }

  size = json_object_new ();
  json_object_set_int_member (size, "width", after != NULL ? after->width : state->saved_width);
  json_object_set_int_member (size, "height", after != NULL ? after->height : state->saved_height);
  resize.params = size;
  resize_task = g_task_new (NULL, g_task_get_cancellable (task), device_resized_cb, task);
  tw_page_tools_resize_run (&resize, resize_task);
}

/* Everything was checked: it all changes now. */
static void
commit_apply (GTask *task)
{
  Apply *apply = g_task_get_task_data (task);
  WebKitWebView *view = apply->view;
  WebKitSettings *settings = webkit_web_view_get_settings (view);
  const char *user_agent = apply->user_agent;

  if (user_agent == NULL && apply->device_given && apply->device != NULL)
    user_agent = apply->device->user_agent;
  if (apply->reset || user_agent != NULL || apply->device_given)
    {
      /* NULL brings back WebKit's own user agent. */
      webkit_settings_set_user_agent (settings, user_agent);
      g_object_set_data_full (G_OBJECT (view), EMULATED_USER_AGENT_KEY, g_strdup (user_agent), g_free);
    }
  if (apply->reset || apply->geolocation != NULL)
    tw_tab_geolocation_set (view, apply->geolocation != NULL ? &apply->where : NULL);

  set_device (task);
}

static void
filter_saved_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GPtrArray) waiting = g_steal_pointer (&offline.waiting);
  g_autoptr(GError) error = NULL;

  offline.filter = webkit_user_content_filter_store_save_finish (WEBKIT_USER_CONTENT_FILTER_STORE (object),
                                                                 result, &error);
  if (offline.filter == NULL)
    {
      g_warning ("Cannot compile the offline content filter: %s", error->message);
      offline.error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                   "WebKit could not compile the filter that takes a tab offline: %s",
                                   error->message);
    }

  for (guint i = 0; i < waiting->len; i++)
    {
      GTask *task = waiting->pdata[i];

      /* A call that gave up meanwhile changes nothing. */
      if (g_task_return_error_if_cancelled (task))
        continue;
      if (offline.filter != NULL)
        commit_apply (g_object_ref (task));
      else
        g_task_return_error (task, g_error_copy (offline.error));
    }
}

/* Compiles the offline filter the first time a tab goes offline; @task
 * goes on once it is there. */
static void
with_offline_filter (GTask *task)
{
  if (offline.filter != NULL)
    {
      commit_apply (task);
      return;
    }
  if (offline.error != NULL)
    {
      g_task_return_error (task, g_error_copy (offline.error));
      g_object_unref (task);
      return;
    }

  if (offline.waiting == NULL)
    {
      g_autoptr(GBytes) rules = g_bytes_new_static (OFFLINE_RULES, strlen (OFFLINE_RULES));

      offline.waiting = g_ptr_array_new_with_free_func (g_object_unref);
      webkit_user_content_filter_store_save (tw_filter_store_get_default (), OFFLINE_FILTER_ID, rules,
                                             NULL, filter_saved_cb, NULL);
    }
  g_ptr_array_add (offline.waiting, task);
}

static gboolean
read_media (JsonObject  *params,
            Apply       *apply,
            GError     **error)
{
  for (gsize i = 0; i < N_MEDIA_FEATURES; i++)
    {
      const MediaFeature *feature = &media_features[i];
      JsonNode *node = json_object_get_member (params, feature->name);
      const char *value = NULL;

      if (node == NULL)
        continue;
      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        value = json_node_get_string (node);
      for (gsize j = 0; value != NULL && feature->values[j] != NULL; j++)
        {
          if (g_str_equal (value, feature->values[j]))
            apply->media[i] = feature->values[j];
        }
      if (apply->media[i] == NULL)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "%s must be \"%s\" or \"%s\"", feature->name, feature->values[0], feature->values[1]);
          return FALSE;
        }
      apply->media_given = TRUE;
    }
  return TRUE;
}

static gboolean
read_device (JsonNode      *node,
             Apply         *apply,
             GError       **error)
{
  const char *name = NULL;

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    name = json_node_get_string (node);

  apply->device_given = TRUE;
  if (g_strcmp0 (name, "desktop") == 0)
    return TRUE;
  for (gsize i = 0; i < G_N_ELEMENTS (devices); i++)
    {
      if (g_strcmp0 (name, devices[i].name) == 0)
        {
          apply->device = &devices[i];
          return TRUE;
        }
    }

  g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "device must be \"phone\", \"tablet\" or \"desktop\"");
  return FALSE;
}

void
tw_tab_emulation_apply_run (const TwTabJob *job,
                            GTask          *task)
{
  JsonObject *params = job->params;
  g_autoptr(GError) error = NULL;
  JsonNode *node;
  Apply *apply;

  g_return_if_fail (TW_IS_VIEW_FRAME (job->frame));
  g_return_if_fail (TW_IS_PAGE_RUNTIME (job->runtime));
  g_return_if_fail (params != NULL);

  apply = g_new0 (Apply, 1);
  apply->params = json_object_ref (params);
  apply->view = g_object_ref (job->view);
  apply->frame = g_object_ref (job->frame);
  apply->runtime = g_object_ref (job->runtime);
  apply->offline = -1;
  g_task_set_task_data (task, apply, (GDestroyNotify) apply_free);

  apply->reset = json_object_get_boolean_member_with_default (params, "reset", FALSE);
  apply->user_agent = tw_json_get_string_arg (params, "userAgent", &error);
  apply->geolocation = json_object_get_member (params, "geolocation");
  node = json_object_get_member (params, "device");
  if (error != NULL || !tw_json_get_boolean_arg (params, "offline", &apply->offline, &error) ||
      (node != NULL && !read_device (node, apply, &error)) || !read_media (params, apply, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (apply->reset && (apply->user_agent != NULL || apply->geolocation != NULL || apply->offline >= 0 ||
                       apply->device_given || apply->media_given))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "give either reset or what to emulate, not both");
      return;
    }
  if (!apply->reset && apply->user_agent == NULL && apply->geolocation == NULL && apply->offline < 0 &&
      !apply->device_given && !apply->media_given)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "say what to emulate (device, userAgent, geolocation, offline, colorScheme, "
                               "reducedMotion, forcedColors, media), or reset: true to undo it");
      return;
    }
  /* Everything is checked before anything changes. */
  if ((apply->user_agent != NULL && !check_user_agent (apply->user_agent, &error)) ||
      (apply->geolocation != NULL && !tw_tab_geolocation_read (job->view, apply->geolocation, &apply->where, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (apply->offline > 0)
    with_offline_filter (g_object_ref (task));
  else
    commit_apply (g_object_ref (task));
}

void
tw_tab_emulation_attach (WebKitWebView *view)
{
  g_return_if_fail (WEBKIT_IS_WEB_VIEW (view));

  set_media_script (view, page_state (view),
                    "{\"colorScheme\": null, \"reducedMotion\": null, \"forcedColors\": null, \"media\": null}");

  tw_tab_geolocation_attach (view);
}
