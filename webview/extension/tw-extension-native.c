/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-extension-native.h"

GWeakRef *
tw_extension_weak_ref_new (gpointer object)
{
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  g_weak_ref_init (ref, object);
  return ref;
}

void
tw_extension_weak_ref_free (GWeakRef *ref)
{
  g_weak_ref_clear (ref);
  g_free (ref);
}

void
tw_extension_set_native (JSCContext *context,
                         const char *name,
                         gpointer    object,
                         GCallback   callback,
                         GType       return_type,
                         guint       n_params,
                         ...)
{
  g_autoptr(JSCValue) native = NULL;
  GType types[8];
  va_list params;

  g_assert (n_params <= G_N_ELEMENTS (types));

  va_start (params, n_params);
  for (guint i = 0; i < n_params; i++)
    types[i] = va_arg (params, GType);
  va_end (params);

  native = jsc_value_new_functionv (context, name, callback, tw_extension_weak_ref_new (object),
                                    (GDestroyNotify) tw_extension_weak_ref_free, return_type,
                                    n_params, types);
  jsc_context_set_value (context, name, native);
}
