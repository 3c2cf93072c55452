// SPDX-License-Identifier: GPL-3.0-or-later
//
// Many agents, one workspace (issue 32): A agents the app launched, each
// with a token of its own behind an official MCP SDK client, each opening T
// tabs and working in all of them at once on a scripted task (read the
// page, fill a field with a line naming the agent, tab and round, press
// Add), R rounds per tab. Every agent also tries once to act on another
// agent's tab, which must be refused. At the end the person's client reads
// every tab: each line on it must be one its own agent wrote there. It
// prints, per agent, the calls made and their p50/p99 latency, and how many
// actions landed in another agent's tab (0 unless something is wrong; then
// it exits 1). Calls that fail are counted per agent and the task goes on.
//
//   bench/run --agents [--agents-count 4] [--tabs 3] [--rounds 10] [--json FILE]

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

import { ensureDisplay } from './display.mjs';
import { percentile } from './servers.mjs';
import { readToken, tokenAgent, waitFor } from '../tests/e2e/lib/agents.mjs';
import { listenOnLoopback } from '../tests/e2e/lib/fixture-server.mjs';
import { connectClient, refIn, resultText } from '../tests/e2e/lib/mcp.mjs';
import { makeAppDirs, startTabwright } from '../tests/e2e/lib/tabwright.mjs';

const { values: opts } = parseArgs({
  options: {
    'agents-count': { type: 'string', default: '4' },
    tabs: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '10' },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (opts.help) {
  console.log(fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(2, 15).join('\n').replaceAll('// ', ''));
  process.exit(0);
}

const AGENTS = Number(opts['agents-count']);
const TABS = Number(opts.tabs);
const ROUNDS = Number(opts.rounds);

const cleanups = [];
function log(message) {
  process.stderr.write(`bench: ${message}\n`);
}

const TASK_PAGE = (title) => `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><main><h1>${title}</h1>
<label>Item <input id="item"></label>
<button type="button" id="add">Add</button>
<ul id="list"></ul>
<script>
document.getElementById('add').addEventListener('click', () => {
  const item = document.getElementById('item');
  const li = document.createElement('li');
  li.textContent = item.value;
  document.getElementById('list').append(li);
  item.value = '';
});
</script></main></body></html>`;

async function startTaskServer() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const title = (url.searchParams.get('title') ?? 'Task').replace(/[^\w -]/g, '');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(TASK_PAGE(title));
  });
  const base = await listenOnLoopback(server);
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  return base;
}

// A call, timed; a failed one is counted and told, and the task goes on.
async function timed(agent, name, args) {
  const start = performance.now();
  const result = await agent.client.callTool({ name, arguments: args });
  agent.samples.push(performance.now() - start);
  if (result.isError) {
    agent.errors++;
    log(`agent ${agent.index + 1}: ${name} failed: ${resultText(result).split('\n')[0]}`);
    return null;
  }
  return result;
}

// One tab's scripted task: R rounds of read, fill, press Add.
async function workTab(agent, tab) {
  const snapshot = resultText(await timed(agent, 'browser_snapshot', { browserId: tab.browserId, interactive: true }));
  const field = refIn(snapshot, 'textbox "Item"');
  const button = refIn(snapshot, 'button "Add"');
  for (let round = 0; round < ROUNDS; round++) {
    const line = `${tab.title} round ${round}`;
    await timed(agent, 'browser_snapshot', { browserId: tab.browserId, interactive: true });
    if (!await timed(agent, 'browser_fill', { browserId: tab.browserId, ref: field, value: line }))
      continue;
    if (await timed(agent, 'browser_click', { browserId: tab.browserId, ref: button }))
      tab.written.push(line);
  }
}

try {
  const env = await ensureDisplay(log, cleanups);
  const base = await startTaskServer();
  const dirs = makeAppDirs('tabwright-bench-agents-');
  cleanups.push(() => fs.rmSync(dirs.root, { recursive: true, force: true }));
  const files = Array.from({ length: AGENTS }, (_, i) => path.join(dirs.root, `agent-${i}.token`));
  const app = await startTabwright({ dirs, env, args: files.flatMap((file) => ['--launch-agent', tokenAgent(file, 'custom', 3600)]) });
  cleanups.push(() => app.stop());

  const agents = [];
  for (let i = 0; i < AGENTS; i++) {
    const token = await waitFor(`agent ${i + 1}'s token`, () => readToken(files[i]), app, 120000);
    const client = await connectClient({ ...app, token }, `bench-agent-${i + 1}`);
    cleanups.push(() => client.close());
    agents.push({ index: i, client, samples: [], errors: 0, tabs: [], refused: 0 });
  }
  const person = await connectClient(app, 'bench-person');
  cleanups.push(() => person.close());
  log(`${AGENTS} agents × ${TABS} tabs × ${ROUNDS} rounds`);

  const started = performance.now();
  // Every agent opens its tabs, all at once.
  await Promise.all(agents.map(async (agent) => {
    for (let t = 0; t < TABS; t++) {
      const title = `Agent ${agent.index + 1} tab ${t + 1}`;
      const result = await timed(agent, 'browser_new_tab', { url: `${base}/task?title=${encodeURIComponent(title)}` });
      if (result === null)
        throw new Error(`agent ${agent.index + 1} could not open a tab`);
      agent.tabs.push({ browserId: result.structuredContent.browserId, title, written: [] });
    }
  }));

  // Then works in all of its tabs at once, while the others do the same;
  // and tries once to act in the next agent's first tab.
  await Promise.all(agents.flatMap((agent) => [
    ...agent.tabs.map((tab) => workTab(agent, tab)),
    (async () => {
      const other = agents[(agent.index + 1) % AGENTS].tabs[0];
      const result = await agent.client.callTool({ name: 'browser_click', arguments: { browserId: other.browserId, ref: '@e1' } });
      if (result.isError && result.structuredContent?.error?.code === 'browser_denied')
        agent.refused++;
    })(),
  ]));
  const wallMs = performance.now() - started;

  // The person reads every tab: only its own agent's lines may be there.
  let misplaced = 0;
  let missing = 0;
  for (const agent of agents) {
    for (const tab of agent.tabs) {
      const result = await person.callTool({
        name: 'browser_evaluate',
        arguments: { browserId: tab.browserId, function: '() => [document.title, ...[...document.querySelectorAll("#list li")].map((li) => li.textContent)]' },
      });
      const value = result.structuredContent.result;
      const [title, ...lines] = typeof value === 'string' ? JSON.parse(value) : value;
      if (title !== tab.title)
        misplaced++;
      misplaced += lines.filter((line) => !line.startsWith(`${tab.title} round `)).length;
      missing += tab.written.filter((line) => !lines.includes(line)).length;
    }
  }

  const rows = agents.map((agent) => ({
    agent: agent.index + 1,
    calls: agent.samples.length,
    errors: agent.errors,
    p50: percentile(agent.samples, 0.5),
    p99: percentile(agent.samples, 0.99),
    refusedOnOthersTab: agent.refused === 1,
  }));
  console.log(`${AGENTS} agents × ${TABS} tabs × ${ROUNDS} rounds, ${(wallMs / 1000).toFixed(1)} s in all`);
  console.log('agent  calls  failed    p50 ms    p99 ms  refused on another\'s tab');
  for (const row of rows)
    console.log(`${String(row.agent).padStart(5)}  ${String(row.calls).padStart(5)}  ${String(row.errors).padStart(6)}  ${row.p50.toFixed(1).padStart(8)}  ${row.p99.toFixed(1).padStart(8)}  ${row.refusedOnOthersTab ? 'yes' : 'NO'}`);
  console.log(`actions that landed in another agent's tab: ${misplaced}; actions missing from their own tab: ${missing}`);

  if (opts.json)
    fs.writeFileSync(opts.json, JSON.stringify({ agents: AGENTS, tabs: TABS, rounds: ROUNDS, wallMs, rows, misplaced, missing }, null, 2));
  if (misplaced > 0 || missing > 0 || rows.some((row) => !row.refusedOnOthersTab))
    process.exitCode = 1;
} finally {
  for (const cleanup of cleanups.reverse())
    await Promise.resolve().then(cleanup).catch(() => {});
}
