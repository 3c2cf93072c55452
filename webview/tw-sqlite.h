/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <sqlite3.h>

G_BEGIN_DECLS

/* What the workspace's SQLite stores (history, the text index) share. */

/* @sql prepared on @db, or NULL with @error set (TW_BROWSER_ERROR_INTERNAL,
 * "@what failed: <SQLite's message>"). */
sqlite3_stmt *tw_sqlite_prepare     (sqlite3       *db,
                                     const char    *what,
                                     const char    *sql,
                                     GError       **error);
/* The text of @column in the current row, "" for NULL. */
const char   *tw_sqlite_column_text (sqlite3_stmt  *stmt,
                                     int            column);

G_END_DECLS
