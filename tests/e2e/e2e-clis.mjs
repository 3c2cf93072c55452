// SPDX-License-Identifier: GPL-3.0-or-later
//
// Real agent CLIs (the versions pinned in package.json), each launched from
// the app with its shipped preset (--launch-agent PRESET:COMMAND: the
// preset's own flags and environment, with the CLI's non-interactive
// command), talking to a scripted model on 127.0.0.1 (lib/model-server.mjs)
// instead of the vendor's API. The model opens a tab, reads it, clicks the
// button "Save" by the ref the snapshot gave, takes a screenshot and clicks
// a ref that does not exist. The test checks what the CLI sent back to the
// model, which is exactly what a model would see: the snapshot as text, the
// screenshot as an image, the error as an error. And that the CLI reached
// Tabwright with a token of its own, that its tab is attributed to it, and
// that its token is refused once it has exited. And whether the CLI showed
// the model the instructions of the server's initialize result, as each
// CLI's `instructions` says (lib/clis.mjs): a release that starts or stops
// showing them fails, saying which to change. Claude Code offers MCP
// tools only by name, behind its ToolSearch tool: the model searches for the
// ones it needs before it calls them, as a real model must (lib/clis.mjs
// fails with a clear message when a new release stops or starts deferring).
// Copilot CLI and Qwen Code run in e2e-clis-more.
//
// A last test runs the Codex, OpenCode and Gemini CLI commands that
// `tabwright --print-mcp-config` prints, as printed, against the same model
// (for Gemini CLI that includes installing its extension, once).
//
// Approvals: Codex asks the person before every MCP tool call that is not
// read-only, and `codex exec` cannot ask, so the test's Codex configuration
// (the person's own ~/.codex/config.toml, not the preset) approves the
// tabwright server's tools in advance. OpenCode allows MCP tools by default.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { PROMPT, testCLIs } from './lib/clis.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();

const CLIS = {
  codex: {
    name: 'Codex',
    command: `codex exec --skip-git-repo-check '${PROMPT}'`,
    // The person's own Codex configuration: a model provider (here the
    // scripted model) and tools of the tabwright server approved in advance.
    setup(home, model) {
      fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
      fs.writeFileSync(path.join(home, '.codex', 'config.toml'), [
        'model = "scripted"',
        'model_provider = "scripted"',
        '[model_providers.scripted]',
        'name = "Scripted"',
        `base_url = "${model.url}/v1"`,
        'wire_api = "responses"',
        '[mcp_servers.tabwright]',
        'default_tools_approval_mode = "approve"',
        '',
      ].join('\n'));
      return {};
    },
    // Codex passes the model the JSON of structuredContent when there is
    // one, errors included.
    structured: true,
    structuredErrors: true,
    // Codex shows the server's instructions as the description of the
    // mcp__tabwright namespace its tools are offered in.
    instructions: true,
  },
  opencode: {
    name: 'OpenCode',
    command: `opencode run '${PROMPT}'`,
    // The person's own OpenCode configuration: the scripted model as an
    // OpenAI-compatible provider that takes images.
    setup(home, model, dirs) {
      fs.mkdirSync(path.join(dirs.config, 'opencode'), { recursive: true });
      fs.writeFileSync(path.join(dirs.config, 'opencode', 'opencode.json'), JSON.stringify({
        model: 'scripted/scripted',
        provider: {
          scripted: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Scripted',
            options: { baseURL: `${model.url}/v1`, apiKey: 'unused' },
            models: { scripted: { name: 'Scripted', attachment: true, modalities: { input: ['text', 'image'], output: ['text'] } } },
          },
        },
      }));
      // No network here: no model list download, no update check.
      return { OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1' };
    },
    structured: false,
    structuredErrors: false,
    // OpenCode shows the server's instructions at the end of its system
    // prompt, in <mcp_instructions>.
    instructions: true,
  },
  gemini: {
    name: 'Gemini CLI',
    // --skip-trust and --approval-mode yolo are the person's trust in the
    // workspace folder and permission for the tools: in -p mode Gemini CLI
    // cannot ask.
    command: `gemini --skip-trust --approval-mode yolo -p '${PROMPT}'`,
    // The person's own Gemini CLI: an API key and the scripted model's
    // address, no update check. And, for the preset, the one-time install of
    // the tabwright extension the person consented to (the snippet test
    // runs the install command --print-mcp-config prints instead).
    setup(home, model, dirs, { installExtension = true } = {}) {
      fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
      fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        privacy: { usageStatisticsEnabled: false },
      }));
      if (installExtension) {
        const dir = path.join(home, '.gemini', 'extensions', 'tabwright');
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'gemini-extension.json'), JSON.stringify({
          name: 'tabwright',
          version: '1.0.0',
          mcpServers: { tabwright: { httpUrl: '${TABWRIGHT_MCP_URL}', headers: { Authorization: 'Bearer ${TABWRIGHT_MCP_TOKEN}' } } },
        }));
      }
      return { GEMINI_API_KEY: 'unused', GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_CLI_NO_RELAUNCH: 'true' };
    },
    // Gemini CLI passes the model the text of a result, not its
    // structuredContent; a failed call reaches it as {"error": "MCP tool …
    // reported tool error … with response: <the whole result as JSON>"}, so
    // the error's text arrives inside that JSON string.
    structured: false,
    structuredErrors: false,
    // Gemini CLI shows the server's instructions in the session context of
    // the first message, as provided by the tool server 'tabwright'.
    instructions: true,
    assertError(bad) {
      const error = JSON.parse(bad.text).error;
      assert.match(error, /^MCP tool 'browser_click' reported tool error/, error);
      assert.ok(error.includes('"text":"Error: browser_stale_ref — '), error);
      assert.ok(error.includes('Take a new browser_snapshot'), error);
    },
    snippetSetup: { installExtension: false },
  },
  claude: {
    name: 'Claude Code',
    // --allowedTools is the person's permission for the tabwright server's
    // tools: `claude -p` cannot ask.
    command: `claude -p '${PROMPT}' --allowedTools mcp__tabwright`,
    setup(home, model) {
      return {
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: 'unused',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      };
    },
    // Claude Code shows structuredContent instead of the text on success,
    // and drops it on errors.
    structured: true,
    structuredErrors: false,
    // Claude Code shows the server's instructions in a reminder of the
    // first message, under "## tabwright", next to the deferred tools' names.
    instructions: true,
    // Since 2.1.3xx it offers MCP tools only by name, to be loaded with its
    // ToolSearch tool; the scripted model searches for them first.
    defers: true,
    snippet: false,
  },
};

testCLIs(CLIS, 'Codex, OpenCode and Gemini CLI', options);
