// SPDX-License-Identifier: GPL-3.0-or-later
//
// Compares Tabwright with Playwright MCP, both driven by the official MCP SDK
// client on this machine: round trips of a cheap call, opening a tab on a
// local page and, where browser_snapshot exists, snapshots of generated
// app-like pages. It prints figures and asserts no times.
//
//   bench/run [--calls 200] [--tabs 20] [--snapshots 5] [--rows 20,500,3000]
//             [--only tabwright|playwright] [--json FILE]

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { startFixtureServer } from '../tests/e2e/lib/fixture-server.mjs';
import { connectClient, resultText } from '../tests/e2e/lib/mcp.mjs';
import { tableRowElements } from '../tests/e2e/lib/pages.mjs';
import { srcdir, startTabwright } from '../tests/e2e/lib/tabwright.mjs';

const { values: opts } = parseArgs({
  options: {
    calls: { type: 'string', default: '200' },
    tabs: { type: 'string', default: '20' },
    snapshots: { type: 'string', default: '5' },
    rows: { type: 'string', default: '20,500,3000' },
    only: { type: 'string' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (opts.help) {
  console.log(fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').slice(2, 11).join('\n').replaceAll('// ', ''));
  process.exit(0);
}

const CALLS = Number(opts.calls);
const TABS = Number(opts.tabs);
const SNAPSHOTS = Number(opts.snapshots);
const ROWS = opts.rows.split(',').filter(Boolean).map(Number);
const RUN_TW = opts.only !== 'playwright';
const RUN_PW = opts.only !== 'tabwright';

const cleanups = [];
function log(message) {
  process.stderr.write(`bench: ${message}\n`);
}

// --- statistics ---

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index];
}

async function time(fn) {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

// --- a display for Tabwright ---

// Starts Xvfb on a free display number when there is no display.
async function ensureDisplay() {
  if (process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
    return {};
  log('no display: starting Xvfb');
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  cleanups.push(() => xvfb.kill('SIGTERM'));
  const display = await new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not start')), 15000);
    xvfb.on('error', (error) => reject(new Error(`cannot start Xvfb: ${error.message}`)));
    xvfb.stdio[3].on('data', (chunk) => {
      text += chunk.toString();
      if (text.includes('\n')) {
        clearTimeout(timer);
        resolve(`:${text.trim()}`);
      }
    });
  });
  return { DISPLAY: display };
}

// --- the two servers ---

async function startTabwrightClient() {
  const env = await ensureDisplay();
  const app = await startTabwright({ env });
  cleanups.push(() => app.stop());
  const client = await connectClient(app, 'tabwright-bench');
  cleanups.push(() => client.close());
  const { tools } = await client.listTools();
  return { app, client, tools: new Set(tools.map((t) => t.name)) };
}

async function startPlaywrightClient() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabwright-bench-pw-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  // The network reaches nothing but the local fixture server: Chromium must
  // not try its background services.
  const config = path.join(dir, 'config.json');
  fs.writeFileSync(config, JSON.stringify({
    browser: {
      launchOptions: {
        args: [
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-default-apps',
          '--disable-sync',
          '--disable-dev-shm-usage',
          '--no-first-run',
          '--metrics-recording-only',
        ],
      },
    },
  }));
  const args = [
    path.join(srcdir, 'node_modules', '@playwright', 'mcp', 'cli.js'),
    '--headless', '--isolated',
    '--executable-path', opts.chromium,
    '--output-dir', path.join(dir, 'output'),
    '--config', config,
  ];
  // Chromium's sandbox cannot start as root.
  if (process.getuid?.() === 0)
    args.push('--no-sandbox');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: dir,
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'tabwright-bench', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  const { tools } = await client.listTools();
  return { client, dir, tools: new Set(tools.map((t) => t.name)) };
}

async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError)
    throw new Error(`${name} failed: ${resultText(result)}`);
  return result;
}

// --- the measurements ---

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

// Tabwright: the whole snapshot in replies of up to 200,000 characters,
// following the cursor that ends a reply cut short.
async function tabwrightSnapshot(client, browserId) {
  let text = '';
  let cursor = null;
  do {
    const result = await call(client, 'browser_snapshot', { browserId, maxChars: 200000, ...(cursor ? { cursor } : {}) });
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

async function snapshotRuns(label, rows, open, snapshot, close) {
  let handle;
  try {
    handle = await open(rows);
  } catch (error) {
    return failed(label, rows, error);
  }
  try {
    let text = await snapshot(handle);
    const samples = [];
    for (let i = 0; i < SNAPSHOTS; i++) {
      const { ms, value } = await time(() => snapshot(handle));
      samples.push(ms);
      text = value;
    }
    log(`${label}: snapshots of ${rows} rows done`);
    return { samples, chars: text.length, check: missingElements(text, rows) };
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
  const results = { calls: CALLS, tabs: TABS, snapshots: SNAPSHOTS, tabwright: {}, playwright: {} };

  if (RUN_TW) {
    log('starting Tabwright');
    const tw = await startTabwrightClient();
    const r = results.tabwright;
    r.cheap = await cheapCalls('tabwright', () => call(tw.client, 'browser_list_tabs'));
    r.open = await tabOpens('tabwright',
      async () => (await call(tw.client, 'browser_new_tab', { url: pageUrl })).structuredContent.browserId,
      (browserId) => call(tw.client, 'browser_close_tab', { browserId }));
    if (tw.tools.has('browser_snapshot')) {
      r.snapshot = {};
      for (const rows of ROWS) {
        r.snapshot[rows] = await snapshotRuns('tabwright', rows,
          async (n) => (await call(tw.client, 'browser_new_tab', { url: fixtures.url(`/table?rows=${n}`) })).structuredContent.browserId,
          (browserId) => tabwrightSnapshot(tw.client, browserId),
          (browserId) => call(tw.client, 'browser_close_tab', { browserId }));
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
        () => call(pw.client, 'browser_tabs', { action: 'close' }));
    }
  }

  printTable(results);
  if (opts.json)
    fs.writeFileSync(opts.json, JSON.stringify(results, null, 2));
}

function ms(value) {
  return value === undefined ? '—' : `${value.toFixed(1)} ms`;
}

function printTable(results) {
  const tw = results.tabwright;
  const pw = results.playwright;
  const rows = [];
  const stat = (samples, p) => (samples ? percentile(samples, p) : undefined);

  rows.push([`list tabs, median (N=${CALLS})`, ms(stat(tw.cheap, 0.5)), ms(stat(pw.cheap, 0.5))]);
  rows.push([`list tabs, p90`, ms(stat(tw.cheap, 0.9)), ms(stat(pw.cheap, 0.9))]);
  rows.push([`open tab on a page, median (N=${TABS})`, ms(stat(tw.open, 0.5)), ms(stat(pw.open, 0.5))]);
  rows.push([`open tab on a page, p90`, ms(stat(tw.open, 0.9)), ms(stat(pw.open, 0.9))]);
  for (const n of ROWS) {
    const a = tw.snapshot?.[n];
    const b = pw.snapshot?.[n];
    const median = (x) => (x?.error ? x.error : ms(stat(x?.samples, 0.5)));
    const chars = (x) => (x?.chars !== undefined ? x.chars.toLocaleString('en') : '—');
    const check = (c) => (c ? (c.missing === 0 ? `all ${c.expected} found` : `${c.missing}/${c.expected} missing, e.g. ${c.example}`) : '—');
    rows.push([`snapshot ${n} rows, median (N=${SNAPSHOTS})`, median(a), median(b)]);
    rows.push([`snapshot ${n} rows, characters`, chars(a), chars(b)]);
    rows.push([`snapshot ${n} rows, controls with role+name`, check(a?.check), check(b?.check)]);
  }

  const header = ['', 'Tabwright', 'Playwright MCP'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  console.log(`\nTabwright vs Playwright MCP on ${os.cpus().length} CPUs, Node ${process.version}, official MCP SDK client`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows)
    console.log(line(r));
  console.log('\nOpen tab: Tabwright browser_new_tab {url}; Playwright browser_tabs {action:"new"} + browser_navigate.');
}

let exitCode = 0;
try {
  await main();
} catch (error) {
  console.error(`bench: ${error.stack ?? error}`);
  exitCode = 1;
} finally {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch {
      // Best effort: everything is torn down below anyway.
    }
  }
}
process.exit(exitCode);
