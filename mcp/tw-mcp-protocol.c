/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "tw-mcp-protocol.h"

#include "tw-json.h"
#include "tw-jsonrpc.h"
#include "tw-mcp-server-private.h"

/* Newest first: the first is what a client asking for something else gets. */
static const char * const supported_versions[] = {
  TW_MCP_PROTOCOL_VERSION_LATEST,
  "2025-06-18",
  "2025-03-26",
};

/* What a model that has never heard of Tabwright reads first, where its client shows it:
 * what this server is, the snapshot-then-ref way its tools work, and where to start. Only
 * tools of the default core group are named. */
static const char server_instructions[] =
  "Tabwright is a web browser (real WebKit tabs) that you drive while a person watches.\n"
  "Start with browser_new_tab to open a URL, or browser_list_tabs to find a tab already open; "
  "pass its browserId to every other tool.\n"
  "Read the page with browser_snapshot: an accessibility tree in which each element has a ref "
  "such as @e5. Act by those refs with browser_click, browser_fill, browser_type, "
  "browser_select and browser_keypress.\n"
  "Take a new snapshot after the page changes; browser_stale_ref means your refs are out of "
  "date. Use browser_screenshot only to see the layout, and browser_handoff when the person "
  "must log in or solve a CAPTCHA.";

gboolean
tw_mcp_protocol_version_is_supported (const char *version)
{
  for (guint i = 0; i < G_N_ELEMENTS (supported_versions); i++)
    {
      if (g_strcmp0 (version, supported_versions[i]) == 0)
        return TRUE;
    }

  return FALSE;
}

const char *
tw_mcp_protocol_negotiate_version (const char *requested)
{
  for (guint i = 0; i < G_N_ELEMENTS (supported_versions); i++)
    {
      if (g_strcmp0 (requested, supported_versions[i]) == 0)
        return supported_versions[i];
    }

  return TW_MCP_PROTOCOL_VERSION_LATEST;
}

char *
tw_mcp_protocol_dup_supported_versions (void)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (supported_versions); i++)
    g_string_append_printf (text, "%s%s", i > 0 ? ", " : "", supported_versions[i]);

  return g_string_free (g_steal_pointer (&text), FALSE);
}

JsonNode *
tw_mcp_protocol_initialize (JsonObject  *params,
                            const char **version,
                            GError     **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  JsonNode *requested = params != NULL ? json_object_get_member (params, "protocolVersion") : NULL;
  const char *negotiated;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (tw_json_value_type (requested) != G_TYPE_STRING)
    {
      g_set_error_literal (error, TW_JSONRPC_ERROR, TW_JSONRPC_ERROR_INVALID_PARAMS,
                           "Invalid params: \"protocolVersion\" must be a string");
      return NULL;
    }

  negotiated = tw_mcp_protocol_negotiate_version (json_node_get_string (requested));

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "protocolVersion");
  json_builder_add_string_value (builder, negotiated);

  json_builder_set_member_name (builder, "capabilities");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tools");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "listChanged");
  json_builder_add_boolean_value (builder, FALSE);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "serverInfo");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, "tabwright");
  json_builder_set_member_name (builder, "title");
  json_builder_add_string_value (builder, "Tabwright");
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, PACKAGE_VERSION);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "instructions");
  json_builder_add_string_value (builder, server_instructions);
  json_builder_end_object (builder);

  if (version != NULL)
    *version = negotiated;

  return json_builder_get_root (builder);
}
