// SPDX-License-Identifier: GPL-3.0-or-later
//
// A tab an agent drives in the background is a live page: the page itself
// records what it sees (visibility, animation frames, scroll and resize
// events, observers, transitions) while another tab is on screen.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { startFixtureServer } from './lib/fixture-server.mjs';
import { callOk, connectClient } from './lib/mcp.mjs';
import { requirementOptions, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();
let app;
let fixtures;
let client;
let background;

async function evaluate(browserId, fn) {
  const { data } = await callOk(client, 'browser_evaluate', { browserId, function: fn });
  return data.result;
}

before(async () => {
  if (options.skip)
    return;
  fixtures = await startFixtureServer();
  app = await startTabwright();
  client = await connectClient(app);

  // The first tab is the one on screen; the agent's next tab opens behind it.
  await callOk(client, 'browser_new_tab', { url: fixtures.url('/page?title=Front') });
  ({ data: { browserId: background } } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/live.html') }));
});

after(async () => {
  await client?.close().catch(() => {});
  await app?.stop();
  await fixtures?.close();
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

