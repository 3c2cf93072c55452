/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-load-watch.h"

/* After the address changed, or WebKit stopped loading, without a load
 * that started: wait this long for WebKit to say more before concluding
 * that the step stayed inside the document or did not happen at all. */
#define SAME_DOCUMENT_DELAY_MS 50
/* WebKit decided on a navigation of the page (the policy decision comes
 * before the load starts): its load is expected within this long. The web
 * process may answer other calls meanwhile, a busy machine taking some
 * hundreds of milliseconds between the two. */
#define REQUESTED_START_MS 1000

/* The load signals of a view reach its watches through one set of
 * handlers, connected before any other: "load-failed" stops at the first
 * handler that returns TRUE, as a tab's does to keep WebKit's error page
 * away. */
typedef struct
{
  GList *watches;
} Hub;

static GQuark hub_quark;

struct _TwLoadWatch
{
  WebKitWebView    *view;
  TwLoadWatchFlags  flags;

  gboolean          loading;
  gboolean          committed;
  gboolean          ended;     /* a load ended, and none started since */
  TwLoadEnd         last_end;
  gint64            first_start_us;
  /* A navigation WebKit was asked to decide on, with no load started since
   * (0 for none), and the address it goes to. */
  gint64            requested_us;
  char             *requested_uri;
  GError           *error;
  char             *failing_uri;

  TwLoadStartFunc   start_func;
  gpointer          start_data;

  /* The wait under way, if any. */
  TwLoadEndFunc     end_func;
  gpointer          end_data;
  guint             grace_ms;
  guint             grace_source;
  guint             deadline_source;
};

static void
end_wait (TwLoadWatch *self,
          TwLoadEnd    end)
{
  TwLoadEndFunc func = self->end_func;
  gpointer data = self->end_data;

  tw_load_watch_stop_waiting (self);
  if (func != NULL)
    func (self, end, data);
}

static void
forget_request (TwLoadWatch *self)
{
  self->requested_us = 0;
  g_clear_pointer (&self->requested_uri, g_free);
}

/* How long the load of the navigation WebKit decided on may still take to
 * start; 0 if none is expected. */
static gint64
start_expected_in_us (TwLoadWatch *self)
{
  gint64 left;

  if (self->loading || self->requested_us == 0)
    return 0;
  left = self->requested_us + REQUESTED_START_MS * 1000 - g_get_monotonic_time ();

  return MAX (0, left);
}

static gboolean
grace_cb (gpointer user_data)
{
  TwLoadWatch *self = user_data;

  self->grace_source = 0;

  /* WebKit still loads something this watch has not seen start (the load
   * it replaced, winding down): its next event says more. */
  if (self->loading || webkit_web_view_is_loading (self->view))
    return G_SOURCE_REMOVE;

  /* The navigation decided on started no load in time: refused, or the
   * page's own doing after all. The last load's end still stands. */
  forget_request (self);
  end_wait (self, self->ended ? self->last_end : TW_LOAD_END_NONE);

  return G_SOURCE_REMOVE;
}

static void
arm_grace (TwLoadWatch *self,
           guint        ms)
{
  g_clear_handle_id (&self->grace_source, g_source_remove);
  self->grace_source = g_timeout_add (ms, grace_cb, self);
}

/* Not loading: waits for a load to start, as long as the wait's grace
 * period or the navigation WebKit decided on allow. Returns FALSE when
 * none is expected, and the wait ended. */
static gboolean
wait_for_start (TwLoadWatch *self)
{
  gint64 expected_us = start_expected_in_us (self);

  if (expected_us == 0 && self->grace_ms == 0)
    {
      end_wait (self, TW_LOAD_END_NONE);
      return FALSE;
    }
  arm_grace (self, MAX (self->grace_ms, expected_us / 1000 + 1));

  return TRUE;
}

static void
load_ended (TwLoadWatch *self,
            TwLoadEnd    end)
{
  self->loading = FALSE;
  self->ended = TRUE;
  self->last_end = end;

  if (self->end_func != NULL)
    end_wait (self, end);
}

static void
watch_load_changed (TwLoadWatch     *self,
                    WebKitLoadEvent  event)
{
  switch (event)
    {
    case WEBKIT_LOAD_STARTED:
      self->loading = TRUE;
      self->ended = FALSE;
      forget_request (self);
      g_clear_error (&self->error);
      g_clear_pointer (&self->failing_uri, g_free);
      if (self->first_start_us == 0)
        self->first_start_us = g_get_monotonic_time ();
      g_clear_handle_id (&self->grace_source, g_source_remove);
      if (self->start_func != NULL)
        self->start_func (self, self->start_data);
      break;

    case WEBKIT_LOAD_COMMITTED:
      if (self->loading)
        self->committed = TRUE;
      break;

    case WEBKIT_LOAD_FINISHED:
      /* After a failure WebKit reports the end again: the failure said it. */
      if (self->loading)
        load_ended (self, TW_LOAD_END_LOADED);
      break;

    case WEBKIT_LOAD_REDIRECTED:
    default:
      break;
    }
}

static void
watch_load_failed (TwLoadWatch  *self,
                   const char   *failing_uri,
                   const GError *error)
{
  gboolean cancelled = g_error_matches (error, WEBKIT_NETWORK_ERROR, WEBKIT_NETWORK_ERROR_CANCELLED);

  if ((self->flags & TW_LOAD_WATCH_DOWNLOADS_STAY) != 0 &&
      g_error_matches (error, WEBKIT_POLICY_ERROR,
                       WEBKIT_POLICY_ERROR_FRAME_LOAD_INTERRUPTED_BY_POLICY_CHANGE))
    cancelled = TRUE;

  /* Failures of a load that started before the watch (the one a
   * navigation replaced) are none of its business. */
  if (!self->loading)
    return;

  if (cancelled)
    {
      /* Another navigation (a script, a redirect, the person) took over:
       * follow it if one starts, or settle on the page as it is. */
      self->loading = FALSE;
      if (self->end_func != NULL)
        wait_for_start (self);
      return;
    }

  g_clear_error (&self->error);
  self->error = g_error_copy (error);
  g_free (self->failing_uri);
  self->failing_uri = g_strdup (failing_uri);
  load_ended (self, TW_LOAD_END_FAILED);
}

/* History steps inside one document never report a load: the address
 * change is all there is. After a load that never started, WebKit going
 * idle says the same. */
static void
watch_maybe_same_document (TwLoadWatch *self)
{
  if (self->end_func != NULL && !self->loading && !webkit_web_view_is_loading (self->view))
    arm_grace (self, SAME_DOCUMENT_DELAY_MS);
}

/* WebKit is deciding on a navigation: the page's, or a frame's in it. Its
 * load starts once the decision reaches the web process. */
static void
watch_requested (TwLoadWatch *self,
                 const char  *uri)
{
  if (self->loading)
    return;
  self->requested_us = g_get_monotonic_time ();
  g_free (self->requested_uri);
  self->requested_uri = g_strdup (uri);
}

/* A request went out, the page still not loading: a frame's navigation
 * the watch took for the page's has its document on the way. */
static void
watch_resource_started (TwLoadWatch *self,
                        const char  *uri)
{
  if (self->loading || self->requested_uri == NULL || g_strcmp0 (uri, self->requested_uri) != 0)
    return;
  forget_request (self);
  if (self->end_func != NULL)
    arm_grace (self, SAME_DOCUMENT_DELAY_MS);
}

/* The hub: calls each watch of the view in turn. A watch may free itself,
 * or another, from its callbacks, so each is looked up again first. */

typedef enum { EVENT_CHANGED, EVENT_FAILED, EVENT_ADDRESS, EVENT_REQUESTED, EVENT_RESOURCE } HubEvent;

static void
hub_dispatch (WebKitWebView   *view,
              HubEvent         what,
              WebKitLoadEvent  event,
              const char      *uri,
              const GError    *error)
{
  Hub *hub = g_object_get_qdata (G_OBJECT (view), hub_quark);
  g_autoptr(GPtrArray) watches = g_ptr_array_new ();

  for (GList *l = hub->watches; l != NULL; l = l->next)
    g_ptr_array_add (watches, l->data);

  for (guint i = 0; i < watches->len; i++)
    {
      TwLoadWatch *watch = watches->pdata[i];

      if (g_list_find (hub->watches, watch) == NULL)
        continue;

      switch (what)
        {
        case EVENT_CHANGED:
          watch_load_changed (watch, event);
          break;
        case EVENT_FAILED:
          watch_load_failed (watch, uri, error);
          break;
        case EVENT_ADDRESS:
          watch_maybe_same_document (watch);
          break;
        case EVENT_REQUESTED:
          watch_requested (watch, uri);
          break;
        case EVENT_RESOURCE:
          watch_resource_started (watch, uri);
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

static void
hub_load_changed_cb (WebKitWebView   *view,
                     WebKitLoadEvent  event,
                     gpointer         user_data)
{
  hub_dispatch (view, EVENT_CHANGED, event, NULL, NULL);
}

static gboolean
hub_load_failed_cb (WebKitWebView   *view,
                    WebKitLoadEvent  event,
                    const char      *failing_uri,
                    GError          *error,
                    gpointer         user_data)
{
  hub_dispatch (view, EVENT_FAILED, event, failing_uri, error);

  return FALSE;
}

static gboolean
hub_load_failed_with_tls_errors_cb (WebKitWebView        *view,
                                    const char           *failing_uri,
                                    GTlsCertificate      *certificate,
                                    GTlsCertificateFlags  errors,
                                    gpointer              user_data)
{
  g_autoptr(GError) error = g_error_new (G_TLS_ERROR, G_TLS_ERROR_BAD_CERTIFICATE,
                                         "the TLS certificate of %s is not trusted", failing_uri);

  hub_dispatch (view, EVENT_FAILED, WEBKIT_LOAD_STARTED, failing_uri, error);

  return FALSE;
}

static void
hub_notify_cb (WebKitWebView *view,
               GParamSpec    *pspec,
               gpointer       user_data)
{
  hub_dispatch (view, EVENT_ADDRESS, 0, NULL, NULL);
}

/* Connected before any other handler, which might take the decision. */
static gboolean
hub_decide_policy_cb (WebKitWebView            *view,
                      WebKitPolicyDecision     *decision,
                      WebKitPolicyDecisionType  type,
                      gpointer                  user_data)
{
  WebKitNavigationAction *action;

  if (type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION)
    return FALSE;
  action = webkit_navigation_policy_decision_get_navigation_action (WEBKIT_NAVIGATION_POLICY_DECISION (decision));
  hub_dispatch (view, EVENT_REQUESTED, 0,
                webkit_uri_request_get_uri (webkit_navigation_action_get_request (action)), NULL);

  return FALSE;
}

static void
hub_resource_load_started_cb (WebKitWebView     *view,
                              WebKitWebResource *resource,
                              WebKitURIRequest  *request,
                              gpointer           user_data)
{
  hub_dispatch (view, EVENT_RESOURCE, 0, webkit_uri_request_get_uri (request), NULL);
}

static void
hub_free (Hub *hub)
{
  g_assert (hub->watches == NULL);
  g_free (hub);
}

void
tw_load_watch_attach (WebKitWebView *view)
{
  Hub *hub;

  g_return_if_fail (WEBKIT_IS_WEB_VIEW (view));

  if (hub_quark == 0)
    hub_quark = g_quark_from_static_string ("tw-load-watch-hub");
  if (g_object_get_qdata (G_OBJECT (view), hub_quark) != NULL)
    return;

  hub = g_new0 (Hub, 1);
  g_object_set_qdata_full (G_OBJECT (view), hub_quark, hub, (GDestroyNotify) hub_free);
  g_signal_connect (view, "load-changed", G_CALLBACK (hub_load_changed_cb), NULL);
  g_signal_connect (view, "load-failed", G_CALLBACK (hub_load_failed_cb), NULL);
  g_signal_connect (view, "load-failed-with-tls-errors",
                    G_CALLBACK (hub_load_failed_with_tls_errors_cb), NULL);
  g_signal_connect (view, "notify::uri", G_CALLBACK (hub_notify_cb), NULL);
  g_signal_connect (view, "notify::is-loading", G_CALLBACK (hub_notify_cb), NULL);
  g_signal_connect (view, "decide-policy", G_CALLBACK (hub_decide_policy_cb), NULL);
  g_signal_connect (view, "resource-load-started", G_CALLBACK (hub_resource_load_started_cb), NULL);
}

static gboolean
deadline_cb (gpointer user_data)
{
  TwLoadWatch *self = user_data;

  self->deadline_source = 0;
  end_wait (self, self->loading ? TW_LOAD_END_TIMED_OUT : TW_LOAD_END_NONE);

  return G_SOURCE_REMOVE;
}

TwLoadWatch *
tw_load_watch_new (WebKitWebView    *view,
                   TwLoadWatchFlags  flags)
{
  TwLoadWatch *self;
  Hub *hub;

  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);

  self = g_new0 (TwLoadWatch, 1);
  self->view = g_object_ref (view);
  self->flags = flags;

  tw_load_watch_attach (view);
  hub = g_object_get_qdata (G_OBJECT (view), hub_quark);
  hub->watches = g_list_append (hub->watches, self);

  return self;
}

void
tw_load_watch_free (TwLoadWatch *self)
{
  Hub *hub;

  if (self == NULL)
    return;

  tw_load_watch_stop_waiting (self);
  hub = g_object_get_qdata (G_OBJECT (self->view), hub_quark);
  hub->watches = g_list_remove (hub->watches, self);
  g_clear_object (&self->view);
  g_clear_error (&self->error);
  g_free (self->failing_uri);
  g_free (self->requested_uri);
  g_free (self);
}

void
tw_load_watch_set_start_func (TwLoadWatch     *self,
                              TwLoadStartFunc  func,
                              gpointer         user_data)
{
  self->start_func = func;
  self->start_data = user_data;
}

void
tw_load_watch_assume_loading (TwLoadWatch *self)
{
  self->loading = TRUE;
  self->ended = FALSE;
  if (self->first_start_us == 0)
    self->first_start_us = g_get_monotonic_time ();
}

gboolean
tw_load_watch_is_loading (TwLoadWatch *self)
{
  return self->loading;
}

gboolean
tw_load_watch_is_navigating (TwLoadWatch *self)
{
  return self->loading || start_expected_in_us (self) > 0;
}

gboolean
tw_load_watch_get_committed (TwLoadWatch *self)
{
  return self->committed;
}

gint64
tw_load_watch_get_first_start (TwLoadWatch *self)
{
  return self->first_start_us;
}

const GError *
tw_load_watch_get_error (TwLoadWatch *self)
{
  return self->error;
}

const char *
tw_load_watch_get_failing_uri (TwLoadWatch *self)
{
  return self->failing_uri;
}

void
tw_load_watch_wait (TwLoadWatch   *self,
                    guint          grace_ms,
                    gint64         deadline_us,
                    TwLoadEndFunc  func,
                    gpointer       user_data)
{
  g_return_if_fail (func != NULL);

  tw_load_watch_stop_waiting (self);
  self->end_func = func;
  self->end_data = user_data;
  self->grace_ms = grace_ms;

  if (!self->loading)
    {
      if (self->ended && start_expected_in_us (self) == 0)
        {
          end_wait (self, self->last_end);
          return;
        }
      if (!wait_for_start (self))
        return;
    }

  if (deadline_us > 0)
    {
      gint64 now = g_get_monotonic_time ();

      if (now >= deadline_us)
        {
          end_wait (self, self->loading ? TW_LOAD_END_TIMED_OUT : TW_LOAD_END_NONE);
          return;
        }
      self->deadline_source = g_timeout_add ((deadline_us - now) / 1000 + 1, deadline_cb, self);
    }
}

void
tw_load_watch_stop_waiting (TwLoadWatch *self)
{
  self->end_func = NULL;
  self->end_data = NULL;
  g_clear_handle_id (&self->grace_source, g_source_remove);
  g_clear_handle_id (&self->deadline_source, g_source_remove);
}
