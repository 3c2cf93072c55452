/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Binds a boolean property (a switch's "active", a row's "sensitive") to a
 * string or enum key of two values, @choice[0] and @choice[1]: TRUE while
 * the key is @choice[0]; setting the property writes one or the other.
 * @choice is static data: it must outlive the binding. */
void tw_setting_bind_choice (GSettings          *settings,
                             const char         *key,
                             gpointer            object,
                             const char         *property,
                             GSettingsBindFlags  flags,
                             const char * const  choice[2]);

G_END_DECLS
