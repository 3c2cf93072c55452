// SPDX-License-Identifier: GPL-3.0-or-later
//
// Concurrent agents: S MCP sessions (official SDK clients), each with its own
// tab, and one tab they share; each session sends C browser_evaluate calls
// at once, one in five to the shared tab. Every call's function does about
// --work-ms of work in the page and returns what it was given, with the
// page's clock at its start and end. It prints, per configuration, how many
// replies arrived and were right, the latency percentiles, and where the time
// went: sending to the page (HTTP, parsing, the wait behind earlier calls on
// the same tab), the work in the page, and back. It also checks that calls
// on one tab never overlapped in the page, and counts the kernel's
// listen-queue overflows during the run. It prints figures and asserts none.
//
//   bench/run --concurrency [--configs 4x25,8x50] [--work-ms 5] [--json FILE]

import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

import { ensureDisplay } from './display.mjs';
import { connectClient } from '../tests/e2e/lib/mcp.mjs';
import { startTabwright } from '../tests/e2e/lib/tabwright.mjs';

const { values: opts } = parseArgs({
  options: {
    configs: { type: 'string', default: '4x25,8x50' },
    'work-ms': { type: 'string', default: '5' },
    'timeout-ms': { type: 'string', default: '120000' },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (opts.help) {
  console.log(fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(2, 15).join('\n').replaceAll('// ', ''));
  process.exit(0);
}

const CONFIGS = opts.configs.split(',').filter(Boolean).map((text) => {
  const [sessions, calls] = text.split('x').map(Number);
  return { sessions, calls };
});
const WORK_MS = Number(opts['work-ms']);
const TIMEOUT_MS = Number(opts['timeout-ms']);
const SHARED_EVERY = 5;

const cleanups = [];
function log(message) {
  process.stderr.write(`bench: ${message}\n`);
}

function percentile(samples, p) {
  if (samples.length === 0)
    return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

function summary(samples) {
  return {
    n: samples.length,
    p50: percentile(samples, 0.5),
    p90: percentile(samples, 0.9),
    p99: percentile(samples, 0.99),
    max: samples.length ? Math.max(...samples) : NaN,
  };
}

// TcpExt ListenOverflows, machine-wide: other programs count too.
function listenOverflows() {
  try {
    const lines = fs.readFileSync('/proc/net/netstat', 'utf8').split('\n').filter((l) => l.startsWith('TcpExt:'));
    const names = lines[0].split(/\s+/);
    const values = lines[1].split(/\s+/);
    return Number(values[names.indexOf('ListenOverflows')]);
  } catch {
    return NaN;
  }
}


async function newTab(client) {
  const result = await client.callTool({ name: 'browser_new_tab', arguments: {} });
  if (result.isError)
    throw new Error(`browser_new_tab failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent.browserId;
}

// The page's clock (Date.now()) is the wall clock this process reads too.
function evaluateSource(nonce) {
  return `() => { const start = Date.now(); let spin = 0;
    while (Date.now() - start < ${WORK_MS}) spin++;
    return { nonce: ${JSON.stringify(nonce)}, start, end: Date.now() }; }`;
}

async function runConfig(app, { sessions, calls }) {
  const clients = [];
  for (let s = 0; s < sessions; s++) {
    const client = await connectClient(app, `tabwright-concurrency-${s}`);
    clients.push({ client, tab: await newTab(client) });
  }
  const shared = await newTab(clients[0].client);

  // Warm up every tab once, so the first call does not pay for a page.
  await Promise.all(clients.map(({ client, tab }) => client.callTool({
    name: 'browser_evaluate', arguments: { browserId: tab, function: '() => 1' },
  })));
  await clients[0].client.callTool({ name: 'browser_evaluate', arguments: { browserId: shared, function: '() => 1' } });

  const overflowsBefore = listenOverflows();
  const records = [];
  const started = performance.now();
  await Promise.all(clients.flatMap(({ client, tab }, s) => Array.from({ length: calls }, async (_, i) => {
    const browserId = i % SHARED_EVERY === 0 ? shared : tab;
    const nonce = `s${s}c${i}`;
    const record = { session: s, browserId, shared: browserId === shared, nonce, sent: Date.now() };
    records.push(record);
    try {
      const result = await client.callTool(
        { name: 'browser_evaluate', arguments: { browserId, function: evaluateSource(nonce) } },
        undefined, { timeout: TIMEOUT_MS });
      record.received = Date.now();
      const value = result.structuredContent?.result;
      record.ok = !result.isError && value?.nonce === nonce;
      if (record.ok) {
        record.start = value.start;
        record.end = value.end;
      } else {
        record.error = result.isError ? result.content?.[0]?.text : `wrong result ${JSON.stringify(value)}`;
      }
    } catch (error) {
      record.received = Date.now();
      record.ok = false;
      record.error = error.message;
    }
  })));
  const wallMs = performance.now() - started;
  const overflows = listenOverflows() - overflowsBefore;

  for (const { client, tab } of clients) {
    await client.callTool({ name: 'browser_close_tab', arguments: { browserId: tab } }).catch(() => {});
  }
  await clients[0].client.callTool({ name: 'browser_close_tab', arguments: { browserId: shared } }).catch(() => {});
  await Promise.all(clients.map(({ client }) => client.close()));

  const ok = records.filter((r) => r.ok);
  // The first call to reach each tab waited for nobody: its time to the page
  // is transport alone; later calls waited behind it for the rest.
  const firstToPage = new Map();
  for (const r of [...ok].sort((a, b) => a.start - b.start)) {
    if (!firstToPage.has(r.browserId))
      firstToPage.set(r.browserId, r.start - r.sent);
  }
  const part = (filter, fn) => summary(ok.filter(filter).map(fn));
  const all = () => true;

  // Calls on one tab must run one at a time in the page.
  let overlaps = 0;
  const byTab = new Map();
  for (const r of ok) {
    if (!byTab.has(r.browserId))
      byTab.set(r.browserId, []);
    byTab.get(r.browserId).push(r);
  }
  // The cost of one call on a tab, whatever it waits for besides the work:
  // from one call's start in the page to the next one's, while calls queue.
  const cycles = [];
  for (const list of byTab.values()) {
    list.sort((a, b) => a.start - b.start);
    for (let i = 1; i < list.length; i++) {
      if (list[i].start < list[i - 1].end)
        overlaps++;
      if (list[i].sent < list[i - 1].start)
        cycles.push(list[i].start - list[i - 1].start);
    }
  }

  // How many tabs ran work at the same moment, at most.
  const events = ok.flatMap((r) => [[r.start, 1], [r.end, -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let running = 0;
  let parallelTabs = 0;
  for (const [, delta] of events) {
    running += delta;
    parallelTabs = Math.max(parallelTabs, running);
  }

  return {
    sessions,
    calls,
    total: records.length,
    replies: records.filter((r) => r.received !== undefined && !/timed out|timeout/i.test(r.error ?? '')).length,
    right: ok.length,
    errors: records.filter((r) => !r.ok).slice(0, 5).map((r) => `${r.nonce}: ${r.error}`),
    wallMs,
    listenOverflows: overflows,
    overlapsOnOneTab: overlaps,
    maxParallelInPage: parallelTabs,
    latency: part(all, (r) => r.received - r.sent),
    latencyOwnTab: part((r) => !r.shared, (r) => r.received - r.sent),
    latencySharedTab: part((r) => r.shared, (r) => r.received - r.sent),
    toPage: part(all, (r) => r.start - r.sent),
    inPage: part(all, (r) => r.end - r.start),
    back: part(all, (r) => r.received - r.end),
    tabCycle: summary(cycles),
    queueWait: part(all, (r) => r.start - r.sent - (firstToPage.get(r.browserId) ?? 0)),
  };
}

function fmt(s) {
  const n = (v) => (Number.isNaN(v) ? '-' : v.toFixed(0).padStart(6));
  return `p50 ${n(s.p50)}  p90 ${n(s.p90)}  p99 ${n(s.p99)}  max ${n(s.max)} ms  (n=${s.n})`;
}

function print(r) {
  console.log(`\n${r.sessions} sessions × ${r.calls} concurrent browser_evaluate (${WORK_MS} ms of work each), one in ${SHARED_EVERY} on a shared tab`);
  console.log(`  replies ${r.replies}/${r.total}, right ${r.right}/${r.total}, wall ${r.wallMs.toFixed(0)} ms`);
  console.log(`  listen-queue overflows (machine-wide) during the run: ${r.listenOverflows}`);
  console.log(`  calls on one tab overlapping in the page: ${r.overlapsOnOneTab}; most work running at once: ${r.maxParallelInPage}`);
  console.log(`  latency, all       ${fmt(r.latency)}`);
  console.log(`  latency, own tab   ${fmt(r.latencyOwnTab)}`);
  console.log(`  latency, shared    ${fmt(r.latencySharedTab)}`);
  console.log('  where the time goes:');
  console.log(`    to the page      ${fmt(r.toPage)}   (HTTP, parsing, waiting behind calls on the same tab)`);
  console.log(`      of which queued ${fmt(r.queueWait)}   (behind calls on the same tab, estimated)`);
  console.log(`    in the page      ${fmt(r.inPage)}`);
  console.log(`    back             ${fmt(r.back)}   (result to JSON, HTTP, the SDK)`);
  console.log(`  one call on a tab, start to next start: ${fmt(r.tabCycle)}`);
  console.log(`  target: every reply, p99 under 2000 ms: ${r.right === r.total && r.latency.p99 < 2000 ? 'met' : 'NOT met'}`);
  for (const e of r.errors)
    console.log(`  error: ${e}`);
}

async function main() {
  const env = await ensureDisplay(log, cleanups);
  const app = await startTabwright({ env });
  cleanups.push(() => app.stop());
  const results = [];
  for (const config of CONFIGS) {
    log(`running ${config.sessions}x${config.calls}`);
    const result = await runConfig(app, config);
    print(result);
    results.push(result);
  }
  if (opts.json)
    fs.writeFileSync(opts.json, JSON.stringify({ workMs: WORK_MS, results }, null, 2));
}

try {
  await main();
} finally {
  for (const cleanup of cleanups.reverse())
    await cleanup();
}
