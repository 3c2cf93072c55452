/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tw-json.h"
#include "tw-tool.h"

G_BEGIN_DECLS

/* Pieces that several tool groups share, so that the same thing reads the
 * same everywhere: the wording of common results. Schemas and the parts
 * they share are JSON files (mcp/tools/schemas/). */

/* The browserId argument of a call whose schema requires one. */
const char *tw_tool_get_browser_id      (TwToolCall  *call);

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

/* Appends the field of tw_tool_append_field() for the member @member of
 * @object, under its own name, when it is a string; else nothing. */
void        tw_tool_append_member       (GString     *text,
                                         JsonObject  *object,
                                         const char  *member);

/* The line that opens a list: @none ("No downloads yet.") when @array is
 * NULL or empty, else its length, @noun with an "s" unless it is 1, and
 * @rest ("3 cookies:", "1 download, oldest first:"). Returns the length. */
guint       tw_tool_append_count        (GString     *text,
                                         JsonArray   *array,
                                         const char  *none,
                                         const char  *noun,
                                         const char  *rest);

/* Appends one object of a list (a dialog, a download, a cookie). */
typedef void (*TwToolAppendFunc) (GString    *text,
                                  JsonObject *object);

/* Calls @append for each object in the array member @member of @object,
 * in order, skipping elements that are not objects. */
void        tw_tool_append_each         (GString          *text,
                                         JsonObject       *object,
                                         const char       *member,
                                         TwToolAppendFunc  append);

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

/* Page content (issue 32). Text that comes from the page is marked, so
 * that a model tells the page's words from Tabwright's own lines ("Error:",
 * "browserId:", "Dialog:"), which a page must never be able to forge.
 *
 * A body of page text (a snapshot's tree, page text, Markdown, HTML,
 * console messages, request and response bodies) goes between a line
 * TW_TOOL_PAGE_OPEN and a line TW_TOOL_PAGE_CLOSE; every "<page" or
 * "</page" inside it (any case, spaces allowed) has its "<" written as
 * "&lt;", so the page can neither close the fence nor open another. A short
 * value from the page inside one of Tabwright's lines (a title, a dialog's
 * message) is quoted instead, with its quotes, backslashes and line breaks
 * escaped as in JSON, so it never starts a line of its own. */
#define TW_TOOL_PAGE_OPEN  "<page>"
#define TW_TOOL_PAGE_CLOSE "</page>"

/* Appends "<page>\n", @content made safe as above, then "\n</page>". */
void        tw_tool_append_page_content (GString     *text,
                                         const char  *content);

/* Appends @value in double quotes, escaped as above. */
void        tw_tool_append_quoted       (GString     *text,
                                         const char  *value);

/* Appends a snapshot as the runtime prints it: its first lines, up to the
 * "Page: " header, and its last lines that start with "… " (how to go
 * on) are Tabwright's; the tree between them is page content. */
void        tw_tool_append_snapshot     (GString     *text,
                                         const char  *snapshot);

/* What a tab emulates (the "emulation" of browser_emulate and
 * browser_list_tabs) in words: "device: phone, userAgent: …, geolocation: 52.52, 13.405
 * (accuracy 10 m), offline, colorScheme: dark, media: print"; NULL when it
 * emulates nothing. */
char       *tw_tool_describe_emulation  (JsonObject  *emulation);

/* Finishes @call with @text and, when @base64 is not NULL, the picture it
 * encodes, as the runtime and the tab send pictures (browser_screenshot,
 * browser_annotate). */
void        tw_tool_return_text_and_image (TwToolCall  *call,
                                           const char  *text,
                                           const char  *base64);

/* For tools that wait for the person (browser_handoff, browser_annotate):
 * runs @command on the call's tab with {message, timeoutMs} from the
 * arguments (@default_timeout_ms when not given) and hands its result to
 * @reply. While the person has not answered, the call says every few
 * seconds that it is alive ("Waiting for the person to @doing in tab b3
 * (12 s of 300 s)"), since clients give up on requests that stay silent
 * for long (often 60 s). */
void        tw_tool_wait_for_person     (TwToolCall      *call,
                                         TwTabCommand     command,
                                         const char      *doing,
                                         gint64           default_timeout_ms,
                                         TwToolReplyFunc  reply);

G_END_DECLS
