/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-activity-log.h"

#include "tw-json.h"
#include "tw-error.h"

#include <string.h>

/* How much of a long argument (typed text, a script) an entry keeps. */
#define DETAIL_MAX_CHARS 80
/* Every other string an entry keeps comes from an agent or a page and may be
 * any length (a 1 MB browserId, an error message that echoes it): the log
 * keeps at most this much of each, so an entry stays small whatever a call
 * carried, and so does the feed row that shows it. */
#define FIELD_MAX_CHARS 200
#define MESSAGE_MAX_CHARS 500

struct _TwActivityEntry
{
  GObject          parent_instance;

  guint64          call_id;
  GDateTime       *time;
  gint64           started_us;
  char            *agent_id;
  char            *agent_name;
  char            *tool;
  char            *browser_id;
  char            *ref;
  char            *target_role;
  char            *target_name;
  char            *detail;
  TwActivityState  state;
  char            *error_code;
  char            *error_message;
  double           duration_ms;
};

enum {
  ENTRY_PROP_0,
  ENTRY_PROP_BROWSER_ID,
  ENTRY_PROP_TARGET_ROLE,
  ENTRY_PROP_TARGET_NAME,
  ENTRY_PROP_STATE,
  ENTRY_PROP_ERROR_CODE,
  ENTRY_PROP_DURATION_MS,
  ENTRY_N_PROPS
};

static GParamSpec *entry_properties[ENTRY_N_PROPS];

G_DEFINE_FINAL_TYPE (TwActivityEntry, tw_activity_entry, G_TYPE_OBJECT)

struct _TwActivityLog
{
  GObject     parent_instance;

  GPtrArray  *entries;   /* TwActivityEntry, oldest first */
  GHashTable *by_id;     /* call id -> entry (owned by entries) */
  guint       capacity;
};

enum {
  CALL_BEGAN,
  CALL_ENDED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TwActivityLog, tw_activity_log, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

/* TwActivityEntry */

static void
tw_activity_entry_finalize (GObject *object)
{
  TwActivityEntry *self = TW_ACTIVITY_ENTRY (object);

  g_clear_pointer (&self->time, g_date_time_unref);
  g_clear_pointer (&self->agent_id, g_free);
  g_clear_pointer (&self->agent_name, g_free);
  g_clear_pointer (&self->tool, g_free);
  g_clear_pointer (&self->browser_id, g_free);
  g_clear_pointer (&self->ref, g_free);
  g_clear_pointer (&self->target_role, g_free);
  g_clear_pointer (&self->target_name, g_free);
  g_clear_pointer (&self->detail, g_free);
  g_clear_pointer (&self->error_code, g_free);
  g_clear_pointer (&self->error_message, g_free);

  G_OBJECT_CLASS (tw_activity_entry_parent_class)->finalize (object);
}

static void
tw_activity_entry_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  TwActivityEntry *self = TW_ACTIVITY_ENTRY (object);

  switch (prop_id)
    {
    case ENTRY_PROP_BROWSER_ID:
      g_value_set_string (value, self->browser_id);
      break;

    case ENTRY_PROP_TARGET_ROLE:
      g_value_set_string (value, self->target_role);
      break;

    case ENTRY_PROP_TARGET_NAME:
      g_value_set_string (value, self->target_name);
      break;

    case ENTRY_PROP_STATE:
      g_value_set_int (value, self->state);
      break;

    case ENTRY_PROP_ERROR_CODE:
      g_value_set_string (value, self->error_code);
      break;

    case ENTRY_PROP_DURATION_MS:
      g_value_set_double (value, tw_activity_entry_get_duration_ms (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_activity_entry_class_init (TwActivityEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tw_activity_entry_finalize;
  object_class->get_property = tw_activity_entry_get_property;

  entry_properties[ENTRY_PROP_BROWSER_ID] =
    g_param_spec_string ("browser-id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_TARGET_ROLE] =
    g_param_spec_string ("target-role", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_TARGET_NAME] =
    g_param_spec_string ("target-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL,
                      TW_ACTIVITY_RUNNING, TW_ACTIVITY_FAILED, TW_ACTIVITY_RUNNING,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_ERROR_CODE] =
    g_param_spec_string ("error-code", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_DURATION_MS] =
    g_param_spec_double ("duration-ms", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, ENTRY_N_PROPS, entry_properties);
}

static void
tw_activity_entry_init (TwActivityEntry *self)
{
}

GDateTime *
tw_activity_entry_get_time (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), NULL);

  return self->time;
}

const char *
tw_activity_entry_get_agent_id (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), NULL);

  return self->agent_id;
}

const char *
tw_activity_entry_get_agent_name (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), NULL);

  return self->agent_name;
}

const char *
tw_activity_entry_get_tool (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), NULL);

  return self->tool;
}

const char *
tw_activity_entry_get_browser_id (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), NULL);

  return self->browser_id;
}

const char *
tw_activity_entry_get_ref (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), NULL);

  return self->ref;
}

const char *
tw_activity_entry_get_target_role (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), NULL);

  return self->target_role;
}

const char *
tw_activity_entry_get_target_name (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), NULL);

  return self->target_name;
}

const char *
tw_activity_entry_get_detail (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), NULL);

  return self->detail;
}

TwActivityState
tw_activity_entry_get_state (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), TW_ACTIVITY_RUNNING);

  return self->state;
}

const char *
tw_activity_entry_get_error_code (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), NULL);

  return self->error_code;
}

const char *
tw_activity_entry_get_error_message (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), NULL);

  return self->error_message;
}

double
tw_activity_entry_get_duration_ms (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), 0);

  if (self->state == TW_ACTIVITY_RUNNING)
    return (g_get_monotonic_time () - self->started_us) / 1000.0;

  return self->duration_ms;
}

char *
tw_activity_entry_dup_target_label (TwActivityEntry *self)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_ENTRY (self), NULL);

  if (self->target_role != NULL && self->target_name != NULL && self->target_name[0] != '\0')
    return g_strdup_printf ("%s “%s”", self->target_role, self->target_name);

  if (self->target_role != NULL)
    return self->ref != NULL ? g_strdup_printf ("%s %s", self->target_role, self->ref)
                             : g_strdup (self->target_role);

  return g_strdup (self->ref);
}

/* A copy of @text cut to @max_chars characters, with an ellipsis when cut. */
static char *
bounded_dup (const char *text,
             glong       max_chars)
{
  const char *end;

  if (text == NULL)
    return NULL;

  /* Walks at most @max_chars characters, not the whole string. */
  end = text;
  for (glong i = 0; i < max_chars && *end != '\0'; i++)
    end = g_utf8_next_char (end);

  if (*end == '\0')
    return g_strdup (text);

  return g_strdup_printf ("%.*s…", (int) (end - text), text);
}

static void
entry_set_string (TwActivityEntry  *self,
                  char            **field,
                  const char       *value,
                  int               prop)
{
  g_autofree char *bounded = bounded_dup (value, FIELD_MAX_CHARS);

  if (g_strcmp0 (*field, bounded) == 0)
    return;

  g_free (*field);
  *field = g_steal_pointer (&bounded);
  g_object_notify_by_pspec (G_OBJECT (self), entry_properties[prop]);
}

/* Reading arguments */

static gboolean
get_number (JsonObject *object,
            const char *member,
            double     *value)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      *value = json_node_get_int (node);
      return TRUE;

    case G_TYPE_DOUBLE:
      *value = json_node_get_double (node);
      return TRUE;

    default:
      return FALSE;
    }
}

/* Quotes @text on one line, cut to a length the feed can show. */
static char *
quote (const char *text)
{
  g_autofree char *one_line = g_strdup (text);
  glong len;
  g_autofree char *cut = NULL;

  g_strdelimit (one_line, "\r\n\t", ' ');
  len = g_utf8_strlen (one_line, -1);
  cut = g_utf8_substring (one_line, 0, MIN (len, DETAIL_MAX_CHARS));

  return g_strdup_printf ("“%s%s”", cut, len > DETAIL_MAX_CHARS ? "…" : "");
}

static char *
describe_arguments (const char *tool,
                    JsonObject *arguments)
{
  const char *text;
  double x;
  double y;

  if (arguments == NULL || tool == NULL)
    return NULL;

  if (g_str_equal (tool, "browser_type") && (text = tw_json_get_string (arguments, "text", NULL)) != NULL)
    return quote (text);
  if ((g_str_equal (tool, "browser_fill") || g_str_equal (tool, "browser_select")) &&
      (text = tw_json_get_string (arguments, "value", NULL)) != NULL)
    return quote (text);
  if (g_str_equal (tool, "browser_keypress") && (text = tw_json_get_string (arguments, "key", NULL)) != NULL)
    return g_strdup (text);
  if (g_str_equal (tool, "browser_handoff") && (text = tw_json_get_string (arguments, "message", NULL)) != NULL)
    return quote (text);
  if (g_str_equal (tool, "browser_evaluate") && (text = tw_json_get_string (arguments, "function", NULL)) != NULL)
    return quote (text);
  if (g_str_equal (tool, "browser_drag") && (text = tw_json_get_string (arguments, "targetRef", NULL)) != NULL)
    return g_strdup_printf ("→ %s", text);
  if (g_str_equal (tool, "browser_scroll") &&
      get_number (arguments, "deltaX", &x) && get_number (arguments, "deltaY", &y))
    return g_strdup_printf ("%+.0f, %+.0f", x, y);
  if (g_str_equal (tool, "browser_resize") &&
      get_number (arguments, "width", &x) && get_number (arguments, "height", &y))
    return g_strdup_printf ("%.0f × %.0f", x, y);
  if (g_str_equal (tool, "browser_wait"))
    {
      if ((text = tw_json_get_string (arguments, "text", NULL)) != NULL)
        return quote (text);
      return g_strdup (tw_json_get_string (arguments, "url", NULL));
    }

  /* browser_navigate, browser_new_tab. */
  return g_strdup (tw_json_get_string (arguments, "url", NULL));
}

/* TwActivityLog */

static GType
tw_activity_log_get_item_type (GListModel *model)
{
  return TW_TYPE_ACTIVITY_ENTRY;
}

static guint
tw_activity_log_get_n_items (GListModel *model)
{
  return TW_ACTIVITY_LOG (model)->entries->len;
}

static gpointer
tw_activity_log_get_item (GListModel *model,
                          guint       position)
{
  TwActivityLog *self = TW_ACTIVITY_LOG (model);

  if (position >= self->entries->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->entries, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = tw_activity_log_get_item_type;
  iface->get_n_items = tw_activity_log_get_n_items;
  iface->get_item = tw_activity_log_get_item;
}

static void
tw_activity_log_finalize (GObject *object)
{
  TwActivityLog *self = TW_ACTIVITY_LOG (object);

  g_clear_pointer (&self->by_id, g_hash_table_unref);
  g_clear_pointer (&self->entries, g_ptr_array_unref);

  G_OBJECT_CLASS (tw_activity_log_parent_class)->finalize (object);
}

static void
tw_activity_log_class_init (TwActivityLogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tw_activity_log_finalize;

  /* What a recorder of calls needs beyond the entry: the call's whole
   * arguments when it begins, its whole result when it ends. */
  signals[CALL_BEGAN] = g_signal_new ("call-began", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                      TW_TYPE_ACTIVITY_ENTRY, JSON_TYPE_OBJECT);
  signals[CALL_ENDED] = g_signal_new ("call-ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                                      TW_TYPE_ACTIVITY_ENTRY, JSON_TYPE_NODE);
}

static void
tw_activity_log_init (TwActivityLog *self)
{
  self->entries = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->capacity = TW_ACTIVITY_LOG_DEFAULT_CAPACITY;
}

TwActivityLog *
tw_activity_log_new (guint capacity)
{
  TwActivityLog *self = g_object_new (TW_TYPE_ACTIVITY_LOG, NULL);

  if (capacity > 0)
    self->capacity = capacity;

  return self;
}

TwActivityEntry *
tw_activity_log_lookup (TwActivityLog *self,
                        guint64        call_id)
{
  g_return_val_if_fail (TW_IS_ACTIVITY_LOG (self), NULL);

  return g_hash_table_lookup (self->by_id, &call_id);
}

TwActivityEntry *
tw_activity_log_begin (TwActivityLog  *self,
                       const TwCaller *caller,
                       const char     *tool,
                       JsonObject     *arguments)
{
  TwActivityEntry *entry;
  g_autofree char *detail = NULL;
  const char *ref;
  guint removed = 0;

  g_return_val_if_fail (TW_IS_ACTIVITY_LOG (self), NULL);
  g_return_val_if_fail (caller != NULL, NULL);
  g_return_val_if_fail (tool != NULL, NULL);

  ref = tw_json_get_string (arguments, "ref", NULL);
  if (ref == NULL)
    ref = tw_json_get_string (arguments, "sourceRef", NULL);

  entry = g_object_new (TW_TYPE_ACTIVITY_ENTRY, NULL);
  entry->call_id = caller->call_id;
  entry->time = g_date_time_new_now_local ();
  entry->started_us = g_get_monotonic_time ();
  entry->agent_id = bounded_dup (caller->agent_id, FIELD_MAX_CHARS);
  entry->agent_name = bounded_dup (caller->agent_name != NULL ? caller->agent_name : caller->agent_id,
                                   FIELD_MAX_CHARS);
  entry->tool = bounded_dup (tool, FIELD_MAX_CHARS);
  entry->browser_id = bounded_dup (tw_json_get_string (arguments, "browserId", NULL), FIELD_MAX_CHARS);
  entry->ref = bounded_dup (ref, FIELD_MAX_CHARS);
  detail = describe_arguments (tool, arguments);
  entry->detail = bounded_dup (detail, FIELD_MAX_CHARS);
  entry->state = TW_ACTIVITY_RUNNING;

  /* The oldest entries make room; a long session must not grow forever. */
  while (self->entries->len - removed >= self->capacity)
    {
      TwActivityEntry *old = g_ptr_array_index (self->entries, removed);

      g_hash_table_remove (self->by_id, &old->call_id);
      removed++;
    }
  if (removed > 0)
    g_ptr_array_remove_range (self->entries, 0, removed);

  g_ptr_array_add (self->entries, entry);
  if (entry->call_id != 0)
    g_hash_table_replace (self->by_id, &entry->call_id, entry);

  g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, 0);
  g_list_model_items_changed (G_LIST_MODEL (self), self->entries->len - 1, 0, 1);

  if (entry->call_id != 0 && arguments != NULL)
    g_signal_emit (self, signals[CALL_BEGAN], 0, entry, arguments);

  return entry;
}

TwActivityEntry *
tw_activity_log_add_event (TwActivityLog *self,
                           const char    *browser_id,
                           const char    *source,
                           const char    *what,
                           const char    *detail)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  TwCaller caller = { .agent_id = NULL, .agent_name = source, .call_id = 0 };
  TwActivityEntry *entry;

  g_return_val_if_fail (TW_IS_ACTIVITY_LOG (self), NULL);
  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (what != NULL, NULL);

  if (browser_id != NULL)
    json_object_set_string_member (arguments, "browserId", browser_id);

  /* Not a call: it has no id, and it is over as soon as it is seen. */
  entry = tw_activity_log_begin (self, &caller, what, arguments);
  g_free (entry->detail);
  entry->detail = g_strdup (detail);
  entry->state = TW_ACTIVITY_SUCCEEDED;

  return entry;
}

void
tw_activity_log_end (TwActivityLog *self,
                     guint64        call_id,
                     JsonNode      *result,
                     const GError  *error)
{
  TwActivityEntry *entry;
  JsonObject *structured = NULL;
  JsonObject *element;

  g_return_if_fail (TW_IS_ACTIVITY_LOG (self));

  entry = tw_activity_log_lookup (self, call_id);
  if (entry == NULL || entry->state != TW_ACTIVITY_RUNNING)
    return;

  g_object_freeze_notify (G_OBJECT (entry));

  entry->duration_ms = (g_get_monotonic_time () - entry->started_us) / 1000.0;
  g_object_notify_by_pspec (G_OBJECT (entry), entry_properties[ENTRY_PROP_DURATION_MS]);

  if (result != NULL && JSON_NODE_HOLDS_OBJECT (result))
    structured = tw_json_get_object (json_node_get_object (result), "structuredContent");

  if (error != NULL)
    {
      const char *code;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        code = "cancelled";
      else
        code = tw_browser_error_code_name (tw_browser_error_from_gerror (error));

      entry_set_string (entry, &entry->error_code, code, ENTRY_PROP_ERROR_CODE);
      g_free (entry->error_message);
      entry->error_message = bounded_dup (error->message, MESSAGE_MAX_CHARS);
      entry->state = TW_ACTIVITY_FAILED;
    }
  else
    {
      entry->state = TW_ACTIVITY_SUCCEEDED;
    }

  /* A new tab is known by the id it got. */
  if (entry->browser_id == NULL && tw_json_get_string (structured, "browserId", NULL) != NULL)
    entry_set_string (entry, &entry->browser_id, tw_json_get_string (structured, "browserId", NULL),
                      ENTRY_PROP_BROWSER_ID);

  /* Actions report the element they acted on, named as it was when the
   * agent chose it. */
  element = tw_json_get_object (structured, "element");
  if (element == NULL)
    element = tw_json_get_object (structured, "source");
  if (element != NULL && entry->target_role == NULL && tw_json_get_string (element, "role", NULL) != NULL)
    {
      entry_set_string (entry, &entry->target_role, tw_json_get_string (element, "role", NULL),
                        ENTRY_PROP_TARGET_ROLE);
      entry_set_string (entry, &entry->target_name, tw_json_get_string (element, "name", NULL),
                        ENTRY_PROP_TARGET_NAME);
    }

  g_object_notify_by_pspec (G_OBJECT (entry), entry_properties[ENTRY_PROP_STATE]);
  g_object_thaw_notify (G_OBJECT (entry));

  g_signal_emit (self, signals[CALL_ENDED], 0, entry, result);
}

void
tw_activity_log_set_target (TwActivityLog *self,
                            guint64        call_id,
                            const char    *role,
                            const char    *name)
{
  TwActivityEntry *entry;

  g_return_if_fail (TW_IS_ACTIVITY_LOG (self));

  entry = tw_activity_log_lookup (self, call_id);
  if (entry == NULL || role == NULL)
    return;

  g_object_freeze_notify (G_OBJECT (entry));
  entry_set_string (entry, &entry->target_role, role, ENTRY_PROP_TARGET_ROLE);
  entry_set_string (entry, &entry->target_name, name, ENTRY_PROP_TARGET_NAME);
  g_object_thaw_notify (G_OBJECT (entry));
}

static gsize
string_size (const char *text)
{
  return text != NULL ? strlen (text) + 1 : 0;
}

gsize
tw_activity_log_get_stored_bytes (TwActivityLog *self)
{
  gsize total = 0;

  g_return_val_if_fail (TW_IS_ACTIVITY_LOG (self), 0);

  for (guint i = 0; i < self->entries->len; i++)
    {
      TwActivityEntry *entry = g_ptr_array_index (self->entries, i);

      total += sizeof *entry;
      total += string_size (entry->agent_id) + string_size (entry->agent_name);
      total += string_size (entry->tool) + string_size (entry->browser_id);
      total += string_size (entry->ref) + string_size (entry->target_role);
      total += string_size (entry->target_name) + string_size (entry->detail);
      total += string_size (entry->error_code) + string_size (entry->error_message);
    }

  return total;
}

void
tw_activity_log_clear (TwActivityLog *self)
{
  guint n;

  g_return_if_fail (TW_IS_ACTIVITY_LOG (self));

  n = self->entries->len;
  if (n == 0)
    return;

  g_hash_table_remove_all (self->by_id);
  g_ptr_array_set_size (self->entries, 0);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
}
