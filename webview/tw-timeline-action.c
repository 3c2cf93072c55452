/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-timeline-private.h"

#include "tw-agent-marks.h"
#include "tw-browser-private.h"

/* The action of a call in its line of the timeline: where the overlay drew
 * the pointer and the highlight, for the video to draw them again. */

/* A tenth of a pixel is enough. */
static double
tenths (double value)
{
  return (double) (gint64) (value * 10 + (value >= 0 ? 0.5 : -0.5)) / 10;
}

/* @member: an object of @n numbers named by @names, each to a tenth. */
static void
add_numbers (JsonObject         *object,
             const char         *member,
             const char * const *names,
             const double       *values,
             guint               n)
{
  JsonObject *numbers = json_object_new ();

  for (guint i = 0; i < n; i++)
    json_object_set_double_member (numbers, names[i], tenths (values[i]));
  json_object_set_object_member (object, member, numbers);
}

static void
add_point (JsonObject             *object,
           const char             *member,
           const graphene_point_t *point)
{
  static const char * const names[] = { "x", "y" };
  const double values[] = { point->x, point->y };

  add_numbers (object, member, names, values, G_N_ELEMENTS (names));
}

static void
add_rect (JsonObject            *object,
          const char            *member,
          const graphene_rect_t *rect)
{
  static const char * const names[] = { "x", "y", "width", "height" };
  const double values[] = { rect->origin.x, rect->origin.y, rect->size.width, rect->size.height };

  add_numbers (object, member, names, values, G_N_ELEMENTS (names));
}

/* Where the overlay drew the pointer and the highlight of the call's
 * action, in the pixels of the call's pictures, and in whose colour: what
 * the video draws again. "before" says where they were in the picture
 * before, when the action first scrolled its element into view. Calls
 * without an element, and lines of older versions, have none. */
void
_tw_timeline_add_action (TwBrowser   *browser,
                         Step        *step,
                         JsonObject  *line)
{
  GdkTexture *picture = step->after != NULL ? step->after : step->before;
  const char *agent_id = tw_activity_entry_get_agent_id (step->entry);
  const char *mark = NULL;
  int colour = -1;
  double picture_width;
  double scale;
  graphene_point_t pointer;
  graphene_point_t shifted;
  graphene_rect_t rect;
  JsonObject *action;

  if ((!step->has_point && !step->has_rect) || step->view_width <= 0)
    return;

  /* The pictures are the viewport in device pixels, made at most
   * TW_TIMELINE_IMAGE_WIDTH across: a CSS pixel is the zoom times their
   * width over the viewport's, whatever the device's scale. */
  picture_width = picture != NULL ? gdk_texture_get_width (picture) : step->view_width;
  scale = step->zoom * MIN (picture_width, TW_TIMELINE_IMAGE_WIDTH) / step->view_width;

  /* The pointer goes to the point acted on, or else to the middle of the
   * element, as in the overlay. */
  if (step->has_point)
    pointer = step->point;
  else
    graphene_rect_get_center (&step->rect, &pointer);

  action = json_object_new ();
  json_object_set_object_member (line, "action", action);
  graphene_point_init (&shifted, pointer.x * scale, pointer.y * scale);
  add_point (action, "pointer", &shifted);
  if (step->has_rect)
    {
      graphene_rect_scale (&step->rect, scale, scale, &rect);
      add_rect (action, "highlight", &rect);
    }
  if (step->has_drop)
    {
      graphene_rect_scale (&step->drop_rect, scale, scale, &rect);
      add_rect (action, "drop", &rect);
    }
  if (step->has_rect && step->has_start_rect &&
      !graphene_point_equal (&step->rect.origin, &step->start_rect.origin))
    {
      JsonObject *before = json_object_new ();

      /* The element moved under the pointer: both by as much. */
      json_object_set_object_member (action, "before", before);
      graphene_point_init (&shifted,
                           (pointer.x - step->rect.origin.x + step->start_rect.origin.x) * scale,
                           (pointer.y - step->rect.origin.y + step->start_rect.origin.y) * scale);
      add_point (before, "pointer", &shifted);
      graphene_rect_scale (&step->start_rect, scale, scale, &rect);
      add_rect (before, "highlight", &rect);
    }
  if (browser != NULL && agent_id != NULL &&
      tw_browser_get_agent_mark (browser, agent_id, &colour, &mark))
    {
      json_object_set_int_member (action, "colour", colour);
      json_object_set_string_member (action, "rgb", tw_agent_marks_get_colour_hex (colour));
      if (mark != NULL)
        json_object_set_string_member (action, "mark", mark);
    }
}
