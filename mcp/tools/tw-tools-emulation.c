/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-tools.h"
#include "tw-tool-util.h"

/* browser_emulate: what a tab pretends to be. A device, the user agent, a
 * geolocation, offline, and media features (colour scheme, reduced motion,
 * forced colours, the print media type). WebKitGTK 2.50 answers those for
 * the whole display, so the tab answers them in its pages' own world
 * (webview/tw-tab-emulation.h), and the result says what that leaves out. */

static void
append_page_media (GString    *text,
                   JsonObject *result)
{
  JsonObject *emulation = tw_json_get_object (result, "emulation");
  JsonObject *page = tw_json_get_object (result, "pageMedia");
  JsonArray *unreadable = page != NULL ? tw_json_get_array (page, "unreadableSheets") : NULL;
  const char *scheme = tw_json_get_string (emulation, "colorScheme", NULL);
  const char *forced = tw_json_get_string (emulation, "forcedColors", NULL);
  const char *media = tw_json_get_string (emulation, "media", NULL);

  if (page == NULL || !json_object_has_member (page, "prefersDark"))
    {
      g_string_append (text, " The page shown could not be asked what it answers now; its next load follows.");
      return;
    }

  g_string_append_printf (text, " WebKitGTK decides media features for the whole display, so the tab answers "
                          "them in its pages: matchMedia and the @media rules of their style sheets. The page "
                          "shown now answers: prefers-color-scheme: dark %s, prefers-reduced-motion: reduce %s, "
                          "forced-colors: active %s, print %s.",
                          tw_json_get_boolean (page, "prefersDark", FALSE) ? "true" : "false",
                          tw_json_get_boolean (page, "reducedMotion", FALSE) ? "true" : "false",
                          tw_json_get_boolean (page, "forcedColors", FALSE) ? "true" : "false",
                          tw_json_get_boolean (page, "print", FALSE) ? "true" : "false");
  if (unreadable != NULL && json_array_get_length (unreadable) > 0)
    {
      g_string_append_printf (text, " Not emulated: the @media rules of %u style sheet%s of another origin "
                              "sent without CORS, which no page script can read:",
                              json_array_get_length (unreadable), json_array_get_length (unreadable) == 1 ? "" : "s");
      for (guint i = 0; i < json_array_get_length (unreadable) && i < 3; i++)
        g_string_append_printf (text, "%s %s", i > 0 ? "," : "", json_array_get_string_element (unreadable, i));
      g_string_append_c (text, '.');
    }
  if (scheme != NULL)
    g_string_append (text, " The browser's own colours (form controls, scrollbars, the default colours of a "
                     "page that declares color-scheme) stay the display's.");
  if (g_strcmp0 (forced, "active") == 0)
    g_string_append (text, " forced-colors answers active, but the browser does not replace the page's colours.");
  if (g_strcmp0 (media, "print") == 0)
    g_string_append (text, " Print rules apply, but the page is not split into pages.");
  if (scheme != NULL || forced != NULL || media != NULL || tw_json_get_string (emulation, "reducedMotion", NULL))
    g_string_append (text, " <picture> sources keep the display's answers, and frames of another origin "
                     "follow from their next load.");
}

static char *
format_emulate (JsonObject *result)
{
  GString *text = g_string_new (NULL);
  JsonObject *emulation = tw_json_get_object (result, "emulation");
  g_autofree char *described = tw_tool_describe_emulation (emulation);

  if (tw_json_get_boolean (result, "reset", FALSE))
    g_string_append (text, "The tab no longer emulates anything: from its next page load on it sends "
                     "the browser's own user agent, its pages are denied the position, it is online, a "
                     "device's viewport and touch support are gone, and its pages answer media queries as "
                     "the display does.");
  else
    {
      g_string_append_printf (text, "The tab now emulates %s.",
                              described != NULL ? described : "nothing");
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
  if (json_object_has_member (result, "pageMedia") && !tw_json_get_boolean (result, "reset", FALSE))
    append_page_media (text, result);
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
    .title = "Emulate a device, a user agent, a location, offline or media features",
    .description =
      "Make a tab pretend to be a phone or tablet (viewport, user agent, touch), another "
      "browser (navigator.userAgent and the User-Agent header, from the next page load on), "
      "somewhere else (a geolocation its pages may read), offline (requests fail, "
      "navigator.onLine false), or set media features: dark mode (prefers-color-scheme), "
      "reduced motion, forced colours, print media, as CSS @media and matchMedia see them. "
      "reset: true undoes all; browser_list_tabs shows it.",
    .read_only = FALSE,
    .destructive = FALSE,
    .idempotent = TRUE,
    .open_world = FALSE,
    .command = TW_TAB_COMMAND_EMULATE,
    .arguments = TW_TOOL_ARGUMENTS ("device", "userAgent", "geolocation", "offline", "colorScheme",
                                    "reducedMotion", "forcedColors", "media", "reset"),
    .format = format_emulate,
  },
};

const TwToolTable tw_tools_emulation = TW_TOOL_TABLE (emulation_tools);
