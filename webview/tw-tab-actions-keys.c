/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-actions-private.h"

/* browser_type and browser_keypress: key strokes one by one, and the
 * WebKit editing commands the page runtime asks for (browser_fill plays
 * those too). */

void
_tw_tab_actions_run_editing_commands (ActionRun  *run,
                                      JsonObject *answer)
{
  JsonArray *commands;

  if (!json_object_has_member (answer, "commands") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (answer, "commands")))
    return;

  /* WebKit's own editing commands, sent to the focused frame: they fire
   * trusted beforeinput and input events, as typing does. They reach the
   * web process before the next page call, in order. */
  commands = json_object_get_array_member (answer, "commands");
  for (guint i = 0; i < json_array_get_length (commands); i++)
    {
      JsonObject *command = json_array_get_object_element (commands, i);
      const char *name;

      if (command == NULL)
        continue;

      name = json_object_get_string_member_with_default (command, "name", NULL);
      if (name == NULL)
        continue;

      if (json_object_has_member (command, "arg"))
        webkit_web_view_execute_editing_command_with_argument (
          run->view, name, json_object_get_string_member (command, "arg"));
      else
        webkit_web_view_execute_editing_command (run->view, name);
    }
}

void
_tw_tab_actions_key_step_done (GTask      *task,
                               JsonObject *answer)
{
  ActionRun *run = g_task_get_task_data (task);

  if (answer != NULL)
    {
      _tw_tab_actions_run_editing_commands (run, answer);
      if (json_object_get_boolean_member_with_default (answer, "prevented", FALSE))
        json_object_set_boolean_member (run->result, "prevented", TRUE);
    }

  /* How many of the characters sent the page pressed. */
  if (run->keys != NULL && run->key_sent > 0)
    {
      gint64 consumed = answer != NULL
                          ? json_object_get_int_member_with_default (answer, "consumed", 1)
                          : 1;

      run->key_index += CLAMP (consumed, 1, (gint64) run->key_sent);
      run->key_sent = 0;
    }

  _tw_tab_actions_run_next_key (task);
}

/* At most this many characters per page call: few enough that a page
 * that is slow to handle each key answers well within the call's time. */
#define KEYS_PER_CALL 32

/* A key of browser_type that is a character, not Enter or Tab. */
static gboolean
is_character (const char *key)
{
  return g_utf8_strlen (key, -1) == 1;
}

void
_tw_tab_actions_run_next_key (GTask *task)
{
  ActionRun *run = g_task_get_task_data (task);
  g_autoptr(JsonObject) args = json_object_new ();
  JsonArray *keys;

  /* Releasing a key after a navigation started would talk to the new
   * page, which never saw it pressed. */
  if (_tw_tab_actions_run_navigated (run))
    {
      _tw_tab_actions_run_navigation_wait (task);
      return;
    }

  run->phase = PHASE_EDIT;
  run->acted = TRUE;

  if (run->keys == NULL || run->key_index >= run->keys->len)
    {
      _tw_tab_actions_run_step (task, "keyboard.up", args, _tw_tab_actions_settle_after_step);
      return;
    }

  /* Enter and Tab are pressed alone; a run of characters goes to the page
   * in one call, which presses them one by one. */
  if (!is_character (g_ptr_array_index (run->keys, run->key_index)))
    {
      json_object_set_string_member (args, "key", g_ptr_array_index (run->keys, run->key_index));
      json_object_set_boolean_member (args, "up", TRUE);
      run->key_sent = 1;
      _tw_tab_actions_run_step (task, "keyboard.down", args, _tw_tab_actions_key_step_done);
      return;
    }

  keys = json_array_new ();
  for (guint i = run->key_index;
       i < run->keys->len && json_array_get_length (keys) < KEYS_PER_CALL &&
       is_character (g_ptr_array_index (run->keys, i));
       i++)
    json_array_add_string_element (keys, g_ptr_array_index (run->keys, i));
  run->key_sent = json_array_get_length (keys);
  json_object_set_array_member (args, "keys", keys);
  _tw_tab_actions_run_step (task, "keyboard.type", args, _tw_tab_actions_key_step_done);
}

/* The keys browser_type presses: one per character, with line breaks as
 * Enter and tabs as Tab. */
GPtrArray *
_tw_tab_actions_split_text (const char *text)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\r')
        continue;
      else if (c == '\n')
        g_ptr_array_add (keys, g_strdup ("Enter"));
      else if (c == '\t')
        g_ptr_array_add (keys, g_strdup ("Tab"));
      else
        g_ptr_array_add (keys, g_strndup (p, g_utf8_next_char (p) - p));
    }

  return keys;
}
