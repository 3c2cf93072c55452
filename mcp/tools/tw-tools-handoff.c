/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

#include "tw-tool-call-private.h"

/* browser_handoff: the agent asks the person to do something in a tab that
 * it cannot or must not do itself (log in, solve a CAPTCHA, confirm a
 * payment), and waits for their answer. */

/* The schema's timeoutMs says the same: 5 minutes unless given, 30 at most. */
#define HANDOFF_DEFAULT_TIMEOUT_MS 300000

/* Clients give up on requests that stay silent for long (often 60 s), so a
 * call that waits for a person says every few seconds that it is alive. */
#define HANDOFF_PROGRESS_INTERVAL_MS 5000

typedef struct
{
  TwToolCall *call;
  gint64      started_us;
  guint       timeout_ms;
} HandoffWait;

static void
handoff_wait_free (HandoffWait *wait)
{
  g_clear_pointer (&wait->call, tw_tool_call_unref);
  g_free (wait);
}

static gboolean
report_progress (HandoffWait *wait)
{
  double elapsed_s = (g_get_monotonic_time () - wait->started_us) / (double) G_USEC_PER_SEC;
  g_autofree char *message = NULL;

  if (tw_tool_call_is_finished (wait->call))
    return G_SOURCE_REMOVE;

  message = g_strdup_printf ("Waiting for the person to answer in tab %s (%.0f s of %.0f s)",
                             tw_tool_get_browser_id (wait->call),
                             elapsed_s, wait->timeout_ms / 1000.0);
  tw_tool_call_report_progress (wait->call, elapsed_s, wait->timeout_ms / 1000.0, message);

  return G_SOURCE_CONTINUE;
}

static gboolean
progress_cb (gpointer user_data)
{
  return report_progress (user_data);
}

static void
handoff_reply (TwToolCall *call,
               JsonObject *result)
{
  const char *outcome = tw_json_get_string (result, "outcome", "cancelled");
  GString *text = g_string_new (NULL);
  g_autofree char *body = NULL;

  if (g_str_equal (outcome, "done"))
    g_string_append (text, "The person pressed Done. Take a new browser_snapshot before acting "
                     "on the page again.");
  else
    g_string_append (text, "The person cancelled the handoff; do not assume it was done. Take a "
                     "new browser_snapshot before acting on the page again.");

  tw_tool_append_field (text, "outcome", outcome);
  tw_tool_append_page (text, result);

  body = g_string_free (text, FALSE);
  tw_tool_call_return_text (call, body, json_object_ref (result));
}

static void
handoff_handler (TwToolCall *call)
{
  JsonObject *arguments = tw_tool_call_get_arguments (call);
  g_autoptr(JsonObject) params = json_object_new ();
  HandoffWait *wait;
  gint64 timeout_ms = HANDOFF_DEFAULT_TIMEOUT_MS;

  if (json_object_has_member (arguments, "timeoutMs"))
    timeout_ms = json_object_get_int_member (arguments, "timeoutMs");

  json_object_set_string_member (params, "message",
                                 tw_json_get_string (arguments, "message", ""));
  json_object_set_int_member (params, "timeoutMs", timeout_ms);

  wait = g_new0 (HandoffWait, 1);
  wait->call = tw_tool_call_ref (call);
  wait->started_us = g_get_monotonic_time ();
  wait->timeout_ms = (guint) timeout_ms;

  tw_tool_call_run_command_full (call, TW_TAB_COMMAND_HANDOFF, tw_tool_get_browser_id (call),
                                 params, handoff_reply);

  /* The first word goes out at once, so clients know the call waits on
   * purpose; a call refused straight away never gets the timer. */
  if (report_progress (wait))
    g_timeout_add_full (G_PRIORITY_DEFAULT, HANDOFF_PROGRESS_INTERVAL_MS, progress_cb,
                        wait, (GDestroyNotify) handoff_wait_free);
  else
    handoff_wait_free (wait);
}

static const TwToolDef handoff_tools[] = {
  {
    .name = "browser_handoff",
    .title = "Hand a tab to the person",
    .description =
      "Ask the person watching (the user) to do what you should not in the browser tab: log "
      "in, enter the one-time code, solve the CAPTCHA, confirm payments. The tab comes to the front "
      "with your message and Done / Cancel; the call waits for their answer or timeoutMs. "
      "Snapshot again after.",
    .search_hint = "ask person, user, log in, sign in, solve CAPTCHA",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = FALSE,
    .handler = handoff_handler,
  },
};

const TwToolDef *
tw_tools_handoff_get (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (handoff_tools);
  return handoff_tools;
}
