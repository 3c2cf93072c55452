// SPDX-License-Identifier: GPL-3.0-or-later
//
// What changed between two snapshots of one document, as lines an agent
// reads like the snapshot itself (browser_snapshot with diff: true, and the
// includeDiff option of the actions).
//
// Both snapshots are the lines the printer wrote, so refs mean exactly what
// they mean in a full snapshot. An element line is known by its ref; a text
// line by its parent and its text (the k-th such line under that parent).
// Each line of the diff starts with a mark:
//   "+" added, "-" removed (a removed subtree shows its top line only),
//   "~" changed (the line before the change follows as "was: …"),
//   ">" moved (same element, under another parent or in another order),
//   " " unchanged, shown for context: the ancestors of every change.

const SnapshotDiff = {
  // "- role "name" @eN …": the ref after the role and the quoted name.
  REF: /^- [a-z-]+(?: "(?:[^"\\]|\\.)*")? (@e[0-9]+)/,

  // Bases to compare with, one per kind of snapshot (interactive or not,
  // of one ref or of the page): the lines that kind printed last. They die
  // with the document, which is how a diff after a navigation knows it.
  bases: new Map(),

  mode (args) {
    return (args.interactive === true ? 'interactive' : 'all') + '|' +
           (typeof args.ref === 'string' ? args.ref : '');
  },

  // Keeps the lines just printed as the base of the next diff, and answers
  // the one before, or undefined.
  swap (args, id, lines, partial) {
    const key = SnapshotDiff.mode(args);
    const before = SnapshotDiff.bases.get(key);
    SnapshotDiff.bases.set(key, { id, lines, partial });
    return before;
  },

  parse (lines) {
    const n = lines.length;
    const body = new Array(n);
    const indent = new Int32Array(n);
    const parent = new Int32Array(n);
    const ref = new Array(n);
    const key = new Array(n);
    // The open ancestors, by indent.
    const stack = [];
    // Text lines met under each parent, for their occurrence numbers.
    const seen = new Map();
    for (let i = 0; i < n; i++) {
      const line = lines[i];
      let sp = 0;
      while (line.charCodeAt(sp) === 32)
        sp++;
      const level = sp >> 1;
      const b = line.slice(sp);
      body[i] = b;
      indent[i] = level;
      stack.length = Math.min(stack.length, level);
      const p = stack.length > 0 ? stack[stack.length - 1] : -1;
      parent[i] = p;
      const m = SnapshotDiff.REF.exec(b);
      if (m !== null) {
        ref[i] = m[1];
        key[i] = m[1];
      } else {
        ref[i] = null;
        const pk = p < 0 ? '' : key[p];
        const tk = pk + '\n' + b;
        const k = (seen.get(tk) || 0) + 1;
        seen.set(tk, k);
        key[i] = tk + '\n' + k;
      }
      while (stack.length < level)
        stack.push(p);
      stack.push(i);
    }
    return { n, body, indent, parent, ref, key };
  },

  // The longest increasing run of old positions, as a set of the indexes
  // (into pos) that are in it: the children that kept their order.
  keptOrder (pos) {
    const tails = [];
    const prev = new Int32Array(pos.length);
    for (let i = 0; i < pos.length; i++) {
      let lo = 0;
      let hi = tails.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (pos[tails[mid]] < pos[i])
          lo = mid + 1;
        else
          hi = mid;
      }
      prev[i] = lo > 0 ? tails[lo - 1] : -1;
      tails[lo] = i;
    }
    const kept = new Set();
    for (let i = tails.length > 0 ? tails[tails.length - 1] : -1; i >= 0; i = prev[i])
      kept.add(i);
    return kept;
  },

  // The body of a line without its ref, for "was: …".
  withoutRef (b) {
    const m = SnapshotDiff.REF.exec(b);
    const s = m === null ? b : b.slice(0, m.index + m[0].length - m[1].length - 1) +
                               b.slice(m.index + m[0].length);
    return s.startsWith('- ') ? s.slice(2) : s;
  },

  // The diff of two snapshots' lines: { lines, added, removed, changed,
  // moved, unchanged }. The lines carry their marks. After a small change
  // most lines are the same at the start and at the end; only what lies
  // between is compared (local), when that says exactly what comparing
  // every line says.
  compute (oldLines, newLines) {
    return SnapshotDiff.local(oldLines, newLines) || SnapshotDiff.full(oldLines, newLines);
  },

  level (line) {
    let sp = 0;
    while (line.charCodeAt(sp) === 32)
      sp++;
    return sp >> 1;
  },

  // Whether a line is indented less than `level`.
  above (line, level) {
    const sp = 2 * level;
    for (let k = 0; k < sp; k++) {
      if (line.charCodeAt(k) !== 32)
        return true;
    }
    return false;
  },

  // The diff of the lines that differ, with their ancestors as context, or
  // null when that might not be what full() says. Lines the two share at
  // the start (p of them) and at the end (s) are unchanged: a line keeps
  // its key and its parent there, provided that (1) no shared line at the
  // end has a parent among the lines that differ, so the end starts at a
  // line no deeper than the shallowest of those, and (2) no text line at
  // the end is counted differently among same text under its parent
  // (text lines are known by their parent, text and count).
  local (oldLines, newLines) {
    const m = oldLines.length;
    const n = newLines.length;
    const lim = Math.min(m, n);
    let p = 0;
    while (p < lim && oldLines[p] === newLines[p])
      p++;
    let s = 0;
    while (s < lim - p && oldLines[m - 1 - s] === newLines[n - 1 - s])
      s++;
    if (p === m && p === n)
      return { lines: [], added: 0, removed: 0, changed: 0, moved: 0, unchanged: n, context: 0 };
    // Only worth it when most lines are shared.
    if ((m - s - p) + (n - s - p) > (m + n) / 4)
      return null;
    let shallowest = Infinity;
    for (let i = p; i < n - s; i++)
      shallowest = Math.min(shallowest, SnapshotDiff.level(newLines[i]));
    for (let j = p; j < m - s; j++)
      shallowest = Math.min(shallowest, SnapshotDiff.level(oldLines[j]));
    while (s > 0 && SnapshotDiff.level(newLines[n - s]) > shallowest)
      s--;

    // The lines before the first that differs that may be the parent of
    // a line after them: each less indented than every line after it.
    // Read with the lines that differ, they give those the same parents,
    // keys and marks, and only the shared lines of the same text before
    // them are left out, which counts every such line one place lower in
    // both.
    const chain = [];
    if (p > 0) {
      chain.push(p - 1);
      let floor = SnapshotDiff.level(newLines[p - 1]);
      for (let i = p - 2; i >= 0 && floor > 0; i--) {
        if (SnapshotDiff.above(newLines[i], floor)) {
          chain.push(i);
          floor = SnapshotDiff.level(newLines[i]);
        }
      }
      chain.reverse();
    }
    const head = chain.map((i) => newLines[i]);
    const oldPart = head.concat(oldLines.slice(p, m - s));
    const newPart = head.concat(newLines.slice(p, n - s));

    // (2): text lines under an ancestor (or at the top) counted apart in
    // the two, and a shared line at the end with that text.
    if (s > 0) {
      const counts = new Map();
      const count = (lines, from, by) => {
        const parsed = SnapshotDiff.parse(lines);
        for (let i = from; i < parsed.n; i++) {
          if (parsed.ref[i] !== null || (parsed.parent[i] >= from))
            continue;
          const k = parsed.parent[i] + '\n' + parsed.body[i];
          counts.set(k, (counts.get(k) || 0) + by);
        }
      };
      count(oldPart, head.length, 1);
      count(newPart, head.length, -1);
      for (const [k, c] of counts) {
        if (c === 0)
          continue;
        const cut = k.indexOf('\n');
        const parent = Number(k.slice(0, cut));
        const body = k.slice(cut + 1);
        const top = parent < 0 ? -1 : SnapshotDiff.level(head[parent]);
        for (let i = n - s; i < n; i++) {
          const line = newLines[i];
          if (SnapshotDiff.above(line, top + 1))
            break;
          if (line.endsWith(body) && line.trimStart() === body)
            return null;
        }
      }
    }

    const d = SnapshotDiff.full(oldPart, newPart);
    d.unchanged = n - d.added - d.changed - d.moved;
    return d;
  },

  full (oldLines, newLines) {
    const o = SnapshotDiff.parse(oldLines);
    const w = SnapshotDiff.parse(newLines);
    const oldIndex = new Map();
    for (let j = 0; j < o.n; j++)
      oldIndex.set(o.key[j], j);

    // 0 unchanged, 1 added, 2 changed, 3 moved.
    const mark = new Uint8Array(w.n);
    const match = new Int32Array(w.n);
    const matched = new Uint8Array(o.n);
    let added = 0;
    let changed = 0;
    let moved = 0;
    // The children of each parent that were there before under the same
    // parent: their old positions, to find the ones that changed place.
    const stay = new Map();
    for (let i = 0; i < w.n; i++) {
      const j = oldIndex.get(w.key[i]);
      if (j === undefined) {
        mark[i] = 1;
        match[i] = -1;
        added++;
        continue;
      }
      match[i] = j;
      matched[j] = 1;
      const wp = w.parent[i];
      const op = o.parent[j];
      const sameParent = wp < 0 ? op < 0 : op >= 0 && o.key[op] === w.key[wp];
      if (!sameParent) {
        mark[i] = 3;
        moved++;
      } else {
        let list = stay.get(wp);
        if (list === undefined)
          stay.set(wp, list = []);
        list.push(i);
      }
      if (o.body[j] !== w.body[i] && mark[i] === 0) {
        mark[i] = 2;
        changed++;
      }
    }
    for (const list of stay.values()) {
      if (list.length < 2)
        continue;
      const kept = SnapshotDiff.keptOrder(list.map((i) => match[i]));
      for (let k = 0; k < list.length; k++) {
        if (kept.has(k))
          continue;
        const i = list[k];
        if (mark[i] === 2)
          changed--;
        mark[i] = 3;
        moved++;
      }
    }

    // Removed lines: the top of each removed subtree is shown under its
    // parent, which is still there (a parent that went is itself the top
    // of a removed subtree, or moved).
    const newIndex = new Map();
    for (let i = 0; i < w.n; i++)
      newIndex.set(w.key[i], i);
    const removedUnder = new Map();
    const inside = new Int32Array(o.n);
    let removed = 0;
    for (let j = 0; j < o.n; j++) {
      if (matched[j])
        continue;
      removed++;
      let top = j;
      while (o.parent[top] >= 0 && !matched[o.parent[top]])
        top = o.parent[top];
      if (top !== j) {
        inside[top]++;
        continue;
      }
      const op = o.parent[j];
      const anchor = op < 0 ? -1 : newIndex.get(o.key[op]);
      let list = removedUnder.get(anchor);
      if (list === undefined)
        removedUnder.set(anchor, list = []);
      list.push(j);
    }

    // Context: the ancestors of every change.
    const shown = new Uint8Array(w.n);
    const showWithAncestors = (i) => {
      for (let p = i; p >= 0 && !shown[p]; p = w.parent[p])
        shown[p] = 1;
    };
    for (let i = 0; i < w.n; i++) {
      if (mark[i] !== 0)
        showWithAncestors(i);
    }
    for (const anchor of removedUnder.keys()) {
      if (anchor >= 0)
        showWithAncestors(anchor);
    }

    const lines = [];
    const pad = (level) => Snapshot.pad(level);
    const removedLines = (anchor, level) => {
      const list = removedUnder.get(anchor);
      if (list === undefined)
        return;
      for (const j of list) {
        let line = '- ' + pad(level) + o.body[j];
        if (inside[j] > 0)
          line += ' (and ' + inside[j] + (inside[j] === 1 ? ' line' : ' lines') + ' inside)';
        lines.push(line);
      }
    };
    removedLines(-1, 0);
    let context = 0;
    for (let i = 0; i < w.n; i++) {
      if (!shown[i])
        continue;
      const level = w.indent[i];
      const b = w.body[i];
      switch (mark[i]) {
      case 1:
        lines.push('+ ' + pad(level) + b);
        break;
      case 2:
        lines.push('~ ' + pad(level) + b + ' (was: ' +
                   SnapshotDiff.withoutRef(o.body[match[i]]) + ')');
        break;
      case 3: {
        const j = match[i];
        const op = o.parent[j];
        let where;
        if (op >= 0 && w.parent[i] >= 0 && o.key[op] === w.key[w.parent[i]])
          where = 'moved among its siblings';
        else if (op < 0)
          where = 'moved from the top level';
        else
          where = 'moved from under ' + (o.ref[op] !== null ? o.ref[op] : SnapshotDiff.withoutRef(o.body[op]));
        if (o.body[j] !== b)
          where += '; was: ' + SnapshotDiff.withoutRef(o.body[j]);
        lines.push('> ' + pad(level) + b + ' (' + where + ')');
        break;
      }
      default:
        lines.push('  ' + pad(level) + b);
        context++;
      }
      removedLines(i, level + 1);
    }
    return {
      lines, added, removed, changed, moved, unchanged: w.n - added - changed - moved, context,
    };
  },

  plural (n, one, many) {
    return n + ' ' + (n === 1 ? one : many);
  },

  // The lines a diff snapshot answers with: a summary first, then the
  // changes, or the whole tree when there is nothing to compare with.
  lines (args, before, lines, partial, had) {
    if (before === undefined) {
      let why;
      if (SnapshotDiff.bases.size > 1)
        why = 'No earlier snapshot with these options (interactive, ref) of this page to compare with';
      else if (had)
        why = 'The page is a new document since the previous snapshot (it navigated or reloaded)';
      else
        why = 'No earlier snapshot of this tab to compare with';
      return [why + '; the full snapshot follows (' +
              SnapshotDiff.plural(lines.length, 'line', 'lines') + ').'].concat(lines);
    }
    if (partial || before.partial) {
      return ['The page is too large to read in full within the time budget, so a diff ' +
              'would be unreliable; the full snapshot follows.'].concat(lines);
    }
    // Lines answered again from the page model are the very same array.
    const d = before.lines === lines ? { lines: [] } : SnapshotDiff.compute(before.lines, lines);
    if (d.lines.length === 0)
      return ['No changes since the previous snapshot (' +
              SnapshotDiff.plural(lines.length, 'line', 'lines') + ', all unchanged).'];
    const head = 'Changes since the previous snapshot: ' +
                 SnapshotDiff.plural(d.added, 'line', 'lines') + ' added, ' +
                 d.removed + ' removed, ' + d.changed + ' changed, ' + d.moved + ' moved; ' +
                 d.unchanged + ' of ' + SnapshotDiff.plural(lines.length, 'line', 'lines') +
                 ' unchanged (' + d.context + ' shown as context). ' +
                 'Marks: + added, - removed, ~ changed, > moved.';
    return [head].concat(d.lines);
  },
};
