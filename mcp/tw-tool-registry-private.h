/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tool-registry.h"

G_BEGIN_DECLS

/* Adds tools that exist only inside a test program (for example one that
 * reports progress on demand). @defs must stay valid for the rest of the
 * process. Their names need not start with browser_. */
void tw_tool_registry_add_tools_for_testing (const TwToolDef *defs,
                                             guint            n_defs);

/* The same, offered in @group, which becomes one of the registry's groups. */
void tw_tool_registry_add_group_for_testing (const char      *group,
                                             const TwToolDef *defs,
                                             guint            n_defs);

G_END_DECLS
