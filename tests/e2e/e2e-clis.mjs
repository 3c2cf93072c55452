// SPDX-License-Identifier: GPL-3.0-or-later
//
// Real agent CLIs (the versions pinned in package.json), each launched from
// the app with its shipped preset (--launch-agent PRESET:COMMAND: the
// preset's own flags and environment, with the CLI's non-interactive
// command), talking to a scripted model on 127.0.0.1 (lib/model-server.mjs)
// instead of the vendor's API. The model opens a tab, reads it, clicks the
// button "Save" by the ref the snapshot gave, takes a screenshot and clicks
// a ref that does not exist. The test checks what the CLI sent back to the
// model, which is exactly what a model would see: the snapshot as text, the
// screenshot as an image, the error as an error. And that the CLI reached
// Tabwright with a token of its own, that its tab is attributed to it, and
// that its token is refused once it has exited.
//
// A last test runs the Codex, OpenCode and Gemini CLI commands that
// `tabwright --print-mcp-config` prints, as printed, against the same model
// (for Gemini CLI that includes installing its extension, once).
//
// Approvals: Codex asks the person before every MCP tool call that is not
// read-only, and `codex exec` cannot ask, so the test's Codex configuration
// (the person's own ~/.codex/config.toml, not the preset) approves the
// tabwright server's tools in advance. OpenCode allows MCP tools by default.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { AGENT_WAIT_MS, agentProcess, initializeStatus, waitFor } from './lib/agents.mjs';
import { startFixtureServer } from './lib/fixture-server.mjs';
import { callOk, connectClient } from './lib/mcp.mjs';
import { BAD_REF, startModelServer } from './lib/model-server.mjs';
import { makeAppDirs, requirementOptions, run, srcdir, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();
const BIN = path.join(srcdir, 'node_modules', '.bin');
const PROMPT = 'Open the draft page, click Save and check the result.';

// What the model got back from the CLI, step by step of its script.
function assertModelSaw(cli, state) {
  assert.deepEqual(state.failures, [], 'the model found what it needed in every result');
  const [opened, snapshot, clicked, shot, bad] = state.results;
  assert.equal(state.results.length, 5, JSON.stringify(state.results));

  // The browserId and the page reached the model, labelled or as JSON.
  assert.match(opened.text, cli.structured ? /"browserId":\s*"b\d+"/ : /^browserId: b\d+$/m, opened.text);
  // The snapshot is the tree as text, not escaped inside JSON.
  assert.match(snapshot.text, /^Page: Draft — /m, snapshot.text);
  assert.match(snapshot.text, /^- button "Save" @e\d+$/m, snapshot.text);
  assert.match(clicked.text, /Saved draft/, `the click result tells the new title: ${clicked.text}`);
  // The screenshot arrives as an image, with its description.
  assert.equal(shot.images.length, 1, `${cli.name} passes the screenshot image on: ${JSON.stringify(shot)}`);
  assert.equal(shot.images[0].mimeType, 'image/png');
  assert.ok(shot.images[0].bytes > 1000, 'the image has pixels');
  assert.match(shot.text, /^width: \d+$/m, shot.text);
  // The bad ref is a failure the model can read as one.
  assert.ok(bad.text.includes('browser_stale_ref'), bad.text);
  assert.ok(bad.text.includes(BAD_REF), bad.text);
  if (cli.assertError)
    cli.assertError(bad);
  else if (cli.structuredErrors)
    assert.match(bad.text, /"error":\s*\{\s*"code":\s*"browser_stale_ref"/, bad.text);
  else
    assert.match(bad.text, /^Error: browser_stale_ref — .*\nTake a new browser_snapshot/m, bad.text);
}

const CLIS = {
  codex: {
    name: 'Codex',
    command: `codex exec --skip-git-repo-check '${PROMPT}'`,
    // The person's own Codex configuration: a model provider (here the
    // scripted model) and tools of the tabwright server approved in advance.
    setup(home, model) {
      fs.mkdirSync(path.join(home, '.codex'), { recursive: true });
      fs.writeFileSync(path.join(home, '.codex', 'config.toml'), [
        'model = "scripted"',
        'model_provider = "scripted"',
        '[model_providers.scripted]',
        'name = "Scripted"',
        `base_url = "${model.url}/v1"`,
        'wire_api = "responses"',
        '[mcp_servers.tabwright]',
        'default_tools_approval_mode = "approve"',
        '',
      ].join('\n'));
      return {};
    },
    // Codex passes the model the JSON of structuredContent when there is
    // one, errors included.
    structured: true,
    structuredErrors: true,
  },
  opencode: {
    name: 'OpenCode',
    command: `opencode run '${PROMPT}'`,
    // The person's own OpenCode configuration: the scripted model as an
    // OpenAI-compatible provider that takes images.
    setup(home, model, dirs) {
      fs.mkdirSync(path.join(dirs.config, 'opencode'), { recursive: true });
      fs.writeFileSync(path.join(dirs.config, 'opencode', 'opencode.json'), JSON.stringify({
        model: 'scripted/scripted',
        provider: {
          scripted: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Scripted',
            options: { baseURL: `${model.url}/v1`, apiKey: 'unused' },
            models: { scripted: { name: 'Scripted', attachment: true, modalities: { input: ['text', 'image'], output: ['text'] } } },
          },
        },
      }));
      // No network here: no model list download, no update check.
      return { OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1' };
    },
    structured: false,
    structuredErrors: false,
  },
  gemini: {
    name: 'Gemini CLI',
    // --skip-trust and --approval-mode yolo are the person's trust in the
    // workspace folder and permission for the tools: in -p mode Gemini CLI
    // cannot ask.
    command: `gemini --skip-trust --approval-mode yolo -p '${PROMPT}'`,
    // The person's own Gemini CLI: an API key and the scripted model's
    // address, no update check. And, for the preset, the one-time install of
    // the tabwright extension the person consented to (the snippet test
    // runs the install command --print-mcp-config prints instead).
    setup(home, model, dirs, { installExtension = true } = {}) {
      fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
      fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
        privacy: { usageStatisticsEnabled: false },
      }));
      if (installExtension) {
        const dir = path.join(home, '.gemini', 'extensions', 'tabwright');
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'gemini-extension.json'), JSON.stringify({
          name: 'tabwright',
          version: '1.0.0',
          mcpServers: { tabwright: { httpUrl: '${TABWRIGHT_MCP_URL}', headers: { Authorization: 'Bearer ${TABWRIGHT_MCP_TOKEN}' } } },
        }));
      }
      return { GEMINI_API_KEY: 'unused', GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_CLI_NO_RELAUNCH: 'true' };
    },
    // Gemini CLI passes the model the text of a result, not its
    // structuredContent; a failed call reaches it as {"error": "MCP tool …
    // reported tool error … with response: <the whole result as JSON>"}, so
    // the error's text arrives inside that JSON string.
    structured: false,
    structuredErrors: false,
    assertError(bad) {
      const error = JSON.parse(bad.text).error;
      assert.match(error, /^MCP tool 'browser_click' reported tool error/, error);
      assert.ok(error.includes('"text":"Error: browser_stale_ref — '), error);
      assert.ok(error.includes('Take a new browser_snapshot'), error);
    },
    snippetSetup: { installExtension: false },
  },
  claude: {
    name: 'Claude Code',
    // --allowedTools is the person's permission for the tabwright server's
    // tools: `claude -p` cannot ask.
    command: `claude -p '${PROMPT}' --allowedTools mcp__tabwright`,
    setup(home, model) {
      return {
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: 'unused',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      };
    },
    // Claude Code shows structuredContent instead of the text on success,
    // and drops it on errors.
    structured: true,
    structuredErrors: false,
    snippet: false,
  },
};

for (const [preset, cli] of Object.entries(CLIS)) {
  test(`${cli.name} launched from the app sees a snapshot, a screenshot and an error as what they are`, options, async () => {
    const fixtures = await startFixtureServer();
    const model = await startModelServer({ pageUrl: fixtures.url('/save.html') });
    const dirs = makeAppDirs(`tabwright-e2e-${preset}-`);
    const home = path.join(dirs.root, 'home');
    fs.mkdirSync(home, { mode: 0o700 });
    let app;
    let client;

    try {
      const extra = cli.setup(home, model, dirs);
      app = await startTabwright({
        dirs,
        env: { HOME: home, PATH: `${BIN}${path.delimiter}${process.env.PATH}`, ...extra },
        args: ['--launch-agent', `${preset}:${cli.command}`],
      });

      // The CLI asks the model for its first step: it is running now.
      await waitFor(`${cli.name} to ask the model`, () => model.state.waiting, app);
      const token = agentProcess(app.url)?.token ?? null;
      assert.ok(token, `${cli.name} runs with TABWRIGHT_MCP_TOKEN`);
      assert.notEqual(token, app.token, 'the CLI has a token of its own, not the workspace token');
      assert.equal(await initializeStatus(app.url, token), 200, 'its token works while it runs');
      model.release();

      await waitFor(`${cli.name} to finish the script`, () => model.state.finished, app);
      assertModelSaw(cli, model.state);

      // The page saw one click; the tab is the CLI's.
      client = await connectClient(app, 'e2e-observer');
      const { data } = await callOk(client, 'browser_list_tabs');
      const tab = data.tabs.find((t) => t.title === 'Saved draft');
      assert.ok(tab, `the tab shows the saved draft: ${JSON.stringify(data.tabs)}`);
      assert.match(tab.owner ?? '', new RegExp(`^${cli.name} #\\d+$`), `the tab is attributed to ${cli.name}`);
      const { data: saves } = await callOk(client, 'browser_evaluate', { browserId: tab.browserId, function: '() => window.saves' });
      assert.equal(saves.result, 1, 'the page recorded exactly one click on Save');

      // The CLI exits after its answer; its token dies with it.
      await waitFor(`${cli.name}'s token to be refused`, async () => (await initializeStatus(app.url, token)) === 401, app);
    } finally {
      model.release();
      await client?.close().catch(() => {});
      await app?.stop();
      await model.close();
      await fixtures.close();
    }
  });
}

// The sections of --print-mcp-config: "# Name" then the snippet.
function printedSnippets(stdout) {
  const snippets = {};
  for (const section of stdout.split('\n\n')) {
    const [title, ...lines] = section.split('\n');
    if (title.startsWith('# '))
      snippets[title.slice(2)] = lines.join('\n');
  }
  return snippets;
}

test('the Codex, OpenCode and Gemini CLI commands that --print-mcp-config prints work as printed', options, async () => {
  const fixtures = await startFixtureServer();
  const dirs = makeAppDirs('tabwright-e2e-snippets-');
  const home = path.join(dirs.root, 'home');
  fs.mkdirSync(home, { mode: 0o700 });
  let app;
  const models = [];

  try {
    app = await startTabwright({ dirs });
    const printed = await run(process.env.TABWRIGHT_BIN, ['--print-mcp-config', '--workspace', dirs.workspace],
      { env: app.env, timeoutMs: 30000 });
    assert.equal(printed.code, 0, printed.stderr);
    const snippets = printedSnippets(printed.stdout);

    for (const cli of Object.values(CLIS).filter((c) => c.snippet !== false)) {
      const snippet = snippets[cli.name];
      assert.ok(snippet, `--print-mcp-config prints a ${cli.name} snippet:\n${printed.stdout}`);
      const model = await startModelServer({ pageUrl: fixtures.url('/save.html') });
      models.push(model);
      model.release();
      const extra = cli.setup(home, model, dirs, cli.snippetSetup);
      // The snippet as printed, with the CLI's non-interactive command and
      // the prompt after it, run by a shell in the workspace.
      const words = cli.command.split(' ').slice(1).join(' ');
      const env = { ...app.env, HOME: home, PWD: dirs.workspace, PATH: `${BIN}${path.delimiter}${process.env.PATH}`, ...extra };
      delete env.TABWRIGHT_MCP_TOKEN;
      const result = await run('sh', ['-c', `${snippet} ${words}`], { env, cwd: dirs.workspace, timeoutMs: AGENT_WAIT_MS });
      assert.equal(result.code, 0, `${cli.name} ran: ${result.stdout}\n${result.stderr}`);
      assert.ok(model.state.finished, `${cli.name} went through the script: ${result.stdout}\n${result.stderr}`);
      assertModelSaw(cli, model.state);
    }
  } finally {
    await app?.stop();
    for (const model of models)
      await model.close();
    await fixtures.close();
  }
});
