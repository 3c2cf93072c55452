// SPDX-License-Identifier: GPL-3.0-or-later
//
// Closing tabs gives everything back: a real Tabwright opens, reads and
// closes tabs one after the other and in a burst, through the official MCP
// SDK client and over short-lived HTTP connections, and then its open file
// descriptors, its web processes (and their sandboxes' D-Bus proxies) and
// its memory come back to where they were before, measured from outside
// through /proc. And clients that hold connections without sending a
// request (a byte at a time, or nothing) are closed by the server, while a
// stream a client keeps open on purpose is not.

import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, test } from 'node:test';

import { callOk, openTab, resultText } from './lib/mcp.mjs';
import { appFds, measureFamily, pss, tabwrightKind } from './lib/processes.mjs';
import { PROTOCOL_VERSION, RawSession } from './lib/raw-http.mjs';
import { startSession } from './lib/session.mjs';
import { requirementOptions, startTabwright } from './lib/tabwright.mjs';
import { waitUntil } from './lib/wait.mjs';

const options = requirementOptions();
let session;

// Descriptors: every one the app holds counts, those it held for WebKit's
// sandbox D-Bus proxies too; a few may come and go with the app's own work
// (a timer, a file being read). Memory: what GTK and WebKit keep after a
// first tab (fonts, glyphs, styles) is in the baseline, taken once a first
// tab has closed; 20 MB on top of that leaves room for the noise of a
// loaded machine, while a leak of 1 MB a tab over 30 tabs runs past it, and
// so does what the allocator kept of a burst of 20 tabs' frames before it
// was told to give large blocks back (tw-reclaim.c; 25 MB).
const FD_SLACK = 10;
const MEMORY_SLACK_MB = 20;
const ROUNDS = 30;
const WARM_UP_ROUNDS = 4;
const BURST = 20;
// Tabs of one client or agent share a web process, four to a process
// (TW_BROWSER_DEFAULT_TABS_PER_PROCESS).
const TABS_PER_PROCESS = 4;
const SETTLE_MS = 60000;

before(async () => {
  if (options.skip)
    return;
  session = await startSession();
});

after(async () => {
  await session?.close();
});

function state(app) {
  const family = measureFamily(app.pid, tabwrightKind);
  return {
    web: family.web?.processes ?? 0,
    fds: appFds(app.pid),
    // The app's own memory: its anonymous maps (heap, textures, records).
    // Its whole PSS also holds shares of the libraries and buffers it has
    // in common with the web processes, which grow as those processes end
    // (the same pages, fewer sharers) and made the figure swing by tens of
    // megabytes with no change in the app.
    appMb: pss(app.pid, 'Pss_Anon') / 1024,
    appPssMb: pss(app.pid) / 1024,
  };
}

async function openRead(client, url) {
  const browserId = await openTab(client, url);
  const snapshot = await client.callTool({ name: 'browser_snapshot', arguments: { browserId } });
  assert.notEqual(snapshot.isError, true, resultText(snapshot));
  return browserId;
}

test('closing tabs gives back descriptors, web processes and memory', options, async () => {
  const { app, client, fixtures } = session;
  const url = fixtures.url('/one.html');

  // One after the other, as an agent does; some over connections of their
  // own that the client closes after one call.
  const round = async (i) => {
    if (i % 2 === 1) {
      // Over a kept-alive connection of its own, which the client closes
      // once done, as clients do when they end or have been idle a while.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const raw = new RawSession(app.url, app.token, agent);
      await raw.initialize();
      const call = async (name, args) => {
        const reply = await raw.send('tools/call', { name, arguments: args });
        assert.equal(reply.json?.result?.isError, undefined, `${name}: ${reply.text}`);
        return reply.json.result;
      };
      const { browserId } = (await call('browser_new_tab', { url })).structuredContent;
      await call('browser_snapshot', { browserId });
      await call('browser_close_tab', { browserId });
      agent.destroy();
    } else {
      await callOk(client, 'browser_close_tab', { browserId: await openRead(client, url) });
    }
  };

  // What the first tabs set up once for all (WebKit's memory monitor, the
  // spare web process, caches of fonts, styles and compiled scripts, a
  // session's records) belongs to the baseline: a few rounds of each kind.
  for (let i = 0; i < WARM_UP_ROUNDS; i++)
    await round(i);
  let base = null;
  await waitUntil('the app to settle after the first tabs', () => {
    const now = state(app);
    const settled = base && now.web === base.web && now.fds.total === base.fds.total;
    base = now;
    return settled;
  }, { intervalMs: 1000 });

  // Then many more, and a burst.
  for (let i = 0; i < ROUNDS; i++)
    await round(i);
  let last = null;
  // Waits until the app is back to @base, after @what; @after says when in
  // the message of a failure.
  const givenBack = (what, after) => waitUntil(`the app to give back what ${what} took`, () => {
    last = state(app);
    return last.web <= base.web &&
      last.fds.total <= base.fds.total + FD_SLACK &&
      last.fds.proxies <= base.fds.proxies &&
      last.appMb <= base.appMb + MEMORY_SLACK_MB;
  }, {
    timeoutMs: SETTLE_MS,
    intervalMs: 500,
    detail: () => `before: ${JSON.stringify(base)}\n${after}: ${JSON.stringify(last)}`,
  });
  await givenBack('tabs opened one at a time', `after ${ROUNDS} tabs`);
  process.stderr.write(`e2e-leaks: before ${JSON.stringify(base)}; after ${ROUNDS} tabs ${JSON.stringify(last)}\n`);

  const burst = [];
  for (let i = 0; i < BURST; i++)
    burst.push(await openRead(client, url));
  // The client's tabs share web processes, TABS_PER_PROCESS to a process:
  // the burst has processes, fewer than one a tab.
  const open = state(app);
  const processes = Math.ceil(BURST / TABS_PER_PROCESS);
  assert.ok(open.web >= base.web + processes && open.web < base.web + BURST,
    `${BURST} open tabs have ${processes} web processes, ${TABS_PER_PROCESS} tabs to a process (${open.web} against ${base.web})`);
  for (const browserId of burst)
    await callOk(client, 'browser_close_tab', { browserId });

  await givenBack('a burst of tabs', `after ${BURST} more at once`);
  process.stderr.write(`e2e-leaks: after ${BURST} more open at once ${JSON.stringify(last)}\n`);
});

// The server's time limits, short for the test: a connection has
// HEADER_MS for its request's headers, and HEADER_MS for the next request
// line once its last request was answered.
const HEADER_MS = 1000;
const IDLE_MS = 1000;
const CLOSE_DEADLINE_MS = 20000;

// A raw TCP connection to the app; `closed` resolves with the time the
// server closed it and the bytes sent by then.
function connect(url) {
  const target = new URL(url);
  const socket = net.connect({ host: target.hostname, port: Number(target.port) });
  const state = { socket, sent: 0, received: '', openedAt: Date.now(), closedAt: null };
  socket.setEncoding('utf8');
  socket.on('data', (data) => { state.received += data; });
  state.closed = new Promise((resolve) => {
    const done = () => {
      state.closedAt ??= Date.now();
      resolve(state);
    };
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', done);
  });
  state.ready = new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return state;
}

// Sends @text one byte at a time, @paceMs apart, until the server closes
// the connection. The pace is the attack, not a wait: the test waits for
// the close.
function trickle(state, text, paceMs = 100) {
  const timer = setInterval(() => {
    if (state.closedAt !== null || state.sent >= text.length || state.socket.destroyed) {
      clearInterval(timer);
      return;
    }
    state.socket.write(text[state.sent]);
    state.sent++;
  }, paceMs);
  state.closed.then(() => clearInterval(timer));
}

async function closedWithin(state, what) {
  const timeout = new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), CLOSE_DEADLINE_MS);
    state.closed.then(() => clearTimeout(timer));
  });
  const result = await Promise.race([state.closed, timeout]);
  assert.ok(result, `the server closed ${what} within ${CLOSE_DEADLINE_MS} ms`);
  return result.closedAt - result.openedAt;
}

test('slow and idle clients are closed; an open event stream is not', options, async () => {
  const app = await startTabwright({
    env: {
      TABWRIGHT_MCP_HEADER_TIMEOUT_MS: String(HEADER_MS),
      TABWRIGHT_MCP_IDLE_TIMEOUT_MS: String(IDLE_MS),
    },
  });
  const sockets = [];
  try {
    const host = new URL(app.url).host;
    // Each request of this session on a connection of its own: Node keeps
    // connections alive, and the one kept from initialize reaches the
    // server's idle limit, as short as the test's, about when the last
    // ping would reuse it, which then meets a connection being closed.
    const requests = new http.Agent({ keepAlive: false });
    const raw = new RawSession(app.url, app.token, requests);
    await raw.initialize();

    // A stream of server messages, held open on purpose for longer than
    // every limit, with its connection to itself.
    const agent = new http.Agent({ keepAlive: false });
    const stream = await new Promise((resolve, reject) => {
      const req = http.request(app.url, {
        method: 'GET',
        agent,
        headers: {
          Accept: 'text/event-stream',
          Authorization: `Bearer ${app.token}`,
          'Mcp-Session-Id': raw.sessionId,
          'MCP-Protocol-Version': PROTOCOL_VERSION,
        },
      }, (res) => resolve({ req, res, closed: false }));
      req.on('error', reject);
      req.end();
    });
    assert.equal(stream.res.statusCode, 200);
    stream.res.on('close', () => { stream.closed = true; });
    stream.res.resume();

    // Every byte one at a time from the first, with a request line long
    // enough that it alone would take many times the limit.
    const longLine = connect(app.url);
    sockets.push(longLine);
    await longLine.ready;
    const longRequest = `POST /mcp?${'a'.repeat(400)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
    trickle(longLine, longRequest);

    // The request line at once, then the headers a byte at a time.
    const slowHeaders = connect(app.url);
    sockets.push(slowHeaders);
    await slowHeaders.ready;
    const headerLine = 'POST /mcp HTTP/1.1\r\n';
    slowHeaders.socket.write(headerLine);
    slowHeaders.sent = 0;
    const headers = `Host: ${host}\r\nX-Pad: ${'b'.repeat(400)}\r\n\r\n`;
    trickle(slowHeaders, headers);

    // A connection that sends nothing at all.
    const silent = connect(app.url);
    sockets.push(silent);
    await silent.ready;

    // A kept-alive connection that sent one request, got its answer and
    // then says nothing more.
    const kept = connect(app.url);
    sockets.push(kept);
    await kept.ready;
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'ping' });
    kept.socket.write(`POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${app.token}\r\n` +
      `Mcp-Session-Id: ${raw.sessionId}\r\nMCP-Protocol-Version: ${PROTOCOL_VERSION}\r\n` +
      `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
      `Content-Length: ${Buffer.byteLength(ping)}\r\n\r\n${ping}`);
    await waitUntil('the answer to the kept-alive request', () => kept.received.includes('"id":99'));
    const answeredAt = Date.now();

    const longLineMs = await closedWithin(longLine, 'a connection sending its request line a byte at a time');
    const slowHeadersMs = await closedWithin(slowHeaders, 'a connection sending its headers a byte at a time');
    const silentMs = await closedWithin(silent, 'a connection that sends nothing');
    await closedWithin(kept, 'an idle kept-alive connection');
    const keptIdleMs = kept.closedAt - answeredAt;
    process.stderr.write(`e2e-leaks: closed after ${longLineMs} ms (request line a byte at a time), ` +
      `${slowHeadersMs} ms (headers a byte at a time), ${silentMs} ms (silent), ${keptIdleMs} ms idle (kept alive)\n`);

    // Cut off, not let through; and not before their time.
    assert.ok(longLine.sent < longRequest.length, `the request line was cut off (${longLine.sent} bytes)`);
    assert.ok(slowHeaders.sent < headers.length, `the headers were cut off (${slowHeaders.sent} bytes)`);
    assert.equal(longLine.received, '', 'nothing was answered to a request that never came');
    assert.ok(silentMs >= HEADER_MS * 0.9, `the silent connection had its time (${silentMs} ms)`);
    assert.ok(keptIdleMs >= IDLE_MS * 0.9, `the kept-alive connection had its idle time (${keptIdleMs} ms)`);

    // The stream outlived them all, and the server still answers.
    assert.equal(stream.closed, false, 'the event stream is still open');
    const pong = await raw.send('ping');
    assert.equal(pong.status, 200, pong.text);
    assert.equal(stream.closed, false, 'the event stream is still open');
    stream.req.destroy();
    agent.destroy();
    requests.destroy();
  } finally {
    for (const state of sockets)
      state.socket.destroy();
    await app.stop();
  }
});
