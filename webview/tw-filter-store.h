/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>

G_BEGIN_DECLS

/* The one store of the content filters tabs carry (offline, abort routes,
 * allowed sites), compiled into Tabwright's cache folder. Each kind of
 * filter saves under identifiers of its own. */
WebKitUserContentFilterStore *tw_filter_store_get_default (void);

G_END_DECLS
