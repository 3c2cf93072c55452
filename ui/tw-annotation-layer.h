/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "tw-browser-tab.h"

G_BEGIN_DECLS

/* The annotation mode of a tab page (browser_annotate, issue 33 "Teach"):
 * a layer over the web view where the person drags to draw a box or
 * clicks to point at an element, writes a note, and presses Send or
 * Cancel. It opens by itself while an agent's call waits for marks on the
 * tab, and from the tab menu without one (the marks then ride along with
 * the agent's next result on the tab).
 *
 * Coordinates are the layer's, which lies over the web view; the layer
 * turns them into the web view's. The functions below do what the gestures
 * and buttons do. */

#define TW_TYPE_ANNOTATION_LAYER (tw_annotation_layer_get_type ())
G_DECLARE_FINAL_TYPE (TwAnnotationLayer, tw_annotation_layer, TW, ANNOTATION_LAYER, AdwBin)

GtkWidget    *tw_annotation_layer_new        (TwBrowserTab      *tab,
                                              GtkWidget         *web_view);

/* Opens the mode with no marks; FALSE when it is open already. */
gboolean      tw_annotation_layer_start      (TwAnnotationLayer *self);
gboolean      tw_annotation_layer_get_active (TwAnnotationLayer *self);

void          tw_annotation_layer_add_box    (TwAnnotationLayer *self,
                                              double             x,
                                              double             y,
                                              double             width,
                                              double             height);
void          tw_annotation_layer_add_point  (TwAnnotationLayer *self,
                                              double             x,
                                              double             y);
void          tw_annotation_layer_set_note   (TwAnnotationLayer *self,
                                              const char        *note);
guint         tw_annotation_layer_get_n_marks (TwAnnotationLayer *self);

/* Send hands the marks and note to the tab and closes the mode; FALSE
 * (and the mode stays open) when there is nothing to send or the tab
 * refuses. Cancel closes the mode and ends a waiting call with
 * "cancelled". */
gboolean      tw_annotation_layer_send       (TwAnnotationLayer *self);
void          tw_annotation_layer_cancel     (TwAnnotationLayer *self);

G_END_DECLS
