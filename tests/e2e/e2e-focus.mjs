// SPDX-License-Identifier: GPL-3.0-or-later
//
// A tab an agent drives is a focused page, behind the person's tab too:
// document.hasFocus() is true, :focus and :focus-within match, so a
// dialog's focus trap leaves alone the field the agent types into and a
// roving-tabindex tab list moves with the arrow keys. The page itself
// reports what it saw.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { callOk, evaluateIn, openTab, refIn, snapshotIn } from './lib/mcp.mjs';
import { startSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();
let session;
let fixtures;
let client;
let front;

const evaluate = (browserId, fn) => evaluateIn(client, browserId, fn);

const snapshot = (browserId) => snapshotIn(client, browserId);

// A tab behind the one on screen, on the fixture.
const openBehind = () => openTab(client, fixtures.url('/focus/trap.html'));

before(async () => {
  if (options.skip)
    return;
  session = await startSession();
  ({ fixtures, client } = session);
  // The first tab is the one on screen; the next ones open behind it.
  ({ data: { browserId: front } } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/page?title=Front') }));
});

after(async () => {
  await session?.close();
});

test('a tab the agent drives has the focus, behind the tab on screen too', options, async () => {
  const id = await openBehind();
  assert.equal(await evaluate(id, '() => document.visibilityState'), 'visible');
  assert.equal(await evaluate(id, '() => document.hasFocus()'), true, 'the background tab\'s page has the focus');
  assert.equal(await evaluate(front, '() => document.hasFocus()'), true, 'so has the agent\'s tab on screen');
  // Between calls, not only while one runs.
  assert.equal(await evaluate(id, '() => new Promise((resolve) => setTimeout(() => resolve(document.hasFocus()), 100))'), true);
});

test('text typed into a field of a focus-trapped dialog stays there', options, async () => {
  const id = await openBehind();
  let text = await snapshot(id);
  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Edit profile"') });
  text = await snapshot(id);
  await callOk(client, 'browser_type', { browserId: id, ref: refIn(text, 'textbox "Display name"'), text: 'Ada Lovelace' });
  await callOk(client, 'browser_type', { browserId: id, ref: refIn(text, 'textbox "Email"'), text: 'ada@example.com' });

  const page = await evaluate(id, `() => {
    const dialog = document.getElementById('dialog');
    const email = document.getElementById('email');
    return {
      name: document.getElementById('name').value,
      email: email.value,
      active: document.activeElement.id,
      pulls: window.pulls,
      hasFocus: document.hasFocus(),
      focus: email.matches(':focus'),
      focusWithin: dialog.matches(':focus-within'),
      border: getComputedStyle(dialog).borderTopColor,
      seen: window.seen,
    };
  }`);
  assert.equal(page.name, 'Ada Lovelace', `the name field kept the text: ${JSON.stringify(page)}`);
  assert.equal(page.email, 'ada@example.com', `the email field kept the text: ${JSON.stringify(page)}`);
  assert.equal(page.pulls, 0, `the trap never pulled the focus back: ${JSON.stringify(page)}`);
  assert.equal(page.active, 'email');
  assert.equal(page.hasFocus, true);
  assert.equal(page.focus, true, 'the field the agent typed into matches :focus');
  assert.equal(page.focusWithin, true, 'the dialog matches :focus-within');
  assert.equal(page.border, 'rgb(0, 95, 204)', 'the dialog shows its :focus-within style');
  assert.deepEqual(page.seen.filter((s) => s.startsWith('focusin')), ['focusin name', 'focusin email'],
    `focus moved from field to field, as the agent acted: ${JSON.stringify(page.seen)}`);
  assert.ok(!page.seen.includes('window blur'), `the page never lost the focus: ${JSON.stringify(page.seen)}`);
});

test('the arrow keys move a roving-tabindex tab list in shadow DOM', options, async () => {
  const id = await openBehind();
  let text = await snapshot(id);
  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'tab "General"') });
  // To the focused element, as a person's key goes.
  await callOk(client, 'browser_keypress', { browserId: id, key: 'ArrowRight' });
  text = await snapshot(id);
  assert.match(text, /tab "Privacy" @e\d+ \[selected\]/, `ArrowRight selected the next tab:\n${text}`);
  await callOk(client, 'browser_keypress', { browserId: id, ref: refIn(text, 'tab "Privacy"'), key: 'ArrowRight' });

  const tabs = await evaluate(id, `() => {
    const root = document.querySelector('settings-tabs').shadowRoot;
    const advanced = root.getElementById('t-advanced');
    return {
      selected: root.querySelector('[aria-selected=true]').textContent,
      focused: root.activeElement && root.activeElement.id,
      focus: advanced.matches(':focus'),
      outline: getComputedStyle(advanced).outlineColor,
      panel: !root.getElementById('p-advanced').hidden,
    };
  }`);
  assert.deepEqual(tabs, { selected: 'Advanced', focused: 't-advanced', focus: true,
    outline: 'rgb(255, 140, 0)', panel: true });
});
