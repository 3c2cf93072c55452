/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tw-browser.h"

G_BEGIN_DECLS

/* The palette of agents' colours (issue 32), and the badge that shows an
 * agent's colour with its shape and mark wherever the agent appears: its
 * tabs, its pointer in the overlay, its rows in the activity feed, its
 * terminal and the overview. The colours are libadwaita's accent colours,
 * made to carry white text on light and dark backgrounds alike; each
 * colour also has a shape (circle, square, diamond, hexagon) and every
 * agent a mark (tw_browser_get_agent_mark()), so that agents differ for
 * people who do not tell the colours apart. */

typedef enum
{
  TW_AGENT_SHAPE_CIRCLE,
  TW_AGENT_SHAPE_SQUARE,
  TW_AGENT_SHAPE_DIAMOND,
  TW_AGENT_SHAPE_HEXAGON,
} TwAgentShape;

/* @colour is below TW_BROWSER_N_AGENT_COLOURS. */
void          tw_agent_colour_get_rgba  (int           colour,
                                         GdkRGBA      *rgba);
/* "Purple", for tooltips and screen readers. */
const char   *tw_agent_colour_get_name  (int           colour);
TwAgentShape  tw_agent_colour_get_shape (int           colour);

/* Draws the badge of @colour, @mark inside its shape, filling the square
 * (0, 0, @size, @size) of @cr. */
void          tw_agent_badge_draw       (cairo_t      *cr,
                                         int           colour,
                                         const char   *mark,
                                         double        size);
/* The badge as an icon, e.g. for a tab's indicator; one per colour and
 * mark, kept for the session. */
GIcon        *tw_agent_badge_icon_new   (int           colour,
                                         const char   *mark);

/* The workspace's browser of the window @widget is in, for looking up
 * agents' colours (NULL outside a workspace window). */
TwBrowser    *tw_agent_colours_get_browser (GtkWidget *widget);

G_END_DECLS
