// SPDX-License-Identifier: GPL-3.0-or-later
//
// Replay, as an agent uses it through an MCP client: a form filled and sent
// through tool calls is run again in a fresh tab, which finds each field
// and the button again by role and name and sends the server the same
// form; saved as a flow, it stops at the button a changed page renamed,
// saying what it expected and what it found.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { test } from 'node:test';

import { listenOnLoopback } from './lib/fixture-server.mjs';
import { callError, callOk, connectClient, refIn, snapshotIn, textField } from './lib/mcp.mjs';
import { makeAppDirs, requirementOptions, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();

function formPage(button) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign up</title></head>
<body><h1>Sign up</h1>
<form method="post" action="/thanks">
  <label>Name <input name="name"></label>
  <label>Email <input name="email" type="email"></label>
  <label>Plan <select name="plan"><option value="free">Free</option><option value="pro">Pro</option></select></label>
  <button type="submit">${button}</button>
</form></body></html>`;
}

// The fixture server: the form, and every form it received.
async function formServer() {
  const server = { received: [], button: 'Send' };
  server.http = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/thanks') {
      let body = '';
      req.on('data', (chunk) => { body += chunk; });
      req.on('end', () => {
        server.received.push(Object.fromEntries(new URLSearchParams(body)));
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<!doctype html><title>Thanks</title><p>Thanks for signing up</p>');
      });
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html', 'Cache-Control': 'no-store' });
    res.end(formPage(server.button));
  });
  server.origin = await listenOnLoopback(server.http);
  return server;
}

test('a replay of a recorded form fill succeeds on the same page and stops at the renamed button of a changed page', options, async () => {
  const server = await formServer();
  const { received, origin } = server;
  const dirs = makeAppDirs();
  const app = await startTabwright({ dirs, args: ['--tools', 'core,replay'] });
  const client = await connectClient(app);
  try {
    // The run, as an agent makes it (steps 1 to 7).
    const { data: tab } = await callOk(client, 'browser_new_tab', { url: `${origin}/form` });
    const browserId = tab.browserId;
    const snapshot = await snapshotIn(client, browserId);
    await callOk(client, 'browser_fill', { browserId, ref: refIn(snapshot, 'textbox "Name"'), value: 'Ada Lovelace' });
    await callOk(client, 'browser_fill', { browserId, ref: refIn(snapshot, 'textbox "Email"'), value: 'ada@example.org' });
    await callOk(client, 'browser_select', { browserId, ref: refIn(snapshot, 'combobox "Plan"'), value: 'Pro' });
    const { data: sent } = await callOk(client, 'browser_click', { browserId, ref: refIn(snapshot, 'button "Send"') });
    assert.equal(new URL(sent.url).pathname, '/thanks');
    await callOk(client, 'browser_wait', { browserId, text: 'Thanks for signing up' });
    assert.deepEqual(received, [{ name: 'Ada Lovelace', email: 'ada@example.org', plan: 'pro' }]);

    // Run again: a new tab, the same form sent.
    const { data: replay, text } = await callOk(client, 'browser_replay', {});
    assert.equal(replay.ok, true, text);
    assert.equal(replay.source, 'session of the caller');
    assert.match(text, /^Replayed the session of the caller: every step as recorded/);
    assert.notEqual(replay.browserId, browserId, 'the replay runs in a fresh tab');
    assert.equal(textField(text, 'browserId'), replay.browserId);
    assert.equal(replay.total, 7);
    assert.deepEqual(replay.steps.map((s) => [s.tool, s.status]), [
      ['browser_new_tab', 'same'],
      ['browser_snapshot', 'skipped'],
      ['browser_fill', 'same'],
      ['browser_fill', 'same'],
      ['browser_select', 'same'],
      ['browser_click', 'same'],
      ['browser_wait', 'same'],
    ]);
    assert.equal(replay.steps[5].target, 'button "Send"');
    assert.equal(new URL(replay.url).pathname, '/thanks');
    assert.equal(received.length, 2, 'the replay sent the form');
    assert.deepEqual(received[1], received[0], 'the server received the same form');

    // Saved as a flow, then run against a page whose button was renamed.
    const { data: saved, text: savedText } = await callOk(client, 'browser_save_flow', { name: 'sign up', fromStep: 1, toStep: 7 });
    assert.equal(saved.steps.length, 7);
    assert.equal(textField(savedText, 'name'), 'sign up');

    server.button = 'Submit';
    const { data: changed, text: changedText } = await callOk(client, 'browser_replay', { flow: 'sign up' });
    assert.equal(changed.ok, false, changedText);
    assert.equal(changed.stoppedAt, 6, 'it stops at the click on the renamed button');
    assert.equal(changed.expected, 'button "Send"');
    assert.match(changed.found, /button "Submit"/);
    assert.equal(textField(changedText, 'expected'), 'button "Send"');
    assert.match(textField(changedText, 'found'), /button "Submit"/);
    assert.deepEqual(changed.steps.map((s) => s.status),
      ['same', 'skipped', 'same', 'same', 'same', 'differs', 'not run']);
    assert.equal(received.length, 2, 'the changed page was not sent');

    // A flow that was never saved is named as missing, with the saved ones.
    const { error } = await callError(client, 'browser_replay', { flow: 'checkout' }, 'browser_not_found');
    assert.match(error.message, /sign up/);
    await callError(client, 'browser_save_flow', { name: '../escape' }, 'browser_invalid_argument');
  } finally {
    await client.close().catch(() => {});
    await app.stop();
    server.http.close();
    fs.rmSync(dirs.root, { recursive: true, force: true });
  }
});

test('a form filled in one call is replayed field by field, found by role and name', options, async () => {
  const server = await formServer();
  const dirs = makeAppDirs();
  const app = await startTabwright({ dirs, args: ['--tools', 'core,input,replay'] });
  const client = await connectClient(app);
  try {
    const { data: tab } = await callOk(client, 'browser_new_tab', { url: `${server.origin}/form` });
    const browserId = tab.browserId;
    const snapshot = await snapshotIn(client, browserId);
    await callOk(client, 'browser_fill_form', {
      browserId,
      fields: [
        { ref: refIn(snapshot, 'textbox "Name"'), value: 'Grace Hopper' },
        { ref: refIn(snapshot, 'textbox "Email"'), value: 'grace@example.org' },
        { ref: refIn(snapshot, 'combobox "Plan"'), value: 'Free' },
      ],
    });
    await callOk(client, 'browser_click', { browserId, ref: refIn(snapshot, 'button "Send"') });
    assert.deepEqual(server.received, [{ name: 'Grace Hopper', email: 'grace@example.org', plan: 'free' }]);

    const { data: replay, text } = await callOk(client, 'browser_replay', {});
    assert.equal(replay.ok, true, text);
    assert.deepEqual(replay.steps.map((s) => s.status), ['same', 'skipped', 'same', 'same']);
    assert.deepEqual(server.received[1], server.received[0], 'the server received the same form');
  } finally {
    await client.close().catch(() => {});
    await app.stop();
    server.http.close();
    fs.rmSync(dirs.root, { recursive: true, force: true });
  }
});
