/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "tw-browser-tab-private.h"
#include "tw-error.h"
#include "tw-install-dirs.h"
#include "tw-preferences-dialog.h"
#include "tw-session.h"
#include "tw-settings.h"
#include "tw-tool-call-private.h"
#include "tw-tool-registry.h"
#include "tw-test-util.h"
#include "tw-test-widgets.h"
#include "tw-tools-banner.h"

/* Settings as the person meets them: the schema's keys and defaults, where
 * an installed Tabwright finds its files, browser tools turned off and on
 * from Preferences (a tool call fails with browser_disabled, then works),
 * the window bar that says tools are off, the window's size, and what the
 * session file may reopen. GSETTINGS_BACKEND=memory keeps the real
 * settings out of it; the schema is found the way the app finds it. */

/* The schema */

static void
test_schema_defaults (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSettings) settings = tw_settings_new (&error);
  g_autoptr(GSettings) workspace = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsSchemaKey) port = NULL;
  g_autoptr(GVariant) too_low = g_variant_new_int32 (80);
  g_autoptr(GVariant) fine = g_variant_new_int32 (8765);
  g_autofree char *agent = NULL;
  g_autofree char *path = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (settings);

  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1280);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 800);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
  g_assert_cmpint (g_settings_get_enum (settings, "mcp-port-policy"), ==, TW_PORT_POLICY_RANDOM);
  g_assert_cmpint (g_settings_get_int (settings, "mcp-port"), ==, 8765);
  agent = g_settings_get_string (settings, "default-agent-preset");
  g_assert_cmpstr (agent, ==, "claude");
  g_assert_true (g_settings_get_boolean (settings, "overlay-animations"));
  g_assert_true (g_settings_get_boolean (settings, "restore-tabs"));

  /* Random by default: any free port. */
  g_assert_cmpuint (tw_settings_get_mcp_port (settings), ==, 0);
  g_settings_set_string (settings, "mcp-port-policy", "fixed");
  g_assert_cmpuint (tw_settings_get_mcp_port (settings), ==, 8765);
  g_settings_reset (settings, "mcp-port-policy");

  /* Ports below 1024 need privileges the app never has. */
  g_object_get (settings, "settings-schema", &schema, NULL);
  port = g_settings_schema_get_key (schema, "mcp-port");
  g_assert_false (g_settings_schema_key_range_check (port, too_low));
  g_assert_true (g_settings_schema_key_range_check (port, fine));

  path = tw_settings_dup_workspace_path ("my app/1-2_3.x");
  g_assert_cmpstr (path, ==, "/io/github/tabwright/Tabwright/workspaces/my-app-1-2_3.x/");

  workspace = tw_settings_new_for_workspace ("site-1a2b3c4d", &error);
  g_assert_no_error (error);
  g_assert_true (g_settings_get_boolean (workspace, "browser-tools-enabled"));
}

static void
test_schema_per_workspace (void)
{
  g_autoptr(GSettings) one = tw_settings_new_for_workspace ("one-00000001", NULL);
  g_autoptr(GSettings) two = tw_settings_new_for_workspace ("two-00000002", NULL);

  g_settings_set_boolean (one, "browser-tools-enabled", FALSE);
  g_assert_false (g_settings_get_boolean (one, "browser-tools-enabled"));
  g_assert_true (g_settings_get_boolean (two, "browser-tools-enabled"));
  g_settings_reset (one, "browser-tools-enabled");
}

static void
test_overlay_animations (void)
{
  g_autoptr(GSettings) settings = tw_settings_new (NULL);
  GtkSettings *gtk_settings = gtk_settings_get_default ();

  g_object_set (gtk_settings, "gtk-enable-animations", TRUE, NULL);
  g_assert_true (tw_settings_get_overlay_animations (settings));

  g_settings_set_boolean (settings, "overlay-animations", FALSE);
  g_assert_false (tw_settings_get_overlay_animations (settings));

  /* The desktop's switch wins over the app's. */
  g_settings_set_boolean (settings, "overlay-animations", TRUE);
  g_object_set (gtk_settings, "gtk-enable-animations", FALSE, NULL);
  g_assert_false (tw_settings_get_overlay_animations (settings));

  g_object_set (gtk_settings, "gtk-enable-animations", TRUE, NULL);
  g_settings_reset (settings, "overlay-animations");
}

/* Where installed files are */

static void
test_install_dirs_relocate (void)
{
  static const struct {
    const char *exe;
    const char *bindir;
    const char *dir;
    const char *expected;
  } cases[] = {
    /* Installed where configured. */
    { "/usr/local/bin/tabwright", "/usr/local/bin", "/usr/local/share/glib-2.0/schemas",
      "/usr/local/share/glib-2.0/schemas" },
    /* A DESTDIR staging tree. */
    { "/tmp/stage/usr/bin/tabwright", "/usr/bin", "/usr/lib/x86_64-linux-gnu/tabwright/web-process-extensions",
      "/tmp/stage/usr/lib/x86_64-linux-gnu/tabwright/web-process-extensions" },
    /* Flatpak. */
    { "/app/bin/tabwright", "/app/bin", "/app/lib/tabwright/web-process-extensions",
      "/app/lib/tabwright/web-process-extensions" },
    /* A prefix copied elsewhere, with a bindir of two levels. */
    { "/home/me/opt/tw/games/bin/tabwright", "/usr/games/bin", "/usr/share/locale",
      "/home/me/opt/tw/share/locale" },
    /* Not in a folder like bindir: the build tree, or a stray copy. */
    { "/src/tabwright/build/app/tabwright", "/usr/local/bin", "/usr/local/share/locale", NULL },
    { "/opt/sbin/tabwright", "/usr/bin", "/usr/share/locale", NULL },
    { "/tabwright", "/usr/bin", "/usr/share/locale", NULL },
    /* Only absolute paths without ".." can be compared. */
    { "bin/tabwright", "/usr/bin", "/usr/share/locale", NULL },
    { "/x/../bin/tabwright", "/usr/bin", "/usr/share/locale", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *found = tw_install_dirs_relocate (cases[i].exe, cases[i].bindir,
                                                         cases[i].dir);

      g_test_message ("%s built for %s finds %s", cases[i].exe, cases[i].bindir, cases[i].dir);
      g_assert_cmpstr (found, ==, cases[i].expected);
    }
}

static void
test_install_dirs_lookup (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("tabwright-test-install-XXXXXX", &error);
  g_autofree char *exe = NULL;
  g_autofree char *ext = NULL;
  g_autofree char *found = NULL;
  g_autofree char *missing = NULL;

  g_assert_no_error (error);
  exe = g_build_filename (root, "usr", "bin", "tabwright", NULL);
  ext = g_build_filename (root, "usr", "lib", "tabwright", "web-process-extensions", NULL);
  g_assert_cmpint (g_mkdir_with_parents (ext, 0700), ==, 0);

  /* Next to the program when it is there, where configured otherwise. */
  found = tw_install_dirs_lookup (exe, "/usr/bin", "/usr/lib/tabwright/web-process-extensions");
  g_assert_cmpstr (found, ==, ext);
  missing = tw_install_dirs_lookup (exe, "/usr/bin", "/usr/lib/tabwright/other");
  g_assert_cmpstr (missing, ==, "/usr/lib/tabwright/other");

  tw_test_remove_tree (root);
}

static void
test_install_dirs_build_tree (void)
{
  g_autofree char *exe = g_build_filename (BUILD_ROOT, "app", "tabwright", NULL);
  g_autofree char *schemas = tw_install_dirs_find_schema_dir (exe);
  g_autofree char *extension = NULL;
  g_autofree char *expected_schemas = g_build_filename (BUILD_ROOT, "data", NULL);

  /* This very test runs from the build tree. */
  g_assert_true (tw_install_dirs_in_build_tree (tw_install_dirs_get_exe_path ()));
  g_assert_true (tw_install_dirs_in_build_tree (exe));
  g_assert_false (tw_install_dirs_in_build_tree ("/usr/bin/tabwright"));
  g_assert_cmpstr (schemas, ==, expected_schemas);

  /* The variable names the folder outright, wherever the program is. */
  g_setenv ("TABWRIGHT_WEB_EXTENSION_DIR", "/somewhere/else", TRUE);
  extension = tw_install_dirs_find_web_extension_dir ("/usr/bin/tabwright");
  g_assert_cmpstr (extension, ==, "/somewhere/else");
  g_unsetenv ("TABWRIGHT_WEB_EXTENSION_DIR");
}

/* Browser tools on and off */

/* A workspace's Preferences: the workspace's settings and the app's, the
 * workspace's browser bound to them, and the dialog that writes them. */
typedef struct
{
  GSettings           *workspace;
  GSettings           *settings;
  TwBrowser           *browser;
  TwPreferencesDialog *dialog;
} Prefs;

static void
prefs_set_up (Prefs         *f,
              gconstpointer  data)
{
  f->workspace = tw_settings_new_for_workspace ("prefs-00000001", NULL);
  f->settings = tw_settings_new (NULL);
  f->browser = tw_browser_new (NULL, NULL);
  tw_settings_bind_browser (f->workspace, f->browser);
  f->dialog = g_object_ref_sink (tw_preferences_dialog_new (NULL, f->settings, f->workspace,
                                                            "/tmp/prefs"));
}

/* Closes the dialog and puts back every key of the workspace. */
static void
prefs_tear_down (Prefs         *f,
                 gconstpointer  data)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  gtk_window_destroy (GTK_WINDOW (f->dialog));
  g_object_get (f->workspace, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    g_settings_reset (f->workspace, keys[i]);
  g_clear_object (&f->dialog);
  g_clear_object (&f->browser);
  g_clear_object (&f->settings);
  g_clear_object (&f->workspace);
}

/* The switch named @name in the dialog. */
static GtkSwitch *
prefs_switch (Prefs      *f,
              const char *name)
{
  GtkWidget *widget = tw_test_find_named (GTK_WIDGET (f->dialog), name);

  g_assert_nonnull (widget);

  return GTK_SWITCH (widget);
}


static void
call_tool (TwBrowser     *browser,
           const char    *name,
           const char    *arguments,
           TwTestOutcome *outcome)
{
  tw_test_outcome_clear (outcome);
  tw_test_run_tool_full (TW_BROWSER_SERVICE (browser), &tw_test_agent, name, arguments, outcome);
}

static void
assert_disabled (TwTestOutcome *outcome)
{
  JsonObject *result = json_node_get_object (outcome->result);
  JsonObject *error = json_object_get_object_member (
    json_object_get_object_member (result, "structuredContent"), "error");

  g_assert_error (outcome->error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DISABLED);
  g_assert_true (json_object_get_boolean_member (result, "isError"));
  g_assert_cmpstr (json_object_get_string_member (error, "code"), ==, "browser_disabled");
  g_assert_true (g_str_has_prefix (tw_test_result_text (result), "Error: browser_disabled — "));
  g_assert_nonnull (strstr (tw_test_result_text (result), "turned off for this workspace"));
}

static void
test_browser_tools_live (Prefs         *f,
                         gconstpointer  data)
{
  TwBrowser *browser = f->browser;
  TwTestOutcome outcome = { 0 };
  GtkSwitch *tools_switch;

  g_assert_true (tw_browser_get_enabled (browser));

  call_tool (browser, "browser_list_tabs", "{}", &outcome);
  g_assert_no_error (outcome.error);

  /* The switch in Preferences writes the key; the key turns tools off. */
  tools_switch = prefs_switch (f, "browser-tools-switch");
  g_assert_true (gtk_switch_get_active (tools_switch));

  gtk_switch_set_active (tools_switch, FALSE);
  g_assert_false (g_settings_get_boolean (f->workspace, "browser-tools-enabled"));
  g_assert_false (tw_browser_get_enabled (browser));

  /* Every tool, before it looks at its arguments. */
  call_tool (browser, "browser_list_tabs", "{}", &outcome);
  assert_disabled (&outcome);
  call_tool (browser, "browser_new_tab", "{\"url\": \"http://127.0.0.1:9/\"}", &outcome);
  assert_disabled (&outcome);
  call_tool (browser, "browser_click", "{\"browserId\": \"b1\"}", &outcome);
  assert_disabled (&outcome);
  for (guint i = 0; i < tw_tool_registry_get_n_tools (); i++)
    {
      const TwToolDef *def = tw_tool_registry_get_tool (i);

      g_test_message ("%s while tools are off", def->name);
      call_tool (browser, def->name, "{}", &outcome);
      assert_disabled (&outcome);
    }
  g_assert_cmpuint (g_list_model_get_n_items (tw_browser_get_tabs (browser)), ==, 0);

  /* And on again, from the key this time (gsettings, another window). */
  g_settings_set_boolean (f->workspace, "browser-tools-enabled", TRUE);
  g_assert_true (gtk_switch_get_active (tools_switch));
  g_assert_true (tw_browser_get_enabled (browser));
  call_tool (browser, "browser_list_tabs", "{}", &outcome);
  g_assert_no_error (outcome.error);
  g_assert_false (json_object_get_boolean_member_with_default (
                    json_node_get_object (outcome.result), "isError", FALSE));

  tw_test_outcome_clear (&outcome);
}

/* Agents' tabs as focused pages: on by default; the Preferences switch
 * writes the workspace's key, and the workspace's browser follows it
 * (test-tab-focus shows what a page then sees). */
static void
test_emulate_focus (Prefs         *f,
                    gconstpointer  data)
{
  GtkSwitch *focus_switch = prefs_switch (f, "emulate-focus-switch");

  g_assert_true (g_settings_get_boolean (f->workspace, "emulate-focus"));
  g_assert_true (tw_browser_get_emulate_focus (f->browser));
  g_assert_true (gtk_switch_get_active (focus_switch));

  gtk_switch_set_active (focus_switch, FALSE);
  g_assert_false (g_settings_get_boolean (f->workspace, "emulate-focus"));
  g_assert_false (tw_browser_get_emulate_focus (f->browser));

  g_settings_set_boolean (f->workspace, "emulate-focus", TRUE);
  g_assert_true (gtk_switch_get_active (focus_switch));
  g_assert_true (tw_browser_get_emulate_focus (f->browser));
}

/* Agents' Limits (issue 32): the rows write the workspace's keys, and
 * the workspace's browser follows them. */
static void
test_agent_limits (Prefs         *f,
                   gconstpointer  data)
{
  GtkSwitch *evaluate_switch = prefs_switch (f, "approve-browser_evaluate-switch");
  GtkSwitch *session_switch = prefs_switch (f, "agent-session-switch");
  GtkWidget *sites_row = tw_test_find_named (GTK_WIDGET (f->dialog), "allowed-sites-row");
  g_auto(GStrv) approve = NULL;
  g_auto(GStrv) sites = NULL;
  g_autofree char *session = NULL;

  g_assert_nonnull (sites_row);
  tw_browser_add_agent (f->browser, "agent-1", "Ada");
  g_assert_cmpstr (tw_browser_get_agent_session (f->browser, "agent-1"), ==, "workspace");
  g_assert_false (gtk_switch_get_active (evaluate_switch));

  gtk_switch_set_active (evaluate_switch, TRUE);
  approve = g_settings_get_strv (f->workspace, "agent-approvals");
  g_assert_cmpstrv (approve, ((const char * const[]) { "browser_evaluate", NULL }));

  gtk_switch_set_active (session_switch, TRUE);
  session = g_settings_get_string (f->workspace, "agent-session");
  g_assert_cmpstr (session, ==, "own");
  g_assert_cmpstr (tw_browser_get_agent_session (f->browser, "agent-1"), ==, "own");

  gtk_editable_set_text (GTK_EDITABLE (sites_row), "localhost:5173, *.example.com");
  g_signal_emit_by_name (sites_row, "apply");
  sites = g_settings_get_strv (f->workspace, "agent-allowed-sites");
  g_assert_cmpstrv (sites, ((const char * const[]) { "localhost:5173", "*.example.com", NULL }));

  /* The key changed elsewhere shows in the dialog. */
  g_settings_reset (f->workspace, "agent-approvals");
  g_assert_false (gtk_switch_get_active (evaluate_switch));
}

/* The timeline's size: a row of the workspace's Preferences, the key
 * both ways. */
static void
test_timeline_size (Prefs         *f,
                    gconstpointer  data)
{
  GtkWidget *spin = tw_test_find_named (GTK_WIDGET (f->dialog), "timeline-spin");

  g_assert_nonnull (spin);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)), ==,
                   g_settings_get_uint (f->workspace, "timeline-size-mb"));

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 50);
  g_assert_cmpuint (g_settings_get_uint (f->workspace, "timeline-size-mb"), ==, 50);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 0);
  g_assert_cmpuint (g_settings_get_uint (f->workspace, "timeline-size-mb"), ==, 0);
  g_settings_set_uint (f->workspace, "timeline-size-mb", 700);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (spin)), ==, 700);
}

static void
test_browser_tools_banner (void)
{
  g_autoptr(GSettings) workspace = tw_settings_new_for_workspace ("banner-00000001", NULL);
  g_autoptr(TwBrowser) browser = tw_browser_new (NULL, NULL);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *banner = tw_tools_banner_new ();
  GtkWidget *info_bar;

  tw_settings_bind_browser (workspace, browser);
  gtk_window_set_child (GTK_WINDOW (window), banner);
  tw_tools_banner_set_browser (TW_TOOLS_BANNER (banner), browser);
  info_bar = adw_bin_get_child (ADW_BIN (banner));

  g_assert_false (tw_tools_banner_get_shown (TW_TOOLS_BANNER (banner)));
  g_assert_false (gtk_widget_get_visible (info_bar));

  g_settings_set_boolean (workspace, "browser-tools-enabled", FALSE);
  g_assert_true (tw_tools_banner_get_shown (TW_TOOLS_BANNER (banner)));
  g_assert_true (gtk_widget_get_visible (info_bar));

  /* "Turn On" sets the workspace's setting back, not just the browser. */
  gtk_info_bar_response (GTK_INFO_BAR (info_bar), GTK_RESPONSE_ACCEPT);
  g_assert_true (g_settings_get_boolean (workspace, "browser-tools-enabled"));
  g_assert_true (tw_browser_get_enabled (browser));
  g_assert_false (tw_tools_banner_get_shown (TW_TOOLS_BANNER (banner)));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Tool groups: the Preferences switch per group writes the workspace's
 * tool-groups key, the browser follows it (tools-changed, so MCP clients
 * are told), and a tool of a group that is off fails with browser_disabled
 * naming its group. --tools is parsed against the registry's groups. */

static void
tools_changed_cb (TwBrowserService *service,
                  guint            *count)
{
  (*count)++;
}

static void
test_tool_groups (Prefs         *f,
                  gconstpointer  data)
{
  TwBrowser *browser = f->browser;
  g_auto(GStrv) defaults = g_settings_get_strv (f->workspace, "tool-groups");
  g_auto(GStrv) after = NULL;
  g_auto(GStrv) parsed = NULL;
  g_auto(GStrv) empty = NULL;
  g_autoptr(GError) error = NULL;
  TwTestOutcome outcome = { 0 };
  GtkSwitch *core_switch;
  JsonObject *result;
  guint changed = 0;

  g_assert_true (g_strv_contains ((const char * const *) defaults, "core"));
  g_assert_false (g_strv_contains ((const char * const *) defaults, "reading"));

  g_signal_connect (browser, "tools-changed", G_CALLBACK (tools_changed_cb), &changed);
  g_assert_true (tw_browser_service_get_tool_group_enabled (TW_BROWSER_SERVICE (browser), "core"));

  for (guint i = 0; i < tw_tool_registry_get_n_groups (); i++)
    {
      const char *group = tw_tool_registry_get_group_name (i);
      g_autofree char *name = g_strdup_printf ("tool-group-%s", group);

      g_assert_cmpint (gtk_switch_get_active (prefs_switch (f, name)), ==,
                       g_strv_contains ((const char * const *) defaults, group));
    }

  /* Core off from Preferences: the key, the browser and the call agree. */
  core_switch = prefs_switch (f, "tool-group-core");
  gtk_switch_set_active (core_switch, FALSE);
  after = g_settings_get_strv (f->workspace, "tool-groups");
  g_assert_false (g_strv_contains ((const char * const *) after, "core"));
  g_assert_cmpuint (changed, ==, 1);
  g_assert_false (tw_browser_service_get_tool_group_enabled (TW_BROWSER_SERVICE (browser), "core"));

  call_tool (browser, "browser_list_tabs", "{}", &outcome);
  g_assert_error (outcome.error, TW_BROWSER_ERROR, TW_BROWSER_ERROR_DISABLED);
  result = json_node_get_object (outcome.result);
  g_assert_true (json_object_get_boolean_member (result, "isError"));
  g_assert_true (g_str_has_prefix (tw_test_result_text (result),
                                   "Error: browser_disabled — browser_list_tabs belongs to the \"core\" tools"));

  /* On again from the key (gsettings, --tools): the switch follows. */
  g_settings_reset (f->workspace, "tool-groups");
  g_assert_true (gtk_switch_get_active (core_switch));
  g_assert_cmpuint (changed, ==, 2);
  call_tool (browser, "browser_list_tabs", "{}", &outcome);
  g_assert_no_error (outcome.error);

  /* --tools: known names, deduplicated; an unknown one names the groups. */
  parsed = tw_settings_parse_tool_groups (" core, core ,", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (parsed), ==, 1);
  g_assert_cmpstr (parsed[0], ==, "core");
  empty = tw_settings_parse_tool_groups ("", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (empty), ==, 0);
  g_assert_null (tw_settings_parse_tool_groups ("core,nonsense", &error));
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  g_assert_nonnull (strstr (error->message, "“nonsense”; the groups are: core"));

  tw_test_outcome_clear (&outcome);
}

/* Preferences */

static void
test_preferences_app_settings (void)
{
  g_autoptr(GSettings) settings = tw_settings_new (NULL);
  g_autoptr(TwPreferencesDialog) dialog = NULL;
  const char *ids[] = { "claude", "codex", "gemini", NULL };
  const char *names[] = { "Claude Code", "Codex", "Gemini CLI", NULL };
  const char *changed[] = { "default-agent-preset", "mcp-port-policy", "mcp-port",
                            "restore-tabs", "overlay-animations" };
  g_autofree char *agent = NULL;
  AdwComboRow *agent_row;
  GtkWidget *fixed_port;
  GtkWidget *port;

  dialog = g_object_ref_sink (tw_preferences_dialog_new (NULL, settings, NULL, NULL));
  tw_preferences_dialog_set_agents (dialog, ids, names);
  tw_preferences_dialog_set_serving_port (dialog, 40123);

  /* A new port policy waits for the next start, so the dialog says where
   * agents reach the tabs now. */
  g_assert_nonnull (strstr (adw_preferences_group_get_description (
                              ADW_PREFERENCES_GROUP (tw_test_find_named (GTK_WIDGET (dialog), "server-group"))),
                            "http://127.0.0.1:40123/mcp"));

  /* Without a workspace there is no browser tools switch to show. */
  g_assert_false (gtk_widget_is_visible (tw_test_find_named (GTK_WIDGET (dialog), "browser-tools-switch")));

  agent_row = ADW_COMBO_ROW (tw_test_find_named (GTK_WIDGET (dialog), "default-agent-row"));
  g_assert_cmpuint (adw_combo_row_get_selected (agent_row), ==, 0);
  adw_combo_row_set_selected (agent_row, 1);
  agent = g_settings_get_string (settings, "default-agent-preset");
  g_assert_cmpstr (agent, ==, "codex");
  g_settings_set_string (settings, "default-agent-preset", "gemini");
  g_assert_cmpuint (adw_combo_row_get_selected (agent_row), ==, 2);

  fixed_port = tw_test_find_named (GTK_WIDGET (dialog), "fixed-port-switch");
  port = tw_test_find_named (GTK_WIDGET (dialog), "port-spin");
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (fixed_port)));
  gtk_switch_set_active (GTK_SWITCH (fixed_port), TRUE);
  g_assert_cmpint (g_settings_get_enum (settings, "mcp-port-policy"), ==, TW_PORT_POLICY_FIXED);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (port), 9123);
  g_assert_cmpuint (tw_settings_get_mcp_port (settings), ==, 9123);
  gtk_switch_set_active (GTK_SWITCH (fixed_port), FALSE);
  g_assert_cmpuint (tw_settings_get_mcp_port (settings), ==, 0);

  gtk_switch_set_active (GTK_SWITCH (tw_test_find_named (GTK_WIDGET (dialog), "restore-tabs-switch")), FALSE);
  g_assert_false (g_settings_get_boolean (settings, "restore-tabs"));
  gtk_switch_set_active (GTK_SWITCH (tw_test_find_named (GTK_WIDGET (dialog), "animations-switch")), FALSE);
  g_assert_false (g_settings_get_boolean (settings, "overlay-animations"));

  gtk_window_destroy (GTK_WINDOW (dialog));
  for (guint i = 0; i < G_N_ELEMENTS (changed); i++)
    g_settings_reset (settings, changed[i]);
}

/* The window */

static void
test_window_state (void)
{
  g_autoptr(GSettings) settings = tw_settings_new (NULL);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *next;
  int width;
  int height;

  tw_settings_restore_window (settings, GTK_WINDOW (window));
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 1280);
  g_assert_cmpint (height, ==, 800);

  /* What the person left it at is what the next window gets. */
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 650);
  tw_settings_save_window (settings, GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 900);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 650);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
  gtk_window_destroy (GTK_WINDOW (window));

  next = gtk_window_new ();
  tw_settings_restore_window (settings, GTK_WINDOW (next));
  gtk_window_get_default_size (GTK_WINDOW (next), &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 650);

  /* Sizes the schema cannot hold are not saved. */
  gtk_window_set_default_size (GTK_WINDOW (next), 100, 100);
  tw_settings_save_window (settings, GTK_WINDOW (next));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 900);
  gtk_window_destroy (GTK_WINDOW (next));

  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

/* The session file */

static void
test_session_parse (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) urls = NULL;
  g_auto(GStrv) none = NULL;
  g_autoptr(GString) many = g_string_new ("{\"version\": 1, \"tabs\": [");

  urls = tw_session_parse ("{\"version\": 1, \"tabs\": ["
                           "  {\"url\": \"http://127.0.0.1:8000/app\", \"title\": \"App\"},"
                           "  {\"url\": \"file:///etc/passwd\"},"
                           "  {\"url\": \"javascript:alert(1)\"},"
                           "  {\"url\": \"about:blank\"},"
                           "  {\"url\": 42},"
                           "  \"https://example.com/\","
                           "  {\"title\": \"No URL\"},"
                           "  {\"url\": \"https://example.com/docs\"}"
                           "]}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (urls), ==, 2);
  g_assert_cmpstr (urls[0], ==, "http://127.0.0.1:8000/app");
  g_assert_cmpstr (urls[1], ==, "https://example.com/docs");

  none = tw_session_parse ("{\"version\": 1, \"tabs\": []}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (none), ==, 0);

  g_assert_null (tw_session_parse ("not json", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_null (tw_session_parse ("[]", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  g_assert_null (tw_session_parse ("{\"version\": 2, \"tabs\": []}", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);

  /* A huge file does not open a huge number of tabs. */
  for (guint i = 0; i < TW_SESSION_MAX_TABS + 50; i++)
    g_string_append_printf (many, "%s{\"url\": \"http://127.0.0.1/%u\"}", i ? "," : "", i);
  g_string_append (many, "]}");
  g_clear_pointer (&urls, g_strfreev);
  urls = tw_session_parse (many->str, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (urls), ==, TW_SESSION_MAX_TABS);
}

static void
test_session_restore (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tabwright-test-session-XXXXXX", &error);
  g_autofree char *file = g_build_filename (dir, "session.json", NULL);
  g_autoptr(TwBrowser) browser = tw_browser_new (NULL, NULL);
  g_autoptr(TwSession) session = NULL;
  g_autoptr(TwBrowserTab) first = NULL;
  g_autofree char *saved = NULL;
  GStatBuf buf;

  g_assert_no_error (error);
  session = tw_session_new (browser, file);

  /* No file yet: nothing to reopen, and no error. */
  g_assert_cmpuint (tw_session_restore (session, &error), ==, 0);
  g_assert_no_error (error);

  g_assert_true (g_file_set_contents (file,
                                      "{\"version\": 1, \"tabs\": ["
                                      " {\"url\": \"http://127.0.0.1:9/one\"},"
                                      " {\"url\": \"file:///etc/passwd\"},"
                                      " {\"url\": \"http://127.0.0.1:9/two\"}]}", -1, NULL));
  g_assert_cmpuint (tw_session_restore (session, &error), ==, 2);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (tw_browser_get_tabs (browser)), ==, 2);

  /* Reopened tabs are the person's. */
  first = g_list_model_get_item (tw_browser_get_tabs (browser), 0);
  g_assert_null (tw_browser_tab_get_owner (first));

  /* Closing writes the file, then lets go: closing the tabs afterwards,
   * as a window that goes away does, changes nothing. */
  g_assert_true (tw_session_close (session, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (file, &buf), ==, 0);
  g_assert_cmpint (buf.st_mode & 0777, ==, 0600);
  tw_browser_close_all (browser);
  g_assert_true (g_file_get_contents (file, &saved, NULL, NULL));
  g_assert_nonnull (strstr (saved, "\"version\" : 1"));
  g_assert_null (strstr (saved, "passwd"));

  tw_test_remove_tree (dir);
}

/* A private tab keeps nothing once closed, so the saved session does not
 * reopen it either (issue 31). */
static void
test_session_private_tab (void)
{
  g_autoptr(WebKitNetworkSession) network = webkit_network_session_new_ephemeral ();
  g_autoptr(GListStore) tabs = g_list_store_new (TW_TYPE_BROWSER_TAB);
  g_autoptr(TwBrowserTab) normal = tw_browser_tab_new (network, NULL, NULL);
  g_autoptr(TwBrowserTab) secret = tw_browser_tab_new_private ("a1", "Agent");
  g_autofree char *saved = NULL;

  g_assert_false (tw_browser_tab_get_private (normal));
  g_assert_true (tw_browser_tab_get_private (secret));
  tw_browser_tab_defer_load (normal, "http://127.0.0.1:9/shared", "Shared");
  tw_browser_tab_defer_load (secret, "http://127.0.0.1:9/secret", "Secret");
  g_list_store_append (tabs, normal);
  g_list_store_append (tabs, secret);

  saved = tw_session_serialize (G_LIST_MODEL (tabs));
  g_assert_nonnull (strstr (saved, "http://127.0.0.1:9/shared"));
  g_assert_null (strstr (saved, "secret"));
  g_assert_null (strstr (saved, "Secret"));

  tw_browser_tab_close (normal);
  tw_browser_tab_close (secret);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/settings/schema/defaults", test_schema_defaults);
  g_test_add_func ("/settings/schema/per-workspace", test_schema_per_workspace);
  g_test_add_func ("/settings/schema/overlay-animations", test_overlay_animations);
  g_test_add_func ("/settings/install-dirs/relocate", test_install_dirs_relocate);
  g_test_add_func ("/settings/install-dirs/lookup", test_install_dirs_lookup);
  g_test_add_func ("/settings/install-dirs/build-tree", test_install_dirs_build_tree);
  g_test_add ("/settings/browser-tools/live", Prefs, NULL, prefs_set_up, test_browser_tools_live, prefs_tear_down);
  g_test_add_func ("/settings/browser-tools/banner", test_browser_tools_banner);
  g_test_add ("/settings/emulate-focus", Prefs, NULL, prefs_set_up, test_emulate_focus, prefs_tear_down);
  g_test_add ("/settings/workspace/agent-limits", Prefs, NULL, prefs_set_up, test_agent_limits, prefs_tear_down);
  g_test_add ("/settings/preferences/timeline-size", Prefs, NULL, prefs_set_up, test_timeline_size, prefs_tear_down);
  g_test_add_func ("/settings/preferences/app-settings", test_preferences_app_settings);
  g_test_add ("/settings/preferences/tool-groups", Prefs, NULL, prefs_set_up, test_tool_groups, prefs_tear_down);
  g_test_add_func ("/settings/window/size", test_window_state);
  g_test_add_func ("/settings/session/parse", test_session_parse);
  g_test_add_func ("/settings/session/restore", test_session_restore);
  g_test_add_func ("/settings/session/private-tab", test_session_private_tab);

  return g_test_run ();
}
