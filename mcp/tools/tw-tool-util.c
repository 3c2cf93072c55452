/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tool-util.h"

#include "tw-error.h"
#include "tw-tool-call-private.h"

#include <string.h>

const char *
tw_tool_get_browser_id (TwToolCall *call)
{
  g_return_val_if_fail (call != NULL, NULL);

  return tw_json_get_string (tw_tool_call_get_arguments (call), "browserId", NULL);
}

gboolean
tw_tool_check_http_url (const char  *url,
                        GError     **error)
{
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  const char *host;

  if (url != NULL)
    uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

  scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;
  host = uri != NULL ? g_uri_get_host (uri) : NULL;

  if ((g_strcmp0 (scheme, "http") == 0 || g_strcmp0 (scheme, "https") == 0) &&
      host != NULL && host[0] != '\0')
    return TRUE;

  g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
               "Only http and https URLs are allowed, e.g. http://127.0.0.1:8000/; "
               "\"%s\" is not one",
               url != NULL ? url : "");
  return FALSE;
}

void
tw_tool_append_cut (GString    *text,
                    const char *value,
                    glong       max)
{
  glong len;
  g_autofree char *cut = NULL;

  g_return_if_fail (text != NULL);
  g_return_if_fail (value != NULL);

  len = g_utf8_strlen (value, -1);
  cut = g_utf8_substring (value, 0, MIN (len, max));
  g_string_append_printf (text, "\"%s%s\"", cut, len > max ? "…" : "");
}

void
tw_tool_append_size (GString *text,
                     gint64   size)
{
  g_return_if_fail (text != NULL);

  if (size < 10 * 1024)
    g_string_append_printf (text, "%" G_GINT64_FORMAT " B", size);
  else if (size < 10 * 1024 * 1024)
    g_string_append_printf (text, "%" G_GINT64_FORMAT " kB", size / 1024);
  else
    g_string_append_printf (text, "%" G_GINT64_FORMAT " MB", size / (1024 * 1024));
}

void
tw_tool_append_request (GString    *text,
                        JsonObject *request,
                        const char *unknown_failure)
{
  const char *state;
  gint64 status;
  gint64 duration;
  gint64 size;

  g_return_if_fail (text != NULL);
  g_return_if_fail (request != NULL);

  state = tw_json_get_string (request, "state", "pending");
  status = tw_json_get_int (request, "status", 0);
  duration = tw_json_get_int (request, "durationMs", -1);
  size = tw_json_get_int (request, "size", -1);

  g_string_append_printf (text, " %s %s",
                          tw_json_get_string (request, "method", "GET"),
                          tw_json_get_string (request, "url", ""));
  if (status > 0)
    g_string_append_printf (text, " %" G_GINT64_FORMAT, status);
  if (g_strcmp0 (state, "failed") == 0)
    g_string_append_printf (text, " FAILED: %s",
                            tw_json_get_string (request, "failure", unknown_failure));
  else if (g_strcmp0 (state, "pending") == 0)
    g_string_append (text, " pending");

  g_string_append_printf (text, " %s", tw_json_get_string (request, "resourceType", "other"));
  if (duration >= 0)
    g_string_append_printf (text, " %" G_GINT64_FORMAT " ms", duration);
  if (size >= 0)
    {
      g_string_append_c (text, ' ');
      tw_tool_append_size (text, size);
    }
}

void
tw_tool_append_each (GString          *text,
                     JsonObject       *object,
                     const char       *member,
                     TwToolAppendFunc  append)
{
  JsonArray *array = tw_json_get_array (object, member);

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_OBJECT (element))
        append (text, json_node_get_object (element));
    }
}

static void
append_dialog (GString    *text,
               JsonObject *dialog)
{
  const char *type = tw_json_get_string (dialog, "type", "dialog");

  g_string_append_printf (text, "\nDialog: %s ", type);
  tw_tool_append_quoted (text, tw_json_get_string (dialog, "message", ""));
  g_string_append_printf (text, " (%s)",
                          tw_json_get_boolean (dialog, "accepted", g_strcmp0 (type, "alert") == 0)
                          ? "accepted" : "dismissed");
  if (json_object_get_int_member_with_default (dialog, "count", 1) > 1)
    g_string_append_printf (text, ", %" G_GINT64_FORMAT " times in a row",
                            json_object_get_int_member (dialog, "count"));
  if (json_object_has_member (dialog, "promptText"))
    {
      g_string_append (text, " answered ");
      tw_tool_append_quoted (text, tw_json_get_string (dialog, "promptText", ""));
    }
}

void
tw_tool_append_dialogs (GString    *text,
                        JsonObject *result)
{
  tw_tool_append_each (text, result, "dialogs", append_dialog);
  tw_tool_append_downloads (text, result);
}

static void
append_download (GString    *text,
                 JsonObject *download)
{
  const char *state = tw_json_get_string (download, "state", "running");

  if (g_str_equal (state, "awaiting approval"))
    {
      g_string_append_printf (text, "\nDownload: %s awaits the person's OK before it is "
                              "saved; browser_downloads tells when it is",
                              tw_json_get_string (download, "fileName", "(no name)"));
      return;
    }
  g_string_append_printf (text, "\nDownload: %s %s, %" G_GINT64_FORMAT " bytes, %s",
                          tw_json_get_string (download, "fileName", "(no name)"),
                          state,
                          (gint64) tw_json_get_number (download, "size", 0),
                          tw_json_get_string (download, "mimeType", "unknown type"));
  if (json_object_has_member (download, "error"))
    g_string_append_printf (text, ": %s", tw_json_get_string (download, "error", ""));
  if (json_object_has_member (download, "path"))
    g_string_append_printf (text, "\npath: %s", tw_json_get_string (download, "path", ""));
}

void
tw_tool_append_downloads (GString    *text,
                          JsonObject *result)
{
  tw_tool_append_each (text, result, "downloads", append_download);
}

void
tw_tool_append_field (GString    *text,
                      const char *label,
                      const char *value)
{
  g_return_if_fail (text != NULL);
  g_return_if_fail (label != NULL);

  if (text->len > 0)
    g_string_append_c (text, '\n');
  g_string_append_printf (text, "%s: %s", label, value != NULL ? value : "");
}

void
tw_tool_append_member (GString    *text,
                       JsonObject *object,
                       const char *member)
{
  const char *value = tw_json_get_string (object, member, NULL);

  if (value != NULL)
    tw_tool_append_field (text, member, value);
}

guint
tw_tool_append_count (GString    *text,
                      JsonArray  *array,
                      const char *none,
                      const char *noun,
                      const char *rest)
{
  guint n = array != NULL ? json_array_get_length (array) : 0;

  if (n == 0)
    g_string_append (text, none);
  else
    g_string_append_printf (text, "%u %s%s%s", n, noun, n == 1 ? "" : "s", rest);

  return n;
}

void
tw_tool_append_title (GString    *text,
                      JsonObject *result)
{
  const char *title = tw_json_get_string (result, "title", "");

  if (title[0] == '\0')
    {
      tw_tool_append_field (text, "title", "(none)");
      return;
    }

  tw_tool_append_field (text, "title", "");
  tw_tool_append_quoted (text, title);
}

static void
append_number (GString    *text,
               JsonObject *object,
               const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    g_string_append_c (text, '?');
  else
    g_string_append (text, g_ascii_formatd (buffer, sizeof buffer, "%.10g", json_node_get_double (node)));
}

/* The media features a tab's emulation may name, in the order they are
 * said. */
static const char * const media_names[] = { "colorScheme", "reducedMotion", "forcedColors", "media" };

char *
tw_tool_describe_emulation (JsonObject *emulation)
{
  GString *text;
  JsonObject *where;

  if (emulation == NULL)
    return NULL;

  text = g_string_new (NULL);
  if (json_object_has_member (emulation, "device"))
    g_string_append_printf (text, "device: %s", tw_json_get_string (emulation, "device", "?"));
  if (json_object_has_member (emulation, "userAgent"))
    g_string_append_printf (text, "%suserAgent: %s", text->len > 0 ? ", " : "",
                            tw_json_get_string (emulation, "userAgent", "?"));
  where = tw_json_get_object (emulation, "geolocation");
  if (where != NULL)
    {
      g_string_append (text, text->len > 0 ? ", geolocation: " : "geolocation: ");
      append_number (text, where, "latitude");
      g_string_append (text, ", ");
      append_number (text, where, "longitude");
      g_string_append (text, " (accuracy ");
      append_number (text, where, "accuracy");
      g_string_append (text, " m)");
    }

  if (tw_json_get_boolean (emulation, "offline", FALSE))
    g_string_append (text, text->len > 0 ? ", offline" : "offline");

  for (gsize i = 0; i < G_N_ELEMENTS (media_names); i++)
    {
      const char *value = tw_json_get_string (emulation, media_names[i], NULL);

      if (value != NULL)
        g_string_append_printf (text, "%s%s: %s", text->len > 0 ? ", " : "", media_names[i], value);
    }

  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

void
tw_tool_append_page (GString    *text,
                     JsonObject *result)
{
  JsonNode *status;

  g_return_if_fail (text != NULL);
  g_return_if_fail (result != NULL);

  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_field (text, "url", tw_json_get_string (result, "url", "about:blank"));
  tw_tool_append_title (text, result);

  status = json_object_get_member (result, "status");
  if (status != NULL && JSON_NODE_HOLDS_VALUE (status) &&
      json_node_get_value_type (status) == G_TYPE_INT64)
    {
      g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (status));

      tw_tool_append_field (text, "status", number);
    }
  else if (status != NULL)
    {
      tw_tool_append_field (text, "status", "none (no HTTP response)");
    }

  tw_tool_append_dialogs (text, result);
}

/* Whether a "<page" or "</page" starts at @p (any case, spaces allowed
 * around the slash). */
static gboolean
is_marker (const char *p)
{
  const char *q = p + 1;

  while (*q == ' ' || *q == '\t')
    q++;
  if (*q == '/')
    q++;
  while (*q == ' ' || *q == '\t')
    q++;

  return g_ascii_strncasecmp (q, "page", 4) == 0;
}

/* The page content between @p and @end, its markers escaped. A marker
 * never spans a line, so looking past @end (within the same string) for
 * one is safe. */
static void
append_page_content_len (GString    *text,
                         const char *p,
                         const char *end)
{
  g_string_append (text, TW_TOOL_PAGE_OPEN "\n");
  while (p < end)
    {
      const char *next = memchr (p, '<', end - p);

      if (next == NULL)
        {
          g_string_append_len (text, p, end - p);
          break;
        }

      g_string_append_len (text, p, next - p);
      if (is_marker (next))
        g_string_append (text, "&lt;");
      else
        g_string_append_c (text, '<');
      p = next + 1;
    }
  g_string_append (text, "\n" TW_TOOL_PAGE_CLOSE);
}

void
tw_tool_append_page_content (GString    *text,
                             const char *content)
{
  const char *p = content != NULL ? content : "";

  g_return_if_fail (text != NULL);

  append_page_content_len (text, p, p + strlen (p));
}

void
tw_tool_append_quoted (GString    *text,
                       const char *value)
{
  g_return_if_fail (text != NULL);

  tw_json_append_string (text, value != NULL ? value : "");
}

void
tw_tool_append_snapshot (GString    *text,
                         const char *snapshot)
{
  const char *s = snapshot != NULL ? snapshot : "";
  const char *end = s + strlen (s);
  const char *body = s;
  const char *tail = NULL;
  const char *line;

  g_return_if_fail (text != NULL);

  /* A snapshot is long: it is cut into its parts in place, never into
   * lines. */
  if (*s == '\0')
    return;

  /* Tabwright's header: a diff's summary, then "Page: <title> — <url>".
   * The body starts on the line after it; NULL when nothing follows. */
  line = s;
  for (guint i = 0; i < 3 && line != NULL; i++)
    {
      const char *nl = strchr (line, '\n');

      if (g_str_has_prefix (line, "Page: "))
        {
          body = nl != NULL ? nl + 1 : NULL;
          break;
        }
      line = nl != NULL ? nl + 1 : NULL;
    }

  /* Tabwright's notes at the end: where the snapshot was cut, and how to
   * go on. Tree lines start with "- " or spaces, never with "… ". */
  if (body != NULL)
    {
      const char *line_end = end;

      for (;;)
        {
          const char *start = line_end;

          while (start > s && start[-1] != '\n')
            start--;
          if (start < body || !g_str_has_prefix (start, "… "))
            break;
          tail = start;
          if (start == body)
            break;
          line_end = start - 1;
        }
    }

  if (body != s)
    {
      const char *header = s;
      const char *header_end = body != NULL ? body - 1 : end;

      /* Lines are joined with newlines, and empty ones at the start of
       * the text add nothing. */
      if (text->len == 0)
        {
          while (header < header_end && *header == '\n')
            header++;
        }
      else
        {
          g_string_append_c (text, '\n');
        }
      g_string_append_len (text, header, header_end - header);
    }

  if (body != NULL && tail != body)
    {
      if (text->len > 0)
        g_string_append_c (text, '\n');
      append_page_content_len (text, body, tail != NULL ? tail - 1 : end);
    }

  if (tail != NULL)
    {
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append_len (text, tail, end - tail);
    }
}

void
tw_tool_return_text_and_image (TwToolCall *call,
                               const char *text,
                               const char *base64)
{
  g_autoptr(GBytes) image = NULL;
  guchar *data;
  gsize size = 0;

  if (base64 == NULL)
    {
      tw_tool_call_return_text (call, text, NULL);
      return;
    }

  data = g_base64_decode (base64, &size);
  image = g_bytes_new_take (data, size);
  tw_tool_call_return_image (call, text, image, NULL);
}

#define PERSON_PROGRESS_INTERVAL_MS 5000

typedef struct
{
  TwToolCall *call;
  char       *doing;
  gint64      started_us;
  guint       timeout_ms;
} PersonWait;

static void
person_wait_free (PersonWait *wait)
{
  g_clear_pointer (&wait->call, tw_tool_call_unref);
  g_free (wait->doing);
  g_free (wait);
}

static gboolean
person_wait_progress_cb (gpointer user_data)
{
  PersonWait *wait = user_data;
  double elapsed_s = (g_get_monotonic_time () - wait->started_us) / (double) G_USEC_PER_SEC;
  g_autofree char *message = NULL;

  if (tw_tool_call_is_finished (wait->call))
    return G_SOURCE_REMOVE;

  message = g_strdup_printf ("Waiting for the person to %s in tab %s (%.0f s of %.0f s)",
                             wait->doing, tw_tool_get_browser_id (wait->call),
                             elapsed_s, wait->timeout_ms / 1000.0);
  tw_tool_call_report_progress (wait->call, elapsed_s, wait->timeout_ms / 1000.0, message);

  return G_SOURCE_CONTINUE;
}

void
tw_tool_wait_for_person (TwToolCall      *call,
                         TwTabCommand     command,
                         const char      *doing,
                         gint64           default_timeout_ms,
                         TwToolReplyFunc  reply)
{
  JsonObject *arguments = tw_tool_call_get_arguments (call);
  g_autoptr(JsonObject) params = json_object_new ();
  gint64 timeout_ms = tw_json_get_int (arguments, "timeoutMs", default_timeout_ms);
  PersonWait *wait;

  json_object_set_string_member (params, "message", tw_json_get_string (arguments, "message", ""));
  json_object_set_int_member (params, "timeoutMs", timeout_ms);

  wait = g_new0 (PersonWait, 1);
  wait->call = tw_tool_call_ref (call);
  wait->doing = g_strdup (doing);
  wait->started_us = g_get_monotonic_time ();
  wait->timeout_ms = (guint) timeout_ms;

  tw_tool_call_run_command_full (call, command, tw_tool_get_browser_id (call), params, reply);

  /* The first word goes out at once, so clients know the call waits on
   * purpose; a call refused straight away never gets the timer. */
  if (person_wait_progress_cb (wait))
    g_timeout_add_full (G_PRIORITY_DEFAULT, PERSON_PROGRESS_INTERVAL_MS, person_wait_progress_cb,
                        wait, (GDestroyNotify) person_wait_free);
  else
    person_wait_free (wait);
}
