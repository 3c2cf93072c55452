// SPDX-License-Identifier: GPL-3.0-or-later
//
// Drives browser tabs of a real Tabwright through the official MCP SDK client:
// tools are listed with their schemas, a tab is opened on a local page,
// navigated, moved back and forward, reloaded and closed, and bad requests
// fail with the right tool error codes.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { assertTextMentions, callError, callOk, resultText } from './lib/mcp.mjs';
import { startSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();
let session;
let fixtures;
let client;
let tools;
let tabId;

before(async () => {
  if (options.skip)
    return;
  session = await startSession();
  ({ fixtures, client } = session);
});

after(async () => {
  await session?.close();
});

const TAB_TOOLS = [
  'browser_list_tabs',
  'browser_new_tab',
  'browser_close_tab',
  'browser_navigate',
  'browser_back',
  'browser_forward',
  'browser_reload',
];

test('tools/list names the tab tools with schemas and annotations', options, async () => {
  ({ tools } = await client.listTools());
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const name of TAB_TOOLS)
    assert.ok(byName.has(name), `tools/list includes ${name}`);

  for (const tool of tools) {
    assert.match(tool.name, /^browser_[a-z_]+$/, 'tool names are browser_*');
    assert.equal(typeof tool.description, 'string');
    assert.ok(tool.description.length >= 20, `${tool.name} has a real description`);
    assert.equal(tool.inputSchema?.type, 'object', `${tool.name} inputSchema is an object schema`);
    if (tool.outputSchema)
      assert.equal(tool.outputSchema.type, 'object', `${tool.name} outputSchema is an object schema`);
  }

  const schema = (name) => byName.get(name).inputSchema;
  for (const name of ['browser_close_tab', 'browser_navigate', 'browser_back', 'browser_forward', 'browser_reload']) {
    assert.ok(schema(name).required?.includes('browserId'), `${name} requires browserId`);
    assert.equal(schema(name).properties.browserId.type, 'string', `${name} browserId is a string`);
  }
  assert.ok(schema('browser_navigate').required.includes('url'), 'browser_navigate requires url');
  assert.equal(schema('browser_navigate').properties.url.type, 'string');
  assert.equal(schema('browser_new_tab').properties.url.type, 'string');
  assert.ok(!(schema('browser_new_tab').required ?? []).includes('url'), 'browser_new_tab url is optional');

  // Tools whose callers need machine-readable fields declare an outputSchema.
  for (const name of TAB_TOOLS)
    assert.ok(byName.get(name).outputSchema, `${name} has an outputSchema`);

  assert.equal(byName.get('browser_list_tabs').annotations?.readOnlyHint, true, 'listing tabs is read-only');
  assert.notEqual(byName.get('browser_navigate').annotations?.readOnlyHint, true, 'navigating is not read-only');
  // MCP's default for a tool that is not read-only is destructive; closing a
  // tab must not claim otherwise.
  assert.notEqual(byName.get('browser_close_tab').annotations?.destructiveHint, false, 'closing a tab is destructive');
});

test('browser_new_tab opens a local page and reports it', options, async () => {
  const url = fixtures.url('/one.html');
  const { data, text } = await callOk(client, 'browser_new_tab', { url });
  assert.equal(typeof data.browserId, 'string');
  assert.ok(data.browserId.length > 0 && data.browserId.length <= 16, `browserId is short: ${data.browserId}`);
  assert.equal(data.url, url);
  assert.equal(data.title, 'Page One');
  assert.equal(data.status, 200);
  assertTextMentions(text, [data.browserId, data.url, data.title]);
  tabId = data.browserId;
});

test('browser_list_tabs shows the new tab', options, async () => {
  const { data, text } = await callOk(client, 'browser_list_tabs');
  assert.ok(Array.isArray(data.tabs));
  const tab = data.tabs.find((t) => t.browserId === tabId);
  assert.ok(tab, `tab ${tabId} is listed: ${JSON.stringify(data.tabs)}`);
  assert.equal(tab.url, fixtures.url('/one.html'));
  assert.equal(tab.title, 'Page One');
  assert.equal(typeof tab.loading, 'boolean');
  assertTextMentions(text, [tab.browserId, tab.url, tab.title]);
});

test('browser_navigate goes to a second page', options, async () => {
  const url = fixtures.url('/two.html');
  const { data, text } = await callOk(client, 'browser_navigate', { browserId: tabId, url });
  assert.equal(data.browserId, tabId);
  assert.equal(data.url, url);
  assert.equal(data.title, 'Page Two');
  assert.equal(data.status, 200);
  assertTextMentions(text, [data.url, data.title, data.status]);
});

test('after browser_navigate, the next read waits until the page has settled after its load event', options, async () => {
  const browserId = (await callOk(client, 'browser_new_tab', { url: fixtures.url('/one.html') })).data.browserId;
  const url = fixtures.url('/after-load.html');
  const { data } = await callOk(client, 'browser_navigate', { browserId, url });
  // The navigation returns once the page has loaded; the page then keeps
  // changing for 150 ms. The snapshot that follows at once shows the page
  // it settled on.
  assert.equal(data.url, url);
  const snapshot = resultText(await client.callTool({ name: 'browser_snapshot', arguments: { browserId } }));
  assert.ok(snapshot.startsWith(`Page: Rendered — ${url}\n`), `the page line:\n${snapshot}`);
  assert.match(snapshot, /button "Rendered after load"/);
  assert.match(snapshot, /Ready/);
  assert.doesNotMatch(snapshot, /Rendering, step/);

  // So does a script run on the page right after the next navigation.
  await callOk(client, 'browser_navigate', { browserId, url });
  const state = await callOk(client, 'browser_evaluate', {
    browserId, function: '() => document.getElementById("state").textContent',
  });
  assert.equal(state.data.result, 'Ready', JSON.stringify(state.data));
  await callOk(client, 'browser_close_tab', { browserId });
});

test('browser_navigate reports the HTTP status of an error page', options, async () => {
  const url = fixtures.url('/status/404');
  const { data, text } = await callOk(client, 'browser_navigate', { browserId: tabId, url });
  assert.equal(data.url, url);
  assert.equal(data.title, 'Status 404');
  assert.equal(data.status, 404);
  assertTextMentions(text, [data.url, data.status]);
});

test('browser_back and browser_forward walk the history', options, async () => {
  let { data, text } = await callOk(client, 'browser_back', { browserId: tabId });
  assert.equal(data.browserId, tabId);
  assert.equal(data.url, fixtures.url('/two.html'));
  assert.equal(data.title, 'Page Two');
  assertTextMentions(text, [data.url, data.title]);

  ({ data, text } = await callOk(client, 'browser_back', { browserId: tabId }));
  assert.equal(data.url, fixtures.url('/one.html'));
  assert.equal(data.title, 'Page One');
  assertTextMentions(text, [data.url, data.title]);

  ({ data, text } = await callOk(client, 'browser_forward', { browserId: tabId }));
  assert.equal(data.url, fixtures.url('/two.html'));
  assert.equal(data.title, 'Page Two');
  assertTextMentions(text, [data.url, data.title]);
});

test('browser_reload reloads the current page', options, async () => {
  const { data, text } = await callOk(client, 'browser_reload', { browserId: tabId });
  assert.equal(data.browserId, tabId);
  assert.equal(data.url, fixtures.url('/two.html'));
  assert.equal(data.title, 'Page Two');
  assertTextMentions(text, [data.url, data.title]);

  const { data: list } = await callOk(client, 'browser_list_tabs');
  const tab = list.tabs.find((t) => t.browserId === tabId);
  assert.equal(tab.url, fixtures.url('/two.html'), 'the reloaded tab stays on its page');
});

test('browser_snapshot reads a client-rendered React page with stable refs', options, async () => {
  const { data } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/react.html') });
  const id = data.browserId;
  assert.equal(data.title, 'React Todo');
  try {
    // React renders after the load event, so an agent waits for what it
    // expects to read, as it would on any client-rendered page.
    await callOk(client, 'browser_wait', { browserId: id, text: '2 tasks', timeoutMs: 10000 });
    const first = resultText(await client.callTool({ name: 'browser_snapshot', arguments: { browserId: id } }));
    assert.ok(first.startsWith(`Page: React Todo — ${fixtures.url('/react.html')}\n`), `the page line:\n${first}`);

    // What React rendered is there, with roles, names and refs.
    const refOf = (text, role, name) => {
      const line = text.split('\n').find((l) => l.trimStart().startsWith(`- ${role} "${name}"`));
      assert.ok(line, `${role} "${name}" is in the snapshot:\n${text}`);
      const ref = /@e\d+/.exec(line);
      assert.ok(ref, `${role} "${name}" has a ref: ${line}`);
      return { line, ref: ref[0] };
    };
    assert.match(refOf(first, 'heading', 'Todo').line, /\[level=1\]/);
    const controls = [
      ['textbox', 'New task'],
      ['button', 'Add'],
      ['checkbox', 'Write tests'],
      ['checkbox', 'Ship it'],
    ];
    const refs = controls.map(([role, name]) => refOf(first, role, name).ref);
    assert.equal(new Set(refs).size, refs.length, 'every element has its own ref');
    assert.match(first, /2 tasks/, 'text content is included');

    // A second snapshot names the same elements with the same refs.
    const second = resultText(await client.callTool({ name: 'browser_snapshot', arguments: { browserId: id } }));
    assert.deepEqual(controls.map(([role, name]) => refOf(second, role, name).ref), refs);

    // The interactive form keeps the controls and drops the rest.
    const interactive = resultText(await client.callTool({
      name: 'browser_snapshot', arguments: { browserId: id, interactive: true },
    }));
    assert.deepEqual(controls.map(([role, name]) => refOf(interactive, role, name).ref), refs);
    assert.doesNotMatch(interactive, /2 tasks/, 'plain text is left out of the interactive form');
  } finally {
    await callOk(client, 'browser_close_tab', { browserId: id });
  }
  await callError(client, 'browser_snapshot', { browserId: id }, 'browser_not_found');
});

test('browser_close_tab closes the tab, which is then not found', options, async () => {
  const { data, text } = await callOk(client, 'browser_close_tab', { browserId: tabId });
  assert.equal(data.browserId, tabId);
  assert.equal(data.closed, true);
  assertTextMentions(text, [tabId]);

  const { data: list } = await callOk(client, 'browser_list_tabs');
  assert.ok(!list.tabs.some((t) => t.browserId === tabId), 'the closed tab is no longer listed');

  for (const [name, args] of [
    ['browser_navigate', { browserId: tabId, url: fixtures.url('/one.html') }],
    ['browser_reload', { browserId: tabId }],
    ['browser_close_tab', { browserId: tabId }],
  ]) {
    const { error } = await callError(client, name, args, 'browser_not_found');
    assert.equal(error.retryable, false);
    assert.ok(error.message.includes(tabId), `the message names the tab: ${error.message}`);
  }
  await callError(client, 'browser_back', { browserId: 'b999999' }, 'browser_not_found');
});

test('non-http(s) URLs and empty history are denied', options, async () => {
  const { data } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/one.html') });
  const id = data.browserId;

  await callError(client, 'browser_navigate', { browserId: id, url: 'file:///etc/passwd' }, 'browser_denied');
  await callError(client, 'browser_navigate', { browserId: id, url: 'javascript:alert(1)' }, 'browser_denied');
  await callError(client, 'browser_new_tab', { url: 'file:///etc/passwd' }, 'browser_denied');
  await callError(client, 'browser_back', { browserId: id }, 'browser_denied');
  await callError(client, 'browser_forward', { browserId: id }, 'browser_denied');

  // A denied navigation leaves the tab where it was.
  const { data: list } = await callOk(client, 'browser_list_tabs');
  const tab = list.tabs.find((t) => t.browserId === id);
  assert.equal(tab.url, fixtures.url('/one.html'));

  await callOk(client, 'browser_close_tab', { browserId: id });
});

test('arguments of the wrong type are invalid arguments', options, async () => {
  const { data } = await callOk(client, 'browser_new_tab', {});
  const id = data.browserId;
  try {
    await callError(client, 'browser_navigate', { browserId: 42, url: fixtures.url('/one.html') }, 'browser_invalid_argument');
    await callError(client, 'browser_navigate', { browserId: id, url: 7 }, 'browser_invalid_argument');
    await callError(client, 'browser_navigate', { browserId: id }, 'browser_invalid_argument');
    await callError(client, 'browser_new_tab', { url: ['http://127.0.0.1/'] }, 'browser_invalid_argument');
    await callError(client, 'browser_close_tab', {}, 'browser_invalid_argument');
    await callError(client, 'browser_back', { browserId: null }, 'browser_invalid_argument');
  } finally {
    await callOk(client, 'browser_close_tab', { browserId: id });
  }
});
