/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Picks GTK's renderer before GTK starts: cairo on an X server that would
 * render OpenGL in software, unless GSK_RENDERER is set already. */
void tw_renderer_choose (void);

G_END_DECLS
