/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_pdf: the page printed to a PDF file of the workspace. */

static char *
format_pdf (JsonObject *result)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "Printed the page to a PDF of %" G_GINT64_FORMAT " bytes.",
                          (gint64) tw_json_get_number (result, "size", 0));
  tw_tool_append_field (text, "path", tw_json_get_string (result, "path", "?"));
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_dialogs (text, result);

  return g_string_free (text, FALSE);
}

static const TwToolDef pdf_tools[] = {
  {
    .name = "browser_pdf",
    .title = "Save the page as PDF",
    .description =
      "Print the page of a tab to a PDF file in the workspace, as the browser's print would "
      "(print stylesheets apply): to save an invoice, a report or an article, or to check a "
      "page's print layout. Choose paperSize, landscape and whether to print background "
      "colours and images.",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_PDF,
    .arguments = TW_TOOL_ARGUMENTS ("path", "paperSize", "landscape", "background"),
    .format = format_pdf,
  },
};

const TwToolTable tw_tools_pdf = TW_TOOL_TABLE (pdf_tools);
