// SPDX-License-Identifier: GPL-3.0-or-later
//
// Settings of a real Tabwright, changed from outside while it runs:
// turning browser tools off for the workspace (gsettings, the same key the
// Preferences switch writes) makes every tool call fail with
// browser_disabled at once, and turning them on again makes them work; the
// open tabs come back on the next launch as the person's own; the window
// opens at the remembered size and saves its size when the app quits.
//
// The app runs on GSettings' keyfile backend in its private config folder,
// which notices changes made by other processes, so the gsettings command
// line tool changes the settings of the running app.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';

import { startFixtureServer } from './lib/fixture-server.mjs';
import { callError, callOk, connectClient, resultText } from './lib/mcp.mjs';
import { makeAppDirs, requirementOptions, run, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();
const SCHEMA = 'io.github.tabwright.Tabwright';
const WORKSPACE_SCHEMA = `${SCHEMA}.Workspace`;
const LIVE_TIMEOUT_MS = 10000;

let fixtures;
const persistent = [];

before(async () => {
  if (options.skip)
    return;
  fixtures = await startFixtureServer();
});

after(async () => {
  await fixtures?.close();
  for (const dir of persistent)
    fs.rmSync(dir, { recursive: true, force: true });
});

// What outlives one launch: the workspace folder, its data and the
// settings. Each test has its own.
function makePersistentDirs() {
  const persist = fs.mkdtempSync(path.join(os.tmpdir(), 'tabwright-e2e-settings-'));
  for (const dir of ['workspace', 'data', 'config'])
    fs.mkdirSync(path.join(persist, dir), { mode: 0o700 });
  persistent.push(persist);
  return persist;
}

// Starts Tabwright on the persistent workspace, data and settings.
function launch(persist, extraArgs = []) {
  const dirs = makeAppDirs();
  dirs.workspace = path.join(persist, 'workspace');
  return startTabwright({
    dirs,
    args: extraArgs,
    env: {
      GSETTINGS_BACKEND: 'keyfile',
      XDG_DATA_HOME: path.join(persist, 'data'),
      XDG_CONFIG_HOME: path.join(persist, 'config'),
    },
  });
}

// Runs the gsettings tool against the settings the app uses.
async function gsettings(persist, ...args) {
  const env = {
    ...process.env,
    GSETTINGS_BACKEND: 'keyfile',
    XDG_CONFIG_HOME: path.join(persist, 'config'),
  };
  const { code, stdout, stderr } = await run('gsettings', args, { env, timeoutMs: 20000 });
  assert.equal(code, 0, `gsettings ${args.join(' ')} failed: ${stderr}`);
  return stdout.trim();
}

function workspaceSchemaPath(workspaceId) {
  return `${WORKSPACE_SCHEMA}:/io/github/tabwright/Tabwright/workspaces/${workspaceId}/`;
}

// Calls @name until @check(result) holds: settings changes reach the app
// through a file monitor, a moment after gsettings wrote them.
async function callUntil(client, name, args, check, what) {
  const deadline = Date.now() + LIVE_TIMEOUT_MS;
  let last;
  while (Date.now() < deadline) {
    last = await client.callTool({ name, arguments: args });
    if (check(last))
      return last;
    await sleep(100);
  }
  assert.fail(`${what} within ${LIVE_TIMEOUT_MS} ms; the last ${name} said: ${resultText(last)}`);
}

// The text of a tool that answers with text only (browser_snapshot).
async function callText(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  const text = resultText(result);
  assert.notEqual(result.isError, true, `${name} failed: ${text}`);
  return text;
}

const isDisabled = (result) => result.isError === true && result.structuredContent?.error?.code === 'browser_disabled';

test('browser tools turned off and on again apply to the running app at once', options, async () => {
  const persist = makePersistentDirs();
  const app = await launch(persist);
  const client = await connectClient(app);
  try {
    const schemaPath = workspaceSchemaPath(app.info.workspaceId);
    assert.equal(await gsettings(persist, 'get', schemaPath, 'browser-tools-enabled'), 'true');

    const { data: opened } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/page?title=Before') });

    await gsettings(persist, 'set', schemaPath, 'browser-tools-enabled', 'false');
    await callUntil(client, 'browser_list_tabs', {}, isDisabled, 'browser_list_tabs never failed with browser_disabled');

    // Every tool, whatever its arguments, is turned away before it runs.
    const { text } = await callError(client, 'browser_new_tab', { url: fixtures.url('/page?title=During') }, 'browser_disabled');
    assert.match(text, /turned off for this workspace/);
    await callError(client, 'browser_snapshot', { browserId: opened.browserId }, 'browser_disabled');
    await callError(client, 'browser_navigate', { browserId: opened.browserId, url: fixtures.url('/page?title=During') }, 'browser_disabled');
    await callError(client, 'browser_click', { browserId: 'b999999', ref: '@e1' }, 'browser_disabled');
    await callError(client, 'browser_close_tab', {}, 'browser_disabled');

    // The tools are still listed, so agents learn what they could do.
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'browser_snapshot'), 'tools/list still lists the tools');

    await gsettings(persist, 'set', schemaPath, 'browser-tools-enabled', 'true');
    const back = await callUntil(client, 'browser_list_tabs', {}, (result) => result.isError !== true,
      'browser_list_tabs never worked again');
    const urls = back.structuredContent.tabs.map((tab) => tab.url);
    assert.deepEqual(urls, [fixtures.url('/page?title=Before')], 'the tab opened before is still there, and only it');

    assert.match(await callText(client, 'browser_snapshot', { browserId: opened.browserId }), /heading "Before"/);
  } finally {
    await client.close().catch(() => {});
    const { clean } = await app.stop();
    assert.ok(clean, 'tabwright exits cleanly');
  }
});

test('the tabs come back on the next launch, as the person\'s, and the window keeps its size', options, async () => {
  const persist = makePersistentDirs();
  const sessionFile = () => {
    const workspaces = path.join(persist, 'data', 'tabwright', 'workspaces');
    const [id] = fs.readdirSync(workspaces);
    return path.join(workspaces, id, 'session.json');
  };

  // First launch: an agent (this client) opens tabs and moves one on.
  let app = await launch(persist);
  let client = await connectClient(app);
  const one = fixtures.url('/page?title=One');
  const two = fixtures.url('/page?title=Two');
  const three = fixtures.url('/page?title=Three');
  try {
    const { data: first } = await callOk(client, 'browser_new_tab', { url: one });
    const { data: second } = await callOk(client, 'browser_new_tab', { url: two });
    await callOk(client, 'browser_navigate', { browserId: second.browserId, url: three });
    // A blank tab has nothing worth reopening.
    await callOk(client, 'browser_new_tab', {});
    const { data: listed } = await callOk(client, 'browser_list_tabs');
    assert.equal(listed.tabs.find((tab) => tab.browserId === first.browserId).owner, 'External client',
      'the tabs belong to the agent that opened them');

    // Nothing saved yet: the schema's default size.
    await assertWindowSize(1280, 800);
  } finally {
    await client.close().catch(() => {});
    const { clean } = await app.stop();
    assert.ok(clean, 'tabwright exits cleanly');
  }

  const session = JSON.parse(fs.readFileSync(sessionFile(), 'utf8'));
  assert.equal(session.version, 1);
  assert.deepEqual(session.tabs.map((tab) => tab.url), [one, three], 'session.json keeps the web pages in order');
  assert.deepEqual(session.tabs.map((tab) => tab.title), ['One', 'Three']);
  assert.equal(fs.statSync(sessionFile()).mode & 0o777, 0o600, 'only the user reads session.json');
  const keyfile = fs.readFileSync(path.join(persist, 'config', 'glib-2.0', 'settings', 'keyfile'), 'utf8');
  assert.match(keyfile, /^window-width=1280$/m, 'the window saved its width on quit');
  assert.match(keyfile, /^window-height=800$/m, 'the window saved its height on quit');
  assert.match(keyfile, /^window-maximized=false$/m, 'the window saved that it was not maximized');

  await gsettings(persist, 'set', SCHEMA, 'window-width', '1000');
  await gsettings(persist, 'set', SCHEMA, 'window-height', '700');

  // Second launch: the tabs are back, nobody drives them.
  app = await launch(persist);
  client = await connectClient(app);
  try {
    // Reopened tabs load on their own; wait for them to finish.
    let data;
    const deadline = Date.now() + LIVE_TIMEOUT_MS;
    do {
      ({ data } = await callOk(client, 'browser_list_tabs'));
      if (data.tabs.every((tab) => !tab.loading && tab.title !== ''))
        break;
      await sleep(100);
    } while (Date.now() < deadline);
    assert.deepEqual(data.tabs.map((tab) => tab.url), [one, three], 'the tabs reopened in their order');
    assert.deepEqual(data.tabs.map((tab) => tab.title), ['One', 'Three'], 'the tabs loaded their pages');
    for (const tab of data.tabs)
      assert.equal(tab.owner, null, `${tab.url} came back as the person's tab`);

    // They are real tabs: an agent can pick them up.
    assert.match(await callText(client, 'browser_snapshot', { browserId: data.tabs[1].browserId }), /heading "Three"/);

    await assertWindowSize(1000, 700);
  } finally {
    await client.close().catch(() => {});
    const { clean } = await app.stop();
    assert.ok(clean, 'tabwright exits cleanly');
  }

  // Turned off, the tabs stay closed (and are still saved for later).
  await gsettings(persist, 'set', SCHEMA, 'restore-tabs', 'false');
  app = await launch(persist);
  client = await connectClient(app);
  try {
    const { data } = await callOk(client, 'browser_list_tabs');
    assert.deepEqual(data.tabs, [], 'with restore-tabs off nothing reopens');
  } finally {
    await client.close().catch(() => {});
    const { clean } = await app.stop();
    assert.ok(clean, 'tabwright exits cleanly');
  }
});

// The size of the app's top-level X11 window, from xwininfo; the tests run
// on Xvfb without a window manager, so it is exactly what GTK asked for.
async function assertWindowSize(width, height) {
  const { code, stdout } = await run('xwininfo', ['-root', '-tree'], { env: process.env, timeoutMs: 10000 });
  assert.equal(code, 0, 'xwininfo runs');
  const line = stdout.split('\n').find((l) => l.includes('— Tabwright'));
  assert.ok(line, `the window is on the display:\n${stdout}`);
  const size = /(\d+)x(\d+)\+/.exec(line);
  assert.ok(size, `xwininfo gives the size: ${line}`);
  assert.deepEqual([Number(size[1]), Number(size[2])], [width, height], 'the window opened at the remembered size');
}
