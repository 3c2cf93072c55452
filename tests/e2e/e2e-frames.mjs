// SPDX-License-Identifier: GPL-3.0-or-later
//
// Frames of another origin, as a shop's card form from a payment provider:
// the snapshot shows what is inside them, with the frame's origin and refs
// that carry the frame (@f1e5), and browser_type, browser_fill and
// browser_click act inside them as on any element. The shop page and the
// card form come from two fixture servers, so two origins (another port is
// another origin), and are driven through the real app with the official
// MCP SDK client; the checks read what the card frame shows. browser_evaluate
// with a ref runs in the frame, and browser_mouse at a point over it acts
// inside it.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { startFixtureServer } from './lib/fixture-server.mjs';
import { callError, callOk, evaluateIn, refIn, resultText, snapshotIn } from './lib/mcp.mjs';
import { startSession } from './lib/session.mjs';
import { requirementOptions } from './lib/tabwright.mjs';
import { waitUntil } from './lib/wait.mjs';

const options = requirementOptions();

let session;
let fixtures;
let provider;
let client;

const snapshot = (browserId, extra) => snapshotIn(client, browserId, extra);

// The line of the snapshot that holds @needle.
function lineOf(text, needle) {
  const line = text.split('\n').find((l) => l.includes(needle));
  assert.ok(line !== undefined, `no line with ${needle} in:\n${text}`);
  return line;
}

// The snapshot once it has a line with @needle: the nested frame loads
// after the page's load event may have come.
async function waitForLine(browserId, needle) {
  let text = '';
  await waitUntil(`a snapshot with ${needle}`, async () => {
    text = await snapshot(browserId);
    return text.includes(needle);
  }, { detail: () => text });
  return text;
}

async function openCheckout(query = '', page = '') {
  const card = provider.url(`/frames/card.html${query}`);
  const { data } = await callOk(client, 'browser_new_tab', {
    url: fixtures.url(`/frames/checkout.html?card=${encodeURIComponent(card)}${page}`),
  });
  await callOk(client, 'browser_wait', { browserId: data.browserId, text: 'Card form ready' });
  return data.browserId;
}

before(async () => {
  if (options.skip)
    return;
  // The input group brings browser_mouse.
  session = await startSession({ clientName: 'tabwright-e2e-frames', tabwright: { args: ['--tools', 'core,input'] } });
  ({ fixtures, client } = session);
  provider = await startFixtureServer();
  assert.notEqual(new URL(provider.origin).port, new URL(fixtures.origin).port);
});

after(async () => {
  await session?.close();
  await provider?.close();
});

test('the snapshot shows a card form inside a frame of another origin, with its origin and refs', options, async () => {
  const id = await openCheckout();
  const text = await snapshot(id);

  const frame = lineOf(text, 'iframe "Card details"');
  assert.ok(frame.includes(`[cross-origin] [origin="${provider.origin}"]`), frame);
  for (const field of ['textbox "Card number"', 'textbox "Expiry"', 'textbox "CVC"', 'button "Pay"']) {
    const line = lineOf(text, field);
    assert.match(line, / @f[1-9]\d*e[1-9]\d* ?/, `${field} has a ref that names its frame: ${line}`);
    // Inside the frame: indented below its iframe line.
    assert.ok(line.indexOf('-') > frame.indexOf('-'), `${field} is under the frame:\n${text}`);
  }
  assert.ok(lineOf(text, 'textbox "Expiry"').includes('[placeholder="MM/YY"]'), text);

  // Refs stay unique across the frames of the tab.
  const refs = [...text.matchAll(/@(?:f\d+)?e(\d+)/g)].map((m) => m[1]);
  assert.equal(new Set(refs).size, refs.length, `each ref number once:\n${text}`);

  // The interactive snapshot reaches into the frame too.
  const interactive = await snapshot(id, { interactive: true });
  assert.equal(refIn(interactive, 'button "Pay"'), refIn(text, 'button "Pay"'));

  // Nothing of the bridge is visible to the page's own scripts.
  assert.equal(await evaluateIn(client, id, '() => typeof __tabwrightFrames + typeof __tabwright'),
    'undefinedundefined');
});

test('typing, filling, selecting, hovering and clicking inside a frame of another origin pay with the card', options, async () => {
  const id = await openCheckout();
  const text = await snapshot(id);

  await callOk(client, 'browser_type', {
    browserId: id, ref: refIn(text, 'textbox "Card number"'), text: '4242 4242 4242 4242',
  });
  await callOk(client, 'browser_fill', { browserId: id, ref: refIn(text, 'textbox "Expiry"'), value: '12/30' });
  // A click focuses the field; keys without a ref follow the focus into the frame.
  await callOk(client, 'browser_click', { browserId: id, ref: refIn(text, 'textbox "CVC"') });
  await callOk(client, 'browser_type', { browserId: id, text: '123' });
  await callOk(client, 'browser_select', { browserId: id, ref: refIn(text, 'combobox "Country"'), value: 'France' });

  const filled = await snapshot(id);
  assert.ok(lineOf(filled, 'textbox "Card number"').includes('4242 4242 4242 4242'), filled);
  assert.ok(lineOf(filled, 'textbox "Expiry"').includes('12/30'), filled);
  assert.ok(lineOf(filled, 'textbox "CVC"').includes('123'), filled);
  assert.ok(lineOf(filled, 'combobox "Country"').includes('France'), filled);
  assert.ok(!filled.includes('three digits on the back'), filled);

  await callOk(client, 'browser_hover', { browserId: id, ref: refIn(text, 'img "What is the CVC?"') });
  assert.ok((await snapshot(id)).includes('The three digits on the back of the card'), 'the hint shows on hover');
  // The pointer leaves the frame for the shop's page: the hint goes.
  await callOk(client, 'browser_hover', { browserId: id, ref: refIn(text, 'heading "Checkout"') });
  assert.ok(!(await snapshot(id)).includes('three digits on the back'), 'the hint hides when the pointer leaves');

  await callOk(client, 'browser_scroll', { browserId: id, ref: refIn(text, 'region "Terms"'), deltaX: 0, deltaY: 400 });
  await callOk(client, 'browser_wait', { browserId: id, text: 'Terms read to the end' });

  const pay = refIn(text, 'button "Pay"');
  const clicked = await callOk(client, 'browser_click', { browserId: id, ref: pay });
  assert.ok(clicked.text.includes(pay), clicked.text);

  // browser_wait sees the text the frame shows.
  await callOk(client, 'browser_wait', { browserId: id, text: 'Paid with the card ending 4242' });
  const paid = await snapshot(id);
  const status = lineOf(paid, 'Paid with the card ending 4242 from France');
  const keys = Number(/\((\d+) keys/.exec(status)[1]);
  assert.ok(keys >= 22, `the frame saw a key for every character typed: ${status}`);
});

test('a ref into a frame that has gone is stale, and a ref never acts in another frame', options, async () => {
  const id = await openCheckout();
  const text = await snapshot(id);
  const pay = refIn(text, 'button "Pay"');
  const number = Number(/^@f(\d+)e/.exec(pay)[1]);

  // The same element number in a frame it does not belong to.
  const elsewhere = pay.replace(/^@f\d+/, `@f${number + 1}`);
  await callError(client, 'browser_click', { browserId: id, ref: elsewhere }, 'browser_stale_ref');
  await callError(client, 'browser_click', { browserId: id, ref: pay.replace(/^@f\d+/, '@') },
    'browser_stale_ref');

  await evaluateIn(client, id, "() => { document.getElementById('card').remove(); return true; }");
  await callError(client, 'browser_click', { browserId: id, ref: pay }, 'browser_stale_ref');
});

test('a frame of another origin inside a frame of another origin is read and acted on too', options, async () => {
  // The bank's check comes from the shop's own origin, framed by the card
  // form of the other: the shop's page cannot reach into it either.
  // The card form starts below the first screen of the shop's page.
  const id = await openCheckout(`?verify=${encodeURIComponent(fixtures.url('/frames/verify.html'))}`, '&far');
  const text = await waitForLine(id, 'button "Confirm"');

  const card = lineOf(text, 'iframe "Card details"');
  const check = lineOf(text, 'iframe "Card check"');
  assert.ok(check.includes(`[origin="${fixtures.origin}"]`), check);
  assert.ok(check.indexOf('-') > card.indexOf('-'), `the check is inside the card frame:\n${text}`);
  const confirm = refIn(text, 'button "Confirm"');
  const pay = refIn(text, 'button "Pay"');
  assert.notEqual(/^@f(\d+)/.exec(confirm)[1], /^@f(\d+)/.exec(pay)[1], 'each frame has its number');

  assert.equal(await evaluateIn(client, id, '() => scrollY'), 0);
  await callOk(client, 'browser_click', { browserId: id, ref: confirm });
  assert.ok((await snapshot(id)).includes('Confirmed by the bank'));
  // The shop's page scrolled to the frame, as a person would to click in it.
  assert.ok(await evaluateIn(client, id, '() => scrollY') > 0, 'the page scrolled to the frame');

  // A part of the page from inside a frame.
  const part = await snapshot(id, { ref: refIn(text, 'iframe "Card check"') });
  assert.ok(part.includes('Confirmed by the bank'), part);
  assert.ok(!part.includes('Card number'), part);

  // A picture of an element inside the frames.
  const shot = await client.callTool({ name: 'browser_screenshot', arguments: { browserId: id, ref: confirm } });
  assert.notEqual(shot.isError, true, resultText(shot));
  const image = shot.content.find((block) => block.type === 'image');
  assert.ok(image, 'the screenshot has an image');
  // The size in the PNG header: the button's, not the frame's or the page's.
  const png = Buffer.from(image.data, 'base64');
  const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
  assert.ok(width > 20 && width < 200 && height > 8 && height < 80, `a button-sized picture: ${width}x${height}`);
});

test('browser_evaluate with a ref inside a frame of another origin runs in that frame', options, async () => {
  const id = await openCheckout();
  const text = await snapshot(id);
  const number = refIn(text, 'textbox "Card number"');
  const evaluate = async (fn, ref = number) =>
    (await callOk(client, 'browser_evaluate', { browserId: id, ref, function: fn })).data;

  // The element, the frame's globals (a const of its script) and its origin.
  const inFrame = await evaluate("(el) => [el.id, location.origin, typeof typed, document.title]");
  assert.deepEqual(inFrame.result, ['number', provider.origin, 'object', 'Card']);
  assert.equal(inFrame.resultType, 'array');

  // Promises are awaited; what the frame's page changes, it sees.
  await callOk(client, 'browser_fill', { browserId: id, ref: number, value: '4242 4242 4242 4242' });
  const later = await evaluate('async (el) => { await new Promise((r) => setTimeout(r, 10)); return el.value; }');
  assert.equal(later.result, '4242 4242 4242 4242');

  // An exception is the function's, with its message.
  const thrown = await callError(client, 'browser_evaluate',
    { browserId: id, ref: number, function: "(el) => { throw new Error('no card ' + el.id); }" },
    'browser_script_error');
  assert.ok(thrown.error.message.includes('no card number'), thrown.text);

  // Without a ref the function still runs in the shop's page.
  assert.equal(await evaluateIn(client, id, '() => location.origin'), fixtures.origin);

  // A ref of a frame that has gone is stale.
  await evaluateIn(client, id, "() => { document.getElementById('card').remove(); return true; }");
  await callError(client, 'browser_evaluate', { browserId: id, ref: number, function: '(el) => el.id' },
    'browser_stale_ref');
});

test('browser_mouse at a point over a frame of another origin reaches the element inside it', options, async () => {
  const id = await openCheckout();
  const text = await snapshot(id);
  const cvc = refIn(text, 'textbox "CVC"');
  const help = refIn(text, 'img "What is the CVC?"');

  // The centre of an element inside the frame, in the page's viewport: the
  // frame's content box plus the element's place in the frame.
  const frameAt = await evaluateIn(client, id, `() => {
    const f = document.getElementById('card');
    const r = f.getBoundingClientRect();
    const s = getComputedStyle(f);
    return [r.left + parseFloat(s.borderLeftWidth) + parseFloat(s.paddingLeft),
            r.top + parseFloat(s.borderTopWidth) + parseFloat(s.paddingTop)];
  }`);
  const centre = async (ref) => {
    const { data } = await callOk(client, 'browser_evaluate', {
      browserId: id, ref, function: '(el) => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }',
    });
    return { x: frameAt[0] + data.result[0], y: frameAt[1] + data.result[1] };
  };

  // Moving there shows the frame's hint, as a person's pointer does.
  const over = await centre(help);
  const moved = await callOk(client, 'browser_mouse', { browserId: id, action: 'move', ...over });
  assert.equal(moved.data.element.ref, help, moved.text);
  assert.ok((await snapshot(id)).includes('The three digits on the back of the card'), 'the hint shows');

  // A click there focuses the field inside the frame: keys follow it.
  const at = await centre(cvc);
  const clicked = await callOk(client, 'browser_mouse', { browserId: id, action: 'click', ...at });
  assert.equal(clicked.data.element.ref, cvc, clicked.text);
  assert.ok(clicked.text.includes(cvc), clicked.text);
  assert.ok(!(await snapshot(id)).includes('three digits on the back'), 'the pointer left the hint');
  await callOk(client, 'browser_type', { browserId: id, text: '321' });
  const { data } = await callOk(client, 'browser_evaluate', { browserId: id, ref: cvc, function: '(el) => el.value' });
  assert.equal(data.result, '321');
});
