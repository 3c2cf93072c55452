/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-setting-choice.h"

static gboolean
key_to_active (GValue   *value,
               GVariant *variant,
               gpointer  user_data)
{
  const char * const *choice = user_data;

  g_value_set_boolean (value, g_strcmp0 (g_variant_get_string (variant, NULL), choice[0]) == 0);

  return TRUE;
}

static GVariant *
active_to_key (const GValue       *value,
               const GVariantType *expected_type,
               gpointer            user_data)
{
  const char * const *choice = user_data;

  return g_variant_new_string (choice[g_value_get_boolean (value) ? 0 : 1]);
}

void
tw_setting_bind_choice (GSettings          *settings,
                        const char         *key,
                        gpointer            object,
                        const char         *property,
                        GSettingsBindFlags  flags,
                        const char * const  choice[2])
{
  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (G_IS_OBJECT (object));
  g_return_if_fail (choice != NULL && choice[0] != NULL && choice[1] != NULL);

  g_settings_bind_with_mapping (settings, key, object, property, flags,
                                key_to_active, active_to_key, (gpointer) choice, NULL);
}
