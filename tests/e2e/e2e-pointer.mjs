// SPDX-License-Identifier: GPL-3.0-or-later
//
// Pages an agent drives behave as they would under a person's pointer and
// keyboard: CSS :hover, :active and :focus-visible follow the agent, focus
// events and activeElement follow its clicks, typing and Tab, targets deep
// in nested scrollers are reached, sliders that capture the pointer and
// lists that sample it on an interval take the agent's drags, and a drag
// the page did not take is not reported as landed. Every fixture
// (tests/e2e/fixtures/live/) is opened with browser_new_tab while another
// tab is on screen, so it runs as a background tab, and driven through the
// real app with the official MCP SDK client; the checks read what the page
// recorded.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { callOk, evaluateIn, openTab, refIn, resultText, snapshotIn } from './lib/mcp.mjs';
import { startSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();

let session;
let fixtures;
let client;

const snapshot = (browserId) => snapshotIn(client, browserId);

const evaluate = (browserId, fn) => evaluateIn(client, browserId, fn);

// A fixture in a background tab: the first tab opened stays on screen.
const openPage = (page) => openTab(client, fixtures.url(`/live/${page}`));

before(async () => {
  if (options.skip)
    return;
  session = await startSession({ clientName: 'tabwright-e2e-pointer' });
  ({ fixtures, client } = session);
  await callOk(client, 'browser_new_tab', { url: fixtures.url('/page?title=On%20screen') });
});

after(async () => {
  await session?.close();
});

test('a menu shown only by CSS :hover opens on browser_hover and its items are clickable', options, async () => {
  const id = await openPage('hover-menu.html');
  let text = await snapshot(id);
  assert.ok(!text.includes('New file'), `the closed menu shows no items:\n${text}`);

  await callOk(client, 'browser_hover', { browserId: id, ref: refIn(text, 'File') });
  text = await snapshot(id);
  assert.ok(text.includes('button "New file"'), `the File menu opened:\n${text}`);
  assert.equal(await evaluate(id, "() => getComputedStyle(document.querySelector('#file-menu .title')).color"),
    'rgb(200, 0, 0)');
  const { text: clicked } = await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'button "New file"') });
  assert.ok(clicked.startsWith('Clicked'), clicked);
  assert.deepEqual(await evaluate(id, '() => log'), ['click new']);

  // Moving on to the next menu closes the first, as under a real pointer.
  await callOk(client, 'browser_hover', { browserId: id, ref: refIn(text, 'Edit') });
  text = await snapshot(id);
  assert.ok(!text.includes('New file'), `the File menu closed:\n${text}`);
  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Undo"') });
  assert.deepEqual(await evaluate(id, '() => log'), ['click new', 'click undo']);

  // Nothing the page can read marks the state: no attribute, no class.
  assert.equal(await evaluate(id, "() => /tw-|tabwright/.test(document.documentElement.outerHTML)"), false);
});

test(':hover reaches shadow roots, adopted sheets and rules added after load', options, async () => {
  const id = await openPage('hover-menu.html');
  await callOk(client, 'browser_wait', { browserId: id, text: 'Late rule' });
  await evaluate(id, "() => new Promise((resolve) => { const t = () => document.title.includes('styled') ? resolve(true) : setTimeout(t, 10); t(); })");
  let text = await snapshot(id);
  assert.ok(!text.includes('Card action'), `the card's action is hidden:\n${text}`);

  // :host(:hover) in a shadow root's adopted sheet.
  await callOk(client, 'browser_hover', { browserId: id, ref: refIn(text, 'Card') });
  text = await snapshot(id);
  assert.ok(text.includes('button "Card action"'), `the card's action shows:\n${text}`);
  assert.equal(await evaluate(id, "() => getComputedStyle(document.getElementById('card')).backgroundColor"),
    'rgb(255, 255, 0)');
  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Card action"') });
  assert.deepEqual(await evaluate(id, '() => log'), ['click card action']);

  // A <style> the page added after load.
  await callOk(client, 'browser_hover', { browserId: id, ref: refIn(text, 'Late rule') });
  assert.equal(await evaluate(id, "() => getComputedStyle(document.getElementById('late')).color"), 'rgb(0, 0, 200)');
  assert.equal(await evaluate(id, "() => getComputedStyle(document.getElementById('card')).backgroundColor"),
    'rgba(0, 0, 0, 0)', 'the card lost its hover when the pointer left it');

  // A rule the page inserts through the CSSOM while the pointer rests there
  // counts from the agent's next action.
  await evaluate(id, "() => { document.styleSheets[0].insertRule('.late:hover { font-weight: 700; }', 0); }");
  await callOk(client, 'browser_hover', { browserId: id, ref: refIn(text, 'Late rule') });
  assert.equal(await evaluate(id, "() => getComputedStyle(document.getElementById('late')).fontWeight"), '700');

  // A rule inserted through the CSSOM before the hover.
  text = await snapshot(id);
  assert.ok(!text.includes('the tip'), text);
  await callOk(client, 'browser_hover', { browserId: id, ref: refIn(text, 'Has a tip') });
  assert.ok((await snapshot(id)).includes('the tip'), 'the tip shows on hover');
});

test(':active holds during a press and :focus-visible follows keyboard focus', options, async () => {
  const id = await openPage('hover-menu.html');
  const text = await snapshot(id);
  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Press me"') });
  const log = await evaluate(id, '() => log');
  assert.equal(log[0], 'active bg rgb(0, 128, 0)', 'the button is :active while pressed');
  assert.ok(log[1].startsWith('after bg ') && log[1] !== 'after bg rgb(0, 128, 0)', `:active ended with the release: ${log[1]}`);

  const outline = "() => { const s = getComputedStyle(document.getElementById('key')); return s.outlineStyle + ' ' + s.outlineColor; }";
  await callOk(client, 'browser_keypress', { browserId: id, key: 'Tab' });
  assert.equal(await evaluate(id, '() => document.activeElement.id'), 'key');
  assert.equal(await evaluate(id, outline), 'solid rgb(0, 0, 255)');
  // Focus leaving the element ends it.
  await callOk(client, 'browser_keypress', { browserId: id, key: 'Shift+Tab' });
  assert.equal(await evaluate(id, '() => document.activeElement.id'), 'press');
  assert.notEqual(await evaluate(id, outline), 'solid rgb(0, 0, 255)');
});

test('clicks, typing, fill and Tab move focus with the events a person causes', options, async () => {
  const id = await openPage('focus.html');
  const text = await snapshot(id);
  const summary = "() => log.map((e) => e.type + ':' + e.target + (e.related && e.related !== 'null' ? '>' + e.related : '')).join(' ')";

  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'textbox "Name"') });
  assert.equal(await evaluate(id, summary), 'focus:name focusin:name');
  let log = await evaluate(id, '() => log');
  assert.equal(log[0].active, 'name');
  // The page's :focus and :focus-within rules apply, in a background tab too.
  const styles = "() => getComputedStyle(document.activeElement).backgroundColor + ' ' + getComputedStyle(document.getElementById('form')).borderTopColor";
  assert.equal(await evaluate(id, styles), 'rgb(255, 255, 204) rgb(0, 160, 0)');

  await callOk(client, 'browser_type', { browserId: id, ref: refIn(text, 'textbox "Email"'), text: 'a@b.c' });
  assert.equal(await evaluate(id, summary),
    'focus:name focusin:name blur:name>email focusout:name>email focus:email>name focusin:email>name');
  assert.equal(await evaluate(id, "() => document.activeElement.id + ' ' + document.getElementById('email').value"), 'email a@b.c');
  assert.deepEqual((await evaluate(id, '() => log')).map((e) => e.hasFocus), [true, true, true, true, true, true],
    'document.hasFocus() is true while the agent clicks and types');

  await callOk(client, 'browser_keypress', { browserId: id, key: 'Tab' });
  assert.equal(await evaluate(id, '() => document.activeElement.id'), 'save');
  assert.ok((await evaluate(id, summary)).endsWith('blur:email>save focusout:email>save focus:save>email focusin:save>email'));

  await evaluate(id, '() => { log.length = 0; }');
  await callOk(client, 'browser_fill', { browserId: id, ref: refIn(text, 'textbox "Name"'), value: 'Ada' });
  assert.equal(await evaluate(id, summary), 'blur:save>name focusout:save>name focus:name>save focusin:name>save');

  await evaluate(id, '() => { log.length = 0; }');
  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Save"') });
  assert.equal(await evaluate(id, summary), 'blur:name>save focusout:name>save focus:save>name focusin:save>name click:save');
  // The page has the focus while the agent acts on it, in a background tab too.
  log = await evaluate(id, '() => log');
  assert.deepEqual(log.map((e) => e.hasFocus), [true, true, true, true, true]);
  // :focus moved with it: the field lost its focus style, the form keeps
  // :focus-within.
  assert.equal(await evaluate(id, "() => getComputedStyle(document.getElementById('name')).backgroundColor + ' ' + " +
    "getComputedStyle(document.getElementById('form')).borderTopColor"), 'rgb(255, 255, 255) rgb(0, 160, 0)');
});

test('targets deep in nested scrollers and frames are scrolled into view and clicked by ref', options, async () => {
  const id = await openPage('listbox.html');
  // The page is scrolled, and so is the popover's list: option 100 at its top.
  await evaluate(id, "() => { window.scrollTo(0, 600); const l = document.getElementById('list'); " +
    "l.scrollTop = document.getElementById('opt-100').offsetTop - l.offsetTop; }");
  const text = await snapshot(id);

  // Just below the list's visible part (inside the window, clipped by the
  // list), far below it, and above it.
  for (const n of [108, 187, 3]) {
    const { text: clicked } = await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, `option "Country ${n}"`) });
    assert.ok(clicked.startsWith(`Clicked option "Country ${n}"`), clicked);
  }
  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Deep button"') });
  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Framed button"') });
  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Bottom of frame"') });
  assert.deepEqual(await evaluate(id, '() => log'), ['option 108', 'option 187', 'option 3', 'deep', 'frame framed', 'frame bottom']);
});

test('a slider that captures the pointer takes the drag, through its visually hidden input', options, async () => {
  const id = await openPage('slider.html');
  const text = await snapshot(id);
  const slider = refIn(text, 'slider "Volume"');

  const r = await callOk(client, 'browser_drag', { browserId: id, sourceRef: slider, targetRef: refIn(text, '"75"') });
  assert.equal(r.data.mode, 'pointer');
  assert.equal(r.data.captured, true);
  assert.equal(r.data.dropped, true, r.text);
  assert.ok(r.text.includes('The page captured the pointer.'), r.text);
  const value = Number(await evaluate(id, "() => document.getElementById('volume').value"));
  assert.ok(value >= 73 && value <= 77, `the thumb ended at 75, not ${value}`);
  const log = await evaluate(id, '() => log');
  assert.deepEqual(log.filter((e) => e !== 'input focus'), ['down has=true', 'got', 'up on thumb', 'lost']);
  assert.ok(await evaluate(id, '() => moves') >= 5, 'the moves reached the thumb through the capture');
});

test('a list that samples the pointer every 50 ms sees where the drag ended', options, async () => {
  const id = await openPage('sampler.html');
  const text = await snapshot(id);
  const r = await callOk(client, 'browser_drag', { browserId: id, sourceRef: refIn(text, 'Task 1'), targetRef: refIn(text, 'Task 4') });
  assert.equal(r.data.dropped, true, r.text);
  assert.deepEqual(await evaluate(id, '() => log'), ['dropped Task 1 at 3, sampled where released']);
  assert.equal(await evaluate(id, "() => Array.from(document.querySelectorAll('li'), (li) => li.textContent).join(',')"),
    'Task 2,Task 3,Task 4,Task 1,Task 5');
});

test('a drag the page does not take is not reported as landed', options, async () => {
  const id = await openPage('focus.html');
  const text = await snapshot(id);
  const r = await callOk(client, 'browser_drag', { browserId: id, sourceRef: refIn(text, 'button "Save"'), targetRef: refIn(text, 'button "Cancel"') });
  assert.equal(r.data.mode, 'pointer');
  assert.equal(r.data.onTarget, true);
  assert.equal(r.data.pageChanged, false);
  assert.equal(r.data.dropped, false);
  assert.ok(r.text.includes('but the page did not change'), resultText(r.result));
});
