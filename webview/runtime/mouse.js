// SPDX-License-Identifier: GPL-3.0-or-later
//
// browser_mouse: the pointer at x,y of the viewport, for canvas apps and
// maps that have no refs. Points are CSS pixels of the top-level viewport,
// or pixels of a scaled screenshot mapped back with its scale. Events go
// through Pointer (pointer.js), as clicks by ref do; the result names the
// element that was at the point with a ref of the snapshot's table, so
// that the agent can act on it by ref afterwards.

const Mouse = {
  // The element that stands for the point: the one hit, or its nearest
  // ancestor with a role of its own (the button around a label's text).
  at (ctx, hit) {
    let el = hit;
    for (let a = hit; a && a.localName !== 'body' && a.localName !== 'html'; a = a.parentElement) {
      const role = Roles.role(ctx, a);
      if (role && role !== 'generic' && role !== 'none' && role !== 'presentation') {
        el = a;
        break;
      }
    }
    const role = Roles.role(ctx, el) || 'generic';
    const name = Names.name(ctx, el);
    const n = Refs.assign(el, Roles.role(ctx, el), role === 'generic' && !name ? null : name);
    return { ref: Refs.format(n), role, name, tag: el.localName };
  },

  point (args, x, y, what) {
    if (typeof x !== 'number' || typeof y !== 'number' || !isFinite(x) || !isFinite(y))
      throw Base.error('browser_invalid_argument', what + ' needs numbers x and y');
    let scale = 1;
    if (args.screenshotWidth !== undefined) {
      if (!(args.screenshotWidth > 0))
        throw Base.error('browser_invalid_argument', 'screenshotWidth must be a positive number');
      scale = args.screenshotWidth / window.innerWidth;
    } else if (args.scale !== undefined) {
      if (!(args.scale > 0))
        throw Base.error('browser_invalid_argument', 'scale must be a positive number');
      scale = args.scale;
    }
    const p = { x: x / scale, y: y / scale };
    if (p.x < 0 || p.y < 0 || p.x >= window.innerWidth || p.y >= window.innerHeight)
      throw Base.error('browser_invalid_argument',
                       'the point (' + Math.round(p.x) + ', ' + Math.round(p.y) + ') is outside the viewport of ' +
                       window.innerWidth + '×' + window.innerHeight + ' CSS pixels' +
                       (scale !== 1 ? ' (after scaling by 1/' + Base.clip(String(scale), 8) + ')' : '') +
                       '; scroll first, or take a new screenshot');
    return p;
  },

  element (ctx, p, what) {
    const h = Pointer.hit(p.x, p.y);
    if (!h)
      throw Base.error('browser_not_interactable', 'nothing is at the point (' + Math.round(p.x) + ', ' +
                       Math.round(p.y) + ') to ' + what);
    return h.el;
  },

  // A point over a frame of another origin, whose document this runtime
  // cannot see: the frame's own runtime acts there, at the point in its
  // coordinates, as a person's pointer reaches into it. The pointer first
  // moves onto the frame in this document, and a press gives the frame the
  // focus, as a person's does. The promise of the answer, with the point
  // in top-level coordinates and the element's ref in the frame (@fNeM);
  // null when the point is not inside such a frame's content.
  intoFrame (ctx, args, p) {
    const h = Pointer.hit(p.x, p.y);
    const el = h ? h.el : null;
    if (el === null || (el.localName !== 'iframe' && el.localName !== 'frame') ||
        Dom.frameDocument(el) !== null || !el.contentWindow || !Frames.reachable())
      return null;
    const path = Frames.pathOf(el.contentWindow);
    if (path === null || path === '')
      return null;
    const o = Pointer.contentOrigin(el);
    const x = h.x - o.x;
    const y = h.y - o.y;
    if (x < 0 || y < 0 || x >= el.clientWidth || y >= el.clientHeight)
      return null;
    const inner = { action: args.action, x, y, button: args.button, deltaX: args.deltaX, deltaY: args.deltaY };
    let q = null;
    if (args.action === 'drag') {
      q = Mouse.point(args, args.toX, args.toY, 'drag');
      inner.toX = q.x - (p.x - x);
      inner.toY = q.y - (p.y - y);
    }
    Pointer.moveTo(p.x, p.y, {});
    if (args.action !== 'move' && args.action !== 'wheel' && el.ownerDocument.activeElement !== el)
      el.focus({ preventScroll: true });
    const rounded = (r) => ({ x: Math.round(r.x * 100) / 100, y: Math.round(r.y * 100) / 100 });
    return Frames.callAsync(path, 'mouse.act', inner).then((value) => {
      const out = Object.assign({}, value, { point: rounded(p), x: rounded(p).x, y: rounded(p).y });
      if (q !== null)
        out.to = rounded(q);
      return out;
    });
  },

  sleep (ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  },

  async act (ctx, args) {
    const action = args.action;
    const p = Mouse.point(args, args.x, args.y, action);
    if (['move', 'click', 'double_click', 'drag', 'wheel'].includes(action)) {
      const forwarded = Mouse.intoFrame(ctx, args, p);
      if (forwarded !== null)
        return forwarded;
    }
    const rounded = (q) => ({ x: Math.round(q.x * 100) / 100, y: Math.round(q.y * 100) / 100 });
    const out = { ready: true, action, point: rounded(p), x: rounded(p).x, y: rounded(p).y };

    if (action === 'move') {
      out.element = Mouse.at(ctx, Mouse.element(ctx, p, 'move to'));
      Pointer.moveTo(p.x, p.y, {});
    } else if (action === 'click' || action === 'double_click') {
      out.element = Mouse.at(ctx, Mouse.element(ctx, p, 'click'));
      out.button = args.button || 'left';
      Pointer.click(p.x, p.y, { button: out.button, clickCount: action === 'double_click' ? 2 : 1, modifiers: {} });
    } else if (action === 'drag') {
      const q = Mouse.point(args, args.toX, args.toY, 'drag');
      out.element = Mouse.at(ctx, Mouse.element(ctx, p, 'drag'));
      out.to = rounded(q);
      Pointer.moveTo(p.x, p.y, {});
      const press = Pointer.press(p.x, p.y, {});
      const steps = 10;
      for (let i = 1; i <= steps; i++) {
        await Mouse.sleep(16);
        Pointer.moveTo(p.x + (q.x - p.x) * i / steps, p.y + (q.y - p.y) * i / steps, {}, press.ok);
      }
      const released = Pointer.release(q.x, q.y, {}, press.ok, press.el);
      const end = released.under || released.el;
      if (end)
        out.releasedOn = Mouse.at(ctx, end);
    } else if (action === 'wheel') {
      const dx = Number(args.deltaX) || 0;
      const dy = Number(args.deltaY) || 0;
      const over = Mouse.element(ctx, p, 'scroll');
      out.element = Mouse.at(ctx, over);
      Pointer.moveTo(p.x, p.y, {});
      const c = Pointer.clientPoint(over, p.x, p.y);
      const allowed = Pointer.fire(over, 'wheel', Pointer.init(over, c.x, c.y, {}, { deltaX: dx, deltaY: dy, deltaZ: 0, deltaMode: 0 }));
      out.prevented = !allowed;
      if (allowed) {
        const scroller = Actions.scrollerFor(over, dx, dy);
        const before = { x: scroller.scrollLeft, y: scroller.scrollTop };
        const seen = Actions.scrolled(scroller, 500);
        scroller.scrollBy({ left: dx, top: dy, behavior: 'instant' });
        const after = { x: scroller.scrollLeft, y: scroller.scrollTop };
        if (after.x !== before.x || after.y !== before.y)
          await seen;
        const doc = scroller.ownerDocument;
        out.scrolled = scroller === doc.scrollingElement && doc === document ? 'page' : Actionability.describe(ctx, scroller);
        out.movedX = Math.round(after.x - before.x);
        out.movedY = Math.round(after.y - before.y);
      }
    } else {
      throw Base.error('browser_invalid_argument', 'action must be move, click, double_click, drag or wheel');
    }
    return out;
  },
};

Api.register('mouse.act', Actions.acting(Mouse.act, true, true));
