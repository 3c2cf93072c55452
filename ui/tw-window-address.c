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

/* The address bar */

static void
address_activate_cb (TwWindow *self,
                     GtkEntry *entry)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  TwBrowserTab *tab;

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

  tab = _tw_window_get_selected_tab (self);
  if (tab == NULL)
    tab = tw_browser_open_tab (self->browser, url);
  else
    tw_browser_tab_load_uri (tab, url, NULL);

  self->address_edited = FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (tw_browser_tab_get_view (tab)));
  _tw_window_update_chrome (self);
}

static void
address_changed_cb (TwWindow    *self,
                    GtkEditable *editable)
{
  if (!self->setting_address)
    self->address_edited = TRUE;
}

static void
address_focus_leave_cb (TwWindow                *self,
                        GtkEventControllerFocus *controller)
{
  /* Focus also leaves while the window is being destroyed. */
  if (self->address_entry == NULL || self->tab_view == NULL)
    return;

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
_tw_window_init_address (TwWindow *self)
{
  GtkEventController *focus;
  GtkEventController *shortcuts;
  GtkShortcut *escape;

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
}
