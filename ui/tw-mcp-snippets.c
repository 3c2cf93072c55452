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

/* The JSON text {"<section>": {"tabwright": {"type": <type>, "url": <url>,
 * "headers": {"Authorization": "Bearer <token>"}}}} that both Claude Code
 * and OpenCode read; @enabled adds "enabled": true, which OpenCode wants. */
static char *
server_config (const char *section,
               const char *type,
               const char *url,
               const char *token,
               gboolean    enabled)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *authorization = g_strconcat ("Bearer ", token, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, section);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tabwright");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, type);
  json_builder_set_member_name (builder, "url");
  json_builder_add_string_value (builder, url);
  json_builder_set_member_name (builder, "headers");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "Authorization");
  json_builder_add_string_value (builder, authorization);
  json_builder_end_object (builder);
  if (enabled)
    {
      json_builder_set_member_name (builder, "enabled");
      json_builder_add_boolean_value (builder, TRUE);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);

  return json_generator_to_data (generator, NULL);
}

char *
tw_mcp_snippet_claude_config (const char *url,
                              const char *token)
{
  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (token != NULL, NULL);

  return server_config ("mcpServers", "http", url, token, FALSE);
}

char *
tw_mcp_snippet_claude_command (const char *url,
                               const char *token)
{
  g_autofree char *config = NULL;
  g_autofree char *quoted = NULL;

  g_return_val_if_fail (url != NULL, NULL);
  g_return_val_if_fail (token != NULL, NULL);

  config = tw_mcp_snippet_claude_config (url, token);
  quoted = g_shell_quote (config);

  return g_strconcat ("claude --mcp-config ", quoted, NULL);
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

  config = server_config ("mcp", "remote", url, token, TRUE);
  quoted = g_shell_quote (config);

  /* OpenCode merges OPENCODE_CONFIG_CONTENT over its own configuration for
   * this one process: no file of the person's changes. */
  return g_strconcat ("OPENCODE_CONFIG_CONTENT=", quoted, " opencode", NULL);
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
