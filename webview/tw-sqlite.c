/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-sqlite.h"

#include "tw-error.h"

sqlite3_stmt *
tw_sqlite_prepare (sqlite3     *db,
                   const char  *what,
                   const char  *sql,
                   GError     **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                   "%s failed: %s", what, sqlite3_errmsg (db));
      return NULL;
    }

  return stmt;
}

const char *
tw_sqlite_column_text (sqlite3_stmt *stmt,
                       int           column)
{
  const unsigned char *text = sqlite3_column_text (stmt, column);

  return text != NULL ? (const char *) text : "";
}
