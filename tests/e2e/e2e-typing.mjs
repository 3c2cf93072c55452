// SPDX-License-Identifier: GPL-3.0-or-later
//
// Typing into editors that transform what is typed, through a real
// Tabwright and the official MCP SDK client: Markdown shortcuts decided on
// beforeinput, on keydown or on textInput, and a field whose keydown
// handler refuses digits. What counts is what the page shows and the events it recorded,
// in order, with the cancellations it made.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { startFolderServer } from './lib/fixture-server.mjs';
import { callOk, evaluateIn, openTab, refIn, snapshotIn } from './lib/mcp.mjs';
import { useSession } from './lib/session.mjs';
import { requirementOptions, srcdir } from './lib/tabwright.mjs';

const options = requirementOptions();
const PAGES = path.join(srcdir, 'tests', 'fixtures', 'actions');

const session = useSession(options, {
  fixtures: () => startFolderServer(PAGES),
  clientName: 'tabwright-e2e-typing',
});

const snapshot = (browserId) => snapshotIn(session.client, browserId);

const evaluate = (browserId, fn) => evaluateIn(session.client, browserId, fn);
const type = (browserId, ref, text) => callOk(session.client, 'browser_type', { browserId, ref, text });

// The blocks of an editor as "tag:text", the way a person reads them.
const blocks = (browserId, id) => evaluate(browserId,
  `() => Array.from(document.querySelectorAll('#${id} p, #${id} h2, #${id} li'))
     .map((b) => b.localName + ':' + JSON.stringify(b.textContent.replace(/\\u00a0/g, ' ')))`);

const editors = [['doc', 'Document', 'beforeinput'], ['memo', 'Memo', 'keydown'], ['draft', 'Draft', 'textInput']];
for (const [id, name, rule] of editors) {
  test(`a Markdown shortcut decided on ${rule} makes a heading and a list item, without the space`, options, async () => {
    const tab = await openTab(session.client, session.fixtures.url('/editor.html'));
    const editor = refIn(await snapshot(tab), `textbox "${name}"`);

    await type(tab, editor, '## Plan');
    assert.deepEqual(await blocks(tab, id), ['h2:"Plan"']);

    // The space is a whole key press: the rule cancels it where the editor
    // decides, so nothing of it reaches the text, and keyup still comes.
    // An editor that takes its text from textInput cancels it and inserts
    // the text itself, so the browser fires no beforeinput or input.
    const key = (k) => rule === 'textInput'
      ? [`keydown("${k}")`, `keypress("${k}")`, `textInput("${k}",prevented)`, `keyup("${k}")`]
      : [`keydown("${k}")`, `keypress("${k}")`, `textInput("${k}")`, `beforeinput("${k}",insertText)`,
         `input("${k}",insertText)`, `keyup("${k}")`];
    const space = {
      beforeinput: ['keydown(" ")', 'keypress(" ")', 'textInput(" ")', 'beforeinput(" ",insertText,prevented)', 'keyup(" ")'],
      keydown: ['keydown(" ",prevented)', 'keyup(" ")'],
      textInput: key(' '),
    }[rule];
    assert.deepEqual(await evaluate(tab, `() => log('${id}')`),
      [...key('#'), ...key('#'), ...space, ...key('P'), ...key('l'), ...key('a'), ...key('n')]);

    // A new line, then a list item; the spaces inside the item stay.
    await evaluate(tab, '() => clearLog()');
    await type(tab, editor, '\n- Buy milk');
    assert.deepEqual(await blocks(tab, id), ['h2:"Plan"', 'li:"Buy milk"']);
    const enter = {
      beforeinput: ['keydown("Enter")', 'keypress("Enter")', 'textInput("\\n")', 'beforeinput(null,insertParagraph,prevented)', 'keyup("Enter")'],
      keydown: ['keydown("Enter",prevented)', 'keyup("Enter")'],
      textInput: ['keydown("Enter",prevented)', 'keyup("Enter")'],
    }[rule];
    assert.deepEqual((await evaluate(tab, `() => log('${id}')`)).slice(0, enter.length), enter);
    const r = await evaluate(tab, `() => [document.querySelector('#${id} ul').parentNode.id, document.activeElement.id]`);
    assert.deepEqual(r, [id, id]);
  });
}

test('digits a field refuses on keydown are not typed, and the other keys are', options, async () => {
  const tab = await openTab(session.client, session.fixtures.url('/editor.html'));
  const field = refIn(await snapshot(tab), 'textbox "Call sign"');

  const { data, text } = await type(tab, field, 'R2D2 unit');
  assert.equal(await evaluate(tab, '() => document.getElementById("callsign").value'), 'RD unit');
  assert.equal(data.value, 'RD unit');
  assert.match(text, /RD unit/);

  const digit = (k) => [`keydown("${k}",prevented)`, `keyup("${k}")`];
  const plain = (k) => [`keydown("${k}")`, `keypress("${k}")`, `textInput("${k}")`, `beforeinput("${k}",insertText)`,
                        `input("${k}",insertText)`, `keyup("${k}")`];
  assert.deepEqual(await evaluate(tab, '() => log()'),
    [...plain('R'), ...digit('2'), ...plain('D'), ...digit('2'), ...plain(' '),
     ...plain('u'), ...plain('n'), ...plain('i'), ...plain('t')]);
});

test('a paragraph inside an editor is typed into: the editor takes the focus, the caret goes into the paragraph', options, async () => {
  const tab = await openTab(session.client, session.fixtures.url('/editor.html'));
  const monday = refIn(await snapshot(tab), ': Monday');

  const { data } = await type(tab, monday, ' evening');
  assert.deepEqual(await evaluate(tab, '() => [document.activeElement.id, ...Array.from(document.querySelectorAll("#journal p"), (p) => p.textContent.replace(/\\u00a0/g, " "))]'),
    ['journal', 'Monday evening', 'Tuesday']);
  assert.equal(data.value, 'Monday evening\nTuesday');
});

test('a key that moves the focus on keydown types its character where the focus went', options, async () => {
  const tab = await openTab(session.client, session.fixtures.url('/editor.html'));

  const { data } = await callOk(session.client, 'browser_type', { browserId: tab, text: 'cats' });
  assert.equal(await evaluate(tab, '() => document.getElementById("search").value'), 'cats');
  assert.equal(data.value, 'cats');
  assert.deepEqual((await evaluate(tab, '() => window.recorded.map((e) => e.type + ":" + (e.target.id || e.target.localName))')).slice(0, 6),
    ['keydown:body', 'keypress:search', 'textInput:search', 'beforeinput:search', 'input:search', 'keyup:search']);
});
