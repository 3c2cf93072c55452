/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tab-job.h"

G_BEGIN_DECLS

/* What a tab pretends to be, per web view:
 * - the user agent, through the view's own WebKitSettings: it is what
 *   navigator.userAgent says and what the User-Agent header of every
 *   request carries, from the next load on;
 * - a device, "phone" or "tablet" ("desktop" undoes it): its viewport
 *   (as browser_resize sets one, given back when the device goes), its
 *   browser's user agent unless userAgent says otherwise, and touch support
 *   as scripts detect it (navigator.maxTouchPoints, window.ontouchstart);
 *   CSS pointer and hover media queries keep answering for the desktop;
 * - offline: a content filter of the tab's own content manager blocks
 *   every http(s) and ws(s) request of its pages, and navigator.onLine is
 *   false in them (the page shown gets the offline event at once; a frame
 *   of another origin learns it on its next load);
 * - a geolocation, through the web context's geolocation manager: pages of
 *   that tab are granted the permission and get the position, pages of
 *   other tabs are denied it, and the person's real position is never
 *   looked up. The manager has one position for all tabs, so tabs that
 *   emulate a geolocation at once emulate the same one.
 * - media features: colorScheme (light, dark), reducedMotion (reduce,
 *   no-preference), forcedColors (active, none) and the media type (print,
 *   screen). WebKitGTK 2.50 answers prefers-color-scheme from the
 *   display's GtkSettings, prefers-reduced-motion and forced-colors for the
 *   whole web process, and has no per-view media type, with no API to tell
 *   one view otherwise. So a user script in the page's own world
 *   (webview/page-world/media.js) answers them: matchMedia, and the media
 *   lists of the page's style sheets, rewritten where a page script could
 *   rewrite them. Style sheets of another origin without CORS cannot be,
 *   and the browser's own rendering (form controls, scrollbars, forced
 *   colours, pagination) stays the display's: the result says so.
 *
 * browser_emulate: {device?, userAgent?, geolocation?: {latitude,
 * longitude, accuracy?}, offline?, colorScheme?, reducedMotion?,
 * forcedColors?, media?, reset?} -> {emulation: {device?, userAgent?,
 * geolocation?, offline?, colorScheme?, reducedMotion?, forcedColors?,
 * media?}, userAgent, reset, offline?, viewport?, pageOnLine?,
 * pageMaxTouchPoints?, pageDenied?, pageMedia?}. pageMedia: what the page
 * shown answers after ({prefersDark, reducedMotion, forcedColors, print,
 * unreadableSheets}). viewport:
 * what the page measured after a device's was set (browser_resize's
 * result); pageOnLine and pageMaxTouchPoints: what the page shown said
 * after.
 * pageDenied: the page shown asked for the position before and was denied,
 * an answer WebKit keeps until the page loads again. Nothing changes when
 * the call is refused. */
void tw_tab_emulation_apply_run (const TwTabJob *job,
                                 GTask          *task);

/* {device?, userAgent?, geolocation?, offline?, colorScheme?,
 * reducedMotion?, forcedColors?, media?} while the view emulates something,
 * else NULL. */
JsonObject *tw_tab_emulation_describe     (WebKitWebView        *view);

gboolean    tw_tab_emulation_is_offline   (WebKitWebView        *view);

/* Answers @view's permission requests for the position (granted only while
 * it emulates one), and, the first time, takes over the web context's
 * geolocation manager. Once per view, when it is made. */
void        tw_tab_emulation_attach       (WebKitWebView        *view);

G_END_DECLS
