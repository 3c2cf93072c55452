/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-script.h"

/* The page scripts the C side runs, read from GResource and expanded the
 * way the page runtime and browser_evaluate build what they run. */

/* The header comment goes, so a body's lines start at its code; a
 * sourceURL comment at the end stays. */
static void
test_get_strips_header (void)
{
  const char *call = tw_script_get ("/io/github/tabwright/Tabwright/runtime-call/call.js");
  const char *install = tw_script_get ("/io/github/tabwright/Tabwright/runtime-call/install.js");

  g_assert_true (g_str_has_prefix (call, "if (typeof __tabwright !== 'object')"));
  g_assert_true (g_str_has_prefix (install, "(function () {\n"));
  g_assert_true (g_str_has_suffix (install, "//# sourceURL=tabwright-runtime.js\n"));
  /* Read once: the same text every time. */
  g_assert_true (call == tw_script_get ("/io/github/tabwright/Tabwright/runtime-call/call.js"));
}

/* Every occurrence of a name is replaced, and what goes in is never
 * searched again: an agent's function that mentions a name stays as it
 * was written. */
static void
test_expand (void)
{
  const char *body = tw_script_get ("/io/github/tabwright/Tabwright/page-world/evaluate-call.js");
  g_autofree char *expanded = NULL;

  expanded = tw_script_expand (body,
                               "tabwrightAgentFunction", "() => 'tabwrightHelperName'",
                               "tabwrightHelperName", "__twSecret",
                               "tabwrightHelperSource", "({ run () {} })",
                               NULL);

  g_assert_cmpstr (expanded, ==,
                   "const tabwrightFunction = (\n"
                   "() => 'tabwrightHelperName'\n"
                   ");\n"
                   "return (typeof __twSecret === 'object' ? __twSecret : ({ run () {} }))"
                   ".run(tabwrightFunction, nonce, maxBytes);\n");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/webview/script/get-strips-header", test_get_strips_header);
  g_test_add_func ("/webview/script/expand", test_expand);

  return g_test_run ();
}
