// SPDX-License-Identifier: GPL-3.0-or-later
//
// What the tests of real agent CLIs against the scripted model share
// (e2e-clis, e2e-clis-more): each CLI launched from the app with its shipped
// preset, and each CLI started by a person with the snippet
// `tabwright --print-mcp-config` prints, both checked by what the model got
// back from the CLI, which is exactly what a real model would see.
//
// A CLI is described by an object:
//   name             the preset's name, also the --print-mcp-config section
//   command          the CLI's non-interactive command, prompt included
//   setup(home, model, dirs, options)
//                    writes the person's own configuration of the CLI (the
//                    scripted model as its model) and returns the variables
//                    to add to the environment
//   structured       the model sees the JSON of structuredContent
//   structuredErrors the model sees structuredContent of an error too
//   assertError(bad) checks the failed call's text, when the CLI wraps it
//   images           false when the CLI passes the model no screenshot image
//   defers           the CLI offers MCP tools only through its tool search
//   instructions     true when the CLI shows the model the instructions of
//                    the server's initialize result, false when it does not
//   snippet          false when the snippet test leaves the CLI out
//   snippetSetup     the options setup() gets in the snippet test

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { AGENT_WAIT_MS, agentProcess, initializeStatus, waitFor } from './agents.mjs';
import { startFixtureServer } from './fixture-server.mjs';
import { callOk, connectClient } from './mcp.mjs';
import { BAD_REF, startModelServer } from './model-server.mjs';
import { makeAppDirs, run, srcdir, startTabwright } from './tabwright.mjs';

export const BIN = path.join(srcdir, 'node_modules', '.bin');
export const PROMPT = 'Open the draft page, click Save and check the result.';

// Where the model's requests hold the server's @instructions, as sent, or
// with their lines run together or wrapped; null when they do not.
function instructionsIn(prompts, instructions) {
  const flat = (text) => text.replace(/\s+/g, ' ');
  const wanted = flat(instructions);
  return prompts.map(flat).find((prompt) => prompt.includes(wanted)) ?? null;
}

// Whether the CLI showed the model the server's instructions, as
// cli.instructions says it does or does not.
export function assertInstructions(cli, state, instructions) {
  assert.ok(instructions.includes('browser_snapshot'), `the server sends instructions: ${instructions}`);
  assert.ok(state.prompts.length > 0, `${cli.name} asked the model with Tabwright's tools`);
  const seen = instructionsIn(state.prompts, instructions) !== null;
  if (cli.instructions) {
    assert.ok(seen, `${cli.name} used to show the model the server's instructions and now does not: ` +
      `set instructions: false for it and move it in the README's table. Its first request: ${state.prompts[0].slice(0, 4000)}`);
  } else {
    assert.ok(!seen, `${cli.name} now shows the model the server's instructions: ` +
      'set instructions: true for it and move it in the README\'s table');
  }
}

// The search hints of @tools (tools/list's _meta "anthropic/searchHint")
// are for the CLI's tool search only: no CLI passes them to the model, so
// they cost it no context.
export function assertHintsUnseen(cli, state, tools) {
  // A hint that the tools' definitions hold anyway ("drag and drop") says
  // nothing.
  const definitions = JSON.stringify(tools.map(({ _meta, ...definition }) => definition));
  const hints = tools.map((tool) => tool._meta?.['anthropic/searchHint'])
    .filter((hint) => typeof hint === 'string' && !definitions.includes(hint));
  assert.ok(hints.length > 20, `the tools carry search hints: ${hints.join('; ')}`);
  const seen = hints.filter((hint) => state.prompts.some((prompt) => prompt.includes(hint)));
  assert.deepEqual(seen, [], `${cli.name} now shows the model the tools' search hints, which count against its context`);
}

// What the model got back from the CLI, step by step of its script, and
// whether it saw the server's @instructions and none of @tools' search hints.
export function assertModelSaw(cli, state, instructions, tools) {
  assert.deepEqual(state.failures, [], 'the model found what it needed in every result');
  assertInstructions(cli, state, instructions);
  assertHintsUnseen(cli, state, tools);
  const [opened, snapshot, clicked, shot, bad] = state.results;
  assert.equal(state.results.length, 5, JSON.stringify(state.results));

  // A CLI that defers MCP tools made the model search for them first; one
  // that offers them made it search for nothing.
  if (cli.defers) {
    assert.ok(state.searches.length > 0,
      `${cli.name} used to offer Tabwright's tools only through its tool search, and now offers them directly: ${state.offered.join(', ')}`);
  } else {
    assert.deepEqual(state.searches, [], `${cli.name} offered Tabwright's tools directly until now; it made the model search for them`);
  }

  // The browserId and the page reached the model, labelled or as JSON.
  assert.match(opened.text, cli.structured ? /"browserId":\s*"b\d+"/ : /^browserId: b\d+$/m, opened.text);
  // The snapshot is the tree as text, not escaped inside JSON.
  assert.match(snapshot.text, /^Page: Draft — /m, snapshot.text);
  assert.match(snapshot.text, /^- button "Save" @e\d+$/m, snapshot.text);
  assert.match(clicked.text, /Saved draft/, `the click result tells the new title: ${clicked.text}`);
  // The screenshot arrives as an image, with its description.
  if (cli.images === false) {
    assert.equal(shot.images.length, 0,
      `${cli.name} used to pass the model no screenshot image, and now does: expect it (images: true): ${JSON.stringify(shot.images)}`);
  } else {
    assert.equal(shot.images.length, 1, `${cli.name} passes the screenshot image on: ${JSON.stringify(shot)}`);
    assert.equal(shot.images[0].mimeType, 'image/png');
    assert.ok(shot.images[0].bytes > 1000, 'the image has pixels');
  }
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

// Launches @cli from the app with preset @preset and checks what its model
// saw, that it held a token of its own, that its tab is attributed to it,
// and that its token is refused once it has exited.
export async function runLaunchedFromApp(preset, cli) {
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
    client = await connectClient(app, 'e2e-observer');
    assertModelSaw(cli, model.state, client.getInstructions() ?? '', (await client.listTools()).tools);

    // The page saw one click; the tab is the CLI's.
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

// Runs the snippet --print-mcp-config prints for each of @clis, as printed,
// followed by the CLI's non-interactive arguments, in a shell in the
// workspace, and checks what each one's model saw.
export async function runPrintedSnippets(clis) {
  const fixtures = await startFixtureServer();
  const dirs = makeAppDirs('tabwright-e2e-snippets-');
  const home = path.join(dirs.root, 'home');
  fs.mkdirSync(home, { mode: 0o700 });
  let app;
  let client;
  const models = [];

  try {
    app = await startTabwright({ dirs });
    client = await connectClient(app, 'e2e-instructions');
    const instructions = client.getInstructions() ?? '';
    const { tools } = await client.listTools();
    const printed = await run(process.env.TABWRIGHT_BIN, ['--print-mcp-config', '--workspace', dirs.workspace],
      { env: app.env, timeoutMs: 30000 });
    assert.equal(printed.code, 0, printed.stderr);
    const snippets = printedSnippets(printed.stdout);

    for (const cli of clis.filter((c) => c.snippet !== false)) {
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
      assertModelSaw(cli, model.state, instructions, tools);
    }
  } finally {
    await client?.close().catch(() => {});
    await app?.stop();
    for (const model of models)
      await model.close();
    await fixtures.close();
  }
}

// The tests of a file of CLIs: each of @clis (preset name -> CLI) launched
// from the app, then the snippets --print-mcp-config prints for them all,
// whose names @names gives in the test's title; @options skip them.
export function testCLIs(clis, names, options) {
  for (const [preset, cli] of Object.entries(clis)) {
    test(`${cli.name} launched from the app sees a snapshot, a screenshot and an error as what they are`, options,
      () => runLaunchedFromApp(preset, cli));
  }

  test(`the ${names} commands that --print-mcp-config prints work as printed`, options,
    () => runPrintedSnippets(Object.values(clis)));
}
