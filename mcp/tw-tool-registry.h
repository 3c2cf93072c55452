/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "tw-tool.h"

G_BEGIN_DECLS

/* All browser tools, gathered from the group tables of tw-tool-groups.h.
 * The registry parses each tool's schemas once and keeps them for the life
 * of the process. */

guint            tw_tool_registry_get_n_tools      (void);
const TwToolDef *tw_tool_registry_get_tool         (guint             index);
const TwToolDef *tw_tool_registry_lookup           (const char       *name);

/* The parsed schemas of @def, owned by the registry. The output schema is
 * NULL for text-only tools. */
JsonNode        *tw_tool_registry_get_input_schema  (const TwToolDef *def);
JsonNode        *tw_tool_registry_get_output_schema (const TwToolDef *def);

/* One entry of a tools/list result: name, title, description, inputSchema,
 * outputSchema (when set) and annotations. */
JsonObject      *tw_tool_def_to_json               (const TwToolDef  *def);

/* The result of tools/list: { tools: [ ... ] }, every tool. */
JsonNode        *tw_tool_registry_list_tools        (void);

/* Tool groups (tw-tool-groups.h): the tools/list result of the tools whose
 * offered group is on in @service's workspace (all of them for NULL). */
JsonNode        *tw_tool_registry_list_offered_tools (TwBrowserService *service);

/* The offered groups, in the order of tw-tool-groups.h ("core" first). */
guint            tw_tool_registry_get_n_groups      (void);
const char      *tw_tool_registry_get_group_name    (guint             index);
gboolean         tw_tool_registry_has_group         (const char       *group);
guint            tw_tool_registry_get_group_n_tools (const char       *group);

/* The offered group of @def, or NULL for a test tool offered always. */
const char      *tw_tool_registry_get_group         (const TwToolDef *def);

/* Checks every table: unique names of the form browser_*, titles and
 * descriptions present, schemas that parse and use only keywords the
 * validator knows, input schemas that are closed objects. */
gboolean         tw_tool_registry_check             (GError         **error);

G_END_DECLS
