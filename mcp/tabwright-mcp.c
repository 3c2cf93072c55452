/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib-unix.h>

#include "tw-stdio-bridge.h"
#include "tw-workspace-id.h"

/* tabwright-mcp: the stdio bridge any MCP client can launch
 * (`claude mcp add tabwright -- tabwright-mcp`). Standard output carries
 * JSON-RPC and nothing else; diagnostics go to standard error. */

typedef struct
{
  GMainLoop *loop;
  GError    *error;
  gboolean   done;
} Run;

/* GLib writes debug and info messages to standard output by default, which
 * would corrupt the protocol: everything goes to standard error. */
static GLogWriterOutput
log_to_stderr_cb (GLogLevelFlags   log_level,
                  const GLogField *fields,
                  gsize            n_fields,
                  gpointer         user_data)
{
  g_autofree char *text = NULL;
  const char *domain = NULL;

  for (gsize i = 0; i < n_fields; i++)
    {
      if (g_str_equal (fields[i].key, "GLIB_DOMAIN"))
        domain = fields[i].value;
    }

  if (g_log_writer_default_would_drop (log_level, domain))
    return G_LOG_WRITER_HANDLED;

  text = g_log_writer_format_fields (log_level, fields, n_fields,
                                     g_log_writer_supports_color (STDERR_FILENO));
  fprintf (stderr, "%s\n", text);
  fflush (stderr);

  return G_LOG_WRITER_HANDLED;
}

/* Keeps the protocol's output on a descriptor of its own and points
 * standard output at standard error, so that nothing a library prints can
 * end up between two messages. Returns the protocol descriptor. */
static int
take_stdout (GError **error)
{
  struct stat info;
  int fd;

  fd = fcntl (STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
  if (fd < 0 || dup2 (STDERR_FILENO, STDOUT_FILENO) < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Could not set up the standard output: %s", g_strerror (saved_errno));
      return -1;
    }

  /* Writing must never stall the main loop when the client reads slowly.
   * Only a pipe or socket of our own is switched to non-blocking mode; a
   * terminal is shared with the shell. */
  if (fstat (fd, &info) == 0 && (S_ISFIFO (info.st_mode) || S_ISSOCK (info.st_mode)))
    g_unix_set_fd_nonblocking (fd, TRUE, NULL);

  return fd;
}

static gboolean
stop_cb (gpointer user_data)
{
  GCancellable *cancellable = user_data;

  g_cancellable_cancel (cancellable);

  return G_SOURCE_CONTINUE;
}

static void
run_done_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Run *run = user_data;

  tw_stdio_bridge_run_finish (TW_STDIO_BRIDGE (object), result, &run->error);
  run->done = TRUE;
  g_main_loop_quit (run->loop);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GInputStream) input = NULL;
  g_autoptr(GOutputStream) output = NULL;
  g_autoptr(TwStdioBridge) bridge = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autofree char *workspace = NULL;
  g_autofree char *path = NULL;
  gboolean version = FALSE;
  Run run = { 0 };
  int out_fd;
  const GOptionEntry entries[] = {
    { "workspace", 'w', 0, G_OPTION_ARG_FILENAME, &workspace,
      "The workspace folder whose Tabwright to use (default: the current folder)", "DIR" },
    { "version", 0, 0, G_OPTION_ARG_NONE, &version,
      "Print the version and exit", NULL },
    { NULL }
  };

  setlocale (LC_ALL, "");
  g_set_prgname ("tabwright-mcp");
  g_log_set_writer_func (log_to_stderr_cb, NULL, NULL);

  /* A client that goes away shows up as a failed write, not a signal. */
  signal (SIGPIPE, SIG_IGN);

  context = g_option_context_new (NULL);
  g_option_context_set_summary (context,
                                "Connects an MCP client over standard input and output to the "
                                "Tabwright that serves a workspace, e.g.\n"
                                "  claude mcp add tabwright -- tabwright-mcp\n"
                                "\n"
                                "While no Tabwright runs for the workspace, tool calls fail with "
                                "browser_no_host; start one with `tabwright --workspace DIR` and "
                                "call again.");
  g_option_context_add_main_entries (context, entries, NULL);

  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("tabwright-mcp: %s\n", error->message);
      g_printerr ("Run 'tabwright-mcp --help' to see the options.\n");
      return 2;
    }

  if (version)
    {
      g_print ("tabwright-mcp %s\n", PACKAGE_VERSION);
      return 0;
    }

  if (argc > 1)
    {
      g_printerr ("tabwright-mcp: unexpected argument \"%s\"\n", argv[1]);
      return 2;
    }

  path = tw_workspace_id_canonicalize_path (workspace != NULL ? workspace : ".", NULL, &error);
  if (path == NULL)
    {
      g_printerr ("tabwright-mcp: the workspace must be an existing folder: %s\n", error->message);
      return 1;
    }

  out_fd = take_stdout (&error);
  if (out_fd < 0)
    {
      g_printerr ("tabwright-mcp: %s\n", error->message);
      return 1;
    }

  input = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  output = g_unix_output_stream_new (out_fd, TRUE);
  bridge = tw_stdio_bridge_new (path, input, output);
  cancellable = g_cancellable_new ();
  loop = g_main_loop_new (NULL, FALSE);
  run.loop = loop;

  g_unix_signal_add (SIGINT, stop_cb, cancellable);
  g_unix_signal_add (SIGTERM, stop_cb, cancellable);
  g_unix_signal_add (SIGHUP, stop_cb, cancellable);

  g_debug ("Serving %s", path);

  tw_stdio_bridge_run_async (bridge, cancellable, run_done_cb, &run);
  if (!run.done)
    g_main_loop_run (loop);

  /* Being told to stop is a normal way to end. */
  if (run.error != NULL && !g_error_matches (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_printerr ("tabwright-mcp: %s\n", run.error->message);
      g_clear_error (&run.error);
      return 1;
    }

  g_clear_error (&run.error);

  return 0;
}
