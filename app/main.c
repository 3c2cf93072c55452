/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#ifdef HAVE_X11
#include <X11/Xlib.h>
#endif

#include "tw-application.h"
#include "tw-install-dirs.h"

#ifdef HAVE_X11
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
 * environment, hence here. */
static void
choose_renderer (void)
{
  if (g_getenv ("GSK_RENDERER") != NULL)
    return;

#ifdef HAVE_X11
  if (x11_gl_is_software ())
    g_setenv ("GSK_RENDERER", "cairo", FALSE);
#endif
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(TwApplication) app = NULL;
  g_autofree char *locale_dir = NULL;

  /* Translations installed next to this very program (any prefix). */
  locale_dir = tw_install_dirs_find_locale_dir (tw_install_dirs_get_exe_path ());

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, locale_dir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  choose_renderer ();

  app = tw_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
