/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-person-bar.h"

typedef struct
{
  TwPersonBarFunc clicked;
  gpointer        user_data;
} BarButton;

struct _TwPersonBar
{
  AdwBin           parent_instance;

  TwBrowserTab    *tab;
  TwPersonBarFunc  changed;
  gpointer         changed_data;
  GArray          *buttons;   /* BarButton; the info bar's response is the index + 1 */

  GtkInfoBar      *info_bar;
  GtkImage        *icon;
  GtkBox          *texts;
  GtkLabel        *heading;
  GtkLabel        *detail;
};

G_DEFINE_FINAL_TYPE (TwPersonBar, tw_person_bar, ADW_TYPE_BIN)

static void
tab_notify_cb (TwPersonBar  *self,
               GParamSpec   *pspec,
               TwBrowserTab *tab)
{
  if (self->changed != NULL)
    self->changed (self->changed_data);
}

static void
info_bar_response_cb (TwPersonBar *self,
                      int          response,
                      GtkInfoBar  *info_bar)
{
  const BarButton *button;

  /* Only the buttons answer: the bar has no close button. */
  if (response < 1 || (guint) response > self->buttons->len)
    return;

  button = &g_array_index (self->buttons, BarButton, response - 1);
  button->clicked (button->user_data);
}

static void
tw_person_bar_dispose (GObject *object)
{
  TwPersonBar *self = TW_PERSON_BAR (object);

  if (self->tab != NULL)
    g_signal_handlers_disconnect_by_data (self->tab, self);
  g_clear_object (&self->tab);
  self->changed = NULL;
  g_array_set_size (self->buttons, 0);

  G_OBJECT_CLASS (tw_person_bar_parent_class)->dispose (object);
}

static void
tw_person_bar_finalize (GObject *object)
{
  TwPersonBar *self = TW_PERSON_BAR (object);

  g_array_unref (self->buttons);

  G_OBJECT_CLASS (tw_person_bar_parent_class)->finalize (object);
}

static void
tw_person_bar_class_init (TwPersonBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_person_bar_dispose;
  object_class->finalize = tw_person_bar_finalize;
}

static void
tw_person_bar_init (TwPersonBar *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  self->buttons = g_array_new (FALSE, TRUE, sizeof (BarButton));

  self->info_bar = GTK_INFO_BAR (gtk_info_bar_new ());
  gtk_info_bar_set_message_type (self->info_bar, GTK_MESSAGE_QUESTION);

  /* Shown once the bar has an icon. */
  self->icon = GTK_IMAGE (gtk_image_new ());
  gtk_widget_set_valign (GTK_WIDGET (self->icon), GTK_ALIGN_CENTER);
  gtk_image_set_pixel_size (self->icon, 24);
  gtk_widget_set_visible (GTK_WIDGET (self->icon), FALSE);

  self->heading = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->heading, 0);
  gtk_label_set_wrap (self->heading, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->heading), "heading");

  self->detail = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->detail, 0);
  gtk_label_set_wrap (self->detail, TRUE);
  gtk_label_set_wrap_mode (self->detail, PANGO_WRAP_WORD_CHAR);

  self->texts = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));
  gtk_box_append (self->texts, GTK_WIDGET (self->heading));
  gtk_box_append (self->texts, GTK_WIDGET (self->detail));
  gtk_widget_set_hexpand (GTK_WIDGET (self->texts), TRUE);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->icon));
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->texts));
  gtk_info_bar_add_child (self->info_bar, row);

  g_signal_connect_object (self->info_bar, "response", G_CALLBACK (info_bar_response_cb), self,
                           G_CONNECT_SWAPPED);

  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->info_bar));
  gtk_widget_set_visible (GTK_WIDGET (self->info_bar), FALSE);
}

TwPersonBar *
tw_person_bar_new (TwBrowserTab *tab,
                   const char   *icon_name,
                   const char   *css_class)
{
  TwPersonBar *self;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);
  g_return_val_if_fail (css_class != NULL, NULL);

  self = g_object_new (TW_TYPE_PERSON_BAR, NULL);
  self->tab = g_object_ref (tab);
  gtk_widget_add_css_class (GTK_WIDGET (self->info_bar), css_class);
  tw_person_bar_set_icon (self, icon_name);

  return self;
}

void
tw_person_bar_set_icon (TwPersonBar *self,
                        const char  *icon_name)
{
  g_return_if_fail (TW_IS_PERSON_BAR (self));

  gtk_image_set_from_icon_name (self->icon, icon_name);
  gtk_widget_set_visible (GTK_WIDGET (self->icon), icon_name != NULL);
}

TwBrowserTab *
tw_person_bar_get_tab (TwPersonBar *self)
{
  g_return_val_if_fail (TW_IS_PERSON_BAR (self), NULL);

  return self->tab;
}

void
tw_person_bar_follow (TwPersonBar     *self,
                      const char      *tab_property,
                      TwPersonBarFunc  changed,
                      gpointer         user_data)
{
  g_autofree char *signal = NULL;

  g_return_if_fail (TW_IS_PERSON_BAR (self));
  g_return_if_fail (tab_property != NULL);
  g_return_if_fail (changed != NULL);
  g_return_if_fail (self->changed == NULL ||
                    (self->changed == changed && self->changed_data == user_data));

  self->changed = changed;
  self->changed_data = user_data;
  signal = g_strconcat ("notify::", tab_property, NULL);
  g_signal_connect_object (self->tab, signal, G_CALLBACK (tab_notify_cb), self, G_CONNECT_SWAPPED);
  changed (user_data);
}

GtkWidget *
tw_person_bar_add_button (TwPersonBar     *self,
                          const char      *mnemonic,
                          const char      *css_class,
                          const char      *tooltip,
                          TwPersonBarFunc  clicked,
                          gpointer         user_data)
{
  BarButton entry = { clicked, user_data };
  GtkWidget *button;

  g_return_val_if_fail (TW_IS_PERSON_BAR (self), NULL);
  g_return_val_if_fail (mnemonic != NULL, NULL);
  g_return_val_if_fail (clicked != NULL, NULL);

  g_array_append_val (self->buttons, entry);
  button = gtk_info_bar_add_button (self->info_bar, mnemonic, (int) self->buttons->len);
  if (css_class != NULL)
    gtk_widget_add_css_class (button, css_class);
  if (tooltip != NULL)
    gtk_widget_set_tooltip_text (button, tooltip);

  return button;
}

void
tw_person_bar_add_child (TwPersonBar *self,
                         GtkWidget   *child)
{
  g_return_if_fail (TW_IS_PERSON_BAR (self));
  g_return_if_fail (GTK_IS_WIDGET (child));

  gtk_box_append (self->texts, child);
}

GtkLabel *
tw_person_bar_get_detail (TwPersonBar *self)
{
  g_return_val_if_fail (TW_IS_PERSON_BAR (self), NULL);

  return self->detail;
}

void
tw_person_bar_show (TwPersonBar *self,
                    const char  *heading,
                    const char  *detail)
{
  g_return_if_fail (TW_IS_PERSON_BAR (self));

  gtk_label_set_label (self->heading, heading != NULL ? heading : "");
  gtk_label_set_label (self->detail, detail != NULL ? detail : "");
  gtk_widget_set_visible (GTK_WIDGET (self->detail), detail != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->info_bar), TRUE);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
}

void
tw_person_bar_hide (TwPersonBar *self)
{
  g_return_if_fail (TW_IS_PERSON_BAR (self));

  gtk_widget_set_visible (GTK_WIDGET (self->info_bar), FALSE);
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
}

gboolean
tw_person_bar_get_shown (TwPersonBar *self)
{
  g_return_val_if_fail (TW_IS_PERSON_BAR (self), FALSE);

  return gtk_widget_get_visible (GTK_WIDGET (self->info_bar)) &&
         gtk_info_bar_get_revealed (self->info_bar);
}
