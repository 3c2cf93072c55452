/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-web-context.h"

#include "tw-install-dirs.h"
#include "tw-tab-routes.h"

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
  gboolean private_sessions = GPOINTER_TO_INT (user_data);

  webkit_web_context_set_web_process_extensions_directory (context,
                                                           tw_web_context_get_extension_dir ());
  /* Whether the processes serve private sessions, whose console WebKit
   * does not report: see tw-web-process-extension.c. */
  webkit_web_context_set_web_process_extensions_initialization_user_data (context,
                                                                          g_variant_new ("(b)", private_sessions));
}

static WebKitWebContext *
create_context (gboolean private_sessions)
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
                    G_CALLBACK (initialize_web_process_extensions_cb),
                    GINT_TO_POINTER (private_sessions));
  tw_tab_routes_register_scheme (context);

  return context;
}

WebKitWebContext *
tw_web_context_get_shared (void)
{
  static WebKitWebContext *context;

  if (g_once_init_enter (&context))
    g_once_init_leave (&context, create_context (FALSE));

  return context;
}

static WebKitWebContext *private_context;

WebKitWebContext *
tw_web_context_get_private (void)
{
  if (g_once_init_enter (&private_context))
    g_once_init_leave (&private_context, create_context (TRUE));

  return private_context;
}

gboolean
tw_web_context_is_private (WebKitWebContext *context)
{
  g_return_val_if_fail (WEBKIT_IS_WEB_CONTEXT (context), FALSE);

  return context == g_atomic_pointer_get (&private_context);
}
