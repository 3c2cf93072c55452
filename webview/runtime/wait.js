// SPDX-License-Identifier: GPL-3.0-or-later
//
// The conditions browser_wait polls beyond text and URL: an element (by CSS
// selector or ref) attached, visible, hidden or detached; a load state;
// text gone. Each look answers {found, excerpt}: whether the condition
// holds, and else what the page shows instead, for the timeout message.

const Wait = {
  element (ctx, args) {
    if (args.ref !== undefined) {
      try {
        return Refs.resolve(ctx, args.ref);
      } catch (e) {
        if (e.twCode === 'browser_stale_ref')
          return null;
        throw e;
      }
    }
    try {
      return document.querySelector(args.selector);
    } catch (e) {
      throw Base.error('browser_invalid_argument',
                       'selector ' + Base.quote(args.selector) + ' is not valid CSS');
    }
  },

  // Why a connected element is not visible, or null when it is.
  hiddenBecause (el) {
    const s = getComputedStyle(el);
    for (let a = el; a; a = a.parentElement) {
      if (getComputedStyle(a).display === 'none')
        return a === el ? 'display: none' : 'inside an element with display: none';
    }
    if (s.visibility !== 'visible')
      return 'visibility: ' + s.visibility;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0)
      return 'it has no size (' + r.width + ' × ' + r.height + ')';
    return null;
  },

  elementState (ctx, args) {
    const state = args.state || 'visible';
    const el = Wait.element(ctx, args);
    const why = el ? Wait.hiddenBecause(el) : null;
    let found;
    if (state === 'attached')
      found = el !== null;
    else if (state === 'detached')
      found = el === null;
    else if (state === 'visible')
      found = el !== null && why === null;
    else
      found = el === null || why !== null;
    let excerpt;
    if (el === null)
      excerpt = args.ref !== undefined ? 'the element of ' + args.ref + ' is not on the page'
                                       : 'no element matches ' + args.selector;
    else if (why !== null)
      excerpt = 'the element is there but hidden: ' + why;
    else
      excerpt = 'the element is there and visible: ' +
                Base.quote(Base.clip(Base.flat(el.innerText || el.textContent), 80));
    return { found, excerpt };
  },

  loadState (ctx, args) {
    const ready = document.readyState;
    if (args.loadState === 'domcontentloaded')
      return { found: ready !== 'loading', excerpt: 'document.readyState is "' + ready + '"' };
    if (args.loadState === 'load' || ready !== 'complete')
      return { found: ready === 'complete', excerpt: 'document.readyState is "' + ready + '"' };
    // Network idle, when the C side has no request log of the tab to judge
    // it from (tw_page_tools_wait_async): nothing finished loading in the
    // last 500 ms, as far as Resource Timing tells.
    let last = 0;
    for (const e of performance.getEntriesByType('resource'))
      last = Math.max(last, e.responseEnd);
    for (const e of performance.getEntriesByType('navigation'))
      last = Math.max(last, e.loadEventEnd);
    const quiet = performance.now() - last;
    return {
      found: quiet >= 500,
      excerpt: 'the last request finished ' + Math.round(quiet) + ' ms ago',
    };
  },

  textGone (ctx, args) {
    const text = PageState.visibleText();
    const at = PageState.normalize(text).indexOf(PageState.normalize(args.textGone));
    return {
      found: at < 0,
      excerpt: at < 0 ? '' : 'the text is still shown: ' +
               Base.quote(Base.clip(Base.flat(text), 300)),
    };
  },

  check (ctx, args) {
    if (typeof args.textGone === 'string')
      return Wait.textGone(ctx, args);
    if (typeof args.loadState === 'string')
      return Wait.loadState(ctx, args);
    return Wait.elementState(ctx, args);
  },
};

Api.register('wait.check', Wait.check);
