// SPDX-License-Identifier: GPL-3.0-or-later
//
// `meson install` gives a working app. The build is installed into a
// temporary DESTDIR (the build directory is only read), the schemas are
// compiled there as gnome.post_install does at a real install (meson skips
// it under DESTDIR), and the installed `tabwright` then runs from that
// staging tree without any hint from the build: no GSETTINGS_SCHEMA_DIR, no
// TABWRIGHT_WEB_EXTENSION_DIR, nothing of the build tree. It must find its
// schema, its resources and its web-process extension relative to its own
// binary. The MCP SDK client then opens a tab on a local page, reads it,
// and reads a console message that only the web-process extension reports.
// The installed `tabwright-mcp --help` runs too.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { startFixtureServer } from './lib/fixture-server.mjs';
import { callOk, connectClient, resultText } from './lib/mcp.mjs';
import { requirementOptions, run, skipOrFail, srcdir, startTabwright } from './lib/tabwright.mjs';
import { waitUntil } from './lib/wait.mjs';

const APP_ID = 'io.github.tabwright.Tabwright';
const buildRoot = process.env.TABWRIGHT_BUILD_ROOT;
const prefix = process.env.TABWRIGHT_PREFIX;
const meson = process.env.MESON ?? 'meson';

function installOptions() {
  const base = requirementOptions();
  if (base.skip)
    return base;
  if (!buildRoot || !prefix)
    return skipOrFail('TABWRIGHT_BUILD_ROOT and TABWRIGHT_PREFIX are not set (run through meson test)');
  return {};
}

const options = installOptions();
let destdir;
let installed;
let fixtures;

before(async () => {
  if (options.skip)
    return;
  fixtures = await startFixtureServer();
  destdir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabwright-e2e-install-'));
  installed = path.join(destdir, prefix);
});

after(async () => {
  await fixtures?.close();
  if (destdir)
    fs.rmSync(destdir, { recursive: true, force: true });
});

function findFiles(dir, predicate, found = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory())
      findFiles(file, predicate, found);
    else if (predicate(file))
      found.push(file);
  }
  return found;
}

// Only what was installed, and only the system's own folders.
function installedEnv() {
  const env = { ...process.env };
  for (const name of ['GSETTINGS_SCHEMA_DIR', 'TABWRIGHT_WEB_EXTENSION_DIR', 'LD_LIBRARY_PATH'])
    delete env[name];
  env.XDG_DATA_DIRS = '/usr/share';
  return env;
}

test('meson install puts every part in the prefix', options, async () => {
  const { code, stdout, stderr } = await run(meson, ['install', '-C', buildRoot, '--no-rebuild', '--destdir', destdir],
    { timeoutMs: 120000 });
  assert.equal(code, 0, `meson install failed:\n${stdout}\n${stderr}`);

  for (const file of [
    'bin/tabwright',
    'bin/tabwright-mcp',
    `share/applications/${APP_ID}.desktop`,
    `share/metainfo/${APP_ID}.metainfo.xml`,
    `share/icons/hicolor/scalable/apps/${APP_ID}.svg`,
    `share/icons/hicolor/symbolic/apps/${APP_ID}-symbolic.svg`,
    `share/glib-2.0/schemas/${APP_ID}.gschema.xml`,
  ])
    assert.ok(fs.existsSync(path.join(installed, file)), `${file} is installed`);

  const extensions = findFiles(installed, (file) => file.endsWith('.so') && file.includes(`${path.sep}web-process-extensions${path.sep}`));
  assert.equal(extensions.length, 1, `one web-process extension is installed: ${extensions}`);
  assert.match(extensions[0], /\/tabwright\/web-process-extensions\/[^/]+\.so$/);

  // Every language in po/LINGUAS has its catalogue.
  const linguas = fs.readFileSync(path.join(srcdir, 'po', 'LINGUAS'), 'utf8')
    .split('\n').map((line) => line.replace(/#.*/, '').trim()).filter(Boolean);
  for (const lang of linguas)
    assert.ok(fs.existsSync(path.join(installed, 'share', 'locale', lang, 'LC_MESSAGES', 'tabwright.mo')),
      `the ${lang} translation is installed`);

  // What gnome.post_install does at a real install.
  const schemas = path.join(installed, 'share', 'glib-2.0', 'schemas');
  const compiled = await run('glib-compile-schemas', ['--strict', schemas]);
  assert.equal(compiled.code, 0, compiled.stderr);

  // UI files, style and the in-page runtime travel inside the binary.
  const listed = await run('gresource', ['list', path.join(installed, 'bin', 'tabwright')]);
  assert.equal(listed.code, 0, listed.stderr);
  for (const resource of [
    '/io/github/tabwright/Tabwright/runtime/snapshot.js',
    '/io/github/tabwright/Tabwright/ui/tw-window.ui',
    '/io/github/tabwright/Tabwright/ui/tw-preferences-dialog.ui',
    '/io/github/tabwright/Tabwright/gtk/help-overlay.ui',
    '/io/github/tabwright/Tabwright/style.css',
  ])
    assert.ok(listed.stdout.split('\n').includes(resource), `the binary carries ${resource}`);
});

test('the installed tabwright-mcp and tabwright --version run', options, async () => {
  const help = await run(path.join(installed, 'bin', 'tabwright-mcp'), ['--help'], { env: installedEnv() });
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /tabwright-mcp/);
  assert.match(help.stdout, /--workspace/);

  const version = await run(path.join(installed, 'bin', 'tabwright'), ['--version'], { env: installedEnv() });
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /^tabwright \d+\.\d+/);
});

test('the installed tabwright serves tabs with its own schema, resources and extension', options, async () => {
  const bin = path.join(installed, 'bin', 'tabwright');
  const saved = { bin: process.env.TABWRIGHT_BIN, schemas: process.env.GSETTINGS_SCHEMA_DIR };
  process.env.TABWRIGHT_BIN = bin;
  delete process.env.GSETTINGS_SCHEMA_DIR;
  delete process.env.TABWRIGHT_WEB_EXTENSION_DIR;

  let app;
  let client;
  try {
    app = await startTabwright({ env: { XDG_DATA_DIRS: '/usr/share' } });
    client = await connectClient(app, 'tabwright-e2e-install');

    const url = fixtures.url('/page?title=Installed');
    const { data: tab } = await callOk(client, 'browser_new_tab', { url });
    assert.equal(tab.url, url);
    assert.equal(tab.title, 'Installed');

    // The in-page runtime comes from the binary's resources.
    const snapshot = await client.callTool({ name: 'browser_snapshot', arguments: { browserId: tab.browserId } });
    assert.notEqual(snapshot.isError, true, resultText(snapshot));
    assert.match(resultText(snapshot), /heading "Installed"/);

    // Console messages reach browser_logs only through the web-process
    // extension, which the app found next to its binary.
    await callOk(client, 'browser_evaluate', {
      browserId: tab.browserId,
      function: '() => { console.log("hello from the installed app"); return 1; }',
    });
    let entries = [];
    await waitUntil('browser_logs to show the console message of the installed app', async () => {
      ({ data: { entries } } = await callOk(client, 'browser_logs', { browserId: tab.browserId }));
      return entries.some((entry) => entry.type === 'console' && entry.text.includes('hello from the installed app'));
    }, { detail: () => `${JSON.stringify(entries)}\n${app.log()}` });
    assert.doesNotMatch(app.log(), /web process extension folder .* does not exist/);
    assert.doesNotMatch(app.log(), /schema/i, 'no complaint about settings schemas');
  } finally {
    await client?.close().catch(() => {});
    if (app) {
      const { clean } = await app.stop();
      assert.ok(clean, 'the installed tabwright exits cleanly');
    }
    process.env.TABWRIGHT_BIN = saved.bin;
    if (saved.schemas !== undefined)
      process.env.GSETTINGS_SCHEMA_DIR = saved.schemas;
  }
});

test('without its schema the installed tabwright says so and exits', options, async () => {
  const schemas = path.join(installed, 'share', 'glib-2.0', 'schemas', 'gschemas.compiled');
  const moved = `${schemas}.moved`;
  fs.renameSync(schemas, moved);
  try {
    const env = installedEnv();
    const result = await run(path.join(installed, 'bin', 'tabwright'), ['--workspace', os.tmpdir()], { env, timeoutMs: 30000 });
    // A real install of the same app (system-wide, or at the configured
    // prefix) would be found instead.
    const systemSchema = ['/usr/share', path.join(prefix, 'share')]
      .some((dir) => fs.existsSync(path.join(dir, 'glib-2.0', 'schemas', `${APP_ID}.gschema.xml`)));
    if (!systemSchema) {
      assert.equal(result.code, 1, `exit status: ${result.stdout}\n${result.stderr}`);
      assert.match(result.stderr, /io\.github\.tabwright\.Tabwright is not installed/);
    }
  } finally {
    fs.renameSync(moved, schemas);
  }
});
