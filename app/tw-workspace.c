/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-workspace.h"

#include "tw-mcp-server.h"
#include "tw-workspace-id.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

struct _TwWorkspace
{
  GObject    parent_instance;

  char      *path;
  char      *id;
  char      *name;
  char      *token;
  char      *data_dir;
  TwBrowser *browser;

  guint      published : 1;
};

G_DEFINE_FINAL_TYPE (TwWorkspace, tw_workspace, G_TYPE_OBJECT)

/* The token */

static gboolean
token_is_valid (const char *token)
{
  if (strlen (token) < 16)
    return FALSE;

  for (const char *p = token; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '-' && *p != '_')
        return FALSE;
    }

  return TRUE;
}

/* The token outlives the app so that clients configured with it keep
 * working; it is created once and only ever read afterwards. */
static char *
load_or_create_token (const char  *data_dir,
                      GError     **error)
{
  g_autofree char *file = g_build_filename (data_dir, "token", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *token = NULL;
  g_autofree char *line = NULL;

  if (g_file_get_contents (file, &contents, NULL, NULL))
    {
      g_strstrip (contents);
      if (token_is_valid (contents))
        {
          /* Whatever happened to the file meanwhile, only its owner reads it. */
          if (g_chmod (file, 0600) != 0)
            g_warning ("Could not restrict %s: %s", file, g_strerror (errno));
          return g_steal_pointer (&contents);
        }

      g_message ("%s does not hold a valid token; making a new one", file);
    }

  token = tw_mcp_generate_token ();
  line = g_strconcat (token, "\n", NULL);
  if (!g_file_set_contents_full (file, line, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error))
    return NULL;

  return g_steal_pointer (&token);
}

/* GObject */

static void
tw_workspace_dispose (GObject *object)
{
  TwWorkspace *self = TW_WORKSPACE (object);

  tw_workspace_unpublish (self);

  if (self->browser != NULL)
    tw_browser_close_all (self->browser);
  g_clear_object (&self->browser);

  G_OBJECT_CLASS (tw_workspace_parent_class)->dispose (object);
}

static void
tw_workspace_finalize (GObject *object)
{
  TwWorkspace *self = TW_WORKSPACE (object);

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->id, g_free);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->token, g_free);
  g_clear_pointer (&self->data_dir, g_free);

  G_OBJECT_CLASS (tw_workspace_parent_class)->finalize (object);
}

static void
tw_workspace_class_init (TwWorkspaceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_workspace_dispose;
  object_class->finalize = tw_workspace_finalize;
}

static void
tw_workspace_init (TwWorkspace *self)
{
}

TwWorkspace *
tw_workspace_new (const char  *path,
                  GError     **error)
{
  g_autoptr(TwWorkspace) self = NULL;

  g_return_val_if_fail (path != NULL && g_path_is_absolute (path), NULL);

  self = g_object_new (TW_TYPE_WORKSPACE, NULL);
  self->path = g_strdup (path);
  self->id = tw_workspace_id_from_path (path);
  self->name = g_path_get_basename (path);
  self->data_dir = g_build_filename (g_get_user_data_dir (), "tabwright", "workspaces",
                                     self->id, NULL);

  if (g_mkdir_with_parents (self->data_dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Could not create %s: %s", self->data_dir, g_strerror (saved_errno));
      return NULL;
    }

  self->token = load_or_create_token (self->data_dir, error);
  if (self->token == NULL)
    return NULL;

  return g_steal_pointer (&self);
}

const char *
tw_workspace_get_path (TwWorkspace *self)
{
  g_return_val_if_fail (TW_IS_WORKSPACE (self), NULL);

  return self->path;
}

const char *
tw_workspace_get_id (TwWorkspace *self)
{
  g_return_val_if_fail (TW_IS_WORKSPACE (self), NULL);

  return self->id;
}

const char *
tw_workspace_get_name (TwWorkspace *self)
{
  g_return_val_if_fail (TW_IS_WORKSPACE (self), NULL);

  return self->name;
}

const char *
tw_workspace_get_token (TwWorkspace *self)
{
  g_return_val_if_fail (TW_IS_WORKSPACE (self), NULL);

  return self->token;
}

const char *
tw_workspace_get_data_dir (TwWorkspace *self)
{
  g_return_val_if_fail (TW_IS_WORKSPACE (self), NULL);

  return self->data_dir;
}

TwBrowser *
tw_workspace_get_browser (TwWorkspace *self)
{
  g_return_val_if_fail (TW_IS_WORKSPACE (self), NULL);

  if (self->browser == NULL)
    {
      g_autofree char *website_data = g_build_filename (self->data_dir, "website-data", NULL);
      g_autofree char *cache = g_build_filename (g_get_user_cache_dir (), "tabwright",
                                                 "workspaces", self->id, NULL);

      g_autofree char *history_file = g_build_filename (self->data_dir, "history.sqlite", NULL);
      g_autoptr(TwHistory) history = tw_history_new (history_file);

      self->browser = tw_browser_new (website_data, cache);
      tw_browser_set_workspace_dir (self->browser, self->path);
      tw_browser_set_history (self->browser, history);
    }

  return self->browser;
}

gboolean
tw_workspace_publish (TwWorkspace  *self,
                      const char   *url,
                      GError      **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *contents = NULL;

  g_return_val_if_fail (TW_IS_WORKSPACE (self), FALSE);
  g_return_val_if_fail (url != NULL, FALSE);

  file = tw_workspace_id_dup_runtime_file (self->id);
  dir = g_path_get_dirname (file);

  /* The file holds a token: nobody but the user may list or read it. */
  if (g_mkdir_with_parents (dir, 0700) != 0 || g_chmod (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Could not create %s: %s", dir, g_strerror (saved_errno));
      return FALSE;
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "url");
  json_builder_add_string_value (builder, url);
  json_builder_set_member_name (builder, "token");
  json_builder_add_string_value (builder, self->token);
  json_builder_set_member_name (builder, "workspace");
  json_builder_add_string_value (builder, self->path);
  json_builder_set_member_name (builder, "workspaceId");
  json_builder_add_string_value (builder, self->id);
  json_builder_set_member_name (builder, "pid");
  json_builder_add_int_value (builder, getpid ());
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  contents = json_generator_to_data (generator, NULL);

  if (!g_file_set_contents_full (file, contents, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error))
    return FALSE;

  self->published = TRUE;

  return TRUE;
}

void
tw_workspace_unpublish (TwWorkspace *self)
{
  g_autofree char *file = NULL;
  g_autoptr(JsonObject) object = NULL;

  g_return_if_fail (TW_IS_WORKSPACE (self));

  if (!self->published)
    return;

  self->published = FALSE;

  file = tw_workspace_id_dup_runtime_file (self->id);
  object = tw_workspace_id_load_runtime_file (file, NULL);
  if (object != NULL && json_object_get_int_member_with_default (object, "pid", 0) == getpid ())
    g_unlink (file);
}
