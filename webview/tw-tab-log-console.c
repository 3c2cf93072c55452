/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-log-private.h"

#include <string.h>

/* The console in depth (browser_console): TwTabLog's console messages with
 * the stacks and arguments the page-world hook gave them. */

/* JavaScriptCore writes one frame a line: "name@url:line:column",
 * "url:line:column" for code outside a function, "name@[native code]". The
 * frames of the page-world hook itself are left out. */
JsonArray *
tw_tab_log_parse_stack (const char *stack)
{
  g_auto(GStrv) lines = g_strsplit (stack, "\n", 200);
  JsonArray *frames = json_array_new ();

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *text = g_strstrip (lines[i]);
      const char *at = strchr (text, '@');
      g_autofree char *function = NULL;
      g_autofree char *location = NULL;
      guint64 number = 0;
      guint64 column = 0;
      char *colon;
      JsonObject *frame;

      if (text[0] == '\0')
        continue;

      if (at != NULL && (strstr (text, "://") == NULL || at < strstr (text, "://")))
        {
          function = g_strndup (text, at - text);
          location = g_strdup (at + 1);
        }
      else
        {
          function = g_strdup ("");
          location = g_strdup (text);
        }

      /* Two trailing numbers: line and column. */
      colon = strrchr (location, ':');
      if (colon != NULL && colon[1] != '\0' &&
          g_ascii_string_to_unsigned (colon + 1, 10, 0, G_MAXUINT, &column, NULL))
        {
          *colon = '\0';
          colon = strrchr (location, ':');
          if (colon != NULL && colon[1] != '\0' &&
              g_ascii_string_to_unsigned (colon + 1, 10, 0, G_MAXUINT, &number, NULL))
            {
              *colon = '\0';
            }
          else
            {
              /* Only one number: it is the line. */
              number = column;
              column = 0;
            }
        }

      if (g_str_has_suffix (location, HOOK_SOURCE_URL))
        continue;

      frame = json_object_new ();
      json_object_set_string_member (frame, "function", function);
      json_object_set_string_member (frame, "url", location);
      if (number > 0)
        json_object_set_int_member (frame, "line", (gint64) number);
      if (column > 0)
        json_object_set_int_member (frame, "column", (gint64) column);
      json_array_add_object_element (frames, frame);

      if (json_array_get_length (frames) >= 50)
        break;
    }

  return frames;
}

static JsonObject *
console_to_json (const Entry *entry,
                 gboolean     detail)
{
  JsonObject *object = tw_tab_log_entry_to_json (entry);
  g_autoptr(JsonArray) frames = entry->stack != NULL ? tw_tab_log_parse_stack (entry->stack) : NULL;

  json_object_remove_member (object, "type");
  json_object_set_int_member (object, "id", (gint64) entry->id);

  /* Where the message really came from: the first frame that is not the
   * hook, with its column, which WebKit's own report lacks. */
  if (frames != NULL && json_array_get_length (frames) > 0)
    {
      JsonObject *top = json_array_get_object_element (frames, 0);

      if (json_object_has_member (top, "column") &&
          g_strcmp0 (json_object_get_string_member (top, "url"), entry->url) == 0)
        json_object_set_int_member (object, "column",
                                    json_object_get_int_member (top, "column"));
      if (entry->url == NULL && json_object_get_string_member (top, "url")[0] != '\0')
        {
          json_object_set_string_member (object, "url", json_object_get_string_member (top, "url"));
          if (json_object_has_member (top, "line"))
            json_object_set_int_member (object, "line", json_object_get_int_member (top, "line"));
          if (json_object_has_member (top, "column"))
            json_object_set_int_member (object, "column",
                                        json_object_get_int_member (top, "column"));
        }
    }

  if (!detail)
    return object;

  if (entry->args != NULL)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      if (json_parser_load_from_data (parser, entry->args, -1, NULL) &&
          JSON_NODE_HOLDS_ARRAY (json_parser_get_root (parser)))
        json_object_set_member (object, "args", json_node_copy (json_parser_get_root (parser)));
    }

  if (frames != NULL)
    json_object_set_array_member (object, "stack", json_array_ref (frames));

  return object;
}

JsonArray *
tw_tab_log_get_console (TwTabLog *self,
                        gboolean  current_page)
{
  JsonArray *array;
  GList *link = self->entries.head;

  g_return_val_if_fail (TW_IS_TAB_LOG (self), NULL);

  if (current_page)
    {
      for (GList *l = self->entries.tail; l != NULL; l = l->prev)
        {
          if (((Entry *) l->data)->type == ENTRY_NAVIGATION)
            {
              link = l->next;
              break;
            }
        }
    }

  array = json_array_new ();
  for (; link != NULL; link = link->next)
    {
      Entry *entry = link->data;

      if (entry->type == ENTRY_CONSOLE)
        json_array_add_object_element (array, console_to_json (entry, FALSE));
    }

  return array;
}

JsonObject *
tw_tab_log_get_console_message (TwTabLog *self,
                                guint64   id)
{
  g_return_val_if_fail (TW_IS_TAB_LOG (self), NULL);

  for (GList *link = self->entries.tail; link != NULL; link = link->prev)
    {
      Entry *entry = link->data;

      if (entry->id == id && entry->type == ENTRY_CONSOLE)
        return console_to_json (entry, TRUE);
      if (entry->id < id)
        break;
    }

  return NULL;
}

guint
tw_tab_log_clear_console (TwTabLog *self)
{
  GList *link;
  guint n = 0;

  g_return_val_if_fail (TW_IS_TAB_LOG (self), 0);

  link = self->entries.head;
  while (link != NULL)
    {
      GList *next = link->next;
      Entry *entry = link->data;

      if (entry->type == ENTRY_CONSOLE)
        {
          g_queue_delete_link (&self->entries, link);
          tw_tab_log_entry_unref (entry);
          n++;
        }
      link = next;
    }

  self->console_read_id = self->next_id;

  return n;
}

guint64
tw_tab_log_get_console_read_id (TwTabLog *self)
{
  g_return_val_if_fail (TW_IS_TAB_LOG (self), 0);

  return self->console_read_id;
}

void
tw_tab_log_set_console_read_id (TwTabLog *self,
                                guint64   id)
{
  g_return_if_fail (TW_IS_TAB_LOG (self));

  self->console_read_id = MAX (self->console_read_id, id);
}
