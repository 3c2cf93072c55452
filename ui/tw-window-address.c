/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-window-private.h"

#include "tw-address.h"
#include "tw-error.h"

gboolean
_tw_window_uri_is_blank (const char *uri)
{
  return uri == NULL || uri[0] == '\0' || g_str_equal (uri, "about:blank");
}

/* The address bar shows the selected tab */

/* Agents mostly browse development servers on this machine, which speak
 * plain http; only remote plain http deserves the warning. */
static const char *
address_icon (const char *uri)
{
  g_autoptr(GUri) parsed = NULL;
  const char *host;

  if (_tw_window_uri_is_blank (uri))
    return "edit-find-symbolic";

  parsed = g_uri_parse (uri, G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED, NULL);
  if (parsed == NULL)
    return "edit-find-symbolic";

  if (g_strcmp0 (g_uri_get_scheme (parsed), "https") == 0)
    return "channel-secure-symbolic";

  host = g_uri_get_host (parsed);
  if (host != NULL &&
      (g_str_equal (host, "localhost") || g_str_has_suffix (host, ".localhost") ||
       g_str_has_prefix (host, "127.") || g_str_equal (host, "::1") ||
       g_str_equal (host, "[::1]")))
    return "computer-symbolic";

  return "channel-insecure-symbolic";
}

static void
show_star (TwWindow *self)
{
  gboolean bookmarked = self->star_known && self->star_bookmarked;

  gtk_button_set_icon_name (self->bookmark_button,
                            bookmarked ? "starred-symbolic" : "non-starred-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->bookmark_button),
                               bookmarked ? _("Remove Bookmark") : _("Bookmark This Page"));
}

static void
bookmark_looked_up_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(TwWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean bookmarked = tw_history_lookup_bookmark_finish (TW_HISTORY (object), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->star_cancellable);
  /* A history that cannot be read has no bookmarks to show. */
  self->star_known = TRUE;
  self->star_bookmarked = error == NULL && bookmarked;
  show_star (self);
}

/* The star says whether the page shown is bookmarked, as the history's
 * database says: asked for each page shown, and again when the bookmarks
 * change, so it is right before the bookmarks are read at start too. */
static void
refresh_star (TwWindow *self,
              gboolean  changed)
{
  TwBrowserTab *tab = _tw_window_get_selected_tab (self);
  const char *uri = tab != NULL ? tw_browser_tab_get_uri (tab) : NULL;

  if (!changed && g_strcmp0 (uri, self->star_url) == 0)
    return;
  if (g_strcmp0 (uri, self->star_url) != 0)
    {
      g_free (self->star_url);
      self->star_url = g_strdup (uri);
      self->star_known = FALSE;
    }
  g_cancellable_cancel (self->star_cancellable);
  g_clear_object (&self->star_cancellable);
  show_star (self);
  if (uri == NULL || !tw_history_keeps_url (uri) || self->browser == NULL)
    return;
  self->star_cancellable = g_cancellable_new ();
  tw_history_lookup_bookmark_async (tw_browser_get_history (self->browser), uri, self->star_cancellable,
                                    bookmark_looked_up_cb, g_object_ref (self));
}

static void
bookmarks_changed_cb (TwWindow *self)
{
  refresh_star (self, TRUE);
}

void
_tw_window_toggle_bookmark (TwWindow *self)
{
  TwBrowserTab *tab = _tw_window_get_selected_tab (self);
  TwHistory *history = tw_browser_get_history (self->browser);
  const char *uri;
  gboolean bookmarked;

  if (tab == NULL || tw_browser_tab_get_private (tab))
    return;

  uri = tw_browser_tab_get_uri (tab);
  if (!tw_history_keeps_url (uri))
    return;

  /* The star acts on what it shows. Until the history's database has
   * answered for the page shown, it shows the page as not bookmarked, so a
   * click then bookmarks it (already being one changes nothing), and the
   * answer on its way no longer matters. */
  if (g_strcmp0 (uri, self->star_url) != 0)
    refresh_star (self, FALSE);
  bookmarked = self->star_known ? !self->star_bookmarked : TRUE;
  g_cancellable_cancel (self->star_cancellable);
  g_clear_object (&self->star_cancellable);
  self->star_known = TRUE;
  self->star_bookmarked = bookmarked;
  show_star (self);
  tw_history_set_bookmarked (history, uri, tw_browser_tab_get_title (tab), bookmarked);
  tw_window_add_toast (self, bookmarked ? _("Bookmarked") : _("Bookmark removed"));
}

void
_tw_window_update_address (TwWindow *self)
{
  TwBrowserTab *tab = _tw_window_get_selected_tab (self);
  const char *owner = tab ? tw_browser_tab_get_owner (tab) : NULL;
  const char *uri = "";

  if (tab != NULL)
    uri = tw_browser_tab_get_load_error_uri (tab) ? tw_browser_tab_get_load_error_uri (tab)
                                                 : tw_browser_tab_get_uri (tab);

  /* Never pull text from under the person's fingers. */
  if (!self->address_edited)
    {
      self->setting_address = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->address_entry), _tw_window_uri_is_blank (uri) ? "" : uri);
      self->setting_address = FALSE;
    }

  gtk_entry_set_progress_fraction (self->address_entry,
                                   tab && tw_browser_tab_get_loading (tab)
                                     ? MAX (0.1, tw_browser_tab_get_progress (tab))
                                     : 0.0);

  gtk_entry_set_icon_from_icon_name (self->address_entry, GTK_ENTRY_ICON_PRIMARY,
                                     address_icon (uri));

  refresh_star (self, FALSE);

  if (owner != NULL)
    {
      g_autofree char *tooltip = g_strdup_printf (_("%s is driving this tab"), owner);

      gtk_entry_set_icon_from_icon_name (self->address_entry, GTK_ENTRY_ICON_SECONDARY,
                                         AGENT_ICON);
      gtk_entry_set_icon_tooltip_text (self->address_entry, GTK_ENTRY_ICON_SECONDARY, tooltip);
    }
  else
    {
      gtk_entry_set_icon_from_icon_name (self->address_entry, GTK_ENTRY_ICON_SECONDARY, NULL);
    }
}

/* Suggestions: as the person types, the pages of the history and the
 * bookmarks whose address or title hold the words typed, latest first. */

#define MAX_SUGGESTIONS 6

static void
hide_suggestions (TwWindow *self)
{
  g_cancellable_cancel (self->suggest_cancellable);
  g_clear_object (&self->suggest_cancellable);
  if (self->suggestions != NULL)
    gtk_popover_popdown (self->suggestions);
}

static GtkWidget *
suggestion_row (TwHistoryEntry *entry)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (entry->title[0] != '\0' ? entry->title : entry->url);
  GtkWidget *url = gtk_label_new (entry->url);
  GtkWidget *icon = gtk_image_new_from_icon_name (entry->bookmarked ? "starred-symbolic"
                                                                    : "document-open-recent-symbolic");

  gtk_widget_set_tooltip_text (icon, entry->bookmarked ? _("Bookmark") : _("Visited"));
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (url), 0);
  gtk_label_set_ellipsize (GTK_LABEL (url), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (url, "dim-label");
  gtk_widget_add_css_class (url, "caption");
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (texts), title);
  gtk_box_append (GTK_BOX (texts), url);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), texts);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  /* The entry keeps the keyboard while the list shows. */
  gtk_widget_set_focusable (row, FALSE);
  g_object_set_data_full (G_OBJECT (row), "tw-url", g_strdup (entry->url), g_free);

  return row;
}

static void
suggestions_found_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(TwWindow) self = user_data;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *child;

  entries = tw_history_search_finish (TW_HISTORY (object), result, &error);
  if (entries == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_debug ("No suggestions: %s", error->message);
      return;
    }

  if (self->suggestions == NULL || !self->address_edited)
    return;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->suggestion_list))) != NULL)
    gtk_list_box_remove (self->suggestion_list, child);
  for (guint i = 0; i < entries->len; i++)
    gtk_list_box_append (self->suggestion_list, suggestion_row (g_ptr_array_index (entries, i)));

  if (entries->len > 0)
    gtk_popover_popup (self->suggestions);
  else
    gtk_popover_popdown (self->suggestions);
}

static void
suggest (TwWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->address_entry));

  g_cancellable_cancel (self->suggest_cancellable);
  g_clear_object (&self->suggest_cancellable);

  if (text[0] == '\0')
    {
      hide_suggestions (self);
      return;
    }

  self->suggest_cancellable = g_cancellable_new ();
  tw_history_search_async (tw_browser_get_history (self->browser), text, 0, 0,
                           TW_HISTORY_KIND_ALL, MAX_SUGGESTIONS, self->suggest_cancellable,
                           suggestions_found_cb, g_object_ref (self));
}

static void
open_address (TwWindow   *self,
              const char *url)
{
  TwBrowserTab *tab = _tw_window_get_selected_tab (self);

  hide_suggestions (self);

  if (tab == NULL)
    tab = tw_browser_open_tab (self->browser, url);
  else
    tw_browser_tab_load_uri (tab, url, NULL);

  self->address_edited = FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (tw_browser_tab_get_view (tab)));
  _tw_window_update_chrome (self);
}

static void
suggestion_activated_cb (TwWindow      *self,
                         GtkListBoxRow *row,
                         GtkListBox    *list)
{
  open_address (self, g_object_get_data (G_OBJECT (row), "tw-url"));
}

/* Up and Down move through the suggestions while the entry keeps the
 * keyboard; Enter opens the one chosen. */
static gboolean
address_key_pressed_cb (TwWindow              *self,
                        guint                  keyval,
                        guint                  keycode,
                        GdkModifierType        state,
                        GtkEventControllerKey *controller)
{
  GtkListBoxRow *selected;
  int index;

  if (self->suggestions == NULL || !gtk_widget_get_visible (GTK_WIDGET (self->suggestions)))
    return FALSE;

  selected = gtk_list_box_get_selected_row (self->suggestion_list);
  index = selected != NULL ? gtk_list_box_row_get_index (selected) : -1;

  switch (keyval)
    {
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      index++;
      break;
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      index = index < 0 ? -1 : index - 1;
      break;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
      if (selected == NULL)
        return FALSE;
      open_address (self, g_object_get_data (G_OBJECT (selected), "tw-url"));
      return TRUE;
    default:
      return FALSE;
    }

  if (index < 0)
    gtk_list_box_unselect_all (self->suggestion_list);
  else if (gtk_list_box_get_row_at_index (self->suggestion_list, index) != NULL)
    gtk_list_box_select_row (self->suggestion_list,
                             gtk_list_box_get_row_at_index (self->suggestion_list, index));
  return TRUE;
}

/* The address bar */

static void
address_activate_cb (TwWindow *self,
                     GtkEntry *entry)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  url = tw_address_normalize (text, &error);
  if (url == NULL)
    {
      g_autofree char *message = NULL;

      if (g_error_matches (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED))
        message = g_strdup (_("Only web addresses (http and https) can be opened"));
      else if (text[0] == '\0')
        message = g_strdup (_("Type a web address to open"));
      else
        message = g_strdup_printf (_("“%s” is not a web address"), text);

      tw_window_add_toast (self, message);
      return;
    }

  open_address (self, url);
}

static void
address_changed_cb (TwWindow    *self,
                    GtkEditable *editable)
{
  if (self->setting_address)
    return;

  self->address_edited = TRUE;
  suggest (self);
}

static void
address_focus_leave_cb (TwWindow                *self,
                        GtkEventControllerFocus *controller)
{
  /* Focus also leaves while the window is being destroyed. */
  if (self->address_entry == NULL || self->tab_view == NULL)
    return;

  hide_suggestions (self);
  self->address_edited = FALSE;
  _tw_window_update_address (self);
}

static gboolean
address_escape_cb (GtkWidget *widget,
                   GVariant  *args,
                   gpointer   user_data)
{
  TwWindow *self = TW_WINDOW (gtk_widget_get_root (widget));
  TwBrowserTab *tab = _tw_window_get_selected_tab (self);

  /* The first Escape closes the suggestions only. */
  if (gtk_widget_get_visible (GTK_WIDGET (self->suggestions)))
    {
      hide_suggestions (self);
      return TRUE;
    }

  self->address_edited = FALSE;
  _tw_window_update_address (self);

  if (tab != NULL)
    gtk_widget_grab_focus (GTK_WIDGET (tw_browser_tab_get_view (tab)));

  return TRUE;
}

void
_tw_window_class_init_address (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, address_activate_cb);
}

void
_tw_window_connect_history (TwWindow *self)
{
  g_signal_connect_object (tw_browser_get_history (self->browser), "bookmarks-changed",
                           G_CALLBACK (bookmarks_changed_cb), self, G_CONNECT_SWAPPED);
  refresh_star (self, TRUE);
}

void
_tw_window_dispose_address (TwWindow *self)
{
  g_cancellable_cancel (self->suggest_cancellable);
  g_clear_object (&self->suggest_cancellable);
  g_cancellable_cancel (self->star_cancellable);
  g_clear_object (&self->star_cancellable);
  g_clear_pointer (&self->star_url, g_free);
  if (self->suggestions != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->suggestions));
      self->suggestions = NULL;
      self->suggestion_list = NULL;
    }
}

void
_tw_window_init_address (TwWindow *self)
{
  GtkEventController *focus;
  GtkEventController *shortcuts;
  GtkEventController *keys;
  GtkShortcut *escape;
  GtkWidget *scrolled;

  focus = gtk_event_controller_focus_new ();
  g_signal_connect_object (focus, "leave", G_CALLBACK (address_focus_leave_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->address_entry), focus);
  g_signal_connect_object (self->address_entry, "changed", G_CALLBACK (address_changed_cb), self,
                           G_CONNECT_SWAPPED);

  /* Escape gives up an edit and goes back to the page. */
  shortcuts = gtk_shortcut_controller_new ();
  escape = gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                             gtk_callback_action_new (address_escape_cb, NULL, NULL));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), escape);
  gtk_widget_add_controller (GTK_WIDGET (self->address_entry), shortcuts);

  /* The suggestions hang under the entry, which keeps the keyboard. */
  self->suggestion_list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_activate_on_single_click (self->suggestion_list, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->suggestion_list), "navigation-sidebar");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->suggestion_list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Suggestions"), -1);
  g_signal_connect_object (self->suggestion_list, "row-activated",
                           G_CALLBACK (suggestion_activated_cb), self, G_CONNECT_SWAPPED);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 400);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled),
                                 GTK_WIDGET (self->suggestion_list));
  self->suggestions = GTK_POPOVER (gtk_popover_new ());
  gtk_widget_set_name (GTK_WIDGET (self->suggestions), "address_suggestions");
  gtk_popover_set_child (self->suggestions, scrolled);
  gtk_popover_set_autohide (self->suggestions, FALSE);
  gtk_widget_set_can_focus (GTK_WIDGET (self->suggestions), FALSE);
  gtk_popover_set_has_arrow (self->suggestions, FALSE);
  gtk_popover_set_position (self->suggestions, GTK_POS_BOTTOM);
  gtk_widget_set_halign (GTK_WIDGET (self->suggestions), GTK_ALIGN_START);
  gtk_widget_set_size_request (scrolled, 480, -1);
  gtk_widget_set_parent (GTK_WIDGET (self->suggestions), GTK_WIDGET (self->address_entry));

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (address_key_pressed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->address_entry), keys);
}
