/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tw-browser-service.h"

G_BEGIN_DECLS

/* An agent's action on a tab as the person is shown it: what the tab tells
 * the overlay and the activity feed with its action-started,
 * action-updated and action-finished signals. The tab decodes the page's
 * answers into it once; readers use the fields and never see JSON. The
 * tab changes it while the action runs, so a reader that keeps it takes a
 * reference and reads it again on each signal. */
typedef struct
{
  char             *browser_id;
  TwTabCommand      command;
  const char       *tool;          /* "click": tw_tab_command_to_string() */
  char             *agent;         /* the agent's name; "" when unknown */
  char             *agent_id;      /* its id, for its colour; NULL when unknown */
  guint64           call_id;       /* of the tool call, for the activity feed */

  /* What the agent asked for. */
  char             *ref;           /* the element's ref (a drag's sourceRef) */
  char             *target_ref;    /* a drag's drop target */
  char             *text;          /* browser_type */
  char             *value;         /* browser_fill, browser_select */
  char             *key;           /* browser_keypress */
  double            delta_x;       /* browser_scroll, browser_mouse */
  double            delta_y;

  /* What the page said of the element, in CSS pixels of its viewport. */
  char             *role;
  char             *name;
  gboolean          has_rect;
  graphene_rect_t   rect;
  gboolean          has_point;     /* the point acted on */
  graphene_point_t  point;
  gboolean          has_target_rect;
  graphene_rect_t   target_rect;

  /* How it went, once finished. */
  gboolean          finished;
  gboolean          ok;
  const char       *error_code;    /* "browser_stale_ref" when it failed */
} TwTabAction;

#define TW_TYPE_TAB_ACTION (tw_tab_action_get_type ())

GType        tw_tab_action_get_type (void) G_GNUC_CONST;
TwTabAction *tw_tab_action_ref      (TwTabAction *action);
void         tw_tab_action_unref    (TwTabAction *action);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwTabAction, tw_tab_action_unref)

G_END_DECLS
