/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* The reading tools: the page's visible text, its HTML, and the page as
 * Markdown. Their replies are long bodies for reading, so they are text
 * only (no outputSchema): labelled lines say where the text came from, and
 * a last "cursor:" line says how to go on when the body was cut. */

static gint64
get_int (JsonObject *object,
         const char *member,
         gint64      fallback)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    return fallback;

  return json_node_get_int (node);
}

/* What every reading reply looks like:
 *   <what> of "<title>"
 *   browserId: b3
 *   url: http://…
 *   range: characters 0–40000 of 120000
 *
 *   <body>
 *
 *   cursor: c40000 (the text goes on: call again with this cursor) */
static char *
format_reading (JsonObject *result,
                const char *what)
{
  GString *text = g_string_new (NULL);
  const char *body = tw_tool_get_string (result, "text", "");
  const char *cursor = tw_tool_get_string (result, "nextCursor", NULL);
  const char *main_content = tw_tool_get_string (result, "mainContent", NULL);
  gint64 offset = get_int (result, "offset", 0);
  gint64 total = get_int (result, "total", 0);
  g_autofree char *range = NULL;

  g_string_append (text, what);
  tw_tool_append_field (text, "browserId", tw_tool_get_string (result, "browserId", "?"));
  tw_tool_append_field (text, "url", tw_tool_get_string (result, "url", ""));
  tw_tool_append_title (text, result);
  if (main_content != NULL)
    tw_tool_append_field (text, "mainContent", main_content);
  range = g_strdup_printf ("characters %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT " of %"
                           G_GINT64_FORMAT, offset, offset + (gint64) g_utf8_strlen (body, -1),
                           total);
  tw_tool_append_field (text, "range", range);
  tw_tool_append_dialogs (text, result);

  g_string_append (text, "\n\n");
  g_string_append (text, *body != '\0' ? body : "(no text)");

  if (cursor != NULL)
    {
      g_string_append_printf (text, "\n\ncursor: %s", cursor);
      g_string_append (text, " (cut here: call again with this cursor to read on)");
    }

  return g_string_free (text, FALSE);
}

static char *
format_text (JsonObject *result)
{
  return format_reading (result, "Visible text of the page.");
}

static char *
format_html (JsonObject *result)
{
  return format_reading (result, "HTML of the page.");
}

static char *
format_markdown (JsonObject *result)
{
  return format_reading (result, "The page as Markdown (main content; navigation left out).");
}

static void
get_text_handler (TwToolCall *call)
{
  static const char * const names[] = { "ref", "maxChars", "cursor", NULL };
  g_autoptr(JsonObject) params = tw_tool_copy_arguments (call, names);

  tw_tool_call_run_command (call, TW_TAB_COMMAND_GET_TEXT, tw_tool_get_browser_id (call),
                            params, format_text);
}

static void
get_html_handler (TwToolCall *call)
{
  static const char * const names[] = { "ref", "inner", "stripScripts", "maxChars", "cursor",
                                        NULL };
  g_autoptr(JsonObject) params = tw_tool_copy_arguments (call, names);

  tw_tool_call_run_command (call, TW_TAB_COMMAND_GET_HTML, tw_tool_get_browser_id (call),
                            params, format_html);
}

static void
read_handler (TwToolCall *call)
{
  static const char * const names[] = { "ref", "filter", "outline", "maxChars", "cursor",
                                        NULL };
  g_autoptr(JsonObject) params = tw_tool_copy_arguments (call, names);

  tw_tool_call_run_command (call, TW_TAB_COMMAND_READ, tw_tool_get_browser_id (call),
                            params, format_markdown);
}

#define REF_PROPERTY \
  "\"ref\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"Only this element, e.g. \\\"@e12\\\" from a snapshot.\"}"
#define CHARS_PROPERTIES \
  "\"maxChars\": {\"type\": \"integer\", \"minimum\": 1000, \"maximum\": 1000000, \"description\": \"Longest reply in characters (default 40000).\"}, " \
  "\"cursor\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"Read on: the cursor a cut reply ended with.\"}"

static const TwToolDef reading_tools[] = {
  {
    .name = "browser_get_text",
    .title = "Get the page text",
    .description =
      "Get the visible text of the page or of one element (ref), one block per line, as a "
      "person sees it. Long text is cut at maxChars with a cursor to read on.",
    .input_schema =
      "{"
        "\"type\": \"object\", "
        "\"properties\": {"
          TW_TOOL_BROWSER_ID_PROPERTY ", "
          REF_PROPERTY ", "
          CHARS_PROPERTIES
        "}, "
        "\"required\": [\"browserId\"], "
        "\"additionalProperties\": false"
      "}",
    .output_schema = NULL,
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .handler = get_text_handler,
  },
  {
    .name = "browser_get_html",
    .title = "Get the page HTML",
    .description =
      "Get the HTML source of the live page (the DOM as it is now) or of one element: outer "
      "HTML, or inner with inner=true; stripScripts empties <script> and <style>. Cut at "
      "maxChars with a cursor to read on.",
    .input_schema =
      "{"
        "\"type\": \"object\", "
        "\"properties\": {"
          TW_TOOL_BROWSER_ID_PROPERTY ", "
          REF_PROPERTY ", "
          "\"inner\": {\"type\": \"boolean\", \"description\": \"The element's content without its own tag. Default false.\"}, "
          "\"stripScripts\": {\"type\": \"boolean\", \"description\": \"Leave out the bodies of <script> and <style>. Default false.\"}, "
          CHARS_PROPERTIES
        "}, "
        "\"required\": [\"browserId\"], "
        "\"additionalProperties\": false"
      "}",
    .output_schema = NULL,
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .handler = get_html_handler,
  },
  {
    .name = "browser_read",
    .title = "Read the page as Markdown",
    .description =
      "Read a page as Markdown: its main content with headings, paragraphs, links with URLs, "
      "lists, tables, code and image alt text; menus and boilerplate left out. Reads the tab's "
      "live page, so script-built and logged-in pages work. outline gives headings only; "
      "filter keeps the sections and lines that match.",
    .input_schema =
      "{"
        "\"type\": \"object\", "
        "\"properties\": {"
          TW_TOOL_BROWSER_ID_PROPERTY ", "
          REF_PROPERTY ", "
          "\"filter\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"Only the sections whose heading contains this text, and the lines and links that do.\"}, "
          "\"outline\": {\"type\": \"boolean\", \"description\": \"Only the headings, as an indented list.\"}, "
          CHARS_PROPERTIES
        "}, "
        "\"required\": [\"browserId\"], "
        "\"additionalProperties\": false"
      "}",
    .output_schema = NULL,
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .handler = read_handler,
  },
};

const TwToolDef *
tw_tools_reading_get (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (reading_tools);
  return reading_tools;
}
