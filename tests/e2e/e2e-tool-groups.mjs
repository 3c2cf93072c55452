// SPDX-License-Identifier: GPL-3.0-or-later
//
// Tool groups in a real Tabwright, through the official MCP SDK client: the
// server declares tools.listChanged; `tabwright --tools GROUP,…` given to a
// second launch reaches the running app (GApplication hands it the command
// line), which tells connected clients with notifications/tools/list_changed;
// tools/list then lists only the offered groups, and a call to a tool of a
// group that is off fails with browser_disabled.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { startFixtureServer } from './lib/fixture-server.mjs';
import { callError, callOk, connectClient } from './lib/mcp.mjs';
import { requirementOptions, run, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();
const CORE_TOOLS = ['browser_list_tabs', 'browser_new_tab', 'browser_snapshot', 'browser_click', 'browser_navigate'];

let fixtures;
let app;

before(async () => {
  if (options.skip)
    return;
  fixtures = await startFixtureServer();
  app = await startTabwright();
});

after(async () => {
  await app?.stop();
  await fixtures?.close();
});

// Runs `tabwright --workspace <the app's> ARGS` as a second launch.
function secondLaunch(args) {
  return run(process.env.TABWRIGHT_BIN, ['--workspace', app.dirs.workspace, ...args],
    { env: app.env, timeoutMs: 30000 });
}

// A client that counts notifications/tools/list_changed; next() resolves
// at the next one.
async function watchedClient(name) {
  const client = await connectClient(app, name);
  const watch = { count: 0, waiters: [] };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    watch.count++;
    for (const resolve of watch.waiters.splice(0))
      resolve();
  });
  watch.next = () => new Promise((resolve) => watch.waiters.push(resolve));
  return { client, watch };
}

const names = async (client) => (await client.listTools()).tools.map((tool) => tool.name);

test('--tools on a second launch changes the offered groups, and clients are told', options, async () => {
  const { client, watch } = await watchedClient('groups-e2e');
  const { client: other, watch: otherWatch } = await watchedClient('groups-e2e-other');
  try {
    assert.equal(client.getServerCapabilities()?.tools?.listChanged, true, 'the server declares tools.listChanged');

    const before = await names(client);
    for (const tool of CORE_TOOLS)
      assert.ok(before.includes(tool), `the default set offers ${tool}`);
    // The server's instructions send a model only to tools the default set
    // offers (browser_stale_ref is the error they explain).
    const named = new Set(client.getInstructions()?.match(/\bbrowser_[a-z_]+\b/g) ?? []);
    named.delete('browser_stale_ref');
    assert.ok(named.has('browser_snapshot'), `the instructions name browser_snapshot: ${client.getInstructions()}`);
    for (const tool of named)
      assert.ok(before.includes(tool), `the instructions name ${tool}, which the default set does not offer`);
    // Every tool of the default set carries the words agents search for, as
    // the search hint Claude Code's ToolSearch reads.
    const unhinted = (await client.listTools()).tools.filter((tool) => typeof tool._meta?.['anthropic/searchHint'] !== 'string');
    assert.deepEqual(unhinted.map((tool) => tool.name), [], 'every tool of the default set has a search hint');
    const { data: opened } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/page?title=Groups') });

    // A name Tabwright does not know is refused, and the refusal names the
    // groups there are.
    const refused = await secondLaunch(['--tools', 'core,no-such-group']);
    assert.equal(refused.code, 1, `an unknown group fails the launch: ${refused.stderr}`);
    assert.match(refused.stderr, /Unknown tool group “no-such-group”; the groups are: core/);
    const groups = refused.stderr.match(/the groups are: ([^\n]*)/)[1].split(', ');
    assert.equal(groups[0], 'core');
    const others = groups.filter((group) => group !== 'core');

    // Everything but core: both clients hear of it, and core's tools go.
    let changed = watch.next();
    let otherChanged = otherWatch.next();
    const off = await secondLaunch(['--tools', others.join(',')]);
    assert.equal(off.code, 0, off.stderr);
    await changed;
    await otherChanged;
    const without = await names(client);
    for (const tool of CORE_TOOLS)
      assert.ok(!without.includes(tool), `${tool} is no longer listed`);
    assert.ok(without.length > 0 && without.every((tool) => !before.includes(tool)),
      `only the other groups' tools are listed: ${without}`);
    assert.deepEqual(await names(other), without, 'every client of the workspace sees the same list');

    // Calls to a tool that is off are turned away, whatever the arguments.
    const { text } = await callError(client, 'browser_snapshot', { browserId: opened.browserId }, 'browser_disabled');
    assert.match(text, /browser_snapshot belongs to the "core" tools/);
    await callError(client, 'browser_click', { browserId: opened.browserId, ref: 'not a ref' }, 'browser_disabled');

    // Core again, alone: the list is back and the tab was never touched.
    changed = watch.next();
    const on = await secondLaunch(['--tools', 'core']);
    assert.equal(on.code, 0, on.stderr);
    await changed;
    const back = await names(client);
    for (const tool of CORE_TOOLS)
      assert.ok(back.includes(tool), `${tool} is listed again`);
    const { data: tabs } = await callOk(client, 'browser_list_tabs');
    assert.deepEqual(tabs.tabs.map((tab) => tab.url), [fixtures.url('/page?title=Groups')]);
  } finally {
    await client.close();
    await other.close();
  }
});
