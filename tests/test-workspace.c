/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "tw-connect-dialog.h"
#include "tw-mcp-snippets.h"
#include "tw-window.h"
#include "tw-test-webview.h"
#include "tw-test-widgets.h"
#include "tw-workspace.h"

/* What a workspace leaves on disk (its id, token and runtime file), and the
 * window that shows it. The tests run with HOME and the XDG folders of
 * their own in a temporary folder, and every test makes its workspace
 * folders under a name of its own, so none sees another's files. (GLib's
 * G_TEST_OPTION_ISOLATE_DIRS would also hide the system's GSettings schemas,
 * which libadwaita 1.2 cannot do without.) */

/* A folder of the running test's own, below the home folder. */
static char *
make_folder (const char *name)
{
  return tw_test_make_folder (g_get_home_dir (), name);
}

/* Tokens */

static void
test_token (void)
{
  g_autofree char *folder = make_folder ("project");
  g_autoptr(TwWorkspace) first = NULL;
  g_autoptr(TwWorkspace) second = NULL;
  g_autoptr(TwWorkspace) third = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = tw_workspace_id_from_path (folder);
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "tabwright", "workspaces",
                                           id, NULL);
  g_autofree char *token_file = g_build_filename (dir, "token", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *token = NULL;

  first = tw_workspace_new (folder, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tw_workspace_get_id (first), ==, id);
  g_assert_cmpstr (tw_workspace_get_name (first), ==, "project");
  g_assert_cmpstr (tw_workspace_get_path (first), ==, folder);
  g_assert_cmpstr (tw_workspace_get_data_dir (first), ==, dir);

  /* The token lives in the workspace's data folder, readable by its owner
   * only. */
  token = g_strdup (tw_workspace_get_token (first));
  g_assert_cmpuint (strlen (token), >=, 32);
  g_assert_true (g_file_get_contents (token_file, &contents, NULL, NULL));
  g_assert_cmpstr (g_strstrip (contents), ==, token);
  g_assert_cmpuint (tw_test_file_mode (token_file), ==, 0600);
  g_assert_cmpuint (tw_test_file_mode (dir), ==, 0700);
  g_clear_object (&first);

  /* The next start keeps the token, so configured clients keep working, and
   * takes back a permission that someone loosened. */
  g_assert_cmpint (g_chmod (token_file, 0644), ==, 0);
  second = tw_workspace_new (folder, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tw_workspace_get_token (second), ==, token);
  g_assert_cmpuint (tw_test_file_mode (token_file), ==, 0600);
  g_clear_object (&second);

  /* A token file that holds garbage is replaced. */
  g_assert_true (g_file_set_contents (token_file, "not a token\n", -1, NULL));
  third = tw_workspace_new (folder, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tw_workspace_get_token (third), !=, token);
  g_assert_cmpstr (tw_workspace_get_token (third), !=, "not a token");
  g_assert_cmpuint (tw_test_file_mode (token_file), ==, 0600);
}

static void
test_token_per_workspace (void)
{
  g_autofree char *one = make_folder ("one");
  g_autofree char *two = make_folder ("two");
  g_autoptr(TwWorkspace) a = tw_workspace_new (one, NULL);
  g_autoptr(TwWorkspace) b = tw_workspace_new (two, NULL);

  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpstr (tw_workspace_get_token (a), !=, tw_workspace_get_token (b));
  g_assert_cmpstr (tw_workspace_get_id (a), !=, tw_workspace_get_id (b));
}

/* The runtime file */

static void
test_runtime_file (void)
{
  g_autofree char *folder = make_folder ("project");
  g_autoptr(TwWorkspace) workspace = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *expected_dir = NULL;
  g_autofree char *url = NULL;
  g_autofree char *token = NULL;
  JsonObject *object;

  workspace = tw_workspace_new (folder, &error);
  g_assert_no_error (error);

  file = tw_workspace_id_dup_runtime_file (tw_workspace_get_id (workspace));
  dir = g_path_get_dirname (file);
  expected_dir = g_build_filename (g_get_user_runtime_dir (), "tabwright", NULL);
  g_assert_cmpstr (dir, ==, expected_dir);
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));

  g_assert_true (tw_workspace_publish (workspace, "http://127.0.0.1:4321/mcp", &error));
  g_assert_no_error (error);

  /* It holds a token: only its owner may read it, or even list the folder. */
  g_assert_cmpuint (tw_test_file_mode (file), ==, 0600);
  g_assert_cmpuint (tw_test_file_mode (dir), ==, 0700);

  g_assert_true (json_parser_load_from_file (parser, file, &error));
  g_assert_no_error (error);
  object = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (object, "url"), ==, "http://127.0.0.1:4321/mcp");
  g_assert_cmpstr (json_object_get_string_member (object, "token"), ==,
                   tw_workspace_get_token (workspace));
  g_assert_cmpstr (json_object_get_string_member (object, "workspace"), ==, folder);
  g_assert_cmpstr (json_object_get_string_member (object, "workspaceId"), ==,
                   tw_workspace_get_id (workspace));
  g_assert_cmpint (json_object_get_int_member (object, "pid"), ==, getpid ());

  /* That is what --print-mcp-config and the stdio bridge find. */
  g_assert_true (tw_workspace_id_read_runtime_file (folder, &url, &token, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (url, ==, "http://127.0.0.1:4321/mcp");
  g_assert_cmpstr (token, ==, tw_workspace_get_token (workspace));

  /* Closing the workspace removes it. */
  tw_workspace_unpublish (workspace);
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
  g_assert_false (tw_workspace_id_read_runtime_file (folder, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* And so does dropping it. */
  g_assert_true (tw_workspace_publish (workspace, "http://127.0.0.1:4321/mcp", NULL));
  g_assert_true (g_file_test (file, G_FILE_TEST_EXISTS));
  g_clear_object (&workspace);
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
}

/* What the Connect dialog and --print-mcp-config say */

static void
test_snippets (void)
{
  g_autofree char *config = tw_mcp_snippet_claude_config ("http://127.0.0.1:4321/mcp", "tok-EN_1");
  g_autofree char *claude = tw_mcp_snippet_claude_command ("http://127.0.0.1:4321/mcp", "tok-EN_1");
  g_autofree char *codex = tw_mcp_snippet_codex ("http://127.0.0.1:4321/mcp", "tok-EN_1");
  g_autofree char *stdio = tw_mcp_snippet_stdio ("/home/ada/app");
  g_autofree char *stdio_spaces = tw_mcp_snippet_stdio ("/home/ada/My App");
  g_autofree char *copilot = tw_mcp_snippet_copilot ("http://127.0.0.1:4321/mcp", "tok-EN_1");
  g_autofree char *qwen = tw_mcp_snippet_qwen ("http://127.0.0.1:4321/mcp", "tok-EN_1");

  g_assert_cmpstr (config, ==,
                   "{\"mcpServers\":{\"tabwright\":{\"type\":\"http\","
                   "\"url\":\"http://127.0.0.1:4321/mcp\","
                   "\"headers\":{\"Authorization\":\"Bearer tok-EN_1\"}}}}");
  g_assert_cmpstr (claude, ==,
                   "claude --mcp-config '{\"mcpServers\":{\"tabwright\":{\"type\":\"http\","
                   "\"url\":\"http://127.0.0.1:4321/mcp\","
                   "\"headers\":{\"Authorization\":\"Bearer tok-EN_1\"}}}}'");
  g_assert_cmpstr (codex, ==,
                   "export TABWRIGHT_MCP_TOKEN=tok-EN_1\n"
                   "codex -c 'mcp_servers.tabwright.url=\"http://127.0.0.1:4321/mcp\"'"
                   " -c 'mcp_servers.tabwright.bearer_token_env_var=\"TABWRIGHT_MCP_TOKEN\"'");
  g_assert_cmpstr (stdio, ==,
                   "claude mcp add tabwright -- tabwright-mcp --workspace /home/ada/app");
  g_assert_cmpstr (stdio_spaces, ==,
                   "claude mcp add tabwright -- tabwright-mcp --workspace '/home/ada/My App'");
  /* Copilot CLI's servers carry a tool filter; Qwen Code's Streamable HTTP
   * is httpUrl, as in Gemini CLI. */
  g_assert_cmpstr (copilot, ==,
                   "copilot --additional-mcp-config '{\"mcpServers\":{\"tabwright\":{"
                   "\"type\":\"http\",\"url\":\"http://127.0.0.1:4321/mcp\","
                   "\"headers\":{\"Authorization\":\"Bearer tok-EN_1\"},\"tools\":[\"*\"]}}}'");
  g_assert_cmpstr (qwen, ==,
                   "qwen --mcp-config '{\"mcpServers\":{\"tabwright\":{"
                   "\"httpUrl\":\"http://127.0.0.1:4321/mcp\","
                   "\"headers\":{\"Authorization\":\"Bearer tok-EN_1\"}}}}'");
}

/* The window */

static JsonObject *
run_command (TwBrowser    *browser,
             TwTabCommand  command,
             const char   *browser_id)
{
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *reply;

  tw_browser_service_run_async (TW_BROWSER_SERVICE (browser),
                                &(TwServiceRequest) { command, browser_id, params, &tw_test_agent },
                                NULL, tw_test_store_result_cb, NULL);
  result = tw_test_await_result (TW_TEST_WAIT_MS, tw_tab_command_to_string (command));
  reply = tw_browser_service_run_finish (TW_BROWSER_SERVICE (browser), result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (reply);

  return reply;
}

static gboolean
shows_empty_state (TwWindow *window)
{
  GtkWidget *empty_page = tw_test_find_widget (GTK_WIDGET (window), ADW_TYPE_STATUS_PAGE);
  GtkStack *stack = GTK_STACK (gtk_widget_get_parent (empty_page));

  return g_strcmp0 (gtk_stack_get_visible_child_name (stack), "empty") == 0;
}

static void
test_window_tabs (void)
{
  g_autoptr(TwBrowser) browser = tw_browser_new (NULL, NULL);
  g_autoptr(JsonObject) agent_reply = NULL;
  g_autoptr(JsonObject) closed = NULL;
  TwWindow *window;
  AdwTabView *view;
  AdwTabPage *person_page;
  AdwTabPage *agent_page;
  TwBrowserTab *person_tab;
  TwBrowserTab *agent_tab;

  window = tw_window_new (NULL, browser, "project", "/home/ada/project");
  gtk_window_present (GTK_WINDOW (window));
  view = ADW_TAB_VIEW (tw_test_find_widget (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW));

  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "project — Tabwright");
  g_assert_true (tw_test_label_shows (GTK_WIDGET (window), "project"));
  g_assert_true (shows_empty_state (window));

  /* The person's tab comes to the front. */
  person_tab = tw_browser_open_tab (browser, NULL);
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 1);
  person_page = adw_tab_view_get_selected_page (view);
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (tw_browser_tab_get_view (person_tab)),
                                         tw_window_get_tab_page (window, person_tab)));
  g_assert_false (shows_empty_state (window));
  g_assert_null (adw_tab_page_get_indicator_icon (person_page));

  /* An agent's tab opens behind it, marked with who drives it. */
  agent_reply = run_command (browser, TW_TAB_COMMAND_NEW_TAB, NULL);
  agent_tab = tw_browser_lookup_tab (browser,
                                     json_object_get_string_member (agent_reply, "browserId"));
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 2);
  g_assert_true (adw_tab_view_get_selected_page (view) == person_page);
  agent_page = adw_tab_view_get_nth_page (view, 1);
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (tw_browser_tab_get_view (agent_tab)),
                                         tw_window_get_tab_page (window, agent_tab)));
  /* Behind the person's tab, the agent's page stays mapped: a live page. */
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (tw_browser_tab_get_view (agent_tab))));
  g_assert_nonnull (adw_tab_page_get_indicator_icon (agent_page));
  g_assert_cmpstr (adw_tab_page_get_indicator_tooltip (agent_page), ==, "Driven by Test Agent");
  g_assert_cmpstr (adw_tab_page_get_title (agent_page), ==, "New Tab");

  /* Its tab menu shares it with every agent, or gives it to the person
   * or another running agent (issue 32). */
  tw_browser_add_agent (browser, "other-agent", "Other Agent");
  g_signal_emit_by_name (view, "setup-menu", agent_page);
  g_assert_true (tw_test_menu_has_label (adw_tab_view_get_menu_model (view), "_Share with All Agents"));
  g_assert_true (tw_test_menu_has_label (adw_tab_view_get_menu_model (view), "_Give Tab To"));
  g_assert_true (tw_test_menu_has_label (adw_tab_view_get_menu_model (view), "Other Agent"));
  g_assert_true (tw_test_menu_has_label (adw_tab_view_get_menu_model (view), "Me"));
  g_signal_emit_by_name (view, "setup-menu", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "share-tab",
                                  g_variant_new_string (tw_browser_tab_get_id (agent_tab)));
  g_assert_true (tw_browser_tab_get_shared (agent_tab));
  g_assert_nonnull (strstr (adw_tab_page_get_tooltip (agent_page), "shared with all agents"));
  g_signal_emit_by_name (view, "setup-menu", agent_page);
  g_assert_true (tw_test_menu_has_label (adw_tab_view_get_menu_model (view), "Stop _Sharing with Agents"));
  g_signal_emit_by_name (view, "setup-menu", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "give-tab",
                                  g_variant_new ("(ss)", tw_browser_tab_get_id (agent_tab),
                                                 "other-agent"));
  g_assert_cmpstr (tw_browser_tab_get_owner (agent_tab), ==, "Other Agent");
  g_action_group_activate_action (G_ACTION_GROUP (window), "give-tab",
                                  g_variant_new ("(ss)", tw_browser_tab_get_id (agent_tab), ""));
  g_assert_null (tw_browser_tab_get_owner (agent_tab));

  /* Closing a page in the window closes the tab for agents too. */
  adw_tab_view_close_page (view, person_page);
  g_assert_cmpuint (g_list_model_get_n_items (tw_browser_get_tabs (browser)), ==, 1);
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 1);

  /* And an agent closing the last tab leaves the empty state, not a closed
   * window. */
  closed = run_command (browser, TW_TAB_COMMAND_CLOSE_TAB, tw_browser_tab_get_id (agent_tab));
  g_assert_cmpint (adw_tab_view_get_n_pages (view), ==, 0);
  g_assert_true (shows_empty_state (window));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Loaded, with its title: the UI process may hear of it after the load. */
static gboolean
tab_loaded (gpointer data)
{
  return !tw_browser_tab_get_loading (data) &&
         g_str_has_prefix (tw_browser_tab_get_uri (data), "http://") &&
         tw_browser_tab_get_title (data)[0] != '\0';
}

/* Compositing follows what the person sees */

static WebKitHardwareAccelerationPolicy
tab_policy (TwBrowserTab *tab)
{
  return webkit_settings_get_hardware_acceleration_policy (webkit_web_view_get_settings (tw_browser_tab_get_view (tab)));
}

/* The share of @texture's pixels that are the page's red. */
static double
red_share (GdkTexture *texture)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guchar *pixels = g_malloc ((gsize) width * height * 4);
  gsize red = 0;

  /* GDK_MEMORY_DEFAULT: B, G, R, A. */
  gdk_texture_download (texture, pixels, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    {
      const guchar *p = pixels + i * 4;

      if (p[2] > 180 && p[1] < 90 && p[0] < 90)
        red++;
    }

  return width * height > 0 ? (double) red / (width * height) : 0;
}

static void
store_snapshot_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GdkTexture **texture = user_data;
  g_autoptr(GError) error = NULL;

  *texture = webkit_web_view_get_snapshot_finish (WEBKIT_WEB_VIEW (object), result, &error);
  g_assert_no_error (error);
}

/* What browser_screenshot takes of @tab's viewport. */
static GdkTexture *
screenshot (TwBrowserTab *tab)
{
  GdkTexture *texture = NULL;

  webkit_web_view_get_snapshot (tw_browser_tab_get_view (tab), WEBKIT_SNAPSHOT_REGION_VISIBLE,
                                WEBKIT_SNAPSHOT_OPTIONS_NONE, NULL, store_snapshot_cb, &texture);
  while (texture == NULL)
    g_main_context_iteration (NULL, TRUE);

  return texture;
}

static gboolean
tab_composited (gpointer data)
{
  return tab_policy (data) == WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS;
}


static void
test_window_compositing (void)
{
  g_autofree char *folder = make_folder ("compositing");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwWorkspace) workspace = tw_workspace_new (folder, &error);
  g_autofree char *base_url = NULL;
  g_autoptr(SoupServer) server =
    tw_test_server_new_page ("<title>Red</title><style>html, body { margin: 0; height: 100%; "
                             "background: rgb(220, 20, 20); }</style><h1>Red</h1>", &base_url);
  g_autoptr(JsonObject) agent_reply = NULL;
  g_autoptr(GdkTexture) behind_shot = NULL;
  g_autoptr(GdkTexture) shown_shot = NULL;
  AdwTabView *view;
  TwBrowser *browser;
  TwWindow *window;
  TwBrowserTab *person_tab;
  TwBrowserTab *agent_tab;
  AdwTabPage *person_page;

  g_assert_no_error (error);
  browser = tw_workspace_get_browser (workspace);
  window = tw_window_new (NULL, browser, "compositing", folder);
  gtk_window_present (GTK_WINDOW (window));
  view = ADW_TAB_VIEW (tw_test_find_widget (GTK_WIDGET (window), ADW_TYPE_TAB_VIEW));

  /* The tab the person looks at draws with accelerated compositing. */
  person_tab = tw_browser_open_tab (browser, NULL);
  person_page = adw_tab_view_get_selected_page (view);
  tw_browser_tab_load_uri (person_tab, base_url, NULL);
  tw_test_wait_until (tab_loaded, person_tab, 20000, "the person's page to load");
  g_assert_true (tw_browser_tab_get_shown (person_tab));
  tw_test_wait_until (tab_composited, person_tab, 20000, "the person's tab to be composited");
  shown_shot = screenshot (person_tab);
  g_assert_cmpfloat (red_share (shown_shot), >, 0.5);
  g_clear_object (&shown_shot);

  /* An agent's tab in the background draws without it, and is as live:
   * its screenshot shows the page. */
  agent_reply = run_command (browser, TW_TAB_COMMAND_NEW_TAB, NULL);
  agent_tab = tw_browser_lookup_tab (browser,
                                     json_object_get_string_member (agent_reply, "browserId"));
  tw_browser_tab_load_uri (agent_tab, base_url, NULL);
  tw_test_wait_until (tab_loaded, agent_tab, 20000, "the agent's page to load");
  g_assert_false (tw_browser_tab_get_shown (agent_tab));
  g_assert_cmpint (tab_policy (agent_tab), ==, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER);
  behind_shot = screenshot (agent_tab);
  g_assert_cmpfloat (red_share (behind_shot), >, 0.5);

  /* Once the person looks at it, it draws with compositing, and shows the
   * page, not a blank view. */
  adw_tab_view_set_selected_page (view, adw_tab_view_get_nth_page (view, 1));
  g_assert_true (tw_browser_tab_get_shown (agent_tab));
  g_assert_false (tw_browser_tab_get_shown (person_tab));
  tw_test_wait_until (tab_composited, agent_tab, 20000, "the agent's tab to be composited");
  shown_shot = screenshot (agent_tab);
  g_assert_cmpfloat (red_share (shown_shot), >, 0.5);

  /* Back in the background, each keeps compositing: leaving it gives back
   * only part of its memory in WebKitGTK 2.50, and coming back takes more. */
  adw_tab_view_set_selected_page (view, person_page);
  g_assert_false (tw_browser_tab_get_shown (agent_tab));
  g_assert_cmpint (tab_policy (agent_tab), ==, WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS);
  g_assert_cmpint (tab_policy (person_tab), ==, WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS);

  tw_test_flush_history (tw_browser_get_history (browser));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
star_shows_bookmark (gpointer data)
{
  return g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (data)), "starred-symbolic") == 0;
}

/* The window of the workspace at @folder, presented, as the app shows it
 * on start; *@workspace becomes that workspace (the one it held is let go
 * first). */
static TwWindow *
open_workspace_window (const char   *folder,
                       TwWorkspace **workspace)
{
  g_autoptr(GError) error = NULL;
  TwWindow *window;

  g_clear_object (workspace);
  *workspace = tw_workspace_new (folder, &error);
  g_assert_no_error (error);
  window = tw_window_new (NULL, tw_workspace_get_browser (*workspace), "history", folder);
  gtk_window_present (GTK_WINDOW (window));

  return window;
}

/* The workspace's history in the window: the star bookmarks the page shown,
 * and typing in the address bar suggests visited and bookmarked pages,
 * which open when chosen. */
static void
test_window_history (void)
{
  g_autofree char *folder = make_folder ("history");
  g_autoptr(TwWorkspace) workspace = NULL;
  g_autofree char *base_url = NULL;
  g_autoptr(SoupServer) server =
    tw_test_server_new_page ("<title>Heron Field Notes</title><p>Herons wade.</p>", &base_url);
  TwBrowser *browser;
  TwHistory *history;
  TwWindow *window;
  TwBrowserTab *tab;
  GtkWidget *star;
  GtkWidget *suggestions;
  GtkWidget *list;
  GtkWidget *entry;
  GtkListBoxRow *row;

  window = open_workspace_window (folder, &workspace);
  browser = tw_workspace_get_browser (workspace);
  history = tw_browser_get_history (browser);
  star = tw_test_find_named (GTK_WIDGET (window), "bookmark_button");
  entry = tw_test_find_named (GTK_WIDGET (window), "address_entry");
  suggestions = tw_test_find_named (GTK_WIDGET (window), "address_suggestions");
  g_assert_nonnull (star);
  g_assert_nonnull (suggestions);
  list = tw_test_find_widget (suggestions, GTK_TYPE_LIST_BOX);

  /* A blank tab has nothing to bookmark. */
  tab = tw_browser_open_tab (browser, NULL);
  g_assert_false (gtk_widget_is_sensitive (star));

  tw_browser_tab_load_uri (tab, base_url, NULL);
  tw_test_wait_until (tab_loaded, tab, 20000, "the page to load");
  g_assert_true (gtk_widget_is_sensitive (star));
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (star)), ==, "non-starred-symbolic");

  /* The star bookmarks the page, and says so. */
  g_signal_emit_by_name (star, "clicked");
  g_assert_true (tw_history_is_bookmarked (history, base_url));
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (star)), ==, "starred-symbolic");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (star), ==, "Remove Bookmark");

  /* Typing words of the title suggests the page, marked as a bookmark. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "heron fie");
  tw_test_wait_until (tw_test_widget_shown, suggestions, 5000, "the suggestions to show");
  row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0);
  g_assert_nonnull (row);
  g_assert_null (gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 1));
  g_assert_true (tw_test_label_shows (GTK_WIDGET (row), "Heron Field Notes"));
  g_assert_true (tw_test_label_shows (GTK_WIDGET (row), base_url));

  /* Words nothing has close the list. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "zebra");
  tw_test_wait_until (tw_test_widget_hidden, suggestions, 5000, "the suggestions to close");

  /* Choosing a suggestion opens it. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "notes");
  tw_test_wait_until (tw_test_widget_shown, suggestions, 5000, "the suggestions to show again");
  tw_browser_tab_load_uri (tab, "about:blank", NULL);
  tw_test_wait_until (tw_test_widget_shown, suggestions, 5000, "the suggestions to stay");
  row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (list), 0);
  g_signal_emit_by_name (row, "activate");
  g_assert_false (gtk_widget_get_visible (suggestions));
  tw_test_wait_until (tab_loaded, tab, 20000, "the chosen page to load");
  g_assert_cmpstr (tw_browser_tab_get_uri (tab), ==, base_url);

  /* The star again removes the bookmark, once it shows it: until the
   * history has answered for the page, it shows none, and a click then
   * bookmarks. */
  tw_test_wait_until (star_shows_bookmark, star, 5000, "the star to show the chosen bookmark");
  g_signal_emit_by_name (star, "clicked");
  g_assert_false (tw_history_is_bookmarked (history, base_url));
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (star)), ==, "non-starred-symbolic");

  /* Bookmarked again, then the app restarts: the star shows the bookmark
   * of the page shown, and removes it. */
  g_signal_emit_by_name (star, "clicked");
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (star)), ==, "starred-symbolic");
  tw_test_flush_history (history);
  gtk_window_destroy (GTK_WINDOW (window));

  window = open_workspace_window (folder, &workspace);
  browser = tw_workspace_get_browser (workspace);
  history = tw_browser_get_history (browser);
  star = tw_test_find_named (GTK_WIDGET (window), "bookmark_button");
  tab = tw_browser_open_tab (browser, base_url);
  tw_test_wait_until (tab_loaded, tab, 20000, "the page to load after the restart");
  tw_test_wait_until (star_shows_bookmark, star, 5000, "the star to show the bookmark");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (star), ==, "Remove Bookmark");
  g_signal_emit_by_name (star, "clicked");
  g_assert_cmpstr (gtk_button_get_icon_name (GTK_BUTTON (star)), ==, "non-starred-symbolic");
  tw_test_flush_history (history);
  g_assert_false (tw_history_is_bookmarked (history, base_url));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_connect_dialog (void)
{
  g_autofree char *claude = tw_mcp_snippet_claude_command ("http://127.0.0.1:4321/mcp",
                                                           "secret-token-123456");
  g_autofree char *stdio = tw_mcp_snippet_stdio ("/home/ada/project");
  g_autofree char *gemini = tw_mcp_snippet_gemini ("http://127.0.0.1:4321/mcp",
                                                   "secret-token-123456");
  g_autofree char *copilot = tw_mcp_snippet_copilot ("http://127.0.0.1:4321/mcp",
                                                     "secret-token-123456");
  g_autofree char *qwen = tw_mcp_snippet_qwen ("http://127.0.0.1:4321/mcp", "secret-token-123456");
  GtkWindow *dialog;

  dialog = tw_connect_dialog_new (NULL, "http://127.0.0.1:4321/mcp", "secret-token-123456",
                                  "/home/ada/project");
  gtk_window_present (dialog);

  /* The token stays hidden until asked for, in the snippets as well... */
  g_assert_false (tw_test_label_shows (GTK_WIDGET (dialog), claude));
  g_assert_true (tw_test_label_shows (GTK_WIDGET (dialog), stdio));

  /* ...which say the same as --print-mcp-config once revealed. */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (tw_test_find_widget (GTK_WIDGET (dialog),
                                                                        GTK_TYPE_TOGGLE_BUTTON)),
                                TRUE);
  g_assert_true (tw_test_label_shows (GTK_WIDGET (dialog), claude));
  /* Gemini CLI too: the extension's one-time install, then the run. */
  g_assert_true (tw_test_label_shows (GTK_WIDGET (dialog), gemini));
  g_assert_nonnull (strstr (gemini, ".gemini/extensions/tabwright/gemini-extension.json"));
  g_assert_nonnull (strstr (gemini, "Bearer ${TABWRIGHT_MCP_TOKEN}"));
  /* And the rows of Copilot CLI and Qwen Code. */
  g_assert_true (tw_test_label_shows (GTK_WIDGET (dialog), copilot));
  g_assert_true (tw_test_label_shows (GTK_WIDGET (dialog), qwen));

  gtk_window_destroy (dialog);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *root = tw_test_set_up_folders ("tabwright-test-workspace-XXXXXX", FALSE);
  int ret;

  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  adw_init ();

  g_test_add_func ("/app/workspace/token", test_token);
  g_test_add_func ("/app/workspace/token-per-workspace", test_token_per_workspace);
  g_test_add_func ("/app/workspace/runtime-file", test_runtime_file);
  g_test_add_func ("/ui/snippets", test_snippets);
  g_test_add_func ("/ui/window/tabs", test_window_tabs);
  g_test_add_func ("/ui/window/history", test_window_history);
  g_test_add_func ("/ui/window/compositing", test_window_compositing);
  g_test_add_func ("/ui/connect-dialog", test_connect_dialog);

  ret = g_test_run ();

  tw_test_remove_tree (root);

  return ret;
}
