/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-load-watch.h"
#include "tw-tab-actions.h"

G_BEGIN_DECLS

/* One interaction command while it runs. tw-tab-actions.c starts and ends
 * the run; the files tw-tab-actions-*.c carry out its parts over the same
 * ActionRun, which a GTask holds as its task data. */

/* An action runs in phases. ACT asks the page runtime to act and, while the
 * element is not actionable yet, asks again on a GLib timer (page timers and
 * animation frames may be throttled or stopped in a background tab). EDIT
 * plays key strokes and WebKit editing commands. CHOOSER waits for the file
 * chooser an upload opened. SETTLE waits for the page to go quiet, and
 * NAVIGATION for a load the action started. Every phase is bounded. */
typedef enum
{
  PHASE_ACT,
  PHASE_EDIT,
  PHASE_CHOOSER,
  PHASE_SETTLE,
  PHASE_RESOURCES,
  PHASE_NAVIGATION,
  PHASE_DONE,
} Phase;

typedef struct
{
  GTask          *task;  /* unowned: the task owns the run */
  WebKitWebView  *view;
  TwPageRuntime  *runtime;
  TwTabCommand    command;
  JsonObject     *params;
  /* The frame of another origin the element is in (its ref's @fN), which
   * every page call of the run goes to; 0 for the main frame. */
  guint64         frame;
  char           *workspace_dir;
  guint           actionable_timeout_ms;
  gint64          limit_us;      /* the command's one time limit, or 0 */
  guint           settle_timeout_ms;
  guint           script_timeout_ms;

  Phase           phase;
  gboolean        acted;
  gint64          started_us;
  JsonObject     *result;
  JsonNode       *previous_box;
  gint64          deadline_us;
  gint64          settle_deadline_us;
  char           *start_uri;
  /* The main frame's title as the page said it when it settled (NULL: not
   * said since the last load), and whether it was asked for after. */
  char           *page_title;
  gboolean        title_asked;
  GCancellable   *step_cancellable;
  GSource        *cancel_watch;
  /* The run's one timer, and what it does when it fires. */
  guint           timer_id;
  void          (*timer_fired)(GTask *task);

  /* What the page did meanwhile: the loads the action started, and its
   * requests. */
  TwLoadWatch    *watch;
  GTask          *load_hold;     /* keeps the run alive while it waits for a load */
  gulong          resource_id;
  gulong          chooser_id;
  GHashTable     *pending_resources;

  /* browser_type: the keys still to press. */
  GPtrArray      *keys;
  guint           key_index;
  guint           key_sent;

  /* browser_upload. */
  GStrv           files;
  gboolean        chooser_answered;
  GError         *chooser_error;

  /* browser_evaluate. */
  char           *nonce;

  /* Who hears where the action went. */
  TwTabActionsActedFunc acted_func;
  gpointer        acted_data;
  GDestroyNotify  acted_destroy;
} ActionRun;

/* Step calls: key strokes, checks after a fill or an upload. */
typedef void (*StepFunc) (GTask *task, JsonObject *answer);

/* tw-tab-actions.c: the run itself. */
void       _tw_tab_actions_run_start_timer             (GTask              *task,
                                                        guint               ms,
                                                        void              (*fired)(GTask *task));
gboolean   _tw_tab_actions_run_is_done                 (GTask              *task);
void       _tw_tab_actions_run_fail                    (GTask              *task,
                                                        GError             *error);
void       _tw_tab_actions_run_succeed                 (GTask              *task);
void       _tw_tab_actions_merge_into_result           (ActionRun          *run,
                                                        JsonObject         *value,
                                                        const char * const *skip);
void       _tw_tab_actions_run_page_error              (GTask              *task,
                                                        GError             *error);
/* The answer to a page runtime call of the run; NULL when the run is over,
 * or when the call failed, which then fails the run. */
JsonNode  *_tw_tab_actions_run_call_finish             (GTask              *task,
                                                        GObject            *runtime,
                                                        GAsyncResult       *result);
void       _tw_tab_actions_run_step                    (GTask              *task,
                                                        const char         *function,
                                                        JsonObject         *args,
                                                        StepFunc            next);

/* tw-tab-actions-actionable.c: waiting until the element is actionable,
 * and acting. */
void       _tw_tab_actions_run_attempt                 (GTask              *task);

/* tw-tab-actions-keys.c: key strokes and editing commands. */
GPtrArray *_tw_tab_actions_split_text                  (const char         *text);
void       _tw_tab_actions_run_editing_commands        (ActionRun          *run,
                                                        JsonObject         *answer);
void       _tw_tab_actions_key_step_done               (GTask              *task,
                                                        JsonObject         *answer);
void       _tw_tab_actions_run_next_key                (GTask              *task);

/* tw-tab-actions-upload.c: the file chooser. */
gboolean   _tw_tab_actions_on_run_file_chooser_cb      (WebKitWebView            *view,
                                                        WebKitFileChooserRequest *request,
                                                        GTask                    *task);
void       _tw_tab_actions_chooser_timed_out           (GTask              *task);
void       _tw_tab_actions_upload_checked              (GTask              *task,
                                                        JsonObject         *answer);

/* tw-tab-actions-settle.c: waiting for the effect. */
/* A load started or is under way: the action navigated. */
gboolean   _tw_tab_actions_run_navigated               (ActionRun          *run);
void       _tw_tab_actions_on_load_started             (TwLoadWatch        *watch,
                                                        gpointer            user_data);
void       _tw_tab_actions_on_resource_load_started_cb (WebKitWebView      *view,
                                                        WebKitWebResource  *resource,
                                                        WebKitURIRequest   *request,
                                                        GTask              *task);
void       _tw_tab_actions_settle_after_step           (GTask              *task,
                                                        JsonObject         *answer);
void       _tw_tab_actions_run_settle                  (GTask              *task);
void       _tw_tab_actions_run_navigation_wait         (GTask              *task);

/* tw-tab-actions-evaluate.c: browser_evaluate. */
void       _tw_tab_actions_run_evaluate                (GTask              *task);

G_END_DECLS
