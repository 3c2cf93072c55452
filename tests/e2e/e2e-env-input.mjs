// SPDX-License-Identifier: GPL-3.0-or-later
//
// The input group (issue 18) through the official MCP SDK client against a
// real Tabwright: browser_fill_form fills a whole form, each field through
// the same action as the single-field tools, and the page records what it
// saw (trusted input events, the values it holds).

import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';

import { callError, callOk, callText, connectClient, refIn, textField } from './lib/mcp.mjs';
import { requirementOptions, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();

let app;
let server;
let origin;
let client;

function page(title, body = '') {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
    `<body><h1>${title}</h1>${body}</body></html>`;
}

// A form that records every trusted input and change event it gets, by
// field name, and what was submitted.
const FORM = page('Sign up', `
<form id="f" action="/done" method="get">
  <label>Full name <input name="fullname"></label>
  <label>Notes <textarea name="notes"></textarea></label>
  <label>Country <select name="country"><option value="">Pick one</option>
    <option value="fr">France</option><option value="de">Germany</option></select></label>
  <label>City <input name="city" role="combobox" list="cities"></label>
  <datalist id="cities"><option value="Paris"><option value="Berlin"></datalist>
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

function startServer() {
  server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    if (url.pathname === '/form') {
      res.end(FORM);
      return;
    }
    if (url.pathname === '/search') {
      res.end(page('Search', '<form action="/results"><label>Query <input name="q" ' +
        'oninput="if (this.value === \'go\') location.href = \'/results?q=go\'"></label>' +
        '<label>Page <input name="p"></label></form>'));
      return;
    }
    res.end(page(url.pathname.slice(1) || 'Home'));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      origin = `http://127.0.0.1:${server.address().port}`;
      resolve();
    });
  });
}

async function openTab(p) {
  const { data } = await callOk(client, 'browser_new_tab', { url: `${origin}${p}` });
  return data.browserId;
}

async function evaluate(browserId, fn) {
  const { data } = await callOk(client, 'browser_evaluate', { browserId, function: fn });
  return data.result;
}

async function snapshot(browserId) {
  return (await callText(client, 'browser_snapshot', { browserId })).text;
}

before(async () => {
  if (options.skip)
    return;
  await startServer();
  app = await startTabwright({ args: ['--tools', 'core,input'] });
  client = await connectClient(app);
});

after(async () => {
  await client?.close().catch(() => {});
  await app?.stop();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

test('browser_fill_form fills text, textarea, dropdown, combobox, checkboxes and radios', options, async () => {
  const id = await openTab('/form');
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
  const id = await openTab('/form');
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
  const id = await openTab('/form');
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
  const id = await openTab('/search');
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
