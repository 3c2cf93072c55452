// SPDX-License-Identifier: GPL-3.0-or-later
//
// Found by search: Claude Code and Qwen Code offer MCP tools only by name and
// make the model load them with their tool search, which ranks Tabwright's
// tools beside the CLI's own (web fetch, web search, scheduling…), by the
// words of each tool's name, description and, in Claude Code, search hint
// (tools/list's _meta "anthropic/searchHint", which the model never sees).
// Codex, with the models of its catalog, offers them only through its
// tool_search, a BM25 ranking over each deferred tool's name, title,
// description, parameter names and the server's instructions, beside its
// own deferred tools (sub-agents); the title, which no CLI shows the model,
// is where Tabwright puts the words Codex's search needs. A model
// that has never heard of Tabwright searches in plain words. This test runs
// each request of fixtures/tool-search-requests.json through each real CLI
// (pinned in package.json), connected to the real Tabwright with the
// default tool set, with a scripted model (lib/model-server.mjs) that calls
// the CLI's search tool once per request; it reads the results the CLI
// sends back to the model and checks that the right browser_* tool ranks
// first. Where the file notes a known miss for a CLI (a request that tool
// descriptions cannot win in that CLI's scoring), the test fails once the
// right tool does rank first, so that the note goes.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { AGENT_WAIT_MS } from './lib/agents.mjs';
import { BIN } from './lib/clis.mjs';
import { startModelServer } from './lib/model-server.mjs';
import { makeAppDirs, requirementOptions, run, srcdir, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();
const { requests } = JSON.parse(fs.readFileSync(path.join(srcdir, 'tests', 'e2e', 'fixtures', 'tool-search-requests.json'), 'utf8'));
const PROMPT = 'Find the browser tools for these tasks.';
// A model of Codex's catalog for which Codex offers its tool_search tool.
const CODEX_SEARCH_MODEL = 'gpt-5.5';

const CLIS = {
  claude: {
    name: 'Claude Code',
    search: 'ToolSearch',
    command(app, model, home) {
      const config = { mcpServers: { tabwright: { type: 'http', url: app.url, headers: { Authorization: `Bearer ${app.token}` } } } };
      return {
        program: 'claude',
        args: ['-p', PROMPT, '--mcp-config', JSON.stringify(config)],
        env: {
          ANTHROPIC_BASE_URL: model.url,
          ANTHROPIC_API_KEY: 'unused',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          DISABLE_AUTOUPDATER: '1',
        },
      };
    },
    // Claude Code answers a keyword search with references to the tools it
    // found, best first.
    ranked: (text) => [...text.matchAll(/^tool_reference: (\S+)$/gm)].map((m) => m[1]),
  },
  codex: {
    name: 'Codex',
    search: 'tool_search',
    // Codex defers MCP tools behind its tool_search (BM25 over the deferred
    // tools' names, titles, descriptions and parameter names) for the
    // models of its catalog that support it, so the test names one. Its
    // default model runs in its code mode instead, which calls the tools
    // from JavaScript by name, with no search; with a model it does not
    // know ("scripted") it offers every MCP tool directly, as e2e-clis
    // tests.
    command(app, model, home) {
      fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
      fs.writeFileSync(path.join(home, '.codex', 'config.toml'), [
        `model = "${CODEX_SEARCH_MODEL}"`,
        'model_provider = "scripted"',
        '[model_providers.scripted]',
        'name = "Scripted"',
        `base_url = "${model.url}/v1"`,
        'wire_api = "responses"',
        '',
      ].join('\n'));
      return {
        program: 'codex',
        args: ['exec', '--skip-git-repo-check',
          '-c', `mcp_servers.tabwright.url="${app.url}"`,
          '-c', 'mcp_servers.tabwright.bearer_token_env_var="TABWRIGHT_MCP_TOKEN"',
          // Else the first request may go to the model before the server's
          // tools are listed, and the model sees no tabwright namespace.
          '-c', 'mcp_servers.tabwright.required=true',
          PROMPT],
        env: { TABWRIGHT_MCP_TOKEN: app.token },
      };
    },
    // Codex answers with the tools it found, best first (lib/model-server
    // lists them one a line).
    ranked: (text) => [...text.matchAll(/^tool: (\S+)$/gm)].map((m) => m[1]),
  },
  qwen: {
    name: 'Qwen Code',
    search: 'tool_search',
    command(app, model, home) {
      fs.mkdirSync(path.join(home, '.qwen'), { recursive: true });
      fs.writeFileSync(path.join(home, '.qwen', 'settings.json'), JSON.stringify({
        security: { auth: { selectedType: 'openai' } },
        model: { name: 'scripted' },
        general: { enableAutoUpdate: false },
        privacy: { usageStatisticsEnabled: false },
      }));
      const config = { mcpServers: { tabwright: { httpUrl: app.url, headers: { Authorization: `Bearer ${app.token}` } } } };
      return {
        program: 'qwen',
        args: ['--approval-mode', 'yolo', '--mcp-config', JSON.stringify(config), PROMPT],
        env: {
          OPENAI_BASE_URL: `${model.url}/v1`,
          OPENAI_API_KEY: 'unused',
          OPENAI_MODEL: 'scripted',
          QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
        },
      };
    },
    // Qwen Code answers with the declarations of the tools it found, best
    // first, one <function>{…"name":…} a line.
    ranked: (text) => [...text.matchAll(/^<function>\{.*?"name":"([^"]+)"/gm)].map((m) => m[1]),
  },
};

for (const [id, cli] of Object.entries(CLIS)) {
  test(`${cli.name}'s ${cli.search} ranks the right Tabwright tool first for ${requests.length} plain-language requests`, options, async (t) => {
    const dirs = makeAppDirs(`tabwright-e2e-search-${id}-`);
    const home = path.join(dirs.root, 'home');
    fs.mkdirSync(home, { mode: 0o700 });
    const model = await startModelServer({ pageUrl: 'about:blank', queries: requests.map((r) => r.request) });
    model.release();
    let app;

    try {
      assert.ok(requests.length >= 40, 'at least 40 requests');
      app = await startTabwright({ dirs });
      const { program, args, env } = cli.command(app, model, home);
      const result = await run(program, args, {
        env: { ...app.env, HOME: home, PATH: `${BIN}${path.delimiter}${process.env.PATH}`, ...env },
        cwd: dirs.workspace,
        timeoutMs: AGENT_WAIT_MS,
      });
      assert.equal(result.code, 0, `${cli.name} ran: ${result.stdout}\n${result.stderr}`);
      assert.deepEqual(model.state.failures, [], `the model found ${cli.search} and Tabwright's deferred tools`);
      assert.equal(model.state.searches.length, requests.length, `every request was searched: ${result.stdout}`);

      const misses = [];
      const known = [];
      const fixed = [];
      requests.forEach(({ request, tool, knownMiss }, i) => {
        const text = model.state.searches[i].text;
        const found = cli.ranked(text);
        const line = `"${request}": wanted ${tool}, got ${found.join(', ') || text}`;
        const note = knownMiss?.[id];
        if (found[0] === `mcp__tabwright__${tool}`) {
          if (note)
            fixed.push(`"${request}" now finds ${tool} first in ${cli.name}: remove its knownMiss.${id}`);
        } else if (note) {
          known.push(`${line} (${note})`);
        } else {
          misses.push(line);
        }
      });
      t.diagnostic(`${requests.length - misses.length - known.length} of ${requests.length} requests find the right tool first`);
      for (const line of known)
        t.diagnostic(`known miss: ${line}`);
      assert.deepEqual(misses, [], `${misses.length} of ${requests.length} requests found another tool first:\n${misses.join('\n')}`);
      assert.deepEqual(fixed, [], fixed.join('\n'));
    } finally {
      await app?.stop();
      await model.close();
    }
  });
}
