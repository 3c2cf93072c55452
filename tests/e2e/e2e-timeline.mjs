// SPDX-License-Identifier: GPL-3.0-or-later
//
// The timeline of a run, as an MCP client makes it: the calls of the
// session, in order, with their arguments, element and outcome, and small
// pictures of the tab before and after each action, kept in the
// workspace's data; and exported by the agent to a folder of the workspace.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';

import { listenOnLoopback } from './lib/fixture-server.mjs';
import { callError, callOk, callText, connectClient, refIn, textField } from './lib/mcp.mjs';
import { makeAppDirs, requirementOptions, startTabwright } from './lib/tabwright.mjs';
import { waitUntil } from './lib/wait.mjs';

const options = requirementOptions();

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Switch</title>
<style>body { background: rgb(255, 0, 0); } body.on { background: rgb(0, 255, 0); }</style></head>
<body><button onclick="document.body.className = 'on'">Switch</button></body></html>`;

// The lines of every session file of the workspace's timeline.
function timelineLines(dirs) {
  const workspaces = path.join(dirs.data, 'tabwright', 'workspaces');
  const lines = [];
  for (const id of fs.existsSync(workspaces) ? fs.readdirSync(workspaces) : []) {
    const dir = path.join(workspaces, id, 'timeline');
    if (!fs.existsSync(dir))
      continue;
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
      for (const line of fs.readFileSync(path.join(dir, name), 'utf8').split('\n')) {
        if (line !== '')
          lines.push({ dir, step: JSON.parse(line) });
      }
    }
  }
  return lines.sort((a, b) => a.step.seq - b.step.seq);
}

test('every call of a session is in the timeline, actions with pictures before and after', options, async () => {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(PAGE);
  });
  const origin = await listenOnLoopback(server);
  const dirs = makeAppDirs();
  const app = await startTabwright({ dirs });
  const client = await connectClient(app);
  try {
    const { data: tab } = await callOk(client, 'browser_new_tab', { url: `${origin}/` });
    const { text: snapshot } = await callText(client, 'browser_snapshot', { browserId: tab.browserId });
    const ref = refIn(snapshot, 'button "Switch"');
    await callOk(client, 'browser_click', { browserId: tab.browserId, ref });

    const lines = await waitUntil('the click in the timeline', () => {
      const found = timelineLines(dirs);
      return found.length >= 3 && found[2].step.after !== undefined ? found : null;
    });
    assert.deepEqual(lines.map((l) => l.step.tool), ['browser_new_tab', 'browser_snapshot', 'browser_click']);
    const click = lines[2].step;
    assert.equal(click.browserId, tab.browserId);
    assert.equal(click.arguments.ref, ref);
    assert.deepEqual({ role: click.element.role, name: click.element.name }, { role: 'button', name: 'Switch' });
    assert.equal(click.ok, true);
    assert.ok(click.durationMs >= 0);
    assert.equal(lines[1].step.before, undefined, 'reading the page takes no pictures');
    for (const which of ['before', 'after']) {
      const file = path.join(lines[2].dir, click[which]);
      const bytes = fs.readFileSync(file);
      assert.ok(bytes.length > 100 && bytes.length < 64 * 1024, `${which} is a small picture`);
      assert.equal(bytes.readUInt16BE(0), 0xffd8, `${which} is a JPEG`);
    }
  } finally {
    await client.close().catch(() => {});
    await app.stop();
    server.close();
    fs.rmSync(dirs.root, { recursive: true, force: true });
  }
});

const LOGGING_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Switch</title></head>
<body><button onclick="console.log('switched'); fetch('/data.json?kind=fruit')">Switch</button></body></html>`;

test('an agent exports its session, or one tab of it, to a folder of the workspace', options, async () => {
  const server = http.createServer((req, res) => {
    if (req.url.startsWith('/data.json')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"fruit": "apple"}');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(req.url === '/other' ? '<!doctype html><title>Other</title><p>Another page</p>' : LOGGING_PAGE);
  });
  const origin = await listenOnLoopback(server);
  const dirs = makeAppDirs();
  const app = await startTabwright({ dirs, args: ['--tools', 'core,replay'] });
  const client = await connectClient(app);
  try {
    const { data: tab } = await callOk(client, 'browser_new_tab', { url: `${origin}/` });
    const { text: snapshot } = await callText(client, 'browser_snapshot', { browserId: tab.browserId });
    await callOk(client, 'browser_click', { browserId: tab.browserId, ref: refIn(snapshot, 'button "Switch"') });
    const { data: other } = await callOk(client, 'browser_new_tab', { url: `${origin}/other` });
    await callOk(client, 'browser_wait', { browserId: tab.browserId, text: 'Switch' });

    // The whole session: every call, its pictures, the network, the
    // console and the video, in the folder the agent named.
    const { data: all, text } = await callOk(client, 'browser_export_session', { folder: 'exports/run' });
    assert.equal(all.folder, 'exports/run');
    assert.equal(textField(text, 'folder'), 'exports/run');
    assert.equal(all.calls, 5);
    assert.equal(fs.realpathSync(all.path), fs.realpathSync(path.join(dirs.workspace, 'exports', 'run')));
    const file = (name) => path.join(dirs.workspace, all.files[name]);
    assert.equal(textField(text, 'video'), all.files.video);
    const calls = fs.readFileSync(file('calls'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(calls.map((c) => c.tool),
      ['browser_new_tab', 'browser_snapshot', 'browser_click', 'browser_new_tab', 'browser_wait']);
    const click = calls[2];
    assert.ok(click.action && click.action.pointer, 'the click says where the pointer was');
    const images = fs.readdirSync(file('images'));
    assert.equal(images.length, all.images);
    assert.ok(all.images >= 4, `the actions have pictures: ${all.images}`);
    for (const which of ['before', 'after'])
      assert.ok(images.includes(path.basename(click[which])), `the click's ${which} picture is in images/`);
    const har = JSON.parse(fs.readFileSync(file('har'), 'utf8'));
    assert.equal(har.log.version, '1.2');
    assert.equal(har.log.entries.length, all.requests);
    assert.ok(har.log.entries.some((e) => e.request.url === `${origin}/data.json?kind=fruit`), 'the HAR has the fetch');
    const consoleLines = fs.readFileSync(file('console'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(consoleLines.length, all.consoleMessages);
    assert.ok(consoleLines.some((m) => m.text === 'switched'), 'the console has the page\'s message');
    assert.equal(fs.readFileSync(file('video')).readUInt32BE(0), 0x1a45dfa3, 'the video is a WebM (EBML) file');

    // One tab's part of it.
    const { data: one } = await callOk(client, 'browser_export_session', { folder: 'exports/other', browserId: other.browserId });
    assert.equal(one.browserId, other.browserId);
    assert.equal(one.calls, 1);
    const oneCalls = fs.readFileSync(path.join(dirs.workspace, one.files.calls), 'utf8').trim().split('\n');
    assert.deepEqual(oneCalls.map((l) => JSON.parse(l).browserId), [other.browserId]);

    // Without a folder, one of its own under exports/.
    const { data: named } = await callOk(client, 'browser_export_session', {});
    assert.match(named.folder, /^exports\//);
    assert.ok(fs.existsSync(path.join(dirs.workspace, named.files.video)));

    // Never outside the workspace, and nothing is written there.
    const outside = path.join(dirs.root, 'outside');
    await callError(client, 'browser_export_session', { folder: outside }, 'browser_denied');
    await callError(client, 'browser_export_session', { folder: '../outside' }, 'browser_denied');
    await callError(client, 'browser_export_session', { folder: 'exports/../../outside' }, 'browser_denied');
    fs.symlinkSync(dirs.root, path.join(dirs.workspace, 'link'));
    await callError(client, 'browser_export_session', { folder: 'link/outside' }, 'browser_denied');
    assert.equal(fs.existsSync(outside), false);
  } finally {
    await client.close().catch(() => {});
    await app.stop();
    server.close();
    fs.rmSync(dirs.root, { recursive: true, force: true });
  }
});
