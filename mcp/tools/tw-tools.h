/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tool.h"

G_BEGIN_DECLS

/* The exported table of each tool group listed in tw-tool-groups.h. */
#define TW_TOOL_GROUP(name, offered) extern const TwToolTable tw_tools_##name;
#include "tw-tool-groups.h"
#undef TW_TOOL_GROUP

/* The marks of a browser_annotate result, one a line, with their refs. */
void  tw_tools_annotate_append_marks (GString    *text,
                                      JsonObject *result);

G_END_DECLS
