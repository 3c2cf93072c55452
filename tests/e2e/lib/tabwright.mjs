// SPDX-License-Identifier: GPL-3.0-or-later
//
// Launches the real Tabwright binary for end-to-end tests: one app per call,
// each in its own temporary XDG directories and on its own private session
// bus, so tests can run side by side and never meet a Tabwright the
// developer has open.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { addLogSource } from './stuck.mjs';

export const srcdir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

// The stdio bridge: $TABWRIGHT_MCP_BIN, or next to the app in the build
// tree (<build>/app/tabwright, <build>/mcp/tabwright-mcp).
export function bridgeBinary() {
  if (process.env.TABWRIGHT_MCP_BIN)
    return process.env.TABWRIGHT_MCP_BIN;
  return path.resolve(path.dirname(process.env.TABWRIGHT_BIN ?? '.'), '..', 'mcp', 'tabwright-mcp');
}

const START_TIMEOUT_MS = Number(process.env.TABWRIGHT_E2E_START_TIMEOUT_MS ?? 60000);
const LOG_LIMIT = 64 * 1024;

// Children still running when the test process exits are killed, so a failed
// assertion never leaves an app or a bus behind.
const liveChildren = new Set();
// An app leads a process group of its own, so the processes it starts
// (WebKit's web and network processes, D-Bus proxies) go with it.
process.on('exit', () => {
  for (const child of liveChildren) {
    try {
      child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
    killGroup(child);
  }
});

// Kills what is left of @child's process group; TRUE when something was.
function killGroup(child) {
  if (!child.leadsGroup)
    return false;
  try {
    process.kill(-child.pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

function groupAlive(child) {
  if (!child.leadsGroup)
    return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

// Resolves with what @promise resolves with, or with @late after @ms. The
// timer ends with the race: one left running would keep the test process
// alive until it fires, after its last test.
async function raceLimit(promise, ms, late) {
  const limit = new AbortController();
  try {
    return await Promise.race([promise, sleep(ms, late, { signal: limit.signal })]);
  } finally {
    limit.abort();
  }
}

// Once an app has exited, waits a little for the processes it started to
// end on their own and its output to be read to the end, then kills the
// processes left. Returns how long they outlived it when they had to be
// killed, or 0. A process left holding the app's output pipes would keep
// the test process alive, so the pipes are closed in the end either way.
async function reapGroup(child, graceMs = 5000) {
  const start = Date.now();
  const closed = child.stdout?.closed && child.stderr?.closed
    ? Promise.resolve()
    : once(child, 'close');
  const within = (ms) => raceLimit(closed.then(() => true), ms, false);
  let outlived = 0;
  if (!(await within(graceMs)) || groupAlive(child)) {
    while (groupAlive(child) && Date.now() - start < graceMs)
      await sleep(50);
    if (groupAlive(child) && killGroup(child))
      outlived = Date.now() - start;
    await within(1000);
  }
  child.stdout?.destroy();
  child.stderr?.destroy();
  return outlived;
}

// The tests need the binary from the build tree, a display for GTK and the
// Node packages from `npm ci`. Without them they skip, unless the caller
// (build-aux/test) promised that everything is there.
export function missingRequirement() {
  const bin = process.env.TABWRIGHT_BIN;
  if (!bin)
    return 'TABWRIGHT_BIN is not set (run the tests through meson test)';
  if (!fs.existsSync(bin))
    return `${bin} does not exist`;
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'no display (run under xvfb-run -a)';
  if (!fs.existsSync(path.join(srcdir, 'node_modules', '@modelcontextprotocol', 'sdk')))
    return 'Node packages are missing (run npm ci in the source root)';
  return null;
}

// Returns the options for node:test's test(): skipped with the reason when a
// requirement is missing, failing hard instead under TABWRIGHT_TEST_REQUIRE_ALL.
export function requirementOptions() {
  const reason = missingRequirement();
  return reason ? skipOrFail(reason) : {};
}

// The options of a test that cannot run for want of @reason: skipped, or,
// under TABWRIGHT_TEST_REQUIRE_ALL (build-aux/test, which installs
// everything), a thrown error, so the suite fails instead of testing less.
export function skipOrFail(reason) {
  if (process.env.TABWRIGHT_TEST_REQUIRE_ALL === '1')
    throw new Error(`cannot run end-to-end tests: ${reason}`);
  return { skip: reason };
}

function appendLog(state, chunk) {
  state.log += chunk.toString();
  if (state.log.length > LOG_LIMIT)
    state.log = state.log.slice(-LOG_LIMIT);
}

// Resolves with the address that @daemon, a dbus-daemon started with
// --print-address=1 and its stdout piped, prints on its first line; @what
// names it in the errors.
export function readBusAddress(daemon, what) {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} printed no address`)), 10000);
    daemon.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot start ${what}: ${error.message}`));
    });
    daemon.stdout.on('data', (chunk) => {
      output += chunk.toString();
      const newline = output.indexOf('\n');
      if (newline >= 0) {
        clearTimeout(timer);
        resolve(output.slice(0, newline).trim());
      }
    });
  });
}

// Starts a dbus-daemon of our own and resolves with its address.
// Its messages go to @state's log, shown when a test fails.
async function startSessionBus(dir, state, wrap = []) {
  const argv = [...wrap, 'dbus-daemon',
    '--session', '--nofork', '--nopidfile', '--print-address=1',
    `--address=unix:dir=${dir}`];
  const daemon = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  daemon.stderr.on('data', (chunk) => appendLog(state, chunk));
  liveChildren.add(daemon);
  daemon.on('exit', () => liveChildren.delete(daemon));

  const address = await readBusAddress(daemon, 'dbus-daemon');
  return { daemon, address };
}

// Ends @child: SIGTERM, then SIGKILL after @timeoutMs; resolves once it exited.
export async function stopChild(child, timeoutMs = 5000) {
  if (!child || child.exitCode !== null || child.signalCode !== null)
    return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  if ((await raceLimit(exited, timeoutMs, 'timeout')) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

// Makes the temporary home of one app: XDG directories, a workspace folder
// and a bus directory, all private to the current user.
export function makeAppDirs(prefix = 'tabwright-e2e-') {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const dirs = {
    root,
    runtime: path.join(root, 'runtime'),
    data: path.join(root, 'data'),
    config: path.join(root, 'config'),
    cache: path.join(root, 'cache'),
    bus: path.join(root, 'bus'),
    workspace: path.join(root, 'workspace'),
  };
  for (const key of ['runtime', 'data', 'config', 'cache', 'bus', 'workspace'])
    fs.mkdirSync(dirs[key], { mode: 0o700 });
  return dirs;
}

// The environment Tabwright runs in for a test: only the temporary XDG
// directories, the private bus and the compiled schemas of the build tree.
export function appEnv(dirs, busAddress, extra = {}) {
  const env = {
    ...process.env,
    XDG_RUNTIME_DIR: dirs.runtime,
    XDG_DATA_HOME: dirs.data,
    XDG_CONFIG_HOME: dirs.config,
    XDG_CACHE_HOME: dirs.cache,
    GSETTINGS_BACKEND: 'memory',
    // The accessibility bus socket is named after the display, so apps on
    // separate session buses but one virtual display would race for it.
    // The web processes do without it too (see webkit_test_vars in
    // tests/meson.build).
    GTK_A11Y: 'none',
    NO_AT_BRIDGE: '1',
    WEBKIT_A11Y_BUS_ADDRESS: '',
    ...extra,
  };
  if (busAddress)
    env.DBUS_SESSION_BUS_ADDRESS = busAddress;
  return env;
}

function sameFile(a, b) {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return false;
  }
}

function findRuntimeFile(runtimeDir, workspace) {
  const dir = path.join(runtimeDir, 'tabwright');
  let names;
  try {
    names = fs.readdirSync(dir);
  } catch {
    return null;
  }
  for (const name of names) {
    if (!name.endsWith('.json'))
      continue;
    const file = path.join(dir, name);
    let info;
    try {
      info = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      // Half written: the next poll reads it whole.
      continue;
    }
    if (info && info.url && info.token && typeof info.workspace === 'string' && sameFile(info.workspace, workspace))
      return { file, info };
  }
  return null;
}

// Starts `tabwright --workspace <tmp> --mcp-port 0` and resolves when its
// runtime file is written:
//   { url, token, info, runtimeFile, dirs, env, pid, log(), stop() }
// @wrap is a command the app and its bus run under, e.g. setpriv to run them
// as another user.
export async function startTabwright({ args = [], env = {}, dirs = null, wrap = [] } = {}) {
  const bin = process.env.TABWRIGHT_BIN;
  if (!bin)
    throw new Error('TABWRIGHT_BIN is not set');

  dirs ??= makeAppDirs();
  const state = { log: '' };
  const { daemon, address } = await startSessionBus(dirs.bus, state, wrap);
  const appArgs = ['--workspace', dirs.workspace, '--mcp-port', '0', ...args];
  const childEnv = appEnv(dirs, address, env);
  const child = wrap.length > 0
    ? spawn(wrap[0], [...wrap.slice(1), bin, ...appArgs], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    : spawn(bin, appArgs, { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.leadsGroup = true;
  liveChildren.add(child);
  child.on('exit', () => liveChildren.delete(child));
  child.stdout.on('data', (chunk) => appendLog(state, chunk));
  child.stderr.on('data', (chunk) => appendLog(state, chunk));
  const dropLogSource = addLogSource(`tabwright (pid ${child.pid})`, () => state.log);

  // Stops the app with SIGTERM, as a session ending would, and checks that
  // it exits cleanly: a crash or a hang on the way out fails the test run.
  let stopped = null;
  let quitByTest = false;
  const stop = () => {
    stopped ??= (async () => {
      const diedEarly = !quitByTest && (child.exitCode !== null || child.signalCode !== null);
      await stopChild(child, 15000);
      const outlived = await reapGroup(child);
      await stopChild(daemon);
      dropLogSource();
      const clean = !diedEarly && child.exitCode === 0;
      if (!clean) {
        const how = diedEarly ? 'died during the test'
          : child.signalCode ? `was killed by ${child.signalCode} on SIGTERM` : `exited with status ${child.exitCode} on SIGTERM`;
        process.stderr.write(`tabwright ${how}; its output:\n${state.log}\n`);
        process.exitCode = 1;
      }
      if (outlived > 0)
        process.stderr.write(`processes tabwright started were still running ${outlived} ms after it exited, and were killed\n`);
      try {
        fs.rmSync(dirs.root, { recursive: true, force: true });
      } catch (error) {
        process.stderr.write(`cannot remove ${dirs.root}: ${error.message}\n`);
        process.exitCode = 1;
      }
      return { clean, exitCode: child.exitCode, signal: child.signalCode };
    })();
    return stopped;
  };

  const deadline = Date.now() + START_TIMEOUT_MS;
  let found = null;
  let spawnError = null;
  child.on('error', (error) => {
    spawnError = error;
  });
  while (!found) {
    if (spawnError) {
      await stop();
      throw new Error(`cannot start ${bin}: ${spawnError.message}`);
    }
    if (child.exitCode !== null || child.signalCode !== null) {
      const status = child.exitCode ?? child.signalCode;
      await stop();
      throw new Error(`tabwright exited (${status}) before writing its runtime file:\n${state.log}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`tabwright wrote no runtime file in ${START_TIMEOUT_MS} ms:\n${state.log}`);
    }
    found = findRuntimeFile(dirs.runtime, dirs.workspace);
    if (!found)
      await sleep(50);
  }

  return {
    url: found.info.url,
    token: found.info.token,
    info: found.info,
    runtimeFile: found.file,
    dirs,
    env: childEnv,
    pid: child.pid,
    child,
    log: () => state.log,
    // A test that makes the app quit itself says so first, so stop() does
    // not take the exit for a death during the test.
    expectQuit: () => { quitByTest = true; },
    stop,
  };
}

// Runs a command to completion with a time limit; resolves with
// { code, signal, stdout, stderr }.
export async function run(command, args, { env = process.env, timeoutMs = 60000, cwd } = {}) {
  const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  liveChildren.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk) => { stderr += chunk.toString(); });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  try {
    const [code, signal] = await once(child, 'close');
    return { code, signal, stdout, stderr };
  } finally {
    clearTimeout(timer);
    liveChildren.delete(child);
  }
}

// Calls the org.gtk.Actions method @method (Activate, SetState) with @args
// on the first window of @app over D-Bus, as a script or the person's
// keyboard would reach the window's actions.
export async function windowAction(app, method, ...args) {
  const result = await run('gdbus', ['call', '--session', '--dest', 'io.github.tabwright.Tabwright',
    '--object-path', '/io/github/tabwright/Tabwright/window/1', '--method', `org.gtk.Actions.${method}`, ...args],
  { env: app.env, timeoutMs: 20000 });
  assert.equal(result.code, 0, `gdbus: ${result.stderr}`);
}
