/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-demonstration-bar.h"

#include "tw-timeline.h"

enum {
  RESPONSE_START = 1,
  RESPONSE_STOP,
  RESPONSE_DISCARD,
};

struct _TwDemonstrationBar
{
  AdwBin        parent_instance;

  TwBrowserTab *tab;
  GtkInfoBar   *info_bar;
  GtkImage     *icon;
  GtkLabel     *title;
  GtkLabel     *message;
  GtkEntry     *name;
  GtkWidget    *start;
  GtkWidget    *stop;
  GtkWidget    *discard;
};

enum {
  PROP_0,
  PROP_TAB,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TwDemonstrationBar, tw_demonstration_bar, ADW_TYPE_BIN)

static void
update (TwDemonstrationBar *self)
{
  gboolean recording = self->tab != NULL && tw_browser_tab_get_demonstrating (self->tab);
  const char *asked = self->tab != NULL ? tw_browser_tab_get_demonstrate_message (self->tab) : NULL;
  gboolean shown = recording || asked != NULL;

  if (recording)
    {
      guint n = tw_browser_tab_get_n_demonstrated_steps (self->tab);
      g_autofree char *count = NULL;

      gtk_label_set_label (self->title, _("Recording your steps"));
      count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "%u step so far. Your own clicks and typing in this "
                                            "tab are kept; passwords never are.",
                                            "%u steps so far. Your own clicks and typing in this "
                                            "tab are kept; passwords never are.", n), n);
      gtk_label_set_label (self->message, count);
      gtk_image_set_from_icon_name (self->icon, "media-record-symbolic");
    }
  else if (asked != NULL)
    {
      g_autofree char *title = g_strdup_printf (_("%s asks you to show how it is done"),
                                                tw_browser_tab_get_demonstrate_agent (self->tab));

      gtk_label_set_label (self->title, title);
      gtk_label_set_label (self->message, asked);
      gtk_image_set_from_icon_name (self->icon, "tw-agent-symbolic");
    }

  gtk_widget_set_visible (GTK_WIDGET (self->name), recording);
  gtk_widget_set_visible (self->stop, recording);
  gtk_widget_set_visible (self->discard, recording);
  gtk_widget_set_visible (self->start, !recording);

  /* Hidden outright while there is nothing to show, so it takes no room
   * or focus. */
  gtk_widget_set_visible (GTK_WIDGET (self->info_bar), shown);
  gtk_info_bar_set_revealed (self->info_bar, shown);
}

static void
tab_notify_cb (TwDemonstrationBar *self)
{
  update (self);
}

static void
info_bar_response_cb (TwDemonstrationBar *self,
                      int                 response,
                      GtkInfoBar         *info_bar)
{
  if (response == RESPONSE_START)
    tw_demonstration_bar_start (self, NULL);
  else if (response == RESPONSE_STOP)
    tw_demonstration_bar_stop (self);
  else if (response == RESPONSE_DISCARD)
    tw_demonstration_bar_discard (self);
}

static void
name_changed_cb (TwDemonstrationBar *self)
{
  gtk_widget_remove_css_class (GTK_WIDGET (self->name), "error");
}

static void
tw_demonstration_bar_dispose (GObject *object)
{
  TwDemonstrationBar *self = TW_DEMONSTRATION_BAR (object);

  if (self->tab != NULL)
    g_signal_handlers_disconnect_by_data (self->tab, self);
  g_clear_object (&self->tab);

  G_OBJECT_CLASS (tw_demonstration_bar_parent_class)->dispose (object);
}

static void
tw_demonstration_bar_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  TwDemonstrationBar *self = TW_DEMONSTRATION_BAR (object);

  switch (prop_id)
    {
    case PROP_TAB:
      g_value_set_object (value, self->tab);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_demonstration_bar_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  TwDemonstrationBar *self = TW_DEMONSTRATION_BAR (object);

  switch (prop_id)
    {
    case PROP_TAB:
      g_assert (self->tab == NULL);
      self->tab = g_value_dup_object (value);
      if (self->tab != NULL)
        {
          g_signal_connect_object (self->tab, "notify::demonstrating",
                                   G_CALLBACK (tab_notify_cb), self, G_CONNECT_SWAPPED);
          g_signal_connect_object (self->tab, "notify::demonstrated-steps",
                                   G_CALLBACK (tab_notify_cb), self, G_CONNECT_SWAPPED);
          g_signal_connect_object (self->tab, "notify::demonstrate-message",
                                   G_CALLBACK (tab_notify_cb), self, G_CONNECT_SWAPPED);
        }
      update (self);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_demonstration_bar_class_init (TwDemonstrationBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_demonstration_bar_dispose;
  object_class->get_property = tw_demonstration_bar_get_property;
  object_class->set_property = tw_demonstration_bar_set_property;

  properties[PROP_TAB] =
    g_param_spec_object ("tab", NULL, NULL, TW_TYPE_BROWSER_TAB,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tw_demonstration_bar_init (TwDemonstrationBar *self)
{
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  self->info_bar = GTK_INFO_BAR (gtk_info_bar_new ());
  gtk_info_bar_set_message_type (self->info_bar, GTK_MESSAGE_INFO);
  gtk_widget_add_css_class (GTK_WIDGET (self->info_bar), "tw-demonstration-bar");

  self->icon = GTK_IMAGE (gtk_image_new_from_icon_name ("media-record-symbolic"));
  gtk_image_set_pixel_size (self->icon, 24);
  gtk_widget_set_valign (GTK_WIDGET (self->icon), GTK_ALIGN_CENTER);

  self->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title, 0);
  gtk_label_set_wrap (self->title, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "heading");

  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->message, 0);
  gtk_label_set_wrap (self->message, TRUE);

  self->name = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->name, _("Name of the flow"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->name),
                               _("The name agents replay the steps by"));
  gtk_widget_set_valign (GTK_WIDGET (self->name), GTK_ALIGN_CENTER);
  g_signal_connect_object (self->name, "changed", G_CALLBACK (name_changed_cb), self,
                           G_CONNECT_SWAPPED);

  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->message));
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->icon));
  gtk_box_append (GTK_BOX (row), texts);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->name));
  gtk_info_bar_add_child (self->info_bar, row);

  self->start = gtk_info_bar_add_button (self->info_bar, _("_Start Recording"), RESPONSE_START);
  gtk_widget_add_css_class (self->start, "suggested-action");
  self->discard = gtk_info_bar_add_button (self->info_bar, _("_Discard"), RESPONSE_DISCARD);
  gtk_widget_set_tooltip_text (self->discard, _("Throw the steps away"));
  self->stop = gtk_info_bar_add_button (self->info_bar, _("_Stop"), RESPONSE_STOP);
  gtk_widget_add_css_class (self->stop, "suggested-action");
  gtk_widget_set_tooltip_text (self->stop, _("Save the steps as a flow and hand them to the agent"));

  g_signal_connect_object (self->info_bar, "response", G_CALLBACK (info_bar_response_cb), self,
                           G_CONNECT_SWAPPED);

  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->info_bar));
  gtk_widget_set_visible (GTK_WIDGET (self->info_bar), FALSE);
}

GtkWidget *
tw_demonstration_bar_new (TwBrowserTab *tab)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);

  return g_object_new (TW_TYPE_DEMONSTRATION_BAR, "tab", tab, NULL);
}

gboolean
tw_demonstration_bar_get_shown (TwDemonstrationBar *self)
{
  g_return_val_if_fail (TW_IS_DEMONSTRATION_BAR (self), FALSE);

  return gtk_widget_get_visible (GTK_WIDGET (self->info_bar)) &&
         gtk_info_bar_get_revealed (self->info_bar);
}

gboolean
tw_demonstration_bar_start (TwDemonstrationBar *self,
                            const char         *name)
{
  g_return_val_if_fail (TW_IS_DEMONSTRATION_BAR (self), FALSE);

  if (self->tab == NULL || !tw_browser_tab_start_demonstration (self->tab))
    return FALSE;

  gtk_editable_set_text (GTK_EDITABLE (self->name), name != NULL ? name : "");

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
  g_autofree char *name = NULL;

  g_return_val_if_fail (TW_IS_DEMONSTRATION_BAR (self), FALSE);

  if (self->tab == NULL || !tw_browser_tab_get_demonstrating (self->tab))
    return FALSE;

  name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->name))));
  if (*name != '\0' && !tw_timeline_check_flow_name (name, NULL))
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->name), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->name),
                                   _("Letters, digits, spaces, “-”, “_” and “.” only"));
      return FALSE;
    }

  return tw_browser_tab_stop_demonstration (self->tab, *name != '\0' ? name : NULL);
}

gboolean
tw_demonstration_bar_discard (TwDemonstrationBar *self)
{
  g_return_val_if_fail (TW_IS_DEMONSTRATION_BAR (self), FALSE);

  return self->tab != NULL && tw_browser_tab_discard_demonstration (self->tab);
}
