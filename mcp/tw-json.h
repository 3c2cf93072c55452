/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Reading the members of JSON objects that come from clients, pages or
 * files: a member may be absent, null or of another type. Each getter gives
 * the member when it has the type asked for, and @fallback (or NULL)
 * otherwise. A NULL @object reads as an empty one. */

/* The type of the value @node holds (G_TYPE_STRING, G_TYPE_INT64,
 * G_TYPE_DOUBLE or G_TYPE_BOOLEAN); G_TYPE_INVALID for NULL, null, an
 * object or an array. */
GType       tw_json_value_type  (JsonNode   *node);

const char *tw_json_get_string  (JsonObject *object,
                                 const char *member,
                                 const char *fallback);

gboolean    tw_json_get_boolean (JsonObject *object,
                                 const char *member,
                                 gboolean    fallback);

/* An integer member; a number with a fraction is not an integer. */
gint64      tw_json_get_int     (JsonObject *object,
                                 const char *member,
                                 gint64      fallback);

/* A number member, integer or not. */
double      tw_json_get_number  (JsonObject *object,
                                 const char *member,
                                 double      fallback);

JsonObject *tw_json_get_object  (JsonObject *object,
                                 const char *member);

JsonArray  *tw_json_get_array   (JsonObject *object,
                                 const char *member);

/* The strings of an array member, in order, leaving out elements that are
 * not strings; NULL when the member is not an array. Free with g_strfreev(). */
char      **tw_json_get_strv    (JsonObject *object,
                                 const char *member);

/* An optional string argument: NULL when it is absent or null, and NULL with
 * @error set (browser_invalid_argument, naming @member) when it is there but
 * not a string. */
const char *tw_json_get_string_arg (JsonObject  *object,
                                    const char  *member,
                                    GError     **error);

/* An optional boolean argument: sets *@value when it is there; leaves it
 * when it is absent or null; FALSE with @error set (browser_invalid_argument,
 * naming @member) when it is there but not true or false. */
gboolean    tw_json_get_boolean_arg (JsonObject  *object,
                                     const char  *member,
                                     gboolean    *value,
                                     GError     **error);

/* Writing: copies into @dest the members of @source it does not have
 * yet, in their order. */
void        tw_json_merge       (JsonObject *dest,
                                 JsonObject *source);

/* Appends @text as a JSON string: in double quotes, with its quotes,
 * backslashes and control characters escaped, and what is not UTF-8
 * replaced by U+FFFD. */
void        tw_json_append_string (GString    *out,
                                   const char *text);

G_END_DECLS
