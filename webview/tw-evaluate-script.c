/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-evaluate-script.h"

#include "tw-script.h"

#include <string.h>

#define PAGE_WORLD_RESOURCES "/io/github/tabwright/Tabwright/page-world/"

/* evaluate.js, a function expression. */
static const char *
get_helper_source (void)
{
  return tw_script_get (PAGE_WORLD_RESOURCES "evaluate.js");
}

static const char *
get_helper_name (void)
{
  static char *name;

  if (g_once_init_enter (&name))
    g_once_init_leave (&name, g_strdup_printf ("__tw%08x%08x%08x",
                                               g_random_int (), g_random_int (),
                                               g_random_int ()));

  return name;
}

WebKitUserScript *
tw_evaluate_script_get_user_script (void)
{
  static WebKitUserScript *script;

  if (g_once_init_enter (&script))
    {
      g_autofree char *source = tw_script_expand (tw_script_get (PAGE_WORLD_RESOURCES
                                                                 "evaluate-install.js"),
                                                  "tabwrightHelperName", get_helper_name (),
                                                  "tabwrightHelperSource", get_helper_source (),
                                                  NULL);

      /* Every frame: browser_evaluate runs in the main document, or in the
       * frame of another origin that holds its ref. */
      g_once_init_leave (&script,
                         webkit_user_script_new (source,
                                                 WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                                 WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START,
                                                 NULL, NULL));
    }

  return script;
}

char *
tw_evaluate_script_build_body (const char *function)
{
  g_autofree char *trimmed = NULL;
  const char *name = get_helper_name ();
  gsize len;

  g_return_val_if_fail (function != NULL, NULL);

  trimmed = g_strstrip (g_strdup (function));
  len = strlen (trimmed);

  /* "() => 1;" is how people write it; a trailing semicolon inside the
   * parentheses would be a syntax error. */
  while (len > 0 && (trimmed[len - 1] == ';' || g_ascii_isspace (trimmed[len - 1])))
    trimmed[--len] = '\0';

  /* A document the user script did not reach (one that was already loaded)
   * gets the helper built now, from the built-ins as they are. */
  return tw_script_expand (tw_script_get (PAGE_WORLD_RESOURCES "evaluate-call.js"),
                           "tabwrightAgentFunction", trimmed,
                           "tabwrightHelperName", name,
                           "tabwrightHelperSource", get_helper_source (),
                           NULL);
}
