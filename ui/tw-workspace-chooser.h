/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Asks the person for a folder to open as a workspace, with the portal's
 * file chooser where there is one. Finishes with the folder's path, or fails
 * with G_IO_ERROR_CANCELLED when they change their mind. */
void  tw_workspace_chooser_open_async  (GtkWindow            *parent,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
char *tw_workspace_chooser_open_finish (GAsyncResult         *result,
                                        GError              **error);

G_END_DECLS
