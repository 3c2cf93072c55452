/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where the running Tabwright finds the files it installs next to itself:
 * the web-process extension, the GSettings schema, the translations.
 *
 * Meson configures each folder for one prefix (BINDIR, WEB_EXTENSION_DIR…
 * in config.h). An install that moves as a whole keeps every folder at the
 * same place relative to the binaries: `meson install --destdir`, a prefix
 * that was copied elsewhere, /app in Flatpak. So a folder is looked for
 * relative to the running program first, at its configured path second,
 * and a program that runs from the build tree uses the build tree's. */

/* @dir as seen from a program at @exe_path that was configured to live in
 * @bindir: the part of @bindir that @dir does not share is replaced by
 * @exe_path's own folder. /opt/t/usr/bin/tabwright, built for /usr/bin,
 * finds /usr/lib/x as /opt/t/usr/lib/x. NULL when @exe_path's folder does
 * not end like @bindir (a program in the build tree), or a path is not
 * absolute. */
char       *tw_install_dirs_relocate              (const char *exe_path,
                                                   const char *bindir,
                                                   const char *dir);

/* tw_install_dirs_relocate() when that folder exists, else @dir. */
char       *tw_install_dirs_lookup                (const char *exe_path,
                                                   const char *bindir,
                                                   const char *dir);

/* Whether @exe_path lies under the build tree this code was built in. */
gboolean    tw_install_dirs_in_build_tree         (const char *exe_path);

/* The running program, from /proc/self/exe (NULL when unknown). */
const char *tw_install_dirs_get_exe_path          (void);

/* The web-process extension folder for a program at @exe_path: the folder
 * named by $TABWRIGHT_WEB_EXTENSION_DIR, else the build tree's for a
 * program in the build tree, else WEB_EXTENSION_DIR relative to the
 * program, else WEB_EXTENSION_DIR itself. */
char       *tw_install_dirs_find_web_extension_dir (const char *exe_path);

/* Compiled GSettings schemas that hold the app's own, for a program at
 * @exe_path: the build tree's data/ for a program in the build tree, else
 * SCHEMA_DIR relative to the program, else SCHEMA_DIR; NULL when none of
 * them has a gschemas.compiled. */
char       *tw_install_dirs_find_schema_dir       (const char *exe_path);

/* The translations: LOCALEDIR relative to the program when it exists,
 * LOCALEDIR otherwise. */
char       *tw_install_dirs_find_locale_dir       (const char *exe_path);

G_END_DECLS
