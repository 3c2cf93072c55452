// SPDX-License-Identifier: GPL-3.0-or-later
//
// What browser_wait and browser_resize ask the page: whether some text is
// visible, and the size of the viewport the page sees. The C side
// (webview/tw-page-tools.c) polls these; each call is short, so a page that
// navigates or hangs costs one check, never the whole wait.

const PageState = {
  // Matching ignores case and runs of white space: CSS text-transform and
  // line breaks change what innerText gives, not what a person reads.
  normalize (s) {
    return Base.flat(s).toLowerCase();
  },

  // The rendered text of a document, as a person sees it: innerText leaves
  // out display:none and visibility:hidden content. Open shadow roots and
  // frames are visited too, since innerText does not enter them.
  collect (doc, parts, depth) {
    if (!doc || depth > 8)
      return;

    const root = doc.body || doc.documentElement;
    if (!root)
      return;

    parts.push(root.innerText || '');

    const walker = doc.createTreeWalker(root, 1 /* NodeFilter.SHOW_ELEMENT */);
    for (let el = walker.currentNode; el !== null; el = walker.nextNode()) {
      if (el.shadowRoot)
        PageState.collectShadow(el.shadowRoot, parts, depth + 1);

      const tag = el.localName;
      if (tag === 'iframe' || tag === 'frame') {
        let inner = null;
        try {
          inner = el.contentDocument;
        } catch (e) {
          inner = null;
        }
        PageState.collect(inner, parts, depth + 1);
        // A frame of another origin tells its own (frames.js).
        if (inner === null && depth < 8)
          Frames.collectText(el, parts, depth + 1);
      }
    }
  },

  collectShadow (shadow, parts, depth) {
    if (depth > 8)
      return;

    for (const child of shadow.children) {
      if (typeof child.innerText === 'string')
        parts.push(child.innerText);

      const walker = child.ownerDocument.createTreeWalker(child, 1);
      for (let el = walker.currentNode; el !== null; el = walker.nextNode()) {
        if (el.shadowRoot)
          PageState.collectShadow(el.shadowRoot, parts, depth + 1);
      }
    }
  },

  visibleText () {
    const parts = [];
    PageState.collect(document, parts, 0);
    return Base.flat(parts.join(' '));
  },

  // {found, excerpt}: the excerpt tells the agent what the page shows
  // instead when the text never comes.
  findText (ctx, args) {
    if (typeof args.text !== 'string' || args.text.trim() === '')
      throw Base.error('browser_invalid_argument', 'text must be a non-empty string');

    const text = PageState.visibleText();
    const found = PageState.normalize(text).includes(PageState.normalize(args.text));
    return {
      found,
      excerpt: Base.clip(text, 300),
    };
  },

  // The viewport size the page's resize listeners have been told of: the
  // size when the document started, then the size at each resize event.
  // browser_resize answers once the page has seen its new size, not only
  // once innerWidth says it.
  seenSize: [window.innerWidth, window.innerHeight],

  viewportSize () {
    return {
      innerWidth: window.innerWidth,
      innerHeight: window.innerHeight,
      devicePixelRatio: window.devicePixelRatio,
      seen: PageState.seenSize[0] === window.innerWidth && PageState.seenSize[1] === window.innerHeight,
    };
  },

  // browser_screenshot of one element: scrolled into view when it is not
  // wholly in it, then its box in viewport pixels, cut to the viewport.
  // The document's title as the document has it: it reaches the UI process
  // on its own schedule, and the isolated world sees the real one whatever
  // the page's scripts did to the getter.
  title (ctx, args) {
    return document.title;
  },

  // A tab that rested in the background is shown again before a command
  // runs on it: this answers once the page sees itself visible and one
  // animation frame has passed, so that the command finds the page as live
  // as a tab on screen, its frames, observers and transitions running.
  whenVisible (ctx, args) {
    return new Promise((resolve) => {
      const start = Base.now();
      const framed = () => requestAnimationFrame(() => resolve({ waitedMs: Math.round(Base.now() - start) }));
      if (document.visibilityState === 'visible') {
        framed();
        return;
      }
      const changed = () => {
        if (document.visibilityState !== 'visible')
          return;
        document.removeEventListener('visibilitychange', changed, true);
        framed();
      };
      document.addEventListener('visibilitychange', changed, true);
    });
  },

  elementBox (ctx, args) {
    const el = Refs.resolve(ctx, args.ref);
    let rect = Dom.viewportRect(el);
    if (rect.width <= 0 || rect.height <= 0 || Dom.hiddenDeep(ctx, el))
      throw Base.error('browser_not_interactable', 'the element ' + args.ref + ' is not shown on the page, so it has no picture');
    if (rect.x < 0 || rect.y < 0 || rect.x + rect.width > window.innerWidth ||
        rect.y + rect.height > window.innerHeight) {
      el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
      rect = Dom.viewportRect(el);
    }
    const x = Math.max(0, rect.x);
    const y = Math.max(0, rect.y);
    return {
      x,
      y,
      width: Math.min(window.innerWidth, rect.x + rect.width) - x,
      height: Math.min(window.innerHeight, rect.y + rect.height) - y,
      innerWidth: window.innerWidth,
      innerHeight: window.innerHeight,
    };
  },
};

// Registered before any script of the page runs, so no page listener can
// stop it from hearing the event.
window.addEventListener('resize', () => {
  PageState.seenSize = [window.innerWidth, window.innerHeight];
}, true);

Api.register('pageState.findText', PageState.findText);
Api.register('pageState.viewportSize', PageState.viewportSize);
Api.register('pageState.elementBox', PageState.elementBox);
Api.register('pageState.title', PageState.title);
Api.register('pageState.whenVisible', PageState.whenVisible);
