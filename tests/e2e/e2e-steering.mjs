// SPDX-License-Identifier: GPL-3.0-or-later
//
// browser_handoff over real MCP, as agents meet it: the tool is listed with
// its limits, a call that waits for the person keeps the client informed
// with progress notifications, runs out with browser_timeout when nobody
// answers, gives the tab back when the client gives up, and bad arguments
// fail with the right codes. (Pressing Done and Cancel, and pausing a tab,
// are person's gestures: tests/test-activity.c covers them in the window.)

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

import { callAndAbandon, callError, callOk, resultText } from './lib/mcp.mjs';
import { startSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();
let session;
let fixtures;
let client;
let browserId;

before(async () => {
  if (options.skip)
    return;
  session = await startSession();
  ({ fixtures, client } = session);
  ({ data: { browserId } } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/one.html') }));
});

after(async () => {
  await session?.close();
});

test('browser_handoff is listed with its message and time limits', options, async () => {
  const { tools } = await client.listTools();
  const handoff = tools.find((tool) => tool.name === 'browser_handoff');
  assert.ok(handoff, 'tools/list includes browser_handoff');
  assert.match(handoff.description, /log in/);
  assert.match(handoff.description, /CAPTCHA/);
  assert.deepEqual(handoff.inputSchema.required, ['browserId', 'message']);
  assert.equal(handoff.inputSchema.properties.timeoutMs.maximum, 1800000);
  assert.ok(handoff.outputSchema, 'browser_handoff has an outputSchema');
  assert.equal(handoff.annotations?.readOnlyHint, false);
});

test('a handoff nobody answers sends progress, then times out', options, async () => {
  const progress = [];
  const started = Date.now();
  const result = await client.request(
    {
      method: 'tools/call',
      params: {
        name: 'browser_handoff',
        arguments: { browserId, message: 'Please solve the CAPTCHA, then press Done.', timeoutMs: 6000 },
      },
    },
    CallToolResultSchema,
    { onprogress: (p) => progress.push(p), timeout: 30000 });
  const elapsed = Date.now() - started;

  assert.equal(result.isError, true, resultText(result));
  assert.equal(result.structuredContent.error.code, 'browser_timeout');
  assert.match(resultText(result), /^Error: browser_timeout — the person did not answer/);
  // At least the 6 s asked for; the request's own 30 s deadline is the
  // upper one, which only a handoff that ignored its limit would reach.
  assert.ok(elapsed >= 5500, `it waited the 6 s asked for (${elapsed} ms)`);

  // One notification at once, one every 5 s: the client knows the call
  // waits on purpose and does not give up on it.
  assert.ok(progress.length >= 2, `progress notifications arrived: ${JSON.stringify(progress)}`);
  assert.equal(progress[0].total, 6);
  assert.ok(progress.at(-1).progress > progress[0].progress, 'progress moves forward');
  assert.match(progress[0].message, new RegExp(`tab ${browserId}`));
});

test('a client that gives up on a handoff gets the tab back', options, async () => {
  // The client gives up once the handoff is under way (its first progress
  // notification), never on a timer a slow machine could beat.
  const first = await callAndAbandon(client, 'browser_handoff', { browserId, message: 'Please log in.' });
  assert.match(first.message, new RegExp(`tab ${browserId}`));

  // The tab answers the next call instead of waiting for the person: a tab
  // still held would keep the snapshot for the handoff's five minutes, past
  // the SDK's one-minute deadline for a request.
  const { text } = await callOk(client, 'browser_list_tabs', {});
  assert.match(text, new RegExp(browserId));
  const snapshot = await client.callTool({ name: 'browser_snapshot', arguments: { browserId } });
  assert.notEqual(snapshot.isError, true, resultText(snapshot));
});

test('bad handoffs fail with the right codes', options, async () => {
  await callError(client, 'browser_handoff', { browserId, message: '' }, 'browser_invalid_argument');
  await callError(client, 'browser_handoff', { browserId, message: 'Log in', timeoutMs: 1800001 },
                  'browser_invalid_argument');
  await callError(client, 'browser_handoff', { browserId }, 'browser_invalid_argument');
  await callError(client, 'browser_handoff', { browserId: 'b99999', message: 'Log in', timeoutMs: 1000 },
                  'browser_not_found');
});
