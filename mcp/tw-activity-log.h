/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tw-browser-service.h"

G_BEGIN_DECLS

/* The activity of one workspace: every tool call its agents made, newest
 * last, as a GListModel of TwActivityEntry that the activity feed shows.
 * Tool calls write to it themselves (tw_tool_call_start() and the end of the
 * call), so no tool can be left out; the tab layer adds what only it knows,
 * the role and name of the element an action went to. The model knows
 * nothing of widgets, so it is tested without a display.
 *
 * Signals of the log, for recorders: "call-began" (entry, JsonObject
 * arguments) when a call starts, "call-ended" (entry, JsonNode result, NULL
 * when it failed) when it ends. */

#define TW_ACTIVITY_LOG_DEFAULT_CAPACITY 2000

typedef enum
{
  TW_ACTIVITY_RUNNING,
  TW_ACTIVITY_SUCCEEDED,
  TW_ACTIVITY_FAILED,
} TwActivityState;

#define TW_TYPE_ACTIVITY_ENTRY (tw_activity_entry_get_type ())
G_DECLARE_FINAL_TYPE (TwActivityEntry, tw_activity_entry, TW, ACTIVITY_ENTRY, GObject)

#define TW_TYPE_ACTIVITY_LOG (tw_activity_log_get_type ())
G_DECLARE_FINAL_TYPE (TwActivityLog, tw_activity_log, TW, ACTIVITY_LOG, GObject)

/* One tool call. Entries change while their call runs; "notify" says when. */
/* When the call started, in local time. */
GDateTime       *tw_activity_entry_get_time          (TwActivityEntry *self);
const char      *tw_activity_entry_get_agent_id      (TwActivityEntry *self);
const char      *tw_activity_entry_get_agent_name    (TwActivityEntry *self);
/* "browser_click" */
const char      *tw_activity_entry_get_tool          (TwActivityEntry *self);
/* The tab the call went to (for browser_new_tab, the tab it opened once it
 * did), or NULL. */
const char      *tw_activity_entry_get_browser_id    (TwActivityEntry *self);
/* The ref the call named ("@e7"; the source of a drag), or NULL. */
const char      *tw_activity_entry_get_ref           (TwActivityEntry *self);
/* The role and accessible name of the element the call acted on, as the
 * page reported them; NULL until known, and for calls without an element. */
const char      *tw_activity_entry_get_target_role   (TwActivityEntry *self);
const char      *tw_activity_entry_get_target_name   (TwActivityEntry *self);
/* A short human-readable account of the arguments beyond the target: the
 * URL navigated to, the text typed, the key pressed… or NULL. */
const char      *tw_activity_entry_get_detail        (TwActivityEntry *self);
TwActivityState  tw_activity_entry_get_state         (TwActivityEntry *self);
/* The browser_* code and message of a failed call, else NULL. A call the
 * client cancelled fails with "cancelled". */
const char      *tw_activity_entry_get_error_code    (TwActivityEntry *self);
const char      *tw_activity_entry_get_error_message (TwActivityEntry *self);
/* How long the call took, or has run so far. */
double           tw_activity_entry_get_duration_ms   (TwActivityEntry *self);
/* The target as a person reads it: `button "Save"`, or the ref, or NULL. */
char            *tw_activity_entry_dup_target_label  (TwActivityEntry *self);

TwActivityLog   *tw_activity_log_new                 (guint            capacity);

/* Records the start of a call. @caller's call_id identifies it later; the
 * returned entry belongs to the log. */
TwActivityEntry *tw_activity_log_begin               (TwActivityLog   *self,
                                                      const TwCaller  *caller,
                                                      const char      *tool,
                                                      JsonObject      *arguments);
/* Records the end of a call: @result is its MCP CallToolResult, @error set
 * when it failed. */
void             tw_activity_log_end                 (TwActivityLog   *self,
                                                      guint64          call_id,
                                                      JsonNode        *result,
                                                      const GError    *error);
/* Records something a page did on its own, which the person should see
 * among the calls: e.g. @source "Page", @what "alert", @detail
 * "“Saved” · accepted". The entry has no call id and is finished at once. */
TwActivityEntry *tw_activity_log_add_event           (TwActivityLog   *self,
                                                      const char      *browser_id,
                                                      const char      *source,
                                                      const char      *what,
                                                      const char      *detail);
/* What the page says the call's element is. */
void             tw_activity_log_set_target          (TwActivityLog   *self,
                                                      guint64          call_id,
                                                      const char      *role,
                                                      const char      *name);
/* The entry of a call still in the log, or NULL. */
TwActivityEntry *tw_activity_log_lookup              (TwActivityLog   *self,
                                                      guint64          call_id);
void             tw_activity_log_clear               (TwActivityLog   *self);
/* What the entries keep, in bytes: each entry and the strings it holds,
 * which are cut to a bounded length whatever the call carried. */
gsize            tw_activity_log_get_stored_bytes    (TwActivityLog   *self);

G_END_DECLS
