/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-tab-parts.h"

#include "tw-json.h"

/* Demonstrate (issue 33, "Teach"): while the person records, their own
 * clicks and typing in the tab are kept as steps (action, role, name,
 * value). The page runtime's recorder (webview/runtime/demonstrate.js)
 * sees only trusted events and posts one message per step to a handler of
 * the runtime's isolated world, which page scripts cannot reach; the tab
 * adds where the person went (loads they started, and where a click or an
 * Enter took the tab), and drops everything that happens while an agent's
 * command runs in the tab. Stopping hands the steps to the browser
 * ("demonstration-ended"), which saves them as a flow. */

#define HANDLER_NAME       "tabwrightDemonstration"
#define MAX_STEPS          500
#define MAX_TEXT_CHARS     2000
#define START_SCRIPT \
  "try { __tabwright.call('demonstrate.start', '{}', 0, 0); } catch (e) {}"

static const char * const actions[] = {
  "click", "fill", "check", "uncheck", "select", "press", NULL,
};

void
_tw_browser_demonstration_free (TwDemonstration *demonstration)
{
  if (demonstration == NULL)
    return;

  g_free (demonstration->name);
  g_free (demonstration->start_url);
  g_clear_pointer (&demonstration->steps, json_array_unref);
  g_free (demonstration);
}

static gboolean
agent_acting (TwBrowserTab *self)
{
  /* A call that waits for the person is no agent acting in the page. */
  return self->busy &&
         (self->active == NULL ||
          (self->active != self->handoff.task && self->active != self->annotate.task));
}

static void
tell_page_busy (TwBrowserTab *self)
{
  g_autofree char *script = NULL;

  if (!self->demonstrating || self->closed)
    return;

  script = g_strdup_printf ("try { __tabwright.call('demonstrate.busy', '{\"busy\": %s}', 0, 0); } "
                            "catch (e) {}", agent_acting (self) ? "true" : "false");
  webkit_web_view_evaluate_javascript (self->view, script, -1, TW_PAGE_RUNTIME_WORLD,
                                       "tabwright-demonstrate.js", NULL, NULL, NULL);
}

static void
notify_steps (TwBrowserTab *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_DEMONSTRATED_STEPS]);
}

static void
add_step (TwBrowserTab *self,
          JsonObject   *step)
{
  if (json_array_get_length (self->demo_steps) >= MAX_STEPS)
    {
      json_object_unref (step);
      return;
    }
  json_array_add_object_element (self->demo_steps, step);
  notify_steps (self);
}

static const char *
bounded_string (JsonObject *object,
                const char *member)
{
  const char *value = tw_json_get_string (object, member, NULL);

  if (value == NULL || !g_utf8_validate (value, -1, NULL) || g_utf8_strlen (value, -1) > MAX_TEXT_CHARS)
    return NULL;

  return value;
}

/* A step the page posted: checked member by member, since a message is
 * only as good as the page it comes from. */
static void
script_message_cb (WebKitUserContentManager *manager,
                   JSCValue                 *value,
                   TwBrowserTab             *self)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *posted;
  JsonObject *step;
  const char *action;
  const char *role;
  const char *name;

  if ((!self->demonstrating && !self->demo_stopping) || agent_acting (self) ||
      !jsc_value_is_string (value))
    return;

  text = jsc_value_to_string (value);
  node = json_from_string (text, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;
  posted = json_node_get_object (node);
  action = tw_json_get_string (posted, "action", NULL);
  role = bounded_string (posted, "role");
  name = bounded_string (posted, "name");
  if (action == NULL || !g_strv_contains (actions, action) || role == NULL || name == NULL)
    return;

  step = json_object_new ();
  json_object_set_string_member (step, "action", action);
  json_object_set_string_member (step, "role", role);
  json_object_set_string_member (step, "name", name);
  if (g_str_equal (action, "fill") || g_str_equal (action, "select"))
    {
      const char *posted_value = bounded_string (posted, "value");

      if (posted_value == NULL)
        {
          json_object_unref (step);
          return;
        }
      if (tw_json_get_boolean (posted, "secret", FALSE))
        {
          /* A password: the step says it was filled, never with what. */
          json_object_set_string_member (step, "value", "•••");
          json_object_set_boolean_member (step, "secret", TRUE);
        }
      else
        {
          json_object_set_string_member (step, "value", posted_value);
        }
    }
  if (g_str_equal (action, "press"))
    json_object_set_string_member (step, "key", "Enter");
  if (bounded_string (posted, "url") != NULL)
    json_object_set_string_member (step, "url", bounded_string (posted, "url"));

  add_step (self, step);
}

/* Where the person went */

static gboolean
decide_policy_cb (TwBrowserTab             *self,
                  WebKitPolicyDecision     *decision,
                  WebKitPolicyDecisionType  type,
                  WebKitWebView            *view)
{
  WebKitNavigationAction *action;

  if (!self->demonstrating || type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION)
    return FALSE;

  /* How the next page comes: by a link or a form (then it is where the
   * person's last click or Enter went), or otherwise. */
  action = webkit_navigation_policy_decision_get_navigation_action (WEBKIT_NAVIGATION_POLICY_DECISION (decision));
  self->demo_navigation_type = webkit_navigation_action_get_navigation_type (action);
  self->demo_navigation_gesture = webkit_navigation_action_is_user_gesture (action);

  return FALSE;
}

static void
load_changed_cb (TwBrowserTab    *self,
                 WebKitLoadEvent  event,
                 WebKitWebView   *view)
{
  const char *uri = webkit_web_view_get_uri (view);
  guint n;
  JsonObject *last;
  gboolean followed;

  if (!self->demonstrating || event != WEBKIT_LOAD_COMMITTED || uri == NULL)
    return;

  /* The page just begun knows whether an agent acts. */
  tell_page_busy (self);
  if (agent_acting (self))
    return;

  n = json_array_get_length (self->demo_steps);
  last = n > 0 ? json_array_get_object_element (self->demo_steps, n - 1) : NULL;
  followed = self->demo_navigation_type == WEBKIT_NAVIGATION_TYPE_LINK_CLICKED ||
             self->demo_navigation_type == WEBKIT_NAVIGATION_TYPE_FORM_SUBMITTED ||
             self->demo_navigation_type == WEBKIT_NAVIGATION_TYPE_FORM_RESUBMITTED ||
             (self->demo_navigation_type == WEBKIT_NAVIGATION_TYPE_OTHER &&
              self->demo_navigation_gesture);

  /* A click or an Enter that took the tab elsewhere: that is where it goes. */
  if (followed && last != NULL && !json_object_has_member (last, "outcome") &&
      (g_str_equal (tw_json_get_string (last, "action", ""), "click") ||
       g_str_equal (tw_json_get_string (last, "action", ""), "press")))
    {
      JsonObject *outcome = json_object_new ();

      json_object_set_string_member (outcome, "url", uri);
      json_object_set_boolean_member (outcome, "navigated", TRUE);
      json_object_set_object_member (last, "outcome", outcome);
    }
  else
    {
      JsonObject *step = json_object_new ();

      json_object_set_string_member (step, "action",
                                     self->demo_navigation_type == WEBKIT_NAVIGATION_TYPE_RELOAD
                                     ? "reload" : "navigate");
      json_object_set_string_member (step, "url", uri);
      add_step (self, step);
    }
  self->demo_navigation_type = WEBKIT_NAVIGATION_TYPE_OTHER;
  self->demo_navigation_gesture = FALSE;
}

static void
busy_cb (TwBrowserTab *self)
{
  tell_page_busy (self);
}

void
_tw_browser_tab_init_demonstration (TwBrowserTab *self)
{
  g_signal_connect_object (self->view, "decide-policy", G_CALLBACK (decide_policy_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->view, "load-changed", G_CALLBACK (load_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::busy", G_CALLBACK (busy_cb), NULL);
}

/* Recording */

gboolean
tw_browser_tab_start_demonstration (TwBrowserTab *self)
{
  WebKitUserContentManager *manager;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  if (self->demonstrating || self->demo_stopping || self->closed)
    return FALSE;

  manager = webkit_web_view_get_user_content_manager (self->view);
  if (!self->demo_handler)
    {
      webkit_user_content_manager_register_script_message_handler (manager, HANDLER_NAME,
                                                                   TW_PAGE_RUNTIME_WORLD);
      g_signal_connect_object (manager, "script-message-received::" HANDLER_NAME,
                               G_CALLBACK (script_message_cb), self, 0);
      self->demo_handler = TRUE;
    }

  /* Every next document of the tab records from its start. */
  self->demo_script = webkit_user_script_new_for_world (START_SCRIPT,
                                                        WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                                        WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START,
                                                        TW_PAGE_RUNTIME_WORLD, NULL, NULL);
  webkit_user_content_manager_add_script (manager, self->demo_script);

  self->demonstrating = TRUE;
  g_clear_pointer (&self->demo_steps, json_array_unref);
  self->demo_steps = json_array_new ();
  g_free (self->demo_start_url);
  self->demo_start_url = g_strdup (tw_browser_tab_get_uri (self));
  self->demo_navigation_type = WEBKIT_NAVIGATION_TYPE_OTHER;
  self->demo_navigation_gesture = FALSE;

  /* The page shown records from now on. */
  tw_page_runtime_call_async (self->runtime, "demonstrate.start", NULL, NULL, NULL, NULL);
  tell_page_busy (self);

  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_DEMONSTRATING]);
  notify_steps (self);

  return TRUE;
}

gboolean
tw_browser_tab_get_demonstrating (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  return self->demonstrating;
}

guint
tw_browser_tab_get_n_demonstrated_steps (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), 0);

  return self->demo_steps != NULL ? json_array_get_length (self->demo_steps) : 0;
}

static void
end (TwBrowserTab *self,
     const char   *name,
     gboolean      discarded)
{
  TwDemonstration *demonstration = g_new0 (TwDemonstration, 1);

  if (self->demo_script != NULL)
    {
      webkit_user_content_manager_remove_script (webkit_web_view_get_user_content_manager (self->view),
                                                 self->demo_script);
      g_clear_pointer (&self->demo_script, webkit_user_script_unref);
    }

  demonstration->name = g_strdup (name);
  demonstration->start_url = g_steal_pointer (&self->demo_start_url);
  demonstration->steps = g_steal_pointer (&self->demo_steps);
  demonstration->discarded = discarded;
  self->demo_stopping = FALSE;

  g_signal_emit (self, _tw_browser_tab_signals[DEMONSTRATION_ENDED], 0, demonstration);
  _tw_browser_demonstration_free (demonstration);
  notify_steps (self);
}

typedef struct
{
  TwBrowserTab *tab;
  char         *name;
} Stopping;

static void
page_stopped_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Stopping *stopping = user_data;
  g_autoptr(JsonNode) node = NULL;

  /* The page posted its last field (one typed into and never left) before
   * it answered; a page that cannot answer keeps the steps it sent. */
  node = tw_page_runtime_call_finish (TW_PAGE_RUNTIME (object), result, NULL);
  if (stopping->tab->demo_stopping)
    end (stopping->tab, stopping->name, FALSE);

  g_object_unref (stopping->tab);
  g_free (stopping->name);
  g_free (stopping);
}

gboolean
tw_browser_tab_stop_demonstration (TwBrowserTab *self,
                                   const char   *name)
{
  Stopping *stopping;

  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  if (!self->demonstrating)
    return FALSE;

  self->demonstrating = FALSE;
  self->demo_stopping = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_DEMONSTRATING]);

  stopping = g_new0 (Stopping, 1);
  stopping->tab = g_object_ref (self);
  stopping->name = name != NULL && *name != '\0' ? g_strdup (name) : NULL;
  tw_page_runtime_call_async (self->runtime, "demonstrate.stop", NULL, NULL, page_stopped_cb, stopping);

  return TRUE;
}

gboolean
tw_browser_tab_discard_demonstration (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), FALSE);

  if (!self->demonstrating)
    return FALSE;

  self->demonstrating = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_DEMONSTRATING]);
  if (!self->closed)
    tw_page_runtime_call_async (self->runtime, "demonstrate.stop", NULL, NULL, NULL, NULL);
  end (self, NULL, TRUE);

  return TRUE;
}

/* An agent waits for a demonstration in this tab */

void
_tw_browser_tab_set_demonstrate_request (TwBrowserTab *self,
                                         const char   *message,
                                         const char   *agent)
{
  g_free (self->demonstrate_agent);
  self->demonstrate_agent = g_strdup (agent);

  if (g_strcmp0 (self->demonstrate_message, message) != 0)
    {
      g_free (self->demonstrate_message);
      self->demonstrate_message = g_strdup (message);
      g_object_notify_by_pspec (G_OBJECT (self), _tw_browser_tab_properties[PROP_DEMONSTRATE_MESSAGE]);
    }
}

const char *
tw_browser_tab_get_demonstrate_message (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->demonstrate_message;
}

const char *
tw_browser_tab_get_demonstrate_agent (TwBrowserTab *self)
{
  g_return_val_if_fail (TW_IS_BROWSER_TAB (self), NULL);

  return self->demonstrate_message != NULL ? self->demonstrate_agent : NULL;
}

void
_tw_browser_tab_clear_demonstration (TwBrowserTab *self)
{
  g_clear_pointer (&self->demo_script, webkit_user_script_unref);
  g_clear_pointer (&self->demo_steps, json_array_unref);
  g_clear_pointer (&self->demo_start_url, g_free);
  g_clear_pointer (&self->demonstrate_message, g_free);
  g_clear_pointer (&self->demonstrate_agent, g_free);
}
