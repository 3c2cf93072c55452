// SPDX-License-Identifier: GPL-3.0-or-later
//
// Request routing (issue 31) through the official MCP SDK client against a
// real Tabwright: browser_route answers a tab's requests (fetch and
// XMLHttpRequest, pages, frames, images, scripts, style sheets) with a
// given response, fails them, or sends them with changed headers. The fixture app renders what its API answers; the
// servers record every request, so the tests check what the page showed
// and that the real server never got an answered request.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';

import { listenAll } from './lib/fixture-server.mjs';
import { callError, callOk, callText, evaluateIn, openTab, textField } from './lib/mcp.mjs';
import { useSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();

let server;
let otherServer;
let origin;
let otherOrigin;
// Every request the servers got: "METHOD path", and the headers by path.
const seen = [];
const headersSeen = new Map();

// The app asks its API when it loads, with fetch and with XMLHttpRequest,
// and shows what it got.
const APP = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Owl app</title></head>
<body><h1>Owl app</h1><ul id="items"></ul><p id="xhr"></p>
<script>
  window.got = fetch('/api/items').then(async (response) => {
    const items = await response.json();
    for (const item of items) {
      const li = document.createElement('li');
      li.textContent = item.name;
      document.getElementById('items').append(li);
    }
    return { status: response.status, statusText: response.statusText, url: response.url, type: response.type,
      mock: response.headers.get('X-Mock'), contentType: response.headers.get('Content-Type'), ok: response.ok };
  }, (error) => ({ error: String(error) }));
  window.xhr = new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('GET', '/api/xhr');
    request.responseType = 'json';
    request.onload = () => {
      document.getElementById('xhr').textContent = 'XHR says ' + request.response.says;
      resolve({ status: request.status, url: request.responseURL, type: request.getResponseHeader('content-type') });
    };
    request.onerror = () => resolve({ error: 'network error' });
    request.send();
  });
</script></body></html>`;

// A page with an image, a script and a style sheet of its own server, and
// a link to a page the routes answer.
const ASSETS = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Assets</title>
<link rel="stylesheet" href="/assets/app.css"><script src="/assets/app.js"></script></head>
<body><h1>Assets</h1><img id="pic" alt="Picture" src="/owl.png"><a href="/mocked/page?from=link">Mocked page</a></body></html>`;

// A 3 × 2 PNG.
const PNG_3x2 = 'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAAEElEQVR4nGP4z8AAQQxwFgBB0gX7h/C5SAAAAABJRU5ErkJggg==';

const HTML = 'text/html; charset=utf-8';

// What the server answers, by path, as [status, Content-Type, body]; any
// path not here (nor under /api/) gets the app.
const ANSWERS = new Map([
  // A 1 × 1 PNG.
  ['/owl.png', [200, 'image/png',
    Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64')]],
  ['/assets/app.js', [200, 'text/javascript', 'window.fromScript = "real";']],
  ['/assets/app.css', [200, 'text/css', 'h1 { color: rgb(0, 0, 255); }']],
  ['/gone.js', [404, 'text/javascript', 'window.ran = (window.ran || []).concat("real");']],
  ['/framed', [200, HTML, '<!DOCTYPE html><title>Framed</title><h1>Outer page</h1><iframe id="inner" src="/mocked/frame"></iframe>']],
  ['/assets', [200, HTML, ASSETS]],
  ['/gallery', [200, HTML, '<!DOCTYPE html><title>Gallery</title><img id="owl" alt="Owl" src="/owl.png" ' +
    'onload="window.image = \'loaded\'" onerror="window.image = \'failed\'">']],
]);

async function startServers() {
  otherServer = http.createServer((req, res) => {
    seen.push(`${req.method} other${req.url}`);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
    res.end('{"from":"other server"}');
  });
  server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    seen.push(`${req.method} ${url.pathname}`);
    headersSeen.set(url.pathname, req.headers);
    if (url.pathname.startsWith('/api/')) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
      res.end(url.pathname === '/api/xhr' ? '{"says":"real"}' : '[{"name":"Real owl"}]');
      return;
    }
    const [status, type, body] = ANSWERS.get(url.pathname) ?? [200, HTML, APP];
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
    res.end(body);
  });
  const servers = await listenAll(otherServer, server);
  [otherOrigin, origin] = servers.origins;
  return servers;
}

const route = (args) => callOk(session.client, 'browser_route', args);
const requestsTo = (p) => seen.filter((line) => line === `GET ${p}`).length;

const session = useSession(options, {
  tabwright: { args: ['--tools', 'core,debugging'] },
  fixtures: startServers,
});

async function appResults(id) {
  return evaluateIn(session.client, id, 'async () => ({ fetch: await window.got, xhr: await window.xhr, ' +
    'items: [...document.querySelectorAll("li")].map((li) => li.textContent), xhrText: document.getElementById("xhr").textContent })');
}

test('a routed API answer is rendered by the page, and the server never gets the request', options, async () => {
  const id = await openTab(session.client, `${origin}/app`);
  assert.deepEqual((await appResults(id)).items, ['Real owl']);
  const itemsBefore = requestsTo('/api/items');
  const xhrBefore = requestsTo('/api/xhr');

  fs.writeFileSync(path.join(session.app.dirs.workspace, 'xhr.json'), '{"says":"from a workspace file"}');
  const added = await route({ browserId: id, url: '*/api/items', status: 201, headers: { 'X-Mock': 'yes' },
    body: '[{"name":"Mocked owl"},{"name":"Second owl"}]' });
  assert.equal(added.data.added, 'r1');
  assert.match(added.text, /Added route r1, .* gets this answer as if the server sent it, and the server never sees it/);
  assert.equal(textField(added.text, 'browserId'), id);
  await route({ browserId: id, url: '*/api/xhr', bodyPath: 'xhr.json' });

  // The call whose page made the requests says which the routes answered.
  const reload = await callOk(session.client, 'browser_reload', { browserId: id });
  assert.deepEqual(reload.data.routed, [
    { route: 'r1', action: 'fulfill', method: 'GET', url: `${origin}/api/items`, status: 201 },
    { route: 'r2', action: 'fulfill', method: 'GET', url: `${origin}/api/xhr`, status: 200 },
  ]);
  assert.ok(reload.text.includes(`Routed by browser_route: GET ${origin}/api/items -> HTTP 201 (route r1); ` +
    `GET ${origin}/api/xhr -> HTTP 200 (route r2)`), reload.text);
  const results = await appResults(id);
  assert.deepEqual(results.items, ['Mocked owl', 'Second owl'], 'the page rendered the mocked JSON');
  assert.deepEqual(results.fetch, { status: 201, statusText: 'Created', url: `${origin}/api/items`, type: 'basic',
    mock: 'yes', contentType: 'application/json', ok: true });
  assert.equal(results.xhrText, 'XHR says from a workspace file');
  assert.deepEqual(results.xhr, { status: 200, url: `${origin}/api/xhr`, type: 'application/json' });
  assert.equal(requestsTo('/api/items'), itemsBefore, 'the server never got the routed fetch');
  assert.equal(requestsTo('/api/xhr'), xhrBefore, 'the server never got the routed XMLHttpRequest');

  const snapshot = (await callText(session.client, 'browser_snapshot', { browserId: id })).text;
  assert.ok(snapshot.includes('Mocked owl'), snapshot);

  // The routes say what they answered.
  const listed = await route({ browserId: id });
  assert.deepEqual(listed.data.routes.map((r) => [r.id, r.action, r.hits]), [['r1', 'fulfill', 1], ['r2', 'fulfill', 1]]);
  assert.deepEqual(listed.data.routes[0].lastRequests, [`GET ${origin}/api/items`]);
  assert.ok(listed.text.includes(`- id: r1, url: */api/items, answers HTTP 201, answered 1 request, last: GET ${origin}/api/items`), listed.text);

  // Removed, the requests reach the server again.
  const removed = await route({ browserId: id, remove: 'all' });
  assert.deepEqual(removed.data.removed, ['r1', 'r2']);
  assert.deepEqual(removed.data.routes, []);
  await callOk(session.client, 'browser_reload', { browserId: id });
  assert.deepEqual((await appResults(id)).items, ['Real owl']);
  assert.equal(requestsTo('/api/items'), itemsBefore + 1);
});

test('a route fails requests, or sends them with changed headers', options, async () => {
  const id = await openTab(session.client, `${origin}/app`);
  await route({ browserId: id, url: '*/api/items', abort: true });
  await route({ browserId: id, url: '*/api/xhr', setHeaders: { 'X-Agent': 'tabwright' } });
  const itemsBefore = requestsTo('/api/items');

  const reload = await callOk(session.client, 'browser_reload', { browserId: id });
  assert.ok(reload.text.includes(`GET ${origin}/api/items -> failed (route r1); GET ${origin}/api/xhr -> sent with changed headers (route r2)`), reload.text);
  const results = await appResults(id);
  assert.deepEqual(results.fetch, { error: 'TypeError: Load failed' }, 'the page saw a network error');
  assert.equal(requestsTo('/api/items'), itemsBefore, 'the failed request never left');
  assert.equal(results.xhrText, 'XHR says real');
  assert.equal(headersSeen.get('/api/xhr')['x-agent'], 'tabwright', 'the server got the changed header');
  const listed = await route({ browserId: id });
  assert.deepEqual(listed.data.routes.map((r) => [r.action, r.hits]), [['abort', 1], ['continue', 1]]);
  await route({ browserId: id, remove: 'all' });
});

test('an abort route fails the page\'s images and documents too, before they reach the server', options, async () => {
  const id = await openTab(session.client, `${origin}/gallery`);
  assert.equal(await evaluateIn(session.client, id, '() => window.image'), 'loaded');
  const before = requestsTo('/owl.png');

  const added = await route({ browserId: id, url: '*/owl.png', abort: true });
  assert.match(added.text, /every load of the tab that matches fails as a network error/);
  await callOk(session.client, 'browser_reload', { browserId: id });
  assert.equal(await evaluateIn(session.client, id, '() => window.image'), 'failed', 'the image failed to load');
  assert.equal(requestsTo('/owl.png'), before, 'the server never got the image request');

  await route({ browserId: id, remove: 'all' });
  await callOk(session.client, 'browser_reload', { browserId: id });
  assert.equal(await evaluateIn(session.client, id, '() => window.image'), 'loaded');
  assert.equal(requestsTo('/owl.png'), before + 1);
});

test('a routed answer to another origin is checked and filtered as CORS would', options, async () => {
  const id = await openTab(session.client, `${origin}/app`);
  const ask = `async () => { try { const r = await fetch(${JSON.stringify(`${otherOrigin}/data`)});
    return { status: r.status, type: r.type, mock: r.headers.get('X-Mock'), contentType: r.headers.get('Content-Type'), body: await r.text() }; }
    catch (e) { return { error: String(e) }; } }`;
  const before = seen.length;

  await route({ browserId: id, url: `${otherOrigin}/data`, headers: { 'X-Mock': 'hidden' }, body: '{"from":"route"}' });
  assert.deepEqual(await evaluateIn(session.client, id, ask),
    { status: 200, type: 'cors', mock: null, contentType: 'application/json', body: '{"from":"route"}' });

  await route({ browserId: id, remove: 'r1' });
  await route({ browserId: id, url: `${otherOrigin}/data`, headers: { 'Access-Control-Allow-Origin': 'http://elsewhere.test' }, body: '{}' });
  assert.deepEqual(await evaluateIn(session.client, id, ask), { error: 'TypeError: Load failed' }, 'an origin the route does not allow is refused');
  assert.equal(seen.slice(before).filter((line) => line.includes('other')).length, 0, 'the other server got nothing');
  await route({ browserId: id, remove: 'all' });
});

test('bad routes are refused and change nothing', options, async () => {
  const id = await openTab(session.client, `${origin}/app`);
  await callError(session.client, 'browser_route', { browserId: id, url: '*/x', status: 99 }, 'browser_invalid_argument');
  await callError(session.client, 'browser_route', { browserId: id, url: '*/x', abort: true, body: 'x' }, 'browser_invalid_argument');
  await callError(session.client, 'browser_route', { browserId: id, url: '*/x', headers: { 'Bad\nName': 'x' } }, 'browser_invalid_argument');
  await callError(session.client, 'browser_route', { browserId: id, remove: 'r42' }, 'browser_invalid_argument');
  await callError(session.client, 'browser_route', { browserId: id, url: '*/x', bodyPath: '/etc/passwd' }, 'browser_denied');
  await callError(session.client, 'browser_route', { browserId: 'b999', url: '*/x' }, 'browser_not_found');
  assert.deepEqual((await route({ browserId: id })).data.routes, []);
});

test('a routed page, image, script and style sheet reach the page as if the server sent them', options, async () => {
  const id = await openTab(session.client, `${origin}/assets`);
  const look = `async () => { const img = document.getElementById('pic'); let decoded = 'no';
    try { await img.decode(); decoded = 'yes'; } catch (e) { decoded = String(e); }
    return { width: img.naturalWidth, height: img.naturalHeight, decoded, src: img.currentSrc,
      script: window.fromScript, color: getComputedStyle(document.querySelector('h1')).color }; }`;
  assert.deepEqual(await evaluateIn(session.client, id, look), { width: 1, height: 1, decoded: 'yes', src: `${origin}/owl.png`,
    script: 'real', color: 'rgb(0, 0, 255)' });
  const before = { png: requestsTo('/owl.png'), js: requestsTo('/assets/app.js'), css: requestsTo('/assets/app.css') };

  fs.writeFileSync(path.join(session.app.dirs.workspace, 'pic.png'), Buffer.from(PNG_3x2, 'base64'));
  await route({ browserId: id, url: '*/owl.png', bodyPath: 'pic.png' });
  await route({ browserId: id, url: '*/assets/app.js', headers: { 'Content-Type': 'text/javascript' },
    body: 'window.fromScript = "mocked";' });
  // No Content-Type given: the style sheet's URL says text/css, as a server would.
  const added = await route({ browserId: id, url: '*/assets/app.css', body: 'h1 { color: rgb(255, 0, 0); }' });
  assert.match(added.text, /images, scripts, style sheets/);

  const reload = await callOk(session.client, 'browser_reload', { browserId: id });
  assert.deepEqual(reload.data.routed.map((r) => [r.route, r.url, r.status]).sort(), [
    ['r1', `${origin}/owl.png`, 200], ['r2', `${origin}/assets/app.js`, 200], ['r3', `${origin}/assets/app.css`, 200],
  ].sort());
  assert.deepEqual(await evaluateIn(session.client, id, look), { width: 3, height: 2, decoded: 'yes', src: `${origin}/owl.png`,
    script: 'mocked', color: 'rgb(255, 0, 0)' }, 'the page shows the mocked image, ran the mocked script and applied the mocked style');
  assert.deepEqual({ png: requestsTo('/owl.png'), js: requestsTo('/assets/app.js'), css: requestsTo('/assets/app.css') }, before,
    'the server never got the routed requests');

  // Removed, the real ones load again.
  await route({ browserId: id, remove: 'all' });
  await callOk(session.client, 'browser_reload', { browserId: id });
  assert.deepEqual(await evaluateIn(session.client, id, look), { width: 1, height: 1, decoded: 'yes', src: `${origin}/owl.png`,
    script: 'real', color: 'rgb(0, 0, 255)' });
});

test('a routed page is shown at its own URL, whether navigated to or reached by a link', options, async () => {
  const id = await openTab(session.client, `${origin}/assets`);
  const page = '<!DOCTYPE html><title>Mocked page</title><h1>Answered by a route</h1>' +
    '<script>window.seen = { href: location.href, origin: location.origin, url: document.URL };</script>';
  const added = await route({ browserId: id, url: '*/mocked/*', status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: page });
  assert.match(added.text, /a page the tab goes to is shown at its own URL/);

  const target = `${origin}/mocked/page?from=navigate`;
  const navigated = await callOk(session.client, 'browser_navigate', { browserId: id, url: target });
  assert.equal(navigated.data.url, target);
  assert.equal(navigated.data.title, 'Mocked page');
  assert.deepEqual(await evaluateIn(session.client, id, '() => window.seen'), { href: target, origin, url: target });
  const tabs = await callOk(session.client, 'browser_list_tabs', {});
  assert.equal(tabs.data.tabs.find((tab) => tab.browserId === id).url, target, 'the address bar shows the URL asked for');

  await callOk(session.client, 'browser_navigate', { browserId: id, url: `${origin}/assets` });
  const link = (await callText(session.client, 'browser_snapshot', { browserId: id })).text.match(/link "Mocked page" (@e\d+)/)[1];
  await callOk(session.client, 'browser_click', { browserId: id, ref: link });
  assert.deepEqual(await evaluateIn(session.client, id, '() => window.seen'),
    { href: `${origin}/mocked/page?from=link`, origin, url: `${origin}/mocked/page?from=link` });
  assert.equal(seen.filter((line) => line.startsWith('GET /mocked')).length, 0, 'the server never got the page requests');
  const listed = await route({ browserId: id });
  assert.equal(listed.data.routes[0].hits, 2);

  // Going back to a routed page shows it again at its URL, from the route.
  await callOk(session.client, 'browser_navigate', { browserId: id, url: `${origin}/assets` });
  const back = await callOk(session.client, 'browser_back', { browserId: id });
  assert.equal(back.data.url, `${origin}/mocked/page?from=link`);
  assert.equal(back.data.title, 'Mocked page');
  assert.equal((await evaluateIn(session.client, id, '() => window.seen')).href, `${origin}/mocked/page?from=link`);
  assert.equal(seen.filter((line) => line.startsWith('GET /mocked')).length, 0);
  await route({ browserId: id, remove: 'all' });
});

test('a routed frame document is answered inside its frame, and the page around it stays', options, async () => {
  const id = await openTab(session.client, `${origin}/assets`);
  await route({ browserId: id, url: '*/mocked/*', headers: { 'Content-Type': 'text/html' },
    body: '<!DOCTYPE html><title>Inner</title><p id="inside">Inside the frame</p>' });
  const navigated = await callOk(session.client, 'browser_navigate', { browserId: id, url: `${origin}/framed` });
  assert.equal(navigated.data.url, `${origin}/framed`);
  assert.equal(navigated.data.title, 'Framed');
  const snapshot = (await callText(session.client, 'browser_snapshot', { browserId: id })).text;
  assert.ok(snapshot.includes('Outer page') && snapshot.includes('Inside the frame'), snapshot);
  // As the result says: the frame's document comes from another origin.
  assert.equal(await evaluateIn(session.client, id, '() => document.getElementById("inner").contentDocument'), null);
  assert.equal(seen.filter((line) => line === 'GET /mocked/frame').length, 0, 'the server never got the frame request');
  await route({ browserId: id, remove: 'all' });
});

test('an error status a route gives reaches the page as the same status from the server does', options, async () => {
  const id = await openTab(session.client, `${origin}/assets`);
  await route({ browserId: id, url: '*/routed/gone.js', status: 404, headers: { 'Content-Type': 'text/javascript' },
    body: 'window.ran = (window.ran || []).concat("routed");' });
  const before = seen.length;
  // A script answered 404 fails and does not run, whoever answers.
  const look = (prefix) => `() => new Promise((resolve) => {
    const script = document.createElement('script'); script.src = '${prefix}/gone.js';
    script.onload = () => resolve({ event: 'load', ran: window.ran || [] });
    script.onerror = () => resolve({ event: 'error', ran: window.ran || [] });
    document.body.append(script); })`;
  const real = await evaluateIn(session.client, id, look(''));
  assert.equal(requestsTo('/gone.js'), 1);
  const routed = await evaluateIn(session.client, id, look('/routed'));
  assert.deepEqual(real, { event: 'error', ran: [] });
  assert.deepEqual(routed, real, 'the page sees the routed 404 as it sees the server\'s');
  assert.equal(seen.slice(before).filter((line) => line.startsWith('GET /routed')).length, 0);
  const listed = await route({ browserId: id });
  assert.deepEqual(listed.data.routes[0].lastRequests, [`GET ${origin}/routed/gone.js`]);
  await route({ browserId: id, remove: 'all' });
});
