/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-text-index.h"

#include "tw-error.h"
#include "tw-sqlite.h"

#include <sqlite3.h>
#include <string.h>

struct _TwTextIndex
{
  GObject  parent_instance;

  sqlite3 *db;
};

G_DEFINE_FINAL_TYPE (TwTextIndex, tw_text_index, G_TYPE_OBJECT)

/* bm25 weights per column (id, version, url, title, body): a word in the
 * title says more about a page than one in its text. */
#define RANK "bm25(pages, 0.0, 0.0, 2.0, 4.0, 1.0)"

void
tw_text_hit_free (TwTextHit *hit)
{
  if (hit == NULL)
    return;

  g_free (hit->id);
  g_free (hit->url);
  g_free (hit->title);
  g_free (hit->snippet);
  g_free (hit);
}

static gboolean
set_sqlite_error (TwTextIndex  *self,
                  GError      **error)
{
  g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
               "the text index failed: %s", sqlite3_errmsg (self->db));
  return FALSE;
}

static sqlite3_stmt *
prepare (TwTextIndex  *self,
         const char   *sql,
         GError      **error)
{
  return tw_sqlite_prepare (self->db, "the text index", sql, error);
}

static void
tw_text_index_finalize (GObject *object)
{
  TwTextIndex *self = TW_TEXT_INDEX (object);

  g_clear_pointer (&self->db, sqlite3_close);

  G_OBJECT_CLASS (tw_text_index_parent_class)->finalize (object);
}

static void
tw_text_index_class_init (TwTextIndexClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_text_index_finalize;
}

static void
tw_text_index_init (TwTextIndex *self)
{
}

TwTextIndex *
tw_text_index_new (GError **error)
{
  g_autoptr(TwTextIndex) self = g_object_new (TW_TYPE_TEXT_INDEX, NULL);
  char *message = NULL;

  if (sqlite3_open_v2 (":memory:", &self->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                       NULL) != SQLITE_OK)
    {
      set_sqlite_error (self, error);
      return NULL;
    }

  /* unicode61 folds case and, with remove_diacritics 2, accents, so
   * "cafe" finds "Café"; porter stems English words, so "keeper" finds
   * "keepers". */
  if (sqlite3_exec (self->db,
                    "CREATE VIRTUAL TABLE pages USING fts5(id UNINDEXED, version UNINDEXED, "
                    "url, title, body, tokenize = 'porter unicode61 remove_diacritics 2')",
                    NULL, NULL, &message) != SQLITE_OK)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                   "the text index cannot be created (SQLite without FTS5?): %s", message);
      sqlite3_free (message);
      return NULL;
    }

  return g_steal_pointer (&self);
}

void
tw_text_index_remove (TwTextIndex *self,
                      const char  *id)
{
  sqlite3_stmt *stmt;

  g_return_if_fail (TW_IS_TEXT_INDEX (self));
  g_return_if_fail (id != NULL);

  stmt = prepare (self, "DELETE FROM pages WHERE id = ?", NULL);
  if (stmt == NULL)
    return;

  sqlite3_bind_text (stmt, 1, id, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    g_warning ("Could not remove %s from the text index: %s", id, sqlite3_errmsg (self->db));
  sqlite3_finalize (stmt);
}

gboolean
tw_text_index_put (TwTextIndex  *self,
                   const char   *id,
                   const char   *version,
                   const char   *url,
                   const char   *title,
                   const char   *text,
                   GError      **error)
{
  sqlite3_stmt *stmt;
  int rc;

  g_return_val_if_fail (TW_IS_TEXT_INDEX (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);
  g_return_val_if_fail (version != NULL, FALSE);

  tw_text_index_remove (self, id);

  stmt = prepare (self, "INSERT INTO pages (id, version, url, title, body) "
                  "VALUES (?, ?, ?, ?, ?)", error);
  if (stmt == NULL)
    return FALSE;

  sqlite3_bind_text (stmt, 1, id, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 2, version, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 3, url != NULL ? url : "", -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 4, title != NULL ? title : "", -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 5, text != NULL ? text : "", -1, SQLITE_TRANSIENT);
  rc = sqlite3_step (stmt);
  sqlite3_finalize (stmt);

  if (rc != SQLITE_DONE)
    return set_sqlite_error (self, error);

  return TRUE;
}

char *
tw_text_index_get_version (TwTextIndex *self,
                           const char  *id)
{
  sqlite3_stmt *stmt;
  char *version = NULL;

  g_return_val_if_fail (TW_IS_TEXT_INDEX (self), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  stmt = prepare (self, "SELECT version FROM pages WHERE id = ?", NULL);
  if (stmt == NULL)
    return NULL;

  sqlite3_bind_text (stmt, 1, id, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    version = g_strdup (tw_sqlite_column_text (stmt, 0));
  sqlite3_finalize (stmt);

  return version;
}

void
tw_text_index_retain (TwTextIndex        *self,
                      const char * const *ids)
{
  g_autoptr(GPtrArray) gone = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *stmt;

  g_return_if_fail (TW_IS_TEXT_INDEX (self));
  g_return_if_fail (ids != NULL);

  stmt = prepare (self, "SELECT id FROM pages", NULL);
  if (stmt == NULL)
    return;

  while (sqlite3_step (stmt) == SQLITE_ROW)
    if (!g_strv_contains (ids, tw_sqlite_column_text (stmt, 0)))
      g_ptr_array_add (gone, g_strdup (tw_sqlite_column_text (stmt, 0)));
  sqlite3_finalize (stmt);

  for (guint i = 0; i < gone->len; i++)
    tw_text_index_remove (self, g_ptr_array_index (gone, i));
}

guint
tw_text_index_get_n_rows (TwTextIndex *self)
{
  sqlite3_stmt *stmt;
  guint n = 0;

  g_return_val_if_fail (TW_IS_TEXT_INDEX (self), 0);

  stmt = prepare (self, "SELECT count(*) FROM pages", NULL);
  if (stmt == NULL)
    return 0;

  if (sqlite3_step (stmt) == SQLITE_ROW)
    n = (guint) sqlite3_column_int (stmt, 0);
  sqlite3_finalize (stmt);

  return n;
}

char *
tw_text_index_build_match (const char *query)
{
  g_autoptr(GString) match = g_string_new (NULL);
  g_auto(GStrv) chunks = NULL;
  gboolean has_word = FALSE;

  g_return_val_if_fail (query != NULL, NULL);

  if (!g_utf8_validate (query, -1, NULL))
    return NULL;

  for (const char *p = query; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_isalnum (g_utf8_get_char (p)))
      has_word = TRUE;
  if (!has_word)
    return NULL;

  /* Every chunk becomes an FTS5 string, where only the double quote is
   * special (written twice); the tokenizer then splits it into the words
   * of a phrase. Chunks are joined with OR, so that bm25 ranks the pages
   * with more of the words higher instead of dropping those that lack one. */
  chunks = g_strsplit_set (query, " \t\n\r\f\v", -1);
  for (guint i = 0; chunks[i] != NULL; i++)
    {
      g_autofree char *quoted = NULL;
      g_auto(GStrv) parts = NULL;

      if (chunks[i][0] == '\0')
        continue;

      parts = g_strsplit (chunks[i], "\"", -1);
      quoted = g_strjoinv ("\"\"", parts);
      if (match->len > 0)
        g_string_append (match, " OR ");
      g_string_append_printf (match, "\"%s\"", quoted);
    }

  return g_string_free (g_steal_pointer (&match), FALSE);
}

/* FTS5 marks the matched words with two control characters no page text
 * holds, so that "**" in the page itself is not taken for a match. */
static gboolean
has_mark (const char *snippet)
{
  return strchr (snippet, '\x02') != NULL;
}

/* A snippet is one line: the page's line breaks and runs of spaces become
 * single spaces. */
static char *
mark_up (const char *snippet)
{
  g_auto(GStrv) parts = g_strsplit_set (snippet, "\x02\x03", -1);
  g_autofree char *marked = g_strjoinv ("**", parts);
  g_auto(GStrv) words = g_strsplit_set (marked, " \t\n\r\f\v", -1);
  g_autoptr(GString) line = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    {
      if (words[i][0] == '\0')
        continue;
      if (line->len > 0)
        g_string_append_c (line, ' ');
      g_string_append (line, words[i]);
    }

  return g_string_free (g_steal_pointer (&line), FALSE);
}

GPtrArray *
tw_text_index_search (TwTextIndex  *self,
                      const char   *query,
                      guint         limit,
                      GError      **error)
{
  g_autoptr(GPtrArray) hits = NULL;
  g_autofree char *match = NULL;
  sqlite3_stmt *stmt;
  int rc;

  g_return_val_if_fail (TW_IS_TEXT_INDEX (self), NULL);
  g_return_val_if_fail (query != NULL, NULL);

  match = tw_text_index_build_match (query);
  if (match == NULL)
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "the query has no words to search for: give some text");
      return NULL;
    }

  stmt = prepare (self,
                  "SELECT id, url, title, -" RANK ", "
                  "snippet(pages, 4, char(2), char(3), '…', 24), "
                  "snippet(pages, 3, char(2), char(3), '…', 24), "
                  "snippet(pages, 2, char(2), char(3), '…', 24) "
                  "FROM pages WHERE pages MATCH ? ORDER BY " RANK " LIMIT ?",
                  error);
  if (stmt == NULL)
    return NULL;

  sqlite3_bind_text (stmt, 1, match, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int (stmt, 2, (int) MIN (limit, G_MAXINT));

  hits = g_ptr_array_new_with_free_func ((GDestroyNotify) tw_text_hit_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      TwTextHit *hit = g_new0 (TwTextHit, 1);
      const char *snippet = tw_sqlite_column_text (stmt, 4);

      /* The passage of the text, unless only the title or URL matched. */
      if (!has_mark (snippet) && has_mark (tw_sqlite_column_text (stmt, 5)))
        snippet = tw_sqlite_column_text (stmt, 5);
      else if (!has_mark (snippet) && has_mark (tw_sqlite_column_text (stmt, 6)))
        snippet = tw_sqlite_column_text (stmt, 6);

      hit->id = g_strdup (tw_sqlite_column_text (stmt, 0));
      hit->url = g_strdup (tw_sqlite_column_text (stmt, 1));
      hit->title = g_strdup (tw_sqlite_column_text (stmt, 2));
      hit->score = sqlite3_column_double (stmt, 3);
      hit->snippet = mark_up (snippet);
      g_ptr_array_add (hits, hit);
    }
  sqlite3_finalize (stmt);

  if (rc != SQLITE_DONE)
    {
      set_sqlite_error (self, error);
      return NULL;
    }

  return g_steal_pointer (&hits);
}
