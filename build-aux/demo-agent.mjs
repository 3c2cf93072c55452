// SPDX-License-Identifier: GPL-3.0-or-later
//
// A scripted stand-in for a coding agent, for screenshots and demos: it
// connects to Tabwright with the endpoint and token the app hands to agents
// (TABWRIGHT_MCP_URL, TABWRIGHT_MCP_TOKEN), works through a page the way an
// agent would and narrates each tool call. Run by build-aux/screenshot as
//   tabwright --launch-agent 'custom:node build-aux/demo-agent.mjs'
// with TABWRIGHT_DEMO_URL naming the page and TABWRIGHT_DEMO_DONE a file to
// create when it has finished.

import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const BOLD = '\x1b[1m';
const DIM = '\x1b[2m';
const GREEN = '\x1b[32m';
const BLUE = '\x1b[34m';
const RESET = '\x1b[0m';

function say(text) {
  process.stdout.write(`${BOLD}●${RESET} ${text}\n`);
}

function detail(text) {
  process.stdout.write(`  ${DIM}└${RESET} ${text}\n`);
}

async function call(client, name, args) {
  process.stdout.write(`  ${BLUE}${name}${RESET}${DIM}(${JSON.stringify(args)})${RESET}\n`);
  const result = await client.callTool({ name, arguments: args });
  const text = result.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
  if (result.isError)
    throw new Error(text);
  return { result, text, data: result.structuredContent };
}

// Finds the ref of the first line of a snapshot with @role and a name
// containing @name.
function findRef(snapshot, role, name) {
  for (const line of snapshot.split('\n')) {
    const match = /^\s*- ([a-z]+) "([^"]*)".*?(@e\d+)/.exec(line);
    if (match && match[1] === role && match[2].includes(name))
      return match[3];
  }
  return null;
}

// Works through the page at @url. @beforeLastAction, when given, runs just
// before the last action, which ticks the new task off: the screenshot is
// taken while Tabwright still shows that action on the page.
export async function runDemo(client, url, beforeLastAction = () => {}) {
  const { tools } = await client.listTools();
  const has = new Set(tools.map((t) => t.name));

  say(`I'll check the todo app at ${url}.`);
  const { data } = await call(client, 'browser_new_tab', { url });
  const browserId = data.browserId;
  detail(`Opened ${browserId}: "${data.title}" (HTTP ${data.status})`);
  await sleep(600);

  if (!has.has('browser_snapshot')) {
    say('Reloading to make sure the page comes back the same.');
    const { data: reloaded } = await call(client, 'browser_reload', { browserId });
    detail(`"${reloaded.title}" (HTTP ${reloaded.status})`);
    return browserId;
  }

  say('Reading the page.');
  let { text: snapshot } = await call(client, 'browser_snapshot', { browserId });
  detail(`${snapshot.split('\n').length} lines, ${snapshot.length} characters`);
  await sleep(600);

  const field = findRef(snapshot, 'textbox', 'New task');
  const add = findRef(snapshot, 'button', 'Add');
  if (field && add && has.has('browser_fill') && has.has('browser_click')) {
    say('Adding a task through the form.');
    await call(client, 'browser_fill', { browserId, ref: field, value: 'Review the pull request' });
    await sleep(400);
    await call(client, 'browser_click', { browserId, ref: add });
    ({ text: snapshot } = await call(client, 'browser_snapshot', { browserId }));
    const added = snapshot.includes('Review the pull request');
    detail(added ? `${GREEN}The new task is listed.${RESET}` : 'The new task is missing!');

    const checkbox = findRef(snapshot, 'checkbox', 'Review the pull request');
    if (checkbox) {
      await sleep(400);
      say('Ticking it off.');
      beforeLastAction();
      await call(client, 'browser_click', { browserId, ref: checkbox });
      return browserId;
    }
  }
  beforeLastAction();
  return browserId;
}

async function main() {
  const url = process.env.TABWRIGHT_MCP_URL;
  const token = process.env.TABWRIGHT_MCP_TOKEN;
  const page = process.env.TABWRIGHT_DEMO_URL;
  if (!url || !token || !page) {
    console.error('demo-agent: TABWRIGHT_MCP_URL, TABWRIGHT_MCP_TOKEN and TABWRIGHT_DEMO_URL must be set');
    process.exit(2);
  }
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'demo-agent', version: '1.0.0' });
  await client.connect(transport);
  await runDemo(client, page, () => {
    if (process.env.TABWRIGHT_DEMO_DONE)
      fs.writeFileSync(process.env.TABWRIGHT_DEMO_DONE, 'done\n');
  });
  say(`${GREEN}Done.${RESET} The page works as expected.`);
  // Stay, like an agent waiting for its next prompt, so the terminal keeps
  // showing the transcript. A promise that never settles does not keep Node
  // alive (it exits with code 13 when nothing else is pending); a timer does.
  setInterval(() => {}, 1 << 30);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  await main();
