/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A tab's emulated position, for browser_emulate (tw-tab-emulation.h),
 * through its web context's geolocation manager: pages of a tab that
 * emulates one are granted the permission and get the position, pages of
 * other tabs are denied it, and the person's real position is never looked
 * up. The manager has one position for all its views, so tabs that emulate
 * a geolocation at once emulate the same one. */
typedef struct
{
  double latitude;
  double longitude;
  double accuracy;
} TwGeolocation;

/* What @view emulates, or NULL. */
const TwGeolocation *tw_tab_geolocation_get        (WebKitWebView       *view);
/* Starts, changes or (NULL) ends @view's emulation. */
void                 tw_tab_geolocation_set        (WebKitWebView       *view,
                                                    const TwGeolocation *where);
/* Reads browser_emulate's {latitude, longitude, accuracy?} for @view: a
 * position other than the one other tabs of its context emulate is refused. */
gboolean             tw_tab_geolocation_read       (WebKitWebView       *view,
                                                    JsonNode            *node,
                                                    TwGeolocation       *where,
                                                    GError             **error);
/* The page shown asked for the position and was denied, an answer WebKit
 * keeps until the page loads again. */
gboolean             tw_tab_geolocation_was_denied (WebKitWebView       *view);
/* Answers @view's permission requests for the position, and, the first
 * time, takes over the web context's geolocation manager. Once per view. */
void                 tw_tab_geolocation_attach     (WebKitWebView       *view);

G_END_DECLS
