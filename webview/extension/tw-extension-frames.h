/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit-web-process-extension.h>

G_BEGIN_DECLS

/* Calls between the page runtimes of a page's frames
 * (tw-extension-frames.c). */
void tw_extension_frames_init (void);

G_END_DECLS
