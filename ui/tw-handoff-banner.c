/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-handoff-banner.h"
#include "tw-person-bar.h"

struct _TwHandoffBanner
{
  AdwBin       parent_instance;

  TwPersonBar *bar;
};

G_DEFINE_FINAL_TYPE (TwHandoffBanner, tw_handoff_banner, ADW_TYPE_BIN)

static void
handoff_changed_cb (gpointer user_data)
{
  TwHandoffBanner *self = user_data;
  TwBrowserTab *tab = tw_person_bar_get_tab (self->bar);
  const char *message = tw_browser_tab_get_handoff_message (tab);
  g_autofree char *title = NULL;

  if (message == NULL)
    {
      tw_person_bar_hide (self->bar);
      return;
    }

  title = g_strdup_printf (_("%s needs you in this tab"), tw_browser_tab_get_handoff_agent (tab));
  tw_person_bar_show (self->bar, title, message);
}

static void
cancel_cb (gpointer user_data)
{
  tw_handoff_banner_respond (user_data, FALSE);
}

static void
done_cb (gpointer user_data)
{
  tw_handoff_banner_respond (user_data, TRUE);
}

static void
tw_handoff_banner_class_init (TwHandoffBannerClass *klass)
{
}

static void
tw_handoff_banner_init (TwHandoffBanner *self)
{
}

GtkWidget *
tw_handoff_banner_new (TwBrowserTab *tab)
{
  TwHandoffBanner *self;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);

  self = g_object_new (TW_TYPE_HANDOFF_BANNER, NULL);
  self->bar = tw_person_bar_new (tab, "tw-agent-symbolic", "tw-handoff-banner");
  tw_person_bar_add_button (self->bar, _("_Cancel"), NULL, NULL, cancel_cb, self);
  tw_person_bar_add_button (self->bar, _("_Done"), "suggested-action",
                            _("Give the tab back to the agent"), done_cb, self);

  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->bar));
  tw_person_bar_follow (self->bar, "handoff-message", handoff_changed_cb, self);

  return GTK_WIDGET (self);
}

TwBrowserTab *
tw_handoff_banner_get_tab (TwHandoffBanner *self)
{
  g_return_val_if_fail (TW_IS_HANDOFF_BANNER (self), NULL);

  return tw_person_bar_get_tab (self->bar);
}

gboolean
tw_handoff_banner_get_shown (TwHandoffBanner *self)
{
  g_return_val_if_fail (TW_IS_HANDOFF_BANNER (self), FALSE);

  return tw_person_bar_get_shown (self->bar);
}

gboolean
tw_handoff_banner_respond (TwHandoffBanner *self,
                           gboolean         done)
{
  TwBrowserTab *tab;

  g_return_val_if_fail (TW_IS_HANDOFF_BANNER (self), FALSE);

  tab = tw_person_bar_get_tab (self->bar);
  return tab != NULL && tw_browser_tab_answer_handoff (tab, done);
}
