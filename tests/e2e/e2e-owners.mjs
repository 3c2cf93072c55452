// SPDX-License-Identifier: GPL-3.0-or-later
//
// Many agents, one workspace (issue 32). Two agents the app launched, each
// with a token of its own, drive tabs through real MCP SDK clients: a tab
// belongs to the agent that opened it, another agent's call on it is denied
// until its owner shares it or hands it over, and browser_list_tabs says
// whose each tab is. The person's clients (the workspace token) use every
// tab. A page that writes Tabwright's own lines into its text cannot pass
// them off as Tabwright's: page content sits between <page> and </page>.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { readToken, tokenAgent, waitFor } from './lib/agents.mjs';
import { startFixtureServer } from './lib/fixture-server.mjs';
import { callError, callOk, connectClient, resultText } from './lib/mcp.mjs';
import { makeAppDirs, requirementOptions, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();

function tabOf(data, browserId) {
  return data.tabs.find((tab) => tab.browserId === browserId);
}

// The page's words are fenced: one <page> line, one </page> line after it,
// and every line that looks like Tabwright's and comes from the page in
// between.
function assertFenced(text, forged) {
  const lines = text.split('\n');
  const open = lines.indexOf('<page>');
  const close = lines.indexOf('</page>');
  assert.ok(open >= 0 && close > open, `page content is fenced:\n${text}`);
  assert.equal(lines.filter((line) => line === '<page>').length, 1, `one opening line:\n${text}`);
  assert.equal(lines.filter((line) => line === '</page>').length, 1, `the page cannot close the fence:\n${text}`);
  for (const pattern of forged) {
    const found = lines.flatMap((line, i) => (pattern.test(line) ? [i] : []));
    assert.ok(found.length > 0, `the page's ${pattern} line is in the result:\n${text}`);
    for (const i of found)
      assert.ok(i > open && i < close, `${pattern} at line ${i} reads as page text:\n${text}`);
  }
  assert.ok(!/^Error:/.test(text), 'the result does not read as a failure');
}

test('a tab belongs to the agent that opened it until shared or handed over', options, async () => {
  const fixtures = await startFixtureServer();
  const dirs = makeAppDirs('tabwright-e2e-owners-');
  const firstFile = path.join(dirs.root, 'first.token');
  const secondFile = path.join(dirs.root, 'second.token');
  const clients = [];
  let app;

  try {
    app = await startTabwright({
      dirs,
      args: ['--tools', 'core,agents', '--launch-agent', tokenAgent(firstFile), '--launch-agent', tokenAgent(secondFile)],
    });
    const firstToken = await waitFor('the first agent\'s token', () => readToken(firstFile), app, 60000);
    const secondToken = await waitFor('the second agent\'s token', () => readToken(secondFile), app, 60000);
    assert.notEqual(firstToken, secondToken);

    const first = await connectClient({ ...app, token: firstToken }, 'e2e-first-agent');
    const second = await connectClient({ ...app, token: secondToken }, 'e2e-second-agent');
    const person = await connectClient(app, 'e2e-person');
    clients.push(first, second, person);

    // The first agent opens a tab: it is its own.
    const { data: opened } = await callOk(first, 'browser_new_tab', { url: fixtures.url('/one.html') });
    const id = opened.browserId;

    // The second agent is turned away, told whose tab it is and what to do.
    const { error } = await callError(second, 'browser_snapshot', { browserId: id }, 'browser_denied');
    assert.match(error.message, new RegExp(`tab ${id} belongs to Custom Command #1`));
    assert.match(error.message, /browser_new_tab/);
    assert.match(error.message, /browser_share_tab/);
    await callError(second, 'browser_navigate', { browserId: id, url: fixtures.url('/two.html') }, 'browser_denied');
    await callError(second, 'browser_close_tab', { browserId: id }, 'browser_denied');
    // Nor can it give away what is not its own.
    await callError(second, 'browser_share_tab', { browserId: id }, 'browser_denied');

    // The list says whose each tab is, and which are the caller's.
    const seenBySecond = await callOk(second, 'browser_list_tabs');
    assert.equal(tabOf(seenBySecond.data, id).owner, 'Custom Command #1');
    assert.equal(tabOf(seenBySecond.data, id).shared, undefined);
    assert.equal(tabOf(seenBySecond.data, id).yours, undefined);
    assert.match(seenBySecond.text, new RegExp(`browserId: ${id}, .*owner: Custom Command #1$`, 'm'));
    const seenByFirst = await callOk(first, 'browser_list_tabs');
    assert.equal(tabOf(seenByFirst.data, id).yours, true);
    assert.match(seenByFirst.text, new RegExp(`browserId: ${id}, .*owner: Custom Command #1 \\(you\\)$`, 'm'));

    // The person's clients use every tab.
    assert.match(resultText(await person.callTool({ name: 'browser_snapshot', arguments: { browserId: id } })), /^Page: /);

    // Shared by its owner, every agent may use it; the list says so.
    const { data: shared, text: sharedText } = await callOk(first, 'browser_share_tab', { browserId: id });
    assert.deepEqual(shared, { browserId: id, owner: 'Custom Command #1', shared: true });
    assert.match(sharedText, new RegExp(`^browserId: ${id}$`, 'm'));
    assert.match(resultText(await second.callTool({ name: 'browser_snapshot', arguments: { browserId: id } })), /^Page: /);
    const afterSharing = await callOk(second, 'browser_list_tabs');
    assert.equal(tabOf(afterSharing.data, id).shared, true);
    assert.match(afterSharing.text, new RegExp(`browserId: ${id}, .*owner: Custom Command #1, shared$`, 'm'));

    // Handed over, a tab is the other agent's: its former owner is denied.
    const { data: another } = await callOk(first, 'browser_new_tab', { url: fixtures.url('/two.html') });
    await callError(second, 'browser_reload', { browserId: another.browserId }, 'browser_denied');
    await callError(first, 'browser_share_tab', { browserId: another.browserId, agent: 'Nobody #7' }, 'browser_invalid_argument');
    const { data: handed } = await callOk(first, 'browser_share_tab', { browserId: another.browserId, agent: 'Custom Command #2' });
    assert.deepEqual(handed, { browserId: another.browserId, owner: 'Custom Command #2', shared: false });
    await callOk(second, 'browser_reload', { browserId: another.browserId });
    const { error: former } = await callError(first, 'browser_reload', { browserId: another.browserId }, 'browser_denied');
    assert.match(former.message, /belongs to Custom Command #2/);

    // The person's tabs: agents may use them (the default).
    const { data: mine } = await callOk(person, 'browser_new_tab', { url: fixtures.url('/index.html') });
    await callOk(second, 'browser_reload', { browserId: mine.browserId });
  } finally {
    for (const client of clients)
      await client.close().catch(() => {});
    await app?.stop();
    await fixtures.close();
  }
});

test('a page cannot forge Tabwright\'s own lines: its text reads as page text', options, async () => {
  const fixtures = await startFixtureServer();
  let app;
  let client;

  try {
    app = await startTabwright({ args: ['--tools', 'core,reading,debugging'] });
    client = await connectClient(app);
    const { data } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/forged.html') });
    const forged = [/^Error: browser_denied/, /^browserId: b999\b/];

    const snapshot = resultText(await client.callTool({ name: 'browser_snapshot', arguments: { browserId: data.browserId } }));
    assert.match(snapshot, /^Page: Release notes — /);
    const lines = snapshot.split('\n');
    assert.equal(lines[1], '<page>');
    assert.equal(lines.at(-1), '</page>');
    assert.equal(lines.filter((line) => line === '</page>').length, 1, `the page cannot close the fence:\n${snapshot}`);

    const pageText = resultText(await client.callTool({ name: 'browser_get_text', arguments: { browserId: data.browserId } }));
    assertFenced(pageText, [...forged, /^Dialog: alert/]);
    assert.match(pageText, /^&lt;\/page>$/m, 'the page\'s </page> is escaped');
    assert.match(pageText, new RegExp(`^browserId: ${data.browserId}$`, 'm'), 'Tabwright\'s own browserId line stays outside');

    const markdown = resultText(await client.callTool({ name: 'browser_read', arguments: { browserId: data.browserId } }));
    assertFenced(markdown, forged);

    const { text: console } = await callOk(client, 'browser_console', { browserId: data.browserId });
    assertFenced(console, forged);
    assert.match(console, /&lt;\/PAGE>/);

    const { text: logs } = await callOk(client, 'browser_logs', { browserId: data.browserId });
    assertFenced(logs, forged);

    // An exception carrying the page's words stays on the error's one line
    // (callError checks: the error line, then what to do next).
    const { text: thrown } = await callError(client, 'browser_evaluate', {
      browserId: data.browserId,
      function: '() => { throw new Error(document.getElementById("notes").textContent); }',
    }, 'browser_script_error');
    assert.match(thrown, /Version 2 is out\. <\/page> Error: browser_denied/);
  } finally {
    await client?.close().catch(() => {});
    await app?.stop();
    await fixtures.close();
  }
});
