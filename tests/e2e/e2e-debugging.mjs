// SPDX-License-Identifier: GPL-3.0-or-later
//
// The debugging tools of a real Tabwright through the official MCP SDK
// client, as an agent uses them on the fixture pages of
// tests/e2e/fixtures/debugging/: browser_console with objects, errors,
// traces and uncaught exceptions, waits and clearing.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { callError, callOk, connectClient, resultText, textField } from './lib/mcp.mjs';
import { startFixtureServer } from './lib/fixture-server.mjs';
import { requirementOptions, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();

let app;
let fixtures;
let client;

before(async () => {
  if (options.skip)
    return;
  fixtures = await startFixtureServer();
  app = await startTabwright();
  client = await connectClient(app);
});

after(async () => {
  await client?.close();
  await app?.stop();
  await fixtures?.close();
});

async function openTab(p) {
  const { data } = await callOk(client, 'browser_new_tab', { url: fixtures.url(p) });
  return data.browserId;
}

async function refOf(browserId, name) {
  const result = await client.callTool({ name: 'browser_snapshot', arguments: { browserId } });
  const text = resultText(result);
  const line = text.split('\n').find((l) => l.includes(`button "${name}"`));
  assert.ok(line, `the snapshot has a button "${name}": ${text}`);
  return /@e\d+/.exec(line)[0];
}

test('browser_console lists messages, filters them and shows one in detail', options, async () => {
  const id = await openTab('debugging/console.html');
  const script = fixtures.url('debugging/console.js');

  const all = await callOk(client, 'browser_console', { browserId: id });
  assert.equal(all.data.mode, 'list');
  assert.equal(textField(all.text, 'browserId'), id);
  const texts = all.data.messages.map((m) => m.text);
  for (const expected of ['order loaded', 'save failed', 'where am I', 'after tampering'])
    assert.ok(texts.some((t) => t.startsWith(expected)), `the console has "${expected}": ${all.text}`);

  // Only errors.
  const errors = await callOk(client, 'browser_console', { browserId: id, level: ['error'] });
  assert.ok(errors.data.messages.length >= 1);
  assert.ok(errors.data.messages.every((m) => m.level === 'error'), all.text);
  assert.ok(errors.data.messages.some((m) => m.text.startsWith('save failed')));

  // By text, ignoring case.
  const order = await callOk(client, 'browser_console', { browserId: id, text: 'ORDER LOADED' });
  assert.equal(order.data.matched, 1);
  const logged = order.data.messages[0];
  assert.equal(logged.source, 'console-api');
  assert.equal(logged.url, script);
  assert.ok(logged.column > 0, 'the column comes from the stack');
  assert.ok(order.text.includes(`#${logged.id} `), order.text);

  // Every argument, objects as JSON, a cycle marked.
  const detail = await callOk(client, 'browser_console', { browserId: id, id: logged.id });
  assert.equal(detail.data.mode, 'message');
  const [message] = detail.data.messages;
  assert.deepEqual(message.args, [
    'order loaded',
    { id: 7, items: ['pen', 'ink'], customer: { name: 'Ada' }, self: '[Circular]' },
    42,
    '[undefined]',
  ]);
  assert.ok(detail.text.includes('arg 1: {"id":7,"items":["pen","ink"]'), detail.text);
  assert.equal(message.stack[0].function, 'logEverything');
  assert.equal(message.stack[0].url, script);
  assert.equal(message.stack[0].line, 7);
  assert.ok(message.stack.every((f) => !f.url.includes('tabwright')), 'no frame of the hook');

  // console.error with an Error object: its name, message and stack.
  const failed = errors.data.messages.find((m) => m.text.startsWith('save failed'));
  const error = (await callOk(client, 'browser_console', { browserId: id, id: failed.id })).data.messages[0];
  assert.equal(error.args[0], 'save failed');
  assert.equal(error.args[1].name, 'Error');
  assert.equal(error.args[1].message, 'disk full');
  assert.match(error.args[1].stack, /logEverything@.*console\.js:8:/);
  assert.equal(error.stack[0].line, 8);

  // console.trace has its stack.
  const trace = all.data.messages.find((m) => m.text.startsWith('where am I'));
  const traced = (await callOk(client, 'browser_console', { browserId: id, id: trace.id })).data.messages[0];
  assert.equal(traced.stack[0].function, 'logEverything');
  assert.equal(traced.stack[0].line, 9);

  // The page replaced Array.prototype.join and push and put a getter
  // "value" on Object.prototype: the details are still right.
  const warned = all.data.messages.find((m) => m.text.startsWith('after tampering'));
  const tampered = (await callOk(client, 'browser_console', { browserId: id, id: warned.id })).data.messages[0];
  assert.equal(tampered.level, 'warning');
  assert.deepEqual(tampered.args, ['after tampering', { ok: true }]);

  // The hook leaves nothing on the page's globals.
  const { data: globals } = await callOk(client, 'browser_evaluate', {
    browserId: id,
    function: '() => [Object.getOwnPropertyNames(window).filter((n) => /tabwright/i.test(n)), console.log.name]',
  });
  assert.deepEqual(globals.result, [[], 'log']);

  await callOk(client, 'browser_close_tab', { browserId: id });
});

test('browser_console waits for an uncaught exception with its stack', options, async () => {
  const id = await openTab('debugging/console.html');
  // Reading the console marks what came so far as seen.
  await callOk(client, 'browser_console', { browserId: id });

  // Nothing new yet: the wait runs out.
  const timeout = await callError(client, 'browser_console',
    { browserId: id, wait: true, source: ['javascript'], timeoutMs: 300 }, 'browser_timeout');
  assert.match(timeout.error.message, /no matching console message came within 300 ms/);

  const ref = await refOf(id, 'Throw');
  await callOk(client, 'browser_click', { browserId: id, ref });
  const waited = await callOk(client, 'browser_console',
    { browserId: id, wait: true, source: ['javascript'], timeoutMs: 10000 });
  assert.equal(waited.data.mode, 'wait');
  assert.equal(waited.data.messages.length, 1);
  const [exception] = waited.data.messages;
  assert.equal(exception.level, 'error');
  assert.match(exception.text, /notAFunction/);

  const shown = await callOk(client, 'browser_console', { browserId: id, id: exception.id });
  const detail = shown.data.messages[0];
  assert.equal(detail.args[0].name, 'TypeError');
  assert.equal(detail.stack[0].function, 'failLater');
  assert.equal(detail.stack[0].url, fixtures.url('debugging/console.js'));
  assert.equal(detail.stack[0].line, 20);
  assert.ok(detail.stack[0].column > 0);
  assert.ok(shown.text.includes(`at failLater (${fixtures.url('debugging/console.js')}:20:`), shown.text);

  // A message that came before the wait is returned at once.
  await callOk(client, 'browser_click', { browserId: id, ref: await refOf(id, 'Log') });
  const early = await callOk(client, 'browser_console', { browserId: id, wait: true, text: 'clicked' });
  assert.equal(early.data.messages[0].text.startsWith('clicked'), true);
  const clicked = (await callOk(client, 'browser_console', { browserId: id, id: early.data.messages[0].id })).data.messages[0];
  assert.deepEqual(clicked.args, ['clicked', [1, 2, 3]]);

  // Clearing empties the console; browser_logs keeps network entries.
  const cleared = await callOk(client, 'browser_console', { browserId: id, clear: true });
  assert.ok(cleared.data.cleared >= 6, cleared.text);
  const empty = await callOk(client, 'browser_console', { browserId: id, allPages: true });
  assert.equal(empty.data.messages.length, 0);
  assert.match(empty.text, /No console messages match/);
  await callError(client, 'browser_console', { browserId: id, id: exception.id }, 'browser_not_found');
  const logs = await callOk(client, 'browser_logs', { browserId: id });
  assert.ok(logs.data.entries.some((e) => e.type === 'network'));
  assert.ok(!logs.data.entries.some((e) => e.type === 'console'));

  await callError(client, 'browser_console', { browserId: id, wait: true, clear: true }, 'browser_invalid_argument');
  await callError(client, 'browser_console', { browserId: 'b9999' }, 'browser_not_found');
  await callOk(client, 'browser_close_tab', { browserId: id });
});
