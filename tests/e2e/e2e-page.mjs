// SPDX-License-Identifier: GPL-3.0-or-later
//
// The reading and control tools of a real Tabwright through the official
// MCP SDK client: browser_screenshot (an image whose pixels are checked,
// and a file saved inside the workspace), browser_logs, browser_wait and
// browser_resize, with the pages of tests/fixtures/page/.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { test } from 'node:test';

import { startFolderServer } from './lib/fixture-server.mjs';
import { assertTextMentions, callError, callOk, callText, openTab, textField } from './lib/mcp.mjs';
import { useSession } from './lib/session.mjs';
import { requirementOptions, srcdir } from './lib/tabwright.mjs';
import { waitUntil } from './lib/wait.mjs';

const options = requirementOptions();
const PAGES = path.join(srcdir, 'tests', 'fixtures', 'page');

// Serves tests/fixtures/page/; client-side routes of delayed.html serve the
// same page.
const session = useSession(options, {
  fixtures: () => startFolderServer(PAGES, (p) => (p.startsWith('/orders/') ? path.join(PAGES, 'delayed.html') : undefined)),
});
const url = (p) => session.fixtures.url(p);

// A minimal PNG reader for 8-bit RGB and RGBA images, enough to check
// pixels of our own screenshots.
function decodePng(buffer) {
  assert.deepEqual([...buffer.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG signature');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.equal(data[8], 8, '8 bits per channel');
      assert.equal(data[12], 0, 'not interlaced');
      channels = { 2: 3, 6: 4 }[data[9]];
      assert.ok(channels, `colour type ${data[9]} is RGB or RGBA`);
    } else if (type === 'IDAT') {
      idat.push(data);
    }
    offset += 12 + length;
  }

  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[y * stride + x - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const c = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels] : 0;
      let value = line[x];
      if (filter === 1)
        value += a;
      else if (filter === 2)
        value += b;
      else if (filter === 3)
        value += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        value += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[y * stride + x] = value & 0xff;
    }
  }

  return {
    width,
    height,
    pixel: (x, y) => [...pixels.subarray(y * stride + x * channels, y * stride + x * channels + 3)],
  };
}

function assertColour(image, x, y, rgb) {
  const found = image.pixel(x, y);
  for (let i = 0; i < 3; i++)
    assert.ok(Math.abs(found[i] - rgb[i]) <= 3, `pixel (${x}, ${y}) is ${found}, expected ${rgb}`);
}

const openPage = (page) => openTab(session.client, url(page));

test('tools/list describes the reading and control tools', options, async () => {
  const { tools } = await session.client.listTools();
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const name of ['browser_screenshot', 'browser_logs', 'browser_wait', 'browser_resize']) {
    const tool = byName.get(name);
    assert.ok(tool, `tools/list includes ${name}`);
    assert.ok(tool.inputSchema.required.includes('browserId'), `${name} requires browserId`);
    // A screenshot's point is its image: no outputSchema, so no
    // structuredContent that Codex would show instead of the image.
    if (name === 'browser_screenshot')
      assert.equal(tool.outputSchema, undefined, `${name} has no outputSchema`);
    else
      assert.equal(tool.outputSchema?.type, 'object', `${name} has an outputSchema`);
  }
  assert.match(byName.get('browser_screenshot').description, /screenshot/i);
  assert.match(byName.get('browser_logs').description, /console errors and (the )?network requests/i);
  assert.match(byName.get('browser_wait').description, /wait for text to appear/i);
  assert.equal(byName.get('browser_logs').annotations.readOnlyHint, true);
});

test('browser_screenshot returns a PNG of the viewport with known pixels', options, async () => {
  const id = await openPage('colors.html');
  // No structuredContent: Codex would pass the model its JSON and drop the image.
  const { result, text } = await callText(session.client, 'browser_screenshot', { browserId: id });
  const image = result.content.find((block) => block.type === 'image');
  assert.ok(image, 'the result carries image content');
  assert.equal(image.mimeType, 'image/png');
  assert.equal(textField(text, 'browserId'), id);
  const width = Number(textField(text, 'width'));
  const height = Number(textField(text, 'height'));

  const png = decodePng(Buffer.from(image.data, 'base64'));
  assert.equal(png.width, width);
  assert.equal(png.height, height);
  assertColour(png, 50, 50, [255, 0, 0]);
  assertColour(png, 225, 175, [0, 255, 0]);
  assertColour(png, width - 10, height - 10, [0, 128, 255]);
});

test('browser_screenshot with fullPage captures the whole document', options, async () => {
  const id = await openPage('tall.html');
  const { result, text } = await callText(session.client, 'browser_screenshot', { browserId: id, fullPage: true });
  assert.equal(textField(text, 'height'), '3000');
  const png = decodePng(Buffer.from(result.content.find((block) => block.type === 'image').data, 'base64'));
  assertColour(png, 50, 2950, [255, 0, 0]);
});

test('browser_screenshot saves inside the workspace and refuses paths outside it', options, async () => {
  const id = await openPage('colors.html');
  const { result, text } = await callText(session.client, 'browser_screenshot', { browserId: id, savePath: 'home.png' });
  const saved = fs.realpathSync(path.join(session.app.dirs.workspace, 'home.png'));
  assert.equal(textField(text, 'path'), saved);
  assert.ok(!result.content.some((block) => block.type === 'image'), 'a saved screenshot is not returned');
  assertColour(decodePng(fs.readFileSync(saved)), 50, 50, [255, 0, 0]);

  await callError(session.client, 'browser_screenshot', { browserId: id, savePath: '../outside.png' }, 'browser_denied');
  await callError(session.client, 'browser_screenshot', { browserId: id, savePath: '/tmp/outside.png' }, 'browser_denied');
  assert.ok(!fs.existsSync(path.join(session.app.dirs.root, 'outside.png')));
});

test('browser_logs reports console messages, exceptions and failed requests', options, async () => {
  const id = await openPage('console.html');
  let logs;
  await waitUntil('browser_logs to list the exception thrown from a timer', async () => {
    logs = await callOk(session.client, 'browser_logs', { browserId: id });
    return logs.data.entries.some((e) => e.type === 'console' && e.text.includes('boom from a timer'));
  }, { detail: () => JSON.stringify(logs?.data) });
  const { data, text } = logs;
  const consoleText = (needle) => data.entries.find((e) => e.type === 'console' && e.text.includes(needle));
  assert.equal(consoleText('plain log line')?.level, 'log');
  assert.equal(consoleText('a warning line')?.level, 'warning');
  assert.equal(consoleText('an error line')?.level, 'error');
  assert.equal(consoleText('boom from a timer')?.source, 'javascript');
  assert.ok(data.entries.some((e) => e.type === 'navigation' && e.url === url('console.html')));
  assertTextMentions(text, ['console.error an error line', 'navigated to', 'boom from a timer']);

  await callOk(session.client, 'browser_navigate', { browserId: id, url: url('network.html?closed=9') });
  let lastLogs;
  const missing = await waitUntil('browser_logs to list the failed image request', async () => {
    ({ data: lastLogs } = await callOk(session.client, 'browser_logs', { browserId: id, maxEntries: 50 }));
    return lastLogs.entries.find((e) => e.type === 'network' && e.url.endsWith('missing-image.png') && e.state !== 'pending');
  }, { detail: () => JSON.stringify(lastLogs) });
  assert.equal(missing.status, 404);
  assert.equal(missing.resourceType, 'image');

  const { data: last } = await callOk(session.client, 'browser_logs', { browserId: id, maxEntries: 2 });
  assert.equal(last.entries.length, 2);
  await callError(session.client, 'browser_logs', { browserId: id, maxEntries: 0 }, 'browser_invalid_argument');
});

test('browser_wait waits for delayed text and a pushState URL, and times out', options, async () => {
  // The text comes 2 s after the page loaded; opening the tab takes part of
  // that, the wait the rest.
  const id = await openPage('delayed.html?delay=2000');
  const { data, text } = await callOk(session.client, 'browser_wait', { browserId: id, text: 'Order confirmed' });
  assert.equal(data.matched, 'text');
  // It really waited; how soon after the text came it answered is a
  // figure of bench/run.
  assert.ok(data.elapsedMs >= 500, `waited ${data.elapsedMs} ms`);
  assertTextMentions(text, ['Order confirmed', id]);

  const { data: routed } = await callOk(session.client, 'browser_wait', { browserId: id, url: '/orders/done' });
  assert.equal(routed.url, url('orders/done?id=7'));

  const { error } = await callError(session.client, 'browser_wait', { browserId: id, text: 'Never shown', timeoutMs: 500 }, 'browser_timeout');
  assert.ok(error.message.includes('"Delayed"'), `the timeout says what the page shows: ${error.message}`);

  await callError(session.client, 'browser_wait', { browserId: id, text: 'a', url: 'b' }, 'browser_invalid_argument');
  await callError(session.client, 'browser_wait', { browserId: id }, 'browser_invalid_argument');
  await callError(session.client, 'browser_wait', { browserId: id, text: 'a', timeoutMs: 60000 }, 'browser_invalid_argument');
});

test('browser_resize gives the page a phone-sized viewport', options, async () => {
  const id = await openPage('colors.html');
  const { data, text } = await callOk(session.client, 'browser_resize', { browserId: id, width: 375, height: 667 });
  assert.equal(data.innerWidth, 375);
  assert.equal(data.innerHeight, 667);
  assertTextMentions(text, [id, 375, 667]);

  const { text: shot } = await callText(session.client, 'browser_screenshot', { browserId: id });
  assert.equal(textField(shot, 'width'), '375');
  assert.equal(textField(shot, 'height'), '667');

  await callError(session.client, 'browser_resize', { browserId: id, width: 100, height: 667 }, 'browser_invalid_argument');
  await callError(session.client, 'browser_resize', { browserId: id, width: 375, height: 5000 }, 'browser_invalid_argument');
});

test('page tools on an unknown tab are not found', options, async () => {
  for (const [name, args] of [
    ['browser_screenshot', {}],
    ['browser_logs', {}],
    ['browser_wait', { text: 'x' }],
    ['browser_resize', { width: 400, height: 400 }],
  ]) {
    const { error } = await callError(session.client, name, { browserId: 'b999999', ...args }, 'browser_not_found');
    assert.ok(error.message.includes('b999999'), `the message names the tab: ${error.message}`);
  }
});
