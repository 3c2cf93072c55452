/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-timeline-step.h"

#include "tw-json.h"

#include <string.h>

struct _TwTimelineStep
{
  GObject  parent_instance;

  guint64  seq;
  char    *time;
  char    *agent_id;
  char    *agent_name;
  char    *tool;
  char    *browser_id;
  char    *target;
  char    *role;
  char    *name;
  char    *arguments;
  char    *result;
  char    *error;
  gboolean ok;
  char    *outcome_url;
  gboolean navigated;
  char    *line;
  JsonArray *fields;
  double   duration_ms;
  char    *before_path;
  char    *after_path;

  /* The action, in the pictures' pixels: [0] after, [1] before. */
  gboolean         has_pointer[2];
  graphene_point_t pointer[2];
  gboolean         has_highlight[2];
  graphene_rect_t  highlight[2];
  gboolean         has_drop;
  graphene_rect_t  drop;
  char            *agent_rgb;
  char            *agent_mark;
};

G_DEFINE_FINAL_TYPE (TwTimelineStep, tw_timeline_step, G_TYPE_OBJECT)

static void
tw_timeline_step_finalize (GObject *object)
{
  TwTimelineStep *self = TW_TIMELINE_STEP (object);

  g_free (self->time);
  g_free (self->agent_id);
  g_free (self->agent_name);
  g_free (self->tool);
  g_free (self->browser_id);
  g_free (self->target);
  g_free (self->role);
  g_free (self->name);
  g_free (self->outcome_url);
  g_free (self->line);
  g_clear_pointer (&self->fields, json_array_unref);
  g_free (self->arguments);
  g_free (self->result);
  g_free (self->error);
  g_free (self->before_path);
  g_free (self->after_path);
  g_free (self->agent_rgb);
  g_free (self->agent_mark);

  G_OBJECT_CLASS (tw_timeline_step_parent_class)->finalize (object);
}

static void
tw_timeline_step_class_init (TwTimelineStepClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_timeline_step_finalize;
}

static void
tw_timeline_step_init (TwTimelineStep *self)
{
}

/* A picture's path inside @dir: only a plain name under images/, so a
 * line can never point elsewhere. */
static char *
picture_path (const char *dir,
              const char *relative)
{
  if (relative == NULL || !g_str_has_prefix (relative, "images/") ||
      strchr (relative + strlen ("images/"), '/') != NULL || strstr (relative, "..") != NULL)
    return NULL;

  return g_build_filename (dir, relative, NULL);
}

static gboolean
read_point (JsonObject       *object,
            const char       *member,
            graphene_point_t *point)
{
  JsonObject *at = tw_json_get_object (object, member);

  if (at == NULL || !json_object_has_member (at, "x") || !json_object_has_member (at, "y"))
    return FALSE;
  graphene_point_init (point, tw_json_get_number (at, "x", 0), tw_json_get_number (at, "y", 0));

  return TRUE;
}

static gboolean
read_rect (JsonObject      *object,
           const char      *member,
           graphene_rect_t *rect)
{
  JsonObject *box = tw_json_get_object (object, member);

  if (box == NULL || !json_object_has_member (box, "width") || !json_object_has_member (box, "height"))
    return FALSE;
  graphene_rect_init (rect, tw_json_get_number (box, "x", 0), tw_json_get_number (box, "y", 0),
                      tw_json_get_number (box, "width", 0), tw_json_get_number (box, "height", 0));

  return TRUE;
}

/* The "action" of a line (tw-timeline.c); lines of older versions have
 * none, and draw nothing. */
static void
read_action (TwTimelineStep *self,
             JsonObject     *action)
{
  JsonObject *before = tw_json_get_object (action, "before");
  const char *rgb = tw_json_get_string (action, "rgb", NULL);

  if (action == NULL)
    return;

  self->has_pointer[0] = read_point (action, "pointer", &self->pointer[0]);
  self->has_highlight[0] = read_rect (action, "highlight", &self->highlight[0]);
  self->has_drop = read_rect (action, "drop", &self->drop);
  /* Where the element did not move, the picture before has them where
   * the picture after has. */
  self->has_pointer[1] = read_point (before, "pointer", &self->pointer[1]);
  if (!self->has_pointer[1])
    {
      self->has_pointer[1] = self->has_pointer[0];
      self->pointer[1] = self->pointer[0];
    }
  self->has_highlight[1] = read_rect (before, "highlight", &self->highlight[1]);
  if (!self->has_highlight[1])
    {
      self->has_highlight[1] = self->has_highlight[0];
      self->highlight[1] = self->highlight[0];
    }

  /* Only a colour as "#rrggbb": it is drawn, never interpreted. */
  if (rgb != NULL && strlen (rgb) == 7 && rgb[0] == '#' && strspn (rgb + 1, "0123456789abcdefABCDEF") == 6)
    {
      self->agent_rgb = g_strdup (rgb);
      self->agent_mark = g_utf8_make_valid (tw_json_get_string (action, "mark", ""), -1);
      if (g_utf8_strlen (self->agent_mark, -1) > 2)
        g_clear_pointer (&self->agent_mark, g_free);
    }
}

TwTimelineStep *
tw_timeline_step_new_from_line (const char *line,
                                const char *dir)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *object;
  JsonObject *element;
  JsonObject *error;
  JsonObject *outcome;
  JsonNode *arguments;
  TwTimelineStep *self;

  g_return_val_if_fail (line != NULL, NULL);
  g_return_val_if_fail (dir != NULL, NULL);

  node = json_from_string (line, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  object = json_node_get_object (node);
  if (tw_json_get_string (object, "tool", NULL) == NULL)
    return NULL;

  self = g_object_new (TW_TYPE_TIMELINE_STEP, NULL);
  self->seq = (guint64) MAX (0, tw_json_get_int (object, "seq", 0));
  self->time = g_strdup (tw_json_get_string (object, "time", NULL));
  self->agent_id = g_strdup (tw_json_get_string (object, "agentId", NULL));
  self->agent_name = g_strdup (tw_json_get_string (object, "agentName", self->agent_id));
  self->tool = g_strdup (tw_json_get_string (object, "tool", NULL));
  self->browser_id = g_strdup (tw_json_get_string (object, "browserId", NULL));
  self->result = g_strdup (tw_json_get_string (object, "result", NULL));
  self->duration_ms = tw_json_get_number (object, "durationMs", 0);

  arguments = json_object_get_member (object, "arguments");
  if (arguments != NULL)
    self->arguments = json_to_string (arguments, FALSE);

  element = tw_json_get_object (object, "element");
  self->role = g_strdup (tw_json_get_string (element, "role", NULL));
  if (self->role != NULL)
    self->name = g_strdup (tw_json_get_string (element, "name", ""));
  if (tw_json_get_string (element, "role", NULL) != NULL)
    self->target = g_strdup_printf ("%s \"%s\"", tw_json_get_string (element, "role", NULL),
                                    tw_json_get_string (element, "name", ""));
  else
    self->target = g_strdup (tw_json_get_string (element, "ref", NULL));

  error = tw_json_get_object (object, "error");
  if (error != NULL)
    self->error = g_strdup_printf ("%s — %s", tw_json_get_string (error, "code", "?"),
                                   tw_json_get_string (error, "message", ""));

  /* Lines of older versions say nothing of success: only an error. */
  self->ok = tw_json_get_boolean (object, "ok", error == NULL);
  outcome = tw_json_get_object (object, "outcome");
  self->outcome_url = g_strdup (tw_json_get_string (outcome, "url", NULL));
  self->navigated = tw_json_get_boolean (outcome, "navigated", FALSE);
  self->line = g_strdup (line);
  if (tw_json_get_array (object, "fields") != NULL)
    self->fields = json_array_ref (tw_json_get_array (object, "fields"));

  self->before_path = picture_path (dir, tw_json_get_string (object, "before", NULL));
  self->after_path = picture_path (dir, tw_json_get_string (object, "after", NULL));
  read_action (self, tw_json_get_object (object, "action"));

  return self;
}

#define GETTER(type, name, field) \
  type \
  tw_timeline_step_get_ ## name (TwTimelineStep *self) \
  { \
    g_return_val_if_fail (TW_IS_TIMELINE_STEP (self), 0); \
    return self->field; \
  }

GETTER (guint64, seq, seq)
GETTER (const char *, time, time)
GETTER (const char *, agent_id, agent_id)
GETTER (const char *, agent_name, agent_name)
GETTER (const char *, tool, tool)
GETTER (const char *, browser_id, browser_id)
GETTER (const char *, target, target)
GETTER (const char *, role, role)
GETTER (const char *, name, name)
GETTER (const char *, arguments, arguments)
GETTER (const char *, result, result)
GETTER (const char *, error, error)
GETTER (gboolean, ok, ok)
GETTER (const char *, outcome_url, outcome_url)
GETTER (gboolean, navigated, navigated)
GETTER (const char *, line, line)
GETTER (double, duration_ms, duration_ms)
GETTER (const char *, before_path, before_path)
GETTER (const char *, after_path, after_path)

guint
tw_timeline_step_get_n_fields (TwTimelineStep *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_STEP (self), 0);

  return self->fields != NULL ? json_array_get_length (self->fields) : 0;
}

static JsonObject *
field_at (TwTimelineStep *self,
          guint           index)
{
  JsonNode *node;

  if (self->fields == NULL || index >= json_array_get_length (self->fields))
    return NULL;
  node = json_array_get_element (self->fields, index);

  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

const char *
tw_timeline_step_get_field_role (TwTimelineStep *self,
                                 guint           index)
{
  g_return_val_if_fail (TW_IS_TIMELINE_STEP (self), NULL);

  return tw_json_get_string (field_at (self, index), "role", NULL);
}

const char *
tw_timeline_step_get_field_name (TwTimelineStep *self,
                                 guint           index)
{
  g_return_val_if_fail (TW_IS_TIMELINE_STEP (self), NULL);

  return tw_json_get_string (field_at (self, index), "name", NULL);
}

gboolean
tw_timeline_step_get_pointer (TwTimelineStep   *self,
                              gboolean          before,
                              graphene_point_t *pointer)
{
  g_return_val_if_fail (TW_IS_TIMELINE_STEP (self), FALSE);
  g_return_val_if_fail (pointer != NULL, FALSE);

  *pointer = self->pointer[before ? 1 : 0];

  return self->has_pointer[before ? 1 : 0];
}

gboolean
tw_timeline_step_get_highlight (TwTimelineStep  *self,
                                gboolean         before,
                                graphene_rect_t *rect)
{
  g_return_val_if_fail (TW_IS_TIMELINE_STEP (self), FALSE);
  g_return_val_if_fail (rect != NULL, FALSE);

  *rect = self->highlight[before ? 1 : 0];

  return self->has_highlight[before ? 1 : 0];
}

gboolean
tw_timeline_step_get_drop (TwTimelineStep  *self,
                           graphene_rect_t *rect)
{
  g_return_val_if_fail (TW_IS_TIMELINE_STEP (self), FALSE);
  g_return_val_if_fail (rect != NULL, FALSE);

  *rect = self->drop;

  return self->has_drop;
}

const char *
tw_timeline_step_get_agent_rgb (TwTimelineStep *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_STEP (self), NULL);

  return self->agent_rgb;
}

const char *
tw_timeline_step_get_agent_mark (TwTimelineStep *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_STEP (self), NULL);

  return self->agent_mark;
}
