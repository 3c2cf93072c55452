// SPDX-License-Identifier: GPL-3.0-or-later
//
// Frames of another origin. Neither a page's script nor this runtime may
// reach into a frame of another origin, so every frame runs its own copy of
// the runtime in its own isolated world, and the web-process extension
// (webview/extension/tw-extension-frames.c) gives each copy one native
// function, __tabwrightFrames(path, fn, argsJson, nextRef), that runs a
// registered function of another frame's copy and answers its JSON reply.
// Page scripts live in another world: they can neither see that function
// nor forge its answers.
//
// A frame is named by its path from the top: the index of each frame in
// its parent's window.frames, joined with dots ('' is the top, '0.2' the
// third frame of the first). A window of another origin still tells its
// parent and its frames, so the frame and its parent agree on the path.
//
// The extension numbers the frames of a page; the refs a frame's runtime
// prints carry that number (@f2e7). The tab sends every call with such a
// ref here, to frames.forward, which runs it in that frame's runtime
// within the tab's call: the engine lets a frame of another origin move
// the focus only within a call of the tab, which counts as a user gesture.

const Frames = {
  // This frame's number, given with each call the extension makes here; 0
  // in the main frame, whose refs carry none.
  number: 0,
  MAX_PATH: 32,

  // The path of a window from the top, or null when it cannot be told.
  pathOf (win) {
    const parts = [];
    try {
      let w = win;
      for (let i = 0; w !== w.parent; i++) {
        if (i === Frames.MAX_PATH)
          return null;
        const parent = w.parent;
        const n = parent.length;
        let k = 0;
        while (k < n && parent[k] !== w)
          k++;
        if (k === n)
          return null;
        parts.push(k);
        w = parent;
      }
    } catch (e) {
      return null;
    }
    return parts.reverse().join('.');
  },

  // Whether other frames' runtimes can be called at all.
  reachable () {
    return typeof globalThis.__tabwrightFrames === 'function';
  },

  // Runs fn in the runtime of the frame at path, at once, and gives its
  // value; null when no runtime there answers. The ref counter goes there
  // and back, so refs stay unique across the frames of a tab.
  call (path, fn, args) {
    const native = globalThis.__tabwrightFrames;
    if (typeof native !== 'function')
      return null;
    const json = native(path, fn, JSON.stringify(args), Refs.next);
    return typeof json === 'string' ? Frames.unwrap(json) : null;
  },

  // Runs fn in the runtime of the frame at path, which may answer later:
  // the promise of its value.
  callAsync (path, fn, args) {
    const native = globalThis.__tabwrightFrames;
    const answer = typeof native === 'function' ? native(path, fn, JSON.stringify(args), Refs.next) : null;
    if (typeof answer === 'string')
      return new Promise((resolve) => resolve(Frames.unwrap(answer)));
    if (answer !== null && typeof answer === 'object' && typeof answer.then === 'function')
      return answer.then(Frames.unwrap);
    return Promise.reject(Base.error('browser_not_interactable',
                                     'the frame at that point did not answer; take a new snapshot'));
  },

  // The value of another runtime's JSON answer, or its error thrown.
  unwrap (json) {
    const answer = JSON.parse(json);
    Refs.sync(answer.nextRef);
    if (answer.ok !== true) {
      const e = answer.error || {};
      throw Base.error(e.code || 'browser_internal', String(e.message));
    }
    return answer.value;
  },

  // frames.forward: the tab's call {frame, fn, args} to the frame of that
  // number (TwPageRuntime), run in that frame's runtime; its value, or the
  // promise of it, is this call's.
  forward (ctx, a) {
    const native = globalThis.__tabwrightFrames;
    const answer = typeof native === 'function'
      ? native('#' + (a.frame | 0), String(a.fn), String(a.args), Refs.next) : null;
    if (typeof answer === 'string')
      return Frames.unwrap(answer);
    if (answer !== null && typeof answer === 'object' && typeof answer.then === 'function')
      return answer.then(Frames.unwrap);
    throw Base.error('browser_stale_ref',
                     'the frame of that ref is no longer on the page; take a new snapshot');
  },

  // The snapshot of the frame of another origin that el holds, for the
  // printer to put under el: {lines, origin}, or null when it cannot be
  // read (no runtime answers). It may take until deadline.
  snapshot (ctx, el, depth, frameDepth, deadline) {
    const win = el.contentWindow;
    const path = win ? Frames.pathOf(win) : null;
    if (path === null || path === '')
      return null;
    const budget = deadline - Base.now();
    if (budget <= 0) {
      ctx.cut = true;
      return null;
    }
    let value;
    try {
      value = Frames.call(path, 'frames.snapshot', {
        interactive: ctx.interactive, budgetMs: budget, depth, frameDepth: frameDepth + 1,
      });
    } catch (e) {
      return null;
    }
    if (value === null || typeof value !== 'object' || !Array.isArray(value.lines))
      return null;
    ctx.visited += value.visited | 0;
    if (value.cut)
      ctx.cut = true;
    if (value.deep)
      ctx.deep = true;
    return { lines: value.lines, origin: String(value.origin) };
  },

  // frames.snapshot: this document's lines, as Snapshot prints them, for
  // the parent frame to put under its iframe.
  snapshotHere (ctx, args) {
    const doc = document;
    const budget = typeof args.budgetMs === 'number' ? args.budgetMs : 1000;
    ctx.start = Base.now();
    ctx.deadline = ctx.start + budget;
    Snapshot.startWalk(ctx, doc, args);
    ctx.watch = false;
    ctx.keep = null;
    ctx.reuse = false;
    ctx.printedBefore = null;
    ctx.printedNow = null;
    ctx.focusedBefore = null;

    let items = [];
    const root = doc.body || doc.documentElement;
    ctx.fast = !Dom.sheetFlags(ctx, doc).visibility;
    if (root) {
      Snapshot.walkElement(ctx, root, items, args.depth | 0, args.frameDepth | 0,
                           Dom.modalElement(doc));
    }
    if (ctx.interactive)
      items = Snapshot.interactiveOnly(items);
    const out = { lines: [], size: 0, full: false, late: false, deadline: ctx.start + budget };
    Snapshot.printList(ctx, items, 0, out);
    return {
      lines: out.lines, origin: location.origin, cut: ctx.cut || out.full, deep: ctx.deep,
      visited: ctx.visited,
    };
  },

  // frames.focused: {frame}, the number of the frame whose element has
  // the focus, through frames of another origin; 0 when it is the main
  // frame's, or that of a frame of its origin.
  focused (ctx, args) {
    const el = Dom.deepActiveElement(document);
    if (el !== null && (el.localName === 'iframe' || el.localName === 'frame') &&
        Dom.frameDocument(el) === null && el.contentWindow) {
      const path = Frames.pathOf(el.contentWindow);
      try {
        const inner = path === null || path === '' ? null
          : Frames.call(path, 'frames.focused', {});
        if (inner !== null && typeof inner === 'object' && typeof inner.frame === 'number')
          return inner;
      } catch (e) {
        // The frame cannot tell: keys go to the element here.
      }
    }
    return { frame: Frames.number };
  },

  // The text a frame of another origin shows, for browser_wait.
  collectText (el, parts, depth) {
    const path = Frames.reachable() && el.contentWindow ? Frames.pathOf(el.contentWindow) : null;
    if (path === null || path === '')
      return;
    try {
      const text = Frames.call(path, 'frames.text', { depth });
      if (typeof text === 'string')
        parts.push(text);
    } catch (e) {
      // A frame that cannot tell shows nothing here.
    }
  },

  // frames.evaluate: browser_evaluate's function (args.source, a function
  // expression of nonce and maxBytes, webview/tw-evaluate-script.c) run in
  // this frame's page world by the extension, for a ref inside this frame;
  // its answer ({value, type, truncated}, {threw, …} or {missing}), read
  // without a lookup the page could change: the page's promise is awaited
  // with this world's own then.
  evaluate (ctx, args) {
    const native = globalThis.__tabwrightPageCall;
    const answer = typeof native === 'function'
      ? native(String(args.source), String(args.nonce), Number(args.maxBytes)) : null;
    const read = (json) => {
      if (typeof json !== 'string')
        throw Base.error('browser_internal', 'the function could not run in the frame');
      return JSON.parse(json);
    };
    if (answer !== null && typeof answer === 'object')
      return new Promise((resolve, reject) => Reflect.apply(Frames.THEN, answer, [resolve, reject])).then(read);
    return read(answer);
  },
  THEN: Promise.prototype.then,

  textHere (ctx, args) {
    const parts = [];
    PageState.collect(document, parts, args.depth | 0);
    return parts.join(' ');
  },

  // The element of doc that holds the window win, or null.
  holder (doc, win) {
    for (const el of doc.querySelectorAll('iframe, frame')) {
      if (el.contentWindow === win)
        return el;
    }
    return null;
  },

  // The frames on path (frame indexes joined by dots, relative to this
  // frame), one step at a time: { win, doc, el } for each frame of this
  // origin on the way, el being the element of doc that holds the next
  // frame (null when there is none, the last step); or, where a frame of
  // another origin stands, { here, rest }: its path from the main frame
  // (null when unknown) and the rest of the path, for its own runtime.
  * pathSteps (path) {
    const parts = String(path).split('.');
    let win = window;
    for (let i = 0; i < parts.length; i++) {
      let doc = null;
      try {
        doc = win.document;
      } catch (e) {
        // Another origin: its own runtime goes on from there.
      }
      if (!doc) {
        yield { here: Frames.pathOf(win), rest: parts.slice(i).join('.') };
        return;
      }
      const child = win[parseInt(parts[i], 10)];
      const el = child ? Frames.holder(doc, child) : null;
      yield { win, doc, el };
      if (el === null)
        return;
      win = child;
    }
  },

  // frames.offset: where the content of the frame at args.path (relative
  // to this one) starts, in this frame's viewport, and the size of that
  // viewport. A frame of another origin on the way answers for the rest of
  // the path.
  offsetOf (ctx, args) {
    let x = 0;
    let y = 0;
    for (const step of Frames.pathSteps(args.path)) {
      if (step.rest !== undefined) {
        const rest = step.here === null ? null
          : Frames.call(step.here, 'frames.offset', { path: step.rest });
        if (rest === null || typeof rest !== 'object')
          return null;
        return Frames.here(x + rest.x, y + rest.y);
      }
      if (step.el === null)
        return null;
      const o = Pointer.contentOrigin(step.el);
      x += o.x;
      y += o.y;
    }
    return Frames.here(x, y);
  },

  here (x, y) {
    return { x, y, innerWidth: window.innerWidth, innerHeight: window.innerHeight };
  },

  // frames.show: brings the frame at args.path (relative to this one) into
  // view, with args.focus gives it the focus, as a click into it does, and
  // with args.pointer moves the pointer onto it: each frame on the way
  // scrolls to, focuses and points at the element that holds the next
  // one.
  show (ctx, args) {
    for (const { win, doc, el, here, rest } of Frames.pathSteps(args.path)) {
      if (rest !== undefined) {
        return here !== null &&
               Frames.call(here, 'frames.show', {
                 path: rest, focus: args.focus === true, pointer: args.pointer === true,
               }) === true;
      }
      if (el === null)
        return false;
      const r = el.getBoundingClientRect();
      if (r.top < 0 || r.left < 0 || r.bottom > win.innerHeight || r.right > win.innerWidth)
        el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
      if (args.focus === true && doc.activeElement !== el)
        el.focus({ preventScroll: true });
      if (args.pointer === true && win === window) {
        const b = el.getBoundingClientRect();
        Pointer.moveTo(b.left + b.width / 2, b.top + b.height / 2, Frames.NO_MODS);
      }
    }
    return true;
  },

  // Functions that act on a ref, and whether they move the focus and the
  // pointer as they do.
  ACTING: new Map([
    ['actions.click', { focus: true, pointer: true }],
    ['actions.drag', { focus: true, pointer: true }],
    ['actions.fill', { focus: true, pointer: false }],
    ['actions.select', { focus: true, pointer: false }],
    ['actions.upload', { focus: true, pointer: false }],
    ['keyboard.down', { focus: true, pointer: false }],
    ['actions.hover', { focus: false, pointer: true }],
    ['actions.scroll', { focus: false, pointer: true }],
    ['pageState.elementBox', { focus: false, pointer: false }],
  ]),
  NO_MODS: Object.freeze({ ctrl: false, shift: false, alt: false, meta: false }),

  // Before such a function runs in this frame: the frames above bring it
  // into view, where a person would act, and hand it the focus when the
  // action moves it; the engine lets a frame of another origin move the
  // focus within itself only once it has the focus, as a person's click
  // into it gives it.
  prepare (name, args) {
    const how = Frames.ACTING.get(name);
    if (Frames.number === 0 || typeof args.ref !== 'string' || how === undefined)
      return;
    const path = Frames.pathOf(window);
    try {
      if (path !== null && path !== '')
        Frames.call('', 'frames.show', { path, focus: how.focus, pointer: how.pointer });
    } catch (e) {
      // Then the action says what it could not do.
    }
  },

  // The pointer leaves a frame of another origin for the element target of
  // this document (Pointer.moveTo): the frame's runtime moves its own
  // pointer out of everything in it.
  pointerLeaves (old, target) {
    if (old === null || old === target || (old.localName !== 'iframe' && old.localName !== 'frame') ||
        Dom.frameDocument(old) !== null || !old.contentWindow)
      return;
    const path = Frames.pathOf(old.contentWindow);
    try {
      if (path !== null && path !== '')
        Frames.call(path, 'frames.pointerOut', {});
    } catch (e) {
      // A frame that is going away has nothing left to leave.
    }
  },

  pointerOut (ctx, args) {
    Pointer.moveTo(-1, -1, Frames.NO_MODS);
    return true;
  },

  // Where this frame's content starts in the top-level viewport; {0, 0} in
  // the main frame, or when the top cannot tell.
  offset () {
    if (Frames.number === 0)
      return { x: 0, y: 0 };
    const path = Frames.pathOf(window);
    let o = null;
    try {
      o = path === null || path === '' ? null : Frames.call('', 'frames.offset', { path });
    } catch (e) {
      o = null;
    }
    return o !== null && typeof o === 'object' ? o : { x: 0, y: 0 };
  },

  // An answer of this frame with its rectangles and points moved to the
  // top-level viewport, where the tab draws them. Only answers of a done
  // action: a box the tab hands back for the next try stays in this
  // frame's coordinates.
  toTop (value) {
    if (Frames.number === 0 || value === null || typeof value !== 'object' ||
        value.ready === false)
      return value;
    let o = null;
    const shift = (r) => {
      if (r === null || typeof r !== 'object' || typeof r.x !== 'number')
        return;
      if (o === null)
        o = Frames.offset();
      r.x += o.x;
      r.y += o.y;
    };
    shift(value.rect);
    shift(value.box);
    shift(value.point);
    // The box of an element's picture (pageState.elementBox): within the
    // top-level viewport.
    if (typeof value.innerWidth === 'number' && typeof value.x === 'number' &&
        typeof value.width === 'number') {
      if (o === null)
        o = Frames.offset();
      const iw = typeof o.innerWidth === 'number' ? o.innerWidth : value.innerWidth;
      const ih = typeof o.innerHeight === 'number' ? o.innerHeight : value.innerHeight;
      const x = Math.max(0, value.x + o.x);
      const y = Math.max(0, value.y + o.y);
      value.width = Math.max(0, Math.min(iw, value.x + o.x + value.width) - x);
      value.height = Math.max(0, Math.min(ih, value.y + o.y + value.height) - y);
      value.x = x;
      value.y = y;
      value.innerWidth = iw;
      value.innerHeight = ih;
    }
    return value;
  },
};

Api.register('frames.forward', Frames.forward);
Api.register('frames.snapshot', Frames.snapshotHere);
Api.register('frames.offset', Frames.offsetOf);
Api.register('frames.focused', Frames.focused);
Api.register('frames.show', Frames.show);
Api.register('frames.pointerOut', Frames.pointerOut);
Api.register('frames.text', Frames.textHere);
Api.register('frames.evaluate', Frames.evaluate);
