// SPDX-License-Identifier: GPL-3.0-or-later
//
// The reading tools of a real Tabwright through the official MCP SDK
// client, used as an agent uses them: browser_read on a client-rendered
// page (content built by script after load) as Markdown, with outline and
// filter; browser_get_text and browser_get_html of a page and of a ref, cut
// at maxChars and read on with the cursor; browser_read with a url, fetched
// without a tab (llms.txt, Markdown, extracted HTML, cookies); and the
// errors of bad input.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { callError, callOk, callText, connectClient, snapshotIn, textField } from './lib/mcp.mjs';
import { startSession } from './lib/session.mjs';
import { makeAppDirs, requirementOptions, startTabwright } from './lib/tabwright.mjs';

const options = requirementOptions();

let session;
let fixtures;
let client;

before(async () => {
  if (options.skip)
    return;
  session = await startSession({ tabwright: { args: ['--tools', 'core,reading'] } });
  ({ fixtures, client } = session);
});

after(async () => {
  await session?.close();
});

// A tab on the client-rendered article, once its script has built the
// content (the agent waits for text it expects, as it would).
async function openArticle() {
  const { data } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/reading/article.html') });
  await callOk(client, 'browser_wait', { browserId: data.browserId, text: 'Tawny owl' });
  return data.browserId;
}

// The body of a reading reply: what follows the labelled lines, the page's
// words between <page> and </page> (issue 32).
function body(text) {
  const start = text.indexOf('\n\n');
  assert.ok(start > 0, `the reply has labelled lines, then the body: ${text}`);
  const fenced = text.slice(start + 2).replace(/\n\ncursor: .*$/s, '');
  assert.ok(fenced.startsWith('<page>\n') && fenced.endsWith('\n</page>'), `the body is marked as page text: ${text}`);
  return fenced.slice('<page>\n'.length, -'\n</page>'.length);
}

function refFor(snapshot, needle) {
  for (const line of snapshot.split('\n')) {
    if (line.includes(needle)) {
      const m = / (@e\d+)/.exec(line);
      if (m)
        return m[1];
    }
  }
  assert.fail(`no ref for ${needle} in:\n${snapshot}`);
}

test('tools/list offers the reading tools without an outputSchema', options, async () => {
  const { tools } = await client.listTools();
  for (const name of ['browser_get_text', 'browser_get_html', 'browser_read']) {
    const tool = tools.find((t) => t.name === name);
    assert.ok(tool, `tools/list includes ${name}`);
    assert.equal(tool.outputSchema, undefined, `${name} answers with text for reading`);
    assert.equal(tool.annotations.readOnlyHint, true);
  }
});

test('browser_read gives a client-rendered page as Markdown without its navigation', options, async () => {
  const id = await openArticle();
  const { text } = await callText(client, 'browser_read', { browserId: id });
  assert.equal(textField(text, 'browserId'), id);
  assert.equal(textField(text, 'url'), fixtures.url('/reading/article.html'));
  assert.equal(textField(text, 'mainContent'), 'div.content');
  const md = body(text);

  assert.match(md, /^# Field Guide$/m);
  assert.match(md, /^## Barn owl$/m);
  assert.match(md, /^## Tawny owl$/m);
  assert.ok(md.includes(`[barn owl page](${fixtures.url('/owls/barn')})`), `links keep their URL:\n${md}`);
  assert.match(md, /^- Length: 33 to 39 cm, a middle-sized owl$/m);
  assert.ok(md.includes('![A barn owl in flight]'), `images give their alt text:\n${md}`);
  assert.ok(md.includes('| Owl | Weight |\n| --- | --- |\n| Barn | 300 g |\n| Tawny | 500 g |'), `a table:\n${md}`);
  assert.ok(md.includes("```js\nconst owl = { name: 'tawny' };\n```"), `a fenced code block:\n${md}`);
  for (const gone of ['Menu one', 'About us', 'Copyright footer', 'hidden paragraph', 'Loading'])
    assert.ok(!md.includes(gone), `"${gone}" is left out:\n${md}`);
});

test('browser_read outline lists the headings and filter keeps matching sections', options, async () => {
  const id = await openArticle();
  const outline = body((await callText(client, 'browser_read', { browserId: id, outline: true })).text);
  assert.equal(outline, '- Field Guide\n  - Barn owl\n  - Tawny owl');

  const filtered = body((await callText(client, 'browser_read', { browserId: id, filter: 'tawny' })).text);
  assert.match(filtered, /^## Tawny owl$/m);
  assert.ok(filtered.includes('| Tawny | 500 g |'), `the whole matching section:\n${filtered}`);
  assert.ok(!filtered.includes('heart-shaped'), `other sections are left out:\n${filtered}`);

  const lines = body((await callText(client, 'browser_read', { browserId: id, filter: 'Antarctica' })).text);
  assert.equal(lines, '## Barn owl\n\n- Found on every continent but Antarctica');
});

test('browser_get_text gives the visible text in blocks, of the page or of a ref', options, async () => {
  const id = await openArticle();
  const { text } = await callText(client, 'browser_get_text', { browserId: id });
  const page = body(text);
  assert.match(page, /^Barn owl$/m, 'a heading is a line of its own');
  assert.match(page, /^Menu one$/m, 'the whole page, navigation too');
  assert.ok(!page.includes('hidden paragraph'), 'hidden text is not visible text');
  assert.equal(textField(text, 'range'), `characters 0–${page.length} of ${page.length}`);

  const snapshot = await snapshotIn(client, id);
  const ref = refFor(snapshot, 'Length: 33');
  const item = await callText(client, 'browser_get_text', { browserId: id, ref });
  assert.equal(body(item.text), 'Length: 33 to 39 cm, a middle-sized owl');
});

test('browser_get_text cuts a long page and the cursor reads the rest', options, async () => {
  const { data } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/table?rows=300') });
  const id = data.browserId;
  const whole = body((await callText(client, 'browser_get_text', { browserId: id, maxChars: 1000000 })).text);
  assert.ok(whole.length > 5000, `a long page: ${whole.length} characters`);

  let read = '';
  let cursor;
  let calls = 0;
  do {
    const args = { browserId: id, maxChars: 2000 };
    if (cursor)
      args.cursor = cursor;
    const { text } = await callText(client, 'browser_get_text', args);
    const part = body(text);
    assert.ok(part.length <= 2000, `a part is at most maxChars: ${part.length}`);
    read += part;
    cursor = /^cursor: (\S+)/m.exec(text)?.[1];
    calls++;
  } while (cursor && calls < 100);
  assert.equal(read, whole, 'the parts add up to the whole text');
  assert.ok(calls > 2, `read in ${calls} parts`);

  await callError(client, 'browser_get_text', { browserId: id, cursor: 'page 2' }, 'browser_invalid_argument');
  await callError(client, 'browser_get_text', { browserId: id, cursor: 'c99999999' }, 'browser_invalid_argument');
});

test('browser_get_html gives outer or inner HTML, scripts emptied on request', options, async () => {
  const id = await openArticle();
  const full = body((await callText(client, 'browser_get_html', { browserId: id })).text);
  assert.ok(full.startsWith('<html lang="en">'), full.slice(0, 80));
  assert.ok(full.includes('<h2>Barn owl</h2>'), 'the live DOM, as the script built it');
  assert.ok(full.includes("addEventListener('load'"), 'script bodies are there by default');

  const stripped = body((await callText(client, 'browser_get_html', { browserId: id, stripScripts: true })).text);
  assert.ok(!stripped.includes('addEventListener'), 'script bodies are left out');
  assert.ok(!stripped.includes('font-family'), 'style bodies are left out');
  assert.ok(stripped.includes('<script></script>'), 'the script element itself stays');

  const snapshot = await snapshotIn(client, id);
  const ref = refFor(snapshot, 'heading "Tawny owl"');
  assert.equal(body((await callText(client, 'browser_get_html', { browserId: id, ref })).text), '<h2>Tawny owl</h2>');
  assert.equal(body((await callText(client, 'browser_get_html', { browserId: id, ref, inner: true })).text), 'Tawny owl');
});

test('reading tools reject bad input with structured errors', options, async () => {
  const id = await openArticle();
  await callError(client, 'browser_get_html', { browserId: id, ref: '@e99999' }, 'browser_stale_ref');
  await callError(client, 'browser_read', { browserId: 'b999' }, 'browser_not_found');
  await callError(client, 'browser_get_text', { browserId: id, maxChars: 10 }, 'browser_invalid_argument');
});

// browser_read with a url: fetched over HTTP without a tab.

// The paths the fixture server is asked for while @fn runs.
async function pathsRequested(fn) {
  const start = fixtures.requested().length;
  const result = await fn();
  return { result, paths: fixtures.requested().slice(start) };
}

test('browser_read with llms reads the site\'s llms.txt and llms-full.txt', options, async () => {
  const before = (await callOk(client, 'browser_list_tabs')).data.tabs.length;
  const { result: { text }, paths } = await pathsRequested(() =>
    callText(client, 'browser_read', { url: fixtures.url('/reading/article.html'), llms: 'txt' }));
  assert.deepEqual(paths, ['/reading/llms.txt', '/llms.txt'], 'beside the page first, then the root');
  assert.equal(textField(text, 'source'), 'llms.txt');
  assert.equal(textField(text, 'url'), fixtures.url('/llms.txt'));
  assert.equal(textField(text, 'status'), '200');
  const md = body(text);
  assert.ok(md.startsWith('# Owl Site\n\n> Field notes about owls, for agents.'), md);
  assert.ok(md.includes('- [Barn owl](/reading/notes.md): the barn owl in detail'), md);

  const full = await callText(client, 'browser_read', { url: fixtures.origin, llms: 'full', outline: true });
  assert.equal(textField(full.text, 'source'), 'llms-full.txt');
  assert.equal(body(full.text), '- Owl Site (full)\n  - Barn owl\n  - Tawny owl');

  const after = (await callOk(client, 'browser_list_tabs')).data.tabs.length;
  assert.equal(after, before, 'no tab was opened to read');
});

test('browser_read with llms reads the llms.txt beside the page before the site\'s', options, async () => {
  const docs = await pathsRequested(() =>
    callText(client, 'browser_read', { url: fixtures.url('/docs/guide/intro.html'), llms: 'txt' }));
  assert.deepEqual(docs.paths, ['/docs/guide/llms.txt', '/docs/llms.txt'],
    'the page\'s directory, then the one above, where it is: the root is never asked');
  assert.equal(textField(docs.result.text, 'source'), 'llms.txt');
  assert.equal(textField(docs.result.text, 'url'), fixtures.url('/docs/llms.txt'));
  assert.ok(body(docs.result.text).startsWith('# Owl Docs\n\n> The docs section of the owl site, for agents.'), docs.result.text);

  // No llms-full.txt beside it: the site's root has one.
  const full = await pathsRequested(() =>
    callText(client, 'browser_read', { url: fixtures.url('/docs/guide/intro.html'), llms: 'full' }));
  assert.deepEqual(full.paths, ['/docs/guide/llms-full.txt', '/docs/llms-full.txt', '/llms-full.txt']);
  assert.equal(textField(full.result.text, 'url'), fixtures.url('/llms-full.txt'));
  assert.equal(textField(full.result.text, 'source'), 'llms-full.txt');
});

test('browser_read with a url prefers Markdown: asked for, then the .md form of the path', options, async () => {
  const negotiated = await callText(client, 'browser_read', { url: fixtures.url('/negotiate') });
  assert.equal(textField(negotiated.text, 'source'), 'markdown');
  assert.equal(body(negotiated.text), '# Negotiated\n\nMarkdown because it was asked for.');

  const variant = await callText(client, 'browser_read', { url: fixtures.url('/reading/notes.html') });
  assert.equal(textField(variant.text, 'source'), 'markdown');
  assert.equal(textField(variant.text, 'url'), fixtures.url('/reading/notes.md'));
  assert.match(body(variant.text), /^# Notes\n\nThe barn owl's notes, written in Markdown/);
});

test('browser_read with a url extracts the main content of HTML, never running it', options, async () => {
  const { text } = await callText(client, 'browser_read', { url: fixtures.url('/reading/static.html') });
  assert.equal(textField(text, 'source'), 'extracted HTML');
  assert.equal(textField(text, 'status'), '200');
  assert.equal(textField(text, 'mainContent'), 'main');
  const md = body(text);
  assert.match(md, /^# Static owls$/m);
  assert.ok(md.includes('Little owls live in farmland'), md);
  assert.ok(md.includes(`[field guide](${fixtures.url('/reading/article.html')})`), `relative links made absolute:\n${md}`);
  for (const gone of ['Site menu', 'Footer of the static page', 'Hidden by its style', 'Written by script'])
    assert.ok(!md.includes(gone), `"${gone}" is left out:\n${md}`);

  const missing = await callText(client, 'browser_read', { url: fixtures.url('/status/404') });
  assert.equal(textField(missing.text, 'status'), '404', 'the status says the page was not found');

});

test('browser_read with llms on a site without llms.txt reads the page and says so', options, async () => {
  // A second site, which has no llms.txt.
  const paths = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url);
    if (req.url === '/' || req.url === '/a/b/c/d/page') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<title>Plain</title><main><h1>Plain site</h1><p>A site without any llms.txt file.</p></main>');
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const origin = `http://127.0.0.1:${server.address().port}/`;
    const { text } = await callText(client, 'browser_read', { url: origin, llms: 'txt' });
    assert.equal(textField(text, 'source'), 'extracted HTML');
    assert.equal(textField(text, 'url'), origin);
    assert.match(textField(text, 'note'), /^the site has no llms\.txt at \/llms\.txt \(HTTP 404\); read the page instead$/);
    assert.match(body(text), /^# Plain site\n\nA site without any llms\.txt file\.$/);

    // A deep page: its directory and two above it, then the root.
    paths.length = 0;
    const deep = await callText(client, 'browser_read', { url: `${origin}a/b/c/d/page`, llms: 'txt' });
    assert.deepEqual(paths.slice(0, 5), ['/a/b/c/d/llms.txt', '/a/b/c/llms.txt', '/a/b/llms.txt', '/llms.txt', '/a/b/c/d/page']);
    assert.equal(textField(deep.text, 'note'), 'the site has no llms.txt at /a/b/c/d/llms.txt (HTTP 404), ' +
      '/a/b/c/llms.txt (HTTP 404), /a/b/llms.txt (HTTP 404), /llms.txt (HTTP 404); read the page instead');
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('browser_read with a url sends the workspace\'s cookies', options, async () => {
  const { data } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/page?title=Cookies') });
  await callOk(client, 'browser_evaluate', {
    browserId: data.browserId,
    function: "() => { document.cookie = 'owlsession=tawny42; path=/'; return document.cookie; }",
  });
  const { text } = await callText(client, 'browser_read', { url: fixtures.url('/whoami') });
  assert.match(body(text), /Cookie header: .*owlsession=tawny42/);
});

test('browser_read with a url rejects bad input with structured errors', options, async () => {
  await callError(client, 'browser_read', { url: 'file:///etc/passwd' }, 'browser_denied');
  await callError(client, 'browser_read', { url: 'not a url' }, 'browser_denied');
  await callError(client, 'browser_read', {}, 'browser_invalid_argument');
  await callError(client, 'browser_read', { browserId: 'b1', url: fixtures.origin }, 'browser_invalid_argument');
  await callError(client, 'browser_read', { url: fixtures.origin, ref: '@e1' }, 'browser_invalid_argument');
  await callError(client, 'browser_read', { url: fixtures.origin, llms: 'all' }, 'browser_invalid_argument');
  await callError(client, 'browser_read', { url: fixtures.url('/negotiate'), cursor: 'x' }, 'browser_invalid_argument');
  await callError(client, 'browser_read', { url: 'http://127.0.0.1:9/' }, 'browser_navigation_failed');
});

test('browser_set_content replaces the document, and its scripts run', options, async () => {
  const id = await openArticle();
  const html = '<!DOCTYPE html><title>Tried out</title><h1>Markup under test</h1>' +
    '<button id="b">Press</button><script>document.getElementById("b").textContent = "Pressed by script";</script>';
  const { data, text } = await callOk(client, 'browser_set_content', { browserId: id, html });
  assert.equal(data.browserId, id);
  assert.equal(data.title, 'Tried out');
  assert.equal(data.url, fixtures.url('/reading/article.html'), 'the same URL and origin');
  assert.equal(textField(text, 'browserId'), id);

  const snapshot = await snapshotIn(client, id);
  assert.match(snapshot, /heading "Markup under test"/);
  assert.match(snapshot, /button "Pressed by script"/);
  assert.ok(!snapshot.includes('Barn owl'), 'the old document is gone');

  await callError(client, 'browser_set_content', { browserId: id }, 'browser_invalid_argument');
});

// browser_wait's conditions beyond text and URL.

test('browser_wait for elements, text gone and load states: waits that hold', options, async () => {
  const { data } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/reading/waits.html') });
  const id = data.browserId;
  const loaded = await callOk(client, 'browser_wait', { browserId: id, loadState: 'load' });
  assert.equal(loaded.data.matched, 'loadState');
  assert.equal(loaded.data.value, 'load');
  const idle = await callOk(client, 'browser_wait', { browserId: id, loadState: 'networkidle' });
  assert.match(idle.text, /The page reached networkidle after \d+ ms\./);

  const attached = await callOk(client, 'browser_wait', { browserId: id, selector: '#panel', state: 'attached' });
  assert.equal(attached.data.matched, 'selector');
  assert.equal(attached.data.value, '#panel attached');

  const snapshot = await snapshotIn(client, id);
  await callOk(client, 'browser_click', { browserId: id, ref: refFor(snapshot, 'button "Start"') });
  const spinnerRef = refFor(snapshot, 'Loading results');

  const visible = await callOk(client, 'browser_wait', { browserId: id, selector: '#panel' });
  assert.equal(visible.data.value, '#panel visible');
  assert.match(visible.text, /The element #panel visible holds after \d+ ms\./);
  const gone = await callOk(client, 'browser_wait', { browserId: id, textGone: 'loading results' });
  assert.equal(gone.data.matched, 'textGone');
  const detached = await callOk(client, 'browser_wait', { browserId: id, ref: spinnerRef, state: 'detached' });
  assert.equal(detached.data.matched, 'ref');
  await callOk(client, 'browser_wait', { browserId: id, selector: '#spinner', state: 'hidden' });
  await callOk(client, 'browser_wait', { browserId: id, selector: '#late', state: 'visible' });
  const fn = await callOk(client, 'browser_wait', { browserId: id, function: '() => window.resultsShown' });
  assert.equal(fn.data.matched, 'function');
  assert.match(fn.text, /The function returned a truthy value after \d+ ms\./);
});

test('browser_wait networkidle waits for the requests WebKit sees in flight, and names them on timeout', options, async () => {
  // The request the server holds for 1.5 s starts after the load event:
  // the wait returns only once it has finished.
  const held = (await callOk(client, 'browser_new_tab', { url: fixtures.url('/reading/idle.html?ms=1500') })).data.browserId;
  const idle = await callOk(client, 'browser_wait', { browserId: held, loadState: 'networkidle', timeoutMs: 10000 });
  assert.equal(idle.data.matched, 'loadState');
  assert.equal(idle.data.value, 'networkidle');
  const { data: page } = await callOk(client, 'browser_evaluate', { browserId: held, function: '() => window.dataDone' });
  assert.equal(page.result, true, 'the held request had finished when the wait returned');

  // A request that does not end in time: the timeout names it.
  const hung = (await callOk(client, 'browser_new_tab', { url: fixtures.url('/reading/idle.html?ms=30000') })).data.browserId;
  await callOk(client, 'browser_wait', { browserId: hung, loadState: 'load' });
  const { error } = await callError(client, 'browser_wait', { browserId: hung, loadState: 'networkidle', timeoutMs: 1500 }, 'browser_timeout');
  assert.match(error.message, /did not hold within 1500 ms/);
  assert.match(error.message, /1 request still in flight: GET http:\/\/127\.0\.0\.1:\d+\/slow\?ms=30000&from=idle \(\w+, for \d+ ms\)/);
  await callOk(client, 'browser_close_tab', { browserId: hung });
});

test('browser_wait that times out says what the page showed instead', options, async () => {
  const { data } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/reading/waits.html') });
  const id = data.browserId;
  const hidden = await callError(client, 'browser_wait', { browserId: id, selector: '#panel', timeoutMs: 1000 }, 'browser_timeout');
  assert.match(hidden.error.message, /#panel visible did not hold within 1000 ms/);
  assert.match(hidden.error.message, /the element is there but hidden: display: none/);

  const missing = await callError(client, 'browser_wait', { browserId: id, selector: '#nothing', state: 'attached', timeoutMs: 1000 }, 'browser_timeout');
  assert.match(missing.error.message, /no element matches #nothing/);

  const still = await callError(client, 'browser_wait', { browserId: id, textGone: 'Loading results', timeoutMs: 1000 }, 'browser_timeout');
  assert.match(still.error.message, /the text is still shown: "Loading results…/);

  const never = await callError(client, 'browser_wait', { browserId: id, function: '() => window.resultsShown', timeoutMs: 1000 }, 'browser_timeout');
  assert.match(never.error.message, /the function returned null/);
  const threw = await callError(client, 'browser_wait', { browserId: id, function: "() => { throw new Error('boom') }" }, 'browser_script_error');
  assert.match(threw.error.message, /boom/);

  await callError(client, 'browser_wait', { browserId: id, selector: '##bad', timeoutMs: 300 }, 'browser_invalid_argument');
  await callError(client, 'browser_wait', { browserId: id, text: 'a', selector: 'p' }, 'browser_invalid_argument');
  await callError(client, 'browser_wait', { browserId: id, textGone: 'a', state: 'visible' }, 'browser_invalid_argument');
  await callError(client, 'browser_wait', { browserId: id, loadState: 'idle' }, 'browser_invalid_argument');
});

test('browser_get_styles gives computed style, box and why an element is not visible', options, async () => {
  const { data } = await callOk(client, 'browser_new_tab', { url: fixtures.url('/reading/styles.html') });
  const id = data.browserId;
  const snapshot = await snapshotIn(client, id);
  const save = refFor(snapshot, 'button "Save"');

  const asked = await callOk(client, 'browser_get_styles', { browserId: id, ref: save, properties: ['color', 'margin-left'] });
  assert.deepEqual(asked.data.style, { color: 'rgb(255, 0, 0)', 'margin-left': '8px' });
  assert.equal(asked.data.visible, true);
  assert.deepEqual(asked.data.box.margin, [4, 8, 4, 8]);
  assert.equal(asked.data.box.x, 8);
  assert.match(asked.text, new RegExp(`^${save} <button> is visible\\.`));
  assert.equal(textField(asked.text, 'ref'), save);
  assert.match(asked.text, /^ {2}color: rgb\(255, 0, 0\)$/m);

  const differing = await callOk(client, 'browser_get_styles', { browserId: id, ref: save });
  assert.equal(differing.data.style.color, 'rgb(255, 0, 0)', 'a colour that differs from the default');
  assert.equal(differing.data.style['margin-top'], '4px');
  assert.equal(differing.data.style['text-align'], undefined, 'properties at their default are left out');

  const why = async (needle) => (await callOk(client, 'browser_get_styles', { browserId: id, ref: refFor(snapshot, needle), properties: ['opacity'] })).data;
  assert.match((await why('Clipped link')).hiddenBecause, /^clipped by an ancestor with overflow: hidden$/);
  assert.equal((await why('button "Faded"')).hiddenBecause, 'opacity: 0');
  assert.match((await why('button "Far away"')).hiddenBecause, /^off-screen/);

  await callOk(client, 'browser_evaluate', {
    browserId: id,
    function: "() => { const d = document.createElement('div'); d.id = 'overlay'; d.style.cssText = 'position: fixed; inset: 0; background: white'; document.body.append(d); }",
  });
  const covered = await callOk(client, 'browser_get_styles', { browserId: id, ref: save, properties: ['color'] });
  assert.equal(covered.data.visible, false);
  assert.equal(covered.data.hiddenBecause, 'covered by div#overlay');
  assert.match(covered.text, /is not visible: covered by div#overlay\./);

  await callError(client, 'browser_get_styles', { browserId: id, ref: '@e99999' }, 'browser_stale_ref');
  await callError(client, 'browser_get_styles', { browserId: id }, 'browser_invalid_argument');
});

// browser_find_in_tabs: the workspace's open tabs ranked by their text.

test('browser_find_in_tabs ranks the open tabs by their text, with snippets', options, async () => {
  const open = async (page) => (await callOk(client, 'browser_new_tab', { url: fixtures.url(`/reading/${page}`) })).data.browserId;
  const lighthouse = await open('find-lighthouse.html');
  const glacier = await open('find-glacier.html');
  const orchard = await open('find-orchard.html');

  const tool = (await client.listTools()).tools.find((t) => t.name === 'browser_find_in_tabs');
  assert.ok(tool, 'the reading group offers browser_find_in_tabs');
  assert.equal(tool.annotations.readOnlyHint, true);

  // Two tabs mention fog; the one about the lantern and its keeper is first.
  const ranked = await callOk(client, 'browser_find_in_tabs', { query: 'fog lantern keeper' });
  const ids = ranked.data.matches.map((m) => m.browserId);
  assert.deepEqual(ids, [lighthouse, glacier], `only the tabs with the words, best first: ${ranked.text}`);
  const best = ranked.data.matches[0];
  assert.equal(best.url, fixtures.url('/reading/find-lighthouse.html'));
  assert.equal(best.title, 'Lighthouse keepers');
  assert.equal(best.indexed, 'page');
  assert.ok(best.score > ranked.data.matches[1].score, 'scores fall with the rank');
  assert.match(best.snippet, /\*\*lantern\*\*/);
  assert.match(ranked.data.matches[1].snippet, /Morning \*\*fog\*\* lies/);
  assert.ok(ranked.data.tabs >= 3, 'every open tab was searched');
  assert.match(ranked.text, /^2 of \d+ tabs match "fog lantern keeper", best first\./);
  assert.equal(textField(ranked.text, '1. browserId'), lighthouse);
  assert.match(ranked.text, /\n {3}url: .*find-lighthouse\.html\n {3}title: "Lighthouse keepers"\n {3}score: [\d.e+-]+\n {3}snippet: ".*\*\*lantern\*\*.*"$/m);

  // Hidden text is not visible text.
  const hidden = await callOk(client, 'browser_find_in_tabs', { query: 'marzipan' });
  assert.deepEqual(hidden.data.matches, []);

  // Nothing changed in the three pages: the second search reads none of them again.
  const again = await callOk(client, 'browser_find_in_tabs', { query: 'quince' });
  assert.deepEqual(again.data.matches.map((m) => m.browserId), [orchard]);
  assert.ok(again.data.unchanged >= 3, `unchanged pages are not read again: ${again.text}`);
  assert.match(again.data.matches[0].snippet, /\*\*Quince\*\* and medlar/);

  // A page that changed is read again before the search.
  await callOk(client, 'browser_evaluate', {
    browserId: glacier,
    function: "() => { const p = document.createElement('p'); p.textContent = 'A moraine of boulders marks where the glacier ended.'; document.body.append(p); }",
  });
  const changed = await callOk(client, 'browser_find_in_tabs', { query: 'moraine' });
  assert.deepEqual(changed.data.matches.map((m) => m.browserId), [glacier]);
  assert.ok(changed.data.read >= 1, 'the changed page was read again');
  assert.match(changed.data.matches[0].snippet, /\*\*moraine\*\* of boulders/);

  // FTS5 syntax in a query is text: quotes, minus, star, NEAR, column names.
  // (Other tests' tabs are open too: "title" is in some of their URLs.)
  for (const query of ['"NEAR" miss', 'ladder-rack', '-quince*', 'body: medlar', 'title: NEAR(']) {
    const r = await callOk(client, 'browser_find_in_tabs', { query });
    const found = r.data.matches.map((m) => m.browserId);
    if (query.startsWith('title'))
      assert.ok(found.includes(orchard), `query ${query}: ${r.text}`);
    else
      assert.deepEqual(found, [orchard], `query ${query}: ${r.text}`);
  }
  await callOk(client, 'browser_find_in_tabs', { query: 'a "b' });

  // No match, and queries without words.
  const none = await callOk(client, 'browser_find_in_tabs', { query: 'zeppelin xylophone' });
  assert.deepEqual(none.data.matches, []);
  assert.match(none.text, /^No tab matches "zeppelin xylophone" \(searched \d+ tabs\)\./);
  await callError(client, 'browser_find_in_tabs', { query: '"*" -' }, 'browser_invalid_argument');
  await callError(client, 'browser_find_in_tabs', { query: 'fog', maxResults: 0 }, 'browser_invalid_argument');
  const one = await callOk(client, 'browser_find_in_tabs', { query: 'fog', maxResults: 1 });
  assert.deepEqual(one.data.matches.map((m) => m.browserId), [lighthouse]);

  // A closed tab leaves the index.
  await callOk(client, 'browser_close_tab', { browserId: orchard });
  const closed = await callOk(client, 'browser_find_in_tabs', { query: 'quince' });
  assert.deepEqual(closed.data.matches, []);
});

test('browser_find_in_tabs matches a restored tab that never loaded by its saved title and URL', options, async () => {
  const persist = fs.mkdtempSync(path.join(os.tmpdir(), 'tabwright-e2e-find-'));
  for (const dir of ['workspace', 'data', 'cache'])
    fs.mkdirSync(path.join(persist, dir), { mode: 0o700 });
  const launch = () => {
    const dirs = makeAppDirs();
    dirs.workspace = path.join(persist, 'workspace');
    return startTabwright({ dirs, args: ['--tools', 'core,reading'],
      env: { XDG_DATA_HOME: path.join(persist, 'data'), XDG_CACHE_HOME: path.join(persist, 'cache') } });
  };
  try {
    const first = await launch();
    const workspaceId = first.info.workspaceId;
    assert.ok((await first.stop()).clean, 'tabwright exits cleanly');
    const asleep = fixtures.url('/reading/find-orchard.html?from=session');
    const shown = fixtures.url('/reading/find-glacier.html');
    fs.writeFileSync(path.join(persist, 'data', 'tabwright', 'workspaces', workspaceId, 'session.json'),
      JSON.stringify({ version: 1, tabs: [{ url: asleep, title: 'Saved pomology' }, { url: shown, title: 'Glaciers' }] }),
      { mode: 0o600 });

    const restored = await launch();
    const agent = await connectClient(restored);
    try {
      const behind = (await callOk(agent, 'browser_list_tabs')).data.tabs[0];
      assert.equal(behind.loading, false, 'the tab behind loads nothing yet');

      const byTitle = await callOk(agent, 'browser_find_in_tabs', { query: 'pomology' });
      assert.equal(byTitle.data.matches.length, 1, byTitle.text);
      const match = byTitle.data.matches[0];
      assert.equal(match.browserId, behind.browserId);
      assert.equal(match.indexed, 'title');
      assert.match(match.note, /restored tab not loaded yet: matched on its saved title and URL/);
      assert.match(byTitle.text, /indexed: title \(a restored tab not loaded yet/);
      const byUrl = await callOk(agent, 'browser_find_in_tabs', { query: 'session' });
      assert.deepEqual(byUrl.data.matches.map((m) => m.browserId), [behind.browserId], 'its URL is searched');
      // Its page text is not known, and searching did not load it.
      assert.deepEqual((await callOk(agent, 'browser_find_in_tabs', { query: 'quince' })).data.matches, []);
      const after = (await callOk(agent, 'browser_list_tabs')).data.tabs[0];
      assert.equal(after.title, 'Saved pomology', 'the restored tab was not woken by the search');
    } finally {
      await agent.close().catch(() => {});
      assert.ok((await restored.stop()).clean, 'tabwright exits cleanly');
    }
  } finally {
    fs.rmSync(persist, { recursive: true, force: true, maxRetries: 10 });
  }
});
