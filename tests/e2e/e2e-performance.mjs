// SPDX-License-Identifier: GPL-3.0-or-later
//
// browser_performance (issue 31) through the official MCP SDK client against
// a real Tabwright, as an agent would use it: on a fixture page whose server
// answers slowly, which loads a script that blocks rendering and shows a
// 1600 × 1200 image at 80 × 60, the findings name each of them; a page
// without those faults gets none; reload: true measures a fresh load that
// the server sees.

import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import zlib from 'node:zlib';

import { listenAll } from './lib/fixture-server.mjs';
import { callError, callOk, openTab, textField } from './lib/mcp.mjs';
import { useSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';

const options = requirementOptions();

// The slow page's server waits this long before it answers.
const SERVER_DELAY_MS = 1200;

let server;
let origin;
// Every path the server was asked for, in order.
const seen = [];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++)
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes)
    c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

// An RGB PNG of @width × @height with noise, so it does not compress away.
function png(width, height) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  let seed = 7;
  for (let i = 0; i < rows.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    rows[i] = i % (width * 3 + 1) === 0 ? 0 : seed >>> 24;
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const BIG_PNG = png(1600, 1200);
const SMALL_PNG = png(80, 60);

const SLOW_PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Slow shop</title>
<script src="/blocking.js"></script></head>
<body><h1>Slow shop</h1>
<img src="/hero.png" alt="Hero" style="width: 80px; height: 60px">
<p>Our best owls.</p>
<img src="/unsized.png" alt="Owl">
<p>More text after the image.</p></body></html>`;

const FAST_PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Fast shop</title>
<script src="/deferred.js" defer></script></head>
<body><h1>Fast shop</h1>
<img src="/small.png" alt="Owl" width="80" height="60">
<p>Our best owls.</p></body></html>`;

// Five images without a size, each from its own URL.
const MANY_PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Gallery</title></head>
<body><h1>Gallery</h1>${[1, 2, 3, 4, 5].map((n) => `<img src="/small.png?${n}" alt="Owl ${n}">`).join('')}</body></html>`;

async function startServers() {
  server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    seen.push(url.pathname);
    const send = (type, body) => {
      res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'max-age=3600' });
      res.end(body);
    };
    if (url.pathname === '/slow')
      setTimeout(() => send('text/html; charset=utf-8', SLOW_PAGE), SERVER_DELAY_MS);
    else if (url.pathname === '/many')
      send('text/html; charset=utf-8', MANY_PAGE);
    else if (url.pathname === '/fast')
      send('text/html; charset=utf-8', FAST_PAGE);
    else if (url.pathname === '/blocking.js' || url.pathname === '/deferred.js')
      send('text/javascript', `window.loaded = (window.loaded || 0) + 1; /* ${'x'.repeat(2000)} */`);
    else if (url.pathname === '/hero.png')
      send('image/png', BIG_PNG);
    else if (url.pathname === '/small.png' || url.pathname === '/unsized.png')
      send('image/png', SMALL_PNG);
    else {
      res.writeHead(404);
      res.end();
    }
  });
  const servers = await listenAll(server);
  [origin] = servers.origins;
  return servers;
}

const session = useSession(options, {
  tabwright: { args: ['--tools', 'core,debugging'] },
  fixtures: startServers,
});

const byKind = (data, kind) => data.findings.filter((f) => f.kind === kind);

let slowTab;

test('the findings name the slow server, the render-blocking script and the oversized image', options, async () => {
  slowTab = await openTab(session.client, `${origin}/slow`);
  const { data, text } = await callOk(session.client, 'browser_performance', { browserId: slowTab });

  assert.equal(data.browserId, slowTab);
  assert.equal(textField(text, 'browserId'), slowTab);
  assert.equal(data.url, `${origin}/slow`);
  assert.equal(data.reloaded, false);

  const slow = byKind(data, 'slow-server-response');
  assert.equal(slow.length, 1, `one slow server response: ${JSON.stringify(data.findings)}`);
  assert.equal(slow[0].url, `${origin}/slow`);
  assert.ok(data.navigation.serverResponseMs >= SERVER_DELAY_MS,
    `the server took at least ${SERVER_DELAY_MS} ms: ${JSON.stringify(data.navigation)}`);

  const blocking = byKind(data, 'render-blocking-script');
  assert.deepEqual(blocking.map((f) => f.url), [`${origin}/blocking.js`]);

  const oversized = byKind(data, 'oversized-image');
  assert.equal(oversized.length, 1, `only the hero image is oversized: ${JSON.stringify(data.findings)}`);
  assert.equal(oversized[0].url, `${origin}/hero.png`);
  assert.deepEqual([oversized[0].naturalWidth, oversized[0].naturalHeight, oversized[0].shownWidth, oversized[0].shownHeight],
    [1600, 1200, 80, 60]);

  const shift = byKind(data, 'layout-shift-cause');
  assert.deepEqual(shift.map((f) => f.url), [`${origin}/unsized.png`], 'the image without a size may shift the layout');
  assert.equal(data.cumulativeLayoutShift.likelyCauses, 1);

  // The text an agent reads names each of them.
  assert.match(text, /Slow server response: the server took \d+ ms/);
  assert.ok(text.includes(`Render-blocking script: ${origin}/blocking.js`), text);
  assert.ok(text.includes(`Oversized image: ${origin}/hero.png is 1600×1200`), text);
  assert.ok(text.includes('shown at 80×60'), text);
  assert.ok(text.includes(`the image ${origin}/unsized.png has no width`), text);
});

test('it reports navigation, paint and resources by type with their sizes', options, async () => {
  const { data, text } = await callOk(session.client, 'browser_performance', { browserId: slowTab, maxResources: 2 });

  const nav = data.navigation;
  assert.ok(nav.domContentLoadedMs >= nav.timeToFirstByteMs, JSON.stringify(nav));
  assert.ok(nav.loadMs >= nav.domContentLoadedMs, JSON.stringify(nav));
  assert.ok(nav.encodedBodySize > 0, JSON.stringify(nav));
  assert.ok(data.paint.firstContentfulPaintMs >= nav.timeToFirstByteMs, JSON.stringify(data.paint));

  const types = new Map(data.resources.byType.map((t) => [t.type, t]));
  assert.equal(types.get('image').count, 2, JSON.stringify(data.resources));
  assert.equal(types.get('script').count, 1, JSON.stringify(data.resources));
  assert.ok(types.get('image').encodedBodySize >= BIG_PNG.length + SMALL_PNG.length,
    `the images' bytes are counted: ${JSON.stringify(types.get('image'))}`);
  assert.ok(types.get('image').transferSize > types.get('script').transferSize);
  assert.equal(data.resources.count, 3);
  assert.equal(data.resources.slowest.length, 2, 'maxResources bounds the slowest list');
  assert.ok(data.resources.slowest[0].durationMs >= data.resources.slowest[1].durationMs);

  // WebKit gives none of these: the result says so rather than inventing them.
  assert.equal(data.largestContentfulPaint.measured, false);
  assert.match(data.largestContentfulPaint.reason, /largest-contentful-paint/);
  assert.equal(data.cumulativeLayoutShift.measured, false);
  assert.equal(data.interactionToNextPaint.measured, false);
  assert.ok(data.supportedEntryTypes.includes('navigation'));
  assert.match(text, /Largest Contentful Paint: not measured \(WebKit gives no largest-contentful-paint entries\); estimate/);
  assert.match(text, /Resources: 3, /);
  assert.match(text, /image 2 /);
  assert.match(text, /Slowest resources:\n- \d+ ms /);
});

test('reload: true measures a fresh load, fetched again from the server', options, async () => {
  const before = seen.length;
  const { data, text } = await callOk(session.client, 'browser_performance', { browserId: slowTab, reload: true });
  const fetched = seen.slice(before);

  assert.equal(data.reloaded, true);
  assert.match(text, /measured on a fresh load/);
  // The resources may be cached for an hour: a fresh load asks for them anyway.
  assert.deepEqual([...new Set(fetched)].sort(), ['/blocking.js', '/hero.png', '/slow', '/unsized.png']);
  assert.ok(byKind(data, 'oversized-image').length === 1 && byKind(data, 'slow-server-response').length === 1,
    JSON.stringify(data.findings));
  assert.ok(data.resources.byType.find((t) => t.type === 'image').transferSize >= BIG_PNG.length,
    `a fresh load transfers the image: ${JSON.stringify(data.resources.byType)}`);
});

test('a page without those faults has no findings', options, async () => {
  const fast = await openTab(session.client, `${origin}/fast`);
  const { data, text } = await callOk(session.client, 'browser_performance', { browserId: fast });
  assert.deepEqual(data.findings, []);
  assert.match(text, /\nFindings: none\./);
  assert.ok(data.navigation.serverResponseMs < SERVER_DELAY_MS);
});

test('many findings of one kind are counted, not listed', options, async () => {
  const gallery = await openTab(session.client, `${origin}/many`);
  const { data, text } = await callOk(session.client, 'browser_performance', { browserId: gallery });
  const shift = byKind(data, 'layout-shift-cause');
  assert.deepEqual(shift.map((f) => f.url), [`${origin}/small.png?1`, `${origin}/small.png?2`, `${origin}/small.png?3`, null]);
  assert.equal(shift[3].message, 'And 2 more of the kind layout-shift-cause.');
  assert.equal(data.cumulativeLayoutShift.likelyCauses, 5);
  assert.match(text, /\n- And 2 more of the kind layout-shift-cause\./);
});

test('bad input gets a clear error', options, async () => {
  await callError(session.client, 'browser_performance', { browserId: 'b999999' }, 'browser_not_found');
  await callError(session.client, 'browser_performance', { browserId: slowTab, maxResources: 0 }, 'browser_invalid_argument');
  await callError(session.client, 'browser_performance', { browserId: slowTab, reload: 'yes' }, 'browser_invalid_argument');
});
