/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* "Install Gemini CLI Extension": asks the person before anything is
 * written. It shows the file and what goes into it and asks for a yes; says
 * so when the extension is installed and up to date already (writing
 * nothing); and when a different file is there, shows both and asks before
 * replacing it. TwGeminiExtension does the writing.
 *
 * Finishes TRUE when the extension is installed now (written or already
 * there), FALSE without an error when the person said no, or with the error
 * (shown to the person as well) when it could not be read or written. */
void     tw_gemini_install_run_async  (GtkWindow           *parent,
                                       const char          *home,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
gboolean tw_gemini_install_run_finish (GAsyncResult        *result,
                                       GError             **error);

G_END_DECLS
