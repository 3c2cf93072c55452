/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "tw-action-overlay-private.h"

/* The caption */

#define CAPTION_MAX_CHARS 60

static char *
cut (const char *text,
     glong       max)
{
  g_autofree char *one_line = g_strdup (text != NULL ? text : "");
  glong len;
  g_autofree char *part = NULL;

  g_strdelimit (one_line, "\r\n\t", ' ');
  len = g_utf8_strlen (one_line, -1);
  if (len <= max)
    return g_steal_pointer (&one_line);

  part = g_utf8_substring (one_line, 0, max);
  return g_strconcat (part, "…", NULL);
}

/* “Save”, or the role when the element has no name, or the ref. */
static char *
target_label (const TwTabAction *action)
{
  const char *name = action->name != NULL ? action->name : "";
  const char *role = action->role;
  const char *ref = action->ref;
  g_autofree char *short_name = NULL;

  if (name[0] != '\0')
    {
      short_name = cut (name, 40);
      return g_strdup_printf ("“%s”", short_name);
    }

  if (role != NULL && !g_str_equal (role, "generic"))
    return g_strdup (role);

  return g_strdup (ref);
}

char *
_tw_action_overlay_build_caption (TwActionOverlay *self,
                                  gint64           now_us)
{
  const TwTabAction *action = self->action;
  const char *tool = action->tool;
  const char *agent = action->agent;
  g_autofree char *target = target_label (action);
  g_autofree char *what = NULL;

  if (g_str_equal (tool, "type"))
    {
      const char *text = (action->text != NULL ? action->text : "");
      glong len = g_utf8_strlen (text, -1);
      glong shown = len;
      g_autofree char *typed = NULL;
      g_autofree char *visible = NULL;

      /* The text goes in as the keys do; once the action is over, all of
       * it has. */
      if (!self->finished && _tw_action_overlay_animating (self))
        shown = MIN (len, (now_us - self->started_us) / (TYPE_CHAR_MS * 1000) + 1);

      typed = g_utf8_substring (text, 0, shown);
      visible = cut (typed, CAPTION_MAX_CHARS);
      what = target != NULL
        ? g_strdup_printf (_("type “%s%s” into %s"), visible, shown < len ? "▏" : "", target)
        : g_strdup_printf (_("type “%s%s”"), visible, shown < len ? "▏" : "");
    }
  else if (g_str_equal (tool, "fill"))
    {
      g_autofree char *value =
        cut ((action->value != NULL ? action->value : ""), CAPTION_MAX_CHARS);

      what = g_strdup_printf (_("fill %s with “%s”"), target ? target : "", value);
    }
  else if (g_str_equal (tool, "select"))
    {
      g_autofree char *value =
        cut ((action->value != NULL ? action->value : ""), CAPTION_MAX_CHARS);

      what = g_strdup_printf (_("select “%s” in %s"), value, target ? target : "");
    }
  else if (g_str_equal (tool, "keypress"))
    {
      what = g_strdup_printf (_("press %s"),
                              (action->key != NULL ? action->key : ""));
    }
  else if (g_str_equal (tool, "scroll"))
    {
      double dx = action->delta_x;
      double dy = action->delta_y;
      const char *arrow = fabs (dy) >= fabs (dx) ? (dy >= 0 ? "↓" : "↑") : (dx >= 0 ? "→" : "←");

      what = g_strdup_printf (_("scroll %s %.0f px"), arrow, MAX (fabs (dx), fabs (dy)));
    }
  else if (g_str_equal (tool, "drag"))
    {
      what = g_strdup_printf (_("drag %s"), target ? target : "");
    }
  else if (g_str_equal (tool, "evaluate"))
    {
      what = g_strdup (_("run a script"));
    }
  else
    {
      /* click, hover, upload */
      what = g_strdup_printf ("%s %s", tool, target ? target : "");
    }

  if (self->finished && self->failed)
    {
      const char *code = action->error_code;

      if (code != NULL && agent[0] == '\0')
        return g_strdup_printf ("%s — %s", g_strstrip (what), code);
      if (code != NULL)
        return g_strdup_printf ("%s: %s — %s", agent, g_strstrip (what), code);
    }

  /* Commands that no agent issued (scripts, tests) say only what happens. */
  if (agent[0] == '\0')
    return g_strdup (g_strstrip (what));

  return g_strdup_printf ("%s: %s", agent, g_strstrip (what));
}
