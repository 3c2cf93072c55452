/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include <webkit/webkit.h>

G_BEGIN_DECLS

/* browser_pdf: the page of @view printed to a PDF file in the workspace,
 * through WebKit's print operation without a dialog.
 * {path, paperSize?: A4|A3|A5|Letter|Legal, landscape?, background?} ->
 * {path, size}. The path is checked with tw_workspace_path_check() first. */
void        tw_tab_pdf_async  (WebKitWebView        *view,
                               JsonObject           *params,
                               const char           *workspace_dir,
                               GCancellable         *cancellable,
                               GAsyncReadyCallback   callback,
                               gpointer              user_data);
JsonObject *tw_tab_pdf_finish (GAsyncResult         *result,
                               GError              **error);

G_END_DECLS
