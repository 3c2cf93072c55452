/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-session.h"

#include "tw-address.h"

#include <json-glib/json-glib.h>

#define SESSION_VERSION 1

/* Tabs change in bursts (a page loads, redirects, an agent opens several):
 * one write after things settle is enough. */
#define SAVE_DELAY_MS 500

/* The file and the last version of the tabs written to it, shared with the
 * writer threads. Writes are numbered: a slow write of older tabs that runs
 * after a newer one must not undo it. */
typedef struct
{
  GMutex   lock;
  char    *path;
  guint64  written;
} SessionFile;

typedef struct
{
  SessionFile *file;
  guint64      generation;
  char        *contents;
} WriteJob;

struct _TwSession
{
  GObject       parent_instance;

  TwBrowser    *browser;
  SessionFile  *file;
  guint64       generation;
  guint         save_source;

  guint         closed : 1;
};

G_DEFINE_FINAL_TYPE (TwSession, tw_session, G_TYPE_OBJECT)

static void schedule_save (TwSession *self);

/* The file */

static void
session_file_clear (SessionFile *file)
{
  g_mutex_clear (&file->lock);
  g_free (file->path);
}

static SessionFile *
session_file_new (const char *path)
{
  SessionFile *file = g_atomic_rc_box_new0 (SessionFile);

  g_mutex_init (&file->lock);
  file->path = g_strdup (path);

  return file;
}

static void
session_file_unref (SessionFile *file)
{
  g_atomic_rc_box_release_full (file, (GDestroyNotify) session_file_clear);
}

static void
write_job_free (WriteJob *job)
{
  g_clear_pointer (&job->file, session_file_unref);
  g_free (job->contents);
  g_free (job);
}

static gboolean
write_job_run (WriteJob  *job,
               GError   **error)
{
  gboolean ok = TRUE;

  g_mutex_lock (&job->file->lock);

  if (job->generation > job->file->written)
    {
      /* URLs can carry tokens of the sites they belong to. */
      ok = g_file_set_contents_full (job->file->path, job->contents, -1,
                                     G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
      if (ok)
        job->file->written = job->generation;
    }

  g_mutex_unlock (&job->file->lock);

  return ok;
}

static void
write_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GError *error = NULL;

  if (write_job_run (task_data, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
write_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_warning ("Could not save the open tabs: %s", error->message);
}

static WriteJob *
write_job_new (TwSession *self)
{
  WriteJob *job = g_new0 (WriteJob, 1);

  job->file = g_atomic_rc_box_acquire (self->file);
  job->generation = ++self->generation;
  job->contents = tw_session_serialize (tw_browser_get_tabs (self->browser));

  return job;
}

/* Following the tabs */

static gboolean
save_cb (gpointer user_data)
{
  TwSession *self = user_data;
  g_autoptr(GTask) task = NULL;

  self->save_source = 0;

  task = g_task_new (NULL, NULL, write_done_cb, NULL);
  g_task_set_source_tag (task, save_cb);
  g_task_set_task_data (task, write_job_new (self), (GDestroyNotify) write_job_free);
  g_task_run_in_thread (task, write_thread);

  return G_SOURCE_REMOVE;
}

static void
schedule_save (TwSession *self)
{
  if (self->closed || self->save_source != 0)
    return;

  self->save_source = g_timeout_add (SAVE_DELAY_MS, save_cb, self);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, self->save_source),
                            "[tabwright] save session");
}

static void
tab_changed_cb (TwSession    *self,
                GParamSpec   *pspec,
                TwBrowserTab *tab)
{
  schedule_save (self);
}

/* Saves again whenever one of the @n tabs from @position on changes. */
static void
follow_tabs (TwSession  *self,
             GListModel *tabs,
             guint       position,
             guint       n)
{
  for (guint i = position; i < position + n; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (tabs, i);

      g_signal_connect_object (tab, "notify::uri", G_CALLBACK (tab_changed_cb), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (tab, "notify::load-error", G_CALLBACK (tab_changed_cb), self,
                               G_CONNECT_SWAPPED);
    }
}

static void
tabs_changed_cb (TwSession  *self,
                 guint       position,
                 guint       removed,
                 guint       added,
                 GListModel *tabs)
{
  follow_tabs (self, tabs, position, added);
  schedule_save (self);
}

static void
stop_following (TwSession *self)
{
  GListModel *tabs;
  guint n_tabs;

  if (self->browser == NULL)
    return;

  tabs = tw_browser_get_tabs (self->browser);
  g_signal_handlers_disconnect_by_data (tabs, self);

  n_tabs = g_list_model_get_n_items (tabs);
  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (tabs, i);

      g_signal_handlers_disconnect_by_data (tab, self);
    }
}

/* GObject */

static void
tw_session_dispose (GObject *object)
{
  TwSession *self = TW_SESSION (object);

  self->closed = TRUE;
  g_clear_handle_id (&self->save_source, g_source_remove);
  stop_following (self);
  g_clear_object (&self->browser);

  G_OBJECT_CLASS (tw_session_parent_class)->dispose (object);
}

static void
tw_session_finalize (GObject *object)
{
  TwSession *self = TW_SESSION (object);

  g_clear_pointer (&self->file, session_file_unref);

  G_OBJECT_CLASS (tw_session_parent_class)->finalize (object);
}

static void
tw_session_class_init (TwSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_session_dispose;
  object_class->finalize = tw_session_finalize;
}

static void
tw_session_init (TwSession *self)
{
}

TwSession *
tw_session_new (TwBrowser  *browser,
                const char *file)
{
  TwSession *self;
  GListModel *tabs;

  g_return_val_if_fail (TW_IS_BROWSER (browser), NULL);
  g_return_val_if_fail (file != NULL, NULL);

  self = g_object_new (TW_TYPE_SESSION, NULL);
  self->browser = g_object_ref (browser);
  self->file = session_file_new (file);

  tabs = tw_browser_get_tabs (browser);
  follow_tabs (self, tabs, 0, g_list_model_get_n_items (tabs));
  g_signal_connect_object (tabs, "items-changed", G_CALLBACK (tabs_changed_cb), self,
                           G_CONNECT_SWAPPED);

  return self;
}

const char *
tw_session_get_file (TwSession *self)
{
  g_return_val_if_fail (TW_IS_SESSION (self), NULL);

  return self->file->path;
}

static GStrv parse_tabs (const char    *contents,
                         GStrvBuilder  *titles,
                         GError       **error);

guint
tw_session_restore (TwSession  *self,
                    GError    **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GStrvBuilder) titles_builder = g_strv_builder_new ();
  g_auto(GStrv) urls = NULL;
  g_auto(GStrv) titles = NULL;
  guint n_urls;

  g_return_val_if_fail (TW_IS_SESSION (self), 0);
  g_return_val_if_fail (!self->closed, 0);

  if (!g_file_get_contents (self->file->path, &contents, NULL, &local_error))
    {
      if (!g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_propagate_error (error, g_steal_pointer (&local_error));
      return 0;
    }

  urls = parse_tabs (contents, titles_builder, error);
  if (urls == NULL)
    return 0;
  titles = g_strv_builder_end (titles_builder);

  /* The tabs list their pages at once and load them when first used. */
  n_urls = g_strv_length (urls);
  for (guint i = 0; i < n_urls; i++)
    tw_browser_restore_tab (self->browser, urls[i], titles[i]);

  return n_urls;
}

gboolean
tw_session_close (TwSession  *self,
                  GError    **error)
{
  WriteJob *job;
  gboolean ok;

  g_return_val_if_fail (TW_IS_SESSION (self), FALSE);

  if (self->closed)
    return TRUE;

  g_clear_handle_id (&self->save_source, g_source_remove);

  /* Blocking, but the file is small and the workspace is going away. */
  job = write_job_new (self);
  ok = write_job_run (job, error);
  write_job_free (job);

  self->closed = TRUE;
  stop_following (self);

  return ok;
}

/* The file format */

static const char *
tab_session_url (TwBrowserTab *tab)
{
  const char *failed = tw_browser_tab_get_load_error_uri (tab);
  const char *uri = failed != NULL ? failed : tw_browser_tab_get_uri (tab);

  /* A private tab keeps nothing, not even its address. */
  if (tw_browser_tab_get_private (tab))
    return NULL;

  /* A tab that failed to load keeps the address it was trying, so it gets
   * another chance next time. */
  if (uri == NULL || uri[0] == '\0' || g_str_equal (uri, "about:blank") ||
      !tw_address_check_url (uri, NULL))
    return NULL;

  return uri;
}

char *
tw_session_serialize (GListModel *tabs)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  guint n_tabs;

  g_return_val_if_fail (G_IS_LIST_MODEL (tabs), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, SESSION_VERSION);
  json_builder_set_member_name (builder, "tabs");
  json_builder_begin_array (builder);

  n_tabs = g_list_model_get_n_items (tabs);
  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (tabs, i);
      const char *url = tab_session_url (tab);

      if (url == NULL)
        continue;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "url");
      json_builder_add_string_value (builder, url);
      json_builder_set_member_name (builder, "title");
      json_builder_add_string_value (builder, tw_browser_tab_get_title (tab));
      json_builder_end_object (builder);
    }

  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);

  return json_generator_to_data (generator, NULL);
}

/* The URLs of a session file, and their titles ("" when none) in @titles
 * when not NULL. */
static GStrv
parse_tabs (const char    *contents,
            GStrvBuilder  *titles,
            GError       **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GStrvBuilder) urls = g_strv_builder_new ();
  JsonObject *object;
  JsonArray *tabs;
  JsonNode *root;
  guint n_urls = 0;

  g_assert (contents != NULL);

  if (!json_parser_load_from_data (parser, contents, -1, error))
    return NULL;

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                           "The session file is not a JSON object");
      return NULL;
    }

  object = json_node_get_object (root);
  if (json_object_get_int_member_with_default (object, "version", 0) != SESSION_VERSION ||
      !json_object_has_member (object, "tabs") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (object, "tabs")))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "The session file is not version %d with a list of tabs", SESSION_VERSION);
      return NULL;
    }

  /* Whatever the file says, only web pages open, and not too many. */
  tabs = json_object_get_array_member (object, "tabs");
  for (guint i = 0; i < json_array_get_length (tabs) && n_urls < TW_SESSION_MAX_TABS; i++)
    {
      JsonNode *node = json_array_get_element (tabs, i);
      const char *url;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;

      url = json_object_get_string_member_with_default (json_node_get_object (node), "url", NULL);
      if (url == NULL || g_str_equal (url, "about:blank") || !tw_address_check_url (url, NULL))
        continue;

      g_strv_builder_add (urls, url);
      if (titles != NULL)
        g_strv_builder_add (titles,
                            json_object_get_string_member_with_default (json_node_get_object (node),
                                                                        "title", ""));
      n_urls++;
    }

  return g_strv_builder_end (urls);
}

GStrv
tw_session_parse (const char  *contents,
                  GError     **error)
{
  g_return_val_if_fail (contents != NULL, NULL);

  return parse_tabs (contents, NULL, error);
}
