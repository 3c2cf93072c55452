/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The stdio bridge behind `tabwright-mcp`: reads newline-delimited JSON-RPC
 * from @input, answers initialize, ping and tools/list itself, and relays
 * every tools/call (with its progress notifications and cancellation) to the
 * Tabwright that serves the workspace, found through its runtime file. While
 * no Tabwright runs, tools/call results are browser_no_host errors; when it
 * comes back, even on another port, the bridge finds it again. Only JSON-RPC
 * is written to @output, one message per line, in the order produced. */

#define TW_TYPE_STDIO_BRIDGE (tw_stdio_bridge_get_type ())
G_DECLARE_FINAL_TYPE (TwStdioBridge, tw_stdio_bridge, TW, STDIO_BRIDGE, GObject)

/* @workspace_path must be canonical (see tw_workspace_id_canonicalize_path()). */
TwStdioBridge *tw_stdio_bridge_new        (const char           *workspace_path,
                                           GInputStream         *input,
                                           GOutputStream        *output);

/* Serves until @input ends and every request read before the end has been
 * answered (then TRUE), until reading or writing fails, or until
 * @cancellable is cancelled (G_IO_ERROR_CANCELLED). Runs once. */
void           tw_stdio_bridge_run_async  (TwStdioBridge        *self,
                                           GCancellable         *cancellable,
                                           GAsyncReadyCallback   callback,
                                           gpointer              user_data);
gboolean       tw_stdio_bridge_run_finish (TwStdioBridge        *self,
                                           GAsyncResult         *result,
                                           GError              **error);

G_END_DECLS
