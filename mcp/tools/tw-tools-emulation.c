/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_emulate: what a tab pretends to be. A device, the user agent, a
 * geolocation and offline: the colour scheme, reduced motion and the print media type
 * have no public per-view API in WebKitGTK 2.50, and a runtime override of
 * matchMedia alone would leave the page's CSS media queries answering
 * otherwise. */

static char *
format_emulate (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonObject *emulation = tw_json_get_object (result, "emulation");
  g_autofree char *described = tw_tool_describe_emulation (emulation);

  if (tw_json_get_boolean (result, "reset", FALSE))
    g_string_append (text, "The tab no longer emulates anything: from its next page load on it sends "
                     "the browser's own user agent, its pages are denied the position, it is online, and a "
                     "device's viewport and touch support are gone.");
  else
    {
      g_string_append_printf (text, "The tab now emulates %s.", described != NULL ? described : "nothing");
      if (emulation != NULL && json_object_has_member (emulation, "device"))
        {
          JsonObject *viewport = tw_json_get_object (result, "viewport");

          if (viewport != NULL)
            g_string_append_printf (text, " Its viewport is %" G_GINT64_FORMAT " × %" G_GINT64_FORMAT
                                    " as the page measures it, and its pages see touch support "
                                    "(navigator.maxTouchPoints %" G_GINT64_FORMAT ").",
                                    tw_json_get_int (viewport, "innerWidth", 0),
                                    tw_json_get_int (viewport, "innerHeight", 0),
                                    tw_json_get_int (result, "pageMaxTouchPoints", 0));
          else
            g_string_append (text, " Its viewport was set, but the page had not reported its new size yet.");
        }
      if (json_object_has_member (result, "offline"))
        g_string_append (text, tw_json_get_boolean (result, "offline", FALSE)
                         ? " Its pages' requests fail (http, https, WebSocket) and navigator.onLine is false."
                         : " It is online again.");
      if (emulation != NULL && json_object_has_member (emulation, "userAgent"))
        g_string_append (text, " The user agent applies from the next page load on (navigator.userAgent "
                         "and the User-Agent header): reload or navigate to apply it to the page shown.");
      if (emulation != NULL && json_object_has_member (emulation, "geolocation"))
        {
          if (tw_json_get_boolean (result, "pageDenied", FALSE))
            g_string_append (text, " The page shown asked for the position before and was denied, and "
                             "WebKit keeps that answer for the page: reload it to let it read this one.");
          else
            g_string_append (text, " Its pages that ask for the position are allowed and get this one, "
                             "pages already watching it too.");
        }
    }
  if (json_object_has_member (result, "pageOnLine"))
    g_string_append_printf (text, " The page shown now says navigator.onLine is %s.",
                            tw_json_get_boolean (result, "pageOnLine", TRUE) ? "true" : "false");
  tw_tool_append_field (text, "browserId", tw_json_get_string (result, "browserId", "?"));
  tw_tool_append_field (text, "userAgent", tw_json_get_string (result, "userAgent", ""));

  return g_string_free (text, FALSE);
}

static const TwToolDef emulation_tools[] = {
  {
    .name = "browser_emulate",
    .title = "Emulate a device, a user agent, a location or offline",
    .description =
      "Make a tab pretend to be a phone or tablet (viewport, user agent, touch), another "
      "browser (navigator.userAgent and the User-Agent header, from the next page load on), "
      "somewhere else (a geolocation its pages may read) or offline (requests fail, "
      "navigator.onLine false). reset: true undoes all; browser_list_tabs shows it.",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_EMULATE,
    .arguments = TW_TOOL_ARGUMENTS ("device", "userAgent", "geolocation", "offline", "reset"),
    .format = format_emulate,
  },
};

const TwToolDef *
tw_tools_emulation_get (guint *n_tools)
{
  *n_tools = G_N_ELEMENTS (emulation_tools);
  return emulation_tools;
}
