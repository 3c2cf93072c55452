/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit-web-process-extension.h>

G_BEGIN_DECLS

/* Native functions of the extension in an isolated world of a frame. Each
 * holds a weak reference to the object it works on (a page or a frame),
 * which it gets as its last argument: a script world outlives neither. */

GWeakRef *tw_extension_weak_ref_new  (gpointer    object);
void      tw_extension_weak_ref_free (GWeakRef   *ref);

/* Sets the global @name of @world in @frame to a native function that
 * calls @callback with its arguments, of the GTypes that follow up to
 * G_TYPE_INVALID (at most eight), and a GWeakRef * to @object; it returns
 * @return_type. */
void      tw_extension_set_native    (WebKitFrame       *frame,
                                      WebKitScriptWorld *world,
                                      const char        *name,
                                      gpointer           object,
                                      GCallback          callback,
                                      GType              return_type,
                                      ...);

G_END_DECLS
