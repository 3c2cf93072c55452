/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What a tab pretends to be, per web view:
 * - the user agent, through the view's own WebKitSettings: it is what
 *   navigator.userAgent says and what the User-Agent header of every
 *   request carries, from the next load on;
 * - a geolocation, through the web context's geolocation manager: pages of
 *   that tab are granted the permission and get the position, pages of
 *   other tabs are denied it, and the person's real position is never
 *   looked up. The manager has one position for all tabs, so tabs that
 *   emulate a geolocation at once emulate the same one.
 * (Colour scheme, reduced motion and the print media type have no public
 * per-view API in WebKitGTK 2.50, so they are not offered.)
 *
 * browser_emulate: {userAgent?, geolocation?: {latitude, longitude,
 * accuracy?}, reset?} -> {emulation: {userAgent?, geolocation?},
 * userAgent, reset, pageDenied?}. pageDenied: the page shown asked for
 * the position before and was denied, an answer WebKit keeps until the
 * page loads again. Nothing changes when the call is refused. */
JsonObject *tw_tab_emulation_apply    (WebKitWebView  *view,
                                       JsonObject     *params,
                                       GError        **error);

/* {userAgent?, geolocation?} while the view emulates something, else NULL. */
JsonObject *tw_tab_emulation_describe (WebKitWebView  *view);

/* Answers @view's permission requests for the position (granted only while
 * it emulates one), and, the first time, takes over the web context's
 * geolocation manager. Once per view, when it is made. */
void        tw_tab_emulation_attach   (WebKitWebView  *view);

G_END_DECLS
