/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <webkit/webkit.h>

#include "tw-test-util.h"

G_BEGIN_DECLS

/* What the C tests with real web views share: loading a page and running
 * script in it, waiting on the main loop until they are done. */

gboolean  tw_test_view_load      (WebKitWebView *view,
                                  const char    *url,
                                  guint          timeout_ms);
JSCValue *tw_test_view_evaluate  (WebKitWebView *view,
                                  const char    *script,
                                  guint          timeout_ms);

G_END_DECLS
