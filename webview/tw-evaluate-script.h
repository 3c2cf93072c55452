/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>

G_BEGIN_DECLS

/* browser_evaluate's code in the page's own world (webview/page-world/
 * evaluate.js): a helper captured when each document starts, before any
 * page script can replace the built-ins it uses, and the body each call
 * runs. The helper is bound to a global lexical name that is random per
 * process, so a page can neither find it nor reassign it. */

/* The document-start user script of the page world that installs the
 * helper; add it to every web view that browser_evaluate runs in. */
WebKitUserScript *tw_evaluate_script_get_user_script (void);

/* The body for webkit_web_view_call_async_javascript_function() that runs
 * @function in the page world and answers the JSON text of
 * {value, type, truncated}, {threw, message, where} or {missing}. It takes
 * the arguments nonce (a string, empty without an element) and maxBytes. */
char             *tw_evaluate_script_build_body      (const char *function);

G_END_DECLS
