/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "tw-application.h"
#include "tw-install-dirs.h"
#include "tw-renderer.h"

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

  tw_renderer_choose ();

  app = tw_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
