// SPDX-License-Identifier: GPL-3.0-or-later
//
// The entry point the C side calls (TwPageRuntime): __tabwright.call(name,
// argsJson, nextRef, frame) runs one registered function and answers a JSON
// string (frame: this frame's number, given in frames of another origin, see
// frames.js),
// {ok: true, value, nextRef} or {ok: false, error: {code, message}, nextRef}.
// No exception leaves it: an error thrown with Base.error() keeps its MCP
// code, anything else is reported as browser_internal.
//
// Other modules add functions with Api.register(name, (ctx, args) => value);
// a function may return a promise. Functions that take a ref resolve it with
// Refs.resolve(ctx, args.ref) and nothing else.

const Api = {
  functions: new Map(),

  register (name, fn) {
    Api.functions.set(name, fn);
  },

  call (name, argsJson, nextRef, frame) {
    return Api.answer(name, argsJson, nextRef, frame, false);
  },

  // The tab's call (call/call.js): the same answer, except that a long
  // text in the value (a snapshot, the text of a page) comes beside the
  // JSON, as [json, text], so that it is neither escaped here nor parsed
  // there (TwPageRuntime puts it back in the value). Such a text gets an
  // id, which the tab keeps with it and names in its next calls (held):
  // the same text again, a snapshot of a page that did not change, is
  // answered with the id alone, and the tab puts back the text it holds.
  callFromTab (name, argsJson, nextRef, held) {
    return Api.answer(name, argsJson, nextRef, 0, held === undefined ? '' : held);
  },

  // Past this many characters, a text travels beside the JSON.
  APART: 4096,

  // The last text sent beside the JSON and its id: ids are unique to this
  // document's runtime, so an id the tab holds from another document never
  // matches.
  sentText: null,
  sentId: '',
  sentCount: 0,
  NONCE: Math.random().toString(36).slice(2, 10),

  // apart: false for calls from another frame's runtime, else the id of
  // the text the tab holds ('' for none).
  answer (name, argsJson, nextRef, frame, apart) {
    Refs.sync(nextRef);
    if (typeof frame === 'number' && frame > 0)
      Frames.number = frame;
    try {
      const fn = Api.functions.get(name);
      if (fn === undefined)
        throw Base.error('browser_internal', 'the page runtime has no function "' + name + '"');
      const args = argsJson ? JSON.parse(argsJson) : {};
      if (args === null || typeof args !== 'object')
        throw Base.error('browser_invalid_argument', 'runtime arguments must be an object');
      const ctx = Dom.context(args);
      ctx.start = Base.now();
      Frames.prepare(name, args);
      const value = fn(ctx, args);
      if (value !== null && typeof value === 'object' && typeof value.then === 'function')
        return value.then((v) => Api.ok(Frames.toTop(v), apart), (e) => Api.fail(name, e));
      return Api.ok(Frames.toTop(value), apart);
    } catch (e) {
      return Api.fail(name, e);
    }
  },

  ok (value, apart) {
    try {
      const v = value === undefined ? null : value;
      if (typeof apart === 'string' && v !== null && typeof v === 'object' && !Array.isArray(v) &&
          typeof v.text === 'string' && v.text.length > Api.APART) {
        const rest = Object.assign({}, v);
        delete rest.text;
        // The same characters as the text the tab holds: the tab has them.
        if (apart !== '' && apart === Api.sentId && v.text === Api.sentText) {
          rest.held = true;
          return JSON.stringify({ ok: true, value: rest, nextRef: Refs.next, textHeld: apart });
        }
        Api.sentId = Api.NONCE + '.' + (++Api.sentCount);
        Api.sentText = v.text;
        return [JSON.stringify({ ok: true, value: rest, nextRef: Refs.next, textId: Api.sentId }),
                v.text];
      }
      return JSON.stringify({ ok: true, value: v, nextRef: Refs.next });
    } catch (e) {
      return Api.fail('result', e);
    }
  },

  fail (name, e) {
    let code = 'browser_internal';
    let message;
    if (e && typeof e.twCode === 'string') {
      code = e.twCode;
      message = String(e.message);
    } else {
      message = 'the page runtime failed in ' + name + ': ' +
                String(e && e.message ? e.message : e);
      if (e && typeof e.stack === 'string')
        message += ' (' + e.stack.split('\n')[0] + ')';
    }
    return JSON.stringify({ ok: false, error: { code, message }, nextRef: Refs.next });
  },

  // Facts about the element of a ref, for action tools and for the overlay
  // that shows where an agent is about to act.
  resolveRef (ctx, args) {
    const el = Refs.resolve(ctx, args.ref);
    const rect = Dom.viewportRect(el);
    return {
      ref: Refs.format(Refs.parse(args.ref)),
      role: Roles.role(ctx, el),
      name: Names.name(ctx, el),
      tag: el.localName,
      visible: !Dom.hiddenDeep(ctx, el),
      rect,
      frameUrl: el.ownerDocument.URL,
    };
  },

  // Test hook: every element carrying data-expect-role, data-expect-name,
  // data-expect-description or data-expect-states (states joined by "; "),
  // in the document, its open shadow roots and same-origin frames, with
  // what the runtime computes for it. The tests compare the two.
  checkExpectations (ctx, args) {
    const checks = [];
    const visit = (root) => {
      const all = root.querySelectorAll('*');
      for (const el of all) {
        if (el.hasAttribute('data-expect-role') || el.hasAttribute('data-expect-name') ||
            el.hasAttribute('data-expect-description') || el.hasAttribute('data-expect-states'))
          Api.checkOne(ctx, el, checks);
        if (el.shadowRoot)
          visit(el.shadowRoot);
        if (el.localName === 'iframe') {
          const d = Dom.frameDocument(el);
          if (d)
            visit(d);
        }
      }
    };
    visit(document);
    return { checks };
  },

  checkOne (ctx, el, checks) {
    const label = el.getAttribute('data-case') || Base.clip(Base.flat(el.outerHTML), 140);
    const role = Roles.role(ctx, el);
    const check = (field, actual) => {
      const expected = el.getAttribute('data-expect-' + field);
      if (expected !== null)
        checks.push({ case: label, field, expected, actual: actual() });
    };
    check('role', () => role);
    check('name', () => Names.name(ctx, el));
    check('description', () => Names.description(ctx, el));
    if (el.hasAttribute('data-expect-states')) {
      ctx.focused = Dom.deepActiveElement(document);
      const name = Names.name(ctx, el);
      checks.push({ case: label, field: 'states', expected: el.getAttribute('data-expect-states'),
                    actual: States.compute(ctx, el, role, name).join('; ') });
    }
  },
};

// Test hook: the diff of two lists of snapshot lines, compared where they
// differ (when it applies) and line by line; the tests check both agree.
Api.register('diffCheck', (ctx, args) => {
  const local = SnapshotDiff.local(args.before, args.after);
  const full = SnapshotDiff.full(args.before, args.after);
  return { local, full };
});
Api.register('snapshot', Snapshot.run);
Api.register('snapshotContinue', Snapshot.continueFrom);
Api.register('resolveRef', Api.resolveRef);
Api.register('checkExpectations', Api.checkExpectations);
Api.register('ping', () => ({ url: document.URL }));

if (globalThis.__tabwright === undefined) {
  Object.defineProperty(globalThis, '__tabwright', {
    value: Object.freeze({
      call: Api.call, callFromTab: Api.callFromTab, path: () => Frames.pathOf(window),
    }),
    writable: false,
    configurable: false,
    enumerable: false,
  });
}
