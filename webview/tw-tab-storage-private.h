/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>

#include "tw-tab-storage.h"

G_BEGIN_DECLS

/* What the parts of tw-tab-storage share: tw-tab-storage.c holds
 * localStorage and sessionStorage, tw-tab-storage-cookies.c the cookies,
 * and tw-tab-storage-state.c the storage state both go into. */

/* tw-tab-storage.c */
GError     *_tw_tab_storage_invalid          (const char  *format,
                                              ...) G_GNUC_PRINTF (1, 2);
JsonObject *_tw_tab_storage_parse_answer     (JsonNode    *node,
                                              GError     **error);

/* tw-tab-storage-cookies.c */
JsonObject *_tw_tab_storage_cookie_to_json   (SoupCookie  *cookie);
SoupCookie *_tw_tab_storage_cookie_from_json (JsonObject  *object,
                                              GError     **error);
gboolean    _tw_tab_storage_cookie_same_slot (SoupCookie  *a,
                                              SoupCookie  *b);
void        _tw_tab_storage_cookie_list_free (GList       *cookies);
/* In the callback of webkit_cookie_manager_get_all_cookies() for @task:
 * TRUE with *@cookies set (free with _tw_tab_storage_cookie_list_free()),
 * or FALSE once @task has returned WebKit's error. */
gboolean    _tw_tab_storage_get_cookies_finish (GTask         *task,
                                                GObject       *manager,
                                                GAsyncResult  *result,
                                                GList        **cookies);
JsonArray  *_tw_tab_storage_cookies_to_json  (GList       *cookies,
                                              const char  *name,
                                              const char  *domain,
                                              const char  *path);

G_END_DECLS
