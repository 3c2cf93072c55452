/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-agent-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

/* What an agent's process is started with, beside its preset's own
 * arguments: the private files that hand it the MCP server's address and
 * token, its command line as the person is shown it, and under Flatpak the
 * host command that runs it. */

/* Files */

char *
tw_agent_dup_config_dir (void)
{
  const char *app_id = g_getenv ("FLATPAK_ID");

  /* Flatpak shares $XDG_RUNTIME_DIR/app/<app-id> with the host, at the same
   * path, so agents running on the host can read what is written there. */
  if (tw_agent_preset_in_flatpak ())
    return g_build_filename (g_get_user_runtime_dir (), "app",
                             app_id != NULL ? app_id : APP_ID, "agents", NULL);

  return g_build_filename (g_get_user_runtime_dir (), "tabwright", "agents", NULL);
}

char *
tw_agent_write_private_file (const char  *dir,
                             const char  *name_template,
                             const char  *contents,
                             GError     **error)
{
  g_autofree char *path = g_build_filename (dir, name_template, NULL);
  gsize length = strlen (contents);
  gsize written = 0;
  int fd;

  fd = g_mkstemp_full (path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not create a file in %s: %s"), dir, g_strerror (saved_errno));
      return NULL;
    }

  while (written < length)
    {
      gssize n = write (fd, contents + written, length - written);

      if (n < 0 && errno == EINTR)
        continue;

      if (n < 0)
        {
          int saved_errno = errno;

          close (fd);
          g_unlink (path);
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       _("Could not write %s: %s"), path, g_strerror (saved_errno));
          return NULL;
        }

      written += n;
    }

  close (fd);

  return g_steal_pointer (&path);
}

gboolean
tw_agent_make_config_dir (const char  *dir,
                          GError     **error)
{
  /* The files hold tokens: nobody but the user may list or read them. */
  if (g_mkdir_with_parents (dir, 0700) != 0 || g_chmod (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not create %s: %s"), dir, g_strerror (saved_errno));
      return FALSE;
    }

  return TRUE;
}

/* Flatpak */

char **
tw_agent_build_host_argv (const char * const *argv,
                          const char * const *env,
                          const char         *cwd)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  /* --watch-bus ends the agent on the host when Tabwright goes away. */
  g_strv_builder_add_many (builder, "flatpak-spawn", "--host", "--watch-bus", NULL);

  if (cwd != NULL)
    {
      g_autofree char *directory = g_strconcat ("--directory=", cwd, NULL);

      g_strv_builder_add (builder, directory);
    }

  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_autofree char *option = g_strconcat ("--env=", env[i], NULL);

      g_strv_builder_add (builder, option);
    }

  g_strv_builder_add (builder, "--");
  g_strv_builder_addv (builder, (const char **) argv);

  return g_strv_builder_end (builder);
}

char *
tw_agent_quote_command_line (const char * const *argv)
{
  g_autoptr(GString) line = g_string_new (NULL);

  for (guint i = 0; argv[i] != NULL; i++)
    {
      gboolean plain = argv[i][0] != '\0';

      for (const char *p = argv[i]; *p != '\0' && plain; p++)
        plain = g_ascii_isalnum (*p) || strchr ("_-./:@%+=,", *p) != NULL;

      if (i > 0)
        g_string_append_c (line, ' ');

      if (plain)
        g_string_append (line, argv[i]);
      else
        {
          g_autofree char *quoted = g_shell_quote (argv[i]);

          g_string_append (line, quoted);
        }
    }

  return g_string_free (g_steal_pointer (&line), FALSE);
}
