/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

#include "tw-error.h"

#include <string.h>

/* Tools that read a tab or set it up without acting on the page:
 * screenshot, logs, wait and resize. */

/* browser_screenshot */

/* A result whose point is an image carries no structuredContent: Codex
 * passes the model only the JSON of structuredContent when there is one and
 * drops the image. The text says, labelled, what the image is. */
/* The refs drawn on a marked screenshot, so a model that cannot make out a
 * label still knows which refs the picture holds. */
static void
append_marks (GString   *text,
              JsonArray *marks,
              gint64     left_out)
{
  guint n = json_array_get_length (marks);

  if (n == 0)
    {
      g_string_append (text, "\nmarks: none (no element an agent can act on shows)");
      return;
    }

  g_string_append (text, "\nmarks:");
  for (guint i = 0; i < n; i++)
    {
      const char *ref = json_array_get_string_element (marks, i);

      g_string_append_c (text, ' ');
      g_string_append (text, ref != NULL ? ref : "?");
    }
  g_string_append (text, " (each label is the ref of the element below it, as browser_snapshot "
                   "gives it)");
  if (left_out > 0)
    g_string_append_printf (text, "; %" G_GINT64_FORMAT " more elements are not labelled",
                            left_out);
}

static void
screenshot_reply (TwToolCall *call,
                  JsonObject *result)
{
  g_autoptr(GString) text = g_string_new (NULL);
  const char *png = tw_json_get_string (result, "png", NULL);
  const char *jpeg = tw_json_get_string (result, "jpeg", NULL);
  const char *image = png != NULL ? png : jpeg;
  const char *path = tw_json_get_string (result, "path", NULL);
  const char *ref = tw_json_get_string (result, "ref", NULL);
  const char *kind = g_strcmp0 (tw_json_get_string (result, "mimeType", "image/png"),
                                "image/jpeg") == 0 ? "JPEG" : "PNG";
  gint64 width = tw_json_get_int (result, "width", -1);
  gint64 height = tw_json_get_int (result, "height", -1);
  JsonNode *scale = json_object_get_member (result, "scale");
  gboolean truncated = tw_json_get_boolean (result, "truncated", FALSE);
  JsonArray *marks = tw_json_get_array (result, "marks");
  g_autofree char *width_text = g_strdup_printf ("%" G_GINT64_FORMAT, width);
  g_autofree char *height_text = g_strdup_printf ("%" G_GINT64_FORMAT, height);

  if (path != NULL)
    g_string_append_printf (text, "Saved the screenshot as a %s file.", kind);
  else if (ref != NULL)
    g_string_append_printf (text, "Screenshot of element %s (%s image below).", ref, kind);
  else
    g_string_append_printf (text, "Screenshot of the page (%s image below).", kind);

  if (truncated)
    g_string_append (text, " The page is taller: the image stops at its first 8000 pixels; "
                     "scroll and take viewport screenshots, or save the whole page with "
                     "savePath.");

  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_field (text, "width", width_text);
  tw_tool_append_field (text, "height", height_text);
  if (scale != NULL && JSON_NODE_HOLDS_VALUE (scale))
    {
      char scale_text[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (scale_text, sizeof scale_text, "%.4g", json_node_get_double (scale));
      tw_tool_append_field (text, "scale", scale_text);
    }
  if (path != NULL)
    tw_tool_append_field (text, "path", path);
  if (marks != NULL)
    append_marks (text, marks, tw_json_get_int (result, "marksLeftOut", 0));
  tw_tool_append_dialogs (text, result);

  tw_tool_return_text_and_image (call, text->str, image);
}

static void
screenshot_handler (TwToolCall *call)
{
  static const char * const names[] = {
    "fullPage", "savePath", "ref", "format", "quality", "maxWidth", "marks", NULL
  };
  g_autoptr(JsonObject) params = tw_tool_call_copy_arguments (call, names);

  tw_tool_call_run_command_full (call, TW_TAB_COMMAND_SCREENSHOT, tw_tool_get_browser_id (call),
                                 params, screenshot_reply);
}

/* browser_logs */

/* One compact line per entry: the clock time, then what happened, e.g.
 *   14:03:07.214 console.error Uncaught TypeError: x is undefined (http://…/app.js:12)
 *   14:03:07.250 GET http://…/logo.png 404 image 12 ms 335 B
 *   14:03:07.300 GET http://…/api/items FAILED: Could not connect fetch 3 ms
 *   14:03:08.001 --- navigated to http://…/next --- */
static char *
format_log_entry (JsonObject *entry)
{
  GString *line = g_string_new (NULL);
  const char *type = tw_json_get_string (entry, "type", "note");
  const char *time = tw_json_get_string (entry, "time", NULL);
  const char *url = tw_json_get_string (entry, "url", NULL);

  /* Only the clock time: the date is the same for nearly every entry.
   * "2025-01-31T14:03:07.214+01:00" gives "14:03:07.214". */
  if (time != NULL && strlen (time) >= 23)
    g_string_append_len (line, time + 11, 12);
  else if (time != NULL)
    g_string_append (line, time);

  if (g_strcmp0 (type, "console") == 0)
    {
      gint64 number = tw_json_get_int (entry, "line", -1);

      g_string_append_printf (line, " console.%s %s",
                              tw_json_get_string (entry, "level", "log"),
                              tw_json_get_string (entry, "text", ""));
      if (url != NULL && number > 0)
        g_string_append_printf (line, " (%s:%" G_GINT64_FORMAT ")", url, number);
      else if (url != NULL)
        g_string_append_printf (line, " (%s)", url);
    }
  else if (g_strcmp0 (type, "network") == 0)
    {
      tw_tool_append_request (line, entry, "unknown reason");
    }
  else if (g_strcmp0 (type, "navigation") == 0)
    {
      g_string_append_printf (line, " --- navigated to %s ---", url != NULL ? url : "");
    }
  else
    {
      g_string_append_printf (line, " --- %s ---", tw_json_get_string (entry, "text", ""));
    }

  return g_string_free (line, FALSE);
}

static char *
format_logs (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *browser_id = tw_json_get_string (result, "browserId", "?");
  JsonArray *entries = tw_json_get_array (result, "entries");
  guint n_entries = entries != NULL ? json_array_get_length (entries) : 0;
  gint64 total = tw_json_get_int (result, "total", -1);
  gint64 dropped = tw_json_get_int (result, "dropped", -1);
  g_autoptr(GString) lines = g_string_new (NULL);

  if (n_entries == 0)
    {
      g_string_append (text, "No console messages or network requests recorded yet.");
      tw_tool_append_field (text, "browserId", browser_id);
    }
  else
    {
      g_string_append_printf (text, "The last %u of %" G_GINT64_FORMAT " log entries, "
                              "newest last",
                              n_entries, MAX (total, (gint64) n_entries));
      if (dropped > 0)
        g_string_append_printf (text, " (%" G_GINT64_FORMAT " older ones were dropped)", dropped);
      g_string_append_c (text, '.');
      tw_tool_append_field (text, "browserId", browser_id);

      /* The entries carry the page's console messages: page content. */
      for (guint i = 0; i < n_entries; i++)
        {
          JsonNode *element = json_array_get_element (entries, i);
          g_autofree char *line = NULL;

          if (!JSON_NODE_HOLDS_OBJECT (element))
            continue;

          line = format_log_entry (json_node_get_object (element));
          if (lines->len > 0)
            g_string_append_c (lines, '\n');
          g_string_append (lines, line);
        }
      g_string_append_c (text, '\n');
      tw_tool_append_page_content (text, lines->str);
    }

  tw_tool_append_dialogs (text, result);

  return g_string_free (text, FALSE);
}

/* browser_wait */

static char *
format_wait (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *matched = tw_json_get_string (result, "matched", "text");
  const char *value = tw_json_get_string (result, "value", "");

  /* The conditions of the reading tools (issue 17). */
  if (g_strcmp0 (matched, "textGone") == 0)
    g_string_append_printf (text, "The text \"%s\" is gone after %" G_GINT64_FORMAT " ms.",
                            value, MAX (tw_json_get_int (result, "elapsedMs", -1), 0));
  else if (g_strcmp0 (matched, "selector") == 0 || g_strcmp0 (matched, "ref") == 0)
    g_string_append_printf (text, "The element %s holds after %" G_GINT64_FORMAT " ms.",
                            value, MAX (tw_json_get_int (result, "elapsedMs", -1), 0));
  else if (g_strcmp0 (matched, "function") == 0)
    g_string_append_printf (text, "The function returned a truthy value after %" G_GINT64_FORMAT
                            " ms.", MAX (tw_json_get_int (result, "elapsedMs", -1), 0));
  else if (g_strcmp0 (matched, "loadState") == 0)
    g_string_append_printf (text, "The page reached %s after %" G_GINT64_FORMAT " ms.",
                            value, MAX (tw_json_get_int (result, "elapsedMs", -1), 0));
  else if (g_strcmp0 (matched, "url") == 0)
    g_string_append_printf (text, "The URL contains \"%s\" after %" G_GINT64_FORMAT " ms.",
                            value, MAX (tw_json_get_int (result, "elapsedMs", -1), 0));
  else
    g_string_append_printf (text, "The text \"%s\" appeared after %" G_GINT64_FORMAT " ms.",
                            value, MAX (tw_json_get_int (result, "elapsedMs", -1), 0));

  tw_tool_append_page (text, result);

  return g_string_free (text, FALSE);
}

/* Exactly one condition to wait for. */
static gboolean
check_wait (JsonObject  *arguments,
            GError     **error)
{
  static const char * const conditions[] = { "text", "url", "textGone", "selector", "ref",
                                             "loadState", "function", NULL };
  guint n_given = 0;

  for (guint i = 0; conditions[i] != NULL; i++)
    n_given += json_object_has_member (arguments, conditions[i]);

  if (n_given != 1)
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           n_given > 1
                           ? "Give one condition to wait for, not several"
                           : "Give one condition: \"text\" (text appears), \"textGone\", "
                           "\"url\" (the URL contains a fragment), \"selector\" or \"ref\" "
                           "(with \"state\"), or \"loadState\"");
      return FALSE;
    }

  return TRUE;
}

/* browser_resize */

static char *
format_resize (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  gint64 width = tw_json_get_int (result, "width", -1);
  gint64 height = tw_json_get_int (result, "height", -1);
  gint64 inner_width = tw_json_get_int (result, "innerWidth", -1);
  gint64 inner_height = tw_json_get_int (result, "innerHeight", -1);

  g_string_append_printf (text, "Resized the viewport to %" G_GINT64_FORMAT " × %" G_GINT64_FORMAT,
                          width, height);

  if (inner_width == width && inner_height == height && tw_json_get_boolean (result, "resizeEventPending", FALSE))
    g_string_append (text, "; the page has the new innerWidth and innerHeight, but has not fired its "
                     "resize event yet (a busy page): check before relying on what its listeners do.");
  else if (inner_width == width && inner_height == height)
    g_string_append (text, "; the page sees the same innerWidth and innerHeight.");
  else
    g_string_append_printf (text, "; the page reports innerWidth %" G_GINT64_FORMAT
                            " and innerHeight %" G_GINT64_FORMAT " (is the page zoomed?).",
                            inner_width, inner_height);
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));

  tw_tool_append_dialogs (text, result);

  return g_string_free (text, FALSE);
}

static const TwToolDef page_tools[] = {
  /* The image is the result: no output schema, so no structuredContent
   * that would hide it from Codex. */
  {
    .name = "browser_screenshot",
    .title = "Take a screenshot",
    .description =
      "Take a screenshot of a tab (PNG of the viewport; fullPage for all of it) to see how the "
      "page looks: layout, colours and images; browser_snapshot reads text and refs. ref: one element; jpeg, "
      "quality and maxWidth: smaller images; savePath: a workspace file instead.",
    .search_hint = "take screenshot, capture image, how page looks",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .handler = screenshot_handler,
  },
  {
    .name = "browser_logs",
    .title = "Read console errors and network requests",
    .description =
      "See console errors and the network requests the page made: console messages, uncaught "
      "JavaScript errors, CSP violations and each request with method, URL, status, type, "
      "duration and failure, oldest first. To check a page for errors: a blank page, a "
      "failing API call, a missing image.",
    .search_hint = "read console messages, JavaScript errors, network requests",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_LOGS,
    .arguments = TW_TOOL_ARGUMENTS ("maxEntries"),
    .format = format_logs,
  },
  {
    .name = "browser_wait",
    .title = "Wait for text or a URL",
    .description =
      "Wait for text to appear on the page (textGone: disappear), the URL to contain a part, an element "
      "(selector or ref) to reach a state, a loadState, or a function to return true; one "
      "condition. For effects that come later: results loading, a spinner leaving, a redirect. "
      "Fails with browser_timeout after timeoutMs, saying what the page shows.",
    .search_hint = "wait until text appears, page loads",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_WAIT,
    .arguments = TW_TOOL_ARGUMENTS ("text", "url", "timeoutMs", "textGone", "selector", "ref",
                                    "state", "loadState", "function"),
    .format = format_wait,
    .check = check_wait,
  },
  {
    .name = "browser_resize",
    .title = "Resize the viewport",
    .description =
      "Resize a tab's viewport to width x height CSS pixels (200 to 4000), e.g. 375 x 667 for a "
      "phone or 768 x 1024 for a tablet, to test a responsive layout. The page sees exactly "
      "this innerWidth and innerHeight.",
    .search_hint = "resize viewport, window, phone, tablet, mobile size",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_RESIZE,
    .arguments = TW_TOOL_ARGUMENTS ("width", "height"),
    .format = format_resize,
  },
};

const TwToolTable tw_tools_page = TW_TOOL_TABLE (page_tools);
