/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tab-emulation.h"

#include "tw-error.h"

#include <string.h>

#define EMULATED_USER_AGENT_KEY "tw-emulated-user-agent"
#define MAX_USER_AGENT_LENGTH   1000

JsonObject *
tw_tab_emulation_describe (WebKitWebView *view)
{
  const char *user_agent;
  JsonObject *object;

  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);

  user_agent = g_object_get_data (G_OBJECT (view), EMULATED_USER_AGENT_KEY);
  if (user_agent == NULL)
    return NULL;

  object = json_object_new ();
  json_object_set_string_member (object, "userAgent", user_agent);
  return object;
}

static gboolean
check_user_agent (const char  *user_agent,
                  GError     **error)
{
  if (user_agent[0] == '\0' || strlen (user_agent) > MAX_USER_AGENT_LENGTH ||
      !g_utf8_validate (user_agent, -1, NULL))
    {
      g_set_error (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                   "userAgent must be 1 to %d characters of text", MAX_USER_AGENT_LENGTH);
      return FALSE;
    }

  /* It goes into an HTTP header as it is. */
  for (const char *p = user_agent; *p != '\0'; p++)
    {
      if ((guchar) *p < 0x20 || *p == 0x7f)
        {
          g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                               "userAgent must not contain control characters such as line breaks");
          return FALSE;
        }
    }

  return TRUE;
}

JsonObject *
tw_tab_emulation_apply (WebKitWebView  *view,
                        JsonObject     *params,
                        GError        **error)
{
  WebKitSettings *settings;
  JsonNode *node;
  const char *user_agent = NULL;
  gboolean reset;
  JsonObject *result;
  JsonObject *emulation;

  g_return_val_if_fail (WEBKIT_IS_WEB_VIEW (view), NULL);
  g_return_val_if_fail (params != NULL, NULL);

  reset = json_object_get_boolean_member_with_default (params, "reset", FALSE);
  node = json_object_get_member (params, "userAgent");
  if (node != NULL && (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING))
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "userAgent must be a string");
      return NULL;
    }
  if (node != NULL)
    user_agent = json_node_get_string (node);

  if (reset && user_agent != NULL)
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "give either reset or userAgent, not both");
      return NULL;
    }
  if (!reset && user_agent == NULL)
    {
      g_set_error_literal (error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_INVALID_ARGUMENT,
                           "say what to emulate (userAgent), or reset: true to undo it");
      return NULL;
    }
  if (user_agent != NULL && !check_user_agent (user_agent, error))
    return NULL;

  settings = webkit_web_view_get_settings (view);
  /* NULL brings back WebKit's own user agent. */
  webkit_settings_set_user_agent (settings, user_agent);
  g_object_set_data_full (G_OBJECT (view), EMULATED_USER_AGENT_KEY, g_strdup (user_agent), g_free);

  result = json_object_new ();
  emulation = tw_tab_emulation_describe (view);
  json_object_set_object_member (result, "emulation", emulation != NULL ? emulation : json_object_new ());
  json_object_set_string_member (result, "userAgent", webkit_settings_get_user_agent (settings));
  json_object_set_boolean_member (result, "reset", reset);

  return result;
}
