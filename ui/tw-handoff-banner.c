/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-handoff-banner.h"

struct _TwHandoffBanner
{
  AdwBin        parent_instance;

  TwBrowserTab *tab;
  GtkInfoBar   *info_bar;
  GtkLabel     *title;
  GtkLabel     *message;
};

enum {
  PROP_0,
  PROP_TAB,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TwHandoffBanner, tw_handoff_banner, ADW_TYPE_BIN)

static void
update (TwHandoffBanner *self)
{
  const char *message = self->tab != NULL ? tw_browser_tab_get_handoff_message (self->tab) : NULL;
  gboolean shown = message != NULL;

  if (shown)
    {
      g_autofree char *title = NULL;

      title = g_strdup_printf (_("%s needs you in this tab"),
                               tw_browser_tab_get_handoff_agent (self->tab));
      gtk_label_set_label (self->title, title);
      gtk_label_set_label (self->message, message);
    }

  /* Hidden outright while nobody waits, so it takes no room or focus. */
  gtk_widget_set_visible (GTK_WIDGET (self->info_bar), shown);
  gtk_info_bar_set_revealed (self->info_bar, shown);
}

static void
tab_notify_handoff_cb (TwHandoffBanner *self,
                       GParamSpec      *pspec,
                       TwBrowserTab    *tab)
{
  update (self);
}

static void
info_bar_response_cb (TwHandoffBanner *self,
                      int              response,
                      GtkInfoBar      *info_bar)
{
  tw_handoff_banner_respond (self, response == GTK_RESPONSE_ACCEPT);
}

static void
tw_handoff_banner_dispose (GObject *object)
{
  TwHandoffBanner *self = TW_HANDOFF_BANNER (object);

  if (self->tab != NULL)
    g_signal_handlers_disconnect_by_data (self->tab, self);
  g_clear_object (&self->tab);

  G_OBJECT_CLASS (tw_handoff_banner_parent_class)->dispose (object);
}

static void
tw_handoff_banner_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TwHandoffBanner *self = TW_HANDOFF_BANNER (object);

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
tw_handoff_banner_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  TwHandoffBanner *self = TW_HANDOFF_BANNER (object);

  switch (prop_id)
    {
    case PROP_TAB:
      g_assert (self->tab == NULL);
      self->tab = g_value_dup_object (value);
      if (self->tab != NULL)
        g_signal_connect_object (self->tab, "notify::handoff-message",
                                 G_CALLBACK (tab_notify_handoff_cb), self, G_CONNECT_SWAPPED);
      update (self);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_handoff_banner_class_init (TwHandoffBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_handoff_banner_dispose;
  object_class->get_property = tw_handoff_banner_get_property;
  object_class->set_property = tw_handoff_banner_set_property;

  properties[PROP_TAB] =
    g_param_spec_object ("tab", NULL, NULL, TW_TYPE_BROWSER_TAB,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tw_handoff_banner_init (TwHandoffBanner *self)
{
  GtkWidget *icon = gtk_image_new_from_icon_name ("tw-agent-symbolic");
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *done;

  self->info_bar = GTK_INFO_BAR (gtk_info_bar_new ());
  gtk_info_bar_set_message_type (self->info_bar, GTK_MESSAGE_QUESTION);
  gtk_widget_add_css_class (GTK_WIDGET (self->info_bar), "tw-handoff-banner");

  self->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title, 0);
  gtk_label_set_wrap (self->title, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "heading");

  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->message, 0);
  gtk_label_set_wrap (self->message, TRUE);
  gtk_label_set_selectable (self->message, FALSE);

  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->message));
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_widget_set_valign (icon, GTK_ALIGN_CENTER);
  gtk_image_set_pixel_size (GTK_IMAGE (icon), 24);
  gtk_box_append (GTK_BOX (row), icon);
  gtk_box_append (GTK_BOX (row), texts);
  gtk_info_bar_add_child (self->info_bar, row);

  gtk_info_bar_add_button (self->info_bar, _("_Cancel"), GTK_RESPONSE_REJECT);
  done = gtk_info_bar_add_button (self->info_bar, _("_Done"), GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class (done, "suggested-action");
  gtk_widget_set_tooltip_text (done, _("Give the tab back to the agent"));

  g_signal_connect_object (self->info_bar, "response", G_CALLBACK (info_bar_response_cb), self,
                           G_CONNECT_SWAPPED);

  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->info_bar));
  gtk_widget_set_visible (GTK_WIDGET (self->info_bar), FALSE);
}

GtkWidget *
tw_handoff_banner_new (TwBrowserTab *tab)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);

  return g_object_new (TW_TYPE_HANDOFF_BANNER, "tab", tab, NULL);
}

TwBrowserTab *
tw_handoff_banner_get_tab (TwHandoffBanner *self)
{
  g_return_val_if_fail (TW_IS_HANDOFF_BANNER (self), NULL);

  return self->tab;
}

gboolean
tw_handoff_banner_get_shown (TwHandoffBanner *self)
{
  g_return_val_if_fail (TW_IS_HANDOFF_BANNER (self), FALSE);

  return gtk_widget_get_visible (GTK_WIDGET (self->info_bar)) &&
         gtk_info_bar_get_revealed (self->info_bar);
}

gboolean
tw_handoff_banner_respond (TwHandoffBanner *self,
                           gboolean         done)
{
  g_return_val_if_fail (TW_IS_HANDOFF_BANNER (self), FALSE);

  return self->tab != NULL && tw_browser_tab_answer_handoff (self->tab, done);
}
