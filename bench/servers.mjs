// SPDX-License-Identifier: GPL-3.0-or-later
//
// What the benchmarks share: Tabwright and Playwright MCP, each behind the
// official MCP SDK client, a call that fails loudly, and the statistics.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { ensureDisplay } from './display.mjs';
import { connectClient, resultText } from '../tests/e2e/lib/mcp.mjs';
import { srcdir, startTabwright } from '../tests/e2e/lib/tabwright.mjs';

export function percentile(samples, p) {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index];
}

export async function time(fn) {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

export function ms(value) {
  return value === undefined ? '—' : `${value.toFixed(1)} ms`;
}

// Tabwright on a display of its own where there is none; pushes what stops
// it onto @cleanups.
export async function startTabwrightClient(log, cleanups) {
  const env = await ensureDisplay(log, cleanups);
  const app = await startTabwright({ env });
  cleanups.push(() => app.stop());
  const client = await connectClient(app, 'tabwright-bench');
  cleanups.push(() => client.close());
  const { tools } = await client.listTools();
  return { app, client, tools: new Set(tools.map((t) => t.name)) };
}

// Playwright MCP on the Chromium at @chromium, headless and isolated.
export async function startPlaywrightClient(chromium, cleanups) {
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
    '--executable-path', chromium,
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
  return { client, dir, pid: transport.pid, tools: new Set(tools.map((t) => t.name)) };
}

export async function call(client, name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError)
    throw new Error(`${name} failed: ${resultText(result)}`);
  return result;
}

// Prints rows of [label, Tabwright, Playwright MCP] as a table.
export function printComparison(title, rows) {
  const header = ['', 'Tabwright', 'Playwright MCP'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  console.log(`\n${title} on ${os.cpus().length} CPUs, Node ${process.version}, official MCP SDK client`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows)
    console.log(line(r));
}

// Runs @main, then everything pushed onto @cleanups, newest first, and
// exits: 1 if @main threw.
export async function runBench(main, cleanups) {
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
        // Best effort: everything is torn down with the process anyway.
      }
    }
  }
  process.exit(exitCode);
}
