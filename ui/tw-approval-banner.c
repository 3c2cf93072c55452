/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-approval-banner.h"

struct _TwApprovalBanner
{
  AdwBin        parent_instance;

  TwBrowserTab *tab;
  GtkInfoBar   *info_bar;
  GtkLabel     *title;
  GtkLabel     *detail;
  GtkEntry     *reason;
};

enum {
  PROP_0,
  PROP_TAB,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The info bar's responses: one per answer. */
enum {
  RESPONSE_ALLOW_ONCE = 1,
  RESPONSE_ALLOW_AGENT,
  RESPONSE_DENY,
};

G_DEFINE_FINAL_TYPE (TwApprovalBanner, tw_approval_banner, ADW_TYPE_BIN)

static void
update (TwApprovalBanner *self)
{
  TwApproval *approval = self->tab != NULL ? tw_browser_tab_get_approval (self->tab) : NULL;
  gboolean shown = approval != NULL;

  if (shown)
    {
      g_autofree char *title = NULL;
      const char *detail = tw_approval_get_detail (approval);

      /* Translators: "Codex asks to run a script in the page". */
      title = g_strdup_printf (_("%s asks to %s"), tw_approval_get_agent_name (approval),
                               tw_approval_get_summary (approval));
      gtk_label_set_label (self->title, title);
      gtk_label_set_label (self->detail, detail != NULL ? detail : "");
      gtk_widget_set_visible (GTK_WIDGET (self->detail), detail != NULL);
      gtk_editable_set_text (GTK_EDITABLE (self->reason), "");
    }

  /* Hidden outright while nothing waits, so it takes no room or focus. */
  gtk_widget_set_visible (GTK_WIDGET (self->info_bar), shown);
  gtk_info_bar_set_revealed (self->info_bar, shown);
}

static void
tab_notify_approval_cb (TwApprovalBanner *self,
                        GParamSpec       *pspec,
                        TwBrowserTab     *tab)
{
  update (self);
}

static void
info_bar_response_cb (TwApprovalBanner *self,
                      int               response,
                      GtkInfoBar       *info_bar)
{
  switch (response)
    {
    case RESPONSE_ALLOW_ONCE:
      tw_approval_banner_respond (self, TW_APPROVAL_ALLOW_ONCE);
      break;

    case RESPONSE_ALLOW_AGENT:
      tw_approval_banner_respond (self, TW_APPROVAL_ALLOW_AGENT);
      break;

    case RESPONSE_DENY:
      tw_approval_banner_respond (self, TW_APPROVAL_DENY);
      break;

    default:
      break;
    }
}

static void
reason_activate_cb (TwApprovalBanner *self,
                    GtkEntry         *entry)
{
  tw_approval_banner_respond (self, TW_APPROVAL_DENY);
}

static void
tw_approval_banner_dispose (GObject *object)
{
  TwApprovalBanner *self = TW_APPROVAL_BANNER (object);

  if (self->tab != NULL)
    g_signal_handlers_disconnect_by_data (self->tab, self);
  g_clear_object (&self->tab);

  G_OBJECT_CLASS (tw_approval_banner_parent_class)->dispose (object);
}

static void
tw_approval_banner_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  TwApprovalBanner *self = TW_APPROVAL_BANNER (object);

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
tw_approval_banner_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  TwApprovalBanner *self = TW_APPROVAL_BANNER (object);

  switch (prop_id)
    {
    case PROP_TAB:
      g_assert (self->tab == NULL);
      self->tab = g_value_dup_object (value);
      if (self->tab != NULL)
        g_signal_connect_object (self->tab, "notify::approval",
                                 G_CALLBACK (tab_notify_approval_cb), self, G_CONNECT_SWAPPED);
      update (self);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_approval_banner_class_init (TwApprovalBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_approval_banner_dispose;
  object_class->get_property = tw_approval_banner_get_property;
  object_class->set_property = tw_approval_banner_set_property;

  properties[PROP_TAB] =
    g_param_spec_object ("tab", NULL, NULL, TW_TYPE_BROWSER_TAB,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tw_approval_banner_init (TwApprovalBanner *self)
{
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-question-symbolic");
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *button;

  self->info_bar = GTK_INFO_BAR (gtk_info_bar_new ());
  gtk_info_bar_set_message_type (self->info_bar, GTK_MESSAGE_QUESTION);
  gtk_widget_add_css_class (GTK_WIDGET (self->info_bar), "tw-approval-banner");

  self->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->title, 0);
  gtk_label_set_wrap (self->title, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "heading");

  /* The script or the files, as the agent gave them: the person judges. */
  self->detail = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->detail, 0);
  gtk_label_set_wrap (self->detail, TRUE);
  gtk_label_set_wrap_mode (self->detail, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (self->detail, 4);
  gtk_label_set_ellipsize (self->detail, PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (self->detail, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->detail), "monospace");
  gtk_widget_add_css_class (GTK_WIDGET (self->detail), "dim-label");

  self->reason = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->reason, _("Reason for denying (optional)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->reason),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Reason for denying"), -1);
  g_signal_connect_object (self->reason, "activate", G_CALLBACK (reason_activate_cb), self,
                           G_CONNECT_SWAPPED);

  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->detail));
  gtk_box_append (GTK_BOX (texts), GTK_WIDGET (self->reason));
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_widget_set_valign (icon, GTK_ALIGN_CENTER);
  gtk_image_set_pixel_size (GTK_IMAGE (icon), 24);
  gtk_box_append (GTK_BOX (row), icon);
  gtk_box_append (GTK_BOX (row), texts);
  gtk_info_bar_add_child (self->info_bar, row);

  button = gtk_info_bar_add_button (self->info_bar, _("_Deny"), RESPONSE_DENY);
  gtk_widget_add_css_class (button, "destructive-action");
  button = gtk_info_bar_add_button (self->info_bar, _("Allow for This _Agent"),
                                    RESPONSE_ALLOW_AGENT);
  gtk_widget_set_tooltip_text (button, _("Allow this step for this agent until it ends"));
  button = gtk_info_bar_add_button (self->info_bar, _("_Allow Once"), RESPONSE_ALLOW_ONCE);
  gtk_widget_add_css_class (button, "suggested-action");

  g_signal_connect_object (self->info_bar, "response", G_CALLBACK (info_bar_response_cb), self,
                           G_CONNECT_SWAPPED);

  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->info_bar));
  gtk_widget_set_visible (GTK_WIDGET (self->info_bar), FALSE);
}

GtkWidget *
tw_approval_banner_new (TwBrowserTab *tab)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);

  return g_object_new (TW_TYPE_APPROVAL_BANNER, "tab", tab, NULL);
}

gboolean
tw_approval_banner_get_shown (TwApprovalBanner *self)
{
  g_return_val_if_fail (TW_IS_APPROVAL_BANNER (self), FALSE);

  return gtk_widget_get_visible (GTK_WIDGET (self->info_bar)) &&
         gtk_info_bar_get_revealed (self->info_bar);
}

gboolean
tw_approval_banner_respond (TwApprovalBanner *self,
                            TwApprovalAnswer  answer)
{
  g_autoptr(TwApproval) approval = NULL;

  g_return_val_if_fail (TW_IS_APPROVAL_BANNER (self), FALSE);

  if (self->tab == NULL || tw_browser_tab_get_approval (self->tab) == NULL)
    return FALSE;

  approval = g_object_ref (tw_browser_tab_get_approval (self->tab));
  return tw_approval_answer (approval, answer,
                             answer == TW_APPROVAL_DENY
                             ? gtk_editable_get_text (GTK_EDITABLE (self->reason)) : NULL);
}
