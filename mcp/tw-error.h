/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The error domain shared by every layer that serves browser tools. Each code
 * maps 1:1 to an MCP tool error code of DESIGN.md §4. */
#define TW_BROWSER_ERROR (tw_browser_error_quark ())

typedef enum
{
  TW_BROWSER_ERROR_DISABLED,          /* browser_disabled */
  TW_BROWSER_ERROR_NO_HOST,           /* browser_no_host */
  TW_BROWSER_ERROR_STALE_REF,         /* browser_stale_ref */
  TW_BROWSER_ERROR_TIMEOUT,           /* browser_timeout */
  TW_BROWSER_ERROR_DENIED,            /* browser_denied */
  TW_BROWSER_ERROR_NOT_FOUND,         /* browser_not_found */
  TW_BROWSER_ERROR_INVALID_ARGUMENT,  /* browser_invalid_argument */
  TW_BROWSER_ERROR_NOT_INTERACTABLE,  /* browser_not_interactable */
  TW_BROWSER_ERROR_CRASHED,           /* browser_crashed */
  TW_BROWSER_ERROR_SCRIPT_ERROR,      /* browser_script_error */
  TW_BROWSER_ERROR_NAVIGATION_FAILED, /* browser_navigation_failed */
  TW_BROWSER_ERROR_INTERNAL,          /* browser_internal: a bug, never expected */
} TwBrowserError;

GQuark      tw_browser_error_quark        (void);
const char *tw_browser_error_code_name    (TwBrowserError code);
gboolean    tw_browser_error_is_retryable (TwBrowserError code);
/* The code named @name ("browser_stale_ref"), as the page runtime and the
 * web process name them. A name that is no code's is a bug on the naming
 * side: TW_BROWSER_ERROR_INTERNAL. */
TwBrowserError tw_browser_error_code_from_name (const char *name);
/* One sentence on what the code means and what to do, for the generated
 * tool reference. */
const char *tw_browser_error_code_description (TwBrowserError code);

/* One sentence on what the agent can do next after an error with @code. */
const char *tw_browser_error_code_next_step (TwBrowserError code);

/* The text of an error result, read by models that see nothing else:
 * "Error: <code> — <message>" and, on a second line, what to do next. */
char       *tw_browser_error_format_text  (const GError *error);

/* Maps any GError to a browser error code: TW_BROWSER_ERROR codes as they are,
 * G_IO_ERROR_CANCELLED and G_IO_ERROR_TIMED_OUT to TIMEOUT, anything else to
 * INTERNAL. */
TwBrowserError tw_browser_error_from_gerror (const GError *error);

/* Builds an MCP CallToolResult for @error:
 * { content: [{type:"text", text:"Error: <code> — <message>\n<next step>"}], isError: true,
 *   structuredContent: { error: { code, message, retryable } } } */
JsonNode   *tw_browser_error_to_tool_result (const GError *error);

G_END_DECLS
