/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-opaque-pixbuf.h"

GdkPixbuf *
tw_opaque_pixbuf_new_from_texture (GdkTexture *texture,
                                   int         x,
                                   int         y,
                                   int         width,
                                   int         height)
{
  int texture_width;
  int texture_height;
  gsize stride;
  g_autofree guchar *pixels = NULL;
  GdkPixbuf *pixbuf;
  int out_stride;
  guchar *out_pixels;

  g_return_val_if_fail (GDK_IS_TEXTURE (texture), NULL);

  texture_width = gdk_texture_get_width (texture);
  texture_height = gdk_texture_get_height (texture);
  g_return_val_if_fail (x >= 0 && y >= 0 && width > 0 && height > 0, NULL);
  g_return_val_if_fail (x + width <= texture_width && y + height <= texture_height, NULL);

  stride = (gsize) texture_width * 4;
  pixels = g_malloc (stride * texture_height);

  /* GDK_MEMORY_DEFAULT is B, G, R, A (premultiplied) in memory. */
  gdk_texture_download (texture, pixels, stride);
  pixbuf = gdk_pixbuf_new (GDK_COLORSPACE_RGB, FALSE, 8, width, height);
  out_stride = gdk_pixbuf_get_rowstride (pixbuf);
  out_pixels = gdk_pixbuf_get_pixels (pixbuf);
  for (int row = 0; row < height; row++)
    {
      const guchar *in = pixels + (gsize) (y + row) * stride + (gsize) x * 4;
      guchar *out = out_pixels + (gsize) row * out_stride;

      for (int column = 0; column < width; column++, in += 4, out += 3)
        {
          int white = 255 - in[3];

          out[0] = (guchar) MIN (255, in[2] + white);
          out[1] = (guchar) MIN (255, in[1] + white);
          out[2] = (guchar) MIN (255, in[0] + white);
        }
    }

  return pixbuf;
}
