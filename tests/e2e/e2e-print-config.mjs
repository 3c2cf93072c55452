// SPDX-License-Identifier: GPL-3.0-or-later
//
// `tabwright --print-mcp-config` tells a person how to connect an agent:
// with the app running, the URL and token of its runtime file and the
// Claude Code, Codex, OpenCode, Gemini CLI, Copilot CLI and Qwen Code
// snippets (e2e-clis and e2e-clis-more run them); without it, exit status 1
// and the stdio bridge form, which works once the app is started.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { appEnv, makeAppDirs, requirementOptions, run, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();
let app;

before(async () => {
  if (options.skip)
    return;
  app = await startTabwright();
});

after(async () => {
  await app?.stop();
});

test('the runtime file is private and describes the running app', options, async () => {
  const mode = fs.statSync(app.runtimeFile).mode & 0o777;
  assert.equal(mode, 0o600, `runtime file mode is 0600, not ${mode.toString(8)}`);
  const dirMode = fs.statSync(path.dirname(app.runtimeFile)).mode & 0o077;
  assert.equal(dirMode, 0, 'the runtime folder is not readable by others');

  const info = app.info;
  assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  assert.ok(typeof info.token === 'string' && info.token.length >= 32, 'the token is long');
  assert.equal(fs.realpathSync(info.workspace), fs.realpathSync(app.dirs.workspace));
  assert.equal(info.pid, app.pid);
  assert.equal(`${info.workspaceId}.json`, path.basename(app.runtimeFile));
});

test('--print-mcp-config prints the running app\'s URL, token and agent snippets', options, async () => {
  const { code, stdout, stderr } = await run(process.env.TABWRIGHT_BIN,
    ['--print-mcp-config', '--workspace', app.dirs.workspace], { env: app.env, timeoutMs: 30000 });
  assert.equal(code, 0, `exit status 0:\n${stdout}\n${stderr}`);
  assert.ok(stdout.includes(app.url), `prints the URL:\n${stdout}`);
  assert.ok(stdout.includes(app.token), `prints the token:\n${stdout}`);
  assert.match(stdout, /claude/i, 'a Claude Code snippet');
  assert.match(stdout, /codex/i, 'a Codex snippet');
  assert.ok(stdout.includes('mcp_servers'), `the Codex snippet configures mcp_servers:\n${stdout}`);
  assert.ok(stdout.includes('tabwright-mcp'), `the stdio bridge form:\n${stdout}`);

  // OpenCode's command adds the server for that run only; its JSON points
  // at the app with the token.
  const opencode = stdout.match(/^OPENCODE_CONFIG_CONTENT='(\{.*\})' opencode$/m);
  assert.ok(opencode, `an OpenCode command:\n${stdout}`);
  assert.deepEqual(JSON.parse(opencode[1]).mcp.tabwright,
    { type: 'remote', url: app.url, headers: { Authorization: `Bearer ${app.token}` }, enabled: true });

  // Gemini CLI's: the extension installed once, which names no token, then
  // the URL and token in the environment.
  const gemini = stdout.split('\n\n').find((section) => section.startsWith('# Gemini CLI\n'));
  assert.ok(gemini, `a Gemini CLI section:\n${stdout}`);
  const [, install, exported, start] = gemini.split('\n');
  const extension = install.match(/^mkdir -p ~\/\.gemini\/extensions\/tabwright && printf '%s\\n' '(\{.*\})' > ~\/\.gemini\/extensions\/tabwright\/gemini-extension\.json$/);
  assert.ok(extension, `the extension's install command: ${install}`);
  assert.deepEqual(JSON.parse(extension[1]).mcpServers.tabwright,
    { httpUrl: '${TABWRIGHT_MCP_URL}', headers: { Authorization: 'Bearer ${TABWRIGHT_MCP_TOKEN}' } });
  assert.equal(exported, `export TABWRIGHT_MCP_URL=${app.url} TABWRIGHT_MCP_TOKEN=${app.token}`);
  assert.equal(start, 'gemini');

  // Copilot CLI's and Qwen Code's commands add the server for that session
  // only, each in its own CLI's shape.
  const copilot = stdout.match(/^copilot --additional-mcp-config '(\{.*\})'$/m);
  assert.ok(copilot, `a Copilot CLI command:\n${stdout}`);
  assert.deepEqual(JSON.parse(copilot[1]).mcpServers.tabwright,
    { type: 'http', url: app.url, headers: { Authorization: `Bearer ${app.token}` }, tools: ['*'] });
  const qwen = stdout.match(/^qwen --mcp-config '(\{.*\})'$/m);
  assert.ok(qwen, `a Qwen Code command:\n${stdout}`);
  assert.deepEqual(JSON.parse(qwen[1]).mcpServers.tabwright,
    { httpUrl: app.url, headers: { Authorization: `Bearer ${app.token}` } });

  // Every JSON object printed for Claude Code must parse and point at the app.
  const configs = [...stdout.matchAll(/--mcp-config '(\{.*\})'/g)].map((m) => JSON.parse(m[1]));
  assert.ok(configs.length > 0, `a Claude Code --mcp-config:\n${stdout}`);
  for (const config of configs) {
    const servers = Object.values(config.mcpServers ?? {});
    assert.ok(servers.length > 0, `an mcpServers entry: ${JSON.stringify(config)}`);
  }
});

test('--print-mcp-config without a running app exits 1 and prints the stdio bridge', options, async () => {
  const dirs = makeAppDirs('tabwright-e2e-noapp-');
  try {
    const { code, stdout, stderr } = await run(process.env.TABWRIGHT_BIN,
      ['--print-mcp-config', '--workspace', dirs.workspace], { env: appEnv(dirs, null), timeoutMs: 30000 });
    const output = `${stdout}\n${stderr}`;
    assert.equal(code, 1, `exit status 1:\n${output}`);
    assert.ok(output.includes('tabwright-mcp'), `prints the stdio bridge form:\n${output}`);
    assert.ok(!output.includes(app.token), 'never prints another workspace\'s token');
  } finally {
    fs.rmSync(dirs.root, { recursive: true, force: true });
  }
});
