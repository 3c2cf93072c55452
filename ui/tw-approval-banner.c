/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-approval-banner.h"
#include "tw-person-bar.h"

struct _TwApprovalBanner
{
  AdwBin       parent_instance;

  TwPersonBar *bar;
  GtkEntry    *reason;
};

G_DEFINE_FINAL_TYPE (TwApprovalBanner, tw_approval_banner, ADW_TYPE_BIN)

static void
approval_changed_cb (gpointer user_data)
{
  TwApprovalBanner *self = user_data;
  TwApproval *approval = tw_browser_tab_get_approval (tw_person_bar_get_tab (self->bar));
  g_autofree char *title = NULL;

  if (approval == NULL)
    {
      tw_person_bar_hide (self->bar);
      return;
    }

  /* Translators: "Codex asks to run a script in the page". */
  title = g_strdup_printf (_("%s asks to %s"), tw_approval_get_agent_name (approval),
                           tw_approval_get_summary (approval));
  gtk_editable_set_text (GTK_EDITABLE (self->reason), "");
  tw_person_bar_show (self->bar, title, tw_approval_get_detail (approval));
}

static void
deny_cb (gpointer user_data)
{
  tw_approval_banner_respond (user_data, TW_APPROVAL_DENY);
}

static void
allow_agent_cb (gpointer user_data)
{
  tw_approval_banner_respond (user_data, TW_APPROVAL_ALLOW_AGENT);
}

static void
allow_once_cb (gpointer user_data)
{
  tw_approval_banner_respond (user_data, TW_APPROVAL_ALLOW_ONCE);
}

static void
tw_approval_banner_class_init (TwApprovalBannerClass *klass)
{
}

static void
tw_approval_banner_init (TwApprovalBanner *self)
{
}

GtkWidget *
tw_approval_banner_new (TwBrowserTab *tab)
{
  TwApprovalBanner *self;
  GtkLabel *detail;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);

  self = g_object_new (TW_TYPE_APPROVAL_BANNER, NULL);
  self->bar = tw_person_bar_new (tab, "dialog-question-symbolic", "tw-approval-banner");

  /* The script or the files, as the agent gave them: the person judges. */
  detail = tw_person_bar_get_detail (self->bar);
  gtk_label_set_lines (detail, 4);
  gtk_label_set_ellipsize (detail, PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (detail, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (detail), "monospace");
  gtk_widget_add_css_class (GTK_WIDGET (detail), "dim-label");

  self->reason = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->reason, _("Reason for denying (optional)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->reason),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Reason for denying"), -1);
  g_signal_connect_swapped (self->reason, "activate", G_CALLBACK (deny_cb), self);
  tw_person_bar_add_child (self->bar, GTK_WIDGET (self->reason));

  tw_person_bar_add_button (self->bar, _("_Deny"), "destructive-action", NULL, deny_cb, self);
  tw_person_bar_add_button (self->bar, _("Allow for This _Agent"), NULL,
                            _("Allow this step for this agent until it ends"), allow_agent_cb, self);
  tw_person_bar_add_button (self->bar, _("_Allow Once"), "suggested-action", NULL, allow_once_cb,
                            self);

  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->bar));
  tw_person_bar_follow (self->bar, "approval", approval_changed_cb, self);

  return GTK_WIDGET (self);
}

gboolean
tw_approval_banner_get_shown (TwApprovalBanner *self)
{
  g_return_val_if_fail (TW_IS_APPROVAL_BANNER (self), FALSE);

  return tw_person_bar_get_shown (self->bar);
}

gboolean
tw_approval_banner_respond (TwApprovalBanner *self,
                            TwApprovalAnswer  answer)
{
  TwBrowserTab *tab;
  g_autoptr(TwApproval) approval = NULL;

  g_return_val_if_fail (TW_IS_APPROVAL_BANNER (self), FALSE);

  tab = tw_person_bar_get_tab (self->bar);
  if (tab == NULL || tw_browser_tab_get_approval (tab) == NULL)
    return FALSE;

  approval = g_object_ref (tw_browser_tab_get_approval (tab));
  return tw_approval_answer (approval, answer,
                             answer == TW_APPROVAL_DENY
                             ? gtk_editable_get_text (GTK_EDITABLE (self->reason)) : NULL);
}
