/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-replay.h"

#include "tw-error.h"
#include "tw-json.h"
#include "tw-snapshot-line.h"

#include <string.h>

/* How long an action waits for its element to appear, as a person would
 * wait for a page to show it, and how often it looks. */
#define LOCATE_WAIT_MS   5000
#define LOCATE_RETRY_MS  200
#define SNAPSHOT_CHARS   1000000
#define FOUND_MAX_ELEMENTS 5
/* How long a page an action opens may take to come. */
#define PAGE_WAIT_MS     5000

/* The tools a replay runs again, and the command each runs. */
static const struct
{
  const char   *tool;
  TwTabCommand  command;
  gboolean      navigation;  /* the step is where it goes */
} replayable[] = {
  { "browser_new_tab", TW_TAB_COMMAND_NAVIGATE, TRUE },
  { "browser_navigate", TW_TAB_COMMAND_NAVIGATE, TRUE },
  { "browser_back", TW_TAB_COMMAND_BACK, TRUE },
  { "browser_forward", TW_TAB_COMMAND_FORWARD, TRUE },
  { "browser_reload", TW_TAB_COMMAND_RELOAD, TRUE },
  { "browser_click", TW_TAB_COMMAND_CLICK, FALSE },
  { "browser_fill", TW_TAB_COMMAND_FILL, FALSE },
  { "browser_fill_form", TW_TAB_COMMAND_FILL_FORM, FALSE },
  { "browser_type", TW_TAB_COMMAND_TYPE, FALSE },
  { "browser_keypress", TW_TAB_COMMAND_KEYPRESS, FALSE },
  { "browser_hover", TW_TAB_COMMAND_HOVER, FALSE },
  { "browser_select", TW_TAB_COMMAND_SELECT, FALSE },
  { "browser_upload", TW_TAB_COMMAND_UPLOAD, FALSE },
  { "browser_scroll", TW_TAB_COMMAND_SCROLL, FALSE },
  { "browser_wait", TW_TAB_COMMAND_WAIT, FALSE },
  { "browser_resize", TW_TAB_COMMAND_RESIZE, FALSE },
};

/* Actions a replay cannot repeat by role and name: skipped, and said so
 * (NULL-terminated, for g_strv_contains()). */
static const char * const unrepeatable[] = {
  "browser_drag", "browser_evaluate", "browser_mouse", "browser_handle_dialog",
  "browser_set_content", "browser_emulate", "browser_close_tab", "browser_route",
  "browser_storage", "browser_cookies", "browser_storage_state", "browser_handoff",
  "browser_share_tab", "browser_replay", "browser_save_flow", "browser_pdf", NULL,
};

/* Arguments that belong to the recorded call, not to what it did. */
static const char * const dropped_arguments[] = { "browserId", "ref", "includeDiff" };

typedef struct
{
  TwReplayStatus  status;
  char           *detail;
  char           *expected;
  char           *found;
  char           *ref;
} StepResult;

static void
step_result_clear (StepResult *result)
{
  g_free (result->detail);
  g_free (result->expected);
  g_free (result->found);
  g_free (result->ref);
}

struct _TwReplay
{
  GObject       parent_instance;

  TwBrowser    *browser;
  GPtrArray    *steps;      /* TwTimelineStep */
  GArray       *results;    /* StepResult, one per step */
  guint         first_number;

  GTask        *task;
  char         *agent_id;
  char         *agent_name;
  TwCaller      caller;
  char         *browser_id;
  char         *url;
  char         *title;
  guint         position;
  gboolean      waited_for_page;  /* for the step at position */
  gint64        locate_deadline;
  guint         retry_source;
};

enum {
  STEP_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TwReplay, tw_replay, G_TYPE_OBJECT)

static void run_step (TwReplay *self);

static int
find_replayable (const char *tool)
{
  for (guint i = 0; i < G_N_ELEMENTS (replayable); i++)
    if (g_strcmp0 (tool, replayable[i].tool) == 0)
      return (int) i;

  return -1;
}

static TwTimelineStep *
current_step (TwReplay *self)
{
  return g_ptr_array_index (self->steps, self->position);
}

static StepResult *
current_result (TwReplay *self)
{
  return &g_array_index (self->results, StepResult, self->position);
}

static GCancellable *
cancellable (TwReplay *self)
{
  return g_task_get_cancellable (self->task);
}

/* `button "Send"`, the name's quotes, backslashes and line breaks escaped
 * as in JSON: page words never start a line of a tool's text. */
static void
append_element (GString    *text,
                const char *role,
                const char *name)
{
  g_string_append (text, role);
  if (name == NULL || name[0] == '\0')
    return;

  g_string_append (text, " \"");
  for (const char *p = name; *p != '\0'; p++)
    {
      if (*p == '"' || *p == '\\')
        g_string_append_printf (text, "\\%c", *p);
      else if (*p == '\n')
        g_string_append (text, "\\n");
      else if (*p == '\r')
        g_string_append (text, "\\r");
      else
        g_string_append_c (text, *p);
    }
  g_string_append_c (text, '"');
}

char *
tw_replay_describe_element (TwTimelineStep *step)
{
  GString *text;

  if (tw_timeline_step_get_role (step) == NULL)
    return NULL;
  text = g_string_new (NULL);
  append_element (text, tw_timeline_step_get_role (step), tw_timeline_step_get_name (step));

  return g_string_free (text, FALSE);
}

/* The recorded arguments, as an object; NULL when they were cut short to
 * keep the line small. */
static JsonObject *
step_arguments (TwTimelineStep *step)
{
  g_autoptr(JsonNode) node = NULL;

  if (tw_timeline_step_get_arguments (step) == NULL)
    return json_object_new ();
  node = json_from_string (tw_timeline_step_get_arguments (step), NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;

  return json_object_ref (json_node_get_object (node));
}

/* The end */

static JsonObject *
build_report (TwReplay *self)
{
  JsonObject *report = json_object_new ();
  JsonArray *steps = json_array_new ();
  guint replayed = 0;
  guint skipped = 0;
  int stopped = -1;

  for (guint i = 0; i < self->steps->len; i++)
    {
      TwTimelineStep *step = g_ptr_array_index (self->steps, i);
      StepResult *result = &g_array_index (self->results, StepResult, i);
      JsonObject *item = json_object_new ();
      g_autofree char *target = tw_replay_describe_element (step);
      static const char * const names[] = { "not run", "same", "skipped", "differs" };

      json_object_set_int_member (item, "step", self->first_number + i);
      json_object_set_string_member (item, "tool", tw_timeline_step_get_tool (step));
      if (target != NULL)
        json_object_set_string_member (item, "target", target);
      json_object_set_string_member (item, "status", names[result->status]);
      if (result->detail != NULL)
        json_object_set_string_member (item, "detail", result->detail);
      if (result->expected != NULL)
        json_object_set_string_member (item, "expected", result->expected);
      if (result->found != NULL)
        json_object_set_string_member (item, "found", result->found);
      json_array_add_object_element (steps, item);

      if (result->status == TW_REPLAY_STEP_SAME)
        replayed++;
      else if (result->status == TW_REPLAY_STEP_SKIPPED)
        skipped++;
      else if (result->status == TW_REPLAY_STEP_DIFFERS && stopped < 0)
        stopped = (int) i;
    }

  if (self->browser_id != NULL)
    json_object_set_string_member (report, "browserId", self->browser_id);
  json_object_set_boolean_member (report, "ok", stopped < 0);
  json_object_set_int_member (report, "total", self->steps->len);
  json_object_set_int_member (report, "replayed", replayed);
  json_object_set_int_member (report, "skipped", skipped);
  if (stopped >= 0)
    {
      StepResult *result = &g_array_index (self->results, StepResult, stopped);

      json_object_set_int_member (report, "stoppedAt", self->first_number + stopped);
      if (result->expected != NULL)
        json_object_set_string_member (report, "expected", result->expected);
      if (result->found != NULL)
        json_object_set_string_member (report, "found", result->found);
    }
  if (self->url != NULL)
    json_object_set_string_member (report, "url", self->url);
  if (self->title != NULL)
    json_object_set_string_member (report, "title", self->title);
  json_object_set_array_member (report, "steps", steps);

  return report;
}

static void
finish (TwReplay *self)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  g_clear_handle_id (&self->retry_source, g_source_remove);
  if (g_task_return_error_if_cancelled (task))
    return;
  g_task_return_pointer (task, build_report (self), (GDestroyNotify) json_object_unref);
}

static void
step_done (TwReplay       *self,
           TwReplayStatus  status,
           const char     *detail)
{
  StepResult *result = current_result (self);
  guint position = self->position;

  result->status = status;
  if (detail != NULL)
    result->detail = g_strdup (detail);
  g_signal_emit (self, signals[STEP_FINISHED], 0, position);

  if (status == TW_REPLAY_STEP_DIFFERS)
    {
      finish (self);
      return;
    }

  self->position++;
  self->waited_for_page = FALSE;
  run_step (self);
}

static void
differs (TwReplay   *self,
         const char *detail,
         const char *expected,
         const char *found)
{
  StepResult *result = current_result (self);

  result->expected = g_strdup (expected);
  result->found = g_strdup (found);
  step_done (self, TW_REPLAY_STEP_DIFFERS, detail);
}

/* The reply of the command a step ran, or NULL when there is none to go
 * on with: the replay was cancelled (it is then finished), or the command
 * failed where the recording succeeded (the step then differs). */
static JsonObject *
step_reply (TwReplay     *self,
            GObject      *service,
            GAsyncResult *result)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autofree char *found = NULL;

  reply = tw_browser_service_run_finish (TW_BROWSER_SERVICE (service), result, &error);
  if (g_cancellable_is_cancelled (cancellable (self)))
    {
      finish (self);
      return NULL;
    }
  if (reply != NULL)
    return g_steal_pointer (&reply);

  found = g_strdup_printf ("Error: %s — %s",
                           tw_browser_error_code_name (tw_browser_error_from_gerror (error)),
                           error->message);
  differs (self, "the step failed", "the step succeeds", found);
  return NULL;
}

/* Outcomes */

/* The path of a URL, which a replay reaches again even on another port or
 * with other query values. */
static char *
url_path (const char *url)
{
  g_autoptr(GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;

  if (uri == NULL)
    return g_strdup (url != NULL ? url : "");

  return g_strdup (g_uri_get_path (uri)[0] != '\0' ? g_uri_get_path (uri) : "/");
}

static void
remember_page (TwReplay   *self,
               JsonObject *reply)
{
  if (tw_json_get_string (reply, "url", NULL) != NULL)
    {
      g_free (self->url);
      self->url = g_strdup (tw_json_get_string (reply, "url", NULL));
    }
  if (tw_json_get_string (reply, "title", NULL) != NULL)
    {
      g_free (self->title);
      self->title = g_strdup (tw_json_get_string (reply, "title", NULL));
    }
}

static void page_waited_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data);

/* Whether the step left the tab where the recorded call did. */
static void
check_outcome (TwReplay   *self,
               JsonObject *reply)
{
  TwTimelineStep *step = current_step (self);
  int row = find_replayable (tw_timeline_step_get_tool (step));
  const char *recorded_url = tw_timeline_step_get_outcome_url (step);
  gboolean recorded_navigated = tw_timeline_step_get_navigated (step);
  gboolean navigated = tw_json_get_boolean (reply, "navigated", FALSE);
  g_autofree char *expected_path = url_path (recorded_url);
  g_autofree char *found_path = url_path (tw_json_get_string (reply, "url", NULL));

  remember_page (self, reply);

  if (tw_json_get_int (reply, "failed", 0) > 0)
    {
      g_autofree char *found = g_strdup_printf ("%" G_GINT64_FORMAT " of the fields not filled",
                                                tw_json_get_int (reply, "failed", 0));

      differs (self, "a field could not be filled", "every field filled", found);
      return;
    }

  if (recorded_url == NULL)
    {
      step_done (self, TW_REPLAY_STEP_SAME, NULL);
      return;
    }

  if (replayable[row].navigation || (recorded_navigated && navigated))
    {
      if (g_strcmp0 (expected_path, found_path) != 0)
        {
          g_autofree char *expected = g_strdup_printf ("the tab at %s", expected_path);
          g_autofree char *found = g_strdup_printf ("the tab at %s", found_path);

          differs (self, "the step led to another page", expected, found);
          return;
        }
    }
  else if (recorded_navigated && !navigated && !self->waited_for_page)
    {
      g_autoptr(JsonObject) params = json_object_new ();

      /* A page the action opens may commit after the action's own wait
       * gave up (a busy machine, a slow server): wait for it as a person
       * would, then compare. */
      self->waited_for_page = TRUE;
      json_object_set_string_member (params, "url", expected_path);
      json_object_set_int_member (params, "timeoutMs", PAGE_WAIT_MS);
      tw_browser_service_run_async (TW_BROWSER_SERVICE (self->browser),
                                    &(TwServiceRequest) { TW_TAB_COMMAND_WAIT, self->browser_id,
                                                          params, &self->caller },
                                    cancellable (self), page_waited_cb, g_object_ref (self));
      return;
    }
  else if (recorded_navigated != navigated && !self->waited_for_page)
    {
      g_autofree char *expected = recorded_navigated
                                  ? g_strdup_printf ("the step opens %s", expected_path)
                                  : g_strdup_printf ("the tab stays at %s", expected_path);
      g_autofree char *found = navigated ? g_strdup_printf ("it went to %s", found_path)
                                         : g_strdup_printf ("it stayed at %s", found_path);

      differs (self, "the step did not lead where it did", expected, found);
      return;
    }

  step_done (self, TW_REPLAY_STEP_SAME, NULL);
}

static void
page_waited_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TwReplay) self = user_data;
  g_autoptr(JsonObject) reply = NULL;
  TwTimelineStep *step;
  g_autofree char *expected = NULL;
  g_autofree char *found = NULL;
  g_autofree char *path = NULL;

  reply = tw_browser_service_run_finish (TW_BROWSER_SERVICE (object), result, NULL);
  if (g_cancellable_is_cancelled (cancellable (self)))
    {
      finish (self);
      return;
    }
  if (reply != NULL)
    {
      /* The page came: the outcome is compared as if the action had
       * waited for it. */
      json_object_set_boolean_member (reply, "navigated", TRUE);
      check_outcome (self, reply);
      return;
    }

  step = current_step (self);
  path = url_path (tw_timeline_step_get_outcome_url (step));
  expected = g_strdup_printf ("the step opens %s", path);
  g_free (path);
  path = url_path (self->url);
  found = g_strdup_printf ("it stayed at %s", path);
  differs (self, "the step did not lead where it did", expected, found);
}

static void
command_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TwReplay) self = user_data;
  g_autoptr(JsonObject) reply = step_reply (self, object, result);

  if (reply != NULL)
    check_outcome (self, reply);
}

static void
run_command (TwReplay   *self,
             const char *ref,
             GPtrArray  *field_refs)
{
  TwTimelineStep *step = current_step (self);
  int row = find_replayable (tw_timeline_step_get_tool (step));
  g_autoptr(JsonObject) params = step_arguments (step);

  for (guint i = 0; i < G_N_ELEMENTS (dropped_arguments); i++)
    json_object_remove_member (params, dropped_arguments[i]);
  if (g_str_equal (replayable[row].tool, "browser_new_tab"))
    {
      json_object_remove_member (params, "private");
      json_object_remove_member (params, "context");
    }
  if (ref != NULL)
    json_object_set_string_member (params, "ref", ref);
  if (field_refs != NULL)
    {
      JsonArray *recorded = tw_json_get_array (params, "fields");
      JsonArray *fields = json_array_new ();

      for (guint i = 0; i < field_refs->len; i++)
        {
          JsonObject *field = json_array_get_object_element (recorded, i);
          JsonObject *copy = json_object_new ();

          json_object_set_string_member (copy, "ref", g_ptr_array_index (field_refs, i));
          json_object_set_member (copy, "value", json_node_copy (json_object_get_member (field, "value")));
          json_array_add_object_element (fields, copy);
        }
      json_object_set_array_member (params, "fields", fields);
    }

  tw_browser_service_run_async (TW_BROWSER_SERVICE (self->browser),
                                &(TwServiceRequest) { replayable[row].command, self->browser_id,
                                                      params, &self->caller },
                                cancellable (self), command_done_cb, g_object_ref (self));
}

/* Finding the element again */

/* What the page has instead: elements of the same role, then of the same
 * name. */
static char *
describe_found (const char *role,
                const char *name,
                GArray     *lines)
{
  g_autoptr(GString) found = g_string_new (NULL);
  guint n = 0;

  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < lines->len && n < FOUND_MAX_ELEMENTS; i++)
      {
        TwSnapshotLine *line = &g_array_index (lines, TwSnapshotLine, i);
        gboolean same_role = g_strcmp0 (line->role, role) == 0;

        if (line->ref == NULL || (pass == 0 ? !same_role
                                  : same_role || g_strcmp0 (line->name, name) != 0))
          continue;
        if (found->len > 0)
          g_string_append (found, ", ");
        append_element (found, line->role, line->name);
        n++;
      }

  if (n == 0)
    return g_strdup_printf ("no %s on the page", role);

  return g_string_free (g_steal_pointer (&found), FALSE);
}

static void locate (TwReplay *self);

static gboolean
locate_again_cb (gpointer user_data)
{
  TwReplay *self = user_data;

  self->retry_source = 0;
  locate (self);

  return G_SOURCE_REMOVE;
}

static void
snapshot_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(TwReplay) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) reply = NULL;
  g_autoptr(GArray) lines = g_array_new (FALSE, TRUE, sizeof (TwSnapshotLine));
  g_auto(GStrv) texts = NULL;
  TwTimelineStep *step;
  const char *role;
  const char *name;
  const char *ref = NULL;

  reply = tw_browser_service_run_finish (TW_BROWSER_SERVICE (object), result, &error);
  if (g_cancellable_is_cancelled (cancellable (self)))
    {
      finish (self);
      return;
    }

  step = current_step (self);
  role = tw_timeline_step_get_role (step);
  name = tw_timeline_step_get_name (step);
  g_array_set_clear_func (lines, (GDestroyNotify) tw_snapshot_line_clear);
  texts = g_strsplit (tw_json_get_string (reply, "text", ""), "\n", -1);
  for (guint i = 0; texts[i] != NULL; i++)
    {
      TwSnapshotLine line;

      if (tw_snapshot_line_parse (texts[i], &line))
        g_array_append_val (lines, line);
    }

  if (g_str_equal (tw_timeline_step_get_tool (step), "browser_fill_form"))
    {
      g_autoptr(GPtrArray) refs = g_ptr_array_new ();
      guint n = tw_timeline_step_get_n_fields (step);

      for (guint i = 0; i < n; i++)
        {
          role = tw_timeline_step_get_field_role (step, i);
          name = tw_timeline_step_get_field_name (step, i);
          ref = tw_snapshot_lines_find_ref (lines, role, name);
          if (ref == NULL)
            break;
          g_ptr_array_add (refs, (gpointer) ref);
        }
      if (refs->len == n)
        {
          run_command (self, NULL, refs);
          return;
        }
    }
  else
    {
      ref = tw_snapshot_lines_find_ref (lines, role, name);
      if (ref != NULL)
        {
          current_result (self)->ref = g_strdup (ref);
          run_command (self, ref, NULL);
          return;
        }
    }

  /* Not there yet: the page may still be showing it. */
  if (reply != NULL && g_get_monotonic_time () < self->locate_deadline)
    {
      self->retry_source = g_timeout_add (LOCATE_RETRY_MS, locate_again_cb, self);
      return;
    }

  {
    g_autoptr(GString) expected = g_string_new (NULL);
    g_autofree char *found = reply != NULL ? describe_found (role, name, lines)
                                           : g_strdup_printf ("Error: %s", error->message);

    append_element (expected, role, name);
    differs (self, "the element is not on the page", expected->str, found);
  }
}

static void
locate (TwReplay *self)
{
  g_autoptr(JsonObject) params = json_object_new ();

  json_object_set_int_member (params, "maxChars", SNAPSHOT_CHARS);
  tw_browser_service_run_async (TW_BROWSER_SERVICE (self->browser),
                                &(TwServiceRequest) { TW_TAB_COMMAND_SNAPSHOT, self->browser_id,
                                                      params, &self->caller },
                                cancellable (self), snapshot_done_cb, g_object_ref (self));
}

/* The steps */

static void
new_tab_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(TwReplay) self = user_data;
  /* A first page that failed leaves the tab open (its id is in the
   * message): the step differs. */
  g_autoptr(JsonObject) reply = step_reply (self, object, result);
  TwTimelineStep *step;
  int row;

  if (reply == NULL)
    return;

  g_free (self->browser_id);
  self->browser_id = g_strdup (tw_json_get_string (reply, "browserId", NULL));
  step = current_step (self);
  row = find_replayable (tw_timeline_step_get_tool (step));
  if (replayable[row].command == TW_TAB_COMMAND_NAVIGATE)
    {
      /* Opening the tab on the step's page was the step. */
      check_outcome (self, reply);
      return;
    }

  remember_page (self, reply);
  run_step (self);
}

static void
open_tab (TwReplay *self)
{
  TwTimelineStep *step = current_step (self);
  int row = find_replayable (tw_timeline_step_get_tool (step));
  g_autoptr(JsonObject) arguments = step_arguments (step);
  g_autoptr(JsonObject) params = json_object_new ();
  const char *url = NULL;

  if (replayable[row].command == TW_TAB_COMMAND_NAVIGATE)
    url = tw_json_get_string (arguments, "url", NULL);
  json_object_set_string_member (params, "url", url != NULL ? url : "about:blank");

  /* The browser id is set only by the reply: a failed first page leaves
   * the replay without a tab. */
  tw_browser_service_run_async (TW_BROWSER_SERVICE (self->browser),
                                &(TwServiceRequest) { TW_TAB_COMMAND_NEW_TAB, NULL, params,
                                                      &self->caller },
                                cancellable (self), new_tab_done_cb, g_object_ref (self));
}

static void
run_step (TwReplay *self)
{
  TwTimelineStep *step;
  g_autoptr(JsonObject) arguments = NULL;
  int row;

  if (g_cancellable_is_cancelled (cancellable (self)) || self->position >= self->steps->len)
    {
      finish (self);
      return;
    }

  step = current_step (self);
  row = find_replayable (tw_timeline_step_get_tool (step));
  if (row < 0)
    {
      const char *tool = tw_timeline_step_get_tool (step);

      if (g_strv_contains (unrepeatable, tool))
        {
          g_autofree char *detail = g_strdup_printf ("%s is not replayed", tool);

          step_done (self, TW_REPLAY_STEP_SKIPPED, detail);
        }
      else
        {
          step_done (self, TW_REPLAY_STEP_SKIPPED, "it only reads the page");
        }
      return;
    }
  if (!tw_timeline_step_get_ok (step))
    {
      step_done (self, TW_REPLAY_STEP_SKIPPED, "it failed when it was recorded");
      return;
    }
  arguments = step_arguments (step);
  if (arguments == NULL)
    {
      differs (self, "its arguments were too long to keep", "the step's arguments",
               "only their beginning in the timeline");
      return;
    }

  if (self->browser_id == NULL)
    {
      open_tab (self);
      return;
    }

  /* A tab opened by the recorded call: the replay stays in its one tab,
   * where it opens the page. */
  if (g_str_equal (replayable[row].tool, "browser_new_tab") &&
      tw_json_get_string (arguments, "url", NULL) == NULL)
    {
      step_done (self, TW_REPLAY_STEP_SAME, NULL);
      return;
    }

  if (g_str_equal (replayable[row].tool, "browser_fill_form"))
    {
      JsonArray *fields = tw_json_get_array (arguments, "fields");
      guint n = tw_timeline_step_get_n_fields (step);
      gboolean named = fields != NULL && json_array_get_length (fields) == n;

      for (guint i = 0; named && i < n; i++)
        named = tw_timeline_step_get_field_role (step, i) != NULL;
      if (!named)
        {
          differs (self, "its fields were recorded only by their refs", "the form's fields",
                   "no role and name to find them by");
          return;
        }
      self->locate_deadline = g_get_monotonic_time () + LOCATE_WAIT_MS * G_TIME_SPAN_MILLISECOND;
      locate (self);
      return;
    }

  if (json_object_has_member (arguments, "ref"))
    {
      if (tw_timeline_step_get_role (step) == NULL)
        {
          if (replayable[row].command == TW_TAB_COMMAND_WAIT)
            {
              step_done (self, TW_REPLAY_STEP_SKIPPED, "a wait for a ref is not replayed");
              return;
            }
          differs (self, "its element was recorded only by its ref",
                   tw_json_get_string (arguments, "ref", "an element"),
                   "no role and name to find it by");
          return;
        }
      self->locate_deadline = g_get_monotonic_time () + LOCATE_WAIT_MS * G_TIME_SPAN_MILLISECOND;
      locate (self);
      return;
    }

  run_command (self, NULL, NULL);
}

/* TwReplay */

static void
tw_replay_dispose (GObject *object)
{
  TwReplay *self = TW_REPLAY (object);

  g_clear_handle_id (&self->retry_source, g_source_remove);
  g_clear_object (&self->browser);

  G_OBJECT_CLASS (tw_replay_parent_class)->dispose (object);
}

static void
tw_replay_finalize (GObject *object)
{
  TwReplay *self = TW_REPLAY (object);

  g_ptr_array_unref (self->steps);
  g_array_unref (self->results);
  g_free (self->agent_id);
  g_free (self->agent_name);
  g_free (self->browser_id);
  g_free (self->url);
  g_free (self->title);

  G_OBJECT_CLASS (tw_replay_parent_class)->finalize (object);
}

static void
tw_replay_class_init (TwReplayClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_replay_dispose;
  object_class->finalize = tw_replay_finalize;

  /**
   * TwReplay::step-finished:
   * @position: the step, in the steps given
   *
   * A step was replayed, skipped, or differs (then the replay ends).
   */
  signals[STEP_FINISHED] = g_signal_new ("step-finished", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
tw_replay_init (TwReplay *self)
{
  self->steps = g_ptr_array_new_with_free_func (g_object_unref);
  self->results = g_array_new (FALSE, TRUE, sizeof (StepResult));
  g_array_set_clear_func (self->results, (GDestroyNotify) step_result_clear);
}

TwReplay *
tw_replay_new (TwBrowser  *browser,
               GListModel *steps,
               guint       first_number)
{
  TwReplay *self;
  guint n;

  g_return_val_if_fail (TW_IS_BROWSER (browser), NULL);
  g_return_val_if_fail (G_IS_LIST_MODEL (steps), NULL);

  self = g_object_new (TW_TYPE_REPLAY, NULL);
  self->browser = g_object_ref (browser);
  self->first_number = first_number;
  n = g_list_model_get_n_items (steps);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (self->steps, g_list_model_get_item (steps, i));
  g_array_set_size (self->results, n);

  return self;
}

void
tw_replay_run_async (TwReplay            *self,
                     const char          *browser_id,
                     const TwCaller      *caller,
                     GCancellable        *cancellable_,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_return_if_fail (TW_IS_REPLAY (self));
  g_return_if_fail (self->task == NULL);

  self->task = g_task_new (self, cancellable_, callback, user_data);
  g_task_set_source_tag (self->task, tw_replay_run_async);
  self->browser_id = g_strdup (browser_id);
  if (caller != NULL)
    {
      self->agent_id = g_strdup (caller->agent_id);
      self->agent_name = g_strdup (caller->agent_name);
    }
  self->caller.agent_id = self->agent_id;
  self->caller.agent_name = self->agent_name;
  self->position = 0;

  run_step (self);
}

JsonObject *
tw_replay_run_finish (TwReplay      *self,
                      GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (TW_IS_REPLAY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

guint
tw_replay_get_n_steps (TwReplay *self)
{
  g_return_val_if_fail (TW_IS_REPLAY (self), 0);

  return self->steps->len;
}

static StepResult *
result_at (TwReplay *self,
           guint     position)
{
  return position < self->results->len ? &g_array_index (self->results, StepResult, position)
                                       : NULL;
}

TwReplayStatus
tw_replay_get_status (TwReplay *self,
                      guint     position)
{
  g_return_val_if_fail (TW_IS_REPLAY (self), TW_REPLAY_STEP_PENDING);

  return result_at (self, position) != NULL ? result_at (self, position)->status
                                            : TW_REPLAY_STEP_PENDING;
}

const char *
tw_replay_get_detail (TwReplay *self,
                      guint     position)
{
  g_return_val_if_fail (TW_IS_REPLAY (self), NULL);

  return result_at (self, position) != NULL ? result_at (self, position)->detail : NULL;
}

const char *
tw_replay_get_expected (TwReplay *self,
                        guint     position)
{
  g_return_val_if_fail (TW_IS_REPLAY (self), NULL);

  return result_at (self, position) != NULL ? result_at (self, position)->expected : NULL;
}

const char *
tw_replay_get_found (TwReplay *self,
                     guint     position)
{
  g_return_val_if_fail (TW_IS_REPLAY (self), NULL);

  return result_at (self, position) != NULL ? result_at (self, position)->found : NULL;
}

const char *
tw_replay_get_browser_id (TwReplay *self)
{
  g_return_val_if_fail (TW_IS_REPLAY (self), NULL);

  return self->browser_id;
}
