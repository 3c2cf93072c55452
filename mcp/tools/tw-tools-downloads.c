/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_downloads: the files pages of the workspace downloaded. Each is
 * also reported in the result of the call that caused it. */

static char *
format_downloads (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonArray *downloads = tw_json_get_array (result, "downloads");
  guint n = downloads != NULL ? json_array_get_length (downloads) : 0;

  if (n == 0)
    g_string_append (text, "No downloads yet.");
  else
    g_string_append_printf (text, "%u download%s, oldest first:", n, n == 1 ? "" : "s");
  tw_tool_append_downloads (text, result);
  if (json_object_has_member (result, "folder"))
    tw_tool_append_field (text, "folder", tw_json_get_string (result, "folder", ""));

  return g_string_free (text, FALSE);
}

static const TwToolDef downloads_tools[] = {
  {
    .name = "browser_downloads",
    .title = "List downloaded files",
    .description =
      "List the files that pages of the workspace downloaded: file name, size, MIME type, "
      "state (running, awaiting approval, finished, failed) and path. Downloads are saved into the workspace's "
      "downloads/ folder, never elsewhere; the result of the click or navigation that starts "
      "one already reports it. Use it to find a file a page exported, or to check on a long "
      "download.",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_DOWNLOADS,
    .format = format_downloads,
  },
};

const TwToolTable tw_tools_downloads = TW_TOOL_TABLE (downloads_tools);
