/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* What the files of TwBrowserTab share: its struct, the record of a
 * command, and the functions one part calls in another. Only those files
 * include it; the rest of the browser uses tw-browser-tab-private.h. */

#include "tw-browser-tab.h"
#include "tw-browser-tab-private.h"
#include "tw-load-watch.h"
#include "tw-page-runtime.h"
#include "tw-tab-action.h"
#include "tw-tab-focus.h"
#include "tw-tab-log.h"
#include "tw-view-frame.h"

G_BEGIN_DECLS

#define NOTHING_HAPPENED_DELAY_MS 300

/* What the tab asks of the person for an agent's call that waits for them
 * (tw-browser-tab-person.c): do something and say Done (browser_handoff),
 * or mark the page (browser_annotate). */
typedef enum
{
  TAB_ASK_HANDOFF,
  TAB_ASK_ANNOTATE,
} TabAskKind;

typedef struct
{
  TabAskKind    kind;
  GTask        *task;           /* the waiting command; NULL while none waits */
  char         *message;        /* what the agent asks, as the tab shows it */
  char         *agent;
  guint         time_limit_ms;
} TabPersonAsk;

struct _TwBrowserTab
{
  GObject         parent_instance;

  char           *id;
  WebKitWebView  *view;
  TwPageRuntime  *runtime;
  TwViewFrame    *frame;
  TwTabLog       *log;
  /* The page's focus while an agent drives the tab (tw-tab-focus.h). */
  TwTabFocus     *focus;
  char           *workspace_dir;
  char           *owner_id;
  char           *owner;
  /* The person (or the owner) shared the tab with every agent. */
  gboolean        shared;
  /* The first step waiting for the person's OK in this tab (issue 32). */
  TwApproval     *approval;
  char           *title;
  char           *load_error;
  char           *load_error_uri;

  /* A tab restored from the last session keeps the address it had, and
   * loads it only when it is first used (tw_browser_tab_wake()). */
  char           *deferred_uri;
  /* Set from tw_browser_tab_wake() until that page has loaded or failed:
   * the tab counts as loading, and a command waits for the page. */
  gboolean        wake_loading;
  /* A navigation returned once its page had loaded; the next command that
   * reads the page waits for it to settle first. */
  gboolean        settle_pending;

  /* TabDialog, oldest first; n_dialogs counts every dialog ever answered so
   * a command can tell which ones opened while it ran. */
  GQueue          dialogs;
  guint64         n_dialogs;
  /* Dialogs with a lower serial were reported in a result. A dialog that
   * opened between calls (a timer, a network callback) or during a call
   * that failed goes into the result of the next call that succeeds. */
  guint64         n_reported_dialogs;

  /* GTask of commands waiting their turn, and the one running now. */
  GQueue          pending;
  GTask          *active;
  guint           next_source;
  guint           command_timeout_ms;

  /* browser_handoff: the command waiting for the person to act. */
  TabPersonAsk    handoff;

  /* browser_annotate: the command waiting for the person's marks, and
   * whether the marks are on their way (being resolved and drawn). */
  TabPersonAsk    annotate;
  gboolean        annotate_sending;
  /* What the person sent while no call waited: the "annotation" of the
   * next result of a call on this tab. */
  JsonObject     *annotation_waiting;

  /* Demonstrate (tw-browser-tab-demonstrate.c): the person's steps while
   * they record, where they started, the script that records in each new
   * document, and what a waiting browser_demonstration call asks. */
  gboolean        demonstrating;
  gboolean        demo_stopping;
  gboolean        demo_handler;
  JsonArray      *demo_steps;
  char           *demo_start_url;
  WebKitUserScript *demo_script;
  WebKitNavigationType demo_navigation_type;
  gboolean        demo_navigation_gesture;
  char           *demonstrate_message;
  char           *demonstrate_agent;

  /* browser_handle_dialog: how the next dialog is answered, when an agent
   * said so; every other dialog gets the default answer. */
  gboolean        dialog_answer_set;
  gboolean        dialog_accept;
  char           *dialog_prompt_text;

  guint           can_go_back : 1;
  guint           can_go_forward : 1;
  guint           crashed : 1;
  guint           closed : 1;
  guint           paused : 1;
  guint           busy : 1;
  guint           unresponsive : 1;  /* its web process does not answer */
  guint           ending_stuck : 1;  /* ending that process, not a crash */
  /* On an ephemeral network session of its own, or of the private tab that
   * opened it: shares nothing with the workspace's tabs, keeps nothing. */
  guint           private_session : 1;
  /* The person turned focus emulation off (tw_browser_tab_set_emulate_focus()). */
  guint           no_focus_emulation : 1;
  /* The name of the private context whose session the tab shares with the
   * other private tabs of that name; NULL for a session of its own. */
  char           *context_name;
  /* The open tabs of the tab's web process, this one included, shared by
   * those tabs (unowned: each leaves it as it closes), or NULL while the
   * tab has its process to itself. */
  GPtrArray      *process_tabs;
  /* A page has committed in the tab's view since it opened: its web
   * process has shown a page, so a new tab may join it. */
  gboolean        committed_page;
  /* The other tabs that the last crash of the shared web process took,
   * "b4, b5", or NULL: the crash's error names them. */
  char           *crashed_with;

  /* Resting (tw-browser-tab-rest.c): how long the tab stays live after its
   * last command (0: always), the timer, and whether it rests now. */
  guint           rest_delay_ms;
  guint           rest_source;
  guint           resting : 1;

  /* Drawing (tw-browser-tab-drawing.c): which tabs draw with accelerated
   * compositing, whether the person sees this one now, and the timer that
   * turns compositing on once they have looked at it. */
  TwTabCompositing compositing;
  guint           look_source;
  guint           shown : 1;
};

typedef struct
{
  guint64       serial;
  TwDialogType  type;
  char         *message;
  char         *prompt_text;  /* what an accepted prompt answered */
  gboolean      accepted;
} TabDialog;

typedef struct
{
  TwTabCommand  command;
  JsonObject   *params;
  guint64       first_dialog;
  /* How many requests the tab's routes had answered when it started. */
  guint64       first_routed;
  GPtrArray    *new_tabs;         /* ids of tabs the page opened meanwhile */
  char         *agent_name;       /* who issued it, for what the tab shows */
  char         *agent_id;
  guint64       call_id;
  TwTabAction  *action;           /* what the overlay is told, for actions */
  GSource      *cancel_watch;
  TwLoadWatch  *watch;            /* the load it waits for, if any */
  gint64        deadline_us;      /* its one time limit, from its start */
  guint         timeout_source;
  guint         ping_ms;          /* reload/navigate: how long the page had to answer */
  guint         waking : 1;       /* loading a restored tab's page first */
  guint         woken : 1;        /* its page was woken from rest for it */
  guint         finished : 1;
  guint         alive_checked : 1; /* reload/navigate: the page answered, or was ended */
} TabCommand;

enum {
  PROP_0,
  PROP_ID,
  PROP_URI,
  PROP_TITLE,
  PROP_LOADING,
  PROP_PROGRESS,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  PROP_OWNER,
  PROP_OWNER_ID,
  PROP_CRASHED,
  PROP_UNRESPONSIVE,
  PROP_LOAD_ERROR,
  PROP_PAUSED,
  PROP_BUSY,
  PROP_HANDOFF_MESSAGE,
  PROP_ANNOTATE_MESSAGE,
  PROP_DEMONSTRATING,
  PROP_DEMONSTRATED_STEPS,
  PROP_DEMONSTRATE_MESSAGE,
  PROP_SHARED,
  PROP_APPROVAL,
  PROP_RESTING,
  N_PROPS
};

enum {
  SCRIPT_DIALOG,
  CLOSE_REQUESTED,
  NEW_TAB,
  ACTION_STARTED,
  ACTION_UPDATED,
  ACTION_FINISHED,
  DEMONSTRATION_ENDED,
  N_SIGNALS
};

extern GParamSpec *_tw_browser_tab_properties[N_PROPS];
extern guint _tw_browser_tab_signals[N_SIGNALS];

/* tw-browser-tab.c: state the other parts change */
void _tw_browser_tab_set_load_error (TwBrowserTab *self,
                                     const char   *uri,
                                     const char   *message);
void _tw_browser_tab_set_title (TwBrowserTab *self,
                                const char   *title);
void _tw_browser_tab_set_unresponsive (TwBrowserTab *self,
                                       gboolean      unresponsive);
void _tw_browser_tab_set_wake_loading (TwBrowserTab *self,
                                       gboolean      wake_loading);
/* Emulates page focus while an agent drives the tab: it has an owner, is
 * not paused and waits for no handoff, unless the person turned emulation
 * off. Call when any of these changes. */
void _tw_browser_tab_update_focus (TwBrowserTab *self);
TwBrowserTab *_tw_browser_tab_new_internal (WebKitNetworkSession *session,
                                            WebKitWebView        *related_view,
                                            gboolean              private_session,
                                            const char           *owner_id,
                                            const char           *owner);

/* tw-browser-tab-rest.c */
/* Starts the rest delay over; call when the tab has nothing left to do. */
void _tw_browser_tab_schedule_rest (TwBrowserTab *self);
/* Wakes the tab for @task if it rests, and runs the command once the page
 * is live: returns FALSE, and does nothing, when the tab was awake. */
gboolean _tw_browser_tab_wake_for_command (TwBrowserTab *self,
                                           GTask        *task);

/* tw-browser-tab-queue.c */
/* The rest of _tw_browser_tab_start_command() once the tab is awake. */
void _tw_browser_tab_continue_command (TwBrowserTab *self,
                                       GTask        *task);
/* Calls the runtime function @function of the tab's page for @task's
 * command within @timeout_ms (@args may be NULL); @callback gets a new
 * reference to @task as its data. */
void _tw_browser_tab_command_call (TwBrowserTab        *self,
                                   GTask               *task,
                                   const char          *function,
                                   JsonObject          *args,
                                   guint                timeout_ms,
                                   GAsyncReadyCallback  callback);
/* The answer of such a call in @answer (NULL with @error set when it
 * failed); FALSE when @task's command has finished meanwhile (its time
 * limit, a cancel, a crash), and the answer goes nowhere. */
gboolean _tw_browser_tab_command_call_finish (GTask         *task,
                                              GObject       *runtime,
                                              GAsyncResult  *result,
                                              JsonNode     **answer,
                                              GError       **error);
/* The time left until @cmd's one time limit, in ms (negative once over). */
gint64 _tw_browser_tab_command_remaining_ms (TabCommand *cmd);
JsonObject *_tw_browser_tab_build_page_result (TwBrowserTab *self,
                                               const char   *title);
GError *_tw_browser_tab_crashed_error (TwBrowserTab *self);

void    _tw_browser_tab_leave_process (TwBrowserTab *self);
void    _tw_browser_tab_note_process_crash (TwBrowserTab *self);

/* tw-browser-tab-drawing.c */
void    _tw_browser_tab_update_drawing (TwBrowserTab *self);
void _tw_browser_tab_fail_all_commands (TwBrowserTab *self,
                                        const GError *error);
void _tw_browser_tab_finish_command (TwBrowserTab *self,
                                     GTask        *task,
                                     JsonObject   *result,
                                     GError       *error);
void _tw_browser_tab_run_on_page (TwBrowserTab *self,
                                  GTask        *task);
void _tw_browser_tab_finish_with_page (TwBrowserTab *self,
                                       GTask        *task);
void _tw_browser_tab_start_command (TwBrowserTab *self,
                                    GTask        *task);

/* tw-browser-tab-commands.c */
/* How long @command may take on @self before it fails with
 * browser_timeout, and what it then did not do ("finish loading"). */
guint _tw_browser_tab_command_time_limit (TwBrowserTab *self,
                                          TwTabCommand  command);
const char *_tw_browser_tab_command_verb (TwTabCommand command);
gboolean _tw_browser_tab_command_reads_page (TwTabCommand command);
void _tw_browser_tab_complete_delegated (TwBrowserTab *self,
                                         GTask        *task,
                                         JsonObject   *answer);
void _tw_browser_tab_delegated_command_cb (GObject      *object,
                                           GAsyncResult *result,
                                           gpointer      user_data);
void _tw_browser_tab_dispatch_command (TwBrowserTab *self,
                                       GTask        *task);

/* tw-browser-tab-load.c */
/* Follows the loads of the tab's view for @task from now on; call before
 * starting the load, and _tw_browser_tab_wait_load() after. */
void _tw_browser_tab_watch_load (TwBrowserTab *self,
                                 GTask        *task);
void _tw_browser_tab_wait_load (TwBrowserTab *self,
                                GTask        *task);
gboolean _tw_browser_tab_check_page_answers (TwBrowserTab *self,
                                             GTask        *task);
GError *_tw_browser_tab_explain_if_stuck (TwBrowserTab *self,
                                          GError       *error);
void _tw_browser_tab_init_load (TwBrowserTab *self);

/* tw-browser-tab-dialogs.c */
void _tw_browser_tab_add_dialogs (TwBrowserTab *self,
                                  JsonObject   *result,
                                  guint64       first_dialog);
void _tw_browser_tab_init_dialogs (TwBrowserTab *self);
void _tw_tab_dialog_free (TabDialog *dialog);

/* tw-browser-tab-person.c */
void _tw_browser_tab_init_person_asks (TwBrowserTab *self);
void _tw_browser_tab_clear_person_asks (TwBrowserTab *self);
/* The start of browser_handoff and browser_annotate: @cmd waits in its
 * ask until the person answers or its time limit runs out. */
void _tw_browser_tab_start_handoff (TwBrowserTab *self,
                                    GTask        *task,
                                    TabCommand   *cmd);
void _tw_browser_tab_start_annotate (TwBrowserTab *self,
                                     GTask        *task,
                                     TabCommand   *cmd);
/* Forgets the call of @ask, which has finished. */
void _tw_browser_tab_end_person_ask (TwBrowserTab *self,
                                     TabPersonAsk *ask);

/* tw-browser-tab-annotate.c */
JsonObject *_tw_browser_tab_take_annotation (TwBrowserTab *self);

/* tw-browser-tab-demonstrate.c */
void _tw_browser_tab_init_demonstration (TwBrowserTab *self);
/* Frees what a recording kept (tw_browser_tab_close() discards it first). */
void _tw_browser_tab_clear_demonstration (TwBrowserTab *self);

/* tw-browser-tab-actions.c */
gboolean _tw_browser_tab_action_needs_refresh (TabCommand *cmd);
void _tw_browser_tab_begin_action (TwBrowserTab *self,
                                   GTask        *task);
void _tw_browser_tab_refresh_action (TwBrowserTab *self,
                                     GTask        *task,
                                     JsonObject   *answer);

G_END_DECLS
