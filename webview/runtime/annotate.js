// SPDX-License-Identifier: GPL-3.0-or-later
//
// browser_annotate: the elements a person marked on a tab. A box marks the
// elements an interactive snapshot prints whose visible middle lies inside
// it; a point marks the innermost such element under it. Their refs come
// from the snapshot's own walk (Marks.printed), so they are the refs the
// next browser_snapshot prints for the same elements.

const Annotate = {
  MAX_PER_MARK: 50,

  // args.marks: [{ x, y, width?, height? }] in CSS pixels of the viewport
  // (a point has no width or height). Answers
  // { marks: [{ elements: [{ ref, role, name }] }] } in the same order.
  resolve (ctx, args) {
    if (!Array.isArray(args.marks))
      throw Base.error('browser_invalid_argument', 'marks must be an array');
    const shown = [];
    for (const p of Marks.printed(ctx)) {
      if (!Marks.marked(p))
        continue;
      const v = Marks.shownRect(p.el, false);
      if (v !== null)
        shown.push({ p, v });
    }
    const describe = (p) => ({ ref: Refs.format(p.ref), role: p.role, name: Names.name(ctx, p.el) });
    const marks = args.marks.map((m) => {
      const box = typeof m.width === 'number' && typeof m.height === 'number';
      const elements = [];
      if (box) {
        for (const { p, v } of shown) {
          const cx = (v.x1 + v.x2) / 2;
          const cy = (v.y1 + v.y2) / 2;
          if (cx >= m.x && cx <= m.x + m.width && cy >= m.y && cy <= m.y + m.height &&
              elements.length < Annotate.MAX_PER_MARK)
            elements.push(describe(p));
        }
      } else {
        let best = null;
        for (const s of shown) {
          const v = s.v;
          if (m.x < v.x1 || m.x > v.x2 || m.y < v.y1 || m.y > v.y2)
            continue;
          const area = (v.x2 - v.x1) * (v.y2 - v.y1);
          if (best === null || area < best.area)
            best = { p: s.p, area };
        }
        if (best !== null)
          elements.push(describe(best.p));
      }
      return { elements };
    });
    return { marks };
  },
};

Api.register('annotate.resolve', Annotate.resolve);
