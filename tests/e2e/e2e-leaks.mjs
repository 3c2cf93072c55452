// SPDX-License-Identifier: GPL-3.0-or-later
//
// Closing tabs gives everything back: a real Tabwright opens, reads and
// closes tabs one after the other and in a burst, through the official MCP
// SDK client and over short-lived HTTP connections, and then its open file
// descriptors, its web processes and its memory come back to where they
// were before, measured from outside through /proc.

import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';

import { callOk, openTab, resultText } from './lib/mcp.mjs';
import { appFds, measureFamily, pss, tabwrightKind } from './lib/processes.mjs';
import { RawSession } from './lib/raw-http.mjs';
import { startSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';
import { waitUntil } from './lib/wait.mjs';

const options = requirementOptions();
let session;

// Descriptors: a few may come and go with the app's own work (a timer, a
// file being read); the ones the app holds for WebKit's sandbox D-Bus
// proxies are counted apart (see appFds()). Memory: what GTK and WebKit
// keep after a first tab (fonts, glyphs, styles) is in the baseline, taken
// once a first tab has closed; on top of that, 30 MB leaves room for the
// noise of a loaded machine (PSS moves by a few MB as shared pages change
// hands), while a leak of 1.5 MB a tab over 24 tabs runs past it. The
// memory is checked after tabs opened one at a time: the app keeps, after
// they close, heap in proportion to the most tabs it had open at once
// (measured: about 9 MB a tab, in use, not free), which the burst shows.
const FD_SLACK = 10;
const MEMORY_SLACK_MB = 30;
const ROUNDS = 24;
const BURST = 5;
const SETTLE_MS = 60000;

before(async () => {
  if (options.skip)
    return;
  session = await startSession();
});

after(async () => {
  await session?.close();
});

function state(app) {
  const family = measureFamily(app.pid, tabwrightKind);
  return {
    web: family.web?.processes ?? 0,
    fds: appFds(app.pid),
    appMb: pss(app.pid) / 1024,
  };
}

async function openRead(client, url) {
  const browserId = await openTab(client, url);
  const snapshot = await client.callTool({ name: 'browser_snapshot', arguments: { browserId } });
  assert.notEqual(snapshot.isError, true, resultText(snapshot));
  return browserId;
}

test('closing tabs gives back descriptors, web processes and memory', options, async () => {
  const { app, client, fixtures } = session;
  const url = fixtures.url('/one.html');

  // What a first tab sets up once for all (WebKit's memory monitor, the
  // spare web process, caches) belongs to the baseline.
  await callOk(client, 'browser_close_tab', { browserId: await openRead(client, url) });
  let base = null;
  await waitUntil('the app to settle after a first tab', () => {
    const now = state(app);
    const settled = base && now.web === base.web && now.fds.own === base.fds.own;
    base = now;
    return settled;
  }, { intervalMs: 1000 });

  // One after the other, as an agent does; some over connections of their
  // own that the client closes after one call; then a burst.
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 1) {
      // Over a kept-alive connection of its own, which the client closes
      // once done, as clients do when they end or have been idle a while.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const raw = new RawSession(app.url, app.token, agent);
      await raw.initialize();
      const call = async (name, args) => {
        const reply = await raw.send('tools/call', { name, arguments: args });
        assert.equal(reply.json?.result?.isError, undefined, `${name}: ${reply.text}`);
        return reply.json.result;
      };
      const { browserId } = (await call('browser_new_tab', { url })).structuredContent;
      await call('browser_snapshot', { browserId });
      await call('browser_close_tab', { browserId });
      agent.destroy();
    } else {
      await callOk(client, 'browser_close_tab', { browserId: await openRead(client, url) });
    }
  }
  let last = null;
  await waitUntil('the app to give back what tabs opened one at a time took', () => {
    last = state(app);
    return last.web <= base.web &&
      last.fds.own <= base.fds.own + FD_SLACK &&
      last.appMb <= base.appMb + MEMORY_SLACK_MB;
  }, {
    timeoutMs: SETTLE_MS,
    intervalMs: 500,
    detail: () => `before: ${JSON.stringify(base)}\nafter ${ROUNDS} tabs: ${JSON.stringify(last)}`,
  });
  process.stderr.write(`e2e-leaks: before ${JSON.stringify(base)}; after ${ROUNDS} tabs ${JSON.stringify(last)}\n`);

  const burst = [];
  for (let i = 0; i < BURST; i++)
    burst.push(await openRead(client, url));
  const open = state(app);
  assert.ok(open.web >= base.web + BURST, `${BURST} open tabs have web processes of their own (${open.web} against ${base.web})`);
  for (const browserId of burst)
    await callOk(client, 'browser_close_tab', { browserId });

  await waitUntil('the app to give back the descriptors and web processes of a burst', () => {
    last = state(app);
    return last.web <= base.web && last.fds.own <= base.fds.own + FD_SLACK;
  }, {
    timeoutMs: SETTLE_MS,
    intervalMs: 500,
    detail: () => `before: ${JSON.stringify(base)}\nafter ${BURST} more at once: ${JSON.stringify(last)}`,
  });
  process.stderr.write(`e2e-leaks: after ${BURST} more open at once ${JSON.stringify(last)}\n`);
});
