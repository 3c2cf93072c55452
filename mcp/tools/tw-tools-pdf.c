/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_pdf: the page printed to a PDF file of the workspace. */

static char *
format_pdf (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonNode *size = json_object_get_member (result, "size");

  g_string_append_printf (text, "Printed the page to a PDF of %" G_GINT64_FORMAT " bytes.",
                          size != NULL && JSON_NODE_HOLDS_VALUE (size) ? json_node_get_int (size) : 0);
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
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      "\"path\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"The PDF file to write, inside the workspace, e.g. out/page.pdf. Its folder must exist.\"}, "
      "\"paperSize\": {\"type\": \"string\", \"enum\": [\"A4\", \"A3\", \"A5\", \"Letter\", \"Legal\"], \"description\": \"Default A4.\"}, "
      "\"landscape\": {\"type\": \"boolean\", \"description\": \"Default false (portrait).\"}, "
      "\"background\": {\"type\": \"boolean\", \"description\": \"Print background colours and images. Default true.\"}",
      "\"browserId\", \"path\""),
    .output_schema = TW_TOOL_OUTPUT_SCHEMA (
      "\"browserId\": {\"type\": \"string\"}, "
      "\"path\": {\"type\": \"string\", \"description\": \"The PDF written, resolved.\"}, "
      "\"size\": {\"type\": \"integer\", \"description\": \"Its size in bytes.\"}, "
      TW_TOOL_DIALOGS_PROPERTY,
      "\"browserId\", \"path\", \"size\""),
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_PDF,
    .arguments = TW_TOOL_ARGUMENTS ("path", "paperSize", "landscape", "background"),
    .format = format_pdf,
  },
};

const TwToolDef *
tw_tools_pdf_get (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (pdf_tools);
  return pdf_tools;
}
