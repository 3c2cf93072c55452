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

  tw_tool_append_count (text, tw_json_get_array (result, "downloads"), "No downloads yet.",
                        "download", ", oldest first:");
  tw_tool_append_downloads (text, result);
  tw_tool_append_member (text, result, "folder");

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
