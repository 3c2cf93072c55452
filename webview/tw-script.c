/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-script.h"

#include <gio/gio.h>
#include <string.h>

const char *
tw_script_get (const char *path)
{
  static GMutex lock;
  static GHashTable *scripts;
  g_autoptr(GMutexLocker) locker = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  const char *text;
  const char *end;
  char *script;

  g_return_val_if_fail (path != NULL, NULL);

  locker = g_mutex_locker_new (&lock);
  if (scripts == NULL)
    scripts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  else if ((script = g_hash_table_lookup (scripts, path)) != NULL)
    return script;

  bytes = g_resources_lookup_data (path, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  if (bytes == NULL)
    g_error ("The script %s is missing: %s", path, error->message);

  text = g_bytes_get_data (bytes, NULL);
  end = text + g_bytes_get_size (bytes);

  /* The header: // lines, then the blank lines after them. */
  while (text < end && g_str_has_prefix (text, "//"))
    {
      const char *newline = memchr (text, '\n', end - text);

      text = newline != NULL ? newline + 1 : end;
    }
  while (text < end && *text == '\n')
    text++;

  script = g_strndup (text, end - text);
  g_hash_table_insert (scripts, g_strdup (path), script);

  return script;
}

char *
tw_script_expand (const char *script,
                  ...)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) values = g_ptr_array_new ();
  g_autofree gboolean *found = NULL;
  GString *expanded;
  const char *name;
  va_list args;

  g_return_val_if_fail (script != NULL, NULL);

  va_start (args, script);
  while ((name = va_arg (args, const char *)) != NULL)
    {
      g_ptr_array_add (names, (gpointer) name);
      g_ptr_array_add (values, (gpointer) va_arg (args, const char *));
    }
  va_end (args);

  found = g_new0 (gboolean, names->len);
  expanded = g_string_sized_new (strlen (script));

  for (const char *p = script; *p != '\0';)
    {
      guint i;

      for (i = 0; i < names->len; i++)
        {
          if (g_str_has_prefix (p, g_ptr_array_index (names, i)))
            break;
        }

      if (i == names->len)
        {
          g_string_append_c (expanded, *p++);
          continue;
        }

      found[i] = TRUE;
      g_string_append (expanded, g_ptr_array_index (values, i));
      p += strlen (g_ptr_array_index (names, i));
    }

  for (guint i = 0; i < names->len; i++)
    g_assert (found[i]);

  return g_string_free (expanded, FALSE);
}

char *
tw_script_page_world_call (const char *path,
                           const char *state_json,
                           gboolean    announce)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (state_json != NULL, NULL);

  return g_strdup_printf ("%s(%s, %s, %s);", tw_script_get (path), state_json,
                          announce ? "true" : "false",
                          tw_script_get ("/io/github/tabwright/Tabwright/page-world/each-frame.js"));
}

void
tw_script_set_page_world_start (WebKitUserContentManager  *manager,
                                WebKitUserScript         **script,
                                const char                *path,
                                const char                *state_json)
{
  g_autofree char *start = NULL;

  g_return_if_fail (WEBKIT_IS_USER_CONTENT_MANAGER (manager));
  g_return_if_fail (script != NULL);
  g_return_if_fail (path != NULL);

  if (*script != NULL)
    {
      webkit_user_content_manager_remove_script (manager, *script);
      g_clear_pointer (script, webkit_user_script_unref);
    }
  if (state_json == NULL)
    return;

  start = tw_script_page_world_call (path, state_json, FALSE);
  *script = webkit_user_script_new (start, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                    WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, NULL, NULL);
  webkit_user_content_manager_add_script (manager, *script);
}
