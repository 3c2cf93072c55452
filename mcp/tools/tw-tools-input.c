/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

#include "tw-error.h"

#include <string.h>

/* Tools that act on a page the way a person does: click, fill, type,
 * keypress, hover, select, drag, upload, scroll, and evaluate for what no
 * other tool covers. Each takes refs from browser_snapshot, waits until the
 * element can be used, acts, and returns once the page has settled or the
 * navigation it started has loaded. */

/* Schema fragments */

#define REF_PROPERTY(name, what) \
  "\"" name "\": {" \
  "\"type\": \"string\", \"minLength\": 1, \"maxLength\": 32, " \
  "\"description\": \"" what " A ref, e.g. @e7.\"" \
  "}"

#define ELEMENT_SCHEMA(what) \
  "{" \
  "\"type\": \"object\", " \
  "\"description\": \"" what "\", " \
  "\"properties\": {" \
  "\"ref\": {\"type\": \"string\", \"description\": \"The element's ref.\"}, " \
  "\"role\": {\"type\": \"string\", \"description\": \"Its role, as the snapshot prints it.\"}, " \
  "\"name\": {\"type\": \"string\", \"description\": \"Its accessible name when the agent chose it.\"}" \
  "}, " \
  "\"required\": [\"ref\", \"role\", \"name\"]" \
  "}"

#define INCLUDE_DIFF_PROPERTY \
  "\"includeDiff\": {\"type\": \"boolean\", \"description\": \"Also return what it changed (a snapshot diff).\"}"

/* What every action reports, then the fields of one tool. */
#define ACTION_OUTPUT_SCHEMA(extra) \
  TW_TOOL_OUTPUT_SCHEMA ( \
    "\"browserId\": {\"type\": \"string\", \"description\": \"The tab.\"}, " \
    "\"url\": {\"type\": \"string\", \"description\": \"The URL the tab shows after the action.\"}, " \
    "\"title\": {\"type\": \"string\", \"description\": \"The page title after the action.\"}, " \
    "\"navigated\": {\"type\": \"boolean\", \"description\": \"True when the action took the tab to another page or changed its URL; url and title then describe the new page.\"}, " \
    "\"loading\": {\"type\": \"boolean\", \"description\": \"True when a page the action opened was still loading when the call gave up waiting.\"}, " \
    "\"loadError\": {\"type\": \"string\", \"description\": \"Why a page the action opened failed to load.\"}, " \
    "\"newTabs\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, \"description\": \"browserIds of tabs the page opened during the action (popups, links to new windows).\"}, " \
    "\"fileChooser\": {\"type\": \"boolean\", \"description\": \"True when the action opened a file chooser, which was closed again: use browser_upload to choose files.\"}, " \
    TW_TOOL_DIALOGS_PROPERTY ", " \
    "\"diff\": {\"type\": \"string\"}, " \
    "\"element\": " ELEMENT_SCHEMA ("The element acted on.") \
    extra, \
    "\"browserId\", \"url\", \"title\"")

/* Reading results */

static gint64
get_int (JsonObject *object,
         const char *member,
         gint64      fallback)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return fallback;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return json_node_get_int (node);
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    return (gint64) json_node_get_double (node);

  return fallback;
}

/* `button "Save" @e7`, or `button @e7` for an unnamed one. */
static void
append_element (GString    *text,
                JsonObject *element)
{
  const char *role = tw_json_get_string (element, "role", "element");
  const char *name = tw_json_get_string (element, "name", "");
  const char *ref = tw_json_get_string (element, "ref", "");

  g_string_append (text, g_str_equal (role, "generic") ? "element" : role);
  if (name[0] != '\0')
    {
      g_autofree char *cut = g_utf8_substring (name, 0, MIN (g_utf8_strlen (name, -1), 80));

      g_string_append_printf (text, " \"%s\"", cut);
    }
  if (ref[0] != '\0')
    g_string_append_printf (text, " %s", ref);
}

/* The element of an action's result, when it has one. */
static void
append_result_element (GString    *text,
                       JsonObject *result)
{
  JsonObject *element = tw_json_get_object (result, "element");

  if (element != NULL)
    append_element (text, element);
}

/* The lines every action ends with: what else happened, then the labelled
 * fields of the tab (browserId, url, title), the tabs it opened, the dialogs
 * it answered. */
static void
append_effects (GString    *text,
                JsonObject *result)
{
  JsonNode *node;

  if (tw_json_get_boolean (result, "navigated", FALSE))
    g_string_append (text, tw_json_get_boolean (result, "loading", FALSE)
                           ? "\nThe tab went to another page, still loading when the call returned."
                           : "\nThe tab went to another page.");
  else if (tw_json_get_boolean (result, "loading", FALSE))
    g_string_append (text, "\nA page is still loading in the tab.");

  if (tw_json_get_string (result, "loadError", NULL) != NULL)
    g_string_append_printf (text, "\nThe page failed to load: %s",
                            tw_json_get_string (result, "loadError", ""));

  if (tw_json_get_boolean (result, "fileChooser", FALSE))
    g_string_append (text, "\nThe page opened a file chooser, which was closed: use browser_upload "
                     "with this ref to choose files.");

  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_field (text, "url", tw_json_get_string (result, "url", ""));
  tw_tool_append_title (text, result);

  node = json_object_get_member (result, "newTabs");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *tabs = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (tabs); i++)
        tw_tool_append_field (text, "newTab browserId", json_array_get_string_element (tabs, i));
    }

  tw_tool_append_dialogs (text, result);
}

static char *
finish_text (GString    *text,
             JsonObject *result)
{
  append_effects (text, result);

  /* includeDiff: the page's changes last, as the snapshot prints them. */
  if (tw_json_get_string (result, "diff", NULL) != NULL)
    {
      g_string_append_printf (text, "\nWhat changed on the page:\n%s",
                              tw_json_get_string (result, "diff", ""));
      if (tw_json_get_string (result, "diffCursor", NULL) != NULL)
        tw_tool_append_field (text, "diffCursor", tw_json_get_string (result, "diffCursor", ""));
    }
  else if (tw_json_get_string (result, "diffError", NULL) != NULL)
    {
      g_string_append_printf (text, "\nNo diff of the page: %s; take a snapshot to see it.",
                              tw_json_get_string (result, "diffError", ""));
    }

  return g_string_free (text, FALSE);
}

/* browser_click */

static char *
format_click (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *button = tw_json_get_string (result, "button", "left");
  gboolean twice = tw_json_get_boolean (result, "doubleClick", FALSE);

  if (twice)
    g_string_append (text, "Double-clicked ");
  else if (g_str_equal (button, "right"))
    g_string_append (text, "Right-clicked ");
  else if (g_str_equal (button, "middle"))
    g_string_append (text, "Middle-clicked ");
  else
    g_string_append (text, "Clicked ");

  append_result_element (text, result);
  g_string_append (text, ".");

  return finish_text (text, result);
}

/* browser_fill */

static char *
format_fill (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonObject *selected = tw_json_get_object (result, "selected");
  const char *value = tw_json_get_string (result, "value", NULL);

  if (selected != NULL)
    {
      g_string_append (text, "Selected ");
      tw_tool_append_cut (text, tw_json_get_string (selected, "label", ""), 80);
      g_string_append (text, " in ");
    }
  else
    {
      g_string_append (text, "Filled ");
    }

  append_result_element (text, result);

  if (selected == NULL && value != NULL)
    {
      g_string_append (text, ": it now holds ");
      tw_tool_append_cut (text, value, 200);
    }
  g_string_append (text, ".");

  if (tw_json_get_boolean (result, "changedByPage", FALSE))
    g_string_append (text, " That differs from the value given: the page changed or limited it.");

  return finish_text (text, result);
}

/* browser_type */

static char *
format_type (JsonObject *result)
{
  GString *text = g_string_new ("Typed ");
  JsonObject *element = tw_json_get_object (result, "element");
  const char *typed = tw_json_get_string (result, "typed", "");
  const char *value = tw_json_get_string (result, "value", NULL);

  tw_tool_append_cut (text, typed, 200);

  if (element != NULL)
    {
      g_string_append (text, " into ");
      append_element (text, element);
    }
  else if (tw_json_get_boolean (result, "editable", FALSE))
    {
      g_string_append_printf (text, " into the focused %s", tw_json_get_string (result, "focused", "element"));
    }
  else
    {
      g_string_append_printf (text, ". No text field had the focus (it is on %s), so the page got "
                              "the key presses but no text went in; pass a ref to type into a field",
                              tw_json_get_string (result, "focused", "the page"));
    }
  g_string_append (text, ".");

  if (value != NULL && tw_json_get_boolean (result, "editable", FALSE))
    {
      g_string_append (text, " The field now holds ");
      tw_tool_append_cut (text, value, 200);
      g_string_append (text, ".");
    }

  return finish_text (text, result);
}

/* browser_keypress */

static char *
format_keypress (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonObject *element = tw_json_get_object (result, "element");

  g_string_append_printf (text, "Pressed %s", tw_json_get_string (result, "key", "the key"));
  if (element != NULL)
    {
      g_string_append (text, " on ");
      append_element (text, element);
    }
  g_string_append_printf (text, "; the focus is now on %s.", tw_json_get_string (result, "focused", "the page"));

  if (tw_json_get_boolean (result, "prevented", FALSE))
    g_string_append (text, " The page handled the key itself (it cancelled the browser's default action).");

  return finish_text (text, result);
}

/* browser_hover */

static char *
format_hover (JsonObject *result)
{
  GString *text = g_string_new ("Moved the pointer onto ");

  append_result_element (text, result);
  g_string_append (text, ".");

  return finish_text (text, result);
}

/* browser_select */

static char *
format_select (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonObject *element = tw_json_get_object (result, "element");
  JsonObject *selected = tw_json_get_object (result, "selected");
  const char *label = selected != NULL ? tw_json_get_string (selected, "label", "") : "";
  const char *value = selected != NULL ? tw_json_get_string (selected, "value", "") : "";

  g_string_append (text, tw_json_get_boolean (result, "changed", TRUE) ? "Selected " : "Already selected: ");
  tw_tool_append_cut (text, label, 80);
  if (!g_str_equal (value, label) && value[0] != '\0')
    {
      g_string_append (text, " (value ");
      tw_tool_append_cut (text, value, 80);
      g_string_append (text, ")");
    }
  if (element != NULL)
    {
      g_string_append (text, " in ");
      append_element (text, element);
    }
  g_string_append (text, ".");

  return finish_text (text, result);
}

/* browser_drag */

static char *
format_drag (JsonObject *result)
{
  GString *text = g_string_new ("Dragged ");
  JsonObject *source = tw_json_get_object (result, "source");
  JsonObject *target = tw_json_get_object (result, "target");
  gboolean html = g_strcmp0 (tw_json_get_string (result, "mode", ""), "html5") == 0;

  if (source != NULL)
    append_element (text, source);
  g_string_append (text, " onto ");
  if (target != NULL)
    append_element (text, target);

  /* What was done and what the page showed of it, never what was meant:
   * a pointer drag counts as taken only when the release landed on the
   * target and the page changed. */
  if (html)
    g_string_append (text, tw_json_get_boolean (result, "dropped", FALSE)
                           ? " with HTML drag and drop; the page accepted the drop."
                           : " with HTML drag and drop, but the page did not accept the drop there.");
  else if (tw_json_get_boolean (result, "dropped", FALSE))
    g_string_append (text, " with the pointer (press, move, rest, release on the target); the page changed during the drag.");
  else if (tw_json_get_boolean (result, "onTarget", FALSE))
    g_string_append (text, " with the pointer and released it on the target, but the page did not change: "
                     "it may not have taken the drag.");
  else
    {
      const char *on = tw_json_get_string (result, "releasedOn", "");

      g_string_append (text, " with the pointer, but the release did not land on the target");
      if (on[0] != '\0')
        g_string_append_printf (text, " (it landed on %s)", on);
      g_string_append (text, tw_json_get_boolean (result, "pageChanged", FALSE)
                             ? "; the page changed during the drag."
                             : "; the page did not change.");
    }
  if (!html && tw_json_get_boolean (result, "captured", FALSE))
    g_string_append (text, " The page captured the pointer.");

  return finish_text (text, result);
}

/* browser_upload */

static char *
format_upload (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonObject *element = tw_json_get_object (result, "element");
  JsonNode *node = json_object_get_member (result, "files");

  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *files = json_node_get_array (node);
      guint n = json_array_get_length (files);

      g_string_append_printf (text, "The page now has %u file%s", n, n == 1 ? "" : "s");
      for (guint i = 0; i < n; i++)
        g_string_append_printf (text, "%s%s", i == 0 ? ": " : ", ", json_array_get_string_element (files, i));
    }
  else
    {
      g_string_append (text, "Chose the files");
    }

  if (element != NULL)
    {
      g_string_append (text, " (chosen through ");
      append_element (text, element);
      g_string_append (text, ")");
    }
  g_string_append (text, ".");

  return finish_text (text, result);
}

/* browser_scroll */

static char *
format_scroll (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *scrolled = tw_json_get_string (result, "scrolled", "page");

  if (tw_json_get_boolean (result, "prevented", FALSE))
    {
      g_string_append (text, "The page cancelled the wheel event, so nothing scrolled by itself "
                       "(the page may scroll its own way).");
      return finish_text (text, result);
    }

  g_string_append_printf (text, "Scrolled %s%s by %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
                          "; its scroll position is now %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ".",
                          g_str_equal (scrolled, "page") ? "the " : "",
                          scrolled,
                          get_int (result, "movedX", 0), get_int (result, "movedY", 0),
                          get_int (result, "scrollX", 0), get_int (result, "scrollY", 0));

  if (get_int (result, "movedX", 0) == 0 && get_int (result, "movedY", 0) == 0)
    g_string_append (text, " It could not move further that way.");
  else if (tw_json_get_boolean (result, "atBottom", FALSE))
    g_string_append (text, " It reached the bottom.");

  return finish_text (text, result);
}

/* browser_evaluate */

static char *
format_evaluate (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonNode *value = json_object_get_member (result, "result");
  const char *type = tw_json_get_string (result, "resultType", "undefined");

  if (tw_json_get_boolean (result, "truncated", FALSE))
    g_string_append_printf (text, "Result (%s, cut at 64 KB): ", type);
  else
    g_string_append_printf (text, "Result (%s): ", type);

  if (value == NULL || JSON_NODE_HOLDS_NULL (value))
    g_string_append (text, g_str_equal (type, "undefined") ? "undefined" : "null");
  else if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING &&
           !tw_json_get_boolean (result, "truncated", FALSE))
    g_string_append (text, json_node_get_string (value));
  else if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
    g_string_append (text, json_node_get_string (value));
  else
    {
      g_autofree char *json = json_to_string (value, TRUE);

      g_string_append (text, json);
    }

  return finish_text (text, result);
}

/* What each tool asks of its tab: the command, the arguments it passes
 * on, and how the result reads. One handler serves them all. */
typedef struct
{
  const char       *tool;
  TwTabCommand      command;
  const char       *params[6];
  TwToolFormatFunc  format;
} InputCommand;

static const InputCommand input_commands[] = {
  { "browser_click", TW_TAB_COMMAND_CLICK, { "ref", "button", "doubleClick", "modifiers", "includeDiff" }, format_click },
  { "browser_fill", TW_TAB_COMMAND_FILL, { "ref", "value", "includeDiff" }, format_fill },
  { "browser_type", TW_TAB_COMMAND_TYPE, { "ref", "text", "includeDiff" }, format_type },
  { "browser_keypress", TW_TAB_COMMAND_KEYPRESS, { "ref", "key", "includeDiff" }, format_keypress },
  { "browser_hover", TW_TAB_COMMAND_HOVER, { "ref" }, format_hover },
  { "browser_select", TW_TAB_COMMAND_SELECT, { "ref", "value", "includeDiff" }, format_select },
  { "browser_drag", TW_TAB_COMMAND_DRAG, { "sourceRef", "targetRef", "includeDiff" }, format_drag },
  { "browser_upload", TW_TAB_COMMAND_UPLOAD, { "ref", "filePaths" }, format_upload },
  { "browser_scroll", TW_TAB_COMMAND_SCROLL, { "ref", "deltaX", "deltaY", "includeDiff" }, format_scroll },
  { "browser_evaluate", TW_TAB_COMMAND_EVALUATE, { "ref", "function" }, format_evaluate },
};

static void
input_handler (TwToolCall *call)
{
  const char *tool = tw_tool_call_get_def (call)->name;

  for (guint i = 0; i < G_N_ELEMENTS (input_commands); i++)
    {
      const InputCommand *c = &input_commands[i];

      if (g_str_equal (c->tool, tool))
        {
          tw_tool_run_tab_command (call, c->command, c->params, c->format);
          return;
        }
    }

  g_assert_not_reached ();
}

static const TwToolDef input_tools[] = {
  {
    .name = "browser_click",
    .title = "Click an element",
    .description =
      "Click a button or link, check a checkbox, open a menu: click an element by its ref from "
      "browser_snapshot; also right or middle click, double click, modifier keys. Waits until "
      "the element is visible, enabled and not covered (else browser_not_interactable, naming "
      "what covers it), then until the page settles. Reports navigation, new tabs and dialogs.",
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      REF_PROPERTY ("ref", "The element to click.") ", "
      "\"button\": {\"type\": \"string\", \"enum\": [\"left\", \"right\", \"middle\"], \"description\": \"Mouse button; left unless given.\"}, "
      "\"doubleClick\": {\"type\": \"boolean\", \"description\": \"Double click instead of a single click.\"}, "
      "\"modifiers\": {\"type\": \"array\", \"maxItems\": 4, \"items\": {\"type\": \"string\", \"enum\": [\"Alt\", \"Control\", \"Meta\", \"Shift\"]}, \"description\": \"Keys held, e.g. [\\\"Shift\\\"].\"}"
      ", " INCLUDE_DIFF_PROPERTY,
      "\"browserId\", \"ref\""),
    .output_schema = ACTION_OUTPUT_SCHEMA (
      ", \"button\": {\"type\": \"string\", \"description\": \"The mouse button used.\"}"
      ", \"doubleClick\": {\"type\": \"boolean\", \"description\": \"True for a double click.\"}"),
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .handler = input_handler,
  },
  {
    .name = "browser_fill",
    .title = "Fill a form field",
    .description =
      "Fill a form field: enter a value (an email, a password…) in an input box, textarea or "
      "editable element, replacing its text, with real input events (React and Vue forms update). Also sets date, time, colour "
      "and range inputs and dropdowns; an empty value clears. Returns what the field holds "
      "afterwards.",
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      REF_PROPERTY ("ref", "The field to fill.") ", "
      "\"value\": {\"type\": \"string\", \"maxLength\": 100000, \"description\": \"The new text of the field; for date inputs YYYY-MM-DD, for time hh:mm.\"}"
      ", " INCLUDE_DIFF_PROPERTY,
      "\"browserId\", \"ref\", \"value\""),
    .output_schema = ACTION_OUTPUT_SCHEMA (
      ", \"value\": {\"type\": \"string\", \"description\": \"What the field holds after the fill.\"}"
      ", \"changedByPage\": {\"type\": \"boolean\", \"description\": \"True when the field holds something else than the value given (a length limit, a mask, a page script).\"}"
      ", \"selected\": {\"type\": \"object\", \"description\": \"The option picked, when the field is a dropdown.\", \"properties\": {\"value\": {\"type\": \"string\"}, \"label\": {\"type\": \"string\"}}}"),
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = TRUE,
    .handler = input_handler,
  },
  {
    .name = "browser_type",
    .title = "Type text",
    .description =
      "Type text key by key into the element given by ref (caret at its end), or into the "
      "focused one, for pages that react to every key (a search box, autocomplete, shortcuts). A line break presses Enter. To set a whole value, browser_fill is faster.",
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      "\"text\": {\"type\": \"string\", \"maxLength\": 1000, \"description\": \"The text to type, up to 1000 characters (browser_fill sets longer text at once); \\\\n presses Enter.\"}, "
      REF_PROPERTY ("ref", "The field to type into; else the focused one.")
      ", " INCLUDE_DIFF_PROPERTY,
      "\"browserId\", \"text\""),
    .output_schema = ACTION_OUTPUT_SCHEMA (
      ", \"typed\": {\"type\": \"string\", \"description\": \"The text typed.\"}"
      ", \"focused\": {\"type\": \"string\", \"description\": \"The element that has the focus afterwards.\"}"
      ", \"editable\": {\"type\": \"boolean\", \"description\": \"Whether the focused element takes text.\"}"
      ", \"value\": {\"type\": \"string\", \"description\": \"What the focused field holds afterwards.\"}"),
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .handler = input_handler,
  },
  {
    .name = "browser_keypress",
    .title = "Press a key",
    .description =
      "Press a key or a keyboard shortcut in the page: Enter, Escape, Tab, Shift+Tab, Space, arrows, Backspace, "
      "Delete, Home, End, PageUp, PageDown, F1 to F12, a character, or a combination such as "
      "Control+A. With a ref the element is focused first; else the key goes to the focused "
      "element.",
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      "\"key\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 64, \"description\": \"The key, e.g. \\\"Enter\\\", \\\"Escape\\\", \\\"ArrowDown\\\", \\\"a\\\", or a combination joined with + such as \\\"Control+A\\\" or \\\"Shift+Tab\\\".\"}, "
      REF_PROPERTY ("ref", "Element to focus first.")
      ", " INCLUDE_DIFF_PROPERTY,
      "\"browserId\", \"key\""),
    .output_schema = ACTION_OUTPUT_SCHEMA (
      ", \"key\": {\"type\": \"string\", \"description\": \"The key pressed.\"}"
      ", \"focused\": {\"type\": \"string\", \"description\": \"The element that has the focus afterwards.\"}"
      ", \"editable\": {\"type\": \"boolean\", \"description\": \"Whether the focused element takes text.\"}"
      ", \"value\": {\"type\": \"string\", \"description\": \"What the focused field holds afterwards.\"}"
      ", \"prevented\": {\"type\": \"boolean\", \"description\": \"True when the page cancelled the key's default action.\"}"),
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .handler = input_handler,
  },
  {
    .name = "browser_hover",
    .title = "Hover over an element",
    .description =
      "Move the mouse pointer onto an element to hover it: open a hover menu, show a tooltip or "
      "reveal buttons that appear on hover. Take a browser_snapshot afterwards to see what "
      "appeared.",
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      REF_PROPERTY ("ref", "The element to hover."),
      "\"browserId\", \"ref\""),
    .output_schema = ACTION_OUTPUT_SCHEMA (""),
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = TRUE,
    .handler = input_handler,
  },
  {
    .name = "browser_select",
    .title = "Choose an option in a dropdown",
    .description =
      "Choose or pick an option from a dropdown (a <select>, or a listbox the page builds) by its value "
      "or visible label, with input and change events. An unknown option fails with "
      "browser_invalid_argument listing the options. For a custom combobox, click it open and "
      "click the option.",
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      REF_PROPERTY ("ref", "The dropdown.") ", "
      "\"value\": {\"type\": \"string\", \"maxLength\": 1000, \"description\": \"The option's value attribute or its label as shown.\"}"
      ", " INCLUDE_DIFF_PROPERTY,
      "\"browserId\", \"ref\", \"value\""),
    .output_schema = ACTION_OUTPUT_SCHEMA (
      ", \"selected\": {\"type\": \"object\", \"description\": \"The option now selected.\", \"properties\": {\"value\": {\"type\": \"string\"}, \"label\": {\"type\": \"string\"}}}"
      ", \"changed\": {\"type\": \"boolean\", \"description\": \"False when that option was already selected.\"}"),
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = TRUE,
    .handler = input_handler,
  },
  {
    .name = "browser_drag",
    .title = "Drag and drop",
    .description =
      "Drag and drop one element onto another: reorder a list, move a card to another column, "
      "drop an item on a target. Uses HTML drag and drop for draggable elements, else a pointer "
      "drag. Says whether the page accepted the drop.",
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      REF_PROPERTY ("sourceRef", "The element to drag.") ", "
      REF_PROPERTY ("targetRef", "The element to drop it on.")
      ", " INCLUDE_DIFF_PROPERTY,
      "\"browserId\", \"sourceRef\", \"targetRef\""),
    .output_schema = ACTION_OUTPUT_SCHEMA (
      ", \"source\": " ELEMENT_SCHEMA ("The element dragged.")
      ", \"target\": " ELEMENT_SCHEMA ("The element it was dropped on.")
      ", \"mode\": {\"type\": \"string\", \"enum\": [\"html5\", \"pointer\"], \"description\": \"html5 for HTML drag and drop, pointer for a pointer drag.\"}"
      ", \"dropped\": {\"type\": \"boolean\", \"description\": \"Whether the drop landed on the target and the page took it: accepted the HTML drop, or changed during a pointer drag released on the target.\"}"
      ", \"onTarget\": {\"type\": \"boolean\", \"description\": \"Pointer drags: whether the release landed on the target.\"}"
      ", \"pageChanged\": {\"type\": \"boolean\", \"description\": \"Pointer drags: whether the page changed (its elements or the source's place) during the drag.\"}"
      ", \"captured\": {\"type\": \"boolean\", \"description\": \"Pointer drags: whether the page captured the pointer (setPointerCapture).\"}"
      ", \"releasedOn\": {\"type\": \"string\", \"description\": \"Pointer drags: the element under the pointer at the release.\"}"),
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .handler = input_handler,
  },
  {
    .name = "browser_upload",
    .title = "Upload a file",
    .description =
      "Upload a file: set files from the workspace on a file input, or on the button or label "
      "that opens the file chooser, with a real change event. Paths are absolute or relative to "
      "the workspace folder and must stay inside it (else browser_denied, and no file is set).",
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      REF_PROPERTY ("ref", "The file input or the control that opens the chooser.") ", "
      "\"filePaths\": {\"type\": \"array\", \"minItems\": 1, \"maxItems\": 100, \"items\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 4096}, \"description\": \"The files to choose, inside the workspace.\"}",
      "\"browserId\", \"ref\", \"filePaths\""),
    .output_schema = ACTION_OUTPUT_SCHEMA (
      ", \"files\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, \"description\": \"The names of the files the input holds afterwards.\"}"),
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = TRUE,
    .handler = input_handler,
  },
  {
    .name = "browser_scroll",
    .title = "Scroll the page",
    .description =
      "Scroll the web page, or the element given by ref, by pixels with a wheel event: to load more "
      "of an endless list or reach content below, down to the bottom. Positive deltaY scrolls down, deltaX right. "
      "Reports the new position and whether the end was reached. Actions scroll their element "
      "into view themselves.",
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      "\"deltaX\": {\"type\": \"number\", \"minimum\": -100000, \"maximum\": 100000, \"description\": \"Pixels to scroll right (negative: left); 0 for none.\"}, "
      "\"deltaY\": {\"type\": \"number\", \"minimum\": -100000, \"maximum\": 100000, \"description\": \"Pixels to scroll down (negative: up), e.g. 600 for about a screen.\"}, "
      REF_PROPERTY ("ref", "The element to scroll; else the page.")
      ", " INCLUDE_DIFF_PROPERTY,
      "\"browserId\", \"deltaX\", \"deltaY\""),
    .output_schema = ACTION_OUTPUT_SCHEMA (
      ", \"scrolled\": {\"type\": \"string\", \"description\": \"\\\"page\\\", or the element that scrolled.\"}"
      ", \"scrollX\": {\"type\": \"integer\", \"description\": \"Its horizontal scroll position afterwards.\"}"
      ", \"scrollY\": {\"type\": \"integer\", \"description\": \"Its vertical scroll position afterwards.\"}"
      ", \"movedX\": {\"type\": \"integer\", \"description\": \"How far it moved right.\"}"
      ", \"movedY\": {\"type\": \"integer\", \"description\": \"How far it moved down.\"}"
      ", \"atBottom\": {\"type\": \"boolean\", \"description\": \"Whether it is scrolled to the bottom.\"}"
      ", \"prevented\": {\"type\": \"boolean\", \"description\": \"True when the page cancelled the wheel event.\"}"),
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .handler = input_handler,
  },
  {
    .name = "browser_evaluate",
    .title = "Run JavaScript in the page",
    .description =
      "Run (execute) JavaScript in the page, as a script would, and get the result as JSON, for "
      "what no other tool does: a function such as \"() => document.title\", or with a ref \"(el) => el.value\". Runs in "
      "the page's context; may return a promise. Results over 64 KB are cut; an exception fails "
      "with browser_script_error.",
    .input_schema = TW_TOOL_INPUT_SCHEMA (
      TW_TOOL_BROWSER_ID_PROPERTY ", "
      "\"function\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 100000, \"description\": \"A JavaScript function, e.g. \\\"() => window.location.href\\\" or \\\"(el) => el.textContent\\\".\"}, "
      REF_PROPERTY ("ref", "Element passed as the first argument."),
      "\"browserId\", \"function\""),
    .output_schema = ACTION_OUTPUT_SCHEMA (
      ", \"result\": {\"description\": \"The function's return value as JSON (DOM nodes as short descriptions); the JSON text cut to 64 KB when truncated.\"}"
      ", \"resultType\": {\"type\": \"string\", \"description\": \"The JavaScript type of the value: string, number, boolean, object, array, null, undefined.\"}"
      ", \"truncated\": {\"type\": \"boolean\", \"description\": \"True when the result was cut.\"}"),
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .handler = input_handler,
  },
};

const TwToolDef *
tw_tools_input_get (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (input_tools);
  return input_tools;
}
