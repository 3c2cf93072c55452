/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

#include "tw-error.h"

#include <string.h>

/* Tools for debugging a page in depth: its console, its network requests, and
 * HTTP requests with the workspace's cookies. */

/* The first line of a listing of @what (a noun that takes an "s"): "No
 * requests match.", "3 matching requests, oldest first." or, when only
 * the newest @shown of @matched are listed, "The newest 50 of 120
 * matching requests, oldest first." */
static void
append_matching (GString    *text,
                 const char *what,
                 guint       shown,
                 gint64      matched)
{
  if (shown == 0)
    g_string_append_printf (text, "No %ss match.", what);
  else if (matched > shown)
    g_string_append_printf (text, "The newest %u of %" G_GINT64_FORMAT " matching %ss, "
                            "oldest first.", shown, matched, what);
  else
    g_string_append_printf (text, "%u matching %s%s, oldest first.", shown, what,
                            shown == 1 ? "" : "s");
}

/* browser_console */

static void
append_location (GString    *text,
                 JsonObject *object)
{
  const char *url = tw_json_get_string (object, "url", NULL);
  gint64 line = tw_json_get_int (object, "line", 0);
  gint64 column = tw_json_get_int (object, "column", 0);

  if (url == NULL || url[0] == '\0')
    return;

  g_string_append (text, url);
  if (line > 0)
    g_string_append_printf (text, ":%" G_GINT64_FORMAT, line);
  if (line > 0 && column > 0)
    g_string_append_printf (text, ":%" G_GINT64_FORMAT, column);
}

/* "#12 14:03:07.214 error javascript: TypeError: x is undefined (http://…/app.js:12:5)" */
static void
append_message_line (GString    *text,
                     JsonObject *message)
{
  const char *time = tw_json_get_string (message, "time", "");

  g_string_append_printf (text, "\n#%" G_GINT64_FORMAT " ", tw_json_get_int (message, "id", 0));
  if (strlen (time) >= 23)
    g_string_append_len (text, time + 11, 12);
  g_string_append_printf (text, " %s %s: %s",
                          tw_json_get_string (message, "level", "log"),
                          tw_json_get_string (message, "source", "other"),
                          tw_json_get_string (message, "text", ""));
  if (tw_json_get_string (message, "url", NULL) != NULL)
    {
      g_string_append (text, " (");
      append_location (text, message);
      g_string_append (text, ")");
    }
}

static void
append_message_detail (GString    *text,
                       JsonObject *message)
{
  JsonArray *args = tw_json_get_array (message, "args");
  JsonArray *stack = tw_json_get_array (message, "stack");

  if (args != NULL)
    {
      for (guint i = 0; i < json_array_get_length (args); i++)
        {
          g_autofree char *json = json_to_string (json_array_get_element (args, i), FALSE);

          g_string_append_printf (text, "\narg %u: %s", i, json);
        }
    }
  else
    {
      g_string_append (text, "\nargs: not available (the message came from the engine, not "
                       "from a console call or exception in the page)");
    }

  if (stack != NULL && json_array_get_length (stack) > 0)
    {
      g_string_append (text, "\nstack:");
      for (guint i = 0; i < json_array_get_length (stack); i++)
        {
          JsonObject *frame = json_array_get_object_element (stack, i);
          const char *function = tw_json_get_string (frame, "function", "");

          g_string_append_printf (text, "\n  at %s (", function[0] != '\0' ? function
                                                                          : "(top level)");
          if (tw_json_get_string (frame, "url", "")[0] != '\0')
            append_location (text, frame);
          else
            g_string_append (text, "native");
          g_string_append (text, ")");
        }
    }
}

static char *
format_console (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *mode = tw_json_get_string (result, "mode", "list");
  JsonArray *messages = tw_json_get_array (result, "messages");
  guint n = messages != NULL ? json_array_get_length (messages) : 0;
  gint64 matched = tw_json_get_int (result, "matched", n);
  g_autoptr(GString) lines = g_string_new (NULL);

  if (g_strcmp0 (mode, "clear") == 0)
    g_string_append_printf (text, "Cleared %" G_GINT64_FORMAT " console messages.",
                            tw_json_get_int (result, "cleared", 0));
  else if (g_strcmp0 (mode, "message") == 0)
    g_string_append (text, "One console message in detail.");
  else if (g_strcmp0 (mode, "wait") == 0)
    g_string_append_printf (text, "%" G_GINT64_FORMAT " new matching console message%s after "
                            "%" G_GINT64_FORMAT " ms, oldest first.",
                            matched, matched == 1 ? "" : "s", tw_json_get_int (result, "waitedMs", 0));
  else
    append_matching (text, "console message", n, matched);

  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));

  /* The messages are the page's words: page content. */
  for (guint i = 0; i < n; i++)
    {
      JsonObject *message = json_array_get_object_element (messages, i);

      append_message_line (lines, message);
      if (g_strcmp0 (mode, "message") == 0)
        append_message_detail (lines, message);
    }
  if (n > 0)
    {
      g_string_append_c (text, '\n');
      /* Each message line starts with a line break. */
      tw_tool_append_page_content (text, lines->str + 1);
    }

  if (g_strcmp0 (mode, "list") == 0 || g_strcmp0 (mode, "wait") == 0)
    {
      if (n > 0)
        g_string_append (text, "\nFor every argument as JSON and the stack, call again with id.");
    }

  tw_tool_append_dialogs (text, result);

  return g_string_free (text, FALSE);
}

/* At most one mode besides listing. */
static gboolean
check_console (JsonObject  *arguments,
               GError     **error)
{
  guint modes = json_object_has_member (arguments, "id") +
                tw_json_get_boolean (arguments, "wait", FALSE) +
                tw_json_get_boolean (arguments, "clear", FALSE);

  if (modes > 1)
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "Give at most one of \"id\" (one message in detail), \"wait\" (the "
                           "next matching message) and \"clear\"");
      return FALSE;
    }

  return TRUE;
}

/* browser_network */

/* "#12 POST http://…/api/items 201 fetch 12 ms 335 B application/json" */
static void
append_request_line (GString    *text,
                     JsonObject *request)
{
  const char *mime_type = tw_json_get_string (request, "mimeType", NULL);

  g_string_append_printf (text, "\n#%" G_GINT64_FORMAT, tw_json_get_int (request, "id", 0));
  tw_tool_append_request (text, request, "unknown");
  if (mime_type != NULL)
    g_string_append_printf (text, " %s", mime_type);
}

static void
append_headers (GString    *text,
                const char *label,
                JsonObject *request)
{
  JsonArray *headers = tw_json_get_array (request, label);
  guint n = headers != NULL ? json_array_get_length (headers) : 0;

  g_string_append_printf (text, "\n%s:%s", label, n == 0 ? " (none)" : "");
  for (guint i = 0; i < n; i++)
    {
      JsonObject *header = json_array_get_object_element (headers, i);

      g_string_append_printf (text, "\n  %s: %s", tw_json_get_string (header, "name", ""),
                              tw_json_get_string (header, "value", ""));
    }
}

static void
append_timing (GString    *text,
               JsonObject *timing)
{
  static const struct {
    const char *member;
    const char *label;
  } phases[] = {
    { "redirectMs", "redirect" },
    { "dnsMs", "dns" },
    { "connectMs", "connect" },
    { "tlsMs", "tls" },
    { "waitingMs", "waiting" },
    { "downloadMs", "download" },
    { "totalMs", "total" },
  };
  gboolean first = TRUE;

  g_string_append (text, "\ntiming:");
  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    {
      JsonNode *node = json_object_get_member (timing, phases[i].member);

      if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
        continue;
      g_string_append_printf (text, "%s %s %.1f ms", first ? "" : ",", phases[i].label,
                              json_node_get_double (node));
      first = FALSE;
    }
  if (first)
    g_string_append (text, " (no phases measured)");
}

static char *
format_network (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *mode = tw_json_get_string (result, "mode", "list");
  JsonObject *request = tw_json_get_object (result, "request");

  if (g_strcmp0 (mode, "request") == 0 && request != NULL)
    {
      JsonObject *timing = tw_json_get_object (request, "timing");
      JsonObject *body = tw_json_get_object (request, "responseBody");
      JsonArray *unavailable = tw_json_get_array (request, "unavailable");
      g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, tw_json_get_int (request, "id", 0));

      g_string_append_printf (text, "Request #%s in detail:", id);
      append_request_line (text, request);
      tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
      tw_tool_append_field (text, "id", id);
      tw_tool_append_field (text, "url", tw_json_get_string (request, "url", ""));
      append_headers (text, "requestHeaders", request);
      if (tw_json_get_string (request, "requestBody", NULL) != NULL)
        {
          g_string_append (text, "\nrequestBody:\n");
          tw_tool_append_page_content (text, tw_json_get_string (request, "requestBody", ""));
        }
      append_headers (text, "responseHeaders", request);
      if (timing != NULL)
        append_timing (text, timing);

      if (body != NULL)
        {
          const char *kind = tw_json_get_string (body, "kind", "binary");

          g_string_append_printf (text, "\nresponseBody: %s, ", kind);
          tw_tool_append_size (text, tw_json_get_int (body, "size", 0));
          if (tw_json_get_string (body, "mimeType", NULL) != NULL)
            g_string_append_printf (text, ", %s", tw_json_get_string (body, "mimeType", ""));
          if (g_strcmp0 (kind, "binary") == 0)
            g_string_append (text, " (not shown; savePath writes it to a file)");
          else
            {
              gint64 chars = tw_json_get_int (body, "chars", 0);
              gint64 offset = tw_json_get_int (body, "offset", 0);
              gint64 next = tw_json_get_int (body, "nextCursor", -1);

              if (next >= 0 || offset > 0)
                g_string_append_printf (text, ", characters %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT
                                        " of %" G_GINT64_FORMAT,
                                        offset, next >= 0 ? next : chars, chars);
              g_string_append_c (text, '\n');
              tw_tool_append_page_content (text, tw_json_get_string (body, "text", ""));
              if (next >= 0)
                {
                  g_autofree char *cursor = g_strdup_printf ("%" G_GINT64_FORMAT, next);

                  g_string_append (text, "\nThe body continues: call again with this cursor.");
                  tw_tool_append_field (text, "cursor", cursor);
                }
            }
        }
      tw_tool_append_member (text, request, "savedPath");
      for (guint i = 0; unavailable != NULL && i < json_array_get_length (unavailable); i++)
        g_string_append_printf (text, "\nNot available: %s",
                                json_array_get_string_element (unavailable, i));
    }
  else
    {
      JsonArray *requests = tw_json_get_array (result, "requests");
      guint n = requests != NULL ? json_array_get_length (requests) : 0;
      gint64 matched = tw_json_get_int (result, "matched", n);

      append_matching (text, "request", n, matched);
      tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
      for (guint i = 0; i < n; i++)
        append_request_line (text, json_array_get_object_element (requests, i));
      if (n > 0)
        g_string_append (text, "\nFor headers, bodies and timing, call again with id.");
    }

  tw_tool_append_dialogs (text, result);

  return g_string_free (text, FALSE);
}

/* browser_fetch */

static char *
format_fetch (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonObject *body = tw_json_get_object (result, "body");
  JsonArray *headers = tw_json_get_array (result, "headers");
  g_autofree char *status = g_strdup_printf ("%" G_GINT64_FORMAT " %s", tw_json_get_int (result, "status", 0),
                                             tw_json_get_string (result, "statusText", ""));
  g_autofree char *cookies = g_strdup_printf ("%" G_GINT64_FORMAT, tw_json_get_int (result, "cookiesSent", 0));

  g_string_append (text, "HTTP response, fetched with the workspace's cookies (outside the page: no CORS).");
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_field (text, "url", tw_json_get_string (result, "url", ""));
  tw_tool_append_field (text, "status", g_strstrip (status));
  tw_tool_append_field (text, "cookiesSent", cookies);
  g_string_append (text, "\nheaders:");
  for (guint i = 0; headers != NULL && i < json_array_get_length (headers); i++)
    {
      JsonObject *header = json_array_get_object_element (headers, i);

      g_string_append_printf (text, "\n  %s: %s", tw_json_get_string (header, "name", ""),
                              tw_json_get_string (header, "value", ""));
    }
  if (body != NULL)
    {
      const char *kind = tw_json_get_string (body, "kind", "binary");

      g_string_append_printf (text, "\nbody: %s, ", kind);
      tw_tool_append_size (text, tw_json_get_int (body, "size", 0));
      if (tw_json_get_boolean (body, "truncated", FALSE))
        g_string_append (text, ", cut (raise maxBodyChars for more)");
      if (g_strcmp0 (kind, "binary") == 0)
        g_string_append (text, " (not shown)");
      else
        {
          g_string_append_c (text, '\n');
          tw_tool_append_page_content (text, tw_json_get_string (body, "text", ""));
        }
    }

  return g_string_free (text, FALSE);
}

static gboolean
check_fetch (JsonObject  *arguments,
             GError     **error)
{
  return tw_tool_check_http_url (tw_json_get_string (arguments, "url", NULL), error);
}

static const TwToolDef debugging_tools[] = {
  {
    .name = "browser_console",
    .title = "Read the console in depth",
    .description =
      "Read a tab's console messages (console.log/warn/error, uncaught exceptions, network "
      "and security errors), filtered by level, source and text, for the current page or "
      "allPages. With id: one message in detail, every argument as JSON and the stack with "
      "file, line and column. With wait: the next matching message (at once if one came "
      "since the last read), or browser_timeout. With clear: empty the console.",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_CONSOLE,
    .arguments = TW_TOOL_ARGUMENTS ("id", "level", "source", "text", "allPages", "maxEntries",
                                    "wait", "timeoutMs", "clear"),
    .format = format_console,
    .check = check_console,
  },
  {
    .name = "browser_network",
    .title = "Inspect network requests",
    .description =
      "List a tab's network requests (XHR/fetch API calls, documents, scripts, images), "
      "filtered by type, status class, method, URL or failed only, over the newest pages. "
      "With id: one request in detail, request and response headers (Authorization and "
      "cookies masked unless showSecrets), request body, timing phases and the response "
      "body (text and JSON shown, binary as size and type, long bodies continue with "
      "cursor); savePath writes the body to a file in the workspace.",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_NETWORK,
    .arguments = TW_TOOL_ARGUMENTS ("id", "type", "status", "method", "url", "failed", "pages",
                                    "maxEntries", "showSecrets", "maxBodyChars", "cursor",
                                    "savePath"),
    .format = format_network,
  },
  {
    .name = "browser_fetch",
    .title = "HTTP request with the tab's cookies",
    .description =
      "Make an HTTP request (GET, POST, PUT, DELETE…) with the cookies of the workspace's "
      "browser session, outside the page so no CORS rule applies, and return the status, "
      "headers and a size-limited body. Use it to call an API the page uses as the logged-in "
      "user, without writing fetch() into browser_evaluate. http and https only.",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_FETCH,
    .arguments = TW_TOOL_ARGUMENTS ("url", "method", "headers", "body", "maxBodyChars",
                                    "showSecrets"),
    .format = format_fetch,
    .check = check_fetch,
  },
};

const TwToolTable tw_tools_debugging = TW_TOOL_TABLE (debugging_tools);
