/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-page-runtime.h"
#include "tw-page-runtime-jobs.h"
#include "tw-page-runtime-private.h"

#include "tw-error.h"

/* browser_snapshot's call into the page runtime (runtime/snapshot.js): the
 * options checked as the tool's schema describes them, a cut snapshot's
 * cursor, and the page's answer. */

/* How long the snapshot may spend reading and writing out the page, well
 * within the call's time limit: a huge page gives a partial snapshot with a
 * note rather than a timeout. TABWRIGHT_SNAPSHOT_BUDGET_MS gives a slow or
 * busy machine more; the call's limit grows with it. */
#define SNAPSHOT_BUDGET_MS 2000
#define SNAPSHOT_CALL_MARGIN_MS 3000

static guint
snapshot_budget_ms (void)
{
  static gsize budget = 0;

  if (g_once_init_enter (&budget))
    {
      const char *value = g_getenv ("TABWRIGHT_SNAPSHOT_BUDGET_MS");
      guint64 ms = value != NULL ? g_ascii_strtoull (value, NULL, 10) : 0;

      g_once_init_leave (&budget, ms > 0 && ms <= 600000 ? (gsize) ms : SNAPSHOT_BUDGET_MS);
    }

  return (guint) budget;
}

/* Snapshots. */

typedef struct
{
  gboolean  interactive;
  gboolean  diff;
  char     *ref;
  gint64    max_chars;
  char     *cursor;
} SnapshotOptions;

static void
snapshot_options_free (SnapshotOptions *options)
{
  g_free (options->ref);
  g_free (options->cursor);
  g_free (options);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SnapshotOptions, snapshot_options_free)

/* Checks the options as the tool's schema describes them, so that callers
 * other than the tool get the same clear errors. */
static SnapshotOptions *
snapshot_options_parse (JsonObject  *object,
                        GError     **error)
{
  g_autoptr(SnapshotOptions) options = g_new0 (SnapshotOptions, 1);
  JsonNode *node;

  options->max_chars = TW_SNAPSHOT_DEFAULT_CHARS;

  if (object == NULL)
    return g_steal_pointer (&options);

  if ((node = json_object_get_member (object, "interactive")) != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      if (json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "interactive must be true or false");
          return NULL;
        }
      options->interactive = json_node_get_boolean (node);
    }

  if ((node = json_object_get_member (object, "diff")) != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      if (json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "diff must be true or false");
          return NULL;
        }
      options->diff = json_node_get_boolean (node);
    }

  if ((node = json_object_get_member (object, "ref")) != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      if (json_node_get_value_type (node) != G_TYPE_STRING)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "ref must be a string like \"@e3\"");
          return NULL;
        }
      options->ref = g_strdup (json_node_get_string (node));
    }

  if ((node = json_object_get_member (object, "maxChars")) != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      GType type = json_node_get_value_type (node);
      double value;

      if (type == G_TYPE_INT64)
        value = json_node_get_int (node);
      else if (type == G_TYPE_DOUBLE)
        value = json_node_get_double (node);
      else
        value = -1;

      if (value != (gint64) value || value < TW_SNAPSHOT_MIN_CHARS || value > TW_SNAPSHOT_MAX_CHARS)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "maxChars must be a whole number from %d to %d",
                       TW_SNAPSHOT_MIN_CHARS, TW_SNAPSHOT_MAX_CHARS);
          return NULL;
        }
      options->max_chars = (gint64) value;
    }

  if ((node = json_object_get_member (object, "cursor")) != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      if (json_node_get_value_type (node) != G_TYPE_STRING)
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "cursor must be the string a cut snapshot gave");
          return NULL;
        }
      options->cursor = g_strdup (json_node_get_string (node));
    }

  return g_steal_pointer (&options);
}

/* "id:line", or "fN:id:line" for the snapshot of a ref in frame N. */
static gboolean
parse_cursor (const char *cursor,
              guint64    *frame,
              guint      *id,
              guint      *line)
{
  g_auto(GStrv) parts = g_strsplit (cursor, ":", -1);
  guint n = g_strv_length (parts);
  guint64 a, b, f = 0;

  if (n == 3 && (parts[0][0] != 'f' ||
                 !g_ascii_string_to_unsigned (parts[0] + 1, 10, 1, G_MAXUINT32, &f, NULL)))
    return FALSE;

  if ((n != 2 && n != 3) ||
      !g_ascii_string_to_unsigned (parts[n - 2], 10, 1, G_MAXUINT, &a, NULL) ||
      !g_ascii_string_to_unsigned (parts[n - 1], 10, 0, G_MAXUINT, &b, NULL))
    return FALSE;

  *frame = f;
  *id = a;
  *line = b;
  return TRUE;
}

static void
snapshot_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  TwPageRuntime *self = TW_PAGE_RUNTIME (object);
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonObject) reply = NULL;
  GError *error = NULL;

  reply = tw_page_runtime_call_finish_object (self, result, &error,
                                              "The page runtime returned no snapshot");
  if (reply == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (json_object_get_string_member_with_default (reply, "text", NULL) == NULL)
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                               "The page runtime returned no snapshot");
      return;
    }

  if (json_object_has_member (reply, "walkMs"))
    g_debug ("Snapshot of %" G_GINT64_FORMAT " elements (%" G_GINT64_FORMAT " taken again%s), %"
             G_GINT64_FORMAT " lines: %" G_GINT64_FORMAT " ms reading (%.1f ms for what changed), %"
             G_GINT64_FORMAT " ms writing, %" G_GINT64_FORMAT " ms for the diff and the reply, "
             "%.1f ms in the page in all%s",
             json_object_get_int_member_with_default (reply, "elements", 0),
             json_object_get_int_member_with_default (reply, "reused", 0),
             json_object_get_boolean_member_with_default (reply, "cached", FALSE)
               ? ", unchanged page" : "",
             json_object_get_int_member_with_default (reply, "lines", 0),
             json_object_get_int_member_with_default (reply, "walkMs", 0),
             json_object_get_double_member_with_default (reply, "prepMs", 0),
             json_object_get_int_member_with_default (reply, "printMs", 0),
             json_object_get_int_member_with_default (reply, "diffMs", 0),
             json_object_get_double_member_with_default (reply, "runMs", 0),
             json_object_get_boolean_member_with_default (reply, "held", FALSE)
               ? ", the text the tab held" : "");

  g_task_return_pointer (task, g_steal_pointer (&reply), (GDestroyNotify) json_object_unref);
}

/* Takes the snapshot @options ask for and completes @task with it, within
 * @task's cancellable. */
static void
snapshot_start (TwPageRuntime *self,
                JsonObject    *options,
                GTask         *task)
{
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr(SnapshotOptions) parsed = NULL;
  g_autoptr(JsonObject) args = NULL;
  g_autoptr(GError) error = NULL;
  gboolean had_snapshot;
  guint snapshot_id;

  if (!(parsed = snapshot_options_parse (options, &error)))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  args = json_object_new ();
  json_object_set_int_member (args, "maxChars", parsed->max_chars);

  if (parsed->cursor != NULL)
    {
      guint64 frame;
      guint id, line;

      if (!parse_cursor (parsed->cursor, &frame, &id, &line))
        {
          g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                   "cursor \"%s\" is not one a snapshot gave", parsed->cursor);
          return;
        }

      /* The page keeps what it printed: a cursor dies with its document. */
      json_object_set_int_member (args, "snapshotId", id);
      json_object_set_int_member (args, "line", line);
      if (frame != 0)
        json_object_set_int_member (args, "frame", frame);
      tw_page_runtime_call_async (self, "snapshotContinue", args, cancellable,
                                  snapshot_cb, g_object_ref (task));
      return;
    }

  json_object_set_boolean_member (args, "interactive", parsed->interactive);
  if (parsed->ref != NULL)
    json_object_set_string_member (args, "ref", parsed->ref);
  json_object_set_int_member (args, "budgetMs", snapshot_budget_ms ());
  /* The page forgets its snapshots when it navigates; this says whether
   * there was one before, so a diff can tell a new document from a first
   * look. */
  json_object_set_boolean_member (args, "diff", parsed->diff);
  snapshot_id = _tw_page_runtime_next_snapshot_id (self, &had_snapshot);
  json_object_set_boolean_member (args, "hadSnapshot", had_snapshot);
  json_object_set_int_member (args, "snapshotId", snapshot_id);

  tw_page_runtime_call_with_timeout_async (self, "snapshot", args,
                                           snapshot_budget_ms () + SNAPSHOT_CALL_MARGIN_MS,
                                           cancellable, snapshot_cb, g_object_ref (task));
}

void
tw_page_runtime_snapshot_async (TwPageRuntime       *self,
                                JsonObject          *options,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (TW_IS_PAGE_RUNTIME (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_page_runtime_snapshot_async);
  snapshot_start (self, options, task);
}

void
tw_page_runtime_snapshot_run (const TwTabJob *job,
                              GTask          *task)
{
  g_return_if_fail (TW_IS_PAGE_RUNTIME (job->runtime));

  snapshot_start (job->runtime, job->params, task);
}

JsonObject *
tw_page_runtime_snapshot_finish (TwPageRuntime  *self,
                                 GAsyncResult   *result,
                                 GError        **error)
{
  g_return_val_if_fail (TW_IS_PAGE_RUNTIME (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
