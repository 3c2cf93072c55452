/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Runs inside each web process. WebKit only exposes console messages here, so
 * this module forwards them to the UI process, where the tab keeps its log. */

#include "config.h"

#include <webkit/webkit-web-process-extension.h>

#include "tw-web-process-extension.h"

#include <string.h>

/* A page may log megabytes at once. The tab keeps a few thousand characters
 * of each message, so no more than this crosses to the UI process. */
#define MAX_TEXT_BYTES 16384

static const char *
level_to_string (WebKitConsoleMessageLevel level)
{
  switch (level)
    {
    case WEBKIT_CONSOLE_MESSAGE_LEVEL_ERROR:
      return "error";
    case WEBKIT_CONSOLE_MESSAGE_LEVEL_WARNING:
      return "warning";
    case WEBKIT_CONSOLE_MESSAGE_LEVEL_DEBUG:
      return "debug";
    case WEBKIT_CONSOLE_MESSAGE_LEVEL_LOG:
      return "log";
    case WEBKIT_CONSOLE_MESSAGE_LEVEL_INFO:
    default:
      return "info";
    }
}

static const char *
source_to_string (WebKitConsoleMessageSource source)
{
  switch (source)
    {
    case WEBKIT_CONSOLE_MESSAGE_SOURCE_JAVASCRIPT:
      return "javascript";
    case WEBKIT_CONSOLE_MESSAGE_SOURCE_NETWORK:
      return "network";
    case WEBKIT_CONSOLE_MESSAGE_SOURCE_CONSOLE_API:
      return "console-api";
    case WEBKIT_CONSOLE_MESSAGE_SOURCE_SECURITY:
      return "security";
    case WEBKIT_CONSOLE_MESSAGE_SOURCE_OTHER:
    default:
      return "other";
    }
}

static void
console_message_sent_cb (WebKitWebPage        *page,
                         WebKitConsoleMessage *message,
                         gpointer              user_data)
{
  const char *text = webkit_console_message_get_text (message);
  const char *source_id = webkit_console_message_get_source_id (message);
  g_autofree char *clipped = NULL;
  WebKitUserMessage *user_message;
  GVariant *params;

  if (text == NULL)
    text = "";

  /* Cut at a character boundary: GVariant strings must stay UTF-8. */
  if (strlen (text) > MAX_TEXT_BYTES)
    {
      const char *end = g_utf8_find_prev_char (text, text + MAX_TEXT_BYTES + 1);

      clipped = g_strndup (text, end != NULL ? (gsize) (end - text) : 0);
      text = clipped;
    }

  params = g_variant_new ("(sssst)",
                          level_to_string (webkit_console_message_get_level (message)),
                          source_to_string (webkit_console_message_get_source (message)),
                          text,
                          source_id != NULL ? source_id : "",
                          (guint64) webkit_console_message_get_line (message));
  user_message = webkit_user_message_new (TW_WEB_EXTENSION_CONSOLE_MESSAGE, params);

  /* Nothing to do with a reply: fire and forget. */
  webkit_web_page_send_message_to_view (page, user_message, NULL, NULL, NULL);
}

static void
page_created_cb (WebKitWebProcessExtension *extension,
                 WebKitWebPage             *page,
                 gpointer                   user_data)
{
  g_signal_connect (page, "console-message-sent",
                    G_CALLBACK (console_message_sent_cb), NULL);
}

G_MODULE_EXPORT void
webkit_web_process_extension_initialize (WebKitWebProcessExtension *extension);

G_MODULE_EXPORT void
webkit_web_process_extension_initialize (WebKitWebProcessExtension *extension)
{
  g_signal_connect (extension, "page-created", G_CALLBACK (page_created_cb), NULL);
}
