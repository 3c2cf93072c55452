// SPDX-License-Identifier: GPL-3.0-or-later
//
// DOM access for the other modules: the flat tree (open shadow roots and
// slots in place), same-origin frames, computed styles and visibility, all
// cached for the length of one call. Nothing here uses instanceof, because
// nodes of another frame carry that frame's constructors.

const Dom = {
  HTML_NS: 'http://www.w3.org/1999/xhtml',
  SVG_NS: 'http://www.w3.org/2000/svg',

  // Elements that never render content of their own.
  SKIP: new Set([
    'script', 'style', 'noscript', 'template', 'head', 'title', 'meta',
    'link', 'base', 'param', 'source', 'track', 'datalist', 'area', 'map',
  ]),

  // One call's caches. Styles and roles do not change while a synchronous
  // call runs, so each is computed once.
  context (options) {
    return {
      styles: new Map(),
      roles: new Map(),
      hidden: new Map(),
      options: options || {},
      fast: false,
    };
  },

  isElement (n) {
    return n !== null && n !== undefined && n.nodeType === 1;
  },

  isHtml (el) {
    return el.namespaceURI === Dom.HTML_NS;
  },

  // The parent in the flat tree: the slot a node is assigned to, the host
  // of a shadow root, or the plain parent.
  parent (n) {
    if (n.assignedSlot)
      return n.assignedSlot;
    const p = n.parentNode;
    if (!p)
      return null;
    if (p.nodeType === 11)
      return p.host || null;
    return p.nodeType === 1 ? p : null;
  },

  // The children in the flat tree, as an array. Walking the sibling links
  // is several times faster than indexing childNodes.
  children (el) {
    if (el.localName === 'slot' && typeof el.assignedNodes === 'function') {
      const assigned = el.assignedNodes();
      if (assigned.length > 0)
        return assigned;
    }
    const out = [];
    const root = el.shadowRoot;
    for (let c = root ? root.firstChild : el.firstChild; c !== null; c = c.nextSibling)
      out.push(c);
    return out;
  },

  // The document of a same-origin frame, or null when the frame is
  // cross-origin or has none.
  frameDocument (el) {
    try {
      const doc = el.contentDocument;
      return doc && doc.documentElement ? doc : null;
    } catch (e) {
      return null;
    }
  },

  frameUrl (el) {
    try {
      const doc = el.contentDocument;
      if (doc)
        return doc.URL;
    } catch (e) {
      // Cross-origin: fall back to the attribute below.
    }
    return el.src || el.getAttribute('src') || 'about:blank';
  },

  byId (el, id) {
    const root = el.getRootNode();
    if (root && typeof root.getElementById === 'function')
      return root.getElementById(id);
    return null;
  },

  NONE: Object.freeze([]),

  // The elements an IDREF list attribute points at, in attribute order.
  idrefs (el, name) {
    const v = el.getAttribute(name);
    if (!v)
      return Dom.NONE;
    const out = [];
    for (const id of v.split(/\s+/)) {
      if (!id)
        continue;
      const t = Dom.byId(el, id);
      if (t)
        out.push(t);
    }
    return out;
  },

  // The labels of a labelable element, in tree order, or null. The
  // element's own `labels` list searches the whole document on every use, so
  // each tree's labels are indexed once per call instead.
  labelsOf (ctx, el) {
    const root = el.getRootNode();
    if (ctx.labelIndex === undefined)
      ctx.labelIndex = new Map();
    let index = ctx.labelIndex.get(root);
    if (index === undefined) {
      index = new Map();
      if (typeof root.querySelectorAll === 'function') {
        for (const label of root.querySelectorAll('label')) {
          const control = label.control;
          if (!control)
            continue;
          const list = index.get(control);
          if (list === undefined)
            index.set(control, [label]);
          else
            list.push(label);
        }
      }
      ctx.labelIndex.set(root, index);
    }
    const found = index.get(el);
    return found === undefined ? null : found;
  },

  style (ctx, el) {
    let s = ctx.styles.get(el);
    if (s === undefined) {
      const view = el.ownerDocument.defaultView;
      s = view ? view.getComputedStyle(el) : null;
      ctx.styles.set(el, s);
    }
    return s;
  },

  // What the style sheets of a document can do, found once per call:
  // `pseudo` when a rule can give elements ::before or ::after content,
  // `visibility` when a rule sets visibility. Without such rules the
  // snapshot skips the costly per-element checks for them. Sheets that
  // cannot be read (other origins) count as doing both.
  sheetFlags (ctx, doc) {
    if (ctx.sheets === undefined)
      ctx.sheets = new Map();
    let flags = ctx.sheets.get(doc);
    if (flags !== undefined)
      return flags;
    flags = { pseudo: false, visibility: false };
    // Style rules, keyframes (which may animate visibility), the rules
    // nested in @media or @supports, and imported sheets.
    const scan = (rules) => {
      for (let i = 0; i < rules.length && !(flags.pseudo && flags.visibility); i++) {
        const r = rules[i];
        if (!flags.visibility && r.style && r.style.visibility !== '')
          flags.visibility = true;
        if (!flags.pseudo && typeof r.selectorText === 'string' &&
            /:(before|after)/i.test(r.selectorText))
          flags.pseudo = true;
        if (r.cssRules)
          scan(r.cssRules);
        if (r.styleSheet)
          scan(r.styleSheet.cssRules);
      }
    };
    try {
      const sheets = doc.styleSheets;
      for (let i = 0; i < sheets.length && !(flags.pseudo && flags.visibility); i++) {
        try {
          scan(sheets[i].cssRules);
        } catch (e) {
          flags.pseudo = flags.visibility = true;
        }
      }
      if (doc.adoptedStyleSheets && doc.adoptedStyleSheets.length > 0)
        flags.pseudo = flags.visibility = true;
    } catch (e) {
      flags.pseudo = flags.visibility = true;
    }
    ctx.sheets.set(doc, flags);
    return flags;
  },

  // The CSS generated content of ::before or ::after, as text. Icon fonts
  // put private-use code points there, which mean nothing as text.
  pseudoText (ctx, el, which) {
    const view = el.ownerDocument.defaultView;
    if (!view)
      return '';
    // Shadow trees carry their own style sheets; only documents are scanned.
    if (el.getRootNode().nodeType === 9 && !Dom.sheetFlags(ctx, el.ownerDocument).pseudo)
      return '';
    const s = view.getComputedStyle(el, which);
    const content = s ? s.content : '';
    if (!content || content === 'none' || content === 'normal')
      return '';
    if (s.display === 'none')
      return '';
    // A counter's number is not readable from the computed style; half of
    // the content would be worse than none.
    if (content.indexOf('counter(') >= 0 || content.indexOf('counters(') >= 0)
      return '';
    return Dom.parseContent(content).replace(/[\ue000-\uf8ff]/g, '');
  },

  // Reads the strings of a computed `content` value. A "/ alt" part, when
  // present, replaces the visible content as its text alternative.
  parseContent (content) {
    let out = '';
    let alt = null;
    let i = 0;
    let inAlt = false;
    while (i < content.length) {
      const c = content[i];
      if (c === '"' || c === "'") {
        let j = i + 1;
        let s = '';
        while (j < content.length && content[j] !== c) {
          if (content[j] === '\\' && j + 1 < content.length) {
            j++;
            const hex = /^[0-9a-fA-F]{1,6}/.exec(content.slice(j));
            if (hex) {
              s += String.fromCodePoint(parseInt(hex[0], 16));
              j += hex[0].length;
              if (content[j] === ' ')
                j++;
              continue;
            }
          }
          s += content[j];
          j++;
        }
        if (inAlt)
          alt = (alt || '') + s;
        else
          out += s;
        i = j + 1;
      } else if (c === '/') {
        inAlt = true;
        i++;
      } else {
        i++;
      }
    }
    return alt !== null ? alt : out;
  },

  isInlineDisplay (display) {
    return display === 'inline' || display === 'contents' || display === '';
  },

  // Hidden as far as this element alone goes, its ancestors being known to
  // be shown: used while descending the tree.
  hiddenSelf (ctx, el) {
    if (el.getAttribute('aria-hidden') === 'true')
      return true;
    const s = Dom.style(ctx, el);
    if (!s)
      return true;
    if (s.display === 'none')
      return true;
    if (s.visibility === 'hidden' || s.visibility === 'collapse')
      return true;
    const p = Dom.parent(el);
    if (p && p.localName === 'details' && !p.open && Dom.isHtml(p) &&
        !(el.localName === 'summary' && Dom.firstSummary(p) === el))
      return true;
    return false;
  },

  // Hidden by visibility alone, which descendants can undo.
  onlyInvisible (ctx, el) {
    if (el.getAttribute('aria-hidden') === 'true')
      return false;
    const s = Dom.style(ctx, el);
    return s !== null && s.display !== 'none' && s.visibility !== 'visible';
  },

  // Hidden, looking at the ancestors too: for elements reached by IDREF or
  // by ref, outside of a descent. visibility is inherited and can be undone
  // by a descendant, so only the element's own value counts; display: none,
  // aria-hidden and a closed <details> hide everything below them.
  hiddenDeep (ctx, el) {
    if (!el.isConnected)
      return true;
    if (Dom.hiddenSelf(ctx, el))
      return true;
    return Dom.subtreeHidden(ctx, Dom.parentAcrossFrames(el));
  },

  // Whether el hides everything below it, looking up through its
  // ancestors. Iterative, so that a page nested thousands of levels deep
  // cannot exhaust the stack.
  subtreeHidden (ctx, el) {
    const chain = [];
    let v = false;
    for (let a = el; a; a = Dom.parentAcrossFrames(a)) {
      const known = ctx.hidden.get(a);
      if (known !== undefined) {
        v = known;
        break;
      }
      if (Dom.hidesSubtree(ctx, a)) {
        v = true;
        ctx.hidden.set(a, true);
        break;
      }
      chain.push(a);
    }
    // Below a hidden ancestor everything is hidden; otherwise nothing on
    // the way was.
    for (const a of chain)
      ctx.hidden.set(a, v);
    return v;
  },

  hidesSubtree (ctx, el) {
    const s = Dom.style(ctx, el);
    if (!s || s.display === 'none' || el.getAttribute('aria-hidden') === 'true')
      return true;
    const p = Dom.parent(el);
    return p !== null && p.localName === 'details' && !p.open && Dom.isHtml(p) &&
           !(el.localName === 'summary' && Dom.firstSummary(p) === el);
  },

  // The flat-tree parent, continuing from a frame's root element to the
  // <iframe> that holds it.
  parentAcrossFrames (el) {
    const p = Dom.parent(el);
    if (p)
      return p;
    if (el.parentNode && el.parentNode.nodeType === 9) {
      const view = el.ownerDocument.defaultView;
      try {
        return view && view.frameElement ? view.frameElement : null;
      } catch (e) {
        return null;
      }
    }
    return null;
  },

  firstSummary (details) {
    for (const c of details.children) {
      if (c.localName === 'summary')
        return c;
    }
    return null;
  },

  // Whether any element of the document has this attribute value, found
  // once per call, so that per-element searches for rare attributes can be
  // skipped.
  documentHas (ctx, doc, selector) {
    if (ctx.present === undefined)
      ctx.present = new Map();
    let perDoc = ctx.present.get(doc);
    if (perDoc === undefined) {
      perDoc = new Map();
      ctx.present.set(doc, perDoc);
    }
    let v = perDoc.get(selector);
    if (v === undefined) {
      v = doc.querySelector(selector) !== null;
      perDoc.set(selector, v);
    }
    return v;
  },

  FORM_CONTROLS: new Set([
    'button', 'input', 'select', 'textarea', 'fieldset', 'optgroup', 'option', 'output',
  ]),

  isFormControl (el) {
    return Dom.FORM_CONTROLS.has(el.localName) && Dom.isHtml(el);
  },

  isDisabledControl (el) {
    try {
      return el.matches(':disabled');
    } catch (e) {
      return false;
    }
  },

  // Focusable by keyboard or by script, the way the presentational role
  // conflict rule means it.
  focusable (el) {
    if (el.hasAttribute('tabindex'))
      return !Dom.isDisabledControl(el);
    if (!Dom.isHtml(el))
      return false;
    switch (el.localName) {
    case 'a':
    case 'area':
      return el.hasAttribute('href');
    case 'button':
    case 'select':
    case 'textarea':
      return !el.disabled;
    case 'input':
      return el.type !== 'hidden' && !el.disabled;
    case 'iframe':
    case 'embed':
    case 'object':
      return true;
    case 'summary':
      return el.parentElement !== null && el.parentElement.localName === 'details' &&
             Dom.firstSummary(el.parentElement) === el;
    default:
      return el.isContentEditable === true &&
             (el.parentElement === null || !el.parentElement.isContentEditable);
    }
  },

  // The focused element, looking through shadow roots and same-origin
  // frames.
  deepActiveElement (doc) {
    let a = doc.activeElement;
    for (;;) {
      if (!a)
        return null;
      if (a.shadowRoot && a.shadowRoot.activeElement) {
        a = a.shadowRoot.activeElement;
        continue;
      }
      if (a.localName === 'iframe' || a.localName === 'frame') {
        const d = Dom.frameDocument(a);
        if (d && d.activeElement && d.activeElement !== d.body) {
          a = d.activeElement;
          continue;
        }
      }
      return a;
    }
  },

  // The element a modal <dialog> (or another :modal element) makes the only
  // reachable part of its document, if any.
  modalElement (doc) {
    try {
      const m = doc.querySelector(':modal');
      return m || null;
    } catch (e) {
      return null;
    }
  },

  // Top-level viewport rectangle of an element, adding the offsets of the
  // same-origin frames it sits in.
  viewportRect (el) {
    const r = el.getBoundingClientRect();
    let x = r.left;
    let y = r.top;
    let view = el.ownerDocument.defaultView;
    while (view && view.frameElement) {
      const fe = view.frameElement;
      const fr = fe.getBoundingClientRect();
      const fs = fe.ownerDocument.defaultView.getComputedStyle(fe);
      x += fr.left + (parseFloat(fs.borderLeftWidth) || 0) + (parseFloat(fs.paddingLeft) || 0);
      y += fr.top + (parseFloat(fs.borderTopWidth) || 0) + (parseFloat(fs.paddingTop) || 0);
      view = fe.ownerDocument.defaultView;
    }
    return { x, y, width: r.width, height: r.height };
  },
};
