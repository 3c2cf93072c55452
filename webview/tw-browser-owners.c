/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-browser-private.h"

#include "tw-error.h"
#include "tw-json.h"

/* Whose tabs agents may use (issue 32). A tab belongs to the agent that
 * opened it; the person's tabs, opened in the window or restored, to
 * nobody. Every tab command passes tw_browser_check_tab_access() once,
 * where the browser routes it to its tab, so no tool checks on its own. */

/* What browser_share_tab's agent names for the person. */
#define PERSON_NAME "person"

void
tw_browser_agent_free (TwBrowserAgent *agent)
{
  g_free (agent->id);
  g_free (agent->name);
  tw_browser_policy_clear (&agent->policy);
  g_clear_pointer (&agent->allowed, g_hash_table_unref);
  g_free (agent);
}

static gboolean
is_person (TwBrowser  *self,
           const char *agent_id)
{
  return agent_id == NULL || g_strcmp0 (agent_id, self->person_id) == 0;
}

gboolean
tw_browser_check_tab_access (TwBrowser       *self,
                             TwBrowserTab    *tab,
                             const TwCaller  *caller,
                             GError         **error)
{
  const char *owner_id = tw_browser_tab_get_owner_id (tab);
  const char *id = tw_browser_tab_get_id (tab);

  /* The app's own commands and the person's clients use every tab. */
  if (caller == NULL || is_person (self, caller->agent_id))
    return TRUE;

  if (self->share_tabs || tw_browser_tab_get_shared (tab) ||
      g_strcmp0 (owner_id, caller->agent_id) == 0)
    return TRUE;

  if (is_person (self, owner_id))
    {
      if (self->share_person_tabs)
        return TRUE;

      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                   "tab %s is the person's, and in this workspace agents may not use the "
                   "person's tabs: open a tab of your own with browser_new_tab, or ask the "
                   "person to share %s (tab menu: Share with All Agents)", id, id);
      return FALSE;
    }

  g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
               "tab %s belongs to %s: open a tab of your own with browser_new_tab, or ask the "
               "person to share %s (tab menu: Share with All Agents) or %s to hand it over "
               "with browser_share_tab", id, tw_browser_tab_get_owner (tab), id,
               tw_browser_tab_get_owner (tab));
  return FALSE;
}

TwBrowserTab *
tw_browser_lookup_usable_tab (TwBrowser       *self,
                              const char      *browser_id,
                              const TwCaller  *caller,
                              GError         **error)
{
  TwBrowserTab *tab = tw_browser_lookup_tab (self, browser_id);

  if (tab == NULL)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_NOT_FOUND,
                   "no tab with browserId “%s” in this workspace; "
                   "call browser_list_tabs to see the open tabs", browser_id);
      return NULL;
    }

  return tw_browser_check_tab_access (self, tab, caller, error) ? tab : NULL;
}

static const TwBrowserAgent *
find_agent (TwBrowser  *self,
            const char *id,
            const char *name)
{
  for (guint i = 0; i < self->agents->len; i++)
    {
      const TwBrowserAgent *agent = g_ptr_array_index (self->agents, i);

      if ((id != NULL && g_str_equal (agent->id, id)) ||
          (name != NULL && g_str_equal (agent->name, name)))
        return agent;
    }

  return NULL;
}

static JsonObject *
describe_sharing (TwBrowserTab *tab)
{
  JsonObject *reply = json_object_new ();

  json_object_set_string_member (reply, "browserId", tw_browser_tab_get_id (tab));
  if (tw_browser_tab_get_owner (tab) != NULL)
    json_object_set_string_member (reply, "owner", tw_browser_tab_get_owner (tab));
  else
    json_object_set_null_member (reply, "owner");
  json_object_set_boolean_member (reply, "shared", tw_browser_tab_get_shared (tab));

  return reply;
}

JsonObject *
tw_browser_share_tab (TwBrowser       *self,
                      TwBrowserTab    *tab,
                      JsonObject      *params,
                      const TwCaller  *caller,
                      GError         **error)
{
  const char *owner_id = tw_browser_tab_get_owner_id (tab);
  const char *id = tw_browser_tab_get_id (tab);
  const char *name = NULL;
  const TwBrowserAgent *agent = NULL;
  GError *local_error = NULL;

  name = tw_json_get_string_arg (params, "agent", &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, local_error);
      return NULL;
    }

  /* Only who the tab belongs to gives it away: its owner, or the person. */
  if (caller != NULL && !is_person (self, caller->agent_id) &&
      g_strcmp0 (owner_id, caller->agent_id) != 0)
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DENIED,
                   "only the owner of tab %s (%s) or the person can share it or hand it over",
                   id, is_person (self, owner_id) ? "the person" : tw_browser_tab_get_owner (tab));
      return NULL;
    }

  if (name == NULL)
    {
      tw_browser_tab_set_shared (tab, TRUE);
      return describe_sharing (tab);
    }

  if (g_str_equal (name, PERSON_NAME))
    {
      tw_browser_give_tab (self, tab, NULL);
      return describe_sharing (tab);
    }

  agent = find_agent (self, NULL, name);
  if (agent == NULL)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; i < self->agents->len; i++)
        g_string_append_printf (names, "%s\"%s\"", names->len > 0 ? ", " : "",
                                ((TwBrowserAgent *) g_ptr_array_index (self->agents, i))->name);
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "no running agent is named \"%s\"; agent takes %s%s\"" PERSON_NAME "\"",
                   name, names->str, names->len > 0 ? " or " : "");
      return NULL;
    }

  tw_browser_give_tab (self, tab, agent->id);
  return describe_sharing (tab);
}

gboolean
tw_browser_give_tab (TwBrowser    *self,
                     TwBrowserTab *tab,
                     const char   *agent_id)
{
  const TwBrowserAgent *agent = NULL;

  g_return_val_if_fail (TW_IS_BROWSER (self), FALSE);
  g_return_val_if_fail (TW_IS_BROWSER_TAB (tab), FALSE);

  if (agent_id != NULL && (agent = find_agent (self, agent_id, NULL)) == NULL)
    return FALSE;

  tw_browser_tab_set_owner (tab, agent ? agent->id : NULL, agent ? agent->name : NULL);
  return TRUE;
}

gboolean
tw_browser_get_share_tabs (TwBrowser *self)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), FALSE);

  return self->share_tabs;
}

void
tw_browser_set_share_tabs (TwBrowser *self,
                           gboolean   share_tabs)
{
  g_return_if_fail (TW_IS_BROWSER (self));

  if (self->share_tabs == !!share_tabs)
    return;

  self->share_tabs = !!share_tabs;
  tw_browser_notify_share_tabs (self);
}

gboolean
tw_browser_get_share_person_tabs (TwBrowser *self)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), FALSE);

  return self->share_person_tabs;
}

void
tw_browser_set_share_person_tabs (TwBrowser *self,
                                  gboolean   share_person_tabs)
{
  g_return_if_fail (TW_IS_BROWSER (self));

  if (self->share_person_tabs == !!share_person_tabs)
    return;

  self->share_person_tabs = !!share_person_tabs;
  tw_browser_notify_share_person_tabs (self);
}

gboolean
tw_browser_acts_for_person (TwBrowser  *self,
                            const char *agent_id)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), FALSE);

  return is_person (self, agent_id);
}

void
tw_browser_set_person_id (TwBrowser  *self,
                          const char *agent_id)
{
  g_return_if_fail (TW_IS_BROWSER (self));

  g_free (self->person_id);
  self->person_id = g_strdup (agent_id);
}

static gboolean
forget_agent (TwBrowser  *self,
              const char *agent_id)
{
  for (guint i = 0; i < self->agents->len; i++)
    {
      TwBrowserAgent *agent = g_ptr_array_index (self->agents, i);

      if (g_str_equal (agent->id, agent_id))
        {
          g_ptr_array_remove_index (self->agents, i);
          return TRUE;
        }
    }

  return FALSE;
}

void
tw_browser_add_agent (TwBrowser  *self,
                      const char *agent_id,
                      const char *agent_name)
{
  TwBrowserAgent *agent;

  g_return_if_fail (TW_IS_BROWSER (self));
  g_return_if_fail (agent_id != NULL);

  forget_agent (self, agent_id);

  agent = g_new0 (TwBrowserAgent, 1);
  agent->id = g_strdup (agent_id);
  agent->name = g_strdup (agent_name != NULL ? agent_name : agent_id);
  agent->allowed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_ptr_array_add (self->agents, agent);

  tw_agent_marks_take (self->marks, agent_id, agent->name);
  tw_browser_notify_agents (self);
}

void
tw_browser_remove_agent (TwBrowser  *self,
                         const char *agent_id)
{
  guint n_tabs;

  g_return_if_fail (TW_IS_BROWSER (self));
  g_return_if_fail (agent_id != NULL);

  if (!forget_agent (self, agent_id))
    return;

  tw_agent_marks_release (self->marks, agent_id);

  /* An agent that ended leaves its tabs to whoever comes next: they keep
   * its name, so the person sees where they came from, and every agent may
   * use them. */
  n_tabs = g_list_model_get_n_items (G_LIST_MODEL (self->tabs));
  for (guint i = 0; i < n_tabs; i++)
    {
      g_autoptr(TwBrowserTab) tab = g_list_model_get_item (G_LIST_MODEL (self->tabs), i);

      if (g_strcmp0 (tw_browser_tab_get_owner_id (tab), agent_id) == 0)
        tw_browser_tab_set_shared (tab, TRUE);
    }

  tw_browser_notify_agents (self);
}

guint
tw_browser_get_n_agents (TwBrowser *self)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), 0);

  return self->agents->len;
}

void
tw_browser_get_agent (TwBrowser   *self,
                      guint        index,
                      const char **agent_id,
                      const char **agent_name)
{
  TwBrowserAgent *agent;

  g_return_if_fail (TW_IS_BROWSER (self));
  g_return_if_fail (index < self->agents->len);

  agent = g_ptr_array_index (self->agents, index);
  if (agent_id != NULL)
    *agent_id = agent->id;
  if (agent_name != NULL)
    *agent_name = agent->name;
}

gboolean
tw_browser_get_agent_mark (TwBrowser   *self,
                           const char  *agent_id,
                           int         *colour,
                           const char **mark)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), FALSE);

  return tw_agent_marks_lookup (self->marks, agent_id, colour, mark);
}

gboolean
tw_browser_get_agent_running (TwBrowser  *self,
                              const char *agent_id)
{
  g_return_val_if_fail (TW_IS_BROWSER (self), FALSE);

  return agent_id != NULL && find_agent (self, agent_id, NULL) != NULL;
}
