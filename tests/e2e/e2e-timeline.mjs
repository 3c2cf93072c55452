// SPDX-License-Identifier: GPL-3.0-or-later
//
// The timeline of a run, as an MCP client makes it: the calls of the
// session, in order, with their arguments, element and outcome, and small
// pictures of the tab before and after each action, kept in the
// workspace's data.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';

import { listenOnLoopback } from './lib/fixture-server.mjs';
import { callOk, callText, connectClient, refIn } from './lib/mcp.mjs';
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
