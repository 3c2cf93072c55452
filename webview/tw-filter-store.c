/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-filter-store.h"

WebKitUserContentFilterStore *
tw_filter_store_get_default (void)
{
  static WebKitUserContentFilterStore *store;

  if (store == NULL)
    {
      g_autofree char *path = g_build_filename (g_get_user_cache_dir (), "tabwright",
                                                "content-filters", NULL);

      store = webkit_user_content_filter_store_new (path);
    }

  return store;
}
