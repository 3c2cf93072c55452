/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* The application: one MCP server for the whole process, one window per
 * workspace. A second `tabwright --workspace DIR` in the same session ends up
 * in the running instance, which opens (or presents) that workspace's window;
 * `--print-mcp-config` is answered by the process that was asked, without
 * any window. */

#define TW_TYPE_APPLICATION (tw_application_get_type ())
G_DECLARE_FINAL_TYPE (TwApplication, tw_application, TW, APPLICATION, AdwApplication)

TwApplication *tw_application_new (void);

G_END_DECLS
