/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_find_in_tabs: which of the workspace's open tabs is about
 * something, ranked by full-text search (FTS5, bm25) over their visible
 * text, with the passage that matched. */

static void
append_match (GString    *text,
              guint       position,
              JsonObject *match)
{
  const char *indexed = tw_json_get_string (match, "indexed", "page");
  const char *note = tw_json_get_string (match, "note", NULL);
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buffer, sizeof buffer, "%.3g", tw_json_get_number (match, "score", 0));

  g_string_append_printf (text, "\n\n%u. browserId: %s", position,
                          tw_json_get_string (match, "browserId", "?"));
  g_string_append_printf (text, "\n   url: %s", tw_json_get_string (match, "url", ""));
  /* The title and the snippet are the page's words, quoted (issue 32). */
  g_string_append (text, "\n   title: ");
  tw_tool_append_quoted (text, tw_json_get_string (match, "title", ""));
  g_string_append_printf (text, "\n   score: %s", buffer);
  if (note != NULL)
    g_string_append_printf (text, "\n   indexed: %s (%s)", indexed, note);
  g_string_append (text, "\n   snippet: ");
  tw_tool_append_quoted (text, tw_json_get_string (match, "snippet", ""));
}

static char *
format_find (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonArray *matches = tw_json_get_array (result, "matches");
  guint n = matches != NULL ? json_array_get_length (matches) : 0;
  gint64 tabs = tw_json_get_int (result, "tabs", 0);
  const char *query = tw_json_get_string (result, "query", "");

  if (n == 0)
    g_string_append_printf (text, "No tab matches \"%s\" (searched %" G_GINT64_FORMAT " tab%s).",
                            query, tabs, tabs == 1 ? "" : "s");
  else
    g_string_append_printf (text, "%u of %" G_GINT64_FORMAT " tab%s match \"%s\", best first.",
                            n, tabs, tabs == 1 ? "" : "s", query);
  g_string_append_printf (text, "\nread: %" G_GINT64_FORMAT " tab%s read now, %" G_GINT64_FORMAT
                          " unchanged since the last search",
                          tw_json_get_int (result, "read", 0),
                          tw_json_get_int (result, "read", 0) == 1 ? "" : "s",
                          tw_json_get_int (result, "unchanged", 0));

  for (guint i = 0; i < n; i++)
    append_match (text, i + 1, json_array_get_object_element (matches, i));

  return g_string_free (text, FALSE);
}

/* browser_history: the pages visited in the workspace, by whom and when,
 * and its bookmarks. */

static void
append_entry (GString    *text,
              guint       position,
              JsonObject *entry)
{
  JsonArray *visitors = tw_json_get_array (entry, "visitors");
  gint64 visits = tw_json_get_int (entry, "visits", 0);

  g_string_append_printf (text, "\n\n%u. %s", position, tw_json_get_string (entry, "url", ""));
  g_string_append_printf (text, "\n   title: \"%s\"", tw_json_get_string (entry, "title", ""));
  if (visits > 0)
    {
      g_string_append_printf (text, "\n   visited: %" G_GINT64_FORMAT " time%s, last %s, by ",
                              visits, visits == 1 ? "" : "s",
                              tw_json_get_string (entry, "lastVisit", "?"));
      for (guint i = 0; visitors != NULL && i < json_array_get_length (visitors); i++)
        g_string_append_printf (text, "%s%s", i > 0 ? ", " : "",
                                json_array_get_string_element (visitors, i));
    }
  if (tw_json_get_boolean (entry, "bookmarked", FALSE))
    g_string_append_printf (text, "\n   bookmarked: %s",
                            tw_json_get_string (entry, "bookmarkedAt", "yes"));
}

static char *
format_history (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonArray *entries = tw_json_get_array (result, "entries");
  guint n = entries != NULL ? json_array_get_length (entries) : 0;
  const char *query = tw_json_get_string (result, "query", "");
  const char *kind = tw_json_get_string (result, "kind", "all");
  const char *what = g_str_equal (kind, "visits") ? "visited page" :
                     g_str_equal (kind, "bookmarks") ? "bookmark" : "page";

  if (n == 0)
    g_string_append_printf (text, "No %s matches%s%s%s.", what, query[0] ? " \"" : "", query,
                            query[0] ? "\"" : "");
  else
    g_string_append_printf (text, "%u %s%s%s%s%s, latest first:", n, what, n == 1 ? "" : "s",
                            query[0] ? " match \"" : "", query, query[0] ? "\"" : "");

  for (guint i = 0; i < n; i++)
    append_entry (text, i + 1, json_array_get_object_element (entries, i));

  return g_string_free (text, FALSE);
}

static const TwToolDef search_tools[] = {
  {
    .name = "browser_find_in_tabs",
    .title = "Find text across open tabs",
    .description =
      "Search the text of all open tabs for words and get the best-matching tabs, ranked, "
      "with the passage that matched. Use it to find which tab shows something.",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_FIND_IN_TABS,
    .arguments = TW_TOOL_ARGUMENTS ("query", "maxResults"),
    .format = format_find,
  },
  {
    .name = "browser_history",
    .title = "Search browsing history and bookmarks",
    .description =
      "Search the pages visited in this workspace, by the person and by agents, and its "
      "bookmarks, by words of their address or title and by date. Each result says who "
      "visited it and when.",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_HISTORY,
    .arguments = TW_TOOL_ARGUMENTS ("query", "since", "until", "kind", "maxResults"),
    .format = format_history,
  },
};

const TwToolTable tw_tools_search = TW_TOOL_TABLE (search_tools);
