/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The names of the user messages the web-process extension sends to the web
 * view, and the record of a console message. Shared by both sides; no other
 * API. */

#include <glib.h>

/* Parameters: (level, source, text, source URL, line, arguments, stack) as
 * "(sssstss)". Arguments are a JSON array of every argument of a console
 * call (or the thrown value of an exception), the stack is JavaScriptCore's
 * text ("fn@url:line:column" per line); both are empty when unknown. */
#define TW_WEB_EXTENSION_CONSOLE_MESSAGE "tabwright.console-message"

/* One console message, on either side of TW_WEB_EXTENSION_CONSOLE_MESSAGE.
 * @level is "error", "warning", "info", "log" or "debug"; @source says who
 * spoke: "console-api", "javascript", "network", "security" or "other".
 * @args and @stack are as above, or NULL when unknown. The strings belong
 * to whoever fills the record. */
typedef struct
{
  const char *level;
  const char *source;
  const char *text;
  const char *url;
  guint       line;
  const char *args;
  const char *stack;
} TwConsoleMessage;

/* Parameters: (method, absolute URL, body) as "(sss)": what the page-world
 * hook saw a fetch() or XMLHttpRequest send, described as text. */
#define TW_WEB_EXTENSION_REQUEST_BODY "tabwright.request-body"

/* Parameters: (method, final URL, text) as "(sss)": the text body of a
 * fetch() or XMLHttpRequest response, as the page received it. */
#define TW_WEB_EXTENSION_RESPONSE_BODY "tabwright.response-body"

/* The isolated script world of the page runtime (TW_PAGE_RUNTIME_WORLD). The
 * extension creates it by this name, so that the UI process's scripts of
 * that name run in the same world. */
#define TW_WEB_EXTENSION_RUNTIME_WORLD "tabwright"

/* The script world that hands a page's routes (browser_route) to the
 * extension: the tab's user script calls __tabwrightSetRoutes(json) in it
 * at the start of every document, and again when the routes change. */
#define TW_WEB_EXTENSION_ROUTES_WORLD "tabwright-routes"

/* A fulfil route's answer to a load other than fetch() and XMLHttpRequest
 * is served by the UI process under this URI scheme:
 * tabwright-route://answer/ROUTE-ID/ESCAPED-ORIGINAL-URL. */
#define TW_WEB_EXTENSION_ROUTE_SCHEME "tabwright-route"

/* Parameters: (route id, method, URL) as "(sss)": the main frame was about
 * to ask for a document that a fulfil route answers. The extension stops
 * the request; the tab loads the route's answer at that URL. */
#define TW_WEB_EXTENSION_ROUTE_DOCUMENT "tabwright.route-document"

/* Parameter: the URL as "s", sent to the page: the tab is about to load a
 * route's answer as the main frame's document at that URL, which the
 * extension lets through once. */
#define TW_WEB_EXTENSION_ROUTE_ALLOW "tabwright.route-allow"
