/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>

G_BEGIN_DECLS

/* Follows the loads of a web view for one command, and waits for the one
 * under way to end. The one load watcher of a tab: navigate, back,
 * forward, reload, a restored tab waking and actions that navigate all wait
 * through it. */

typedef struct _TwLoadWatch TwLoadWatch;

typedef enum
{
  /* No load started within the grace period: a step inside the document
   * (pushState, a fragment), a navigation the page refused, or one that
   * another took over and nothing followed. The page is what it is. */
  TW_LOAD_END_NONE,
  /* A load started and finished. */
  TW_LOAD_END_LOADED,
  /* A load failed: tw_load_watch_get_error(). */
  TW_LOAD_END_FAILED,
  /* Still loading at the deadline. */
  TW_LOAD_END_TIMED_OUT,
} TwLoadEnd;

typedef enum
{
  TW_LOAD_WATCH_NONE = 0,
  /* A response that became a download ends the load as if cancelled: the
   * tab stays on its page. Without it, that is a failure. */
  TW_LOAD_WATCH_DOWNLOADS_STAY = 1 << 0,
} TwLoadWatchFlags;

/* Called once per wait. The watch may be freed from it. */
typedef void (*TwLoadEndFunc) (TwLoadWatch *watch,
                               TwLoadEnd    end,
                               gpointer     user_data);

/* Called when a load starts, whether or not anyone waits. */
typedef void (*TwLoadStartFunc) (TwLoadWatch *watch,
                                 gpointer     user_data);

/* Connects the view's one set of load handlers; call before connecting
 * any "load-failed" handler that returns TRUE. */
void          tw_load_watch_attach           (WebKitWebView    *view);

TwLoadWatch  *tw_load_watch_new              (WebKitWebView    *view,
                                              TwLoadWatchFlags  flags);
void          tw_load_watch_free             (TwLoadWatch      *self);

void          tw_load_watch_set_start_func   (TwLoadWatch      *self,
                                              TwLoadStartFunc   func,
                                              gpointer          user_data);
/* A load is under way that began before the watch (a tab the window just
 * woke): wait for that one. */
void          tw_load_watch_assume_loading   (TwLoadWatch      *self);

gboolean      tw_load_watch_is_loading       (TwLoadWatch      *self);
/* A load is under way, or WebKit decided on a navigation of the page a
 * moment ago and its load may start any moment. A frame's navigation looks
 * the same until its document is requested. */
gboolean      tw_load_watch_is_navigating    (TwLoadWatch      *self);
/* A load replaced the document since the watch began. */
gboolean      tw_load_watch_get_committed    (TwLoadWatch      *self);
/* When the first load since the watch began started; 0 if none did. */
gint64        tw_load_watch_get_first_start  (TwLoadWatch      *self);
/* The last failure, and the address that failed; NULL if none. TLS
 * certificate failures are in G_TLS_ERROR. */
const GError *tw_load_watch_get_error        (TwLoadWatch      *self);
const char   *tw_load_watch_get_failing_uri  (TwLoadWatch      *self);

/* Calls @func once, when the load under way ends, or when none has started
 * @grace_ms after this call or after one was cancelled (sooner once the
 * address changed without a load: a step inside the document; longer while
 * one is starting), or at @deadline_us (monotonic; 0 for none) if still
 * loading. A load that ended since the watch began, with none after it and
 * none starting, ends the wait at once. */
void          tw_load_watch_wait             (TwLoadWatch      *self,
                                              guint             grace_ms,
                                              gint64            deadline_us,
                                              TwLoadEndFunc     func,
                                              gpointer          user_data);
void          tw_load_watch_stop_waiting     (TwLoadWatch      *self);

G_END_DECLS
