/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* One element's label on a marked screenshot: its ref, and the top-left of
 * what shows of it, in the picture's pixels. */
typedef struct
{
  int  x;
  int  y;
  char label[24];
} TwScreenshotMark;

/* The colour of a label's box, as 8-bit red, green and blue; its border
 * and text are black. */
#define TW_SCREENSHOT_MARK_FILL_RED    0xf6
#define TW_SCREENSHOT_MARK_FILL_GREEN  0xd3
#define TW_SCREENSHOT_MARK_FILL_BLUE   0x2d

GdkTexture *tw_screenshot_marks_draw (GdkTexture             *texture,
                                      const TwScreenshotMark *marks,
                                      guint                   n_marks,
                                      double                  scale);

G_END_DECLS
