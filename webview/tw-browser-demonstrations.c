/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-private.h"

#include "tw-browser-tab-private.h"
#include "tw-cancellable.h"
#include "tw-error.h"
#include "tw-json.h"

/* browser_demonstration (issue 33, "Teach"): what the person demonstrated
 * in a tab (tw-browser-tab-demonstrate.c) saved as a flow of the
 * workspace's timeline, which browser_replay runs, and handed to the
 * agents whose calls wait for it. A demonstration that ends while no call
 * waits is kept for the next call on that tab. */

struct _TwBrowserDemonstrations
{
  GPtrArray  *waiters;    /* Waiter */
  GHashTable *unclaimed;  /* browser id -> JsonObject reply */
  guint       n_named;    /* the N of the last "Demonstration N" */
};

typedef struct
{
  TwBrowser    *browser;
  GTask        *task;
  char         *browser_id;
  gint64        timeout_ms;
  guint         timeout_source;
  GSource      *cancel_watch;
} Waiter;

static TwBrowserDemonstrations *
demonstrations_of (TwBrowser *self)
{
  if (self->demonstrations == NULL)
    {
      self->demonstrations = g_new0 (TwBrowserDemonstrations, 1);
      self->demonstrations->waiters = g_ptr_array_new ();
      self->demonstrations->unclaimed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                               (GDestroyNotify) json_object_unref);
    }

  return self->demonstrations;
}

static void
update_request (TwBrowser  *self,
                const char *browser_id)
{
  TwBrowserTab *tab = tw_browser_lookup_tab (self, browser_id);
  GPtrArray *waiters = demonstrations_of (self)->waiters;

  if (tab == NULL)
    return;

  for (guint i = 0; i < waiters->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (waiters, i);
      JsonObject *params = g_object_get_data (G_OBJECT (waiter->task), "params");

      if (g_str_equal (waiter->browser_id, browser_id))
        {
          _tw_browser_tab_set_demonstrate_request (tab, tw_json_get_string (params, "message", ""),
                                                   g_object_get_data (G_OBJECT (waiter->task),
                                                                      "agent"));
          return;
        }
    }
  _tw_browser_tab_set_demonstrate_request (tab, NULL, NULL);
}

/* Takes the waiter out and completes its call with @reply (owned) or
 * @error (owned). */
static void
waiter_finish (Waiter     *waiter,
               JsonObject *reply,
               GError     *error)
{
  TwBrowser *self = waiter->browser;
  g_autofree char *browser_id = g_strdup (waiter->browser_id);

  g_ptr_array_remove (demonstrations_of (self)->waiters, waiter);
  g_clear_handle_id (&waiter->timeout_source, g_source_remove);
  g_clear_pointer (&waiter->cancel_watch, tw_cancellable_unwatch);

  if (reply != NULL)
    g_task_return_pointer (waiter->task, reply, (GDestroyNotify) json_object_unref);
  else
    g_task_return_error (waiter->task, error);

  g_object_unref (waiter->task);
  g_free (waiter->browser_id);
  g_free (waiter);

  if (self->tabs != NULL)
    update_request (self, browser_id);
}

static gboolean
waiter_timeout_cb (gpointer user_data)
{
  Waiter *waiter = user_data;

  waiter->timeout_source = 0;
  waiter_finish (waiter, NULL,
                 g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_TIMEOUT,
                              "the person finished no demonstration in tab %s within %.1f s; "
                              "one they finish later is kept for the next "
                              "browser_demonstration call on the tab",
                              waiter->browser_id, waiter->timeout_ms / 1000.0));

  return G_SOURCE_REMOVE;
}

static void
waiter_cancelled_cb (gpointer user_data)
{
  waiter_finish (user_data, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                       "the call was cancelled"));
}

void
tw_browser_wait_demonstration (TwBrowser              *self,
                               TwBrowserTab           *tab,
                               const TwServiceRequest *request,
                               GTask                  *task)
{
  TwBrowserDemonstrations *demonstrations = demonstrations_of (self);
  const TwCaller *caller = request->caller;
  GCancellable *cancellable = g_task_get_cancellable (task);
  const char *browser_id = tw_browser_tab_get_id (tab);
  gpointer key = NULL;
  JsonObject *reply;
  Waiter *waiter;

  g_assert (TW_IS_BROWSER (self));
  g_assert (G_IS_TASK (task));

  /* Finished before the call came: it is this call's. */
  if (g_hash_table_steal_extended (demonstrations->unclaimed, browser_id, &key, (gpointer *) &reply))
    {
      g_free (key);
      g_task_return_pointer (task, reply, (GDestroyNotify) json_object_unref);
      g_object_unref (task);
      return;
    }

  waiter = g_new0 (Waiter, 1);
  waiter->browser = self;
  waiter->task = task;
  waiter->browser_id = g_strdup (browser_id);
  waiter->timeout_ms = CLAMP (tw_json_get_int (request->params, "timeoutMs", 300000), 1, G_MAXINT);
  g_object_set_data_full (G_OBJECT (task), "params", json_object_ref (request->params),
                          (GDestroyNotify) json_object_unref);
  g_object_set_data_full (G_OBJECT (task), "agent",
                          g_strdup (caller != NULL && caller->agent_name != NULL
                                    ? caller->agent_name : "An agent"), g_free);
  g_ptr_array_add (demonstrations->waiters, waiter);
  waiter->timeout_source = g_timeout_add ((guint) waiter->timeout_ms, waiter_timeout_cb, waiter);
  waiter->cancel_watch = tw_cancellable_watch (cancellable, waiter_cancelled_cb, waiter, NULL);
  update_request (self, browser_id);
}

/* The flow */

static void
set_element (JsonBuilder *builder,
             JsonObject  *step)
{
  json_builder_set_member_name (builder, "element");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "role");
  json_builder_add_string_value (builder, tw_json_get_string (step, "role", "generic"));
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, tw_json_get_string (step, "name", ""));
  json_builder_end_object (builder);
}

/* A step as a line of a flow: the call an agent would have made, with
 * the element by role and name, which is how browser_replay finds it
 * again. */
static char *
flow_line (guint       seq,
           const char *browser_id,
           const char *time,
           const char *action,
           JsonObject *step)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  gboolean on_element = !g_str_equal (action, "navigate") && !g_str_equal (action, "reload");
  JsonObject *outcome = tw_json_get_object (step, "outcome");
  const char *tool;

  if (g_str_equal (action, "fill"))
    tool = "browser_fill";
  else if (g_str_equal (action, "select"))
    tool = "browser_select";
  else if (g_str_equal (action, "press"))
    tool = "browser_keypress";
  else if (g_str_equal (action, "navigate"))
    tool = "browser_navigate";
  else if (g_str_equal (action, "reload"))
    tool = "browser_reload";
  else
    tool = "browser_click";

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "seq");
  json_builder_add_int_value (builder, seq);
  json_builder_set_member_name (builder, "time");
  json_builder_add_string_value (builder, time);
  json_builder_set_member_name (builder, "agentId");
  json_builder_add_string_value (builder, "person");
  json_builder_set_member_name (builder, "agentName");
  json_builder_add_string_value (builder, "The person");
  json_builder_set_member_name (builder, "tool");
  json_builder_add_string_value (builder, tool);
  json_builder_set_member_name (builder, "browserId");
  json_builder_add_string_value (builder, browser_id);
  json_builder_set_member_name (builder, "demonstrated");
  json_builder_add_string_value (builder, action);

  json_builder_set_member_name (builder, "arguments");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "browserId");
  json_builder_add_string_value (builder, browser_id);
  if (on_element)
    {
      /* The ref is found again by role and name when the flow runs. */
      json_builder_set_member_name (builder, "ref");
      json_builder_add_string_value (builder, "demonstrated");
    }
  if (g_str_equal (action, "fill") || g_str_equal (action, "select"))
    {
      json_builder_set_member_name (builder, "value");
      json_builder_add_string_value (builder, tw_json_get_string (step, "value", ""));
    }
  if (g_str_equal (action, "press"))
    {
      json_builder_set_member_name (builder, "key");
      json_builder_add_string_value (builder, "Enter");
    }
  if (g_str_equal (action, "navigate"))
    {
      json_builder_set_member_name (builder, "url");
      json_builder_add_string_value (builder, tw_json_get_string (step, "url", "about:blank"));
    }
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "ok");
  json_builder_add_boolean_value (builder, TRUE);
  if (on_element)
    set_element (builder, step);
  if (g_str_equal (action, "navigate") || outcome != NULL)
    {
      json_builder_set_member_name (builder, "outcome");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "url");
      json_builder_add_string_value (builder, outcome != NULL
                                              ? tw_json_get_string (outcome, "url", "")
                                              : tw_json_get_string (step, "url", ""));
      json_builder_set_member_name (builder, "navigated");
      json_builder_add_boolean_value (builder, TRUE);
      json_builder_end_object (builder);
    }
  json_builder_set_member_name (builder, "result");
  json_builder_add_string_value (builder, "Demonstrated by the person.");
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);

  return json_to_string (root, FALSE);
}

static gboolean
is_web_url (const char *url)
{
  return url != NULL && (g_str_has_prefix (url, "http://") || g_str_has_prefix (url, "https://"));
}

/* The steps as the flow's lines, the page it started on first. */
static GListStore *
flow_steps (TwTimeline      *timeline,
            const char      *browser_id,
            TwDemonstration *demonstration)
{
  GListStore *store = g_list_store_new (TW_TYPE_TIMELINE_STEP);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *time = g_date_time_format_iso8601 (now);
  guint n = demonstration->steps != NULL ? json_array_get_length (demonstration->steps) : 0;
  guint seq = 1;

  if (is_web_url (demonstration->start_url))
    {
      g_autoptr(JsonObject) start = json_object_new ();
      g_autofree char *line = NULL;
      g_autoptr(TwTimelineStep) step = NULL;

      json_object_set_string_member (start, "url", demonstration->start_url);
      line = flow_line (seq++, browser_id, time, "navigate", start);
      step = tw_timeline_step_new_from_line (line, tw_timeline_get_dir (timeline));
      g_list_store_append (store, step);
    }

  for (guint i = 0; i < n; i++)
    {
      JsonObject *object = json_array_get_object_element (demonstration->steps, i);
      g_autofree char *line = flow_line (seq++, browser_id, time,
                                         tw_json_get_string (object, "action", "click"), object);
      g_autoptr(TwTimelineStep) step = tw_timeline_step_new_from_line (line,
                                                                       tw_timeline_get_dir (timeline));

      if (step != NULL)
        g_list_store_append (store, step);
    }

  return store;
}

/* The reply */

static JsonObject *
build_reply (const char      *browser_id,
             TwDemonstration *demonstration,
             const char      *flow,
             const char      *not_saved)
{
  JsonObject *reply = json_object_new ();
  JsonArray *steps = json_array_new ();
  guint n = demonstration->steps != NULL ? json_array_get_length (demonstration->steps) : 0;

  json_object_set_string_member (reply, "browserId", browser_id);
  json_object_set_string_member (reply, "outcome", demonstration->discarded ? "discarded" : "finished");
  if (flow != NULL)
    json_object_set_string_member (reply, "flow", flow);
  if (not_saved != NULL)
    json_object_set_string_member (reply, "notSaved", not_saved);
  if (demonstration->start_url != NULL)
    json_object_set_string_member (reply, "url", demonstration->start_url);

  for (guint i = 0; i < n && !demonstration->discarded; i++)
    {
      JsonObject *step = json_array_get_object_element (demonstration->steps, i);
      JsonObject *item = json_object_new ();
      JsonObject *outcome = tw_json_get_object (step, "outcome");
      static const char * const copied[] = { "action", "role", "name", "value", "key" };

      json_object_set_int_member (item, "step", i + 1);
      for (guint j = 0; j < G_N_ELEMENTS (copied); j++)
        if (tw_json_get_string (step, copied[j], NULL) != NULL)
          json_object_set_string_member (item, copied[j], tw_json_get_string (step, copied[j], NULL));
      if (tw_json_get_boolean (step, "secret", FALSE))
        json_object_set_boolean_member (item, "secret", TRUE);
      if (g_str_equal (tw_json_get_string (step, "action", ""), "navigate"))
        json_object_set_string_member (item, "url", tw_json_get_string (step, "url", ""));
      if (outcome != NULL)
        json_object_set_string_member (item, "navigatedTo", tw_json_get_string (outcome, "url", ""));
      json_array_add_object_element (steps, item);
    }
  json_object_set_array_member (reply, "steps", steps);

  return reply;
}

static void
deliver (TwBrowser  *self,
         const char *browser_id,
         JsonObject *reply)
{
  TwBrowserDemonstrations *demonstrations = demonstrations_of (self);
  gboolean delivered = FALSE;

  for (guint i = demonstrations->waiters->len; i > 0; i--)
    {
      Waiter *waiter = g_ptr_array_index (demonstrations->waiters, i - 1);

      if (!g_str_equal (waiter->browser_id, browser_id))
        continue;
      waiter_finish (waiter, json_object_ref (reply), NULL);
      delivered = TRUE;
    }

  /* Nobody asked yet: the next call on the tab gets it. A discarded one
   * is nothing to keep. */
  if (!delivered && g_strcmp0 (tw_json_get_string (reply, "outcome", NULL), "finished") == 0)
    g_hash_table_replace (demonstrations->unclaimed, g_strdup (browser_id), json_object_ref (reply));
}

typedef struct
{
  TwBrowser  *browser;
  char       *browser_id;
  JsonObject *reply;
} Saving;

static void
flow_saved_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  Saving *saving = user_data;
  g_autoptr(GError) error = NULL;

  if (!tw_timeline_save_flow_finish (TW_TIMELINE (object), result, &error))
    {
      json_object_remove_member (saving->reply, "flow");
      json_object_set_string_member (saving->reply, "notSaved", error->message);
    }
  if (saving->browser->tabs != NULL)
    deliver (saving->browser, saving->browser_id, saving->reply);

  g_object_unref (saving->browser);
  g_free (saving->browser_id);
  json_object_unref (saving->reply);
  g_free (saving);
}

/* "Demonstration N", the first N whose flow is not saved yet. */
static char *
default_name (TwBrowser *self)
{
  TwBrowserDemonstrations *demonstrations = demonstrations_of (self);

  for (;;)
    {
      g_autofree char *name = g_strdup_printf ("Demonstration %u", ++demonstrations->n_named);
      g_autofree char *path = tw_timeline_dup_flow_path (self->timeline, name, NULL);

      if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
        return g_steal_pointer (&name);
    }
}

static void
demonstration_ended_cb (TwBrowserTab    *tab,
                        TwDemonstration *demonstration,
                        TwBrowser       *self)
{
  const char *browser_id = tw_browser_tab_get_id (tab);
  g_autoptr(GListStore) steps = NULL;
  g_autofree char *name = NULL;
  Saving *saving;

  if (demonstration->discarded)
    {
      deliver (self, browser_id, build_reply (browser_id, demonstration, NULL, NULL));
      return;
    }
  if (self->timeline == NULL)
    {
      deliver (self, browser_id,
               build_reply (browser_id, demonstration, NULL,
                            "this workspace keeps no timeline to save flows in"));
      return;
    }

  if (demonstration->name != NULL && tw_timeline_check_flow_name (demonstration->name, NULL))
    name = g_strdup (demonstration->name);
  else
    name = default_name (self);

  steps = flow_steps (self->timeline, browser_id, demonstration);
  saving = g_new0 (Saving, 1);
  saving->browser = g_object_ref (self);
  saving->browser_id = g_strdup (browser_id);
  saving->reply = build_reply (browser_id, demonstration, name, NULL);
  tw_timeline_save_flow_async (self->timeline, name, G_LIST_MODEL (steps), NULL, flow_saved_cb, saving);
}

void
tw_browser_watch_demonstrations (TwBrowser    *self,
                                 TwBrowserTab *tab)
{
  g_signal_connect_object (tab, "demonstration-ended", G_CALLBACK (demonstration_ended_cb), self, 0);
}

char *
tw_browser_dup_next_demonstration_name (TwBrowser *self)
{
  g_autofree char *name = NULL;
  TwBrowserDemonstrations *demonstrations;

  g_return_val_if_fail (TW_IS_BROWSER (self), NULL);

  if (self->timeline == NULL)
    return g_strdup_printf ("Demonstration %u", demonstrations_of (self)->n_named + 1);

  demonstrations = demonstrations_of (self);
  name = default_name (self);
  /* Only a look: the name is taken when a demonstration is saved. */
  demonstrations->n_named--;

  return g_steal_pointer (&name);
}

void
tw_browser_demonstrations_tab_closed (TwBrowser    *self,
                                      TwBrowserTab *tab)
{
  TwBrowserDemonstrations *demonstrations = self->demonstrations;
  const char *browser_id = tw_browser_tab_get_id (tab);

  if (demonstrations == NULL)
    return;

  g_hash_table_remove (demonstrations->unclaimed, browser_id);
  for (guint i = demonstrations->waiters->len; i > 0; i--)
    {
      Waiter *waiter = g_ptr_array_index (demonstrations->waiters, i - 1);

      if (g_str_equal (waiter->browser_id, browser_id))
        waiter_finish (waiter, NULL,
                       g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                                    "tab %s was closed while it waited for a demonstration",
                                    browser_id));
    }
}

void
tw_browser_demonstrations_dispose (TwBrowser *self)
{
  TwBrowserDemonstrations *demonstrations = self->demonstrations;

  if (demonstrations == NULL)
    return;

  while (demonstrations->waiters->len > 0)
    waiter_finish (g_ptr_array_index (demonstrations->waiters, 0), NULL,
                   g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                                        "the workspace's browser closed"));
  g_ptr_array_unref (demonstrations->waiters);
  g_hash_table_unref (demonstrations->unclaimed);
  g_clear_pointer (&self->demonstrations, g_free);
}
