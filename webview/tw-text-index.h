/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* A full-text index of pages: one row per document id (a tab's browserId)
 * with its URL, title and visible text, in an in-memory SQLite FTS5 table
 * ranked with bm25. Each row keeps the version of the page it was read
 * from, so a caller re-reads a page only when it changed. It knows nothing
 * of tabs or WebKit, so that a history store can sit beside it. */

#define TW_TYPE_TEXT_INDEX (tw_text_index_get_type ())
G_DECLARE_FINAL_TYPE (TwTextIndex, tw_text_index, TW, TEXT_INDEX, GObject)

typedef struct
{
  char   *id;
  char   *url;
  char   *title;
  /* The best passage, with the matched words between "**" marks. */
  char   *snippet;
  /* bm25 turned round: higher is a better match. */
  double  score;
} TwTextHit;

void         tw_text_hit_free          (TwTextHit          *hit);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwTextHit, tw_text_hit_free)

/* NULL with @error set when SQLite cannot open the table (no FTS5). */
TwTextIndex *tw_text_index_new         (GError            **error);

/* Adds or replaces the row of @id. */
gboolean     tw_text_index_put         (TwTextIndex        *self,
                                        const char         *id,
                                        const char         *version,
                                        const char         *url,
                                        const char         *title,
                                        const char         *text,
                                        GError            **error);
/* The version the row of @id was put with, or NULL when there is none. */
char        *tw_text_index_get_version (TwTextIndex        *self,
                                        const char         *id);
void         tw_text_index_remove      (TwTextIndex        *self,
                                        const char         *id);
/* Removes every row whose id is not in @ids (NULL-terminated). */
void         tw_text_index_retain      (TwTextIndex        *self,
                                        const char * const *ids);
guint        tw_text_index_get_n_rows  (TwTextIndex        *self);

/* The FTS5 expression that searches for the words of @query, any of them,
 * as plain words: quotes, "-", "*", "^", NEAR, AND, OR, NOT and column
 * names are text, never syntax. A run of characters without spaces stays
 * together as a phrase ("drop-down" finds "drop down"). NULL when @query
 * has no letter or digit to search for. */
char        *tw_text_index_build_match (const char         *query);

/* The best @limit rows for @query, best first, as TwTextHits: an empty
 * array when nothing matches. Fails with TW_BROWSER_ERROR_INVALID_ARGUMENT
 * for a query with no words. */
GPtrArray   *tw_text_index_search      (TwTextIndex        *self,
                                        const char         *query,
                                        guint               limit,
                                        GError            **error);

G_END_DECLS
