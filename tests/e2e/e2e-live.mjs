// SPDX-License-Identifier: GPL-3.0-or-later
//
// A tab an agent drives in the background is a live page: the page itself
// records what it sees (visibility, animation frames, scroll and resize
// events, observers, transitions) while another tab is on screen.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { callOk, connectClient, evaluateIn, openTab, refIn, resultText, snapshotIn } from './lib/mcp.mjs';
import { startSession } from './lib/session.mjs';
import { makeAppDirs, requirementOptions, startTabwright } from './lib/tabwright.mjs';
import { expectEvent } from './lib/wait.mjs';

const options = requirementOptions();
let session;
let fixtures;
let client;
let background;

const evaluate = (browserId, fn) => evaluateIn(client, browserId, fn);

before(async () => {
  if (options.skip)
    return;
  session = await startSession();
  ({ fixtures, client } = session);

  // The first tab is the one on screen; the agent's next tab opens behind it.
  await callOk(client, 'browser_new_tab', { url: fixtures.url('/page?title=Front') });
  ({ data: { browserId: background } } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/live.html') }));
});

after(async () => {
  await session?.close();
});

test('a background tab is a visible page and gets animation frames', options, async () => {
  assert.equal(await evaluate(background, '() => document.visibilityState'), 'visible');
  assert.deepEqual(await evaluate(background, '() => window.live.visibility'), ['visible'],
    'the page was never hidden');
  const frames = await evaluate(background, `async () => {
    const start = window.live.frames;
    return (await window.waitFor(() => window.live.frames >= start + 10 && window.live.frames)) - start;
  }`);
  assert.ok(frames >= 10, `the page ran ten animation frames in the background (got ${frames})`);
});

test('the page of a background tab has its on-screen size', options, async () => {
  const size = await evaluate(background, '() => [innerWidth, innerHeight]');
  assert.ok(size[0] > 200 && size[1] > 200, `the viewport is a real size: ${size}`);
});

test('scrolling a background tab fires scroll events and intersection callbacks', options, async () => {
  await callOk(client, 'browser_scroll', { browserId: background, deltaX: 0, deltaY: 1400 });
  const seen = await evaluate(background, `async () => {
    await window.waitFor(() => window.live.scrolls > 0 && window.live.sentinelSeen);
    return { scrollY, scrolls: window.live.scrolls, sentinelSeen: window.live.sentinelSeen,
             intersections: window.live.intersections };
  }`);
  assert.ok(seen.scrollY > 0, `the page scrolled: ${JSON.stringify(seen)}`);
  assert.ok(seen.scrolls > 0, `the page's scroll listener ran: ${JSON.stringify(seen)}`);
  assert.ok(seen.intersections >= 2, `the IntersectionObserver called back on the way: ${JSON.stringify(seen)}`);
  assert.equal(seen.sentinelSeen, true, 'the sentinel came into view');
});

test('resizing a background tab fires resize events and ResizeObserver callbacks', options, async () => {
  const before = await evaluate(background, '() => ({ ...window.live })');
  const { data } = await callOk(client, 'browser_resize', { browserId: background, width: 390, height: 844 });
  assert.equal(data.innerWidth, 390);
  // The result comes once the page has seen the change, not only once it
  // has the new size.
  const now = await evaluate(background, '() => ({ ...window.live })');
  assert.ok(now.resizes > before.resizes, `the resize listener had run when browser_resize answered: ${JSON.stringify(now)}`);
  const seen = await evaluate(background, `async () => {
    await window.waitFor(() => window.live.resizes > ${before.resizes} &&
                               window.live.resizeObserved > ${before.resizeObserved});
    return { innerWidth, resizes: window.live.resizes, resizeObserved: window.live.resizeObserved };
  }`);
  assert.equal(seen.innerWidth, 390);
  assert.ok(seen.resizes > before.resizes, `the page's resize listener ran: ${JSON.stringify(seen)}`);
  assert.ok(seen.resizeObserved > before.resizeObserved, `the ResizeObserver called back: ${JSON.stringify(seen)}`);
});

test('a CSS transition in a background tab runs to its transitionend', options, async () => {
  const ends = await evaluate(background, `async () => {
    const box = document.getElementById('box');
    // Let a frame pass with the start style, so the change transitions.
    getComputedStyle(box).width;
    await new Promise((resolve) => requestAnimationFrame(resolve));
    box.classList.add('wide');
    return window.waitFor(() => window.live.transitionEnds);
  }`);
  assert.equal(ends, 1, 'transitionend fired once');
  assert.equal(await evaluate(background, '() => getComputedStyle(document.getElementById("box")).width'), '300px');
});

test('an alert a timer opens between two calls is reported by the next call and listed by browser_logs', options, async () => {
  // A second tab of the same origin starts the timer and sees, through
  // local storage, when the alert has come and gone, without a call on the
  // first tab.
  const { data: { browserId: watcher } } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/live.html?watcher') });
  await evaluate(watcher, '() => { localStorage.removeItem("alerted"); localStorage.removeItem("fire"); }');

  // The timer is armed only when the watcher says so, after the call that
  // set it up has returned, so the alert opens between calls.
  const { data: armed } = await callOk(client, 'browser_evaluate', { browserId: background, function: `() => {
    addEventListener('storage', (event) => {
      if (event.key === 'fire')
        setTimeout(() => { alert('Timer says hi'); localStorage.setItem('alerted', 'yes'); }, 50);
    });
    return 'armed';
  }` });
  assert.equal(armed.result, 'armed');
  assert.equal(armed.dialogs, undefined, 'no dialog opened during the call that set the timer');

  assert.equal(await evaluate(watcher, `async () => {
    localStorage.setItem('fire', 'now');
    return window.waitFor(() => localStorage.getItem('alerted'));
  }`), 'yes', 'the alert was answered while no call ran on its tab');

  const { data: next, text } = await callOk(client, 'browser_evaluate', { browserId: background, function: '() => 1 + 1' });
  assert.equal(next.result, 2);
  assert.deepEqual(next.dialogs, [{ type: 'alert', message: 'Timer says hi', accepted: true }], 'the next call reports the alert');
  assert.match(text, /Timer says hi/, 'the result text mentions it');
  const { data: again } = await callOk(client, 'browser_evaluate', { browserId: background, function: '() => 3' });
  assert.equal(again.dialogs, undefined, 'a dialog is reported once');

  const { data: logs } = await callOk(client, 'browser_logs', { browserId: background });
  assert.ok(logs.entries.some((entry) => entry.type === 'note' && /alert dialog: “Timer says hi”; Tabwright accepted it/.test(entry.text)),
    `browser_logs lists the alert: ${JSON.stringify(logs.entries.filter((entry) => entry.type === 'note'))}`);
});

const snapshot = (browserId) => snapshotIn(client, browserId);

const openBehind = (page) => openTab(client, fixtures.url(`/live/${page}`));

test('an infinite list in a background tab loads more when the agent scrolls to its end', options, async () => {
  const id = await openBehind('infinite.html');
  let text = await snapshot(id);
  assert.match(text, /listitem @e\d+: Post 20$/m, `the first posts are there:\n${text}`);
  assert.doesNotMatch(text, /Post 21$/m);

  // The list's IntersectionObserver sees its sentinel come into view and
  // asks for more, as it would on screen.
  await callOk(client, 'browser_scroll', { browserId: id, deltaX: 0, deltaY: 5000 });
  const { text: waited } = await callOk(client, 'browser_wait', { browserId: id, text: 'Post 40', timeoutMs: 10000 });
  assert.doesNotMatch(waited, /^Error/, waited);
  text = await snapshot(id);
  assert.match(text, /listitem @e\d+: Post 40$/m, `the next posts loaded:\n${text}`);
  assert.match(text, /status @e\d+: (40|60) posts loaded/);
  assert.ok(await evaluate(id, '() => window.loads') >= 2, 'the page loaded a second batch');
});

test('a layout that swaps its navigation on resize does so in a background tab', options, async () => {
  const id = await openBehind('responsive.html');
  let text = await snapshot(id);
  assert.match(text, /link "Pricing"/, `wide, the page shows its links:\n${text}`);
  assert.doesNotMatch(text, /button "Menu"/);

  // The result of browser_resize comes after the page has run its resize
  // listener: the next snapshot already shows the narrow layout.
  await callOk(client, 'browser_resize', { browserId: id, width: 390, height: 844 });
  text = await snapshot(id);
  assert.match(text, /button "Menu"/, `narrow, the page shows a menu button:\n${text}`);
  assert.doesNotMatch(text, /link "Pricing"/);

  await callOk(client, 'browser_resize', { browserId: id, width: 1024, height: 768 });
  text = await snapshot(id);
  assert.match(text, /link "Pricing"/, `wide again, the links are back:\n${text}`);
  const swaps = await evaluate(id, '() => window.swaps');
  assert.deepEqual(swaps.slice(1), ['narrow 390', 'wide 1024'], `the page swapped twice: ${JSON.stringify(swaps)}`);
});

test('a popover that positions itself in an animation frame opens in a background tab', options, async () => {
  const id = await openBehind('popover.html');
  let text = await snapshot(id);
  assert.doesNotMatch(text, /menuitem/, `the closed popover is not shown:\n${text}`);

  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'button "Share"') });
  text = await snapshot(id);
  assert.match(text, /menuitem "Copy link"/, `the popover opened:\n${text}`);

  // It sits under the button, where the page put it, and takes the click.
  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'menuitem "Copy link"') });
  assert.deepEqual(await evaluate(id, '() => window.log'), ['positioned', 'chose Copy link']);
  const placed = await evaluate(id, `() => {
    const button = document.getElementById('open').getBoundingClientRect();
    const pop = document.getElementById('pop').getBoundingClientRect();
    return Math.round(pop.top - button.bottom);
  }`);
  assert.equal(placed, 4, 'the popover was placed under the button');
});

// Starts Tabwright on a workspace and data folder that outlive it.
function launchOn(persist) {
  const dirs = makeAppDirs();
  dirs.workspace = path.join(persist, 'workspace');
  // The cache is kept too: web processes may still write to it while the
  // app that started them is being cleaned up.
  return startTabwright({ dirs, env: { XDG_DATA_HOME: path.join(persist, 'data'), XDG_CACHE_HOME: path.join(persist, 'cache') } });
}

test('a tab restored from the last session lists its page at once and loads it when first used', options, async () => {
  const persist = fs.mkdtempSync(path.join(os.tmpdir(), 'tabwright-e2e-live-'));
  for (const dir of ['workspace', 'data', 'cache'])
    fs.mkdirSync(path.join(persist, dir), { mode: 0o700 });
  try {
    // A first launch makes the workspace's data folder; the session it
    // leaves is replaced by one whose titles differ from the pages'.
    const first = await launchOn(persist);
    const workspaceId = first.info.workspaceId;
    assert.ok((await first.stop()).clean, 'tabwright exits cleanly');
    const asleep = fixtures.url('/page?title=Asleep');
    const shown = fixtures.url('/page?title=Shown');
    fs.writeFileSync(path.join(persist, 'data', 'tabwright', 'workspaces', workspaceId, 'session.json'),
      JSON.stringify({ version: 1, tabs: [{ url: asleep, title: 'Saved one' }, { url: shown, title: 'Saved two' }] }),
      { mode: 0o600 });

    const restored = await launchOn(persist);
    const agent = await connectClient(restored);
    try {
      // The person's last tab comes to the front and loads; the one behind
      // it loads nothing until it is used, yet lists its page.
      const { data: listed } = await callOk(agent, 'browser_list_tabs');
      assert.deepEqual(listed.tabs.map((tab) => tab.url), [asleep, shown], 'the restored tabs list their address');
      assert.equal(listed.tabs[0].title, 'Saved one', 'the tab behind lists the title it had');
      assert.equal(listed.tabs[0].loading, false, 'the tab behind loads nothing yet');

      // An agent's first call makes it live, and sees the page.
      const behind = listed.tabs[0].browserId;
      const { data: page } = await callOk(agent, 'browser_evaluate', { browserId: behind,
        function: '() => [document.title, document.visibilityState, location.href]' });
      assert.deepEqual(page.result, ['Asleep', 'visible', asleep], 'the first call ran in the restored page');
      const snapshot = await agent.callTool({ name: 'browser_snapshot', arguments: { browserId: behind } });
      assert.match(resultText(snapshot), /heading "Asleep"/);
      const { data: after } = await callOk(agent, 'browser_list_tabs');
      assert.equal(after.tabs[0].title, 'Asleep', 'the tab lists its page\'s own title once loaded');
    } finally {
      await agent.close().catch(() => {});
      assert.ok((await restored.stop()).clean, 'tabwright exits cleanly');
    }
  } finally {
    fs.rmSync(persist, { recursive: true, force: true, maxRetries: 10 });
  }
});

// A page that tells the server each time it is hidden or shown, and whose
// button answers only on a visible page that gets animation frames.
const RESTING_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Resting</title></head><body>
<button id="go" type="button">Go</button><p id="out">not clicked</p>
<script>
  window.states = [document.visibilityState];
  document.addEventListener('visibilitychange', () => {
    window.states.push(document.visibilityState);
    fetch('/seen?state=' + document.visibilityState);
  });
  document.getElementById('go').addEventListener('click', () => {
    const state = document.visibilityState;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      document.getElementById('out').textContent = 'framed while ' + state;
    }));
  });
</script></body></html>`;

test('a background tab left alone rests, and wakes live before the next command runs on it', options, async () => {
  let hidden = [expectEvent('the resting tab to be hidden')];
  let shown = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (url.pathname === '/seen') {
      if (url.searchParams.get('state') === 'hidden')
        hidden[hidden.length - 1].happened(true);
      else
        shown++;
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(url.pathname === '/resting' ? RESTING_PAGE : '<!doctype html><title>Front</title><h1>Front</h1>');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  // A tab rests 300 ms after its last command rather than 30 s.
  const app = await startTabwright({ env: { TABWRIGHT_TAB_REST_MS: '300' } });
  const agent = await connectClient(app);
  try {
    await callOk(agent, 'browser_new_tab', { url: `${base}/front` });
    const { data: { browserId } } = await callOk(agent, 'browser_new_tab', { url: `${base}/resting` });

    // Left alone behind the tab on screen, the page is hidden.
    await hidden[0].wait();

    // The next command finds it visible again, and has seen it change.
    hidden.push(expectEvent('the tab to rest a second time'));
    const { data: first } = await callOk(agent, 'browser_evaluate', { browserId, function: '() => [document.visibilityState, window.states]' });
    assert.equal(first.result[0], 'visible', 'the command ran on a visible page');
    assert.deepEqual(first.result[1], ['visible', 'hidden', 'visible'], 'the page rested and woke before the command');
    const text = resultText(await agent.callTool({ name: 'browser_snapshot', arguments: { browserId } }));

    // Resting again, a click whose handler needs animation frames still
    // does what it does on screen.
    await hidden[1].wait();
    await callOk(agent, 'browser_click', { browserId, ref: refIn(text, 'button "Go"') });
    const { data: after } = await callOk(agent, 'browser_evaluate', { browserId,
      function: `async () => {
        await new Promise((resolve) => {
          const check = () => (document.getElementById('out').textContent !== 'not clicked' ? resolve() : requestAnimationFrame(check));
          check();
        });
        return [document.getElementById('out').textContent, window.states];
      }` });
    assert.equal(after.result[0], 'framed while visible', 'the click ran on a visible page that got animation frames');
    assert.deepEqual(after.result[1], ['visible', 'hidden', 'visible', 'hidden', 'visible'], 'it rested twice and woke each time');
    assert.ok(shown >= 2, `the page told the server it was shown again: ${shown}`);
  } finally {
    await agent.close().catch(() => {});
    assert.ok((await app.stop()).clean, 'tabwright exits cleanly');
    await new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); });
  }
});
