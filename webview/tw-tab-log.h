/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>
#include <json-glib/json-glib.h>

#include "extension/tw-web-process-extension.h"

G_BEGIN_DECLS

/* The recent history of one tab as browser_logs reports it: console messages
 * (forwarded by the web-process extension), network requests with their
 * outcome and timing, and a marker line for every new document, so an agent
 * can tell what happened before and after a navigation. The log is a bounded
 * ring: the oldest entries make room for new ones. */

#define TW_TAB_LOG_DEFAULT_CAPACITY 500

#define TW_TYPE_TAB_LOG (tw_tab_log_get_type ())
G_DECLARE_FINAL_TYPE (TwTabLog, tw_tab_log, TW, TAB_LOG, GObject)

TwTabLog   *tw_tab_log_new              (guint          capacity);

/* Starts collecting what @view does: console messages from the web-process
 * extension, resource loads and committed navigations. The log holds no
 * reference on @view; it stops listening when @view goes away. WebKit does
 * not report console messages from ephemeral network sessions; the
 * extension does, in the web context of private tabs
 * (tw_web_context_get_private()). A view of such a session in another
 * context starts its log with a note saying it shows none. */
void        tw_tab_log_attach           (TwTabLog      *self,
                                         WebKitWebView *view);

guint       tw_tab_log_get_capacity     (TwTabLog      *self);
/* How many entries the ring holds now. */
guint       tw_tab_log_get_n_entries    (TwTabLog      *self);
/* How many entries were dropped to make room since the log was created. */
guint64     tw_tab_log_get_n_dropped    (TwTabLog      *self);

/* Direct ways in, for the signals above and for the tab's own notes (e.g. its
 * web process died). Adds @message, the fields of which it copies, and
 * returns its id. WebKit names the page-world hook as the caller of a console
 * method; the log names the first frame of @message's stack instead. */
guint64     tw_tab_log_add_console      (TwTabLog               *self,
                                         const TwConsoleMessage *message);
void        tw_tab_log_add_navigation   (TwTabLog      *self,
                                         const char    *url);
void        tw_tab_log_add_note         (TwTabLog      *self,
                                         const char    *text);

/* The newest @max_entries entries (all of them when 0), oldest first, as
 * JSON objects. Every entry has "type" ("console", "network", "navigation"
 * or "note") and "time" (ISO 8601, local time with milliseconds); the other
 * members depend on the type:
 *   console:    level, source, text, url?, line?
 *   network:    method, url, resourceType, status (null until a response),
 *               state ("pending", "finished", "failed"), durationMs?,
 *               size?, mimeType?, failure?
 *   navigation: url
 *   note:       text */
JsonArray  *tw_tab_log_get_entries      (TwTabLog      *self,
                                         guint          max_entries);

/* The console messages the ring holds (only those of the current page when
 * @current_page), oldest first: the console members of
 * tw_tab_log_get_entries() without "type", plus "id" and, when the stack
 * gives it, "column". */
JsonArray  *tw_tab_log_get_console      (TwTabLog      *self,
                                         gboolean       current_page);
/* One console message with "args" (every argument, as JSON) and "stack"
 * ([{function,url,line?,column?}]) where the page-world hook gave them, or
 * NULL when the ring holds no message @id. */
JsonObject *tw_tab_log_get_console_message (TwTabLog   *self,
                                            guint64     id);
/* The network requests of the newest @n_pages documents (all when 0),
 * oldest first: the network members of tw_tab_log_get_entries() without
 * "type", plus "id" and "statusText". */
JsonArray  *tw_tab_log_get_network      (TwTabLog      *self,
                                         guint          n_pages);
/* One request with "requestHeaders" and "responseHeaders" ([{name,value}],
 * Authorization, Cookie and Set-Cookie masked unless @show_secrets) and
 * "requestBody" when the page-world hook saw it; @resource receives its
 * WebKitWebResource (a new reference, or NULL), @response_text the text
 * body of a fetch() or XMLHttpRequest response as the page received it
 * (or NULL). NULL when unknown. */
JsonObject *tw_tab_log_get_request      (TwTabLog           *self,
                                         guint64             id,
                                         gboolean            show_secrets,
                                         WebKitWebResource **resource,
                                         GBytes            **response_text);
/* browser_wait's network idle: the requests of the current document that
 * WebKit reports started and not yet finished or failed, oldest first, as
 * {id, method, url, resourceType, pendingMs}; @last_activity_us receives
 * the monotonic time the newest of its requests started or ended (0 when
 * it made none). */
JsonArray  *tw_tab_log_get_in_flight   (TwTabLog      *self,
                                        gint64        *last_activity_us);
/* Drops every console message; returns how many there were. */
guint       tw_tab_log_clear_console    (TwTabLog      *self);
/* The newest console message an agent has read, for waiting on the next. */
guint64     tw_tab_log_get_console_read_id (TwTabLog   *self);
void        tw_tab_log_set_console_read_id (TwTabLog   *self,
                                            guint64     id);

G_END_DECLS
