/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-web-context.h"

#include "tw-install-dirs.h"

/* Relative to the running program, so a moved install (DESTDIR, Flatpak's
 * /app) finds its own extension; see tw-install-dirs.h. */
static char *
find_extension_dir (void)
{
  return tw_install_dirs_find_web_extension_dir (tw_install_dirs_get_exe_path ());
}

const char *
tw_web_context_get_extension_dir (void)
{
  static char *directory;

  if (g_once_init_enter (&directory))
    g_once_init_leave (&directory, find_extension_dir ());

  return directory;
}

static void
initialize_web_process_extensions_cb (WebKitWebContext *context,
                                      gpointer          user_data)
{
  webkit_web_context_set_web_process_extensions_directory (context,
                                                           tw_web_context_get_extension_dir ());
}

static WebKitWebContext *
create_context (void)
{
  WebKitWebContext *context = webkit_web_context_new ();
  const char *directory = tw_web_context_get_extension_dir ();

  /* The sandbox only shows web processes a few system folders; the build
   * tree is not one of them. The path must exist now, and this must happen
   * before the context spawns its first process, which is why the context
   * is ours and created here. */
  if (g_path_is_absolute (directory) && g_file_test (directory, G_FILE_TEST_IS_DIR))
    webkit_web_context_add_path_to_sandbox (context, directory, TRUE);
  else
    g_warning ("The web process extension folder %s does not exist: "
               "browser_logs will show no console messages", directory);

  g_signal_connect (context, "initialize-web-process-extensions",
                    G_CALLBACK (initialize_web_process_extensions_cb), NULL);

  return context;
}

WebKitWebContext *
tw_web_context_get_shared (void)
{
  static WebKitWebContext *context;

  if (g_once_init_enter (&context))
    g_once_init_leave (&context, create_context ());

  return context;
}
