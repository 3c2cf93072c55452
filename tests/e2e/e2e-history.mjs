// SPDX-License-Identifier: GPL-3.0-or-later
//
// browser_history on a real Tabwright through the official MCP SDK client,
// as an agent uses it: pages visited are found by words of their address or
// title, each naming who visited and when, latest first; time ranges; a
// private tab leaves nothing; bad input is refused. (Visits by several
// agents and by the person are in test-browser's /browser/history.)

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { callError, callOk } from './lib/mcp.mjs';
import { startSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();

let session;
let first;

before(async () => {
  if (options.skip)
    return;
  session = await startSession({ tabwright: { args: ['--tools', 'core,reading'] } });
  first = session.client;
});

after(async () => {
  await session?.close();
});

test('pages an agent visits are found by words, naming who visited', options, async () => {
  const { fixtures } = session;
  const one = await callOk(first, 'browser_new_tab', { url: fixtures.url('/one.html') });
  const two = await callOk(first, 'browser_new_tab', { url: fixtures.url('/two.html') });
  // A second visit to page one, in the other tab.
  await callOk(first, 'browser_navigate', { browserId: two.data.browserId, url: fixtures.url('/one.html') });

  const found = await callOk(first, 'browser_history', { query: 'page on' });
  assert.equal(found.data.kind, 'all');
  assert.equal(found.data.entries.length, 1, `one page has "page" and a word starting "on": ${found.text}`);
  const entry = found.data.entries[0];
  assert.equal(entry.url, fixtures.url('/one.html'));
  assert.equal(entry.title, 'Page One');
  assert.equal(entry.visits, 2, JSON.stringify(found.data));
  // A client on the workspace's own token is named as the app names it.
  assert.deepEqual(entry.visitors, ['External client']);
  assert.equal(entry.bookmarked, false);
  const last = Date.parse(entry.lastVisit);
  assert.ok(Math.abs(Date.now() - last) < 10 * 60 * 1000, `lastVisit is a time of this run: ${entry.lastVisit}`);
  assert.match(found.text, /visited: 2 times, last \S+, by External client/);

  // The address's words count too, latest visit first.
  const all = await callOk(first, 'browser_history', { query: 'html', kind: 'visits' });
  assert.deepEqual(all.data.entries.map((e) => e.url), [fixtures.url('/one.html'), fixtures.url('/two.html')]);
  assert.equal(all.data.entries[1].title, 'Page Two');

  await callOk(first, 'browser_close_tab', { browserId: one.data.browserId });
  await callOk(first, 'browser_close_tab', { browserId: two.data.browserId });
});

test('time ranges and kinds narrow the search', options, async () => {
  const recent = await callOk(first, 'browser_history', { since: '1h' });
  assert.ok(recent.data.entries.length >= 2, recent.text);
  // A date alone is the whole day, in local time.
  const now = new Date();
  const today = [now.getFullYear(), now.getMonth() + 1, now.getDate()].map((n) => String(n).padStart(2, '0')).join('-');
  const sinceToday = await callOk(first, 'browser_history', { since: today, until: today });
  assert.deepEqual(sinceToday.data.entries.map((e) => e.url), recent.data.entries.map((e) => e.url));
  const old = await callOk(first, 'browser_history', { until: '2000-01-01' });
  assert.deepEqual(old.data.entries, []);
  assert.match(old.text, /^No page matches\./);
  const marks = await callOk(first, 'browser_history', { kind: 'bookmarks' });
  assert.deepEqual(marks.data.entries, [], 'agents bookmark nothing by browsing');
  const limited = await callOk(first, 'browser_history', { maxResults: 1 });
  assert.equal(limited.data.entries.length, 1);
});

test('a private tab leaves nothing in the history', options, async () => {
  const { fixtures } = session;
  const tab = await callOk(first, 'browser_new_tab', { url: fixtures.url('/after-load.html'), private: true });
  const found = await callOk(first, 'browser_history', { query: 'after load' });
  assert.deepEqual(found.data.entries, [], found.text);
  await callOk(first, 'browser_close_tab', { browserId: tab.data.browserId });
});

test('bad input is refused and changes nothing', options, async () => {
  await callError(first, 'browser_history', { since: 'last tuesday' }, 'browser_invalid_argument');
  await callError(first, 'browser_history', { since: '2026-02-31' }, 'browser_invalid_argument');
  await callError(first, 'browser_history', { since: '1d', until: '2000-01-01' }, 'browser_invalid_argument');
  await callError(first, 'browser_history', { kind: 'cookies' }, 'browser_invalid_argument');
  await callError(first, 'browser_history', { maxResults: 0 }, 'browser_invalid_argument');
  // The query's own syntax is text.
  const odd = await callOk(first, 'browser_history', { query: '"one* OR title:(' });
  assert.ok(Array.isArray(odd.data.entries));
});
