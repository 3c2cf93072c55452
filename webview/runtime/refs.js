// SPDX-License-Identifier: GPL-3.0-or-later
//
// @eN refs. Each element that a snapshot prints gets a number it keeps while
// it lives; numbers are never handed out twice in a tab. The page's script
// world dies on navigation, so the C side owns the counter: every call
// passes the next free number in and reads the new one back. Refs printed
// by the runtime of a frame of another origin carry that frame's number
// (@f2e7, see frames.js); the number alone is unique in the tab.
//
// Every runtime function that takes a ref goes through Refs.resolve(), which
// refuses (browser_stale_ref) a ref whose element is gone or no longer has
// the role and name it had when it was printed.

const Refs = {
  next: 1,
  // number -> { target: WeakRef(element), role, name }
  byNumber: new Map(),
  // element -> number
  byElement: new WeakMap(),
  // The records of collected elements are dropped when the table has grown
  // to this size, which then doubles from what is left.
  sweepAt: 20000,

  sync (next) {
    if (typeof next === 'number' && next > Refs.next)
      Refs.next = next;
  },

  // Accepts "@e3" and "e3" ("@f2e3" in frame 2); anything else is an
  // invalid argument.
  parse (ref) {
    if (typeof ref !== 'string')
      throw Base.error('browser_invalid_argument', 'ref must be a string like "@e3"');
    const m = /^@?(?:f([1-9][0-9]{0,8}))?e([1-9][0-9]{0,14})$/.exec(ref.trim());
    if (!m)
      throw Base.error('browser_invalid_argument',
                       'ref "' + Base.clip(ref, 40) + '" is not a ref; refs look like "@e3" ' +
                       'and come from browser_snapshot');
    if ((m[1] === undefined ? 0 : parseInt(m[1], 10)) !== Frames.number)
      throw Base.error('browser_stale_ref',
                       ref.trim() + ' is not in this frame; take a new snapshot');
    return parseInt(m[2], 10);
  },

  format (n) {
    return Frames.number === 0 ? '@e' + n : '@f' + Frames.number + 'e' + n;
  },

  // The number of el, assigning one when it has none, and what it was
  // printed as. name is null when the snapshot printed no name for it.
  assign (el, role, name) {
    let n = Refs.byElement.get(el);
    if (n === undefined) {
      n = Refs.next++;
      Refs.byElement.set(el, n);
      Refs.byNumber.set(n, { target: new WeakRef(el), role, name });
      if (Refs.byNumber.size > Refs.sweepAt)
        Refs.sweep();
    } else {
      const rec = Refs.byNumber.get(n);
      if (rec === undefined) {
        Refs.byNumber.set(n, { target: new WeakRef(el), role, name });
      } else {
        rec.role = role;
        rec.name = name;
      }
    }
    return n;
  },

  sweep () {
    for (const [n, rec] of Refs.byNumber) {
      if (rec.target.deref() === undefined)
        Refs.byNumber.delete(n);
    }
    Refs.sweepAt = Math.max(20000, Refs.byNumber.size * 2);
  },

  // The live element a ref names, after checking it is still the one that
  // was printed.
  resolve (ctx, ref) {
    const n = Refs.parse(ref);
    const label = Refs.format(n);
    const rec = Refs.byNumber.get(n);
    if (rec === undefined) {
      throw Base.error('browser_stale_ref',
                       label + ' is not on the current page (it may belong to a page that has ' +
                       'since navigated away); take a new snapshot');
    }
    const el = rec.target.deref();
    if (el === undefined || !el.isConnected || !el.ownerDocument.defaultView)
      throw Base.error('browser_stale_ref',
                       label + ' was removed from the page; take a new snapshot');
    const role = Roles.role(ctx, el);
    if (role !== rec.role) {
      throw Base.error('browser_stale_ref',
                       label + ' was a ' + rec.role + ' and is now a ' + (role || 'plain element') +
                       '; take a new snapshot');
    }
    if (rec.name !== null) {
      const name = Names.name(ctx, el);
      if (name !== rec.name) {
        throw Base.error('browser_stale_ref',
                         label + ' was ' + rec.role + ' ' + Base.quote(Base.clip(rec.name, 80)) +
                         ' and is now ' + role + ' ' + Base.quote(Base.clip(name, 80)) +
                         '; take a new snapshot');
      }
    }
    return el;
  },
};
