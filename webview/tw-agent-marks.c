/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-agent-marks.h"

#include "tw-browser.h"

/* libadwaita's accent colours, in the order agents get them: neighbours
 * differ in hue and in brightness, and the first four in shape too. Blue
 * comes last, since the person's own clients are drawn in it. */
static const char * const palette[TW_BROWSER_N_AGENT_COLOURS] = {
  "#9141ac", /* purple */
  "#ed5b00", /* orange */
  "#2190a4", /* teal */
  "#d56199", /* pink */
  "#3a944a", /* green */
  "#6f8396", /* slate */
  "#c88800", /* yellow */
  "#e62d42", /* red */
  "#3584e4", /* blue */
};

const char *
tw_agent_marks_get_colour_hex (int colour)
{
  return palette[colour < 0 ? 0 : colour % TW_BROWSER_N_AGENT_COLOURS];
}

typedef struct
{
  int       colour;
  char     *mark;
  gboolean  running;
  /* The order colours were handed out in: a new agent gets a colour no
   * agent had before, or else the one left longest ago. */
  guint     serial;
} AgentMark;

struct _TwAgentMarks
{
  guint       n_colours;
  guint       serial;
  GHashTable *agents;   /* id -> AgentMark */
};

static void
agent_mark_free (AgentMark *mark)
{
  g_free (mark->mark);
  g_free (mark);
}

TwAgentMarks *
tw_agent_marks_new (guint n_colours)
{
  TwAgentMarks *self;

  g_return_val_if_fail (n_colours > 0, NULL);

  self = g_new0 (TwAgentMarks, 1);
  self->n_colours = n_colours;
  self->agents = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) agent_mark_free);

  return self;
}

void
tw_agent_marks_free (TwAgentMarks *self)
{
  if (self == NULL)
    return;

  g_hash_table_unref (self->agents);
  g_free (self);
}

/* Whether a running agent other than @except has @colour (when @mark is
 * NULL) or @mark. */
static gboolean
held_by_other (TwAgentMarks *self,
               AgentMark    *except,
               int           colour,
               const char   *mark)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->agents);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      AgentMark *other = value;

      if (other == except || !other->running)
        continue;
      if (mark == NULL ? other->colour == colour : g_str_equal (other->mark, mark))
        return TRUE;
    }

  return FALSE;
}

/* The last time @colour was handed out, 0 for never. */
static guint
colour_serial (TwAgentMarks *self,
               int           colour)
{
  GHashTableIter iter;
  gpointer value;
  guint serial = 0;

  g_hash_table_iter_init (&iter, self->agents);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      AgentMark *other = value;

      if (other->colour == colour)
        serial = MAX (serial, other->serial);
    }

  return serial;
}

static int
pick_colour (TwAgentMarks *self,
             AgentMark    *mark)
{
  int best = -1;
  guint best_serial = G_MAXUINT;
  guint n_running = 0;
  GHashTableIter iter;
  gpointer value;

  for (guint i = 0; i < self->n_colours; i++)
    {
      guint serial;

      if (held_by_other (self, mark, (int) i, NULL))
        continue;

      serial = colour_serial (self, (int) i);
      if (serial < best_serial)
        {
          best = (int) i;
          best_serial = serial;
        }
    }

  if (best >= 0)
    return best;

  /* More agents than colours: they share, the marks still differ. */
  g_hash_table_iter_init (&iter, self->agents);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    n_running += ((AgentMark *) value)->running && value != mark;

  return (int) (n_running % self->n_colours);
}

static gboolean
try_mark (TwAgentMarks  *self,
          AgentMark     *mark,
          gunichar       c,
          char         **out)
{
  char text[8] = { 0 };

  if (!g_unichar_isalnum (c))
    return FALSE;

  g_unichar_to_utf8 (g_unichar_toupper (c), text);
  if (held_by_other (self, mark, 0, text))
    return FALSE;

  *out = g_strdup (text);
  return TRUE;
}

/* The name's initial; for a second agent of the same kind, the initial of
 * a later word or its number ("Claude Code #2" -> "2"); then the other
 * letters of the name; then any letter or digit. */
static char *
pick_mark (TwAgentMarks *self,
           AgentMark    *mark,
           const char   *name)
{
  static const char spare[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  char *out = NULL;
  gboolean word_start = TRUE;

  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (word_start && try_mark (self, mark, c, &out))
        return out;
      word_start = !g_unichar_isalnum (c);
    }

  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    if (try_mark (self, mark, g_utf8_get_char (p), &out))
      return out;

  for (const char *p = spare; *p != '\0'; p++)
    if (try_mark (self, mark, (gunichar) *p, &out))
      return out;

  /* More running agents than letters and digits. */
  return g_strdup ("?");
}

void
tw_agent_marks_take (TwAgentMarks *self,
                     const char   *agent_id,
                     const char   *name)
{
  AgentMark *mark;

  g_return_if_fail (self != NULL);
  g_return_if_fail (agent_id != NULL);

  if (name == NULL || !g_utf8_validate (name, -1, NULL))
    name = agent_id;

  mark = g_hash_table_lookup (self->agents, agent_id);
  if (mark == NULL)
    {
      mark = g_new0 (AgentMark, 1);
      mark->colour = -1;
      g_hash_table_insert (self->agents, g_strdup (agent_id), mark);
    }

  /* Its own again, unless another running agent has it now. */
  if (mark->colour < 0 || held_by_other (self, mark, mark->colour, NULL))
    {
      mark->colour = pick_colour (self, mark);
      mark->serial = ++self->serial;
    }

  if (mark->mark == NULL || held_by_other (self, mark, 0, mark->mark))
    {
      g_free (mark->mark);
      mark->mark = pick_mark (self, mark, name);
    }

  mark->running = TRUE;
}

void
tw_agent_marks_release (TwAgentMarks *self,
                        const char   *agent_id)
{
  AgentMark *mark;

  g_return_if_fail (self != NULL);
  g_return_if_fail (agent_id != NULL);

  mark = g_hash_table_lookup (self->agents, agent_id);
  if (mark != NULL)
    mark->running = FALSE;
}

gboolean
tw_agent_marks_lookup (TwAgentMarks  *self,
                       const char    *agent_id,
                       int           *colour,
                       const char   **mark)
{
  AgentMark *found;

  g_return_val_if_fail (self != NULL, FALSE);

  found = agent_id != NULL ? g_hash_table_lookup (self->agents, agent_id) : NULL;
  if (colour != NULL)
    *colour = found != NULL ? found->colour : -1;
  if (mark != NULL)
    *mark = found != NULL ? found->mark : NULL;

  return found != NULL;
}
