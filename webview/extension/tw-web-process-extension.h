/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The names of the user messages the web-process extension sends to the web
 * view. Shared by both sides; no other API. */

/* Parameters: (level, source, text, source URL, line, arguments, stack) as
 * "(sssstss)". Arguments are a JSON array of every argument of a console
 * call (or the thrown value of an exception), the stack is JavaScriptCore's
 * text ("fn@url:line:column" per line); both are empty when unknown. */
#define TW_WEB_EXTENSION_CONSOLE_MESSAGE "tabwright.console-message"

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
