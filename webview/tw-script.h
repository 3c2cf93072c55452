/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>

G_BEGIN_DECLS

/* The JavaScript the C side runs in pages, read from GResource: the page
 * runtime's modules (webview/runtime/), the bodies and wrappers around
 * them (webview/runtime/call/) and the page-world scripts
 * (webview/page-world/), each in its list of meson.build. No JavaScript is
 * written in C. */

/* The script at @path in GResource, without its leading // comment lines
 * (the licence and what it is for), so the line numbers of a body start
 * at its code. Read once per process; aborts when it is missing, which is
 * a broken build. */
const char *tw_script_get    (const char *path);

/* @script (from tw_script_get()) with every identifier named in the
 * NULL-terminated pairs of names and values after it replaced by its value,
 * as a wrapper takes what it wraps: the agent's function, a helper's
 * name. Only the script is searched, never the values put in. Every name
 * must occur; no name may be the start of another. */
char       *tw_script_expand (const char *script,
                              ...) G_GNUC_NULL_TERMINATED;

/* A call of the page-world script at @path that gives a tab's pages its
 * state (webview/page-world/emulation.js, media.js, routes.js): the script
 * with @state_json, @announce (FALSE at the start of every document, TRUE
 * for the pages shown when the state changes) and each-frame.js as its
 * arguments. */
char       *tw_script_page_world_call (const char *path,
                                       const char *state_json,
                                       gboolean    announce);

/* Every next document of @manager's views, in all its frames, starts with
 * that call (announce FALSE) in place of *@script, the user script the
 * state had so far; with @state_json NULL none does. */
void        tw_script_set_page_world_start (WebKitUserContentManager  *manager,
                                            WebKitUserScript         **script,
                                            const char                *path,
                                            const char                *state_json);

G_END_DECLS
