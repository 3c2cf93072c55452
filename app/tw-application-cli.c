/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-application-private.h"

#include "tw-gemini-extension.h"
#include "tw-mcp-snippets.h"

#include <stdio.h>

/* --print-mcp-config */

int
_tw_application_print_mcp_config (const char *workspace_arg)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *url = NULL;
  g_autofree char *token = NULL;
  g_autofree char *stdio = NULL;
  g_autofree char *claude = NULL;
  g_autofree char *codex = NULL;
  g_autofree char *opencode = NULL;
  g_autofree char *gemini = NULL;
  g_autofree char *copilot = NULL;
  g_autofree char *qwen = NULL;

  path = tw_workspace_id_canonicalize_path (workspace_arg ? workspace_arg : ".", NULL, &error);
  if (path == NULL)
    {
      g_printerr ("tabwright: %s\n", error->message);
      return 1;
    }

  stdio = tw_mcp_snippet_stdio (path);

  if (!tw_workspace_id_read_runtime_file (path, &url, &token, &error))
    {
      g_printerr (_("Tabwright is not running for %s.\n"
                    "Start it with: tabwright --workspace %s\n"), path, path);
      g_print (_("# Any MCP client over stdio (finds Tabwright once it runs):\n%s\n"), stdio);
      return 1;
    }

  claude = tw_mcp_snippet_claude_command (url, token);
  codex = tw_mcp_snippet_codex (url, token);
  opencode = tw_mcp_snippet_opencode (url, token);
  gemini = tw_mcp_snippet_gemini (url, token);
  copilot = tw_mcp_snippet_copilot (url, token);
  qwen = tw_mcp_snippet_qwen (url, token);

  g_print (_("# Tabwright is serving %s\n"), path);
  g_print ("URL:   %s\n", url);
  g_print ("Token: %s\n\n", token);
  g_print (_("# Claude Code\n%s\n\n"), claude);
  g_print (_("# Codex\n%s\n\n"), codex);
  g_print (_("# OpenCode\n%s\n\n"), opencode);
  /* Translators: the first line of the snippet installs a Gemini CLI extension, once. */
  g_print (_("# Gemini CLI\n%s\n\n"), gemini);
  g_print (_("# Copilot CLI\n%s\n\n"), copilot);
  g_print (_("# Qwen Code\n%s\n\n"), qwen);
  g_print (_("# Any MCP client over stdio\n%s\n"), stdio);

  return 0;
}

/* --install-gemini-extension: the same writer as the app's Install
 * button, with the same consent: it shows the file and where it goes, and
 * writes only after a "y" on standard input. */

static gboolean
read_yes (void)
{
  char answer[16] = { 0 };

  fflush (stdout);
  if (fgets (answer, sizeof answer, stdin) == NULL)
    return FALSE;

  return answer[0] == 'y' || answer[0] == 'Y';
}

int
_tw_application_install_gemini_extension (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tw_gemini_extension_dup_path (NULL);
  g_autofree char *contents = tw_gemini_extension_dup_contents ();
  g_autofree char *current = NULL;
  TwGeminiExtensionState state;

  if (!tw_gemini_extension_check (NULL, &state, &current, &error))
    {
      g_printerr ("tabwright: %s\n", error->message);
      return 1;
    }

  switch (state)
    {
    case TW_GEMINI_EXTENSION_INSTALLED:
      g_print (_("%s is installed and up to date; nothing was written.\n"), path);
      return 0;
    case TW_GEMINI_EXTENSION_DIFFERENT:
      g_print (_("%s is there already and says something else:\n%s\n"
                 "Replacing it loses that. Tabwright would write:\n%s"
                 "Replace it? [y/N] "), path, current, contents);
      break;
    case TW_GEMINI_EXTENSION_MISSING:
      g_print (_("So that Gemini CLI reaches the tabs, Tabwright would write %s:\n%s"
                 "It names no address or token: Gemini CLI reads them from TABWRIGHT_MCP_URL and "
                 "TABWRIGHT_MCP_TOKEN.\nWrite it? [y/N] "), path, contents);
      break;
    default:
      g_assert_not_reached ();
    }

  if (!read_yes ())
    {
      g_print (_("\nNothing was written.\n"));
      return 1;
    }

  if (!tw_gemini_extension_install (NULL, state == TW_GEMINI_EXTENSION_DIFFERENT, NULL, &error))
    {
      g_printerr ("tabwright: %s\n", error->message);
      return 1;
    }

  g_print (_("Installed %s.\n"), path);

  return 0;
}
