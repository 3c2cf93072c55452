/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "tw-browser-service.h"

G_BEGIN_DECLS

/* TwToolCall: one in-flight tools/call. Handlers receive it with
 * arguments already validated against the tool's input schema and must
 * finish it exactly once, from any main-loop iteration, with one of the
 * tw_tool_call_return_*() functions. */

typedef void (*TwToolHandler) (TwToolCall *call);

/* Turns a service result into the text the model reads. The text and the
 * structured object must say the same thing. */
typedef char *(*TwToolFormatFunc) (JsonObject *result);

/* Checks a tool's arguments beyond what its input schema can say (one of
 * several members, an http URL). @arguments were validated against the
 * schema. */
typedef gboolean (*TwToolCheckFunc) (JsonObject  *arguments,
                                     GError     **error);

/* The arguments a tool forwards to its command, by name: a NULL-terminated
 * list, for TwToolDef.arguments. */
#define TW_TOOL_ARGUMENTS(...) ((const char * const []) { __VA_ARGS__, NULL })

/* The one table row that describes a tool: everything tools/list reports and
 * the generated reference documents comes from here, with the tool's
 * schemas. The browser_* tools keep those in JSON files,
 * mcp/tools/schemas/TOOL.input.json and TOOL.output.json (none for a tool
 * that answers with text only), and leave @input_schema and @output_schema
 * NULL; other tables (tests) may give them here as JSON text.
 *
 * A tool that is one command leaves @handler NULL and names the command:
 * one generic handler checks the arguments with @check (when given), runs
 * @command on the tab of the browserId argument (on the workspace when the
 * tool has none) with the arguments named in @arguments (none when NULL),
 * and answers with @format. Tools that do more give their own @handler. */
typedef struct
{
  const char    *name;
  const char    *title;
  const char    *description;
  /* Words an agent searches with, beyond those of the name and description,
   * reported as _meta "anthropic/searchHint": Claude Code's ToolSearch
   * scores a word of it twice a word of the description, and never shows it
   * to the model, so it costs no context. NULL for none. */
  const char    *search_hint;
  const char    *input_schema;
  const char    *output_schema;   /* NULL for tools that answer with text only */
  gboolean       read_only;
  gboolean       destructive;
  gboolean       idempotent;
  gboolean       open_world;
  TwToolHandler  handler;

  TwTabCommand         command;
  const char * const  *arguments;
  TwToolFormatFunc     format;
  TwToolCheckFunc      check;
} TwToolDef;

/* The tools of one table, as its file exports them (tw-tool-groups.h):
 * const TwToolTable tw_tools_<name> = TW_TOOL_TABLE (<its TwToolDef array>); */
typedef struct
{
  const TwToolDef *defs;
  guint            n_defs;
} TwToolTable;

#define TW_TOOL_TABLE(defs) { (defs), G_N_ELEMENTS (defs) }

const char       *tw_tool_call_get_name         (TwToolCall       *call);
JsonObject       *tw_tool_call_get_arguments    (TwToolCall       *call);
const TwCaller   *tw_tool_call_get_caller       (TwToolCall       *call);
GCancellable     *tw_tool_call_get_cancellable  (TwToolCall       *call);

/* A new object with the members of the call's arguments named in the
 * NULL-terminated @names that are present and not null: the parameters a
 * command takes from its tool. */
JsonObject       *tw_tool_call_copy_arguments   (TwToolCall         *call,
                                                 const char * const *names);

/* Sends notifications/progress when the client asked for progress. */
void              tw_tool_call_report_progress  (TwToolCall       *call,
                                                 double            progress,
                                                 double            total,
                                                 const char       *message);

/* Runs one browser service command on behalf of the call. Commands on the same
 * browser id run one after the other, in the order they were issued; commands
 * on different tabs run concurrently. When it completes, the result becomes the
 * tool's structuredContent and @format's text its text content; an error
 * becomes the tool's error result. */
void              tw_tool_call_run_command      (TwToolCall       *call,
                                                 TwTabCommand      command,
                                                 const char       *browser_id,
                                                 JsonObject       *params,
                                                 TwToolFormatFunc  format);

/* Finishes a call from a command's result, for tools whose reply is more
 * than text and structured content, such as an image. It must finish @call
 * with one of the tw_tool_call_return_*() functions, or go on with another
 * command of the call (browser_performance reloads, then measures); errors
 * of the command never reach it (they become the tool's error result). */
typedef void (*TwToolReplyFunc) (TwToolCall *call,
                                 JsonObject *result);

/* Like tw_tool_call_run_command(), in the same per-tab order, but hands the
 * result to @reply instead of turning it into text and structuredContent. */
void              tw_tool_call_run_command_full (TwToolCall       *call,
                                                 TwTabCommand      command,
                                                 const char       *browser_id,
                                                 JsonObject       *params,
                                                 TwToolReplyFunc   reply);

/* Finishing a call. @structured may be NULL; ownership is taken. */
void              tw_tool_call_return_text      (TwToolCall       *call,
                                                 const char       *text,
                                                 JsonObject       *structured);
void              tw_tool_call_return_image     (TwToolCall       *call,
                                                 const char       *text,
                                                 GBytes           *png,
                                                 JsonObject       *structured);
void              tw_tool_call_return_error     (TwToolCall       *call,
                                                 const GError     *error);

G_END_DECLS
