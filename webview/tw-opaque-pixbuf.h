/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <gdk/gdk.h>

G_BEGIN_DECLS

/* A part of a picture of a page as a pixbuf with no alpha, for scaling and
 * JPEG: pages are opaque, so what alpha the texture carries is composited
 * onto white. @x, @y, @width and @height lie within @texture. Safe on any
 * thread for a memory texture. */
GdkPixbuf *tw_opaque_pixbuf_new_from_texture (GdkTexture *texture,
                                              int         x,
                                              int         y,
                                              int         width,
                                              int         height);

G_END_DECLS
