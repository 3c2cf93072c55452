// SPDX-License-Identifier: GPL-3.0-or-later
//
// browser_screenshot's marks: the elements an interactive snapshot prints
// that a person can see and reach, each with its ref and where it shows.
// The snapshot's own walk and printer hand the refs out, so a mark names
// the element that browser_snapshot prints with that ref and that an action
// on the ref reaches. What the snapshot keeps between calls (its pages, the
// bases of its diffs, the page model, what it printed last) is left as it
// was: a marked screenshot changes no later snapshot.

const Marks = {
  // More labels than this cover the page rather than name it.
  MAX: 400,
  BUDGET_MS: 2000,

  // Interactive roles an agent acts on, besides clickable plain elements;
  // headings are marked too, since they name the parts of a page. The
  // landmarks and containers an interactive snapshot keeps for context, and
  // frames, are not: their content is.
  marked (node) {
    return node.clickable || node.role === 'heading' ||
           (Roles.INTERACTIVE.has(node.role) && !Snapshot.INTERACTIVE_CONTAINERS.has(node.role));
  },

  // The refs of the elements an interactive snapshot of the whole page
  // prints, in the order it prints them: [{ el, ref, role, clickable }].
  printed (ctx) {
    const focused = Dom.deepActiveElement(document);
    ctx.start = Base.now();
    ctx.deadline = ctx.start + Marks.BUDGET_MS * 0.75;
    ctx.cut = false;
    ctx.deep = false;
    ctx.visited = 0;
    ctx.focused = focused === document.body || focused === document.documentElement ? null : focused;
    ctx.interactive = true;
    ctx.labelDepth = 0;
    ctx.keep = null;
    ctx.watch = false;
    ctx.reuse = false;
    ctx.printedRefs = [];
    const printed = Snapshot.printed;
    const printedFocus = Snapshot.printedFocus;
    try {
      Snapshot.walkAndPrint(ctx, { interactive: true }, Marks.BUDGET_MS);
    } finally {
      Snapshot.printed = printed;
      Snapshot.printedFocus = printedFocus;
    }
    return ctx.printedRefs;
  },

  // The part of el a person sees, in top-level viewport coordinates: its
  // box cut by every ancestor that clips it and by the viewport of each
  // frame it sits in, and by the top-level viewport unless the picture is
  // of the whole page. Null when nothing of it shows.
  shownRect (el, whole) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0)
      return null;
    const v = Actionability.clipByFrames(el, r);
    if (!whole)
      return Actionability.clipToViewport(v);
    const page = Marks.pageSize();
    v.x1 = Math.max(v.x1, -window.scrollX);
    v.y1 = Math.max(v.y1, -window.scrollY);
    v.x2 = Math.min(v.x2, page.width - window.scrollX);
    v.y2 = Math.min(v.y2, page.height - window.scrollY);
    if (v.x2 - v.x1 < 1 || v.y2 - v.y1 < 1)
      return null;
    return v;
  },

  // Whether a press on the part of el in the viewport would land on it, so
  // that a control under a banner or a dialog's backdrop gets no label. A
  // part outside the viewport (in a picture of the whole page) cannot be
  // tested; an action scrolls it in first.
  reachable (el, v) {
    const x1 = Math.max(v.x1, 0);
    const y1 = Math.max(v.y1, 0);
    const x2 = Math.min(v.x2, window.innerWidth);
    const y2 = Math.min(v.y2, window.innerHeight);
    if (x2 - x1 < 1 || y2 - y1 < 1)
      return true;
    if (Actionability.hitsAt(el, (x1 + x2) / 2, (y1 + y2) / 2).ok)
      return true;
    for (const p of Actionability.points(el)) {
      if (Actionability.hitsAt(el, p.x, p.y).ok)
        return true;
    }
    return false;
  },

  pageSize () {
    const root = document.documentElement;
    return {
      width: Math.max(window.innerWidth, root ? root.scrollWidth : 0),
      height: Math.max(window.innerHeight, root ? root.scrollHeight : 0),
    };
  },

  // { marks: [{ ref, role, x, y }], more, innerWidth, pageWidth }: x and y
  // are the top-left of what shows of each element, in CSS pixels of the
  // viewport, or of the page when args.fullPage.
  collect (ctx, args) {
    const whole = args.fullPage === true;
    const dx = whole ? window.scrollX : 0;
    const dy = whole ? window.scrollY : 0;
    const marks = [];
    let more = 0;
    for (const p of Marks.printed(ctx)) {
      if (!Marks.marked(p))
        continue;
      const v = Marks.shownRect(p.el, whole);
      if (v === null || !Marks.reachable(p.el, v))
        continue;
      if (marks.length === Marks.MAX) {
        more++;
        continue;
      }
      marks.push({ ref: Refs.format(p.ref), role: p.role, x: v.x1 + dx, y: v.y1 + dy });
    }
    const page = Marks.pageSize();
    return {
      marks,
      more,
      partial: ctx.cut === true,
      innerWidth: window.innerWidth,
      pageWidth: page.width,
    };
  },
};

Api.register('marks.collect', Marks.collect);
