// SPDX-License-Identifier: GPL-3.0-or-later
//
// Agents launched by Tabwright itself (--launch-agent): each runs in the
// workspace with an MCP endpoint and a token of its own, passed only through
// its environment, its flags and generated files. The stand-in agents in
// fixtures/agents/ use the official MCP SDK; the test checks that their
// calls are attributed to them, that their tokens stop working when they
// exit, and that the presets hand each CLI its endpoint its own way.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { initializeStatus, shellQuote, waitFor as waitForAgent } from './lib/agents.mjs';
import { startFixtureServer } from './lib/fixture-server.mjs';
import { callOk, connectClient } from './lib/mcp.mjs';
import { appEnv, makeAppDirs, requirementOptions, run, srcdir, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();
const AGENTS = path.join(srcdir, 'tests', 'e2e', 'fixtures', 'agents');
const WAIT_MS = 60000;

// The stand-in agents start in seconds: a minute is plenty.
function waitFor(what, check, app) {
  return waitForAgent(what, check, app, WAIT_MS);
}

function command(...words) {
  return words.map(shellQuote).join(' ');
}

function readReport(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

async function waitForReport(file, app) {
  const report = await waitFor(`the agent's report ${path.basename(file)}`, () => readReport(file), app);
  assert.equal(report.ok, true, `the agent failed: ${report.error}`);
  return report;
}

test('launched agents browse with tokens of their own, attributed to them, refused once they exit', options, async () => {
  const fixtures = await startFixtureServer();
  const dirs = makeAppDirs('tabwright-e2e-agents-');
  const envReport = path.join(dirs.root, 'agent-env.json');
  const configReport = path.join(dirs.root, 'agent-config.json');
  const first = fixtures.url('/page?title=Agent%20One');
  const second = fixtures.url('/page?title=Agent%20Two');
  const third = fixtures.url('/page?title=Agent%20Three');
  let app;
  let client;

  try {
    app = await startTabwright({
      dirs,
      args: [
        '--launch-agent', `custom:${command('node', path.join(AGENTS, 'agent-env.mjs'), envReport, first, second)}`,
        '--launch-agent', `custom:${command('node', path.join(AGENTS, 'agent-config.mjs'), configReport, third)}`,
      ],
    });

    const byEnv = await waitForReport(envReport, app);
    const byConfig = await waitForReport(configReport, app);

    // The environment agent: the endpoint, a token that is not the
    // workspace's, and the workspace folder to work in.
    assert.equal(byEnv.url, app.url);
    assert.notEqual(byEnv.token, app.token, 'an agent does not get the workspace token');
    assert.ok(byEnv.token.length >= 32, 'the token is long enough to be a secret');
    assert.equal(fs.realpathSync(byEnv.cwd), fs.realpathSync(dirs.workspace), 'the agent runs in the workspace');
    assert.equal(byEnv.opened.title, 'Agent One');
    assert.equal(byEnv.navigated.title, 'Agent Two');
    assert.equal(byEnv.owner, 'Custom Command #1', 'list_tabs shows the agent as the owner of its tab');

    // The config-file agent: a private file, in the Claude Code shape.
    assert.equal(byConfig.type, 'http');
    assert.equal(byConfig.url, app.url);
    assert.equal(byConfig.mode, 0o600, 'the MCP config file is readable by the user only');
    assert.ok(byConfig.configFile.startsWith(path.join(dirs.runtime, 'tabwright', 'agents') + path.sep),
      `the config file lives in the runtime dir: ${byConfig.configFile}`);
    assert.notEqual(byConfig.token, byEnv.token, 'every agent has its own token');
    assert.notEqual(byConfig.token, app.token);
    assert.equal(byConfig.owner, 'Custom Command #2');

    // The person's view (an external client on the workspace token) says
    // who drives which tab.
    client = await connectClient(app, 'e2e-observer');
    const { data } = await callOk(client, 'browser_list_tabs');
    const owners = Object.fromEntries(data.tabs.map((tab) => [tab.browserId, tab.owner]));
    assert.equal(owners[byEnv.browserId], 'Custom Command #1');
    assert.equal(owners[byConfig.browserId], 'Custom Command #2');
    const tab = data.tabs.find((t) => t.browserId === byEnv.browserId);
    assert.equal(tab.title, 'Agent Two');

    // Both agents exited: their tokens die with them, the config file goes.
    await waitFor('the first agent\'s token to be refused', async () => (await initializeStatus(app.url, byEnv.token)) === 401, app);
    await waitFor('the second agent\'s token to be refused', async () => (await initializeStatus(app.url, byConfig.token)) === 401, app);
    await waitFor('the config file to be removed', () => !fs.existsSync(byConfig.configFile), app);
    assert.equal(await initializeStatus(app.url, app.token), 200, 'the workspace token still works');
  } finally {
    await client?.close().catch(() => {});
    await app?.stop();
    await fixtures.close();
  }
});

test('each preset hands its agent the endpoint through that agent\'s own flags, environment or files', options, async () => {
  const dirs = makeAppDirs('tabwright-e2e-presets-');
  const bin = path.join(dirs.root, 'bin');
  const reports = path.join(dirs.root, 'reports');
  const agents = ['claude', 'codex', 'gemini', 'opencode', 'copilot', 'qwen'];
  let app;

  fs.mkdirSync(bin);
  fs.mkdirSync(reports);
  // The Gemini CLI extension as the person installs it once, with the
  // command --print-mcp-config prints (e2e-clis runs that command).
  const home = path.join(dirs.root, 'home');
  fs.mkdirSync(path.join(home, '.gemini', 'extensions', 'tabwright'), { recursive: true });
  fs.writeFileSync(path.join(home, '.gemini', 'extensions', 'tabwright', 'gemini-extension.json'), JSON.stringify({
    name: 'tabwright',
    version: '1.0.0',
    mcpServers: { tabwright: { httpUrl: '${TABWRIGHT_MCP_URL}', headers: { Authorization: 'Bearer ${TABWRIGHT_MCP_TOKEN}' } } },
  }));
  // Stand-ins named like the real CLIs, found in PATH as they would be.
  for (const agent of agents) {
    const wrapper = path.join(bin, agent);
    fs.writeFileSync(wrapper, `#!/bin/sh\nexec node ${shellQuote(path.join(AGENTS, 'fake-agent.mjs'))} ${agent} "$@"\n`);
    fs.chmodSync(wrapper, 0o755);
  }

  try {
    app = await startTabwright({
      dirs,
      env: { HOME: home, PATH: `${bin}${path.delimiter}${process.env.PATH}`, FAKE_AGENT_REPORTS: reports },
      args: agents.flatMap((agent) => ['--launch-agent', agent]),
    });

    const report = {};
    for (const agent of agents)
      report[agent] = await waitForReport(path.join(reports, `${agent}.json`), app);
    const agentsDir = path.join(dirs.runtime, 'tabwright', 'agents') + path.sep;

    // Every agent reached the server with what its preset gave it.
    for (const agent of agents) {
      assert.equal(report[agent].url, app.url, `${agent} found the endpoint`);
      assert.ok(Array.isArray(report[agent].tabs), `${agent} could list tabs`);
    }

    assert.deepEqual(report.claude.args.slice(0, 1), ['--mcp-config']);
    assert.equal(report.claude.found.type, 'http');
    assert.ok(report.claude.found.configFile.startsWith(agentsDir), report.claude.found.configFile);

    assert.deepEqual(report.codex.args, [
      '-c', `mcp_servers.tabwright.url="${app.url}"`,
      '-c', 'mcp_servers.tabwright.bearer_token_env_var="TABWRIGHT_MCP_TOKEN"',
    ]);
    assert.ok(!report.codex.args.join(' ').includes(app.token), 'no token on the command line');

    // Gemini CLI: only its environment; the extension names no token.
    assert.deepEqual(report.gemini.args, []);
    assert.ok(report.gemini.found.extensionFile.startsWith(home), report.gemini.found.extensionFile);
    assert.equal(report.gemini.found.holdsToken, false);

    assert.deepEqual(report.opencode.args, []);
    assert.equal(report.opencode.found.type, 'remote');
    assert.equal(report.opencode.found.enabled, true);

    // Copilot CLI and Qwen Code: a private config file through their own
    // flags, in each CLI's shape.
    assert.equal(report.copilot.args[0], '--additional-mcp-config');
    assert.equal(report.copilot.found.type, 'http');
    assert.deepEqual(report.copilot.found.tools, ['*']);
    assert.ok(report.copilot.found.configFile.startsWith(agentsDir), report.copilot.found.configFile);
    assert.equal(report.qwen.args[0], '--mcp-config');
    assert.ok(report.qwen.found.configFile.startsWith(agentsDir), report.qwen.found.configFile);
    for (const agent of ['copilot', 'qwen'])
      assert.equal(report[agent].found.mode, 0o600, `${agent}'s config file is the user's alone`);

    // The files made for them go when they exit.
    for (const file of [report.claude.found.configFile, report.copilot.found.configFile, report.qwen.found.configFile])
      await waitFor(`${file} to be removed`, () => !fs.existsSync(file), app);
  } finally {
    await app?.stop();
  }
});

test('--launch-agent with an unknown preset fails before any window opens', options, async () => {
  const dirs = makeAppDirs('tabwright-e2e-launch-');
  try {
    const result = await run('dbus-run-session', ['--', process.env.TABWRIGHT_BIN,
      '--workspace', dirs.workspace, '--launch-agent', 'cluade'], { env: appEnv(dirs, null), timeoutMs: 60000 });
    assert.equal(result.code, 1, `exit status: ${result.stderr}`);
    assert.match(result.stderr, /--launch-agent: There is no agent preset “cluade” \(known: claude, codex, gemini, opencode, copilot, qwen, custom\)/);

    const missing = await run('dbus-run-session', ['--', process.env.TABWRIGHT_BIN,
      '--workspace', dirs.workspace, '--launch-agent', 'custom'], { env: appEnv(dirs, null), timeoutMs: 60000 });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Custom Command needs a command, as in custom:COMMAND/);
  } finally {
    fs.rmSync(dirs.root, { recursive: true, force: true });
  }
});
