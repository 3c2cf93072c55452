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
  JsonNode *score = json_object_get_member (match, "score");
  char buffer[G_ASCII_DTOSTR_BUF_SIZE] = "0";

  if (score != NULL && JSON_NODE_HOLDS_VALUE (score))
    g_ascii_formatd (buffer, sizeof buffer, "%.3g", json_node_get_double (score));

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
};

const TwToolDef *
tw_tools_search_get (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (search_tools);
  return search_tools;
}
