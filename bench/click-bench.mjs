// SPDX-License-Identifier: GPL-3.0-or-later
//
// The round trip of one click, Tabwright against Playwright MCP: a static
// page whose button changes its text on every click, clicked by ref through
// the official MCP SDK client, N times after a short warm-up. Each call
// returns only once the click has happened and the page has settled, so
// the figure is what an agent waits per click. It prints figures and checks
// that every click reached the page; it asserts no times (the target is a
// median under 100 ms).
//
//   node bench/click-bench.mjs [--clicks 50] [--only tabwright|playwright]
//   (TABWRIGHT_BIN=build/app/tabwright, as bench/run sets it)

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { connectClient, resultText } from '../tests/e2e/lib/mcp.mjs';
import { srcdir, startTabwright } from '../tests/e2e/lib/tabwright.mjs';

const { values: opts } = parseArgs({
  options: {
    clicks: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '5' },
    only: { type: 'string' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
  },
});

const CLICKS = Number(opts.clicks);
const WARMUP = Number(opts.warmup);
const cleanups = [];

// The button keeps its accessible name (aria-label) while its text counts
// the clicks, so one ref serves every click on both servers.
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Click bench</title></head>
<body><main><h1>Click bench</h1>
<button id="count" aria-label="Count" onclick="this.textContent = 'Clicked ' + (++window.clicks) + ' times'">Clicked 0 times</button>
</main><script>window.clicks = 0;</script></body></html>`;

function log(message) {
  process.stderr.write(`click-bench: ${message}\n`);
}

function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

async function startPageServer() {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(PAGE);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return `http://127.0.0.1:${server.address().port}/`;
}

async function ensureDisplay() {
  if (process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
    return {};
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  cleanups.push(() => xvfb.kill('SIGTERM'));
  const display = await new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('Xvfb did not start')), 15000);
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

async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError)
    throw new Error(`${name} failed: ${resultText(result)}`);
  return result;
}

async function clickRuns(label, click, count) {
  for (let i = 0; i < WARMUP; i++)
    await click();
  const samples = [];
  for (let i = 0; i < CLICKS; i++) {
    const start = performance.now();
    await click();
    samples.push(performance.now() - start);
  }
  const clicks = await count();
  if (clicks !== WARMUP + CLICKS)
    throw new Error(`${label}: the page counted ${clicks} clicks, not ${WARMUP + CLICKS}`);
  log(`${label}: ${CLICKS} clicks measured`);
  return { median: percentile(samples, 0.5), p90: percentile(samples, 0.9) };
}

// Under Xvfb GTK renders its window with software OpenGL, which costs more
// per frame than the click itself; the cairo renderer is what a headless
// run should use. A GSK_RENDERER of the caller's wins.
const RENDERER = process.env.GSK_RENDERER ?? 'cairo';

async function benchTabwright(url) {
  const app = await startTabwright({ env: { ...(await ensureDisplay()), GSK_RENDERER: RENDERER } });
  cleanups.push(() => app.stop());
  const client = await connectClient(app, 'tabwright-click-bench');
  cleanups.push(() => client.close());

  const browserId = (await call(client, 'browser_new_tab', { url })).structuredContent.browserId;
  const snapshot = resultText(await call(client, 'browser_snapshot', { browserId }));
  const ref = / (@e\d+)/.exec(snapshot.split('\n').find((line) => line.includes('button "Count"')))[1];

  return clickRuns('tabwright',
    () => call(client, 'browser_click', { browserId, ref }),
    async () => (await call(client, 'browser_evaluate', { browserId, function: '() => window.clicks' }))
      .structuredContent.result);
}

async function benchPlaywright(url) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabwright-click-bench-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const config = path.join(dir, 'config.json');
  fs.writeFileSync(config, JSON.stringify({
    browser: {
      launchOptions: {
        args: ['--disable-background-networking', '--disable-component-update', '--disable-default-apps',
               '--disable-sync', '--disable-dev-shm-usage', '--no-first-run'],
      },
    },
  }));
  const args = [
    path.join(srcdir, 'node_modules', '@playwright', 'mcp', 'cli.js'),
    '--headless', '--isolated', '--executable-path', opts.chromium,
    '--output-dir', path.join(dir, 'output'), '--config', config,
  ];
  if (process.getuid?.() === 0)
    args.push('--no-sandbox');
  const client = new Client({ name: 'tabwright-click-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: process.execPath,
    args,
    cwd: dir,
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    stderr: 'ignore',
  }));
  cleanups.push(() => client.close());

  await call(client, 'browser_navigate', { url });
  const snapshot = resultText(await call(client, 'browser_snapshot'));
  const ref = /\[ref=(e\d+)\]/.exec(snapshot.split('\n').find((line) => line.includes('button "Count"')))[1];

  return clickRuns('playwright',
    () => call(client, 'browser_click', { element: 'Count button', target: ref }),
    async () => Number(/\d+/.exec(resultText(await call(client, 'browser_evaluate', { function: '() => window.clicks' })))[0]));
}

function ms(value) {
  return value === undefined ? '—' : `${value.toFixed(1)} ms`;
}

async function main() {
  const url = await startPageServer();
  const results = {};
  if (opts.only !== 'playwright')
    results.tabwright = await benchTabwright(url);
  if (opts.only !== 'tabwright')
    results.playwright = await benchPlaywright(url).catch((error) => {
      log(`Playwright MCP: ${error.message}`);
      return undefined;
    });

  console.log(`\nbrowser_click round trip, a button whose text changes; ${CLICKS} clicks after ${WARMUP} warm-up,`);
  console.log(`${os.cpus().length} CPUs, Node ${process.version}, official MCP SDK client, GSK_RENDERER=${RENDERER} ` +
              '(target: Tabwright median < 100 ms)\n');
  console.log('|        | Tabwright | Playwright MCP |');
  console.log('|--------|-----------|----------------|');
  console.log(`| median | ${ms(results.tabwright?.median)} | ${ms(results.playwright?.median)} |`);
  console.log(`| p90    | ${ms(results.tabwright?.p90)} | ${ms(results.playwright?.p90)} |`);
}

try {
  await main();
} finally {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch {
      // Best effort on the way out.
    }
  }
}
