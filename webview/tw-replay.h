/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-browser.h"
#include "tw-timeline-step.h"

G_BEGIN_DECLS

/* A replay runs recorded steps (TwTimelineStep) again in a tab: the
 * actions find their element again by its role and accessible name (the
 * old refs mean nothing on a new page), waits are kept, and the replay
 * stops at the first step whose element or outcome differs, with what was
 * expected and what was found. Steps that only read the page, and calls
 * that failed when recorded, are skipped. It drives the tab through the
 * browser's commands, as a tool call would. */

typedef enum
{
  TW_REPLAY_STEP_PENDING,
  TW_REPLAY_STEP_SAME,     /* ran: the element and the outcome as recorded */
  TW_REPLAY_STEP_SKIPPED,  /* not replayed (reading, or failed when recorded) */
  TW_REPLAY_STEP_DIFFERS,  /* the replay stopped here */
} TwReplayStatus;

#define TW_TYPE_REPLAY (tw_replay_get_type ())
G_DECLARE_FINAL_TYPE (TwReplay, tw_replay, TW, REPLAY, GObject)

/* @first_number is the number of the first step in its session or flow,
 * for the report (1 for the first). */
TwReplay       *tw_replay_new              (TwBrowser           *browser,
                                            GListModel          *steps,
                                            guint                first_number);
/* Runs the steps in the tab @browser_id, or in a new tab when NULL. The
 * result: {browserId, ok, total, replayed, skipped, stoppedAt?, expected?,
 * found?, url?, title?, steps:[{step, tool, target?, status, detail?,
 * expected?, found?}]}. Fails only when it could not start (no tab). */
void            tw_replay_run_async        (TwReplay            *self,
                                            const char          *browser_id,
                                            const TwCaller      *caller,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
JsonObject     *tw_replay_run_finish       (TwReplay            *self,
                                            GAsyncResult        *result,
                                            GError             **error);

guint           tw_replay_get_n_steps      (TwReplay            *self);
TwReplayStatus  tw_replay_get_status       (TwReplay            *self,
                                            guint                position);
/* Why a step was skipped, or what differed; NULL otherwise. */
const char     *tw_replay_get_detail       (TwReplay            *self,
                                            guint                position);
/* For the step that differs: what was recorded and what the replay found. */
const char     *tw_replay_get_expected     (TwReplay            *self,
                                            guint                position);
const char     *tw_replay_get_found        (TwReplay            *self,
                                            guint                position);
/* The tab the replay runs in, once it has one. */
const char     *tw_replay_get_browser_id   (TwReplay            *self);

/* The step's recorded element as the snapshot prints it, `button "Send"`,
 * or NULL. */
char           *tw_replay_describe_element (TwTimelineStep      *step);

G_END_DECLS
