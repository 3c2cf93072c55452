/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Runs inside each web process. WebKit only exposes console messages here, so
 * this module forwards them to the UI process, where the tab keeps its log.
 * WebKit gives only the text of a message; a hook in the page's world
 * (console-hook.js) reports every argument as JSON and the stack, just
 * before WebKit reports the message itself, and the two are sent as one.
 *
 * WebKit reports nothing from pages of private (ephemeral) sessions. The
 * processes of their context (tw_web_context_get_private()) are told so at
 * start, and there the hook's report is sent as the message. */

#include "config.h"

#include <webkit/webkit-web-process-extension.h>

#include "tw-web-process-extension.h"
#include "tw-extension-frames.h"
#include "tw-extension-routes.h"

#include <string.h>

/* A page may log megabytes at once. The tab keeps a few thousand characters
 * of each message, so no more than this crosses to the UI process. */
#define MAX_TEXT_BYTES 16384

#define HOOK_RESOURCE "/io/github/tabwright/Tabwright/extension/console-hook.js"
#define HOOK_SOURCE_URL "tabwright-console-hook.js"

/* This process serves private sessions: see above. */
static gboolean report_from_hook;

/* What the page-world hook said about the message WebKit reports next. One
 * per page, shared by the native functions of all its frames. */
typedef struct
{
  GWeakRef  page;

  /* A console method is running: set from its start to its end. */
  gboolean  console_active;
  char     *console_args;
  char     *console_stack;

  /* The last uncaught exception or unhandled rejection, until its message
   * comes (the page may cancel the event, and then none comes). */
  char     *exception_args;
  char     *exception_stack;
  int       exception_line;
} PageConsole;

static void
page_console_clear (PageConsole *pc)
{
  g_weak_ref_clear (&pc->page);
  g_clear_pointer (&pc->console_args, g_free);
  g_clear_pointer (&pc->console_stack, g_free);
  g_clear_pointer (&pc->exception_args, g_free);
  g_clear_pointer (&pc->exception_stack, g_free);
}

static void
page_console_unref (gpointer data)
{
  g_rc_box_release_full (data, (GDestroyNotify) page_console_clear);
}

static PageConsole *
page_console_get (WebKitWebPage *page)
{
  PageConsole *pc = g_object_get_data (G_OBJECT (page), "tw-page-console");

  if (pc == NULL)
    {
      pc = g_rc_box_new0 (PageConsole);
      g_weak_ref_init (&pc->page, page);
      g_object_set_data_full (G_OBJECT (page), "tw-page-console", pc, page_console_unref);
    }

  return pc;
}

/* Response bodies the hook reads are kept whole up to this size. */
#define MAX_RESPONSE_BYTES (8 * 1024 * 1024)

static char *
clip_utf8_to (const char *text,
              gsize       max_bytes)
{
  const char *end;

  if (text == NULL)
    return g_strdup ("");

  /* GVariant strings must be UTF-8, and a page's strings may hold lone
   * surrogates. */
  if (strlen (text) <= max_bytes)
    return g_utf8_make_valid (text, -1);

  /* Cut at a character boundary. */
  end = g_utf8_find_prev_char (text, text + max_bytes + 1);
  return g_utf8_make_valid (text, end != NULL ? (gssize) (end - text) : 0);
}

static char *
clip_utf8 (const char *text)
{
  return clip_utf8_to (text, MAX_TEXT_BYTES);
}

static void
send_console_message (WebKitWebPage          *page,
                      const TwConsoleMessage *message)
{
  GVariant *params = g_variant_new ("(sssstss)", message->level, message->source, message->text,
                                    message->url, (guint64) message->line,
                                    message->args != NULL ? message->args : "",
                                    message->stack != NULL ? message->stack : "");

  /* Nothing to do with a reply: fire and forget. */
  webkit_web_page_send_message_to_view (page,
                                        webkit_user_message_new (TW_WEB_EXTENSION_CONSOLE_MESSAGE,
                                                                 params),
                                        NULL, NULL, NULL);
}

/* The level WebKit gives each console method's message. */
static const char *
method_level (const char *method)
{
  static const struct
  {
    const char *method;
    const char *level;
  } levels[] = {
    { "info", "info" }, { "warn", "warning" }, { "error", "error" }, { "assert", "error" },
    { "debug", "debug" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (levels); i++)
    if (g_strcmp0 (method, levels[i].method) == 0)
      return levels[i].level;
  return "log";
}

/* A private page's hook told a message: it is the message. The text and
 * URL come from the page, so they are checked and clipped like the rest. */
static void
report_from_page (PageConsole            *pc,
                  const TwConsoleMessage *told)
{
  g_autoptr(WebKitWebPage) page = g_weak_ref_get (&pc->page);
  g_autofree char *clipped_text = clip_utf8 (told->text);
  g_autofree char *clipped_url = clip_utf8_to (told->url, 4096);
  g_autofree char *clipped_args = clip_utf8 (told->args);
  g_autofree char *clipped_stack = clip_utf8 (told->stack);
  TwConsoleMessage message = *told;

  if (page == NULL)
    return;

  message.text = clipped_text;
  message.url = clipped_url;
  message.args = clipped_args;
  message.stack = clipped_stack;
  send_console_message (page, &message);
}

/* The native function the hook calls: ("console", method, args, stack, 0,
 * text, "") before a console method runs and ("end", …) after it,
 * ("exception", "error", args, stack, line, text, url) for an uncaught
 * exception. text and url are only given on private pages. */
static void
hook_report_cb (const char  *kind,
                const char  *level,
                const char  *args,
                const char  *stack,
                int          line,
                const char  *text,
                const char  *source_url,
                PageConsole *pc)
{
  if (report_from_hook && g_strcmp0 (kind, "console") == 0)
    {
      TwConsoleMessage message = {
        .level = method_level (level), .source = "console-api", .text = text,
        .url = HOOK_SOURCE_URL, .line = 0, .args = args, .stack = stack,
      };

      report_from_page (pc, &message);
    }
  else if (report_from_hook && g_strcmp0 (kind, "exception") == 0)
    {
      TwConsoleMessage message = {
        .level = "error", .source = "javascript", .text = text, .url = source_url,
        .line = (guint) MAX (line, 0), .args = args, .stack = stack,
      };

      report_from_page (pc, &message);
    }
  else if (g_strcmp0 (kind, "console") == 0)
    {
      pc->console_active = TRUE;
      g_free (pc->console_args);
      pc->console_args = clip_utf8 (args);
      g_free (pc->console_stack);
      pc->console_stack = clip_utf8 (stack);
    }
  else if (g_strcmp0 (kind, "end") == 0)
    {
      pc->console_active = FALSE;
      g_clear_pointer (&pc->console_args, g_free);
      g_clear_pointer (&pc->console_stack, g_free);
    }
  else if (g_strcmp0 (kind, "request") == 0 || g_strcmp0 (kind, "response") == 0)
    {
      /* (method, url, body): the UI process pairs it with the request. */
      gboolean response = g_strcmp0 (kind, "response") == 0;
      g_autoptr(WebKitWebPage) page = g_weak_ref_get (&pc->page);
      g_autofree char *url = clip_utf8 (args);
      g_autofree char *body = clip_utf8_to (stack, response ? MAX_RESPONSE_BYTES : MAX_TEXT_BYTES);

      if (page != NULL && g_utf8_validate (level, -1, NULL))
        webkit_web_page_send_message_to_view (page,
                                              webkit_user_message_new (response
                                                                       ? TW_WEB_EXTENSION_RESPONSE_BODY
                                                                       : TW_WEB_EXTENSION_REQUEST_BODY,
                                                                       g_variant_new ("(sss)", level,
                                                                                      url, body)),
                                              NULL, NULL, NULL);
    }
  else if (g_strcmp0 (kind, "exception") == 0)
    {
      g_free (pc->exception_args);
      pc->exception_args = clip_utf8 (args);
      g_free (pc->exception_stack);
      pc->exception_stack = clip_utf8 (stack);
      pc->exception_line = line;
    }
}

static void
window_object_cleared_cb (WebKitScriptWorld *world,
                          WebKitWebPage     *page,
                          WebKitFrame       *frame,
                          gpointer           user_data)
{
  static char *source;
  g_autoptr(JSCContext) context = NULL;
  g_autoptr(JSCValue) install = NULL;
  g_autoptr(JSCValue) native = NULL;
  g_autoptr(JSCValue) result = NULL;
  JSCException *exception;
  PageConsole *pc = page_console_get (page);

  if (source == NULL)
    {
      g_autoptr(GBytes) bytes = g_resources_lookup_data (HOOK_RESOURCE,
                                                         G_RESOURCE_LOOKUP_FLAGS_NONE, NULL);

      if (bytes == NULL)
        {
          g_warning ("The console hook %s is missing", HOOK_RESOURCE);
          return;
        }
      source = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
    }

  context = webkit_frame_get_js_context_for_script_world (frame, world);
  install = jsc_context_evaluate_with_source_uri (context, source, -1, HOOK_SOURCE_URL, 1);
  native = jsc_value_new_function (context, NULL, G_CALLBACK (hook_report_cb),
                                   g_rc_box_acquire (pc), page_console_unref,
                                   G_TYPE_NONE, 7, G_TYPE_STRING, G_TYPE_STRING,
                                   G_TYPE_STRING, G_TYPE_STRING, G_TYPE_INT,
                                   G_TYPE_STRING, G_TYPE_STRING);
  if (install != NULL && jsc_value_is_function (install))
    result = jsc_value_function_call (install, JSC_TYPE_VALUE, native,
                                      G_TYPE_BOOLEAN, report_from_hook, G_TYPE_NONE);

  exception = jsc_context_get_exception (context);
  if (exception != NULL)
    {
      g_warning ("The console hook failed: %s", jsc_exception_get_message (exception));
      jsc_context_clear_exception (context);
    }
}

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
  const char *source_id = webkit_console_message_get_source_id (message);
  WebKitConsoleMessageSource source = webkit_console_message_get_source (message);
  guint line = webkit_console_message_get_line (message);
  g_autofree char *text = clip_utf8 (webkit_console_message_get_text (message));
  TwConsoleMessage sent;
  g_autofree char *args = NULL;
  g_autofree char *stack = NULL;
  PageConsole *pc = page_console_get (page);

  /* The hook reports these itself here; should WebKit ever report them
   * too, they would show twice. */
  if (report_from_hook && (source == WEBKIT_CONSOLE_MESSAGE_SOURCE_CONSOLE_API ||
                           source == WEBKIT_CONSOLE_MESSAGE_SOURCE_JAVASCRIPT))
    return;

  /* Details go only with the kind of message they were told for, so a
   * page that cancels its error event cannot dress up another message. */
  if (source == WEBKIT_CONSOLE_MESSAGE_SOURCE_CONSOLE_API && pc->console_active)
    {
      args = g_steal_pointer (&pc->console_args);
      stack = g_steal_pointer (&pc->console_stack);
      pc->console_active = FALSE;
    }
  else if (source == WEBKIT_CONSOLE_MESSAGE_SOURCE_JAVASCRIPT && pc->exception_args != NULL &&
           (pc->exception_line <= 0 || (guint) pc->exception_line == line))
    {
      args = g_steal_pointer (&pc->exception_args);
      stack = g_steal_pointer (&pc->exception_stack);
    }

  sent = (TwConsoleMessage) {
    .level = level_to_string (webkit_console_message_get_level (message)),
    .source = source_to_string (source), .text = text,
    .url = source_id != NULL ? source_id : "", .line = line, .args = args, .stack = stack,
  };
  send_console_message (page, &sent);
}

static void
page_created_cb (WebKitWebProcessExtension *extension,
                 WebKitWebPage             *page,
                 gpointer                   user_data)
{
  g_signal_connect (page, "console-message-sent",
                    G_CALLBACK (console_message_sent_cb), NULL);
  tw_extension_routes_page_created (page);
}

G_MODULE_EXPORT void
webkit_web_process_extension_initialize_with_user_data (WebKitWebProcessExtension *extension,
                                                        GVariant                  *user_data);

G_MODULE_EXPORT void
webkit_web_process_extension_initialize_with_user_data (WebKitWebProcessExtension *extension,
                                                        GVariant                  *user_data)
{
  if (user_data != NULL && g_variant_is_of_type (user_data, G_VARIANT_TYPE ("(b)")))
    g_variant_get (user_data, "(b)", &report_from_hook);

  tw_extension_frames_init ();
  tw_extension_routes_init ();
  g_signal_connect (extension, "page-created", G_CALLBACK (page_created_cb), NULL);
  g_signal_connect (webkit_script_world_get_default (), "window-object-cleared",
                    G_CALLBACK (window_object_cleared_cb), NULL);
}
