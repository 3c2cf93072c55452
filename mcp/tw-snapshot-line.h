/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One line of a snapshot as the tools print it,
 * `  - button "Save" @e7 [disabled]`, read back (browser_find, replay). */
typedef struct
{
  int   indent;
  char *line;   /* without its indentation and "- " */
  char *role;
  char *name;   /* NULL when the line names none */
  char *ref;    /* "e7"; NULL for lines without a ref */
} TwSnapshotLine;

/* FALSE (and @line empty) for a line that is not an element's. */
gboolean tw_snapshot_line_parse (const char     *text,
                                 TwSnapshotLine *line);
void     tw_snapshot_line_clear (TwSnapshotLine *line);

/* The ref of the first line in @lines (of TwSnapshotLine) with a ref,
 * @role and @name; a name the snapshot cut ("…" at the end) matches the
 * longer name it begins. NULL when there is none. */
const char *tw_snapshot_lines_find_ref (GArray     *lines,
                                        const char *role,
                                        const char *name);

G_END_DECLS
