// SPDX-License-Identifier: GPL-3.0-or-later
//
// The page's environment through the official MCP SDK client against a real
// Tabwright: cookies (the server records what the browser sends),
// localStorage and sessionStorage (the page reads what the tool wrote), and
// the storage state saved to a workspace file and loaded again.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';

import { listenAll } from './lib/fixture-server.mjs';
import { callError, callOk, callText, evaluateIn, openTab, snapshotIn, textField } from './lib/mcp.mjs';
import { simplePage } from './lib/pages.mjs';
import { startSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();

let session;
let app;
let client;
let origin;
const CSV = Buffer.from('id,name\n1,Ada\n2,Grace\n');
const BLOB = Buffer.from(Array.from({ length: 70000 }, (_, i) => (i * 7919) % 256));
// The Cookie header of every request, by path.
const cookiesSeen = new Map();

// The HTML pages of the server, by path; any other path is a plain page
// titled after it.
const PAGES = new Map([
  ['/login', simplePage('Logged in')],
  // Shows what the page itself reads from its storage.
  ['/storage', simplePage('Storage', '<p id="out"></p><script>' +
    'document.getElementById("out").textContent = "theme=" + localStorage.getItem("theme") +' +
    ' " draft=" + sessionStorage.getItem("draft");</script>')],
  ['/shot', simplePage('Shot', '<div role="img" aria-label="Red box" style="width:200px;height:100px;background:#f00"></div>' +
    '<div style="height:1500px"></div>' +
    '<button style="width:120px;height:40px;border:0;background:#00f;color:#fff">Far away</button>')],
  ['/invoice', simplePage('Invoice', '<p>Invoice number 4711 for Ada Lovelace</p><p id="late"></p>' +
    '<script>document.getElementById("late").textContent = "Total due: 42 EUR";</script>')],
  ['/find', simplePage('Find', '<button onclick="out.textContent=\'draft\'">Save draft</button>' +
    '<button onclick="out.textContent=\'sent\'">Save and send</button>' +
    '<a href="/help">Help</a><label>Email <input type="email"></label><p id="out"></p>')],
  ['/files', simplePage('Files', '<a href="/blob.bin" download="data.bin">Get the data</a>')],
]);

function startServer() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    cookiesSeen.set(url.pathname, req.headers.cookie ?? '');
    if (url.pathname === '/export.csv') {
      res.writeHead(200, {
        'Content-Type': 'text/csv',
        'Content-Disposition': 'attachment; filename="../../.evil\\report.csv"',
        'Content-Length': CSV.length,
      });
      res.end(CSV);
      return;
    }
    if (url.pathname === '/blob.bin') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': BLOB.length });
      res.end(BLOB);
      return;
    }
    const headers = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' };
    if (url.pathname === '/login')
      headers['Set-Cookie'] = 'session=server-made; Path=/; HttpOnly';
    res.writeHead(200, headers);
    res.end(PAGES.get(url.pathname) ?? simplePage(url.pathname.slice(1) || 'Home'));
  });
  return listenAll(server);
}

const openPage = (p) => openTab(client, `${origin}${p}`);

const evaluate = (browserId, fn) => evaluateIn(client, browserId, fn);

before(async () => {
  if (options.skip)
    return;
  session = await startSession({ tabwright: { args: ['--tools', 'core,reading,storage,output'] }, fixtures: startServer });
  ({ app, client } = session);
  [origin] = session.fixtures.origins;
});

after(async () => {
  await session?.close();
});

test('a cookie set with browser_cookies is sent to the server', options, async () => {
  const set = await callOk(client, 'browser_cookies', {
    action: 'set', name: 'token', value: 'abc 123', url: `${origin}/`, sameSite: 'Lax',
  });
  assert.equal(set.data.cookie.name, 'token');
  assert.equal(set.data.cookie.value, 'abc 123');
  assert.equal(set.data.cookie.domain, '127.0.0.1');
  assert.equal(set.data.cookie.expires, -1, 'without expires a session cookie');
  assert.match(set.text, /token="abc 123"; domain=127\.0\.0\.1; path=\/; session; SameSite=Lax/);

  await openPage('/first');
  assert.match(cookiesSeen.get('/first'), /(^|; )token=abc 123($|;)/);
});

test('browser_cookies lists, gets and deletes what the server set', options, async () => {
  await openPage('/login');
  const list = await callOk(client, 'browser_cookies', { action: 'list', domain: '127.0.0.1' });
  const session = list.data.cookies.find((c) => c.name === 'session');
  assert.ok(session, `the server's cookie is listed: ${list.text}`);
  assert.equal(session.value, 'server-made');
  assert.equal(session.httpOnly, true);
  assert.match(list.text, /session="server-made".*HttpOnly/);

  const get = await callOk(client, 'browser_cookies', { action: 'get', name: 'session' });
  assert.deepEqual(get.data.cookies.map((c) => c.value), ['server-made']);

  const none = await callOk(client, 'browser_cookies', { action: 'list', domain: 'example.org' });
  assert.deepEqual(none.data.cookies, []);
  assert.match(none.text, /No cookies match/);

  const removed = await callOk(client, 'browser_cookies', { action: 'delete', name: 'session' });
  assert.equal(removed.data.removed, 1);
  assert.equal(textField(removed.text, 'removed'), '1');
  await openPage('/after-delete');
  assert.doesNotMatch(cookiesSeen.get('/after-delete'), /session=/);
  assert.match(cookiesSeen.get('/after-delete'), /token=/, 'the other cookie stays');
});

test('browser_cookies refuses bad cookies and changes nothing', options, async () => {
  await callError(client, 'browser_cookies', { action: 'set', name: 'x', value: 'y' },
    'browser_invalid_argument');
  await callError(client, 'browser_cookies', { action: 'set', name: 'x', value: 'y', url: 'file:///etc/passwd' },
    'browser_invalid_argument');
  await callError(client, 'browser_cookies', { action: 'set', name: 'old', value: 'y', url: `${origin}/`, expires: 1000 },
    'browser_invalid_argument');
  await callError(client, 'browser_cookies', { action: 'delete' }, 'browser_invalid_argument');
  const list = await callOk(client, 'browser_cookies', { action: 'list' });
  assert.deepEqual(list.data.cookies.map((c) => c.name).sort(), ['token']);
});

test('browser_storage writes localStorage and sessionStorage the page reads', options, async () => {
  const id = await openPage('/blank');
  const set = await callOk(client, 'browser_storage', { browserId: id, action: 'set', key: 'theme', value: 'dark' });
  assert.equal(set.data.origin, origin);
  assert.equal(set.data.value, 'dark');
  assert.equal(textField(set.text, 'origin'), origin);
  await callOk(client, 'browser_storage', { browserId: id, area: 'session', action: 'set', key: 'draft', value: 'hello "you"' });
  await callOk(client, 'browser_navigate', { browserId: id, url: `${origin}/storage` });
  assert.equal(await evaluate(id, '() => document.getElementById("out").textContent'),
    'theme=dark draft=hello "you"');

  // What the page writes, the tool reads.
  await evaluate(id, '() => { localStorage.setItem("cart", "3 items"); return true; }');
  const list = await callOk(client, 'browser_storage', { browserId: id, action: 'list' });
  const items = [...list.data.items].sort((a, b) => a.key.localeCompare(b.key));
  assert.deepEqual(items, [{ key: 'cart', value: '3 items' }, { key: 'theme', value: 'dark' }]);
  assert.match(list.text, /"cart": "3 items"/);

  const get = await callOk(client, 'browser_storage', { browserId: id, action: 'get', key: 'missing' });
  assert.equal(get.data.value, null);
  assert.match(get.text, /has no item "missing"/);

  const removed = await callOk(client, 'browser_storage', { browserId: id, action: 'delete', key: 'cart' });
  assert.equal(removed.data.removed, 1);
  assert.equal(await evaluate(id, '() => localStorage.getItem("cart")'), null);

  const cleared = await callOk(client, 'browser_storage', { browserId: id, area: 'session', action: 'clear' });
  assert.equal(cleared.data.removed, 1);
  assert.equal(await evaluate(id, '() => sessionStorage.length'), 0);
});

test('browser_storage says when a page has no storage', options, async () => {
  const { data } = await callOk(client, 'browser_new_tab', {});
  await callError(client, 'browser_storage', { browserId: data.browserId, action: 'list' }, 'browser_denied');
  await callError(client, 'browser_storage', { browserId: data.browserId, action: 'set', key: 'k' },
    'browser_invalid_argument');
});

test('browser_storage_state saves a login and loads it back', options, async () => {
  const id = await openPage('/login');
  await callOk(client, 'browser_storage', { browserId: id, action: 'set', key: 'theme', value: 'solarized' });

  const saved = await callOk(client, 'browser_storage_state', { action: 'save', path: 'state.json' });
  const file = fs.realpathSync(path.join(app.dirs.workspace, 'state.json'));
  assert.equal(saved.data.path, file);
  assert.equal(textField(saved.text, 'path'), file);
  assert.deepEqual(saved.data.origins, [origin]);
  const state = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.ok(state.cookies.some((c) => c.name === 'session' && c.value === 'server-made' && c.httpOnly));
  assert.deepEqual(state.origins, [{ origin, localStorage: [{ name: 'theme', value: 'solarized' }] }]);

  // Log out: no cookies, no storage.
  await callOk(client, 'browser_cookies', { action: 'clear' });
  await callOk(client, 'browser_storage', { browserId: id, action: 'clear' });
  await callOk(client, 'browser_navigate', { browserId: id, url: `${origin}/logged-out` });
  assert.equal(cookiesSeen.get('/logged-out'), '');

  // Loading brings both back, for a page opened afterwards.
  const loaded = await callOk(client, 'browser_storage_state', { action: 'load', path: 'state.json' });
  assert.equal(loaded.data.cookies, state.cookies.length);
  assert.deepEqual(loaded.data.origins, [origin]);
  const next = await openPage('/storage');
  assert.match(cookiesSeen.get('/storage'), /session=server-made/);
  assert.equal(await evaluate(next, '() => document.getElementById("out").textContent'),
    'theme=solarized draft=null');
});

test('browser_storage_state refuses paths outside the workspace and bad files', options, async () => {
  const outside = path.join(path.dirname(app.dirs.workspace), 'escaped.json');
  await callError(client, 'browser_storage_state', { action: 'save', path: '../escaped.json' }, 'browser_denied');
  assert.ok(!fs.existsSync(outside), 'nothing was written outside the workspace');
  await callError(client, 'browser_storage_state', { action: 'load', path: '/etc/hostname' }, 'browser_denied');

  fs.writeFileSync(path.join(app.dirs.workspace, 'bad.json'),
    JSON.stringify({ cookies: [{ name: 'evil', value: '1', domain: '127.0.0.1' }, { name: 'broken' }] }));
  await callError(client, 'browser_storage_state', { action: 'load', path: 'bad.json' }, 'browser_invalid_argument');
  const list = await callOk(client, 'browser_cookies', { action: 'get', name: 'evil' });
  assert.deepEqual(list.data.cookies, [], 'a file with a bad entry changes nothing');
});

test('browser_handle_dialog answers the next dialog; later ones get the default', options, async () => {
  const id = await openPage('/dialogs');
  const set = await callOk(client, 'browser_handle_dialog', { browserId: id, accept: true, promptText: 'Ada' });
  assert.equal(set.data.accept, true);
  assert.equal(textField(set.text, 'browserId'), id);

  const prompted = await callOk(client, 'browser_evaluate', { browserId: id, function: '() => prompt("Your name?", "x")' });
  assert.equal(prompted.data.result, 'Ada', 'the page got the prompt text');
  assert.deepEqual(prompted.data.dialogs, [{ type: 'prompt', message: 'Your name?', accepted: true, promptText: 'Ada' }]);
  assert.match(prompted.text, /Dialog: prompt "Your name\?" \(accepted\) answered "Ada"/);

  const unannounced = await callOk(client, 'browser_evaluate', { browserId: id, function: '() => confirm("Again?")' });
  assert.equal(unannounced.data.result, false, 'an unannounced confirm is dismissed');
  assert.equal(unannounced.data.dialogs[0].accepted, false);

  await callOk(client, 'browser_handle_dialog', { browserId: id, accept: true });
  const confirmed = await callOk(client, 'browser_evaluate', { browserId: id, function: '() => confirm("Delete it?")' });
  assert.equal(confirmed.data.result, true);
  assert.match(confirmed.text, /Dialog: confirm "Delete it\?" \(accepted\)/);

  await callOk(client, 'browser_handle_dialog', { browserId: id, accept: true });
  const defaulted = await callOk(client, 'browser_evaluate', { browserId: id, function: '() => prompt("City?", "Paris")' });
  assert.equal(defaulted.data.result, 'Paris', 'an accepted prompt without text answers its default');

  await callOk(client, 'browser_handle_dialog', { browserId: id, accept: false });
  const dismissed = await callOk(client, 'browser_evaluate', { browserId: id, function: '() => prompt("Secret?")' });
  assert.equal(dismissed.data.result, null);
  assert.equal(dismissed.data.dialogs[0].accepted, false);
});

test('a download goes into the workspace downloads/ folder with the right bytes', options, async () => {
  const id = await openPage('/files');
  // Navigating to an attachment: the tab stays on its page, the file is saved.
  const nav = await callOk(client, 'browser_navigate', { browserId: id, url: `${origin}/export.csv` });
  assert.equal(nav.data.url, `${origin}/files`, 'the tab stays on its page');
  assert.equal(nav.data.downloads.length, 1, `the result reports the download: ${nav.text}`);
  const csv = nav.data.downloads[0];
  const folder = fs.realpathSync(path.join(app.dirs.workspace, 'downloads'));
  assert.equal(csv.state, 'finished');
  assert.equal(csv.fileName, 'evilreport.csv', 'the suggested name is cleaned of folders and dots');
  assert.equal(csv.path, path.join(folder, 'evilreport.csv'));
  assert.equal(csv.size, CSV.length);
  assert.equal(csv.mimeType, 'text/csv');
  assert.deepEqual(fs.readFileSync(csv.path), CSV);
  assert.match(nav.text, new RegExp(`Download: evilreport\\.csv finished, ${CSV.length} bytes, text/csv\npath: ${csv.path.replace(/[.]/g, '\\.')}`));

  // Clicking a download link, twice: the second copy gets a name of its own.
  const tree = await snapshotIn(client, id);
  const ref = /link "Get the data" (@e\d+)/.exec(tree)[1];
  for (const expected of ['data.bin', 'data (2).bin']) {
    const click = await callOk(client, 'browser_click', { browserId: id, ref });
    const blob = click.data.downloads?.[0];
    assert.ok(blob, `the click reports the download: ${click.text}`);
    assert.equal(blob.fileName, expected);
    assert.equal(blob.state, 'finished');
    assert.equal(blob.size, BLOB.length);
    assert.deepEqual(fs.readFileSync(blob.path), BLOB, 'the file has the served bytes');
    assert.equal(path.dirname(blob.path), folder);
  }

  const list = await callOk(client, 'browser_downloads', {});
  assert.deepEqual(list.data.downloads.map((d) => d.fileName), ['evilreport.csv', 'data.bin', 'data (2).bin']);
  assert.ok(list.data.downloads.every((d) => d.browserId === id));
  assert.equal(textField(list.text, 'folder'), path.join(app.dirs.workspace, 'downloads'));
  assert.deepEqual(fs.readdirSync(folder).sort(), ['data (2).bin', 'data.bin', 'evilreport.csv']);
});

// The size an image declares: PNG's IHDR, or a JPEG's start-of-frame.
function imageSize(buffer) {
  if (buffer.readUInt32BE(0) === 0x89504e47)
    return { type: 'png', width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
  assert.equal(buffer.readUInt16BE(0), 0xffd8, 'a JPEG starts with SOI');
  for (let offset = 2; offset < buffer.length;) {
    const marker = buffer.readUInt16BE(offset);
    const length = buffer.readUInt16BE(offset + 2);
    if (marker >= 0xffc0 && marker <= 0xffc2)
      return { type: 'jpeg', height: buffer.readUInt16BE(offset + 5), width: buffer.readUInt16BE(offset + 7) };
    offset += 2 + length;
  }
  assert.fail('no JPEG frame header');
}

test('browser_screenshot of one element, as JPEG, scaled, and saved', options, async () => {
  const id = await openPage('/shot');
  const tree = await snapshotIn(client, id);
  const box = /img "Red box" (@e\d+)/.exec(tree)[1];
  const far = /button "Far away" (@e\d+)/.exec(tree)[1];

  const element = await callText(client, 'browser_screenshot', { browserId: id, ref: far });
  const image = element.result.content.find((block) => block.type === 'image');
  assert.equal(image.mimeType, 'image/png');
  assert.deepEqual(imageSize(Buffer.from(image.data, 'base64')), { type: 'png', width: 120, height: 40 },
    'the image is the element, scrolled into view');
  assert.match(element.text, new RegExp(`Screenshot of element ${far}`));
  assert.ok(await evaluate(id, '() => window.scrollY') > 0, 'the page scrolled to the element');

  const jpeg = await callText(client, 'browser_screenshot', { browserId: id, ref: box, format: 'jpeg', quality: 50 });
  const jpegImage = jpeg.result.content.find((block) => block.type === 'image');
  assert.equal(jpegImage.mimeType, 'image/jpeg');
  assert.deepEqual(imageSize(Buffer.from(jpegImage.data, 'base64')), { type: 'jpeg', width: 200, height: 100 });

  const scaled = await callText(client, 'browser_screenshot', { browserId: id, maxWidth: 320 });
  const scaledImage = Buffer.from(scaled.result.content.find((block) => block.type === 'image').data, 'base64');
  const size = imageSize(scaledImage);
  assert.equal(size.width, 320);
  assert.equal(textField(scaled.text, 'width'), '320');
  assert.equal(Number(textField(scaled.text, 'height')), size.height);
  const scale = Number(textField(scaled.text, 'scale'));
  assert.ok(scale > 0 && scale < 1, `the text gives the scale: ${scaled.text}`);
  assert.ok(Math.abs(size.height / scale - await evaluate(id, '() => innerHeight')) <= 2, 'the height scales alike');

  const saved = await callText(client, 'browser_screenshot', { browserId: id, ref: box, format: 'jpeg', savePath: 'box.jpg' });
  const file = fs.realpathSync(path.join(app.dirs.workspace, 'box.jpg'));
  assert.equal(textField(saved.text, 'path'), file);
  assert.deepEqual(imageSize(fs.readFileSync(file)), { type: 'jpeg', width: 200, height: 100 });

  await callError(client, 'browser_screenshot', { browserId: id, ref: box, fullPage: true }, 'browser_invalid_argument');
  await callError(client, 'browser_screenshot', { browserId: id, ref: '@e99999' }, 'browser_stale_ref');
  await callError(client, 'browser_screenshot', { browserId: id, format: 'jpeg', savePath: '../out.jpg' }, 'browser_denied');
});

test('browser_pdf prints the page to a PDF in the workspace', options, async () => {
  const id = await openPage('/invoice');
  fs.mkdirSync(path.join(app.dirs.workspace, 'out'), { recursive: true });
  const printed = await callOk(client, 'browser_pdf', { browserId: id, path: 'out/invoice.pdf', landscape: true, paperSize: 'Letter' });
  const file = fs.realpathSync(path.join(app.dirs.workspace, 'out', 'invoice.pdf'));
  assert.equal(printed.data.path, file);
  assert.equal(textField(printed.text, 'path'), file);
  assert.equal(printed.data.size, fs.statSync(file).size);
  assert.equal(fs.readFileSync(file).subarray(0, 5).toString(), '%PDF-');
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  assert.match(text, /Invoice number 4711 for Ada Lovelace/);
  assert.match(text, /Total due: 42 EUR/, 'what the page script wrote is printed too');
  // Landscape Letter: 792 × 612 points.
  const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
  assert.match(info, /Page size:\s+792 x 612 pts/);

  await callError(client, 'browser_pdf', { browserId: id, path: '../escaped.pdf' }, 'browser_denied');
  assert.ok(!fs.existsSync(path.join(path.dirname(app.dirs.workspace), 'escaped.pdf')));
});

test('browser_find returns refs and snapshot lines of matching elements', options, async () => {
  const id = await openPage('/find');
  const buttons = await callOk(client, 'browser_find', { browserId: id, role: 'button', name: 'save' });
  assert.equal(buttons.data.total, 2);
  assert.deepEqual(buttons.data.matches.map((m) => m.name), ['Save draft', 'Save and send']);
  for (const match of buttons.data.matches) {
    assert.match(match.ref, /^@e\d+$/);
    assert.ok(buttons.text.includes(`- ${match.line}`), `the text has the line: ${buttons.text}`);
    assert.ok(match.line.includes(match.ref));
  }
  assert.match(buttons.text, /^2 elements match:/);

  const regex = await callOk(client, 'browser_find', { browserId: id, name: '/^save AND/i' });
  assert.deepEqual(regex.data.matches.map((m) => m.name), ['Save and send']);
  const textbox = await callOk(client, 'browser_find', { browserId: id, role: 'textbox', name: 'email' });
  assert.equal(textbox.data.total, 1);
  const byText = await callOk(client, 'browser_find', { browserId: id, text: 'help' });
  assert.deepEqual(byText.data.matches.map((m) => m.role), ['link']);

  // The refs are real: clicking one acts on that element.
  await callOk(client, 'browser_click', { browserId: id, ref: regex.data.matches[0].ref });
  assert.equal(await evaluate(id, '() => document.getElementById("out").textContent'), 'sent');

  const none = await callOk(client, 'browser_find', { browserId: id, role: 'slider' });
  assert.equal(none.data.total, 0);
  assert.match(none.text, /No element matches/);
  await callError(client, 'browser_find', { browserId: id }, 'browser_invalid_argument');
  await callError(client, 'browser_find', { browserId: id, name: '/[/' }, 'browser_invalid_argument');
});
