// SPDX-License-Identifier: GPL-3.0-or-later
//
// Private tabs (issue 31) through the official MCP SDK client against a real
// Tabwright: what the server is sent and what the tools show. A private tab
// shares no cookies or storage with the workspace's tabs, the tabs its pages
// open share its session, and once closed nothing of it is left. Private tabs
// of one context name share one session, which is forgotten once the last of
// them closes.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { after, before, test } from 'node:test';

import { listenAll } from './lib/fixture-server.mjs';
import { callError, callOk, evaluateIn, refIn, snapshotIn, textField } from './lib/mcp.mjs';
import { simplePage } from './lib/pages.mjs';
import { startSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';
import { waitUntil } from './lib/wait.mjs';

const options = requirementOptions();

let session;
let client;
let origin;
// The Cookie header of every request, by path.
const cookiesSeen = new Map();

function startServer() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    cookiesSeen.set(url.pathname, req.headers.cookie ?? '');
    const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' };
    // /login?who=x signs in as x.
    if (url.pathname === '/login')
      headers['Set-Cookie'] = `who=${url.searchParams.get('who')}; Path=/; HttpOnly`;
    res.writeHead(200, headers);
    if (url.pathname === '/opener')
      res.end(simplePage('Opener', '<a href="/popup" target="_blank">Open a window</a>'));
    // /remember?cart=x: the page itself sets a cookie, and stores x.
    else if (url.pathname === '/remember')
      res.end(simplePage('Remember', `<script>document.cookie = "cart=${url.searchParams.get('cart')}; path=/";
        localStorage.setItem("cart", "${url.searchParams.get('cart')}");</script>`));
    else
      res.end(simplePage(url.pathname.slice(1) || 'Home'));
  });
  return listenAll(server);
}

async function newTab(p, extra = {}) {
  const { data, text } = await callOk(client, 'browser_new_tab', { url: `${origin}${p}`, ...extra });
  return { id: data.browserId, data, text };
}

async function listTabs() {
  const { data, text } = await callOk(client, 'browser_list_tabs', {});
  return { tabs: data.tabs, text };
}

async function cookieNames(args = {}) {
  const { data } = await callOk(client, 'browser_cookies', { action: 'list', ...args });
  return data.cookies.map((c) => `${c.name}=${c.value}`).sort();
}

const evaluate = (browserId, fn) => evaluateIn(client, browserId, fn);

before(async () => {
  if (options.skip)
    return;
  session = await startSession({ tabwright: { args: ['--tools', 'core,storage'] }, fixtures: startServer });
  ({ client } = session);
  [origin] = session.fixtures.origins;
});

after(async () => {
  await session?.close();
});

let normal;
let priv;

test('a private tab is sent none of the workspace cookies, and keeps its own', options, async () => {
  normal = (await newTab('/login?who=person')).id;
  assert.equal(cookiesSeen.get('/login'), '');

  const opened = await newTab('/private-first', { private: true });
  priv = opened.id;
  assert.equal(opened.data.private, true, 'browser_new_tab says the tab is private');
  assert.match(opened.text, /^Opened a new private tab/);
  assert.equal(textField(opened.text, 'browserId'), priv);
  assert.equal(cookiesSeen.get('/private-first'), '', 'the private tab sends no workspace cookie');

  await callOk(client, 'browser_navigate', { browserId: priv, url: `${origin}/login?who=agent` });
  await callOk(client, 'browser_navigate', { browserId: priv, url: `${origin}/private-again` });
  assert.equal(cookiesSeen.get('/private-again'), 'who=agent', 'the private tab sends its own cookie');

  await callOk(client, 'browser_navigate', { browserId: normal, url: `${origin}/normal-again` });
  assert.equal(cookiesSeen.get('/normal-again'), 'who=person', 'the workspace keeps its cookie');

  // A tab opened without private: true is on the workspace's session.
  await newTab('/normal-second');
  assert.equal(cookiesSeen.get('/normal-second'), 'who=person');
});

test('browser_cookies with a browserId acts on that tab\'s session only', options, async () => {
  assert.deepEqual(await cookieNames(), ['who=person']);
  assert.deepEqual(await cookieNames({ browserId: normal }), ['who=person']);

  const mine = await callOk(client, 'browser_cookies', { action: 'list', browserId: priv });
  assert.deepEqual(mine.data.cookies.map((c) => `${c.name}=${c.value}`), ['who=agent']);
  assert.equal(mine.data.browserId, priv);
  assert.equal(textField(mine.text, 'browserId'), priv);

  // Set in the private session: the private tab sends it, the workspace does not have it.
  await callOk(client, 'browser_cookies', {
    action: 'set', name: 'flag', value: 'on', url: `${origin}/`, browserId: priv,
  });
  await callOk(client, 'browser_navigate', { browserId: priv, url: `${origin}/with-flag` });
  assert.match(cookiesSeen.get('/with-flag'), /(^|; )flag=on($|;)/);
  await callOk(client, 'browser_navigate', { browserId: normal, url: `${origin}/without-flag` });
  assert.equal(cookiesSeen.get('/without-flag'), 'who=person');
  assert.deepEqual(await cookieNames(), ['who=person']);
});

test('localStorage of a private tab is its own', options, async () => {
  await evaluate(normal, '() => { localStorage.setItem("theme", "dark"); return true; }');
  assert.equal(await evaluate(priv, '() => localStorage.getItem("theme")'), null);
  await evaluate(priv, '() => { localStorage.setItem("theme", "light"); return true; }');
  assert.equal(await evaluate(normal, '() => localStorage.getItem("theme")'), 'dark');

  const saved = await callOk(client, 'browser_storage_state', { action: 'save', path: 'private.json', browserId: priv });
  assert.equal(saved.data.browserId, priv);
  assert.match(saved.text, new RegExp(`of the session of tab ${priv}\\.`));
  const state = JSON.parse(fs.readFileSync(saved.data.path, 'utf8'));
  assert.deepEqual(state.cookies.map((c) => `${c.name}=${c.value}`).sort(), ['flag=on', 'who=agent']);
  assert.deepEqual(state.origins, [{ origin, localStorage: [{ name: 'theme', value: 'light' }] }]);
});

test('browser_list_tabs says which tabs are private', options, async () => {
  const { tabs, text } = await listTabs();
  const byId = new Map(tabs.map((t) => [t.browserId, t]));
  assert.equal(byId.get(priv).private, true);
  assert.equal(byId.get(normal).private, false);
  const line = text.split('\n').find((l) => l.includes(`browserId: ${priv},`));
  assert.match(line, /, private/);
  const normalLine = text.split('\n').find((l) => l.includes(`browserId: ${normal},`));
  assert.doesNotMatch(normalLine, /private/);
});

test('browser_logs of a private tab lists its console messages and requests', options, async () => {
  await callOk(client, 'browser_navigate', { browserId: priv, url: `${origin}/logged` });
  await evaluate(priv, '() => { console.warn("said in private", 7); return true; }');
  const { data } = await callOk(client, 'browser_logs', { browserId: priv });
  assert.ok(data.entries.some((e) => e.type === 'network' && e.url === `${origin}/logged`),
    `the request is listed: ${JSON.stringify(data.entries)}`);
  const said = data.entries.filter((e) => e.type === 'console' && e.text === 'said in private');
  assert.equal(said.length, 1, `the console message is listed once: ${JSON.stringify(data.entries)}`);
  assert.equal(said[0].level, 'warning');
  assert.equal(said[0].source, 'console-api');
  assert.ok(!data.entries.some((e) => e.type === 'note' && /private session/.test(e.text)),
    'no note says the console is missing');
});

test('a tab a private page opens is private too, on the same session', options, async () => {
  await callOk(client, 'browser_navigate', { browserId: priv, url: `${origin}/opener` });
  const snapshot = await snapshotIn(client, priv);
  const { data: clicked } = await callOk(client, 'browser_click', { browserId: priv, ref: refIn(snapshot, 'Open a window') });
  assert.equal(clicked.newTabs?.length, 1, `the click opened a tab: ${JSON.stringify(clicked)}`);
  const popup = clicked.newTabs[0];

  await waitUntil('the popup to load its page', () => cookiesSeen.has('/popup'));
  const { tabs } = await listTabs();
  assert.equal(tabs.find((t) => t.browserId === popup).private, true, 'browser_list_tabs says private');
  assert.match(cookiesSeen.get('/popup') ?? '', /(^|; )who=agent($|;)/, 'the popup sent the private cookie');
  assert.doesNotMatch(cookiesSeen.get('/popup') ?? '', /person/);
  assert.deepEqual(await cookieNames({ browserId: popup }), ['flag=on', 'who=agent']);

  await callOk(client, 'browser_close_tab', { browserId: popup });
});

test('bad input gets a clear error and changes nothing', options, async () => {
  const open = (await listTabs()).tabs.map((t) => t.browserId);

  const unknown = await callError(client, 'browser_cookies', {
    action: 'set', name: 'stray', value: '1', url: `${origin}/`, browserId: 'b999999',
  }, 'browser_not_found');
  assert.match(unknown.error.message, /b999999/);
  await callError(client, 'browser_storage_state', { action: 'save', path: 'x.json', browserId: 'b999999' },
    'browser_not_found');
  await callError(client, 'browser_new_tab', { url: `${origin}/never`, private: 'yes' }, 'browser_invalid_argument');
  await callError(client, 'browser_new_tab', { url: `${origin}/never`, private: 1 }, 'browser_invalid_argument');

  assert.deepEqual((await listTabs()).tabs.map((t) => t.browserId), open, 'no tab was opened');
  assert.equal(cookiesSeen.has('/never'), false, 'nothing was loaded');
  assert.deepEqual(await cookieNames(), ['who=person'], 'no cookie was set in the workspace');
  assert.deepEqual(await cookieNames({ browserId: priv }), ['flag=on', 'who=agent'], 'nor in the private tab');
});

test('a closed private tab leaves nothing: the next one starts empty', options, async () => {
  await callOk(client, 'browser_close_tab', { browserId: priv });
  await callError(client, 'browser_cookies', { action: 'list', browserId: priv }, 'browser_not_found');

  const next = await newTab('/private-next', { private: true });
  assert.equal(cookiesSeen.get('/private-next'), '', 'the new private tab sends no cookie');
  assert.deepEqual(await cookieNames({ browserId: next.id }), []);
  assert.equal(await evaluate(next.id, '() => localStorage.getItem("theme")'), null);
  assert.deepEqual(await cookieNames(), ['who=person'], 'the workspace still has its own');
});

// Named private contexts.

const sends = (p) => cookiesSeen.get(p) ?? '(never requested)';

let checkoutA;
let checkoutB;

test('private tabs of one context share the cookies and storage a page sets', options, async () => {
  const a = await newTab('/remember?cart=apples', { private: true, context: 'checkout' });
  checkoutA = a.id;
  assert.equal(a.data.private, true);
  assert.equal(a.data.context, 'checkout');
  assert.match(a.text, /^Opened a new private tab in context: checkout\./);
  assert.equal(sends('/remember'), '', 'the first tab of the context starts with no cookie');

  const b = await newTab('/checkout-second', { private: true, context: 'checkout' });
  checkoutB = b.id;
  assert.equal(sends('/checkout-second'), 'cart=apples', 'the second tab sends the cookie the first one\'s page set');
  assert.equal(await evaluate(checkoutB, '() => localStorage.getItem("cart")'), 'apples');

  // A name alone asks for a private tab too.
  const other = await newTab('/other-context', { context: 'support' });
  assert.equal(other.data.private, true);
  assert.equal(sends('/other-context'), '', 'a tab of another context is sent nothing of it');
  assert.equal(await evaluate(other.id, '() => localStorage.getItem("cart")'), null);

  const unnamed = await newTab('/unnamed-private', { private: true });
  assert.equal(sends('/unnamed-private'), '', 'nor is a private tab of no context');

  await callOk(client, 'browser_navigate', { browserId: normal, url: `${origin}/workspace-after-context` });
  assert.equal(sends('/workspace-after-context'), 'who=person', 'nor is the workspace');
  assert.equal(await evaluate(normal, '() => localStorage.getItem("cart")'), null);
  assert.deepEqual(await cookieNames({ browserId: checkoutB }), ['cart=apples']);

  await callOk(client, 'browser_close_tab', { browserId: other.id });
  await callOk(client, 'browser_close_tab', { browserId: unnamed.id });
});

test('browser_list_tabs names each private tab\'s context', options, async () => {
  const { tabs, text } = await listTabs();
  const byId = new Map(tabs.map((t) => [t.browserId, t]));
  assert.equal(byId.get(checkoutA).context, 'checkout');
  assert.equal(byId.get(checkoutB).context, 'checkout');
  assert.equal(byId.get(checkoutB).private, true);
  assert.equal(byId.get(normal).context, undefined);
  const line = text.split('\n').find((l) => l.includes(`browserId: ${checkoutA},`));
  assert.match(line, /, private \(context: checkout\)/);
});

test('a tab a page of a context opens belongs to that context', options, async () => {
  await callOk(client, 'browser_navigate', { browserId: checkoutB, url: `${origin}/opener` });
  cookiesSeen.delete('/popup');
  const snapshot = await snapshotIn(client, checkoutB);
  const { data: clicked } = await callOk(client, 'browser_click', { browserId: checkoutB, ref: refIn(snapshot, 'Open a window') });
  assert.equal(clicked.newTabs?.length, 1, `the click opened a tab: ${JSON.stringify(clicked)}`);
  const popup = clicked.newTabs[0];
  await waitUntil('the popup to load its page', () => cookiesSeen.has('/popup'));
  assert.equal(sends('/popup'), 'cart=apples', 'the popup shares the context\'s cookie');
  const { tabs } = await listTabs();
  assert.equal(tabs.find((t) => t.browserId === popup).context, 'checkout');
  await callOk(client, 'browser_close_tab', { browserId: popup });
});

test('a context lives while one of its tabs is open, and is forgotten after the last', options, async () => {
  await callOk(client, 'browser_close_tab', { browserId: checkoutA });
  const again = await newTab('/checkout-again', { private: true, context: 'checkout' });
  assert.equal(sends('/checkout-again'), 'cart=apples', 'one tab of the context was still open');

  await callOk(client, 'browser_close_tab', { browserId: checkoutB });
  await callOk(client, 'browser_close_tab', { browserId: again.id });
  const fresh = await newTab('/checkout-fresh', { private: true, context: 'checkout' });
  assert.equal(sends('/checkout-fresh'), '', 'the reopened context starts empty');
  assert.deepEqual(await cookieNames({ browserId: fresh.id }), []);
  assert.equal(await evaluate(fresh.id, '() => localStorage.getItem("cart")'), null);
  await callOk(client, 'browser_close_tab', { browserId: fresh.id });
});

test('a bad context name gets a clear error and opens nothing', options, async () => {
  const open = (await listTabs()).tabs.map((t) => t.browserId);
  const empty = await callError(client, 'browser_new_tab', { url: `${origin}/never`, context: '' },
    'browser_invalid_argument');
  assert.match(empty.error.message, /context/);
  await callError(client, 'browser_new_tab', { url: `${origin}/never`, context: 'x'.repeat(65) },
    'browser_invalid_argument');
  await callError(client, 'browser_new_tab', { url: `${origin}/never`, context: 7 }, 'browser_invalid_argument');
  const notPrivate = await callError(client, 'browser_new_tab',
    { url: `${origin}/never`, private: false, context: 'checkout' }, 'browser_invalid_argument');
  assert.match(notPrivate.error.message, /private: false/);
  assert.deepEqual((await listTabs()).tabs.map((t) => t.browserId), open, 'no tab was opened');
  assert.equal(cookiesSeen.has('/never'), false, 'nothing was loaded');
});
