/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-mcp-snippets.h"

#include <json-glib/json-glib.h>

#include <string.h>

#define TOKEN_VARIABLE "TABWRIGHT_MCP_TOKEN"

/* Quotes @word for a POSIX shell only when it needs it, so the common case
 * stays readable. */
static char *
shell_word (const char *word)
{
  for (const char *p = word; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && strchr ("_-./:@%+=,", *p) == NULL)
        return g_shell_quote (word);
    }

  return g_strdup (word);
}

/* How one CLI spells the tabwright server in its JSON configuration. */
typedef struct
{
  const char *section;     /* "mcpServers", or OpenCode's "mcp" */
  const char *type;        /* the "type" member, or NULL for none */
  const char *url_member;  /* "url", or "httpUrl" (Qwen Code's Streamable HTTP) */
  gboolean    enabled;     /* "enabled": true, which OpenCode wants */
  gboolean    all_tools;   /* "tools": ["*"], which Copilot CLI's servers carry */
} ServerShape;

static const ServerShape claude_shape = { "mcpServers", "http", "url", FALSE, FALSE };
static const ServerShape opencode_shape = { "mcp", "remote", "url", TRUE, FALSE };
static const ServerShape copilot_shape = { "mcpServers", "http", "url", FALSE, TRUE };
static const ServerShape qwen_shape = { "mcpServers", NULL, "httpUrl", FALSE, FALSE };

/* The JSON text {"<section>": {"tabwright": {"type": <type>, "url": <url>,
 * "headers": {"Authorization": "Bearer <token>"}}}}, in the shape that
 * @shape says. */
static char *
server_config (const ServerShape *shape,
               const char        *url,
               const char        *token)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *authorization = g_strconcat ("Bearer ", token, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, shape->section);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tabwright");
  json_builder_begin_object (builder);
  if (shape->type != NULL)
    {
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, shape->type);
    }
  json_builder_set_member_name (builder, shape->url_member);
  json_builder_add_string_value (builder, url);
  json_builder_set_member_name (builder, "headers");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "Authorization");
  json_builder_add_string_value (builder, authorization);
  json_builder_end_object (builder);
  if (shape->enabled)
    {
      json_builder_set_member_name (builder, "enabled");
      json_builder_add_boolean_value (builder, TRUE);
    }
  if (shape->all_tools)
    {
      json_builder_set_member_name (builder, "tools");
      json_builder_begin_array (builder);
      json_builder_add_string_value (builder, "*");
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);

  return json_generator_to_data (generator, NULL);
}

/* PROGRAM FLAG '<the server configuration in @shape>' */
static char *
command_with_config (const char        *program,
                     const char        *flag,
                     const ServerShape *shape,
                     const char        *url,
                     const char        *token)
{
  g_autofree char *config = server_config (shape, url, token);
  g_autofree char *quoted = g_shell_quote (config);

  return g_strconcat (program, " ", flag, " ", quoted, NULL);
}

char *
tw_mcp_snippet_claude_config (const char *url,
                              const char *token)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (token != NULL, NULL);

  return server_config (&claude_shape, url, token);
}

char *
tw_mcp_snippet_claude_command (const char *url,
                               const char *token)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (token != NULL, NULL);

  return command_with_config ("claude", "--mcp-config", &claude_shape, url, token);
}

char *
tw_mcp_snippet_codex (const char *url,
                      const char *token)
{
  g_autofree char *url_setting = NULL;
  g_autofree char *quoted_url_setting = NULL;
  g_autofree char *quoted_token = NULL;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (token != NULL, NULL);

  url_setting = g_strdup_printf ("mcp_servers.tabwright.url=\"%s\"", url);
  quoted_url_setting = g_shell_quote (url_setting);
  quoted_token = shell_word (token);

  /* The token goes through the environment, not the command line, so it
   * does not end up in shell history or in the process list. */
  return g_strdup_printf ("export " TOKEN_VARIABLE "=%s\n"
                          "codex -c %s -c 'mcp_servers.tabwright.bearer_token_env_var=\""
                          TOKEN_VARIABLE "\"'",
                          quoted_token, quoted_url_setting);
}

char *
tw_mcp_snippet_opencode (const char *url,
                         const char *token)
{
  g_autofree char *config = NULL;
  g_autofree char *quoted = NULL;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (token != NULL, NULL);

  config = server_config (&opencode_shape, url, token);
  quoted = g_shell_quote (config);

  /* OpenCode merges OPENCODE_CONFIG_CONTENT over its own configuration for
   * this one process: no file of the person's changes. */
  return g_strconcat ("OPENCODE_CONFIG_CONTENT=", quoted, " opencode", NULL);
}

char *
tw_mcp_snippet_copilot (const char *url,
                        const char *token)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (token != NULL, NULL);

  /* Copilot CLI adds these servers to its own for this session only. */
  return command_with_config ("copilot", "--additional-mcp-config", &copilot_shape, url, token);
}

char *
tw_mcp_snippet_qwen (const char *url,
                     const char *token)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (token != NULL, NULL);

  /* Qwen Code reads --mcp-config as a file when one has that name, else as
   * the JSON itself. */
  return command_with_config ("qwen", "--mcp-config", &qwen_shape, url, token);
}

/* Gemini CLI reads MCP servers only from settings files and extensions, and
 * skips a system settings file that root does not own. A user extension is
 * the channel it honours for a normal user: it expands ${VARIABLES} of the
 * environment in gemini-extension.json at every start, so the file names
 * no URL or token, and every agent gets its own from TABWRIGHT_MCP_URL and
 * TABWRIGHT_MCP_TOKEN. The person installs it once, by running the command
 * below or through TwGeminiInstall, which writes the same bytes after
 * asking; Tabwright writes nothing of Gemini CLI's without that. */
const char *
tw_mcp_snippet_gemini_extension (void)
{
  return "{\"name\":\"tabwright\",\"version\":\"1.0.0\",\"mcpServers\":{\"tabwright\":{"
         "\"httpUrl\":\"${TABWRIGHT_MCP_URL}\","
         "\"headers\":{\"Authorization\":\"Bearer ${TABWRIGHT_MCP_TOKEN}\"}}}}";
}

char *
tw_mcp_snippet_gemini_install (void)
{
  g_autofree char *quoted = g_shell_quote (tw_mcp_snippet_gemini_extension ());

  return g_strdup_printf ("mkdir -p ~/" TW_MCP_GEMINI_EXTENSION_DIR " && "
                          "printf '%%s\\n' %s > ~/" TW_MCP_GEMINI_EXTENSION_DIR "/gemini-extension.json",
                          quoted);
}

char *
tw_mcp_snippet_gemini (const char *url,
                       const char *token)
{
  g_autofree char *install = NULL;
  g_autofree char *quoted_url = NULL;
  g_autofree char *quoted_token = NULL;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (token != NULL, NULL);

  install = tw_mcp_snippet_gemini_install ();
  quoted_url = shell_word (url);
  quoted_token = shell_word (token);

  return g_strdup_printf ("%s\n"
                          "export TABWRIGHT_MCP_URL=%s " TOKEN_VARIABLE "=%s\n"
                          "gemini",
                          install, quoted_url, quoted_token);
}

char *
tw_mcp_snippet_stdio (const char *workspace_path)
{
  g_autofree char *quoted = NULL;

  g_return_val_if_fail (workspace_path != NULL, NULL);

  quoted = shell_word (workspace_path);

  return g_strdup_printf ("claude mcp add tabwright -- tabwright-mcp --workspace %s", quoted);
}
