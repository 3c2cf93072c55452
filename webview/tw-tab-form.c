/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-form.h"

#include "tw-error.h"
#include "tw-tab-actions.h"

/* One field after the other: ask the page what the field is (form.field,
 * webview/runtime/form.js), act on it through the same action run the
 * single-field tools use, and for checkboxes read it again, so that what is
 * reported is what the page shows. */

typedef enum
{
  KIND_FILL,
  KIND_CHECK,
  KIND_SELECT,
} FieldKind;

typedef struct
{
  WebKitWebView       *view;
  TwPageRuntime       *runtime;
  JsonArray           *fields;
  TwTabActionsOptions  options;
  char                *workspace_dir;

  guint                index;
  FieldKind            kind;
  gboolean             want_checked;
  JsonObject          *entry;     /* the report of the field being filled */
  JsonArray           *report;
  JsonObject          *page;      /* url, title, navigated… of the last action */
  GError              *first_error;
  guint                n_filled;
  guint                n_failed;
  guint                n_skipped;
} FormRun;

static void
form_run_free (FormRun *run)
{
  g_clear_object (&run->view);
  g_clear_object (&run->runtime);
  g_clear_pointer (&run->fields, json_array_unref);
  g_clear_pointer (&run->workspace_dir, g_free);
  g_clear_pointer (&run->entry, json_object_unref);
  g_clear_pointer (&run->report, json_array_unref);
  g_clear_pointer (&run->page, json_object_unref);
  g_clear_error (&run->first_error);
  g_free (run);
}

static void next_field (GTask *task);

static const char *
kind_name (FieldKind kind)
{
  switch (kind)
    {
    case KIND_CHECK:
      return "check";
    case KIND_SELECT:
      return "select";
    case KIND_FILL:
    default:
      return "fill";
    }
}

static JsonObject *
error_object (const GError *error)
{
  JsonObject *object = json_object_new ();
  TwBrowserError code = tw_browser_error_from_gerror (error);

  json_object_set_string_member (object, "code", tw_browser_error_code_name (code));
  json_object_set_string_member (object, "message", error->message);

  return object;
}

/* Whether the run must stop because the call was cancelled (it is then
 * over). */
static gboolean
run_cancelled (GTask *task)
{
  return g_task_return_error_if_cancelled (task);
}

static JsonObject *
get_object (JsonObject *object,
            const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static JsonObject *
field_at (FormRun *run,
          guint    index)
{
  JsonNode *node = json_array_get_element (run->fields, index);

  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* Ends the report of the current field with @error (taken): it was not
 * filled. */
static void
field_failed (GTask  *task,
              GError *error)
{
  FormRun *run = g_task_get_task_data (task);
  const char *ref = json_object_get_string_member_with_default (field_at (run, run->index), "ref", "");

  if (run->entry == NULL)
    {
      run->entry = json_object_new ();
      json_object_set_string_member (run->entry, "ref", ref);
    }
  json_object_set_boolean_member (run->entry, "filled", FALSE);
  json_object_set_object_member (run->entry, "error", error_object (error));
  json_array_add_object_element (run->report, g_steal_pointer (&run->entry));
  run->n_failed++;

  if (run->first_error == NULL)
    run->first_error = g_error_new (error->domain, error->code, "%s: %s", ref, error->message);
  g_error_free (error);

  run->index++;
  next_field (task);
}

static void
field_filled (GTask *task)
{
  FormRun *run = g_task_get_task_data (task);

  json_object_set_boolean_member (run->entry, "filled", TRUE);
  json_array_add_object_element (run->report, g_steal_pointer (&run->entry));
  run->n_filled++;

  run->index++;
  next_field (task);
}

static void
copy_page_member (JsonObject  *source,
                  const char  *name,
                  JsonNode    *node,
                  gpointer     user_data)
{
  FormRun *run = user_data;

  if (g_str_equal (name, "url") || g_str_equal (name, "title") ||
      g_str_equal (name, "loading") || g_str_equal (name, "loadError") ||
      (g_str_equal (name, "navigated") &&
       !json_object_get_boolean_member_with_default (run->page, "navigated", FALSE)))
    json_object_set_member (run->page, name, json_node_copy (node));
}

/* The page's answer (an object) to a look at the current field; NULL when
 * the run was cancelled, or when the look failed or the page did not say
 * @what, and then the field failed. */
static JsonNode *
field_answer (GTask        *task,
              GObject      *runtime,
              GAsyncResult *result,
              const char   *what)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (runtime), result, &error);
  if (run_cancelled (task))
    return NULL;
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      field_failed (task, error != NULL ? g_steal_pointer (&error)
                                        : g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                                       "the page did not say %s", what));
      return NULL;
    }

  return g_steal_pointer (&node);
}

static void
checked_again_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonNode) node = field_answer (task, object, result, "what the field shows");
  FormRun *run = g_task_get_task_data (task);
  gboolean checked;

  if (node == NULL)
    return;

  checked = json_object_get_boolean_member_with_default (json_node_get_object (node), "checked", FALSE);
  json_object_set_boolean_member (run->entry, "checked", checked);
  if (checked != run->want_checked)
    {
      field_failed (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_INTERACTABLE,
                                       "it was clicked but is still %s: the page did not let it change",
                                       checked ? "checked" : "not checked"));
      return;
    }

  json_object_set_boolean_member (run->entry, "changed", TRUE);
  field_filled (task);
}

static void
acted_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GError) error = NULL;
  FormRun *run = g_task_get_task_data (task);
  JsonObject *selected;

  answer = tw_tab_actions_run_finish (WEBKIT_WEB_VIEW (object), result, &error);
  if (run_cancelled (task))
    return;
  if (answer == NULL)
    {
      field_failed (task, g_steal_pointer (&error));
      return;
    }

  json_object_foreach_member (answer, copy_page_member, run);

  /* A field whose change took the page elsewhere: what it holds can no
   * longer be read, and the other fields belong to the page that is
   * gone. */
  if (json_object_get_boolean_member_with_default (answer, "navigated", FALSE))
    {
      if (run->kind == KIND_CHECK)
        {
          json_object_set_boolean_member (run->entry, "clicked", TRUE);
          field_failed (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_STALE_REF,
                                           "it was clicked, and the click took the page to %s, so "
                                           "whether it is checked cannot be read",
                                           json_object_get_string_member_with_default (answer, "url", "another page")));
          return;
        }
    }

  switch (run->kind)
    {
    case KIND_CHECK:
      tw_page_runtime_call_async (run->runtime, "form.field", field_at (run, run->index),
                                  g_task_get_cancellable (task), checked_again_cb, g_object_ref (task));
      return;

    case KIND_SELECT:
      selected = get_object (answer, "selected");
      if (selected != NULL)
        {
          json_object_set_string_member (run->entry, "value",
                                         json_object_get_string_member_with_default (selected, "label", ""));
          json_object_set_object_member (run->entry, "selected", json_object_ref (selected));
        }
      json_object_set_boolean_member (run->entry, "changed",
                                      json_object_get_boolean_member_with_default (answer, "changed", TRUE));
      break;

    case KIND_FILL:
    default:
      selected = get_object (answer, "selected");
      if (selected != NULL)
        json_object_set_object_member (run->entry, "selected", json_object_ref (selected));
      json_object_set_string_member (run->entry, "value",
                                     json_object_get_string_member_with_default (answer, "value", ""));
      if (json_object_get_boolean_member_with_default (answer, "changedByPage", FALSE))
        json_object_set_boolean_member (run->entry, "changedByPage", TRUE);
      break;
    }

  field_filled (task);
}

static gboolean
parse_checked (JsonNode  *value,
               gboolean  *checked)
{
  const char *text;

  if (json_node_get_value_type (value) == G_TYPE_BOOLEAN)
    {
      *checked = json_node_get_boolean (value);
      return TRUE;
    }
  if (json_node_get_value_type (value) != G_TYPE_STRING)
    return FALSE;

  text = json_node_get_string (value);
  if (g_ascii_strcasecmp (text, "true") == 0 || g_ascii_strcasecmp (text, "checked") == 0)
    *checked = TRUE;
  else if (g_ascii_strcasecmp (text, "false") == 0 || g_ascii_strcasecmp (text, "unchecked") == 0)
    *checked = FALSE;
  else
    return FALSE;

  return TRUE;
}

static void
probed_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(JsonObject) params = NULL;
  FormRun *run = g_task_get_task_data (task);
  JsonObject *field = field_at (run, run->index);
  JsonNode *value = json_object_get_member (field, "value");
  g_autoptr(JsonNode) node = field_answer (task, object, result, "what the field is");
  JsonObject *probe;
  JsonObject *element;
  const char *kind;
  TwTabCommand command;

  /* A failed field moved the run on: @field is no longer its field. */
  if (node == NULL)
    return;

  probe = json_node_get_object (node);
  element = get_object (probe, "element");
  if (element == NULL)
    {
      field_failed (task, g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INTERNAL,
                                               "the page did not say what the field is"));
      return;
    }
  kind = json_object_get_string_member_with_default (probe, "kind", "fill");
  run->kind = g_str_equal (kind, "check") ? KIND_CHECK : g_str_equal (kind, "select") ? KIND_SELECT : KIND_FILL;

  run->entry = json_object_new ();
  json_object_set_string_member (run->entry, "ref", json_object_get_string_member_with_default (element, "ref", ""));
  json_object_set_string_member (run->entry, "role", json_object_get_string_member_with_default (element, "role", "generic"));
  json_object_set_string_member (run->entry, "name", json_object_get_string_member_with_default (element, "name", ""));
  json_object_set_string_member (run->entry, "kind", kind_name (run->kind));

  params = json_object_new ();
  json_object_set_string_member (params, "ref", json_object_get_string_member (field, "ref"));

  if (run->kind == KIND_CHECK)
    {
      gboolean checked = json_object_get_boolean_member_with_default (probe, "checked", FALSE);
      gboolean radio = json_object_get_boolean_member_with_default (probe, "radio", FALSE);

      if (!JSON_NODE_HOLDS_VALUE (value) || !parse_checked (value, &run->want_checked))
        {
          field_failed (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                           "it is a %s, which takes true (checked) or false (not checked)",
                                           radio ? "radio button" : "checkbox"));
          return;
        }
      if (checked == run->want_checked)
        {
          json_object_set_boolean_member (run->entry, "checked", checked);
          json_object_set_boolean_member (run->entry, "changed", FALSE);
          field_filled (task);
          return;
        }
      if (radio && !run->want_checked)
        {
          json_object_set_boolean_member (run->entry, "checked", checked);
          field_failed (task, g_error_new_literal (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                                   "a radio button cannot be unchecked by itself: set true "
                                                   "on another radio button of its group"));
          return;
        }
      command = TW_TAB_COMMAND_CLICK;
    }
  else
    {
      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        {
          field_failed (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                                           "it is a %s, which takes a string value",
                                           run->kind == KIND_SELECT ? "dropdown" : "text field"));
          return;
        }
      json_object_set_string_member (params, "value", json_node_get_string (value));
      command = run->kind == KIND_SELECT ? TW_TAB_COMMAND_SELECT : TW_TAB_COMMAND_FILL;
    }

  tw_tab_actions_run_async (run->view, run->runtime, command, params, &run->options,
                            g_task_get_cancellable (task), acted_cb, g_object_ref (task));
}

static void
finish_run (GTask *task)
{
  FormRun *run = g_task_get_task_data (task);
  JsonObject *result;

  if (run->n_filled == 0 && run->first_error != NULL)
    {
      GError *error = g_steal_pointer (&run->first_error);

      if (run->n_failed > 1)
        g_prefix_error (&error, "none of the %u fields was filled; the first failed, ", run->n_failed);
      g_task_return_error (task, error);
      return;
    }

  result = json_object_ref (run->page);
  json_object_set_int_member (result, "filled", run->n_filled);
  json_object_set_int_member (result, "failed", run->n_failed);
  json_object_set_int_member (result, "skipped", run->n_skipped);
  json_object_set_array_member (result, "fields", json_array_ref (run->report));
  g_task_return_pointer (task, result, (GDestroyNotify) json_object_unref);
}

static void
next_field (GTask *task)
{
  FormRun *run = g_task_get_task_data (task);
  guint n = json_array_get_length (run->fields);

  if (run->index < n && json_object_get_boolean_member_with_default (run->page, "navigated", FALSE))
    {
      const char *url = json_object_get_string_member_with_default (run->page, "url", "another page");

      for (; run->index < n; run->index++)
        {
          JsonObject *entry = json_object_new ();
          g_autoptr(GError) error = NULL;

          error = g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_STALE_REF,
                               "not filled: an earlier field took the page to %s; take a new snapshot",
                               url);
          json_object_set_string_member (entry, "ref",
                                         json_object_get_string_member_with_default (field_at (run, run->index), "ref", ""));
          json_object_set_boolean_member (entry, "filled", FALSE);
          json_object_set_object_member (entry, "error", error_object (error));
          json_array_add_object_element (run->report, entry);
          run->n_skipped++;
        }
    }

  if (run->index >= n)
    {
      finish_run (task);
      return;
    }

  tw_page_runtime_call_async (run->runtime, "form.field", field_at (run, run->index),
                              g_task_get_cancellable (task), probed_cb, g_object_ref (task));
}

static gboolean
check_fields (JsonArray  *fields,
              GError    **error)
{
  guint n = json_array_get_length (fields);

  if (n == 0 || n > TW_TAB_FORM_MAX_FIELDS)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "fields must list 1 to %d fields", TW_TAB_FORM_MAX_FIELDS);
      return FALSE;
    }

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (fields, i);
      JsonObject *field = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      JsonNode *value = field != NULL ? json_object_get_member (field, "value") : NULL;

      if (field == NULL || !json_object_has_member (field, "ref") ||
          json_node_get_value_type (json_object_get_member (field, "ref")) != G_TYPE_STRING ||
          value == NULL || !JSON_NODE_HOLDS_VALUE (value) ||
          (json_node_get_value_type (value) != G_TYPE_STRING &&
           json_node_get_value_type (value) != G_TYPE_BOOLEAN))
        {
          g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                       "field %u must be {ref, value} with a string value, or true or false for a "
                       "checkbox; nothing was filled", i + 1);
          return FALSE;
        }
    }

  return TRUE;
}

void
tw_tab_form_fill_run (const TwTabJob *job,
                      GTask          *task)
{
  WebKitWebView *view = job->view;
  g_autoptr(GError) error = NULL;
  FormRun *run;
  JsonNode *fields;

  g_return_if_fail (WEBKIT_IS_WEB_VIEW (view));
  g_return_if_fail (TW_IS_PAGE_RUNTIME (job->runtime));
  g_return_if_fail (job->params != NULL);

  fields = json_object_get_member (job->params, "fields");
  if (fields == NULL || !JSON_NODE_HOLDS_ARRAY (fields))
    {
      g_task_return_new_error (task, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "fields must be an array of {ref, value}");
      return;
    }
  if (!check_fields (json_node_get_array (fields), &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  run = g_new0 (FormRun, 1);
  run->view = g_object_ref (view);
  run->runtime = g_object_ref (job->runtime);
  run->fields = json_array_ref (json_node_get_array (fields));
  run->report = json_array_new ();
  run->page = json_object_new ();
  run->workspace_dir = g_strdup (job->workspace_dir);
  run->options.workspace_dir = run->workspace_dir;
  run->options.deadline_us = job->deadline_us;
  g_task_set_task_data (task, run, (GDestroyNotify) form_run_free);

  json_object_set_string_member (run->page, "url", webkit_web_view_get_uri (view) ? : "about:blank");
  json_object_set_string_member (run->page, "title", webkit_web_view_get_title (view) ? : "");

  next_field (task);
}
