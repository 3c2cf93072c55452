// SPDX-License-Identifier: GPL-3.0-or-later
//
// What tabs cost and whether closing them gives it all back, measured from
// outside (tests/e2e/lib/processes.mjs): the PSS of the app and of every
// process it started, by kind, the app's own memory (its anonymous PSS)
// and its open file descriptors, with no tab, with 1, 10 and 20 tabs open
// on a local page of buttons, each read once with browser_snapshot, and
// after closing them all; then after opening, reading and closing tabs one
// at a time. Tabwright's tabs are measured twice at each step: live, just
// read, and once they have rested (--rest-seconds, the app's delay, 30 s by
// default). Side by side with Playwright MCP on Debian's Chromium, whose
// browser process stands where Tabwright's app does. Figures are printed
// with the machine's load average; nothing is asserted.
//
//   bench/run --memory [--tabs 1,10,20] [--cycle 30] [--buttons 200]
//                      [--settle-seconds 3] [--rest-seconds 30]
//                      [--only tabwright|playwright]
//                      [--chromium /usr/bin/chromium] [--json FILE]

import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

import { appFds, chromiumKind, loadAverage, measureFamily, pss, tabwrightKind } from '../tests/e2e/lib/processes.mjs';
import { call, runBench, startPlaywrightClient, startTabwrightClient } from './servers.mjs';
import { simplePage } from '../tests/e2e/lib/pages.mjs';

const { values: opts } = parseArgs({
  options: {
    memory: { type: 'boolean' },
    tabs: { type: 'string', default: '1,10,20' },
    cycle: { type: 'string', default: '30' },
    buttons: { type: 'string', default: '200' },
    'settle-seconds': { type: 'string', default: '3' },
    'rest-seconds': { type: 'string', default: '30' },
    only: { type: 'string' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (opts.help) {
  console.log(fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(2, 19).join('\n').replaceAll('// ', ''));
  process.exit(0);
}

const STEPS = opts.tabs.split(',').filter(Boolean).map(Number).sort((a, b) => a - b);
const CYCLE = Number(opts.cycle);
const BUTTONS = Number(opts.buttons);
const SETTLE_MS = Number(opts['settle-seconds']) * 1000;
const REST_MS = Number(opts['rest-seconds']) * 1000;
const CLOSE_WAIT_MS = 30000;
const KINDS = ['app', 'web', 'network', 'server', 'other'];

const cleanups = [];
function log(message) {
  process.stderr.write(`memory-bench: ${message}\n`);
}

async function startPageServer() {
  const buttons = Array.from({ length: BUTTONS }, (_, i) => `<button type="button">Button ${i + 1}</button>`).join('\n');
  const page = simplePage(`${BUTTONS} buttons`, buttons);
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(page);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  }));
  return `http://127.0.0.1:${server.address().port}/`;
}

// One server behind the same few operations: open a tab on @url and read
// it, close every tab, and say how its processes are measured.
function tabwrightDriver(tw) {
  const ids = [];
  return {
    name: 'Tabwright',
    rests: REST_MS > 0,
    root: tw.app.pid,
    kindOf: tabwrightKind,
    open: async (url) => {
      const { browserId } = (await call(tw.client, 'browser_new_tab', { url })).structuredContent;
      ids.push(browserId);
      await call(tw.client, 'browser_snapshot', { browserId });
    },
    closeAll: async () => {
      while (ids.length > 0)
        await call(tw.client, 'browser_close_tab', { browserId: ids.pop() });
    },
  };
}

// Playwright MCP keeps one tab open at all times (closing the last one
// closes the browser), so its "no tab" is one blank tab, and closing all
// tabs leaves that one.
function playwrightDriver(pw) {
  let open = 0;
  return {
    name: 'Playwright MCP',
    root: pw.pid,
    kindOf: chromiumKind,
    open: async (url) => {
      if (open > 0)
        await call(pw.client, 'browser_tabs', { action: 'new' });
      await call(pw.client, 'browser_navigate', { url });
      await call(pw.client, 'browser_snapshot');
      open++;
    },
    closeAll: async () => {
      for (; open > 1; open--)
        await call(pw.client, 'browser_tabs', { action: 'close' });
      if (open === 1) {
        await call(pw.client, 'browser_navigate', { url: 'about:blank' });
        open = 0;
      }
    },
  };
}

function measure(driver, moment, tabs) {
  const m = measureFamily(driver.root, driver.kindOf);
  m.moment = moment;
  m.tabs = tabs;
  m.load = loadAverage();
  if (driver.kindOf === tabwrightKind) {
    m.appFds = appFds(driver.root);
    // The app's own memory (its heap and anonymous maps): its whole PSS
    // also holds shares of the libraries it has in common with the web
    // processes, which move by tens of MB as those processes come and go.
    m.appOwn = pss(driver.root, 'Pss_Anon') / 1024;
  }
  log(`${driver.name}, ${moment}: ${m.total.pss.toFixed(0)} MiB in ${m.total.processes} processes, app ${(m.app?.pss ?? 0).toFixed(0)} MiB` +
    `${m.appOwn === undefined ? '' : ` (own ${m.appOwn.toFixed(1)} MiB)`}, ${m.fds?.total ?? '?'} fds`);
  return m;
}

// After closing tabs the web processes go as their views are destroyed:
// waits for their count to come back to @baseline (or the time limit),
// then lets the app settle.
async function settleAfterClose(driver, baseline) {
  const deadline = Date.now() + CLOSE_WAIT_MS;
  while (Date.now() < deadline) {
    const m = measureFamily(driver.root, driver.kindOf);
    if ((m.web?.processes ?? 0) <= baseline)
      break;
    await sleep(250);
  }
  await sleep(SETTLE_MS);
}

async function runServer(driver, url) {
  const rows = [];
  await sleep(SETTLE_MS);
  const base = measure(driver, 'started, no tab', 0);
  rows.push(base);
  const baseWeb = base.web?.processes ?? 0;

  let open = 0;
  for (const step of STEPS) {
    while (open < step) {
      await driver.open(url);
      open++;
    }
    await sleep(SETTLE_MS);
    const name = `${step} tab${step === 1 ? '' : 's'}`;
    rows.push(measure(driver, driver.rests ? `${name}, live` : name, step));
    if (driver.rests) {
      await sleep(Math.max(0, REST_MS - SETTLE_MS) + SETTLE_MS);
      const rested = measure(driver, `${name}, rested`, step);
      rested.rested = true;
      rows.push(rested);
    }
  }
  await driver.closeAll();
  await settleAfterClose(driver, baseWeb);
  rows.push(measure(driver, `all ${open} closed`, 0));

  if (CYCLE > 0) {
    for (let i = 0; i < CYCLE; i++) {
      await driver.open(url);
      await driver.closeAll();
    }
    await settleAfterClose(driver, baseWeb);
    rows.push(measure(driver, `${CYCLE} more opened, read, closed one by one`, 0));
  }
  return rows;
}

const mib = (v) => (v === undefined ? '—' : `${Math.round(v).toLocaleString('en')} MB`);

function printRows(name, rows) {
  const kinds = KINDS.filter((k) => rows.some((r) => r[k]));
  const own = rows.some((r) => r.appOwn !== undefined);
  const header = ['moment', 'total', ...kinds.map((k) => (k === 'app' && name !== 'Tabwright' ? 'browser' : k)),
    ...(own ? ['app own'] : []), 'app fds', 'load'];
  const table = rows.map((r) => [
    r.moment,
    mib(r.total.pss),
    ...kinds.map((k) => (r[k] ? `${r[k].processes > 1 || k === 'web' ? `${r[k].processes}, ` : ''}${mib(r[k].pss)}` : '—')),
    ...(own ? [r.appOwn === undefined ? '—' : `${r.appOwn.toFixed(1)} MB`] : []),
    String(r.fds?.total ?? '—'),
    r.load.split(' ')[0],
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${name}: PSS by kind of process (count, MB), open descriptors of the ${name === 'Tabwright' ? 'app' : 'browser process'}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const t of table)
    console.log(line(t));

  const closed = rows.find((r) => r.moment.startsWith('all'));
  const cycled = rows.find((r) => r.moment.includes('one by one'));
  for (const rested of [false, true]) {
    const perTab = extraTabCost(rows, rested);
    if (perTab)
      console.log(`  each extra tab${rows.some((r) => r.rested) ? (rested ? ', rested' : ', live') : ''}: ${mib(perTab.total)} ` +
        `(${name === 'Tabwright' ? 'app' : 'browser'} ${mib(perTab.app)}, ${name === 'Tabwright' ? 'web processes' : 'renderers'} ${mib(perTab.web)})`);
  }
  for (const r of [closed, cycled].filter(Boolean)) {
    const fdDelta = (r.fds?.total ?? 0) - (rows[0].fds?.total ?? 0);
    const kindsDelta = Object.entries(r.fds?.byKind ?? {})
      .map(([k, n]) => [k, n - (rows[0].fds?.byKind?.[k] ?? 0)])
      .filter(([, n]) => n !== 0)
      .map(([k, n]) => `${k} ${n > 0 ? '+' : ''}${n}`);
    const appDelta = (r.app?.pss ?? 0) - (rows[0].app?.pss ?? 0);
    const ownDelta = r.appOwn === undefined ? '' : ` (its own memory ${r.appOwn >= rows[0].appOwn ? '+' : ''}${(r.appOwn - rows[0].appOwn).toFixed(1)} MB)`;
    console.log(`  ${r.moment}: ${name === 'Tabwright' ? 'app' : 'browser'} ${appDelta >= 0 ? '+' : ''}${mib(appDelta)}${ownDelta} over the start, ` +
      `${fdDelta >= 0 ? '+' : ''}${fdDelta} fds${kindsDelta.length ? ` (${kindsDelta.join(', ')})` : ''}, ` +
      `web processes ${r.web?.processes ?? 0} (${rows[0].web?.processes ?? 0} at the start)`);
    if (r.appFds && rows[0].appFds) {
      console.log(`    of the app's descriptors, ${r.appFds.forProxies} are for ${r.appFds.proxies} processes of WebKit's sandbox D-Bus proxies ` +
        `(${rows[0].appFds.forProxies} for ${rows[0].appFds.proxies} at the start); the others: ${r.appFds.own - rows[0].appFds.own >= 0 ? '+' : ''}${r.appFds.own - rows[0].appFds.own}`);
    }
  }
}

// What each tab past the first costs, from the first step to the last,
// in total and by kind; null when there is one step.
function extraTabCost(rows, rested) {
  const steps = rows.filter((r) => r.tabs > 0 && !!r.rested === rested);
  const one = steps[0];
  const most = steps[steps.length - 1];
  if (!one || !most || most === one)
    return null;
  const perTab = (k) => ((most[k]?.pss ?? 0) - (one[k]?.pss ?? 0)) / (most.tabs - one.tabs);
  return { total: perTab('total'), app: perTab('app'), web: perTab('web'), network: perTab('network') };
}

// Both servers' totals in one table, moment by moment.
function printSideBySide(tw, pw) {
  const cell = (r) => (r ? `${mib(r.total.pss)} (${mib(r.app?.pss ?? 0)} + ${r.web?.processes ?? 0} × web ${mib(r.web?.pss ?? 0)})` : '—');
  const moments = [
    ['started, no tab', (rows) => rows[0]],
    ...STEPS.map((n) => [`${n} tab${n === 1 ? '' : 's'}`, (rows) => rows.find((r) => r.tabs === n && !r.rested)]),
    ...STEPS.map((n) => [`${n} tab${n === 1 ? '' : 's'}, rested`, (rows) => rows.find((r) => r.tabs === n && r.rested)]),
    ['all closed', (rows) => rows.find((r) => r.moment.startsWith('all'))],
  ].filter(([, pick]) => pick(tw) || pick(pw));
  const table = moments.map(([label, pick]) => [label, cell(pick(tw)), cell(pick(pw))]);
  for (const rested of [false, true]) {
    const a = extraTabCost(tw, rested);
    const b = extraTabCost(pw, rested);
    if (a || b)
      table.push([`each extra tab${rested ? ', rested' : ''}`, a ? mib(a.total) : '—', b ? mib(b.total) : '—']);
  }
  const header = ['PSS: total (app or browser + web processes)', 'Tabwright', 'Playwright MCP'];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log('\nSide by side');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const t of table)
    console.log(line(t));
}

async function main() {
  const url = await startPageServer();
  const results = { buttons: BUTTONS, steps: STEPS, cycle: CYCLE, cpus: os.cpus().length, loadBefore: loadAverage() };
  console.log(`Memory of tabs on ${os.cpus().length} CPUs; a page of ${BUTTONS} buttons; load average at the start ${results.loadBefore}`);

  if (opts.only !== 'playwright') {
    log('starting Tabwright');
    // The app reads its rest delay from the environment it inherits.
    process.env.TABWRIGHT_TAB_REST_MS = String(REST_MS);
    const tw = await startTabwrightClient(log, cleanups);
    results.tabwright = await runServer(tabwrightDriver(tw), url);
    printRows('Tabwright', results.tabwright);
  }
  if (opts.only !== 'tabwright') {
    if (fs.existsSync(opts.chromium)) {
      log('starting Playwright MCP');
      const pw = await startPlaywrightClient(opts.chromium, cleanups);
      results.playwright = await runServer(playwrightDriver(pw), url);
      printRows('Playwright MCP', results.playwright);
    } else {
      log(`${opts.chromium} is missing: Playwright MCP skipped`);
    }
  }
  if (results.tabwright && results.playwright)
    printSideBySide(results.tabwright, results.playwright);
  results.loadAfter = loadAverage();
  console.log(`\nLoad average at the end: ${results.loadAfter}`);
  if (opts.json) {
    for (const rows of [results.tabwright, results.playwright].filter(Boolean))
      for (const r of rows)
        for (const k of KINDS)
          delete r[k]?.pids;
    fs.writeFileSync(opts.json, JSON.stringify(results, null, 2));
  }
}

await runBench(main, cleanups);
