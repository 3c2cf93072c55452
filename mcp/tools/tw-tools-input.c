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

/* Reading results */

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

/* How the pointer reached the element when a person clicks it through
 * something else: " through its label <label class=\"switch\">", or
 * " after moving the pointer over list \"Notifications\", which uncovered
 * it". */
static void
append_how (GString    *text,
            JsonObject *result)
{
  const char *through = tw_json_get_string (result, "through", NULL);
  const char *hovered = tw_json_get_string (result, "hovered", NULL);

  if (through != NULL)
    g_string_append_printf (text, " through %s", through);
  if (hovered != NULL)
    g_string_append_printf (text, " after moving the pointer over %s, which uncovered it", hovered);
}

/* The lines every action ends with: what else happened, then the labelled
 * fields of the tab (browserId, url, title), the tabs it opened, the dialogs
 * it answered. */
static void
append_effects (GString    *text,
                JsonObject *result)
{
  JsonArray *tabs = tw_json_get_array (result, "newTabs");

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

  for (guint i = 0; tabs != NULL && i < json_array_get_length (tabs); i++)
    tw_tool_append_field (text, "newTab browserId", json_array_get_string_element (tabs, i));

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
      g_string_append (text, "\nWhat changed on the page:");
      tw_tool_append_snapshot (text, tw_json_get_string (result, "diff", ""));
      tw_tool_append_member (text, result, "diffCursor");
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
  append_how (text, result);

  /* A checkbox or radio clicked through its label or stand-in: what the
   * page made of the click, as the page shows it. */
  if (json_object_has_member (result, "checked"))
    {
      gboolean checked = tw_json_get_boolean (result, "checked", FALSE);

      if (tw_json_get_boolean (result, "toggled", FALSE))
        g_string_append (text, checked ? "; it is now checked" : "; it is now unchecked");
      else
        g_string_append (text, checked ? "; it is still checked" : "; it is still unchecked: the page did not change it");
    }
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
  append_how (text, result);
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
  append_how (text, result);
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
  JsonArray *files = tw_json_get_array (result, "files");

  if (files != NULL)
    {
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
  /* Scroll positions may have fractions; they are said in whole pixels. */
  gint64 moved_x = (gint64) tw_json_get_number (result, "movedX", 0);
  gint64 moved_y = (gint64) tw_json_get_number (result, "movedY", 0);

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
                          moved_x, moved_y,
                          (gint64) tw_json_get_number (result, "scrollX", 0),
                          (gint64) tw_json_get_number (result, "scrollY", 0));

  if (moved_x == 0 && moved_y == 0)
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

static const TwToolDef input_tools[] = {
  {
    .name = "browser_click",
    .title = "Click an element",
    .description =
      "Click a button or link, check a checkbox, open a menu: click an element by its ref from "
      "browser_snapshot; also right or middle click, double click, modifier keys. Waits until "
      "the element is visible, enabled and not covered (else browser_not_interactable, naming "
      "what covers it), then until the page settles. Reports navigation, new tabs and dialogs.",
    .search_hint = "click button, link, element",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_CLICK,
    .arguments = TW_TOOL_ARGUMENTS ("ref", "button", "doubleClick", "modifiers", "includeDiff"),
    .format = format_click,
  },
  {
    .name = "browser_fill",
    .title = "Fill a form field",
    .description =
      "Fill a form field: enter a value (an email, a password…) in an input box, textarea or "
      "editable element, replacing its text, with real input events (React and Vue forms update). Also sets date, time, colour "
      "and range inputs and dropdowns; an empty value clears. Returns what the field holds "
      "afterwards.",
    .search_hint = "fill in, enter value, form field, input box, email, password",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_FILL,
    .arguments = TW_TOOL_ARGUMENTS ("ref", "value", "includeDiff"),
    .format = format_fill,
  },
  {
    .name = "browser_type",
    .title = "Type text",
    .description =
      "Type text key by key into the element given by ref (caret at its end), or into the "
      "focused one, for pages that react to every key (a search box, autocomplete, shortcuts). A line break presses Enter. To set a whole value, browser_fill is faster.",
    .search_hint = "type text, search box",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_TYPE,
    .arguments = TW_TOOL_ARGUMENTS ("ref", "text", "includeDiff"),
    .format = format_type,
  },
  {
    .name = "browser_keypress",
    .title = "Press a key",
    .description =
      "Press a key or a keyboard shortcut in the page: Enter, Escape, Tab, Shift+Tab, Space, arrows, Backspace, "
      "Delete, Home, End, PageUp, PageDown, F1 to F12, a character, or a combination such as "
      "Control+A. With a ref the element is focused first; else the key goes to the focused "
      "element.",
    .search_hint = "press key, Enter, Escape, keyboard shortcut",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_KEYPRESS,
    .arguments = TW_TOOL_ARGUMENTS ("ref", "key", "includeDiff"),
    .format = format_keypress,
  },
  {
    .name = "browser_hover",
    .title = "Hover over an element",
    .description =
      "Move the mouse pointer onto an element to hover it: open a hover menu, show a tooltip or "
      "reveal buttons that appear on hover. Take a browser_snapshot afterwards to see what "
      "appeared.",
    .search_hint = "hover mouse over element",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_HOVER,
    .arguments = TW_TOOL_ARGUMENTS ("ref"),
    .format = format_hover,
  },
  {
    .name = "browser_select",
    .title = "Choose an option in a dropdown",
    .description =
      "Choose or pick an option from a dropdown (a <select>, or a listbox the page builds) by its value "
      "or visible label, with input and change events. An unknown option fails with "
      "browser_invalid_argument listing the options. For a custom combobox, click it open and "
      "click the option.",
    .search_hint = "pick, choose option, dropdown, select menu",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_SELECT,
    .arguments = TW_TOOL_ARGUMENTS ("ref", "value", "includeDiff"),
    .format = format_select,
  },
  {
    .name = "browser_drag",
    .title = "Drag and drop",
    .description =
      "Drag and drop one element onto another: reorder a list, move a card to another column, "
      "drop an item on a target. Uses HTML drag and drop for draggable elements, else a pointer "
      "drag. Says whether the page accepted the drop.",
    .search_hint = "drag and drop",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_DRAG,
    .arguments = TW_TOOL_ARGUMENTS ("sourceRef", "targetRef", "includeDiff"),
    .format = format_drag,
  },
  {
    .name = "browser_upload",
    .title = "Upload a file",
    .description =
      "Upload a file: set files from the workspace on a file input, or on the button or label "
      "that opens the file chooser, with a real change event. Paths are absolute or relative to "
      "the workspace folder and must stay inside it (else browser_denied, and no file is set).",
    .search_hint = "upload file",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_UPLOAD,
    .arguments = TW_TOOL_ARGUMENTS ("ref", "filePaths"),
    .format = format_upload,
  },
  {
    .name = "browser_scroll",
    .title = "Scroll the page",
    .description =
      "Scroll the web page, or the element given by ref, by pixels with a wheel event: to load more "
      "of an endless list or reach content below, down to the bottom. Positive deltaY scrolls down, deltaX right. "
      "Reports the new position and whether the end was reached. Actions scroll their element "
      "into view themselves.",
    .search_hint = "scroll up, down, top, bottom, web page",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_SCROLL,
    .arguments = TW_TOOL_ARGUMENTS ("ref", "deltaX", "deltaY", "includeDiff"),
    .format = format_scroll,
  },
  {
    .name = "browser_evaluate",
    .title = "Run JavaScript in the page",
    .description =
      "Run (execute) JavaScript in the page, as a script would, with the result as JSON, for "
      "what no other tool does: a function such as \"() => document.title\", or with a ref \"(el) => el.value\". Runs in "
      "the page's context; may return a promise. Results over 64 KB are cut; an exception fails "
      "with browser_script_error.",
    .search_hint = "run, execute JavaScript, script",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_EVALUATE,
    .arguments = TW_TOOL_ARGUMENTS ("ref", "function"),
    .format = format_evaluate,
  },
};

const TwToolTable tw_tools_input = TW_TOOL_TABLE (input_tools);
