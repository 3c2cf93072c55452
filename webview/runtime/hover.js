// SPDX-License-Identifier: GPL-3.0-or-later
//
// The pointer and focus states CSS sees. Events from script are never
// trusted, so the engine's own :hover, :active and :focus-visible do not
// follow the agent's pointer and keyboard; and in a tab that does not have
// the keyboard focus of the screen (a background tab, or the person typing
// elsewhere) the engine matches no :focus or :focus-within at all. This mirrors every rule that uses one of them into a
// copy where the pseudo-class is replaced by a selector matching the
// elements the agent's pointer is over (or presses, or focused from the
// keyboard), by their place in the tree, so that no attribute or class is
// added to the page. The copies live in one constructed style sheet per
// document or shadow root, adopted after the page's own sheets while a
// state is held and removed when none is.
//
// Rules come from the scope's style sheets (links, <style>, @import) and
// its adopted sheets; cross-origin sheets the page may not read are
// skipped. A mirror keeps the rule's specificity (:hover counts as one
// pseudo-class, so does its replacement) but comes last in the cascade.

const Hover = {
  KINDS: ['hover', 'active', 'focus-visible', 'focus', 'focus-within'],
  // States of one element; the others hold for its ancestors too.
  SINGLE: new Set(['focus-visible', 'focus']),
  // A class no page uses: :not() of it matches everything and counts as
  // one pseudo-class, the weight of the :hover it stands for.
  NEVER: 'tw-state-never-7f3a',

  // kind -> the elements holding that state, innermost first.
  held: { hover: [], active: [], 'focus-visible': [], focus: [], 'focus-within': [] },
  // scope (document or shadow root) -> its constructed sheet.
  sheets: new Map(),
  // style rule -> its mirror template, or '' when it has none.
  templates: new WeakMap(),
  observer: null,
  pending: false,

  // Splits a selector list at its top-level commas and marks each use of
  // a mirrored pseudo-class with \u0001kind\u0001 (or \u0002kind\u0002
  // inside :host()). Answers the parts that use one outside :not(), the
  // only ones whose copies can match something the original does not.
  markSelectors (text) {
    const parts = [];
    let cur = '';
    let used = false;
    const stack = [];
    let i = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === '"' || c === "'") {
        let j = i + 1;
        while (j < text.length && text[j] !== c)
          j += text[j] === '\\' ? 2 : 1;
        cur += text.slice(i, j + 1);
        i = j + 1;
        continue;
      }
      if (c === '\\') {
        cur += text.slice(i, i + 2);
        i += 2;
        continue;
      }
      if (c === ',' && stack.length === 0) {
        parts.push({ text: cur, used });
        cur = '';
        used = false;
        i++;
        continue;
      }
      if (c === ')') {
        stack.pop();
        cur += c;
        i++;
        continue;
      }
      if (c === '(') {
        stack.push('');
        cur += c;
        i++;
        continue;
      }
      if (c === ':' && text[i + 1] !== ':' && text[i - 1] !== ':') {
        const m = /^[a-zA-Z-]+/.exec(text.slice(i + 1));
        const name = m ? m[0].toLowerCase() : '';
        if (text[i + 1 + name.length] === '(') {
          stack.push(name);
          cur += ':' + m[0] + '(';
          i += 2 + name.length;
          continue;
        }
        if (Hover.KINDS.includes(name) && !/[\w-]/.test(text[i + 1 + name.length] || '')) {
          const host = stack.some((n) => n === 'host' || n === 'host-context');
          const mark = host ? '\u0002' : '\u0001';
          cur += mark + name + mark;
          if (!stack.includes('not'))
            used = true;
          i += 1 + name.length;
          continue;
        }
      }
      cur += c;
      i++;
    }
    parts.push({ text: cur, used });
    return parts.filter((p) => p.used).map((p) => p.text.trim());
  },

  // The mirror of one rule and what it holds, with the state marks left
  // in; '' when nothing in it uses a mirrored state.
  mirrorRule (rule, depth) {
    if (depth > 16)
      return '';
    if (rule.type === 1) {
      let t = Hover.templates.get(rule);
      if (t !== undefined)
        return t;
      t = '';
      const sel = rule.selectorText || '';
      if (/:(hover|active|focus)/i.test(sel)) {
        const parts = Hover.markSelectors(sel);
        if (parts.length > 0)
          t = parts.join(', ') + ' { ' + rule.style.cssText + ' }';
      }
      if (rule.cssRules && rule.cssRules.length > 0) {
        const inner = Hover.mirrorList(rule.cssRules, depth + 1);
        if (inner)
          t += sel + ' { ' + inner + ' }';
      }
      Hover.templates.set(rule, t);
      return t;
    }
    if (rule.type === 3) {
      // @import: the imported sheet, under the import's media.
      let inner = '';
      try {
        inner = rule.styleSheet ? Hover.mirrorList(rule.styleSheet.cssRules, depth + 1) : '';
      } catch (e) {
        return '';
      }
      const media = rule.media && rule.media.mediaText;
      return inner && media ? '@media ' + media + ' { ' + inner + ' }' : inner;
    }
    if (rule.cssRules && rule.cssRules.length > 0) {
      // @media, @supports, @layer, @container: the same condition around
      // the mirrors of what is inside.
      const inner = Hover.mirrorList(rule.cssRules, depth + 1);
      if (!inner)
        return '';
      const text = rule.cssText;
      const brace = text.indexOf('{');
      return brace > 0 ? text.slice(0, brace) + '{ ' + inner + ' }' : '';
    }
    return '';
  },

  mirrorList (rules, depth) {
    let out = '';
    for (let i = 0; i < rules.length; i++) {
      const t = Hover.mirrorRule(rules[i], depth);
      if (t)
        out += t + '\n';
    }
    return out;
  },

  // The mirrors of every sheet that applies in a scope.
  scopeTemplate (scope) {
    let out = '';
    const own = Hover.sheets.get(scope);
    const lists = [scope.styleSheets || [], scope.adoptedStyleSheets || []];
    for (const list of lists) {
      for (let i = 0; i < list.length; i++) {
        const sheet = list[i];
        if (sheet === own || sheet.disabled || Hover.foreignMirror(sheet))
          continue;
        let rules;
        try {
          rules = sheet.cssRules;
        } catch (e) {
          // A cross-origin sheet the page may not read either.
          continue;
        }
        const inner = Hover.mirrorList(rules, 0);
        if (!inner)
          continue;
        const media = sheet.media && sheet.media.mediaText;
        out += media ? '@media ' + media + ' { ' + inner + ' }\n' : inner;
      }
    }
    return out;
  },

  // A selector for el alone, by its place in its tree scope.
  path (el) {
    const steps = [];
    for (let n = el; n;) {
      const p = n.parentNode;
      if (!p || p.nodeType === 9) {
        steps.push(':root');
        break;
      }
      let i = 1;
      for (let s = n.previousElementSibling; s; s = s.previousElementSibling)
        i++;
      steps.push(':nth-child(' + i + ')');
      if (p.nodeType === 11) {
        steps.push(':host');
        break;
      }
      n = p;
    }
    return steps.reverse().join(' > ');
  },

  // Sets the elements of one state: el and, for :hover and :active, its
  // ancestors in the flat tree across frames. null clears it.
  set (kind, el) {
    let list = [];
    if (el)
      list = Hover.SINGLE.has(kind) ? [el] : Pointer.chain(el);
    const old = Hover.held[kind];
    if (old.length === list.length && old.every((e, i) => e === list[i]))
      return;
    Hover.held[kind] = list;
    Hover.apply();
  },

  // Whether el holds a state, for tests and the focus bookkeeping.
  holds (kind, el) {
    return Hover.held[kind].includes(el);
  },

  // Rewrites the mirror sheet of every scope a state touches, and drops
  // the sheets of scopes no state touches any more.
  apply () {
    const scopes = new Map();
    const entry = (scope) => {
      let e = scopes.get(scope);
      if (!e) {
        e = { paths: { hover: [], active: [], 'focus-visible': [], focus: [], 'focus-within': [] }, host: new Set() };
        scopes.set(scope, e);
      }
      return e;
    };
    for (const kind of Hover.KINDS) {
      for (const el of Hover.held[kind]) {
        if (!el.isConnected)
          continue;
        entry(el.getRootNode()).paths[kind].push(Hover.path(el));
        if (el.shadowRoot)
          entry(el.shadowRoot).host.add(kind);
      }
    }

    for (const [scope, sheet] of Hover.sheets) {
      if (!scopes.has(scope)) {
        Hover.detach(scope, sheet);
        Hover.sheets.delete(scope);
      }
    }

    for (const [scope, e] of scopes) {
      let text = Hover.scopeTemplate(scope);
      text = text.replace(/\u0001([a-z-]+)\u0001/g, (m, kind) =>
        e.paths[kind].length ? ':where(' + e.paths[kind].join(', ') + '):not(.' + Hover.NEVER + ')' : '.' + Hover.NEVER);
      text = text.replace(/\u0002([a-z-]+)\u0002/g, (m, kind) =>
        e.host.has(kind) ? ':not(.' + Hover.NEVER + ')' : '.' + Hover.NEVER);
      let sheet = Hover.sheets.get(scope);
      if (!text.trim()) {
        if (sheet) {
          Hover.detach(scope, sheet);
          Hover.sheets.delete(scope);
        }
        continue;
      }
      if (!sheet) {
        const doc = scope.nodeType === 9 ? scope : scope.ownerDocument;
        sheet = new doc.defaultView.CSSStyleSheet();
        Hover.sheets.set(scope, sheet);
      }
      try {
        sheet.replaceSync(text);
      } catch (err) {
        continue;
      }
      const adopted = scope.adoptedStyleSheets;
      if (adopted[adopted.length - 1] !== sheet)
        scope.adoptedStyleSheets = Array.from(adopted).filter((s) => s !== sheet).concat([sheet]);
    }
    Hover.watch(scopes.size > 0);
  },

  detach (scope, sheet) {
    try {
      if (Array.from(scope.adoptedStyleSheets).includes(sheet))
        scope.adoptedStyleSheets = Array.from(scope.adoptedStyleSheets).filter((s) => s !== sheet);
    } catch (e) {
      // The scope's document is gone.
    }
  },

  // While a state is held, a change to the tree (elements moving, style
  // sheets added) rebuilds the mirrors once the change is done.
  watch (on) {
    if (!on) {
      if (Hover.observer) {
        Hover.observer.disconnect();
        Hover.observer = null;
      }
      return;
    }
    if (Hover.observer)
      Hover.observer.disconnect();
    Hover.observer = new MutationObserver(() => {
      if (Hover.pending)
        return;
      Hover.pending = true;
      setTimeout(() => {
        Hover.pending = false;
        Hover.refresh();
      }, 0);
    });
    const seen = new Set();
    for (const scope of Hover.sheets.keys()) {
      const doc = scope.nodeType === 9 ? scope : scope.ownerDocument;
      if (seen.has(doc))
        continue;
      seen.add(doc);
      Hover.observer.observe(doc, { childList: true, subtree: true, characterData: true });
    }
    for (const scope of Hover.sheets.keys()) {
      if (scope.nodeType === 11)
        Hover.observer.observe(scope, { childList: true, subtree: true, characterData: true });
    }
  },

  // Rebuilds the mirrors: after the tree changed, or before an action
  // reads the page, so that rules added by script count.
  refresh () {
    // An element the page replaced under a still pointer: what is at the
    // point now holds the hover.
    const h = Hover.held.hover;
    if (h.length > 0 && !h[0].isConnected) {
      const at = Pointer.hit(Pointer.x, Pointer.y);
      Hover.held.hover = at ? Pointer.chain(at.el) : [];
    }
    for (const kind of ['active', 'focus-visible', 'focus', 'focus-within']) {
      if (Hover.held[kind].length > 0 && !Hover.held[kind][0].isConnected)
        Hover.held[kind] = [];
    }
    if (Hover.sheets.size > 0 || Hover.KINDS.some((k) => Hover.held[k].length > 0))
      Hover.apply();
  },

  // The mirror sheet of another frame's runtime (each frame runs its own
  // and may adopt a sheet into a frame document this one manages).
  foreignMirror (sheet) {
    try {
      return sheet.cssRules.length > 0 && sheet.cssRules[0].cssText.includes(Hover.NEVER);
    } catch (e) {
      return false;
    }
  },

  // The focus the engine does not show: in a document without the
  // screen's focus, the focused element matches :focus and its ancestors
  // :focus-within through the mirrors.
  syncFocus () {
    const doc = document;
    let el = Dom.deepActiveElement(doc);
    if (el === doc.body || el === doc.documentElement)
      el = null;
    if (el && doc.hasFocus())
      el = null;
    Hover.set('focus', el);
    Hover.set('focus-within', el);
  },

  // Whether an adopted sheet is one of the mirrors, for code that lists
  // the page's sheets.
  isMirror (sheet) {
    for (const s of Hover.sheets.values()) {
      if (s === sheet)
        return true;
    }
    return false;
  },
};

// Keyboard focus shows :focus-visible until focus leaves the element.
document.addEventListener('focusout', (e) => {
  const fv = Hover.held['focus-visible'];
  if (fv.length > 0 && e.composedPath().includes(fv[0]))
    Hover.set('focus-visible', null);
  // Focus may be going nowhere (blur): look once the move is over.
  setTimeout(Hover.syncFocus, 0);
}, true);
document.addEventListener('focusin', () => Hover.syncFocus(), true);
