/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-private.h"

#include "tw-address.h"
#include "tw-browser-tab-private.h"
#include "tw-error.h"
#include "tw-find-in-tabs.h"
#include "tw-history-search.h"
#include "tw-json.h"
#include "tw-read-url.h"
#include "tw-tab-downloads.h"
#include "tw-tab-storage.h"

/* TwBrowserService: the commands of the browser's tools. The browser runs
 * the workspace-wide ones itself and hands the others to their tab, whose
 * queue runs them. */

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

  tw_browser_start_spare_view (g_task_get_source_object (task));

  if (reply != NULL)
    {
      if (tw_browser_tab_get_private (tab))
        json_object_set_boolean_member (reply, "private", TRUE);
      if (tw_browser_tab_get_context_name (tab) != NULL)
        json_object_set_string_member (reply, "context", tw_browser_tab_get_context_name (tab));
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

/* The caller of a tab command stays valid until its task finishes. */
typedef struct
{
  GTask          *task;
  TwBrowserTab   *tab;
  JsonObject     *params;
  const TwCaller *caller;
  GCancellable   *cancellable;
} NewTabLoad;

static void
new_tab_limited_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  NewTabLoad *load = user_data;
  GError *error = NULL;

  if (!tw_browser_limit_tab_sites_finish (TW_BROWSER (object), result, &error))
    {
      /* Never load a page that might reach what it should not. */
      tw_browser_close_tab (TW_BROWSER (object), load->tab);
      g_task_return_error (load->task, error);
      g_object_unref (load->task);
    }
  else
    {
      tw_browser_tab_run_as_async (load->tab, TW_TAB_COMMAND_NAVIGATE, load->params, load->caller,
                                   load->cancellable, new_tab_cb, load->task);
    }

  g_object_unref (load->tab);
  json_object_unref (load->params);
  g_clear_object (&load->cancellable);
  g_free (load);
}

#define CONTEXT_NAME_MAX_CHARS 64

static gboolean
check_context_name (const char *name)
{
  glong n_chars;

  if (!g_utf8_validate (name, -1, NULL))
    return FALSE;

  n_chars = g_utf8_strlen (name, -1);
  if (n_chars < 1 || n_chars > CONTEXT_NAME_MAX_CHARS)
    return FALSE;

  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_iscntrl (g_utf8_get_char (p)))
      return FALSE;

  return TRUE;
}

static JsonObject *
list_tabs (TwBrowser      *self,
           const TwCaller *caller)
{
  JsonObject *reply = json_object_new ();
  JsonArray *tabs = json_array_new ();
  guint n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));

  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      JsonObject *item = tw_browser_tab_describe (tab);

      /* An agent does not know the name it goes by: its own tabs say so. */
      if (caller != NULL && caller->agent_id != NULL &&
          g_strcmp0 (caller->agent_id, tw_browser_tab_get_owner_id (tab)) == 0)
        json_object_set_boolean_member (item, "yours", TRUE);
      json_array_add_object_element (tabs, item);
    }

  json_object_set_array_member (reply, "tabs", tabs);

  return reply;
}

/* Commands the browser runs outside any tab's queue (reading a URL, finding
 * across tabs, the storage of a session) finish alike: with their own
 * finish function, and a reply about the session of a tab names the tab. */

typedef JsonObject *(*ReplyFinishFunc) (GAsyncResult  *result,
                                        GError       **error);

typedef struct
{
  ReplyFinishFunc  finish;
  char            *browser_id;
} ReplyData;

static void
reply_data_free (gpointer data)
{
  ReplyData *reply_data = data;

  g_free (reply_data->browser_id);
  g_free (reply_data);
}

/* Returns @task, which reply_done_cb() finishes with @finish. */
static GTask *
expect_reply (GTask           *task,
              ReplyFinishFunc  finish,
              const char      *browser_id)
{
  ReplyData *data = g_new0 (ReplyData, 1);

  data->finish = finish;
  data->browser_id = g_strdup (browser_id);
  g_task_set_task_data (task, data, reply_data_free);

  return task;
}

static void
reply_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ReplyData *data = g_task_get_task_data (task);
  GError *error = NULL;
  JsonObject *reply = data->finish (result, &error);

  if (reply == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (data->browser_id != NULL)
    json_object_set_string_member (reply, "browserId", data->browser_id);
  g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
}

/* The tabs @caller may use (issue 32): finding across tabs reads no other
 * agent's pages. */
static GListModel *
usable_tabs (TwBrowser      *self,
             const TwCaller *caller)
{
  GListStore *usable = g_list_store_new (TW_TYPE_BROWSER_TAB);
  guint n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));

  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      if (tw_browser_check_tab_access (self, tab, caller, NULL))
        g_list_store_append (usable, tab);
    }

  return G_LIST_MODEL (usable);
}

/* The views of the tabs on @session: their pages' localStorage is that
 * session's. */
static GPtrArray *
tab_views (TwBrowser            *self,
           WebKitNetworkSession *session)
{
  GPtrArray *views = g_ptr_array_new_with_free_func (g_object_unref);
  guint n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));

  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);
      WebKitWebView *view = tw_browser_tab_get_view (tab);

      if (webkit_web_view_get_network_session (view) == session)
        g_ptr_array_add (views, g_object_ref (view));
    }

  return views;
}

static void
tw_browser_run_async (TwBrowserService       *service,
                      const TwServiceRequest *request,
                      GCancellable           *cancellable,
                      GAsyncReadyCallback     callback,
                      gpointer                user_data)
{
  TwBrowser *self = TW_BROWSER (service);
  g_autoptr(GTask) task = NULL;
  TwBrowserTab *tab = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_browser_run_async);

  if (tw_tab_command_targets_tab (request->command))
    {
      GError *error = NULL;

      /* The one place agents are kept to their own tabs (issue 32).
       * Sharing checks on its own: only the owner gives a tab away, so
       * the tab is looked up as for the app itself (no caller). */
      tab = tw_browser_lookup_usable_tab (self, request->browser_id,
                                          request->command != TW_TAB_COMMAND_SHARE_TAB
                                          ? request->caller : NULL,
                                          &error);
      if (tab == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
    }

  /* The sites the caller may reach (issue 32): refused before anything
   * loads. */
  {
    GError *error = NULL;

    if (!tw_browser_check_sites (self, request, &error))
      {
        g_task_return_error (task, error);
        return;
      }
  }

  switch (request->command)
    {
    case TW_TAB_COMMAND_LIST_TABS:
      g_task_return_pointer (task, list_tabs (self, request->caller),
                             (GDestroyNotify) json_object_unref);
      break;

    case TW_TAB_COMMAND_SHARE_TAB:
      {
        GError *error = NULL;
        JsonObject *reply = tw_browser_share_tab (self, tab, request->params, request->caller,
                                                  &error);

        if (reply != NULL)
          g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
        else
          g_task_return_error (task, error);
      }
      break;

    case TW_TAB_COMMAND_NEW_TAB:
      {
        g_autoptr(JsonObject) load_params = json_object_new ();
        g_autoptr(TwBrowserTab) new_tab = NULL;
        g_autoptr(GError) error = NULL;
        const char *url = tw_json_get_string_arg (request->params, "url", &error);
        const char *context_name = NULL;
        g_autofree char *caller_context = NULL;
        JsonNode *private_node = json_object_get_member (request->params, "private");
        gboolean private_given = private_node != NULL && !JSON_NODE_HOLDS_NULL (private_node);
        gboolean private_tab = FALSE;

        if (url == NULL)
          url = "about:blank";

        if (error == NULL)
          tw_json_get_boolean_arg (request->params, "private", &private_tab, &error);
        if (error == NULL)
          context_name = tw_json_get_string_arg (request->params, "context", &error);

        /* A named private context: the private tabs of one name share a
         * session. A name alone asks for a private tab. */
        if (error == NULL && context_name != NULL)
          {
            if (!check_context_name (context_name))
              error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "context must be a name of 1 to %d characters, "
                                   "without control characters, e.g. \"checkout\"",
                                   CONTEXT_NAME_MAX_CHARS);
            else if (private_given && !private_tab)
              error = g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                           "context names a private context: leave out "
                                           "private: false, or leave out context");
            else
              private_tab = TRUE;
          }

        /* An agent on a session of its own opens its tabs there: they
         * share its cookies and storage, and no other tab sees them. */
        if (error == NULL && !private_given && context_name == NULL &&
            (caller_context = tw_browser_dup_caller_context (self, request->caller)) != NULL)
          {
            private_tab = TRUE;
            context_name = caller_context;
          }

        /* Refuse before a tab appears, so bad arguments and URLs leave
         * nothing behind. */
        if (error != NULL || !tw_address_check_url (url, &error))
          {
            g_task_return_error (task, g_steal_pointer (&error));
            return;
          }

        new_tab = private_tab ? tw_browser_create_private_tab (self, request->caller, context_name)
                              : tw_browser_create_tab (self, request->caller);
        tw_browser_add_tab (self, new_tab);

        /* The first page loads only once the tab keeps to the agent's
         * sites, so that none of it comes from elsewhere. */
        json_object_set_string_member (load_params, "url", url);
        {
          NewTabLoad *load = g_new0 (NewTabLoad, 1);

          load->task = g_steal_pointer (&task);
          load->tab = g_object_ref (new_tab);
          load->params = json_object_ref (load_params);
          load->caller = request->caller;
          load->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
          tw_browser_limit_tab_sites_async (self, new_tab, new_tab_limited_cb, load);
        }
      }
      break;

    /* Reading (issue 17): a page fetched without a tab. */
    case TW_TAB_COMMAND_READ_URL:
      tw_read_url_async (self->session, request->params, cancellable, reply_done_cb,
                         expect_reply (g_steal_pointer (&task), tw_read_url_finish, NULL));
      break;

    case TW_TAB_COMMAND_DOWNLOADS:
      g_task_return_pointer (task, tw_tab_downloads_list (self->downloads),
                             (GDestroyNotify) json_object_unref);
      break;

    case TW_TAB_COMMAND_COOKIES:
    case TW_TAB_COMMAND_STORAGE_STATE:
      {
        WebKitNetworkSession *session = self->session;
        g_autoptr(GPtrArray) views = NULL;
        const char *session_tab = NULL;

        /* A browserId names the tab whose session to use; without one it
         * is the workspace's, which all its other tabs share. */
        if (request->browser_id != NULL)
          {
            GError *error = NULL;
            TwBrowserTab *owner = tw_browser_lookup_usable_tab (self, request->browser_id,
                                                                request->caller, &error);

            if (owner == NULL)
              {
                g_task_return_error (task, error);
                return;
              }

            session = webkit_web_view_get_network_session (tw_browser_tab_get_view (owner));
            session_tab = request->browser_id;
          }

        if (request->command == TW_TAB_COMMAND_COOKIES)
          {
            tw_tab_storage_cookies_async (session, request->params, cancellable, reply_done_cb,
                                          expect_reply (g_steal_pointer (&task),
                                                        tw_tab_storage_cookies_finish,
                                                        session_tab));
            break;
          }

        views = tab_views (self, session);
        tw_tab_storage_state_async (session, views, self->workspace_dir, request->params,
                                    cancellable, reply_done_cb,
                                    expect_reply (g_steal_pointer (&task),
                                                  tw_tab_storage_state_finish, session_tab));
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

        g_autoptr(GListModel) usable = usable_tabs (self, request->caller);

        tw_find_in_tabs_async (self->text_index, usable, request->params, cancellable,
                               reply_done_cb,
                               expect_reply (g_steal_pointer (&task), tw_find_in_tabs_finish, NULL));
      }
      break;

    /* History and bookmarks (issue 31). */
    case TW_TAB_COMMAND_HISTORY:
      tw_history_search_command_async (tw_browser_get_history (self), request->params, cancellable,
                                       reply_done_cb,
                                       expect_reply (g_steal_pointer (&task),
                                                     tw_history_search_command_finish, NULL));
      break;

    /* Replay (issue 33). */
    case TW_TAB_COMMAND_REPLAY:
    case TW_TAB_COMMAND_SAVE_FLOW:
      tw_browser_run_flow_command (self, request, g_steal_pointer (&task));
      break;

    /* Teach (issue 33): what the person demonstrates in the tab. It waits
     * beside the tab's queue, which goes on running the agent's calls. */
    case TW_TAB_COMMAND_DEMONSTRATION:
      tw_browser_wait_demonstration (self, tab, request, g_steal_pointer (&task));
      break;

    case TW_TAB_COMMAND_EXPORT_SESSION:
      tw_browser_run_export_command (self, request, g_steal_pointer (&task));
      break;

    case TW_TAB_COMMAND_LAST:
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "unknown browser command %d", request->command);
      break;

    /* Everything else happens in the tab, in its queue. */
    default:
      tw_browser_tab_run_as_async (tab, request->command, request->params, request->caller,
                                   cancellable, tab_command_cb, g_steal_pointer (&task));
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

static TwActivityLog *
tw_browser_get_service_activity (TwBrowserService *service)
{
  return TW_BROWSER (service)->activity;
}

void
tw_browser_init_service_iface (TwBrowserServiceInterface *iface)
{
  iface->run_async = tw_browser_run_async;
  iface->run_finish = tw_browser_run_finish;
  iface->get_enabled = tw_browser_get_service_enabled;
  iface->get_activity = tw_browser_get_service_activity;
  iface->get_tool_group_enabled = tw_browser_get_tool_group_enabled;
  tw_browser_approvals_init_iface (iface);
}
