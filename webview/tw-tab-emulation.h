/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What a tab pretends to be, per web view. Today the user agent only,
 * through the view's own WebKitSettings: it is what navigator.userAgent
 * says and what the User-Agent header of every request carries, from the
 * next load on. (Colour scheme, reduced motion and the print media type
 * have no public per-view API in WebKitGTK 2.50, so they are not offered.)
 *
 * browser_emulate: {userAgent?, reset?} -> {emulation: {userAgent?},
 * userAgent, reload: true when the page shown has the old one}. */
JsonObject *tw_tab_emulation_apply    (WebKitWebView  *view,
                                       JsonObject     *params,
                                       GError        **error);

/* {userAgent} while the view emulates something, else NULL. */
JsonObject *tw_tab_emulation_describe (WebKitWebView  *view);

G_END_DECLS
