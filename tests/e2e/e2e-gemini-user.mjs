// SPDX-License-Identifier: GPL-3.0-or-later
//
// The Gemini preset for a normal user: Tabwright and the Gemini CLI it
// launches run as an unprivileged user (`nobody`, when the test runs as
// root, as CI does; otherwise the current user) with a HOME of its own and
// an XDG_RUNTIME_DIR of its own (mode 0700, owned by it), as on a desktop.
// The extension is installed the way a person without the app's window
// would, with `tabwright --install-gemini-extension`, the same writer as the
// app's Install button: it shows the file and writes it after a "y" on
// standard input, which this test types for the person. Then the app
// launches the Gemini preset, and the test checks that Gemini CLI loaded
// Tabwright's tools (the scripted model on 127.0.0.1 is offered them), calls
// them with a token of its own, attributed to it, and printed no "Skipping
// system settings file" warning.
//
// The preset's command is the CLI's non-interactive one (--skip-trust and
// --approval-mode yolo are the person's trust in the folder and permission
// for the tools: in -p mode Gemini CLI cannot ask), run by sh so that its
// output also goes to a log the test reads.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { agentProcess, initializeStatus, processUid, waitFor } from './lib/agents.mjs';
import { startFixtureServer } from './lib/fixture-server.mjs';
import { callOk, connectClient } from './lib/mcp.mjs';
import { BAD_REF, startModelServer } from './lib/model-server.mjs';
import { appEnv, makeAppDirs, requirementOptions, srcdir, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();
const BIN = path.join(srcdir, 'node_modules', '.bin');
const PROMPT = 'Open the draft page, click Save and check the result.';

// Who runs the app: nobody when we are root, else ourselves.
function unprivilegedUser() {
  if (process.getuid() !== 0)
    return { name: 'the current user', uid: process.getuid(), gid: process.getgid(), wrap: [] };
  let uid;
  let gid;
  try {
    uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim());
    gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }).trim());
  } catch (error) {
    assert.fail(`running as root, the test needs the unprivileged account nobody: ${error.message}`);
  }
  const wrap = ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'];
  // The app, its schemas and Gemini CLI are read from the build and source
  // trees, which the user must be able to reach.
  for (const file of [process.env.TABWRIGHT_BIN, path.join(BIN, 'gemini')]) {
    try {
      execFileSync(wrap[0], [...wrap.slice(1), 'test', '-x', file]);
    } catch {
      assert.fail(`nobody cannot run ${file}: the build and source trees must be readable by other users`);
    }
  }
  return { name: 'nobody', uid, gid, wrap };
}

function chownTree(dir, uid, gid) {
  fs.chownSync(dir, uid, gid);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory())
      chownTree(file, uid, gid);
    else
      fs.chownSync(file, uid, gid);
  }
}

// Runs `tabwright --install-gemini-extension` as the user, answering
// @answer on its standard input.
async function installExtension(user, env, answer) {
  const bin = process.env.TABWRIGHT_BIN;
  const argv = [...user.wrap, bin, '--install-gemini-extension'];
  const child = spawn(argv[0], argv.slice(1), { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk) => { stderr += chunk.toString(); });
  child.stdin.end(answer);
  const [code] = await once(child, 'close');
  return { code, stdout, stderr };
}

test('Gemini CLI launched by an unprivileged user\'s Tabwright loads its tools and calls them with its own token', options, async () => {
  const user = unprivilegedUser();
  const fixtures = await startFixtureServer();
  const model = await startModelServer({ pageUrl: fixtures.url('/save.html') });
  const dirs = makeAppDirs('tabwright-e2e-gemini-user-');
  const home = path.join(dirs.root, 'home');
  const log = path.join(home, 'gemini.log');
  let app;
  let client;

  try {
    // The user's own folders: HOME, and an XDG_RUNTIME_DIR that is theirs
    // alone, as logind makes it.
    fs.mkdirSync(home, { mode: 0o700 });
    fs.mkdirSync(path.join(home, '.gemini'), { mode: 0o700 });
    // The person's own Gemini CLI settings: an API key for the scripted
    // model, no update check.
    fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({
      security: { auth: { selectedType: 'gemini-api-key' } },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      privacy: { usageStatisticsEnabled: false },
    }));
    // The display's cookie, for a user who cannot read the root-only file
    // xvfb-run keeps it in.
    const extra = {};
    if (process.env.XAUTHORITY && user.wrap.length > 0) {
      const cookie = path.join(home, '.Xauthority');
      fs.copyFileSync(process.env.XAUTHORITY, cookie);
      fs.chmodSync(cookie, 0o600);
      extra.XAUTHORITY = cookie;
    }
    chownTree(dirs.root, user.uid, user.gid);
    fs.chmodSync(dirs.runtime, 0o700);
    const runtime = fs.statSync(dirs.runtime);
    assert.equal(runtime.uid, user.uid, 'the runtime folder is the user\'s');
    assert.equal(runtime.mode & 0o777, 0o700);

    const env = {
      HOME: home,
      PATH: `${BIN}${path.delimiter}${process.env.PATH}`,
      GEMINI_API_KEY: 'unused',
      GOOGLE_GEMINI_BASE_URL: model.url,
      GEMINI_CLI_NO_RELAUNCH: 'true',
      ...extra,
    };
    const userEnv = appEnv(dirs, null, env);
    delete userEnv.GEMINI_CLI_HOME;

    // Without a yes, nothing is written.
    const extensionFile = path.join(home, '.gemini', 'extensions', 'tabwright', 'gemini-extension.json');
    const declined = await installExtension(user, userEnv, 'n\n');
    assert.equal(declined.code, 1, declined.stdout + declined.stderr);
    assert.ok(declined.stdout.includes(extensionFile), declined.stdout);
    assert.match(declined.stdout, /Nothing was written/);
    assert.equal(fs.existsSync(extensionFile), false);

    // The test answers y for the person: the extension is the user's file.
    const installed = await installExtension(user, userEnv, 'y\n');
    assert.equal(installed.code, 0, installed.stdout + installed.stderr);
    assert.match(installed.stdout, /"httpUrl":"\$\{TABWRIGHT_MCP_URL\}"/);
    assert.equal(fs.statSync(extensionFile).uid, user.uid);
    const again = await installExtension(user, userEnv, '');
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /installed and up to date; nothing was written/);

    const command = `sh -c '{ gemini --skip-trust --approval-mode yolo -p "${PROMPT}"; echo "gemini exited: $?"; } 2>&1 | tee "$HOME/gemini.log"'`;
    app = await startTabwright({ dirs, env, wrap: user.wrap, args: ['--launch-agent', `gemini:${command}`] });
    assert.equal(processUid(app.pid), user.uid, `Tabwright runs as ${user.name}`);

    // Gemini CLI asks the model with Tabwright's tools, or ends without.
    const exited = () => fs.existsSync(log) && /^gemini exited: \d+$/m.test(fs.readFileSync(log, 'utf8'));
    await waitFor('Gemini CLI to ask the model with the browser tools', () => model.state.waiting || exited(), app);
    assert.ok(model.state.waiting, `Gemini CLI listed no Tabwright tools; it printed:\n${fs.readFileSync(log, 'utf8')}`);
    const tabwrightTools = model.state.offered.filter((name) => name.startsWith('mcp_tabwright_browser_'));
    assert.ok(tabwrightTools.includes('mcp_tabwright_browser_snapshot'), `offered: ${model.state.offered.join(', ')}`);

    const agent = agentProcess(app.url);
    assert.ok(agent, 'Gemini CLI runs with TABWRIGHT_MCP_TOKEN');
    assert.equal(agent.uid, user.uid, `Gemini CLI runs as ${user.name}`);
    assert.notEqual(agent.token, app.token, 'Gemini CLI has a token of its own, not the workspace token');
    assert.equal(await initializeStatus(app.url, agent.token), 200, 'its token works while it runs');
    model.release();

    await waitFor('Gemini CLI to finish the script', () => model.state.finished, app);
    await waitFor('Gemini CLI to exit', exited, app);
    const printed = fs.readFileSync(log, 'utf8');
    assert.doesNotMatch(printed, /Skipping system settings file/, printed);
    assert.doesNotMatch(printed, /Security Warning/, printed);
    assert.match(printed, /^gemini exited: 0$/m, printed);

    // What the model saw: every step's result, the snapshot's ref, the
    // screenshot's image, the bad ref as an error.
    assert.deepEqual(model.state.failures, [], 'the model found what it needed in every result');
    const [opened, snapshot, clicked, shot, bad] = model.state.results;
    assert.equal(model.state.results.length, 5, JSON.stringify(model.state.results));
    assert.match(opened.text, /^browserId: b\d+$/m, opened.text);
    assert.match(snapshot.text, /^- button "Save" @e\d+$/m, snapshot.text);
    assert.match(clicked.text, /Saved draft/, clicked.text);
    assert.equal(shot.images.length, 1, JSON.stringify(shot));
    assert.ok(bad.text.includes('Error: browser_stale_ref — ') && bad.text.includes(BAD_REF), bad.text);

    // The calls were Gemini CLI's: its tab, one click on the page.
    client = await connectClient(app, 'e2e-observer');
    const { data } = await callOk(client, 'browser_list_tabs');
    const tab = data.tabs.find((t) => t.title === 'Saved draft');
    assert.ok(tab, `the tab shows the saved draft: ${JSON.stringify(data.tabs)}`);
    assert.match(tab.owner ?? '', /^Gemini CLI #1$/, 'the tab is attributed to Gemini CLI');
    const { data: saves } = await callOk(client, 'browser_evaluate', { browserId: tab.browserId, function: '() => window.saves' });
    assert.equal(saves.result, 1, 'the page recorded exactly one click on Save');

    // Its token died with it.
    await waitFor('the token to be refused', async () => (await initializeStatus(app.url, agent.token)) === 401, app);
  } finally {
    model.release();
    await client?.close().catch(() => {});
    if (app)
      await app.stop();
    else
      fs.rmSync(dirs.root, { recursive: true, force: true });
    await model.close();
    await fixtures.close();
  }
});
