/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab.h"
#include "tw-browser-tab-parts.h"

#include "tw-address.h"
#include "tw-error.h"
#include "tw-tab-emulation.h"
#include "tw-web-context.h"

GParamSpec *_tw_browser_tab_properties[N_PROPS];
guint _tw_browser_tab_signals[N_SIGNALS];

/* Ids are never reused while the process runs, so an agent holding the id of
 * a closed tab gets browser_not_found instead of someone else's tab. */
static guint next_tab_number = 1;

G_DEFINE_FINAL_TYPE (TwBrowserTab, tw_browser_tab, G_TYPE_OBJECT)

void
_tw_browser_tab_set_title (TwBrowserTab *self,
                           const char   *title)
{
  if (title == NULL)
    title = "";

  if (g_strcmp0 (self->title, title) == 0)
    return;

  g_free (self->title);
  self->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_TITLE]);
}

void
_tw_browser_tab_set_load_error (TwBrowserTab *self,
                                const char   *uri,
                                const char   *message)
{
  if (g_strcmp0 (self->load_error, message) == 0 && g_strcmp0 (self->load_error_uri, uri) == 0)
    return;

  g_free (self->load_error);
  g_free (self->load_error_uri);
  self->load_error = g_strdup (message);
  self->load_error_uri = g_strdup (uri);
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_LOAD_ERROR]);
}

void
_tw_browser_tab_set_wake_loading (TwBrowserTab *self,
                                  gboolean      wake_loading)
{
  if (self->wake_loading == wake_loading)
    return;

  self->wake_loading = wake_loading;
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_LOADING]);
}

void
_tw_browser_tab_update_focus (TwBrowserTab *self)
{
  /* The person's own tabs, and an agent's tab while the person has it
   * (paused, or doing what a handoff asks), see the real focus. */
  gboolean driven = self->owner_id != NULL && !self->paused && self->handoff.task == NULL &&
                    self->annotate.task == NULL &&
                    !self->closed && !self->no_focus_emulation;

  if (self->focus != NULL)
    tw_tab_focus_set_emulated (self->focus, driven);
}

void
_tw_browser_tab_set_unresponsive (TwBrowserTab *self,
                                  gboolean      unresponsive)
{
  if (self->unresponsive == !!unresponsive)
    return;

  self->unresponsive = !!unresponsive;
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_UNRESPONSIVE]);
}

/* GObject */

static void
tw_browser_tab_dispose (GObject *object)
{
  TwBrowserTab *self = TW_BROWSER_TAB (object);

  if (!self->closed)
    tw_browser_tab_close (self);

  g_clear_object (&self->focus);
  g_clear_object (&self->runtime);
  g_clear_object (&self->log);
  g_clear_object (&self->frame);
  g_clear_object (&self->view);
  g_queue_clear_full (&self->dialogs, (GDestroyNotify) _tw_tab_dialog_free);

  G_OBJECT_CLASS (tw_browser_tab_parent_class)->dispose (object);
}

static void
tw_browser_tab_finalize (GObject *object)
{
  TwBrowserTab *self = TW_BROWSER_TAB (object);

  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->owner_id, g_free);
  g_clear_pointer (&self->owner, g_free);
  g_clear_pointer (&self->context_name, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->workspace_dir, g_free);
  g_clear_pointer (&self->load_error, g_free);
  g_clear_pointer (&self->load_error_uri, g_free);
  g_clear_pointer (&self->deferred_uri, g_free);
  _tw_browser_tab_clear_person_asks (self);
  g_clear_pointer (&self->annotation_waiting, json_object_unref);
  _tw_browser_tab_clear_demonstration (self);
  g_clear_object (&self->approval);
  g_clear_pointer (&self->dialog_prompt_text, g_free);
  g_clear_pointer (&self->process_tabs, g_ptr_array_unref);
  g_clear_pointer (&self->crashed_with, g_free);

  G_OBJECT_CLASS (tw_browser_tab_parent_class)->finalize (object);
}

static void
tw_browser_tab_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  TwBrowserTab *self = TW_BROWSER_TAB (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;

    case PROP_URI:
      g_value_set_string (value, tw_browser_tab_get_uri (self));
      break;

    case PROP_TITLE:
      g_value_set_string (value, tw_browser_tab_get_title (self));
      break;

    case PROP_LOADING:
      g_value_set_boolean (value, tw_browser_tab_get_loading (self));
      break;

    case PROP_PROGRESS:
      g_value_set_double (value, tw_browser_tab_get_progress (self));
      break;

    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, self->can_go_back);
      break;

    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, self->can_go_forward);
      break;

    case PROP_OWNER:
      g_value_set_string (value, self->owner);
      break;

    case PROP_OWNER_ID:
      g_value_set_string (value, self->owner_id);
      break;

    case PROP_CRASHED:
      g_value_set_boolean (value, self->crashed);
      break;

    case PROP_UNRESPONSIVE:
      g_value_set_boolean (value, self->unresponsive);
      break;

    case PROP_LOAD_ERROR:
      g_value_set_string (value, self->load_error);
      break;

    case PROP_PAUSED:
      g_value_set_boolean (value, self->paused);
      break;

    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;

    case PROP_HANDOFF_MESSAGE:
      g_value_set_string (value, self->handoff.message);
      break;

    case PROP_ANNOTATE_MESSAGE:
      g_value_set_string (value, self->annotate.message);
      break;

    case PROP_DEMONSTRATING:
      g_value_set_boolean (value, self->demonstrating);
      break;

    case PROP_DEMONSTRATED_STEPS:
      g_value_set_uint (value, tw_browser_tab_get_n_demonstrated_steps (self));
      break;

    case PROP_DEMONSTRATE_MESSAGE:
      g_value_set_string (value, self->demonstrate_message);
      break;

    case PROP_SHARED:
      g_value_set_boolean (value, self->shared);
      break;

    case PROP_APPROVAL:
      g_value_set_object (value, self->approval);
      break;

    case PROP_RESTING:
      g_value_set_boolean (value, self->resting);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_browser_tab_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  TwBrowserTab *self = TW_BROWSER_TAB (object);

  switch (prop_id)
    {
    case PROP_PAUSED:
      tw_browser_tab_set_paused (self, g_value_get_boolean (value));
      break;

    case PROP_SHARED:
      tw_browser_tab_set_shared (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_browser_tab_class_init (TwBrowserTabClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_browser_tab_dispose;
  object_class->finalize = tw_browser_tab_finalize;
  object_class->get_property = tw_browser_tab_get_property;
  object_class->set_property = tw_browser_tab_set_property;

  _tw_browser_tab_properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  _tw_browser_tab_properties[PROP_URI] =
    g_param_spec_string ("uri", NULL, NULL, "",
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, "",
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_CAN_GO_BACK] =
    g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_CAN_GO_FORWARD] =
    g_param_spec_boolean ("can-go-forward", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_OWNER] =
    g_param_spec_string ("owner", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_OWNER_ID] =
    g_param_spec_string ("owner-id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_CRASHED] =
    g_param_spec_boolean ("crashed", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* The page's web process does not answer: a script never yields (an
   * endless loop, a stream of dialogs). browser_reload and
   * browser_navigate end it. */
  _tw_browser_tab_properties[PROP_UNRESPONSIVE] =
    g_param_spec_boolean ("unresponsive", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  _tw_browser_tab_properties[PROP_LOAD_ERROR] =
    g_param_spec_string ("load-error", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  _tw_browser_tab_properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_HANDOFF_MESSAGE] =
    g_param_spec_string ("handoff-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_ANNOTATE_MESSAGE] =
    g_param_spec_string ("annotate-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* See tw_browser_tab_start_demonstration(). */
  _tw_browser_tab_properties[PROP_DEMONSTRATING] =
    g_param_spec_boolean ("demonstrating", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_DEMONSTRATED_STEPS] =
    g_param_spec_uint ("demonstrated-steps", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_DEMONSTRATE_MESSAGE] =
    g_param_spec_string ("demonstrate-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_SHARED] =
    g_param_spec_boolean ("shared", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  _tw_browser_tab_properties[PROP_APPROVAL] =
    g_param_spec_object ("approval", NULL, NULL, TW_TYPE_APPROVAL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /* See tw_browser_tab_get_resting(). */
  _tw_browser_tab_properties[PROP_RESTING] =
    g_param_spec_boolean ("resting", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, _tw_browser_tab_properties);

  /**
   * TwBrowserTab::action-started:
   * @action: (type TwTabAction): the action
   *
   * An agent's action is about to start.
   */
  _tw_browser_tab_signals[ACTION_STARTED] =
    g_signal_new ("action-started",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, TW_TYPE_TAB_ACTION | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TwBrowserTab::action-updated:
   * @action: the action, with what is known now of its element
   */
  _tw_browser_tab_signals[ACTION_UPDATED] =
    g_signal_new ("action-updated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, TW_TYPE_TAB_ACTION | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TwBrowserTab::action-finished:
   * @action: the action, with how it went
   */
  _tw_browser_tab_signals[ACTION_FINISHED] =
    g_signal_new ("action-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, TW_TYPE_TAB_ACTION | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * TwBrowserTab::script-dialog:
   * @type: a #TwDialogType
   * @message: what the page said
   *
   * The page opened a dialog, which the tab already answered.
   */
  _tw_browser_tab_signals[SCRIPT_DIALOG] =
    g_signal_new ("script-dialog",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_STRING);

  /**
   * TwBrowserTab::close-requested:
   *
   * The page called window.close().
   */
  _tw_browser_tab_signals[CLOSE_REQUESTED] =
    g_signal_new ("close-requested",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  /* TwBrowserTab::demonstration-ended:
   * @demonstration: (type gpointer): the TwDemonstration, for the browser
   *
   * The person stopped or discarded a demonstration. */
  _tw_browser_tab_signals[DEMONSTRATION_ENDED] =
    g_signal_new ("demonstration-ended",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_POINTER);

  /**
   * TwBrowserTab::new-tab:
   * @tab: the new #TwBrowserTab
   *
   * The page opened a window (window.open(), a target=_blank link). Its
   * browser must adopt @tab, or it goes away when the handler returns.
   */
  _tw_browser_tab_signals[NEW_TAB] =
    g_signal_new ("new-tab",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, TW_TYPE_BROWSER_TAB);
}

static void
tw_browser_tab_init (TwBrowserTab *self)
{
  self->id = g_strdup_printf ("b%u", next_tab_number++);
  self->command_timeout_ms = TW_BROWSER_TAB_DEFAULT_TIMEOUT_MS;
  g_queue_init (&self->dialogs);
  g_queue_init (&self->pending);
  _tw_browser_tab_init_person_asks (self);
}

TwBrowserTab *
_tw_browser_tab_new_internal (WebKitNetworkSession *session,
                              WebKitWebView        *related_view,
                              gboolean              private_session,
                              const char           *owner_id,
                              const char           *owner)
{
  g_autoptr(WebKitUserContentManager) content_manager = NULL;
  g_autoptr(WebKitSettings) settings = NULL;
  TwBrowserTab *self;

  g_assert (session != NULL || related_view != NULL);

  self = g_object_new (TW_TYPE_BROWSER_TAB, NULL);
  self->owner_id = g_strdup (owner_id);
  self->owner = g_strdup (owner);
  self->private_session = private_session;

  /* A tab starts without accelerated compositing, until the person looks
   * at it (tw-browser-tab-drawing.c). */
  settings = webkit_settings_new_with_settings ("enable-developer-extras", TRUE,
                                                "hardware-acceleration-policy",
                                                WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER,
                                                NULL);

  /* Every tab gets a content manager of its own, because the in-page runtime
   * installs per-tab scripts and message handlers into it. */
  content_manager = webkit_user_content_manager_new ();

  /* Related views (popups) share the web context, session and process of
   * the view that opened them. Private tabs have a context of their own,
   * whose web processes report the console WebKit does not report from
   * ephemeral sessions (tw-web-context.h). */
  if (related_view != NULL)
    self->view = g_object_new (WEBKIT_TYPE_WEB_VIEW,
                               "related-view", related_view,
                               "user-content-manager", content_manager,
                               "settings", settings,
                               NULL);
  else
    self->view = g_object_new (WEBKIT_TYPE_WEB_VIEW,
                               "web-context", private_session ? tw_web_context_get_private ()
                                                              : tw_web_context_get_shared (),
                               "network-session", session,
                               "user-content-manager", content_manager,
                               "settings", settings,
                               NULL);
  g_object_ref_sink (self->view);

  /* The frame sizes the view even while no window shows it, so background
   * tabs lay out, paint and answer screenshots like visible ones. */
  self->frame = g_object_ref_sink (tw_view_frame_new (self->view));

  self->log = tw_tab_log_new (TW_TAB_LOG_DEFAULT_CAPACITY);
  tw_tab_log_attach (self->log, self->view);

  gtk_widget_set_hexpand (GTK_WIDGET (self->view), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->view), TRUE);

  self->runtime = tw_page_runtime_new (self->view);
  tw_tab_emulation_attach (self->view);
  self->focus = tw_tab_focus_new (self->view);
  _tw_browser_tab_update_focus (self);

  _tw_browser_tab_init_load (self);
  _tw_browser_tab_init_dialogs (self);
  _tw_browser_tab_init_demonstration (self);

  return self;
}

TwBrowserTab *
tw_browser_tab_new (WebKitNetworkSession *session,
                    const char           *owner_id,
                    const char           *owner)
{
  g_return_val_if_fail (WEBKIT_IS_NETWORK_SESSION (session), NULL);

  return _tw_browser_tab_new_internal (session, NULL, FALSE, owner_id, owner);
}

TwBrowserTab *
tw_browser_tab_new_private (const char *owner_id,
                            const char *owner)
{
  return tw_browser_tab_new_in_context (NULL, NULL, owner_id, owner);
}

TwBrowserTab *
tw_browser_tab_new_in_context (WebKitNetworkSession *session,
                               const char           *context_name,
                               const char           *owner_id,
                               const char           *owner)
{
  g_autoptr(WebKitNetworkSession) own = NULL;
  TwBrowserTab *self;

  g_return_val_if_fail (session == NULL || WEBKIT_IS_NETWORK_SESSION (session), NULL);
  g_return_val_if_fail (session == NULL || webkit_network_session_is_ephemeral (session), NULL);

  if (session == NULL)
    session = own = webkit_network_session_new_ephemeral ();

  self = _tw_browser_tab_new_internal (session, NULL, TRUE, owner_id, owner);
  self->context_name = g_strdup (context_name);

  return self;
}

const char *
tw_browser_tab_get_context_name (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->context_name;
}

gboolean
tw_browser_tab_get_private (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->private_session;
}

TwBrowserTab *
tw_browser_tab_new_related (WebKitWebView *related_view,
                            const char    *owner_id,
                            const char    *owner)
{
  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (related_view), NULL);

  return _tw_browser_tab_new_internal (NULL, related_view, FALSE, owner_id, owner);
}

void
tw_browser_tab_set_command_timeout (TwBrowserTab *self,
                                    guint         timeout_ms)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));
  g_return_if_fail (timeout_ms > 0);

  self->command_timeout_ms = timeout_ms;
}

const char *
tw_browser_tab_get_id (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->id;
}

WebKitWebView *
tw_browser_tab_get_view (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->view;
}

TwViewFrame *
tw_browser_tab_get_frame (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->frame;
}

TwTabLog *
tw_browser_tab_get_log (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->log;
}

void
tw_browser_tab_set_workspace_dir (TwBrowserTab *self,
                                  const char   *workspace_dir)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (self->workspace_dir != workspace_dir)
    {
      g_free (self->workspace_dir);
      self->workspace_dir = g_strdup (workspace_dir);
    }
}

TwPageRuntime *
tw_browser_tab_get_runtime (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->runtime;
}

const char *
tw_browser_tab_get_uri (TwBrowserTab *self)
{
  const char *uri;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  if (self->deferred_uri != NULL)
    return self->deferred_uri;

  uri = self->view ? webkit_web_view_get_uri (self->view) : NULL;

  return uri ? uri : "";
}

const char *
tw_browser_tab_get_title (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->title ? self->title : "";
}

gboolean
tw_browser_tab_get_loading (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->view != NULL && (self->wake_loading || webkit_web_view_is_loading (self->view));
}

double
tw_browser_tab_get_progress (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), 0.0);

  return self->view ? webkit_web_view_get_estimated_load_progress (self->view) : 0.0;
}

gboolean
tw_browser_tab_get_can_go_back (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->can_go_back;
}

gboolean
tw_browser_tab_get_can_go_forward (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->can_go_forward;
}

gboolean
tw_browser_tab_get_unresponsive (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->unresponsive;
}

gboolean
tw_browser_tab_get_crashed (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->crashed;
}

const char *
tw_browser_tab_get_load_error (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->load_error;
}

const char *
tw_browser_tab_get_load_error_uri (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->load_error_uri;
}

gboolean
tw_browser_tab_load_uri (TwBrowserTab  *self,
                         const char    *uri,
                         GError       **error)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);
  g_return_val_if_fail (uri != NULL, FALSE);

  if (self->closed)
    return TRUE;

  if (!tw_address_check_url (uri, error))
    return FALSE;

  g_clear_pointer (&self->deferred_uri, g_free);
  webkit_web_view_load_uri (self->view, uri);

  return TRUE;
}

void
tw_browser_tab_defer_load (TwBrowserTab *self,
                           const char   *uri,
                           const char   *title)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));
  g_return_if_fail (uri != NULL);

  if (self->closed)
    return;

  g_free (self->deferred_uri);
  self->deferred_uri = g_strdup (uri);
  _tw_browser_tab_set_title (self, title);
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_URI]);
}

gboolean
tw_browser_tab_get_deferred (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->deferred_uri != NULL;
}

void
tw_browser_tab_wake (TwBrowserTab *self)
{
  g_autofree char *uri = NULL;

  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  /* A command waiting its turn wakes the tab itself, and waits for it. */
  if (self->deferred_uri == NULL || self->closed || self->active != NULL ||
      !g_queue_is_empty (&self->pending))
    return;

  uri = g_steal_pointer (&self->deferred_uri);
  _tw_browser_tab_set_wake_loading (self, TRUE);
  webkit_web_view_load_uri (self->view, uri);
}

void
tw_browser_tab_go_back (TwBrowserTab *self)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (!self->closed && webkit_web_view_can_go_back (self->view))
    webkit_web_view_go_back (self->view);
}

void
tw_browser_tab_go_forward (TwBrowserTab *self)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (!self->closed && webkit_web_view_can_go_forward (self->view))
    webkit_web_view_go_forward (self->view);
}

void
tw_browser_tab_reload (TwBrowserTab *self)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (self->closed)
    return;

  if (self->deferred_uri != NULL)
    tw_browser_tab_wake (self);
  else
    webkit_web_view_reload (self->view);
}

void
tw_browser_tab_stop (TwBrowserTab *self)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (!self->closed)
    webkit_web_view_stop_loading (self->view);
}

void
tw_browser_tab_close (TwBrowserTab *self)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  if (self->closed)
    return;

  self->closed = TRUE;
  g_clear_handle_id (&self->rest_source, g_source_remove);
  g_clear_handle_id (&self->look_source, g_source_remove);
  if (self->process_tabs != NULL)
    g_ptr_array_remove (self->process_tabs, self);

  error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                       "tab %s was closed", self->id);
  _tw_browser_tab_fail_all_commands (self, error);
  if (self->demonstrating)
    tw_browser_tab_discard_demonstration (self);

  if (self->view != NULL)
    {
      /* Nothing of the page may run on once its tab is gone, even while the
       * UI still holds the widget for a moment. A process other open tabs
       * still use stays: the page alone goes, replaced by a blank one. */
      g_signal_handlers_disconnect_by_data (self->view, self);
      g_signal_handlers_disconnect_by_data (webkit_web_view_get_back_forward_list (self->view),
                                            self);
      if (tw_browser_tab_get_process_tabs (self) == 0)
        webkit_web_view_terminate_web_process (self->view);
      else if (!self->crashed)
        webkit_web_view_load_uri (self->view, "about:blank");
    }
}

gboolean
tw_browser_tab_get_emulate_focus (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return !self->no_focus_emulation;
}

void
tw_browser_tab_set_emulate_focus (TwBrowserTab *self,
                                  gboolean      emulate_focus)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  self->no_focus_emulation = !emulate_focus;
  _tw_browser_tab_update_focus (self);
}

gboolean
tw_browser_tab_get_paused (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->paused;
}

void
tw_browser_tab_set_paused (TwBrowserTab *self,
                           gboolean      paused)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TW_IS_BROWSER_TAB (self));

  paused = !!paused;
  if (self->paused == paused)
    return;

  self->paused = paused;
  _tw_browser_tab_update_focus (self);

  /* Queued calls end at once; the running one goes on to its end rather
   * than leave the page half done. */
  if (paused)
    {
      error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                           TW_BROWSER_TAB_PAUSED_MESSAGE, self->id);
      tw_browser_tab_end_queued (self, error);
    }

  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_PAUSED]);
}

void
tw_browser_tab_end_queued (TwBrowserTab *self,
                           const GError *error)
{
  g_return_if_fail (TW_IS_BROWSER_TAB (self));
  g_return_if_fail (error != NULL);

  while (!g_queue_is_empty (&self->pending))
    _tw_browser_tab_finish_command (self, g_queue_peek_head (&self->pending), NULL,
                                    g_error_copy (error));
}

gboolean
tw_browser_tab_get_busy (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->busy;
}

gboolean
tw_browser_tab_is_closed (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), TRUE);

  return self->closed;
}

JsonObject *
tw_browser_tab_describe (TwBrowserTab *self)
{
  JsonObject *object;
  JsonObject *emulation;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  object = json_object_new ();
  json_object_set_string_member (object, "browserId", self->id);
  json_object_set_string_member (object, "url", tw_browser_tab_get_uri (self));
  json_object_set_string_member (object, "title", tw_browser_tab_get_title (self));
  json_object_set_boolean_member (object, "loading", tw_browser_tab_get_loading (self));
  json_object_set_boolean_member (object, "private", self->private_session);
  if (self->context_name != NULL)
    json_object_set_string_member (object, "context", self->context_name);
  if (self->owner != NULL)
    json_object_set_string_member (object, "owner", self->owner);
  else
    json_object_set_null_member (object, "owner");
  if (self->shared)
    json_object_set_boolean_member (object, "shared", TRUE);
  /* Forms, coordinates and emulation (issue 18). */
  emulation = tw_tab_emulation_describe (self->view);
  if (emulation != NULL)
    json_object_set_object_member (object, "emulation", emulation);

  return object;
}

