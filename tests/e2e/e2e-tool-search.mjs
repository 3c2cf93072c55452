// SPDX-License-Identifier: GPL-3.0-or-later
//
// Found by search: Claude Code offers MCP tools only by name and makes the
// model load them with its ToolSearch tool, which searches Tabwright's tools
// beside the CLI's own (web fetch, web search, scheduling…). A model that
// has never heard of Tabwright searches in plain words. This test runs each
// request of fixtures/tool-search-requests.json through the real Claude Code
// (pinned in package.json), connected to the real Tabwright with the
// default tool set, with a scripted model (lib/model-server.mjs) that calls
// ToolSearch once per request; it reads the results the CLI sends back to
// the model and checks that the right browser_* tool ranks first. Where the
// file notes a known miss (a request that tool descriptions cannot win in
// Claude Code's scoring), the test fails once the right tool does rank
// first, so that the note goes.

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

// The tools a search result names, best first: Claude Code answers a
// keyword search with references to the tools it found.
function ranked(text) {
  return [...text.matchAll(/^tool_reference: (\S+)$/gm)].map((m) => m[1]);
}

test(`Claude Code's ToolSearch ranks the right Tabwright tool first for ${requests.length} plain-language requests`, options, async (t) => {
  const dirs = makeAppDirs('tabwright-e2e-search-');
  const home = path.join(dirs.root, 'home');
  fs.mkdirSync(home, { mode: 0o700 });
  const model = await startModelServer({ pageUrl: 'about:blank', queries: requests.map((r) => r.request) });
  model.release();
  let app;

  try {
    assert.ok(requests.length >= 40, 'at least 40 requests');
    app = await startTabwright({ dirs });
    const config = JSON.stringify({ mcpServers: { tabwright: { type: 'http', url: app.url, headers: { Authorization: `Bearer ${app.token}` } } } });
    const env = {
      ...app.env,
      HOME: home,
      PATH: `${BIN}${path.delimiter}${process.env.PATH}`,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'unused',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    };
    const result = await run('claude', ['-p', 'Find the browser tools for these tasks.', '--mcp-config', config],
      { env, cwd: dirs.workspace, timeoutMs: AGENT_WAIT_MS });
    assert.equal(result.code, 0, `Claude Code ran: ${result.stdout}\n${result.stderr}`);
    assert.deepEqual(model.state.failures, [], 'the model found ToolSearch and Tabwright\'s deferred tools');
    assert.equal(model.state.searches.length, requests.length, `every request was searched: ${result.stdout}`);

    const misses = [];
    const known = [];
    const fixed = [];
    requests.forEach(({ request, tool, knownMiss }, i) => {
      const found = ranked(model.state.searches[i].text);
      const line = `"${request}": wanted ${tool}, got ${found.join(', ') || model.state.searches[i].text}`;
      if (found[0] === `mcp__tabwright__${tool}`) {
        if (knownMiss)
          fixed.push(`"${request}" now finds ${tool} first: remove its knownMiss`);
      } else if (knownMiss) {
        known.push(`${line} (${knownMiss})`);
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
