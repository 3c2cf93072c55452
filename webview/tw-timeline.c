/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-timeline.h"
#include "tw-timeline-private.h"

#include "tw-browser-private.h"
#include "tw-json.h"
#include "tw-tab-action.h"

/* A tab's last picture after a call stands for its picture before the next
 * call within this long: one picture per action instead of two. */
#define REUSE_AFTER_US (2 * G_USEC_PER_SEC)

/* Calls that change what a tab shows: they get a picture before and
 * after. */
static const char * const acting_tools[] = {
  "browser_click", "browser_fill", "browser_fill_form", "browser_type", "browser_keypress",
  "browser_hover", "browser_select", "browser_drag", "browser_upload", "browser_scroll",
  "browser_navigate", "browser_back", "browser_forward", "browser_reload", "browser_mouse",
  "browser_handle_dialog", "browser_set_content", "browser_evaluate", "browser_new_tab",
  "browser_resize", "browser_emulate",
};

/* Calls that only read a tab's page and answer at once. One that comes
 * right after an action does not wait behind the action's picture after:
 * the picture is taken once it has answered, and still shows the page the
 * action left, which reading does not change. Calls that wait for the page
 * to change (browser_wait, browser_console with wait) take it before they
 * begin, as every other call on the tab does. */
static const char * const reading_tools[] = {
  "browser_snapshot", "browser_find", "browser_get_text", "browser_get_html", "browser_get_styles",
  "browser_read", "browser_logs", "browser_network", "browser_console",
};

/* The picture after an acting call is taken once the tab has had no call
 * for this long. Calls an agent sends back to back (an action, then a
 * read) arrive a few milliseconds after the reply before them, some tens
 * on a loaded machine, so the read does not wait for the picture; a model
 * that thinks between two calls takes several hundred at the least, more
 * than this and the painting (10–30 ms) together, so its next call never
 * meets it. */
#define AFTER_QUIET_MS 100
/* However many reads follow, the picture after is taken this long after
 * its call ended at the latest. */
#define AFTER_BOUND_MS 1000

struct _TwTimeline
{
  GObject        parent_instance;

  TwBrowser     *browser;   /* weak */
  TwActivityLog *activity;
  char          *dir;
  char          *run_id;
  guint64        max_bytes;
  GHashTable    *steps;     /* entry -> Step, while the call runs */
  GHashTable    *last_after;  /* browser id -> LastPicture */
  GThreadPool   *writer;    /* one thread: lines are written in order */
  guint64        seq;
  guint          pending;
  guint          ended_unwritten;  /* calls that ended, not yet written */
  GPtrArray     *settle_waits;     /* GTask, tw_timeline_settle_async() */
  GListModel    *tabs;             /* the browser's, watched for actions */
  GHashTable    *after_due;        /* browser id -> Step whose picture after is due */
};

enum {
  PROP_0,
  PROP_MAX_MEGABYTES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TwTimeline, tw_timeline, G_TYPE_OBJECT)

/* Kept only while it may stand for the next picture: a closed tab's, or
 * an idle one's, goes after REUSE_AFTER_US. */
typedef struct
{
  GdkTexture *texture;
  gint64      taken_us;
  guint       expire_source;
  GHashTable *table;       /* the one that holds it */
  char       *browser_id;
} LastPicture;

static void
last_picture_free (LastPicture *last)
{
  g_clear_handle_id (&last->expire_source, g_source_remove);
  g_clear_object (&last->texture);
  g_free (last->browser_id);
  g_free (last);
}

static gboolean
last_picture_expired_cb (gpointer user_data)
{
  LastPicture *last = user_data;

  last->expire_source = 0;
  g_hash_table_remove (last->table, last->browser_id);

  return G_SOURCE_REMOVE;
}


static void
step_free (Step *step)
{
  g_clear_object (&step->entry);
  g_clear_pointer (&step->arguments, json_object_unref);
  g_clear_object (&step->view);
  g_clear_object (&step->before);
  g_clear_object (&step->after);
  g_free (step->result_text);
  g_free (step->outcome_url);
  g_clear_pointer (&step->fields, json_array_unref);
  g_clear_pointer (&step->line, json_object_unref);
  g_free (step->session_path);
  g_free (step->image_prefix);
  g_free (step->dir);
  g_clear_pointer (&step->held, g_ptr_array_unref);
  g_clear_object (&step->timeline);
  g_free (step);
}

static gboolean
is_acting (const char *tool)
{
  for (guint i = 0; i < G_N_ELEMENTS (acting_tools); i++)
    if (g_strcmp0 (tool, acting_tools[i]) == 0)
      return TRUE;

  return FALSE;
}

static gboolean
reads_at_once (const char *tool,
               JsonObject *arguments)
{
  if (g_strcmp0 (tool, "browser_console") == 0 && tw_json_get_boolean (arguments, "wait", FALSE))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (reading_tools); i++)
    if (g_strcmp0 (tool, reading_tools[i]) == 0)
      return TRUE;

  return FALSE;
}

/* A file name part from anything an agent calls itself. */
static char *
safe_name (const char *text)
{
  GString *name = g_string_new (NULL);

  for (const char *p = text != NULL ? text : "person"; *p != '\0' && name->len < 40; p++)
    g_string_append_c (name, g_ascii_isalnum (*p) || *p == '-' || *p == '_' ? *p : '_');
  if (name->len == 0)
    g_string_append (name, "person");

  return g_string_free (name, FALSE);
}

char *
tw_timeline_dup_session_path (TwTimeline *self,
                              const char *agent_id)
{
  g_autofree char *agent = NULL;
  g_autofree char *file = NULL;

  g_return_val_if_fail (TW_IS_TIMELINE (self), NULL);

  agent = safe_name (agent_id);
  file = g_strdup_printf ("%s-%s.jsonl", self->run_id, agent);

  return g_build_filename (self->dir, file, NULL);
}

/* The writer thread */

static void settle_waits_done (TwTimeline *self);

static gboolean
step_written_cb (gpointer user_data)
{
  Step *step = user_data;
  g_autoptr(TwTimeline) self = g_object_ref (step->timeline);

  self->pending--;
  self->ended_unwritten--;
  step_free (step);
  if (self->ended_unwritten == 0)
    settle_waits_done (self);

  return G_SOURCE_REMOVE;
}

static void
write_step (gpointer data,
            gpointer user_data)
{
  Step *step = data;

  _tw_timeline_write_line (step);
  /* The step goes back to the main thread, which owns the timeline. */
  g_idle_add_full (G_PRIORITY_DEFAULT, step_written_cb, step, NULL);
}

/* The main thread */


static void
finish_step (Step *step)
{
  TwTimeline *self = step->timeline;
  TwActivityEntry *entry = step->entry;

  g_hash_table_steal (self->steps, step->entry);

  step->line = _tw_timeline_line_build (self->browser, step);
  step->session_path = tw_timeline_dup_session_path (self, tw_activity_entry_get_agent_id (entry));
  step->image_prefix = g_strdup_printf ("%s-%06" G_GUINT64_FORMAT, self->run_id, step->seq);
  step->max_bytes = self->max_bytes;
  step->dir = g_strdup (self->dir);
  g_clear_object (&step->view);

  g_thread_pool_push (self->writer, step, NULL);
}

static void
maybe_finish (Step *step)
{
  if (step->ended && step->waiting == 0)
    finish_step (step);
}

/* The picture after @step is in (@texture, or NULL when there is none):
 * the tab's next call gets it as its picture before, and @step's line is
 * written, then those of the reading calls it held back. */
static void
after_in (Step       *step,
          GdkTexture *texture)
{
  TwTimeline *self = step->timeline;
  const char *browser_id = tw_activity_entry_get_browser_id (step->entry);
  g_autoptr(GPtrArray) held = NULL;

  if (browser_id != NULL && g_hash_table_lookup (self->after_due, browser_id) == step)
    g_hash_table_remove (self->after_due, browser_id);

  if (self->last_after != NULL && browser_id != NULL)
    {
      if (texture != NULL)
        {
          LastPicture *last = g_new0 (LastPicture, 1);

          last->texture = g_object_ref (texture);
          last->taken_us = g_get_monotonic_time ();
          last->table = self->last_after;
          last->browser_id = g_strdup (browser_id);
          last->expire_source = g_timeout_add (REUSE_AFTER_US / 1000, last_picture_expired_cb, last);
          g_hash_table_replace (self->last_after, g_strdup (browser_id), last);
        }
      else
        {
          g_hash_table_remove (self->last_after, browser_id);
        }
    }

  /* The next call's picture before is this one. */
  if (step->next != NULL)
    {
      Step *next = g_steal_pointer (&step->next);

      if (texture != NULL && next->before == NULL)
        next->before = g_object_ref (texture);
      next->waiting--;
      maybe_finish (next);
    }

  held = g_steal_pointer (&step->held);
  for (guint i = 0; held != NULL && i < held->len; i++)
    {
      Step *reader = g_ptr_array_index (held, i);

      if (reader->reading_for == step)
        reader->reading_for = NULL;
    }

  /* Once pushed to the writer, the step is the writer's. */
  step->waiting--;
  maybe_finish (step);

  for (guint i = 0; held != NULL && i < held->len; i++)
    {
      Step *reader = g_ptr_array_index (held, i);

      reader->waiting--;
      maybe_finish (reader);
    }
}

static void
picture_taken (Step          *step,
               GdkTexture   **slot,
               GObject       *view,
               GAsyncResult  *result,
               gboolean       after)
{
  g_autoptr(GdkTexture) texture = NULL;

  texture = webkit_web_view_get_snapshot_finish (WEBKIT_WEB_VIEW (view), result, NULL);
  /* The writer thread reads pictures in memory only. */
  if (texture != NULL && GDK_IS_MEMORY_TEXTURE (texture))
    g_set_object (slot, texture);
  else
    g_clear_object (&texture);

  if (after)
    {
      after_in (step, texture);
      return;
    }

  /* Once pushed to the writer, the step is the writer's. */
  step->waiting--;
  maybe_finish (step);
}

static void
before_taken_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Step *step = user_data;

  picture_taken (step, &step->before, object, result, FALSE);
}

static void
after_taken_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  Step *step = user_data;

  picture_taken (step, &step->after, object, result, TRUE);
}

/* A picture of what the tab shows, asked of WebKit without waiting for
 * it. */
static void
take_picture (Step                *step,
              GAsyncReadyCallback  callback)
{
  step->waiting++;
  webkit_web_view_get_snapshot (step->view, WEBKIT_SNAPSHOT_REGION_VISIBLE,
                                WEBKIT_SNAPSHOT_OPTIONS_NONE, NULL, callback, step);
}

/* Takes the picture after @step now; @next, the tab's call that begins,
 * gets it as its picture before. @step stays the tab's due picture until
 * the picture is in, so that a call beginning meanwhile still gets it. */
static void
take_after (TwTimeline *self,
            Step       *step,
            Step       *next)
{
  const char *browser_id = tw_activity_entry_get_browser_id (step->entry);

  g_assert (!step->after_asked);

  step->after_asked = TRUE;
  step->after_asked_us = g_get_monotonic_time ();
  g_clear_handle_id (&step->after_source, g_source_remove);
  g_clear_handle_id (&step->after_bound, g_source_remove);

  if (next != NULL)
    {
      step->next = next;
      next->waiting++;
    }
  /* A closed tab shows no page any more (a blank one, or none): its step
   * is written without a picture after. */
  if (self->browser == NULL || tw_browser_lookup_tab (self->browser, browser_id) == NULL)
    {
      after_in (step, NULL);
      return;
    }
  /* step->waiting counts it since the call ended. */
  webkit_web_view_get_snapshot (step->view, WEBKIT_SNAPSHOT_REGION_VISIBLE,
                                WEBKIT_SNAPSHOT_OPTIONS_NONE, NULL, after_taken_cb, step);
}

/* The quiet time or the bound ran out, whichever fired: the picture after
 * is taken now. */
static gboolean
after_due_cb (gpointer user_data)
{
  Step *step = user_data;
  guint fired = g_source_get_id (g_main_current_source ());

  if (step->after_source == fired)
    step->after_source = 0;
  if (step->after_bound == fired)
    step->after_bound = 0;
  take_after (step->timeline, step, NULL);

  return G_SOURCE_REMOVE;
}

/* The tab has had no call since now: the picture after is taken unless
 * one begins within AFTER_QUIET_MS. */
static void
after_quiet_from_now (Step *step)
{
  g_clear_handle_id (&step->after_source, g_source_remove);
  step->after_source = g_timeout_add (AFTER_QUIET_MS, after_due_cb, step);
}

/* Takes every picture after that is still due for a reason other than a
 * call reading its tab now: @gone_only, those of tabs that have closed,
 * which are written without one. */
static void
take_due_now (TwTimeline *self,
              gboolean    gone_only)
{
  g_autoptr(GPtrArray) due = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->after_due);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Step *step = value;
      const char *browser_id = tw_activity_entry_get_browser_id (step->entry);

      if (step->after_asked || step->readers > 0)
        continue;
      if (gone_only && self->browser != NULL && tw_browser_lookup_tab (self->browser, browser_id) != NULL)
        continue;
      g_ptr_array_add (due, step);
    }
  for (guint i = 0; i < due->len; i++)
    take_after (self, g_ptr_array_index (due, i), NULL);
}

static WebKitWebView *
lookup_view (TwTimeline *self,
             const char *browser_id)
{
  TwBrowserTab *tab;

  if (self->browser == NULL || browser_id == NULL)
    return NULL;
  tab = tw_browser_lookup_tab (self->browser, browser_id);

  return tab != NULL ? tw_browser_tab_get_view (tab) : NULL;
}

/* The call whose action @action is, while it runs. */
static Step *
step_of_action (TwTimeline  *self,
                TwTabAction *action)
{
  TwActivityEntry *entry;
  Step *step;

  if (self->activity == NULL || action->call_id == 0)
    return NULL;
  entry = tw_activity_log_lookup (self->activity, action->call_id);
  step = entry != NULL ? g_hash_table_lookup (self->steps, entry) : NULL;

  return step != NULL && !step->ended ? step : NULL;
}

/* Where the element was before the action scrolled it into view: where
 * the picture before shows it. */
static void
action_started_cb (TwTimeline   *self,
                   TwTabAction  *action,
                   TwBrowserTab *tab)
{
  Step *step = step_of_action (self, action);

  if (step == NULL || !action->has_rect)
    return;
  step->has_start_rect = TRUE;
  step->start_rect = action->rect;
}

static void
action_finished_cb (TwTimeline   *self,
                    TwTabAction  *action,
                    TwBrowserTab *tab)
{
  Step *step = step_of_action (self, action);
  WebKitWebView *view = tw_browser_tab_get_view (tab);

  if (step == NULL || view == NULL)
    return;
  step->has_point = action->has_point;
  step->point = action->point;
  step->has_rect = action->has_rect;
  step->rect = action->rect;
  step->has_drop = action->has_target_rect;
  step->drop_rect = action->target_rect;
  step->zoom = webkit_web_view_get_zoom_level (view);
  step->view_width = gtk_widget_get_width (GTK_WIDGET (view));
}

static void
watch_tab (TwTimeline   *self,
           TwBrowserTab *tab)
{
  if (g_signal_handler_find (tab, G_SIGNAL_MATCH_FUNC | G_SIGNAL_MATCH_DATA, 0, 0, NULL,
                             action_finished_cb, self) != 0)
    return;
  g_signal_connect_object (tab, "action-started", G_CALLBACK (action_started_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (tab, "action-finished", G_CALLBACK (action_finished_cb), self,
                           G_CONNECT_SWAPPED);
}

static void
tabs_changed_cb (TwTimeline *self,
                 guint       position,
                 guint       removed,
                 guint       added,
                 GListModel *tabs)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (tabs, i);

      watch_tab (self, tab);
    }

  /* A closed tab's step waits for no picture after. */
  if (removed > 0)
    take_due_now (self, TRUE);
}

static void
call_began_cb (TwTimeline      *self,
               TwActivityEntry *entry,
               JsonObject      *arguments,
               TwActivityLog   *log)
{
  const char *browser_id = tw_activity_entry_get_browser_id (entry);
  Step *due = browser_id != NULL ? g_hash_table_lookup (self->after_due, browser_id) : NULL;
  Step *step;
  WebKitWebView *view;

  /* Recorded no more: a call before that still is, on this tab, gets its
   * picture after before this call changes anything. */
  if (self->max_bytes == 0)
    {
      if (due != NULL && !due->after_asked)
        take_after (self, due, NULL);
      return;
    }

  step = g_new0 (Step, 1);
  step->timeline = g_object_ref (self);
  step->seq = ++self->seq;
  step->entry = g_object_ref (entry);
  step->arguments = json_object_ref (arguments);
  self->pending++;

  /* Calls are found again by their entry at the end. */
  g_hash_table_insert (self->steps, entry, step);

  view = is_acting (tw_activity_entry_get_tool (entry)) ? lookup_view (self, browser_id) : NULL;
  if (view != NULL)
    step->view = g_object_ref (view);

  if (due != NULL && reads_at_once (tw_activity_entry_get_tool (entry), arguments))
    {
      /* A call that only reads the page goes first: the picture waits
       * until it has answered, and its line until the picture is in. */
      if (!due->after_asked)
        {
          g_clear_handle_id (&due->after_source, g_source_remove);
          due->readers++;
          step->reading_for = due;
        }
      if (due->held == NULL)
        due->held = g_ptr_array_new ();
      g_ptr_array_add (due->held, step);
      step->waiting++;
    }
  else if (due != NULL && !due->after_asked)
    {
      /* Anything else on the tab comes after the picture after the call
       * before, taken now: it is this call's picture before too. */
      take_after (self, due, view != NULL ? step : NULL);
    }
  else if (due != NULL && view != NULL && due->next == NULL)
    {
      /* The picture after the call before is on its way: it is this
       * call's picture before. */
      due->next = step;
      step->waiting++;
    }

  if (view != NULL && step->before == NULL && step->waiting == 0)
    {
      LastPicture *last = g_hash_table_lookup (self->last_after, browser_id);

      /* The tab's picture after the call just before, when it is recent,
       * is its picture before this one: asking WebKit for another would
       * make the action wait behind it. */
      if (last != NULL && g_get_monotonic_time () - last->taken_us < REUSE_AFTER_US)
        step->before = g_object_ref (last->texture);
      else
        take_picture (step, before_taken_cb);
    }
}

static void
call_ended_cb (TwTimeline      *self,
               TwActivityEntry *entry,
               JsonNode        *result,
               TwActivityLog   *log)
{
  Step *step = g_hash_table_lookup (self->steps, entry);
  WebKitWebView *view;

  if (step == NULL)
    return;

  step->ended = TRUE;
  step->ended_us = g_get_monotonic_time ();
  self->ended_unwritten++;

  /* A read that went before the picture after the call before it has
   * answered: the picture is due once the tab is quiet again. */
  if (step->reading_for != NULL)
    {
      Step *due = g_steal_pointer (&step->reading_for);

      due->readers--;
      if (due->readers == 0 && !due->after_asked)
        after_quiet_from_now (due);
    }

  _tw_timeline_line_take_result (step, result);

  /* A tab that was opened by the call is known only now. */
  view = is_acting (tw_activity_entry_get_tool (entry))
         ? lookup_view (self, tw_activity_entry_get_browser_id (entry)) : NULL;
  if (view != NULL && g_strcmp0 (tw_activity_entry_get_tool (entry), "browser_close_tab") != 0)
    {
      const char *browser_id = tw_activity_entry_get_browser_id (entry);
      Step *due = g_hash_table_lookup (self->after_due, browser_id);

      g_set_object (&step->view, view);
      /* Due once the tab has been quiet for a moment after the reply
       * (the agent waits for no picture), when the tab's next call
       * begins unless that call only reads the page, then once it has
       * answered, and after AFTER_BOUND_MS at the latest. */
      if (due != NULL && !due->after_asked)
        take_after (self, due, NULL);
      step->waiting++;
      after_quiet_from_now (step);
      step->after_bound = g_timeout_add (AFTER_BOUND_MS, after_due_cb, step);
      g_hash_table_replace (self->after_due, g_strdup (browser_id), step);
    }

  maybe_finish (step);
}

/* TwTimeline */

static void
tw_timeline_dispose (GObject *object)
{
  TwTimeline *self = TW_TIMELINE (object);

  if (self->activity != NULL)
    g_signal_handlers_disconnect_by_data (self->activity, self);
  g_clear_object (&self->activity);
  if (self->tabs != NULL)
    g_signal_handlers_disconnect_by_data (self->tabs, self);
  g_clear_object (&self->tabs);
  g_clear_weak_pointer (&self->browser);
  g_clear_pointer (&self->last_after, g_hash_table_unref);
  settle_waits_done (self);

  G_OBJECT_CLASS (tw_timeline_parent_class)->dispose (object);
}

static void
tw_timeline_finalize (GObject *object)
{
  TwTimeline *self = TW_TIMELINE (object);

  /* Every step holds the timeline until it is written: none is left. */
  g_thread_pool_free (self->writer, FALSE, TRUE);
  g_hash_table_unref (self->steps);
  g_hash_table_unref (self->after_due);
  g_ptr_array_unref (self->settle_waits);
  g_free (self->dir);
  g_free (self->run_id);

  G_OBJECT_CLASS (tw_timeline_parent_class)->finalize (object);
}

static void
tw_timeline_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TwTimeline *self = TW_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_MAX_MEGABYTES:
      g_value_set_uint (value, (guint) (self->max_bytes / (1024 * 1024)));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_timeline_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TwTimeline *self = TW_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_MAX_MEGABYTES:
      tw_timeline_set_max_bytes (self, (guint64) g_value_get_uint (value) * 1024 * 1024);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_timeline_class_init (TwTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_timeline_dispose;
  object_class->finalize = tw_timeline_finalize;
  object_class->get_property = tw_timeline_get_property;
  object_class->set_property = tw_timeline_set_property;

  /* The size limit in whole megabytes, as the workspace's setting gives
   * it. */
  properties[PROP_MAX_MEGABYTES] =
    g_param_spec_uint ("max-megabytes", NULL, NULL, 0, G_MAXUINT32 / 2, 0,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tw_timeline_init (TwTimeline *self)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  self->steps = g_hash_table_new (NULL, NULL);
  self->after_due = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->last_after = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                            (GDestroyNotify) last_picture_free);
  self->writer = g_thread_pool_new (write_step, NULL, 1, FALSE, NULL);
  self->settle_waits = g_ptr_array_new ();
  /* Sessions of this run sort after those of earlier runs. */
  self->run_id = g_date_time_format (now, "%Y%m%d-%H%M%S");
}

TwTimeline *
tw_timeline_new (TwBrowser  *browser,
                 const char *dir)
{
  TwTimeline *self;

  g_return_val_if_fail (TW_IS_BROWSER (browser), NULL);
  g_return_val_if_fail (dir != NULL, NULL);

  self = g_object_new (TW_TYPE_TIMELINE, NULL);
  g_set_weak_pointer (&self->browser, browser);
  tw_browser_set_timeline (browser, self);
  self->dir = g_strdup (dir);
  self->activity = g_object_ref (tw_browser_get_activity (browser));
  g_signal_connect_swapped (self->activity, "call-began", G_CALLBACK (call_began_cb), self);
  g_signal_connect_swapped (self->activity, "call-ended", G_CALLBACK (call_ended_cb), self);
  /* The tabs say where each action went, as they tell the overlay. */
  self->tabs = g_object_ref (tw_browser_get_tabs (browser));
  g_signal_connect_swapped (self->tabs, "items-changed", G_CALLBACK (tabs_changed_cb), self);
  tabs_changed_cb (self, 0, 0, g_list_model_get_n_items (self->tabs), self->tabs);

  return self;
}

const char *
tw_timeline_get_dir (TwTimeline *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), NULL);

  return self->dir;
}

guint64
tw_timeline_get_max_bytes (TwTimeline *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), 0);

  return self->max_bytes;
}

void
tw_timeline_set_max_bytes (TwTimeline *self,
                           guint64     max_bytes)
{
  g_return_if_fail (TW_IS_TIMELINE (self));

  if (self->max_bytes == max_bytes)
    return;
  self->max_bytes = max_bytes;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_MEGABYTES]);
}

guint
tw_timeline_get_pending (TwTimeline *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), 0);

  return self->pending;
}

/* Waiting for what ended to be written */

#define SETTLE_MAX_MS 10000

typedef struct
{
  GTask *task;
  guint  timeout;
} SettleWait;

static void
settle_wait_finish (SettleWait *wait)
{
  g_clear_handle_id (&wait->timeout, g_source_remove);
  g_task_return_boolean (wait->task, TRUE);
  g_object_unref (wait->task);
  g_free (wait);
}

static void
settle_waits_done (TwTimeline *self)
{
  g_autoptr(GPtrArray) waits = NULL;

  if (self->settle_waits == NULL || self->settle_waits->len == 0)
    return;
  waits = g_steal_pointer (&self->settle_waits);
  self->settle_waits = g_ptr_array_new ();
  for (guint i = 0; i < waits->len; i++)
    settle_wait_finish (g_ptr_array_index (waits, i));
}

static gboolean
settle_timeout_cb (gpointer user_data)
{
  SettleWait *wait = user_data;
  TwTimeline *self = g_task_get_source_object (wait->task);

  wait->timeout = 0;
  g_ptr_array_remove (self->settle_waits, wait);
  settle_wait_finish (wait);

  return G_SOURCE_REMOVE;
}

void
tw_timeline_settle_async (TwTimeline          *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  SettleWait *wait;

  g_return_if_fail (TW_IS_TIMELINE (self));

  wait = g_new0 (SettleWait, 1);
  wait->task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (wait->task, tw_timeline_settle_async);
  if (self->ended_unwritten == 0)
    {
      settle_wait_finish (wait);
      return;
    }
  /* What was just done is about to be read back: no picture after waits
   * for its quiet time. */
  take_due_now (self, FALSE);
  wait->timeout = g_timeout_add (SETTLE_MAX_MS, settle_timeout_cb, wait);
  g_ptr_array_add (self->settle_waits, wait);
}

gboolean
tw_timeline_settle_finish (TwTimeline    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

TwBrowser *
tw_timeline_get_browser (TwTimeline *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), NULL);

  return self->browser;
}

const char *
_tw_timeline_get_run_id (TwTimeline *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), NULL);

  return self->run_id;
}
