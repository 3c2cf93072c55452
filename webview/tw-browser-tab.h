/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>

#include "tw-approval.h"
#include "tw-tab-action.h"
#include "tw-tab-log.h"
#include "tw-view-frame.h"

G_BEGIN_DECLS

/* One browser tab: a WebKitWebView of its workspace's network session, the
 * in-page runtime installed into it, and the bookkeeping the browser tools
 * need (who drives the tab, which dialogs the page opened, whether its web
 * process died). Tabs are created by TwBrowser; the UI only observes them. */

#define TW_TYPE_BROWSER_TAB (tw_browser_tab_get_type ())
G_DECLARE_FINAL_TYPE (TwBrowserTab, tw_browser_tab, TW, BROWSER_TAB, GObject)

/* The kinds of script dialogs a page can open, as tool results name them. */
typedef enum
{
  TW_DIALOG_ALERT,
  TW_DIALOG_CONFIRM,
  TW_DIALOG_PROMPT,
  TW_DIALOG_BEFOREUNLOAD,
} TwDialogType;

const char    *tw_dialog_type_to_string         (TwDialogType   type);

/* "b<N>": unique for the whole process, never reused. */
const char    *tw_browser_tab_get_id            (TwBrowserTab  *self);
WebKitWebView *tw_browser_tab_get_view          (TwBrowserTab  *self);
/* The widget that holds the view: windows show the frame, not the view. */
TwViewFrame   *tw_browser_tab_get_frame         (TwBrowserTab  *self);
TwTabLog      *tw_browser_tab_get_log           (TwBrowserTab  *self);

/* The current URL, "" before anything loaded. */
const char    *tw_browser_tab_get_uri           (TwBrowserTab  *self);
/* The page title, "" when the page has none. */
const char    *tw_browser_tab_get_title         (TwBrowserTab  *self);
gboolean       tw_browser_tab_get_loading       (TwBrowserTab  *self);
double         tw_browser_tab_get_progress      (TwBrowserTab  *self);
gboolean       tw_browser_tab_get_can_go_back   (TwBrowserTab  *self);
gboolean       tw_browser_tab_get_can_go_forward (TwBrowserTab *self);
gboolean       tw_browser_tab_get_crashed       (TwBrowserTab  *self);
gboolean       tw_browser_tab_get_unresponsive  (TwBrowserTab  *self);
/* Why the last page failed to load, and which URL it was, until the next
 * load starts; NULL when it did not fail. */
const char    *tw_browser_tab_get_load_error    (TwBrowserTab  *self);
const char    *tw_browser_tab_get_load_error_uri (TwBrowserTab *self);

/* A private tab: on an ephemeral network session of its own, sharing no
 * cookies or storage with the workspace's tabs and keeping nothing once
 * closed (browser_new_tab with private: true). */
gboolean       tw_browser_tab_get_private       (TwBrowserTab  *self);
/* The name of the private context the tab belongs to (browser_new_tab with
 * private: true and a context): its private tabs share one ephemeral
 * session. NULL for other tabs. */
const char    *tw_browser_tab_get_context_name  (TwBrowserTab  *self);

/* Who the tab belongs to (issue 32): the display name and id of the agent
 * that opened it, or that it was handed to; NULL for the person's tab.
 * Other agents may use it only when it is shared, or when the workspace
 * lets agents share every tab (see TwBrowser's "share-tabs"). */
const char    *tw_browser_tab_get_owner         (TwBrowserTab  *self);
const char    *tw_browser_tab_get_owner_id      (TwBrowserTab  *self);
void           tw_browser_tab_set_owner         (TwBrowserTab  *self,
                                                 const char    *owner_id,
                                                 const char    *owner);
/* The first step of an agent that waits in this tab for the person's OK
 * ("approval", notified), or NULL (issue 32). The browser sets it. */
TwApproval    *tw_browser_tab_get_approval      (TwBrowserTab  *self);
void           tw_browser_tab_set_approval      (TwBrowserTab  *self,
                                                 TwApproval    *approval);

/* Whether every agent may use the tab ("shared", notified). */
gboolean       tw_browser_tab_get_shared        (TwBrowserTab  *self);
void           tw_browser_tab_set_shared        (TwBrowserTab  *self,
                                                 gboolean       shared);

/* Watching and steering (DESIGN.md §6).
 *
 * While an agent's action runs, the tab says where it goes, for the overlay
 * that shows it. Each signal carries one JSON object describing the action:
 *   {browserId, tool ("click", "type"…), agent, callId, ref?, sourceRef?,
 *    targetRef?, text?, value?, key?, deltaX?, deltaY?,
 *    role?, name?, rect?: {x, y, width, height}, point?: {x, y},
 *    targetRect?, ok?, errorCode?}
 * with rect, point and targetRect (a drag's drop target) in CSS pixels of
 * the top-level viewport, across same-origin frames.
 *
 *   action-started  (JsonObject *action)  before the action starts
 *   action-updated  (JsonObject *action)  the element's role, name and box
 *                                         became known, or changed when the
 *                                         action scrolled it into view
 *   action-finished (JsonObject *action)  with "ok", and "errorCode" when it
 *                                         failed
 */

/* What agents are told about a tab the person paused. */
#define TW_BROWSER_TAB_PAUSED_MESSAGE \
  "the person paused agents in tab %s to use it themselves; calls on it fail until they " \
  "press Resume"

/* Pausing a tab makes every agent call on it fail at once with
 * browser_denied, including the ones
 * still waiting in its queue; the one running goes on to its end. The
 * "paused" property notifies changes. */
gboolean       tw_browser_tab_get_paused        (TwBrowserTab  *self);
void           tw_browser_tab_set_paused        (TwBrowserTab  *self,
                                                 gboolean       paused);
/* Whether the page is a focused page while an agent drives the tab: it has
 * an owner, is not paused and waits for no handoff (tw-tab-focus.h). TRUE
 * by default; FALSE gives the page the real focus, as the person's tabs
 * have. */
gboolean       tw_browser_tab_get_emulate_focus (TwBrowserTab  *self);
void           tw_browser_tab_set_emulate_focus (TwBrowserTab  *self,
                                                 gboolean       emulate_focus);

/* TRUE while an agent's command runs or waits in the tab ("busy"). */
gboolean       tw_browser_tab_get_busy          (TwBrowserTab  *self);

/* browser_handoff: while an agent waits for the person in this tab, its
 * message and the agent's name ("handoff-message" notifies); NULL
 * otherwise. Answering ends the agent's call with outcome "done" or
 * "cancelled"; FALSE when no handoff was waiting. */
const char    *tw_browser_tab_get_handoff_message (TwBrowserTab *self);
const char    *tw_browser_tab_get_handoff_agent (TwBrowserTab  *self);
gboolean       tw_browser_tab_answer_handoff    (TwBrowserTab  *self,
                                                 gboolean       done);

/* browser_annotate (issue 33, "Teach"): what the person marked on a tab.
 * Boxes and points are in the web view's coordinates (CSS pixels of the
 * viewport at zoom 1); a point has width and height 0. The ui fills one
 * in (TwAnnotationLayer) and sends it. */
typedef struct
{
  double x;
  double y;
  double width;
  double height;
} TwAnnotationMark;

typedef struct _TwAnnotation TwAnnotation;

TwAnnotation  *tw_annotation_new              (void);
void           tw_annotation_free             (TwAnnotation *annotation);
void           tw_annotation_add_box          (TwAnnotation *annotation,
                                               double        x,
                                               double        y,
                                               double        width,
                                               double        height);
void           tw_annotation_add_point        (TwAnnotation *annotation,
                                               double        x,
                                               double        y);
void           tw_annotation_set_note         (TwAnnotation *annotation,
                                               const char   *note);
const char    *tw_annotation_get_note         (TwAnnotation *annotation);
guint          tw_annotation_get_n_marks      (TwAnnotation *annotation);
const TwAnnotationMark *tw_annotation_get_mark (TwAnnotation *annotation,
                                                guint         index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwAnnotation, tw_annotation_free)

/* While an agent's browser_annotate call waits in this tab, what it asks
 * and who asks ("annotate-message" notifies); NULL otherwise. Sending
 * resolves the marked elements' refs, draws the marks on a screenshot and
 * ends the call with them; it takes @annotation. Without a waiting call
 * the annotation is kept and rides along with the next result of a call
 * on this tab. FALSE (and nothing changes) when an annotation of this tab
 * is already on its way or @annotation has no mark and no note.
 * Cancelling ends a waiting call with outcome "cancelled"; FALSE when none
 * waits. */
const char    *tw_browser_tab_get_annotate_message (TwBrowserTab *self);
const char    *tw_browser_tab_get_annotate_agent   (TwBrowserTab *self);
gboolean       tw_browser_tab_send_annotation      (TwBrowserTab *self,
                                                    TwAnnotation *annotation);
gboolean       tw_browser_tab_cancel_annotation    (TwBrowserTab *self);
/* TRUE from sending until the marks are resolved and drawn. */
gboolean       tw_browser_tab_get_annotation_sending (TwBrowserTab *self);

/* Demonstrate (issue 33, "Teach"): while the person records, their own
 * clicks and typing in the tab are kept as steps, by the role and name of
 * the element as browser_snapshot prints it (what an agent's own actions
 * in the tab do meanwhile is not kept). Starting does nothing (FALSE) while
 * a recording runs; "demonstrating" and "demonstrated-steps" notify.
 * Stopping ends the recording: the browser saves the steps as a flow named
 * @name (NULL: "Demonstration N") and hands them to the agents that wait
 * for them (browser_demonstration). Discarding throws them away. Both are
 * FALSE when nothing records. */
gboolean       tw_browser_tab_start_demonstration   (TwBrowserTab *self);
gboolean       tw_browser_tab_get_demonstrating     (TwBrowserTab *self);
guint          tw_browser_tab_get_n_demonstrated_steps (TwBrowserTab *self);
gboolean       tw_browser_tab_stop_demonstration    (TwBrowserTab *self,
                                                     const char   *name);
gboolean       tw_browser_tab_discard_demonstration (TwBrowserTab *self);
/* While an agent's browser_demonstration call waits for this tab, what it
 * asks and who asks ("demonstrate-message" notifies); NULL otherwise. */
const char    *tw_browser_tab_get_demonstrate_message (TwBrowserTab *self);
const char    *tw_browser_tab_get_demonstrate_agent   (TwBrowserTab *self);

/* Loads done by the person (address bar, toolbar). They do not wait for
 * anything and take effect at once; commands of agents still in flight see
 * the navigation as it happens. A URL that is not http(s) is refused with
 * FALSE and @error set (see tw_address_check_url()). */
gboolean       tw_browser_tab_load_uri          (TwBrowserTab  *self,
                                                 const char    *uri,
                                                 GError       **error);
void           tw_browser_tab_go_back           (TwBrowserTab  *self);
void           tw_browser_tab_go_forward        (TwBrowserTab  *self);
void           tw_browser_tab_reload            (TwBrowserTab  *self);
void           tw_browser_tab_stop              (TwBrowserTab  *self);

/* A tab restored from the last session: it reports @uri and @title at once
 * but loads nothing, so a window of many restored tabs starts no web
 * process for them. It loads @uri when it becomes live: on the first
 * command an agent runs in it (which waits for that load) or when the
 * person looks at it (tw_browser_tab_wake()). */
void           tw_browser_tab_defer_load        (TwBrowserTab  *self,
                                                 const char    *uri,
                                                 const char    *title);
gboolean       tw_browser_tab_get_deferred      (TwBrowserTab  *self);

/* A tab that no agent has driven for its rest delay may rest: the window
 * then unmaps it while it is in the background, and WebKit treats it as a
 * hidden page (no animation frames, timers throttled). Before the next command runs
 * the tab wakes, and the command starts once the page sees itself visible
 * and an animation frame has passed. 0 keeps the tab live. The "resting"
 * property notifies changes. */
gboolean       tw_browser_tab_get_resting       (TwBrowserTab  *self);
void           tw_browser_tab_set_rest_delay    (TwBrowserTab  *self,
                                                 guint          rest_ms);
void           tw_browser_tab_wake              (TwBrowserTab  *self);

/* Whether a tab draws with accelerated compositing. By default
 * (TW_TAB_COMPOSITING_SHOWN) a tab draws without it, which costs a
 * fraction of the memory and keeps the page as live, until the person has
 * looked at it (shown for a moment), and with it from then on
 * (tw-browser-tab-drawing.c). */
typedef enum
{
  TW_TAB_COMPOSITING_SHOWN,
  TW_TAB_COMPOSITING_ALWAYS,
  TW_TAB_COMPOSITING_NEVER,
} TwTabCompositing;

void           tw_browser_tab_set_compositing   (TwBrowserTab     *self,
                                                 TwTabCompositing  compositing);
/* Whether the person sees the tab now: the window says so of the tab it
 * shows. */
gboolean       tw_browser_tab_get_shown         (TwBrowserTab  *self);
void           tw_browser_tab_set_shown         (TwBrowserTab  *self,
                                                 gboolean       shown);

/* Where the element @ref names is in the viewport now, in CSS pixels
 * (tw-tab-locate.c). Fails when the page no longer has it. */
void           tw_browser_tab_locate_ref_async  (TwBrowserTab        *self,
                                                 const char          *ref,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean       tw_browser_tab_locate_ref_finish (TwBrowserTab        *self,
                                                 GAsyncResult        *result,
                                                 graphene_rect_t     *rect,
                                                 GError             **error);

G_END_DECLS
