/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_fill_form: many fields of a form in one call, each by ref and
 * each reported on its own, through the same actions as browser_fill,
 * browser_select and browser_click. */

/* `- checkbox "Subscribe" @e5: checked`, or the field's error. */
static void
append_field_line (GString    *text,
                   JsonObject *field)
{
  const char *role = tw_json_get_string (field, "role", NULL);
  const char *name = tw_json_get_string (field, "name", "");
  const char *kind = tw_json_get_string (field, "kind", "fill");
  JsonObject *error = json_object_get_member (field, "error") != NULL
                      ? json_object_get_object_member (field, "error") : NULL;

  g_string_append (text, "\n- ");
  if (role != NULL)
    {
      g_string_append (text, g_str_equal (role, "generic") ? "element" : role);
      if (name[0] != '\0')
        {
          g_string_append_c (text, ' ');
          tw_tool_append_cut (text, name, 60);
        }
      g_string_append_c (text, ' ');
    }
  g_string_append_printf (text, "%s: ", tw_json_get_string (field, "ref", "?"));

  if (error != NULL)
    {
      g_string_append_printf (text, "not filled. Error: %s — %s",
                              tw_json_get_string (error, "code", "browser_internal"),
                              tw_json_get_string (error, "message", ""));
      return;
    }

  if (g_str_equal (kind, "check"))
    g_string_append (text, tw_json_get_boolean (field, "checked", FALSE) ? "checked" : "not checked");
  else if (g_str_equal (kind, "select"))
    {
      g_string_append (text, "selected ");
      tw_tool_append_cut (text, tw_json_get_string (field, "value", ""), 80);
    }
  else
    tw_tool_append_cut (text, tw_json_get_string (field, "value", ""), 200);

  if (!tw_json_get_boolean (field, "changed", TRUE))
    g_string_append (text, " (already so)");
  if (tw_json_get_boolean (field, "changedByPage", FALSE))
    g_string_append (text, " (the page changed the value given)");
}

static char *
format_fill_form (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonArray *fields = tw_json_get_array (result, "fields");
  gint64 filled = tw_json_get_int (result, "filled", 0);
  gint64 failed = tw_json_get_int (result, "failed", 0);
  gint64 skipped = tw_json_get_int (result, "skipped", 0);
  guint n = fields != NULL ? json_array_get_length (fields) : 0;

  if (failed == 0 && skipped == 0)
    g_string_append_printf (text, "Filled all %u fields:", n);
  else
    g_string_append_printf (text, "Filled %" G_GINT64_FORMAT " of %u fields; %" G_GINT64_FORMAT
                            " failed%s and were not filled (the others were):",
                            filled, n, failed + skipped,
                            skipped > 0 ? " or were skipped after a navigation" : "");

  for (guint i = 0; i < n; i++)
    append_field_line (text, json_array_get_object_element (fields, i));

  if (tw_json_get_boolean (result, "navigated", FALSE))
    g_string_append (text, "\nA field took the tab to another page.");
  if (tw_json_get_string (result, "loadError", NULL) != NULL)
    g_string_append_printf (text, "\nThe page it opened failed to load: %s",
                            tw_json_get_string (result, "loadError", ""));
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_field (text, "url", tw_json_get_string (result, "url", ""));
  tw_tool_append_dialogs (text, result);

  return g_string_free (text, FALSE);
}

static const TwToolDef forms_tools[] = {
  {
    .name = "browser_fill_form",
    .title = "Fill several form fields",
    .description =
      "Fill a form in one call: text fields, textareas, comboboxes, dropdowns, checkboxes and "
      "radios, each by ref, each typed, selected or clicked as browser_fill, browser_select and "
      "browser_click do. Reports every field: what it shows now, or its own error (the others "
      "are still filled).",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_FILL_FORM,
    .arguments = TW_TOOL_ARGUMENTS ("fields"),
    .format = format_fill_form,
  },
};

const TwToolTable tw_tools_forms = TW_TOOL_TABLE (forms_tools);
