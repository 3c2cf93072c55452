/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-downloads.h"

#include "tw-error.h"
#include "tw-workspace-path.h"

#include <glib/gstdio.h>
#include <string.h>

#define DOWNLOADS_FOLDER "downloads"
#define MAX_NAME_BYTES 200

typedef enum
{
  DOWNLOAD_RUNNING,
  /* The person has not allowed it yet: it waits for no command. */
  DOWNLOAD_AWAITING,
  DOWNLOAD_FINISHED,
  DOWNLOAD_FAILED,
} DownloadState;

typedef struct
{
  guint           id;
  char           *browser_id;
  WebKitDownload *download;
  char           *url;
  char           *file_name;
  char           *path;
  char           *mime_type;
  char           *error;
  DownloadState   state;
  gboolean        reported;
} Download;

typedef struct
{
  char  *browser_id;
  GTask *task;
  guint  timeout_id;
} Waiter;

struct _TwTabDownloads
{
  GObject    parent_instance;

  char      *workspace_dir;
  GPtrArray *downloads;  /* Download, oldest first */
  GList     *waiters;    /* Waiter */
  guint      next_id;
};

G_DEFINE_FINAL_TYPE (TwTabDownloads, tw_tab_downloads, G_TYPE_OBJECT)

static void
download_free (Download *record)
{
  if (record->download != NULL)
    g_signal_handlers_disconnect_by_data (record->download, record);
  g_clear_object (&record->download);
  g_free (record->browser_id);
  g_free (record->url);
  g_free (record->file_name);
  g_free (record->path);
  g_free (record->mime_type);
  g_free (record->error);
  g_free (record);
}

static void
waiter_free (Waiter *waiter)
{
  g_clear_handle_id (&waiter->timeout_id, g_source_remove);
  g_free (waiter->browser_id);
  g_clear_object (&waiter->task);
  g_free (waiter);
}

static gboolean
tab_busy (TwTabDownloads *self,
          const char     *browser_id)
{
  for (guint i = 0; i < self->downloads->len; i++)
    {
      Download *record = g_ptr_array_index (self->downloads, i);

      if (!record->reported && record->state == DOWNLOAD_RUNNING &&
          g_strcmp0 (record->browser_id, browser_id) == 0)
        return TRUE;
    }

  return FALSE;
}

static void
release_waiter (TwTabDownloads *self,
                Waiter         *waiter)
{
  self->waiters = g_list_remove (self->waiters, waiter);
  g_task_return_boolean (waiter->task, TRUE);
  waiter_free (waiter);
}

static void
check_waiters (TwTabDownloads *self)
{
  GList *l = self->waiters;

  while (l != NULL)
    {
      Waiter *waiter = l->data;

      l = l->next;
      if (!tab_busy (self, waiter->browser_id))
        release_waiter (self, waiter);
    }
}

char *
tw_tab_downloads_clean_name (const char *suggested)
{
  g_autofree char *base = NULL;
  g_autofree char *valid = NULL;
  GString *name;
  const char *p;

  if (suggested == NULL)
    suggested = "";

  valid = g_utf8_make_valid (suggested, -1);
  base = g_path_get_basename (valid);
  name = g_string_new (NULL);

  for (p = base; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || c == 0x7f || c == '/' || c == '\\' || c == ':' ||
          g_unichar_type (c) == G_UNICODE_FORMAT)
        g_string_append_c (name, '_');
      else
        g_string_append_unichar (name, c);
    }

  /* No hidden files, no "." or "..". */
  while (name->str[0] == '.' || name->str[0] == ' ')
    g_string_erase (name, 0, 1);
  while (name->len > 0 && (name->str[name->len - 1] == ' ' || name->str[name->len - 1] == '.'))
    g_string_truncate (name, name->len - 1);

  if (name->len > MAX_NAME_BYTES)
    {
      const char *end = name->str + MAX_NAME_BYTES;

      g_utf8_validate (name->str, MAX_NAME_BYTES, &end);
      g_string_truncate (name, end - name->str);
    }

  if (name->len == 0)
    g_string_assign (name, "download");

  return g_string_free (name, FALSE);
}

/* downloads/<name>, or "<stem> (2)<ext>" and so on when it exists. */
static char *
unique_path (const char *folder,
             const char *name)
{
  const char *dot = strrchr (name, '.');
  g_autofree char *stem = dot != NULL && dot != name ? g_strndup (name, dot - name)
                                                    : g_strdup (name);
  const char *ext = dot != NULL && dot != name ? dot : "";
  char *path = g_build_filename (folder, name, NULL);

  for (guint n = 2; g_file_test (path, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK) && n < 10000;
       n++)
    {
      g_autofree char *candidate = g_strdup_printf ("%s (%u)%s", stem, n, ext);

      g_free (path);
      path = g_build_filename (folder, candidate, NULL);
    }

  return path;
}

static gboolean
decide_destination_cb (WebKitDownload *download,
                       const char     *suggested,
                       Download       *record)
{
  TwTabDownloads *self = g_object_get_data (G_OBJECT (download), "tw-tab-downloads");
  g_autofree char *name = tw_tab_downloads_clean_name (suggested);
  g_autofree char *folder = NULL;
  g_autofree char *checked = NULL;
  g_autofree char *candidate = NULL;
  g_autofree char *relative = NULL;
  g_autoptr(GError) error = NULL;
  WebKitURIResponse *response = webkit_download_get_response (download);

  if (response != NULL && webkit_uri_response_get_mime_type (response) != NULL)
    record->mime_type = g_strdup (webkit_uri_response_get_mime_type (response));

  /* The folder is made on first use; a link there must still lead inside
   * the workspace, which the check below makes sure of. */
  folder = g_build_filename (self->workspace_dir, DOWNLOADS_FOLDER, NULL);
  if (!g_file_test (folder, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK))
    g_mkdir (folder, 0755);

  candidate = unique_path (folder, name);
  relative = g_build_filename (DOWNLOADS_FOLDER, strrchr (candidate, G_DIR_SEPARATOR) + 1, NULL);
  checked = tw_workspace_path_check (self->workspace_dir, relative, TW_WORKSPACE_PATH_NEW_FILE,
                                     &error);
  if (checked == NULL)
    {
      record->state = DOWNLOAD_FAILED;
      record->error = g_strdup_printf ("not saved: %s", error->message);
      webkit_download_cancel (download);
      return TRUE;
    }

  g_free (record->file_name);
  record->file_name = g_path_get_basename (checked);
  record->path = g_strdup (checked);
  webkit_download_set_allow_overwrite (download, FALSE);
  webkit_download_set_destination (download, checked);

  return TRUE;
}

static void
download_failed_cb (WebKitDownload *download,
                    GError         *error,
                    Download       *record)
{
  TwTabDownloads *self = g_object_get_data (G_OBJECT (download), "tw-tab-downloads");

  if (record->state == DOWNLOAD_RUNNING || record->state == DOWNLOAD_AWAITING)
    {
      record->state = DOWNLOAD_FAILED;
      record->error = g_strdup (error->message);
    }

  check_waiters (self);
}

static void
download_finished_cb (WebKitDownload *download,
                      Download       *record)
{
  TwTabDownloads *self = g_object_get_data (G_OBJECT (download), "tw-tab-downloads");

  /* "finished" follows "failed" too. */
  if (record->state == DOWNLOAD_RUNNING)
    record->state = DOWNLOAD_FINISHED;

  check_waiters (self);
}

static JsonObject *
download_to_json (Download *record)
{
  JsonObject *object = json_object_new ();
  static const char * const states[] = { "running", "awaiting approval", "finished", "failed" };
  guint64 size = record->download != NULL
                 ? webkit_download_get_received_data_length (record->download) : 0;

  json_object_set_int_member (object, "id", record->id);
  if (record->browser_id != NULL)
    json_object_set_string_member (object, "browserId", record->browser_id);
  json_object_set_string_member (object, "url", record->url != NULL ? record->url : "");
  if (record->file_name != NULL)
    json_object_set_string_member (object, "fileName", record->file_name);
  if (record->path != NULL && record->state != DOWNLOAD_FAILED)
    json_object_set_string_member (object, "path", record->path);
  json_object_set_int_member (object, "size", (gint64) size);
  if (record->mime_type != NULL)
    json_object_set_string_member (object, "mimeType", record->mime_type);
  json_object_set_string_member (object, "state", states[record->state]);
  if (record->error != NULL)
    json_object_set_string_member (object, "error", record->error);

  return object;
}

void
tw_tab_downloads_add (TwTabDownloads *self,
                      WebKitDownload *download,
                      const char     *browser_id)
{
  Download *record;
  WebKitURIRequest *request;

  g_return_if_fail (TW_IS_TAB_DOWNLOADS (self));
  g_return_if_fail (WEBKIT_IS_DOWNLOAD (download));

  /* Without a workspace there is nowhere a download may go. */
  if (self->workspace_dir == NULL)
    {
      webkit_download_cancel (download);
      return;
    }

  request = webkit_download_get_request (download);
  record = g_new0 (Download, 1);
  record->id = ++self->next_id;
  record->browser_id = g_strdup (browser_id);
  record->download = g_object_ref (download);
  record->url = g_strdup (request != NULL ? webkit_uri_request_get_uri (request) : NULL);
  record->state = DOWNLOAD_RUNNING;
  g_ptr_array_add (self->downloads, record);

  g_object_set_data (G_OBJECT (download), "tw-tab-downloads", self);
  g_signal_connect (download, "decide-destination", G_CALLBACK (decide_destination_cb), record);
  g_signal_connect (download, "failed", G_CALLBACK (download_failed_cb), record);
  g_signal_connect (download, "finished", G_CALLBACK (download_finished_cb), record);
}

void
tw_tab_downloads_set_approval (TwTabDownloads     *self,
                               WebKitDownload     *download,
                               const char         *suggested,
                               TwDownloadApproval  approval)
{
  g_return_if_fail (TW_IS_TAB_DOWNLOADS (self));
  g_return_if_fail (WEBKIT_IS_DOWNLOAD (download));

  for (guint i = 0; i < self->downloads->len; i++)
    {
      Download *record = g_ptr_array_index (self->downloads, i);

      if (record->download != download ||
          (record->state != DOWNLOAD_RUNNING && record->state != DOWNLOAD_AWAITING))
        continue;

      switch (approval)
        {
        case TW_DOWNLOAD_APPROVAL_ASKING:
          record->state = DOWNLOAD_AWAITING;
          /* The name it would be saved under, until it has one. */
          g_free (record->file_name);
          record->file_name = tw_tab_downloads_clean_name (suggested);
          break;
        case TW_DOWNLOAD_APPROVAL_ALLOWED:
          record->state = DOWNLOAD_RUNNING;
          /* Where it goes is decided next. */
          g_clear_pointer (&record->file_name, g_free);
          break;
        case TW_DOWNLOAD_APPROVAL_DENIED:
        default:
          /* Before the download is cancelled, which says only that. */
          record->state = DOWNLOAD_FAILED;
          record->error = g_strdup ("the person did not allow it");
          break;
        }
      break;
    }

  /* A command that waits for the tab's downloads no longer waits for one
   * the person is asked about: an answer may take minutes. */
  check_waiters (self);
}

JsonObject *
tw_tab_downloads_list (TwTabDownloads *self)
{
  JsonObject *reply = json_object_new ();
  JsonArray *array = json_array_new ();

  g_return_val_if_fail (TW_IS_TAB_DOWNLOADS (self), NULL);

  for (guint i = 0; i < self->downloads->len; i++)
    json_array_add_object_element (array, download_to_json (g_ptr_array_index (self->downloads, i)));
  json_object_set_array_member (reply, "downloads", array);
  if (self->workspace_dir != NULL)
    {
      g_autofree char *folder = g_build_filename (self->workspace_dir, DOWNLOADS_FOLDER, NULL);

      json_object_set_string_member (reply, "folder", folder);
    }

  return reply;
}

gboolean
tw_tab_downloads_has_unreported (TwTabDownloads *self,
                                 const char     *browser_id)
{
  g_return_val_if_fail (TW_IS_TAB_DOWNLOADS (self), FALSE);

  for (guint i = 0; i < self->downloads->len; i++)
    {
      Download *record = g_ptr_array_index (self->downloads, i);

      if (!record->reported && g_strcmp0 (record->browser_id, browser_id) == 0)
        return TRUE;
    }

  return FALSE;
}

static gboolean
waiter_timeout_cb (gpointer user_data)
{
  Waiter *waiter = user_data;
  TwTabDownloads *self = g_task_get_source_object (waiter->task);

  waiter->timeout_id = 0;
  release_waiter (self, waiter);

  return G_SOURCE_REMOVE;
}

void
tw_tab_downloads_settle_async (TwTabDownloads      *self,
                               const char          *browser_id,
                               guint                timeout_ms,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Waiter *waiter;

  g_return_if_fail (TW_IS_TAB_DOWNLOADS (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_tab_downloads_settle_async);

  if (!tab_busy (self, browser_id))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  waiter = g_new0 (Waiter, 1);
  waiter->browser_id = g_strdup (browser_id);
  waiter->task = g_steal_pointer (&task);
  waiter->timeout_id = g_timeout_add (timeout_ms, waiter_timeout_cb, waiter);
  self->waiters = g_list_prepend (self->waiters, waiter);
}

gboolean
tw_tab_downloads_settle_finish (TwTabDownloads  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

JsonArray *
tw_tab_downloads_take_unreported (TwTabDownloads *self,
                                  const char     *browser_id)
{
  JsonArray *array = NULL;

  g_return_val_if_fail (TW_IS_TAB_DOWNLOADS (self), NULL);

  for (guint i = 0; i < self->downloads->len; i++)
    {
      Download *record = g_ptr_array_index (self->downloads, i);

      if (record->reported || g_strcmp0 (record->browser_id, browser_id) != 0)
        continue;

      if (array == NULL)
        array = json_array_new ();
      json_array_add_object_element (array, download_to_json (record));
      record->reported = TRUE;
    }

  return array;
}

void
tw_tab_downloads_set_workspace_dir (TwTabDownloads *self,
                                    const char     *workspace_dir)
{
  g_return_if_fail (TW_IS_TAB_DOWNLOADS (self));

  g_free (self->workspace_dir);
  self->workspace_dir = g_strdup (workspace_dir);
}

static void
tw_tab_downloads_dispose (GObject *object)
{
  TwTabDownloads *self = TW_TAB_DOWNLOADS (object);

  while (self->waiters != NULL)
    release_waiter (self, self->waiters->data);

  for (guint i = 0; self->downloads != NULL && i < self->downloads->len; i++)
    {
      Download *record = g_ptr_array_index (self->downloads, i);

      if (record->download != NULL)
        g_object_set_data (G_OBJECT (record->download), "tw-tab-downloads", NULL);
    }
  g_clear_pointer (&self->downloads, g_ptr_array_unref);

  G_OBJECT_CLASS (tw_tab_downloads_parent_class)->dispose (object);
}

static void
tw_tab_downloads_finalize (GObject *object)
{
  TwTabDownloads *self = TW_TAB_DOWNLOADS (object);

  g_free (self->workspace_dir);

  G_OBJECT_CLASS (tw_tab_downloads_parent_class)->finalize (object);
}

static void
tw_tab_downloads_class_init (TwTabDownloadsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_tab_downloads_dispose;
  object_class->finalize = tw_tab_downloads_finalize;
}

static void
tw_tab_downloads_init (TwTabDownloads *self)
{
  self->downloads = g_ptr_array_new_with_free_func ((GDestroyNotify) download_free);
}

TwTabDownloads *
tw_tab_downloads_new (void)
{
  return g_object_new (TW_TYPE_TAB_DOWNLOADS, NULL);
}
