// SPDX-License-Identifier: GPL-3.0-or-later
//
// The interaction tools of a real Tabwright through the official MCP SDK
// client, the way an agent uses them: open a tab, read the snapshot, act by
// ref, read what the page recorded. Pages come from tests/fixtures/actions/
// (the same ones the GTest suite drives), React from node_modules.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { startFolderServer } from './lib/fixture-server.mjs';
import { assertTextMentions, callError, callOk, evaluateIn, openTab, refIn, snapshotIn, textField } from './lib/mcp.mjs';
import { useSession } from './lib/session.mjs';
import { requirementOptions, srcdir } from './lib/tabwright.mjs';
import { waitUntil } from './lib/wait.mjs';

const options = requirementOptions();
const PAGES = path.join(srcdir, 'tests', 'fixtures', 'actions');
const MODULES = path.join(srcdir, 'node_modules');

// Serves tests/fixtures/actions/, React from node_modules, and a slow API
// that answers after 300 ms, so the page renders late.
function route(p, res) {
  if (p === '/api/slow') {
    setTimeout(() => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ items: ['Apples', 'Pears'] }));
    }, 300);
    return true;
  }
  if (!p.startsWith('/node_modules/'))
    return undefined;
  const file = path.resolve(MODULES, p.slice('/node_modules/'.length));
  if (file.startsWith(MODULES + path.sep))
    return file;
  res.writeHead(404);
  res.end();
  return true;
}

const session = useSession(options, {
  fixtures: () => startFolderServer(PAGES, route),
  clientName: 'tabwright-e2e-actions',
});
const url = (p) => session.fixtures.url(p);

// The snapshot text of a tab, and the ref printed on the first line that
// holds @needle.
const snapshot = (browserId) => snapshotIn(session.client, browserId);

const openPage = (page) => openTab(session.client, url(page));

const evaluate = (browserId, fn) => evaluateIn(session.client, browserId, fn);


test('tools/list describes the interaction tools in searchable words', options, async () => {
  const { tools } = await session.client.listTools();
  const byName = new Map(tools.map((t) => [t.name, t]));
  const words = {
    browser_click: 'click a button or link',
    browser_fill: 'fill a form field',
    browser_type: 'type text',
    browser_keypress: 'press a key',
    browser_hover: 'hover',
    browser_select: 'an option from a dropdown',
    browser_drag: 'drag and drop',
    browser_upload: 'upload a file',
    browser_scroll: 'scroll the web page',
    browser_evaluate: 'javascript in the page',
  };
  for (const [name, phrase] of Object.entries(words)) {
    const tool = byName.get(name);
    assert.ok(tool, `${name} is listed`);
    assert.ok(tool.description.toLowerCase().includes(phrase), `${name} says "${phrase}": ${tool.description}`);
    assert.equal(tool.inputSchema.additionalProperties, false);
    assert.ok(tool.outputSchema, `${name} has an outputSchema`);
    assert.equal(tool.annotations.readOnlyHint, false);
  }
});

test('browser_click clicks by ref and says what it clicked', options, async () => {
  const id = await openPage('click.html');
  const text = await snapshot(id);
  const save = refIn(text, 'button "Save"');

  const { data, text: said } = await callOk(session.client, 'browser_click', { browserId: id, ref: save });
  assert.equal(data.browserId, id);
  assert.deepEqual(data.element, { ref: save, role: 'button', name: 'Save' });
  assert.equal(data.title, 'Click');
  assert.equal(data.navigated, undefined);
  assert.equal(said.split('\n')[0], `Clicked button "Save" ${save}.`);
  assert.equal(textField(said, 'browserId'), id);
  assert.equal(textField(said, 'url'), data.url);
  assert.equal(await evaluate(id, "() => document.getElementById('save').textContent"), 'Saved');
  assert.equal(await evaluate(id, "() => seq('pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click')"),
    'pointerdown:save mousedown:save pointerup:save mouseup:save click:save');

  // The button was renamed by the click: its ref is stale now.
  await callError(session.client, 'browser_click', { browserId: id, ref: save }, 'browser_stale_ref');
  await callError(session.client, 'browser_click', { browserId: id, ref: 'Save' }, 'browser_invalid_argument');
  await callError(session.client, 'browser_click', { browserId: id, ref: save, button: 'side' }, 'browser_invalid_argument');
  await callError(session.client, 'browser_click', { browserId: 'b999999', ref: save }, 'browser_not_found');
  await callOk(session.client, 'browser_close_tab', { browserId: id });
});

test('a click that navigates returns after the new page has loaded', options, async () => {
  const id = await openPage('navigation.html');
  const link = refIn(await snapshot(id), 'link "Next page"');
  const { data, text } = await callOk(session.client, 'browser_click', { browserId: id, ref: link });
  assert.equal(data.navigated, true);
  assert.equal(data.url, url('next.html'));
  assert.equal(data.title, 'Next page');
  assertTextMentions(text, ['The tab went to another page.']);
  assert.equal(textField(text, 'url'), url('next.html'));
  assert.equal(textField(text, 'title'), '"Next page"');
  assert.equal(await evaluate(id, "() => document.querySelector('h1').textContent"), 'You arrived');
  await callOk(session.client, 'browser_close_tab', { browserId: id });
});

test('dialogs are answered and reported, also those opened after the action', options, async () => {
  const id = await openPage('navigation.html');
  const text = await snapshot(id);

  let r = await callOk(session.client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Alert"') });
  assert.deepEqual(r.data.dialogs, [{ type: 'alert', message: 'Saved!', accepted: true }]);
  assertTextMentions(r.text, ['Dialog: alert "Saved!" (accepted)']);

  r = await callOk(session.client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Confirm"') });
  assert.deepEqual(r.data.dialogs, [{ type: 'confirm', message: 'Delete everything?', accepted: false }]);
  assertTextMentions(r.text, ['Dialog: confirm "Delete everything?" (dismissed)']);
  assert.equal(await evaluate(id, "() => document.querySelectorAll('button')[3].textContent"), 'Kept');

  r = await callOk(session.client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Prompt"') });
  assert.deepEqual(r.data.dialogs, [{ type: 'prompt', message: 'Your name?', accepted: false }]);

  r = await callOk(session.client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Later alert"') });
  assert.deepEqual(r.data.dialogs, [{ type: 'alert', message: 'Later', accepted: true }]);

  // Leaving with unsaved changes: the beforeunload dialog is dismissed and
  // the tab stays.
  await callOk(session.client, 'browser_click', { browserId: id, ref: refIn(text, 'checkbox "Unsaved changes"') });
  r = await callOk(session.client, 'browser_click', { browserId: id, ref: refIn(text, 'link "Leave"') });
  assert.equal(r.data.dialogs?.[0]?.type, 'beforeunload');
  assert.equal(r.data.navigated, undefined);
  assert.equal(r.data.url, url('navigation.html'));
  await callOk(session.client, 'browser_close_tab', { browserId: id });
});

test('a popup becomes a tab whose browserId the click reports', options, async () => {
  const id = await openPage('navigation.html');
  const text = await snapshot(id);
  const { data, text: said } = await callOk(session.client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Open popup"') });
  assert.equal(data.newTabs?.length, 1, JSON.stringify(data));
  const popup = data.newTabs[0];
  assert.equal(textField(said, 'newTab browserId'), popup);

  const { data: list } = await callOk(session.client, 'browser_list_tabs', {});
  const entry = list.tabs.find((t) => t.browserId === popup);
  assert.ok(entry, 'the popup is listed');
  await waitUntil('the popup to finish loading',
    async () => !(await callOk(session.client, 'browser_list_tabs', {})).data.tabs.find((t) => t.browserId === popup).loading);
  assert.equal(await evaluate(popup, '() => location.search'), '?popup');

  // A link with target=_blank too.
  const r = await callOk(session.client, 'browser_click', { browserId: id, ref: refIn(text, 'link "New window"') });
  assert.equal(r.data.newTabs?.length, 1);
  for (const tab of [popup, r.data.newTabs[0], id])
    await callOk(session.client, 'browser_close_tab', { browserId: tab });
});

test('fill, type, keypress and select drive a React app', options, async () => {
  const id = await openPage('react.html');
  let text = await waitUntil('the React app to render its form', async () => {
    const seen = await snapshot(id);
    return seen.includes('textbox "Username"') && seen;
  });

  const username = refIn(text, 'textbox "Username"');
  let r = await callOk(session.client, 'browser_fill', { browserId: id, ref: username, value: 'Ada' });
  assert.equal(r.data.value, 'Ada');
  assert.equal(r.text.split('\n')[0], `Filled textbox "Username" ${username}: it now holds "Ada".`);
  assert.equal(textField(r.text, 'browserId'), id);
  r = await callOk(session.client, 'browser_type', { browserId: id, ref: username, text: ' Lovelace' });
  assert.equal(r.data.value, 'Ada Lovelace');
  assertTextMentions(r.text, [`Typed " Lovelace" into textbox "Username" ${username}.`]);
  assert.equal(await evaluate(id, '() => appState.name'), 'Ada Lovelace');

  r = await callOk(session.client, 'browser_keypress', { browserId: id, key: 'Tab' });
  assertTextMentions(r.text, ['Pressed Tab; the focus is now on textbox "Bio".']);

  r = await callOk(session.client, 'browser_select', { browserId: id, ref: refIn(text, 'combobox "Plan"'), value: 'Pro' });
  assert.deepEqual(r.data.selected, { value: 'pro', label: 'Pro' });
  assert.equal(await evaluate(id, '() => appState.plan'), 'pro');

  const unknown = await callError(session.client, 'browser_select', { browserId: id, ref: refIn(text, 'combobox "Plan"'), value: 'Gold' },
    'browser_invalid_argument');
  assert.ok(unknown.text.includes('"Free" (value "free"), "Pro" (value "pro")'), unknown.text);
  await callOk(session.client, 'browser_close_tab', { browserId: id });
});

test('browser_upload sets workspace files and refuses others', options, async () => {
  fs.writeFileSync(path.join(session.app.dirs.workspace, 'report.txt'), 'quarterly numbers');
  const id = await openPage('upload.html');
  const text = await snapshot(id);
  const avatar = refIn(text, '"Avatar"');

  const { data, text: said } = await callOk(session.client, 'browser_upload', { browserId: id, ref: avatar, filePaths: ['report.txt'] });
  assert.deepEqual(data.files, ['report.txt']);
  assertTextMentions(said, ['The page now has 1 file: report.txt']);
  await waitUntil('the page to see the upload', async () => (await evaluate(id, '() => uploads.length')) > 0);
  assert.deepEqual(await evaluate(id, '() => uploads[0]'),
    { input: 'avatar', trusted: true, files: [{ name: 'report.txt', size: 17, text: 'quarterly numbers' }] });

  await callError(session.client, 'browser_upload', { browserId: id, ref: avatar, filePaths: ['/etc/hostname'] }, 'browser_denied');
  await callError(session.client, 'browser_upload', { browserId: id, ref: avatar, filePaths: ['../outside.txt'] }, 'browser_denied');
  await callError(session.client, 'browser_upload', { browserId: id, ref: avatar, filePaths: [] }, 'browser_invalid_argument');
  assert.equal(await evaluate(id, '() => uploads.length'), 1);
  await callOk(session.client, 'browser_close_tab', { browserId: id });
});

test('hover, drag, scroll and evaluate', options, async () => {
  let id = await openPage('widgets.html');
  let text = await snapshot(id);
  let r = await callOk(session.client, 'browser_hover', { browserId: id, ref: refIn(text, 'link "Products"') });
  assert.equal(r.text.split('\n')[0], `Moved the pointer onto link "Products" ${refIn(text, 'link "Products"')}.`);
  assert.ok((await snapshot(id)).includes('link "Laptops"'), 'the hover menu opened');
  await callOk(session.client, 'browser_close_tab', { browserId: id });

  id = await openPage('drag.html');
  text = await snapshot(id);
  r = await callOk(session.client, 'browser_drag', { browserId: id, sourceRef: refIn(text, 'Apples'), targetRef: refIn(text, 'Cheese') });
  assert.equal(r.data.mode, 'html5');
  assert.equal(r.data.dropped, true);
  assert.equal(await evaluate(id, "() => order('groceries')"), 'Bread,Cheese,Apples,Dates');
  r = await callOk(session.client, 'browser_drag', { browserId: id, sourceRef: refIn(text, 'Write'), targetRef: refIn(text, 'Ship') });
  assert.equal(r.data.mode, 'pointer');
  assert.equal(await evaluate(id, "() => order('tasks')"), 'Test,Ship,Write');
  await callOk(session.client, 'browser_close_tab', { browserId: id });

  id = await openPage('scroll.html');
  r = await callOk(session.client, 'browser_scroll', { browserId: id, deltaX: 0, deltaY: 400 });
  assert.equal(r.data.scrollY, 400);
  assert.equal(r.text.split('\n')[0], 'Scrolled the page by 0, 400; its scroll position is now 0, 400.');
  assert.equal(textField(r.text, 'browserId'), id);
  await callError(session.client, 'browser_scroll', { browserId: id, deltaY: 400 }, 'browser_invalid_argument');

  r = await callOk(session.client, 'browser_evaluate', { browserId: id, function: '() => ({ y: window.scrollY, title: document.title })' });
  assert.deepEqual(r.data.result, { y: 400, title: 'Scroll' });
  assert.equal(r.data.truncated, false);
  const thrown = await callError(session.client, 'browser_evaluate', { browserId: id, function: "() => { throw new Error('nope') }" },
    'browser_script_error');
  assert.ok(thrown.text.includes('Error: nope'), thrown.text);
  await callOk(session.client, 'browser_close_tab', { browserId: id });
});
