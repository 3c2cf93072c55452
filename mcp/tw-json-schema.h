/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A validator for the part of JSON Schema our tool schemas use: type (object,
 * string, integer, number, boolean, array, null, or a list of those),
 * properties, required, additionalProperties, enum, minimum, maximum,
 * minLength, maxLength, items, minItems, maxItems. Annotations (title,
 * description, default, examples) are ignored.
 *
 * The root instance is a tool's arguments object, so messages name the
 * argument: `"url" must be a string`, `unknown argument "foo"`,
 * `missing required argument "browserId"`, with paths such as
 * `"options.width"` or `"filePaths[1]"` for nested values. Failures are
 * TW_BROWSER_ERROR_INVALID_ARGUMENT. */

gboolean tw_json_schema_validate (JsonNode  *schema,
                                  JsonNode  *instance,
                                  GError   **error);

/* The same for the arguments of a tool call, where every string has a
 * bound: a string whose schema sets no maxLength may be at most
 * TW_JSON_SCHEMA_MAX_STRING_CHARS characters long. Strings that may be
 * longer say so with their own maxLength. */
#define TW_JSON_SCHEMA_MAX_STRING_CHARS 10000

gboolean tw_json_schema_validate_arguments (JsonNode  *schema,
                                            JsonNode  *instance,
                                            GError   **error);

/* Checks that @schema uses only the keywords above, with values of the
 * right shape, so that a tool table cannot rely on a rule the validator
 * would silently skip. Failures are TW_BROWSER_ERROR_INTERNAL and name the
 * offending keyword. */
gboolean tw_json_schema_check    (JsonNode  *schema,
                                  GError   **error);

G_END_DECLS
