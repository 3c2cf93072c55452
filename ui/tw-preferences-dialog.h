/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Preferences, bound to the app's GSettings so that every change applies at
 * once: browser tools for the window's workspace, the default agent, the
 * MCP port policy (used at the next start), overlay animations and
 * reopening tabs. See data/io.github.tabwright.Tabwright.gschema.xml. */

#define TW_TYPE_PREFERENCES_DIALOG (tw_preferences_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TwPreferencesDialog, tw_preferences_dialog, TW, PREFERENCES_DIALOG,
                      AdwPreferencesWindow)

/* @settings uses the io.github.tabwright.Tabwright schema, and
 * @workspace_settings the io.github.tabwright.Tabwright.Workspace one of
 * the workspace named @workspace_name; without them the workspace part is
 * hidden. */
TwPreferencesDialog *tw_preferences_dialog_new              (GtkWindow           *parent,
                                                             GSettings           *settings,
                                                             GSettings           *workspace_settings,
                                                             const char          *workspace_name);

/* The agents the Default Agent row offers: preset ids and their names,
 * two NULL-terminated arrays of the same length, in menu order. */
void                 tw_preferences_dialog_set_agents       (TwPreferencesDialog *self,
                                                             const char * const  *ids,
                                                             const char * const  *names);

/* The port MCP is served on now (0: not serving), shown next to the port
 * policy, which only applies from the next start. */
void                 tw_preferences_dialog_set_serving_port (TwPreferencesDialog *self,
                                                             guint                port);

G_END_DECLS
