/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser.h"

#include "tw-activity-log.h"
#include "tw-address.h"
#include "tw-browser-tab-private.h"
#include "tw-error.h"
#include "tw-find-in-tabs.h"
#include "tw-read-url.h"
#include "tw-tab-downloads.h"
#include "tw-tab-storage.h"
#include "tw-web-context.h"

struct _TwBrowser
{
  GObject               parent_instance;

  WebKitNetworkSession *session;
  WebKitWebView        *spare_view;
  guint                 spare_source;
  GListStore           *tabs;
  TwActivityLog        *activity;
  TwTabDownloads       *downloads;
  char                 *workspace_dir;
  guint                 command_timeout_ms;
  gboolean              enabled;
  /* The offered tool groups; NULL offers all of them. */
  char                **tool_groups;
  /* browser_find_in_tabs: the tabs' text, made on first use. */
  TwTextIndex          *text_index;
};

enum {
  PROP_0,
  PROP_ENABLED,
  PROP_TOOL_GROUPS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void browser_service_iface_init (TwBrowserServiceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TwBrowser, tw_browser, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TW_TYPE_BROWSER_SERVICE,
                                                      browser_service_iface_init))

static void add_tab (TwBrowser    *self,
                     TwBrowserTab *tab);

static GError *
not_found_error (const char *browser_id)
{
  return g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                      "no tab with browserId “%s” in this workspace; "
                      "call browser_list_tabs to see the open tabs",
                      browser_id);
}

static gboolean
find_tab (TwBrowser    *self,
          TwBrowserTab *tab,
          guint        *position)
{
  return g_list_store_find (self->tabs, tab, position);
}

static void
tab_close_requested_cb (TwBrowser    *self,
                        TwBrowserTab *tab)
{
  tw_browser_close_tab (self, tab);
}

static void
tab_new_tab_cb (TwBrowser    *self,
                TwBrowserTab *new_tab,
                TwBrowserTab *tab)
{
  add_tab (self, new_tab);
}

/* The page knows best what an action's element is called. */
static void
tab_action_updated_cb (TwBrowser    *self,
                       JsonObject   *action,
                       TwBrowserTab *tab)
{
  const char *role = json_object_get_string_member_with_default (action, "role", NULL);
  gint64 call_id = json_object_get_int_member_with_default (action, "callId", 0);

  if (role != NULL && call_id > 0)
    tw_activity_log_set_target (self->activity, (guint64) call_id, role,
                                json_object_get_string_member_with_default (action, "name", ""));
}

static void
add_tab (TwBrowser    *self,
         TwBrowserTab *tab)
{
  tw_browser_tab_set_command_timeout (tab, self->command_timeout_ms);
  tw_browser_tab_set_workspace_dir (tab, self->workspace_dir);

  g_signal_connect_object (tab, "close-requested",
                           G_CALLBACK (tab_close_requested_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tab, "new-tab",
                           G_CALLBACK (tab_new_tab_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tab, "action-updated",
                           G_CALLBACK (tab_action_updated_cb), self, G_CONNECT_SWAPPED);

  g_list_store_append (self->tabs, tab);
}

/* Downloads go into the workspace's downloads/ folder, never the person's
 * own folders, and are reported to the tab whose page started them. */
static void
download_started_cb (WebKitNetworkSession *session,
                     WebKitDownload       *download,
                     TwBrowser            *self)
{
  WebKitWebView *view = webkit_download_get_web_view (download);
  guint n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));
  const char *browser_id = NULL;

  for (guint i = 0; view != NULL && i < n_tabs && browser_id == NULL; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      if (tw_browser_tab_get_view (tab) == view)
        browser_id = tw_browser_tab_get_id (tab);
    }

  tw_tab_downloads_add (self->downloads, download, browser_id);
}

/* TwBrowserService */

typedef struct
{
  GTask      *task;
  JsonObject *reply;
  char       *browser_id;
} DownloadsWait;

static void
downloads_settled_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  DownloadsWait *wait = user_data;
  JsonArray *downloads;

  tw_tab_downloads_settle_finish (TW_TAB_DOWNLOADS (object), result, NULL);
  downloads = tw_tab_downloads_take_unreported (TW_TAB_DOWNLOADS (object), wait->browser_id);
  if (downloads != NULL)
    json_object_set_array_member (wait->reply, "downloads", downloads);

  g_task_return_pointer (wait->task, wait->reply, (GDestroyNotify) json_object_unref);
  g_object_unref (wait->task);
  g_free (wait->browser_id);
  g_free (wait);
}

static void
tab_command_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TwBrowser *self = g_task_get_source_object (task);
  const char *browser_id = tw_browser_tab_get_id (TW_BROWSER_TAB (object));
  GError *error = NULL;
  JsonObject *reply;

  reply = tw_browser_tab_run_finish (TW_BROWSER_TAB (object), result, &error);
  if (reply == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  /* A download the command started is part of its result, once it has
   * arrived (or after a bound, still running). */
  if (tw_tab_downloads_has_unreported (self->downloads, browser_id))
    {
      DownloadsWait *wait = g_new0 (DownloadsWait, 1);

      wait->task = g_steal_pointer (&task);
      wait->reply = reply;
      wait->browser_id = g_strdup (browser_id);
      tw_tab_downloads_settle_async (self->downloads, browser_id, TW_TAB_DOWNLOADS_SETTLE_MS,
                                     NULL, downloads_settled_cb, wait);
      return;
    }

  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

/* Starting a web process (the sandbox, then WebKit in it) takes most of
 * the time a new tab needs. A hidden spare view keeps one started ahead of
 * need: the next new tab shares its process and the spare is dropped, so
 * every tab still ends up with a process of its own. The next spare starts
 * as soon as the main loop is idle again, so that an agent opening tabs one
 * after another finds it (nearly) ready. */
static void
spare_view_terminated_cb (TwBrowser                         *self,
                          WebKitWebProcessTerminationReason  reason,
                          WebKitWebView                     *view)
{
  if (self->spare_view == view)
    {
      g_signal_handlers_disconnect_by_data (view, self);
      /* WebKit still uses the view when this signal returns: dropping the
       * last reference here freed it under WebKit's feet and crashed the
       * app whenever a spare web process died. */
      g_idle_add_once ((GSourceOnceFunc) g_object_unref, g_steal_pointer (&self->spare_view));
    }
}

static void
start_spare_view (TwBrowser *self)
{
  g_clear_handle_id (&self->spare_source, g_source_remove);

  if (self->spare_view != NULL || self->session == NULL)
    return;

  self->spare_view = g_object_new (WEBKIT_TYPE_WEB_VIEW,
                                   "web-context", tw_web_context_get_shared (),
                                   "network-session", self->session,
                                   NULL);
  g_object_ref_sink (self->spare_view);
  g_signal_connect_object (self->spare_view, "web-process-terminated",
                           G_CALLBACK (spare_view_terminated_cb), self, G_CONNECT_SWAPPED);

  /* A view starts its web process with its first load, but not for
   * about:blank, which WebKit answers without one. */
  webkit_web_view_load_html (self->spare_view, "", NULL);
}

static gboolean
start_spare_view_cb (gpointer user_data)
{
  TwBrowser *self = user_data;

  self->spare_source = 0;
  start_spare_view (self);

  return G_SOURCE_REMOVE;
}

static TwBrowserTab *
create_tab (TwBrowser      *self,
            const TwCaller *caller)
{
  g_autoptr(WebKitWebView) spare = g_steal_pointer (&self->spare_view);
  const char *owner_id = caller ? caller->agent_id : NULL;
  const char *owner = caller ? caller->agent_name : NULL;

  if (spare == NULL)
    return tw_browser_tab_new (self->session, owner_id, owner);

  g_signal_handlers_disconnect_by_data (spare, self);

  g_clear_handle_id (&self->spare_source, g_source_remove);
  self->spare_source = g_idle_add (start_spare_view_cb, self);

  return tw_browser_tab_new_related (spare, owner_id, owner);
}

static void
new_tab_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TwBrowserTab *tab = TW_BROWSER_TAB (object);
  GError *error = NULL;
  JsonObject *reply;

  reply = tw_browser_tab_run_finish (tab, result, &error);

  start_spare_view (g_task_get_source_object (task));

  if (reply != NULL)
    {
      g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
      return;
    }

  /* The tab exists even though its first page failed: say so, or the agent
   * could never reach (or close) it. */
  if (!tw_browser_tab_is_closed (tab))
    {
      GError *wrapped = g_error_new (error->domain, error->code,
                                     "%s (tab %s was opened and stays open)",
                                     error->message, tw_browser_tab_get_id (tab));
      g_clear_error (&error);
      error = wrapped;
    }

  g_task_return_error (task, error);
}

static JsonObject *
list_tabs (TwBrowser *self)
{
  JsonObject *reply = json_object_new ();
  JsonArray *tabs = json_array_new ();
  guint n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));

  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      json_array_add_object_element (tabs, tw_browser_tab_describe (tab));
    }

  json_object_set_array_member (reply, "tabs", tabs);

  return reply;
}

/* The page's environment: workspace-wide storage commands. */
static void
cookies_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  JsonObject *reply = tw_tab_storage_cookies_finish (result, &error);

  if (reply == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
storage_state_done_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  JsonObject *reply = tw_tab_storage_state_finish (result, &error);

  if (reply == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static GPtrArray *
tab_views (TwBrowser *self)
{
  GPtrArray *views = g_ptr_array_new_with_free_func (g_object_unref);
  guint n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));

  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      g_ptr_array_add (views, g_object_ref (tw_browser_tab_get_view (tab)));
    }

  return views;
}

static void
read_url_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  JsonObject *reply = tw_read_url_finish (result, &error);

  if (reply == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
find_in_tabs_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  JsonObject *reply = tw_find_in_tabs_finish (result, &error);

  if (reply == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

static void
tw_browser_run_async (TwBrowserService    *service,
                      TwTabCommand         command,
                      const char          *browser_id,
                      JsonObject          *params,
                      const TwCaller      *caller,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  TwBrowser *self = TW_BROWSER (service);
  g_autoptr(GTask) task = NULL;
  TwBrowserTab *tab = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_browser_run_async);

  if (tw_tab_command_targets_tab (command))
    {
      tab = tw_browser_lookup_tab (self, browser_id);
      if (tab == NULL)
        {
          g_task_return_error (task, not_found_error (browser_id));
          return;
        }

      /* The tab strip shows who drives a tab: the last agent that used it. */
      if (caller != NULL && caller->agent_id != NULL && command != TW_TAB_COMMAND_CLOSE_TAB)
        tw_browser_tab_set_owner (tab, caller->agent_id,
                                  caller->agent_name != NULL ? caller->agent_name
                                                             : caller->agent_id);
    }

  switch (command)
    {
    case TW_TAB_COMMAND_LIST_TABS:
      g_task_return_pointer (task, list_tabs (self), (GDestroyNotify) json_object_unref);
      break;

    case TW_TAB_COMMAND_NEW_TAB:
      {
        g_autoptr(JsonObject) load_params = json_object_new ();
        g_autoptr(TwBrowserTab) new_tab = NULL;
        g_autoptr(GError) error = NULL;
        JsonNode *url_node = json_object_get_member (params, "url");
        const char *url = "about:blank";

        if (url_node != NULL && !JSON_NODE_HOLDS_NULL (url_node))
          {
            if (!JSON_NODE_HOLDS_VALUE (url_node) ||
                json_node_get_value_type (url_node) != G_TYPE_STRING)
              {
                g_task_return_new_error (task, TW_BROWSER_ERROR,
                                         TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                         "url must be a string");
                return;
              }

            url = json_node_get_string (url_node);
          }

        /* Refuse before a tab appears, so bad URLs leave nothing behind. */
        if (!tw_address_check_url (url, &error))
          {
            g_task_return_error (task, g_steal_pointer (&error));
            return;
          }

        new_tab = create_tab (self, caller);
        add_tab (self, new_tab);

        json_object_set_string_member (load_params, "url", url);
        tw_browser_tab_run_as_async (new_tab, TW_TAB_COMMAND_NAVIGATE, load_params, caller,
                                     cancellable, new_tab_cb, g_steal_pointer (&task));
      }
      break;

    case TW_TAB_COMMAND_CLOSE_TAB:
      {
        JsonObject *reply = json_object_new ();

        json_object_set_string_member (reply, "browserId", tw_browser_tab_get_id (tab));
        json_object_set_boolean_member (reply, "closed", TRUE);
        tw_browser_close_tab (self, tab);
        g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
      }
      break;

    /* Reading (issue 17): a page fetched without a tab. */
    case TW_TAB_COMMAND_READ_URL:
      tw_read_url_async (self->session, params, cancellable, read_url_cb,
                         g_steal_pointer (&task));
      break;

    case TW_TAB_COMMAND_DOWNLOADS:
      g_task_return_pointer (task, tw_tab_downloads_list (self->downloads),
                             (GDestroyNotify) json_object_unref);
      break;

    case TW_TAB_COMMAND_COOKIES:
      tw_tab_storage_cookies_async (self->session, params, cancellable, cookies_done_cb,
                                    g_steal_pointer (&task));
      break;

    case TW_TAB_COMMAND_STORAGE_STATE:
      {
        g_autoptr(GPtrArray) views = tab_views (self);

        tw_tab_storage_state_async (self->session, views, self->workspace_dir, params,
                                    cancellable, storage_state_done_cb, g_steal_pointer (&task));
      }
      break;

    /* Finding across tabs (issue 17). */
    case TW_TAB_COMMAND_FIND_IN_TABS:
      {
        GError *error = NULL;

        if (self->text_index == NULL && (self->text_index = tw_text_index_new (&error)) == NULL)
          {
            g_task_return_error (task, error);
            return;
          }

        tw_find_in_tabs_async (self->text_index, G_LIST_MODEL (self->tabs), params, cancellable,
                               find_in_tabs_cb, g_steal_pointer (&task));
      }
      break;

    case TW_TAB_COMMAND_LAST:
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "unknown browser command %d", command);
      break;

    /* Everything else happens in the tab, in its queue. */
    default:
      tw_browser_tab_run_as_async (tab, command, params, caller, cancellable,
                                   tab_command_cb, g_steal_pointer (&task));
      break;
    }
}

static JsonObject *
tw_browser_run_finish (TwBrowserService  *service,
                       GAsyncResult      *result,
                       GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, service), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
tw_browser_get_service_enabled (TwBrowserService *service)
{
  return TW_BROWSER (service)->enabled;
}

static gboolean
tw_browser_get_tool_group_enabled (TwBrowserService *service,
                                   const char       *group)
{
  TwBrowser *self = TW_BROWSER (service);

  return self->tool_groups == NULL || g_strv_contains ((const char * const *) self->tool_groups, group);
}

static gboolean
tw_browser_check_tab (TwBrowserService  *service,
                      const char        *browser_id,
                      GError           **error)
{
  TwBrowserTab *tab = tw_browser_lookup_tab (TW_BROWSER (service), browser_id);

  /* Unknown tabs are the command's business: it says browser_not_found. */
  if (tab == NULL || !tw_browser_tab_get_paused (tab))
    return TRUE;

  g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
               TW_BROWSER_TAB_PAUSED_MESSAGE, browser_id);
  return FALSE;
}

static TwActivityLog *
tw_browser_get_service_activity (TwBrowserService *service)
{
  return TW_BROWSER (service)->activity;
}

static void
browser_service_iface_init (TwBrowserServiceInterface *iface)
{
  iface->run_async = tw_browser_run_async;
  iface->run_finish = tw_browser_run_finish;
  iface->get_enabled = tw_browser_get_service_enabled;
  iface->check_tab = tw_browser_check_tab;
  iface->get_activity = tw_browser_get_service_activity;
  iface->get_tool_group_enabled = tw_browser_get_tool_group_enabled;
}

/* GObject */

static void
tw_browser_dispose (GObject *object)
{
  TwBrowser *self = TW_BROWSER (object);

  if (self->tabs != NULL)
    tw_browser_close_all (self);

  g_clear_handle_id (&self->spare_source, g_source_remove);
  if (self->spare_view != NULL)
    g_signal_handlers_disconnect_by_data (self->spare_view, self);
  g_clear_object (&self->spare_view);

  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);

  g_clear_object (&self->tabs);
  g_clear_object (&self->session);
  g_clear_object (&self->activity);
  g_clear_object (&self->downloads);
  g_clear_object (&self->text_index);

  G_OBJECT_CLASS (tw_browser_parent_class)->dispose (object);
}

static void
tw_browser_finalize (GObject *object)
{
  TwBrowser *self = TW_BROWSER (object);

  g_clear_pointer (&self->workspace_dir, g_free);
  g_clear_pointer (&self->tool_groups, g_strfreev);

  G_OBJECT_CLASS (tw_browser_parent_class)->finalize (object);
}

static void
tw_browser_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  TwBrowser *self = TW_BROWSER (object);

  switch (prop_id)
    {
    case PROP_ENABLED:
      g_value_set_boolean (value, self->enabled);
      break;

    case PROP_TOOL_GROUPS:
      g_value_set_boxed (value, self->tool_groups);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_browser_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  TwBrowser *self = TW_BROWSER (object);

  switch (prop_id)
    {
    case PROP_ENABLED:
      tw_browser_set_enabled (self, g_value_get_boolean (value));
      break;

    case PROP_TOOL_GROUPS:
      tw_browser_set_tool_groups (self, g_value_get_boxed (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_browser_class_init (TwBrowserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_browser_dispose;
  object_class->finalize = tw_browser_finalize;
  object_class->get_property = tw_browser_get_property;
  object_class->set_property = tw_browser_set_property;

  properties[PROP_ENABLED] =
    g_param_spec_boolean ("enabled", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_TOOL_GROUPS] =
    g_param_spec_boxed ("tool-groups", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tw_browser_init (TwBrowser *self)
{
  self->tabs = g_list_store_new (TW_TYPE_BROWSER_TAB);
  self->activity = tw_activity_log_new (TW_ACTIVITY_LOG_DEFAULT_CAPACITY);
  self->downloads = tw_tab_downloads_new ();
  self->command_timeout_ms = TW_BROWSER_TAB_DEFAULT_TIMEOUT_MS;
  self->enabled = TRUE;
}

TwBrowser *
tw_browser_new (const char *data_dir,
                const char *cache_dir)
{
  TwBrowser *self = g_object_new (TW_TYPE_BROWSER, NULL);

  if (data_dir != NULL)
    {
      g_autofree char *cookies = g_build_filename (data_dir, "cookies.sqlite", NULL);
      WebKitCookieManager *cookie_manager;

      self->session = webkit_network_session_new (data_dir, cache_dir);

      /* Sessions keep cookies in memory unless told where to store them. */
      cookie_manager = webkit_network_session_get_cookie_manager (self->session);
      webkit_cookie_manager_set_persistent_storage (cookie_manager, cookies,
                                                    WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE);
    }
  else
    {
      self->session = webkit_network_session_new_ephemeral ();
    }

  g_signal_connect (self->session, "download-started", G_CALLBACK (download_started_cb), self);

  /* The first tab should not wait for a web process either; start one when
   * the app has settled after its start. */
  self->spare_source = g_timeout_add_seconds (1, start_spare_view_cb, self);

  return self;
}

WebKitNetworkSession *
tw_browser_get_network_session (TwBrowser *self)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), NULL);

  return self->session;
}

TwActivityLog *
tw_browser_get_activity (TwBrowser *self)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), NULL);

  return self->activity;
}

GListModel *
tw_browser_get_tabs (TwBrowser *self)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), NULL);

  return G_LIST_MODEL (self->tabs);
}

TwBrowserTab *
tw_browser_open_tab (TwBrowser  *self,
                     const char *uri)
{
  g_autoptr(TwBrowserTab) tab = NULL;

  g_return_val_if_fail (TW_IS_BROWSER (self), NULL);

  tab = tw_browser_tab_new (self->session, NULL, NULL);
  add_tab (self, tab);

  if (uri == NULL || !tw_browser_tab_load_uri (tab, uri, NULL))
    webkit_web_view_load_uri (tw_browser_tab_get_view (tab), "about:blank");

  return tab;
}

TwBrowserTab *
tw_browser_restore_tab (TwBrowser  *self,
                        const char *uri,
                        const char *title)
{
  g_autoptr(TwBrowserTab) tab = NULL;

  g_return_val_if_fail (TW_IS_BROWSER (self), NULL);
  g_return_val_if_fail (uri != NULL, NULL);

  if (!tw_address_check_url (uri, NULL))
    return NULL;

  tab = tw_browser_tab_new (self->session, NULL, NULL);
  tw_browser_tab_defer_load (tab, uri, title);
  add_tab (self, tab);

  return tab;
}

TwBrowserTab *
tw_browser_lookup_tab (TwBrowser  *self,
                       const char *browser_id)
{
  guint n_tabs;

  g_return_val_if_fail (TW_IS_BROWSER (self), NULL);

  if (browser_id == NULL)
    return NULL;

  n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));
  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      if (g_str_equal (tw_browser_tab_get_id (tab), browser_id))
        return tab;
    }

  return NULL;
}

void
tw_browser_close_tab (TwBrowser    *self,
                      TwBrowserTab *tab)
{
  g_autoptr(TwBrowserTab) hold = NULL;
  guint position;

  g_return_if_fail (TW_IS_BROWSER (self));
  g_return_if_fail (TW_IS_BROWSER_TAB (tab));

  if (!find_tab (self, tab, &position))
    return;

  hold = g_object_ref (tab);
  g_signal_handlers_disconnect_by_data (tab, self);
  tw_browser_tab_close (tab);
  g_list_store_remove (self->tabs, position);
}

void
tw_browser_close_all (TwBrowser *self)
{
  g_return_if_fail (TW_IS_BROWSER (self));

  while (g_list_model_get_n_items (G_LIST_MODEL (self->tabs)) > 0)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), 0);

      tw_browser_close_tab (self, tab);
    }
}

void
tw_browser_set_workspace_dir (TwBrowser  *self,
                              const char *workspace_dir)
{
  guint n_tabs;

  g_return_if_fail (TW_IS_BROWSER (self));

  g_free (self->workspace_dir);
  self->workspace_dir = g_strdup (workspace_dir);
  tw_tab_downloads_set_workspace_dir (self->downloads, workspace_dir);

  n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));
  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      tw_browser_tab_set_workspace_dir (tab, self->workspace_dir);
    }
}

void
tw_browser_set_command_timeout (TwBrowser *self,
                                guint      timeout_ms)
{
  guint n_tabs;

  g_return_if_fail (TW_IS_BROWSER (self));
  g_return_if_fail (timeout_ms > 0);

  self->command_timeout_ms = timeout_ms;

  n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));
  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      tw_browser_tab_set_command_timeout (tab, self->command_timeout_ms);
    }
}

gboolean
tw_browser_get_enabled (TwBrowser *self)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), FALSE);

  return self->enabled;
}

void
tw_browser_set_enabled (TwBrowser *self,
                        gboolean   enabled)
{
  g_return_if_fail (TW_IS_BROWSER (self));

  enabled = !!enabled;
  if (self->enabled == enabled)
    return;

  self->enabled = enabled;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ENABLED]);
}

const char * const *
tw_browser_get_tool_groups (TwBrowser *self)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), NULL);

  return (const char * const *) self->tool_groups;
}

static gboolean
same_groups (const char * const *a,
             const char * const *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  for (guint i = 0; a[i] != NULL; i++)
    if (!g_strv_contains (b, a[i]))
      return FALSE;
  for (guint i = 0; b[i] != NULL; i++)
    if (!g_strv_contains (a, b[i]))
      return FALSE;

  return TRUE;
}

void
tw_browser_set_tool_groups (TwBrowser          *self,
                            const char * const *groups)
{
  g_return_if_fail (TW_IS_BROWSER (self));

  if (same_groups ((const char * const *) self->tool_groups, groups))
    return;

  g_strfreev (self->tool_groups);
  self->tool_groups = g_strdupv ((char **) groups);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOL_GROUPS]);
  tw_browser_service_emit_tools_changed (TW_BROWSER_SERVICE (self));
}
