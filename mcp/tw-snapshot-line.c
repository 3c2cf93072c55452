/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-snapshot-line.h"

#include <string.h>

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
