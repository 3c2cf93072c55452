/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-tool.h"

G_BEGIN_DECLS

/* The side of TwToolCall that whoever serves tools sees: the MCP server, and
 * tests. Tool handlers only use tw-tool.h. */

typedef void (*TwToolCallProgressFunc) (TwToolCall   *call,
                                        double        progress,
                                        double        total,
                                        const char   *message,
                                        gpointer      user_data);

/* Called once when the call finishes. @result is the MCP CallToolResult;
 * @error is set when the result is an error result. */
typedef void (*TwToolCallDoneFunc)     (TwToolCall   *call,
                                        JsonNode     *result,
                                        const GError *error,
                                        gpointer      user_data);

TwToolCall *tw_tool_call_new               (const TwToolDef        *def,
                                            JsonObject             *arguments,
                                            TwBrowserService       *service,
                                            const TwCaller         *caller,
                                            GCancellable           *cancellable);
TwToolCall *tw_tool_call_ref               (TwToolCall             *call);
void        tw_tool_call_unref             (TwToolCall             *call);

void        tw_tool_call_set_progress_func (TwToolCall             *call,
                                            TwToolCallProgressFunc  func,
                                            gpointer                user_data);
/* @destroy runs on @user_data when the call is freed, which may be after
 * the call finished. */
void        tw_tool_call_set_done_func     (TwToolCall             *call,
                                            TwToolCallDoneFunc      func,
                                            gpointer                user_data,
                                            GDestroyNotify          destroy);

/* Checks the arguments against the tool's input schema (a failure finishes
 * the call with browser_invalid_argument) and runs the handler. The call
 * keeps itself alive until it finishes. */
void        tw_tool_call_start             (TwToolCall             *call);
gboolean    tw_tool_call_is_finished       (TwToolCall             *call);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwToolCall, tw_tool_call_unref)

G_END_DECLS
