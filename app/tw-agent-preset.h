/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* An agent preset: how one coding agent (Claude Code, Codex, Gemini CLI,
 * OpenCode, or any command) is started so that it reaches Tabwright with its
 * own token. Presets are data: data/agent-presets.json in the GResource,
 * with the user's $XDG_CONFIG_HOME/tabwright/agent-presets.json merged over
 * it. That file documents the members and the placeholders. */

#define TW_TYPE_AGENT_PRESET (tw_agent_preset_get_type ())
G_DECLARE_FINAL_TYPE (TwAgentPreset, tw_agent_preset, TW, AGENT_PRESET, GObject)

/* What a launch fills the placeholders of a preset with. */
typedef struct
{
  const char *url;              /* {url} */
  const char *token;            /* {token} */
  const char *workspace;        /* {workspace} */
  const char *mcp_config_path;  /* {mcpConfig}: the TABWRIGHT_MCP_CONFIG file */
  const char *config_path;      /* {configFile}: the file written from "config" */
} TwAgentPresetValues;

const char         *tw_agent_preset_get_id              (TwAgentPreset              *self);
const char         *tw_agent_preset_get_name            (TwAgentPreset              *self);
const char         *tw_agent_preset_get_description     (TwAgentPreset              *self);
/* NULL for presets that need a command. */
const char         *tw_agent_preset_get_program         (TwAgentPreset              *self);
const char         *tw_agent_preset_get_install_command (TwAgentPreset              *self);
const char         *tw_agent_preset_get_homepage        (TwAgentPreset              *self);
const char         *tw_agent_preset_get_notes           (TwAgentPreset              *self);
gboolean            tw_agent_preset_get_needs_command   (TwAgentPreset              *self);
gboolean            tw_agent_preset_get_hidden          (TwAgentPreset              *self);
/* The person's say (issue 32): "allowedSites", "approve",
 * "approvalTimeoutSeconds" and "session" of the preset, NULL (0) where it
 * leaves the workspace's; see TwAgentPolicy. */
const char * const *tw_agent_preset_get_allowed_sites   (TwAgentPreset              *self);
const char * const *tw_agent_preset_get_approve         (TwAgentPreset              *self);
guint               tw_agent_preset_get_approval_timeout (TwAgentPreset             *self);
const char         *tw_agent_preset_get_session         (TwAgentPreset              *self);
/* The session the person chose for the preset's agents (an agent's menu),
 * in place of the preset's own "session"; NULL puts that back. */
void                tw_agent_preset_set_session         (TwAgentPreset              *self,
                                                         const char                 *session);
/* Whether the preset writes a config file of its own ({configFile}). */
gboolean            tw_agent_preset_has_config          (TwAgentPreset              *self);

/* Finds the program that a launch with @command (NULL: the preset's own
 * program) would run: in PATH, then in the preset's search paths; a program
 * named with a slash is taken relative to @cwd. Inside
 * Flatpak it looks on the host, where agents run. Finishes with the
 * program's path, or NULL without an error when it is not installed. */
void                tw_agent_preset_locate_async        (TwAgentPreset              *self,
                                                         const char                 *command,
                                                         const char                 *cwd,
                                                         GCancellable               *cancellable,
                                                         GAsyncReadyCallback         callback,
                                                         gpointer                    user_data);
char               *tw_agent_preset_locate_finish       (TwAgentPreset              *self,
                                                         GAsyncResult               *result,
                                                         GError                    **error);

/* The command line of a launch: @command split into words when given
 * (it replaces the preset's program), else @program_path (where the program
 * was found) or the preset's program, followed by the preset's arguments. */
char              **tw_agent_preset_build_argv          (TwAgentPreset              *self,
                                                         const char                 *command,
                                                         const char                 *program_path,
                                                         const TwAgentPresetValues  *values,
                                                         GError                    **error);
/* The preset's own environment, as NAME=VALUE strings. */
char              **tw_agent_preset_build_env           (TwAgentPreset              *self,
                                                         const TwAgentPresetValues  *values,
                                                         GError                    **error);
/* The contents of the preset's config file, or NULL without an error when
 * it has none. */
char               *tw_agent_preset_build_config        (TwAgentPreset              *self,
                                                         const TwAgentPresetValues  *values,
                                                         GError                    **error);

/* Preset lists. A list is a GListModel of TwAgentPreset in menu order,
 * hidden ones left out. */

/* Parses @builtin and merges @user_file over it (a missing file is fine).
 * Fails only when @builtin is not a valid presets file. A user file that
 * cannot be read or has mistakes is reported in @user_error, and what of it
 * is valid still applies. */
GListModel         *tw_agent_presets_new_from_data      (GBytes                     *builtin,
                                                         const char                 *user_file,
                                                         GError                    **user_error,
                                                         GError                    **error);
/* The built-in presets from the GResource, with the user's file merged over. */
GListModel         *tw_agent_presets_new                (GError                    **user_error);
/* $XDG_CONFIG_HOME/tabwright/agent-presets.json */
char               *tw_agent_presets_dup_user_file      (void);
TwAgentPreset      *tw_agent_presets_lookup             (GListModel                 *presets,
                                                         const char                 *id);

/* TRUE inside a Flatpak sandbox, where agents run on the host. */
gboolean            tw_agent_preset_in_flatpak          (void);

G_END_DECLS
