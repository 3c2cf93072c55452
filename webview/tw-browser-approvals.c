/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-private.h"

#include "tw-cancellable.h"
#include "tw-error.h"
#include "tw-json.h"
#include "tw-tool.h"

/* The person's say (issue 32): the sites an agent may reach, the steps
 * that wait for the person's OK, and the network session an agent's tabs
 * use. The workspace has a policy, and each agent the one of its preset.
 *
 * A step that needs the OK waits before any of it runs: the browser puts a
 * TwApproval on the tab, which the window shows as a bar over the page and
 * answers; meanwhile the call reports progress, and after the time limit
 * it is denied. Nothing here knows about the window: whoever shows the
 * tab's "approval" answers it. */

/* How often a waiting call tells its client it still waits. */
#define PROGRESS_INTERVAL_S 1

/* How much of a script or of arguments the person is shown. */
#define DETAIL_MAX_CHARS 400

void
tw_browser_policy_clear (TwBrowserPolicy *policy)
{
  g_clear_pointer (&policy->allowed_sites, g_strfreev);
  g_clear_pointer (&policy->approve, g_strfreev);
  g_clear_pointer (&policy->session, g_free);
  policy->approval_timeout_s = 0;
}

static char **
dup_list (const char * const *list)
{
  g_autoptr(GStrvBuilder) builder = NULL;

  if (list == NULL)
    return NULL;

  builder = g_strv_builder_new ();
  for (guint i = 0; list[i] != NULL; i++)
    {
      g_autofree char *item = g_ascii_strdown (g_strstrip (g_strdup (list[i])), -1);

      if (item[0] != '\0')
        g_strv_builder_add (builder, item);
    }

  return g_strv_builder_end (builder);
}

static void
policy_set (TwBrowserPolicy     *policy,
            const TwAgentPolicy *from)
{
  tw_browser_policy_clear (policy);
  if (from == NULL)
    return;

  policy->allowed_sites = dup_list (from->allowed_sites);
  if (policy->allowed_sites != NULL && policy->allowed_sites[0] == NULL)
    g_clear_pointer (&policy->allowed_sites, g_strfreev);
  policy->approve = g_strdupv ((char **) from->approve);
  policy->approval_timeout_s = from->approval_timeout_s;
  /* "workspace" is kept too: a preset's "workspace" holds its agents on
   * the workspace's session when the workspace puts agents on their own. */
  if (from->session != NULL && from->session[0] != '\0')
    policy->session = g_strdup (from->session);
}

TwBrowserAgent *
tw_browser_find_agent (TwBrowser  *self,
                       const char *agent_id)
{
  if (agent_id == NULL)
    return NULL;

  for (guint i = 0; i < self->agents->len; i++)
    {
      TwBrowserAgent *agent = g_ptr_array_index (self->agents, i);

      if (g_str_equal (agent->id, agent_id))
        return agent;
    }

  return NULL;
}

void
tw_browser_set_policy (TwBrowser           *self,
                       const TwAgentPolicy *policy)
{
  g_return_if_fail (TW_IS_BROWSER (self));

  policy_set (&self->policy, policy);
}

void
tw_browser_set_agent_policy (TwBrowser           *self,
                             const char          *agent_id,
                             const TwAgentPolicy *policy)
{
  TwBrowserAgent *agent;

  g_return_if_fail (TW_IS_BROWSER (self));
  g_return_if_fail (agent_id != NULL);

  agent = tw_browser_find_agent (self, agent_id);
  g_return_if_fail (agent != NULL);

  policy_set (&agent->policy, policy);
}

const char *
tw_browser_get_agent_session (TwBrowser  *self,
                              const char *agent_id)
{
  TwBrowserAgent *agent;

  g_return_val_if_fail (TW_IS_BROWSER (self), NULL);

  agent = tw_browser_find_agent (self, agent_id);
  if (agent != NULL && agent->policy.session != NULL)
    return agent->policy.session;

  return self->policy.session != NULL ? self->policy.session : "workspace";
}

void
tw_browser_set_agent_session (TwBrowser  *self,
                              const char *agent_id,
                              const char *session)
{
  TwBrowserAgent *agent;

  g_return_if_fail (TW_IS_BROWSER (self));

  agent = tw_browser_find_agent (self, agent_id);
  g_return_if_fail (agent != NULL);

  g_clear_pointer (&agent->policy.session, g_free);
  agent->policy.session = g_strdup (session != NULL ? session : "workspace");
}

gboolean
tw_browser_caller_is_person (TwBrowser      *self,
                             const TwCaller *caller)
{
  return caller == NULL || caller->agent_id == NULL ||
         g_strcmp0 (caller->agent_id, self->person_id) == 0;
}

/* Context */

char *
tw_browser_dup_caller_context (TwBrowser      *self,
                               const TwCaller *caller)
{
  TwBrowserAgent *agent;
  const char *session;

  if (tw_browser_caller_is_person (self, caller))
    return NULL;

  agent = tw_browser_find_agent (self, caller->agent_id);
  session = tw_browser_get_agent_session (self, caller->agent_id);
  if (g_str_equal (session, "workspace"))
    return NULL;

  /* "own": a session no other agent names, called after the agent. */
  if (g_str_equal (session, "own"))
    return g_strdup (agent != NULL ? agent->name : caller->agent_id);

  return g_strdup (session);
}

/* Approvals */

static gboolean
needs_approval (TwBrowser      *self,
                TwBrowserAgent *agent,
                const char     *action)
{
  if (agent != NULL && g_hash_table_contains (agent->allowed, action))
    return FALSE;

  return (agent != NULL && agent->policy.approve != NULL &&
          g_strv_contains ((const char * const *) agent->policy.approve, action)) ||
         (self->policy.approve != NULL &&
          g_strv_contains ((const char * const *) self->policy.approve, action));
}

static guint
approval_timeout_s (TwBrowser      *self,
                    TwBrowserAgent *agent)
{
  if (agent != NULL && agent->policy.approval_timeout_s > 0)
    return agent->policy.approval_timeout_s;
  if (self->policy.approval_timeout_s > 0)
    return self->policy.approval_timeout_s;

  return TW_APPROVAL_DEFAULT_TIMEOUT_S;
}

/* A step waiting for the person: a tool call (whose progress it reports),
 * or a page's own step (@call NULL). */
typedef struct
{
  TwBrowser  *browser;
  TwApproval *approval;
  TwToolCall *call;
  gulong      answered_id;
  GSource    *cancel_watch;
  guint       tick_source;
  gint64      started;
  guint       timeout_s;
} ApprovalWait;

static void
approval_wait_free (ApprovalWait *wait)
{
  g_clear_handle_id (&wait->tick_source, g_source_remove);
  g_clear_signal_handler (&wait->answered_id, wait->approval);
  g_clear_object (&wait->approval);
  g_clear_object (&wait->browser);
  g_free (wait);
}

/* The tab shows the oldest step that waits in it. */
static void
show_next (TwBrowser  *self,
           const char *browser_id)
{
  TwBrowserTab *tab = tw_browser_lookup_tab (self, browser_id);

  if (tab == NULL)
    return;

  for (guint i = 0; i < self->approvals->len; i++)
    {
      TwApproval *approval = g_ptr_array_index (self->approvals, i);

      if (g_strcmp0 (tw_approval_get_browser_id (approval), browser_id) == 0)
        {
          tw_browser_tab_set_approval (tab, approval);
          return;
        }
    }

  tw_browser_tab_set_approval (tab, NULL);
}

/* The step is answered (or given up): it leaves the tab, and the call
 * goes on or fails. */
static void
finish_wait (GTask  *task,
             GError *error)
{
  ApprovalWait *wait = g_task_get_task_data (task);
  TwBrowser *self = wait->browser;
  g_autofree char *browser_id = g_strdup (tw_approval_get_browser_id (wait->approval));

  g_clear_handle_id (&wait->tick_source, g_source_remove);
  g_clear_signal_handler (&wait->answered_id, wait->approval);
  g_clear_pointer (&wait->cancel_watch, tw_cancellable_unwatch);

  /* Answer it for whoever still shows it, so the bar goes away. */
  if (!tw_approval_get_answered (wait->approval))
    tw_approval_answer (wait->approval, TW_APPROVAL_DENY, NULL);

  g_ptr_array_remove (self->approvals, wait->approval);
  show_next (self, browser_id);

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

static void
approval_answered_cb (TwApproval *approval,
                      int         answer,
                      const char *reason,
                      gpointer    user_data)
{
  GTask *task = user_data;
  ApprovalWait *wait = g_task_get_task_data (task);
  TwBrowserAgent *agent;

  /* finish_wait() answers steps it gives up on: the call is over. */
  if (wait->answered_id == 0)
    return;

  switch ((TwApprovalAnswer) answer)
    {
    case TW_APPROVAL_ALLOW_AGENT:
      agent = tw_browser_find_agent (wait->browser, tw_approval_get_agent_id (approval));
      if (agent != NULL)
        g_hash_table_add (agent->allowed, g_strdup (tw_approval_get_action (approval)));
      G_GNUC_FALLTHROUGH;

    case TW_APPROVAL_ALLOW_ONCE:
      finish_wait (task, NULL);
      break;

    case TW_APPROVAL_DENY:
    default:
      if (reason != NULL)
        finish_wait (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                        "the person denied %s in tab %s: %s",
                                        tw_approval_get_action (approval),
                                        tw_approval_get_browser_id (approval), reason));
      else
        finish_wait (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                        "the person denied %s in tab %s; do it another way, "
                                        "or ask the person first",
                                        tw_approval_get_action (approval),
                                        tw_approval_get_browser_id (approval)));
      break;
    }
}

/* A tool call that waits says so in its progress. */
static void
report_waiting (ApprovalWait *wait,
                double        elapsed_s)
{
  g_autofree char *message = NULL;

  if (wait->call == NULL)
    return;

  message = g_strdup_printf ("waiting for the person to allow %s in tab %s",
                             tw_approval_get_action (wait->approval),
                             tw_approval_get_browser_id (wait->approval));
  tw_tool_call_report_progress (wait->call, elapsed_s, wait->timeout_s, message);
}

static gboolean
approval_tick_cb (gpointer user_data)
{
  GTask *task = user_data;
  ApprovalWait *wait = g_task_get_task_data (task);
  double elapsed_s = (g_get_monotonic_time () - wait->started) / (double) G_USEC_PER_SEC;
  const char *browser_id = tw_approval_get_browser_id (wait->approval);

  if (tw_browser_lookup_tab (wait->browser, browser_id) == NULL)
    {
      wait->tick_source = 0;
      finish_wait (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                      "tab %s closed while %s waited for the person's OK",
                                      browser_id, tw_approval_get_action (wait->approval)));
      return G_SOURCE_REMOVE;
    }

  if (elapsed_s >= wait->timeout_s)
    {
      wait->tick_source = 0;
      finish_wait (task, g_error_new (TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                                      "the person did not allow %s in tab %s within %u s, "
                                      "so it was denied; try again when the person is there, "
                                      "or do it another way",
                                      tw_approval_get_action (wait->approval), browser_id,
                                      wait->timeout_s));
      return G_SOURCE_REMOVE;
    }

  report_waiting (wait, elapsed_s);

  return G_SOURCE_CONTINUE;
}

static void
approval_cancelled_cb (gpointer user_data)
{
  finish_wait (user_data, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                               "the call was cancelled"));
}

static char *
describe_arguments (JsonObject *arguments)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, arguments);
  text = json_to_string (node, FALSE);

  return text;
}

static char *
clip (char *text)
{
  if (text != NULL && g_utf8_strlen (text, -1) > DETAIL_MAX_CHARS)
    {
      char *clipped;

      /* @text is ours: cut it where the kept characters end. */
      *g_utf8_offset_to_pointer (text, DETAIL_MAX_CHARS) = '\0';
      clipped = g_strconcat (text, "…", NULL);
      g_free (text);
      return clipped;
    }

  return text;
}

static gboolean
tw_browser_needs_approval (TwBrowserService *service,
                           TwToolCall       *call)
{
  TwBrowser *self = TW_BROWSER (service);
  const TwCaller *caller = tw_tool_call_get_caller (call);
  const char *browser_id;

  if (tw_browser_caller_is_person (self, caller) ||
      !needs_approval (self, tw_browser_find_agent (self, caller->agent_id),
                       tw_tool_call_get_name (call)))
    return FALSE;

  /* The person answers in the tab. A call with no tab of the caller's own
   * to ask in goes on, and the command says what is wrong. */
  browser_id = tw_json_get_string (tw_tool_call_get_arguments (call), "browserId", NULL);

  return browser_id != NULL && tw_browser_lookup_usable_tab (self, browser_id, caller, NULL) != NULL;
}

/* Puts @approval (taken) before the person in its tab, for @call (NULL
 * for a page's own step), which it may wait until cancelled; finishes TRUE
 * when allowed, or with browser_denied. */
static void
ask_async (TwBrowser           *self,
           TwApproval          *approval,
           TwToolCall          *call,
           GAsyncReadyCallback  callback,
           gpointer             user_data)
{
  GTask *task = g_task_new (self, call != NULL ? tw_tool_call_get_cancellable (call) : NULL,
                            callback, user_data);
  TwBrowserAgent *agent = tw_browser_find_agent (self, tw_approval_get_agent_id (approval));
  GCancellable *cancellable = g_task_get_cancellable (task);
  ApprovalWait *wait;

  g_task_set_source_tag (task, ask_async);

  wait = g_new0 (ApprovalWait, 1);
  wait->browser = g_object_ref (self);
  wait->approval = approval;
  wait->call = call;
  wait->started = g_get_monotonic_time ();
  wait->timeout_s = approval_timeout_s (self, agent);
  g_task_set_task_data (task, wait, (GDestroyNotify) approval_wait_free);

  g_ptr_array_add (self->approvals, g_object_ref (wait->approval));
  wait->answered_id = g_signal_connect (wait->approval, "answered",
                                        G_CALLBACK (approval_answered_cb), task);
  wait->tick_source = g_timeout_add_seconds (PROGRESS_INTERVAL_S, approval_tick_cb, task);
  show_next (self, tw_approval_get_browser_id (approval));
  report_waiting (wait, 0);

  /* The task keeps itself until finish_wait(). */
  wait->cancel_watch = tw_cancellable_watch (cancellable, approval_cancelled_cb, task, NULL);
}

static gboolean
ask_finish (TwBrowser     *self,
            GAsyncResult  *result,
            GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
tw_browser_approve_async (TwBrowserService    *service,
                          TwToolCall          *call,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  TwBrowser *self = TW_BROWSER (service);
  const char *tool_name = tw_tool_call_get_name (call);
  JsonObject *arguments = tw_tool_call_get_arguments (call);
  const TwCaller *caller = tw_tool_call_get_caller (call);
  TwBrowserAgent *agent = tw_browser_find_agent (self, caller->agent_id);
  g_autofree char *detail = NULL;
  g_autofree char *summary = NULL;

  /* Checked just before by tw_browser_needs_approval(). */
  if (!tw_browser_needs_approval (service, call))
    {
      g_autoptr(GTask) task = g_task_new (self, tw_tool_call_get_cancellable (call), callback,
                                          user_data);

      g_task_return_boolean (task, TRUE);
      return;
    }

  if (g_str_equal (tool_name, "browser_evaluate"))
    {
      summary = g_strdup ("run a script in the page");
      detail = g_strdup (tw_json_get_string (arguments, "function", NULL));
    }
  else if (g_str_equal (tool_name, "browser_upload"))
    {
      g_auto(GStrv) paths = tw_json_get_strv (arguments, "filePaths");

      summary = g_strdup ("upload files to the page");
      detail = paths != NULL ? g_strjoinv ("\n", paths) : NULL;
    }
  else
    {
      summary = g_strdup_printf ("use %s", tool_name);
      detail = describe_arguments (arguments);
    }
  detail = clip (g_steal_pointer (&detail));

  ask_async (self,
             tw_approval_new (tw_json_get_string (arguments, "browserId", NULL), caller->agent_id,
                              agent != NULL ? agent->name : caller->agent_name, tool_name,
                              summary, detail),
             call, callback, user_data);
}

static gboolean
tw_browser_approve_finish (TwBrowserService  *service,
                           GAsyncResult      *result,
                           GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, service), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Steps of pages, not tools: a form sent to another origin, a download.
 * The page asked, so no call waits on them; the bar over the tab asks. */

static TwBrowserAgent *
tab_agent_needing (TwBrowser    *self,
                   TwBrowserTab *tab,
                   const char   *action)
{
  const char *owner_id = tw_browser_tab_get_owner_id (tab);
  TwBrowserAgent *agent;

  if (owner_id == NULL || g_strcmp0 (owner_id, self->person_id) == 0)
    return NULL;

  agent = tw_browser_find_agent (self, owner_id);
  if (agent == NULL || !needs_approval (self, agent, action))
    return NULL;

  return agent;
}

static char *
dup_origin (const char *url)
{
  g_autoptr(GUri) uri = url != NULL ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;

  if (uri == NULL || g_uri_get_host (uri) == NULL)
    return NULL;

  return g_strdup_printf ("%s://%s:%d", g_uri_get_scheme (uri), g_uri_get_host (uri),
                          g_uri_get_port (uri));
}

static void
form_answered_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(WebKitPolicyDecision) decision = user_data;

  if (ask_finish (TW_BROWSER (object), result, NULL))
    webkit_policy_decision_use (decision);
  else
    webkit_policy_decision_ignore (decision);
}

static gboolean
view_decide_policy_cb (WebKitWebView            *view,
                       WebKitPolicyDecision     *decision,
                       WebKitPolicyDecisionType  type,
                       TwBrowserTab             *tab)
{
  TwBrowser *self = g_object_get_data (G_OBJECT (tab), "tw-browser-approvals");
  WebKitNavigationAction *action;
  WebKitURIRequest *request;
  TwBrowserAgent *agent;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *detail = NULL;

  if (self == NULL || (type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION &&
                       type != WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION))
    return FALSE;

  action = webkit_navigation_policy_decision_get_navigation_action (
    WEBKIT_NAVIGATION_POLICY_DECISION (decision));
  if (webkit_navigation_action_get_navigation_type (action) != WEBKIT_NAVIGATION_TYPE_FORM_SUBMITTED &&
      webkit_navigation_action_get_navigation_type (action) != WEBKIT_NAVIGATION_TYPE_FORM_RESUBMITTED)
    return FALSE;

  request = webkit_navigation_action_get_request (action);
  from = dup_origin (webkit_web_view_get_uri (view));
  to = dup_origin (webkit_uri_request_get_uri (request));
  if (from == NULL || to == NULL || g_str_equal (from, to))
    return FALSE;

  agent = tab_agent_needing (self, tab, "cross-origin-forms");
  if (agent == NULL)
    return FALSE;

  detail = g_strdup_printf ("%s %s", webkit_uri_request_get_http_method (request) != NULL
                                     ? webkit_uri_request_get_http_method (request) : "GET",
                            webkit_uri_request_get_uri (request));
  ask_async (self,
             tw_approval_new (tw_browser_tab_get_id (tab), agent->id, agent->name,
                              "cross-origin-forms", "send a form to another site", detail),
             NULL, form_answered_cb, g_object_ref (decision));

  return TRUE;
}

void
tw_browser_approvals_watch_tab (TwBrowser    *self,
                                TwBrowserTab *tab)
{
  g_return_if_fail (TW_IS_BROWSER (self));
  g_return_if_fail (TW_IS_BROWSER_TAB (tab));

  /* The browser outlives its tabs' views' handlers: it closes them all. */
  g_object_set_data (G_OBJECT (tab), "tw-browser-approvals", self);
  g_signal_connect_object (tw_browser_tab_get_view (tab), "decide-policy",
                           G_CALLBACK (view_decide_policy_cb), tab, 0);

  /* Tabs an agent's pages open keep to its sites too. */
  tw_browser_limit_tab_sites_async (self, tab, NULL, NULL);
}

typedef struct
{
  WebKitDownload *download;
  char           *suggested;
} DownloadAsk;

static void
download_answered_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  TwBrowser *self = TW_BROWSER (object);
  DownloadAsk *ask = user_data;
  gboolean handled = FALSE;

  if (ask_finish (self, result, NULL))
    {
      /* Allowed: what decides downloads' destinations runs now. */
      tw_tab_downloads_set_approval (self->downloads, ask->download, ask->suggested,
                                     TW_DOWNLOAD_APPROVAL_ALLOWED);
      g_object_set_data (G_OBJECT (ask->download), "tw-download-allowed", GINT_TO_POINTER (TRUE));
      g_signal_emit_by_name (ask->download, "decide-destination", ask->suggested, &handled);
    }
  else
    {
      tw_tab_downloads_set_approval (self->downloads, ask->download, ask->suggested,
                                     TW_DOWNLOAD_APPROVAL_DENIED);
      webkit_download_cancel (ask->download);
    }

  g_object_unref (ask->download);
  g_free (ask->suggested);
  g_free (ask);
}

static gboolean
download_decide_destination_cb (WebKitDownload *download,
                                const char     *suggested,
                                TwBrowserTab   *tab)
{
  TwBrowser *self = g_object_get_data (G_OBJECT (tab), "tw-browser-approvals");
  WebKitURIRequest *request = webkit_download_get_request (download);
  TwBrowserAgent *agent;
  DownloadAsk *ask;
  g_autofree char *detail = NULL;

  if (self == NULL || g_object_get_data (G_OBJECT (download), "tw-download-allowed") != NULL ||
      (agent = tab_agent_needing (self, tab, "downloads")) == NULL)
    return FALSE;

  ask = g_new0 (DownloadAsk, 1);
  ask->download = g_object_ref (download);
  ask->suggested = g_strdup (suggested);
  detail = g_strdup_printf ("%s\n%s", suggested,
                            request != NULL ? webkit_uri_request_get_uri (request) : "");
  /* The command that started it reports it as waiting for the OK rather
   * than wait for an answer. */
  tw_tab_downloads_set_approval (self->downloads, download, suggested,
                                 TW_DOWNLOAD_APPROVAL_ASKING);
  ask_async (self,
             tw_approval_new (tw_browser_tab_get_id (tab), agent->id, agent->name, "downloads",
                              "download a file", detail),
             NULL, download_answered_cb, ask);

  return TRUE;
}

void
tw_browser_approvals_watch_download (TwBrowser      *self,
                                     WebKitDownload *download,
                                     TwBrowserTab   *tab)
{
  g_return_if_fail (TW_IS_BROWSER (self));
  g_return_if_fail (WEBKIT_IS_DOWNLOAD (download));

  if (tab == NULL || tab_agent_needing (self, tab, "downloads") == NULL)
    return;

  /* Before the handler that picks the destination, which waits for it. */
  g_signal_connect_object (download, "decide-destination",
                           G_CALLBACK (download_decide_destination_cb), tab, 0);
}

void
tw_browser_approvals_init_iface (TwBrowserServiceInterface *iface)
{
  iface->needs_approval = tw_browser_needs_approval;
  iface->approve_async = tw_browser_approve_async;
  iface->approve_finish = tw_browser_approve_finish;
}

/* The browser goes away: every step still waiting is denied. */
void
tw_browser_approvals_dispose (TwBrowser *self)
{
  if (self->approvals == NULL)
    return;

  while (self->approvals->len > 0)
    {
      g_autoptr(TwApproval) approval = g_object_ref (g_ptr_array_index (self->approvals, 0));

      tw_approval_answer (approval, TW_APPROVAL_DENY, "the workspace closed");
      g_ptr_array_remove (self->approvals, approval);
    }
}
