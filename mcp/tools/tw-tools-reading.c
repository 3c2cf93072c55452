/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

#include "tw-error.h"

/* The reading tools: the page's visible text, its HTML, and the page as
 * Markdown. Their replies are long bodies for reading, so they are text
 * only (no outputSchema): labelled lines say where the text came from, and
 * a last "cursor:" line says how to go on when the body was cut. */

/* The "range:" line of a reply: which characters of the whole text it
 * holds. */
static void
append_range (GString    *text,
              JsonObject *result)
{
  const char *body = tw_json_get_string (result, "text", "");
  gint64 offset = tw_json_get_int (result, "offset", 0);
  g_autofree char *range = NULL;

  range = g_strdup_printf ("characters %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT " of %"
                           G_GINT64_FORMAT, offset, offset + (gint64) g_utf8_strlen (body, -1),
                           tw_json_get_int (result, "total", 0));
  tw_tool_append_field (text, "range", range);
}

/* The body of a reply, and when it was cut the "cursor:" line, which says
 * to call again with @again to read on. */
static void
append_body (GString    *text,
             JsonObject *result,
             const char *again)
{
  const char *body = tw_json_get_string (result, "text", "");
  const char *cursor = tw_json_get_string (result, "nextCursor", NULL);

  g_string_append (text, "\n\n");
  if (*body != '\0')
    tw_tool_append_page_content (text, body);
  else
    g_string_append (text, "(no text)");
  if (cursor != NULL)
    g_string_append_printf (text, "\n\ncursor: %s (cut here: call again with %s to read on)",
                            cursor, again);
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
  const char *main_content = tw_json_get_string (result, "mainContent", NULL);

  g_string_append (text, what);
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_field (text, "url", tw_json_get_string (result, "url", ""));
  tw_tool_append_title (text, result);
  if (main_content != NULL)
    tw_tool_append_field (text, "mainContent", main_content);
  append_range (text, result);
  tw_tool_append_dialogs (text, result);
  append_body (text, result, "this cursor");

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

/* A page fetched without a tab says where its text came from:
 *   The page read over HTTP, from markdown.
 *   url: https://…   (after redirects)
 *   status: 200
 *   source: markdown | llms.txt | llms-full.txt | text | extracted HTML */
static char *
format_fetched (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *note = tw_json_get_string (result, "note", NULL);
  const char *main_content = tw_json_get_string (result, "mainContent", NULL);
  const char *title = tw_json_get_string (result, "title", NULL);
  g_autofree char *status = g_strdup_printf ("%" G_GINT64_FORMAT, tw_json_get_int (result, "status", 0));

  g_string_append_printf (text, "The page read over HTTP without a tab, from %s.",
                          tw_json_get_string (result, "source", "?"));
  tw_tool_append_field (text, "url", tw_json_get_string (result, "url", ""));
  tw_tool_append_field (text, "status", status);
  tw_tool_append_field (text, "source", tw_json_get_string (result, "source", "?"));
  tw_tool_append_field (text, "contentType", tw_json_get_string (result, "contentType", ""));
  if (title != NULL)
    {
      tw_tool_append_field (text, "title", "");
      tw_tool_append_quoted (text, title);
    }
  if (main_content != NULL)
    tw_tool_append_field (text, "mainContent", main_content);
  if (note != NULL)
    tw_tool_append_field (text, "note", note);
  append_range (text, result);
  append_body (text, result, "the same url and this cursor");

  return g_string_free (text, FALSE);
}

static void
read_handler (TwToolCall *call)
{
  static const char * const names[] = { "ref", "filter", "outline", "maxChars", "cursor",
                                        NULL };
  static const char * const url_names[] = { "url", "llms", "filter", "outline", "maxChars",
                                            "cursor", NULL };
  JsonObject *arguments = tw_tool_call_get_arguments (call);
  gboolean has_tab = json_object_has_member (arguments, "browserId");
  gboolean has_url = json_object_has_member (arguments, "url");
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) params = NULL;

  if (has_tab == has_url)
    {
      g_set_error_literal (&error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           has_tab
                           ? "Give either browserId (read a tab) or url (fetch a page), not both"
                           : "Give browserId (read a tab's page) or url (fetch a page over HTTP)");
      tw_tool_call_return_error (call, error);
      return;
    }

  if (!has_url)
    {
      if (json_object_has_member (arguments, "llms"))
        {
          g_set_error_literal (&error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "llms goes with url: it reads a site's llms.txt over HTTP");
          tw_tool_call_return_error (call, error);
          return;
        }
      params = tw_tool_call_copy_arguments (call, names);
      tw_tool_call_run_command (call, TW_TAB_COMMAND_READ, tw_tool_get_browser_id (call), params,
                                format_markdown);
      return;
    }

  if (json_object_has_member (arguments, "ref"))
    {
      g_set_error_literal (&error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "ref goes with browserId: a fetched page has no refs");
      tw_tool_call_return_error (call, error);
      return;
    }

  if (!tw_tool_check_http_url (tw_json_get_string (arguments, "url", ""), &error))
    {
      tw_tool_call_return_error (call, error);
      return;
    }

  params = tw_tool_call_copy_arguments (call, url_names);
  tw_tool_call_run_command (call, TW_TAB_COMMAND_READ_URL, NULL, params, format_fetched);
}

static char *
format_set_content (JsonObject *result)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "Replaced the document: it has %" G_GINT64_FORMAT " elements "
                          "now. Take a snapshot to act on it.", tw_json_get_int (result, "elements", 0));
  tw_tool_append_page (text, result);

  return g_string_free (text, FALSE);
}

/* browser_get_styles */

static char *
format_styles (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *ref = tw_json_get_string (result, "ref", "?");
  const char *why = tw_json_get_string (result, "hiddenBecause", NULL);
  JsonObject *box = tw_json_get_object (result, "box");
  JsonObject *style = tw_json_get_object (result, "style");

  if (tw_json_get_boolean (result, "visible", FALSE))
    g_string_append_printf (text, "%s <%s> is visible.", ref, tw_json_get_string (result, "tag", "?"));
  else
    g_string_append_printf (text, "%s <%s> is not visible: %s.", ref,
                            tw_json_get_string (result, "tag", "?"), why != NULL ? why : "?");
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_field (text, "ref", ref);

  if (box != NULL)
    {
      static const char * const sides[] = { "margin", "padding", "border", NULL };

      g_string_append_printf (text, "\nbox: x %" G_GINT64_FORMAT ", y %" G_GINT64_FORMAT
                              ", %" G_GINT64_FORMAT " × %" G_GINT64_FORMAT " (viewport CSS pixels)",
                              tw_json_get_int (box, "x", 0), tw_json_get_int (box, "y", 0),
                              tw_json_get_int (box, "width", 0), tw_json_get_int (box, "height", 0));
      for (guint i = 0; sides[i] != NULL; i++)
        {
          JsonNode *node = json_object_get_member (box, sides[i]);
          g_autofree char *values = node != NULL ? json_to_string (node, FALSE) : NULL;

          if (values != NULL)
            g_string_append_printf (text, "\n%s (top right bottom left): %s", sides[i], values);
        }
    }

  if (style != NULL)
    {
      g_autoptr(GList) names = json_object_get_members (style);

      g_string_append (text, "\nstyle:");
      for (GList *l = names; l != NULL; l = l->next)
        g_string_append_printf (text, "\n  %s: %s", (const char *) l->data,
                                tw_json_get_string (style, l->data, ""));
    }

  tw_tool_append_dialogs (text, result);

  return g_string_free (text, FALSE);
}

static const TwToolDef reading_tools[] = {
  {
    .name = "browser_get_text",
    .title = "Get the page text",
    .description =
      "Get the visible text of the page or of one element (ref), one block per line, as a "
      "person sees it. Long text is cut at maxChars with a cursor to read on.",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_GET_TEXT,
    .arguments = TW_TOOL_ARGUMENTS ("ref", "maxChars", "cursor"),
    .format = format_text,
  },
  {
    .name = "browser_get_html",
    .title = "Get the page HTML",
    .description =
      "Get the HTML source of the live page (the DOM as it is now) or of one element: outer "
      "HTML, or inner with inner=true; stripScripts empties <script> and <style>. Cut at "
      "maxChars with a cursor to read on.",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_GET_HTML,
    .arguments = TW_TOOL_ARGUMENTS ("ref", "inner", "stripScripts", "maxChars", "cursor"),
    .format = format_html,
  },
  {
    .name = "browser_read",
    .title = "Read the page as Markdown",
    .description =
      "Read a page as Markdown: its main content with headings, paragraphs, links with URLs, "
      "lists, tables, code and image alt text; menus and boilerplate left out. With browserId "
      "it reads the tab's live page (script-built and logged-in pages work); with url it "
      "fetches the page over HTTP without a tab, with the workspace's cookies, preferring the "
      "site's Markdown, or its llms.txt with llms. outline gives headings only; filter keeps "
      "the sections and lines that match.",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .handler = read_handler,
  },
  {
    .name = "browser_set_content",
    .title = "Set the page HTML",
    .description =
      "Replace the tab's document with the given HTML, at the same URL, e.g. to try out "
      "markup or reproduce a bug. Scripts in it run.",
    .read_only = FALSE,
    .destructive = TRUE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_SET_CONTENT,
    .arguments = TW_TOOL_ARGUMENTS ("html"),
    .format = format_set_content,
  },
  {
    .name = "browser_get_styles",
    .title = "Get an element's CSS styles",
    .description =
      "Get the computed CSS style of an element (the properties given, or those that differ "
      "from defaults), its box (position, size, margins), and whether it is visible and if "
      "not why: display, visibility, opacity, size, clipped, off-screen or covered.",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_GET_STYLES,
    .arguments = TW_TOOL_ARGUMENTS ("ref", "properties"),
    .format = format_styles,
  },
};

const TwToolTable tw_tools_reading = TW_TOOL_TABLE (reading_tools);
