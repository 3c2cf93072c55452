// SPDX-License-Identifier: GPL-3.0-or-later
//
// One overview of the workspace (issue 32), read the way a person's
// assistive technology reads it: through AT-SPI. Three agents the app
// launched, each with a token of its own, open tabs through real MCP SDK
// clients, and the person's own client opens one; one agent's step waits
// for the person's OK. The overview then shows every tab under its agent's
// name, what each agent does now, and the tab that waits for the person;
// choosing a tab's card brings that tab forward.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

import { accessibilityOptions, act, nodes, readTree, shownTexts, startAccessibilityBus } from './lib/accessible.mjs';
import { readToken, tokenAgent, waitFor, writePresets } from './lib/agents.mjs';
import { startFixtureServer } from './lib/fixture-server.mjs';
import { callOk, connectClient, resultText } from './lib/mcp.mjs';
import { makeAppDirs, requirementOptions, startTabwright, windowAction } from './lib/tabwright.mjs';
import { expectEvent, waitUntil } from './lib/wait.mjs';

const options = requirementOptions();
const a11yOptions = options.skip ? options : await accessibilityOptions();

// What the overview shows, as an assistive technology reads it: its groups
// (named after their agents, described by what the agent does now) and in
// each the cards of its tabs ("Show tab b3: Title"), with the texts shown
// on each card. Null while the overview is not on screen.
function readOverview(tree) {
  const overview = nodes(tree).find(({ node }) => node.name === 'Overview' && node.states.includes('visible'))?.node;
  if (!overview)
    return null;
  const groups = new Map();
  for (const { node, ancestors } of nodes(overview)) {
    const card = /^Show tab (b\d+): (.*)$/.exec(node.name);
    if (node.role !== 'push button' || !card)
      continue;
    const group = ancestors.findLast((a) => a !== overview && a.name && a.role !== 'push button' && a.children.length > 0 &&
      nodes(a).some(({ node: n }) => n.role === 'label' && n.name === a.name));
    assert.ok(group, `the card ${node.name} is in a group named after its agent`);
    if (!groups.has(group.name))
      groups.set(group.name, { doing: group.description, texts: shownTexts(group), cards: [] });
    groups.get(group.name).cards.push({
      browserId: card[1],
      title: card[2],
      state: node.description,
      texts: shownTexts(node),
    });
  }
  return groups;
}

// What the test never reads, left out of the tree so reading it stays
// quick: the tab strips, the tabs' pages, the activity feed and the agents'
// terminals (GTK 4.8 names an unlabelled element after its type).
const SKIP = ['AdwTabBar', 'TwTabDeck', 'TwActivityFeed', 'TwAgentPane'];

// Which tab the window shows: the address bar holds its address.
function shownAddress(tree) {
  const entry = nodes(tree).find(({ node }) => (node.role === 'entry' || node.role === 'text') &&
    /^https?:/.test(node.text ?? ''));
  return entry?.node.text ?? null;
}

test('the overview shows every tab with its agent, what each agent does and which tab waits for the person', a11yOptions, async () => {
  const fixtures = await startFixtureServer();
  const dirs = makeAppDirs('tabwright-e2e-overview-');
  const bus = await startAccessibilityBus();
  const files = ['first', 'second', 'guarded'].map((name) => path.join(dirs.root, `${name}.token`));
  const clients = [];
  let app;
  let waiting;

  try {
    writePresets(dirs, [{ id: 'guarded', name: 'Guarded', needsCommand: true, approve: ['browser_evaluate'], approvalTimeoutSeconds: 600 }]);
    app = await startTabwright({
      dirs,
      env: bus.env,
      args: ['--launch-agent', tokenAgent(files[0], 'custom'), '--launch-agent', tokenAgent(files[1], 'custom'),
        '--launch-agent', tokenAgent(files[2], 'guarded')],
    });
    const agents = [
      { name: 'Custom Command #1', token: await waitFor('the first agent\'s token', () => readToken(files[0]), app, 60000) },
      { name: 'Custom Command #2', token: await waitFor('the second agent\'s token', () => readToken(files[1]), app, 60000) },
      { name: 'Guarded #1', token: await waitFor('the third agent\'s token', () => readToken(files[2]), app, 60000) },
    ];
    for (const agent of agents) {
      agent.client = await connectClient({ ...app, token: agent.token }, `e2e-${agent.name}`);
      clients.push(agent.client);
    }
    const person = await connectClient(app, 'e2e-person');
    clients.push(person);

    // Each agent opens two tabs; the person opens one.
    for (const [i, agent] of agents.entries()) {
      agent.tabs = [];
      for (const n of [1, 2]) {
        const title = `Agent ${i + 1} tab ${n}`;
        const { data } = await callOk(agent.client, 'browser_new_tab', { url: fixtures.url(`/page?title=${encodeURIComponent(title)}`) });
        agent.tabs.push({ browserId: data.browserId, title, url: data.url });
      }
    }
    const { data: mine } = await callOk(person, 'browser_new_tab', { url: fixtures.url('/page?title=My%20page') });

    // What they do last: the first reads a page, the second goes to
    // another, the third asks to run a script and waits for the person.
    assert.match(resultText(await agents[0].client.callTool({ name: 'browser_snapshot', arguments: { browserId: agents[0].tabs[1].browserId } })), /^Page: Agent 1 tab 2/);
    const moved = fixtures.url('/page?title=Moved');
    await callOk(agents[1].client, 'browser_navigate', { browserId: agents[1].tabs[0].browserId, url: moved });
    agents[1].tabs[0] = { ...agents[1].tabs[0], title: 'Moved', url: moved };
    const asked = expectEvent('the script to wait for the person\'s OK', 60000);
    const guardedTab = agents[2].tabs[0].browserId;
    waiting = agents[2].client.request(
      { method: 'tools/call', params: { name: 'browser_evaluate', arguments: { browserId: guardedTab, function: '() => 1' } } },
      CallToolResultSchema, { onprogress: (p) => asked.happened(p), timeout: 600000 });
    await asked.wait();

    // The person opens the overview, as Ctrl+Shift+O does.
    await windowAction(app, 'SetState', 'overview', '<true>', '{}');
    let shown;
    await waitUntil('the overview to show seven tabs and what each agent does', async () => {
      const tree = await readTree(bus, app.pid, SKIP);
      shown = tree && readOverview(tree);
      return shown && [...shown.values()].reduce((n, g) => n + g.cards.length, 0) === 7 &&
        agents.every((agent) => shown.get(agent.name)?.doing.startsWith('Now: evaluate') ||
          shown.get(agent.name)?.doing.startsWith('Last: '));
    }, { timeoutMs: 60000, intervalMs: 300, detail: () => JSON.stringify(shown && [...shown], null, 1) });

    // Every tab, under its agent's name, its badge naming the agent.
    assert.deepEqual([...shown.keys()], [...agents.map((agent) => agent.name), 'Your Tabs']);
    for (const agent of agents) {
      const group = shown.get(agent.name);
      assert.deepEqual(group.cards.map((card) => card.browserId), agent.tabs.map((tab) => tab.browserId));
      for (const [i, card] of group.cards.entries()) {
        assert.equal(card.title, agent.tabs[i].title);
        assert.ok(card.texts.includes(agent.tabs[i].title), `the card shows its title: ${card.texts}`);
        assert.ok(card.texts.some((text) => text.startsWith(`${agent.name}, `)), `the card's badge names ${agent.name}: ${card.texts}`);
      }
      // What the agent does now, shown in its group's header.
      assert.ok(group.texts.includes(group.doing), `the header shows ${group.doing}: ${group.texts}`);
    }
    assert.deepEqual(shown.get('Your Tabs').cards.map((card) => card.browserId), [mine.browserId]);
    assert.match(shown.get('Custom Command #1').doing, new RegExp(`^Last: snapshot.* · ${agents[0].tabs[1].browserId}$`));
    assert.match(shown.get('Custom Command #2').doing, new RegExp(`^Last: navigate.* · ${agents[1].tabs[0].browserId}$`));
    assert.match(shown.get('Guarded #1').doing, new RegExp(`^Now: evaluate.* · ${guardedTab}$`));

    // The tab that waits for the person says so, and only that one.
    const cards = [...shown.values()].flatMap((group) => group.cards);
    const waitingCards = cards.filter((card) => card.state);
    assert.deepEqual(waitingCards.map((card) => card.browserId), [guardedTab]);
    assert.equal(waitingCards[0].state, 'Asks to run a script in the page');
    assert.ok(waitingCards[0].texts.includes('Asks to run a script in the page'), `shown on the card: ${waitingCards[0].texts}`);

    // Choosing a card brings its tab forward and leaves the overview.
    const before = shownAddress(await readTree(bus, app.pid, SKIP));
    const target = agents[1].tabs[1];
    assert.notEqual(before, target.url, 'another tab is shown before');
    await act(bus, app.pid, 'push button', `Show tab ${target.browserId}: ${target.title}`, 'click', SKIP);
    await waitUntil('the chosen tab to come forward', async () => {
      const tree = await readTree(bus, app.pid, SKIP);
      return readOverview(tree) === null && shownAddress(tree) === target.url;
    }, { timeoutMs: 30000, intervalMs: 200 });

    // The person denies the script; the call ends.
    await windowAction(app, 'Activate', 'answer-approval', `[<('${guardedTab}', 'deny', '')>]`, '{}');
    const denied = await waiting;
    assert.equal(denied.structuredContent?.error?.code, 'browser_denied');
  } finally {
    for (const client of clients)
      await client.close().catch(() => {});
    await app?.stop();
    await bus.stop();
    await fixtures.close();
  }
});
