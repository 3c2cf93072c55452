/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-install-dirs.h"

#include <string.h>

/* The components of an absolute path, without empty ones or "."; NULL for
 * a relative path or one with "..", which cannot be compared by name. */
static GPtrArray *
split_path (const char *path)
{
  g_autoptr(GPtrArray) parts = NULL;
  g_auto(GStrv) split = NULL;

  if (path == NULL || !g_path_is_absolute (path))
    return NULL;

  parts = g_ptr_array_new_with_free_func (g_free);
  split = g_strsplit (path, G_DIR_SEPARATOR_S, -1);

  for (guint i = 0; split[i] != NULL; i++)
    {
      if (split[i][0] == '\0' || g_str_equal (split[i], "."))
        continue;

      if (g_str_equal (split[i], ".."))
        return NULL;

      g_ptr_array_add (parts, g_strdup (split[i]));
    }

  return g_steal_pointer (&parts);
}

char *
tw_install_dirs_relocate (const char *exe_path,
                          const char *bindir,
                          const char *dir)
{
  g_autoptr(GPtrArray) exe_parts = NULL;
  g_autoptr(GPtrArray) bin_parts = NULL;
  g_autoptr(GPtrArray) dir_parts = NULL;
  g_autoptr(GString) result = NULL;
  guint exe_dir_len;
  guint common = 0;
  guint own;

  g_return_val_if_fail (exe_path != NULL, NULL);
  g_return_val_if_fail (bindir != NULL, NULL);
  g_return_val_if_fail (dir != NULL, NULL);

  exe_parts = split_path (exe_path);
  bin_parts = split_path (bindir);
  dir_parts = split_path (dir);
  if (exe_parts == NULL || bin_parts == NULL || dir_parts == NULL || exe_parts->len == 0)
    return NULL;

  while (common < bin_parts->len && common < dir_parts->len &&
         g_str_equal (g_ptr_array_index (bin_parts, common),
                      g_ptr_array_index (dir_parts, common)))
    common++;

  /* The folders of @bindir below the part it shares with @dir must be the
   * last folders of the program's own folder; those are what gets replaced. */
  exe_dir_len = exe_parts->len - 1;
  own = bin_parts->len - common;
  if (own > exe_dir_len)
    return NULL;

  for (guint i = 0; i < own; i++)
    {
      const char *want = g_ptr_array_index (bin_parts, common + i);
      const char *have = g_ptr_array_index (exe_parts, exe_dir_len - own + i);

      if (!g_str_equal (want, have))
        return NULL;
    }

  result = g_string_new (NULL);
  for (guint i = 0; i < exe_dir_len - own; i++)
    g_string_append_printf (result, "/%s", (char *) g_ptr_array_index (exe_parts, i));
  for (guint i = common; i < dir_parts->len; i++)
    g_string_append_printf (result, "/%s", (char *) g_ptr_array_index (dir_parts, i));

  if (result->len == 0)
    g_string_append_c (result, '/');

  return g_string_free (g_steal_pointer (&result), FALSE);
}

char *
tw_install_dirs_lookup (const char *exe_path,
                        const char *bindir,
                        const char *dir)
{
  g_autofree char *relocated = NULL;

  g_return_val_if_fail (bindir != NULL, NULL);
  g_return_val_if_fail (dir != NULL, NULL);

  if (exe_path != NULL)
    relocated = tw_install_dirs_relocate (exe_path, bindir, dir);

  if (relocated != NULL && g_file_test (relocated, G_FILE_TEST_IS_DIR))
    return g_steal_pointer (&relocated);

  return g_strdup (dir);
}

gboolean
tw_install_dirs_in_build_tree (const char *exe_path)
{
  gsize length = strlen (BUILD_ROOT);

  if (exe_path == NULL)
    return FALSE;

  return strncmp (exe_path, BUILD_ROOT, length) == 0 && exe_path[length] == G_DIR_SEPARATOR;
}

const char *
tw_install_dirs_get_exe_path (void)
{
  static char *exe_path;

  if (g_once_init_enter (&exe_path))
    {
      char *path = g_file_read_link ("/proc/self/exe", NULL);

      /* g_once needs something that is not NULL. */
      g_once_init_leave (&exe_path, path != NULL ? path : g_strdup (""));
    }

  return exe_path[0] != '\0' ? exe_path : NULL;
}

char *
tw_install_dirs_find_web_extension_dir (const char *exe_path)
{
  const char *env = g_getenv ("TABWRIGHT_WEB_EXTENSION_DIR");

  if (env != NULL && env[0] != '\0')
    return g_strdup (env);

  if (tw_install_dirs_in_build_tree (exe_path) &&
      g_file_test (BUILD_WEB_EXTENSION_DIR, G_FILE_TEST_IS_DIR))
    return g_strdup (BUILD_WEB_EXTENSION_DIR);

  return tw_install_dirs_lookup (exe_path, BINDIR, WEB_EXTENSION_DIR);
}

static gboolean
has_compiled_schemas (const char *dir)
{
  g_autofree char *file = g_build_filename (dir, "gschemas.compiled", NULL);

  return g_file_test (file, G_FILE_TEST_IS_REGULAR);
}

char *
tw_install_dirs_find_schema_dir (const char *exe_path)
{
  g_autofree char *build_dir = g_build_filename (BUILD_ROOT, "data", NULL);
  g_autofree char *relocated = NULL;

  if (tw_install_dirs_in_build_tree (exe_path) && has_compiled_schemas (build_dir))
    return g_steal_pointer (&build_dir);

  if (exe_path != NULL)
    relocated = tw_install_dirs_relocate (exe_path, BINDIR, SCHEMA_DIR);
  if (relocated != NULL && has_compiled_schemas (relocated))
    return g_steal_pointer (&relocated);

  if (has_compiled_schemas (SCHEMA_DIR))
    return g_strdup (SCHEMA_DIR);

  return NULL;
}

char *
tw_install_dirs_find_locale_dir (const char *exe_path)
{
  return tw_install_dirs_lookup (exe_path, BINDIR, LOCALEDIR);
}
