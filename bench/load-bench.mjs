// SPDX-License-Identifier: GPL-3.0-or-later
//
// What an agent waits for a click and for a navigation, on Tabwright and on
// Playwright MCP side by side: a click that changes a button's text, a
// navigation between two small pages, a step back in history, a click on a
// link that loads the next page, and a navigation to an app page that
// renders its content after its load event (how often that content is in
// the first snapshot taken after the navigation returns). It checks that
// every click and every load reached the page; it asserts no times.
//
//   bench/run --load [--count 30] [--only tabwright|playwright]

import http from 'node:http';
import { parseArgs } from 'node:util';

import {
  call, ms, percentile, printComparison, runBench, startPlaywrightClient, startTabwrightClient, time,
} from './servers.mjs';
import { resultText } from '../tests/e2e/lib/mcp.mjs';

const { values: opts } = parseArgs({
  options: {
    load: { type: 'boolean' },
    count: { type: 'string', default: '30' },
    only: { type: 'string' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
  },
});

const COUNT = Number(opts.count);
const WARMUP = 3;
const cleanups = [];

function log(message) {
  process.stderr.write(`bench: ${message}\n`);
}

const page = (title, body) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const PAGES = {
  '/a': page('Page A', '<p>First page.</p><a href="/b">Next page</a>'),
  '/b': page('Page B', '<p>Second page.</p><a href="/a">Next page</a>'),
  '/click': page('Click bench', `<button aria-label="Count"
    onclick="this.textContent = 'Clicked ' + (++window.clicks) + ' times'">Clicked 0 times</button>
    <script>window.clicks = 0;</script>`),
  // Renders after its load event, as many apps do.
  '/app': page('App', `<p>Loading…</p><script>
    addEventListener('load', () => setTimeout(() => {
      const b = document.createElement('button');
      b.textContent = 'Rendered after load';
      document.querySelector('main').append(b);
    }, 30));</script>`),
};

async function startPageServer() {
  const hits = new Map();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url, 'http://localhost').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const body = PAGES[path];
    res.writeHead(body ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(body ?? 'not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  const base = `http://127.0.0.1:${server.address().port}`;
  return { url: (p) => `${base}${p}`, hits };
}

async function samples(label, what, fn) {
  for (let i = 0; i < WARMUP; i++)
    await fn(i);
  const out = [];
  for (let i = 0; i < COUNT; i++)
    out.push((await time(() => fn(WARMUP + i))).ms);
  log(`${label}: ${COUNT} ${what} done`);
  return out;
}

function expectHits(pages, path, before, n, label) {
  const got = (pages.hits.get(path) ?? 0) - before;
  if (got < n)
    throw new Error(`${label}: the server saw ${got} loads of ${path}, not ${n}`);
}

async function runTabwright(pages) {
  const { client } = await startTabwrightClient(log, cleanups);
  const r = {};
  const open = async (url) => (await call(client, 'browser_new_tab', { url })).structuredContent.browserId;
  const refOf = async (browserId, pattern) => {
    const line = resultText(await call(client, 'browser_snapshot', { browserId })).split('\n').find((l) => pattern.test(l));
    return / (@e\d+)/.exec(line)[1];
  };

  let browserId = await open(pages.url('/click'));
  const button = await refOf(browserId, /button "Count"/);
  r.click = await samples('tabwright', 'clicks', () => call(client, 'browser_click', { browserId, ref: button }));
  const clicks = (await call(client, 'browser_evaluate', { browserId, function: '() => window.clicks' })).structuredContent.result;
  if (clicks !== WARMUP + COUNT)
    throw new Error(`tabwright: the page counted ${clicks} clicks, not ${WARMUP + COUNT}`);
  await call(client, 'browser_close_tab', { browserId });

  browserId = await open(pages.url('/a'));
  let before = pages.hits.get('/b') ?? 0;
  r.navigate = await samples('tabwright', 'navigations',
    (i) => call(client, 'browser_navigate', { browserId, url: pages.url(i % 2 ? '/a' : '/b') }));
  expectHits(pages, '/b', before, (WARMUP + COUNT) >> 1, 'tabwright');
  r.back = [];
  for (let i = 0; i < WARMUP + COUNT; i++) {
    await call(client, 'browser_navigate', { browserId, url: pages.url(i % 2 ? '/a' : '/b') });
    const { ms: took } = await time(() => call(client, 'browser_back', { browserId }));
    if (i >= WARMUP)
      r.back.push(took);
  }
  before = pages.hits.get('/b') ?? 0;
  r.link = await samples('tabwright', 'link clicks', async () => {
    await call(client, 'browser_navigate', { browserId, url: pages.url('/a') });
    const link = await refOf(browserId, /link "Next page"/);
    return call(client, 'browser_click', { browserId, ref: link });
  });
  expectHits(pages, '/b', before, WARMUP + COUNT, 'tabwright');
  let rendered = 0;
  r.app = [];
  for (let i = 0; i < COUNT; i++) {
    r.app.push((await time(() => call(client, 'browser_navigate', { browserId, url: pages.url('/app') }))).ms);
    if (resultText(await call(client, 'browser_snapshot', { browserId })).includes('Rendered after load'))
      rendered++;
  }
  r.rendered = rendered;
  await call(client, 'browser_close_tab', { browserId });
  return r;
}

async function runPlaywright(pages) {
  const { client } = await startPlaywrightClient(opts.chromium, cleanups);
  const r = {};
  const refOf = async (pattern) => {
    const text = resultText(await call(client, 'browser_snapshot'));
    const match = /\[ref=([a-z0-9]+)\]/.exec(text.split('\n').find((l) => pattern.test(l)));
    if (!match)
      throw new Error(`playwright: no ${pattern} in the snapshot:\n${text}`);
    return match[1];
  };

  await call(client, 'browser_navigate', { url: pages.url('/click') });
  const button = await refOf(/button "Count"/);
  r.click = await samples('playwright', 'clicks', () => call(client, 'browser_click', { element: 'Count button', target: button }));
  const clicks = Number(/\d+/.exec(resultText(await call(client, 'browser_evaluate', { function: '() => window.clicks' })))[0]);
  if (clicks !== WARMUP + COUNT)
    throw new Error(`playwright: the page counted ${clicks} clicks, not ${WARMUP + COUNT}`);

  await call(client, 'browser_navigate', { url: pages.url('/a') });
  let before = pages.hits.get('/b') ?? 0;
  r.navigate = await samples('playwright', 'navigations',
    (i) => call(client, 'browser_navigate', { url: pages.url(i % 2 ? '/a' : '/b') }));
  expectHits(pages, '/b', before, (WARMUP + COUNT) >> 1, 'playwright');
  before = pages.hits.get('/b') ?? 0;
  r.link = await samples('playwright', 'link clicks', async () => {
    await call(client, 'browser_navigate', { url: pages.url('/a') });
    const link = await refOf(/link "Next page"/);
    return call(client, 'browser_click', { element: 'Next page link', target: link });
  });
  expectHits(pages, '/b', before, WARMUP + COUNT, 'playwright');
  r.back = [];
  for (let i = 0; i < WARMUP + COUNT; i++) {
    await call(client, 'browser_navigate', { url: pages.url(i % 2 ? '/a' : '/b') });
    const { ms: took } = await time(() => call(client, 'browser_navigate_back'));
    if (i >= WARMUP)
      r.back.push(took);
  }
  let rendered = 0;
  r.app = [];
  for (let i = 0; i < COUNT; i++) {
    r.app.push((await time(() => call(client, 'browser_navigate', { url: pages.url('/app') }))).ms);
    if (resultText(await call(client, 'browser_snapshot')).includes('Rendered after load'))
      rendered++;
  }
  r.rendered = rendered;
  return r;
}

async function main() {
  const pages = await startPageServer();
  const tw = opts.only === 'playwright' ? {} : await runTabwright(pages);
  const pw = opts.only === 'tabwright' ? {} : await runPlaywright(pages);
  const stat = (s, p) => (s ? percentile(s, p) : undefined);
  const rows = [];
  for (const [key, label] of [['click', 'click on a button'], ['navigate', 'navigate'], ['back', 'back'], ['link', 'navigate + click on a link that loads a page'], ['app', 'navigate to a page that renders after load']]) {
    rows.push([`${label}, median (N=${COUNT})`, ms(stat(tw[key], 0.5)), ms(stat(pw[key], 0.5))]);
    rows.push([`${label}, p90`, ms(stat(tw[key], 0.9)), ms(stat(pw[key], 0.9))]);
  }
  const share = (x) => (x === undefined ? '—' : `${x}/${COUNT}`);
  rows.push(['app page: content rendered after load is in the next snapshot', share(tw.rendered), share(pw.rendered)]);
  printComparison('Clicks and navigations, Tabwright vs Playwright MCP', rows);
  console.log('\nEach call returns when the server says the page has settled. The link row times a navigate');
  console.log('and the click on the new page\'s link that loads the next one. Playwright MCP\'s navigate');
  console.log('returns a snapshot of the page with it.');
}

await runBench(main, cleanups);
