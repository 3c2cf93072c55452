// SPDX-License-Identifier: GPL-3.0-or-later
//
// Quitting leaves nothing behind (issue 15): when the app exits on SIGTERM,
// SIGINT or its quit action, every process it started has ended by the time
// it has exited (web processes, the network process and its sandbox, an
// agent and the members of the agent's process group, even one that left
// the process tree and ignores SIGHUP and SIGTERM), its runtime files are
// gone, and its folders can be removed at once: nothing writes into them any
// more.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { shellQuote, waitFor as waitForApp } from './lib/agents.mjs';
import { startFixtureServer } from './lib/fixture-server.mjs';
import { callOk, connectClient } from './lib/mcp.mjs';
import { requirementOptions, run, startTabwright, makeAppDirs } from './lib/tabwright.mjs';

const options = requirementOptions();
const WAIT_MS = 60000;

// An agent that will not go: it ignores hang-up and terminate, and leaves a
// writer in its process group, outside the app's process tree, that appends
// to a file in the app's cache folder every 50 ms.
const STUBBORN_AGENT = `
trap '' HUP TERM
( ( while :; do echo x >> "$1/agent-writes"; sleep 0.05; done ) & echo $! > "$2.tmp"; mv "$2.tmp" "$2" )
echo $$ > "$3.tmp"; mv "$3.tmp" "$3"
while :; do sleep 1; done
`;

// { pid, comm, state, ppid, pgid } of a live process, or null once it has
// ended (a zombie runs nothing and writes nothing: it counts as ended).
function processInfo(pid) {
  let stat;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const close = stat.lastIndexOf(')');
  const comm = stat.slice(stat.indexOf('(') + 1, close);
  const [state, ppid, pgid] = stat.slice(close + 2).split(' ');
  if (state === 'Z' || state === 'X')
    return null;
  return { pid, comm, state, ppid: Number(ppid), pgid: Number(pgid) };
}

function descendants(root) {
  const all = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))
    .map((name) => processInfo(Number(name))).filter((info) => info !== null);
  const ours = new Set([root]);
  const found = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const info of all) {
      if (!ours.has(info.pid) && ours.has(info.ppid)) {
        ours.add(info.pid);
        found.push(info);
        grew = true;
      }
    }
  }
  return found;
}

function waitFor(what, check, app) {
  return waitForApp(what, check, app, WAIT_MS);
}

function readPid(file) {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function listTree(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (!entry.isDirectory())
      out.push(path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)));
  return out;
}

async function quitAndCheck(t, how) {
  const fixtures = await startFixtureServer();
  const dirs = makeAppDirs('tabwright-e2e-shutdown-');
  const writerFile = path.join(dirs.root, 'writer.pid');
  const agentFile = path.join(dirs.root, 'agent.pid');
  const agent = ['sh', '-c', STUBBORN_AGENT, 'sh', dirs.cache, writerFile, agentFile].map(shellQuote).join(' ');
  let app;
  let client;

  try {
    app = await startTabwright({ dirs, args: ['--launch-agent', `custom:${agent}`] });
    const writer = await waitFor('the agent\'s writer', () => readPid(writerFile), app);
    const agentPid = await waitFor('the agent', () => readPid(agentFile), app);
    await waitFor('the writer to write', () => fs.existsSync(path.join(dirs.cache, 'agent-writes')), app);

    client = await connectClient(app, 'e2e-shutdown');
    await callOk(client, 'browser_new_tab', { url: fixtures.url('/page?title=Before%20quitting') });

    // What the app started: WebKit's processes are its descendants; the
    // writer left the tree but stays in the agent's process group.
    const started = descendants(app.pid);
    const names = started.map((p) => p.comm).join(', ');
    assert.ok(started.some((p) => p.comm.startsWith('WebKitWebProces')), `a web process runs: ${names}`);
    assert.ok(started.some((p) => p.comm.startsWith('WebKitNetworkPr')), `the network process runs: ${names}`);
    assert.ok(started.some((p) => p.pid === agentPid), `the agent runs under the app: ${names}`);
    const writerInfo = processInfo(writer);
    assert.ok(writerInfo, 'the writer runs');
    assert.ok(!started.some((p) => p.pid === writer), 'the writer left the app\'s process tree');
    assert.equal(writerInfo.pgid, processInfo(agentPid).pgid, 'the writer is in the agent\'s process group');
    const pids = [...started.map((p) => p.pid), writer];
    const ownRuntime = path.join(dirs.runtime, 'tabwright');
    assert.ok(listTree(ownRuntime).length > 0, 'the app published its runtime files');

    await client.close();
    client = null;

    app.expectQuit();
    const exited = once(app.child, 'exit');
    const start = Date.now();
    if (how === 'quit action') {
      const result = await run('gdbus', ['call', '--session', '--dest', 'io.github.tabwright.Tabwright',
        '--object-path', '/io/github/tabwright/Tabwright', '--method', 'org.gtk.Actions.Activate',
        'quit', '[]', '{}'], { env: app.env, timeoutMs: 20000 });
      assert.equal(result.code, 0, `gdbus: ${result.stderr}`);
    } else {
      app.child.kill(how);
    }
    const [code, signal] = await exited;
    t.diagnostic(`${how}: the app exited ${Date.now() - start} ms after the request; it had started ${pids.length} processes`);
    assert.equal(code, 0, `the app exits cleanly on ${how} (signal ${signal}); it said:\n${app.log()}`);

    // Ended by the time the app has: no waiting here.
    const alive = pids.map(processInfo).filter((p) => p !== null);
    assert.deepEqual(alive, [], 'every process the app started has ended');

    // Its runtime files are gone, and the folders go at once: nothing is
    // left writing into them.
    // (WebKit's own sandbox files there, .flatpak/webkit-* and the D-Bus
    // proxies' sockets, are WebKit's to keep.)
    assert.deepEqual(listTree(ownRuntime), [], 'the runtime files are removed');
    const writes = fs.readFileSync(path.join(dirs.cache, 'agent-writes'), 'utf8');
    fs.rmSync(dirs.root, { recursive: true });
    assert.equal(fs.existsSync(dirs.root), false);
    assert.ok(writes.length > 0);
  } finally {
    await client?.close().catch(() => {});
    await app?.stop();
    await fixtures.close();
  }
}

for (const how of ['SIGTERM', 'SIGINT', 'quit action'])
  test(`on ${how} the app leaves no process, runtime file or writer behind`, options, (t) => quitAndCheck(t, how));
