// SPDX-License-Identifier: GPL-3.0-or-later
//
// Hostile and broken pages (issue 15): a page that replaces the built-ins
// browser_evaluate's result path could use, a web process killed during a
// call, a server redirect to a file: URL, and pages stuck in a loop or in
// a stream of alerts. Each is a real page served by a real HTTP server to
// the real app, driven by the official MCP SDK client.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';

import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

import { serve } from './lib/fixture-server.mjs';
import { callError, callOk, connectClient, resultText } from './lib/mcp.mjs';
import { requirementOptions, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();

// What a page may replace before the agent evaluates anything.
const BREAKS = {
  'Array.prototype.push': 'Array.prototype.push = function () { return 0; };',
  'Object.keys': 'Object.keys = () => [];',
  'Array.prototype.toJSON': "Array.prototype.toJSON = function () { return 'hijacked'; };",
  'Symbol.iterator on arrays': "Array.prototype[Symbol.iterator] = function* () { yield 'hijacked'; };",
  'JSON.stringify': "JSON.stringify = () => { throw new Error('no stringify for you'); };",
  'Object.prototype.toJSON': "Object.prototype.toJSON = function () { return 'hijacked'; };",
  'String.prototype.slice': "String.prototype.slice = () => 'hijacked';",
  'Array.prototype index setters': "Object.defineProperty(Array.prototype, '0', { set() {}, get() { return 'hijacked'; }, configurable: true });",
  'descriptor fields on Object.prototype': "Object.defineProperty(Object.prototype, 'value', { get() { return () => 'hijacked'; }, configurable: true });",
};

function page(title, script = '') {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>` +
    `<script>${script}</script></head><body><h1 id="title" class="big">${title}</h1></body></html>`;
}

// A server of @routes: each path's function answers (req, res, url).
function startServer(routes) {
  return serve((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const route = routes[url.pathname];
    if (!route) {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end(page('Not found'));
      return;
    }
    route(req, res, url);
  });
}

// Runs @body against a fresh Tabwright whose first tab shows @path of
// @server; stops the client, the app and the server afterwards, whatever
// happened.
async function withPage(server, path, body) {
  let app;
  let client;

  try {
    app = await startTabwright();
    client = await connectClient(app, 'e2e-faults');
    const { data: tab } = await callOk(client, 'browser_new_tab', { url: server.url(path) });
    await body({ app, client, browserId: tab.browserId });
  } finally {
    await client?.close().catch(() => {});
    await app?.stop();
    await server.close();
  }
}

function html(body) {
  return (req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(body);
  };
}

const VALUE_FUNCTION = "() => ({ list: [1, 'two', { three: 3 }], nested: { a: [true, null], b: 'bee' }, " +
  "when: new Date(0), n: NaN, el: document.querySelector('h1'), url: new URL('http://example.test/x') })";
const VALUE_EXPECTED = {
  list: [1, 'two', { three: 3 }],
  nested: { a: [true, null], b: 'bee' },
  when: '1970-01-01T00:00:00.000Z',
  n: 'NaN',
  el: '<h1 id="title" class="big">',
  url: 'http://example.test/x',
};

test('browser_evaluate returns the right values whatever built-ins the page replaced', options, async (t) => {
  const routes = { '/all': html(page('All broken', Object.values(BREAKS).join('\n'))) };
  const names = Object.keys(BREAKS);
  names.forEach((name, i) => { routes[`/break/${i}`] = html(page(`Broken ${i}`, BREAKS[name])); });
  const server = await startServer(routes);
  await withPage(server, '/all', async ({ client, browserId }) => {

    const check = async (where) => {
      const { data } = await callOk(client, 'browser_evaluate', { browserId, function: VALUE_FUNCTION });
      assert.deepEqual(data.result, VALUE_EXPECTED, `the value on a page that replaced ${where}`);
      assert.equal(data.resultType, 'object');
      assert.equal(data.truncated, false);

      const later = await callOk(client, 'browser_evaluate', {
        browserId, function: 'async () => { await null; return [[1, 2], { k: [3] }]; }',
      });
      assert.deepEqual(later.data.result, [[1, 2], { k: [3] }], `an awaited array on a page that replaced ${where}`);
      assert.equal(later.data.resultType, 'array');

      const thrown = await callError(client, 'browser_evaluate', {
        browserId, function: "() => { throw new TypeError('boom'); }",
      }, 'browser_script_error');
      assert.match(thrown.error.message, /TypeError: boom/, `a throw on a page that replaced ${where}`);
    };

    // Every page is tried, so a failure names every built-in that breaks
    // the result, not only the first.
    const wrong = [];
    const attempt = async (where) => {
      try {
        await check(where);
        t.diagnostic(`right values with ${where} replaced`);
      } catch (error) {
        wrong.push(`${where}: ${error.message.split('\n')[0]}`);
      }
    };
    await attempt('all of them at once');
    for (let i = 0; i < names.length; i++) {
      await callOk(client, 'browser_navigate', { browserId, url: server.url(`/break/${i}`) });
      await attempt(names[i]);
    }
    assert.deepEqual(wrong, [], 'browser_evaluate is wrong on these pages');
  });
});

// The live web processes among the app's descendants.
function webProcesses(root) {
  const all = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name))
      continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const [state, ppid] = stat.slice(close + 2).split(' ');
      all.push({ pid: Number(name), comm: stat.slice(stat.indexOf('(') + 1, close), state, ppid: Number(ppid) });
    } catch {
      // Gone meanwhile.
    }
  }
  const ours = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (!ours.has(p.pid) && ours.has(p.ppid)) {
        ours.add(p.pid);
        grew = true;
      }
    }
  }
  return all.filter((p) => ours.has(p.pid) && p.comm.startsWith('WebKitWebProces') && p.state !== 'Z');
}

// A web process that runs pages has loaded Tabwright's extension; one still
// starting has not, and killing that one makes WebKit abort the whole app
// (readPIDFromPeer), which is WebKit's to fix, not what this test is about.
function runsPages(p) {
  try {
    return fs.readFileSync(`/proc/${p.pid}/maps`, 'utf8').includes('libtabwright-web-process-extension');
  } catch {
    return false;
  }
}

test('a web process killed during browser_evaluate is reported as browser_crashed, and reload recovers', options, async () => {
  let started;
  const startedSeen = new Promise((resolve) => { started = resolve; });
  const server = await startServer({
    '/page': html(page('Crash me')),
    '/started': (req, res) => { res.writeHead(204); res.end(); started(); },
  });
  await withPage(server, '/page', async ({ app, client, browserId }) => {
    assert.equal((await callOk(client, 'browser_evaluate', { browserId, function: '() => document.title' })).data.result, 'Crash me');

    // The function tells the server it runs, then waits forever.
    const pending = client.request({
      method: 'tools/call',
      params: { name: 'browser_evaluate', arguments: { browserId, function: "() => { fetch('/started'); return new Promise(() => {}); }" } },
    }, CallToolResultSchema);
    await startedSeen;
    const running = webProcesses(app.pid).filter(runsPages);
    assert.ok(running.length > 0, 'the tab has a web process');
    for (const p of running)
      process.kill(p.pid, 'SIGKILL');

    const result = await pending;
    const text = resultText(result);
    assert.equal(result.isError, true, text);
    assert.equal(result.structuredContent.error.code, 'browser_crashed', text);
    assert.match(text, new RegExp(`${browserId}.*browser_reload`));

    await callError(client, 'browser_evaluate', { browserId, function: '() => 1' }, 'browser_crashed');
    await callOk(client, 'browser_reload', { browserId });
    assert.equal((await callOk(client, 'browser_evaluate', { browserId, function: '() => document.title' })).data.result, 'Crash me');
  });
});

test('a server redirect to another scheme reads nothing, and the tab comes back', options, async () => {
  const redirect = (location) => (req, res) => { res.writeHead(302, { Location: location }); res.end(); };
  const server = await startServer({
    '/page': html(page('Home')),
    '/to-data': redirect('data:text/html,<title>Data</title>'),
    '/to-file': redirect('file:///etc/passwd'),
  });
  await withPage(server, '/page', async ({ client, browserId }) => {

    // WebKit refuses a redirect to data: with an error.
    await callError(client, 'browser_navigate', { browserId, url: server.url('/to-data') }, 'browser_denied');
    const { data: after } = await callOk(client, 'browser_evaluate', { browserId, function: '() => document.title' });
    assert.notEqual(after.result, 'Data', 'the data: page was not shown');

    // To file:, WebKit ends the tab's web process (docs/threat-model.md):
    // the call fails, nothing of the file reaches the agent, and reload
    // gets the tab back.
    const toFile = await client.callTool({ name: 'browser_navigate', arguments: { browserId, url: server.url('/to-file') } });
    const text = resultText(toFile);
    assert.equal(toFile.isError, true, text);
    assert.ok(['browser_crashed', 'browser_denied', 'browser_navigation_failed'].includes(toFile.structuredContent.error.code), text);
    assert.doesNotMatch(text, /root:/, 'nothing of /etc/passwd is shown');
    await callOk(client, 'browser_navigate', { browserId, url: server.url('/page') });
    const { data } = await callOk(client, 'browser_evaluate', { browserId, function: '() => [location.href, document.title]' });
    assert.deepEqual(data.result, [server.url('/page'), 'Home']);
  });
});

test('a page stuck in an endless loop: calls say so, reload and navigate get the tab back', options, async (t) => {
  // The page asks /go and starts looping when it answers; the test answers
  // once the call that armed it has returned. The page's request may reach
  // the server before or after that: once released, /go answers at once.
  let held = [];
  let released = false;
  const answer = (res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('go');
  };
  const release = () => {
    released = true;
    held.forEach(answer);
    held = [];
  };
  const server = await startServer({
    '/page': html(page('Fresh page')),
    '/stuck': html(page('Stuck page')),
    '/go': (req, res) => { if (released) answer(res); else held.push(res); },
  });
  await withPage(server, '/stuck', async ({ client, browserId }) => {

    for (const [what, loop, recover] of [
      ['an endless loop', 'while (true) {}', 'browser_reload'],
      ['an endless loop', 'while (true) {}', 'browser_navigate'],
      ['an alert loop', "while (true) alert('again');", 'browser_reload'],
      ['an alert loop', "while (true) alert('again');", 'browser_navigate'],
    ]) {
      // The function returns; once it has, the page never yields again.
      released = false;
      const { data: armed } = await callOk(client, 'browser_evaluate', {
        browserId, function: `() => { fetch('/go').then(() => { ${loop} }); return 'armed'; }`,
      });
      assert.equal(armed.result, 'armed');
      release();

      // Calls on the stuck tab fail, naming it and saying what ends it.
      // Until the page has read the answer and started looping they still
      // work: wait for the first that fails.
      let error = null;
      const deadline = Date.now() + 30000;
      while (!error && Date.now() < deadline) {
        const result = await client.request({ method: 'tools/call', params: { name: 'browser_snapshot', arguments: { browserId } } }, CallToolResultSchema);
        if (result.isError)
          error = result.structuredContent.error;
      }
      assert.ok(error, `${what}: the page never got stuck`);
      assert.equal(error.code, 'browser_timeout', `${what}: ${error.message}`);
      assert.match(error.message, new RegExp(`tab ${browserId} is not responding`), `${what}: ${error.message}`);
      assert.match(error.message, /browser_reload or browser_navigate/);

      // Reload or navigate gets it back.
      const args = recover === 'browser_reload' ? { browserId } : { browserId, url: server.url('/page') };
      const { data: recovered } = await callOk(client, recover, args);
      t.diagnostic(`${what}: ${recover} answered ${JSON.stringify(recovered)}`);
      if (what === 'an alert loop') {
        // The alerts of the loop are reported once, with how many there were.
        const again = (recovered.dialogs ?? []).filter((d) => d.message === 'again');
        assert.equal(again.length, 1, `${what}: one entry for the repeated alert: ${JSON.stringify(recovered.dialogs)}`);
        assert.ok(again[0].count >= 2, `${what}: it says how often the alert opened: ${JSON.stringify(again[0])}`);
      }
      const title = recover === 'browser_reload' ? 'Stuck page' : 'Fresh page';
      const { data } = await callOk(client, 'browser_evaluate', { browserId, function: '() => document.title' });
      assert.equal(data.result, title, `${what}: the tab answers again after ${recover}`);
      const { text } = await callOk(client, 'browser_logs', { browserId });
      assert.match(text, /web process was ended/, `${what}: the tab's log says what happened`);
      // A call had already timed out on the page: the recovery gave it a
      // second to answer, not the five a page nothing is known of gets.
      assert.match(text, /did not answer within 1\.0 s/, `${what}: the page had a second to answer`);
      if (recover === 'browser_navigate')
        await callOk(client, 'browser_navigate', { browserId, url: server.url('/stuck') });
    }
  });
});
