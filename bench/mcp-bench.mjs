// SPDX-License-Identifier: GPL-3.0-or-later
//
// Compares Tabwright with Playwright MCP, both driven by the official MCP SDK
// client on this machine: round trips of a cheap call (also over raw
// keep-alive HTTP, which shows the server without the SDK's own cost),
// opening a tab on a local page, clicks that change a button's text and
// snapshots of generated app-like pages. It prints figures and checks that
// every click reached the page and every control is in the snapshots; it
// asserts no times.
//
//   bench/run [--calls 200] [--tabs 20] [--clicks 50] [--snapshots 5]
//             [--rows 20,500,3000] [--only tabwright|playwright] [--json FILE]

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';

import {
  call, ms, percentile, printComparison, runBench, startPlaywrightClient as startPwClient,
  startTabwrightClient as startTwClient, time,
} from './servers.mjs';
import { startFixtureServer } from '../tests/e2e/lib/fixture-server.mjs';
import { resultText } from '../tests/e2e/lib/mcp.mjs';
import { tableRowElements } from '../tests/e2e/lib/pages.mjs';

const { values: opts } = parseArgs({
  options: {
    calls: { type: 'string', default: '200' },
    tabs: { type: 'string', default: '20' },
    clicks: { type: 'string', default: '50' },
    snapshots: { type: 'string', default: '5' },
    rows: { type: 'string', default: '20,500,3000' },
    only: { type: 'string' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (opts.help) {
  console.log(fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(2, 14).join('\n').replaceAll('// ', ''));
  process.exit(0);
}

const CALLS = Number(opts.calls);
const TABS = Number(opts.tabs);
const CLICKS = Number(opts.clicks);
const CLICK_WARMUP = 5;
const SNAPSHOTS = Number(opts.snapshots);
const ROWS = opts.rows.split(',').filter(Boolean).map(Number);
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

// The button keeps its accessible name (aria-label) while its text counts
// the clicks, so one ref serves every click on both servers.
const CLICK_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Click bench</title></head>
<body><main><h1>Click bench</h1>
<button id="count" aria-label="Count" onclick="this.textContent = 'Clicked ' + (++window.clicks) + ' times'">Clicked 0 times</button>
</main><script>window.clicks = 0;</script></body></html>`;

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

async function tabwrightChanges(client, browserId, text) {
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
    return failed(label, rows, error);
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
    return failed(label, rows, error);
  } finally {
    await close(handle).catch(() => {});
  }
}

// A server that cannot snapshot a page (Playwright MCP gives up on a tool
// call after 30 s) gets its error in the table instead of figures.
function failed(label, rows, error) {
  const text = String(error.message ?? error);
  const timeout = /Timeout (\d+) ?ms exceeded/.exec(text);
  const message = timeout
    ? `timed out after ${Number(timeout[1]) / 1000} s`
    : (text.split('\n').find((l) => /\w+Error:/.test(l)) ?? text.split('\n')[0]).slice(0, 60);
  log(`${label}: ${rows} rows failed: ${message}`);
  return { error: message };
}

// --- main ---

async function main() {
  const fixtures = await startFixtureServer();
  cleanups.push(() => fixtures.close());
  const pageUrl = fixtures.url('/one.html');
  const clickUrl = await startClickPageServer();
  const results = { calls: CALLS, tabs: TABS, clicks: CLICKS, snapshots: SNAPSHOTS, tabwright: {}, playwright: {} };

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
    if (CLICKS > 0) {
      const browserId = (await call(tw.client, 'browser_new_tab', { url: clickUrl })).structuredContent.browserId;
      const snapshot = resultText(await call(tw.client, 'browser_snapshot', { browserId }));
      const ref = / (@e\d+)/.exec(snapshot.split('\n').find((line) => line.includes('button "Count"')))[1];
      r.click = await clickRuns('tabwright',
        () => call(tw.client, 'browser_click', { browserId, ref }),
        async () => (await call(tw.client, 'browser_evaluate', { browserId, function: '() => window.clicks' }))
          .structuredContent.result);
      await call(tw.client, 'browser_close_tab', { browserId });
    }
    if (tw.tools.has('browser_snapshot')) {
      r.snapshot = {};
      for (const rows of ROWS) {
        r.snapshot[rows] = await snapshotRuns('tabwright', rows,
          async (n) => (await call(tw.client, 'browser_new_tab', { url: fixtures.url(`/table?rows=${n}`) })).structuredContent.browserId,
          (browserId) => tabwrightSnapshot(tw.client, browserId),
          (browserId) => call(tw.client, 'browser_close_tab', { browserId }),
          (browserId, text) => tabwrightChanges(tw.client, browserId, text));
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
    if (CLICKS > 0) {
      await call(pw.client, 'browser_tabs', { action: 'new' });
      await call(pw.client, 'browser_navigate', { url: clickUrl });
      const snapshot = resultText(await call(pw.client, 'browser_snapshot'));
      const ref = /\[ref=(e\d+)\]/.exec(snapshot.split('\n').find((line) => line.includes('button "Count"')))[1];
      r.click = await clickRuns('playwright',
        () => call(pw.client, 'browser_click', { element: 'Count button', target: ref }),
        async () => Number(/\d+/.exec(resultText(await call(pw.client, 'browser_evaluate', { function: '() => window.clicks' })))[0]));
      await call(pw.client, 'browser_tabs', { action: 'close' });
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
  }

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
  }

  printComparison('Tabwright vs Playwright MCP', rows);
  console.log('\nOpen tab: Tabwright browser_new_tab {url}; Playwright browser_tabs {action:"new"} + browser_navigate.');
  console.log('Click: a button whose text changes, clicked by ref; each call returns once the page has settled.');
  console.log('Raw HTTP: one keep-alive connection, JSON-RPC without the SDK (Playwright MCP runs over stdio here).');
}

await runBench(main, cleanups);
