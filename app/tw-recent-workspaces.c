/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-recent-workspaces.h"

#include <json-glib/json-glib.h>
#include <string.h>

/* Enough to find yesterday's projects, few enough to scan at a glance. */
#define MAX_RECENT 10

struct _TwRecentWorkspaces
{
  GObject    parent_instance;

  char      *file;
  /* Paths, newest first. */
  GPtrArray *paths;
  GMenu     *menu;

  /* Saving runs one write at a time; what changes meanwhile is written
   * right after. Tasks wait for the write that includes their change. */
  GPtrArray *waiting;
  GPtrArray *writing;
  guint      saving : 1;
  guint      dirty : 1;
};

G_DEFINE_FINAL_TYPE (TwRecentWorkspaces, tw_recent_workspaces, G_TYPE_OBJECT)

/* "~/src/app" reads better than "/home/someone/src/app". */
static char *
display_path (const char *path)
{
  const char *home = g_get_home_dir ();

  if (g_str_equal (path, home))
    return g_strdup ("~");

  if (g_str_has_prefix (path, home) && path[strlen (home)] == G_DIR_SEPARATOR)
    return g_strconcat ("~", path + strlen (home), NULL);

  return g_strdup (path);
}

static void
rebuild_menu (TwRecentWorkspaces *self)
{
  g_menu_remove_all (self->menu);

  for (guint i = 0; i < self->paths->len; i++)
    {
      const char *path = g_ptr_array_index (self->paths, i);
      g_autofree char *label = display_path (path);
      g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target_value (item, "app.open-workspace-path",
                                               g_variant_new_string (path));
      g_menu_append_item (self->menu, item);
    }

  /* An item without an action shows, insensitive, as the empty state. */
  if (self->paths->len == 0)
    g_menu_append (self->menu, _("No Recent Workspaces"), NULL);
}

static void
load (TwRecentWorkspaces *self)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;
  JsonNode *list;
  JsonArray *array;

  if (!json_parser_load_from_file (parser, self->file, &error))
    {
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_message ("Ignoring the recent workspaces in %s: %s", self->file, error->message);
      return;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;

  list = json_object_get_member (json_node_get_object (root), "workspaces");
  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    return;

  array = json_node_get_array (list);
  for (guint i = 0; i < json_array_get_length (array) && self->paths->len < MAX_RECENT; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *path;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      path = json_object_get_string_member_with_default (json_node_get_object (element),
                                                         "path", NULL);
      if (path == NULL || !g_path_is_absolute (path) ||
          !g_file_test (path, G_FILE_TEST_IS_DIR) ||
          g_ptr_array_find_with_equal_func (self->paths, path, g_str_equal, NULL))
        continue;

      g_ptr_array_add (self->paths, g_strdup (path));
    }
}

static GBytes *
serialize (TwRecentWorkspaces *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  char *data;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "workspaces");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->paths->len; i++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, g_ptr_array_index (self->paths, i));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  data = json_to_string (root, TRUE);

  return g_bytes_new_take (data, strlen (data));
}

/* Saving */

static void write_next (TwRecentWorkspaces *self);

static void
replace_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(TwRecentWorkspaces) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) done = NULL;

  g_file_replace_contents_finish (G_FILE (object), result, NULL, &error);

  done = g_steal_pointer (&self->writing);
  self->writing = g_ptr_array_new_with_free_func (g_object_unref);
  self->saving = FALSE;

  for (guint i = 0; i < done->len; i++)
    {
      GTask *task = g_ptr_array_index (done, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }

  if (error != NULL && done->len == 0)
    g_message ("Could not save the recent workspaces to %s: %s", self->file, error->message);

  if (self->dirty)
    write_next (self);
}

static void
write_next (TwRecentWorkspaces *self)
{
  g_autoptr(GFile) file = g_file_new_for_path (self->file);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autoptr(GBytes) bytes = NULL;

  if (self->saving)
    return;

  self->saving = TRUE;
  self->dirty = FALSE;
  g_ptr_array_extend_and_steal (self->writing, g_steal_pointer (&self->waiting));
  self->waiting = g_ptr_array_new_with_free_func (g_object_unref);

  /* The folder is made here, once, before the first write; it is local and
   * tiny, unlike the write itself. */
  if (parent != NULL)
    g_file_make_directory_with_parents (parent, NULL, NULL);

  bytes = serialize (self);
  g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                       replace_cb, g_object_ref (self));
}

void
tw_recent_workspaces_save_async (TwRecentWorkspaces  *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TW_IS_RECENT_WORKSPACES (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_recent_workspaces_save_async);

  /* Nothing new since the last write: it is on disk, or about to be. */
  if (!self->dirty && !self->saving)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (self->dirty)
    g_ptr_array_add (self->waiting, g_steal_pointer (&task));
  else
    g_ptr_array_add (self->writing, g_steal_pointer (&task));
}

gboolean
tw_recent_workspaces_save_finish (TwRecentWorkspaces  *self,
                                  GAsyncResult        *result,
                                  GError             **error)
{
  g_return_val_if_fail (TW_IS_RECENT_WORKSPACES (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Public */

void
tw_recent_workspaces_add (TwRecentWorkspaces *self,
                          const char         *path)
{
  guint index;

  g_return_if_fail (TW_IS_RECENT_WORKSPACES (self));
  g_return_if_fail (path != NULL && g_path_is_absolute (path));

  if (g_ptr_array_find_with_equal_func (self->paths, path, g_str_equal, &index))
    {
      if (index == 0)
        return;
      g_ptr_array_remove_index (self->paths, index);
    }

  g_ptr_array_insert (self->paths, 0, g_strdup (path));
  if (self->paths->len > MAX_RECENT)
    g_ptr_array_set_size (self->paths, MAX_RECENT);

  rebuild_menu (self);

  self->dirty = TRUE;
  write_next (self);
}

char **
tw_recent_workspaces_dup_paths (TwRecentWorkspaces *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (TW_IS_RECENT_WORKSPACES (self), NULL);

  for (guint i = 0; i < self->paths->len; i++)
    g_strv_builder_add (builder, g_ptr_array_index (self->paths, i));

  return g_strv_builder_end (builder);
}

GMenuModel *
tw_recent_workspaces_get_menu (TwRecentWorkspaces *self)
{
  g_return_val_if_fail (TW_IS_RECENT_WORKSPACES (self), NULL);

  return G_MENU_MODEL (self->menu);
}

char *
tw_recent_workspaces_dup_default_file (void)
{
  /* Next to the workspaces' own data, as GNOME Builder keeps its recent
   * projects; a folder every test run already gives a home of its own. */
  return g_build_filename (g_get_user_data_dir (), "tabwright", "recent-workspaces.json", NULL);
}

/* GObject */

static void
tw_recent_workspaces_finalize (GObject *object)
{
  TwRecentWorkspaces *self = TW_RECENT_WORKSPACES (object);

  g_clear_pointer (&self->file, g_free);
  g_clear_pointer (&self->paths, g_ptr_array_unref);
  g_clear_pointer (&self->waiting, g_ptr_array_unref);
  g_clear_pointer (&self->writing, g_ptr_array_unref);
  g_clear_object (&self->menu);

  G_OBJECT_CLASS (tw_recent_workspaces_parent_class)->finalize (object);
}

static void
tw_recent_workspaces_class_init (TwRecentWorkspacesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tw_recent_workspaces_finalize;
}

static void
tw_recent_workspaces_init (TwRecentWorkspaces *self)
{
  self->paths = g_ptr_array_new_with_free_func (g_free);
  self->menu = g_menu_new ();
  self->waiting = g_ptr_array_new_with_free_func (g_object_unref);
  self->writing = g_ptr_array_new_with_free_func (g_object_unref);
}

TwRecentWorkspaces *
tw_recent_workspaces_new (const char *file)
{
  TwRecentWorkspaces *self;

  g_return_val_if_fail (file != NULL, NULL);

  self = g_object_new (TW_TYPE_RECENT_WORKSPACES, NULL);
  self->file = g_strdup (file);

  load (self);
  rebuild_menu (self);

  return self;
}
