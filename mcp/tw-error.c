/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-error.h"

#include <gio/gio.h>

G_DEFINE_QUARK (tw-browser-error-quark, tw_browser_error)

static const struct {
  const char *name;
  gboolean    retryable;
} error_codes[] = {
  [TW_BROWSER_ERROR_DISABLED]         = { "browser_disabled", FALSE },
  [TW_BROWSER_ERROR_NO_HOST]          = { "browser_no_host", TRUE },
  [TW_BROWSER_ERROR_STALE_REF]        = { "browser_stale_ref", FALSE },
  [TW_BROWSER_ERROR_TIMEOUT]          = { "browser_timeout", TRUE },
  [TW_BROWSER_ERROR_DENIED]           = { "browser_denied", FALSE },
  [TW_BROWSER_ERROR_NOT_FOUND]        = { "browser_not_found", FALSE },
  [TW_BROWSER_ERROR_INVALID_ARGUMENT] = { "browser_invalid_argument", FALSE },
  [TW_BROWSER_ERROR_NOT_INTERACTABLE] = { "browser_not_interactable", TRUE },
  [TW_BROWSER_ERROR_CRASHED]          = { "browser_crashed", FALSE },
  [TW_BROWSER_ERROR_SCRIPT_ERROR]     = { "browser_script_error", FALSE },
  [TW_BROWSER_ERROR_NAVIGATION_FAILED] = { "browser_navigation_failed", TRUE },
  [TW_BROWSER_ERROR_INTERNAL]         = { "browser_internal", FALSE },
};

static const char *error_descriptions[] = {
  [TW_BROWSER_ERROR_DISABLED]         = "Browser tools are turned off for this workspace.",
  [TW_BROWSER_ERROR_NO_HOST]          = "No running Tabwright serves the call (stdio bridge); start the app and retry.",
  [TW_BROWSER_ERROR_STALE_REF]        = "The ref no longer matches the page; take a new snapshot.",
  [TW_BROWSER_ERROR_TIMEOUT]          = "The element never became actionable, or the wait condition never held.",
  [TW_BROWSER_ERROR_DENIED]           = "Not allowed: a non-http(s) URL, no history to go to, a path outside the workspace, a tab paused by the person, or another agent's tab.",
  [TW_BROWSER_ERROR_NOT_FOUND]        = "Unknown browserId, or a tab of another workspace.",
  [TW_BROWSER_ERROR_INVALID_ARGUMENT] = "Arguments that fail the tool's schema or make no sense together.",
  [TW_BROWSER_ERROR_NOT_INTERACTABLE] = "The element is hidden, disabled, covered or detached.",
  [TW_BROWSER_ERROR_CRASHED]          = "The tab's web process died; browser_reload recovers it.",
  [TW_BROWSER_ERROR_SCRIPT_ERROR]     = "The function given to browser_evaluate threw; the message carries the exception.",
  [TW_BROWSER_ERROR_NAVIGATION_FAILED] = "The page could not be loaded at all (refused connection, unknown host, reset); the message says why. HTTP error pages such as 404 are not failures: they load and report their status.",
  [TW_BROWSER_ERROR_INTERNAL]         = "A bug in Tabwright; never expected.",
};

G_STATIC_ASSERT (G_N_ELEMENTS (error_descriptions) == G_N_ELEMENTS (error_codes));

/* What the agent can do next, the last line of every error text. Some
 * clients (OpenCode) pass the model the text alone, without isError, so the
 * text must say both that the call failed and how to go on. */
static const char *error_next_steps[] = {
  [TW_BROWSER_ERROR_DISABLED]         = "Ask the person to turn on browser tools for this workspace; other calls fail the same way until then.",
  [TW_BROWSER_ERROR_NO_HOST]          = "Ask the person to start Tabwright, then retry.",
  [TW_BROWSER_ERROR_STALE_REF]        = "Take a new browser_snapshot of the tab and use a ref from it.",
  [TW_BROWSER_ERROR_TIMEOUT]          = "Take a new browser_snapshot to see what the page shows now, then retry or wait longer.",
  [TW_BROWSER_ERROR_DENIED]           = "Do not repeat the same call: choose an allowed URL or path, use a tab of your own, or ask the person to resume or share the tab.",
  [TW_BROWSER_ERROR_NOT_FOUND]        = "Call browser_list_tabs for the browserIds of the open tabs, or open one with browser_new_tab.",
  [TW_BROWSER_ERROR_INVALID_ARGUMENT] = "Correct the arguments as the message says and call again.",
  [TW_BROWSER_ERROR_NOT_INTERACTABLE] = "Take a new browser_snapshot; close or scroll away what is in the way, or wait until the element is enabled, then retry.",
  [TW_BROWSER_ERROR_CRASHED]          = "Call browser_reload or browser_navigate on this tab to recover it, then take a new browser_snapshot.",
  [TW_BROWSER_ERROR_SCRIPT_ERROR]     = "Fix the function and call browser_evaluate again.",
  [TW_BROWSER_ERROR_NAVIGATION_FAILED] = "Check the URL and that its server is running, then retry later.",
  [TW_BROWSER_ERROR_INTERNAL]         = "Retry later; if it keeps failing, tell the person (this is a bug in Tabwright).",
};

G_STATIC_ASSERT (G_N_ELEMENTS (error_next_steps) == G_N_ELEMENTS (error_codes));

const char *
tw_browser_error_code_next_step (TwBrowserError code)
{
  g_return_val_if_fail (code <= TW_BROWSER_ERROR_INTERNAL, "");

  return error_next_steps[code];
}

/* An error's message on one line: a message may carry the page's words
 * (an exception a page script threw), and a line break in it would let
 * the page start a line of its own that reads as Tabwright's (issue 32). */
static char *
dup_one_line (const char *message)
{
  char *line = g_strdup (message);

  for (char *p = line; *p != '\0'; p++)
    if (*p == '\n' || *p == '\r')
      *p = ' ';

  return line;
}

char *
tw_browser_error_format_text (const GError *error)
{
  g_autofree char *message = NULL;
  TwBrowserError code;

  g_return_val_if_fail (error != NULL, NULL);

  code = tw_browser_error_from_gerror (error);
  message = dup_one_line (error->message);

  return g_strdup_printf ("Error: %s — %s\n%s",
                          tw_browser_error_code_name (code),
                          message,
                          tw_browser_error_code_next_step (code));
}

const char *
tw_browser_error_code_description (TwBrowserError code)
{
  g_return_val_if_fail (code <= TW_BROWSER_ERROR_INTERNAL, "");

  return error_descriptions[code];
}

const char *
tw_browser_error_code_name (TwBrowserError code)
{
  g_return_val_if_fail (code <= TW_BROWSER_ERROR_INTERNAL, "browser_internal");

  return error_codes[code].name;
}

TwBrowserError
tw_browser_error_code_from_name (const char *name)
{
  for (guint code = 0; code < G_N_ELEMENTS (error_codes); code++)
    {
      if (g_strcmp0 (name, error_codes[code].name) == 0)
        return code;
    }

  return TW_BROWSER_ERROR_INTERNAL;
}

gboolean
tw_browser_error_is_retryable (TwBrowserError code)
{
  g_return_val_if_fail (code <= TW_BROWSER_ERROR_INTERNAL, FALSE);

  return error_codes[code].retryable;
}

TwBrowserError
tw_browser_error_from_gerror (const GError *error)
{
  g_return_val_if_fail (error != NULL, TW_BROWSER_ERROR_INTERNAL);

  if (error->domain == TW_BROWSER_ERROR &&
      error->code >= 0 && error->code <= TW_BROWSER_ERROR_INTERNAL)
    return (TwBrowserError) error->code;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    return TW_BROWSER_ERROR_TIMEOUT;

  return TW_BROWSER_ERROR_INTERNAL;
}

JsonNode *
tw_browser_error_to_tool_result (const GError *error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *text = NULL;
  g_autofree char *message = NULL;
  TwBrowserError code;

  g_return_val_if_fail (error != NULL, NULL);

  code = tw_browser_error_from_gerror (error);
  text = tw_browser_error_format_text (error);
  message = dup_one_line (error->message);

  json_builder_begin_object (builder);

  json_builder_set_member_name (builder, "content");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "text");
  json_builder_set_member_name (builder, "text");
  json_builder_add_string_value (builder, text);
  json_builder_end_object (builder);
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "structuredContent");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "error");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_string_value (builder, tw_browser_error_code_name (code));
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, message);
  json_builder_set_member_name (builder, "retryable");
  json_builder_add_boolean_value (builder, tw_browser_error_is_retryable (code));
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "isError");
  json_builder_add_boolean_value (builder, TRUE);

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}
