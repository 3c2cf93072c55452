// SPDX-License-Identifier: GPL-3.0-or-later
//
// Whether a person could act on an element right now, and where: it is
// attached, visible, enabled (and editable for typing), scrolled into view,
// not moving (the same box at two looks a timer tick apart), and the point
// of action lands on it rather than on something drawn over it. A check
// never waits for the element: the C side asks again on its own timers
// until the element is ready or the time is up, because page timers may be
// throttled and animation frames stopped in a background tab.

const Actionability = {
  TEXT_TYPES: new Set(['', 'text', 'search', 'url', 'tel', 'email', 'password', 'number']),
  // Inputs whose value a person picks rather than types.
  VALUE_TYPES: new Set(['date', 'datetime-local', 'month', 'time', 'week', 'color', 'range']),

  isTextField (el) {
    if (!Dom.isElement(el) || !Dom.isHtml(el))
      return false;
    if (el.localName === 'textarea')
      return true;
    return el.localName === 'input' && Actionability.TEXT_TYPES.has(el.type);
  },

  isValueInput (el) {
    return Dom.isElement(el) && Dom.isHtml(el) && el.localName === 'input' &&
           Actionability.VALUE_TYPES.has(el.type);
  },

  // A text field that takes typing, or an editable region.
  isEditable (el) {
    if (Actionability.isTextField(el))
      return !el.readOnly && !el.disabled;
    return el.isContentEditable === true;
  },

  // For a ref that names a wrapper (a label, a combobox around its input, a
  // rich editor's frame): the one editable element it stands for.
  editableTarget (el) {
    if (Actionability.isTextField(el) || el.isContentEditable === true || Actionability.isValueInput(el))
      return el;
    if (el.localName === 'label' && el.control)
      return el.control;
    const found = [];
    const visit = (root) => {
      for (const c of root.querySelectorAll('input, textarea, [contenteditable]')) {
        if ((Actionability.isEditable(c) || Actionability.isValueInput(c)) &&
            !(c.parentElement && c.parentElement.isContentEditable))
          found.push(c);
      }
    };
    visit(el);
    if (el.shadowRoot)
      visit(el.shadowRoot);
    return found.length === 1 ? found[0] : null;
  },

  // "button "Save" @e7", or the tag and id for an element with no role.
  describe (ctx, el) {
    const role = Roles.role(ctx, el);
    const name = Names.name(ctx, el);
    if (role && role !== 'generic' && role !== 'none')
      return name ? role + ' ' + Base.quote(Base.clip(name, 80)) : role;
    if (name)
      return Base.quote(Base.clip(name, 80));
    let s = '<' + el.localName;
    if (el.id)
      s += ' id="' + Base.clip(el.id, 40) + '"';
    else if (typeof el.className === 'string' && el.className.trim() !== '')
      s += ' class="' + Base.clip(el.className.trim(), 60) + '"';
    return s + '>';
  },

  // An element by its tag, class and id, the way a person finds it in the
  // page's source: <label class="switch">.
  tag (el) {
    let s = '<' + el.localName;
    if (typeof el.className === 'string' && el.className.trim() !== '')
      s += ' class="' + Base.clip(el.className.trim().replace(/\s+/g, ' '), 60) + '"';
    if (el.id)
      s += ' id="' + Base.clip(el.id, 40) + '"';
    return s + '>';
  },

  // The element a person names when something covers a control: the
  // nearest ancestor of the hit element with a role and a name, e.g. a
  // dialog, or the hit element itself.
  coverOwner (ctx, el) {
    for (let a = el, i = 0; a && i < 8; a = Dom.parent(a), i++) {
      const role = Roles.role(ctx, a);
      if (role && role !== 'generic' && role !== 'none' && Names.name(ctx, a) !== '')
        return a;
    }
    return el;
  },

  // What covers an element, as a person would name it.
  describeCover (ctx, el) {
    const best = Actionability.coverOwner(ctx, el);
    const d = Actionability.describe(ctx, best);
    return best === el ? d : d + ' (at ' + Actionability.describe(ctx, el) + ')';
  },

  visible (el) {
    if (!el.isConnected)
      return false;
    if (typeof el.checkVisibility === 'function' &&
        !el.checkVisibility({ visibilityProperty: true }))
      return false;
    const s = el.ownerDocument.defaultView.getComputedStyle(el);
    if (!s || s.display === 'none' || s.visibility !== 'visible')
      return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  },

  disabled (ctx, el) {
    const role = Roles.role(ctx, el);
    return States.isDisabled(el, Dom.isHtml(el) ? el.localName : '', role);
  },

  // The element's box in the top-level viewport.
  box (el) {
    const r = Dom.viewportRect(el);
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  },

  sameBox (a, b) {
    return a && b && Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 &&
           Math.abs(a.width - b.width) < 0.5 && Math.abs(a.height - b.height) < 0.5;
  },

  // The top-level viewport rectangle a person can see of el: its box
  // clipped by every ancestor that clips its overflow and by the viewport
  // of every frame it sits in.
  visibleRect (el, rect) {
    return Actionability.clipToViewport(Actionability.clipByFrames(el, rect));
  },

  // v ({x1, y1, x2, y2}, top-level coordinates) cut by the top-level
  // viewport, or null when less than a pixel of it is left.
  clipToViewport (v) {
    v.x1 = Math.max(v.x1, 0);
    v.y1 = Math.max(v.y1, 0);
    v.x2 = Math.min(v.x2, window.innerWidth);
    v.y2 = Math.min(v.y2, window.innerHeight);
    if (v.x2 - v.x1 < 1 || v.y2 - v.y1 < 1)
      return null;
    return v;
  },

  // el's box (rect, from its getBoundingClientRect()) in top-level
  // viewport coordinates, {x1, y1, x2, y2}, clipped by every ancestor that
  // clips its overflow and by the viewport of each frame it sits in, but
  // not by the top-level viewport: that is the caller's (Marks.shownRect
  // may keep what a picture of the whole page shows beyond it).
  clipByFrames (el, rect) {
    const off = Pointer.frameOffset(el);
    const v = { x1: rect.left + off.x, y1: rect.top + off.y, x2: rect.right + off.x, y2: rect.bottom + off.y };
    let node = el;
    let view = el.ownerDocument.defaultView;
    let vo = off;
    for (;;) {
      Actionability.clipByAncestors(node, vo, v);
      if (!view.frameElement)
        return v;
      v.x1 = Math.max(v.x1, vo.x);
      v.y1 = Math.max(v.y1, vo.y);
      v.x2 = Math.min(v.x2, vo.x + view.innerWidth);
      v.y2 = Math.min(v.y2, vo.y + view.innerHeight);
      node = view.frameElement;
      view = node.ownerDocument.defaultView;
      vo = Pointer.frameOffset(node);
    }
  },

  // Intersects v (top-level coordinates) with the padding box of each
  // ancestor of el, in el's document, that clips what overflows it. A
  // fixed element escapes every ancestor; an absolutely positioned one
  // only those that are not positioned.
  clipByAncestors (el, vo, v) {
    const view = el.ownerDocument.defaultView;
    let pos = view.getComputedStyle(el).position;
    for (let a = Dom.parent(el); a && a.nodeType === 1; a = Dom.parent(a)) {
      if (pos === 'fixed')
        return;
      const s = view.getComputedStyle(a);
      if (!s)
        return;
      const positioned = s.position !== 'static';
      const clips = s.overflowX !== 'visible' || s.overflowY !== 'visible';
      if (clips && (pos !== 'absolute' || positioned) && a !== a.ownerDocument.documentElement &&
          a !== a.ownerDocument.body) {
        const r = a.getBoundingClientRect();
        const x = r.left + a.clientLeft + vo.x;
        const y = r.top + a.clientTop + vo.y;
        if (s.overflowX !== 'visible') {
          v.x1 = Math.max(v.x1, x);
          v.x2 = Math.min(v.x2, x + a.clientWidth);
        }
        if (s.overflowY !== 'visible') {
          v.y1 = Math.max(v.y1, y);
          v.y2 = Math.min(v.y2, y + a.clientHeight);
        }
      }
      if (pos === 'absolute' && positioned)
        pos = s.position;
      else if (pos !== 'absolute')
        pos = s.position;
    }
  },

  // Whether a can scroll along either axis.
  scrolls (a) {
    const s = a.ownerDocument.defaultView.getComputedStyle(a);
    if (!s)
      return false;
    const y = s.overflowY !== 'visible' && s.overflowY !== 'clip' && a.scrollHeight > a.clientHeight + 0.5;
    const x = s.overflowX !== 'visible' && s.overflowX !== 'clip' && a.scrollWidth > a.clientWidth + 0.5;
    return x || y;
  },

  // Scrolls el into the middle of every scrolling ancestor that does not
  // show it whole, innermost first: boxes inside boxes, then the document,
  // then the same again in each frame the element sits in.
  reveal (el) {
    let node = el;
    for (let guard = 0; node && guard < 16; guard++) {
      const doc = node.ownerDocument;
      const view = doc.defaultView;
      const shift = () => {
        const a = Pointer.frameOffset(el);
        const b = Pointer.frameOffset(node);
        return { x: a.x - b.x, y: a.y - b.y };
      };
      for (let a = Dom.parent(node); a && a.nodeType === 1; a = Dom.parent(a)) {
        if (a === doc.body || a === doc.documentElement)
          break;
        if (!Actionability.scrolls(a))
          continue;
        const d = shift();
        const r = el.getBoundingClientRect();
        const ar = a.getBoundingClientRect();
        const top = ar.top + a.clientTop;
        const left = ar.left + a.clientLeft;
        const y1 = r.top + d.y;
        const x1 = r.left + d.x;
        if (y1 < top || y1 + r.height > top + a.clientHeight)
          a.scrollTop += (y1 + r.height / 2) - (top + a.clientHeight / 2);
        if (x1 < left || x1 + r.width > left + a.clientWidth)
          a.scrollLeft += (x1 + r.width / 2) - (left + a.clientWidth / 2);
      }
      const d = shift();
      const r = el.getBoundingClientRect();
      const y1 = r.top + d.y;
      const x1 = r.left + d.x;
      let dy = 0;
      let dx = 0;
      if (y1 < 0 || y1 + r.height > view.innerHeight)
        dy = (y1 + r.height / 2) - view.innerHeight / 2;
      if (x1 < 0 || x1 + r.width > view.innerWidth)
        dx = (x1 + r.width / 2) - view.innerWidth / 2;
      if (dx !== 0 || dy !== 0)
        view.scrollBy({ left: dx, top: dy, behavior: 'instant' });
      node = view.frameElement;
    }
  },

  inViewport (el) {
    const r = el.getBoundingClientRect();
    const v = Actionability.visibleRect(el, r);
    if (!v)
      return false;
    return Math.abs((v.x2 - v.x1) - r.width) < 1 && Math.abs((v.y2 - v.y1) - r.height) < 1;
  },

  // Whether an animation or transition runs on el or one of its
  // ancestors, which can move it between two looks.
  animating (el) {
    let doc = el.ownerDocument;
    const chain = new Set(Pointer.chain(el));
    for (let guard = 0; doc && guard < 16; guard++) {
      if (typeof doc.getAnimations === 'function') {
        for (const a of doc.getAnimations()) {
          const t = a.effect && a.effect.target;
          if (a.playState === 'running' && t && chain.has(t))
            return true;
        }
      }
      const view = doc.defaultView;
      doc = view && view.frameElement ? view.frameElement.ownerDocument : null;
    }
    return false;
  },

  // Whether a press at the top-level point lands on el: on el itself or
  // something inside it, or on a label of el (a person clicks a styled
  // checkbox through its label). Returns the hit and whether it counts.
  hitsAt (el, x, y) {
    const h = Pointer.hit(x, y);
    if (!h)
      return { ok: false, hit: null };
    if (Pointer.contains(el, h.el))
      return { ok: true, hit: h.el };
    for (let a = h.el; a; a = Dom.parent(a)) {
      if (a.localName === 'label' && a.control === el)
        return { ok: true, hit: h.el, through: 'its label ' + Actionability.tag(a) };
    }
    // A visually hidden control inside the visible part of its widget (a
    // range input inside its slider's thumb): a person acts on that part.
    if (Pointer.contains(h.el, el) && Actionability.visuallyHidden(el))
      return { ok: true, hit: h.el };
    // A part of the control drawn over it (a select's placeholder over its
    // input): the press reaches the control's wrapper, as a person's does.
    const part = Actionability.ownPart(el, h.el);
    if (part)
      return { ok: true, hit: h.el, through: Actionability.tag(part) + ' drawn over it, part of the same control' };
    return { ok: false, hit: h.el };
  },

  // Names of the buttons that close or answer what covers a page.
  CLOSE: /\b(close|dismiss|accept|agree|allow|reject|decline|got it|ok|okay|no thanks|continue|hide)\b|^[×✕✖xX]$/i,

  // What a person operates: a press on one of these is a press on that
  // control, never on another one beneath it.
  CONTROLS: 'a[href], area[href], button, input:not([type=hidden]), select, textarea, summary, iframe, ' +
            '[contenteditable=""], [contenteditable=true], [tabindex], [role=button], [role=link], ' +
            '[role=checkbox], [role=radio], [role=switch], [role=tab], [role=menuitem], ' +
            '[role=menuitemcheckbox], [role=menuitemradio], [role=option], [role=combobox], ' +
            '[role=textbox], [role=searchbox], [role=slider], [role=spinbutton], [role=treeitem]',

  isControl (el) {
    return el.nodeType === 1 && typeof el.matches === 'function' && el.matches(Actionability.CONTROLS);
  },

  // Whether box (an element) holds a control that shows, other than el,
  // its descendants and its ancestors.
  holdsOtherControl (box, el) {
    for (const c of box.querySelectorAll(Actionability.CONTROLS)) {
      if (c !== el && !Pointer.contains(el, c) && !Pointer.contains(c, el) && Actionability.visible(c))
        return true;
    }
    return false;
  },

  // Fields whose wrapper draws a placeholder, the chosen value or icons
  // over them and takes the press there: text inputs, dropdowns and
  // comboboxes. A button or link holds its own content, so what lies over
  // one is never part of it.
  FIELD_ROLES: new Set(['combobox', 'textbox', 'searchbox', 'spinbutton', 'listbox']),

  isField (el) {
    if (el.localName === 'select' || el.localName === 'textarea')
      return true;
    if (el.localName === 'input')
      return Actionability.TEXT_TYPES.has(el.type) || Actionability.VALUE_TYPES.has(el.type);
    return Actionability.FIELD_ROLES.has(el.getAttribute('role') || '');
  },

  // When hit, drawn over el, is a part of el's own control (a placeholder,
  // the chosen value, an arrow icon, inside a wrapper near el that holds no
  // other control), the outermost element of that part below the wrapper;
  // else null. A layer with nothing in it (a shade, a scrim), another
  // control, or a container of several controls is never a part.
  ownPart (el, hit) {
    const doc = el.ownerDocument;
    if (hit.ownerDocument !== doc || !Actionability.isField(el))
      return null;
    let wrapper = null;
    for (let a = Dom.parent(el), i = 0; a && a.nodeType === 1 && i < 4; a = Dom.parent(a), i++) {
      if (a === doc.body || a === doc.documentElement)
        return null;
      if (Pointer.contains(a, hit)) {
        wrapper = a;
        break;
      }
    }
    if (!wrapper || wrapper === hit)
      return null;
    let part = null;
    let content = false;
    for (let n = hit; n && n !== wrapper; n = Dom.parent(n)) {
      if (Actionability.isControl(n))
        return null;
      if (n.namespaceURI === 'http://www.w3.org/2000/svg' || n.localName === 'img' ||
          (n.textContent || '').trim() !== '')
        content = true;
      part = n;
    }
    if (!content || !part || Actionability.holdsOtherControl(wrapper, el))
      return null;
    return part;
  },

  // Whether el is out of a person's sight on purpose while it takes part
  // in the layout: no size, transparent, clipped, or placed off the page.
  outOfSight (el) {
    const r = el.getBoundingClientRect();
    const view = el.ownerDocument.defaultView;
    return r.width < 1 || r.height < 1 || r.right + view.scrollX <= 0 || r.bottom + view.scrollY <= 0 ||
           Actionability.visuallyHidden(el);
  },

  // What a person clicks for a checkbox or radio kept out of sight behind
  // its styled stand-in: a label of it that shows, else the nearest box
  // around it that shows and holds no other control (a switch's wrapper
  // with its track and thumb). Answers {el, label} or null. An input that
  // is not rendered at all (display: none) has only its label: a click on
  // the label still toggles it, and nothing else stands for it.
  standIn (el) {
    if (el.localName !== 'input' || (el.type !== 'checkbox' && el.type !== 'radio'))
      return null;
    const s = el.ownerDocument.defaultView.getComputedStyle(el);
    if (s && s.display === 'none')
      return Actionability.shownLabel(el);
    if (!s || s.visibility !== 'visible' ||
        (typeof el.checkVisibility === 'function' && !el.checkVisibility()) ||
        !Actionability.outOfSight(el))
      return null;
    const label = Actionability.shownLabel(el);
    if (label !== null)
      return label;
    const doc = el.ownerDocument;
    for (let a = Dom.parent(el), i = 0; a && a.nodeType === 1 && i < 3; a = Dom.parent(a), i++) {
      if (a === doc.body || a === doc.documentElement || Actionability.holdsOtherControl(a, el))
        break;
      if (Actionability.visible(a) && !Actionability.outOfSight(a))
        return { el: a, label: false };
    }
    return null;
  },

  // A label of el that a person sees and can click, as {el, label: true},
  // or null.
  shownLabel (el) {
    for (const l of el.labels || []) {
      if (Actionability.visible(l) && !Actionability.outOfSight(l))
        return { el: l, label: true };
    }
    return null;
  },

  // The checks of the stand-in of an out-of-sight checkbox or radio, or
  // null when it has none: el itself must be enabled; the stand-in must be
  // visible, still and (for a pointer) under the pointer. Keys still go to
  // el, which takes the focus as it does for a person's Tab.
  checkStandIn (ctx, el, label, opts) {
    if (opts.standIn === false)
      return null;
    const stand = Actionability.standIn(el);
    if (!stand)
      return null;
    if (opts.enabled !== false && Actionability.disabled(ctx, el))
      return Actionability.notReady('disabled', label + ' is disabled');
    const through = (stand.label ? 'its label ' : '') + Actionability.tag(stand.el) +
                    (stand.label ? '' : ', which stands for it');
    // The previous look's box is the stand-in's when it is marked so.
    const previousBox = opts.previousBox && opts.previousBox.standIn ? opts.previousBox : undefined;
    const r = Actionability.check(ctx, stand.el, label + ' (through ' + through + ')',
                                  Object.assign({}, opts, { enabled: false, editable: false, standIn: false, previousBox }));
    if (r.box)
      r.box.standIn = true;
    if (r.ready)
      r.through = through;
    return r;
  },

  // The stack el sits in when what covers it (hit) is another item of the
  // same stack, a toast in front of a toast, a card on a card: their
  // common container, which may spread out under the pointer. Null for
  // the page itself, dialogs, and items of different kinds.
  stackOf (el, hit) {
    if (hit.ownerDocument !== el.ownerDocument)
      return null;
    const doc = el.ownerDocument;
    const box = Pointer.commonAncestor(el, hit);
    if (!box || box === doc.body || box === doc.documentElement || box === el || box === hit)
      return null;
    const itemOf = (n) => {
      let a = n;
      while (a && Dom.parent(a) !== box)
        a = Dom.parent(a);
      return a;
    };
    const a = itemOf(el);
    const b = itemOf(hit);
    if (!a || !b || a === b || a.localName !== b.localName)
      return null;
    const modal = (n) => n.localName === 'dialog' || n.getAttribute('aria-modal') === 'true' ||
                         /^(alert)?dialog$/.test(n.getAttribute('role') || '');
    if (modal(a) || modal(b))
      return null;
    const classes = (n) => (typeof n.className === 'string' ? n.className.trim().split(/\s+/) : []).filter((c) => c);
    const kin = a.localName === 'li' || (a.getAttribute('role') && a.getAttribute('role') === b.getAttribute('role')) ||
                classes(a).some((c) => classes(b).includes(c));
    return kin ? box : null;
  },

  // The stack the pointer was moved over for an element during the
  // current action, to spread it out: {el, stack} as weak references.
  revealed: null,

  // What the result says of a stack moved over before acting on el.
  takeRevealed (ctx, el) {
    const r = Actionability.revealed;
    Actionability.revealed = null;
    if (!r || r.el.deref() !== el)
      return null;
    const stack = r.stack.deref();
    return stack && stack.isConnected ? Actionability.describe(ctx, stack) : null;
  },

  // The message for an element something covers: what covers it, where,
  // and what a person would do about it.
  coveredMessage (ctx, el, label, hit, p, stack) {
    let m = label + ' is covered by ' + Actionability.describeCover(ctx, hit) + ' at (' +
            Math.round(p.x) + ', ' + Math.round(p.y) + ')';
    if (stack)
      m += ', and moving the pointer over ' + Actionability.describe(ctx, stack) + ' did not uncover it';
    const close = Actionability.closerOf(ctx, el, hit);
    m += close ? ': close it first (' + Actionability.describe(ctx, close) + '), ' : ': close it first, ';
    return m + 'scroll so that it no longer lies over the element, or use browser_hover on what reveals the element';
  },

  // The button that closes what covers el at hit: one named so in the
  // nearest part of the page around hit that does not hold el, else the
  // first button of a named region, dialog or banner that covers it.
  closerOf (ctx, el, hit) {
    const owner = Actionability.coverOwner(ctx, hit);
    const buttonish = 'button, [role=button]';
    for (let a = hit, i = 0; a && a.nodeType === 1 && i < 8 && !Pointer.contains(a, el); a = Dom.parent(a), i++) {
      const buttons = Array.from(a.querySelectorAll(buttonish));
      if (a.matches(buttonish))
        buttons.unshift(a);
      const close = buttons.find((c) => Actionability.CLOSE.test(Names.name(ctx, c)) && Actionability.visible(c));
      if (close)
        return close;
      if (a === owner && !Actionability.isControl(owner) && Names.name(ctx, owner) !== '') {
        const first = buttons.find((c) => Actionability.visible(c));
        if (first)
          return first;
      }
    }
    return null;
  },

  // Hidden from the eye but not from assistive technology: clipped away,
  // transparent, or a box of a pixel or two.
  visuallyHidden (el) {
    const s = el.ownerDocument.defaultView.getComputedStyle(el);
    if (!s)
      return false;
    if (Number(s.opacity) === 0)
      return true;
    if (s.clip && /^rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)$/.test(s.clip))
      return true;
    if (s.clipPath && /inset\(50%\)/.test(s.clipPath))
      return true;
    const r = el.getBoundingClientRect();
    return r.width <= 2 && r.height <= 2;
  },

  // Candidate points: the centre of the visible part of the box, then of
  // each line box, so a link that wraps is hit on its text.
  points (el) {
    const out = [];
    const add = (r) => {
      const v = Actionability.visibleRect(el, r);
      if (v)
        out.push({ x: (v.x1 + v.x2) / 2, y: (v.y1 + v.y2) / 2 });
    };
    add(el.getBoundingClientRect());
    const rects = el.getClientRects();
    if (rects.length > 1) {
      for (let i = 0; i < rects.length && i < 8; i++) {
        if (rects[i].width > 0 && rects[i].height > 0)
          add(rects[i]);
      }
    }
    return out;
  },

  notReady (reason, message, extra) {
    return Object.assign({ ready: false, reason, message }, extra || {});
  },

  // Two looks a timer tick apart (page timers still run in a background
  // tab; animation frames may not), so that an element moved by a script
  // is not acted on mid-way; the second look decides. Answers like check().
  async ready (ctx, el, label, opts) {
    const first = Actionability.check(ctx, el, label, opts);
    if (!first.ready || opts.stable === false)
      return first;
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (!el.isConnected)
      return Actionability.notReady('detached', label + ' was removed from the page');
    return Actionability.check(ctx, el, label, Object.assign({}, opts, { previousBox: first.box }));
  },

  // The checks of one attempt. opts: {enabled, editable, hit, stable,
  // previousBox}. Answers {ready: true, point, box, hit} or {ready: false,
  // reason, message, permanent?, box?}.
  check (ctx, el, label, opts) {
    if (!el.isConnected)
      return Actionability.notReady('detached', label + ' is no longer on the page');
    if (!Actionability.visible(el))
      return Actionability.checkStandIn(ctx, el, label, opts) ||
             Actionability.notReady('hidden', label + ' is not visible');
    if (opts.enabled !== false && Actionability.disabled(ctx, el))
      return Actionability.notReady('disabled', label + ' is disabled');
    if (opts.editable && !Actionability.isEditable(el)) {
      if (Actionability.isTextField(el) && el.readOnly)
        return Actionability.notReady('readonly', label + ' is read-only');
      return Actionability.notReady('not-editable', label + ' is not a text field or an editable region',
                                    { permanent: true });
    }

    if (!Actionability.inViewport(el))
      Actionability.reveal(el);

    // Still: no animation running on it or an ancestor, and the same box as
    // at the last look.
    const box = Actionability.box(el);
    if (opts.stable !== false &&
        (Actionability.animating(el) ||
         (opts.previousBox && !opts.previousBox.standIn && !Actionability.sameBox(box, opts.previousBox))))
      return Actionability.notReady('moving', label + ' is still moving', { box });

    const points = Actionability.points(el);
    if (points.length === 0) {
      return Actionability.checkStandIn(ctx, el, label, opts) ||
             Actionability.notReady('outside', label + ' is outside the visible part of the page even after scrolling', { box });
    }

    if (opts.hit === false)
      return { ready: true, point: points[0], box, hit: null };

    let firstMiss = null;
    for (const p of points) {
      const h = Actionability.hitsAt(el, p.x, p.y);
      if (h.ok)
        return { ready: true, point: p, box, hit: h.hit, through: h.through };
      if (!firstMiss)
        firstMiss = { p, hit: h.hit };
    }

    const standIn = Actionability.checkStandIn(ctx, el, label, opts);
    if (standIn)
      return standIn;

    const s = el.ownerDocument.defaultView.getComputedStyle(el);
    if (s && s.pointerEvents === 'none')
      return Actionability.notReady('covered', label + ' does not receive pointer events (pointer-events: none)', { box });
    if (!firstMiss.hit)
      return Actionability.notReady('covered', label + ' is not under the pointer at (' +
                                    Math.round(firstMiss.p.x) + ', ' + Math.round(firstMiss.p.y) + ')', { box });

    // Covered by another item of a stack that may spread out under the
    // pointer (toasts): the pointer goes over the stack once, as a
    // person's hand does on its way, and the next look decides.
    const stack = Actionability.stackOf(el, firstMiss.hit);
    const r = Actionability.revealed;
    if (stack && !(r && r.el.deref() === el)) {
      Actionability.revealed = { el: new WeakRef(el), stack: new WeakRef(stack) };
      Pointer.moveTo(firstMiss.p.x, firstMiss.p.y, {});
      return Actionability.notReady('covered', label + ' is covered by ' + Actionability.describeCover(ctx, firstMiss.hit) +
                                    '; the pointer moved over ' + Actionability.describe(ctx, stack) + ' to uncover it', { box });
    }
    return Actionability.notReady('covered', Actionability.coveredMessage(ctx, el, label, firstMiss.hit, firstMiss.p, stack),
                                  { box, coveredBy: Actionability.describeCover(ctx, firstMiss.hit) });
  },
};
