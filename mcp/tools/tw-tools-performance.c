/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_performance: what a tab's page cost to load, and what to fix
 * (webview/runtime/performance.js measures it in the page). */

static void
append_ms (GString    *text,
           const char *label,
           JsonObject *object,
           const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return;

  g_string_append_printf (text, "%s%s %" G_GINT64_FORMAT " ms",
                          g_str_has_suffix (text->str, ": ") ? "" : ", ", label,
                          json_node_get_int (node));
}

static void
append_not_measured (GString    *text,
                     const char *label,
                     JsonObject *measure)
{
  const char *reason = measure != NULL ? tw_json_get_string (measure, "reason", NULL) : NULL;

  g_string_append_printf (text, "\n%s: not measured", label);
  if (reason != NULL)
    g_string_append_printf (text, " (%s)", reason);
}

static char *
format_performance (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonObject *nav = tw_json_get_object (result, "navigation");
  JsonObject *paint = tw_json_get_object (result, "paint");
  JsonObject *lcp = tw_json_get_object (result, "largestContentfulPaint");
  JsonObject *estimate = lcp != NULL ? tw_json_get_object (lcp, "estimate") : NULL;
  JsonObject *cls = tw_json_get_object (result, "cumulativeLayoutShift");
  JsonObject *resources = tw_json_get_object (result, "resources");
  JsonArray *findings = tw_json_get_array (result, "findings");

  g_string_append_printf (text, "Performance of %s", tw_json_get_string (result, "url", "?"));
  g_string_append (text, tw_json_get_boolean (result, "reloaded", FALSE)
                   ? ", measured on a fresh load (reloaded without the cache)."
                   : ", as it was loaded (reload: true measures a fresh load).");

  if (nav != NULL)
    {
      g_string_append (text, "\nNavigation: ");
      append_ms (text, "server response", nav, "serverResponseMs");
      append_ms (text, "time to first byte", nav, "timeToFirstByteMs");
      append_ms (text, "DOM interactive", nav, "domInteractiveMs");
      append_ms (text, "DOMContentLoaded", nav, "domContentLoadedMs");
      append_ms (text, "load", nav, "loadMs");
      if (json_object_has_member (nav, "transferSize"))
        {
          g_string_append (text, ", document ");
          tw_tool_append_size (text, tw_json_get_int (nav, "transferSize", 0));
        }
    }
  if (paint != NULL)
    {
      g_string_append (text, "\nPaint: ");
      append_ms (text, "first paint", paint, "firstPaintMs");
      append_ms (text, "first contentful paint", paint, "firstContentfulPaintMs");
      if (g_str_has_suffix (text->str, ": "))
        g_string_append (text, "nothing painted yet");
    }

  if (lcp != NULL && tw_json_get_boolean (lcp, "measured", FALSE))
    g_string_append_printf (text, "\nLargest Contentful Paint: %" G_GINT64_FORMAT " ms",
                            tw_json_get_int (lcp, "ms", 0));
  else
    append_not_measured (text, "Largest Contentful Paint", lcp);
  if (estimate != NULL)
    {
      JsonNode *ms = json_object_get_member (estimate, "estimateMs");

      if (ms != NULL && JSON_NODE_HOLDS_VALUE (ms))
        g_string_append_printf (text, "; estimate %" G_GINT64_FORMAT " ms", json_node_get_int (ms));
      else
        g_string_append (text, "; no estimate of its time");
      g_string_append_printf (text, " for the largest element in the first viewport, %s, shown at "
                              "%" G_GINT64_FORMAT "×%" G_GINT64_FORMAT,
                              tw_json_get_string (estimate, "element", "?"),
                              tw_json_get_int (estimate, "shownWidth", 0),
                              tw_json_get_int (estimate, "shownHeight", 0));
    }
  append_not_measured (text, "Cumulative Layout Shift", cls);
  if (cls != NULL && tw_json_get_int (cls, "likelyCauses", 0) > 0)
    g_string_append (text, "; the findings name likely causes");
  append_not_measured (text, "Interaction to Next Paint", tw_json_get_object (result, "interactionToNextPaint"));
  append_not_measured (text, "Long tasks", tw_json_get_object (result, "longTasks"));

  if (resources != NULL)
    {
      JsonArray *types = tw_json_get_array (resources, "byType");
      JsonArray *slowest = tw_json_get_array (resources, "slowest");

      g_string_append_printf (text, "\nResources: %" G_GINT64_FORMAT ", ",
                              tw_json_get_int (resources, "count", 0));
      tw_tool_append_size (text, tw_json_get_int (resources, "transferSize", 0));
      g_string_append (text, " transferred");
      for (guint i = 0; types != NULL && i < json_array_get_length (types); i++)
        {
          JsonObject *type = json_array_get_object_element (types, i);

          g_string_append_printf (text, "%s%s %" G_GINT64_FORMAT " ", i == 0 ? ": " : "; ",
                                  tw_json_get_string (type, "type", "?"),
                                  tw_json_get_int (type, "count", 0));
          tw_tool_append_size (text, tw_json_get_int (type, "transferSize", 0));
        }
      if (slowest != NULL && json_array_get_length (slowest) > 0)
        g_string_append (text, "\nSlowest resources:");
      for (guint i = 0; slowest != NULL && i < json_array_get_length (slowest); i++)
        {
          JsonObject *entry = json_array_get_object_element (slowest, i);

          g_string_append_printf (text, "\n- %" G_GINT64_FORMAT " ms %s %s, ",
                                  tw_json_get_int (entry, "durationMs", 0),
                                  tw_json_get_string (entry, "type", "?"),
                                  tw_json_get_string (entry, "url", "?"));
          tw_tool_append_size (text, tw_json_get_int (entry, "transferSize", 0));
          g_string_append (text, " transferred, ");
          tw_tool_append_size (text, tw_json_get_int (entry, "encodedBodySize", 0));
          g_string_append (text, " body");
        }
    }

  if (findings == NULL || json_array_get_length (findings) == 0)
    g_string_append (text, "\nFindings: none.");
  else
    g_string_append_printf (text, "\nFindings (%u):", json_array_get_length (findings));
  for (guint i = 0; findings != NULL && i < json_array_get_length (findings); i++)
    g_string_append_printf (text, "\n- %s",
                            tw_json_get_string (json_array_get_object_element (findings, i),
                                                "message", "?"));

  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));

  return g_string_free (text, FALSE);
}

static void
measure (TwToolCall *call,
         gboolean    reloaded)
{
  JsonObject *arguments = tw_tool_call_get_arguments (call);
  g_autoptr(JsonObject) params = json_object_new ();

  if (json_object_has_member (arguments, "maxResources"))
    json_object_set_int_member (params, "maxResources",
                                tw_json_get_int (arguments, "maxResources", 5));
  json_object_set_boolean_member (params, "reloaded", reloaded);

  tw_tool_call_run_command (call, TW_TAB_COMMAND_PERFORMANCE, tw_tool_get_browser_id (call),
                            params, format_performance);
}

static void
reloaded_reply (TwToolCall *call,
                JsonObject *result)
{
  measure (call, TRUE);
}

static void
performance_handler (TwToolCall *call)
{
  JsonObject *arguments = tw_tool_call_get_arguments (call);

  if (tw_json_get_boolean (arguments, "reload", FALSE))
    {
      g_autoptr(JsonObject) params = json_object_new ();

      json_object_set_boolean_member (params, "bypassCache", TRUE);
      tw_tool_call_run_command_full (call, TW_TAB_COMMAND_RELOAD, tw_tool_get_browser_id (call),
                                     params, reloaded_reply);
      return;
    }

  measure (call, FALSE);
}

static const TwToolDef performance_tools[] = {
  {
    .name = "browser_performance",
    .title = "Measure page load performance",
    .description =
      "Measure how fast a tab's page loads and why it is slow: navigation timing (server "
      "response, DOMContentLoaded, load), first contentful paint, resources by type with "
      "sizes, the slowest resources, and findings such as a render-blocking script, an image "
      "far larger than shown, a slow server response or a likely layout shift. reload: true "
      "measures a fresh load without the cache.",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = FALSE,
    .open_world = TRUE,
    .handler = performance_handler,
  },
};

const TwToolTable tw_tools_performance = TW_TOOL_TABLE (performance_tools);
