/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-timeline-private.h"

#include "tw-opaque-pixbuf.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <glib/gstdio.h>

/* The timeline's files, written on its writer thread: each picture as a
 * small JPEG, and the folder kept within the size the person set. */

#define IMAGE_QUALITY "70"

/* A picture of at most TW_TIMELINE_IMAGE_WIDTH pixels across, as JPEG;
 * returns its size, 0 when it could not be written. */
gsize
_tw_timeline_write_image (GdkTexture *texture,
                          const char *path)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  g_autoptr(GdkPixbuf) scaled = NULL;
  int out_width = MIN (width, TW_TIMELINE_IMAGE_WIDTH);
  int out_height = MAX (1, (int) ((gint64) height * out_width / MAX (1, width)));
  GStatBuf st;

  pixbuf = tw_opaque_pixbuf_new_from_texture (texture, 0, 0, width, height);
  scaled = gdk_pixbuf_scale_simple (pixbuf, out_width, out_height, GDK_INTERP_BILINEAR);
  if (!gdk_pixbuf_save (scaled, path, "jpeg", NULL, "quality", IMAGE_QUALITY, NULL))
    return 0;

  return g_stat (path, &st) == 0 ? (gsize) st.st_size : 0;
}

typedef struct
{
  char   *path;
  gint64  size;
} StoredFile;

static void
stored_file_clear (StoredFile *file)
{
  g_free (file->path);
}

static int
compare_stored (gconstpointer a,
                gconstpointer b)
{
  return g_strcmp0 (((const StoredFile *) a)->path, ((const StoredFile *) b)->path);
}

/* Keeps the folder within its limits: the oldest pictures go first (names
 * begin with the run's time and the call's number, so they sort oldest
 * first), then the oldest sessions other than @keep. */
void
_tw_timeline_prune (const char *dir,
                    guint64     max_bytes,
                    const char *keep)
{
  g_autoptr(GDir) folder = g_dir_open (dir, 0, NULL);
  g_autofree char *images_dir = g_build_filename (dir, "images", NULL);
  g_autoptr(GDir) images_folder = g_dir_open (images_dir, 0, NULL);
  g_autoptr(GArray) images = g_array_new (FALSE, TRUE, sizeof (StoredFile));
  g_autoptr(GArray) sessions = g_array_new (FALSE, TRUE, sizeof (StoredFile));
  guint64 total = 0;
  const char *name;

  g_array_set_clear_func (images, (GDestroyNotify) stored_file_clear);
  g_array_set_clear_func (sessions, (GDestroyNotify) stored_file_clear);

  while (folder != NULL && (name = g_dir_read_name (folder)) != NULL)
    {
      StoredFile file = { g_build_filename (dir, name, NULL), 0 };
      GStatBuf st;

      if (!g_str_has_suffix (name, ".jsonl") || g_stat (file.path, &st) != 0)
        {
          g_free (file.path);
          continue;
        }
      file.size = st.st_size;
      total += st.st_size;
      g_array_append_val (sessions, file);
    }
  while (images_folder != NULL && (name = g_dir_read_name (images_folder)) != NULL)
    {
      StoredFile file = { g_build_filename (images_dir, name, NULL), 0 };
      GStatBuf st;

      if (g_stat (file.path, &st) != 0)
        {
          g_free (file.path);
          continue;
        }
      file.size = st.st_size;
      total += st.st_size;
      g_array_append_val (images, file);
    }

  g_array_sort (images, compare_stored);
  g_array_sort (sessions, compare_stored);

  for (guint i = 0; i < images->len && (total > max_bytes ||
                                        images->len - i > TW_TIMELINE_MAX_IMAGES); i++)
    {
      StoredFile *file = &g_array_index (images, StoredFile, i);

      if (g_unlink (file->path) == 0)
        total -= file->size;
    }
  for (guint i = 0; i < sessions->len && total > max_bytes; i++)
    {
      StoredFile *file = &g_array_index (sessions, StoredFile, i);

      if (g_strcmp0 (file->path, keep) != 0 && g_unlink (file->path) == 0)
        total -= file->size;
    }
}

/* Writes @step's line to its session's file, after its pictures. */
void
_tw_timeline_write_line (Step *step)
{
  g_autofree char *images_dir = g_build_filename (step->dir, "images", NULL);
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), step->line);
  g_autofree char *line = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  GdkTexture *pictures[2] = { step->before, step->after };
  const char *names[2] = { "before", "after" };

  g_mkdir_with_parents (images_dir, 0700);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *file_name = NULL;
      g_autofree char *path = NULL;

      if (pictures[i] == NULL)
        continue;
      file_name = g_strdup_printf ("%s-%s.jpg", step->image_prefix, names[i]);
      path = g_build_filename (images_dir, file_name, NULL);
      if (_tw_timeline_write_image (pictures[i], path) > 0)
        {
          g_autofree char *relative = g_build_filename ("images", file_name, NULL);

          json_object_set_string_member (step->line, names[i], relative);
        }
    }

  line = json_to_string (node, FALSE);
  file = g_file_new_for_path (step->session_path);
  out = g_file_append_to (file, G_FILE_CREATE_PRIVATE, NULL, NULL);
  if (out != NULL)
    {
      g_output_stream_printf (G_OUTPUT_STREAM (out), NULL, NULL, NULL, "%s\n", line);
      g_output_stream_close (G_OUTPUT_STREAM (out), NULL, NULL);
    }

  _tw_timeline_prune (step->dir, step->max_bytes, step->session_path);

  /* The pictures are no longer needed. */
  g_clear_object (&step->before);
  g_clear_object (&step->after);
}
