// SPDX-License-Identifier: GPL-3.0-or-later
//
// What the snapshot knows of the page between two snapshots: whether
// anything that could change its lines has happened since it last walked.
// A snapshot of a page where nothing happened reuses the lines it printed
// last instead of walking the document again.
//
// It errs on the side of walking: any mutation (childList, attributes,
// characterData) of a document or open shadow root the walk entered, any
// event a person or a script could change the page with (input, change,
// focus, pointer, key, scroll, resize, load, toggle, animation and
// transition), a change of a form control's value, checked or selected
// state made by script without either, a different focused element, a
// change in the style sheets, or a running animation, and the page counts
// as changed. The lines are reused only for a kind of snapshot (interactive
// or not, of one ref or of the page) that walked after the last change.

const PageModel = {
  // The kinds of snapshot whose last lines are still what a walk would
  // print.
  clean: new Set(),
  observer: null,
  // Roots (documents, shadow roots) watched, and the form controls of each
  // with their state when last walked.
  roots: new Set(),
  controls: [],
  sheets: '',
  focused: null,

  EVENTS: [
    'input', 'change', 'focusin', 'focusout', 'click', 'dblclick', 'auxclick', 'contextmenu',
    'keydown', 'keyup', 'pointerdown', 'pointerup', 'pointerover', 'pointerout', 'mouseover',
    'mouseout', 'wheel', 'scroll', 'load', 'error', 'toggle', 'beforetoggle', 'reset', 'submit',
    'animationstart', 'animationend', 'animationiteration', 'transitionrun', 'transitionend',
    'drop', 'dragend', 'compositionend', 'selectionchange', 'fullscreenchange',
  ],

  dirty () {
    PageModel.clean.clear();
  },

  // Before a walk of the whole page: the walk watches again what it enters,
  // so roots it no longer reaches are let go. Changes not yet delivered
  // still count for the other kinds of snapshot.
  reset (doc) {
    if (PageModel.observer !== null) {
      if (PageModel.observer.takeRecords().length > 0)
        PageModel.dirty();
      PageModel.observer.disconnect();
    }
    PageModel.roots.clear();
    PageModel.watch(doc);
  },

  // Called by the walk for every document and open shadow root it enters.
  watch (root) {
    if (PageModel.roots.has(root))
      return;
    if (PageModel.observer === null)
      PageModel.observer = new MutationObserver(PageModel.dirty);
    PageModel.roots.add(root);
    PageModel.observer.observe(root, {
      childList: true, attributes: true, characterData: true, subtree: true,
    });
    for (const type of PageModel.EVENTS)
      root.addEventListener(type, PageModel.dirty, { capture: true, passive: true });
    const win = root.nodeType === 9 ? root.defaultView : null;
    if (win !== null)
      win.addEventListener('resize', PageModel.dirty, { passive: true });
  },

  controlState (el) {
    return el.localName === 'select'
      ? el.selectedIndex + '|' + Array.from(el.selectedOptions, (o) => o.index).join(',')
      : el.value + '|' + el.checked + '|' + el.indeterminate + '|' + el.disabled;
  },

  // The form controls of the watched roots with their states, and the
  // style sheets of the documents, as they are now.
  record () {
    const controls = [];
    let sheets = '';
    for (const root of PageModel.roots) {
      if (!root.isConnected && root.nodeType !== 9)
        continue;
      for (const el of root.querySelectorAll('input, select, textarea'))
        controls.push(el, PageModel.controlState(el));
      sheets += PageModel.sheetsOf(root) + ';';
    }
    return { controls, sheets };
  },

  sheetsOf (root) {
    let s = '';
    const lists = [root.styleSheets, root.adoptedStyleSheets || []];
    for (const list of lists) {
      for (let i = 0; i < list.length; i++) {
        const sheet = list[i];
        let rules = -1;
        try {
          rules = sheet.cssRules.length;
        } catch (e) {
          // A sheet of another origin: its rules cannot change from here
          // without a load event.
        }
        s += (sheet.disabled ? 'd' : 'e') + rules + (sheet.media ? sheet.media.mediaText : '') + ',';
      }
    }
    return s;
  },

  // Whether the lines of this kind of snapshot can be reused now.
  unchanged (mode, focused) {
    if (!PageModel.clean.has(mode) || focused !== PageModel.focused)
      return false;
    // Pending mutations not delivered yet count.
    if (PageModel.observer !== null && PageModel.observer.takeRecords().length > 0) {
      PageModel.dirty();
      return false;
    }
    if (document.getAnimations().length > 0)
      return false;
    const now = PageModel.record();
    const before = PageModel.controls;
    if (now.sheets !== PageModel.sheets || now.controls.length !== before.length)
      return false;
    for (let i = 0; i < before.length; i++) {
      if (now.controls[i] !== before[i])
        return false;
    }
    return true;
  },

  // After a full walk of this kind of snapshot: its lines are current.
  walked (mode, focused) {
    if (PageModel.observer !== null)
      PageModel.observer.takeRecords();
    const now = PageModel.record();
    const sameState = now.sheets === PageModel.sheets &&
                      now.controls.length === PageModel.controls.length &&
                      now.controls.every((c, i) => c === PageModel.controls[i]);
    // Other kinds walked before a change they could not see are stale.
    if (!sameState || focused !== PageModel.focused)
      PageModel.clean.clear();
    PageModel.controls = now.controls;
    PageModel.sheets = now.sheets;
    PageModel.focused = focused;
    PageModel.clean.add(mode);
  },
};
