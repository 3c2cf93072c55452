/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A workspace's history and bookmarks: the pages visited, by the person
 * and by each agent, and the pages bookmarked, in one SQLite database with
 * an FTS5 index over their addresses and titles. Every statement runs on
 * one worker thread of its own, in the order it was asked for, so the GTK
 * main loop never waits on the disk and a search sees every visit recorded
 * before it. */

#define TW_TYPE_HISTORY (tw_history_get_type ())
G_DECLARE_FINAL_TYPE (TwHistory, tw_history, TW, HISTORY, GObject)

typedef enum
{
  TW_HISTORY_KIND_ALL,
  TW_HISTORY_KIND_VISITS,
  TW_HISTORY_KIND_BOOKMARKS,
} TwHistoryKind;

typedef struct
{
  char     *url;
  char     *title;
  /* The latest visit in the searched time range, in µs since the epoch;
   * 0 for a bookmark never visited in it. */
  gint64    last_visit;
  guint     n_visits;
  /* Who visited, latest first, each once ("the person" for the person). */
  GStrv     visitors;
  gboolean  bookmarked;
  gint64    bookmarked_at;
} TwHistoryEntry;

void            tw_history_entry_free      (TwHistoryEntry  *entry);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwHistoryEntry, tw_history_entry_free)

/* The visitor name of the person's own visits. */
#define TW_HISTORY_PERSON "the person"

/* Opens (or creates) the database at @path, or one in memory for NULL.
 * The file is opened on the worker: when it cannot be, each search fails
 * with the reason and visits are dropped with a warning. */
TwHistory      *tw_history_new             (const char      *path);

/* Whether @url is kept at all: web pages and files, not about:, data: or
 * blob: documents. */
gboolean        tw_history_keeps_url       (const char      *url);

/* Records a visit to @url now, by @visitor (an agent's display name, or
 * TW_HISTORY_PERSON). */
void            tw_history_add_visit       (TwHistory       *self,
                                            const char      *url,
                                            const char      *title,
                                            const char      *visitor);
/* The page's title once it is known (it often comes after the visit). */
void            tw_history_set_title       (TwHistory       *self,
                                            const char      *url,
                                            const char      *title);

/* Adds or removes the bookmark of @url. */
void            tw_history_set_bookmarked  (TwHistory       *self,
                                            const char      *url,
                                            const char      *title,
                                            gboolean         bookmarked);
/* Whether @url is bookmarked, from what this object knows now (the
 * bookmarks are read once at start, then kept up to date here):
 * "bookmarks-changed" says when the answer may have changed. Until they
 * are read it answers FALSE: what shows a page's state asks
 * tw_history_lookup_bookmark_async() instead. */
gboolean        tw_history_is_bookmarked   (TwHistory       *self,
                                            const char      *url);
/* Whether @url is bookmarked, asked of the database after every change
 * asked for before: right from the start, and after a restart. */
void            tw_history_lookup_bookmark_async  (TwHistory           *self,
                                                   const char          *url,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean        tw_history_lookup_bookmark_finish (TwHistory           *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);

/* The pages whose address or title hold every word of @query as a word
 * or the start of one (all pages for NULL or a query with no words),
 * visited between @since and @until (µs since the epoch; 0 for no bound),
 * latest visit first, at most @limit, as TwHistoryEntry. Bookmarks come
 * with TW_HISTORY_KIND_ALL too, and alone with _BOOKMARKS. */
void            tw_history_search_async    (TwHistory           *self,
                                            const char          *query,
                                            gint64               since,
                                            gint64               until,
                                            TwHistoryKind        kind,
                                            guint                limit,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
GPtrArray      *tw_history_search_finish   (TwHistory           *self,
                                            GAsyncResult        *result,
                                            GError             **error);

/* Calls @callback once every statement asked for before it has run (for
 * tests and for closing). */
void            tw_history_flush_async     (TwHistory           *self,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
gboolean        tw_history_flush_finish    (TwHistory           *self,
                                            GAsyncResult        *result,
                                            GError             **error);

G_END_DECLS
