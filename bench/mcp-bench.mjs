// SPDX-License-Identifier: GPL-3.0-or-later
//
// Compares Tabwright with Playwright MCP, both driven by the official MCP SDK
// client on this machine: round trips of a cheap call (also over raw
// keep-alive HTTP, which shows the server without the SDK's own cost),
// opening a tab on a local page, clicks that change a button's text (at
// once, or from a 30 ms timer), waits for text, snapshots of generated
// app-like pages and of a page of 200,000 elements, and how soon the stdio
// server exits once its input closes. It prints figures and checks that
// every click reached the page and every control is in the snapshots; it
// asserts no times.
//
//   bench/run [--calls 200] [--tabs 20] [--clicks 50] [--snapshots 5]
//             [--rows 20,500,3000] [--huge 200000] [--waits 20]
//             [--diff-after-click 0] [--row-changes 0]
//             [--only tabwright|playwright] [--json FILE]

import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import {
  call, ms, percentile, printComparison, runBench, startPlaywrightClient as startPwClient,
  startTabwrightClient as startTwClient, time,
} from './servers.mjs';
import { startFixtureServer } from '../tests/e2e/lib/fixture-server.mjs';
import { resultText } from '../tests/e2e/lib/mcp.mjs';
import { tableRowElements } from '../tests/e2e/lib/pages.mjs';
import { bridgeBinary } from '../tests/e2e/lib/tabwright.mjs';

const { values: opts } = parseArgs({
  options: {
    calls: { type: 'string', default: '200' },
    tabs: { type: 'string', default: '20' },
    clicks: { type: 'string', default: '50' },
    snapshots: { type: 'string', default: '5' },
    rows: { type: 'string', default: '20,500,3000' },
    huge: { type: 'string', default: '200000' },
    waits: { type: 'string', default: '20' },
    'diff-after-click': { type: 'string', default: '0' },
    'row-changes': { type: 'string', default: '0' },
    only: { type: 'string' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (opts.help) {
  console.log(fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(2, 16).join('\n').replaceAll('// ', ''));
  process.exit(0);
}

const CALLS = Number(opts.calls);
const TABS = Number(opts.tabs);
const CLICKS = Number(opts.clicks);
const CLICK_WARMUP = 5;
const SNAPSHOTS = Number(opts.snapshots);
const ROWS = opts.rows.split(',').filter(Boolean).map(Number);
const HUGE = Number(opts.huge);
const WAITS = Number(opts.waits);
// Rounds of a click and, at once, diff=true on each table page (Tabwright).
const DIFF_AFTER_CLICK = Number(opts['diff-after-click']);
const THINK_MS = 300;
// Rounds of a row added by script then diff=true, and of that row removed
// then diff=true, on each table page (Tabwright).
const ROW_CHANGES = Number(opts['row-changes']);
// How long after a wait starts the text it waits for shows, and how many
// such waits are timed.
const LATE_TEXT_MS = 500;
const LATE_WAITS = 5;
// The limit of the wait on a page whose script never yields.
const BUSY_WAIT_MS = 1000;
const RUN_TW = opts.only !== 'playwright';
const RUN_PW = opts.only !== 'tabwright';

const cleanups = [];
function log(message) {
  process.stderr.write(`bench: ${message}\n`);
}

const startTabwrightClient = () => startTwClient(log, cleanups);
const startPlaywrightClient = () => startPwClient(opts.chromium, cleanups);

// A JSON-RPC client over one keep-alive HTTP connection, with nothing of
// the SDK: what remains of a round trip is the server and the loopback.
async function rawClient(app) {
  const url = new URL(app.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let session = null;
  let nextId = 1;
  const post = (body) => new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const headers = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      Authorization: `Bearer ${app.token}`,
      'Content-Length': Buffer.byteLength(data),
    };
    if (session) {
      headers['Mcp-Session-Id'] = session;
      headers['Mcp-Protocol-Version'] = '2025-06-18';
    }
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ res, text }));
    });
    req.setNoDelay(true);
    req.on('error', reject);
    req.end(data);
  });
  const { res } = await post({
    jsonrpc: '2.0', id: 0, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'tabwright-bench-raw', version: '1.0.0' } },
  });
  session = res.headers['mcp-session-id'];
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    async call(name, args = {}) {
      const { res: reply, text } = await post({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } });
      const message = JSON.parse(text);
      if (reply.statusCode !== 200 || message.error || message.result?.isError)
        throw new Error(`${name} failed over raw HTTP: ${text.slice(0, 200)}`);
      return message.result;
    },
    close() {
      agent.destroy();
    },
  };
}

// The buttons keep their accessible names (aria-label) while their text
// counts the clicks, so one ref serves every click on both servers. "Later"
// counts from a 30 ms timer: the click returns once that has run.
const CLICK_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Click bench</title></head>
<body><main><h1>Click bench</h1>
<button id="count" aria-label="Count" onclick="this.textContent = 'Clicked ' + (++window.clicks) + ' times'">Clicked 0 times</button>
<button id="later" aria-label="Later" onclick="setTimeout(() => { this.textContent = 'Later ' + (++window.later); }, 30)">Later 0</button>
<p id="note"></p>
</main><script>window.clicks = 0; window.later = 0;</script></body></html>`;

// Shows @text in the click page's note @ms after it is called.
const showLater = (text, ms) => `() => { setTimeout(() => { document.getElementById('note').textContent = ${JSON.stringify(text)}; }, ${ms}); return 1; }`;
// Keeps the page's only thread busy for 8 s, from just after it returns.
const SPIN = '() => { setTimeout(() => { const end = Date.now() + 8000; while (Date.now() < end); }, 0); return 1; }';

async function startClickPageServer() {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(CLICK_PAGE);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return `http://127.0.0.1:${server.address().port}/`;
}

// --- the measurements ---

// Each click returns once it has happened and the page has settled, so the
// figure is what an agent waits per click. The page must count every one.
async function clickRuns(label, click, count) {
  for (let i = 0; i < CLICK_WARMUP; i++)
    await click();
  const samples = [];
  for (let i = 0; i < CLICKS; i++)
    samples.push((await time(click)).ms);
  const clicks = await count();
  if (clicks !== CLICK_WARMUP + CLICKS)
    throw new Error(`${label}: the page counted ${clicks} clicks, not ${CLICK_WARMUP + CLICKS}`);
  log(`${label}: ${CLICKS} clicks done`);
  return samples;
}

// Waits for text on the click page: text it shows already (WAITS times),
// and text it shows LATE_TEXT_MS after the wait starts, timed as how much
// later than that the wait returns.
async function waitRuns(label, waitFor, evaluate) {
  const already = [];
  for (let i = 0; i < WAITS; i++)
    already.push((await time(() => waitFor('Click bench'))).ms);
  const late = [];
  for (let i = 0; i < LATE_WAITS; i++) {
    const text = `Shown late ${i}`;
    const { ms } = await time(async () => {
      await evaluate(showLater(text, LATE_TEXT_MS));
      await waitFor(text);
    });
    late.push(ms - LATE_TEXT_MS);
  }
  log(`${label}: waits done`);
  return { already, late };
}

// The first snapshot of a page of HUGE elements, with each server's own
// default reply (Tabwright's is cut at its default size, with a cursor).
async function hugeRun(label, open, snapshot, close) {
  let handle;
  try {
    handle = await open();
    const { ms, value } = await time(() => snapshot(handle));
    log(`${label}: snapshot of ${HUGE} elements done`);
    return { ms, chars: value.length };
  } catch (error) {
    return failed(label, `${HUGE} elements`, error);
  } finally {
    await close(handle).catch(() => {});
  }
}

// How long a stdio server takes to exit once its input closes: the SDK's
// close() resolves when the process has exited (or signals it after 2 s).
async function stdioExit(client) {
  return (await time(() => client.close())).ms;
}

async function startBridgeClient(app) {
  const transport = new StdioClientTransport({
    command: bridgeBinary(),
    args: ['--workspace', app.dirs.workspace],
    env: { XDG_RUNTIME_DIR: app.dirs.runtime },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'tabwright-bench-bridge', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function cheapCalls(label, fn) {
  for (let i = 0; i < 10; i++)
    await fn();
  const samples = [];
  for (let i = 0; i < CALLS; i++)
    samples.push((await time(fn)).ms);
  log(`${label}: ${CALLS} cheap calls done`);
  return samples;
}

async function tabOpens(label, open, close) {
  await close(await open());
  const samples = [];
  for (let i = 0; i < TABS; i++) {
    const { ms, value } = await time(open);
    samples.push(ms);
    await close(value);
  }
  log(`${label}: ${TABS} tab opens done`);
  return samples;
}

// Parses `- role "name"` lines of an accessibility tree (both servers use
// this YAML-like form) into a set of "role|name" keys.
function treeElements(text) {
  const found = new Set();
  for (const match of text.matchAll(/^\s*- ([a-z]+) "((?:[^"\\]|\\.)*)"/gm))
    found.add(`${match[1]}|${match[2]}`);
  return found;
}

function missingElements(text, rows) {
  const found = treeElements(text);
  let missing = 0;
  let example = null;
  for (let i = 1; i <= rows; i++) {
    for (const { role, name } of tableRowElements(i)) {
      if (!found.has(`${role}|${name}`)) {
        missing++;
        example ??= `${role} "${name}"`;
      }
    }
  }
  return { missing, example, expected: rows * 4 };
}

// Tabwright: the whole snapshot, asked for in one reply of up to
// 1,000,000 characters (the largest maxChars),
// following the cursor that ends a reply cut short.
async function tabwrightSnapshot(client, browserId) {
  let text = '';
  let cursor = null;
  do {
    const result = await call(client, 'browser_snapshot', { browserId, maxChars: 1000000, ...(cursor ? { cursor } : {}) });
    const part = resultText(result);
    text += part;
    cursor = result.structuredContent?.nextCursor ?? /with cursor "([^"]+)" to continue\s*$/.exec(part)?.[1] ?? null;
  } while (cursor);
  return text;
}

// Playwright MCP answers with the tree in a YAML block, or a link to a file
// in its output folder for large pages.
async function playwrightSnapshot(pw) {
  const result = await call(pw.client, 'browser_snapshot');
  const text = resultText(result);
  const link = /\]\(([^)]+\.yml)\)/.exec(text);
  if (link && !text.includes('```yaml')) {
    const file = path.isAbsolute(link[1]) ? link[1] : path.join(pw.dir, link[1]);
    return fs.readFileSync(file, 'utf8');
  }
  return text;
}

// After the repeated snapshots of the unchanged page: one click that
// changes one row (the first row's checkbox), then a snapshot, SNAPSHOTS
// times. Tabwright also answers diff=true: of the unchanged page, and
// after such a click, with the diff's size beside the full snapshot's.
function rowRef(text, pattern) {
  const line = text.split('\n').find((l) => l.includes('checkbox "Select item 1"'));
  return line ? pattern.exec(line)?.[1] : undefined;
}

// The calls on @browserId that the app's timeline recorded, oldest first:
// their time in the app, without HTTP and the SDK client, and when the
// picture after each action was asked for. Its lines are written once each
// call's pictures are in.
async function timelineSteps(dirs, browserId) {
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const files = fs.readdirSync(dirs.data, { recursive: true })
    .filter((name) => name.endsWith('.jsonl') && path.basename(path.dirname(name)) === 'timeline');
  const steps = files.flatMap((name) => fs.readFileSync(path.join(dirs.data, name), 'utf8').split('\n')
    .filter(Boolean).map((line) => JSON.parse(line)));
  return steps.filter((s) => s.browserId === browserId).sort((a, b) => a.seq - b.seq);
}

// When a timeline step's call ended, in milliseconds, to the microsecond.
function stepEnd(step) {
  const fraction = /\.(\d+)/.exec(step.time);
  return Date.parse(step.time.replace(/\.\d+/, '')) + (fraction ? Number(`0.${fraction[1]}`) * 1000 : 0) + step.durationMs;
}

async function tabwrightChanges(client, browserId, text, dirs) {
  const ref = rowRef(text, / (@e\d+)/);
  const out = { afterClick: [], diffUnchanged: [], diffAfterClick: [], diffChars: 0 };
  const snap = (extra) => call(client, 'browser_snapshot', { browserId, maxChars: 1000000, ...extra });
  for (let i = 0; i < SNAPSHOTS; i++) {
    await call(client, 'browser_click', { browserId, ref });
    out.afterClick.push((await time(() => snap({}))).ms);
    out.diffUnchanged.push((await time(() => snap({ diff: true }))).ms);
    await call(client, 'browser_click', { browserId, ref });
    const { ms, value } = await time(() => snap({ diff: true }));
    out.diffAfterClick.push(ms);
    out.diffChars = resultText(value).length;
  }
  // An agent that reads what its click changed in the same turn, as agent
  // programs do: the diff is sent as soon as the click has answered. In
  // turn with it, one that thinks first: the diff sent THINK_MS later,
  // when nothing the click started is left.
  out.clickThenDiff = [];
  out.diffAtOnce = [];
  out.diffAfterThinking = [];
  for (let i = 0; i < DIFF_AFTER_CLICK; i++) {
    out.clickThenDiff.push((await time(() => call(client, 'browser_click', { browserId, ref }))).ms);
    out.diffAtOnce.push((await time(() => snap({ diff: true }))).ms);
    await call(client, 'browser_click', { browserId, ref });
    await new Promise((resolve) => setTimeout(resolve, THINK_MS));
    out.diffAfterThinking.push((await time(() => snap({ diff: true }))).ms);
  }
  // Rows that come and go, as an agent adding or deleting an item makes
  // them: a row inserted by script near the top, then diff=true; the same
  // row removed, then diff=true. The page ends as it was.
  out.diffAfterAdd = [];
  out.diffAfterRemove = [];
  out.addChars = 0;
  for (let i = 0; i < ROW_CHANGES; i++) {
    await call(client, 'browser_evaluate', {
      browserId,
      function: `() => { const body = document.querySelector('tbody');
        const row = body.rows[Math.floor(body.rows.length / 2)].cloneNode(true);
        row.querySelector('a').textContent = 'Added item ${i}';
        body.insertBefore(row, body.rows[Math.min(10, body.rows.length - 1)]);
        return body.rows.length; }`,
    });
    const added = await time(() => snap({ diff: true }));
    if (!resultText(added.value).includes(`Added item ${i}`))
      throw new Error(`the diff after adding a row does not show it: ${resultText(added.value).slice(0, 300)}`);
    out.diffAfterAdd.push(added.ms);
    out.addChars = resultText(added.value).length;
    await call(client, 'browser_evaluate', {
      browserId,
      function: `() => { const body = document.querySelector('tbody');
        body.rows[Math.min(10, body.rows.length - 2)].remove(); return body.rows.length; }`,
    });
    out.diffAfterRemove.push((await time(() => snap({ diff: true }))).ms);
  }
  if (DIFF_AFTER_CLICK > 0) {
    const steps = await timelineSteps(dirs, browserId);
    const diffs = steps.filter((s) => s.tool === 'browser_snapshot' && s.arguments?.diff === true).slice(-2 * DIFF_AFTER_CLICK);
    out.diffAtOnceInApp = diffs.filter((_, i) => i % 2 === 0).map((s) => s.durationMs);
    out.diffAfterThinkingInApp = diffs.filter((_, i) => i % 2 === 1).map((s) => s.durationMs);
    // Whether the click's picture after was asked of WebKit once the diff
    // sent at once had answered (an app that records afterMs).
    const clicks = diffs.filter((_, i) => i % 2 === 0)
      .map((d) => [steps.find((s) => s.seq === d.seq - 1 && s.tool === 'browser_click'), d])
      .filter(([c]) => c?.afterMs !== undefined);
    out.pictureAfterDiff = clicks.length > 0
      ? `${clicks.filter(([c, d]) => c.afterMs >= stepEnd(d) - stepEnd(c)).length} of ${clicks.length}`
      : '—';
  }
  return out;
}

async function playwrightChanges(pw, text) {
  const ref = rowRef(text, /\[ref=(e\d+)\]/);
  const out = { afterClick: [] };
  for (let i = 0; i < SNAPSHOTS; i++) {
    await call(pw.client, 'browser_click', { element: 'Select item 1 checkbox', target: ref });
    out.afterClick.push((await time(() => playwrightSnapshot(pw))).ms);
  }
  return out;
}

async function snapshotRuns(label, rows, open, snapshot, close, changes) {
  let handle;
  try {
    handle = await open(rows);
  } catch (error) {
    return failed(label, `${rows} rows`, error);
  }
  try {
    // The first snapshot walks the page; later ones of the unchanged page
    // may be answered from what Tabwright kept.
    const first = await time(() => snapshot(handle));
    let text = first.value;
    const samples = [];
    for (let i = 0; i < SNAPSHOTS; i++) {
      const { ms, value } = await time(() => snapshot(handle));
      samples.push(ms);
      text = value;
    }
    log(`${label}: snapshots of ${rows} rows done`);
    const result = { first: first.ms, samples, chars: text.length, check: missingElements(text, rows) };
    if (changes) {
      try {
        result.changes = await changes(handle, text);
      } catch (error) {
        result.changes = { error: String(error.message ?? error).split('\n')[0].slice(0, 60) };
      }
      log(`${label}: snapshots after a click on ${rows} rows done`);
    }
    return result;
  } catch (error) {
    return failed(label, `${rows} rows`, error);
  } finally {
    await close(handle).catch(() => {});
  }
}

// A server that cannot snapshot a page (Playwright MCP gives up on a tool
// call after 30 s) gets its error in the table instead of figures.
function failed(label, what, error) {
  const text = String(error.message ?? error);
  const timeout = /Timeout (\d+) ?ms exceeded/.exec(text);
  const message = timeout
    ? `timed out after ${Number(timeout[1]) / 1000} s`
    : (text.split('\n').find((l) => /\w+Error:/.test(l)) ?? text.split('\n')[0]).slice(0, 60);
  log(`${label}: ${what} failed: ${message}`);
  return { error: message };
}

// --- main ---

async function main() {
  const fixtures = await startFixtureServer();
  cleanups.push(() => fixtures.close());
  const pageUrl = fixtures.url('/one.html');
  const clickUrl = await startClickPageServer();
  const results = { load: [os.loadavg()], calls: CALLS, tabs: TABS, clicks: CLICKS, snapshots: SNAPSHOTS, waits: WAITS, huge: HUGE, tabwright: {}, playwright: {} };

  if (RUN_TW) {
    log('starting Tabwright');
    const tw = await startTabwrightClient();
    const r = results.tabwright;
    r.cheap = await cheapCalls('tabwright', () => call(tw.client, 'browser_list_tabs'));
    const raw = await rawClient(tw.app);
    r.cheapRaw = await cheapCalls('tabwright raw HTTP', () => raw.call('browser_list_tabs'));
    raw.close();
    r.open = await tabOpens('tabwright',
      async () => (await call(tw.client, 'browser_new_tab', { url: pageUrl })).structuredContent.browserId,
      (browserId) => call(tw.client, 'browser_close_tab', { browserId }));
    {
      const browserId = (await call(tw.client, 'browser_new_tab', { url: clickUrl })).structuredContent.browserId;
      const evaluate = async (fn) => (await call(tw.client, 'browser_evaluate', { browserId, function: fn })).structuredContent.result;
      if (CLICKS > 0) {
        const snapshot = resultText(await call(tw.client, 'browser_snapshot', { browserId }));
        const refOf = (name) => / (@e\d+)/.exec(snapshot.split('\n').find((line) => line.includes(`button "${name}"`)))[1];
        r.click = await clickRuns('tabwright',
          () => call(tw.client, 'browser_click', { browserId, ref: refOf('Count') }), () => evaluate('() => window.clicks'));
        r.laterClick = await clickRuns('tabwright, timer',
          () => call(tw.client, 'browser_click', { browserId, ref: refOf('Later') }), () => evaluate('() => window.later'));
      }
      r.wait = await waitRuns('tabwright', (text) => call(tw.client, 'browser_wait', { browserId, text }), evaluate);
      await call(tw.client, 'browser_close_tab', { browserId });
    }
    {
      // A wait on a page whose script never yields ends at its own limit,
      // with a timeout that says the page did not answer.
      const browserId = (await call(tw.client, 'browser_new_tab', { url: pageUrl })).structuredContent.browserId;
      await call(tw.client, 'browser_evaluate', { browserId, function: SPIN });
      const { ms, value } = await time(() => tw.client.callTool({
        name: 'browser_wait', arguments: { browserId, text: 'never there', timeoutMs: BUSY_WAIT_MS },
      }));
      if (!value.isError)
        throw new Error(`the wait on a busy page did not fail: ${resultText(value)}`);
      r.busyWait = ms;
      log('tabwright: wait on a busy page done');
      await call(tw.client, 'browser_close_tab', { browserId });
    }
    if (HUGE > 0) {
      r.huge = await hugeRun('tabwright',
        async () => (await call(tw.client, 'browser_new_tab', { url: fixtures.url(`/huge?elements=${HUGE}`) })).structuredContent.browserId,
        async (browserId) => resultText(await call(tw.client, 'browser_snapshot', { browserId })),
        (browserId) => call(tw.client, 'browser_close_tab', { browserId }));
    }
    {
      const bridge = await startBridgeClient(tw.app);
      await call(bridge, 'browser_list_tabs');
      r.stdioExit = await stdioExit(bridge);
      log('tabwright: stdio bridge exit done');
    }
    if (tw.tools.has('browser_snapshot')) {
      r.snapshot = {};
      for (const rows of ROWS) {
        r.snapshot[rows] = await snapshotRuns('tabwright', rows,
          async (n) => (await call(tw.client, 'browser_new_tab', { url: fixtures.url(`/table?rows=${n}`) })).structuredContent.browserId,
          (browserId) => tabwrightSnapshot(tw.client, browserId),
          (browserId) => call(tw.client, 'browser_close_tab', { browserId }),
          (browserId, text) => tabwrightChanges(tw.client, browserId, text, tw.app.dirs));
      }
    } else {
      log('Tabwright has no browser_snapshot yet: snapshot rows skipped');
    }
  }

  if (RUN_PW) {
    log('starting Playwright MCP');
    const pw = await startPlaywrightClient();
    const r = results.playwright;
    r.cheap = await cheapCalls('playwright', () => call(pw.client, 'browser_tabs', { action: 'list' }));
    r.open = await tabOpens('playwright',
      async () => {
        await call(pw.client, 'browser_tabs', { action: 'new' });
        await call(pw.client, 'browser_navigate', { url: pageUrl });
      },
      () => call(pw.client, 'browser_tabs', { action: 'close' }));
    {
      await call(pw.client, 'browser_tabs', { action: 'new' });
      await call(pw.client, 'browser_navigate', { url: clickUrl });
      const evaluate = async (fn) => Number(/\d+/.exec(resultText(await call(pw.client, 'browser_evaluate', { function: fn })))[0]);
      if (CLICKS > 0) {
        const snapshot = resultText(await call(pw.client, 'browser_snapshot'));
        const refOf = (name) => /\[ref=(e\d+)\]/.exec(snapshot.split('\n').find((line) => line.includes(`button "${name}"`)))[1];
        r.click = await clickRuns('playwright',
          () => call(pw.client, 'browser_click', { element: 'Count button', target: refOf('Count') }), () => evaluate('() => window.clicks'));
        r.laterClick = await clickRuns('playwright, timer',
          () => call(pw.client, 'browser_click', { element: 'Later button', target: refOf('Later') }), () => evaluate('() => window.later'));
      }
      r.wait = await waitRuns('playwright', (text) => call(pw.client, 'browser_wait_for', { text }), evaluate);
      await call(pw.client, 'browser_tabs', { action: 'close' });
    }
    if (HUGE > 0) {
      r.huge = await hugeRun('playwright',
        async () => {
          await call(pw.client, 'browser_tabs', { action: 'new' });
          await call(pw.client, 'browser_navigate', { url: fixtures.url(`/huge?elements=${HUGE}`) });
        },
        () => playwrightSnapshot(pw),
        () => call(pw.client, 'browser_tabs', { action: 'close' }));
    }
    r.snapshot = {};
    for (const rows of ROWS) {
      r.snapshot[rows] = await snapshotRuns('playwright', rows,
        async (n) => {
          await call(pw.client, 'browser_tabs', { action: 'new' });
          try {
            await call(pw.client, 'browser_navigate', { url: fixtures.url(`/table?rows=${n}`) });
          } catch (error) {
            await call(pw.client, 'browser_tabs', { action: 'close' }).catch(() => {});
            throw error;
          }
        },
        () => playwrightSnapshot(pw),
        () => call(pw.client, 'browser_tabs', { action: 'close' }),
        (handle, text) => playwrightChanges(pw, text));
    }
    r.stdioExit = await stdioExit(pw.client);
    log('playwright: stdio server exit done');
  }

  results.load.push(os.loadavg());
  printTable(results);
  if (opts.json)
    fs.writeFileSync(opts.json, JSON.stringify(results, null, 2));
}

function printTable(results) {
  const tw = results.tabwright;
  const pw = results.playwright;
  const rows = [];
  const stat = (samples, p) => (samples ? percentile(samples, p) : undefined);

  rows.push([`list tabs, median (N=${CALLS})`, ms(stat(tw.cheap, 0.5)), ms(stat(pw.cheap, 0.5))]);
  rows.push([`list tabs, p90`, ms(stat(tw.cheap, 0.9)), ms(stat(pw.cheap, 0.9))]);
  rows.push([`list tabs over raw HTTP, median`, ms(stat(tw.cheapRaw, 0.5)), '—']);
  rows.push([`list tabs over raw HTTP, p90`, ms(stat(tw.cheapRaw, 0.9)), '—']);
  rows.push([`open tab on a page, median (N=${TABS})`, ms(stat(tw.open, 0.5)), ms(stat(pw.open, 0.5))]);
  rows.push([`open tab on a page, p90`, ms(stat(tw.open, 0.9)), ms(stat(pw.open, 0.9))]);
  rows.push([`click, median (N=${CLICKS})`, ms(stat(tw.click, 0.5)), ms(stat(pw.click, 0.5))]);
  rows.push([`click, p90`, ms(stat(tw.click, 0.9)), ms(stat(pw.click, 0.9))]);
  rows.push([`click, effect from a 30 ms timer, median`, ms(stat(tw.laterClick, 0.5)), ms(stat(pw.laterClick, 0.5))]);
  rows.push([`wait for text already shown, median (N=${WAITS})`, ms(stat(tw.wait?.already, 0.5)), ms(stat(pw.wait?.already, 0.5))]);
  rows.push([`wait for text shown ${LATE_TEXT_MS} ms later, past that, median (N=${LATE_WAITS})`,
    ms(stat(tw.wait?.late, 0.5)), ms(stat(pw.wait?.late, 0.5))]);
  rows.push([`wait (limit ${BUSY_WAIT_MS} ms) on a page that never yields, answered after`, ms(tw.busyWait), '—']);
  if (HUGE > 0) {
    const huge = (x) => (x?.error ? x.error : ms(x?.ms));
    const chars = (x) => (x?.chars !== undefined ? x.chars.toLocaleString('en') : '—');
    rows.push([`first snapshot of ${HUGE.toLocaleString('en')} elements, default reply`, huge(tw.huge), huge(pw.huge)]);
    rows.push([`first snapshot of ${HUGE.toLocaleString('en')} elements, characters`, chars(tw.huge), chars(pw.huge)]);
  }
  rows.push([`stdio server exits after its input closes`, ms(tw.stdioExit), ms(pw.stdioExit)]);
  for (const n of ROWS) {
    const a = tw.snapshot?.[n];
    const b = pw.snapshot?.[n];
    const median = (x) => (x?.error ? x.error : ms(stat(x?.samples, 0.5)));
    const chars = (x) => (x?.chars !== undefined ? x.chars.toLocaleString('en') : '—');
    const check = (c) => (c ? (c.missing === 0 ? `all ${c.expected} found` : `${c.missing}/${c.expected} missing, e.g. ${c.example}`) : '—');
    rows.push([`first snapshot ${n} rows`, a?.error ?? ms(a?.first), b?.error ?? ms(b?.first)]);
    rows.push([`repeated snapshot ${n} rows, unchanged page, median (N=${SNAPSHOTS})`, median(a), median(b)]);
    rows.push([`snapshot ${n} rows, characters`, chars(a), chars(b)]);
    rows.push([`snapshot ${n} rows, controls with role+name`, check(a?.check), check(b?.check)]);
    const after = (x, key) => (x?.changes?.error ? x.changes.error : ms(stat(x?.changes?.[key], 0.5)));
    rows.push([`snapshot ${n} rows after a click changing one row, median`, after(a, 'afterClick'), after(b, 'afterClick')]);
    rows.push([`diff=true ${n} rows, unchanged page, median`, after(a, 'diffUnchanged'), '—']);
    rows.push([`diff=true ${n} rows after a click changing one row, median`, after(a, 'diffAfterClick'), '—']);
    const share = a?.changes?.diffChars && a?.chars ? ` (${(100 * a.changes.diffChars / a.chars).toFixed(2)} % of full)` : '';
    rows.push([`diff=true ${n} rows after a click, characters`, a?.changes?.diffChars ? a.changes.diffChars.toLocaleString('en') + share : '—', '—']);
    if (ROW_CHANGES > 0) {
      rows.push([`diff=true ${n} rows after a row is added, median (N=${ROW_CHANGES})`, after(a, 'diffAfterAdd'), '—']);
      rows.push([`diff=true ${n} rows after a row is removed, median`, after(a, 'diffAfterRemove'), '—']);
      rows.push([`diff=true ${n} rows after a row is added, characters`, a?.changes?.addChars ? a.changes.addChars.toLocaleString('en') : '—', '—']);
    }
    if (DIFF_AFTER_CLICK > 0) {
      const spread = (key) => {
        const samples = a?.changes?.[key];
        if (a?.changes?.error || !samples?.length)
          return a?.changes?.error ?? '—';
        return [0.5, 0.25, 0].map((p) => percentile(samples, p).toFixed(1)).join(' / ') + ' ms';
      };
      rows.push([`click on ${n} rows, median (N=${DIFF_AFTER_CLICK})`, after(a, 'clickThenDiff'), '—']);
      rows.push([`  then diff=true at once: median / first quartile / best`, spread('diffAtOnce'), '—']);
      rows.push([`  then diff=true ${THINK_MS} ms later: median / first quartile / best`, spread('diffAfterThinking'), '—']);
      rows.push([`  the same in the app (its timeline): at once`, spread('diffAtOnceInApp'), '—']);
      rows.push([`  the same in the app (its timeline): ${THINK_MS} ms later`, spread('diffAfterThinkingInApp'), '—']);
      rows.push([`  the click's picture after asked for once the diff at once answered`, a?.changes?.pictureAfterDiff ?? '—', '—']);
    }
  }

  printComparison('Tabwright vs Playwright MCP', rows);
  console.log('\nOpen tab: Tabwright browser_new_tab {url}; Playwright browser_tabs {action:"new"} + browser_navigate.');
  console.log('Click: a button whose text changes, clicked by ref; each call returns once the page has settled.');
  console.log('Raw HTTP: one keep-alive connection, JSON-RPC without the SDK (Playwright MCP runs over stdio here).');
  console.log('Wait: Tabwright browser_wait {text}; Playwright browser_wait_for {text}.');
  console.log('Stdio exit: tabwright-mcp connected to the app, and Playwright MCP, after the SDK closes their input.');
  const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
  console.log(`Load average (1, 5, 15 min) at the start: ${load(results.load[0])}; at the end: ${load(results.load[1])}.`);
}

await runBench(main, cleanups);
