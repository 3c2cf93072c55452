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
tw_extension_set_native (WebKitFrame       *frame,
                         WebKitScriptWorld *world,
                         const char        *name,
                         gpointer           object,
                         GCallback          callback,
                         GType              return_type,
                         ...)
{
  g_autoptr(JSCContext) context = webkit_frame_get_js_context_for_script_world (frame, world);
  g_autoptr(JSCValue) native = NULL;
  GType types[8];
  guint n_params = 0;
  va_list params;
  GType type;

  va_start (params, return_type);
  while ((type = va_arg (params, GType)) != G_TYPE_INVALID)
    {
      g_assert (n_params < G_N_ELEMENTS (types));
      types[n_params++] = type;
    }
  va_end (params);

  native = jsc_value_new_functionv (context, name, callback, tw_extension_weak_ref_new (object),
                                    (GDestroyNotify) tw_extension_weak_ref_free, return_type,
                                    n_params, types);
  jsc_context_set_value (context, name, native);
}
