/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-evaluate-script.h"

#include <string.h>

#define HELPER_RESOURCE "/io/github/tabwright/Tabwright/page-world/evaluate.js"

static const char *
get_helper_source (void)
{
  static char *source;

  if (g_once_init_enter (&source))
    {
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GError) error = NULL;

      bytes = g_resources_lookup_data (HELPER_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
      if (bytes == NULL)
        g_error ("The page-world helper %s is missing: %s", HELPER_RESOURCE, error->message);

      g_once_init_leave (&source, g_strndup (g_bytes_get_data (bytes, NULL),
                                             g_bytes_get_size (bytes)));
    }

  return source;
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
      g_autofree char *source = g_strdup_printf ("const %s = %s;\n"
                                                 "//# sourceURL=tabwright-evaluate-helper.js\n",
                                                 get_helper_name (), get_helper_source ());

      /* Only the top frame: browser_evaluate runs in the main document. */
      g_once_init_leave (&script,
                         webkit_user_script_new (source,
                                                 WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
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
  return g_strconcat ("const tabwrightFunction = (\n", trimmed, "\n);\n",
                      "return (typeof ", name, " === 'object' ? ", name, " : ",
                      get_helper_source (), ").run(tabwrightFunction, nonce, maxBytes);\n",
                      NULL);
}
