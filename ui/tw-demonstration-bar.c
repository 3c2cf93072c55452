/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-demonstration-bar.h"
#include "tw-person-bar.h"

#include "tw-timeline.h"

struct _TwDemonstrationBar
{
  AdwBin       parent_instance;

  TwPersonBar *bar;
  GtkEntry    *name;
  GtkWidget   *start;
  GtkWidget   *stop;
  GtkWidget   *discard;
};

G_DEFINE_FINAL_TYPE (TwDemonstrationBar, tw_demonstration_bar, ADW_TYPE_BIN)

static void
demonstration_changed_cb (gpointer user_data)
{
  TwDemonstrationBar *self = user_data;
  TwBrowserTab *tab = tw_person_bar_get_tab (self->bar);
  gboolean recording = tw_browser_tab_get_demonstrating (tab);
  const char *asked = tw_browser_tab_get_demonstrate_message (tab);

  gtk_widget_set_visible (GTK_WIDGET (self->name), recording);
  gtk_widget_set_visible (self->stop, recording);
  gtk_widget_set_visible (self->discard, recording);
  gtk_widget_set_visible (self->start, !recording);

  if (recording)
    {
      guint n = tw_browser_tab_get_n_demonstrated_steps (tab);
      g_autofree char *count = NULL;

      count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "%u step so far. Your own clicks and typing in this "
                                            "tab are kept; passwords never are.",
                                            "%u steps so far. Your own clicks and typing in this "
                                            "tab are kept; passwords never are.", n), n);
      tw_person_bar_set_icon (self->bar, "media-record-symbolic");
      tw_person_bar_show (self->bar, _("Recording your steps"), count);
    }
  else if (asked != NULL)
    {
      g_autofree char *title = g_strdup_printf (_("%s asks you to show how it is done"),
                                                tw_browser_tab_get_demonstrate_agent (tab));

      tw_person_bar_set_icon (self->bar, "tw-agent-symbolic");
      tw_person_bar_show (self->bar, title, asked);
    }
  else
    {
      tw_person_bar_hide (self->bar);
    }
}

static void
start_cb (gpointer user_data)
{
  tw_demonstration_bar_start (user_data, NULL);
}

static void
stop_cb (gpointer user_data)
{
  tw_demonstration_bar_stop (user_data);
}

static void
discard_cb (gpointer user_data)
{
  tw_demonstration_bar_discard (user_data);
}

static void
name_changed_cb (TwDemonstrationBar *self)
{
  gtk_widget_remove_css_class (GTK_WIDGET (self->name), "error");
}

static void
tw_demonstration_bar_class_init (TwDemonstrationBarClass *klass)
{
}

static void
tw_demonstration_bar_init (TwDemonstrationBar *self)
{
}

GtkWidget *
tw_demonstration_bar_new (TwBrowserTab *tab)
{
  TwDemonstrationBar *self;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);

  self = g_object_new (TW_TYPE_DEMONSTRATION_BAR, NULL);
  self->bar = tw_person_bar_new (tab, "media-record-symbolic", "tw-demonstration-bar");

  self->name = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->name, _("Name of the flow"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->name),
                               _("The name agents replay the steps by"));
  g_signal_connect_object (self->name, "changed", G_CALLBACK (name_changed_cb), self,
                           G_CONNECT_SWAPPED);
  tw_person_bar_add_child (self->bar, GTK_WIDGET (self->name));

  self->start = tw_person_bar_add_button (self->bar, _("_Start Recording"), "suggested-action",
                                          NULL, start_cb, self);
  self->discard = tw_person_bar_add_button (self->bar, _("_Discard"), NULL,
                                            _("Throw the steps away"), discard_cb, self);
  self->stop = tw_person_bar_add_button (self->bar, _("_Stop"), "suggested-action",
                                         _("Save the steps as a flow and hand them to the agent"),
                                         stop_cb, self);

  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->bar));
  tw_person_bar_follow (self->bar, "demonstrating", demonstration_changed_cb, self);
  tw_person_bar_follow (self->bar, "demonstrated-steps", demonstration_changed_cb, self);
  tw_person_bar_follow (self->bar, "demonstrate-message", demonstration_changed_cb, self);

  return GTK_WIDGET (self);
}

gboolean
tw_demonstration_bar_get_shown (TwDemonstrationBar *self)
{
  g_return_val_if_fail (TW_IS_DEMONSTRATION_BAR (self), FALSE);

  return tw_person_bar_get_shown (self->bar);
}

gboolean
tw_demonstration_bar_start (TwDemonstrationBar *self,
                            const char         *name)
{
  TwBrowserTab *tab;

  g_return_val_if_fail (TW_IS_DEMONSTRATION_BAR (self), FALSE);

  tab = tw_person_bar_get_tab (self->bar);
  if (tab == NULL || !tw_browser_tab_start_demonstration (tab))
    return FALSE;

  tw_demonstration_bar_set_name (self, name);

  return TRUE;
}

const char *
tw_demonstration_bar_get_name (TwDemonstrationBar *self)
{
  g_return_val_if_fail (TW_IS_DEMONSTRATION_BAR (self), NULL);

  return gtk_editable_get_text (GTK_EDITABLE (self->name));
}

void
tw_demonstration_bar_set_name (TwDemonstrationBar *self,
                               const char         *name)
{
  g_return_if_fail (TW_IS_DEMONSTRATION_BAR (self));

  gtk_editable_set_text (GTK_EDITABLE (self->name), name != NULL ? name : "");
}

gboolean
tw_demonstration_bar_stop (TwDemonstrationBar *self)
{
  TwBrowserTab *tab;
  g_autofree char *name = NULL;

  g_return_val_if_fail (TW_IS_DEMONSTRATION_BAR (self), FALSE);

  tab = tw_person_bar_get_tab (self->bar);
  if (tab == NULL || !tw_browser_tab_get_demonstrating (tab))
    return FALSE;

  name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->name))));
  if (*name != '\0' && !tw_timeline_check_flow_name (name, NULL))
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->name), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->name),
                                   _("Letters, digits, spaces, “-”, “_” and “.” only"));
      return FALSE;
    }

  return tw_browser_tab_stop_demonstration (tab, *name != '\0' ? name : NULL);
}

gboolean
tw_demonstration_bar_discard (TwDemonstrationBar *self)
{
  TwBrowserTab *tab;

  g_return_val_if_fail (TW_IS_DEMONSTRATION_BAR (self), FALSE);

  tab = tw_person_bar_get_tab (self->bar);
  return tab != NULL && tw_browser_tab_discard_demonstration (tab);
}
