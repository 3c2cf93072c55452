// SPDX-License-Identifier: GPL-3.0-or-later
//
// Snapshot diffs through the official MCP SDK client, the way an agent
// uses them: read the page, act, then read only what changed, either with
// browser_snapshot diff=true or with includeDiff on the action itself.
// The page is tests/e2e/fixtures/diff.html.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { callOk, openTab, refIn, snapshotIn } from './lib/mcp.mjs';
import { useSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();

const session = useSession(options, { clientName: 'tabwright-e2e-diff' });

const openPage = () => openTab(session.client, session.fixtures.url('/diff.html'));

const snapshot = (browserId, extra) => snapshotIn(session.client, browserId, extra);

// The marked lines of a diff, each as "mark body" without the indent.
function marked(diff) {
  return diff.split('\n').slice(2)
    .filter((l) => /^[+\-~>] /.test(l))
    .map((l) => l[0] + ' ' + l.slice(1).trimStart());
}

test('browser_snapshot diff=true lists what changed since the previous snapshot', options, async () => {
  const browserId = await openPage();
  const first = await snapshot(browserId, { diff: true });
  assert.match(first, /^No earlier snapshot of this tab to compare with; the full snapshot follows \(\d+ lines\)\.\nPage: Diff app — /);
  const add = refIn(first, 'button "Add row"');

  await callOk(session.client, 'browser_click', { browserId, ref: add });
  const diff = await snapshot(browserId, { diff: true });
  assert.match(diff, /^Changes since the previous snapshot: 1 line added, 0 removed, 1 changed, 0 moved;/);
  // The click also moved the focus to the button.
  assert.deepEqual(marked(diff).map((l) => l.replace(/@e\d+/, '@eN')),
                   ['+ - listitem @eN: Row 4', '~ - button "Add row" @eN [focused] (was: button "Add row")']);
  assert.match(diff, /\n {2}- main @e\d+\n {4}- list @e\d+\n\+ {5}- listitem @e\d+: Row 4/);

  // The refs of a diff are the refs of a full snapshot.
  const full = await snapshot(browserId);
  assert.equal(refIn(full, 'Row 4'), refIn(diff, 'Row 4'));
  assert.equal(refIn(full, 'button "Add row"'), add);
  const none = await snapshot(browserId, { diff: true });
  assert.match(none, /^No changes since the previous snapshot \(\d+ lines, all unchanged\)\./);

  // A new document: the diff says so and gives the whole tree.
  await callOk(session.client, 'browser_navigate', { browserId, url: session.fixtures.url('/diff.html?again') });
  const fresh = await snapshot(browserId, { diff: true });
  assert.match(fresh, /^The page is a new document since the previous snapshot \(it navigated or reloaded\); the full snapshot follows/);
  assert.match(fresh, /- button "Save" @e\d+/);
  assert.ok(!fresh.includes('Row 4'), fresh);
  await callOk(session.client, 'browser_close_tab', { browserId });
});

test('actions with includeDiff return what their effect changed', options, async () => {
  const browserId = await openPage();
  const full = await snapshot(browserId);

  // The app shows "Saved" once its server has answered the click: the diff
  // is taken after the action has settled, so it is there.
  const saved = await callOk(session.client, 'browser_click', { browserId, ref: refIn(full, 'button "Save"'), includeDiff: true });
  assert.match(saved.text, /^Clicked button "Save" @e\d+\./);
  assert.ok(saved.text.includes('\nWhat changed on the page:\nChanges since the previous snapshot: '), saved.text);
  assert.deepEqual(marked(saved.data.diff).map((l) => l.replace(/@e\d+/, '@eN')), 
                   ['~ - button "Save" @eN [focused] (was: button "Save")', '~ - status @eN: Saved (was: status)']);
  // The same diff, its tree marked as page text (issue 32).
  const unfenced = saved.text.split('\n').filter((l) => l !== '<page>' && l !== '</page>').join('\n');
  assert.ok(unfenced.endsWith(saved.data.diff), 'the text carries the same diff');
  assert.ok(saved.text.endsWith('\n</page>'), saved.text);

  const filled = await callOk(session.client, 'browser_fill', { browserId, ref: refIn(full, 'textbox "Name"'), value: 'Ada', includeDiff: true });
  assert.deepEqual(marked(filled.data.diff).map((l) => l.replace(/@e\d+/, '@eN')),
                   ['~ - button "Save" @eN (was: button "Save" [focused])',
                    '~ - textbox "Name" @eN [value="Ada"] [focused] (was: textbox "Name")']);

  const typed = await callOk(session.client, 'browser_type', { browserId, ref: refIn(full, 'textbox "Name"'), text: ' L', includeDiff: true });
  assert.deepEqual(marked(typed.data.diff).map((l) => l.replace(/@e\d+/, '@eN')),
                   ['~ - textbox "Name" @eN [value="Ada L"] [focused] (was: textbox "Name" [value="Ada"] [focused])']);

  const pressed = await callOk(session.client, 'browser_keypress', { browserId, ref: refIn(full, 'textbox "Name"'), key: 'Enter', includeDiff: true });
  assert.deepEqual(marked(pressed.data.diff).map((l) => l.replace(/@e\d+/, '@eN')), ['~ - status @eN: Submitted Ada L (was: status: Saved)']);

  const chosen = await callOk(session.client, 'browser_select', { browserId, ref: refIn(full, 'combobox "Size"'), value: 'Large', includeDiff: true });
  assert.ok(marked(chosen.data.diff).some((l) => l.startsWith('~ - combobox "Size" ') && l.includes(': Large (was: ')), chosen.data.diff);

  const scrolled = await callOk(session.client, 'browser_scroll', { browserId, deltaX: 0, deltaY: 2000, includeDiff: true });
  assert.ok(marked(scrolled.data.diff).some((l) => /^~ - paragraph @e\d+: Scrolled down \(was: paragraph\)$/.test(l)), scrolled.data.diff);

  // Without includeDiff nothing changes in the result.
  const plain = await callOk(session.client, 'browser_click', { browserId, ref: refIn(full, 'button "Add row"') });
  assert.equal(plain.data.diff, undefined);
  assert.ok(!plain.text.includes('What changed'), plain.text);
  await callOk(session.client, 'browser_close_tab', { browserId });
});
