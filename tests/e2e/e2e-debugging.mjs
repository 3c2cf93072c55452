// SPDX-License-Identifier: GPL-3.0-or-later
//
// The debugging tools of a real Tabwright through the official MCP SDK
// client, as an agent uses them on the fixture pages of
// tests/e2e/fixtures/debugging/: browser_console with objects, errors,
// traces and uncaught exceptions, waits and clearing; browser_network with
// a JSON API call, an upload, a binary image and a 2 MB response.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';

import { callError, callOk, connectClient, openTab, refIn, snapshotIn, textField } from './lib/mcp.mjs';
import { startFixtureServer } from './lib/fixture-server.mjs';
import { makeAppDirs, requirementOptions, srcdir, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();
const DEBUGGING = path.join(srcdir, 'tests', 'e2e', 'fixtures', 'debugging');

let app;
let fixtures;
let client;
let api;
let apiOrigin;
const received = [];

// A PNG of one red pixel.
function pixelPng() {
  const crc = (buf) => {
    let c = ~0;
    for (const byte of buf) {
      c ^= byte;
      for (let k = 0; k < 8; k++)
        c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  const chunk = (type, data) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    data.copy(out, 8);
    out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PIXEL = pixelPng();
// 2 MB of text whose end says where it ends.
const BIG = 'abcdefghij'.repeat(2 * 1024 * 1024 / 10 - 1) + 'THE-END...';

// The API the network page calls, and its pages.
function startApi() {
  api = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const p = new URL(req.url, 'http://127.0.0.1').pathname;
      received.push({ method: req.method, path: p, headers: req.headers, body: Buffer.concat(chunks) });
      const headers = { 'Cache-Control': 'no-store' };
      if (p === '/api/items') {
        res.writeHead(201, { ...headers, 'Content-Type': 'application/json', 'Set-Cookie': 'session=s3cr3t; Path=/' });
        res.end(JSON.stringify({ id: 41, name: 'pen', tags: ['new'] }));
      } else if (p === '/upload') {
        res.writeHead(200, { ...headers, 'Content-Type': 'text/plain' });
        res.end(`got ${chunks.reduce((n, c) => n + c.length, 0)} bytes`);
      } else if (p === '/pixel.png') {
        res.writeHead(200, { ...headers, 'Content-Type': 'image/png' });
        res.end(PIXEL);
      } else if (p === '/whoami') {
        res.writeHead(200, { ...headers, 'Content-Type': 'application/json', 'Set-Cookie': 'seen=1; Path=/' });
        res.end(JSON.stringify({
          method: req.method,
          cookie: req.headers.cookie ?? null,
          token: req.headers['x-token'] ?? null,
          body: Buffer.concat(chunks).toString(),
        }));
      } else if (p === '/big') {
        res.writeHead(200, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(BIG);
      } else if (p.endsWith('.html')) {
        res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' });
        res.end(fs.readFileSync(path.join(DEBUGGING, path.basename(p))));
      } else {
        res.writeHead(404, { ...headers, 'Content-Type': 'text/plain' });
        res.end('not here');
      }
    });
  });
  return new Promise((resolve) => api.listen(0, '127.0.0.1', () => {
    apiOrigin = `http://127.0.0.1:${api.address().port}`;
    resolve();
  }));
}

let dirs;

before(async () => {
  if (options.skip)
    return;
  fixtures = await startFixtureServer();
  await startApi();
  dirs = makeAppDirs();
  app = await startTabwright({ dirs, args: ['--tools', 'core,debugging'] });
  client = await connectClient(app);
});

after(async () => {
  await client?.close();
  await app?.stop();
  await fixtures?.close();
  await new Promise((resolve) => (api ? api.close(resolve) : resolve()));
});

const openPage = (p) => openTab(client, fixtures.url(p));

async function refOf(browserId, name) {
  return refIn(await snapshotIn(client, browserId), `button "${name}"`);
}

test('browser_console lists messages, filters them and shows one in detail', options, async () => {
  const id = await openPage('debugging/console.html');
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
  const id = await openPage('debugging/console.html');
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

test('a private tab lists the same console messages as a normal one', options, async () => {
  // WebKit reports no console messages from private sessions; the
  // extension does, and they must read as WebKit's own.
  const seen = async (isPrivate) => {
    const { data } = await callOk(client, 'browser_new_tab',
      { url: fixtures.url('debugging/console-kinds.html'), private: isPrivate });
    const id = data.browserId;
    await callOk(client, 'browser_console', { browserId: id, wait: true, text: 'all told', timeoutMs: 10000 });
    const all = await callOk(client, 'browser_console', { browserId: id });
    await callOk(client, 'browser_close_tab', { browserId: id });
    // Where a console call was made, not where a rejection was: WebKit
    // gives no place for those, the private tab's hook does.
    return all.data.messages.map((m) => `${m.level} ${m.source} ` +
      (m.source === 'console-api' ? `${m.url}:${m.line} ` : '') + m.text);
  };
  const normal = await seen(false);
  const secret = await seen(true);
  assert.ok(normal.some((m) => m.includes('nobody caught')), normal.join('\n'));
  assert.ok(!normal.some((m) => m.includes('hidden failure')), normal.join('\n'));
  assert.deepEqual(secret, normal);
});

test('browser_network lists requests and shows one in detail with its bodies', options, async () => {
  const { data: tab } = await callOk(client, 'browser_new_tab', { url: `${apiOrigin}/network.html` });
  const id = tab.browserId;
  await callOk(client, 'browser_wait', { browserId: id, text: 'All done', timeoutMs: 20000 });

  const all = await callOk(client, 'browser_network', { browserId: id });
  assert.equal(all.data.mode, 'list');
  const byPath = (p) => all.data.requests.find((r) => r.url === `${apiOrigin}${p}`);
  for (const p of ['/network.html', '/pixel.png', '/api/items', '/upload', '/big', '/missing'])
    assert.ok(byPath(p), `the list has ${p}: ${all.text}`);
  assert.equal(byPath('/network.html').resourceType, 'document');
  assert.equal(byPath('/pixel.png').resourceType, 'image');
  assert.ok(all.text.includes(`#${byPath('/api/items').id} POST ${apiOrigin}/api/items 201`), all.text);

  // Filters.
  const posts = await callOk(client, 'browser_network', { browserId: id, method: 'post' });
  assert.deepEqual(posts.data.requests.map((r) => new URL(r.url).pathname).sort(), ['/api/items', '/upload']);
  const failed = await callOk(client, 'browser_network', { browserId: id, failed: true });
  assert.deepEqual(failed.data.requests.map((r) => new URL(r.url).pathname), ['/missing']);
  const images = await callOk(client, 'browser_network', { browserId: id, type: ['image'] });
  assert.deepEqual(images.data.requests.map((r) => new URL(r.url).pathname), ['/pixel.png']);
  const clientErrors = await callOk(client, 'browser_network', { browserId: id, status: ['4xx'], url: 'miss' });
  assert.equal(clientErrors.data.matched, 1);

  // The JSON API call: its body as sent, its response as JSON, secrets masked.
  const itemId = byPath('/api/items').id;
  const item = await callOk(client, 'browser_network', { browserId: id, id: itemId });
  const request = item.data.request;
  assert.equal(request.status, 201);
  assert.equal(request.requestBody, '{"name":"pen","qty":2}');
  assert.equal(request.responseBody.kind, 'json', JSON.stringify(request));
  assert.deepEqual(JSON.parse(request.responseBody.text), { id: 41, name: 'pen', tags: ['new'] });
  const header = (list, name) => list.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
  assert.equal(header(request.requestHeaders, 'Content-Type'), 'application/json');
  assert.match(header(request.requestHeaders, 'Authorization'), /^\(masked/);
  assert.ok(!item.text.includes('secret-token-123'), 'the token is not in the text');
  assert.equal(textField(item.text, 'id'), String(itemId));
  assert.ok(item.text.includes('\nrequestBody:\n<page>\n{"name":"pen","qty":2}\n</page>\n'), item.text);
  const server = received.find((r) => r.path === '/api/items');
  assert.equal(server.body.toString(), request.requestBody, 'the body shown is the one the server got');
  const setCookie = header(request.responseHeaders, 'Set-Cookie');
  if (setCookie !== undefined)
    assert.match(setCookie, /^\(masked/);
  const secrets = await callOk(client, 'browser_network', { browserId: id, id: itemId, showSecrets: true });
  assert.equal(header(secrets.data.request.requestHeaders, 'Authorization'), 'Bearer secret-token-123');
  assert.ok(typeof request.timing === 'object' || request.unavailable.some((u) => u.startsWith('timing')));

  // The upload: the form as the page built it.
  const upload = (await callOk(client, 'browser_network', { browserId: id, id: byPath('/upload').id })).data.request;
  assert.equal(upload.requestBody, '[FormData] note=hello&file=[File "notes.txt", 300 bytes, text/plain]');
  assert.equal(upload.responseBody.text, `got ${received.find((r) => r.path === '/upload').body.length} bytes`);

  // The image: binary, its size and type; saved inside the workspace, byte for byte.
  const image = await callOk(client, 'browser_network', {
    browserId: id, id: byPath('/pixel.png').id, savePath: 'pixel.png',
  });
  assert.equal(image.data.request.responseBody.kind, 'binary');
  assert.equal(image.data.request.responseBody.size, PIXEL.length);
  assert.equal(image.data.request.responseBody.text, undefined);
  assert.match(image.text, /responseBody: binary, \d+ B, image\/png/);
  const saved = textField(image.text, 'savedPath');
  assert.equal(saved, fs.realpathSync(path.join(dirs.workspace, 'pixel.png')));
  assert.deepEqual(fs.readFileSync(saved), PIXEL);
  await callError(client, 'browser_network',
    { browserId: id, id: byPath('/pixel.png').id, savePath: '../outside.png' }, 'browser_denied');
  assert.ok(!fs.existsSync(path.join(dirs.workspace, '..', 'outside.png')));

  // 2 MB: cut, then continued with the cursor to the very end.
  const bigId = byPath('/big').id;
  const first = await callOk(client, 'browser_network', { browserId: id, id: bigId });
  const body = first.data.request.responseBody;
  assert.equal(body.size, BIG.length);
  assert.equal(body.chars, BIG.length);
  assert.equal(body.text, BIG.slice(0, 10000));
  assert.equal(Number(textField(first.text, 'cursor')), 10000);
  const last = await callOk(client, 'browser_network',
    { browserId: id, id: bigId, cursor: BIG.length - 50, maxBodyChars: 1000 });
  assert.equal(last.data.request.responseBody.text, BIG.slice(-50));
  assert.equal(last.data.request.responseBody.nextCursor, undefined);
  assert.ok(last.data.request.responseBody.text.endsWith('THE-END...'));

  await callError(client, 'browser_network', { browserId: id, id: 999999 }, 'browser_not_found');
  await callError(client, 'browser_network', { browserId: id, savePath: 'x.bin' }, 'browser_invalid_argument');
  await callOk(client, 'browser_close_tab', { browserId: id });
});

test('browser_fetch sends the workspace cookies and returns status, headers and body', options, async () => {
  // The page gets a cookie from the API it calls.
  const { data: tab } = await callOk(client, 'browser_new_tab', { url: `${apiOrigin}/network.html` });
  const id = tab.browserId;
  await callOk(client, 'browser_wait', { browserId: id, text: 'All done', timeoutMs: 20000 });

  const got = await callOk(client, 'browser_fetch', { browserId: id, url: `${apiOrigin}/whoami` });
  assert.equal(got.data.status, 200);
  assert.equal(got.data.body.kind, 'json');
  const seen = JSON.parse(got.data.body.text);
  assert.equal(seen.cookie, 'session=s3cr3t', 'the server got the cookie the page was given');
  assert.equal(got.data.cookiesSent, 1);
  assert.equal(textField(got.text, 'status'), '200 OK');
  assert.equal(textField(got.text, 'url'), `${apiOrigin}/whoami`);
  const setCookie = got.data.headers.find((h) => h.name.toLowerCase() === 'set-cookie');
  assert.match(setCookie.value, /^\(masked/);

  // A POST with a JSON body and a header of the agent's.
  const posted = await callOk(client, 'browser_fetch', {
    browserId: id, url: `${apiOrigin}/whoami`, method: 'post',
    headers: { 'Content-Type': 'application/json', 'X-Token': 't-1' }, body: '{"a":1}',
  });
  assert.equal(posted.data.status, 200, posted.text);
  assert.deepEqual(JSON.parse(posted.data.body.text),
    { method: 'POST', cookie: 'session=s3cr3t', token: 't-1', body: '{"a":1}' });

  // The 2 MB response is cut to maxBodyChars.
  const big = await callOk(client, 'browser_fetch', { browserId: id, url: `${apiOrigin}/big`, maxBodyChars: 1000 });
  assert.equal(big.data.body.text, BIG.slice(0, 1000));
  assert.equal(big.data.body.truncated, true);
  assert.equal(big.data.body.size, BIG.length);

  const image = await callOk(client, 'browser_fetch', { browserId: id, url: `${apiOrigin}/pixel.png` });
  assert.equal(image.data.body.kind, 'binary');
  assert.equal(image.data.body.size, PIXEL.length);

  await callError(client, 'browser_fetch', { browserId: id, url: 'file:///etc/passwd' }, 'browser_denied');
  await callError(client, 'browser_fetch', { browserId: id, url: `${apiOrigin}/`, headers: { 'X-Bad': 'a\r\nb: c' } }, 'browser_invalid_argument');
  await callError(client, 'browser_fetch', { browserId: id, url: 'http://127.0.0.1:1/' }, 'browser_navigation_failed');
  await callOk(client, 'browser_close_tab', { browserId: id });
});
