/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What the page tools share, from tw-page-tools.c: reading their
 * parameters. */

gboolean _tw_page_tools_get_int_param     (JsonObject  *params,
                                           const char  *name,
                                           gint64      *value,
                                           GError     **error);
gboolean _tw_page_tools_get_boolean_param (JsonObject  *params,
                                           const char  *name,
                                           gboolean    *value,
                                           GError     **error);

G_END_DECLS
