/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-history.h"

#include "tw-error.h"
#include "tw-sqlite.h"

#include <sqlite3.h>
#include <string.h>

/* The words of a query, at most this many, make the FTS5 expression. */
#define MAX_QUERY_WORDS 16

typedef enum
{
  JOB_STOP,
  JOB_VISIT,
  JOB_TITLE,
  JOB_BOOKMARK,
  JOB_LOAD_BOOKMARKS,
  JOB_LOOKUP_BOOKMARK,
  JOB_SEARCH,
  JOB_FLUSH,
} JobType;

typedef struct
{
  JobType        type;
  GTask         *task;
  char          *url;
  char          *title;
  char          *visitor;
  char          *match;
  gint64         time;
  gint64         since;
  gint64         until;
  TwHistoryKind  kind;
  guint          limit;
  gboolean       bookmarked;
} Job;

/* What the worker thread owns: the object may go before the thread has
 * run the last statements it was given. */
typedef struct
{
  GAsyncQueue *queue;
  char        *path;
  sqlite3     *db;
  char        *open_error;
} Worker;

struct _TwHistory
{
  GObject     parent_instance;

  Worker     *worker;
  GThread    *thread;
  /* The bookmarked URLs, as the main thread knows them. */
  GHashTable *bookmarks;
  /* Until the bookmarks are read, those changed here meanwhile: what was
   * read before the change does not undo it. */
  gboolean    bookmarks_loaded;
  GHashTable *changed_early;
  /* The time of the last record: each one is later than the one before,
   * so that the order of records is the order they were made in. */
  gint64      last_time;
};

G_DEFINE_FINAL_TYPE (TwHistory, tw_history, G_TYPE_OBJECT)

enum
{
  BOOKMARKS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
tw_history_entry_free (TwHistoryEntry *entry)
{
  if (entry == NULL)
    return;

  g_free (entry->url);
  g_free (entry->title);
  g_strfreev (entry->visitors);
  g_free (entry);
}

static gboolean
unref_task_cb (gpointer task)
{
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

/* On the worker thread. A task holds its source object: it must let go of
 * it on the thread that made it, or the object could end on the worker,
 * which it waits for. */
static void
job_free (Job *job)
{
  if (job->task != NULL)
    {
      g_autoptr(GSource) source = g_idle_source_new ();
      GMainContext *context = g_task_get_context (job->task);

      g_source_set_callback (source, unref_task_cb, g_steal_pointer (&job->task), NULL);
      g_source_attach (source, context);
    }
  g_free (job->url);
  g_free (job->title);
  g_free (job->visitor);
  g_free (job->match);
  g_free (job);
}

static Job *
job_new (JobType type)
{
  Job *job = g_new0 (Job, 1);

  job->type = type;
  return job;
}

gboolean
tw_history_keeps_url (const char *url)
{
  if (url == NULL)
    return FALSE;

  return g_ascii_strncasecmp (url, "http://", 7) == 0 ||
         g_ascii_strncasecmp (url, "https://", 8) == 0 ||
         g_ascii_strncasecmp (url, "file://", 7) == 0;
}

/* The database, on the worker thread */

static const char schema[] =
  "PRAGMA foreign_keys = ON;"
  "CREATE TABLE IF NOT EXISTS pages ("
  "  id INTEGER PRIMARY KEY,"
  "  url TEXT NOT NULL UNIQUE,"
  "  title TEXT NOT NULL DEFAULT '',"
  "  bookmarked_at INTEGER NOT NULL DEFAULT 0);"
  "CREATE TABLE IF NOT EXISTS visits ("
  "  id INTEGER PRIMARY KEY,"
  "  page INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE,"
  "  time INTEGER NOT NULL,"
  "  visitor TEXT NOT NULL);"
  "CREATE INDEX IF NOT EXISTS visits_by_page ON visits (page, time);"
  /* unicode61 folds case and accents: "cafe" finds "Café". */
  "CREATE VIRTUAL TABLE IF NOT EXISTS pages_text USING fts5 ("
  "  url, title, content = 'pages', content_rowid = 'id',"
  "  tokenize = 'unicode61 remove_diacritics 2');"
  "CREATE TRIGGER IF NOT EXISTS pages_added AFTER INSERT ON pages BEGIN"
  "  INSERT INTO pages_text (rowid, url, title) VALUES (new.id, new.url, new.title);"
  "END;"
  "CREATE TRIGGER IF NOT EXISTS pages_removed AFTER DELETE ON pages BEGIN"
  "  INSERT INTO pages_text (pages_text, rowid, url, title)"
  "    VALUES ('delete', old.id, old.url, old.title);"
  "END;"
  "CREATE TRIGGER IF NOT EXISTS pages_renamed AFTER UPDATE OF url, title ON pages BEGIN"
  "  INSERT INTO pages_text (pages_text, rowid, url, title)"
  "    VALUES ('delete', old.id, old.url, old.title);"
  "  INSERT INTO pages_text (rowid, url, title) VALUES (new.id, new.url, new.title);"
  "END;";

static void
worker_open (Worker *worker)
{
  const char *path = worker->path != NULL ? worker->path : ":memory:";
  char *message = NULL;

  if (sqlite3_open_v2 (path, &worker->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                       NULL) != SQLITE_OK)
    {
      worker->open_error = g_strdup_printf ("cannot open %s: %s", path,
                                            worker->db != NULL ? sqlite3_errmsg (worker->db)
                                                               : "out of memory");
      g_clear_pointer (&worker->db, sqlite3_close);
      return;
    }

  /* Another process may hold the file for a moment (a second window of the
   * same workspace). */
  sqlite3_busy_timeout (worker->db, 2000);

  if (sqlite3_exec (worker->db, schema, NULL, NULL, &message) != SQLITE_OK)
    {
      worker->open_error = g_strdup_printf ("cannot prepare %s (SQLite without FTS5?): %s", path,
                                            message);
      sqlite3_free (message);
      g_clear_pointer (&worker->db, sqlite3_close);
    }
}

static sqlite3_stmt *
prepare (Worker     *worker,
         const char *sql)
{
  g_autoptr(GError) error = NULL;
  sqlite3_stmt *stmt = tw_sqlite_prepare (worker->db, "History", sql, &error);

  if (stmt == NULL)
    g_warning ("%s", error->message);

  return stmt;
}

/* Runs @sql with text parameters @a and @b (NULL binds NULL) and @n. */
static gboolean
run (Worker     *worker,
     const char *sql,
     const char *a,
     const char *b,
     gint64      n)
{
  sqlite3_stmt *stmt = prepare (worker, sql);
  int rc;

  if (stmt == NULL)
    return FALSE;

  sqlite3_bind_text (stmt, 1, a, -1, SQLITE_TRANSIENT);
  if (sqlite3_bind_parameter_count (stmt) >= 2)
    sqlite3_bind_text (stmt, 2, b, -1, SQLITE_TRANSIENT);
  if (sqlite3_bind_parameter_count (stmt) >= 3)
    sqlite3_bind_int64 (stmt, 3, n);
  rc = sqlite3_step (stmt);
  sqlite3_finalize (stmt);

  if (rc != SQLITE_DONE)
    {
      g_warning ("History: %s", sqlite3_errmsg (worker->db));
      return FALSE;
    }

  return TRUE;
}

/* The page's row, made when it is new; a title only replaces the kept one
 * when it says something. */
static gint64
ensure_page (Worker     *worker,
             const char *url,
             const char *title)
{
  sqlite3_stmt *stmt;
  gint64 id = 0;

  if (!run (worker,
            "INSERT INTO pages (url, title) VALUES (?1, ?2) ON CONFLICT (url) DO UPDATE SET "
            "title = CASE WHEN excluded.title != '' THEN excluded.title ELSE title END",
            url, title != NULL ? title : "", 0))
    return 0;

  stmt = prepare (worker, "SELECT id FROM pages WHERE url = ?1");
  if (stmt == NULL)
    return 0;
  sqlite3_bind_text (stmt, 1, url, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    id = sqlite3_column_int64 (stmt, 0);
  sqlite3_finalize (stmt);

  return id;
}

static void
worker_visit (Worker *worker,
              Job    *job)
{
  sqlite3_stmt *stmt;
  gint64 page = ensure_page (worker, job->url, job->title);

  if (page == 0)
    return;

  stmt = prepare (worker, "INSERT INTO visits (page, time, visitor) VALUES (?1, ?2, ?3)");
  if (stmt == NULL)
    return;
  sqlite3_bind_int64 (stmt, 1, page);
  sqlite3_bind_int64 (stmt, 2, job->time);
  sqlite3_bind_text (stmt, 3, job->visitor, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    g_warning ("History: %s", sqlite3_errmsg (worker->db));
  sqlite3_finalize (stmt);
}

static void
worker_bookmark (Worker *worker,
                 Job    *job)
{
  if (job->bookmarked && ensure_page (worker, job->url, job->title) == 0)
    return;

  run (worker, "UPDATE pages SET bookmarked_at = ?3 WHERE url = ?1",
       job->url, NULL, job->bookmarked ? job->time : 0);
}

static void
worker_load_bookmarks (Worker *worker,
                       Job    *job)
{
  g_autoptr(GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *stmt = prepare (worker, "SELECT url FROM pages WHERE bookmarked_at > 0");

  if (stmt != NULL)
    {
      while (sqlite3_step (stmt) == SQLITE_ROW)
        g_ptr_array_add (urls, g_strdup (tw_sqlite_column_text (stmt, 0)));
      sqlite3_finalize (stmt);
    }

  g_task_return_pointer (job->task, g_steal_pointer (&urls), (GDestroyNotify) g_ptr_array_unref);
}

static void
worker_lookup_bookmark (Worker *worker,
                        Job    *job)
{
  sqlite3_stmt *stmt = prepare (worker, "SELECT bookmarked_at FROM pages WHERE url = ?1");
  gboolean bookmarked = FALSE;

  if (stmt == NULL)
    {
      g_task_return_new_error (job->task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "the bookmarks cannot be read: %s", sqlite3_errmsg (worker->db));
      return;
    }
  sqlite3_bind_text (stmt, 1, job->url, -1, SQLITE_TRANSIENT);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    bookmarked = sqlite3_column_int64 (stmt, 0) > 0;
  sqlite3_finalize (stmt);
  g_task_return_boolean (job->task, bookmarked);
}

static GStrv
worker_visitors (Worker *worker,
                 gint64  page,
                 Job    *job)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  sqlite3_stmt *stmt = prepare (worker,
                                "SELECT visitor, max(time) AS latest FROM visits "
                                "WHERE page = ?1 AND time >= ?2 AND time <= ?3 "
                                "GROUP BY visitor ORDER BY latest DESC, max(id) DESC");

  if (stmt != NULL)
    {
      sqlite3_bind_int64 (stmt, 1, page);
      sqlite3_bind_int64 (stmt, 2, job->since);
      sqlite3_bind_int64 (stmt, 3, job->until);
      while (sqlite3_step (stmt) == SQLITE_ROW)
        g_strv_builder_add (builder, tw_sqlite_column_text (stmt, 0));
      sqlite3_finalize (stmt);
    }

  return g_strv_builder_end (builder);
}

static void
worker_search (Worker *worker,
               Job    *job)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) tw_history_entry_free);
  sqlite3_stmt *stmt;

  stmt = prepare (worker,
                  "SELECT id, url, title, bookmarked_at, last, n FROM ("
                  "  SELECT p.id, p.url, p.title, p.bookmarked_at,"
                  "    (SELECT max(time) FROM visits v WHERE v.page = p.id AND v.time >= ?1 AND v.time <= ?2) AS last,"
                  "    (SELECT count(*) FROM visits v WHERE v.page = p.id AND v.time >= ?1 AND v.time <= ?2) AS n"
                  "  FROM pages p"
                  "  WHERE ?3 IS NULL OR p.id IN (SELECT rowid FROM pages_text WHERE pages_text MATCH ?3))"
                  "WHERE (?4 != 2 AND n > 0) OR"
                  "  (?4 != 1 AND bookmarked_at > 0 AND bookmarked_at >= ?1 AND bookmarked_at <= ?2) "
                  "ORDER BY max(coalesce(last, 0), bookmarked_at) DESC, id DESC LIMIT ?5");
  if (stmt == NULL)
    {
      g_task_return_new_error (job->task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "the history cannot be searched: %s", sqlite3_errmsg (worker->db));
      return;
    }

  sqlite3_bind_int64 (stmt, 1, job->since);
  sqlite3_bind_int64 (stmt, 2, job->until);
  sqlite3_bind_text (stmt, 3, job->match, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int (stmt, 4, job->kind);
  sqlite3_bind_int64 (stmt, 5, job->limit);

  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      TwHistoryEntry *entry = g_new0 (TwHistoryEntry, 1);
      gint64 page = sqlite3_column_int64 (stmt, 0);

      entry->url = g_strdup (tw_sqlite_column_text (stmt, 1));
      entry->title = g_strdup (tw_sqlite_column_text (stmt, 2));
      entry->bookmarked_at = sqlite3_column_int64 (stmt, 3);
      entry->bookmarked = entry->bookmarked_at > 0;
      entry->last_visit = sqlite3_column_int64 (stmt, 4);
      entry->n_visits = (guint) sqlite3_column_int64 (stmt, 5);
      entry->visitors = worker_visitors (worker, page, job);
      g_ptr_array_add (entries, entry);
    }
  sqlite3_finalize (stmt);

  g_task_return_pointer (job->task, g_steal_pointer (&entries), (GDestroyNotify) g_ptr_array_unref);
}

static gpointer
worker_main (gpointer data)
{
  Worker *worker = data;
  gboolean stop = FALSE;

  worker_open (worker);

  while (!stop)
    {
      Job *job = g_async_queue_pop (worker->queue);

      stop = job->type == JOB_STOP;
      if (worker->db == NULL)
        {
          if (job->task != NULL)
            g_task_return_new_error (job->task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                     "the history is not available: %s", worker->open_error);
          else if (job->type == JOB_VISIT)
            g_warning ("History: a visit to %s was not kept: %s", job->url, worker->open_error);
          job_free (job);
          continue;
        }

      switch (job->type)
        {
        case JOB_VISIT:
          worker_visit (worker, job);
          break;
        case JOB_TITLE:
          run (worker, "UPDATE pages SET title = ?2 WHERE url = ?1 AND title != ?2",
               job->url, job->title, 0);
          break;
        case JOB_BOOKMARK:
          worker_bookmark (worker, job);
          break;
        case JOB_LOAD_BOOKMARKS:
          worker_load_bookmarks (worker, job);
          break;
        case JOB_LOOKUP_BOOKMARK:
          worker_lookup_bookmark (worker, job);
          break;
        case JOB_SEARCH:
          worker_search (worker, job);
          break;
        case JOB_FLUSH:
          g_task_return_boolean (job->task, TRUE);
          break;
        case JOB_STOP:
        default:
          break;
        }
      job_free (job);
    }

  g_clear_pointer (&worker->db, sqlite3_close);
  g_async_queue_unref (worker->queue);
  g_free (worker->path);
  g_free (worker->open_error);
  g_free (worker);

  return NULL;
}

/* The object, on the main thread */

static gint64
next_time (TwHistory *self)
{
  self->last_time = MAX (g_get_real_time (), self->last_time + 1);
  return self->last_time;
}

static void
push (TwHistory *self,
      Job       *job)
{
  g_async_queue_push (self->worker->queue, job);
}

static void
tw_history_finalize (GObject *object)
{
  TwHistory *self = TW_HISTORY (object);

  /* The statements already asked for still run, then the file closes. */
  push (self, job_new (JOB_STOP));
  g_thread_join (self->thread);
  g_hash_table_unref (self->bookmarks);
  g_clear_pointer (&self->changed_early, g_hash_table_unref);

  G_OBJECT_CLASS (tw_history_parent_class)->finalize (object);
}

static void
tw_history_class_init (TwHistoryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_history_finalize;

  /**
   * TwHistory::bookmarks-changed:
   *
   * A page was bookmarked or its bookmark removed, or the bookmarks kept
   * on disk were read.
   */
  signals[BOOKMARKS_CHANGED] =
    g_signal_new ("bookmarks-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
tw_history_init (TwHistory *self)
{
  self->bookmarks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->changed_early = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static void
bookmarks_loaded_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  TwHistory *self = TW_HISTORY (object);
  g_autoptr(GPtrArray) urls = g_task_propagate_pointer (G_TASK (result), NULL);

  self->bookmarks_loaded = TRUE;
  if (urls == NULL)
    return;

  for (guint i = 0; i < urls->len; i++)
    {
      const char *url = g_ptr_array_index (urls, i);

      if (!g_hash_table_contains (self->changed_early, url))
        g_hash_table_add (self->bookmarks, g_strdup (url));
    }
  g_hash_table_remove_all (self->changed_early);
  g_signal_emit (self, signals[BOOKMARKS_CHANGED], 0);
}

TwHistory *
tw_history_new (const char *path)
{
  TwHistory *self = g_object_new (TW_TYPE_HISTORY, NULL);
  Worker *worker = g_new0 (Worker, 1);
  Job *job;

  worker->queue = g_async_queue_new ();
  worker->path = g_strdup (path);
  self->worker = worker;
  self->thread = g_thread_new ("tw-history", worker_main, worker);

  job = job_new (JOB_LOAD_BOOKMARKS);
  job->task = g_task_new (self, NULL, bookmarks_loaded_cb, NULL);
  g_task_set_source_tag (job->task, tw_history_new);
  push (self, job);

  return self;
}

void
tw_history_add_visit (TwHistory  *self,
                      const char *url,
                      const char *title,
                      const char *visitor)
{
  Job *job;

  g_return_if_fail (TW_IS_HISTORY (self));
  g_return_if_fail (visitor != NULL);

  if (!tw_history_keeps_url (url))
    return;

  job = job_new (JOB_VISIT);
  job->url = g_strdup (url);
  job->title = g_strdup (title);
  job->visitor = g_strdup (visitor);
  job->time = next_time (self);
  push (self, job);
}

void
tw_history_set_title (TwHistory  *self,
                      const char *url,
                      const char *title)
{
  Job *job;

  g_return_if_fail (TW_IS_HISTORY (self));

  if (!tw_history_keeps_url (url) || title == NULL || title[0] == '\0')
    return;

  job = job_new (JOB_TITLE);
  job->url = g_strdup (url);
  job->title = g_strdup (title);
  push (self, job);
}

void
tw_history_set_bookmarked (TwHistory  *self,
                           const char *url,
                           const char *title,
                           gboolean    bookmarked)
{
  Job *job;

  g_return_if_fail (TW_IS_HISTORY (self));

  /* Before the bookmarks are read, the cache cannot say whether this
   * changes anything: the database decides. */
  if (!tw_history_keeps_url (url) ||
      (self->bookmarks_loaded && bookmarked == tw_history_is_bookmarked (self, url)))
    return;
  if (!self->bookmarks_loaded)
    g_hash_table_add (self->changed_early, g_strdup (url));

  job = job_new (JOB_BOOKMARK);
  job->url = g_strdup (url);
  job->title = g_strdup (title);
  job->bookmarked = bookmarked;
  job->time = next_time (self);
  push (self, job);

  if (bookmarked)
    g_hash_table_add (self->bookmarks, g_strdup (url));
  else
    g_hash_table_remove (self->bookmarks, url);
  g_signal_emit (self, signals[BOOKMARKS_CHANGED], 0);
}

gboolean
tw_history_is_bookmarked (TwHistory  *self,
                          const char *url)
{
  g_return_val_if_fail (TW_IS_HISTORY (self), FALSE);

  return url != NULL && g_hash_table_contains (self->bookmarks, url);
}

void
tw_history_lookup_bookmark_async (TwHistory           *self,
                                  const char          *url,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  Job *job;

  g_return_if_fail (TW_IS_HISTORY (self));
  g_return_if_fail (url != NULL);

  job = job_new (JOB_LOOKUP_BOOKMARK);
  job->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (job->task, tw_history_lookup_bookmark_async);
  job->url = g_strdup (url);
  push (self, job);
}

gboolean
tw_history_lookup_bookmark_finish (TwHistory     *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Every word of @query, letters and digits, as the start of a word: the
 * query's own quotes and operators are never FTS5 syntax. NULL for a query
 * with no words. */
static char *
build_match (const char *query)
{
  g_autoptr(GString) match = g_string_new (NULL);
  g_autoptr(GString) word = g_string_new (NULL);
  guint n_words = 0;

  if (query == NULL || !g_utf8_validate (query, -1, NULL))
    return NULL;

  for (const char *p = query;; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c != 0 && g_unichar_isalnum (c))
        {
          g_string_append_unichar (word, c);
          continue;
        }

      if (word->len > 0 && n_words < MAX_QUERY_WORDS)
        {
          g_string_append_printf (match, "%s\"%s\"*", match->len > 0 ? " " : "", word->str);
          n_words++;
        }
      g_string_truncate (word, 0);

      if (c == 0)
        break;
    }

  return n_words > 0 ? g_string_free (g_steal_pointer (&match), FALSE) : NULL;
}

void
tw_history_search_async (TwHistory           *self,
                         const char          *query,
                         gint64               since,
                         gint64               until,
                         TwHistoryKind        kind,
                         guint                limit,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  Job *job;

  g_return_if_fail (TW_IS_HISTORY (self));

  job = job_new (JOB_SEARCH);
  job->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (job->task, tw_history_search_async);
  job->match = build_match (query);
  job->since = since > 0 ? since : 0;
  job->until = until > 0 ? until : G_MAXINT64;
  job->kind = kind;
  job->limit = limit > 0 ? limit : 1;
  push (self, job);
}

GPtrArray *
tw_history_search_finish (TwHistory     *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
tw_history_flush_async (TwHistory           *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  Job *job;

  g_return_if_fail (TW_IS_HISTORY (self));

  job = job_new (JOB_FLUSH);
  job->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (job->task, tw_history_flush_async);
  push (self, job);
}

gboolean
tw_history_flush_finish (TwHistory     *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
