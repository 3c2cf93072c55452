/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>

G_BEGIN_DECLS

/* The WebKitWebContext of every Tabwright tab. Its web processes load our
 * web-process extension (webview/extension/), which forwards console
 * messages to the tab's log. A context of our own, rather than WebKit's
 * default one, lets us set the extension folder and the sandbox path before
 * any web process of it exists, whatever else the process did with WebKit
 * before. Cookies and storage live in each workspace's network session, not
 * here, so sharing the context does not share them. */
WebKitWebContext *tw_web_context_get_shared         (void);

/* The context of private tabs, whose network sessions are ephemeral.
 * WebKit reports no console messages from such pages, so the extension in
 * this context's web processes reports them itself, from the page-world
 * hook. Its processes serve private sessions only. */
WebKitWebContext *tw_web_context_get_private        (void);
/* Whether @context is that one, without creating it. */
gboolean          tw_web_context_is_private         (WebKitWebContext *context);

/* Where the extension is loaded from: the build tree when the running
 * program was built there (tests, build-aux/run), the installed
 * PKGLIBDIR/web-process-extensions otherwise. $TABWRIGHT_WEB_EXTENSION_DIR
 * overrides both. */
const char       *tw_web_context_get_extension_dir (void);

G_END_DECLS
