// SPDX-License-Identifier: GPL-3.0-or-later
//
// The mouse, as the page sees it. GTK cannot synthesize input events here,
// so the runtime dispatches the sequences a real pointer produces, in the
// order browsers fire them (Pointer Events 3, UI Events): over/enter and
// out/leave as the pointer crosses elements, move, down, up, click with the
// right detail, contextmenu, auxclick and dblclick; focus moves as a press
// moves it. Events go to whatever element is under the point at the moment
// they fire, since a page may re-render between a press and its release.
//
// Points are in CSS pixels of the top-level viewport; each event carries
// the coordinates of the frame its target lives in.
//
// Pointer capture: the page-world part (page-world/pointer-capture.js)
// keeps the capture a page asks for on the agent's pointerdown and tells
// this side, which then sends the pointer's events to the capturing
// element, with gotpointercapture and lostpointercapture around it, and
// releases it after pointerup as the engine does. :hover and :active
// follow the pointer through Hover (hover.js).

const Pointer = {
  ID: 1,

  // The element under the pointer and where the pointer is, kept between
  // calls so that the next move leaves the right elements.
  hovered: null,
  x: 0,
  y: 0,
  // The buttons held down, as the MouseEvent.buttons bit mask.
  buttons: 0,

  // The element that has captured the pointer, and the capture the page
  // asked for since the last pointer event (undefined: no change asked).
  capture: null,
  pendingCapture: undefined,
  captureDocs: new WeakSet(),

  BUTTONS: { left: 0, middle: 1, right: 2 },
  BUTTON_BITS: [1, 4, 2],

  // The deepest element at a top-level point: through open shadow roots and
  // into same-origin frames. Returns {el, x, y} with frame-local
  // coordinates, or null when nothing is there (outside the viewport).
  hit (x, y) {
    let doc = document;
    let lx = x;
    let ly = y;
    for (let depth = 0; depth < 16; depth++) {
      let el = doc.elementFromPoint(lx, ly);
      if (!el)
        return null;
      // elementFromPoint stops at a shadow host; its root knows what is
      // inside.
      while (el.shadowRoot) {
        const inner = el.shadowRoot.elementFromPoint(lx, ly);
        if (!inner || inner === el)
          break;
        el = inner;
      }
      if (el.localName === 'iframe' || el.localName === 'frame') {
        const inner = Dom.frameDocument(el);
        if (inner) {
          const o = Pointer.contentOrigin(el);
          lx -= o.x;
          ly -= o.y;
          doc = inner;
          continue;
        }
      }
      return { el, x: lx, y: ly };
    }
    return null;
  },

  // Where a frame's content starts, in its parent's viewport coordinates.
  contentOrigin (frame) {
    const r = frame.getBoundingClientRect();
    const s = frame.ownerDocument.defaultView.getComputedStyle(frame);
    return {
      x: r.left + (parseFloat(s.borderLeftWidth) || 0) + (parseFloat(s.paddingLeft) || 0),
      y: r.top + (parseFloat(s.borderTopWidth) || 0) + (parseFloat(s.paddingTop) || 0),
    };
  },

  // The offset of an element's frame in the top-level viewport.
  frameOffset (el) {
    let x = 0;
    let y = 0;
    let view = el.ownerDocument.defaultView;
    while (view && view.frameElement) {
      const o = Pointer.contentOrigin(view.frameElement);
      x += o.x;
      y += o.y;
      view = view.frameElement.ownerDocument.defaultView;
    }
    return { x, y };
  },

  // Inclusive ancestors in the flat tree, across frames: the chain that
  // enter and leave events walk.
  chain (el) {
    const out = [];
    for (let a = el; a; a = Dom.parentAcrossFrames(a))
      out.push(a);
    return out;
  },

  // True when a is b or holds it in the flat tree (shadow content included).
  contains (a, b) {
    for (let n = b; n; n = Dom.parent(n)) {
      if (n === a)
        return true;
    }
    return false;
  },

  commonAncestor (a, b) {
    if (!a || !b)
      return a || b;
    const chain = new Set(Pointer.chain(a));
    for (let n = b; n; n = Dom.parentAcrossFrames(n)) {
      if (chain.has(n) && n.ownerDocument === b.ownerDocument)
        return n;
    }
    return null;
  },

  init (target, x, y, mods, extra) {
    const view = target.ownerDocument.defaultView;
    const off = Pointer.frameOffset(target);
    const init = {
      bubbles: true,
      cancelable: true,
      composed: true,
      view,
      detail: 0,
      screenX: Math.round(x + off.x + (window.screenX || 0)),
      screenY: Math.round(y + off.y + (window.screenY || 0)),
      clientX: x,
      clientY: y,
      ctrlKey: !!mods.ctrl,
      shiftKey: !!mods.shift,
      altKey: !!mods.alt,
      metaKey: !!mods.meta,
      button: 0,
      buttons: Pointer.buttons,
      relatedTarget: null,
    };
    return Object.assign(init, extra || {});
  },

  pointerInit (init, pressed) {
    return Object.assign(init, {
      pointerId: Pointer.ID,
      pointerType: 'mouse',
      isPrimary: true,
      width: 1,
      height: 1,
      pressure: pressed ? 0.5 : 0,
    });
  },

  // Dispatches one event built with the constructors of the target's own
  // window, so the page sees the classes it knows. Returns true when the
  // page did not cancel it.
  fire (target, type, init) {
    const view = target.ownerDocument.defaultView || window;
    let name = 'MouseEvent';
    if (type.startsWith('pointer') || type.endsWith('pointercapture') || type === 'click' || type === 'auxclick' || type === 'contextmenu')
      name = 'PointerEvent';
    else if (type === 'wheel')
      name = 'WheelEvent';
    else if (type.startsWith('drag') || type === 'drop')
      name = 'DragEvent';
    const Ctor = typeof view[name] === 'function' ? view[name] : view.MouseEvent;
    const event = new Ctor(type, init);
    // A dropdown (<select>) opens its native menu on mousedown. The agent
    // picks from the snapshot with browser_select, and a menu opened from
    // here would stay open on the person's screen and keep showing the
    // value the dropdown had. The page's own listeners see the mousedown
    // as it is; only the browser's default action is held back.
    const menuList = type === 'mousedown' && Pointer.menuList(target);
    if (!menuList)
      return target.dispatchEvent(event);
    // What the page itself decided, before the default is held back.
    let pageCancelled = null;
    const holdBack = (e) => {
      if (e !== event)
        return;
      pageCancelled = e.defaultPrevented;
      e.preventDefault();
    };
    view.addEventListener('mousedown', holdBack);
    try {
      const notCancelled = target.dispatchEvent(event);
      return pageCancelled === null ? notCancelled : !pageCancelled;
    } finally {
      view.removeEventListener('mousedown', holdBack);
    }
  },

  // The <select> shown as a dropdown that @el is or is inside, or null.
  menuList (el) {
    const select = el && el.closest ? el.closest('select') : null;
    return select && !select.multiple && select.size <= 1 ? select : null;
  },

  // Moves the pointer to a top-level point: out/leave for what it leaves,
  // over/enter for what it reaches, then move, as browsers order them.
  // With compat false (after a cancelled pointerdown) only pointer events
  // fire. Returns the hit at the new point.
  moveTo (x, y, mods, compat) {
    const mouse = compat !== false;
    Pointer.processCapture(mods);
    const h = Pointer.capturedHit(x, y);
    const target = h ? h.el : null;
    let old = Pointer.hovered ? Pointer.hovered.deref() : null;
    if (old && !old.isConnected)
      old = null;

    if (target !== old) {
      Frames.pointerLeaves(old, target);
      const oldChain = old ? Pointer.chain(old) : [];
      const newChain = target ? Pointer.chain(target) : [];
      const newSet = new Set(newChain);
      const oldSet = new Set(oldChain);

      if (old) {
        const o = Pointer.clientPoint(old, x, y);
        const init = Pointer.init(old, o.x, o.y, mods, { relatedTarget: target && target.ownerDocument === old.ownerDocument ? target : null });
        Pointer.fire(old, 'pointerout', Pointer.pointerInit(Object.assign({}, init), Pointer.buttons !== 0));
        for (const a of oldChain) {
          if (newSet.has(a))
            break;
          Pointer.fire(a, 'pointerleave', Pointer.pointerInit(Object.assign({}, init, { bubbles: false, cancelable: false }), Pointer.buttons !== 0));
        }
        if (mouse) {
          Pointer.fire(old, 'mouseout', Object.assign({}, init));
          for (const a of oldChain) {
            if (newSet.has(a))
              break;
            Pointer.fire(a, 'mouseleave', Object.assign({}, init, { bubbles: false, cancelable: false }));
          }
        }
      }

      if (target) {
        const init = Pointer.init(target, h.x, h.y, mods, { relatedTarget: old && old.ownerDocument === target.ownerDocument ? old : null });
        Pointer.fire(target, 'pointerover', Pointer.pointerInit(Object.assign({}, init), Pointer.buttons !== 0));
        const entered = [];
        for (const a of newChain) {
          if (oldSet.has(a))
            break;
          entered.push(a);
        }
        // Enter events go from the outermost element inwards.
        for (let i = entered.length - 1; i >= 0; i--)
          Pointer.fire(entered[i], 'pointerenter', Pointer.pointerInit(Object.assign({}, init, { bubbles: false, cancelable: false }), Pointer.buttons !== 0));
        if (mouse) {
          Pointer.fire(target, 'mouseover', Object.assign({}, init));
          for (let i = entered.length - 1; i >= 0; i--)
            Pointer.fire(entered[i], 'mouseenter', Object.assign({}, init, { bubbles: false, cancelable: false }));
        }
      }
      Pointer.hovered = target ? new WeakRef(target) : null;
    }
    Hover.set('hover', target);

    Pointer.x = x;
    Pointer.y = y;
    if (target) {
      const init = Pointer.init(target, h.x, h.y, mods);
      Pointer.fire(target, 'pointermove', Pointer.pointerInit(Object.assign({}, init), Pointer.buttons !== 0));
      if (mouse)
        Pointer.fire(target, 'mousemove', Object.assign({}, init));
    }
    return h;
  },

  // What pointer events at a top-level point go to: the capturing element
  // while there is one, otherwise what is under the point.
  capturedHit (x, y) {
    const c = Pointer.capture;
    if (c && c.isConnected) {
      const p = Pointer.clientPoint(c, x, y);
      return { el: c, x: p.x, y: p.y };
    }
    return Pointer.hit(x, y);
  },

  // Listens, in the document of an element about to be pressed, for the
  // capture requests of the page-world part.
  listenCapture (doc) {
    if (!doc || !doc.defaultView || Pointer.captureDocs.has(doc))
      return;
    Pointer.captureDocs.add(doc);
    doc.defaultView.addEventListener('tabwright-pointer-capture', (e) => {
      e.stopImmediatePropagation();
      const t = e.composedPath()[0];
      Pointer.pendingCapture = t && t.nodeType === 1 ? t : null;
    }, true);
  },

  captureEvent (el, type, mods) {
    const p = Pointer.clientPoint(el, Pointer.x, Pointer.y);
    const init = Pointer.init(el, p.x, p.y, mods || {}, { cancelable: false });
    Pointer.fire(el, type, Pointer.pointerInit(init, Pointer.buttons !== 0));
  },

  // Applies the capture the page asked for before the next pointer event,
  // firing lostpointercapture and gotpointercapture as the engine does.
  processCapture (mods) {
    if (Pointer.capture && !Pointer.capture.isConnected) {
      const doc = Pointer.capture.ownerDocument;
      Pointer.capture = null;
      if (doc && doc.documentElement)
        Pointer.captureEvent(doc.documentElement, 'lostpointercapture', mods);
    }
    const want = Pointer.pendingCapture;
    if (want === undefined)
      return;
    Pointer.pendingCapture = undefined;
    if (want === Pointer.capture)
      return;
    const old = Pointer.capture;
    Pointer.capture = want;
    if (old)
      Pointer.captureEvent(old, 'lostpointercapture', mods);
    if (want)
      Pointer.captureEvent(want, 'gotpointercapture', mods);
  },

  // The implicit release after pointerup.
  releaseCapture (mods) {
    Pointer.processCapture(mods);
    const old = Pointer.capture;
    Pointer.capture = null;
    Pointer.pendingCapture = undefined;
    if (old && old.isConnected)
      Pointer.captureEvent(old, 'lostpointercapture', mods);
  },

  // A top-level point in the coordinates of el's frame.
  clientPoint (el, x, y) {
    const off = Pointer.frameOffset(el);
    return { x: x - off.x, y: y - off.y };
  },

  // The element a press at this point gives focus to: the nearest focusable
  // inclusive ancestor, or null for "the page".
  focusTarget (el) {
    for (let a = el; a; a = Dom.parent(a)) {
      if (Dom.focusable(a) && !Dom.isDisabledControl(a))
        return a;
    }
    return null;
  },

  // Moves focus as a press does: onto the focusable element that was
  // pressed, or away from whatever had it when the press hit nothing
  // focusable. A text field gets its caret at the end, where a click
  // beside short text puts it; an editable region gets it at the point.
  focusForPress (target, x, y) {
    const f = Pointer.focusTarget(target);
    const active = Dom.deepActiveElement(document);
    Hover.set('focus-visible', null);
    if (f) {
      if (f === active)
        return;
      f.focus({ preventScroll: true });
      Pointer.placeCaret(f, target, x, y);
      return;
    }
    if (active && active !== active.ownerDocument.body && active !== active.ownerDocument.documentElement)
      active.blur();
  },

  placeCaret (f, target, x, y) {
    if (Actionability.isTextField(f)) {
      try {
        const n = f.value.length;
        f.setSelectionRange(n, n);
      } catch (e) {
        // Inputs such as email refuse selection ranges; WebKit leaves their
        // caret at the end already.
      }
      return;
    }
    if (f.isContentEditable) {
      const doc = target.ownerDocument;
      const p = Pointer.clientPoint(target, x, y);
      const range = typeof doc.caretRangeFromPoint === 'function' ? doc.caretRangeFromPoint(p.x, p.y) : null;
      const sel = doc.getSelection();
      if (range && f.contains(range.startContainer) && sel) {
        sel.removeAllRanges();
        sel.addRange(range);
      }
    }
  },

  // One full click (or double click) at a top-level point on the element
  // that is there. Returns what was hit.
  click (x, y, opts) {
    const mods = opts.modifiers || {};
    const button = Pointer.BUTTONS[opts.button || 'left'];
    const bit = Pointer.BUTTON_BITS[button];
    const count = opts.clickCount || 1;

    const h = Pointer.moveTo(x, y, mods);
    if (!h)
      throw Base.error('browser_not_interactable', 'nothing is at the point (' + Math.round(x) + ', ' + Math.round(y) + ') to click');
    const first = h.el;

    for (let i = 1; i <= count; i++) {
      const down = Pointer.hit(x, y) || h;
      Pointer.listenCapture(down.el.ownerDocument);
      Pointer.buttons |= bit;
      Hover.set('active', down.el);
      const downInit = Pointer.init(down.el, down.x, down.y, mods, { button, detail: i });
      const pointerOk = Pointer.fire(down.el, 'pointerdown', Pointer.pointerInit(Object.assign({}, downInit, { detail: 0 }), true));
      Pointer.processCapture(mods);
      let mouseOk = true;
      if (pointerOk)
        mouseOk = Pointer.fire(down.el, 'mousedown', Object.assign({}, downInit));
      if (mouseOk && button === 0)
        Pointer.focusForPress(down.el, x, y);
      if (button === 2) {
        const cm = Pointer.hit(x, y) || down;
        Pointer.fire(cm.el, 'contextmenu', Pointer.pointerInit(Pointer.init(cm.el, cm.x, cm.y, mods, { button, detail: 0 }), true));
      }

      Pointer.processCapture(mods);
      const up = Pointer.capturedHit(x, y) || down;
      Pointer.buttons &= ~bit;
      const upInit = Pointer.init(up.el, up.x, up.y, mods, { button, detail: i });
      Pointer.fire(up.el, 'pointerup', Pointer.pointerInit(Object.assign({}, upInit, { detail: 0 }), false));
      if (pointerOk)
        Pointer.fire(up.el, 'mouseup', Object.assign({}, upInit));
      Hover.set('active', null);
      Pointer.releaseCapture(mods);

      const on = Pointer.commonAncestor(down.el, up.el);
      if (on) {
        const o = Pointer.clientPoint(on, x, y);
        const init = Pointer.init(on, o.x, o.y, mods, { button, detail: i });
        if (button === 0)
          Pointer.fire(on, 'click', Pointer.pointerInit(init, false));
        else
          Pointer.fire(on, 'auxclick', Pointer.pointerInit(init, false));
        if (button === 0 && i === 2)
          Pointer.fire(on, 'dblclick', Pointer.init(on, o.x, o.y, mods, { button, detail: 2 }));
      }
    }
    return first;
  },

  // Presses or releases the left button at a top-level point, for drags.
  press (x, y, mods) {
    const h = Pointer.hit(x, y);
    if (!h)
      return { el: null, ok: false };
    Pointer.listenCapture(h.el.ownerDocument);
    Pointer.buttons |= 1;
    Hover.set('active', h.el);
    const init = Pointer.init(h.el, h.x, h.y, mods, { button: 0, detail: 1 });
    const ok = Pointer.fire(h.el, 'pointerdown', Pointer.pointerInit(Object.assign({}, init, { detail: 0 }), true));
    Pointer.processCapture(mods);
    let mouseOk = true;
    if (ok)
      mouseOk = Pointer.fire(h.el, 'mousedown', Object.assign({}, init));
    if (mouseOk)
      Pointer.focusForPress(h.el, x, y);
    return { el: h.el, ok, mouseOk };
  },

  // Answers {el, under, captured}: the element the release went to, the
  // one under the point, and whether the page held the pointer captured.
  release (x, y, mods, compat, downTarget) {
    Pointer.processCapture(mods);
    const under = Pointer.hit(x, y);
    const captured = Pointer.capture !== null && Pointer.capture.isConnected;
    const h = Pointer.capturedHit(x, y);
    Pointer.buttons &= ~1;
    if (!h) {
      Hover.set('active', null);
      Pointer.releaseCapture(mods);
      return { el: null, under: null, captured };
    }
    const init = Pointer.init(h.el, h.x, h.y, mods, { button: 0, detail: 1 });
    Pointer.fire(h.el, 'pointerup', Pointer.pointerInit(Object.assign({}, init, { detail: 0 }), false));
    if (compat)
      Pointer.fire(h.el, 'mouseup', Object.assign({}, init));
    Hover.set('active', null);
    Pointer.releaseCapture(mods);
    const on = Pointer.commonAncestor(downTarget, h.el);
    if (on) {
      const o = Pointer.clientPoint(on, x, y);
      Pointer.fire(on, 'click', Pointer.pointerInit(Pointer.init(on, o.x, o.y, mods, { button: 0, detail: 1 }), false));
    }
    return { el: h.el, under: under ? under.el : null, captured };
  },
};

Pointer.listenCapture(document);
