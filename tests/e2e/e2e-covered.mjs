// SPDX-License-Identifier: GPL-3.0-or-later
//
// Controls a person clicks through something else: a select whose own
// placeholder lies over its input, switches and radios whose input is
// 0 x 0, visually hidden or not rendered at all (display: none) behind the
// label or track a person clicks, and a
// stack of toasts that spreads out under the pointer. The agent acts as a
// person's click acts, the result says how, and the checks read what the
// page itself recorded. Every fixture (tests/e2e/fixtures/covered/) runs in
// a background tab, driven through the real app with the official MCP SDK
// client.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { callError, callOk, evaluateIn, openTab, refIn, snapshotIn } from './lib/mcp.mjs';
import { useSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();
const session = useSession(options, { clientName: 'tabwright-e2e-covered' });
let onScreen = null;

const snapshot = (browserId) => snapshotIn(session.client, browserId);

const evaluate = (browserId, fn) => evaluateIn(session.client, browserId, fn);

// A fixture in a background tab: the first tab opened stays on screen.
async function openPage(page) {
  if (onScreen === null)
    onScreen = await openTab(session.client, session.fixtures.url('/page?title=On%20screen'));
  return openTab(session.client, session.fixtures.url(`/covered/${page}`));
}

const click = (browserId, ref) => callOk(session.client, 'browser_click', { browserId, ref });

test('a select whose placeholder lies over its input opens and takes a choice', options, async () => {
  const id = await openPage('select.html');
  let text = await snapshot(id);

  const r = await click(id, refIn(text, 'combobox "Country"'));
  assert.match(r.text, /^Clicked combobox "Country" @e\d+ through <span[^>]*> drawn over it, part of the same control\./, r.text);
  assert.match(r.data.through, /^<span class="select__placeholder" id="country-placeholder"> drawn over it/);
  assert.deepEqual(await evaluate(id, '() => log'), ['click country-placeholder open true']);
  assert.equal(await evaluate(id, "() => document.getElementById('country-input').getAttribute('aria-expanded')"), 'true');

  text = await snapshot(id);
  await click(id, refIn(text, 'option "Japan"'));
  assert.equal(await evaluate(id, "() => document.getElementById('country-input').value + ' ' + " +
    "document.getElementById('country-placeholder').textContent"), 'Japan Japan');

  // An empty layer over a select (a loading mask) is no part of it.
  const masked = await callError(session.client, 'browser_click', { browserId: id, ref: refIn(text, 'combobox "Region"') },
    'browser_not_interactable');
  assert.match(masked.error.message, /combobox "Region" is covered by <div class="select__mask">/, masked.error.message);
  assert.ok(!(await evaluate(id, '() => log')).includes('click region'));

  // A native dropdown under its hint: chosen as a person chooses.
  const s = await callOk(session.client, 'browser_select', { browserId: id, ref: refIn(text, 'combobox "Size"'), value: 'Large' });
  assert.match(s.text, /^Selected "Large" \(value "l"\) in combobox "Size" @e\d+ through <span class="native__hint"> drawn over it/, s.text);
  assert.equal(await evaluate(id, "() => document.getElementById('size').value"), 'l');
  assert.deepEqual((await evaluate(id, '() => log')).slice(-2), ['click native__hint', 'size l']);
});

test('a switch with a 0 x 0 input toggles through its label or its wrapper', options, async () => {
  const id = await openPage('switches.html');
  const text = await snapshot(id);
  const wifi = refIn(text, 'switch "Wi-Fi"');

  let r = await click(id, wifi);
  assert.match(r.text, /^Clicked switch "Wi-Fi" @e\d+ through its label <label class="switch">; it is now checked\./, r.text);
  assert.equal(r.data.checked, true);
  assert.equal(await evaluate(id, "() => document.getElementById('wifi').checked"), true);
  assert.deepEqual(await evaluate(id, '() => log'), ['click switch', 'click wifi', 'change wifi true']);

  r = await click(id, wifi);
  assert.ok(r.text.includes('; it is now unchecked.'), r.text);
  assert.equal(await evaluate(id, "() => document.getElementById('wifi').checked"), false);

  // The keyboard reaches the hidden input itself, as a person's Tab does.
  await callOk(session.client, 'browser_keypress', { browserId: id, ref: wifi, key: 'Space' });
  assert.equal(await evaluate(id, "() => document.activeElement.id + ' ' + document.getElementById('wifi').checked"), 'wifi true');

  // No label: the library's wrapper handles the click on its track.
  await evaluate(id, '() => { log.length = 0; }');
  r = await click(id, refIn(text, 'switch "Bluetooth"'));
  assert.match(r.text, /^Clicked switch "Bluetooth" @e\d+ through <div class="el-switch"[^>]*>, which stands for it; it is now checked\./, r.text);
  assert.equal(await evaluate(id, "() => document.getElementById('bluetooth').checked + ' ' + " +
    "document.getElementById('bluetooth-switch').className"), 'true el-switch is-checked');
  assert.deepEqual(await evaluate(id, '() => log'), ['click el-switch__core', 'change bluetooth true']);

  // A stand-in that does nothing: the result says the page left it as it was.
  r = await click(id, refIn(text, 'switch "Airplane mode"'));
  assert.match(r.text, /^Clicked switch "Airplane mode" @e\d+ through <div class="el-switch" id="airplane-switch">, which stands for it; it is still unchecked: the page did not change it\./, r.text);
  assert.equal(r.data.checked, false);
  assert.equal(r.data.toggled, false);
  assert.equal(await evaluate(id, "() => document.getElementById('airplane').checked"), false);
});

test('radios hidden in three ways are chosen through their labels', options, async () => {
  const id = await openPage('switches.html');
  const text = await snapshot(id);
  for (const [name, value] of [['Pro', 'pro'], ['Team', 'team'], ['Free', 'free']]) {
    const r = await click(id, refIn(text, `radio "${name}"`));
    assert.match(r.text, new RegExp(`^Clicked radio "${name}" @e\\d+ through its label <label>; it is now checked\\.`), r.text);
    assert.equal(await evaluate(id, "() => document.querySelector('input[name=plan]:checked').value"), value);
  }
  assert.deepEqual(await evaluate(id, '() => log'), [
    'click plan-pro', 'change plan-pro true',
    'click plan-team', 'change plan-team true',
    'click plan-free', 'change plan-free true',
  ].flatMap((e) => e.startsWith('click') ? ['click label', e] : [e]));
});

test('a checkbox or radio whose input is display: none is clicked through the label a person sees', options, async () => {
  const id = await openPage('display-none.html');
  const text = await snapshot(id);
  // Only the controls whose label shows get a ref.
  assert.ok(!text.includes('Ghost option') && !text.includes('Shy option'), text);
  const dark = refIn(text, 'checkbox "Dark mode"');

  let r = await click(id, dark);
  assert.match(r.text, /^Clicked checkbox "Dark mode" @e\d+ through its label <label class="toggle">; it is now checked\./, r.text);
  assert.equal(r.data.checked, true);
  // As for a person's click: the label's click, then the input's, which bubbles through the label.
  assert.deepEqual(await evaluate(id, '() => log'), ['click label', 'click dark', 'click label', 'change dark true']);
  assert.match(await snapshot(id), /checkbox "Dark mode" @e\d+ \[checked\]/);
  r = await click(id, dark);
  assert.ok(r.text.includes('; it is now unchecked.'), r.text);
  assert.equal(await evaluate(id, "() => document.getElementById('dark').checked"), false);

  r = await click(id, refIn(text, 'radio "Large"'));
  assert.match(r.text, /^Clicked radio "Large" @e\d+ through its label <label>; it is now checked\./, r.text);
  assert.equal(await evaluate(id, "() => document.querySelector('input[name=size]:checked').value"), 'l');
});

test('a button in a lower toast is reached by hovering the stack first', options, async () => {
  const id = await openPage('toasts.html');
  const text = await snapshot(id);

  const r = await click(id, refIn(text, 'button "Undo"'));
  assert.match(r.text, /^Clicked button "Undo" @e\d+ after moving the pointer over list "Notifications", which uncovered it\./, r.text);
  assert.deepEqual(await evaluate(id, '() => log'), ['expanded', 'undo']);

  // A stack that spreads out through CSS :hover alone.
  const c = await click(id, refIn(text, 'button "Retry"'));
  assert.match(c.text, /^Clicked button "Retry" @e\d+ after moving the pointer over list "Alerts", which uncovered it\./, c.text);
  assert.deepEqual(await evaluate(id, '() => log'), ['expanded', 'undo', 'collapsed', 'retry']);

  // A stack that does not spread out: the error says so, and names the
  // button that closes what covers the element.
  const still = await callError(session.client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Restart"') },
    'browser_not_interactable');
  assert.match(still.error.message, /button "Restart" is covered by .*, and moving the pointer over list "Updates" did not uncover it: close it first \(button "Close"\)/,
    still.error.message);
  assert.ok(!(await evaluate(id, '() => log')).includes('restart'));

  // Covered by something that does not move: the error says what covers
  // it and what to do.
  const e = await callError(session.client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Under the banner"') },
    'browser_not_interactable');
  assert.match(e.error.message, /is covered by region "Cookies"/, e.error.message);
  assert.match(e.error.message, /close it first \(button "Accept"\)/, e.error.message);
  assert.ok(!(await evaluate(id, '() => log')).includes('under'));
});
