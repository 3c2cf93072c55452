// SPDX-License-Identifier: GPL-3.0-or-later
//
// The stdio bridge `tabwright-mcp` as MCP clients launch it, driven by the
// official SDK's StdioClientTransport: without the app it still answers the
// handshake and tools/list and fails every tool call with browser_no_host;
// with the app it relays calls (concurrently, with progress and
// cancellation); and one bridge process keeps working across an app restart.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

import { startFixtureServer } from './lib/fixture-server.mjs';
import { callAndAbandon, callError, callOk, connectClient, resultText } from './lib/mcp.mjs';
import { bridgeBinary, makeAppDirs, requirementOptions, run, skipOrFail, startTabwright } from './lib/tabwright.mjs';
import { expectEvent } from './lib/wait.mjs';

function bridgeOptions() {
  const options = requirementOptions();
  if (options.skip || fs.existsSync(bridgeBinary()))
    return options;
  return skipOrFail(`${bridgeBinary()} does not exist`);
}

const options = bridgeOptions();
let fixtures;
const cleanups = [];

before(async () => {
  if (options.skip)
    return;
  fixtures = await startFixtureServer();
});

// Each clean-up is bounded: one that hangs is reported and the rest still run,
// so the test process always ends.
after(async () => {
  for (const cleanup of cleanups.reverse()) {
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve('timeout'), 20000);
    });
    const outcome = await Promise.race([Promise.resolve().then(cleanup).catch(() => {}), timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      process.stderr.write(`e2e-bridge: clean-up did not finish in 20 s: ${cleanup}\n`);
      process.exitCode = 1;
    }
  }
  await fixtures?.close();
});

// Launches the bridge the way an MCP client does, with nothing of the app's
// environment but XDG_RUNTIME_DIR, and connects the SDK client to it.
// Anything on stdout that is not JSON-RPC makes the SDK report an error,
// which is collected in `errors`.
async function connectBridge(dirs, name = 'bridge-e2e') {
  const transport = new StdioClientTransport({
    command: bridgeBinary(),
    args: ['--workspace', dirs.workspace],
    env: { XDG_RUNTIME_DIR: dirs.runtime },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr.on('data', (chunk) => { stderr += chunk.toString(); });
  const client = new Client({ name, version: '1.0.0' });
  const errors = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  const bridge = { client, transport, errors, stderr: () => stderr };
  cleanups.push(() => client.close());
  return bridge;
}

// Runs the bridge directly on @lines as its whole input and resolves, once
// it exited by itself, with { code, signal, stdout, stderr, messages }:
// nothing signals it, so an exit that never comes fails the wait.
async function bridgeOnInput(args, { cwd, env }, lines) {
  const child = spawn(bridgeBinary(), args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = expectEvent('the bridge to exit at the end of its input');
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk) => { stderr += chunk.toString(); });
  child.on('close', (code, signal) => exited.happened({ code, signal }));
  child.stdin.end([...lines, ''].join('\n'));
  try {
    const { code, signal } = await exited.wait();
    const messages = stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
    return { code, signal, stdout, stderr, messages };
  } finally {
    child.kill('SIGKILL');
  }
}

const INITIALIZE_LINES = [
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"cli","version":"1"}}}',
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
];

async function assertNoHost(client, name, args) {
  const { text, error } = await callError(client, name, args, 'browser_no_host');
  assert.equal(error.retryable, true, 'browser_no_host is retryable');
  return text;
}

// Folders for one app instance: its own root (removed by its stop()) and
// session bus, and the workspace, runtime and data folders of @shared, so
// that instances started one after the other serve the same workspace.
function instanceDirs(shared, name) {
  const root = path.join(shared.root, name);
  const bus = path.join(root, 'bus');
  fs.mkdirSync(bus, { recursive: true, mode: 0o700 });
  return { ...shared, root, bus };
}

async function startInstance(shared, name) {
  const app = await startTabwright({ dirs: instanceDirs(shared, name) });
  cleanups.push(app.stop);
  return app;
}

test('without the app: handshake and tools/list work, tool calls fail with browser_no_host', options, async () => {
  const dirs = makeAppDirs('tabwright-e2e-bridge-');
  cleanups.push(async () => fs.rmSync(dirs.root, { recursive: true, force: true }));
  const { client, errors } = await connectBridge(dirs);

  const info = client.getServerVersion();
  assert.equal(info.name, 'tabwright');
  assert.ok(client.getServerCapabilities()?.tools, 'the bridge offers tools');
  assert.match(client.getInstructions() ?? '', /browser_snapshot/);

  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  for (const name of ['browser_list_tabs', 'browser_new_tab', 'browser_snapshot', 'browser_navigate'])
    assert.ok(names.includes(name), `tools/list includes ${name}`);
  assert.ok(tools.every((tool) => tool.inputSchema?.type === 'object'), 'every tool has an input schema');

  const text = await assertNoHost(client, 'browser_list_tabs', {});
  assert.ok(text.includes(fs.realpathSync(dirs.workspace)), `the error names the workspace: ${text}`);
  assert.ok(text.includes('tabwright --workspace'), `the error says how to start the app: ${text}`);
  await assertNoHost(client, 'browser_new_tab', { url: fixtures.url('/page?title=Nobody') });

  await client.ping();
  assert.deepEqual(errors, [], 'the bridge wrote nothing but JSON-RPC');
});

test('with the app: the bridge relays calls, concurrently, with progress and cancellation', options, async () => {
  const app = await startTabwright();
  cleanups.push(() => app.stop());
  const { client, errors } = await connectBridge(app.dirs);
  const direct = await connectClient(app, 'direct-e2e');
  cleanups.push(() => direct.close());

  // The same tools as the app serves over HTTP, from the same tables.
  assert.deepEqual((await client.listTools()).tools, (await direct.listTools()).tools);

  const { data: tab } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/page?title=Bridged') });
  assert.match(tab.browserId, /^\S+$/);
  assert.equal(tab.title, 'Bridged');

  // A tab opened through the bridge is a tab of the workspace, and the app
  // knows the bridge as the workspace's external client.
  const { data: listed } = await callOk(direct, 'browser_list_tabs', {});
  const entry = listed.tabs.find((candidate) => candidate.browserId === tab.browserId);
  assert.ok(entry, `the app lists the bridged tab: ${JSON.stringify(listed)}`);

  // A slow call does not hold up a quick one. The slow one is a handoff,
  // whose first progress notification proves the app has it before the
  // quick one starts.
  const order = [];
  const slowProgress = expectEvent('the first progress notification of the slow handoff');
  const slow = client.callTool({ name: 'browser_handoff', arguments: { browserId: tab.browserId, message: 'Nobody will answer.', timeoutMs: 2500 } },
    CallToolResultSchema, { onprogress: (p) => slowProgress.happened(p) })
    .then((result) => { order.push('slow'); return result; });
  await slowProgress.wait();
  await callOk(client, 'browser_list_tabs', {}).then(() => order.push('quick'));
  const slowResult = await slow;
  assert.deepEqual(order, ['quick', 'slow']);
  assert.equal(slowResult.isError, true);
  assert.ok(resultText(slowResult).startsWith('Error: browser_timeout — '), resultText(slowResult));

  // A client that asks for progress gets the answer over the app's event
  // stream, relayed line by line.
  const progressResult = await client.callTool({ name: 'browser_list_tabs', arguments: {} },
    CallToolResultSchema, { onprogress: () => {} });
  assert.notEqual(progressResult.isError, true, resultText(progressResult));
  assert.ok(progressResult.structuredContent.tabs.some((candidate) => candidate.browserId === tab.browserId));

  // Cancelling a call reaches the app: the next call on the same tab, which
  // would queue behind the cancelled handoff, answers at once. The client
  // gives up once the app has the call (its first progress notification).
  // A tab still held would keep the wait for the handoff's five minutes,
  // past the SDK's one-minute deadline for a request.
  await callAndAbandon(client, 'browser_handoff', { browserId: tab.browserId, message: 'Nobody will answer.' });
  await callOk(client, 'browser_wait', { browserId: tab.browserId, text: 'Bridged', timeoutMs: 5000 });

  assert.deepEqual(errors, [], 'the bridge wrote nothing but JSON-RPC');
});

test('one bridge process survives the app quitting, crashing and starting again', options, async () => {
  const shared = makeAppDirs('tabwright-e2e-bridge-restart-');
  cleanups.push(async () => fs.rmSync(shared.root, { recursive: true, force: true }));
  const first = await startInstance(shared, 'first');
  const { client, transport, errors } = await connectBridge(shared);
  const pid = transport.pid;

  const { data: tab } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/page?title=Before') });
  assert.ok(tab.browserId);

  // The app quits (and must do so cleanly): calls fail with
  // browser_no_host, and the bridge lives on.
  const quit = await first.stop();
  assert.ok(quit.clean, 'the app quits cleanly on SIGTERM');
  assert.ok(!fs.existsSync(first.runtimeFile), 'a clean quit removes the runtime file');
  await assertNoHost(client, 'browser_list_tabs', {});
  const { tools } = await client.listTools();
  assert.ok(tools.length > 0, 'tools/list still answers');

  // It starts again, on another port: the same bridge finds it.
  const second = await startInstance(shared, 'second');
  assert.notEqual(second.url, first.url, 'the new app listens elsewhere');
  const { data: after } = await callOk(client, 'browser_list_tabs', {});
  // The new app restores the first one's tabs from the session, so compare
  // with what it lists to a client of its own.
  const direct = await connectClient(second, 'tabwright-e2e-direct');
  const { data: own } = await callOk(direct, 'browser_list_tabs', {});
  await direct.close();
  assert.deepEqual(after.tabs.map((t) => t.browserId).sort(), own.tabs.map((t) => t.browserId).sort(),
    'the bridge lists the new app\'s tabs');
  await callOk(client, 'browser_new_tab', { url: fixtures.url('/page?title=After') });

  // It crashes, leaving its runtime file behind: still browser_no_host.
  const crashed = once(second.child, 'exit');
  second.child.kill('SIGKILL');
  await crashed;
  assert.ok(fs.existsSync(second.runtimeFile), 'a crashed app leaves its runtime file');
  await assertNoHost(client, 'browser_list_tabs', {});

  // stop() reaps the crashed app's bus. It reports any app that died during
  // a test as a failure; this crash is the test's own doing, so the exit
  // status stays what it was.
  const exitCode = process.exitCode;
  process.stderr.write('e2e-bridge: the next report of a tabwright that died is expected (SIGKILL by the test)\n');
  const reaped = await second.stop();
  process.exitCode = exitCode;
  assert.equal(reaped.signal, 'SIGKILL');

  // The next app comes up (the harness waits for its own runtime file, so
  // the stale one goes first), and the bridge follows.
  assert.ok(fs.existsSync(second.runtimeFile), 'the crashed app\'s runtime file is still there');
  fs.rmSync(second.runtimeFile, { force: true });
  await startInstance(shared, 'third');
  await callOk(client, 'browser_list_tabs', {});

  assert.equal(transport.pid, pid, 'one bridge process all along');
  assert.deepEqual(errors, [], 'the bridge wrote nothing but JSON-RPC');

  await client.close();

  // The end of its input ends a bridge by itself, once it has answered
  // what it read and ended its session with the app. How long that takes
  // is a figure of bench/run.
  const ended = await bridgeOnInput(['--workspace', shared.workspace], { env: { XDG_RUNTIME_DIR: shared.runtime } }, [
    ...INITIALIZE_LINES,
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"browser_list_tabs","arguments":{}}}',
  ]);
  assert.deepEqual([ended.code, ended.signal], [0, null], `a clean exit at the end of the input:\n${ended.stderr}`);
  assert.equal(ended.messages.length, 2, `one line per answer:\n${ended.stdout}`);
  assert.ok(Array.isArray(ended.messages[1].result.structuredContent.tabs), `the app answered the call: ${ended.stdout}`);
});

test('the command line: only JSON-RPC on stdout, diagnostics on stderr, clean exit', options, async () => {
  const dirs = makeAppDirs('tabwright-e2e-bridge-cli-');
  cleanups.push(async () => fs.rmSync(dirs.root, { recursive: true, force: true }));
  const env = { ...process.env, XDG_RUNTIME_DIR: dirs.runtime, G_MESSAGES_DEBUG: 'all' };

  const version = await run(bridgeBinary(), ['--version'], { env });
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^tabwright-mcp \d+\.\d+/);

  const help = await run(bridgeBinary(), ['--help'], { env });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--workspace/);

  const missing = await run(bridgeBinary(), ['--workspace', path.join(dirs.root, 'no-such-folder')], { env });
  assert.equal(missing.code, 1, 'a workspace that does not exist is an error');
  assert.equal(missing.stdout, '');
  assert.match(missing.stderr, /no-such-folder/);

  // Debug logging on, malformed lines in between, and the input ends while
  // a call is still to be answered.
  const { code, stdout, stderr, messages } = await bridgeOnInput([], { cwd: dirs.workspace, env }, [
    ...INITIALIZE_LINES,
    'not json at all',
    '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"browser_list_tabs","arguments":{}}}',
  ]);

  assert.equal(code, 0, `exit status 0 at the end of the input:\n${stderr}`);
  assert.equal(messages.length, 4, `one line per answer:\n${stdout}`);
  assert.ok(messages.every((message) => message.jsonrpc === '2.0'));
  assert.equal(messages[0].result.protocolVersion, '2025-03-26');
  assert.equal(messages[1].error.code, -32700);
  assert.equal(messages[1].id, null);
  assert.ok(messages[2].result.tools.length > 0);
  assert.equal(messages[3].result.structuredContent.error.code, 'browser_no_host');
  // The current folder is the default workspace.
  assert.ok(messages[3].result.structuredContent.error.message.includes(fs.realpathSync(dirs.workspace)));
  assert.match(stderr, /DEBUG/, 'debug messages go to stderr');
});
