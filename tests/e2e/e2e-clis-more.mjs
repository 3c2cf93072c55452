// SPDX-License-Identifier: GPL-3.0-or-later
//
// GitHub Copilot CLI and Qwen Code, as e2e-clis runs the other agent CLIs:
// each launched from the app with its shipped preset, then started with the
// command `tabwright --print-mcp-config` prints, each against the scripted
// model on 127.0.0.1 (lib/model-server.mjs, lib/clis.mjs), which checks
// what the model saw, the server's instructions included or not.
//
// Both take a model of the person's choosing: Copilot CLI through its BYOK
// variables (COPILOT_PROVIDER_BASE_URL, offline, so that it needs no GitHub
// account), Qwen Code through its OpenAI-compatible settings. Qwen Code
// offers MCP tools only through its tool_search and tool_call tools; the
// scripted model searches for Tabwright's first and calls them through
// tool_call, as a real model must.
//
// Approvals, the person's in both cases: Copilot CLI's --allow-tool=tabwright
// allows the tabwright server's tools in -p mode, which cannot ask; Qwen
// Code's --approval-mode yolo does the same.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { PROMPT, testCLIs } from './lib/clis.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();

const CLIS = {
  copilot: {
    name: 'Copilot CLI',
    command: `copilot --allow-tool=tabwright --no-auto-update -p '${PROMPT}'`,
    // The person's own Copilot CLI: a model provider of their own (BYOK),
    // offline, so no GitHub sign-in, telemetry or update check.
    setup(home, model) {
      return {
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
        COPILOT_PROVIDER_API_KEY: 'unused',
        COPILOT_MODEL: 'scripted',
        COPILOT_AUTO_UPDATE: 'false',
      };
    },
    // Copilot CLI passes the text blocks, then the JSON of
    // structuredContent; a failed call's text comes after the server's name.
    structured: false,
    structuredErrors: false,
    assertError(bad) {
      assert.match(bad.text, /^MCP server 'tabwright': Error: browser_stale_ref — .*\nTake a new browser_snapshot/, bad.text);
    },
    // 1.0.102 passes a model of its own provider no image of a tool result:
    // the screenshot reaches it as its text only.
    images: false,
    // 1.0.102 does not show the model the server's instructions.
    instructions: false,
  },
  qwen: {
    name: 'Qwen Code',
    command: `qwen --approval-mode yolo '${PROMPT}'`,
    // The person's own Qwen Code: an OpenAI-compatible provider that takes
    // images, no update check and no usage statistics.
    setup(home, model) {
      fs.mkdirSync(path.join(home, '.qwen'), { recursive: true });
      fs.writeFileSync(path.join(home, '.qwen', 'settings.json'), JSON.stringify({
        security: { auth: { selectedType: 'openai' } },
        model: { name: 'scripted', generationConfig: { modalities: { image: true } } },
        general: { enableAutoUpdate: false },
        privacy: { usageStatisticsEnabled: false },
      }));
      return {
        OPENAI_BASE_URL: `${model.url}/v1`,
        OPENAI_API_KEY: 'unused',
        OPENAI_MODEL: 'scripted',
        QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
      };
    },
    // Qwen Code passes the JSON of structuredContent and the text blocks,
    // the labelled lines included; a failed call reaches the model as
    // "MCP tool … reported tool error … with response: <the result as JSON>".
    structured: false,
    structuredErrors: false,
    // Qwen Code shows the server's instructions in a reminder of the first
    // message, as guidance supplied by the MCP server, under "### tabwright".
    instructions: true,
    assertError(bad) {
      assert.match(bad.text, /^MCP tool 'browser_click' reported tool error/, bad.text);
      assert.ok(bad.text.includes('"text":"Error: browser_stale_ref — '), bad.text);
      assert.ok(bad.text.includes('Take a new browser_snapshot'), bad.text);
    },
    defers: true,
  },
};

testCLIs(CLIS, 'Copilot CLI and Qwen Code', options);
