/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-action-overlay.h"

G_BEGIN_DECLS

/* Shared by tw-action-overlay.c (the widget, its geometry and how it
 * follows the tab's actions), tw-action-overlay-caption.c (what the
 * caption says) and tw-action-overlay-draw.c (how it is drawn). */

/* How the overlay moves, in milliseconds. */
#define GLIDE_MS        380   /* the pointer travelling to its target */
#define APPEAR_MS       180   /* the highlight settling on the element */
#define LINGER_MS       1200  /* how long the outcome stays after the action */
#define FADE_MS         350   /* fading out afterwards */
#define FLASH_MS        1600  /* an element picked from the activity feed */
#define TYPE_CHAR_MS    45    /* one typed character appearing in the caption */

struct _TwActionOverlay
{
  GtkWidget        parent_instance;

  TwBrowserTab    *tab;
  TwTabAction     *action;
  char            *caption;

  /* The target, in CSS pixels of the page's viewport. */
  graphene_rect_t  rect;
  graphene_point_t point;
  graphene_rect_t  drop_rect;

  /* The pointer's last drawn position, in widget coordinates, and where
   * its current glide started. */
  graphene_point_t pointer_drawn;
  graphene_point_t pointer_from;

  gint64           started_us;
  gint64           rect_us;
  gint64           glide_us;
  gint64           finished_us;
  gint64           fade_us;

  guint            tick_id;
  guint            linger_source;

  guint            animations : 1;
  guint            active : 1;       /* something to draw */
  guint            has_rect : 1;
  guint            has_point : 1;
  guint            has_drop : 1;
  guint            has_pointer_drawn : 1;
  guint            finished : 1;
  guint            failed : 1;
  guint            flash : 1;
};

/* tw-action-overlay.c */
gboolean  _tw_action_overlay_animating          (TwActionOverlay        *self);
gboolean  _tw_action_overlay_css_to_widget      (TwActionOverlay        *self,
                                                 const graphene_point_t *css,
                                                 graphene_point_t       *out);
gboolean  _tw_action_overlay_css_rect_to_widget (TwActionOverlay        *self,
                                                 const graphene_rect_t  *css,
                                                 graphene_rect_t        *out);
gboolean  _tw_action_overlay_pointer_target_css (TwActionOverlay        *self,
                                                 graphene_point_t       *css);

/* tw-action-overlay-caption.c */
char     *_tw_action_overlay_build_caption      (TwActionOverlay        *self,
                                                 gint64                  now_us);

/* tw-action-overlay-draw.c */
void      _tw_action_overlay_snapshot           (GtkWidget              *widget,
                                                 GtkSnapshot            *snapshot);

G_END_DECLS
