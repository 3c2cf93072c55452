// SPDX-License-Identifier: GPL-3.0-or-later
//
// How much of a model's context the tool definitions take. Claude Code and
// Codex hand the model, per MCP tool, its name, its description and its
// inputSchema (Claude Code as {name, description, input_schema}, Codex as a
// function with parameters); title, annotations and outputSchema stay with
// the client. So the figure per tool is the length in characters of
// JSON.stringify({name, description, input_schema}), with the MCP name (the
// clients' "mcp__<server>__" prefix, the same for every server, left out).
//
// Prints it per tool and per group of Tabwright (from the tool tables, via
// tabwright-tool-docs --json), for the default groups of the workspace
// setting (data/*.gschema.xml) and for Playwright MCP's default tool set,
// listed through the MCP SDK's stdio client. It asserts nothing.
//
//   bench/run --tool-size [--json FILE] [--quiet]

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { srcdir } from '../tests/e2e/lib/tabwright.mjs';

const { values: opts } = parseArgs({
  options: {
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    docs: { type: 'string', default: path.join(process.env.TABWRIGHT_BUILDDIR ?? path.join(srcdir, 'build'), 'mcp', 'tabwright-tool-docs') },
  },
});

const size = (tool) => JSON.stringify({ name: tool.name, description: tool.description ?? '', input_schema: tool.inputSchema }).length;

function defaultGroups() {
  const schema = fs.readFileSync(path.join(srcdir, 'data', 'io.github.tabwright.Tabwright.gschema.xml'), 'utf8');
  const key = schema.match(/<key name="tool-groups" type="as">\s*<default>\[([^\]]*)\]<\/default>/);
  if (!key)
    throw new Error('the tool-groups key has no default in the schema');
  return [...key[1].matchAll(/'([^']*)'/g)].map((m) => m[1]);
}

async function playwrightTools() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabwright-tool-size-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(srcdir, 'node_modules', '@playwright', 'mcp', 'cli.js'), '--headless', '--isolated',
      '--output-dir', path.join(dir, 'output')],
    cwd: dir,
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'tool-size-bench', version: '1.0.0' });
  try {
    await client.connect(transport);
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const sum = (tools) => tools.reduce((total, tool) => total + size(tool), 0);
const pad = (text, width) => String(text).padEnd(width);
const num = (n, width = 7) => String(n).padStart(width);

const tabwright = JSON.parse(execFileSync(opts.docs, ['--json'], { encoding: 'utf8' })).tools;
const playwright = await playwrightTools();
const defaults = defaultGroups();
const groups = [...new Set(tabwright.map((tool) => tool.group))];
const offered = tabwright.filter((tool) => defaults.includes(tool.group));

if (!opts.quiet) {
  console.log('Tabwright, per tool (characters a model reads: name + description + inputSchema)');
  for (const tool of tabwright)
    console.log(`  ${pad(tool.name, 24)} ${pad(tool.group, 12)} ${num(size(tool))}`);
  console.log('');
}

console.log('Per group');
for (const group of groups) {
  const tools = tabwright.filter((tool) => tool.group === group);
  console.log(`  ${pad(group, 12)} ${num(tools.length, 3)} tools ${num(sum(tools))} chars` +
    `${defaults.includes(group) ? '  (default)' : ''}`);
}
const missing = defaults.filter((group) => !groups.includes(group));
if (missing.length > 0)
  console.log(`  default groups not in this build: ${missing.join(', ')}`);
console.log('');

const rows = [
  ['Tabwright default set', offered],
  ['Tabwright, every group', tabwright],
  ['Playwright MCP default set', playwright],
];
console.log('Sets');
for (const [label, tools] of rows) {
  const total = sum(tools);
  console.log(`  ${pad(label, 28)} ${num(tools.length, 3)} tools ${num(total)} chars` +
    `  (${Math.round(total / Math.max(tools.length, 1))} per tool)`);
}

if (opts.json) {
  fs.writeFileSync(opts.json, JSON.stringify({
    defaults,
    tools: tabwright.map((tool) => ({ name: tool.name, group: tool.group, chars: size(tool) })),
    sets: Object.fromEntries(rows.map(([label, tools]) => [label, { tools: tools.length, chars: sum(tools) }])),
  }, null, 2));
}
