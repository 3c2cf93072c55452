/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

#include "tw-error.h"
#include "tw-snapshot-line.h"

#include <string.h>

/* browser_find: elements by role, name and/or text, as refs with their
 * snapshot lines, without the whole snapshot in the agent's context. It
 * reads the page's snapshot, so roles, names and refs are the same as
 * browser_snapshot's. */

#define FIND_DEFAULT_RESULTS 50
#define FIND_SNAPSHOT_CHARS  1000000

typedef struct
{
  const char *role;
  const char *name;
  GRegex     *name_regex;
  const char *text;
} Query;

static gboolean
contains_caseless (const char *haystack,
                   const char *needle)
{
  g_autofree char *h = g_utf8_casefold (haystack, -1);
  g_autofree char *n = g_utf8_casefold (needle, -1);

  return strstr (h, n) != NULL;
}

static gboolean
element_matches (const Query           *query,
                 const TwSnapshotLine  *line)
{
  if (query->role != NULL && g_ascii_strcasecmp (query->role, line->role) != 0)
    return FALSE;
  if (query->name_regex != NULL &&
      (line->name == NULL || !g_regex_match (query->name_regex, line->name, 0, NULL)))
    return FALSE;
  if (query->name != NULL && query->name_regex == NULL &&
      (line->name == NULL || !contains_caseless (line->name, query->name)))
    return FALSE;

  return TRUE;
}

/* The query of the call's arguments: FALSE with @error for none at all or
 * a bad regular expression. */
static gboolean
query_init (JsonObject  *arguments,
            Query       *query,
            GError     **error)
{
  const char *name = tw_json_get_string (arguments, "name", NULL);

  memset (query, 0, sizeof *query);
  query->role = tw_json_get_string (arguments, "role", NULL);
  query->text = tw_json_get_string (arguments, "text", NULL);
  query->name = name;

  if (query->role == NULL && name == NULL && query->text == NULL)
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "give at least one of role, name and text");
      return FALSE;
    }

  /* "/Save|Submit/i" is a regular expression; anything else a substring. */
  if (name != NULL && name[0] == '/' && strlen (name) >= 3 &&
      (g_str_has_suffix (name, "/") || g_str_has_suffix (name, "/i")) &&
      strrchr (name, '/') != name)
    {
      gboolean caseless = g_str_has_suffix (name, "/i");
      g_autofree char *pattern = g_strndup (name + 1, strlen (name) - (caseless ? 3 : 2));
      g_autoptr(GError) regex_error = NULL;

      query->name_regex = g_regex_new (pattern, caseless ? G_REGEX_CASELESS : 0, 0, &regex_error);
      if (query->name_regex == NULL)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "name is not a valid regular expression: %s", regex_error->message);
          return FALSE;
        }
    }

  return TRUE;
}

static void
find_reply (TwToolCall *call,
            JsonObject *result)
{
  JsonObject *arguments = tw_tool_call_get_arguments (call);
  gint64 max_results = json_object_get_int_member_with_default (arguments, "maxResults",
                                                                FIND_DEFAULT_RESULTS);
  Query query;
  const char *snapshot = tw_json_get_string (result, "text", "");
  g_auto(GStrv) lines = g_strsplit (snapshot, "\n", -1);
  g_autoptr(GArray) parsed = g_array_new (FALSE, TRUE, sizeof (TwSnapshotLine));
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();   /* indices of ancestors with refs */
  JsonObject *structured = json_object_new ();
  JsonArray *matches = json_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) body = g_string_new (NULL);
  guint total = 0;

  g_array_set_clear_func (parsed, (GDestroyNotify) tw_snapshot_line_clear);
  query_init (arguments, &query, NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      TwSnapshotLine line;

      if (tw_snapshot_line_parse (lines[i], &line))
        g_array_append_val (parsed, line);
    }

  for (guint i = 0; i < parsed->len; i++)
    {
      TwSnapshotLine *line = &g_array_index (parsed, TwSnapshotLine, i);
      TwSnapshotLine *target = NULL;

      while (stack->len > 0 &&
             g_array_index (parsed, TwSnapshotLine, GPOINTER_TO_UINT (g_ptr_array_index (stack, stack->len - 1))).indent >= line->indent)
        g_ptr_array_remove_index (stack, stack->len - 1);

      if (query.text != NULL && contains_caseless (line->line, query.text))
        {
          /* Text shown by a line without a ref belongs to the nearest
           * element above it that has one. */
          if (line->ref != NULL)
            target = line;
          else
            for (guint j = stack->len; j > 0 && target == NULL; j--)
              {
                TwSnapshotLine *ancestor = &g_array_index (parsed, TwSnapshotLine,
                                                           GPOINTER_TO_UINT (g_ptr_array_index (stack, j - 1)));

                if (element_matches (&query, ancestor))
                  target = ancestor;
              }
          if (target != NULL && !element_matches (&query, target))
            target = NULL;
        }
      else if (query.text == NULL && line->ref != NULL && element_matches (&query, line))
        {
          target = line;
        }

      if (line->ref != NULL)
        g_ptr_array_add (stack, GUINT_TO_POINTER (i));

      if (target == NULL || g_hash_table_contains (seen, target->ref))
        continue;
      g_hash_table_add (seen, target->ref);
      total++;
      if ((gint64) json_array_get_length (matches) >= max_results)
        continue;

      {
        JsonObject *match = json_object_new ();

        json_object_set_string_member (match, "ref", target->ref);
        json_object_set_string_member (match, "role", target->role);
        if (target->name != NULL)
          json_object_set_string_member (match, "name", target->name);
        json_object_set_string_member (match, "line", target->line);
        json_array_add_object_element (matches, match);
        g_string_append_printf (body, "\n- %s", target->line);
      }
    }

  if (total == 0)
    g_string_append (text, "No element matches; take a browser_snapshot to see the page.");
  else if (total > json_array_get_length (matches))
    g_string_append_printf (text, "%u elements match; the first %u:", total,
                            json_array_get_length (matches));
  else
    g_string_append_printf (text, "%u element%s match%s:", total, total == 1 ? "" : "s",
                            total == 1 ? "es" : "");
  g_string_append (text, body->str);
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_field (text, "url", tw_json_get_string (result, "url", ""));
  tw_tool_append_dialogs (text, result);

  json_object_set_string_member (structured, "browserId", tw_json_get_string (result, "browserId", "?"));
  json_object_set_string_member (structured, "url", tw_json_get_string (result, "url", ""));
  json_object_set_int_member (structured, "total", total);
  json_object_set_array_member (structured, "matches", matches);

  g_clear_pointer (&query.name_regex, g_regex_unref);
  tw_tool_call_return_text (call, text->str, structured);
}

static void
find_handler (TwToolCall *call)
{
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(GError) error = NULL;
  Query query;

  if (!query_init (tw_tool_call_get_arguments (call), &query, &error))
    {
      tw_tool_call_return_error (call, error);
      return;
    }
  g_clear_pointer (&query.name_regex, g_regex_unref);

  json_object_set_int_member (params, "maxChars", FIND_SNAPSHOT_CHARS);
  tw_tool_call_run_command_full (call, TW_TAB_COMMAND_SNAPSHOT, tw_tool_get_browser_id (call),
                                 params, find_reply);
}

static const TwToolDef find_tools[] = {
  {
    .name = "browser_find",
    .title = "Find elements on the page",
    .description =
      "Find elements of a page by role (button, link, textbox…), by name (a substring, or "
      "a /regular expression/ with an optional i) and/or by text they show, and get their "
      "@eN refs with their snapshot lines, without reading the whole snapshot. Use it on "
      "long pages to locate the element to click or fill.",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .handler = find_handler,
  },
};

const TwToolTable tw_tools_find = TW_TOOL_TABLE (find_tools);
