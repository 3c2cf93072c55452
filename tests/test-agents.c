/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>
#include <sys/stat.h>

#include "tw-agent.h"
#include "tw-agent-launcher.h"
#include "tw-agent-manager.h"
#include "tw-agent-pane.h"
#include "tw-agent-preset.h"
#include "tw-connect-dialog.h"
#include "tw-gemini-extension.h"
#include "tw-mcp-snippets.h"
#include "tw-mcp-server.h"
#include "tw-recent-workspaces.h"
#include "tw-settings.h"
#include "tw-window.h"
#include "tw-workspace.h"
#include "tw-test-util.h"
#include "tw-test-widgets.h"

/* Agents the app launches: presets read as data and merged with the
 * user's file, the command lines and environments they make, agents
 * running in a terminal with a token of their own (calls attributed to
 * them, 401 once they exit), recent workspaces and the separate website
 * data of each workspace. The tests run with HOME and the XDG folders in a
 * temporary folder of their own. */

#define WAIT_LIMIT_MS 30000

static char *root_dir;

/* Helpers */

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

/* A folder of the running test's own, below the root folder. */
static char *
make_folder (const char *name)
{
  g_autofree char *folders = g_build_filename (root_dir, "folders", NULL);

  return tw_test_make_folder (folders, name);
}

static void
write_file (const char *path,
            const char *contents,
            int         mode)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents_full (path, contents, -1, G_FILE_SET_CONTENTS_CONSISTENT, mode, &error);
  g_assert_no_error (error);
}

static const char *
json_path_string (JsonNode   *root,
                  const char *expression)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) result = json_path_query (expression, root, &error);
  JsonArray *array;

  g_assert_no_error (error);
  array = json_node_get_array (result);
  g_assert_cmpuint (json_array_get_length (array), ==, 1);

  /* The string lives as long as @root. */
  return g_intern_string (json_array_get_string_element (array, 0));
}

static gboolean
strv_has (char       **strv,
          const char  *value)
{
  return g_strv_contains ((const char * const *) strv, value);
}

/* Presets: built in */

static const TwAgentPresetValues test_values = {
  "http://127.0.0.1:4242/mcp",
  "secret-token",
  "/home/ada/site",
  "/run/user/1000/tabwright/agents/claude-1-abc.mcp.json",
  "/run/user/1000/tabwright/agents/gemini-1-abc.gemini.json",
};

static GListModel *
load_builtin (void)
{
  g_autoptr(GError) user_error = NULL;
  GListModel *presets = tw_agent_presets_new (&user_error);

  g_assert_no_error (user_error);
  g_assert_nonnull (presets);

  return presets;
}

static void
test_presets_builtin (void)
{
  g_autoptr(GListModel) presets = load_builtin ();
  static const char * const ids[] = {
    "claude", "codex", "gemini", "opencode", "copilot", "qwen", "custom"
  };
  TwAgentPreset *claude;
  TwAgentPreset *codex;
  TwAgentPreset *gemini;
  TwAgentPreset *opencode;
  TwAgentPreset *copilot;
  TwAgentPreset *qwen;
  TwAgentPreset *custom;
  g_autoptr(GError) error = NULL;

  /* The menu shows the agents in this order, each with a way to install it. */
  g_assert_cmpuint (g_list_model_get_n_items (presets), ==, G_N_ELEMENTS (ids));
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autoptr(TwAgentPreset) preset = g_list_model_get_item (presets, i);

      g_assert_cmpstr (tw_agent_preset_get_id (preset), ==, ids[i]);
      g_assert_nonnull (tw_agent_preset_get_notes (preset));
    }

  claude = tw_agent_presets_lookup (presets, "claude");
  codex = tw_agent_presets_lookup (presets, "codex");
  gemini = tw_agent_presets_lookup (presets, "gemini");
  opencode = tw_agent_presets_lookup (presets, "opencode");
  copilot = tw_agent_presets_lookup (presets, "copilot");
  qwen = tw_agent_presets_lookup (presets, "qwen");
  custom = tw_agent_presets_lookup (presets, "custom");
  g_assert_null (tw_agent_presets_lookup (presets, "nope"));

  g_assert_cmpstr (tw_agent_preset_get_name (claude), ==, "Claude Code");
  g_assert_cmpstr (tw_agent_preset_get_install_command (claude), ==,
                   "npm install -g @anthropic-ai/claude-code");
  g_assert_cmpstr (tw_agent_preset_get_install_command (codex), ==, "npm install -g @openai/codex");
  g_assert_cmpstr (tw_agent_preset_get_install_command (gemini), ==,
                   "npm install -g @google/gemini-cli");
  g_assert_cmpstr (tw_agent_preset_get_install_command (opencode), ==,
                   "npm install -g opencode-ai");
  g_assert_cmpstr (tw_agent_preset_get_install_command (copilot), ==,
                   "npm install -g @github/copilot");
  g_assert_cmpstr (tw_agent_preset_get_install_command (qwen), ==,
                   "npm install -g @qwen-code/qwen-code");
  g_assert_true (tw_agent_preset_get_needs_command (custom));
  g_assert_false (tw_agent_preset_get_needs_command (claude));

  /* Claude Code: the generated MCP config file, through its own flag. */
  {
    g_auto(GStrv) argv = tw_agent_preset_build_argv (claude, NULL, NULL, &test_values, &error);
    g_auto(GStrv) env = tw_agent_preset_build_env (claude, &test_values, &error);
    const char *expected[] = { "claude", "--mcp-config", test_values.mcp_config_path, NULL };

    g_assert_no_error (error);
    g_assert_cmpstrv (argv, expected);
    g_assert_cmpuint (g_strv_length (env), ==, 0);
    g_assert_false (tw_agent_preset_has_config (claude));
  }

  /* Codex: -c overrides, the token only through the environment. */
  {
    g_auto(GStrv) argv = tw_agent_preset_build_argv (codex, NULL, "/opt/bin/codex", &test_values,
                                                     &error);
    const char *expected[] = {
      "/opt/bin/codex",
      "-c", "mcp_servers.tabwright.url=\"http://127.0.0.1:4242/mcp\"",
      "-c", "mcp_servers.tabwright.bearer_token_env_var=\"TABWRIGHT_MCP_TOKEN\"",
      NULL
    };

    g_assert_no_error (error);
    g_assert_cmpstrv (argv, expected);
    for (guint i = 0; argv[i] != NULL; i++)
      g_assert_null (strstr (argv[i], test_values.token));
  }

  /* Gemini CLI: nothing of its own; its extension reads the environment
   * every agent gets (TABWRIGHT_MCP_URL, TABWRIGHT_MCP_TOKEN). */
  {
    g_auto(GStrv) argv = tw_agent_preset_build_argv (gemini, NULL, NULL, &test_values, &error);
    g_auto(GStrv) env = tw_agent_preset_build_env (gemini, &test_values, &error);
    const char *expected[] = { "gemini", NULL };

    g_assert_no_error (error);
    g_assert_cmpstrv (argv, expected);
    g_assert_cmpuint (g_strv_length (env), ==, 0);
    g_assert_false (tw_agent_preset_has_config (gemini));
    g_assert_nonnull (strstr (tw_agent_preset_get_notes (gemini), "${TABWRIGHT_MCP_TOKEN}"));
  }

  /* OpenCode: the whole config inline, in OPENCODE_CONFIG_CONTENT. */
  {
    g_auto(GStrv) env = tw_agent_preset_build_env (opencode, &test_values, &error);
    g_autoptr(JsonNode) json = NULL;
    const char *content = NULL;

    g_assert_no_error (error);
    for (guint i = 0; env[i] != NULL; i++)
      if (g_str_has_prefix (env[i], "OPENCODE_CONFIG_CONTENT="))
        content = env[i] + strlen ("OPENCODE_CONFIG_CONTENT=");
    g_assert_nonnull (content);
    g_assert_null (strchr (content, '\n'));
    json = tw_test_parse_json (content);
    g_assert_cmpstr (json_path_string (json, "$.mcp.tabwright.type"), ==, "remote");
    g_assert_cmpstr (json_path_string (json, "$.mcp.tabwright.url"), ==, test_values.url);
    g_assert_cmpstr (json_path_string (json, "$.mcp.tabwright.headers.Authorization"), ==,
                     "Bearer secret-token");
  }

  /* A custom command is split like a shell would, and needs a command. */
  {
    g_auto(GStrv) argv = tw_agent_preset_build_argv (custom, "node 'my agent.mjs' --fast", NULL,
                                                     &test_values, &error);
    g_auto(GStrv) none = NULL;
    const char *expected[] = { "node", "my agent.mjs", "--fast", NULL };

    g_assert_no_error (error);
    g_assert_cmpstrv (argv, expected);

    none = tw_agent_preset_build_argv (custom, NULL, NULL, &test_values, &error);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_assert_null (none);
    g_clear_error (&error);

    none = tw_agent_preset_build_argv (custom, "node 'unclosed", NULL, &test_values, &error);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
    g_assert_null (none);
    g_clear_error (&error);
  }

  /* A command given to a preset replaces its program, not its arguments. */
  {
    g_auto(GStrv) argv = tw_agent_preset_build_argv (claude, "npx @anthropic-ai/claude-code", NULL,
                                                     &test_values, &error);
    const char *expected[] = {
      "npx", "@anthropic-ai/claude-code", "--mcp-config", test_values.mcp_config_path, NULL
    };

    g_assert_no_error (error);
    g_assert_cmpstrv (argv, expected);
  }
}

/* Presets: merging the user's file */

static const char builtin_presets[] =
  "{\"presets\": ["
  "  {\"id\": \"alpha\", \"name\": \"Alpha\", \"program\": \"alpha\","
  "   \"args\": [\"--url\", \"{url}\"], \"install\": \"npm install -g alpha\"},"
  "  {\"id\": \"beta\", \"name\": \"Beta\", \"program\": \"beta\", \"env\": {\"BETA\": \"{token}\"}},"
  "  {\"id\": \"gamma\", \"name\": \"Gamma\", \"program\": \"gamma\"},"
  "  {\"id\": \"custom\", \"name\": \"Custom\", \"needsCommand\": true}"
  "]}";

static GListModel *
load_with_user_file (const char  *user_json,
                     GError     **user_error)
{
  g_autoptr(GBytes) builtin = g_bytes_new_static (builtin_presets, strlen (builtin_presets));
  g_autofree char *dir = make_folder ("config");
  g_autofree char *file = g_build_filename (dir, "agent-presets.json", NULL);
  g_autoptr(GError) error = NULL;
  GListModel *presets;

  if (user_json != NULL)
    write_file (file, user_json, 0600);

  presets = tw_agent_presets_new_from_data (builtin, file, user_error, &error);
  g_assert_no_error (error);
  g_assert_nonnull (presets);

  return presets;
}

/* The ids of @presets, in order and apart by spaces, are @expected. */
static void
assert_preset_ids (GListModel *presets,
                   const char *expected)
{
  g_autoptr(GString) ids = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (presets); i++)
    {
      g_autoptr(TwAgentPreset) preset = g_list_model_get_item (presets, i);

      g_string_append_printf (ids, "%s%s", i ? " " : "", tw_agent_preset_get_id (preset));
    }
  g_assert_cmpstr (ids->str, ==, expected);
}

static void
test_presets_merge (void)
{
  g_autoptr(GError) user_error = NULL;
  g_autoptr(GListModel) presets = NULL;
  g_auto(GStrv) argv = NULL;
  TwAgentPreset *alpha;
  TwAgentPreset *mine;

  /* No user file: the built-ins, untouched. */
  presets = load_with_user_file (NULL, &user_error);
  g_assert_no_error (user_error);
  assert_preset_ids (presets, "alpha beta gamma custom");
  g_clear_object (&presets);

  /* The user changes one member of alpha, hides gamma and adds a preset. */
  presets = load_with_user_file ("{\"presets\": ["
                                 "  {\"id\": \"alpha\", \"program\": \"/opt/alpha/bin/alpha\"},"
                                 "  {\"id\": \"gamma\", \"hidden\": true},"
                                 "  {\"id\": \"mine\", \"name\": \"My Agent\", \"program\": \"mine\","
                                 "   \"args\": [\"--config={mcpConfig}\", \"{{literal}}\"]}"
                                 "]}", &user_error);
  g_assert_no_error (user_error);
  assert_preset_ids (presets, "alpha beta custom mine");

  alpha = tw_agent_presets_lookup (presets, "alpha");
  g_assert_cmpstr (tw_agent_preset_get_program (alpha), ==, "/opt/alpha/bin/alpha");
  /* What the user did not name stays as built in. */
  g_assert_cmpstr (tw_agent_preset_get_name (alpha), ==, "Alpha");
  g_assert_cmpstr (tw_agent_preset_get_install_command (alpha), ==, "npm install -g alpha");
  argv = tw_agent_preset_build_argv (alpha, NULL, NULL, &test_values, NULL);
  {
    const char *expected[] = { "/opt/alpha/bin/alpha", "--url", test_values.url, NULL };

    g_assert_cmpstrv (argv, expected);
  }
  g_clear_pointer (&argv, g_strfreev);

  mine = tw_agent_presets_lookup (presets, "mine");
  argv = tw_agent_preset_build_argv (mine, NULL, NULL, &test_values, NULL);
  {
    g_autofree char *config = g_strconcat ("--config=", test_values.mcp_config_path, NULL);
    const char *expected[] = { "mine", config, "{literal}", NULL };

    g_assert_cmpstrv (argv, expected);
  }
}

static void
test_presets_user_mistakes (void)
{
  g_autoptr(GError) user_error = NULL;
  g_autoptr(GListModel) presets = NULL;
  g_auto(GStrv) env = NULL;
  TwAgentPreset *beta;

  /* A preset with a mistake keeps the built-in it would change; the good
   * ones still apply, and the mistakes are named. */
  presets = load_with_user_file ("{\"presets\": ["
                                 "  {\"id\": \"beta\", \"env\": {\"BETA\": \"{tokn}\"}},"
                                 "  {\"id\": \"new\", \"name\": \"New\"},"
                                 "  {\"id\": \"Bad Id\", \"name\": \"Bad\", \"program\": \"x\"},"
                                 "  {\"id\": \"fine\", \"name\": \"Fine\", \"program\": \"fine\"}"
                                 "]}", &user_error);
  g_assert_error (user_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (user_error->message, "preset “beta”: unknown placeholder {tokn}"));
  g_assert_nonnull (strstr (user_error->message, "preset “new”: “program” is missing"));
  g_assert_nonnull (strstr (user_error->message, "preset “Bad Id”"));
  assert_preset_ids (presets, "alpha beta gamma custom fine");

  beta = tw_agent_presets_lookup (presets, "beta");
  env = tw_agent_preset_build_env (beta, &test_values, NULL);
  g_assert_true (strv_has (env, "BETA=secret-token"));
  g_clear_object (&presets);
  g_clear_error (&user_error);

  /* A file that is not JSON changes nothing and says why. */
  presets = load_with_user_file ("{\"presets\": [", &user_error);
  g_assert_error (user_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (user_error->message, "agent-presets.json"));
  assert_preset_ids (presets, "alpha beta gamma custom");
  g_clear_object (&presets);
  g_clear_error (&user_error);

  /* Nor does one of another shape. */
  presets = load_with_user_file ("[1, 2]", &user_error);
  g_assert_error (user_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (user_error->message, "“presets” list"));
}

static void
test_presets_builtin_broken (void)
{
  static const char * const broken[] = {
    "not json",
    "{\"presets\": [{\"id\": \"a\", \"name\": \"A\", \"program\": \"a\", \"args\": [\"{nope}\"]}]}",
    "{\"presets\": [{\"id\": \"a\", \"name\": \"A\", \"program\": \"a\", \"args\": [\"{url\"]}]}",
    "{\"presets\": [{\"id\": \"a\", \"name\": \"A\", \"program\": \"a\", \"env\": {\"X\": \"{configFile}\"}}]}",
    "{\"presets\": [{\"id\": \"a\", \"name\": \"A\", \"program\": \"a\", \"env\": {\"X Y\": \"v\"}}]}",
    "{\"presets\": [{\"id\": \"a\", \"name\": \"A\", \"program\": \"a\", \"args\": \"--flag\"}]}",
    "{\"presets\": [{\"id\": \"a\", \"name\": \"A\", \"program\": \"a\"},"
    "              {\"id\": \"a\", \"name\": \"A again\", \"program\": \"a\"}]}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    {
      g_autoptr(GBytes) bytes = g_bytes_new_static (broken[i], strlen (broken[i]));
      g_autoptr(GError) error = NULL;
      g_autoptr(GListModel) presets = tw_agent_presets_new_from_data (bytes, NULL, NULL, &error);

      g_assert_null (presets);
      g_assert_nonnull (error);
    }
}

/* Finding programs */

static char *
locate (TwAgentPreset *preset,
        const char    *command,
        const char    *cwd)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *path;

  tw_agent_preset_locate_async (preset, command, cwd, NULL, tw_test_store_result_cb, NULL);
  result = tw_test_await_result (WAIT_LIMIT_MS, "the program lookup");
  path = tw_agent_preset_locate_finish (preset, result, &error);
  g_assert_no_error (error);

  return path;
}

static void
test_presets_locate (void)
{
  g_autofree char *bin = make_folder ("bin");
  g_autofree char *agent = g_build_filename (bin, "tw-test-agent", NULL);
  g_autofree char *workspace = make_folder ("workspace");
  g_autofree char *script = g_build_filename (workspace, "run-agent.sh", NULL);
  g_autofree char *json = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GListModel) presets = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *found = NULL;
  g_autofree char *sh = NULL;
  g_autofree char *relative = NULL;
  g_autofree char *not_there = NULL;

  write_file (agent, "#!/bin/sh\nexit 0\n", 0755);
  write_file (script, "#!/bin/sh\nexit 0\n", 0755);

  json = g_strdup_printf ("{\"presets\": ["
                          "  {\"id\": \"missing\", \"name\": \"Missing\","
                          "   \"program\": \"tw-no-such-agent-anywhere\","
                          "   \"install\": \"npm install -g no-such-agent\"},"
                          "  {\"id\": \"elsewhere\", \"name\": \"Elsewhere\","
                          "   \"program\": \"tw-test-agent\", \"searchPaths\": [\"~/nowhere\", \"%s\"]},"
                          "  {\"id\": \"custom\", \"name\": \"Custom\", \"needsCommand\": true}"
                          "]}", bin);
  bytes = g_bytes_new (json, strlen (json));
  presets = tw_agent_presets_new_from_data (bytes, NULL, NULL, &error);
  g_assert_no_error (error);

  /* Not installed: no path, and no error either. */
  missing = locate (tw_agent_presets_lookup (presets, "missing"), NULL, workspace);
  g_assert_null (missing);

  /* Not in PATH, but where the preset says such agents live. */
  g_assert_null (g_find_program_in_path ("tw-test-agent"));
  found = locate (tw_agent_presets_lookup (presets, "elsewhere"), NULL, workspace);
  g_assert_cmpstr (found, ==, agent);

  /* A command's first word, in PATH or relative to the workspace. */
  sh = locate (tw_agent_presets_lookup (presets, "custom"), "sh -c 'exit 0'", workspace);
  g_assert_nonnull (sh);
  g_assert_true (g_path_is_absolute (sh));
  relative = locate (tw_agent_presets_lookup (presets, "custom"), "./run-agent.sh --now", workspace);
  g_assert_cmpstr (relative, ==, script);
  not_there = locate (tw_agent_presets_lookup (presets, "custom"), "./not-there.sh", workspace);
  g_assert_null (not_there);
}

/* --launch-agent */

static void
test_parse_launch (void)
{
  g_autoptr(GListModel) presets = load_builtin ();
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  g_autofree char *command = NULL;

  g_assert_true (tw_agent_manager_parse_launch (presets, "claude", &id, &command, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (id, ==, "claude");
  g_assert_null (command);
  g_clear_pointer (&id, g_free);

  g_assert_true (tw_agent_manager_parse_launch (presets, "custom:node 'my agent.mjs' a:b",
                                                &id, &command, &error));
  g_assert_cmpstr (id, ==, "custom");
  g_assert_cmpstr (command, ==, "node 'my agent.mjs' a:b");
  g_clear_pointer (&id, g_free);
  g_clear_pointer (&command, g_free);

  g_assert_true (tw_agent_manager_parse_launch (presets, "codex:/opt/codex/bin/codex",
                                                &id, &command, &error));
  g_assert_cmpstr (id, ==, "codex");
  g_assert_cmpstr (command, ==, "/opt/codex/bin/codex");
  g_clear_pointer (&id, g_free);
  g_clear_pointer (&command, g_free);

  g_assert_false (tw_agent_manager_parse_launch (presets, "custom", &id, &command, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "custom:COMMAND"));
  g_clear_error (&error);

  g_assert_false (tw_agent_manager_parse_launch (presets, "custom:", &id, &command, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_false (tw_agent_manager_parse_launch (presets, "custom:node 'x", &id, &command, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_false (tw_agent_manager_parse_launch (presets, "cluade", &id, &command, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message,
                            "claude, codex, gemini, opencode, copilot, qwen, custom"));
  g_assert_null (id);
}

/* Flatpak */

static void
test_host_argv (void)
{
  const char *argv[] = { "/usr/bin/claude", "--mcp-config", "/run/user/1000/x.json", NULL };
  const char *env[] = {
    "TABWRIGHT_MCP_URL=http://127.0.0.1:4242/mcp",
    "TABWRIGHT_MCP_TOKEN=secret",
    "TABWRIGHT_MCP_CONFIG=/run/user/1000/app/io.github.tabwright.Tabwright/agents/x.json",
    "TERM=xterm-256color",
    NULL
  };
  const char *expected[] = {
    "flatpak-spawn", "--host", "--watch-bus", "--directory=/home/ada/site",
    "--env=TABWRIGHT_MCP_URL=http://127.0.0.1:4242/mcp",
    "--env=TABWRIGHT_MCP_TOKEN=secret",
    "--env=TABWRIGHT_MCP_CONFIG=/run/user/1000/app/io.github.tabwright.Tabwright/agents/x.json",
    "--env=TERM=xterm-256color",
    "--",
    "/usr/bin/claude", "--mcp-config", "/run/user/1000/x.json",
    NULL
  };
  g_auto(GStrv) host = tw_agent_build_host_argv (argv, env, "/home/ada/site");
  g_autofree char *dir = tw_agent_dup_config_dir ();
  g_autofree char *expected_dir = g_build_filename (g_get_user_runtime_dir (), "tabwright",
                                                    "agents", NULL);

  g_assert_cmpstrv (host, expected);

  /* Outside Flatpak (as the tests run), files go in our own runtime dir. */
  g_assert_false (tw_agent_preset_in_flatpak ());
  g_assert_cmpstr (dir, ==, expected_dir);
}

/* Running agents */

typedef struct
{
  TwMcpServer  *server;
  TwBrowser    *browser;
  SoupSession  *session;
  GListModel   *presets;
  GtkWindow    *window;
  char         *url;
  char         *workspace;
  /* What call-started said. */
  GPtrArray    *callers;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->server = tw_mcp_server_new ();
  tw_mcp_server_start (f->server, 0, &error);
  g_assert_no_error (error);
  f->url = tw_mcp_server_dup_url (f->server);
  f->browser = tw_browser_new (NULL, NULL);
  f->session = soup_session_new ();
  f->presets = load_builtin ();
  f->workspace = make_folder ("workspace");
  f->callers = g_ptr_array_new_with_free_func (g_free);
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, 800, 500);

  tw_test_record_calls (f->server, f->callers);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_signal_handlers_disconnect_by_data (f->server, f->callers);
  gtk_window_destroy (f->window);
  tw_browser_close_all (f->browser);
  tw_mcp_server_stop (f->server);
  g_clear_object (&f->session);
  g_clear_object (&f->presets);
  g_clear_object (&f->browser);
  g_clear_object (&f->server);
  g_clear_pointer (&f->url, g_free);
  g_clear_pointer (&f->workspace, g_free);
  g_clear_pointer (&f->callers, g_ptr_array_unref);
}

/* POSTs one JSON-RPC message as an MCP client with @token would; returns
 * the HTTP status and, for JSON replies, the parsed body. */
static guint
mcp_post (Fixture     *f,
          const char  *token,
          const char  *session_id,
          const char  *body,
          JsonNode   **json,
          char       **new_session_id)
{
  g_autoptr(SoupMessage) msg = soup_message_new ("POST", f->url);
  g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));
  g_autofree char *authorization = g_strconcat ("Bearer ", token, NULL);
  SoupMessageHeaders *headers = soup_message_get_request_headers (msg);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) reply = NULL;
  g_autoptr(GError) error = NULL;
  const char *type;

  soup_message_headers_replace (headers, "Accept", "application/json, text/event-stream");
  soup_message_headers_replace (headers, "Authorization", authorization);
  if (session_id != NULL)
    soup_message_headers_replace (headers, "Mcp-Session-Id", session_id);
  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);

  soup_session_send_and_read_async (f->session, msg, G_PRIORITY_DEFAULT, NULL,
                                    tw_test_store_result_cb, NULL);
  result = tw_test_await_result (WAIT_LIMIT_MS, "an MCP reply");
  reply = soup_session_send_and_read_finish (f->session, result, &error);
  g_assert_no_error (error);

  type = soup_message_headers_get_content_type (soup_message_get_response_headers (msg), NULL);
  if (json != NULL)
    *json = g_strcmp0 (type, "application/json") == 0
              ? tw_test_parse_json (g_bytes_get_data (reply, NULL)) : NULL;
  if (new_session_id != NULL)
    *new_session_id = g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (msg),
                                                              "Mcp-Session-Id"));

  return soup_message_get_status (msg);
}

static guint
mcp_initialize (Fixture     *f,
                const char  *token,
                char       **session_id)
{
  g_autoptr(JsonNode) json = NULL;
  guint status;

  status = mcp_post (f, token, NULL,
                     "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                     "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                     "\"clientInfo\":{\"name\":\"test-agent\",\"version\":\"1\"}}}",
                     &json, session_id);
  if (status == SOUP_STATUS_OK)
    g_assert_cmpuint (mcp_post (f, token, *session_id,
                                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                                NULL, NULL), ==, 202);

  return status;
}

static gboolean
agent_is_settled (gpointer data)
{
  TwAgentStatus status = tw_agent_get_status (data);

  return status == TW_AGENT_STATUS_RUNNING || status == TW_AGENT_STATUS_EXITED ||
         status == TW_AGENT_STATUS_FAILED;
}

static gboolean
agent_has_ended (gpointer data)
{
  TwAgentStatus status = tw_agent_get_status (data);

  return status == TW_AGENT_STATUS_EXITED || status == TW_AGENT_STATUS_FAILED;
}

/* A stand-in agent: it writes what it was given where the test can read
 * it, then waits for a line on the terminal and exits with status 3. */
static char *
recording_command (const char *report)
{
  static const char script[] =
    "printf '%s\\n' \"$TABWRIGHT_MCP_URL\" \"$TABWRIGHT_MCP_TOKEN\" \"$TABWRIGHT_MCP_CONFIG\" "
    "\"$(pwd)\" > \"$1.tmp\" && mv \"$1.tmp\" \"$1\"; read line; exit 3";
  g_autofree char *quoted_script = g_shell_quote (script);
  g_autofree char *quoted_report = g_shell_quote (report);

  return g_strdup_printf ("sh -c %s sh %s", quoted_script, quoted_report);
}

static char **
read_report (const char *report)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;

  tw_test_wait_until (file_exists, (gpointer) report, WAIT_LIMIT_MS, "the agent's report");
  g_file_get_contents (report, &contents, NULL, &error);
  g_assert_no_error (error);

  return g_strsplit (contents, "\n", -1);
}

static void
test_agent_lifecycle (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *report = g_build_filename (f->workspace, "report.txt", NULL);
  g_autofree char *command = recording_command (report);
  g_autoptr(TwAgent) agent = NULL;
  g_autoptr(JsonNode) reply = NULL;
  g_autoptr(JsonNode) config = NULL;
  g_autofree char *session_id = NULL;
  g_autofree char *config_text = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *config_dir = tw_agent_dup_config_dir ();
  g_autofree char *first_token = NULL;
  g_autofree char *bearer = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  TwBrowserTab *tab;
  const char *browser_id;

  agent = tw_agent_new (f->server, TW_BROWSER_SERVICE (f->browser),
                        tw_agent_presets_lookup (f->presets, "custom"), command, f->workspace,
                        "custom-41", "Custom Command #1");
  gtk_window_set_child (f->window, GTK_WIDGET (tw_agent_get_terminal (agent)));
  gtk_window_present (f->window);

  g_assert_cmpint (tw_agent_get_exit_code (agent), ==, -1);
  tw_agent_start (agent);
  tw_test_wait_until (agent_is_settled, agent, WAIT_LIMIT_MS, "the agent to start");
  g_assert_cmpint (tw_agent_get_status (agent), ==, TW_AGENT_STATUS_RUNNING);
  g_assert_cmpstr (tw_agent_get_status_text (agent), ==, "Running");
  g_assert_cmpint (tw_agent_get_pid (agent), >, 0);

  /* The agent got the endpoint, a token of its own and a config file,
   * and runs in the workspace. */
  lines = read_report (report);
  g_assert_cmpstr (lines[0], ==, f->url);
  g_assert_cmpstr (lines[1], ==, tw_agent_get_token (agent));
  g_assert_cmpuint (strlen (lines[1]), >=, 32);
  g_assert_cmpstr (lines[2], ==, tw_agent_get_config_path (agent));
  g_assert_cmpstr (lines[3], ==, f->workspace);
  first_token = g_strdup (lines[1]);
  config_path = g_strdup (lines[2]);

  g_assert_true (g_str_has_prefix (config_path, config_dir));
  g_assert_cmpuint (tw_test_file_mode (config_path), ==, 0600);
  g_assert_cmpuint (tw_test_file_mode (config_dir), ==, 0700);
  g_file_get_contents (config_path, &config_text, NULL, &error);
  g_assert_no_error (error);
  config = tw_test_parse_json (config_text);
  bearer = g_strconcat ("Bearer ", first_token, NULL);
  g_assert_cmpstr (json_path_string (config, "$.mcpServers.tabwright.type"), ==, "http");
  g_assert_cmpstr (json_path_string (config, "$.mcpServers.tabwright.url"), ==, f->url);
  g_assert_cmpstr (json_path_string (config, "$.mcpServers.tabwright.headers.Authorization"), ==,
                   bearer);

  /* Calls with its token are the agent's: the server says so, the tab it
   * opens shows it as the owner, and the agent counts them. */
  g_assert_cmpuint (mcp_initialize (f, first_token, &session_id), ==, 200);
  g_assert_cmpuint (mcp_post (f, first_token, session_id,
                              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                              "{\"name\":\"browser_new_tab\",\"arguments\":{}}}",
                              &reply, NULL), ==, 200);
  g_assert_nonnull (reply);
  browser_id = json_path_string (reply, "$.result.structuredContent.browserId");
  tab = tw_browser_lookup_tab (f->browser, browser_id);
  g_assert_nonnull (tab);
  g_assert_cmpstr (tw_browser_tab_get_owner (tab), ==, "Custom Command #1");
  g_assert_cmpstr (tw_browser_tab_get_owner_id (tab), ==, "custom-41");

  g_assert_cmpstr (g_ptr_array_index (f->callers, 0), ==,
                   "started 1 custom-41 Custom Command #1 browser_new_tab {}");
  for (guint i = 1; i < f->callers->len; i++)
    g_assert_false (g_str_has_prefix (g_ptr_array_index (f->callers, i), "started "));
  g_assert_cmpuint (tw_agent_get_n_calls (agent), ==, 1);
  g_assert_cmpstr (tw_agent_get_status_text (agent), ==, "Running · 1 browser call");
  g_clear_pointer (&session_id, g_free);

  /* The agent exits: its status and exit code show, its token is refused
   * and its config file is gone. */
  vte_terminal_feed_child (tw_agent_terminal_get_vte (tw_agent_get_terminal (agent)), "\n", 1);
  tw_test_wait_until (agent_has_ended, agent, WAIT_LIMIT_MS, "the agent to exit");
  g_assert_cmpint (tw_agent_get_status (agent), ==, TW_AGENT_STATUS_EXITED);
  g_assert_cmpint (tw_agent_get_exit_code (agent), ==, 3);
  g_assert_cmpstr (tw_agent_get_status_text (agent), ==, "Exited with code 3");
  g_assert_cmpint (tw_agent_terminal_get_state (tw_agent_get_terminal (agent)), ==,
                   TW_AGENT_TERMINAL_FAILED);
  g_assert_null (tw_agent_get_token (agent));
  g_assert_false (g_file_test (config_path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (mcp_initialize (f, first_token, &session_id), ==, 401);

  /* Restarting runs it again with a new token; the old one stays dead. */
  g_unlink (report);
  g_strfreev (lines);
  tw_agent_restart (agent);
  tw_test_wait_until (agent_is_settled, agent, WAIT_LIMIT_MS, "the agent to start again");
  g_assert_cmpint (tw_agent_get_status (agent), ==, TW_AGENT_STATUS_RUNNING);
  lines = read_report (report);
  g_assert_cmpstr (lines[1], !=, first_token);
  g_assert_cmpstr (lines[1], ==, tw_agent_get_token (agent));
  g_assert_cmpuint (mcp_initialize (f, lines[1], &session_id), ==, 200);
  g_clear_pointer (&session_id, g_free);
  g_assert_cmpuint (mcp_initialize (f, first_token, &session_id), ==, 401);
  /* Calls count for the agent across runs. */
  g_assert_cmpstr (tw_agent_get_status_text (agent), ==, "Running · 1 browser call");

  vte_terminal_feed_child (tw_agent_terminal_get_vte (tw_agent_get_terminal (agent)), "\n", 1);
  tw_test_wait_until (agent_has_ended, agent, WAIT_LIMIT_MS, "the agent to exit again");
  g_assert_cmpint (tw_agent_get_exit_code (agent), ==, 3);
  g_assert_cmpuint (mcp_initialize (f, lines[1], &session_id), ==, 401);
}

static void
test_agent_stop (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(TwAgent) agent = NULL;
  g_autofree char *token = NULL;
  g_autofree char *config_path = NULL;
  g_autofree char *session_id = NULL;

  agent = tw_agent_new (f->server, TW_BROWSER_SERVICE (f->browser),
                        tw_agent_presets_lookup (f->presets, "custom"), "sleep 60", f->workspace,
                        "custom-42", "Custom Command #2");
  gtk_window_set_child (f->window, GTK_WIDGET (tw_agent_get_terminal (agent)));
  gtk_window_present (f->window);

  tw_agent_start (agent);
  tw_test_wait_until (agent_is_settled, agent, WAIT_LIMIT_MS, "the agent to start");
  g_assert_cmpint (tw_agent_get_status (agent), ==, TW_AGENT_STATUS_RUNNING);
  token = g_strdup (tw_agent_get_token (agent));
  config_path = g_strdup (tw_agent_get_config_path (agent));
  g_assert_cmpuint (mcp_initialize (f, token, &session_id), ==, 200);
  g_clear_pointer (&session_id, g_free);

  /* Stopping revokes the token at once, before the process is gone. */
  tw_agent_stop (agent);
  g_assert_cmpuint (mcp_initialize (f, token, &session_id), ==, 401);
  g_assert_false (g_file_test (config_path, G_FILE_TEST_EXISTS));

  tw_test_wait_until (agent_has_ended, agent, WAIT_LIMIT_MS, "the agent to hang up");
  g_assert_cmpint (tw_agent_get_status (agent), ==, TW_AGENT_STATUS_EXITED);
  /* SIGHUP, as a closed terminal sends. */
  g_assert_cmpint (tw_agent_get_exit_code (agent), ==, 128 + 1);
  g_assert_true (g_str_has_prefix (tw_agent_get_status_text (agent), "Ended by signal 1"));
}

typedef struct
{
  VteTerminal *vte;
  const char  *text;
} TerminalText;

static gboolean
terminal_shows (gpointer data)
{
  TerminalText *wait = data;
  g_autofree char *text = vte_terminal_get_text_range (wait->vte, 0, 0, 20, 200, NULL, NULL, NULL);

  return text != NULL && strstr (text, wait->text) != NULL;
}

/* Waits until the terminal of @agent shows @text: VTE takes in what it is
 * fed from the main loop, not at once. */
static void
wait_for_terminal_text (TwAgent    *agent,
                        const char *text)
{
  TerminalText wait = { tw_agent_terminal_get_vte (tw_agent_get_terminal (agent)), text };

  tw_test_wait_until (terminal_shows, &wait, WAIT_LIMIT_MS, text);
}

static void
test_agent_not_installed (Fixture       *f,
                          gconstpointer  data)
{
  static const char json[] =
    "{\"presets\": [{\"id\": \"ghost\", \"name\": \"Ghost Agent\","
    " \"program\": \"tw-no-such-agent-anywhere\", \"install\": \"npm install -g ghost-agent\"}]}";
  g_autoptr(GBytes) bytes = g_bytes_new_static (json, strlen (json));
  g_autoptr(GListModel) presets = tw_agent_presets_new_from_data (bytes, NULL, NULL, NULL);
  g_autoptr(TwAgent) agent = NULL;
  g_autoptr(TwAgent) broken = NULL;

  agent = tw_agent_new (f->server, TW_BROWSER_SERVICE (f->browser),
                        tw_agent_presets_lookup (presets, "ghost"), NULL, f->workspace,
                        "ghost-1", "Ghost Agent #1");
  gtk_window_set_child (f->window, GTK_WIDGET (tw_agent_get_terminal (agent)));
  gtk_window_present (f->window);

  tw_agent_start (agent);
  tw_test_wait_until (agent_has_ended, agent, WAIT_LIMIT_MS, "the agent to fail");
  g_assert_cmpint (tw_agent_get_status (agent), ==, TW_AGENT_STATUS_FAILED);
  g_assert_cmpstr (tw_agent_get_status_text (agent), ==, "Ghost Agent is not installed");
  g_assert_cmpint (tw_agent_get_exit_code (agent), ==, -1);
  g_assert_null (tw_agent_get_token (agent));
  g_assert_null (tw_agent_get_config_path (agent));

  /* The terminal says how to install it. */
  wait_for_terminal_text (agent, "Install it with: npm install -g ghost-agent");

  /* A command that cannot run fails the same way, saying why. */
  broken = tw_agent_new (f->server, TW_BROWSER_SERVICE (f->browser),
                         tw_agent_presets_lookup (f->presets, "custom"),
                         "./tw-not-a-program --flag", f->workspace, "custom-43", "Custom #3");
  gtk_window_set_child (f->window, GTK_WIDGET (tw_agent_get_terminal (broken)));
  tw_agent_start (broken);
  tw_test_wait_until (agent_has_ended, broken, WAIT_LIMIT_MS, "the command to fail");
  g_assert_cmpint (tw_agent_get_status (broken), ==, TW_AGENT_STATUS_FAILED);
  g_assert_cmpstr (tw_agent_get_status_text (broken), ==, "Could not start");
  g_assert_null (tw_agent_get_token (broken));
}

static void
test_agent_manager (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TwAgentManager) manager = NULL;
  g_autoptr(GError) error = NULL;
  TwAgent *first;
  TwAgent *second;
  TwAgentPane *pane;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  g_autofree char *token = NULL;
  g_autofree char *session_id = NULL;
  AdwTabPage *page;
  AdwTabView *view;

  manager = tw_agent_manager_new (f->server, TW_BROWSER_SERVICE (f->browser), f->workspace,
                                  f->presets);
  pane = TW_AGENT_PANE (tw_agent_manager_get_pane (manager));
  g_assert_true (TW_IS_AGENT_LAUNCHER (tw_agent_manager_get_launcher (manager)));
  gtk_box_append (GTK_BOX (box), tw_agent_manager_get_launcher (manager));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (pane));
  gtk_window_set_child (f->window, box);
  gtk_window_present (f->window);

  /* No agents, no pane. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (pane)));

  g_assert_null (tw_agent_manager_launch (manager, "nope", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (tw_agent_manager_launch (manager, "custom", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Agents of one preset count up; their ids never repeat. */
  first = tw_agent_manager_launch (manager, "custom", "sleep 60", &error);
  g_assert_no_error (error);
  second = tw_agent_manager_launch (manager, "custom", "sleep 60", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tw_agent_get_name (first), ==, "Custom Command #1");
  g_assert_cmpstr (tw_agent_get_name (second), ==, "Custom Command #2");
  g_assert_cmpstr (tw_agent_get_id (first), !=, tw_agent_get_id (second));
  g_assert_cmpuint (g_list_model_get_n_items (tw_agent_manager_get_agents (manager)), ==, 2);
  g_assert_cmpuint (tw_agent_pane_get_n_agents (pane), ==, 2);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (pane)));

  tw_test_wait_until (agent_is_settled, first, WAIT_LIMIT_MS, "the first agent to start");
  tw_test_wait_until (agent_is_settled, second, WAIT_LIMIT_MS, "the second agent to start");
  g_assert_cmpint (tw_agent_get_status (first), ==, TW_AGENT_STATUS_RUNNING);

  page = tw_agent_pane_get_page (pane, GTK_WIDGET (tw_agent_get_terminal (first)));
  g_assert_cmpstr (adw_tab_page_get_title (page), ==, "Custom Command #1");
  g_assert_false (adw_tab_page_get_loading (page));

  /* Closing an agent's page stops it and revokes its token. */
  token = g_strdup (tw_agent_get_token (first));
  g_object_ref (first);
  view = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (tw_agent_get_terminal (first)),
                                                ADW_TYPE_TAB_VIEW));
  adw_tab_view_close_page (view, page);
  g_assert_cmpuint (g_list_model_get_n_items (tw_agent_manager_get_agents (manager)), ==, 1);
  g_assert_cmpuint (tw_agent_pane_get_n_agents (pane), ==, 1);
  g_assert_cmpuint (mcp_initialize (f, token, &session_id), ==, 401);
  tw_test_wait_until (agent_has_ended, first, WAIT_LIMIT_MS, "the closed agent to hang up");
  g_object_unref (first);

  /* Closing the window's workspace stops the rest. */
  g_free (token);
  token = g_strdup (tw_agent_get_token (second));
  tw_agent_manager_stop_all (manager);
  g_assert_cmpuint (mcp_initialize (f, token, &session_id), ==, 401);
  tw_test_wait_until (agent_has_ended, second, WAIT_LIMIT_MS, "the last agent to hang up");
}

static void
test_window_agents (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TwAgentManager) manager = NULL;
  g_autoptr(TwRecentWorkspaces) recent = NULL;
  g_autofree char *recent_file = g_build_filename (f->workspace, "recent.json", NULL);
  g_autofree char *token = NULL;
  g_autofree char *session_id = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *launcher;
  GtkWidget *pane;
  TwWindow *window;
  TwAgent *agent;

  manager = tw_agent_manager_new (f->server, TW_BROWSER_SERVICE (f->browser), f->workspace,
                                  f->presets);
  recent = tw_recent_workspaces_new (recent_file);
  launcher = tw_agent_manager_get_launcher (manager);
  pane = tw_agent_manager_get_pane (manager);

  window = tw_window_new (NULL, f->browser, "workspace", f->workspace);
  tw_window_set_agents (window, launcher, pane);
  tw_window_set_recent_workspaces (window, tw_recent_workspaces_get_menu (recent));
  gtk_window_present (GTK_WINDOW (window));

  /* The Launch Agent button sits in the header bar; the agents' pane
   * beside the tabs, hidden until there is an agent. */
  g_assert_true (gtk_widget_get_ancestor (launcher, ADW_TYPE_HEADER_BAR) != NULL);
  g_assert_true (GTK_IS_PANED (gtk_widget_get_parent (pane)));
  g_assert_true (gtk_paned_get_end_child (GTK_PANED (gtk_widget_get_parent (pane))) == pane);
  g_assert_false (gtk_widget_get_visible (pane));

  agent = tw_agent_manager_launch (manager, "custom", "sleep 60", &error);
  g_assert_no_error (error);
  g_assert_true (gtk_widget_get_visible (pane));
  tw_test_wait_until (agent_is_settled, agent, WAIT_LIMIT_MS, "the agent to start");
  g_assert_cmpint (tw_agent_get_status (agent), ==, TW_AGENT_STATUS_RUNNING);
  g_object_ref (agent);

  /* The window goes away with the agent still running: the agent hangs up
   * and its token dies, with nothing left half done. */
  token = g_strdup (tw_agent_get_token (agent));
  gtk_window_destroy (GTK_WINDOW (window));
  tw_agent_manager_stop_all (manager);
  g_clear_object (&manager);
  g_assert_cmpuint (mcp_initialize (f, token, &session_id), ==, 401);
  tw_test_wait_until (agent_has_ended, agent, WAIT_LIMIT_MS, "the agent to hang up");
  g_object_unref (agent);
}

/* Gemini CLI's extension */

static char *
read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

static guint64
inode_of (const char *path)
{
  GStatBuf buf;

  g_assert_cmpint (g_stat (path, &buf), ==, 0);

  return buf.st_ino;
}

static void
test_gemini_writer (void)
{
  g_autofree char *home = make_folder ("gemini-writer-home");
  g_autofree char *path = tw_gemini_extension_dup_path (home);
  g_autofree char *expected = g_strconcat (tw_mcp_snippet_gemini_extension (), "\n", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *current = NULL;
  g_autofree char *pretty = NULL;
  g_autofree char *snippet_home = make_folder ("gemini-snippet-home");
  g_autofree char *snippet_path = tw_gemini_extension_dup_path (snippet_home);
  g_autofree char *install = tw_mcp_snippet_gemini_install ();
  g_autofree char *home_env = g_strconcat ("HOME=", snippet_home, NULL);
  g_autofree char *other_home = make_folder ("gemini-cli-home");
  g_autofree char *other_path = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(GError) error = NULL;
  TwGeminiExtensionState state;
  guint64 inode;
  int status;

  /* A fresh home: nothing there, and checking writes nothing. */
  g_assert_true (g_str_has_suffix (path, "/.gemini/extensions/tabwright/gemini-extension.json"));
  g_assert_true (g_str_has_prefix (path, home));
  g_assert_true (tw_gemini_extension_check (home, &state, &current, &error));
  g_assert_no_error (error);
  g_assert_cmpint (state, ==, TW_GEMINI_EXTENSION_MISSING);
  g_assert_null (current);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* Installing writes the file, the same bytes as the snippet's printf:
   * it names the variables, no URL and no token. */
  g_assert_true (tw_gemini_extension_install (home, FALSE, &state, &error));
  g_assert_no_error (error);
  g_assert_cmpint (state, ==, TW_GEMINI_EXTENSION_MISSING);
  contents = read_text (path);
  g_assert_cmpstr (contents, ==, expected);
  json = tw_test_parse_json (contents);
  g_assert_cmpstr (json_path_string (json, "$.name"), ==, "tabwright");
  g_assert_cmpstr (json_path_string (json, "$.mcpServers.tabwright.httpUrl"), ==,
                   "${TABWRIGHT_MCP_URL}");
  g_assert_cmpstr (json_path_string (json, "$.mcpServers.tabwright.headers.Authorization"), ==,
                   "Bearer ${TABWRIGHT_MCP_TOKEN}");
  g_assert_cmpuint (tw_test_file_mode (path), ==, 0644);
  g_assert_true (tw_gemini_extension_check (home, &state, NULL, &error));
  g_assert_cmpint (state, ==, TW_GEMINI_EXTENSION_INSTALLED);

  /* Installing again writes nothing: the file is the very same one. */
  inode = inode_of (path);
  g_assert_true (tw_gemini_extension_install (home, FALSE, &state, &error));
  g_assert_no_error (error);
  g_assert_cmpint (state, ==, TW_GEMINI_EXTENSION_INSTALLED);
  g_assert_cmpuint (inode_of (path), ==, inode);

  /* The same JSON laid out otherwise is still up to date, and stays. */
  pretty = g_strdup ("{\n  \"version\": \"1.0.0\",\n  \"name\": \"tabwright\",\n"
                     "  \"mcpServers\": {\"tabwright\": {\"headers\": {\"Authorization\": "
                     "\"Bearer ${TABWRIGHT_MCP_TOKEN}\"}, \"httpUrl\": \"${TABWRIGHT_MCP_URL}\"}}\n}\n");
  write_file (path, pretty, 0644);
  inode = inode_of (path);
  g_assert_true (tw_gemini_extension_install (home, FALSE, &state, &error));
  g_assert_cmpint (state, ==, TW_GEMINI_EXTENSION_INSTALLED);
  g_assert_cmpuint (inode_of (path), ==, inode);
  g_clear_pointer (&contents, g_free);
  contents = read_text (path);
  g_assert_cmpstr (contents, ==, pretty);

  /* A file the person changed is refused and left as it was... */
  write_file (path, "{\"name\":\"tabwright\",\"version\":\"1.0.0\",\"mcpServers\":{\"tabwright\":"
              "{\"httpUrl\":\"http://127.0.0.1:9999/mcp\"}}}\n", 0644);
  g_assert_true (tw_gemini_extension_check (home, &state, &current, &error));
  g_assert_cmpint (state, ==, TW_GEMINI_EXTENSION_DIFFERENT);
  g_assert_nonnull (strstr (current, "http://127.0.0.1:9999/mcp"));
  g_assert_false (tw_gemini_extension_install (home, FALSE, &state, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  g_assert_cmpint (state, ==, TW_GEMINI_EXTENSION_DIFFERENT);
  g_clear_pointer (&contents, g_free);
  contents = read_text (path);
  g_assert_cmpstr (contents, ==, current);

  /* ...unless it is to be replaced. */
  g_assert_true (tw_gemini_extension_install (home, TRUE, &state, &error));
  g_assert_no_error (error);
  g_assert_cmpint (state, ==, TW_GEMINI_EXTENSION_DIFFERENT);
  g_clear_pointer (&contents, g_free);
  contents = read_text (path);
  g_assert_cmpstr (contents, ==, expected);

  /* What cannot be read is an error, and nothing is written over it. */
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
  g_assert_false (tw_gemini_extension_check (home, &state, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  g_assert_false (tw_gemini_extension_install (home, TRUE, NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_DIR));

  /* The snippet's install line, run by a shell, leaves what the writer
   * calls up to date. */
  {
    const char *argv[] = { "sh", "-c", install, NULL };
    const char *envp[] = { home_env, "PATH=/usr/bin:/bin", NULL };

    g_spawn_sync (NULL, (char **) argv, (char **) envp, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
                  NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  g_clear_pointer (&contents, g_free);
  contents = read_text (snippet_path);
  g_assert_cmpstr (contents, ==, expected);
  g_assert_true (tw_gemini_extension_check (snippet_home, &state, NULL, &error));
  g_assert_cmpint (state, ==, TW_GEMINI_EXTENSION_INSTALLED);

  /* Gemini CLI looks in $GEMINI_CLI_HOME when it is set; so does the
   * writer. */
  g_setenv ("GEMINI_CLI_HOME", other_home, TRUE);
  other_path = tw_gemini_extension_dup_path (NULL);
  g_unsetenv ("GEMINI_CLI_HOME");
  g_assert_true (g_str_has_prefix (other_path, other_home));
}

static gboolean
is_row_titled (GtkWidget     *widget,
               gconstpointer  title)
{
  return ADW_IS_ACTION_ROW (widget) &&
         g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0;
}

static AdwActionRow *
find_row_titled (GtkWidget  *root,
                 const char *title)
{
  return ADW_ACTION_ROW (tw_test_find_matching (root, is_row_titled, title));
}

/* The message dialog on screen, if there is one. */
static AdwMessageDialog *
shown_message_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return ADW_MESSAGE_DIALOG (window);
    }

  return NULL;
}

static gboolean
message_dialog_is_shown (gpointer data)
{
  return shown_message_dialog () != NULL;
}

/* Waits for the dialog asking the person, checks its heading and that its
 * body names @path. */
static AdwMessageDialog *
wait_for_dialog (const char *heading,
                 const char *path)
{
  AdwMessageDialog *dialog;

  tw_test_wait_until (message_dialog_is_shown, NULL, WAIT_LIMIT_MS, heading);
  dialog = shown_message_dialog ();
  g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, heading);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), path));

  return dialog;
}

/* Answers as the person would by clicking a button: the dialog goes. */
static void
answer (AdwMessageDialog *dialog,
        const char       *response)
{
  g_assert_true (adw_message_dialog_has_response (dialog, response));
  adw_message_dialog_response (dialog, response);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static gboolean
subtitle_is (gpointer data)
{
  AdwActionRow *row = data;
  const char *wanted = g_object_get_data (G_OBJECT (row), "test-wanted");

  return g_strcmp0 (adw_action_row_get_subtitle (row), wanted) == 0;
}

static void
wait_for_subtitle (AdwActionRow *row,
                   const char   *wanted)
{
  g_object_set_data_full (G_OBJECT (row), "test-wanted", g_strdup (wanted), g_free);
  tw_test_wait_until (subtitle_is, row, WAIT_LIMIT_MS, wanted);
}

static void
test_connect_dialog_gemini (void)
{
  g_autofree char *path = tw_gemini_extension_dup_path (NULL);
  g_autofree char *expected = tw_gemini_extension_dup_contents ();
  g_autofree char *contents = NULL;
  static const char changed[] = "{\"name\":\"tabwright\",\"mcpServers\":{}}\n";
  AdwMessageDialog *asked;
  AdwActionRow *row;
  GtkWidget *button;
  GtkWindow *dialog;
  guint64 inode;

  /* The test's own home: nothing of Gemini CLI's there yet. */
  g_assert_true (g_str_has_prefix (path, root_dir));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  dialog = tw_connect_dialog_new (NULL, "http://127.0.0.1:4321/mcp", "secret-token-123456",
                                  root_dir);
  gtk_window_present (dialog);
  button = tw_test_find_named (GTK_WIDGET (dialog), "gemini-install-button");
  g_assert_nonnull (button);
  row = ADW_ACTION_ROW (gtk_widget_get_ancestor (button, ADW_TYPE_ACTION_ROW));
  wait_for_subtitle (row, "Not installed: Gemini CLI gets no browser tools");

  /* The dialog shows the file and what goes in it, and writes nothing
   * until the person says yes. */
  gtk_widget_activate (button);
  asked = wait_for_dialog ("Install Gemini CLI Extension?", path);
  g_assert_true (tw_test_label_shows (GTK_WIDGET (asked), expected));
  g_assert_cmpstr (adw_message_dialog_get_default_response (asked), ==, "cancel");
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  answer (asked, "cancel");
  g_assert_false (message_dialog_is_shown (NULL));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  wait_for_subtitle (row, "Not installed: Gemini CLI gets no browser tools");

  tw_test_wait_until ((TwTestCondition) gtk_widget_get_sensitive, button, WAIT_LIMIT_MS,
                      "the button back");
  gtk_widget_activate (button);
  answer (wait_for_dialog ("Install Gemini CLI Extension?", path), "install");
  tw_test_wait_until (file_exists, path, WAIT_LIMIT_MS, "the extension to be written");
  wait_for_subtitle (row, "Installed");
  contents = read_text (path);
  g_assert_cmpstr (contents, ==, expected);

  /* Asked again, it says it is there and up to date, and writes nothing. */
  inode = inode_of (path);
  tw_test_wait_until ((TwTestCondition) gtk_widget_get_sensitive, button, WAIT_LIMIT_MS,
                      "the button back");
  gtk_widget_activate (button);
  asked = wait_for_dialog ("Gemini CLI Extension Installed", path);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (asked), "nothing was written"));
  g_assert_false (adw_message_dialog_has_response (asked, "install"));
  answer (asked, "close");
  g_assert_cmpuint (inode_of (path), ==, inode);

  /* A file the person changed: the dialog shows it next to what would
   * replace it, and it stays unless they choose Replace. */
  write_file (path, changed, 0644);
  tw_test_wait_until ((TwTestCondition) gtk_widget_get_sensitive, button, WAIT_LIMIT_MS,
                      "the button back");
  gtk_widget_activate (button);
  asked = wait_for_dialog ("Replace Gemini CLI Extension?", path);
  g_assert_true (tw_test_label_shows (GTK_WIDGET (asked), changed));
  g_assert_true (tw_test_label_shows (GTK_WIDGET (asked), expected));
  g_assert_false (adw_message_dialog_has_response (asked, "install"));
  g_assert_cmpint (adw_message_dialog_get_response_appearance (asked, "replace"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);
  answer (asked, "cancel");
  wait_for_subtitle (row, "A different gemini-extension.json is there");
  g_clear_pointer (&contents, g_free);
  contents = read_text (path);
  g_assert_cmpstr (contents, ==, changed);

  tw_test_wait_until ((TwTestCondition) gtk_widget_get_sensitive, button, WAIT_LIMIT_MS,
                      "the button back");
  gtk_widget_activate (button);
  answer (wait_for_dialog ("Replace Gemini CLI Extension?", path), "replace");
  wait_for_subtitle (row, "Installed");
  g_clear_pointer (&contents, g_free);
  contents = read_text (path);
  g_assert_cmpstr (contents, ==, expected);

  gtk_window_destroy (dialog);
  g_assert_cmpint (g_unlink (path), ==, 0);
}

static void
test_launcher_gemini (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TwAgentManager) manager = NULL;
  g_autofree char *path = tw_gemini_extension_dup_path (NULL);
  g_autofree char *bin = g_test_build_filename (G_TEST_DIST, "..", "node_modules", ".bin", NULL);
  g_autofree char *old_path = g_strdup (g_getenv ("PATH"));
  g_autofree char *new_path = g_strconcat (bin, ":", old_path, NULL);
  g_autoptr(GError) error = NULL;
  GListModel *agents;
  TwAgentLauncher *launcher;
  AdwActionRow *row;
  GtkWidget *setup;
  GtkListBox *list;
  TwAgent *agent;

  /* The real Gemini CLI of the tests' npm packages, so the launcher finds
   * it installed; it never runs here without a command of the test's. */
  g_assert_true (g_file_test (bin, G_FILE_TEST_IS_DIR));
  g_setenv ("PATH", new_path, TRUE);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  manager = tw_agent_manager_new (f->server, TW_BROWSER_SERVICE (f->browser), f->workspace,
                                  f->presets);
  launcher = TW_AGENT_LAUNCHER (tw_agent_manager_get_launcher (manager));
  agents = tw_agent_manager_get_agents (manager);
  gtk_window_set_child (f->window, GTK_WIDGET (launcher));
  gtk_window_present (f->window);

  /* The launcher's notes say what Gemini CLI lacks, with a button. */
  row = find_row_titled (GTK_WIDGET (launcher), "Gemini CLI");
  g_assert_nonnull (row);
  wait_for_subtitle (row, "Tabwright's extension is not installed: Gemini CLI would get no "
                     "browser tools");
  setup = tw_test_find_named (GTK_WIDGET (row), "setup-button");
  g_assert_true (gtk_widget_get_visible (setup));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (setup)), ==, "Install Extension…");

  /* Picking Gemini CLI asks to install first, rather than starting an agent
   * without tools; saying no starts nothing and writes nothing. */
  list = GTK_LIST_BOX (gtk_widget_get_ancestor (GTK_WIDGET (row), GTK_TYPE_LIST_BOX));
  g_signal_emit_by_name (list, "row-activated", row);
  answer (wait_for_dialog ("Install Gemini CLI Extension?", path), "cancel");
  g_assert_cmpuint (g_list_model_get_n_items (agents), ==, 0);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* An agent launched anyway (as --launch-agent does) says so in its
   * terminal. */
  agent = tw_agent_manager_launch (manager, "gemini", "sleep 60", &error);
  g_assert_no_error (error);
  wait_for_terminal_text (agent, "Tabwright's extension is not installed");
  tw_agent_manager_stop_all (manager);
  tw_test_wait_until (agent_has_ended, agent, WAIT_LIMIT_MS, "the agent to hang up");
  gtk_window_set_child (f->window, GTK_WIDGET (launcher));

  /* The button installs it once the person agrees; then the row is a plain
   * Gemini CLI again, and no agent was started besides the one above. */
  /* In the menu, which the test does not pop up: a click as the person's. */
  g_signal_emit_by_name (setup, "clicked");
  answer (wait_for_dialog ("Install Gemini CLI Extension?", path), "install");
  wait_for_subtitle (row, "Google's coding agent");
  g_assert_false (gtk_widget_get_visible (setup));
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (g_list_model_get_n_items (agents), ==, 1);

  g_setenv ("PATH", old_path, TRUE);
  g_assert_cmpint (g_unlink (path), ==, 0);
}

/* Workspaces */

static void
cookie_handler (SoupServerMessage *msg,
                const char        *path,
                GHashTable        *query)
{
  SoupMessageHeaders *request = soup_server_message_get_request_headers (msg);
  const char *cookie = soup_message_headers_get_one (request, "Cookie");
  g_autofree char *page = NULL;

  if (g_str_equal (path, "/set"))
    soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Set-Cookie",
                                  "flavour=oat; Path=/; Max-Age=3600");

  page = g_strdup_printf ("<title>cookie: %s</title>", cookie ? cookie : "none");
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (msg, "text/html", SOUP_MEMORY_COPY, page, strlen (page));
}

static gboolean
tab_has_title (gpointer data)
{
  TwBrowserTab *tab = data;

  return !tw_browser_tab_get_loading (tab) && g_str_has_prefix (tw_browser_tab_get_title (tab),
                                                                "cookie: ");
}

static char *
visit (TwBrowser  *browser,
       const char *url)
{
  TwBrowserTab *tab = tw_browser_open_tab (browser, url);
  char *title;

  tw_test_wait_until (tab_has_title, tab, WAIT_LIMIT_MS, url);
  title = g_strdup (tw_browser_tab_get_title (tab));
  tw_browser_close_tab (browser, tab);

  return title;
}

static void
test_workspace_cookies (void)
{
  g_autoptr(SoupServer) server = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *folder_a = make_folder ("a");
  g_autofree char *folder_b = make_folder ("b");
  g_autoptr(TwWorkspace) a = NULL;
  g_autoptr(TwWorkspace) b = NULL;
  g_autofree char *base = NULL;
  g_autofree char *set_url = NULL;
  g_autofree char *show_url = NULL;
  g_autofree char *in_a = NULL;
  g_autofree char *again_in_a = NULL;
  g_autofree char *in_b = NULL;
  g_autofree char *data_root = g_build_filename (g_get_user_data_dir (), "tabwright", "workspaces",
                                                 NULL);
  WebKitNetworkSession *session_a;
  WebKitNetworkSession *session_b;
  const char *dir_a;
  const char *dir_b;

  server = tw_test_server_new (cookie_handler, &base);
  set_url = g_strconcat (base, "set", NULL);
  show_url = g_strconcat (base, "show", NULL);

  a = tw_workspace_new (folder_a, &error);
  g_assert_no_error (error);
  b = tw_workspace_new (folder_b, &error);
  g_assert_no_error (error);

  /* Each workspace keeps its website data for good, under the user's data
   * folder, apart from the other's. */
  session_a = tw_browser_get_network_session (tw_workspace_get_browser (a));
  session_b = tw_browser_get_network_session (tw_workspace_get_browser (b));
  g_assert_true (session_a != session_b);
  g_assert_false (webkit_network_session_is_ephemeral (session_a));
  g_assert_false (webkit_network_session_is_ephemeral (session_b));
  dir_a = webkit_website_data_manager_get_base_data_directory (
    webkit_network_session_get_website_data_manager (session_a));
  dir_b = webkit_website_data_manager_get_base_data_directory (
    webkit_network_session_get_website_data_manager (session_b));
  g_assert_true (g_str_has_prefix (dir_a, data_root));
  g_assert_true (g_str_has_prefix (dir_b, data_root));
  g_assert_cmpstr (dir_a, !=, dir_b);

  /* A cookie set in one workspace comes back there, and never shows in
   * the other. */
  in_a = visit (tw_workspace_get_browser (a), set_url);
  g_assert_cmpstr (in_a, ==, "cookie: none");
  again_in_a = visit (tw_workspace_get_browser (a), show_url);
  g_assert_cmpstr (again_in_a, ==, "cookie: flavour=oat");
  in_b = visit (tw_workspace_get_browser (b), show_url);
  g_assert_cmpstr (in_b, ==, "cookie: none");
}

/* The agent's menu: its network session (issue 32) */

/* Opens a tab on @url as @agent, through MCP with its token, and returns
 * the title its page shows ("cookie: …"). */
static char *
agent_visit (Fixture    *f,
             TwAgent    *agent,
             const char *url)
{
  g_autofree char *session_id = NULL;
  g_autofree char *body = NULL;
  g_autoptr(JsonNode) reply = NULL;
  TwBrowserTab *tab;

  g_assert_cmpuint (mcp_initialize (f, tw_agent_get_token (agent), &session_id), ==, 200);
  body = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                          "{\"name\":\"browser_new_tab\",\"arguments\":{\"url\":\"%s\"}}}", url);
  g_assert_cmpuint (mcp_post (f, tw_agent_get_token (agent), session_id, body, &reply, NULL), ==, 200);
  g_assert_nonnull (reply);
  tab = tw_browser_lookup_tab (f->browser, json_path_string (reply, "$.result.structuredContent.browserId"));
  g_assert_nonnull (tab);
  g_assert_cmpstr (tw_browser_tab_get_owner (tab), ==, tw_agent_get_name (agent));
  tw_test_wait_until (tab_has_title, tab, WAIT_LIMIT_MS, url);

  return g_strdup (tw_browser_tab_get_title (tab));
}

/* The person moves an agent to a network session of its own from its
 * menu: the tabs it opens next do not see the workspace's cookies, and
 * the choice is kept for its preset, for the agents launched from it
 * later. Moved back, its next tab sees them again. */
static void
test_agent_session_menu (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TwAgentManager) manager = NULL;
  g_autoptr(GSettings) settings = tw_settings_new (NULL);
  g_autoptr(SoupServer) server = NULL;
  g_autoptr(GVariant) kept = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *base = NULL;
  g_autofree char *set_url = NULL;
  g_autofree char *show_url = NULL;
  g_autofree char *set_title = NULL;
  g_autofree char *before = NULL;
  g_autofree char *apart = NULL;
  g_autofree char *second_apart = NULL;
  g_autofree char *back = NULL;
  g_autofree char *third_back = NULL;
  const TwAgentPolicy own_sessions = { NULL, NULL, 0, "own" };
  TwAgentTerminal *terminal;
  GtkMenuButton *button;
  GMenuModel *menu;
  TwAgent *agent;
  TwAgent *second;
  TwAgent *third;
  const char *kept_session = NULL;

  server = tw_test_server_new (cookie_handler, &base);
  set_url = g_strconcat (base, "set", NULL);
  show_url = g_strconcat (base, "show", NULL);

  manager = tw_agent_manager_new (f->server, TW_BROWSER_SERVICE (f->browser), f->workspace,
                                  f->presets);
  tw_agent_manager_set_settings (manager, settings);
  gtk_window_set_child (f->window, tw_agent_manager_get_pane (manager));
  gtk_window_present (f->window);

  agent = tw_agent_manager_launch (manager, "custom", "sleep 60", &error);
  g_assert_no_error (error);
  tw_test_wait_until (agent_is_settled, agent, WAIT_LIMIT_MS, "the agent to start");
  g_assert_cmpint (tw_agent_get_status (agent), ==, TW_AGENT_STATUS_RUNNING);

  /* The workspace has a cookie, and the agent's tabs see it. */
  set_title = visit (f->browser, set_url);
  g_assert_cmpstr (set_title, ==, "cookie: none");
  before = agent_visit (f, agent, show_url);
  g_assert_cmpstr (before, ==, "cookie: flavour=oat");

  /* Its menu, in its terminal's status bar, offers the workspace's
   * session and one of its own, and says which tabs a change applies to. */
  terminal = tw_agent_get_terminal (agent);
  button = tw_agent_terminal_get_menu_button (terminal);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (button)));
  menu = gtk_menu_button_get_menu_model (button);
  g_assert_true (tw_test_menu_has_label (menu, "Network Session"));
  g_assert_true (tw_test_menu_has_label (menu, "The Workspace’s"));
  g_assert_true (tw_test_menu_has_label (menu, "Its Own, “Custom Command #1”"));
  g_assert_true (tw_test_label_shows (GTK_WIDGET (gtk_menu_button_get_popover (button)),
                                      "Applies to the tabs it opens next; the tabs it has keep "
                                      "theirs. Kept for Custom Command agents launched later."));
  g_assert_cmpstr (tw_browser_get_agent_session (f->browser, tw_agent_get_id (agent)), ==,
                   "workspace");

  /* Its own: its next tab does not see the workspace's cookie. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (terminal), "agent.session", "s", "own"));
  g_assert_cmpstr (tw_browser_get_agent_session (f->browser, tw_agent_get_id (agent)), ==, "own");
  apart = agent_visit (f, agent, show_url);
  g_assert_cmpstr (apart, ==, "cookie: none");

  /* Kept for its preset: the next agent launched from it starts there. */
  kept = g_settings_get_value (settings, "agent-preset-sessions");
  g_assert_true (g_variant_lookup (kept, "custom", "&s", &kept_session));
  g_assert_cmpstr (kept_session, ==, "own");
  second = tw_agent_manager_launch (manager, "custom", "sleep 60", &error);
  g_assert_no_error (error);
  tw_test_wait_until (agent_is_settled, second, WAIT_LIMIT_MS, "the second agent to start");
  g_assert_cmpstr (tw_browser_get_agent_session (f->browser, tw_agent_get_id (second)), ==, "own");
  second_apart = agent_visit (f, second, show_url);
  g_assert_cmpstr (second_apart, ==, "cookie: none");

  /* A session the menu does not offer changes nothing. */
  gtk_widget_activate_action (GTK_WIDGET (terminal), "agent.session", "s", "elsewhere");
  g_assert_cmpstr (tw_browser_get_agent_session (f->browser, tw_agent_get_id (agent)), ==, "own");

  /* Back on the workspace's, its next tab sees the cookie again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (terminal), "agent.session", "s",
                                             "workspace"));
  back = agent_visit (f, agent, show_url);
  g_assert_cmpstr (back, ==, "cookie: flavour=oat");

  /* Kept as the workspace's, it holds even where the workspace puts its
   * agents on sessions of their own. */
  tw_browser_set_policy (f->browser, &own_sessions);
  third = tw_agent_manager_launch (manager, "custom", "sleep 60", &error);
  g_assert_no_error (error);
  tw_test_wait_until (agent_is_settled, third, WAIT_LIMIT_MS, "the third agent to start");
  g_assert_cmpstr (tw_browser_get_agent_session (f->browser, tw_agent_get_id (third)), ==,
                   "workspace");
  third_back = agent_visit (f, third, show_url);
  g_assert_cmpstr (third_back, ==, "cookie: flavour=oat");

  tw_agent_manager_stop_all (manager);
  tw_test_wait_until (agent_has_ended, agent, WAIT_LIMIT_MS, "the agent to hang up");
  tw_test_wait_until (agent_has_ended, second, WAIT_LIMIT_MS, "the second agent to hang up");
  tw_test_wait_until (agent_has_ended, third, WAIT_LIMIT_MS, "the third agent to hang up");
  g_settings_reset (settings, "agent-preset-sessions");
}

/* Recent workspaces */

static void
test_recent_workspaces (void)
{
  g_autofree char *state = make_folder ("state");
  g_autofree char *file = g_build_filename (state, "tabwright", "recent-workspaces.json", NULL);
  g_autofree char *one = make_folder ("one");
  g_autofree char *two = make_folder ("two");
  g_autofree char *gone = make_folder ("gone");
  g_autoptr(TwRecentWorkspaces) recent = tw_recent_workspaces_new (file);
  g_autoptr(TwRecentWorkspaces) reloaded = NULL;
  g_auto(GStrv) paths = NULL;
  g_autofree char *label = NULL;
  g_autofree char *action = NULL;
  g_autoptr(GVariant) target = NULL;
  GMenuModel *menu = tw_recent_workspaces_get_menu (recent);
  g_autoptr(GAsyncResult) saved = NULL;
  g_autoptr(GError) error = NULL;

  /* Empty: one insensitive line saying so. */
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 1);
  g_assert_false (g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_ACTION, "s",
                                                   &action));

  tw_recent_workspaces_add (recent, one);
  tw_recent_workspaces_add (recent, gone);
  tw_recent_workspaces_add (recent, two);
  /* Opening one again moves it to the front, once. */
  tw_recent_workspaces_add (recent, one);

  paths = tw_recent_workspaces_dup_paths (recent);
  {
    const char *expected[] = { one, two, gone, NULL };

    g_assert_cmpstrv (paths, expected);
  }

  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 3);
  g_assert_true (g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_ACTION, "s", &action));
  g_assert_cmpstr (action, ==, "app.open-workspace-path");
  target = g_menu_model_get_item_attribute_value (menu, 0, G_MENU_ATTRIBUTE_TARGET,
                                                  G_VARIANT_TYPE_STRING);
  g_assert_cmpstr (g_variant_get_string (target, NULL), ==, one);
  g_assert_true (g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  /* Under the home folder, paths read with a ~. */
  if (g_str_has_prefix (one, g_get_home_dir ()))
    g_assert_true (g_str_has_prefix (label, "~/"));
  else
    g_assert_cmpstr (label, ==, one);

  tw_recent_workspaces_save_async (recent, NULL, tw_test_store_result_cb, NULL);
  saved = tw_test_await_result (WAIT_LIMIT_MS, "the recent workspaces to be saved");
  tw_recent_workspaces_save_finish (recent, saved, &error);
  g_assert_no_error (error);

  /* The list outlives the app; folders that went away drop out. */
  g_assert_cmpint (g_rmdir (gone), ==, 0);
  reloaded = tw_recent_workspaces_new (file);
  g_strfreev (paths);
  paths = tw_recent_workspaces_dup_paths (reloaded);
  {
    const char *expected[] = { one, two, NULL };

    g_assert_cmpstrv (paths, expected);
  }

  /* Only the last ten are kept. */
  for (guint i = 0; i < 12; i++)
    {
      g_autofree char *name = g_strdup_printf ("many-%u", i);
      g_autofree char *folder = make_folder (name);

      tw_recent_workspaces_add (reloaded, folder);
    }
  g_strfreev (paths);
  paths = tw_recent_workspaces_dup_paths (reloaded);
  g_assert_cmpuint (g_strv_length (paths), ==, 10);
  g_assert_true (g_str_has_suffix (paths[0], "many-11"));
}

int
main (int   argc,
      char *argv[])
{
  int ret;

  root_dir = tw_test_set_up_folders ("tabwright-test-agents-XXXXXX", TRUE);

  /* The accessibility bus socket is named after the display, so test
   * programs sharing one virtual display would race for it. */
  g_setenv ("GTK_A11Y", "none", TRUE);

  g_test_init (&argc, &argv, NULL);
  gtk_init ();
  adw_init ();

  g_test_add_func ("/app/agents/presets/builtin", test_presets_builtin);
  g_test_add_func ("/app/agents/presets/merge", test_presets_merge);
  g_test_add_func ("/app/agents/presets/user-mistakes", test_presets_user_mistakes);
  g_test_add_func ("/app/agents/presets/builtin-broken", test_presets_builtin_broken);
  g_test_add_func ("/app/agents/presets/locate", test_presets_locate);
  g_test_add_func ("/app/agents/launch-option", test_parse_launch);
  g_test_add_func ("/app/agents/flatpak-host", test_host_argv);
  g_test_add ("/app/agents/lifecycle", Fixture, NULL, fixture_setup, test_agent_lifecycle,
              fixture_teardown);
  g_test_add ("/app/agents/stop", Fixture, NULL, fixture_setup, test_agent_stop,
              fixture_teardown);
  g_test_add ("/app/agents/not-installed", Fixture, NULL, fixture_setup, test_agent_not_installed,
              fixture_teardown);
  g_test_add ("/app/agents/manager", Fixture, NULL, fixture_setup, test_agent_manager,
              fixture_teardown);
  g_test_add ("/ui/window/agents", Fixture, NULL, fixture_setup, test_window_agents,
              fixture_teardown);
  g_test_add_func ("/app/agents/gemini-extension/writer", test_gemini_writer);
  g_test_add_func ("/ui/connect-dialog/gemini-extension", test_connect_dialog_gemini);
  g_test_add ("/ui/launcher/gemini-extension", Fixture, NULL, fixture_setup, test_launcher_gemini,
              fixture_teardown);
  g_test_add_func ("/app/workspaces/separate-website-data", test_workspace_cookies);
  g_test_add ("/ui/agents/session-menu", Fixture, NULL, fixture_setup, test_agent_session_menu,
              fixture_teardown);
  g_test_add_func ("/ui/recent-workspaces", test_recent_workspaces);

  ret = g_test_run ();

  tw_test_remove_tree (root_dir);
  g_free (root_dir);

  return ret;
}
