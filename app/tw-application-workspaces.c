/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "tw-application-private.h"

#include "tw-activity-feed.h"
#include "tw-settings.h"

/* How external MCP clients are named in the activity of a workspace. */
#define EXTERNAL_AGENT_ID   "external"
#define EXTERNAL_AGENT_NAME "External client"

void
_tw_application_served_free (Served *served)
{
  g_clear_object (&served->agents);
  g_clear_object (&served->session);
  g_clear_object (&served->workspace_settings);
  g_clear_object (&served->workspace);
  g_free (served);
}

/* Settings and the tabs of a workspace across launches */

static void
restore_workspace_state (TwApplication *self,
                         Served        *served)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *session_file = NULL;
  TwBrowser *browser = tw_workspace_get_browser (served->workspace);

  /* The schema was found at start-up, so this cannot fail. */
  served->workspace_settings =
    tw_settings_new_for_workspace (tw_workspace_get_id (served->workspace), NULL);
  tw_settings_bind_browser (served->workspace_settings, browser);
  g_settings_bind (served->workspace_settings, "timeline-size-mb",
                   tw_workspace_get_timeline (served->workspace), "max-megabytes",
                   G_SETTINGS_BIND_GET);

  session_file = g_build_filename (tw_workspace_get_data_dir (served->workspace),
                                   "session.json", NULL);
  served->session = tw_session_new (browser, session_file);
  if (g_settings_get_boolean (self->settings, "restore-tabs") &&
      tw_session_restore (served->session, &error) == 0 && error != NULL)
    g_warning ("Could not reopen the tabs of %s: %s", session_file, error->message);
}

static void
save_workspace_state (TwApplication *self,
                      Served        *served)
{
  g_autoptr(GError) error = NULL;

  if (served->window != NULL)
    tw_settings_save_window (self->settings, GTK_WINDOW (served->window));

  if (served->session != NULL && !tw_session_close (served->session, &error))
    g_warning ("Could not save the tabs of %s: %s",
               tw_workspace_get_path (served->workspace), error->message);
}

/* Everything a workspace leaves behind while it is served goes away with
 * its window: its token stops working, its runtime file disappears and its
 * tabs close. */
void
_tw_application_stop_serving (TwApplication *self,
                              Served        *served)
{
  /* Agents hang up first, so their tokens die with the window too. */
  if (served->agents != NULL)
    tw_agent_manager_stop_all (served->agents);

  if (self->server != NULL)
    tw_mcp_server_remove_client (self->server, tw_workspace_get_token (served->workspace));

  tw_workspace_unpublish (served->workspace);

  /* The window's size and the tabs are remembered before the tabs close. */
  save_workspace_state (self, served);
  tw_browser_close_all (tw_workspace_get_browser (served->workspace));
}

static Served *
find_served (TwApplication *self,
             const char    *path)
{
  for (guint i = 0; i < self->served->len; i++)
    {
      Served *served = g_ptr_array_index (self->served, i);

      if (g_str_equal (tw_workspace_get_path (served->workspace), path))
        return served;
    }

  return NULL;
}

gboolean
_tw_application_ensure_server (TwApplication  *self,
                               int             port,
                               GError        **error)
{
  g_autoptr(TwMcpServer) server = NULL;

  if (self->server != NULL)
    {
      if (port > 0 && port != tw_mcp_server_get_port (self->server))
        g_printerr (_("tabwright: already serving MCP on port %u; --mcp-port %d is ignored\n"),
                    tw_mcp_server_get_port (self->server), port);
      return TRUE;
    }

  /* A fixed port from the settings that another program holds must not
   * keep Tabwright from starting: any free port will do, and the window
   * says so. An explicit --mcp-port is different: it fails. */
  if (port == PORT_FROM_SETTINGS)
    {
      g_autoptr(GError) fixed_error = NULL;
      guint16 fixed = tw_settings_get_mcp_port (self->settings);

      port = 0;
      if (fixed != 0)
        {
          server = tw_mcp_server_new ();
          if (tw_mcp_server_start (server, fixed, &fixed_error))
            {
              self->server = g_steal_pointer (&server);
              return TRUE;
            }

          g_message ("Could not serve MCP on the fixed port %u: %s", fixed, fixed_error->message);
          g_free (self->port_notice);
          self->port_notice = g_strdup_printf (_("Port %u is in use, so agents reach this "
                                                 "workspace on another port this time"), fixed);
          g_clear_object (&server);
        }
    }

  server = tw_mcp_server_new ();
  if (!tw_mcp_server_start (server, (guint16) port, error))
    return FALSE;

  self->server = g_steal_pointer (&server);

  return TRUE;
}

/* The overlays above the tabs animate as the overlay-animations key and the
 * desktop's enable-animations say, in every window, as both change. */
void
_tw_application_update_overlay_animations (TwApplication *self)
{
  gboolean animations = tw_settings_get_overlay_animations (self->settings);

  for (guint i = 0; i < self->served->len; i++)
    {
      Served *served = g_ptr_array_index (self->served, i);

      if (served->window != NULL)
        tw_window_set_overlay_animations (served->window, animations);
    }
}

Served *
_tw_application_serve_workspace (TwApplication  *self,
                                 const char     *path,
                                 GError        **error)
{
  g_autoptr(TwWorkspace) workspace = NULL;
  g_autoptr(GError) publish_error = NULL;
  g_autofree char *url = NULL;
  TwBrowser *browser;
  Served *served;

  workspace = tw_workspace_new (path, error);
  if (workspace == NULL)
    return NULL;

  browser = tw_workspace_get_browser (workspace);
  url = tw_mcp_server_dup_url (self->server);

  served = g_new0 (Served, 1);
  served->workspace = g_steal_pointer (&workspace);
  restore_workspace_state (self, served);

  tw_mcp_server_add_client (self->server, tw_workspace_get_token (served->workspace),
                            EXTERNAL_AGENT_ID, EXTERNAL_AGENT_NAME,
                            TW_BROWSER_SERVICE (browser));
  /* The workspace token is the person's own: whoever holds it (an MCP
   * client the person set up, the stdio bridge) may use every tab. Agents
   * the app launches get tokens of their own and keep to their tabs. */
  tw_browser_set_person_id (browser, EXTERNAL_AGENT_ID);

  /* Without the runtime file only the stdio bridge is lost; the window and
   * the token still work. */
  if (!tw_workspace_publish (served->workspace, url, &publish_error))
    g_warning ("Could not write the runtime file of %s: %s", path, publish_error->message);

  served->window = tw_window_new (ADW_APPLICATION (self), browser,
                                  tw_workspace_get_name (served->workspace),
                                  tw_workspace_get_path (served->workspace));
  tw_settings_restore_window (self->settings, GTK_WINDOW (served->window));
  if (self->port_notice != NULL)
    tw_window_add_toast (served->window, self->port_notice);
  g_clear_pointer (&self->port_notice, g_free);
  tw_window_set_mcp_connection (served->window, url,
                                tw_workspace_get_token (served->workspace));

  served->agents = tw_agent_manager_new (self->server, TW_BROWSER_SERVICE (browser),
                                         tw_workspace_get_path (served->workspace),
                                         self->presets);
  tw_agent_manager_set_settings (served->agents, self->settings);
  tw_window_set_agents (served->window, tw_agent_manager_get_launcher (served->agents),
                        tw_agent_manager_get_pane (served->agents));
  tw_window_set_recent_workspaces (served->window, tw_recent_workspaces_get_menu (self->recent));
  tw_activity_feed_set_timeline (TW_ACTIVITY_FEED (tw_window_get_activity_feed (served->window)),
                                 tw_workspace_get_timeline (served->workspace));
  tw_recent_workspaces_add (self->recent, tw_workspace_get_path (served->workspace));

  g_ptr_array_add (self->served, served);
  _tw_application_update_overlay_animations (self);

  return served;
}

/* Finds the workspace's window, or opens one, and brings it forward. */
Served *
_tw_application_present_workspace (TwApplication  *self,
                                   const char     *path,
                                   int             port,
                                   GError        **error)
{
  Served *served;

  if (!_tw_application_ensure_server (self, port, error))
    return NULL;

  /* One window per workspace: asking again brings it forward. */
  served = find_served (self, path);
  if (served == NULL)
    served = _tw_application_serve_workspace (self, path, error);

  if (served != NULL)
    gtk_window_present (GTK_WINDOW (served->window));

  return served;
}
