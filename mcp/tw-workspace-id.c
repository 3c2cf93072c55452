/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-workspace-id.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>

/* Enough of the folder name to recognise the workspace in a file listing. */
#define MAX_ID_NAME_LENGTH 32

char *
tw_workspace_id_canonicalize_path (const char  *path,
                                   const char  *cwd,
                                   GError     **error)
{
  g_autofree char *absolute = NULL;
  g_autofree char *current = NULL;
  char resolved[PATH_MAX];

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_path_is_absolute (path))
    {
      absolute = g_strdup (path);
    }
  else
    {
      if (cwd == NULL)
        cwd = current = g_get_current_dir ();
      absolute = g_build_filename (cwd, path, NULL);
    }

  if (realpath (absolute, resolved) == NULL)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "%s: %s", absolute, g_strerror (saved_errno));
      return NULL;
    }

  if (!g_file_test (resolved, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   "%s: Not a folder", resolved);
      return NULL;
    }

  return g_strdup (resolved);
}

char *
tw_workspace_id_from_path (const char *path)
{
  g_autofree char *basename = NULL;
  g_autofree char *checksum = NULL;
  g_autoptr(GString) name = g_string_new (NULL);

  g_return_val_if_fail (path != NULL, NULL);

  /* Ids end up in file names and in URLs of the future, so only a safe
   * subset of the folder name survives. */
  basename = g_path_get_basename (path);
  for (const char *p = basename; *p != '\0' && name->len < MAX_ID_NAME_LENGTH; p++)
    {
      char c = *p;

      if (g_ascii_isalnum (c) || c == '_' || c == '.')
        g_string_append_c (name, g_ascii_tolower (c));
      else if (name->len > 0 && name->str[name->len - 1] != '-')
        g_string_append_c (name, '-');
    }

  while (name->len > 0 && (name->str[name->len - 1] == '-' || name->str[name->len - 1] == '.'))
    g_string_truncate (name, name->len - 1);
  while (name->len > 0 && name->str[0] == '.')
    g_string_erase (name, 0, 1);

  if (name->len == 0)
    g_string_assign (name, "workspace");

  checksum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, path, -1);

  return g_strdup_printf ("%s-%.8s", name->str, checksum);
}

char *
tw_workspace_id_dup_runtime_file (const char *workspace_id)
{
  g_autofree char *file_name = NULL;

  g_return_val_if_fail (workspace_id != NULL, NULL);

  file_name = g_strconcat (workspace_id, ".json", NULL);

  return g_build_filename (g_get_user_runtime_dir (), "tabwright", file_name, NULL);
}

static gboolean
process_is_alive (gint64 pid)
{
  if (pid <= 0 || pid > G_MAXINT)
    return FALSE;

  return kill ((pid_t) pid, 0) == 0 || errno == EPERM;
}

JsonObject *
tw_workspace_id_load_runtime_file (const char  *file,
                                   GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;

  g_return_val_if_fail (file != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!json_parser_load_from_file (parser, file, error))
    return NULL;

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: not a JSON object", file);
      return NULL;
    }

  return json_object_ref (json_node_get_object (root));
}

gboolean
tw_workspace_id_read_runtime_file (const char  *path,
                                   char       **url,
                                   char       **token,
                                   GError     **error)
{
  g_autofree char *id = NULL;
  g_autofree char *file = NULL;
  g_autoptr(JsonObject) object = NULL;
  const char *found_url;
  const char *found_token;
  const char *found_path;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  id = tw_workspace_id_from_path (path);
  file = tw_workspace_id_dup_runtime_file (id);

  object = tw_workspace_id_load_runtime_file (file, NULL);
  if (object == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "Tabwright is not running for %s", path);
      return FALSE;
    }

  found_url = json_object_get_string_member_with_default (object, "url", NULL);
  found_token = json_object_get_string_member_with_default (object, "token", NULL);
  found_path = json_object_get_string_member_with_default (object, "workspace", NULL);

  /* A file left behind by a Tabwright that crashed names a dead pid. */
  if (found_url == NULL || found_token == NULL || g_strcmp0 (found_path, path) != 0 ||
      !process_is_alive (json_object_get_int_member_with_default (object, "pid", 0)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "Tabwright is not running for %s", path);
      return FALSE;
    }

  if (url != NULL)
    *url = g_strdup (found_url);
  if (token != NULL)
    *token = g_strdup (found_token);

  return TRUE;
}
