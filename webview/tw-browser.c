/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-private.h"

#include "tw-activity-log.h"
#include "tw-address.h"
#include "tw-browser-tab-private.h"
#include "tw-error.h"
#include "tw-reclaim.h"

#include <stdlib.h>

enum {
  PROP_0,
  PROP_ENABLED,
  PROP_TOOL_GROUPS,
  PROP_EMULATE_FOCUS,
  PROP_SHARE_TABS,
  PROP_SHARE_PERSON_TABS,
  PROP_TAB_REST_MS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  AGENTS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE_WITH_CODE (TwBrowser, tw_browser, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TW_TYPE_BROWSER_SERVICE,
                                                      tw_browser_init_service_iface))

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
  tw_browser_add_tab (self, new_tab);
}

/* The page knows best what an action's element is called. */
static void
tab_action_updated_cb (TwBrowser    *self,
                       TwTabAction  *action,
                       TwBrowserTab *tab)
{
  if (action->role != NULL && action->call_id > 0)
    tw_activity_log_set_target (self->activity, action->call_id, action->role,
                                action->name != NULL ? action->name : "");
}

/* History: a page a tab committed to is a visit, by the agent whose
 * command was running then, or else by the person. */
static TwBrowserTab *
tab_of_view (TwBrowser     *self,
             WebKitWebView *view)
{
  guint n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));

  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      if (tw_browser_tab_get_view (tab) == view)
        return tab;
    }

  return NULL;
}

static void
view_load_changed_cb (WebKitWebView   *view,
                      WebKitLoadEvent  event,
                      TwBrowser       *self)
{
  TwBrowserTab *tab;
  const char *visitor = TW_HISTORY_PERSON;

  if (event != WEBKIT_LOAD_COMMITTED || (tab = tab_of_view (self, view)) == NULL ||
      tw_browser_tab_get_private (tab))
    return;

  if (tw_browser_tab_get_busy (tab) && tw_browser_tab_get_owner (tab) != NULL)
    visitor = tw_browser_tab_get_owner (tab);

  tw_history_add_visit (tw_browser_get_history (self), webkit_web_view_get_uri (view),
                        webkit_web_view_get_title (view), visitor);
}

static void
tab_title_cb (TwBrowserTab *tab,
              GParamSpec   *pspec,
              TwBrowser    *self)
{
  if (!tw_browser_tab_get_private (tab))
    tw_history_set_title (tw_browser_get_history (self), tw_browser_tab_get_uri (tab),
                          tw_browser_tab_get_title (tab));
}

void
tw_browser_add_tab (TwBrowser    *self,
                    TwBrowserTab *tab)
{
  tw_browser_tab_set_command_timeout (tab, self->command_timeout_ms);
  tw_browser_tab_set_workspace_dir (tab, self->workspace_dir);
  tw_browser_tab_set_emulate_focus (tab, self->emulate_focus);
  tw_browser_tab_set_rest_delay (tab, self->tab_rest_ms);

  /* Only tabs the person has looked at draw with accelerated compositing
   * (tw-browser-tab-drawing.c). */
  tw_browser_tab_set_compositing (tab, self->tab_compositing);

  g_signal_connect_object (tab, "close-requested",
                           G_CALLBACK (tab_close_requested_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tab, "new-tab",
                           G_CALLBACK (tab_new_tab_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tab, "action-updated",
                           G_CALLBACK (tab_action_updated_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (tab, "notify::title", G_CALLBACK (tab_title_cb), self, 0);
  g_signal_connect_object (tw_browser_tab_get_view (tab), "load-changed",
                           G_CALLBACK (view_load_changed_cb), self, 0);
  tw_browser_approvals_watch_tab (self, tab);
  tw_browser_watch_demonstrations (self, tab);

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
  g_autoptr(TwBrowserTab) from = NULL;

  for (guint i = 0; view != NULL && i < n_tabs && browser_id == NULL; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      if (tw_browser_tab_get_view (tab) == view)
        {
          browser_id = tw_browser_tab_get_id (tab);
          from = g_object_ref (tab);
        }
    }

  /* The person's OK comes before the destination is chosen. */
  tw_browser_approvals_watch_download (self, download, from);
  tw_tab_downloads_add (self->downloads, download, browser_id);
}

/* The session of the open private tabs of context @name, if any. Once the
 * last of them closes the name is forgotten: the next tab of that name
 * starts on a new, empty session. */
static WebKitNetworkSession *
find_context_session (TwBrowser  *self,
                      const char *name)
{
  guint n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));

  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      if (!tw_browser_tab_is_closed (tab) &&
          g_strcmp0 (tw_browser_tab_get_context_name (tab), name) == 0)
        return webkit_web_view_get_network_session (tw_browser_tab_get_view (tab));
    }

  return NULL;
}

TwBrowserTab *
tw_browser_create_private_tab (TwBrowser      *self,
                               const TwCaller *caller,
                               const char     *context_name)
{
  WebKitNetworkSession *shared = context_name != NULL ? find_context_session (self, context_name)
                                                      : NULL;
  TwBrowserTab *tab = tw_browser_tab_new_in_context (shared, context_name,
                                                     caller ? caller->agent_id : NULL,
                                                     caller ? caller->agent_name : NULL);
  WebKitWebView *view = tw_browser_tab_get_view (tab);

  /* Its downloads go into the workspace too, once per session. The session
   * goes away with its last view, and the handler with it. */
  if (shared == NULL)
    g_signal_connect_object (webkit_web_view_get_network_session (view), "download-started",
                             G_CALLBACK (download_started_cb), self, 0);

  return tab;
}

/* GObject */

static void
tw_browser_dispose (GObject *object)
{
  TwBrowser *self = TW_BROWSER (object);

  tw_browser_approvals_dispose (self);
  tw_browser_demonstrations_dispose (self);

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
  g_clear_object (&self->history);
  g_clear_weak_pointer (&self->timeline);

  G_OBJECT_CLASS (tw_browser_parent_class)->dispose (object);
}

static void
tw_browser_finalize (GObject *object)
{
  TwBrowser *self = TW_BROWSER (object);

  g_clear_pointer (&self->workspace_dir, g_free);
  g_clear_pointer (&self->tool_groups, g_strfreev);
  g_clear_pointer (&self->person_id, g_free);
  g_clear_pointer (&self->agents, g_ptr_array_unref);
  tw_browser_policy_clear (&self->policy);
  g_clear_pointer (&self->approvals, g_ptr_array_unref);
  g_clear_pointer (&self->marks, tw_agent_marks_free);

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

    case PROP_EMULATE_FOCUS:
      g_value_set_boolean (value, self->emulate_focus);
      break;

    case PROP_TAB_REST_MS:
      g_value_set_uint (value, self->tab_rest_ms);
      break;

    case PROP_SHARE_TABS:
      g_value_set_boolean (value, self->share_tabs);
      break;

    case PROP_SHARE_PERSON_TABS:
      g_value_set_boolean (value, self->share_person_tabs);
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

    case PROP_EMULATE_FOCUS:
      tw_browser_set_emulate_focus (self, g_value_get_boolean (value));
      break;

    case PROP_TAB_REST_MS:
      tw_browser_set_tab_rest_ms (self, g_value_get_uint (value));
      break;

    case PROP_SHARE_TABS:
      tw_browser_set_share_tabs (self, g_value_get_boolean (value));
      break;

    case PROP_SHARE_PERSON_TABS:
      tw_browser_set_share_person_tabs (self, g_value_get_boolean (value));
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

  properties[PROP_EMULATE_FOCUS] =
    g_param_spec_boolean ("emulate-focus", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /* How long a tab in the background stays live after an agent's last
   * command before it may rest; 0 keeps every tab live. */
  properties[PROP_TAB_REST_MS] =
    g_param_spec_uint ("tab-rest-ms", NULL, NULL, 0, G_MAXUINT, TW_BROWSER_DEFAULT_TAB_REST_MS,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SHARE_TABS] =
    g_param_spec_boolean ("share-tabs", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_SHARE_PERSON_TABS] =
    g_param_spec_boolean ("share-person-tabs", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TwBrowser::agents-changed:
   *
   * An agent started or ended (tw_browser_add_agent(),
   * tw_browser_remove_agent()): the running agents, their colours and
   * marks may differ.
   */
  signals[AGENTS_CHANGED] =
    g_signal_new ("agents-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

void
tw_browser_notify_share_tabs (TwBrowser *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHARE_TABS]);
}

void
tw_browser_notify_share_person_tabs (TwBrowser *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHARE_PERSON_TABS]);
}

void
tw_browser_notify_agents (TwBrowser *self)
{
  g_signal_emit (self, signals[AGENTS_CHANGED], 0);
}

static void
tw_browser_init (TwBrowser *self)
{
  /* Before the first tab, so that closing tabs gives their memory back. */
  tw_reclaim_tune_allocator ();

  self->tabs = g_list_store_new (TW_TYPE_BROWSER_TAB);
  self->activity = tw_activity_log_new (TW_ACTIVITY_LOG_DEFAULT_CAPACITY);
  self->downloads = tw_tab_downloads_new ();
  self->command_timeout_ms = TW_BROWSER_TAB_DEFAULT_TIMEOUT_MS;
  self->enabled = TRUE;
  self->emulate_focus = TRUE;
  self->share_person_tabs = TRUE;
  self->tabs_per_process = TW_BROWSER_DEFAULT_TABS_PER_PROCESS;
  self->tab_rest_ms = TW_BROWSER_DEFAULT_TAB_REST_MS;
  /* Tuning for tests and benchmarks: they measure, or wait for, what a
   * person would see only after minutes. */
  if (g_getenv ("TABWRIGHT_TABS_PER_PROCESS") != NULL)
    self->tabs_per_process = MAX (1, atoi (g_getenv ("TABWRIGHT_TABS_PER_PROCESS")));
  if (g_strcmp0 (g_getenv ("TABWRIGHT_TAB_COMPOSITING"), "0") == 0)
    self->tab_compositing = TW_TAB_COMPOSITING_NEVER;
  else if (g_strcmp0 (g_getenv ("TABWRIGHT_TAB_COMPOSITING"), "1") == 0)
    self->tab_compositing = TW_TAB_COMPOSITING_ALWAYS;
  else
    self->tab_compositing = TW_TAB_COMPOSITING_SHOWN;
  if (g_getenv ("TABWRIGHT_TAB_REST_MS") != NULL)
    self->tab_rest_ms = (guint) g_ascii_strtoull (g_getenv ("TABWRIGHT_TAB_REST_MS"), NULL, 10);
  self->agents = g_ptr_array_new_with_free_func ((GDestroyNotify) tw_browser_agent_free);
  self->approvals = g_ptr_array_new_with_free_func (g_object_unref);
  self->marks = tw_agent_marks_new (TW_BROWSER_N_AGENT_COLOURS);
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
  self->spare_source = g_timeout_add_seconds (1, tw_browser_start_spare_view_cb, self);

  return self;
}

WebKitNetworkSession *
tw_browser_get_network_session (TwBrowser *self)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), NULL);

  return self->session;
}

TwHistory *
tw_browser_get_history (TwBrowser *self)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), NULL);

  if (self->history == NULL)
    self->history = tw_history_new (NULL);

  return self->history;
}

void
tw_browser_set_history (TwBrowser *self,
                        TwHistory *history)
{
  g_return_if_fail (TW_IS_BROWSER (self));
  g_return_if_fail (TW_IS_HISTORY (history));

  g_set_object (&self->history, history);
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
  tw_browser_add_tab (self, tab);

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
  tw_browser_add_tab (self, tab);

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
  tw_browser_demonstrations_tab_closed (self, tab);
  g_signal_handlers_disconnect_by_data (tab, self);
  tw_browser_tab_close (tab);
  g_list_store_remove (self->tabs, position);
  tw_reclaim_after_close ();
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

guint
tw_browser_get_tab_rest_ms (TwBrowser *self)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), 0);

  return self->tab_rest_ms;
}

void
tw_browser_set_tab_rest_ms (TwBrowser *self,
                            guint      rest_ms)
{
  guint n_tabs;

  g_return_if_fail (TW_IS_BROWSER (self));

  if (self->tab_rest_ms == rest_ms)
    return;

  self->tab_rest_ms = rest_ms;
  n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));
  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      tw_browser_tab_set_rest_delay (tab, rest_ms);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TAB_REST_MS]);
}

gboolean
tw_browser_get_emulate_focus (TwBrowser *self)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), FALSE);

  return self->emulate_focus;
}

void
tw_browser_set_emulate_focus (TwBrowser *self,
                              gboolean   emulate_focus)
{
  g_return_if_fail (TW_IS_BROWSER (self));

  emulate_focus = !!emulate_focus;
  if (self->emulate_focus == emulate_focus)
    return;

  self->emulate_focus = emulate_focus;
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->tabs)); i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      tw_browser_tab_set_emulate_focus (tab, emulate_focus);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EMULATE_FOCUS]);
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

  /* Tool calls are turned away before they start (tw_tool_call_start());
   * the commands already waiting in the tabs' queues end now, as when the
   * person pauses a tab. */
  if (!enabled)
    {
      g_autoptr(GError) error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DISABLED,
                                                     TW_BROWSER_SERVICE_DISABLED_MESSAGE);

      for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->tabs)); i++)
        {
          g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

          tw_browser_tab_end_queued (tab, error);
        }
    }

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
