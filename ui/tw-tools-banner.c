/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-tools-banner.h"

struct _TwToolsBanner
{
  AdwBin      parent_instance;

  TwBrowser  *browser;
  GtkInfoBar *info_bar;
};

G_DEFINE_FINAL_TYPE (TwToolsBanner, tw_tools_banner, ADW_TYPE_BIN)

static void
update (TwToolsBanner *self)
{
  gboolean shown = self->browser != NULL && !tw_browser_get_enabled (self->browser);

  /* Hidden outright while off, so it takes no room and no keyboard focus. */
  gtk_widget_set_visible (GTK_WIDGET (self->info_bar), shown);
  gtk_info_bar_set_revealed (self->info_bar, shown);
}

static void
browser_notify_enabled_cb (TwToolsBanner *self,
                           GParamSpec    *pspec,
                           TwBrowser     *browser)
{
  update (self);
}

static void
info_bar_response_cb (TwToolsBanner *self,
                      int            response,
                      GtkInfoBar    *info_bar)
{
  if (response == GTK_RESPONSE_ACCEPT && self->browser != NULL)
    tw_browser_set_enabled (self->browser, TRUE);
}

static void
tw_tools_banner_dispose (GObject *object)
{
  TwToolsBanner *self = TW_TOOLS_BANNER (object);

  if (self->browser != NULL)
    g_signal_handlers_disconnect_by_data (self->browser, self);
  g_clear_object (&self->browser);

  G_OBJECT_CLASS (tw_tools_banner_parent_class)->dispose (object);
}

static void
tw_tools_banner_class_init (TwToolsBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_tools_banner_dispose;
}

static void
tw_tools_banner_init (TwToolsBanner *self)
{
  GtkWidget *label;

  label = gtk_label_new (_("Browser tools are off for this workspace: agents cannot use its tabs"));
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_widget_set_hexpand (label, TRUE);

  self->info_bar = GTK_INFO_BAR (gtk_info_bar_new ());
  gtk_info_bar_set_message_type (self->info_bar, GTK_MESSAGE_WARNING);
  gtk_info_bar_add_child (self->info_bar, label);
  gtk_info_bar_add_button (self->info_bar, _("_Turn On"), GTK_RESPONSE_ACCEPT);
  g_signal_connect_object (self->info_bar, "response", G_CALLBACK (info_bar_response_cb), self,
                           G_CONNECT_SWAPPED);

  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->info_bar));
  update (self);
}

GtkWidget *
tw_tools_banner_new (void)
{
  return g_object_new (TW_TYPE_TOOLS_BANNER, NULL);
}

TwBrowser *
tw_tools_banner_get_browser (TwToolsBanner *self)
{
  g_return_val_if_fail (TW_IS_TOOLS_BANNER (self), NULL);

  return self->browser;
}

void
tw_tools_banner_set_browser (TwToolsBanner *self,
                             TwBrowser     *browser)
{
  g_return_if_fail (TW_IS_TOOLS_BANNER (self));
  g_return_if_fail (!browser || TW_IS_BROWSER (browser));

  if (self->browser == browser)
    return;

  if (self->browser != NULL)
    g_signal_handlers_disconnect_by_data (self->browser, self);
  g_set_object (&self->browser, browser);
  if (browser != NULL)
    g_signal_connect_object (browser, "notify::enabled", G_CALLBACK (browser_notify_enabled_cb),
                             self, G_CONNECT_SWAPPED);

  update (self);
}

gboolean
tw_tools_banner_get_shown (TwToolsBanner *self)
{
  g_return_val_if_fail (TW_IS_TOOLS_BANNER (self), FALSE);

  return gtk_info_bar_get_revealed (self->info_bar);
}
