/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-agent.h"

G_BEGIN_DECLS

/* tw-agent-launch.c */

/* Creates @dir, readable by the user alone, as the files in it hold tokens. */
gboolean  tw_agent_make_config_dir    (const char          *dir,
                                       GError             **error);
/* Writes @contents to a new file in @dir named after @name_template (with
 * XXXXXX in it) that only the user can read; returns its path. */
char     *tw_agent_write_private_file (const char          *dir,
                                       const char          *name_template,
                                       const char          *contents,
                                       GError             **error);
/* @argv as one line a person can read and paste into a shell. */
char     *tw_agent_quote_command_line (const char * const  *argv);

G_END_DECLS
