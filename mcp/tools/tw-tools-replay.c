/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* Replay (issue 33): what an agent did, recorded in the workspace's
 * timeline, run again in a fresh tab as a check, instead of repeated step
 * by step; a stretch of it saved under a name; and all of it exported to a
 * folder. Offered in the "replay" group, off by default. */

static void
append_steps (GString    *text,
              JsonObject *result)
{
  JsonArray *steps = tw_json_get_array (result, "steps");

  for (guint i = 0; steps != NULL && i < json_array_get_length (steps); i++)
    {
      JsonObject *step = json_array_get_object_element (steps, i);
      const char *target = tw_json_get_string (step, "target", NULL);
      const char *status = tw_json_get_string (step, "status", NULL);

      g_string_append_printf (text, "\n%" G_GINT64_FORMAT ". %s%s%s",
                              tw_json_get_int (step, "step", 0),
                              tw_json_get_string (step, "tool", "?"),
                              target != NULL ? " " : "", target != NULL ? target : "");
      if (status != NULL)
        g_string_append_printf (text, " — %s", status);
      if (tw_json_get_boolean (step, "failed", FALSE))
        g_string_append (text, " (failed when recorded)");
      if (tw_json_get_string (step, "detail", NULL) != NULL &&
          g_strcmp0 (status, "differs") != 0)
        g_string_append_printf (text, " (%s)", tw_json_get_string (step, "detail", NULL));
    }
}

static char *
format_replay (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  const char *source = tw_json_get_string (result, "source", "?");

  if (tw_json_get_boolean (result, "ok", FALSE))
    g_string_append_printf (text, "Replayed the %s: every step as recorded (%" G_GINT64_FORMAT
                            " run, %" G_GINT64_FORMAT " skipped).",
                            source, tw_json_get_int (result, "replayed", 0),
                            tw_json_get_int (result, "skipped", 0));
  else
    g_string_append_printf (text, "The replay of the %s stopped at step %" G_GINT64_FORMAT
                            ", which differs from the recording.",
                            source, tw_json_get_int (result, "stoppedAt", 0));
  tw_tool_append_member (text, result, "expected");
  tw_tool_append_member (text, result, "found");
  tw_tool_append_member (text, result, "browserId");
  tw_tool_append_member (text, result, "url");
  g_string_append (text, "\nSteps:");
  append_steps (text, result);

  return g_string_free (text, FALSE);
}

static char *
format_save_flow (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonArray *steps = tw_json_get_array (result, "steps");

  g_string_append_printf (text, "Saved %u steps of the %s as a flow; browser_replay runs it "
                          "again with flow set to its name.",
                          steps != NULL ? json_array_get_length (steps) : 0,
                          tw_json_get_string (result, "source", "?"));
  tw_tool_append_field (text, "name", tw_json_get_string (result, "name", "?"));
  g_string_append (text, "\nSteps:");
  append_steps (text, result);

  return g_string_free (text, FALSE);
}

static char *
format_export_session (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonObject *files = tw_json_get_object (result, "files");
  const char *browser_id = tw_json_get_string (result, "browserId", NULL);
  static const char * const members[] = { "calls", "images", "har", "console", "video" };

  g_string_append_printf (text, "Exported %" G_GINT64_FORMAT " calls of the session of %s%s%s: "
                          "%" G_GINT64_FORMAT " images, %" G_GINT64_FORMAT " network requests, "
                          "%" G_GINT64_FORMAT " console messages, and a video with a chapter per "
                          "call. Paths are relative to the workspace.",
                          tw_json_get_int (result, "calls", 0), tw_json_get_string (result, "session", "?"),
                          browser_id != NULL ? " on tab " : "", browser_id != NULL ? browser_id : "",
                          tw_json_get_int (result, "images", 0), tw_json_get_int (result, "requests", 0),
                          tw_json_get_int (result, "consoleMessages", 0));
  tw_tool_append_field (text, "folder", tw_json_get_string (result, "folder", NULL));
  tw_tool_append_field (text, "path", tw_json_get_string (result, "path", NULL));
  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    tw_tool_append_field (text, members[i], tw_json_get_string (files, members[i], NULL));

  return g_string_free (text, FALSE);
}

static const TwToolDef replay_tools[] = {
  {
    .name = "browser_replay",
    .title = "Replay a recorded flow",
    .description =
      "Run a recorded flow again in a new tab instead of repeating it step by step: your "
      "own calls in this run (or another agent's session, or a flow saved with "
      "browser_save_flow), all or from one step to another. Actions find their element "
      "again by role and name; waits are kept; calls that only read the page are skipped. "
      "Stops at the first step whose element or outcome differs and reports what was "
      "expected and what was found: a check that a page still works as it did.",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .command = TW_TAB_COMMAND_REPLAY,
    .arguments = TW_TOOL_ARGUMENTS ("flow", "session", "fromStep", "toStep"),
    .format = format_replay,
  },
  {
    .name = "browser_save_flow",
    .title = "Save steps as a flow",
    .description =
      "Save a stretch of your recorded calls in this run (or another agent's session) under "
      "a name, as a flow that browser_replay runs again later, e.g. \"sign up\" or "
      "\"checkout\". Step 1 is the session's first call.",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_SAVE_FLOW,
    .arguments = TW_TOOL_ARGUMENTS ("name", "session", "fromStep", "toStep"),
    .format = format_save_flow,
  },
  {
    .name = "browser_export_session",
    .title = "Export a session to a folder",
    .description =
      "Export your recorded calls in this run (or another agent's session, or one tab's "
      "part) to a folder of the workspace to share or attach to a bug report: calls.jsonl "
      "(calls and results), images/ (before and after each action), network.har (HAR 1.2), "
      "console.jsonl and video.webm (pointer and highlights drawn, a chapter per call).",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_EXPORT_SESSION,
    .arguments = TW_TOOL_ARGUMENTS ("folder", "session"),
    .format = format_export_session,
  },
};

const TwToolTable tw_tools_replay = TW_TOOL_TABLE (replay_tools);
