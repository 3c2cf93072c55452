/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-timeline-private.h"

#include "tw-json.h"

#include <string.h>

/* What a call's line in the timeline says: who called which tool with
 * what, how it ended, where it left the tab, and the text it answered. */

/* How much of a result's text a line keeps. */
#define RESULT_MAX_CHARS 2000
#define ARGUMENTS_MAX_CHARS 4000

/* The text a call's result carried, cut to a readable length. */
static char *
result_text (JsonNode *result)
{
  JsonObject *object = result != NULL && JSON_NODE_HOLDS_OBJECT (result)
                       ? json_node_get_object (result) : NULL;
  JsonArray *content = tw_json_get_array (object, "content");
  GString *text = g_string_new (NULL);

  for (guint i = 0; content != NULL && i < json_array_get_length (content); i++)
    {
      JsonNode *item = json_array_get_element (content, i);
      JsonObject *block = JSON_NODE_HOLDS_OBJECT (item) ? json_node_get_object (item) : NULL;
      const char *type = tw_json_get_string (block, "type", NULL);

      if (g_strcmp0 (type, "text") == 0)
        {
          if (text->len > 0)
            g_string_append_c (text, '\n');
          g_string_append (text, tw_json_get_string (block, "text", ""));
        }
      else if (type != NULL)
        {
          g_string_append_printf (text, "%s[%s]", text->len > 0 ? "\n" : "", type);
        }
    }

  if (text->len > RESULT_MAX_CHARS)
    {
      const char *end = g_utf8_find_prev_char (text->str, text->str + RESULT_MAX_CHARS);

      g_string_truncate (text, end != NULL ? (gsize) (end - text->str) : 0);
      g_string_append (text, "…");
    }

  return g_string_free (text, FALSE);
}

void
_tw_timeline_line_take_result (Step     *step,
                               JsonNode *result)
{
  step->result_text = result_text (result);
  if (result != NULL && JSON_NODE_HOLDS_OBJECT (result))
    {
      JsonObject *structured = tw_json_get_object (json_node_get_object (result),
                                                   "structuredContent");
      JsonArray *fields = tw_json_get_array (structured, "fields");

      step->outcome_url = g_strdup (tw_json_get_string (structured, "url", NULL));
      step->navigated = tw_json_get_boolean (structured, "navigated", FALSE);
      /* A form filled in one call: each field by role and name, so that a
       * replay finds them again. */
      if (fields != NULL && g_strcmp0 (tw_activity_entry_get_tool (step->entry), "browser_fill_form") == 0)
        {
          step->fields = json_array_new ();
          for (guint i = 0; i < json_array_get_length (fields); i++)
            {
              JsonNode *node = json_array_get_element (fields, i);
              JsonObject *field = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
              JsonObject *element = json_object_new ();

              if (tw_json_get_string (field, "role", NULL) != NULL)
                {
                  json_object_set_string_member (element, "role", tw_json_get_string (field, "role", NULL));
                  json_object_set_string_member (element, "name", tw_json_get_string (field, "name", ""));
                }
              json_array_add_object_element (step->fields, element);
            }
        }
    }
}

JsonObject *
_tw_timeline_line_build (TwBrowser *browser,
                         Step      *step)
{
  TwActivityEntry *entry = step->entry;
  JsonObject *line = json_object_new ();
  g_autofree char *time = g_date_time_format_iso8601 (tw_activity_entry_get_time (entry));
  g_autoptr(JsonNode) arguments = json_node_init_object (json_node_alloc (), step->arguments);
  g_autofree char *arguments_text = json_to_string (arguments, FALSE);

  json_object_set_int_member (line, "seq", step->seq);
  json_object_set_string_member (line, "time", time);
  json_object_set_string_member (line, "agentId", tw_activity_entry_get_agent_id (entry));
  json_object_set_string_member (line, "agentName", tw_activity_entry_get_agent_name (entry));
  json_object_set_string_member (line, "tool", tw_activity_entry_get_tool (entry));
  json_object_set_string_member (line, "browserId", tw_activity_entry_get_browser_id (entry));
  if (strlen (arguments_text) <= ARGUMENTS_MAX_CHARS)
    {
      json_object_set_member (line, "arguments", g_steal_pointer (&arguments));
    }
  else
    {
      /* A long script or text: its beginning, as text, keeps the line
       * small. */
      const char *end = g_utf8_find_prev_char (arguments_text, arguments_text + ARGUMENTS_MAX_CHARS);
      g_autofree char *clipped = g_strndup (arguments_text, end != NULL ? end - arguments_text : 0);
      g_autofree char *shown = g_strconcat (clipped, "…", NULL);

      json_object_set_string_member (line, "arguments", shown);
    }
  json_object_set_double_member (line, "durationMs", tw_activity_entry_get_duration_ms (entry));
  json_object_set_boolean_member (line, "ok", tw_activity_entry_get_state (entry) == TW_ACTIVITY_SUCCEEDED);
  if (tw_activity_entry_get_error_code (entry) != NULL)
    {
      JsonObject *error = json_object_new ();

      json_object_set_string_member (error, "code", tw_activity_entry_get_error_code (entry));
      json_object_set_string_member (error, "message", tw_activity_entry_get_error_message (entry));
      json_object_set_object_member (line, "error", error);
    }
  if (tw_activity_entry_get_target_role (entry) != NULL || tw_activity_entry_get_ref (entry) != NULL)
    {
      JsonObject *element = json_object_new ();

      json_object_set_string_member (element, "ref", tw_activity_entry_get_ref (entry));
      json_object_set_string_member (element, "role", tw_activity_entry_get_target_role (entry));
      json_object_set_string_member (element, "name", tw_activity_entry_get_target_name (entry));
      json_object_set_object_member (line, "element", element);
    }
  if (step->fields != NULL)
    json_object_set_array_member (line, "fields", json_array_ref (step->fields));
  /* Where the call left the tab: a replay checks it gets there too. */
  if (step->outcome_url != NULL)
    {
      JsonObject *outcome = json_object_new ();

      json_object_set_string_member (outcome, "url", step->outcome_url);
      json_object_set_boolean_member (outcome, "navigated", step->navigated);
      json_object_set_object_member (line, "outcome", outcome);
    }
  /* How long after the call ended its picture after was taken: reading
   * calls that followed at once came first. */
  if (step->after_asked && step->ended_us > 0)
    json_object_set_double_member (line, "afterMs", (step->after_asked_us - step->ended_us) / 1000.0);
  _tw_timeline_add_action (browser, step, line);
  json_object_set_string_member (line, "result", step->result_text);

  return line;
}
