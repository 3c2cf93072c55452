// SPDX-License-Identifier: GPL-3.0-or-later
//
// The input group (issue 18) through the official MCP SDK client against a
// real Tabwright: browser_fill_form fills a whole form, each field through
// the same action as the single-field tools, and browser_mouse acts at x,y
// of the viewport or of a scaled screenshot; the page records what it saw
// (input events, the values it holds, where the pointer went).

import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';

import { listenAll } from './lib/fixture-server.mjs';
import { callError, callOk, evaluateIn, openTab, refIn, snapshotIn, textField } from './lib/mcp.mjs';
import { simplePage } from './lib/pages.mjs';
import { startSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();

let session;
let client;
let origin;
// The User-Agent header of every request, by path.
const agentsSeen = new Map();

// A form that records every trusted input and change event it gets, by
// field name, and what was submitted. The combobox has no <datalist>:
// WebKit's suggestion popover, shown under Xvfb's pointer and closed again
// within GTK 4.8's 500 ms tooltip timeout, makes GTK raise a critical on
// the popover's destroyed surface, which the test environment makes fatal.
const FORM = simplePage('Sign up', `
<form id="f" action="/done" method="get">
  <label>Full name <input name="fullname"></label>
  <label>Notes <textarea name="notes"></textarea></label>
  <label>Country <select name="country"><option value="">Pick one</option>
    <option value="fr">France</option><option value="de">Germany</option></select></label>
  <label>City <input name="city" role="combobox" aria-autocomplete="list"></label>
  <label><input type="checkbox" name="news"> Newsletter</label>
  <label><input type="checkbox" name="terms" checked> Terms</label>
  <label><input type="checkbox" name="locked" onclick="return false"> Locked</label>
  <fieldset><legend>Plan</legend>
    <label><input type="radio" name="plan" value="free" checked> Free</label>
    <label><input type="radio" name="plan" value="pro"> Pro</label></fieldset>
  <div role="checkbox" aria-checked="false" tabindex="0" id="aria"
       onclick="this.setAttribute('aria-checked', this.getAttribute('aria-checked') === 'true' ? 'false' : 'true')">Remember me</div>
</form>
<script>
  window.seen = [];
  for (const type of ['input', 'change', 'click'])
    document.getElementById('f').addEventListener(type, (e) => {
      const n = e.target.name || e.target.id;
      if (n) window.seen.push(type + ':' + n + ':' + e.isTrusted);
    }, true);
</script>`);

// A canvas that records where the pointer went and draws strokes, a
// button, and a scroller.
const CANVAS = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Canvas</title>
<style>body { margin: 0 } canvas { position: absolute; left: 0; top: 0 }
#save { position: absolute; left: 500px; top: 20px; width: 100px; height: 40px }
#list { position: absolute; left: 500px; top: 100px; width: 200px; height: 150px; overflow: auto }</style></head>
<body><canvas id="c" width="400" height="300" aria-label="Sketch"></canvas>
<button id="save" onclick="window.saved = (window.saved || 0) + 1">Save</button>
<div id="list" role="list" aria-label="Items">${Array.from({ length: 50 }, (_, i) => `<div role="listitem">Item ${i}</div>`).join('')}</div>
<script>
  const c = document.getElementById('c');
  const g = c.getContext('2d');
  window.events = [];
  let drawing = false;
  for (const type of ['pointerdown', 'pointermove', 'pointerup', 'click', 'dblclick'])
    c.addEventListener(type, (e) => {
      window.events.push({ type, x: e.clientX, y: e.clientY, ox: e.offsetX, oy: e.offsetY, buttons: e.buttons });
      if (type === 'pointerdown') { drawing = true; g.beginPath(); g.moveTo(e.offsetX, e.offsetY); }
      if (type === 'pointermove' && drawing) { g.lineTo(e.offsetX, e.offsetY); g.lineWidth = 4; g.stroke(); }
      if (type === 'pointerup') drawing = false;
    });
</script></body></html>`;

function startServer() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    agentsSeen.set(url.pathname, req.headers['user-agent'] ?? '');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    if (url.pathname === '/form') {
      res.end(FORM);
      return;
    }
    if (url.pathname === '/canvas') {
      res.end(CANVAS);
      return;
    }
    if (url.pathname === '/search') {
      res.end(simplePage('Search', '<form action="/results"><label>Query <input name="q" ' +
        'oninput="if (this.value === \'go\') location.href = \'/results?q=go\'"></label>' +
        '<label>Page <input name="p"></label></form>'));
      return;
    }
    res.end(simplePage(url.pathname.slice(1) || 'Home'));
  });
  return listenAll(server);
}

const openPage = (p) => openTab(client, `${origin}${p}`);

const evaluate = (browserId, fn) => evaluateIn(client, browserId, fn);

const snapshot = (browserId) => snapshotIn(client, browserId);

before(async () => {
  if (options.skip)
    return;
  session = await startSession({ tabwright: { args: ['--tools', 'core,input,emulation'] }, fixtures: startServer });
  ({ client } = session);
  [origin] = session.fixtures.origins;
});

after(async () => {
  await session?.close();
});

test('browser_fill_form fills text, textarea, dropdown, combobox, checkboxes and radios', options, async () => {
  const id = await openPage('/form');
  const snap = await snapshot(id);
  const refs = {
    name: refIn(snap, 'textbox "Full name"'),
    notes: refIn(snap, 'textbox "Notes"'),
    country: refIn(snap, 'combobox "Country"'),
    city: refIn(snap, 'combobox "City"'),
    news: refIn(snap, 'checkbox "Newsletter"'),
    terms: refIn(snap, 'checkbox "Terms"'),
    pro: refIn(snap, 'radio "Pro"'),
    aria: refIn(snap, 'checkbox "Remember me"'),
  };

  const { data, text } = await callOk(client, 'browser_fill_form', {
    browserId: id,
    fields: [
      { ref: refs.name, value: 'Ada Lovelace' },
      { ref: refs.notes, value: 'line one\nline two' },
      { ref: refs.country, value: 'Germany' },
      { ref: refs.city, value: 'Paris' },
      { ref: refs.news, value: true },
      { ref: refs.terms, value: 'true' },
      { ref: refs.pro, value: true },
      { ref: refs.aria, value: true },
    ],
  });

  assert.equal(data.filled, 8, text);
  assert.equal(data.failed, 0);
  assert.deepEqual(data.fields.map((f) => [f.ref, f.role, f.kind, f.filled]), [
    [refs.name, 'textbox', 'fill', true],
    [refs.notes, 'textbox', 'fill', true],
    [refs.country, 'combobox', 'select', true],
    [refs.city, 'combobox', 'fill', true],
    [refs.news, 'checkbox', 'check', true],
    [refs.terms, 'checkbox', 'check', true],
    [refs.pro, 'radio', 'check', true],
    [refs.aria, 'checkbox', 'check', true],
  ]);
  assert.equal(data.fields[0].name, 'Full name');
  assert.equal(data.fields[0].value, 'Ada Lovelace');
  assert.equal(data.fields[1].value, 'line one\nline two');
  assert.equal(data.fields[2].value, 'Germany');
  assert.equal(data.fields[3].value, 'Paris');
  assert.equal(data.fields[4].checked, true);
  assert.equal(data.fields[5].changed, false, 'Terms was checked already');
  assert.match(text, /^Filled all 8 fields:/);
  assert.ok(text.includes(`- textbox "Full name" ${refs.name}: "Ada Lovelace"`), text);
  assert.ok(text.includes(`- checkbox "Terms" ${refs.terms}: checked (already so)`), text);
  assert.ok(text.includes(`- combobox "Country" ${refs.country}: selected "Germany"`), text);
  assert.equal(textField(text, 'browserId'), id);

  // What the page holds, and that it came by trusted events as a person's.
  const state = await evaluate(id, `() => {
    const f = document.getElementById('f');
    return { name: f.fullname.value, notes: f.notes.value, country: f.country.value, city: f.city.value,
             news: f.news.checked, terms: f.terms.checked, plan: f.plan.value,
             aria: document.getElementById('aria').getAttribute('aria-checked'), seen: window.seen };
  }`);
  assert.deepEqual({ ...state, seen: undefined }, {
    name: 'Ada Lovelace', notes: 'line one\nline two', country: 'de', city: 'Paris',
    news: true, terms: true, plan: 'pro', aria: 'true', seen: undefined,
  });
  // Typed text comes as trusted input events; checkboxes get browser_click's
  // pointer click, whose default action (checking) fires a trusted change.
  for (const event of ['input:fullname:true', 'input:notes:true', 'click:country:', 'change:country:',
                       'input:city:true', 'click:news:', 'change:news:true', 'click:plan:',
                       'change:plan:true', 'click:aria:'])
    assert.ok(state.seen.some((s) => s.startsWith(event)), `the page saw ${event}: ${state.seen}`);
  assert.ok(!state.seen.some((s) => s.startsWith('click:terms')), 'Terms was left alone, as it was checked');
});

test('a bad field reports its own error and the others are still filled', options, async () => {
  const id = await openPage('/form');
  const snap = await snapshot(id);
  const name = refIn(snap, 'textbox "Full name"');
  const country = refIn(snap, 'combobox "Country"');
  const locked = refIn(snap, 'checkbox "Locked"');
  const free = refIn(snap, 'radio "Free"');
  const news = refIn(snap, 'checkbox "Newsletter"');

  const { data, text } = await callOk(client, 'browser_fill_form', {
    browserId: id,
    fields: [
      { ref: country, value: 'Atlantis' },
      { ref: name, value: 'Grace' },
      { ref: news, value: 'maybe' },
      { ref: locked, value: true },
      { ref: free, value: false },
      { ref: '@e99999', value: 'x' },
    ],
  });
  assert.equal(data.filled, 1, text);
  assert.equal(data.failed, 5);
  const byRef = Object.fromEntries(data.fields.map((f) => [f.ref, f]));
  assert.equal(byRef[country].filled, false);
  assert.equal(byRef[country].error.code, 'browser_invalid_argument');
  assert.match(byRef[country].error.message, /France/, 'the options are listed');
  assert.equal(byRef[name].filled, true);
  assert.equal(byRef[name].value, 'Grace');
  assert.equal(byRef[news].error.code, 'browser_invalid_argument');
  assert.equal(byRef[locked].filled, false, 'a checkbox the page keeps unchecked is not reported as filled');
  assert.equal(byRef[locked].checked, false);
  assert.equal(byRef[free].error.code, 'browser_invalid_argument');
  assert.equal(byRef['@e99999'].error.code, 'browser_stale_ref');
  assert.match(text, /^Filled 1 of 6 fields; 5 failed and were not filled \(the others were\):/);
  assert.ok(text.includes(`combobox "Country" ${country}: not filled. Error: browser_invalid_argument — `), text);

  const state = await evaluate(id, `() => { const f = document.getElementById('f');
    return [f.fullname.value, f.country.value, f.news.checked, f.locked.checked, f.plan.value]; }`);
  assert.deepEqual(state, ['Grace', '', false, false, 'free']);
});

test('browser_fill_form fails as a whole only when no field was filled', options, async () => {
  const id = await openPage('/form');
  const snap = await snapshot(id);
  const news = refIn(snap, 'checkbox "Newsletter"');
  const { error } = await callError(client, 'browser_fill_form',
    { browserId: id, fields: [{ ref: news, value: 'yes please' }] }, 'browser_invalid_argument');
  assert.match(error.message, new RegExp(`^${news}: it is a checkbox`));
  await callError(client, 'browser_fill_form', { browserId: id, fields: [] }, 'browser_invalid_argument');
  await callError(client, 'browser_fill_form', { browserId: id, fields: [{ ref: news }] }, 'browser_invalid_argument');
  await callError(client, 'browser_fill_form', { browserId: 'b999', fields: [{ ref: news, value: true }] },
    'browser_not_found');
  assert.equal(await evaluate(id, '() => document.getElementById("f").news.checked'), false);
});

test('a field that navigates skips the rest and says so', options, async () => {
  const id = await openPage('/search');
  const snap = await snapshot(id);
  const q = refIn(snap, 'textbox "Query"');
  const p = refIn(snap, 'textbox "Page"');
  const { data, text } = await callOk(client, 'browser_fill_form', {
    browserId: id, fields: [{ ref: q, value: 'go' }, { ref: p, value: '2' }],
  });
  assert.equal(data.navigated, true, text);
  assert.equal(data.url, `${origin}/results?q=go`);
  assert.equal(data.fields[0].filled, true);
  assert.equal(data.fields[1].filled, false);
  assert.equal(data.fields[1].error.code, 'browser_stale_ref');
  assert.equal(data.skipped, 1);
  assert.match(text, /A field took the tab to another page/);
  assert.equal(textField(text, 'url'), `${origin}/results?q=go`);
});

function eventsOf(events, type) {
  return events.filter((e) => e.type === type);
}

test('browser_mouse clicks land where they were asked, also through a scaled screenshot', options, async () => {
  const id = await openPage('/canvas');
  const click = await callOk(client, 'browser_mouse', { browserId: id, action: 'click', x: 120, y: 75 });
  assert.equal(click.data.x, 120);
  assert.equal(click.data.y, 75);
  assert.equal(click.data.element.tag, 'canvas', click.text);
  assert.match(click.text, /^Left-clicked at \(120, 75\) of the viewport, on /);
  let events = await evaluate(id, '() => window.events');
  assert.deepEqual(eventsOf(events, 'click').map((e) => [e.x, e.y, e.ox, e.oy]), [[120, 75, 120, 75]]);

  // A screenshot scaled to half the viewport's width: its points map back.
  const width = await evaluate(id, '() => window.innerWidth');
  const shot = await client.callTool({ name: 'browser_screenshot', arguments: { browserId: id, maxWidth: Math.round(width / 2) } });
  const scale = Number(textField(shot.content.find((b) => b.type === 'text').text, 'scale'));
  assert.ok(Math.abs(scale - 0.5) < 0.01, `the screenshot was scaled: ${scale}`);
  await callOk(client, 'browser_mouse', { browserId: id, action: 'click', x: 50, y: 100, scale });
  await callOk(client, 'browser_mouse', { browserId: id, action: 'double_click', x: 150, y: 30, screenshotWidth: width / 2 });
  events = await evaluate(id, '() => window.events');
  const clicks = eventsOf(events, 'click').map((e) => [Math.round(e.x), Math.round(e.y)]);
  assert.deepEqual(clicks.slice(1, 2), [[Math.round(50 / scale), Math.round(100 / scale)]]);
  assert.deepEqual(eventsOf(events, 'dblclick').map((e) => [e.x, e.y]), [[300, 60]]);

  await callError(client, 'browser_mouse', { browserId: id, action: 'click', x: width + 10, y: 10 }, 'browser_invalid_argument');
  await callError(client, 'browser_mouse', { browserId: id, action: 'drag', x: 10, y: 10 }, 'browser_invalid_argument');
  assert.equal((await evaluate(id, '() => window.events')).length, events.length, 'refused calls sent no events');
});

test('browser_mouse names the element at the point with a snapshot ref', options, async () => {
  const id = await openPage('/canvas');
  const { data, text } = await callOk(client, 'browser_mouse', { browserId: id, action: 'click', x: 550, y: 40 });
  assert.equal(data.element.role, 'button');
  assert.equal(data.element.name, 'Save');
  assert.equal(textField(text, 'ref'), data.element.ref);
  assert.equal(await evaluate(id, '() => window.saved'), 1);
  // The same ref the snapshot prints, and it works with the ref tools.
  const snap = await snapshot(id);
  assert.equal(refIn(snap, 'button "Save"'), data.element.ref);
  await callOk(client, 'browser_click', { browserId: id, ref: data.element.ref });
  assert.equal(await evaluate(id, '() => window.saved'), 2);
});

test('browser_mouse wheel scrolls the scroller under the point', options, async () => {
  const id = await openPage('/canvas');
  const { data, text } = await callOk(client, 'browser_mouse', { browserId: id, action: 'wheel', x: 600, y: 200, deltaY: 120 });
  assert.equal(data.movedY, 120, text);
  assert.equal(data.element.role, 'listitem');
  assert.equal(await evaluate(id, '() => document.getElementById("list").scrollTop'), 120);
  assert.equal(await evaluate(id, '() => document.scrollingElement.scrollTop'), 0, 'the page did not scroll');
});

test('browser_mouse drag on a canvas draws from A to B', options, async () => {
  const id = await openPage('/canvas');
  const { data, text } = await callOk(client, 'browser_mouse', { browserId: id, action: 'drag', x: 40, y: 40, toX: 240, toY: 140 });
  assert.deepEqual(data.to, { x: 240, y: 140 }, text);
  assert.match(text, /^Dragged from \(40, 40\) of the viewport, on canvas "Sketch" @e\d+, to \(240, 140\)/);
  const events = await evaluate(id, '() => window.events');
  assert.deepEqual(eventsOf(events, 'pointerdown').map((e) => [e.x, e.y]), [[40, 40]]);
  assert.deepEqual(eventsOf(events, 'pointerup').map((e) => [e.x, e.y]), [[240, 140]]);
  const moves = eventsOf(events, 'pointermove').filter((e) => e.buttons === 1);
  assert.ok(moves.length >= 5, `moves with the button held: ${JSON.stringify(events)}`);
  // The stroke is on the canvas: painted in the middle of A-B, not far off it.
  const painted = await evaluate(id, `() => {
    const g = document.getElementById('c').getContext('2d');
    return [g.getImageData(140, 90, 1, 1).data[3], g.getImageData(40, 200, 1, 1).data[3]];
  }`);
  assert.ok(painted[0] > 0, 'the line passes through the middle');
  assert.equal(painted[1], 0, 'nothing drawn elsewhere');
});

test('browser_emulate sets the user agent the page and the server see, per tab, until reset', options, async () => {
  const phone = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Tabwright-Test/1.0 Mobile';
  const id = await openPage('/ua-before');
  const other = await openPage('/ua-other');
  const own = agentsSeen.get('/ua-before');
  assert.ok(own.length > 0 && !own.includes('Tabwright-Test'));

  const set = await callOk(client, 'browser_emulate', { browserId: id, userAgent: phone });
  assert.deepEqual(set.data.emulation, { userAgent: phone });
  assert.equal(textField(set.text, 'userAgent'), phone);
  await callOk(client, 'browser_navigate', { browserId: id, url: `${origin}/ua-after` });
  assert.equal(agentsSeen.get('/ua-after'), phone, 'the server got the emulated User-Agent');
  assert.equal(await evaluate(id, '() => navigator.userAgent'), phone);

  // Only that tab: the other one keeps the browser's own.
  await callOk(client, 'browser_navigate', { browserId: other, url: `${origin}/ua-other-after` });
  assert.equal(agentsSeen.get('/ua-other-after'), own);

  const list = await callOk(client, 'browser_list_tabs', {});
  const tab = list.data.tabs.find((t) => t.browserId === id);
  assert.deepEqual(tab.emulation, { userAgent: phone });
  assert.equal(list.data.tabs.find((t) => t.browserId === other).emulation, undefined);
  assert.ok(list.text.includes(`browserId: ${id}, `) && list.text.includes(`emulating userAgent: ${phone}`), list.text);

  await callError(client, 'browser_emulate', { browserId: id, userAgent: 'evil\r\nX-Injected: 1' }, 'browser_invalid_argument');
  await callError(client, 'browser_emulate', { browserId: id }, 'browser_invalid_argument');
  assert.deepEqual((await callOk(client, 'browser_list_tabs', {})).data.tabs.find((t) => t.browserId === id).emulation,
    { userAgent: phone }, 'a refused call changed nothing');

  const reset = await callOk(client, 'browser_emulate', { browserId: id, reset: true });
  assert.deepEqual(reset.data.emulation, {});
  await callOk(client, 'browser_navigate', { browserId: id, url: `${origin}/ua-reset` });
  assert.equal(agentsSeen.get('/ua-reset'), own);
  assert.equal(await evaluate(id, '() => navigator.userAgent'), own);
  assert.equal((await callOk(client, 'browser_list_tabs', {})).data.tabs.find((t) => t.browserId === id).emulation, undefined);
});

// What navigator.geolocation tells the page: { latitude, longitude,
// accuracy } or { error: code } (1 denied, 2 unavailable, 3 timeout).
const READ_POSITION = `() => new Promise((resolve) => navigator.geolocation.getCurrentPosition(
  (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy }),
  (e) => resolve({ error: e.code }), { timeout: 5000 }))`;

test('browser_emulate gives one tab a geolocation its pages may read, and no other tab', options, async () => {
  const id = await openPage('/geo');
  const other = await openPage('/geo-other');
  const paris = { latitude: 48.8566, longitude: 2.3522, accuracy: 25 };

  assert.deepEqual(await evaluate(id, READ_POSITION), { error: 1 }, 'without emulation the page is denied');

  // WebKit keeps a page's answer: the result says the page shown must load
  // again, and once it has, it reads the position.
  const set = await callOk(client, 'browser_emulate', { browserId: id, geolocation: paris });
  assert.deepEqual(set.data.emulation, { geolocation: paris });
  assert.equal(set.data.pageDenied, true);
  assert.ok(set.text.includes('geolocation: 48.8566, 2.3522 (accuracy 25 m)') && set.text.includes('reload it'), set.text);
  await callOk(client, 'browser_reload', { browserId: id });
  assert.deepEqual(await evaluate(id, READ_POSITION), paris);
  assert.deepEqual(await evaluate(other, READ_POSITION), { error: 1 }, 'the other tab is still denied');
  const again = await callOk(client, 'browser_emulate', { browserId: id, geolocation: paris });
  assert.equal(again.data.pageDenied, undefined, 'this page was not denied');
  assert.ok(again.text.includes('are allowed and get this one'), again.text);

  // A page watching the position follows the tab's moves.
  await evaluate(id, `() => { window.watched = []; navigator.geolocation.watchPosition(
    (p) => window.watched.push([p.coords.latitude, p.coords.longitude]), (e) => window.watched.push(e.code)); }`);
  const lyon = { latitude: 45.764, longitude: 4.8357 };
  const moved = await callOk(client, 'browser_emulate', { browserId: id, geolocation: lyon });
  assert.deepEqual(moved.data.emulation.geolocation, { ...lyon, accuracy: 10 }, 'accuracy is 10 m unless given');
  assert.deepEqual(await evaluate(id, READ_POSITION), { ...lyon, accuracy: 10 });
  const watched = await evaluate(id, '() => window.watched');
  assert.deepEqual(watched.at(-1), [lyon.latitude, lyon.longitude], JSON.stringify(watched));

  const list = await callOk(client, 'browser_list_tabs', {});
  assert.deepEqual(list.data.tabs.find((t) => t.browserId === id).emulation, { geolocation: { ...lyon, accuracy: 10 } });
  assert.ok(list.text.includes('emulating geolocation: 45.764, 4.8357 (accuracy 10 m)'), list.text);

  // One position for all tabs: another one is refused and changes nothing,
  // the same one is given.
  await callError(client, 'browser_emulate', { browserId: other, geolocation: paris }, 'browser_invalid_argument');
  await callError(client, 'browser_emulate', { browserId: other, geolocation: { latitude: 91, longitude: 0 } },
    'browser_invalid_argument');
  await callError(client, 'browser_emulate', { browserId: other, geolocation: { latitude: 0 } },
    'browser_invalid_argument');
  await callError(client, 'browser_emulate', { browserId: other, reset: true, geolocation: lyon },
    'browser_invalid_argument');
  assert.deepEqual(await evaluate(other, READ_POSITION), { error: 1 }, 'a refused call changed nothing');
  assert.equal((await callOk(client, 'browser_emulate', { browserId: other, geolocation: lyon })).data.pageDenied, true);
  await callOk(client, 'browser_reload', { browserId: other });
  assert.deepEqual(await evaluate(other, READ_POSITION), { ...lyon, accuracy: 10 });
  await callOk(client, 'browser_emulate', { browserId: other, reset: true });

  // Reset: no position for the tab again, not even the person's own.
  const reset = await callOk(client, 'browser_emulate', { browserId: id, reset: true });
  assert.deepEqual(reset.data.emulation, {});
  const after = await evaluate(id, READ_POSITION);
  assert.ok(after.error === 1 || after.error === 2, JSON.stringify(after));
  await callOk(client, 'browser_navigate', { browserId: id, url: `${origin}/geo-again` });
  assert.deepEqual(await evaluate(id, READ_POSITION), { error: 1 }, 'a new page is denied');
  assert.equal((await callOk(client, 'browser_list_tabs', {})).data.tabs.find((t) => t.browserId === id).emulation, undefined);
});

test('browser_emulate offline fails the tab\'s requests and tells its pages, until it is online again', options, async () => {
  const id = await openPage('/net-before');
  const other = await openPage('/net-other');
  const seen = () => [...agentsSeen.keys()];
  await evaluate(id, `() => { window.netEvents = [];
    for (const type of ['online', 'offline']) window.addEventListener(type, () => window.netEvents.push(type)); }`);
  const probe = (p) => `() => fetch('${p}').then((r) => r.status, (e) => e.name)`;

  const off = await callOk(client, 'browser_emulate', { browserId: id, offline: true });
  assert.deepEqual(off.data.emulation, { offline: true });
  assert.equal(off.data.offline, true);
  assert.equal(off.data.pageOnLine, false, 'the page shown says navigator.onLine is false');
  assert.ok(off.text.includes('requests fail') && off.text.includes('navigator.onLine is false'), off.text);
  assert.deepEqual(await evaluate(id, '() => window.netEvents'), ['offline']);
  assert.equal(await evaluate(id, '() => navigator.onLine'), false);

  // Requests fail and never reach the server; other tabs are online.
  assert.equal(await evaluate(id, probe('/offline-fetch')), 'TypeError');
  assert.ok(!seen().includes('/offline-fetch'), 'the fetch never reached the server');
  assert.equal(await evaluate(other, probe('/other-fetch')), 200);
  assert.equal(await evaluate(other, '() => navigator.onLine'), true);
  await callError(client, 'browser_navigate', { browserId: id, url: `${origin}/offline-page` }, 'browser_navigation_failed');
  assert.ok(!seen().includes('/offline-page'), 'the page was never asked for');

  // A document that starts while offline says so from its first script.
  assert.equal(await evaluate(id, `() => new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.srcdoc = '<script>window.early = navigator.onLine<' + '/script>';
    frame.onload = () => resolve(frame.contentWindow.early);
    document.body.append(frame);
  })`), false);

  const list = await callOk(client, 'browser_list_tabs', {});
  assert.deepEqual(list.data.tabs.find((t) => t.browserId === id).emulation, { offline: true });
  assert.ok(list.text.includes('emulating offline'), list.text);

  const on = await callOk(client, 'browser_emulate', { browserId: id, offline: false });
  assert.deepEqual(on.data.emulation, {});
  assert.equal(on.data.offline, false);
  assert.ok(on.text.includes('online again'), on.text);
  await callOk(client, 'browser_navigate', { browserId: id, url: `${origin}/online-page` });
  assert.ok(seen().includes('/online-page'));
  assert.equal(await evaluate(id, '() => navigator.onLine'), true);
  assert.equal(await evaluate(id, probe('/online-fetch')), 200);

  // The event when going online, and reset undoes offline too.
  await callOk(client, 'browser_emulate', { browserId: id, offline: true });
  await evaluate(id, `() => { window.netEvents = []; window.addEventListener('online', () => window.netEvents.push('online')); }`);
  const reset = await callOk(client, 'browser_emulate', { browserId: id, reset: true });
  assert.equal(reset.data.offline, false);
  assert.equal(reset.data.pageOnLine, true);
  assert.deepEqual(await evaluate(id, '() => window.netEvents'), ['online']);
  assert.equal(await evaluate(id, probe('/reset-fetch')), 200);
});

test('browser_emulate device: phone gives a phone\'s viewport, browser and touch support, desktop gives them back', options, async () => {
  const id = await openPage('/device-before');
  await callOk(client, 'browser_resize', { browserId: id, width: 1000, height: 700 });
  const desk = await evaluate(id, '() => [innerWidth, innerHeight, navigator.maxTouchPoints, "ontouchstart" in window]');
  assert.deepEqual(desk, [1000, 700, 0, false]);

  const phone = await callOk(client, 'browser_emulate', { browserId: id, device: 'phone' });
  assert.equal(phone.data.emulation.device, 'phone');
  assert.match(phone.data.emulation.userAgent, /iPhone/);
  assert.equal(phone.data.viewport.innerWidth, 390);
  assert.equal(phone.data.viewport.innerHeight, 844);
  assert.equal(phone.data.pageMaxTouchPoints, 5);
  assert.ok(phone.text.includes('device: phone') && phone.text.includes('390 × 844'), phone.text);
  assert.deepEqual(await evaluate(id, '() => [innerWidth, innerHeight, navigator.maxTouchPoints, "ontouchstart" in window]'),
    [390, 844, 5, true]);

  // The next page loads as a phone's: the server hears its user agent, and
  // the page sees touch support from its first script.
  await callOk(client, 'browser_navigate', { browserId: id, url: `${origin}/device-after` });
  assert.match(agentsSeen.get('/device-after'), /iPhone/);
  assert.deepEqual(await evaluate(id, '() => [innerWidth, navigator.maxTouchPoints, "ontouchstart" in window, navigator.userAgent.includes("iPhone")]'),
    [390, 5, true, true]);
  const list = await callOk(client, 'browser_list_tabs', {});
  assert.equal(list.data.tabs.find((t) => t.browserId === id).emulation.device, 'phone');
  assert.ok(list.text.includes('emulating device: phone, userAgent: Mozilla/5.0 (iPhone'), list.text);

  // A tablet, with a user agent of the agent's own.
  const tablet = await callOk(client, 'browser_emulate', { browserId: id, device: 'tablet', userAgent: 'Tabwright-Tablet/1' });
  assert.deepEqual([tablet.data.viewport.innerWidth, tablet.data.viewport.innerHeight], [820, 1180]);
  assert.equal(tablet.data.emulation.userAgent, 'Tabwright-Tablet/1');
  await callError(client, 'browser_emulate', { browserId: id, device: 'watch' }, 'browser_invalid_argument');
  assert.equal(await evaluate(id, '() => innerWidth'), 820, 'a refused call changed nothing');

  // desktop: the viewport the agent had set, the browser's own user agent,
  // no touch.
  const back = await callOk(client, 'browser_emulate', { browserId: id, device: 'desktop' });
  assert.deepEqual(back.data.emulation, {});
  assert.equal(back.data.pageMaxTouchPoints, 0);
  assert.deepEqual(await evaluate(id, '() => [innerWidth, innerHeight, navigator.maxTouchPoints, "ontouchstart" in window]'),
    [1000, 700, 0, false]);
  await callOk(client, 'browser_emulate', { browserId: id, device: 'phone' });
  await callOk(client, 'browser_emulate', { browserId: id, reset: true });
  await callOk(client, 'browser_navigate', { browserId: id, url: `${origin}/device-reset` });
  assert.doesNotMatch(agentsSeen.get('/device-reset'), /iPhone/);
  assert.deepEqual(await evaluate(id, '() => [innerWidth, innerHeight, navigator.maxTouchPoints]'), [1000, 700, 0]);
});
