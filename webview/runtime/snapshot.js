// SPDX-License-Identifier: GPL-3.0-or-later
//
// The accessibility tree as text (DESIGN.md §5): one node per line, two
// spaces of indent per level, `- role "name" @eN [state] [prop=value]`,
// text as `- text: …` or after a colon when an element holds only text.
//
// Two passes: the walk builds a light tree of the nodes worth printing
// (hidden content left out, unnamed generic containers flattened, frames
// and shadow roots in place), then the printer shapes and writes it,
// handing out refs to the elements it prints. The walk watches a time
// budget, so a huge page yields a partial tree with a note, never a hang.

const Snapshot = {
  // A mark between blocks: text on either side of it is not run together.
  BREAK: { brk: true },
  // The children of a leaf: shared, never written to.
  NO_KIDS: Object.freeze([]),
  NAME_MAX: 200,
  // Long text is wrapped at this width, so that a line always fits in the
  // smallest reply (maxChars 1000) with its header and trailer.
  LINE_MAX: 500,
  MAX_DEPTH: 400,
  MAX_FRAME_DEPTH: 8,
  MAX_OPTIONS: 20,
  OPTIONS_CHARS: 300,
  // Past this much text the printer stops: it would take hundreds of
  // replies to page through.
  MAX_OUTPUT: 4000000,

  // Roles that stand for no structure of their own: their content joins
  // their parent's, unless they carry a name or need a ref.
  FLATTEN: new Set(['', 'generic', 'none']),

  // Text-level roles (HTML-AAM: code, del, em, ins, mark, s, strong, sub,
  // sup, time): printed with their text, and read as plain text where the
  // content of a container is its name.
  PHRASING: new Set([
    'code', 'deletion', 'emphasis', 'insertion', 'mark', 'strong', 'subscript',
    'superscript', 'time',
  ]),

  // Containers named from their content: their content is printed instead
  // of the name.
  CONTENT_CONTAINERS: new Set([
    'row', 'cell', 'gridcell', 'columnheader', 'rowheader',
  ]),

  // Content containers that head a column or a row.
  HEADERS: new Set(['columnheader', 'rowheader']),

  // Wrappers that disappear when all they hold is a single element.
  COLLAPSIBLE: new Set(['cell', 'gridcell', 'listitem', 'paragraph']),

  // Roles printed in interactive mode besides the widgets: they locate them.
  LOCATORS: new Set(['heading']),
  // Containers kept in interactive mode when they hold widgets.
  INTERACTIVE_CONTAINERS: new Set([
    'dialog', 'alertdialog', 'group', 'radiogroup', 'tablist', 'menu', 'menubar',
    'toolbar', 'tree',
  ]),

  TEXT_INPUT_TYPES: new Set(['date', 'datetime-local', 'month', 'time', 'week']),

  // Snapshots kept for paging through them with a cursor, newest last.
  // They live as long as the document, so a cursor never outlives its page.
  pages: [],
  MAX_PAGES: 3,
  HEADER_MAX: 300,
  TRAILER_RESERVE: 160,

  // What every walk of a document starts from, the main frame's and each
  // frame's of another origin (Frames.snapshotHere): nothing cut or visited
  // yet, and the element with the focus (none when it is the page itself).
  startWalk (ctx, doc, args) {
    ctx.cut = false;
    ctx.deep = false;
    ctx.visited = 0;
    ctx.focused = Dom.deepActiveElement(doc);
    if (ctx.focused === doc.body || ctx.focused === doc.documentElement)
      ctx.focused = null;
    ctx.interactive = args.interactive === true;
    ctx.labelDepth = 0;
  },

  // browser_snapshot: walks and prints the page, keeps the lines, and
  // answers with the first reply's worth.
  run (ctx, args) {
    const doc = document;
    const budget = typeof args.budgetMs === 'number' ? args.budgetMs : 2500;
    ctx.start = Base.now();
    // Most of the time for reading the page, the rest for writing it out.
    ctx.deadline = ctx.start + budget * 0.75;
    Snapshot.startWalk(ctx, doc, args);
    ctx.remote = false;

    // The page as walked last, when nothing has happened since that could
    // change a line (see page-model.js); otherwise a walk.
    const pageWide = !(typeof args.ref === 'string' && args.ref !== '');
    const mode = SnapshotDiff.mode(args);
    const base = SnapshotDiff.bases.get(mode);
    let lines;
    let partial;
    let walked;
    let cached = false;
    if (pageWide && args.noCache !== true && base !== undefined && !base.partial &&
        PageModel.unchanged(mode, ctx.focused)) {
      lines = base.lines;
      partial = false;
      cached = true;
      walked = Base.now();
    } else {
      ctx.watch = pageWide;
      // A walk of the page keeps what each element's walk produced, and
      // takes it again where nothing it depends on changed (see
      // page-model.js); noCache asks for a full walk.
      ctx.keep = pageWide ? PageModel.kept : null;
      ctx.stamp = 0;
      ctx.reuse = pageWide && PageModel.prepare(doc, args.noCache !== true);
      ctx.prepared = Base.now();
      ctx.reused = 0;
      const done = Snapshot.walkAndPrint(ctx, args, budget);
      lines = done.lines;
      partial = done.partial;
      walked = done.walked;
      if (pageWide) {
        if (partial || ctx.deep || ctx.remote)
          PageModel.untracked();
        else
          PageModel.walked(mode, ctx.focused);
      }
    }

    const page = {
      id: typeof args.snapshotId === 'number' ? args.snapshotId : 0,
      url: doc.URL,
      title: Base.flat(doc.title),
      lines,
      diff: false,
    };
    // Every snapshot is the base of the next diff of its kind, whether or
    // not it was asked for as one.
    const before = SnapshotDiff.swap(args, page.id, lines, partial);
    const compared = Base.now();
    if (args.diff === true) {
      page.lines = SnapshotDiff.lines(args, before, lines, partial, args.hadSnapshot === true);
      page.diff = true;
    }
    Snapshot.pages.push(page);
    if (Snapshot.pages.length > Snapshot.MAX_PAGES)
      Snapshot.pages.shift();

    const reply = Snapshot.render(page, 0, Snapshot.maxChars(args));
    reply.partial = partial;
    reply.elements = ctx.visited;
    reply.lines = lines.length;
    reply.cached = cached;
    reply.incremental = ctx.reuse === true;
    reply.reused = ctx.reused || 0;
    // The model's look at what changed, then the walk.
    reply.prepMs = Math.round(((ctx.prepared || ctx.start) - ctx.start) * 10) / 10;
    reply.walkMs = Math.round(walked - ctx.start);
    reply.printMs = Math.round(compared - walked);
    // The diff, when asked for, and the reply.
    reply.diffMs = Math.round(Base.now() - compared);
    // All of the call, for the app's log.
    reply.runMs = Math.round((Base.now() - ctx.start) * 10) / 10;
    return reply;
  },

  // Walks the page (or the subtree of args.ref) and prints it.
  walkAndPrint (ctx, args, budget) {
    const doc = document;
    let root;
    let items = [];
    if (typeof args.ref === 'string' && args.ref !== '') {
      root = Refs.resolve(ctx, args.ref);
      if (Dom.hiddenDeep(ctx, root)) {
        throw Base.error('browser_not_interactable',
                         args.ref + ' is hidden now, so it has nothing to show; ' +
                         'take a new snapshot');
      }
      ctx.fast = root.getRootNode().nodeType === 9 &&
                 !Dom.sheetFlags(ctx, root.ownerDocument).visibility;
      Snapshot.walkElement(ctx, root, items, 0, 0, Snapshot.modalOf(root.ownerDocument));
    } else {
      root = doc.body || doc.documentElement;
      ctx.fast = !Dom.sheetFlags(ctx, doc).visibility;
      if (root)
        Snapshot.walkElement(ctx, root, items, 0, 0, Snapshot.modalOf(doc));
    }

    const walked = Base.now();
    const out = {
      lines: [], size: 0, full: false, late: false, deadline: ctx.start + budget, copies: 0,
    };
    if (ctx.interactive)
      items = Snapshot.interactiveOnly(items);
    // An incremental walk prints the parts it took again as they were
    // printed last, unless the focus moved into or out of them (the one
    // state read while printing that the page model does not follow).
    ctx.printedBefore = ctx.reuse === true ? Snapshot.printed : null;
    ctx.printedNow = ctx.keep ? new WeakMap() : null;
    ctx.optionLists = new Map();
    ctx.optionUses = ctx.printedNow !== null ? [] : undefined;
    ctx.focusedBefore = Snapshot.printedFocus;
    ctx.nearFocus = new Set();
    if (ctx.printedBefore !== null) {
      Snapshot.holders(ctx.focused, ctx.nearFocus);
      Snapshot.holders(ctx.focusedBefore, ctx.nearFocus);
    }
    Snapshot.printList(ctx, items, 0, out);
    Snapshot.printed = ctx.printedNow;
    Snapshot.printedFocus = ctx.focused;

    if (out.lines.length === 0)
      out.lines.push(ctx.interactive ? '(no interactive elements)' : '(the page shows no content)');
    if (ctx.cut) {
      out.lines.push('… snapshot incomplete: the page is too large to read within ' +
                     Math.round(ctx.deadline - ctx.start) + ' ms (' + ctx.visited +
                     ' elements read); pass "ref" to snapshot one part, or "interactive": true');
    }
    if (ctx.deep)
      out.lines.push('… parts nested deeper than ' + Snapshot.MAX_DEPTH + ' levels are left out');
    if (out.late) {
      out.lines.push('… snapshot incomplete: the page is too large to write out within ' +
                     budget + ' ms; pass "ref" to snapshot one part, or "interactive": true');
    } else if (out.full) {
      out.lines.push('… snapshot stopped after ' + Snapshot.MAX_OUTPUT +
                     ' characters; pass "ref" to snapshot one part');
    }

    return { lines: out.lines, partial: ctx.cut || out.full || out.late, walked };
  },

  // The part of a kept snapshot a cursor points at.
  continueFrom (ctx, args) {
    const id = args.snapshotId;
    const line = args.line;
    const page = Snapshot.pages.find((p) => p.id === id);
    if (page === undefined || typeof line !== 'number' || line < 0 || line >= page.lines.length) {
      throw Base.error('browser_invalid_argument',
                       'cursor "' + id + ':' + line + '" has expired: the page changed or newer ' +
                       'snapshots replaced it; call browser_snapshot without cursor');
    }
    return Snapshot.render(page, line, Snapshot.maxChars(args));
  },

  maxChars (args) {
    const n = args.maxChars;
    return typeof n === 'number' && n >= 1000 ? Math.floor(n) : 40000;
  },

  // The body of the last reply, kept for the same lines asked for again
  // from the same line with the same room (a page that did not change).
  rendered: null,

  // Lines from `start` on that fit in maxChars characters with the header
  // and, when cut, the line that says how to continue.
  render (page, start, maxChars) {
    let header = 'Page: ' + (page.title !== '' ? page.title + ' — ' + page.url : page.url);
    header = Base.clip(header, Snapshot.HEADER_MAX);
    if (start > 0)
      header += ' (continued from line ' + (start + 1) + ')';
    const lines = page.lines;
    let i = start;
    // A diff says first how much changed, then which page it is.
    const head = page.diff && start === 0 ? lines[i++] + '\n' + header : header;
    const used = head.length;
    const first = i;
    let body;
    let kept = Snapshot.rendered;
    if (kept !== null && kept.lines === lines && kept.first === first && kept.used === used &&
        kept.maxChars === maxChars) {
      i = kept.end;
      body = kept.body;
    } else {
      kept = null;
      const parts = [];
      let room = used;
      for (; i < lines.length; i++) {
        const line = lines[i];
        const last = i + 1 === lines.length;
        const left = maxChars - room - 1 - (last ? 0 : Snapshot.TRAILER_RESERVE);
        if (line.length <= left) {
          parts.push(line);
          room += line.length + 1;
          continue;
        }
        if (i === first && left > 1) {
          // A line longer than a whole reply is shortened rather than
          // never shown.
          let cut = left - 1;
          const code = line.charCodeAt(cut - 1);
          if (code >= 0xd800 && code <= 0xdbff)
            cut--;
          parts.push(line.slice(0, cut) + '…');
          i++;
        }
        break;
      }
      body = parts.length > 0 ? '\n' + parts.join('\n') : '';
      Snapshot.rendered = {
        lines, first, used, maxChars, end: i, body, head: null, text: null, cursor: null,
      };
    }
    const reply = { url: page.url, title: page.title, truncated: i < lines.length };
    // A frame's own snapshot (of one of its refs) is continued there.
    const cursor = i < lines.length
      ? (Frames.number !== 0 ? 'f' + Frames.number + ':' : '') + page.id + ':' + i : null;
    if (cursor !== null)
      reply.nextCursor = cursor;
    // The same text as the last reply is the same string, which api.js
    // tells from the one the tab holds at a glance.
    const now = Snapshot.rendered;
    if (kept !== null && kept.head === head && kept.cursor === cursor) {
      reply.text = kept.text;
      return reply;
    }
    let text = head + body;
    if (cursor !== null) {
      text += '\n… cut at ' + maxChars + ' characters: call browser_snapshot again ' +
              'with cursor "' + cursor + '" to continue';
    }
    reply.text = text;
    now.head = head;
    now.text = text;
    now.cursor = cursor;
    return reply;
  },

  modalOf (doc) {
    return Dom.modalElement(doc);
  },

  // Budget and depth guards, checked once per element.
  tick (ctx, depth) {
    if (ctx.cut)
      return false;
    ctx.visited++;
    if ((ctx.visited & 127) === 0 && Base.now() > ctx.deadline) {
      ctx.cut = true;
      return false;
    }
    if (depth > Snapshot.MAX_DEPTH) {
      ctx.deep = true;
      return false;
    }
    return true;
  },

  walkChildren (ctx, el, out, depth, frameDepth, modal, textShown, skip, attrs) {
    const tag = el.localName;
    if (tag === 'details' && Dom.isHtml(el) && !el.open) {
      const summary = Dom.firstSummary(el);
      if (summary)
        Snapshot.walkElement(ctx, summary, out, depth + 1, frameDepth, modal);
      return;
    }
    const root = el.shadowRoot;
    const fast = ctx.fast;
    // Shadow trees have style sheets of their own, and an inline
    // visibility is inherited: below either, computed styles decide.
    if (fast && (root !== null || Snapshot.setsVisibility(el, attrs)))
      ctx.fast = false;
    if (root !== null && ctx.watch)
      PageModel.watch(root);
    if (tag === 'slot') {
      const kids = Dom.children(el);
      for (let i = 0; i < kids.length && !ctx.cut; i++)
        Snapshot.walkChild(ctx, kids[i], out, depth, frameDepth, modal, textShown, skip);
    } else if (root === null && ctx.keep && el.childElementCount >= Snapshot.LAYOUT_MIN) {
      if (!ctx.reuse ||
          !Snapshot.walkLaidOut(ctx, el, out, depth, frameDepth, modal, textShown, skip))
        Snapshot.walkAndLayOut(ctx, el, out, depth, frameDepth, modal, textShown, skip);
    } else {
      // Sibling links rather than an array: this loop runs for every
      // element of the page.
      let c = root ? root.firstChild : el.firstChild;
      for (; c !== null && !ctx.cut; c = c.nextSibling)
        Snapshot.walkChild(ctx, c, out, depth, frameDepth, modal, textShown, skip);
    }
    ctx.fast = fast;
  },

  // A wide element (a table body, a long list) keeps, in the page model,
  // where the items of each of its children lie among what its children
  // produced (the layout), so that after a change under a few of them the
  // walk takes the rest from there without visiting them: the cost of the
  // walk follows the change, not the width of the page.
  LAYOUT_MIN: 8,

  walkAndLayOut (ctx, el, out, depth, frameDepth, modal, textShown, skip) {
    const start = out.length;
    const visited = ctx.visited;
    const kids = [];
    // from[i]: where child i's items start, seen[i]: the elements visited
    // before it; both relative to the element's, with the totals last.
    const from = [];
    const seen = [];
    for (let c = el.firstChild; c !== null && !ctx.cut; c = c.nextSibling) {
      kids.push(c);
      from.push(out.length - start);
      seen.push(ctx.visited - visited);
      Snapshot.walkChild(ctx, c, out, depth, frameDepth, modal, textShown, skip);
    }
    from.push(out.length - start);
    seen.push(ctx.visited - visited);
    Snapshot.layOut(ctx, el, out, start, kids, from, seen, depth, frameDepth, modal, textShown,
                    skip);
  },

  layOut (ctx, el, out, start, kids, from, seen, depth, frameDepth, modal, textShown, skip) {
    if (ctx.cut || ctx.deep || ctx.remote)
      return;
    PageModel.layouts.set(el, {
      gen: PageModel.gen, kids, from, seen, items: out.slice(start), depth, frameDepth,
      fast: ctx.fast, label: ctx.labelDepth, modal, textShown, skip,
    });
    PageModel.dirtyKids.delete(el);
    PageModel.reshaped.delete(el);
  },

  // The children of el from its layout, walking again only the children
  // that a change since lies under (PageModel.dirtyKids); false when the
  // layout is not what a walk would produce now.
  walkLaidOut (ctx, el, out, depth, frameDepth, modal, textShown, skip) {
    const layout = PageModel.layouts.get(el);
    if (layout === undefined)
      return false;
    const dirty = PageModel.dirtyKids.get(el);
    if (dirty === null || layout.gen < ctx.stamp || layout.gen < PageModel.floor ||
        layout.depth !== depth || layout.frameDepth !== frameDepth || layout.fast !== ctx.fast ||
        layout.label !== ctx.labelDepth || layout.modal !== modal ||
        layout.textShown !== textShown || layout.skip !== skip)
      return false;
    if (PageModel.reshaped.has(el))
      return Snapshot.walkReshaped(ctx, el, layout, dirty, out, depth, frameDepth, modal, textShown,
                                   skip);
    const kids = layout.kids;
    const redo = [];
    if (dirty !== undefined) {
      for (const n of dirty) {
        const i = kids.indexOf(n);
        if (i < 0)
          return false;
        redo.push(i);
      }
      redo.sort((a, b) => a - b);
    }
    const items = layout.items;
    const from = layout.from;
    const seen = layout.seen;
    const n = kids.length;
    const start = out.length;
    // Lengths and visits of the children walked again, in order.
    const grew = [];
    const more = [];
    let next = 0;
    let clean = seen[n];
    for (const d of redo) {
      for (let i = from[next]; i < from[d]; i++)
        out.push(items[i]);
      const before = out.length;
      const visited = ctx.visited;
      Snapshot.walkChild(ctx, kids[d], out, depth, frameDepth, modal, textShown, skip);
      if (ctx.cut)
        return true;
      grew.push(out.length - before - (from[d + 1] - from[d]));
      more.push(ctx.visited - visited - (seen[d + 1] - seen[d]));
      clean -= seen[d + 1] - seen[d];
      next = d + 1;
    }
    for (let i = from[next]; i < from[n]; i++)
      out.push(items[i]);
    ctx.visited += clean;
    ctx.reused += clean;

    // The new layout: offsets past a child walked again move by what it
    // grew.
    let newFrom = from;
    let newSeen = seen;
    if (grew.some((g) => g !== 0) || more.some((m) => m !== 0)) {
      newFrom = from.slice();
      newSeen = seen.slice();
      let g = 0;
      let m = 0;
      let r = 0;
      for (let i = 0; i <= n; i++) {
        while (r < redo.length && redo[r] < i) {
          g += grew[r];
          m += more[r];
          r++;
        }
        newFrom[i] += g;
        newSeen[i] += m;
      }
    }
    Snapshot.layOut(ctx, el, out, start, kids, newFrom, newSeen, depth, frameDepth, modal,
                    textShown, skip);
    return true;
  },

  // The children of el from its layout after children came or went: each
  // child that was there and that no change has reached since gives what
  // it gave then, the others are walked; the cost follows the children
  // that came and changed, plus a look at each child.
  walkReshaped (ctx, el, layout, dirty, out, depth, frameDepth, modal, textShown, skip) {
    const place = new Map();
    for (let i = 0; i < layout.kids.length; i++)
      place.set(layout.kids[i], i);
    const redo = new Set(dirty === undefined ? [] : dirty);
    const items = layout.items;
    const start = out.length;
    const visited = ctx.visited;
    const kids = [];
    const from = [];
    const seen = [];
    let reused = 0;
    for (let c = el.firstChild; c !== null && !ctx.cut; c = c.nextSibling) {
      kids.push(c);
      from.push(out.length - start);
      seen.push(ctx.visited - visited);
      const i = place.get(c);
      // A child moved back in is walked again, as every added node is.
      const stamp = PageModel.stamps.get(c);
      if (i === undefined || redo.has(c) || (stamp !== undefined && stamp > layout.gen)) {
        Snapshot.walkChild(ctx, c, out, depth, frameDepth, modal, textShown, skip);
        continue;
      }
      for (let k = layout.from[i]; k < layout.from[i + 1]; k++)
        out.push(items[k]);
      const v = layout.seen[i + 1] - layout.seen[i];
      ctx.visited += v;
      reused += v;
    }
    if (ctx.cut)
      return true;
    from.push(out.length - start);
    seen.push(ctx.visited - visited);
    ctx.reused += reused;
    Snapshot.layOut(ctx, el, out, start, kids, from, seen, depth, frameDepth, modal, textShown,
                    skip);
    return true;
  },

  walkChild (ctx, c, out, depth, frameDepth, modal, textShown, skip) {
    const type = c.nodeType;
    if (type === 3) {
      if (textShown && ctx.labelDepth === 0)
        out.push(c.data);
    } else if (type === 1 && c !== skip) {
      Snapshot.walkElement(ctx, c, out, depth + 1, frameDepth, modal);
    }
  },

  // The walk of one element, or what its last walk produced when that is
  // still what it would produce (page-model.js says when).
  walkElement (ctx, el, out, depth, frameDepth, modal) {
    const keep = ctx.keep;
    if (keep === null || keep === undefined) {
      Snapshot.walkOne(ctx, el, out, depth, frameDepth, modal);
      return;
    }
    const stamp = ctx.stamp;
    const own = PageModel.stamps.get(el);
    if (own !== undefined && own > stamp)
      ctx.stamp = own;
    if (ctx.reuse) {
      const k = keep.get(el);
      if (k !== undefined && k.gen >= ctx.stamp && k.gen >= PageModel.floor && k.depth === depth &&
          k.frameDepth === frameDepth && k.fast === ctx.fast && k.label === ctx.labelDepth &&
          k.modal === modal && !ctx.cut) {
        const items = k.items;
        for (let i = 0; i < items.length; i++)
          out.push(items[i]);
        ctx.visited += k.visited;
        ctx.reused += k.visited;
        ctx.stamp = stamp;
        return;
      }
    }
    const start = out.length;
    const visited = ctx.visited;
    const fast = ctx.fast;
    const label = ctx.labelDepth;
    Snapshot.walkOne(ctx, el, out, depth, frameDepth, modal);
    if (!ctx.cut && !ctx.deep && !ctx.remote) {
      keep.set(el, {
        gen: PageModel.gen, items: out.length > start ? out.slice(start) : Snapshot.NO_KIDS,
        visited: ctx.visited - visited, depth, frameDepth, fast, label, modal,
      });
    }
    ctx.stamp = stamp;
  },

  // Whether el is a checkbox or radio that is not rendered (display: none)
  // but has a label a person sees and clicks to toggle it: the control is
  // there for that person, so it gets a ref, and a click on it goes
  // through that label (Actionability.standIn).
  drawnByLabel (el, style) {
    return style.display === 'none' && el.localName === 'input' &&
           (el.type === 'checkbox' || el.type === 'radio') && !el.hidden &&
           Actionability.shownLabel(el) !== null;
  },

  walkOne (ctx, el, out, depth, frameDepth, modal) {
    if (!Snapshot.tick(ctx, depth))
      return;
    const tag = el.localName;
    // The walk never enters svg or math, so only their roots can be foreign
    // elements; every other element it meets is an HTML one.
    const html = (tag !== 'svg' && tag !== 'math') || Dom.isHtml(el);
    if (html && Dom.SKIP.has(tag))
      return;
    // One call for the names of the attributes spares looking up the many
    // that most elements do not have.
    const attrs = el.getAttributeNames();
    if (attrs.length > 0 &&
        ((attrs.includes('aria-hidden') && el.getAttribute('aria-hidden') === 'true') ||
         attrs.includes('inert')))
      return;
    // A modal dialog makes the rest of its document inert.
    if (modal !== null && modal !== el && !modal.contains(el) && !el.contains(modal))
      return;

    // When no style sheet of the document sets visibility, an element with
    // a box is shown, and checkVisibility() says that for a fraction of the
    // price of a computed style. Otherwise the computed style decides.
    let style = null;
    let shown = true;
    // Options of a list box have no box of their own: the select draws them.
    if (ctx.fast && !Snapshot.setsVisibility(el, attrs) && tag !== 'option' && tag !== 'optgroup') {
      if (!el.checkVisibility()) {
        style = Dom.style(ctx, el);
        if (style === null || (style.display !== 'contents' && !Snapshot.drawnByLabel(el, style)))
          return;
      }
    } else {
      style = Dom.style(ctx, el);
      if (style === null || (style.display === 'none' && !Snapshot.drawnByLabel(el, style)))
        return;
      shown = style.visibility === 'visible';
      // content-visibility: hidden (hidden="until-found" among others)
      // renders the box but none of its content.
      if (style.contentVisibility === 'hidden')
        return Snapshot.walkContentHidden(ctx, el, out, shown, attrs);
    }
    // A line break is a space, unless its author named it (HTML-AAM names
    // br like the other text-level elements).
    if (tag === 'br' && !Snapshot.authorNamed(el, attrs)) {
      out.push(' ');
      return;
    }

    if (!html) {
      if (el.namespaceURI === Dom.SVG_NS) {
        // An svg is one image; only its name matters.
        if (tag === 'svg' && shown) {
          const role = Roles.role(ctx, el);
          if (role === 'none')
            return;
          const n = Names.compute(ctx, el);
          if (n.text !== '')
            out.push({
              el, role: 'img', name: n.text, source: n.source, kids: Snapshot.NO_KIDS,
              clickable: false, extra: null, attrs,
            });
        }
        return;
      }
    }

    if (!shown) {
      // Its descendants may turn visible again.
      Snapshot.walkFlattened(ctx, el, out, depth, frameDepth, modal, false, attrs);
      return;
    }

    let role = Roles.role(ctx, el, attrs);
    let clickable = false;
    let authorName = null;
    if (Snapshot.FLATTEN.has(role)) {
      clickable = Snapshot.isClickable(ctx, el, tag, attrs);
      // An element without a role or a text-level one that the author
      // named (an abbr or b with a title, a ruby with aria-label) shows
      // with its name; other generic ones may not be named (WAI-ARIA 1.2,
      // "Name From: prohibited").
      if (!clickable && html && Snapshot.authorNamed(el, attrs) &&
          (role === '' || Names.authorNameKept(el, role))) {
        const n = Names.compute(ctx, el, attrs);
        if (n.text !== '')
          authorName = n;
      }
      if (!clickable && authorName === null) {
        // The text of a label is its control's name: printed there, not
        // twice.
        const label = tag === 'label' && html && Snapshot.namesItsControl(el);
        if (label)
          ctx.labelDepth++;
        Snapshot.walkFlattened(ctx, el, out, depth, frameDepth, modal, true, attrs);
        if (label)
          ctx.labelDepth--;
        return;
      }
      role = 'generic';
    }

    const node = {
      el, role, name: null, source: '', kids: Snapshot.NO_KIDS, clickable, extra: null,
      attrs,
    };

    if (role === 'img' || role === 'graphics-document') {
      const n = Names.compute(ctx, el, attrs);
      // An HTML image is an img even without a name (HTML-AAM); a drawing
      // of another language shows only when named.
      if (n.text === '' && !(html && role === 'img'))
        return;
      node.name = n.text;
      node.source = n.source;
      out.push(node);
      return;
    }

    if (authorName !== null) {
      node.name = authorName.text;
      node.source = authorName.source;
    } else if (!Snapshot.CONTENT_CONTAINERS.has(role) || Snapshot.authorNamed(el, attrs)) {
      const n = Snapshot.simpleName(ctx, el, role, attrs) || Names.compute(ctx, el, attrs);
      node.name = n.text;
      node.source = n.source;
    }

    if (role === 'iframe') {
      Snapshot.walkFrame(ctx, el, node, depth, frameDepth);
    } else if (Snapshot.isLeaf(el, tag, role)) {
      if (tag === 'select' && role === 'combobox')
        node.extra = Snapshot.optionsList(el);
    } else {
      // The legend that named its fieldset is not printed a second time; a
      // caption is, having a role of its own (HTML-AAM).
      let skip = null;
      if (node.source === 'native' && tag === 'fieldset')
        skip = Snapshot.namingChild(el, tag);
      node.kids = [];
      Snapshot.walkChildren(ctx, el, node.kids, depth, frameDepth, modal, true, skip, attrs);
    }
    out.push(node);
  },

  // The name of an element labelled by a plain aria-label, without the
  // whole computation: for the root of a name, accname reaches aria-label
  // first when there is no aria-labelledby. Null when it does not apply.
  simpleName (ctx, el, role, attrs) {
    if (!attrs.includes('aria-label') || attrs.includes('aria-labelledby') ||
        Names.prohibited(el, role))
      return null;
    const text = Names.flat(el.getAttribute('aria-label'));
    return text === '' ? null : { text, source: 'label' };
  },

  // An element whose content is not rendered: at most its own line.
  walkContentHidden (ctx, el, out, shown, attrs) {
    if (!shown)
      return;
    const role = Roles.role(ctx, el, attrs);
    if (Snapshot.FLATTEN.has(role) || role === 'iframe')
      return;
    const n = Names.compute(ctx, el, attrs);
    out.push({
      el, role, name: n.text, source: n.source, kids: Snapshot.NO_KIDS, clickable: false,
      extra: null, attrs,
    });
  },

  // The content of an element that is not printed joins its parent's; a
  // block-level one keeps its text apart from the text around it.
  walkFlattened (ctx, el, out, depth, frameDepth, modal, textShown, attrs) {
    const style = Dom.style(ctx, el);
    const block = style !== null && !Dom.isInlineDisplay(style.display);
    if (block)
      out.push(Snapshot.BREAK);
    Snapshot.walkChildren(ctx, el, out, depth, frameDepth, modal, textShown, null, attrs);
    if (block)
      out.push(Snapshot.BREAK);
  },

  // An inline style that sets visibility, which its subtree inherits.
  setsVisibility (el, attrs) {
    if (attrs !== undefined ? !attrs.includes('style') : !el.hasAttribute('style'))
      return false;
    return el.style !== undefined && el.style.visibility !== '';
  },


  walkFrame (ctx, el, node, depth, frameDepth) {
    const doc = Dom.frameDocument(el);
    if (doc === null) {
      node.extra = ['cross-origin', 'url=' + Base.quote(Base.clip(Dom.frameUrl(el), 300))];
      // Another origin: its own runtime prints it when the printer comes
      // here (frames.js), so refs are numbered in the order of the page.
      // What it prints is not followed by this page's model.
      if (frameDepth < Snapshot.MAX_FRAME_DEPTH && Frames.reachable()) {
        node.remote = { depth, frameDepth };
        ctx.remote = true;
      }
      return;
    }
    if (frameDepth >= Snapshot.MAX_FRAME_DEPTH)
      return;
    if (ctx.watch)
      PageModel.watch(doc);
    const root = doc.body || doc.documentElement;
    const fast = ctx.fast;
    ctx.fast = !Dom.sheetFlags(ctx, doc).visibility;
    node.kids = [];
    if (root)
      Snapshot.walkElement(ctx, root, node.kids, depth + 1, frameDepth + 1, Dom.modalElement(doc));
    ctx.fast = fast;
  },

  namesItsControl (label) {
    const control = label.control;
    return control !== null && control !== undefined &&
           !control.hasAttribute('aria-label') && !control.hasAttribute('aria-labelledby') &&
           control.type !== 'hidden';
  },

  // A text-level node holding only text reads as that text inside a
  // container named from its content.
  isPhrasing (node) {
    if (typeof node === 'string')
      return true;
    if (!Snapshot.PHRASING.has(node.role) || node.clickable)
      return false;
    for (const k of node.kids) {
      if (typeof k !== 'string' && k !== Snapshot.BREAK)
        return false;
    }
    return node.name === '' || node.name === null;
  },

  authorNamed (el, attrs) {
    return attrs.includes('aria-label') || attrs.includes('aria-labelledby') ||
           attrs.includes('title');
  },

  namingChild (el, tag) {
    const want = tag === 'fieldset' ? 'legend' : tag === 'table' ? 'caption' : 'figcaption';
    for (const c of el.children) {
      if (c.localName === want)
        return c;
    }
    return null;
  },

  isLeaf (el, tag, role) {
    if (Roles.CHILDREN_PRESENTATIONAL.has(role))
      return true;
    if (role === 'textbox' || role === 'searchbox' || role === 'spinbutton')
      return true;
    return tag === 'select' && role === 'combobox' || tag === 'input' || tag === 'textarea';
  },

  // What a <select> drop-down offers, so an agent can pick by label.
  optionsList (el) {
    const opts = el.options;
    const labels = [];
    let shown = 0;
    let more = 0;
    let chars = 0;
    for (let i = 0; i < opts.length; i++) {
      const o = opts[i];
      const group = o.parentElement;
      if (o.hidden || (group && group.localName === 'optgroup' && group.hidden))
        continue;
      if (shown === Snapshot.MAX_OPTIONS || chars > Snapshot.OPTIONS_CHARS) {
        more++;
        continue;
      }
      const label = Base.quote(Base.clip(Base.flat(o.label || o.textContent), 60));
      labels.push(label);
      chars += label.length + 1;
      shown++;
    }
    if (more > 0)
      labels.push('… ' + more + ' more');
    return labels.length > 0 ? ['options=' + labels.join(',')] : null;
  },

  // Drop-downs with the same long list of options (one per table row, say)
  // print it once; the others point at the first: options=@eN. So the
  // lines of a drop-down depend on the ones printed before it: a print that
  // keeps its lines logs each use (ctx.optionUses), and lines are taken
  // again only where the same uses would print the same (sameUses).
  sameOptions (ctx, extra, ref) {
    if (!extra.startsWith('options=') || extra.length < 30)
      return extra;
    if (ctx.optionLists === undefined)
      ctx.optionLists = new Map();
    const first = ctx.optionLists.get(extra);
    if (ctx.optionUses !== undefined)
      ctx.optionUses.push({ extra, first, ref });
    if (first === undefined) {
      ctx.optionLists.set(extra, ref);
      return extra;
    }
    return 'options=' + Refs.format(first);
  },

  // A plain element that acts like a button: a pointer cursor where its
  // parent has none, an onclick attribute, or a keyboard stop.
  isClickable (ctx, el, tag, attrs) {
    if (tag === 'label' || tag === 'body' || tag === 'html')
      return false;
    if (attrs.includes('onclick'))
      return true;
    if (attrs.includes('tabindex') && parseInt(el.getAttribute('tabindex'), 10) >= 0)
      return true;
    const style = Dom.style(ctx, el);
    if (style === null || style.cursor !== 'pointer')
      return false;
    const p = Dom.parent(el);
    if (p === null)
      return true;
    const ps = Dom.style(ctx, p);
    return ps === null || ps.cursor !== 'pointer';
  },

  // Flattens a run of text; most runs on a page are the white space
  // between tags, which trim() tells apart faster than flat() does.
  flatRun (text) {
    return text.trim() === '' ? '' : Base.flat(text);
  },

  // Joins neighbouring text into runs and drops the block marks.
  normalize (items) {
    if (items.length === 0)
      return items;
    const out = [];
    let text = null;
    for (const it of items) {
      if (typeof it === 'string') {
        text = text === null ? it : text + it;
        continue;
      }
      if (text !== null) {
        const t = Snapshot.flatRun(text);
        if (t !== '')
          out.push(t);
        text = null;
      }
      if (it !== Snapshot.BREAK)
        out.push(it);
    }
    if (text !== null) {
      const t = Snapshot.flatRun(text);
      if (t !== '')
        out.push(t);
    }
    return out;
  },

  // Interactive mode: the widgets, the headings, and the landmarks and
  // dialogs that hold widgets.
  interactiveOnly (items) {
    const out = [];
    for (const it of items) {
      if (typeof it === 'string' || it === Snapshot.BREAK)
        continue;
      let part = Snapshot.interactiveParts.get(it);
      if (part === undefined) {
        part = Snapshot.interactivePart(it);
        Snapshot.interactiveParts.set(it, part);
      }
      for (const k of part)
        out.push(k);
    }
    return out;
  },

  // Node → what interactive mode makes of it. A node never changes once
  // walked (the page model keeps it as it is), so what it makes is the
  // same every time, and the same objects: the printer takes the lines of
  // those it printed last, in interactive mode as in the other.
  interactiveParts: new WeakMap(),

  interactivePart (it) {
    const kids = Snapshot.interactiveOnly(it.kids);
    // The nodes may be kept by the page model: copied, never changed.
    if (Roles.INTERACTIVE.has(it.role) || it.clickable || Snapshot.LOCATORS.has(it.role) ||
        it.role === 'iframe')
      return [Object.assign({}, it, { kids })];
    if ((Roles.LANDMARK.has(it.role) || Snapshot.INTERACTIVE_CONTAINERS.has(it.role)) &&
        kids.length > 0)
      return [Object.assign({}, it, { kids })];
    return kids;
  },

  // normalized: the items have been through normalize() already.
  printList (ctx, items, indent, out, normalized) {
    const list = normalized ? items : Snapshot.normalize(items);
    for (const it of list) {
      if (out.full)
        return;
      if (typeof it === 'string')
        Snapshot.printText(it, indent, out);
      else
        Snapshot.printNode(ctx, it, indent, out);
    }
  },

  printText (text, indent, out) {
    const pad = Snapshot.pad(indent);
    let rest = text;
    while (rest.length > Snapshot.LINE_MAX) {
      // Long text goes on several lines, broken between words.
      let cut = rest.lastIndexOf(' ', Snapshot.LINE_MAX);
      if (cut < Snapshot.LINE_MAX / 2)
        cut = Snapshot.LINE_MAX;
      Snapshot.emit(out, pad + '- text: ' + rest.slice(0, cut).trim());
      rest = rest.slice(cut).trim();
    }
    if (rest !== '')
      Snapshot.emit(out, pad + '- text: ' + rest);
  },

  PADS: [''],

  pad (indent) {
    while (Snapshot.PADS.length <= indent)
      Snapshot.PADS.push(Snapshot.PADS[Snapshot.PADS.length - 1] + '  ');
    return Snapshot.PADS[indent];
  },

  emit (out, line) {
    out.size += line.length + 1;
    if (out.size > Snapshot.MAX_OUTPUT) {
      out.full = true;
      return;
    }
    if ((out.lines.length & 255) === 255 && Base.now() > out.deadline) {
      out.late = true;
      out.full = true;
      return;
    }
    out.lines.push(line);
  },

  // Kept nodes → { indent, lines, from, to }: where the last print of the
  // page printed them, and the focused element then.
  printed: null,
  printedFocus: null,

  // Adds the elements that hold `target` (it, its ancestors, and theirs
  // through shadow hosts and frames) to the set.
  holders (target, set) {
    let t = target;
    while (t) {
      for (let n = t; n !== null; n = n.parentNode) {
        if (n.nodeType === 1)
          set.add(n);
      }
      const root = t.getRootNode();
      if (root.nodeType === 11 && root.host)
        t = root.host;
      else if (root.nodeType === 9 && root.defaultView && root.defaultView.frameElement)
        t = root.defaultView.frameElement;
      else
        return;
    }
  },

  printNode (ctx, node, indent, out) {
    const before = ctx.printedBefore ? ctx.printedBefore.get(node) : undefined;
    const uses = ctx.optionUses;
    const usesFrom = uses !== undefined ? uses.length : 0;
    if (before !== undefined && before.indent === indent && !ctx.nearFocus.has(node.el) &&
        Snapshot.sameUses(ctx, before.uses, before.usesFrom, before.usesTo)) {
      const from = out.lines.length;
      Snapshot.emitAll(out, before.lines, before.from, before.to, before.size);
      if (!out.full) {
        ctx.printedNow.set(node, {
          indent, lines: out.lines, from, to: out.lines.length, size: before.size, uses,
          usesFrom, usesTo: uses.length,
        });
      }
      return;
    }
    const from = out.lines.length;
    const size = out.size;
    Snapshot.printNodeAgain(ctx, node, indent, out);
    if (ctx.printedNow && !out.full) {
      ctx.printedNow.set(node, {
        indent, lines: out.lines, from, to: out.lines.length, size: out.size - size, uses,
        usesFrom, usesTo: uses.length,
      });
    }
  },

  // Whether lines printed before, whose drop-downs made the uses
  // uses[from..to) of option lists, print the same here: each list they
  // used was first printed by the same drop-down then and now (or by none
  // before them). When so, the uses are logged again and the lists they
  // printed first count as printed.
  sameUses (ctx, uses, from, to) {
    if (from === to)
      return true;
    const lists = ctx.optionLists;
    let added = null;
    for (let i = from; i < to; i++) {
      const u = uses[i];
      if (lists.get(u.extra) !== u.first) {
        if (added !== null) {
          for (const extra of added)
            lists.delete(extra);
        }
        return false;
      }
      if (u.first === undefined) {
        lists.set(u.extra, u.ref);
        if (added === null)
          added = [];
        added.push(u.extra);
      }
    }
    for (let i = from; i < to; i++)
      ctx.optionUses.push(uses[i]);
    return true;
  },

  // The children of a wide node (a table body, a long list): the print
  // keeps, under the node's element, where the lines of each child begin,
  // so that the next print takes the lines of every child that is the
  // same as then (the same kept node, or the same text) from there, at the
  // price of a comparison, and prints only the others.
  printKids (ctx, el, kids, indent, out) {
    const n = kids.length;
    const before = ctx.printedBefore !== null ? ctx.printedBefore.get(el) : undefined;
    const usable = before !== undefined && before.indent === indent;
    const lines = out.lines;
    const first = lines.length;
    const size = out.size;
    const uses = ctx.optionUses;
    // starts[i], sizes[i], usesAt[i]: where child i's lines begin, the
    // characters before them, from the first child's, and its first use of
    // an option list.
    const starts = new Array(n + 1);
    const sizes = new Array(n + 1);
    const usesAt = new Array(n + 1);
    // The children's places then, looked up once a child is not where it
    // was (children came or went before it).
    let places = null;
    for (let i = 0; i < n && !out.full; i++) {
      const k = kids[i];
      starts[i] = lines.length - first;
      sizes[i] = out.size - size;
      usesAt[i] = uses.length;
      let j = -1;
      if (usable && (typeof k === 'string' || !ctx.nearFocus.has(k.el))) {
        if (i < before.kids.length && before.kids[i] === k) {
          j = i;
        } else {
          if (places === null) {
            places = new Map();
            for (let m = 0; m < before.kids.length; m++)
              places.set(before.kids[m], m);
          }
          const m = places.get(k);
          if (m !== undefined)
            j = m;
        }
      }
      if (j >= 0 && Snapshot.sameUses(ctx, before.uses, before.usesAt[j], before.usesAt[j + 1])) {
        const from = before.first + before.starts[j];
        const to = before.first + before.starts[j + 1];
        Snapshot.emitAll(out, before.lines, from, to, before.sizes[j + 1] - before.sizes[j]);
      } else if (typeof k === 'string') {
        Snapshot.printText(k, indent, out);
      } else {
        Snapshot.printNode(ctx, k, indent, out);
      }
    }
    if (out.full)
      return;
    starts[n] = lines.length - first;
    sizes[n] = out.size - size;
    usesAt[n] = uses.length;
    ctx.printedNow.set(el, { indent, kids, lines, first, starts, sizes, uses, usesAt });
  },

  // Lines printed before, `size` characters with their newlines, at once
  // when they fit and time is left, else one by one.
  emitAll (out, lines, from, to, size) {
    // The clock is read once in 64 copies: a wide node copies thousands.
    if (out.size + size > Snapshot.MAX_OUTPUT ||
        ((++out.copies & 63) === 0 && Base.now() > out.deadline)) {
      for (let i = from; i < to && !out.full; i++)
        Snapshot.emit(out, lines[i]);
      return;
    }
    out.size += size;
    const dest = out.lines;
    for (let i = from; i < to; i++)
      dest.push(lines[i]);
  },

  printNodeAgain (ctx, node, indent, out) {
    let kids = Snapshot.normalize(node.kids);
    const authorNamed = node.source === 'label' || node.source === 'labelledby';

    // A cell or list item around one element is only that element.
    if (Snapshot.COLLAPSIBLE.has(node.role) && !authorNamed && kids.length === 1 &&
        typeof kids[0] !== 'string') {
      Snapshot.printNode(ctx, kids[0], indent, out);
      return;
    }

    let textOnly = true;
    for (let i = 0; i < kids.length && textOnly; i++)
      textOnly = Snapshot.isPhrasing(kids[i]);
    let name = node.name;
    let recorded = node.name;
    if (Snapshot.CONTENT_CONTAINERS.has(node.role) && name === null) {
      // Named by content: print the content, or the name when the content
      // is nothing but text. A header is always named by its content (what
      // a sortable column is called), followed by the controls inside it.
      if (kids.length > 0 && (textOnly || Snapshot.HEADERS.has(node.role))) {
        const n = Names.compute(ctx, node.el);
        name = n.text;
        recorded = n.text;
        kids = textOnly ? [] : Snapshot.interactiveOnly(kids);
      }
    } else if (node.source === 'content') {
      kids = textOnly ? [] : Snapshot.interactiveOnly(kids);
    }
    // A generic element prints only a name its author gave (an abbr's
    // title, say).
    if (node.role === 'generic' && node.source !== 'label' && node.source !== 'labelledby' &&
        node.source !== 'title')
      recorded = name = null;

    let inline = null;
    if (kids.length === 1 && typeof kids[0] === 'string' && kids[0].length <= Snapshot.LINE_MAX) {
      inline = kids[0] === name ? '' : kids[0];
      kids = [];
    }
    // A drop-down shows its selected option: that is its text, after the
    // colon, rather than a value= state.
    const dropDown = node.role === 'combobox' && node.el.localName === 'select';
    if (dropDown)
      inline = States.selectedLabel(node.el);

    const ref = Refs.assign(node.el, Roles.role(ctx, node.el), recorded);
    let remote = null;
    if (node.remote !== undefined) {
      remote = Frames.snapshot(ctx, node.el, node.remote.depth, node.remote.frameDepth, out.deadline);
      if (remote !== null) {
        node = Object.assign({}, node, {
          extra: ['cross-origin', 'origin=' + Base.quote(Base.clip(remote.origin, 300))],
        });
      }
    }
    // A marked screenshot (marks.js) learns which element got which ref.
    if (ctx.printedRefs)
      ctx.printedRefs.push({ el: node.el, ref, role: node.role, clickable: node.clickable });
    let line = Snapshot.pad(indent) + '- ' + node.role;
    if (name)
      line += ' ' + Base.quote(Base.clip(name, Snapshot.NAME_MAX));
    line += ' ' + Refs.format(ref);
    for (const s of Snapshot.states(ctx, node, ref)) {
      if (!(dropDown && s.startsWith('value=')))
        line += ' [' + s + ']';
    }
    if (inline)
      line += ': ' + inline;
    Snapshot.emit(out, line);
    if (kids.length >= Snapshot.LAYOUT_MIN && ctx.printedNow)
      Snapshot.printKids(ctx, node.el, kids, indent + 1, out);
    else
      Snapshot.printList(ctx, kids, indent + 1, out, true);
    // A frame of another origin, as its own runtime printed it.
    if (remote !== null) {
      const pad = Snapshot.pad(indent + 1);
      for (let i = 0; i < remote.lines.length && !out.full; i++)
        Snapshot.emit(out, pad + remote.lines[i]);
    }
  },

  states (ctx, node, ref) {
    const el = node.el;
    const list = States.compute(ctx, el, node.role, node.name || '', node.attrs);
    if (node.clickable)
      list.unshift('clickable');
    if (el.localName === 'input' && Snapshot.TEXT_INPUT_TYPES.has(el.type))
      list.unshift('type=' + el.type);
    if (node.extra) {
      for (const e of node.extra)
        list.push(Snapshot.sameOptions(ctx, e, ref));
    }
    if (Roles.INTERACTIVE.has(node.role) &&
        (node.attrs.includes('aria-describedby') || node.attrs.includes('aria-description'))) {
      const d = Names.description(ctx, el);
      if (d !== '' && d !== node.name)
        list.push('description=' + Base.quote(Base.clip(d, Snapshot.NAME_MAX)));
    }
    return list;
  },
};
