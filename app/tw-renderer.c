/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-renderer.h"

#ifdef HAVE_X11
#include <X11/Xlib.h>

/* Whether GTK will draw on an X server that renders OpenGL in software:
 * Xvfb, Xvnc and other X servers without a GPU offer none of the
 * extensions through which clients reach one. */
static gboolean
x11_gl_is_software (void)
{
  const char *backend = g_getenv ("GDK_BACKEND");
  const char *extensions[] = { "DRI3", "DRI2", "NV-GLX" };
  gboolean software = TRUE;
  Display *display;

  /* GTK picks Wayland first when it can. */
  if (backend != NULL && *backend != '\0' && *backend != '*')
    {
      if (!g_str_has_prefix (backend, "x11"))
        return FALSE;
    }
  else if (g_getenv ("WAYLAND_DISPLAY") != NULL)
    {
      return FALSE;
    }

  if (g_getenv ("DISPLAY") == NULL)
    return FALSE;

  display = XOpenDisplay (NULL);
  if (display == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (extensions) && software; i++)
    {
      int opcode, event, error;

      if (XQueryExtension (display, extensions[i], &opcode, &event, &error))
        software = FALSE;
    }

  XCloseDisplay (display);

  return software;
}
#endif

/* With OpenGL in software (llvmpipe), GTK's GL renderer spends tens of
 * milliseconds of the main thread on every frame, and the MCP server,
 * which runs on that thread too, answers late: a click that repaints a
 * button took three times as long as with the cairo renderer. Use cairo
 * there, unless the person chose a renderer. This must happen before GTK
 * creates its first renderer and before any thread could read the
 * environment: main() calls it first. */
void
tw_renderer_choose (void)
{
  if (g_getenv ("GSK_RENDERER") != NULL)
    return;

#ifdef HAVE_X11
  if (x11_gl_is_software ())
    g_setenv ("GSK_RENDERER", "cairo", FALSE);
#endif
}
