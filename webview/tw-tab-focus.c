/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-focus.h"

/* WebKitGTK keeps a view's page focus in its activity state: "focused"
 * and "window active", each sent to the web process when it changes, where
 * the page's focus controller answers document.hasFocus(), fires the
 * window's focus and blur events (and focus and blur on the focused
 * element) and lets :focus and :focus-within match. The view sets
 * "focused", and "window active" with it, from its GtkEventControllerFocus
 * "enter" handler, clears "focused" from its "leave" handler, and follows
 * the toplevel's is-active for "window active". WebKitGTK 2.50 offers no
 * API to set either, and exports nothing but its public API, so this
 * speaks to that controller: "enter" tells the view it has the focus,
 * without GTK moving its keyboard focus, which stays with whatever widget
 * the person uses. */

struct _TwTabFocus
{
  GObject                   parent_instance;

  WebKitWebView            *view;        /* weak */
  GtkEventController       *controller;  /* the view's own, borrowed */
  GtkWindow                *window;      /* weak: the view's toplevel */
  gulong                    window_active_id;
  /* The view's input method context, kept here while the view shows its
   * page as focused without having GTK's focus, so that it cannot take
   * the input method from the widget the person types into. */
  WebKitInputMethodContext *input_method;

  guint                     emulated : 1;
  guint                     leave_blocked : 1;
  /* Set while this emits the controller's signals itself. */
  guint                     telling : 1;
};

G_DEFINE_FINAL_TYPE (TwTabFocus, tw_tab_focus, G_TYPE_OBJECT)

static guint
leave_signal_id (void)
{
  return g_signal_lookup ("leave", GTK_TYPE_EVENT_CONTROLLER_FOCUS);
}

/* WebKit's focus controller is the one whose handlers belong to the view. */
static GtkEventController *
find_view_controller (WebKitWebView *view)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (view));
  guint n = g_list_model_get_n_items (controllers);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_FOCUS (controller) &&
          g_signal_handler_find (controller, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DATA,
                                 leave_signal_id (), 0, NULL, NULL, view) != 0)
        return controller;
    }

  return NULL;
}

/* While emulated, the real keyboard focus leaving the view must not take
 * the page's focus with it: the view's own "leave" handler is held back. */
static void
set_leave_blocked (TwTabFocus *self,
                   gboolean    blocked)
{
  if (self->controller == NULL || self->leave_blocked == !!blocked)
    return;

  if (blocked)
    g_signal_handlers_block_matched (self->controller, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DATA,
                                     leave_signal_id (), 0, NULL, NULL, self->view);
  else
    g_signal_handlers_unblock_matched (self->controller, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DATA,
                                       leave_signal_id (), 0, NULL, NULL, self->view);
  self->leave_blocked = !!blocked;
}

static gboolean
has_real_focus (TwTabFocus *self)
{
  return gtk_event_controller_focus_contains_focus (GTK_EVENT_CONTROLLER_FOCUS (self->controller));
}

/* The view keeps its input method context only while the person can type
 * into it: when it is not emulated, or has GTK's focus. */
static void
update_input_method (TwTabFocus *self,
                     gboolean    keep)
{
  WebKitInputMethodContext *context;

  if (keep && self->input_method != NULL)
    {
      g_autoptr(WebKitInputMethodContext) held = g_steal_pointer (&self->input_method);

      webkit_web_view_set_input_method_context (self->view, held);
    }
  else if (!keep && self->input_method == NULL)
    {
      context = webkit_web_view_get_input_method_context (self->view);
      if (context == NULL)
        return;

      self->input_method = g_object_ref (context);
      webkit_input_method_context_notify_focus_out (context);
      webkit_web_view_set_input_method_context (self->view, NULL);
    }
}

/* Tells the view that the focus entered it. @again: it may believe it is
 * focused already while its window counts as inactive; WebKit then has to
 * hear the focus leave first. It sends the state to the web process at the
 * next turn of the main loop, so the page sees neither the leave nor the
 * window becoming inactive just before. */
static void
tell_entered (TwTabFocus *self,
              gboolean    again)
{
  /* First, so that the view has no input method to focus. */
  update_input_method (self, has_real_focus (self));

  self->telling = TRUE;
  if (again)
    {
      set_leave_blocked (self, FALSE);
      g_signal_emit_by_name (self->controller, "leave");
    }
  set_leave_blocked (self, TRUE);
  g_signal_emit_by_name (self->controller, "enter");
  self->telling = FALSE;
}

static void
controller_enter_cb (TwTabFocus *self)
{
  if (self->telling || !self->emulated)
    return;

  /* The person gave the view GTK's focus: their keys and input method go
   * to it now. */
  update_input_method (self, TRUE);
}

static void
controller_leave_cb (TwTabFocus *self)
{
  if (self->telling || !self->emulated)
    return;

  /* The view's handler was held back, so the page keeps its focus; the
   * input method follows GTK's focus out. */
  update_input_method (self, FALSE);
}

static void
window_active_cb (TwTabFocus *self)
{
  if (self->emulated && self->window != NULL && !gtk_window_is_active (self->window))
    tell_entered (self, TRUE);
}

static void
watch_window (TwTabFocus *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self->view));
  GtkWindow *window = GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL;

  if (window == self->window)
    return;

  if (self->window != NULL)
    g_clear_signal_handler (&self->window_active_id, self->window);
  g_set_weak_pointer (&self->window, window);
  if (window != NULL)
    self->window_active_id = g_signal_connect_object (window, "notify::is-active",
                                                      G_CALLBACK (window_active_cb), self,
                                                      G_CONNECT_SWAPPED | G_CONNECT_AFTER);
}

static void
view_root_cb (TwTabFocus *self)
{
  watch_window (self);

  /* WebKit counts the view's window as active or not anew when it moves
   * into a window or out of one. */
  if (self->emulated)
    tell_entered (self, TRUE);
}

static void
tw_tab_focus_dispose (GObject *object)
{
  TwTabFocus *self = TW_TAB_FOCUS (object);

  if (self->view != NULL)
    {
      set_leave_blocked (self, FALSE);
      update_input_method (self, TRUE);
      g_signal_handlers_disconnect_by_data (self->view, self);
      if (self->controller != NULL)
        g_signal_handlers_disconnect_by_data (self->controller, self);
    }
  if (self->window != NULL)
    g_clear_signal_handler (&self->window_active_id, self->window);
  g_clear_weak_pointer (&self->window);
  g_clear_weak_pointer (&self->view);
  g_clear_object (&self->input_method);
  self->controller = NULL;

  G_OBJECT_CLASS (tw_tab_focus_parent_class)->dispose (object);
}

static void
tw_tab_focus_class_init (TwTabFocusClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_tab_focus_dispose;
}

static void
tw_tab_focus_init (TwTabFocus *self)
{
}

TwTabFocus *
tw_tab_focus_new (WebKitWebView *view)
{
  TwTabFocus *self;

  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);

  self = g_object_new (TW_TYPE_TAB_FOCUS, NULL);
  g_set_weak_pointer (&self->view, view);

  self->controller = find_view_controller (view);
  if (self->controller == NULL)
    {
      g_warning ("This WebKitGTK has no focus controller of its own on the web view: "
                 "pages of tabs agents drive see the real focus only");
      return self;
    }

  g_signal_connect_object (self->controller, "enter", G_CALLBACK (controller_enter_cb), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (self->controller, "leave", G_CALLBACK (controller_leave_cb), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  g_signal_connect_object (view, "notify::root", G_CALLBACK (view_root_cb), self,
                           G_CONNECT_SWAPPED);
  watch_window (self);

  return self;
}

gboolean
tw_tab_focus_get_emulated (TwTabFocus *self)
{
  g_return_val_if_fail (TW_IS_TAB_FOCUS (self), FALSE);

  return self->emulated;
}

void
tw_tab_focus_set_emulated (TwTabFocus *self,
                           gboolean    emulated)
{
  g_return_if_fail (TW_IS_TAB_FOCUS (self));

  emulated = !!emulated;
  if (self->emulated == emulated || self->view == NULL || self->controller == NULL)
    return;

  self->emulated = emulated;

  if (emulated)
    {
      tell_entered (self, self->window != NULL && !gtk_window_is_active (self->window));
      return;
    }

  /* Back to the real focus: the page loses the focus unless the view has
   * GTK's, and the window counts as active only if it is. */
  set_leave_blocked (self, FALSE);
  update_input_method (self, TRUE);
  if (!has_real_focus (self))
    {
      self->telling = TRUE;
      g_signal_emit_by_name (self->controller, "leave");
      self->telling = FALSE;
    }
  if (self->window != NULL && !gtk_window_is_active (self->window))
    g_object_notify (G_OBJECT (self->window), "is-active");
}
