/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-snapshot-line.h"

#include <string.h>

/* The snapshot cuts names this long (runtime/snapshot.js NAME_MAX). */
#define SNAPSHOT_NAME_MAX 200

void
tw_snapshot_line_clear (TwSnapshotLine *line)
{
  g_clear_pointer (&line->line, g_free);
  g_clear_pointer (&line->role, g_free);
  g_clear_pointer (&line->name, g_free);
  g_clear_pointer (&line->ref, g_free);
}

gboolean
tw_snapshot_line_parse (const char     *text,
                        TwSnapshotLine *line)
{
  const char *p = text;
  const char *start;
  const char *at;

  memset (line, 0, sizeof *line);
  while (*p == ' ')
    p++;
  if (p[0] != '-' || p[1] != ' ')
    return FALSE;

  line->indent = (int) (p - text);
  line->line = g_strdup (p + 2);
  p += 2;

  start = p;
  while (*p != '\0' && *p != ' ' && *p != ':')
    p++;
  line->role = g_strndup (start, p - start);

  if (p[0] == ' ' && p[1] == '"')
    {
      GString *name = g_string_new (NULL);

      for (p += 2; *p != '\0' && *p != '"'; p++)
        {
          if (*p == '\\' && p[1] != '\0')
            p++;
          g_string_append_c (name, *p);
        }
      line->name = g_string_free (name, FALSE);
      if (*p == '"')
        p++;
    }

  /* After the name, which may hold " @e" itself. */
  at = strstr (p, " @e");
  if (at != NULL && g_ascii_isdigit (at[3]))
    {
      const char *end = at + 3;

      while (g_ascii_isdigit (*end))
        end++;
      line->ref = g_strndup (at + 1, end - (at + 1));
    }

  return TRUE;
}

/* The snapshot cuts long names: a cut one matches the name it begins. */
static gboolean
names_match (const char *name,
             const char *shown)
{
  const char *ellipsis = "…";

  if (g_strcmp0 (name, shown) == 0)
    return TRUE;
  if (!g_str_has_suffix (shown, ellipsis) || g_utf8_strlen (name, -1) < SNAPSHOT_NAME_MAX)
    return FALSE;

  return strncmp (name, shown, strlen (shown) - strlen (ellipsis)) == 0;
}

const char *
tw_snapshot_lines_find_ref (GArray     *lines,
                            const char *role,
                            const char *name)
{
  for (guint i = 0; i < lines->len; i++)
    {
      TwSnapshotLine *line = &g_array_index (lines, TwSnapshotLine, i);

      if (line->ref != NULL && g_strcmp0 (line->role, role) == 0 &&
          names_match (name != NULL ? name : "", line->name != NULL ? line->name : ""))
        return line->ref;
    }

  return NULL;
}
