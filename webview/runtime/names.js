// SPDX-License-Identifier: GPL-3.0-or-later
//
// Accessible names and descriptions per accname 1.2, with the host language
// rules of HTML-AAM (labels, legend, caption, figcaption, alt, value,
// placeholder) and CSS generated content.

const Names = {
  // Input types that take typed text: with nothing else to name them,
  // their placeholder does (HTML-AAM).
  TEXT_CONTROL_TYPES: new Set([
    'text', 'password', 'email', 'tel', 'url', 'search', 'number', 'date',
    'datetime-local', 'month', 'time', 'week',
  ]),

  // HTML-AAM's text-level elements: aria-label, aria-labelledby or title
  // names them, whatever WAI-ARIA says of their roles (generic, strong…).
  // The summary element has a name computation of its own in HTML-AAM,
  // which applies wherever it stands.
  TEXT_LEVEL: new Set([
    'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'dfn', 'em', 'i', 'kbd', 'mark', 'q', 'rp',
    'rt', 'ruby', 's', 'samp', 'small', 'strong', 'sub', 'summary', 'sup', 'time', 'u', 'var',
    'wbr',
  ]),

  // accname's flat string: runs of ASCII white space become one space, and
  // the ends are trimmed. A no-break space is not ASCII white space: it
  // stays in the name (accname 1.2, HTML's "ASCII whitespace").
  flat (s) {
    return s ? String(s).replace(/[\t\n\f\r ]+/g, ' ').replace(/^ | $/g, '') : '';
  },

  // Roles named from their first heading when nothing else names them
  // (the ARIA 1.3 "name from heading" rule); group is not among them.
  NAME_FROM_HEADING: new Set(['alertdialog', 'article', 'dialog']),

  // Naming el is prohibited: its role forbids it and HTML-AAM does not
  // name it as a text-level element.
  prohibited (el, role) {
    return Roles.NAME_PROHIBITED.has(role) && !Names.authorNameKept(el, role);
  },

  // A generic element that still shows the name its author gave it: an
  // HTML-AAM text-level element, a list item out of its list, or an
  // element whose role was passed over for want of its required context
  // (a cell outside a row): the name was given for that role.
  authorNameKept (el, role) {
    if (!Dom.isHtml(el))
      return false;
    const tag = el.localName;
    if (Names.TEXT_LEVEL.has(tag) || tag === 'li')
      return true;
    if (role !== 'generic' || !el.hasAttribute('role'))
      return false;
    const token = Roles.explicit(el);
    return token !== '' && token !== 'none' && token !== 'generic';
  },

  // The accessible name of el, flattened.
  name (ctx, el) {
    return Names.compute(ctx, el).text;
  },

  // The name and where it came from: 'content' when it was read from the
  // element's subtree, which the snapshot then need not print again.
  // `attrs`, when given, is el.getAttributeNames(), read by the snapshot.
  compute (ctx, el, attrs) {
    const role = Roles.role(ctx, el, attrs);
    if (Names.prohibited(el, role))
      return { text: '', source: '' };
    const state = {
      root: el,
      visited: new Set(),
      inLabelledBy: false,
      recursion: false,
      allowHidden: false,
      ancestorsShown: false,
      source: '',
      attrs,
    };
    let text = Names.flat(Names.alternative(ctx, el, state));
    // A name read from text loses the spaces of any kind at its ends; one
    // its author wrote keeps a no-break space (accname's tests of both).
    if (state.source === 'content')
      text = text.trim();
    return { text, source: text === '' ? '' : state.source };
  },

  // The text of the elements aria-labelledby points at, on its own: for the
  // roles that exist only when named, which cannot ask for the full name
  // before they know their role.
  labelledBy (ctx, el) {
    return Names.fromRefs(ctx, el, Dom.idrefs(el, 'aria-labelledby'));
  },

  // The text of the elements @refs names for @el, each read afresh.
  fromRefs (ctx, el, refs) {
    const parts = [];
    for (const r of refs) {
      const state = {
        root: el,
        visited: new Set(),
        inLabelledBy: true,
        recursion: true,
        allowHidden: Dom.hiddenDeep(ctx, r),
        ancestorsShown: false,
        source: '',
      };
      parts.push(Names.alternative(ctx, r, state));
    }
    return Names.flat(parts.join(' '));
  },

  description (ctx, el) {
    const refs = Dom.idrefs(el, 'aria-describedby');
    if (refs.length > 0)
      return Names.fromRefs(ctx, el, refs);
    const d = Names.flat(el.getAttribute('aria-description'));
    if (d !== '')
      return d;
    return '';
  },

  // The state for reading a node below @st's, one step down its recursion:
  // the same root and visited nodes; whether hidden nodes count, whether
  // its ancestors are known to be shown, and whether it is read for an
  // aria-labelledby (by default as @st is).
  below (st, allowHidden, ancestorsShown, inLabelledBy = st.inLabelledBy) {
    return {
      root: st.root,
      visited: st.visited,
      inLabelledBy,
      recursion: true,
      allowHidden,
      ancestorsShown,
      source: '',
      depth: (st.depth || 0) + 1,
    };
  },

  // Steps 2A to 2I of the text alternative computation for one node.
  alternative (ctx, node, st) {
    if (node.nodeType === 3)
      return node.data;
    if (node.nodeType !== 1)
      return '';
    const el = node;
    const isRoot = el === st.root && !st.recursion;
    // Attribute names known up front, for the root of a snapshot's name.
    const attrs = isRoot ? st.attrs : undefined;

    // 2A: hidden nodes take no part, unless a relation pointed straight at
    // a hidden node, which then brings its hidden content along.
    if (!isRoot && !st.allowHidden) {
      const hidden = st.ancestorsShown ? Dom.hiddenSelf(ctx, el) : Dom.hiddenDeep(ctx, el);
      if (hidden) {
        // visibility: hidden hides the element's own text but a descendant
        // may make itself visible again.
        if (st.ancestorsShown && Dom.onlyInvisible(ctx, el))
          return Names.visibleDescendants(ctx, el, st);
        return '';
      }
    }

    // 2B: aria-labelledby, followed once, never from within a traversal.
    if (!st.inLabelledBy && (attrs === undefined || attrs.includes('aria-labelledby'))) {
      const refs = Dom.idrefs(el, 'aria-labelledby');
      if (refs.length > 0) {
        const parts = [];
        for (const r of refs) {
          // Each node takes part once: a node that an earlier reference
          // already brought in adds nothing the second time.
          if (st.visited.has(r))
            continue;
          const sub = Names.below(st, st.allowHidden || Dom.hiddenDeep(ctx, r), false, true);
          parts.push(Names.flat(Names.alternative(ctx, r, sub)));
          st.visited.add(r);
        }
        const text = parts.join(' ');
        if (Names.flat(text) !== '') {
          st.source = 'labelledby';
          return text;
        }
      }
    }

    // A node that an aria-labelledby reference of this computation already
    // brought in is not read a second time as content (each node once);
    // its own aria-labelledby, above, may still add what was not read.
    if (el !== st.root && st.visited.has(el))
      return '';

    const role = Roles.role(ctx, el);

    // 2C: a control embedded in the label of another one stands for its
    // value.
    if (st.recursion && el !== st.root) {
      const value = Names.embeddedValue(ctx, el, role);
      if (value !== null)
        return value;
    }

    // 2D: aria-label, which a slot does not take.
    const label = (attrs === undefined || attrs.includes('aria-label')) && el.localName !== 'slot'
      ? el.getAttribute('aria-label') : null;
    if (label !== null && Names.flat(label) !== '' &&
        !(isRoot && Names.prohibited(el, role))) {
      st.source = 'label';
      return label;
    }

    // 2E: the host language's own label. An alt attribute is the name of
    // its image even when empty, which leaves the title unused (HTML-AAM).
    const alt = Names.altOf(ctx, el, st);
    if (alt !== null && (role !== 'none' || Names.flat(alt) === '')) {
      st.source = 'native';
      return alt;
    }
    if (role !== 'none') {
      const native = Names.nativeAlternative(ctx, el, role, st);
      if (native !== null && Names.flat(native) !== '') {
        st.source = 'native';
        return native;
      }
    }

    // 2F: name from content, for roles that allow it and for everything
    // below an element whose name is being computed.
    let space = '';
    if (st.recursion || Roles.NAME_FROM_CONTENT.has(role) || Names.contentNamedHost(el)) {
      if (!Names.isEmbeddedControlRole(role) || !st.recursion || el === st.root) {
        const text = Names.fromContent(ctx, el, st);
        if (Names.flat(text) !== '') {
          if (st.source === '')
            st.source = 'content';
          return text;
        }
        // White space alone, nested however deep, still parts the words
        // around it.
        if (text !== '' && el !== st.root)
          space = ' ';
      }
    }

    // 2I: the tooltip attribute.
    const title = attrs === undefined || attrs.includes('title')
      ? el.getAttribute('title') : null;
    if (title !== null && Names.flat(title) !== '') {
      st.source = 'title';
      return title;
    }

    // A dialog or article without a name of its own is named by its first
    // heading.
    if (isRoot && Names.NAME_FROM_HEADING.has(role)) {
      const text = Names.fromFirstHeading(ctx, el, st);
      if (Names.flat(text) !== '') {
        st.source = 'heading';
        return text;
      }
    }

    // Last resort of HTML-AAM for text fields: the placeholder.
    if (isRoot && Dom.isHtml(el)) {
      const tag = el.localName;
      if ((tag === 'input' && Names.TEXT_CONTROL_TYPES.has(el.type)) || tag === 'textarea') {
        const ph = el.getAttribute('placeholder');
        if (ph !== null && Names.flat(ph) !== '') {
          st.source = 'placeholder';
          return ph;
        }
      }
      const aph = el.getAttribute('aria-placeholder');
      if (aph !== null && Names.flat(aph) !== '' &&
          (role === 'textbox' || role === 'searchbox' || role === 'combobox')) {
        st.source = 'placeholder';
        return aph;
      }
    }
    return space;
  },

  // Host elements that are named by their content although they have no
  // role: a label names its control through its text.
  contentNamedHost (el) {
    return el.localName === 'label' || el.localName === 'legend' ||
           el.localName === 'caption' || el.localName === 'figcaption';
  },

  isEmbeddedControlRole (role) {
    return role === 'textbox' || role === 'searchbox' || role === 'combobox' ||
           role === 'listbox' || Roles.RANGE.has(role);
  },

  // The value of an embedded control, or null when el is not one.
  embeddedValue (ctx, el, role) {
    const tag = Dom.isHtml(el) ? el.localName : '';
    if (role === 'textbox' || role === 'searchbox') {
      if (tag === 'input' || tag === 'textarea')
        return el.value;
      return el.textContent;
    }
    if (role === 'combobox' || role === 'listbox') {
      if (tag === 'select') {
        const parts = [];
        for (const o of el.selectedOptions)
          parts.push(Names.flat(o.label || o.textContent));
        return parts.join(' ');
      }
      if (tag === 'input' || tag === 'textarea')
        return el.value;
      // A listbox or combobox widget shows its selected options.
      const parts = [];
      for (const o of el.querySelectorAll('[role="option"][aria-selected="true"]'))
        parts.push(Names.flat(o.textContent));
      if (parts.length > 0)
        return parts.join(' ');
      return role === 'combobox' ? Names.flat(el.textContent) : '';
    }
    if (Roles.RANGE.has(role)) {
      const vt = el.getAttribute('aria-valuetext');
      if (vt !== null && Names.flat(vt) !== '')
        return vt;
      const vn = el.getAttribute('aria-valuenow');
      if (vn !== null && vn.trim() !== '')
        return vn.trim();
      if (tag === 'input' || tag === 'meter' || tag === 'progress')
        return String(el.value);
      return '';
    }
    return null;
  },

  // 2E for HTML elements. Returns null when the element has no such label.
  nativeAlternative (ctx, el, role, st) {
    if (el.namespaceURI === Dom.SVG_NS)
      return Names.svgTitle(el);
    if (!Dom.isHtml(el))
      return null;
    const tag = el.localName;
    switch (tag) {
    case 'input': {
      const type = el.type;
      if (type === 'hidden')
        return null;
      const labels = Names.fromLabels(ctx, el, st);
      if (labels !== '')
        return labels;
      if (type === 'button' || type === 'submit' || type === 'reset') {
        const v = el.getAttribute('value');
        if (v !== null && Names.flat(v) !== '')
          return v;
        if (type === 'submit')
          return 'Submit';
        if (type === 'reset')
          return 'Reset';
        return null;
      }
      if (type === 'image') {
        // HTML-AAM: the labels and alt (see altOf), then title, then the
        // button's own word; not the value.
        const v = el.getAttribute('title');
        if (v !== null && Names.flat(v) !== '')
          return v;
        return 'Submit Query';
      }
      return null;
    }
    case 'button':
    case 'select':
    case 'textarea':
    case 'meter':
    case 'output':
    case 'progress': {
      const labels = Names.fromLabels(ctx, el, st);
      return labels !== '' ? labels : null;
    }
    case 'img':
      if (el.hasAttribute('title'))
        return null;
      return Names.figureCaption(ctx, el, st);
    case 'area':
      return el.getAttribute('alt');
    case 'fieldset':
      return Names.fromChild(ctx, el, 'legend', st);
    case 'figure':
      return Names.fromChild(ctx, el, 'figcaption', st);
    case 'table':
      return Names.fromChild(ctx, el, 'caption', st);
    case 'optgroup':
      return el.getAttribute('label');
    case 'option':
      if (el.hasAttribute('label') && Names.flat(el.getAttribute('label')) !== '')
        return el.getAttribute('label');
      return null;
    default:
      return null;
    }
  },

  // The alt attribute of an img, or of an input of type image that no
  // label names; null when el has none. An empty alt is a final answer.
  altOf (ctx, el, st) {
    if (!Dom.isHtml(el) || !el.hasAttribute('alt'))
      return null;
    const tag = el.localName;
    if (tag === 'img')
      return el.getAttribute('alt');
    if (tag !== 'input' || el.type !== 'image')
      return null;
    // Its labels come first; they are read here without being used up.
    const peek = Object.assign({}, st, { visited: new Set(st.visited) });
    if (Names.fromLabels(ctx, el, peek) !== '')
      return null;
    return el.getAttribute('alt');
  },

  // HTML-AAM: an img with neither alt nor title, alone in a figure with
  // its figcaption, is named by the caption.
  figureCaption (ctx, el, st) {
    const figure = el.parentElement;
    if (figure === null || figure.localName !== 'figure')
      return null;
    let caption = null;
    for (let c = figure.firstChild; c !== null; c = c.nextSibling) {
      if (c.nodeType === 3) {
        if (c.data.trim() !== '')
          return null;
      } else if (c.nodeType === 1 && c !== el) {
        if (c.localName !== 'figcaption' || caption !== null)
          return null;
        caption = c;
      }
    }
    if (caption === null)
      return null;
    return Names.fromChild(ctx, figure, 'figcaption', st);
  },

  // The text of the first heading below el in tree order.
  fromFirstHeading (ctx, el, st) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
    for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
      if (Roles.role(ctx, n) !== 'heading' || Dom.hiddenDeep(ctx, n))
        continue;
      return Names.name(ctx, n);
    }
    return '';
  },

  svgTitle (el) {
    for (const c of el.children) {
      if (c.localName === 'title' && c.namespaceURI === Dom.SVG_NS)
        return c.textContent;
    }
    return null;
  },

  // The text of the labels of a labelable element, in document order. A
  // label that is hidden still names its control, the way a hidden element
  // referenced by aria-labelledby does.
  fromLabels (ctx, el, st) {
    const labels = Dom.labelsOf(ctx, el);
    if (labels === null)
      return '';
    const parts = [];
    for (const label of labels) {
      if (st.visited.has(label))
        continue;
      const sub = Names.below(st, st.allowHidden || Dom.hiddenDeep(ctx, label), false);
      parts.push(Names.flat(Names.fromContent(ctx, label, sub)));
    }
    return Names.flat(parts.join(' '));
  },

  fromChild (ctx, el, childTag, st) {
    for (const c of el.children) {
      if (c.localName !== childTag)
        continue;
      if (!st.allowHidden && Dom.hiddenSelf(ctx, c))
        return null;
      return Names.fromContent(ctx, c, Names.below(st, st.allowHidden, true));
    }
    return null;
  },

  visibleDescendants (ctx, el, st) {
    let out = '';
    const kids = Dom.children(el);
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (c.nodeType !== 1 || (Dom.SKIP.has(c.localName) && Dom.isHtml(c)))
        continue;
      out += ' ' + Names.alternative(ctx, c, Names.below(st, false, true)) + ' ';
    }
    return out;
  },

  // 2F: the text of the children, with ::before and ::after, block-level
  // children set apart by spaces.
  // Text nested deeper than this below the element being named is left
  // out, so a page nested thousands of levels deep cannot exhaust the stack.
  MAX_DEPTH: 64,

  fromContent (ctx, el, st) {
    if (st.visited.has(el) && el !== st.root)
      return '';
    if ((st.depth || 0) > Names.MAX_DEPTH)
      return '';
    st.visited.add(el);
    let out = Dom.pseudoText(ctx, el, '::before');
    const kids = Dom.children(el);
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i];
      if (c.nodeType === 3) {
        out += c.data;
        continue;
      }
      if (c.nodeType !== 1)
        continue;
      // The labelled control inside its own label adds nothing to itself.
      if (c === st.root && st.root !== el)
        continue;
      if (Dom.SKIP.has(c.localName) && Dom.isHtml(c))
        continue;
      let text = Names.alternative(ctx, c, Names.below(st, st.allowHidden, !st.allowHidden));
      if (c.localName === 'br') {
        out += ' ';
        continue;
      }
      // Children laid out as boxes of their own (block, inline-block,
      // flex, grid, table cells…) are set apart by spaces; only inline
      // ones run on (accname 1.2, 2F.iii, with CSS's formatting).
      const s = Dom.style(ctx, c);
      if (s && !Dom.isInlineDisplay(s.display))
        text = ' ' + text + ' ';
      out += text;
    }
    out += Dom.pseudoText(ctx, el, '::after');
    return out;
  },
};
