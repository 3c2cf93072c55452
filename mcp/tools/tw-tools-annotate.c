/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

#include "tw-tool-call-private.h"

/* browser_annotate (issue 33, "Teach"): the agent asks the person to show
 * what they mean on a tab: boxes and points with a note. The call waits
 * until they send (or cancel), saying every few seconds that it is alive,
 * and returns the note, the marked elements' refs and the screenshot with
 * the marks drawn. */

#define ANNOTATE_DEFAULT_TIMEOUT_MS 300000

/* "mark 1: box at x,y size wxh:" and the elements it marks, one a line;
 * also for an annotation that rides along with another result
 * (tw-tool-call.c). */
void
tw_tools_annotate_append_marks (GString    *text,
                                JsonObject *result)
{
  JsonArray *marks = tw_json_get_array (result, "marks");
  guint n = marks != NULL ? json_array_get_length (marks) : 0;

  for (guint i = 0; i < n; i++)
    {
      JsonObject *mark = json_array_get_object_element (marks, i);
      JsonArray *elements = tw_json_get_array (mark, "elements");
      guint n_elements = elements != NULL ? json_array_get_length (elements) : 0;
      gboolean box = g_strcmp0 (tw_json_get_string (mark, "kind", NULL), "box") == 0;

      if (box)
        g_string_append_printf (text, "\nmark %u: box at %" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                                " size %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT ":", i + 1,
                                tw_json_get_int (mark, "x", 0), tw_json_get_int (mark, "y", 0),
                                tw_json_get_int (mark, "width", 0), tw_json_get_int (mark, "height", 0));
      else
        g_string_append_printf (text, "\nmark %u: point at %" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ":",
                                i + 1, tw_json_get_int (mark, "x", 0), tw_json_get_int (mark, "y", 0));
      if (n_elements == 0)
        g_string_append (text, " no element an agent can act on");
      for (guint j = 0; j < n_elements; j++)
        {
          JsonObject *element = json_array_get_object_element (elements, j);
          const char *name = tw_json_get_string (element, "name", "");

          g_string_append_printf (text, "\n  - %s %s", tw_json_get_string (element, "ref", "?"),
                                  tw_json_get_string (element, "role", ""));
          if (*name != '\0')
            g_string_append_printf (text, " \"%s\"", name);
        }
    }
}

static void
annotate_reply (TwToolCall *call,
                JsonObject *result)
{
  const char *outcome = tw_json_get_string (result, "outcome", "cancelled");
  const char *png = tw_json_get_string (result, "png", NULL);
  g_autoptr(GString) text = g_string_new (NULL);

  if (!g_str_equal (outcome, "sent"))
    {
      g_string_append (text, "The person cancelled the annotation; they marked nothing.");
      tw_tool_append_field (text, "outcome", outcome);
      tw_tool_append_page (text, result);
      tw_tool_call_return_text (call, text->str, NULL);
      return;
    }

  g_string_append (text, "The person marked the page");
  g_string_append (text, png != NULL ? " (the screenshot below shows their marks in red)." : ".");
  tw_tool_append_field (text, "outcome", outcome);
  tw_tool_append_field (text, "note", tw_json_get_string (result, "note", ""));
  tw_tool_append_page (text, result);

  tw_tools_annotate_append_marks (text, result);
  g_string_append (text, "\nThese refs are the ones browser_snapshot prints for the same elements.");

  tw_tool_return_text_and_image (call, text->str, png);
}

static void
annotate_handler (TwToolCall *call)
{
  tw_tool_wait_for_person (call, TW_TAB_COMMAND_ANNOTATE, "mark", ANNOTATE_DEFAULT_TIMEOUT_MS, annotate_reply);
}

static const TwToolDef annotate_tools[] = {
  {
    .name = "browser_annotate",
    .title = "Ask the person to mark a tab",
    .description =
      "Ask the person watching to show you what they mean: they draw boxes and point at elements "
      "on the tab, add a note and send. Waits for them (or timeoutMs). Returns the note, the refs, "
      "roles and names of the marked elements, and a screenshot with their marks.",
    .search_hint = "annotate, person shows, point at element, mark, teach, feedback",
    .read_only = TRUE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = FALSE,
    .handler = annotate_handler,
  },
};

const TwToolTable tw_tools_annotate = TW_TOOL_TABLE (annotate_tools);
