// SPDX-License-Identifier: GPL-3.0-or-later
//
// Reading the app as a person's assistive technology does: an accessibility
// bus of the test's own (a dbus-daemon with AT-SPI's configuration and the
// AT-SPI registry on it), which the app is started on, and AT-SPI clients
// (accessible.py, through libatspi) that read its tree and act on it, as a
// screen reader would. A bus of its own per test, so tests that share a
// display never meet each other's apps.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { readBusAddress, run, skipOrFail, stopChild } from './tabwright.mjs';

const READER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'accessible.py');
const BUS_CONFIGS = ['/etc/at-spi2/accessibility.conf', '/usr/share/defaults/at-spi2/accessibility.conf'];
const REGISTRIES = ['/usr/libexec/at-spi2-registryd', '/usr/lib/at-spi2-core/at-spi2-registryd', '/usr/lib/at-spi2/at-spi2-registryd'];
// Debian's own Python has the GObject bindings; another one first on PATH
// may not.
const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

// A test that fails before it stops its bus leaves nothing running.
const liveChildren = new Set();
process.on('exit', () => {
  for (const child of liveChildren)
    child.kill('SIGKILL');
});

function track(child) {
  liveChildren.add(child);
  child.on('exit', () => liveChildren.delete(child));
  return child;
}

function firstExisting(paths) {
  return paths.find((p) => fs.existsSync(p)) ?? null;
}

// The options of node:test's test() for tests that read the app through
// AT-SPI: skipped (or failed, under TABWRIGHT_TEST_REQUIRE_ALL) when the
// machine lacks AT-SPI's bus, its registry or its Python bindings.
export async function accessibilityOptions() {
  if (!firstExisting(BUS_CONFIGS) || !firstExisting(REGISTRIES))
    return skipOrFail('AT-SPI is not installed (at-spi2-core)');
  const probe = await run(PYTHON, ['-c', 'import gi; gi.require_version("Atspi", "2.0")'], { timeoutMs: 20000 });
  if (probe.code !== 0)
    return skipOrFail('AT-SPI\'s Python bindings are missing (python3-gi, gir1.2-atspi-2.0)');
  return {};
}

// Starts an accessibility bus and its registry in a folder of their own;
// resolves with { address, env, stop() }. @env is what an app on it needs.
// Stop it after the app, which would otherwise lose the bus under it.
export async function startAccessibilityBus() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabwright-a11y-'));
  const daemon = track(spawn('dbus-daemon', [`--config-file=${firstExisting(BUS_CONFIGS)}`, '--nofork',
    '--nopidfile', '--print-address=1', `--address=unix:dir=${dir}`], { stdio: ['ignore', 'pipe', 'inherit'] }));
  const address = await readBusAddress(daemon, 'the accessibility bus');
  const env = { ...process.env, AT_SPI_BUS_ADDRESS: address };
  const registry = track(spawn(firstExisting(REGISTRIES), [], { env, stdio: ['ignore', 'ignore', 'inherit'] }));

  return {
    address,
    // GTK reads the bus from AT_SPI_BUS_ADDRESS before anything else.
    env: { AT_SPI_BUS_ADDRESS: address, GTK_A11Y: 'atspi' },
    stop: async () => {
      await stopChild(registry);
      await stopChild(daemon);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function reader(bus, args) {
  const result = await run(PYTHON, [READER, ...args], {
    env: { ...process.env, AT_SPI_BUS_ADDRESS: bus.address },
    timeoutMs: 180000,
  });
  return result;
}

// The accessible tree of the app of process @pid, or null while it is not
// on the bus yet: { role, name, description, text?, states, actions?, children },
// without the insides of the elements named in @skip.
export async function readTree(bus, pid, skip = []) {
  const result = await reader(bus, ['tree', String(pid), ...skip]);
  if (result.code === 2)
    return null;
  if (result.code !== 0)
    throw new Error(`reading the accessible tree failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout);
}

// Does @action ("click") on the first visible element of @role named
// @name in the app of process @pid, outside the elements named in @skip,
// as a screen reader's user would.
export async function act(bus, pid, role, name, action = 'click', skip = []) {
  const result = await reader(bus, ['act', String(pid), role, name, action, ...skip]);
  if (result.code !== 0)
    throw new Error(`cannot ${action} ${role} "${name}" (${result.code}): ${result.stderr}`);
}

// Every node of @tree, depth first, with its ancestors: [{ node, ancestors }].
export function nodes(tree) {
  const out = [];
  const visit = (node, ancestors) => {
    out.push({ node, ancestors });
    for (const child of node.children)
      visit(child, [...ancestors, node]);
  };
  if (tree)
    visit(tree, []);
  return out;
}

// The texts a person sees under @node: the names of labels and images.
export function shownTexts(node) {
  return nodes(node).map(({ node: n }) => n.text ?? n.name).filter((text) => text);
}
