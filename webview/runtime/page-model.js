// SPDX-License-Identifier: GPL-3.0-or-later
//
// What the snapshot knows of the page between two snapshots.
//
// First, whether anything that could change its lines has happened since
// it last walked: a snapshot of a page where nothing happened reuses the
// lines it printed last instead of walking the document again. It errs on
// the side of walking: any mutation (childList, attributes, characterData)
// of a document or open shadow root the walk entered, any event a person
// or a script could change the page with (input, change, focus, pointer,
// key, scroll, resize, load, toggle, animation and transition), a change of
// a form control's value, checked or selected state made by script without
// either, a different focused element, a change in the style sheets, or a
// running animation, and the page counts as changed. The lines are reused
// only for a kind of snapshot (interactive or not, of one ref or of the
// page) that walked after the last change.
//
// Second, the incremental model: what the walk of each element produced
// (its part of the light tree, see snapshot.js), kept so that the next walk
// of the page takes it again for every element where nothing it depends on
// changed, and walks only the rest. The printer takes the lines it printed
// last for each part taken again, except where the focused element moved
// into or out of it, the one state read while printing that nothing here
// follows; everything else a line shows is what the part depends on.
// What an element's walk depends on, and how each is tracked:
// - its subtree: a mutation voids the kept part of its target and of every
//   ancestor (through shadow hosts, slots and frames); an attribute change
//   or an added node voids the whole subtree of its target and of its
//   parent (computed styles are inherited; cell and header roles look at
//   their siblings), a childList change the whole subtree of its target,
//   except under a wide element whose children's walks look only at
//   themselves (a table body, a list): there only the children that came
//   are walked, and the others are taken from its layout;
// - form state changed without a mutation (value, checked, selected): the
//   controls are compared with their state at the last walk, and a changed
//   one voids itself, its ancestors and its labels;
// - names taken from elsewhere (aria-labelledby, aria-describedby,
//   label[for], input list): every element that has them is walked again,
//   with its subtree, whenever anything changed;
// - its ancestors' context (depth, frame depth, the modal dialog, how
//   visibility is read, being inside a label): kept with the part, which is
//   taken only when they are the same;
// - style that can change without a mutation of the element or its
//   ancestors: only pages whose style sheets use no selector of that kind
//   (sibling combinators, :has(), :hover, :focus, :checked, :nth-child…),
//   no @container rules and no counters in generated content are walked
//   incrementally; any change of the style sheets, a running animation, and
//   the events whose effect is not tracked (load, error, toggle, reset,
//   submit, drag and drop, fullscreen, animations,
//   transitions, resize, and a shadow root attached to an element in the
//   page, which the page's world tells) make the next walk a full one.
// A walk that is cut short keeps nothing. tests/test-snapshot-diff.c checks
// the result against a full walk after seeded random changes and after a
// series of changes of every kind.

const PageModel = {
  // The kinds of snapshot whose last lines are still what a walk would
  // print.
  clean: new Set(),
  observer: null,
  // Roots (documents, shadow roots) watched, and the form controls of each
  // with their state when last walked (controls[i] was in state states[i]).
  roots: new Set(),
  controls: [],
  kinds: [],
  states: [],
  sheets: '',
  // What the last record() found, kept while no element came, went or
  // changed an attribute and no root was added: the controls with the kind
  // of state each shows, and the elements that take names from elsewhere.
  found: null,
  // Counts the changes of roots, so that found knows it is stale.
  rootsChanged: 0,
  // Whether an element may have come, gone or changed an attribute since
  // found was made.
  structureDirty: true,
  // What prepare() recorded before an incremental walk, for walked().
  prepared: null,
  focused: null,

  // Events after which the lines are not reused. Of these, the effects of
  // the first kind reach the model as mutations, control states and the
  // focused element; the second kind makes the next walk a full one.
  // A scroll is of the first kind: what the walk reads (computed display,
  // visibility, content-visibility, content and cursor, checkVisibility())
  // does not depend on the scroll position, and the rules that could make
  // it depend on the element under the pointer (:hover) keep the page from
  // incremental walks (styleGate), as scroll-driven animations do.
  EVENTS: [
    'input', 'change', 'focusin', 'focusout', 'click', 'dblclick', 'auxclick', 'contextmenu',
    'keydown', 'keyup', 'pointerdown', 'pointerup', 'pointerover', 'pointerout', 'mouseover',
    'mouseout', 'compositionend', 'selectionchange', 'wheel', 'scroll',
  ],
  UNTRACKED_EVENTS: [
    'load', 'error', 'toggle', 'beforetoggle', 'reset', 'submit',
    'animationstart', 'animationend', 'animationiteration', 'transitionrun', 'transitionend',
    'drop', 'dragend', 'fullscreenchange', 'tabwright-shadow-attached',
  ],

  // The incremental model: element → what its last walk produced.
  kept: new WeakMap(),
  // Element → the walk from which the kept parts of its subtree are void.
  stamps: new WeakMap(),
  // Element → how the last walk of its children laid out what each child
  // produced (see Snapshot.walkLaidOut), kept apart from `kept` so that a
  // change under one child voids the element's kept part but not this.
  layouts: new WeakMap(),
  // Element with a layout → its children (DOM children, text nodes among
  // them) that a change has reached since the layout was made, which a
  // walk from the layout walks anew; null past MAX_DIRTY_KIDS, when all
  // are. They gather until a walk lays the element out again, so they do
  // not depend on every walk in between having reached the element.
  dirtyKids: new WeakMap(),
  MAX_DIRTY_KIDS: 16,
  // Elements with a layout whose children came or went since it was made:
  // the walk from the layout takes the children still there from it and
  // walks the new ones (Snapshot.walkReshaped).
  reshaped: new WeakSet(),
  // The wide elements whose children's walks do not look at each other,
  // so that rows or items that come or go leave the others' walks as they
  // were. Not a row (a header cell's role looks at the cells beside it),
  // details (its first summary), a figure (an image named by the caption
  // beside it), a table or a select (their first caption, their options).
  RESHAPED_TAGS: new Set([
    'tbody', 'thead', 'tfoot', 'ul', 'ol', 'menu', 'dl', 'div', 'section', 'article', 'main',
    'nav', 'aside', 'header', 'footer', 'form', 'search', 'body',
  ]),
  // The number of the current walk, and the first walk whose kept parts
  // are valid at all.
  gen: 0,
  floor: 1,
  // Mutation records not looked at yet; past MAX_RECORDS the next walk is
  // a full one.
  pending: [],
  MAX_RECORDS: 5000,
  // Whether the style sheets allow an incremental walk, for the sheets
  // described by gateSheets.
  gate: false,
  gateSheets: null,
  DEPENDENTS: '[aria-labelledby], [aria-describedby], label[for], input[list]',

  dirty () {
    PageModel.clean.clear();
  },

  // Something happened that the model cannot follow: nothing kept is used.
  untracked () {
    PageModel.clean.clear();
    PageModel.structureDirty = true;
    PageModel.floor = PageModel.gen + 1;
    PageModel.pending.length = 0;
  },

  observed (records) {
    PageModel.clean.clear();
    for (const r of records) {
      if (r.type !== 'characterData') {
        PageModel.structureDirty = true;
        break;
      }
    }
    if (PageModel.pending.length + records.length > PageModel.MAX_RECORDS) {
      PageModel.untracked();
      return;
    }
    for (const r of records)
      PageModel.pending.push(r);
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
    PageModel.pending.length = 0;
    PageModel.structureDirty = true;
    PageModel.roots.clear();
    PageModel.rootsChanged++;
    PageModel.watch(doc);
  },

  // Called by the walk for every document and open shadow root it enters.
  watch (root) {
    if (PageModel.roots.has(root))
      return;
    if (PageModel.observer === null)
      PageModel.observer = new MutationObserver(PageModel.observed);
    PageModel.roots.add(root);
    PageModel.rootsChanged++;
    PageModel.observer.observe(root, {
      childList: true, attributes: true, characterData: true, subtree: true,
    });
    for (const type of PageModel.EVENTS)
      root.addEventListener(type, PageModel.dirty, { capture: true, passive: true });
    for (const type of PageModel.UNTRACKED_EVENTS)
      root.addEventListener(type, PageModel.untracked, { capture: true, passive: true });
    const win = root.nodeType === 9 ? root.defaultView : null;
    if (win !== null)
      win.addEventListener('resize', PageModel.untracked, { passive: true });
  },

  // What a snapshot shows of a control's state that no mutation records:
  // the rest (disabled, a value attribute, the options) are attributes and
  // elements. The kind of state a control has (KIND_*) changes only with
  // its attributes (type, multiple), so it is found once, and the check of
  // a page's thousands of controls reads one or two properties of each.
  KIND_CHECK: 0,
  KIND_SELECT: 1,
  KIND_MULTIPLE: 2,
  KIND_VALUE: 3,

  controlKind (el) {
    const tag = el.localName;
    if (tag === 'select')
      return el.multiple ? PageModel.KIND_MULTIPLE : PageModel.KIND_SELECT;
    if (tag === 'input') {
      const type = el.type;
      if (type === 'checkbox' || type === 'radio')
        return PageModel.KIND_CHECK;
    }
    return PageModel.KIND_VALUE;
  },

  controlState (el, kind) {
    switch (kind) {
    case PageModel.KIND_CHECK:
      return (el.checked ? 1 : 0) + (el.indeterminate ? 2 : 0);
    case PageModel.KIND_SELECT:
      return el.selectedIndex;
    case PageModel.KIND_MULTIPLE:
      return 'm' + Array.from(el.selectedOptions, (o) => o.index).join(',');
    default:
      return el.value;
    }
  },

  // Whether every control is in the state it was in when last recorded.
  sameStates (controls, kinds, states) {
    for (let i = 0; i < controls.length; i++) {
      if (PageModel.controlState(controls[i], kinds[i]) !== states[i])
        return false;
    }
    return true;
  },

  // The form controls of the watched roots with their states, and the
  // style sheets of the documents, as they are now. The mutation records
  // must have been taken: when no element came, went or changed an
  // attribute since the last record, and no root was added, the controls
  // (and the elements that take names from elsewhere) are the ones it
  // found, and only their states are read again.
  record () {
    let found = PageModel.found;
    if (PageModel.structureDirty || found === null ||
        found.rootsChanged !== PageModel.rootsChanged) {
      const controls = [];
      const kinds = [];
      const dependents = [];
      for (const root of PageModel.roots) {
        if (!root.isConnected && root.nodeType !== 9)
          continue;
        for (const el of root.querySelectorAll('input, select, textarea')) {
          controls.push(el);
          kinds.push(PageModel.controlKind(el));
        }
        for (const el of root.querySelectorAll(PageModel.DEPENDENTS))
          dependents.push(el);
      }
      found = PageModel.found = {
        controls, kinds, dependents, rootsChanged: PageModel.rootsChanged,
      };
      PageModel.structureDirty = false;
    }
    const controls = found.controls;
    const kinds = found.kinds;
    const states = new Array(controls.length);
    for (let i = 0; i < controls.length; i++)
      states[i] = PageModel.controlState(controls[i], kinds[i]);
    let sheets = '';
    for (const root of PageModel.roots) {
      if (root.isConnected || root.nodeType === 9)
        sheets += PageModel.sheetsOf(root) + ';';
    }
    return {
      controls, kinds, states, dependents: found.dependents, sheets,
      rootsChanged: PageModel.rootsChanged,
    };
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
    if (PageModel.observer !== null) {
      const records = PageModel.observer.takeRecords();
      if (records.length > 0) {
        PageModel.observed(records);
        return false;
      }
    }
    if (document.getAnimations().length > 0)
      return false;
    let sheets = '';
    for (const root of PageModel.roots) {
      if (root.isConnected || root.nodeType === 9)
        sheets += PageModel.sheetsOf(root) + ';';
    }
    if (sheets !== PageModel.sheets)
      return false;
    // No mutation since the last walk, so no control came or went: the
    // ones it recorded are the page's, and only their states can differ.
    return PageModel.sameStates(PageModel.controls, PageModel.kinds, PageModel.states);
  },

  // Whether a record has the controls and states of the last walk.
  sameControls (now) {
    const controls = PageModel.controls;
    const states = PageModel.states;
    if (now.controls.length !== controls.length)
      return false;
    for (let i = 0; i < controls.length; i++) {
      if (now.controls[i] !== controls[i] || now.states[i] !== states[i])
        return false;
    }
    return true;
  },

  // After a full walk of this kind of snapshot: its lines are current.
  walked (mode, focused) {
    // What prepare() recorded still holds when nothing happened since and
    // the walk entered no new root (a walk changes nothing itself).
    let now = PageModel.prepared;
    PageModel.prepared = null;
    if (PageModel.observer !== null) {
      const records = PageModel.observer.takeRecords();
      if (records.length > 0) {
        PageModel.observed(records);
        now = null;
      }
    }
    if (now === null || now.rootsChanged !== PageModel.rootsChanged)
      now = PageModel.record();
    const sameState = now.sheets === PageModel.sheets && PageModel.sameControls(now);
    // Other kinds walked before a change they could not see are stale.
    if (!sameState || focused !== PageModel.focused)
      PageModel.clean.clear();
    PageModel.controls = now.controls;
    PageModel.kinds = now.kinds;
    PageModel.states = now.states;
    PageModel.sheets = now.sheets;
    PageModel.focused = focused;
    PageModel.clean.add(mode);
    if (PageModel.gateSheets !== now.sheets) {
      PageModel.gate = PageModel.styleGate();
      PageModel.gateSheets = now.sheets;
    }
  },

  // Before a walk of the whole page. Answers whether the walk may take
  // the kept parts (incremental is false for a full walk asked for), after
  // voiding what changed since the last walk. A full walk lets go of the
  // roots it no longer reaches, as reset() says.
  prepare (doc, incremental) {
    PageModel.gen++;
    let ok = incremental && PageModel.floor < PageModel.gen && PageModel.gate &&
             PageModel.observer !== null;
    if (ok) {
      for (const r of PageModel.observer.takeRecords())
        PageModel.pending.push(r);
      ok = PageModel.floor < PageModel.gen && PageModel.pending.length <= PageModel.MAX_RECORDS &&
           doc.getAnimations().length === 0;
    }
    const now = ok ? PageModel.record() : null;
    if (ok)
      ok = now.sheets === PageModel.sheets && now.sheets === PageModel.gateSheets;
    if (ok)
      ok = PageModel.voidChanged(now);
    PageModel.prepared = ok ? now : null;
    if (!ok) {
      PageModel.reset(doc);
      PageModel.floor = PageModel.gen;
    }
    PageModel.pending.length = 0;
    return ok;
  },

  // Voids the kept parts that the pending records, the changed controls
  // and the names taken from elsewhere touch; false when a change cannot
  // be followed.
  voidChanged (now) {
    const gen = PageModel.gen;
    for (const r of PageModel.pending) {
      const t = r.target;
      if (t.nodeType === 9)
        return false;
      if (r.type === 'characterData') {
        PageModel.chain(t);
        if (t.parentNode !== null && t.parentNode.nodeType === 1)
          PageModel.stamps.set(t.parentNode, gen);
        continue;
      }
      const el = t.nodeType === 11 ? t.host : t;
      if (el === null || el.nodeType !== 1)
        return false;
      // Children that came or went under a wide element leave the walks of
      // its other children as they were; elsewhere the element's whole
      // subtree is walked again.
      if (r.type === 'childList' && t === el && PageModel.reshapes(el))
        PageModel.reshaped.add(el);
      else
        PageModel.stamps.set(el, gen);
      if (r.type === 'attributes') {
        const p = el.parentNode;
        if (p !== null && p.nodeType === 1)
          PageModel.stamps.set(p, gen);
        else if (p !== null && p.nodeType === 11)
          PageModel.stamps.set(p.host, gen);
      } else {
        for (const n of r.addedNodes) {
          if (n.nodeType === 1)
            PageModel.stamps.set(n, gen);
        }
      }
      PageModel.chain(el);
    }

    const controls = now.controls;
    const states = now.states;
    let before = null;
    if (controls !== PageModel.controls) {
      before = new Map();
      for (let i = 0; i < PageModel.controls.length; i++)
        before.set(PageModel.controls[i], PageModel.states[i]);
    }
    for (let i = 0; i < controls.length; i++) {
      const el = controls[i];
      if ((before === null ? PageModel.states[i] : before.get(el)) === states[i])
        continue;
      PageModel.chain(el);
      if (el.labels) {
        for (const l of el.labels)
          PageModel.chain(l);
      }
    }

    // Their whole subtrees: a name can change a role their content's
    // roles depend on (a section named or not).
    for (const el of now.dependents) {
      if (!el.isConnected)
        continue;
      PageModel.stamps.set(el, gen);
      PageModel.chain(el);
      const control = el.localName === 'label' ? el.control : null;
      if (control) {
        PageModel.stamps.set(control, gen);
        PageModel.chain(control);
      }
    }
    return true;
  },

  // Whether the children of el may come and go without walking the others
  // again: a wide element laid out before, of a kind whose children's walks
  // look only at themselves and their ancestors, outside any label (whose
  // text names the control inside it).
  reshapes (el) {
    return PageModel.layouts.has(el) && el.namespaceURI === Dom.HTML_NS &&
           PageModel.RESHAPED_TAGS.has(el.localName) && el.closest('label') === null;
  },

  // Voids the kept part of a node and of all its ancestors, through
  // shadow hosts, the slots it is assigned to and frame elements.
  chain (node) {
    for (let n = node; n !== null && n !== undefined;) {
      if (n.nodeType === 1) {
        PageModel.kept.delete(n);
        if (n.assignedSlot)
          PageModel.chain(n.assignedSlot);
      } else if (n.nodeType === 3 && n.assignedSlot) {
        PageModel.chain(n.assignedSlot);
      }
      let p = n.parentNode;
      if (p !== null && p.nodeType === 1 && PageModel.layouts.has(p)) {
        // Past a few changed children, all of them are walked (null).
        const kids = PageModel.dirtyKids.get(p);
        if (kids === undefined)
          PageModel.dirtyKids.set(p, [n]);
        else if (kids !== null && !kids.includes(n)) {
          if (kids.length < PageModel.MAX_DIRTY_KIDS)
            kids.push(n);
          else
            PageModel.dirtyKids.set(p, null);
        }
      }
      if (p !== null && p.nodeType === 11)
        p = p.host;
      else if (p !== null && p.nodeType === 9) {
        let frame = null;
        try {
          frame = p.defaultView ? p.defaultView.frameElement : null;
        } catch (e) {
          frame = null;
        }
        p = frame;
      }
      n = p;
    }
  },

  // Whether the style sheets of every watched root leave what the walk
  // reads of an element's style (display, visibility, content-visibility,
  // generated content, cursor) to its own attributes and its ancestors':
  // no rule that sets one of those (or a custom property) under a selector
  // that looks at siblings, descendants or states no mutation records; no
  // @container; no counters in generated content; no sheet that cannot be
  // read.
  styleGate () {
    for (const root of PageModel.roots) {
      if (!root.isConnected && root.nodeType !== 9)
        continue;
      const lists = [root.styleSheets, root.adoptedStyleSheets || []];
      for (const list of lists) {
        for (let i = 0; i < list.length; i++) {
          if (!PageModel.sheetAllows(list[i], 0))
            return false;
        }
      }
    }
    return true;
  },

  // Pseudo-classes and pseudo-elements that depend on nothing but the
  // element, its attributes and its ancestors.
  SAFE_PSEUDO: new Set([
    'before', 'after', 'marker', 'placeholder', 'selection', 'first-line', 'first-letter',
    'backdrop', 'file-selector-button', 'root', 'host', 'host-context', 'slotted', 'part',
    'not', 'is', 'where', 'lang', 'dir', 'scope', '-webkit-scrollbar', '-webkit-scrollbar-thumb',
    '-webkit-scrollbar-track', 'cue',
  ]),
  READ_PROPERTIES: new Set(['display', 'visibility', 'content-visibility', 'content', 'cursor']),

  sheetAllows (sheet, depth) {
    if (depth > 8)
      return false;
    let rules;
    try {
      rules = sheet.cssRules;
    } catch (e) {
      return false;
    }
    return PageModel.rulesAllow(rules, depth, false);
  },

  // unsafe: the rules are nested in a rule whose selector is not safe.
  rulesAllow (rules, depth, unsafe) {
    for (let i = 0; i < rules.length; i++) {
      const rule = rules[i];
      const kind = rule.constructor.name;
      if (kind === 'CSSContainerRule')
        return false;
      if (kind === 'CSSImportRule') {
        if (rule.styleSheet === null || !PageModel.sheetAllows(rule.styleSheet, depth + 1))
          return false;
        continue;
      }
      let inner = unsafe;
      const st = rule.style;
      if (typeof rule.selectorText === 'string') {
        inner = unsafe || !PageModel.selectorAllows(rule.selectorText);
        if (inner && st !== undefined && !PageModel.declarationsAllow(st))
          return false;
      }
      if (st !== undefined && /counter/i.test(st.content || ''))
        return false;
      if (rule.cssRules !== undefined && !PageModel.rulesAllow(rule.cssRules, depth + 1, inner))
        return false;
    }
    return true;
  },

  declarationsAllow (st) {
    for (let i = 0; i < st.length; i++) {
      const name = st[i];
      if (name.startsWith('--') || PageModel.READ_PROPERTIES.has(name))
        return false;
    }
    return true;
  },

  selectorAllows (text) {
    const s = text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '').replace(/\[[^\]]*\]/g, '[]');
    if (/[+~]/.test(s) || s.includes('\\'))
      return false;
    for (const m of s.matchAll(/::?(-?[a-zA-Z][a-zA-Z0-9-]*)/g)) {
      if (!PageModel.SAFE_PSEUDO.has(m[1].toLowerCase()))
        return false;
    }
    return true;
  },
};
