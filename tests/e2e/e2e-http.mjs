// SPDX-License-Identifier: GPL-3.0-or-later
//
// Sends bad input to the MCP endpoint over raw HTTP. Each request must get
// the HTTP status or JSON-RPC / tool error that the MCP specification and
// DESIGN.md call for, and the server must keep serving afterwards: a ping on
// the original session follows every case.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, afterEach, before, test } from 'node:test';

import { PROTOCOL_VERSION, RawSession, request } from './lib/raw-http.mjs';
import { requirementOptions, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();
let app;
let session;
let port;

before(async () => {
  if (options.skip)
    return;
  app = await startTabwright();
  port = new URL(app.url).port;
  session = new RawSession(app.url, app.token);
  const result = await session.initialize();
  assert.equal(result.protocolVersion, PROTOCOL_VERSION);
  assert.ok(session.sessionId, 'initialize returns an Mcp-Session-Id');
});

after(async () => {
  await app?.stop();
});

afterEach(async () => {
  if (options.skip)
    return;
  const response = await session.send('ping');
  assert.equal(response.status, 200, `the server still answers a ping: ${response.text}`);
  assert.deepEqual(response.json?.result, {}, 'ping returns an empty result');
});

function assertJsonRpcError(response, status, code) {
  assert.equal(response.status, status, `HTTP status: ${response.text}`);
  assert.ok(response.json, `the body is JSON-RPC: ${response.text}`);
  assert.equal(response.json.jsonrpc, '2.0');
  assert.equal(response.json.error?.code, code, `JSON-RPC error code: ${response.text}`);
  assert.equal(typeof response.json.error.message, 'string');
}

test('a ping on the session works', options, async () => {
  const response = await session.send('ping');
  assert.equal(response.status, 200);
  assert.deepEqual(response.json.result, {});
});

test('malformed JSON is a parse error (400, -32700)', options, async () => {
  const response = await session.send(null, null, { raw: '{"jsonrpc": "2.0", "id": 1, "method": ' });
  assertJsonRpcError(response, 400, -32700);
  assert.equal(response.json.id, null);
});

test('a batch array is an invalid request (400, -32600)', options, async () => {
  const batch = JSON.stringify([
    { jsonrpc: '2.0', id: 101, method: 'ping' },
    { jsonrpc: '2.0', id: 102, method: 'ping' },
  ]);
  const response = await session.send(null, null, { raw: batch });
  assertJsonRpcError(response, 400, -32600);
});

test('an unknown method is method-not-found (-32601)', options, async () => {
  const response = await session.send('tools/frobnicate', {});
  assertJsonRpcError(response, 200, -32601);
  assert.equal(typeof response.json.id, 'number', 'the error answers the request id');
});

test('an unknown tool is invalid params (-32602)', options, async () => {
  const response = await session.send('tools/call', { name: 'browser_frobnicate', arguments: {} });
  assertJsonRpcError(response, 200, -32602);
  assert.match(response.json.error.message, /browser_frobnicate/);
});

test('arguments of the wrong type are a browser_invalid_argument tool error', options, async () => {
  const response = await session.send('tools/call', {
    name: 'browser_navigate',
    arguments: { browserId: 5, url: true },
  });
  assert.equal(response.status, 200, response.text);
  const result = response.json?.result;
  assert.ok(result, `a tool result, not a protocol error: ${response.text}`);
  assert.equal(result.isError, true);
  assert.equal(result.structuredContent?.error?.code, 'browser_invalid_argument');
  assert.ok(result.content[0].text.startsWith('Error: browser_invalid_argument — '), result.content[0].text);
});

test('a 10 MB body is refused (413)', options, async () => {
  const pad = 'x'.repeat(10 * 1024 * 1024);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping', params: { pad } });
  const response = await session.send(null, null, { raw: body });
  assert.equal(response.status, 413, `HTTP status: ${response.text.slice(0, 200)}`);
});

test('a request without a token is unauthorized (401)', options, async () => {
  const headers = session.headers();
  delete headers.Authorization;
  const response = await request(app.url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'ping' }) });
  assert.equal(response.status, 401, response.text);
});

test('a request with a wrong token is unauthorized (401)', options, async () => {
  for (const authorization of [`Bearer ${app.token}x`, 'Bearer ', `Basic ${app.token}`, app.token]) {
    const response = await request(app.url, {
      headers: session.headers({ Authorization: authorization }),
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });
    assert.equal(response.status, 401, `Authorization: ${authorization.slice(0, 12)}…: ${response.text}`);
  }
});

test('a foreign Origin is forbidden (403)', options, async () => {
  for (const origin of ['http://evil.example.com', `http://evil.example.com:${port}`, 'null']) {
    const response = await session.send('ping', null, { headers: { Origin: origin } });
    assert.equal(response.status, 403, `Origin ${origin}: ${response.text}`);
  }
});

test('a foreign Host is forbidden (403)', options, async () => {
  for (const host of [`evil.example.com:${port}`, 'evil.example.com', `127.0.0.1.nip.example:${port}`]) {
    const response = await session.send('ping', null, { headers: { Host: host } });
    assert.equal(response.status, 403, `Host ${host}: ${response.text}`);
  }
});

test('local Host and Origin forms are accepted', options, async () => {
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
    const response = await session.send('ping', null, { headers: { Host: host, Origin: `http://${host}` } });
    assert.equal(response.status, 200, `Host ${host}: ${response.text}`);
  }
});

test('a request without a session id is a bad request (400)', options, async () => {
  const headers = session.headers();
  delete headers['Mcp-Session-Id'];
  const response = await request(app.url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'ping' }) });
  assert.equal(response.status, 400, response.text);
});

test('an unknown session id is not found (404)', options, async () => {
  const response = await session.send('ping', null, { headers: { 'Mcp-Session-Id': 'no-such-session-0000' } });
  assert.equal(response.status, 404, response.text);
});

test('GET without an event stream in Accept is not acceptable (406); PUT is not allowed (405)', options, async () => {
  const get = await request(app.url, {
    method: 'GET',
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${app.token}`,
      'Mcp-Session-Id': session.sessionId,
      'MCP-Protocol-Version': PROTOCOL_VERSION,
    },
  });
  assert.equal(get.status, 406, get.text);
  const put = await request(app.url, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${app.token}`, 'Mcp-Session-Id': session.sessionId },
    body: '{}',
  });
  assert.equal(put.status, 405, put.text);
  assert.equal(put.headers.allow, 'GET, POST, DELETE');
});

test('a second client gets its own session', options, async () => {
  const other = new RawSession(app.url, app.token);
  await other.initialize();
  assert.ok(other.sessionId);
  assert.notEqual(other.sessionId, session.sessionId);
  const response = await other.send('tools/list', {});
  assert.equal(response.status, 200);
  assert.ok(Array.isArray(response.json.result.tools));
});

// Bodies that crashed the app (deep nesting) or that json-glib alone would
// have read as valid messages: each is a parse error, and nothing runs.
test('deeply nested or unclosed JSON is a parse error, not a crash (400, -32700)', options, async () => {
  const bodies = [
    `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${'['.repeat(100000)}${']'.repeat(100000)}}}`,
    `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":${'['.repeat(1000000)}${']'.repeat(1000000)}}}`,
    '['.repeat(1000000),
  ];
  for (const raw of bodies) {
    const response = await session.send(null, null, { raw });
    assertJsonRpcError(response, 400, -32700);
    assert.match(response.json.error.message, /nest deeper than/);
  }
});

test('lenient JSON is a parse error (400, -32700)', options, async () => {
  const bodies = [
    '{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}',
    "{'jsonrpc':'2.0','id':1,'method':'ping'}",
    '{"jsonrpc":"2.0",/* note */"id":1,"method":"ping"}',
    '{"jsonrpc":"2.0","id":0x10,"method":"ping"}',
    '{"jsonrpc":"2.0","id":010,"method":"ping"}',
    '{"jsonrpc":"2.0","id":1,"method":"ping\\u0000x"}',
  ];
  for (const raw of bodies) {
    const response = await session.send(null, null, { raw });
    assertJsonRpcError(response, 400, -32700);
    assert.equal(response.json.id, null);
  }
});

test('an escaped NUL in an argument is refused and the tab stays open', options, async () => {
  const opened = await session.send('tools/call', { name: 'browser_new_tab', arguments: {} });
  const browserId = opened.json?.result?.structuredContent?.browserId;
  assert.ok(browserId, `a tab opened: ${opened.text}`);
  const raw = `{"jsonrpc":"2.0","id":900,"method":"tools/call","params":{"name":"browser_close_tab",`
    + `"arguments":{"browserId":"${browserId}\\u0000x"}}}`;
  const response = await session.send(null, null, { raw });
  assertJsonRpcError(response, 400, -32700);
  assert.match(response.json.error.message, /NUL/);

  const tabs = await session.send('tools/call', { name: 'browser_list_tabs', arguments: {} });
  const ids = tabs.json.result.structuredContent.tabs.map((tab) => tab.browserId);
  assert.ok(ids.includes(browserId), `${browserId} is still open: ${ids}`);
  await session.send('tools/call', { name: 'browser_close_tab', arguments: { browserId } });
});

function residentBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)[1]) * 1024;
}

// Ten failed calls with a 1 MB browserId once kept about 50 MB each, in the
// activity log and the feed row that showed it. Such an argument is now
// refused at the edge, as every string argument has a bound.
test('failed calls with huge arguments do not make the app grow', options, async (t) => {
  const hugeId = 'b'.repeat(1024 * 1024);
  const fail = async () => {
    const response = await session.send('tools/call', { name: 'browser_reload', arguments: { browserId: hugeId } });
    assert.equal(response.status, 200);
    assert.equal(response.json.result.isError, true);
    assert.equal(response.json.result.structuredContent.error.code, 'browser_invalid_argument');
    assert.match(response.json.result.content[0].text, /"browserId" must be at most 10000 characters long/);
  };
  // The first calls warm up the allocator and the feed.
  await fail();
  await fail();
  await session.send('tools/call', { name: 'browser_list_tabs', arguments: {} });
  const before = residentBytes(app.pid);
  for (let i = 0; i < 10; i++)
    await fail();
  await session.send('tools/call', { name: 'browser_list_tabs', arguments: {} });
  const grown = residentBytes(app.pid) - before;
  t.diagnostic(`ten failed 1 MB calls: resident memory grew by ${(grown / 1024 / 1024).toFixed(1)} MB`);
  assert.ok(grown < 60 * 1024 * 1024,
    `ten failed 1 MB calls grew the app by ${Math.round(grown / 1024 / 1024)} MB`);
});
