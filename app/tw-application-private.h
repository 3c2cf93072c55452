/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-agent-manager.h"
#include "tw-application.h"
#include "tw-mcp-server.h"
#include "tw-recent-workspaces.h"
#include "tw-session.h"
#include "tw-window.h"
#include "tw-workspace.h"

G_BEGIN_DECLS

/* Shared by tw-application.c (the GApplication and its command line),
 * tw-application-workspaces.c (a window per workspace, served over the one
 * MCP server), tw-application-actions.c (what the app.* actions do),
 * tw-application-cli.c (the options that answer and exit without a window)
 * and tw-application-processes.c (what the app started ends with it). */

/* ensure_server() with no --mcp-port: the port policy of the settings. */
#define PORT_FROM_SETTINGS (-1)

typedef struct
{
  TwWorkspace    *workspace;
  TwWindow       *window;
  TwAgentManager *agents;
  GSettings      *workspace_settings;
  TwSession      *session;
} Served;

struct _TwApplication
{
  AdwApplication  parent_instance;

  TwMcpServer    *server;
  GSettings      *settings;
  /* Why MCP is not on the fixed port, for the next window to say. */
  char           *port_notice;
  /* TwAgentPreset, shared by every workspace. */
  GListModel     *presets;
  TwRecentWorkspaces *recent;
  /* Served: the workspaces with a window, in the order they were opened. */
  GPtrArray      *served;
  guint           sigint_source;
  guint           sigterm_source;
};

/* tw-application-workspaces.c */
void     _tw_application_served_free                (Served         *served);
gboolean _tw_application_ensure_server              (TwApplication  *self,
                                                     int             port,
                                                     GError        **error);
void     _tw_application_update_overlay_animations  (TwApplication  *self);
Served  *_tw_application_serve_workspace            (TwApplication  *self,
                                                     const char     *path,
                                                     GError        **error);
Served  *_tw_application_present_workspace          (TwApplication  *self,
                                                     const char     *path,
                                                     int             port,
                                                     GError        **error);
void     _tw_application_stop_serving               (TwApplication  *self,
                                                     Served         *served);

/* tw-application-actions.c */
void     _tw_application_add_actions                (TwApplication  *self);

/* tw-application-cli.c */
int      _tw_application_print_mcp_config           (const char     *workspace_arg);
int      _tw_application_install_gemini_extension   (void);

/* tw-application-processes.c */
void     _tw_application_end_started_processes      (void);

G_END_DECLS
