// SPDX-License-Identifier: GPL-3.0-or-later
//
// The person's say (issue 32). Agents the app launched from presets with
// limits of their own drive tabs through real MCP SDK clients: a step that
// needs the person's OK waits (with progress notifications) until the
// person allows it, denies it with a reason, or the time runs out; an
// agent kept to some sites is refused elsewhere and its tabs load nothing
// from other hosts; an agent on a session of its own shares cookies among
// its tabs and with nobody else. The person answers through the window's
// answer-approval action, which the bar over the tab uses too.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';

import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

import { readToken, tokenAgent, waitFor, writePresets } from './lib/agents.mjs';
import { listenOnLoopback, startFixtureServer } from './lib/fixture-server.mjs';
import { callError, callOk, connectClient, refIn, resultText } from './lib/mcp.mjs';
import { makeAppDirs, requirementOptions, startTabwright, windowAction } from './lib/tabwright.mjs';
import { waitUntil } from './lib/wait.mjs';

const options = requirementOptions();

// A server that remembers every request it was sent, by host and path.
async function startRecorder() {
  const seen = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.headers.host}${req.url}`);
    const port = server.address().port;
    if (req.url === '/report.txt') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Disposition': 'attachment; filename="report.txt"' });
      return res.end('the report\n');
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    if (req.url === '/download')
      return res.end('<!DOCTYPE html><title>Download</title><main><a href="/report.txt">Get the report</a></main>');
    if (req.url === '/form')
      return res.end(`<!DOCTYPE html><title>Form</title><main><form method="post" action="http://localhost:${port}/sent">
<input name="q" value="v"><button>Send</button></form></main>`);
    // Only the start page reaches for another host.
    if (req.url !== '/start')
      return res.end('<!DOCTYPE html><title>Plain</title><main><h1>Plain</h1></main>');
    return res.end(`<!DOCTYPE html><title>Start</title><main><h1>Start</h1>
<a href="http://localhost:${port}/clicked">Leave the site</a>
<img src="http://localhost:${port}/pixel.png" alt="pixel">
<script>fetch('http://localhost:${port}/fetched').catch(() => {});</script></main>`);
  });
  const base = await listenOnLoopback(server);
  return { base, port: server.address().port, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

// Answers the step waiting in @browserId as the person.
function answer(app, browserId, how, reason = '') {
  return windowAction(app, 'Activate', 'answer-approval', `[<('${browserId}', '${how}', '${reason}')>]`, '{}');
}

// Calls @name and, once the call says it waits for the person, lets
// @respond answer; returns the result and the progress notifications.
async function callWaiting(client, name, args, respond) {
  const progress = [];
  let answered = null;
  const result = await client.request(
    { method: 'tools/call', params: { name, arguments: args } },
    CallToolResultSchema,
    {
      onprogress: (p) => {
        progress.push(p);
        if (answered === null && respond)
          answered = respond();
      },
      timeout: 60000,
    });
  await answered;
  return { result, progress, text: resultText(result) };
}

// Starts the app in @dirs with @preset as the user's one preset and an
// agent of it that hands its token over, and connects to the app as that
// agent; @args go to the app first. Resolves with { app, client }; stops
// the app when the agent never connects.
async function launchAgent(dirs, preset, args = []) {
  const tokenFile = path.join(dirs.root, `${preset.id}.token`);
  writePresets(dirs, [preset]);
  const app = await startTabwright({ dirs, args: [...args, '--launch-agent', tokenAgent(tokenFile, preset.id)] });
  try {
    const token = await waitFor('the agent\'s token', () => readToken(tokenFile), app, 60000);
    return { app, client: await connectClient({ ...app, token }, `e2e-${preset.id}-agent`) };
  } catch (error) {
    await app.stop();
    throw error;
  }
}

test('a step that needs the person\'s OK waits until allowed, denied or out of time', options, async () => {
  const fixtures = await startFixtureServer();
  const dirs = makeAppDirs('tabwright-e2e-approvals-');
  let app;
  let client;

  try {
    ({ app, client } = await launchAgent(dirs, {
      id: 'guarded', name: 'Guarded', needsCommand: true,
      approve: ['browser_evaluate'], approvalTimeoutSeconds: 3,
    }));

    const { data: tab } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/one.html') });
    const browserId = tab.browserId;
    const evaluate = { browserId, function: '() => document.title' };

    // Allowed once: the call waited, said so, then ran.
    const allowed = await callWaiting(client, 'browser_evaluate', evaluate,
      () => answer(app, browserId, 'allow-once'));
    assert.notEqual(allowed.result.isError, true, allowed.text);
    assert.match(allowed.text, /Page One/);
    assert.ok(allowed.progress.length >= 1, 'the waiting call sent progress');
    assert.equal(allowed.progress[0].total, 3);
    assert.match(allowed.progress[0].message, new RegExp(`allow browser_evaluate in tab ${browserId}`));

    // Denied with a reason: browser_denied carries it, and nothing ran.
    const denied = await callWaiting(client, 'browser_evaluate',
      { browserId, function: '() => { document.title = "changed"; return 1; }' },
      () => answer(app, browserId, 'deny', 'not on this page'));
    assert.equal(denied.result.isError, true, denied.text);
    assert.equal(denied.result.structuredContent.error.code, 'browser_denied');
    assert.match(denied.text, /^Error: browser_denied — the person denied browser_evaluate in tab \S+: not on this page/);
    const { data: listed } = await callOk(client, 'browser_list_tabs');
    assert.equal(listed.tabs.find((t) => t.browserId === browserId).title, 'Page One', 'the denied script never ran');

    // Nobody answers: denied when the 3 s run out, with progress meanwhile.
    const started = Date.now();
    const timedOut = await callWaiting(client, 'browser_evaluate', evaluate, null);
    assert.equal(timedOut.result.structuredContent?.error?.code, 'browser_denied', timedOut.text);
    assert.match(timedOut.text, /did not allow browser_evaluate in tab \S+ within 3 s/);
    assert.ok(Date.now() - started >= 2500, 'it waited for the time limit');
    assert.ok(timedOut.progress.length >= 2, `progress while waiting: ${JSON.stringify(timedOut.progress)}`);
    assert.ok(timedOut.progress.at(-1).progress > timedOut.progress[0].progress, 'progress moves forward');

    // Allowed for this agent: the next call runs without asking.
    const forAgent = await callWaiting(client, 'browser_evaluate', evaluate,
      () => answer(app, browserId, 'allow-agent'));
    assert.notEqual(forAgent.result.isError, true, forAgent.text);
    const again = await callWaiting(client, 'browser_evaluate', evaluate, null);
    assert.notEqual(again.result.isError, true, again.text);
    assert.equal(again.progress.length, 0, 'no prompt the second time');

    // Steps the preset does not name never wait.
    assert.match(resultText(await client.callTool({ name: 'browser_snapshot', arguments: { browserId } })), /^Page: Page One/);
  } finally {
    await client?.close().catch(() => {});
    await app?.stop();
    await fixtures.close();
  }
});

test('an agent kept to some sites is refused elsewhere and loads nothing from there', options, async () => {
  const recorder = await startRecorder();
  const dirs = makeAppDirs('tabwright-e2e-sites-');
  let app;
  let client;
  let person;

  try {
    ({ app, client } = await launchAgent(dirs, {
      id: 'kept', name: 'Kept', needsCommand: true, allowedSites: [`127.0.0.1:${recorder.port}`],
    }));
    person = await connectClient(app, 'e2e-person');
    const away = `http://localhost:${recorder.port}/refused`;

    // A new tab elsewhere is refused before any tab opens.
    const { error: opening } = await callError(client, 'browser_new_tab', { url: away }, 'browser_denied');
    assert.match(opening.message, new RegExp(`outside the sites this agent may reach \\(127\\.0\\.0\\.1:${recorder.port}\\)`));
    const { data: none } = await callOk(person, 'browser_list_tabs');
    assert.equal(none.tabs.length, 0, 'no tab was opened');

    // On the allowed site, the page's own loads of other hosts are blocked.
    const { data: tab } = await callOk(client, 'browser_new_tab', { url: `${recorder.base}/start` });
    const { error: leaving } = await callError(client, 'browser_navigate', { browserId: tab.browserId, url: away }, 'browser_denied');
    assert.match(leaving.message, /nothing was loaded/);

    // A link to another host goes nowhere.
    const snapshot = resultText(await client.callTool({ name: 'browser_snapshot', arguments: { browserId: tab.browserId } }));
    await client.callTool({ name: 'browser_click', arguments: { browserId: tab.browserId, ref: refIn(snapshot, 'Leave the site') } });

    // The person's tabs are not kept: the same address loads for them.
    const { data: personTab } = await callOk(person, 'browser_new_tab', { url: `${recorder.base}/person` });
    assert.ok(personTab.browserId);

    const { data: listed } = await callOk(person, 'browser_list_tabs');
    assert.equal(listed.tabs.find((t) => t.browserId === tab.browserId).url, `${recorder.base}/start`);
    const elsewhere = recorder.seen.filter((seen) => seen.startsWith('localhost'));
    assert.deepEqual(elsewhere, [], `no request reached another host: ${recorder.seen.join(', ')}`);
    assert.ok(recorder.seen.includes(`127.0.0.1:${recorder.port}/start`), 'the allowed page loaded');
  } finally {
    await client?.close().catch(() => {});
    await person?.close().catch(() => {});
    await app?.stop();
    await recorder.close();
  }
});

test('an agent on a session of its own shares cookies among its tabs only', options, async () => {
  const fixtures = await startFixtureServer();
  const dirs = makeAppDirs('tabwright-e2e-session-');
  let app;
  let client;
  let person;

  try {
    ({ app, client } = await launchAgent(dirs, { id: 'apart', name: 'Apart', needsCommand: true, session: 'own' }));
    person = await connectClient(app, 'e2e-person');

    const { data: first } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/one.html') });
    assert.match(first.context, /^Apart/, 'the tab is on the agent\'s own session');
    await callOk(client, 'browser_evaluate', { browserId: first.browserId, function: '() => { document.cookie = "kept=apart; path=/"; return document.cookie; }' });

    // The agent's second tab sends the cookie.
    const { data: second } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/whoami') });
    const secondText = resultText(await client.callTool({ name: 'browser_snapshot', arguments: { browserId: second.browserId } }));
    assert.match(secondText, /Cookie header: kept=apart/);

    // The workspace's tab does not.
    const { data: mine } = await callOk(person, 'browser_new_tab', { url: fixtures.url('/whoami') });
    const mineText = resultText(await person.callTool({ name: 'browser_snapshot', arguments: { browserId: mine.browserId } }));
    assert.match(mineText, /Cookie header: none/);
  } finally {
    await client?.close().catch(() => {});
    await person?.close().catch(() => {});
    await app?.stop();
    await fixtures.close();
  }
});

test('a form sent to another site waits for the person\'s OK', options, async () => {
  const recorder = await startRecorder();
  const dirs = makeAppDirs('tabwright-e2e-forms-');
  let app;
  let client;

  try {
    ({ app, client } = await launchAgent(dirs, { id: 'forms', name: 'Forms', needsCommand: true, approve: ['cross-origin-forms'] }));

    const { data: tab } = await callOk(client, 'browser_new_tab', { url: `${recorder.base}/form` });
    const snapshot = resultText(await client.callTool({ name: 'browser_snapshot', arguments: { browserId: tab.browserId } }));
    const send = refIn(snapshot, 'button "Send"');

    // Denied: the form never reaches the other site. The person's answer
    // goes to the bar once it shows; until then answering does nothing.
    let settled = false;
    const denied = client.callTool({ name: 'browser_click', arguments: { browserId: tab.browserId, ref: send } })
      .finally(() => { settled = true; });
    await waitUntil('the person denied the form', async () => {
      await answer(app, tab.browserId, 'deny', 'not that site');
      return settled;
    }, { timeoutMs: 60000, intervalMs: 300 });
    await denied;
    assert.ok(!recorder.seen.some((seen) => seen.endsWith('/sent')), `the form was not sent: ${recorder.seen.join(', ')}`);

    // Allowed once: it is sent.
    client.callTool({ name: 'browser_click', arguments: { browserId: tab.browserId, ref: send } }).catch(() => {});
    await waitUntil('the allowed form reached the other site', async () => {
      await answer(app, tab.browserId, 'allow-once');
      return recorder.seen.some((seen) => seen === `localhost:${recorder.port}/sent`);
    }, { timeoutMs: 60000, intervalMs: 300 });
  } finally {
    await client?.close().catch(() => {});
    await app?.stop();
    await recorder.close();
  }
});

test('a download waits for the person\'s OK before it is saved', options, async () => {
  const recorder = await startRecorder();
  const dirs = makeAppDirs('tabwright-e2e-downloads-');
  const saved = path.join(dirs.workspace, 'downloads', 'report.txt');
  let app;
  let client;

  try {
    ({ app, client } = await launchAgent(dirs, { id: 'fetcher', name: 'Fetcher', needsCommand: true, approve: ['downloads'] }, ['--tools', 'core,output']));

    const { data: tab } = await callOk(client, 'browser_new_tab', { url: `${recorder.base}/download` });
    const snapshot = resultText(await client.callTool({ name: 'browser_snapshot', arguments: { browserId: tab.browserId } }));
    const click = await client.callTool({ name: 'browser_click', arguments: { browserId: tab.browserId, ref: refIn(snapshot, 'link "Get the report"') } });
    // The click reports the download as waiting for the person's OK rather
    // than wait for an answer; nothing is saved before it.
    assert.match(resultText(click), /Download: report\.txt awaits the person's OK/);
    assert.equal(fs.existsSync(saved), false, 'nothing saved before the OK');
    const { data: waiting } = await callOk(client, 'browser_downloads');
    assert.deepEqual(waiting.downloads.map((d) => [d.fileName, d.state]),
      [['report.txt', 'awaiting approval']]);

    await waitUntil('the allowed download was saved', async () => {
      await answer(app, tab.browserId, 'allow-once');
      return fs.existsSync(saved) && fs.readFileSync(saved, 'utf8') === 'the report\n';
    }, { timeoutMs: 60000, intervalMs: 300 });
    await waitUntil('the download is listed as finished', async () => {
      const { data: listed } = await callOk(client, 'browser_downloads');
      return listed.downloads.some((d) => d.fileName === 'report.txt' && d.state === 'finished');
    }, { timeoutMs: 20000, intervalMs: 200 });

    // A second one, denied: it fails, saying so, and nothing is saved.
    await client.callTool({ name: 'browser_click', arguments: { browserId: tab.browserId, ref: refIn(snapshot, 'link "Get the report"') } });
    await waitUntil('the denied download failed', async () => {
      await answer(app, tab.browserId, 'deny', 'not twice');
      const { data: listed } = await callOk(client, 'browser_downloads');
      return listed.downloads.length === 2 && listed.downloads[1].state === 'failed';
    }, { timeoutMs: 60000, intervalMs: 300 });
    const { data: listed } = await callOk(client, 'browser_downloads');
    assert.equal(listed.downloads[1].error, 'the person did not allow it');
    assert.deepEqual(fs.readdirSync(path.dirname(saved)), ['report.txt']);
  } finally {
    await client?.close().catch(() => {});
    await app?.stop();
    await recorder.close();
  }
});
