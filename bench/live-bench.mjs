// SPDX-License-Identifier: GPL-3.0-or-later
//
// What live pages cost and how fast they answer, through the official MCP
// SDK client against a real Tabwright: the round trip of browser_scroll and
// browser_resize on a background tab, with how many of those results the
// page had seen the change for (its scroll or resize listener ran) when the
// next call read its counters; and the CPU use and PSS memory of the app
// and its web processes with 10 idle background tabs, static pages and
// pages running an animation-frame loop. Figures are printed, nothing is
// asserted.
//
//   bench/run --live [--calls 30] [--tabs 10] [--idle-seconds 10] [--json FILE]

import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

import { TICKS, family, pss, readStat, tabwrightKind as kind } from '../tests/e2e/lib/processes.mjs';
import { startFixtureServer } from '../tests/e2e/lib/fixture-server.mjs';
import { connectClient, resultText } from '../tests/e2e/lib/mcp.mjs';
import { startTabwright } from '../tests/e2e/lib/tabwright.mjs';

const { values: opts } = parseArgs({
  options: {
    live: { type: 'boolean' },
    calls: { type: 'string', default: '30' },
    tabs: { type: 'string', default: '10' },
    'idle-seconds': { type: 'string', default: '10' },
    json: { type: 'string' },
  },
});
const CALLS = Number(opts.calls);
const TABS = Number(opts.tabs);
const IDLE_MS = Number(opts['idle-seconds']) * 1000;

function log(message) {
  process.stderr.write(`live-bench: ${message}\n`);
}

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError)
    throw new Error(`${name} failed: ${resultText(result)}`);
  return result.structuredContent;
}

async function evaluate(client, browserId, fn) {
  return (await call(client, 'browser_evaluate', { browserId, function: fn })).result;
}

// CPU (% of one core) and PSS (MiB) over an idle period, per kind of process.
async function measureIdle(rootPid) {
  const before = new Map(family(rootPid).map((pid) => [pid, readStat(pid)]));
  const start = performance.now();
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const seconds = (performance.now() - start) / 1000;
  const out = {};
  for (const pid of family(rootPid)) {
    const now = readStat(pid);
    if (!now || now.comm.startsWith('dbus') || now.comm.startsWith('xdg-dbus'))
      continue;
    const k = kind(pid, rootPid, now.comm);
    out[k] ??= { cpu: 0, pss: 0, processes: 0, names: {} };
    out[k].names[now.comm] = (out[k].names[now.comm] ?? 0) + 1;
    const was = before.get(pid);
    out[k].cpu += (now.cpu - (was ? was.cpu : 0)) / TICKS / seconds * 100;
    out[k].pss += pss(pid) / 1024;
    out[k].processes++;
  }
  return out;
}

// --- the run ---

const fixtures = await startFixtureServer();
const app = await startTabwright();
const client = await connectClient(app, 'tabwright-live-bench');
const results = {};
try {
  const { browserId: screenId } = await call(client, 'browser_new_tab', { url: fixtures.url('/page?title=On%20screen') });

  // Round trips, in a background tab.
  const { browserId: id } = await call(client, 'browser_new_tab', { url: fixtures.url('/live/counters.html') });
  for (const [tool, args, counter] of [
    ['browser_scroll', (i) => ({ browserId: id, deltaX: 0, deltaY: i % 2 ? -200 : 200 }), 'scroll'],
    ['browser_resize', (i) => (i % 2 ? { browserId: id, width: 1024, height: 768 } : { browserId: id, width: 390, height: 844 }), 'resize'],
  ]) {
    const samples = [];
    let seen = 0;
    for (let i = 0; i < CALLS; i++) {
      const was = await evaluate(client, id, `() => seen.${counter}`);
      const t0 = performance.now();
      await call(client, tool, args(i));
      samples.push(performance.now() - t0);
      if (await evaluate(client, id, `() => seen.${counter}`) > was)
        seen++;
    }
    results[tool] = { median: percentile(samples, 0.5), p90: percentile(samples, 0.9), seen, calls: CALLS };
    log(`${tool}: done`);
  }
  await call(client, 'browser_close_tab', { browserId: id });

  // Idle background tabs: static, then running an animation-frame loop.
  for (const [name, page] of [['static', '/live/counters.html'], ['frames', '/live/counters.html?frames']]) {
    const ids = [];
    let failed = 0;
    for (let i = 0; i < TABS; i++) {
      try {
        ids.push((await call(client, 'browser_new_tab', { url: fixtures.url(page) })).browserId);
      } catch (error) {
        // A tab that did not load in time stays open and counts as idle.
        failed++;
        log(`tab ${i + 1}: ${error.message}`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const f0 = await evaluate(client, ids[0], '() => seen.frames');
    results[`idle-${name}`] = await measureIdle(app.pid);
    const f1 = await evaluate(client, ids[0], '() => seen.frames');
    results[`idle-${name}`].framesPerSecond = (f1 - f0) / (IDLE_MS / 1000);
    results[`idle-${name}`].slowTabs = failed;
    // Every tab but the one on screen, those that loaded late included.
    for (const tab of (await call(client, 'browser_list_tabs', {})).tabs ?? []) {
      if (tab.browserId !== screenId)
        await call(client, 'browser_close_tab', { browserId: tab.browserId });
    }
    log(`idle ${name}: done`);
  }
} finally {
  await client.close();
  await app.stop();
  await fixtures.close();
}

const ms = (v) => `${v.toFixed(1)} ms`;
console.log(`\nLive pages on ${os.cpus().length} CPUs (load ${os.loadavg()[0].toFixed(1)}), ${CALLS} calls, ${TABS} background tabs, ${IDLE_MS / 1000} s idle`);
for (const tool of ['browser_scroll', 'browser_resize']) {
  const r = results[tool];
  console.log(`  ${tool.padEnd(16)} median ${ms(r.median)}, p90 ${ms(r.p90)}; the page had seen the change after ${r.seen}/${r.calls}`);
}
for (const name of ['static', 'frames']) {
  const r = results[`idle-${name}`];
  const parts = ['app', 'web', 'network', 'other'].filter((k) => r[k]).map((k) =>
    `${k} ${r[k].cpu.toFixed(1)}% CPU, ${r[k].pss.toFixed(0)} MiB PSS (${r[k].processes})`);
  const slow = r.slowTabs ? ` (${r.slowTabs} tabs did not load within 30 s)` : '';
  console.log(`  ${TABS} idle tabs, ${name.padEnd(6)} ${parts.join('; ')}; ${r.framesPerSecond.toFixed(1)} animation frames/s in a background tab${slow}`);
}
if (opts.json)
  fs.writeFileSync(opts.json, JSON.stringify(results, null, 2));
