/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-json.h"
#include "tw-tool.h"

G_BEGIN_DECLS

/* Pieces that several tool groups share, so that the same thing reads the
 * same everywhere: schema fragments (JSON text to paste into a schema
 * literal) and the wording of common results. */

/* The "browserId" member of an input schema's properties. */
#define TW_TOOL_BROWSER_ID_PROPERTY \
  "\"browserId\": {" \
  "\"type\": \"string\", \"minLength\": 1, " \
  "\"description\": \"Tab id, e.g. \\\"b3\\\".\"" \
  "}"

/* An input schema: an object with @properties (schema members, as JSON
 * text), of which those named in @required (quoted names, comma-separated)
 * must be given, and nothing else. */
#define TW_TOOL_INPUT_SCHEMA(properties, required) \
  "{" \
  "\"type\": \"object\", " \
  "\"properties\": {" properties "}, " \
  "\"required\": [" required "], " \
  "\"additionalProperties\": false" \
  "}"

/* An input schema whose arguments may all be left out. */
#define TW_TOOL_OPTIONAL_INPUT_SCHEMA(properties) \
  "{" \
  "\"type\": \"object\", " \
  "\"properties\": {" properties "}, " \
  "\"additionalProperties\": false" \
  "}"

/* The input schema of a tool that takes no arguments. */
#define TW_TOOL_NO_ARGUMENTS_SCHEMA TW_TOOL_OPTIONAL_INPUT_SCHEMA ("")

/* An output schema: an object with @properties, of which those named in
 * @required are always there. */
#define TW_TOOL_OUTPUT_SCHEMA(properties, required) \
  "{" \
  "\"type\": \"object\", " \
  "\"properties\": {" properties "}, " \
  "\"required\": [" required "]" \
  "}"

/* An input schema whose only argument is browserId. */
#define TW_TOOL_BROWSER_ID_ONLY_SCHEMA \
  TW_TOOL_INPUT_SCHEMA (TW_TOOL_BROWSER_ID_PROPERTY, "\"browserId\"")

/* The dialogs a page opened during a command (DESIGN.md §3). */
#define TW_TOOL_DIALOGS_PROPERTY \
  "\"dialogs\": {" \
  "\"type\": \"array\", " \
  "\"description\": \"JavaScript dialogs the page opened during the command: alerts were accepted, confirm, prompt and beforeunload dialogs were dismissed unless browser_handle_dialog said otherwise.\", " \
  "\"items\": {" \
  "\"type\": \"object\", " \
  "\"properties\": {" \
  "\"type\": {\"type\": \"string\", \"enum\": [\"alert\", \"confirm\", \"prompt\", \"beforeunload\"], \"description\": \"Kind of dialog.\"}, " \
  "\"message\": {\"type\": \"string\", \"description\": \"The text the dialog showed.\"}, " \
  "\"count\": {\"type\": \"integer\", \"minimum\": 2, \"description\": \"How many times in a row it opened, when more than once.\"}, " \
  "\"accepted\": {\"type\": \"boolean\", \"description\": \"Whether it was accepted (OK) or dismissed (Cancel).\"}, " \
  "\"promptText\": {\"type\": \"string\", \"description\": \"The text an accepted prompt answered.\"}" \
  "}, " \
  "\"required\": [\"type\", \"message\"]" \
  "}" \
  "}"

/* The output schema of commands that leave a tab showing a page: new tab,
 * navigate, back, forward, reload. */
#define TW_TOOL_PAGE_OUTPUT_SCHEMA \
  TW_TOOL_OUTPUT_SCHEMA ( \
    "\"browserId\": {\"type\": \"string\", \"description\": \"The tab.\"}, " \
    "\"url\": {\"type\": \"string\", \"description\": \"The URL the tab shows now, after redirects.\"}, " \
    "\"title\": {\"type\": \"string\", \"description\": \"The page title; empty when the page has none.\"}, " \
    "\"status\": {\"type\": [\"integer\", \"null\"], \"description\": \"HTTP status of the page's main document; null when there was no HTTP response (about:blank, a page restored from the history cache).\"}, " \
    "\"private\": {\"type\": \"boolean\", \"description\": \"browser_new_tab: true when the tab is private.\"}, " \
    "\"context\": {\"type\": \"string\", \"description\": \"browser_new_tab: the private context the tab shares a session with.\"}, " \
    TW_TOOL_DIALOGS_PROPERTY, \
    "\"browserId\", \"url\", \"title\"")

/* The browserId argument of a call whose schema requires one. */
const char *tw_tool_get_browser_id      (TwToolCall  *call);

/* A new object with the members of the call's arguments named in the
 * NULL-terminated @names that are present and not null: the parameters a
 * command takes from its tool. */
JsonObject *tw_tool_copy_arguments      (TwToolCall         *call,
                                         const char * const *names);

/* Runs @command on the call's tab (its browserId argument) with the
 * arguments named in @names, and answers with @format: what most tools do. */
void        tw_tool_run_tab_command     (TwToolCall         *call,
                                         TwTabCommand        command,
                                         const char * const *names,
                                         TwToolFormatFunc    format);

/* TRUE for an absolute http or https URL with a host; anything else fails
 * with browser_denied and a message saying only http and https are
 * allowed. */
gboolean    tw_tool_check_http_url      (const char  *url,
                                         GError     **error);

/* Appends a line "<label>: <value>" (after a newline unless @text is
 * empty). Text-only clients (Gemini CLI, OpenCode) never see
 * structuredContent, so every field an agent passes on (browserId, ref, url,
 * path, cursor) is in the text under its own name. */
void        tw_tool_append_field        (GString     *text,
                                         const char  *label,
                                         const char  *value);

/* Appends @value in double quotes, cut to @max characters with an ellipsis
 * when it is longer. */
void        tw_tool_append_cut          (GString     *text,
                                         const char  *value,
                                         glong        max);

/* Appends a size in bytes the way people read it: "335 B", "12 kB", "3 MB". */
void        tw_tool_append_size         (GString     *text,
                                         gint64       size);

/* Appends what became of a network request, after a space: " POST
 * http://…/api 201 fetch 12 ms 335 B", with FAILED: and the reason (else
 * @unknown_failure) or "pending" after the status when it did not finish. */
void        tw_tool_append_request      (GString     *text,
                                         JsonObject  *request,
                                         const char  *unknown_failure);

/* Appends `title: "<title>"`, or `title: (none)` for a page without one. */
void        tw_tool_append_title        (GString     *text,
                                         JsonObject  *result);

/* Appends the labelled fields of a page result, one per line: browserId,
 * url, title and status, then one line per dialog the page opened. */
void        tw_tool_append_page         (GString     *text,
                                         JsonObject  *result);

/* One line per dialog the page opened during the command ("Dialog: confirm
 * "Sure?" (dismissed)"), the same words for every tool. */
void        tw_tool_append_dialogs      (GString     *text,
                                         JsonObject  *result);

/* One line per download the command caused ("Download: report.csv
 * finished, 120 bytes, text/csv") and its path; tw_tool_append_dialogs()
 * calls it, so every tool reports downloads. */
void        tw_tool_append_downloads    (GString     *text,
                                         JsonObject  *result);

/* What a tab emulates (the "emulation" of browser_emulate and
 * browser_list_tabs) in words: "device: phone, userAgent: …, geolocation: 52.52, 13.405
 * (accuracy 10 m), offline"; NULL when it emulates nothing. */
char       *tw_tool_describe_emulation  (JsonObject  *emulation);

G_END_DECLS
