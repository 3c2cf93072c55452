/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_mouse: the pointer at x,y of the viewport or of a scaled
 * screenshot, for canvas apps and maps that have no refs. Each result names
 * the element that was at the point, with a ref to use afterwards. */

static void
append_element (GString    *text,
                JsonObject *element)
{
  const char *role = tw_json_get_string (element, "role", "generic");
  const char *name = tw_json_get_string (element, "name", "");

  g_string_append (text, g_str_equal (role, "generic") ? tw_json_get_string (element, "tag", "element") : role);
  if (name[0] != '\0')
    {
      glong len = g_utf8_strlen (name, -1);
      g_autofree char *cut = g_utf8_substring (name, 0, MIN (len, 80));

      g_string_append_printf (text, " \"%s%s\"", cut, len > 80 ? "…" : "");
    }
  g_string_append_printf (text, " %s", tw_json_get_string (element, "ref", ""));
}

static char *
format_mouse (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *action = tw_json_get_string (result, "action", "move");
  JsonObject *element = tw_json_get_object (result, "element");
  JsonObject *to = tw_json_get_object (result, "to");
  JsonObject *released = tw_json_get_object (result, "releasedOn");
  const char *ref = element != NULL ? tw_json_get_string (element, "ref", NULL) : NULL;

  if (g_str_equal (action, "click"))
    g_string_append_printf (text, "%s-clicked", tw_json_get_string (result, "button", "left"));
  else if (g_str_equal (action, "double_click"))
    g_string_append (text, "Double-clicked");
  else if (g_str_equal (action, "drag"))
    g_string_append (text, "Dragged");
  else if (g_str_equal (action, "wheel"))
    g_string_append (text, "Turned the wheel");
  else
    g_string_append (text, "Moved the pointer to");
  if (text->str[0] == 'l' || text->str[0] == 'r' || text->str[0] == 'm')
    text->str[0] = g_ascii_toupper (text->str[0]);

  g_string_append_printf (text, " %s (%g, %g) of the viewport", g_str_equal (action, "drag") ? "from" : "at",
                          tw_json_get_number (result, "x", 0), tw_json_get_number (result, "y", 0));
  if (element != NULL)
    {
      g_string_append (text, ", on ");
      append_element (text, element);
    }
  if (to != NULL)
    {
      g_string_append_printf (text, ", to (%g, %g)",
                              tw_json_get_number (to, "x", 0), tw_json_get_number (to, "y", 0));
      if (released != NULL)
        {
          g_string_append (text, ", released on ");
          append_element (text, released);
        }
    }
  g_string_append_c (text, '.');

  if (g_str_equal (action, "wheel"))
    {
      if (tw_json_get_boolean (result, "prevented", FALSE))
        g_string_append (text, " The page cancelled the wheel event, so nothing scrolled by itself.");
      else
        g_string_append_printf (text, " It scrolled %s%s by %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ".",
                                g_strcmp0 (tw_json_get_string (result, "scrolled", "page"), "page") == 0 ? "the " : "",
                                tw_json_get_string (result, "scrolled", "page"),
                                tw_json_get_int (result, "movedX", 0), tw_json_get_int (result, "movedY", 0));
    }

  if (tw_json_get_boolean (result, "navigated", FALSE))
    g_string_append (text, " The tab went to another page.");
  if (tw_json_get_string (result, "loadError", NULL) != NULL)
    g_string_append_printf (text, " The page failed to load: %s", tw_json_get_string (result, "loadError", ""));

  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  if (ref != NULL)
    tw_tool_append_field (text, "ref", ref);
  tw_tool_append_field (text, "url", tw_json_get_string (result, "url", ""));
  tw_tool_append_dialogs (text, result);

  return g_string_free (text, FALSE);
}

static const TwToolDef mouse_tools[] = {
  {
    .name = "browser_mouse",
    .title = "Mouse at x,y",
    .description =
      "Move, click, double click, drag or turn the wheel at x,y of the viewport (CSS pixels), "
      "or of a scaled screenshot (pass its scale): for canvas apps, maps and charts without "
      "refs. Says which element (role, name, ref) was at the point.",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_MOUSE,
    .arguments = TW_TOOL_ARGUMENTS ("action", "x", "y", "toX", "toY", "deltaX", "deltaY", "button",
                                    "scale", "screenshotWidth"),
    .format = format_mouse,
  },
};

const TwToolTable tw_tools_mouse = TW_TOOL_TABLE (mouse_tools);
