/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>

#include "tw-install-dirs.h"

/* Prints where a program at EXE, configured for BINDIR, looks for each
 * DIR, with the app's own function: the Flatpak manifest test asks it
 * about the /app layout of a build configured the way flatpak-builder
 * configures it. "-" means the program would use DIR as configured.
 *
 *   install-dirs-tool EXE BINDIR DIR... */
int
main (int   argc,
      char *argv[])
{
  if (argc < 4)
    {
      fprintf (stderr, "usage: %s EXE BINDIR DIR...\n", argv[0]);
      return 2;
    }

  for (int i = 3; i < argc; i++)
    {
      g_autofree char *found = tw_install_dirs_relocate (argv[1], argv[2], argv[i]);

      printf ("%s\n", found != NULL ? found : "-");
    }

  return 0;
}
