/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-tab-page.h"

struct _TwTabPage
{
  GtkWidget        parent_instance;

  TwBrowserTab    *tab;
  GtkWidget       *banner;
  GtkWidget       *approval_banner;
  GtkWidget       *action_overlay;
  GtkWidget       *annotation_layer;
  GtkWidget       *demonstration_bar;

  /* Template widgets */
  GtkOverlay      *overlay;
  GtkViewport     *viewport;
  GtkWidget       *viewport_bar;
  GtkLabel        *viewport_label;
  AdwStatusPage   *status;
  GtkWidget       *paused_bar;
};

enum {
  PROP_0,
  PROP_TAB,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TwTabPage, tw_tab_page, GTK_TYPE_WIDGET)

static void
update_viewport_bar (TwTabPage *self)
{
  TwViewFrame *frame = tw_browser_tab_get_frame (self->tab);
  int width;
  int height;

  if (tw_view_frame_get_viewport_size (frame, &width, &height))
    {
      g_autofree char *size = g_strdup_printf (_("Viewport %d × %d"), width, height);

      gtk_label_set_label (self->viewport_label, size);
      gtk_widget_set_visible (self->viewport_bar, TRUE);
    }
  else
    {
      gtk_widget_set_visible (self->viewport_bar, FALSE);
    }
}

static void
fit_to_window_cb (TwTabPage *self)
{
  tw_view_frame_set_viewport_size (tw_browser_tab_get_frame (self->tab), 0, 0, NULL);
}

static void
resume_clicked_cb (TwTabPage *self)
{
  tw_browser_tab_set_paused (self->tab, FALSE);
}

static void
update_paused_bar (TwTabPage *self)
{
  gtk_widget_set_visible (self->paused_bar, tw_browser_tab_get_paused (self->tab));
}

/* A load that failed or a web process that died leaves no page to show. */
static void
update_status (TwTabPage *self)
{
  const char *error = tw_browser_tab_get_load_error (self->tab);

  if (tw_browser_tab_get_crashed (self->tab))
    {
      adw_status_page_set_icon_name (self->status, "computer-fail-symbolic");
      adw_status_page_set_title (self->status, _("This Page Stopped Working"));
      adw_status_page_set_description (self->status,
                                       _("Its web process ended. Reload to bring it back."));
      gtk_widget_set_visible (GTK_WIDGET (self->status), TRUE);
    }
  else if (error != NULL && !tw_browser_tab_get_loading (self->tab))
    {
      g_autofree char *description = NULL;

      description = g_markup_printf_escaped ("<b>%s</b>\n%s",
                                             tw_browser_tab_get_load_error_uri (self->tab), error);
      adw_status_page_set_icon_name (self->status, "dialog-warning-symbolic");
      adw_status_page_set_title (self->status, _("Unable to Load Page"));
      adw_status_page_set_description (self->status, description);
      gtk_widget_set_visible (GTK_WIDGET (self->status), TRUE);
    }
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->status), FALSE);
    }
}

void
tw_tab_page_reload (TwTabPage *self)
{
  const char *failed;

  g_return_if_fail (TW_IS_TAB_PAGE (self));

  failed = tw_browser_tab_get_load_error_uri (self->tab);
  if (!tw_browser_tab_get_crashed (self->tab) && failed != NULL)
    tw_browser_tab_load_uri (self->tab, failed, NULL);
  else
    tw_browser_tab_reload (self->tab);
}

static void
tw_tab_page_constructed (GObject *object)
{
  TwTabPage *self = TW_TAB_PAGE (object);
  TwViewFrame *frame;

  G_OBJECT_CLASS (tw_tab_page_parent_class)->constructed (object);

  g_assert (TW_IS_BROWSER_TAB (self->tab));
  frame = tw_browser_tab_get_frame (self->tab);

  gtk_viewport_set_child (self->viewport, GTK_WIDGET (frame));

  /* The banner and the overlay draw their tab from the start. */
  self->banner = tw_handoff_banner_new (self->tab);
  gtk_widget_insert_before (self->banner, GTK_WIDGET (self), GTK_WIDGET (self->overlay));
  self->approval_banner = tw_approval_banner_new (self->tab);
  gtk_widget_insert_before (self->approval_banner, GTK_WIDGET (self), GTK_WIDGET (self->overlay));
  self->demonstration_bar = tw_demonstration_bar_new (self->tab);
  gtk_widget_insert_before (self->demonstration_bar, GTK_WIDGET (self), GTK_WIDGET (self->overlay));

  /* Over the page while the person marks it for an agent. */
  self->annotation_layer = tw_annotation_layer_new (self->tab,
                                                    GTK_WIDGET (tw_browser_tab_get_view (self->tab)));
  gtk_overlay_add_overlay (self->overlay, self->annotation_layer);

  /* Topmost, and it takes no input: the page stays the person's. */
  self->action_overlay = tw_action_overlay_new (self->tab);
  gtk_overlay_add_overlay (self->overlay, self->action_overlay);

  g_signal_connect_object (frame, "notify::viewport-width",
                           G_CALLBACK (update_viewport_bar), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (frame, "notify::viewport-height",
                           G_CALLBACK (update_viewport_bar), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tab, "notify::paused",
                           G_CALLBACK (update_paused_bar), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tab, "notify::crashed",
                           G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tab, "notify::load-error",
                           G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->tab, "notify::loading",
                           G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);

  update_viewport_bar (self);
  update_paused_bar (self);
  update_status (self);
}

static void
tw_tab_page_dispose (GObject *object)
{
  TwTabPage *self = TW_TAB_PAGE (object);

  /* The frame belongs to the tab and may be shown again by another page. */
  if (self->viewport != NULL)
    gtk_viewport_set_child (self->viewport, NULL);
  g_clear_pointer (&self->banner, gtk_widget_unparent);
  g_clear_pointer (&self->approval_banner, gtk_widget_unparent);
  g_clear_pointer (&self->demonstration_bar, gtk_widget_unparent);
  self->action_overlay = NULL;
  self->annotation_layer = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_TAB_PAGE);
  g_clear_object (&self->tab);

  G_OBJECT_CLASS (tw_tab_page_parent_class)->dispose (object);
}

static void
tw_tab_page_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TwTabPage *self = TW_TAB_PAGE (object);

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
tw_tab_page_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TwTabPage *self = TW_TAB_PAGE (object);

  switch (prop_id)
    {
    case PROP_TAB:
      self->tab = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_tab_page_class_init (TwTabPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tw_tab_page_constructed;
  object_class->dispose = tw_tab_page_dispose;
  object_class->get_property = tw_tab_page_get_property;
  object_class->set_property = tw_tab_page_set_property;

  properties[PROP_TAB] =
    g_param_spec_object ("tab", NULL, NULL, TW_TYPE_BROWSER_TAB,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/tabwright/Tabwright/ui/tw-tab-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TwTabPage, overlay);
  gtk_widget_class_bind_template_child (widget_class, TwTabPage, viewport);
  gtk_widget_class_bind_template_child (widget_class, TwTabPage, viewport_bar);
  gtk_widget_class_bind_template_child (widget_class, TwTabPage, viewport_label);
  gtk_widget_class_bind_template_child (widget_class, TwTabPage, status);
  gtk_widget_class_bind_template_child (widget_class, TwTabPage, paused_bar);
  gtk_widget_class_bind_template_callback (widget_class, fit_to_window_cb);
  gtk_widget_class_bind_template_callback (widget_class, resume_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, tw_tab_page_reload);
}

static void
tw_tab_page_init (TwTabPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
tw_tab_page_new (TwBrowserTab *tab)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), NULL);

  return g_object_new (TW_TYPE_TAB_PAGE, "tab", tab, NULL);
}

TwBrowserTab *
tw_tab_page_get_tab (TwTabPage *self)
{
  g_return_val_if_fail (TW_IS_TAB_PAGE (self), NULL);

  return self->tab;
}

TwActionOverlay *
tw_tab_page_get_action_overlay (TwTabPage *self)
{
  g_return_val_if_fail (TW_IS_TAB_PAGE (self), NULL);

  return TW_ACTION_OVERLAY (self->action_overlay);
}

TwApprovalBanner *
tw_tab_page_get_approval_banner (TwTabPage *self)
{
  g_return_val_if_fail (TW_IS_TAB_PAGE (self), NULL);

  return TW_APPROVAL_BANNER (self->approval_banner);
}

TwHandoffBanner *
tw_tab_page_get_handoff_banner (TwTabPage *self)
{
  g_return_val_if_fail (TW_IS_TAB_PAGE (self), NULL);

  return TW_HANDOFF_BANNER (self->banner);
}

TwDemonstrationBar *
tw_tab_page_get_demonstration_bar (TwTabPage *self)
{
  g_return_val_if_fail (TW_IS_TAB_PAGE (self), NULL);

  return TW_DEMONSTRATION_BAR (self->demonstration_bar);
}

TwAnnotationLayer *
tw_tab_page_get_annotation_layer (TwTabPage *self)
{
  g_return_val_if_fail (TW_IS_TAB_PAGE (self), NULL);

  return TW_ANNOTATION_LAYER (self->annotation_layer);
}

void
tw_tab_page_set_on_screen (TwTabPage *self,
                           gboolean   on_screen)
{
  g_return_if_fail (TW_IS_TAB_PAGE (self));

  gtk_widget_set_visible (self->action_overlay, on_screen);
  tw_browser_tab_set_shown (self->tab, on_screen);
}

void
tw_tab_page_set_animations (TwTabPage *self,
                            gboolean   animations)
{
  g_return_if_fail (TW_IS_TAB_PAGE (self));

  tw_action_overlay_set_animations (TW_ACTION_OVERLAY (self->action_overlay), animations);
}

/* Pointing at an element again */

static void
flash_located_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  TwTabPage *self = g_task_get_source_object (task);
  const char *caption = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  graphene_rect_t rect;

  if (!tw_browser_tab_locate_ref_finish (TW_BROWSER_TAB (object), result, &rect, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* The page may have been closed while the tab looked. */
  if (self->action_overlay != NULL)
    tw_action_overlay_flash (TW_ACTION_OVERLAY (self->action_overlay), &rect, caption);
  g_task_return_boolean (task, TRUE);
}

void
tw_tab_page_flash_ref_async (TwTabPage           *self,
                             const char          *ref,
                             const char          *caption,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TW_IS_TAB_PAGE (self));
  g_return_if_fail (ref != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_tab_page_flash_ref_async);
  g_task_set_task_data (task, g_strdup (caption), g_free);

  tw_browser_tab_locate_ref_async (self->tab, ref, cancellable, flash_located_cb,
                                   g_steal_pointer (&task));
}

gboolean
tw_tab_page_flash_ref_finish (TwTabPage     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (TW_IS_TAB_PAGE (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
