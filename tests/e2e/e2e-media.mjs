// SPDX-License-Identifier: GPL-3.0-or-later
//
// Media emulation (issue 31) through the official MCP SDK client against a
// real Tabwright: browser_emulate's colorScheme, reducedMotion,
// forcedColors and media, as the page's CSS and matchMedia see them. The
// fixture page shows one sentence per answer from its own @media rules (in
// a <style>, a same-origin style sheet, a <link media="print"> and rules a
// script inserts), records what matchMedia said at first and every change
// event, and loads a style sheet of another origin without CORS, whose
// rules no page script can read: the result must say so.

import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';

import { listenAll } from './lib/fixture-server.mjs';
import { callError, callOk, evaluateIn, openTab, snapshotIn, textField } from './lib/mcp.mjs';
import { useSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();

let server;
let otherServer;
let origin;
let otherOrigin;

const THEME_CSS = `
@media (prefers-reduced-motion: reduce) { #motion-still { display: block } #motion-moving { display: none } }
@media (forced-colors: active) { #forced { display: block } }`;

const PRINT_CSS = '#print-sheet { display: block }';

function themePage(title) {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title>
<style>
  .answer { display: none }
  #light, #motion-moving, #screen { display: block }
  body { background-color: rgb(255, 255, 255) }
  @media (prefers-color-scheme: dark) {
    body { background-color: rgb(17, 17, 17) }
    #dark { display: block } #light { display: none }
  }
  @media print { #print { display: block } #screen { display: none } }
</style>
<link rel="stylesheet" href="/theme.css">
<link rel="stylesheet" href="/print.css" media="print">
<link rel="stylesheet" href="${otherOrigin}/other.css">
<script>
  window.firstAnswer = matchMedia('(prefers-color-scheme: dark)').matches;
  window.changes = [];
  const query = matchMedia('(prefers-color-scheme: dark)');
  query.addEventListener('change', (event) => window.changes.push(event.matches));
</script>
</head><body><h1>${title}</h1>
<p class="answer" id="dark">Dark theme</p><p class="answer" id="light">Light theme</p>
<p class="answer" id="motion-still">Motion reduced</p><p class="answer" id="motion-moving">Motion on</p>
<p class="answer" id="forced">Forced colours</p>
<p class="answer" id="print">Print layout</p><p class="answer" id="screen">Screen layout</p>
<p class="answer" id="print-sheet">Print sheet</p>
<p class="answer" id="inserted">Inserted dark rule</p>
<owl-card></owl-card>
<script>
  customElements.define('owl-card', class extends HTMLElement {
    connectedCallback() {
      this.attachShadow({ mode: 'open' }).innerHTML =
        '<style>p { display: none } @media (prefers-color-scheme: dark) { p { display: block } }</style><p>Shadow dark</p>';
    }
  });
  const sheet = document.head.appendChild(document.createElement('style')).sheet;
  sheet.insertRule('@media (prefers-color-scheme: dark) { #inserted { display: block } }');
</script>
</body></html>`;
}

async function startServers() {
  otherServer = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/css', 'Cache-Control': 'no-store' });
    res.end('@media (prefers-color-scheme: dark) { h1 { color: rgb(1, 2, 3) } }');
  });
  server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const css = { '/theme.css': THEME_CSS, '/print.css': PRINT_CSS }[url.pathname];
    if (css !== undefined) {
      res.writeHead(200, { 'Content-Type': 'text/css', 'Cache-Control': 'no-store' });
      res.end(css);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(themePage(url.searchParams.get('title') ?? 'Theme'));
  });
  const servers = await listenAll(otherServer, server);
  [otherOrigin, origin] = servers.origins;
  return servers;
}

const emulate = (args) => callOk(session.client, 'browser_emulate', args);

// The page's answers as it renders and scripts them.
async function pageSees(browserId) {
  return evaluateIn(session.client, browserId, `() => ({
    shown: [...document.querySelectorAll('.answer')].filter((p) => getComputedStyle(p).display !== 'none').map((p) => p.id),
    background: getComputedStyle(document.body).backgroundColor,
    shadowDark: getComputedStyle(document.querySelector('owl-card').shadowRoot.querySelector('p')).display === 'block',
    dark: matchMedia('(prefers-color-scheme: dark)').matches,
    reduce: matchMedia('(prefers-reduced-motion: reduce)').matches,
    forced: matchMedia('(forced-colors: active)').matches,
    print: matchMedia('print').matches,
    screen: matchMedia('screen').matches,
    media: matchMedia('(PREFERS-color-scheme:dark)').media,
    mediaText: document.styleSheets[0].cssRules[3].media.mediaText,
    firstAnswer: window.firstAnswer,
    changes: window.changes,
  })`);
}

async function tabEmulation(browserId) {
  const { data, text } = await callOk(session.client, 'browser_list_tabs', {});
  return { emulation: data.tabs.find((t) => t.browserId === browserId).emulation, text };
}

const session = useSession(options, {
  tabwright: { args: ['--tools', 'core,emulation'] },
  fixtures: startServers,
});

test('dark mode, reduced motion, forced colours and print: the page renders them and matchMedia matches', options, async () => {
  const id = await openTab(session.client, `${origin}/theme`);
  const before = await pageSees(id);
  assert.deepEqual(before.shown, ['light', 'motion-moving', 'screen'], 'the display answers light, motion, screen');
  assert.equal(before.dark, false);

  const set = await emulate({ browserId: id, colorScheme: 'dark', reducedMotion: 'reduce', forcedColors: 'active', media: 'print' });
  assert.deepEqual(set.data.emulation, { colorScheme: 'dark', reducedMotion: 'reduce', forcedColors: 'active', media: 'print' });
  assert.deepEqual(set.data.pageMedia, {
    prefersDark: true, reducedMotion: true, forcedColors: true, print: true,
    unreadableSheets: [`${otherOrigin}/other.css`],
  });
  assert.match(set.text, /The tab now emulates colorScheme: dark, reducedMotion: reduce, forcedColors: active, media: print\./);
  assert.match(set.text, /prefers-color-scheme: dark true, prefers-reduced-motion: reduce true, forced-colors: active true, print true/);
  // What cannot be made to answer is said, not claimed.
  assert.ok(set.text.includes(`Not emulated: the @media rules of 1 style sheet of another origin sent without CORS, which no page script can read: ${otherOrigin}/other.css.`), set.text);
  assert.match(set.text, /the browser does not replace the page's colours/);
  assert.match(set.text, /the page is not split into pages/);
  assert.equal(textField(set.text, 'browserId'), id);

  const seen = await pageSees(id);
  assert.deepEqual(seen.shown, ['dark', 'motion-still', 'forced', 'print', 'print-sheet', 'inserted'],
    'the page shows what its @media rules say for dark, reduced motion, forced colours and print');
  assert.equal(seen.background, 'rgb(17, 17, 17)');
  assert.equal(seen.shadowDark, true, 'a shadow root\'s style sheet answers too');
  assert.deepEqual([seen.dark, seen.reduce, seen.forced, seen.print, seen.screen], [true, true, true, true, false]);
  assert.equal(seen.media, '(prefers-color-scheme: dark)', 'the query reads back as the page wrote it');
  assert.equal(seen.mediaText, '(prefers-color-scheme: dark)', 'the rule reads back as the page wrote it');
  assert.deepEqual(seen.changes, [true], 'the page\'s listener was told of the change');

  // What the person reads in the snapshot.
  const snapshot = await snapshotIn(session.client, id);
  assert.ok(snapshot.includes('Dark theme') && !snapshot.includes('Light theme'), snapshot);

  const listed = await tabEmulation(id);
  assert.deepEqual(listed.emulation, set.data.emulation);
  assert.ok(listed.text.includes(`browserId: ${id}, `) &&
    listed.text.includes('emulating colorScheme: dark, reducedMotion: reduce, forcedColors: active, media: print'), listed.text);

  // It holds on the next page, from the page's first script on.
  await callOk(session.client, 'browser_navigate', { browserId: id, url: `${origin}/theme?title=Next` });
  const next = await pageSees(id);
  assert.equal(next.firstAnswer, true, 'the new page\'s first script already sees dark');
  assert.equal(next.shadowDark, true);
  assert.deepEqual(next.shown, ['dark', 'motion-still', 'forced', 'print', 'print-sheet', 'inserted']);
  assert.deepEqual(next.changes, []);

  // One feature changes alone; the others stay.
  const light = await emulate({ browserId: id, colorScheme: 'light' });
  assert.deepEqual(light.data.emulation, { colorScheme: 'light', reducedMotion: 'reduce', forcedColors: 'active', media: 'print' });
  assert.deepEqual((await pageSees(id)).changes, [false]);

  // Reset: the display's answers again, on this page and the next.
  const reset = await emulate({ browserId: id, reset: true });
  assert.deepEqual(reset.data.emulation, {});
  assert.match(reset.text, /answer media queries as the display does/);
  const after = await pageSees(id);
  assert.deepEqual(after.shown, ['light', 'motion-moving', 'screen']);
  assert.equal(after.shadowDark, false);
  assert.deepEqual([after.dark, after.reduce, after.forced, after.print, after.screen], [false, false, false, false, true]);
  assert.equal(after.mediaText, '(prefers-color-scheme: dark)');
  assert.equal((await tabEmulation(id)).emulation, undefined);
  await callOk(session.client, 'browser_reload', { browserId: id });
  assert.deepEqual((await pageSees(id)).shown, ['light', 'motion-moving', 'screen']);
});

test('media emulation is per tab, and a tab behind the one shown gets it too', options, async () => {
  const first = await openTab(session.client, `${origin}/theme?title=First`);
  const second = await openTab(session.client, `${origin}/theme?title=Second`);

  await emulate({ browserId: first, colorScheme: 'dark' });
  await emulate({ browserId: second, media: 'print' });

  const a = await pageSees(first);
  const b = await pageSees(second);
  assert.deepEqual(a.shown, ['dark', 'motion-moving', 'screen', 'inserted']);
  assert.deepEqual(b.shown, ['light', 'motion-moving', 'print', 'print-sheet']);
  assert.equal(b.dark, false);

  const { data } = await callOk(session.client, 'browser_list_tabs', {});
  assert.deepEqual(data.tabs.find((t) => t.browserId === first).emulation, { colorScheme: 'dark' });
  assert.deepEqual(data.tabs.find((t) => t.browserId === second).emulation, { media: 'print' });

  await emulate({ browserId: first, reset: true });
  await emulate({ browserId: second, reset: true });
});

test('bad media arguments are refused and change nothing', options, async () => {
  const id = await openTab(session.client, `${origin}/theme?title=Bad`);
  await emulate({ browserId: id, colorScheme: 'dark' });

  await callError(session.client, 'browser_emulate', { browserId: id, colorScheme: 'purple' }, 'browser_invalid_argument');
  await callError(session.client, 'browser_emulate', { browserId: id, media: 'tv' }, 'browser_invalid_argument');
  await callError(session.client, 'browser_emulate', { browserId: id, reducedMotion: true }, 'browser_invalid_argument');
  await callError(session.client, 'browser_emulate', { browserId: id, reset: true, media: 'print' }, 'browser_invalid_argument');

  assert.deepEqual((await tabEmulation(id)).emulation, { colorScheme: 'dark' });
  assert.deepEqual((await pageSees(id)).shown, ['dark', 'motion-moving', 'screen', 'inserted']);
});
