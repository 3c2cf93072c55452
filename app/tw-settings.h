/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "tw-browser.h"

G_BEGIN_DECLS

/* The app's settings (data/io.github.tabwright.Tabwright.gschema.xml):
 *
 *   io.github.tabwright.Tabwright            window size, MCP port policy,
 *                                            default agent, overlay
 *                                            animations, reopening tabs
 *   io.github.tabwright.Tabwright.Workspace  per workspace, at
 *     /io/github/tabwright/Tabwright/workspaces/<workspace id>/
 *                                            browser tools on or off,
 *                                            the offered tool groups
 *
 * The schemas are looked up where GSettings looks (GSETTINGS_SCHEMA_DIR,
 * XDG_DATA_DIRS) only when GSETTINGS_SCHEMA_DIR is set; otherwise next to
 * the running program first (tw-install-dirs.h), so that an install to any
 * prefix, a DESTDIR staging tree or the build tree uses its own schema. */

#define TW_SETTINGS_SCHEMA_ID           APP_ID
#define TW_SETTINGS_WORKSPACE_SCHEMA_ID APP_ID ".Workspace"

typedef enum
{
  TW_PORT_POLICY_RANDOM,
  TW_PORT_POLICY_FIXED,
} TwPortPolicy;

/* The source that holds the app's schemas, or NULL (with @error set) when
 * they are not installed anywhere Tabwright looks. */
GSettingsSchemaSource *tw_settings_get_schema_source     (GError      **error);

GSettings             *tw_settings_new                   (GError      **error);
GSettings             *tw_settings_new_for_workspace     (const char   *workspace_id,
                                                          GError      **error);
/* "/io/github/tabwright/Tabwright/workspaces/<id>/", with characters a
 * settings path cannot hold replaced. */
char                  *tw_settings_dup_workspace_path    (const char   *workspace_id);

/* Keeps @browser's "enabled" and the workspace's browser-tools-enabled key
 * the same, both ways, for as long as @browser lives: turning the key off
 * (Preferences, gsettings) makes every tool call fail with browser_disabled
 * at once; the window's "Turn On" sets the key back. @browser's
 * "emulate-focus" follows the emulate-focus key. */
void                   tw_settings_bind_browser          (GSettings    *workspace_settings,
                                                          TwBrowser    *browser);

/* Tool groups: "core,reading" as given to --tools, checked against the
 * groups of mcp/tools/tw-tool-groups.h; NULL with @error naming the known
 * groups when one is unknown. An empty list offers no tool. */
char                 **tw_settings_parse_tool_groups     (const char   *list,
                                                          GError      **error);

/* The port the MCP server should listen on when no --mcp-port was given:
 * the fixed port, or 0 for any free one. */
guint16                tw_settings_get_mcp_port          (GSettings    *settings);

/* Whether the action overlay animates: the overlay-animations key, and
 * never while the desktop turned animations off (gtk-enable-animations). */
gboolean               tw_settings_get_overlay_animations (GSettings   *settings);

/* Window size and maximized state: applied before the window shows, saved
 * when it closes. */
void                   tw_settings_restore_window        (GSettings    *settings,
                                                          GtkWindow    *window);
void                   tw_settings_save_window           (GSettings    *settings,
                                                          GtkWindow    *window);

G_END_DECLS
