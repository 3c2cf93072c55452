// SPDX-License-Identifier: GPL-3.0-or-later
//
// Roles per WAI-ARIA 1.2 and HTML-AAM: the first valid token of the role
// attribute, otherwise the element's implicit role, with the presentational
// role conflict rule and inherited presentation of required owned elements.
// A role token that needs a context the element is not in, or a landmark
// that needs a name it lacks, counts as no token: the next one, or the
// implicit role, applies (WAI-ARIA 1.2 "Handling Author Errors").

const Roles = {
  // Concrete roles an author may write, WAI-ARIA 1.2 plus the Graphics
  // module; `image` is the ARIA 1.3 synonym of img, and `mark`, `comment`,
  // `suggestion`, `sectionheader` and `sectionfooter` are the ARIA 1.3
  // roles that browsers ship, with the association list roles of its
  // draft.
  VALID: new Set([
    'alert', 'alertdialog', 'application', 'article', 'associationlist',
    'associationlistitemkey', 'associationlistitemvalue', 'banner', 'blockquote',
    'button', 'caption', 'cell', 'checkbox', 'code', 'columnheader', 'combobox',
    'comment', 'complementary', 'contentinfo', 'definition', 'deletion', 'dialog',
    'directory', 'document', 'emphasis', 'feed', 'figure', 'form', 'generic',
    'grid', 'gridcell', 'group', 'heading', 'img', 'image', 'insertion', 'link',
    'list', 'listbox', 'listitem', 'log', 'main', 'mark', 'marquee', 'math',
    'menu', 'menubar', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'meter',
    'navigation', 'none', 'note', 'option', 'paragraph', 'presentation',
    'progressbar', 'radio', 'radiogroup', 'region', 'row', 'rowgroup',
    'rowheader', 'scrollbar', 'search', 'searchbox', 'sectionfooter',
    'sectionheader', 'separator', 'slider', 'spinbutton', 'status', 'strong',
    'subscript', 'suggestion', 'superscript', 'switch',
    'tab', 'table', 'tablist', 'tabpanel', 'term', 'textbox', 'time', 'timer',
    'toolbar', 'tooltip', 'tree', 'treegrid', 'treeitem',
    'graphics-document', 'graphics-object', 'graphics-symbol',
  ]),

  // Global states and properties: any of them on an element makes a
  // presentational role be ignored (WAI-ARIA 1.2 §9.3).
  GLOBAL_ARIA: [
    'aria-atomic', 'aria-busy', 'aria-controls', 'aria-current',
    'aria-describedby', 'aria-description', 'aria-details', 'aria-disabled',
    'aria-dropeffect', 'aria-errormessage', 'aria-flowto', 'aria-grabbed',
    'aria-haspopup', 'aria-invalid', 'aria-keyshortcuts', 'aria-label',
    'aria-labelledby', 'aria-live', 'aria-owns', 'aria-relevant',
    'aria-roledescription',
  ],

  // Roles whose name may come from their content (accname 1.2 §4.1, the
  // "Name From: contents" roles).
  NAME_FROM_CONTENT: new Set([
    'button', 'cell', 'checkbox', 'columnheader', 'gridcell', 'heading', 'link',
    'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'row',
    'rowheader', 'switch', 'tab', 'tooltip', 'treeitem',
  ]),

  // Roles that may not be named by authors (WAI-ARIA 1.2, "Name From:
  // prohibited").
  NAME_PROHIBITED: new Set([
    'caption', 'code', 'deletion', 'emphasis', 'generic', 'insertion', 'none',
    'paragraph', 'presentation', 'strong', 'subscript', 'superscript',
  ]),

  // Roles whose descendants are presentational: they are leaves.
  CHILDREN_PRESENTATIONAL: new Set([
    'button', 'checkbox', 'img', 'menuitemcheckbox', 'menuitemradio', 'meter',
    'option', 'progressbar', 'radio', 'scrollbar', 'separator', 'slider',
    'switch', 'tab', 'graphics-symbol',
  ]),

  // Widgets an agent can act on.
  INTERACTIVE: new Set([
    'button', 'checkbox', 'combobox', 'gridcell', 'link', 'listbox', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'radio', 'scrollbar',
    'searchbox', 'slider', 'spinbutton', 'switch', 'tab', 'textbox', 'treeitem',
  ]),

  LANDMARK: new Set([
    'banner', 'complementary', 'contentinfo', 'form', 'main', 'navigation',
    'region', 'search',
  ]),

  // Roles that can hold a value a person edits; they show it when embedded
  // in another element's label (accname 1.2 step 2C).
  RANGE: new Set(['slider', 'spinbutton', 'progressbar', 'scrollbar', 'meter']),

  // The role of an element; '' when it has none (it is then treated like a
  // generic container). Cached per call.
  // `attrs`, when given, is el.getAttributeNames(): the snapshot reads it
  // once per element and spares the lookups of absent attributes.
  role (ctx, el, attrs) {
    let r = ctx.roles.get(el);
    if (r !== undefined)
      return r;
    // A role that depends on a name (section, form, aside) may reach this
    // element again through aria-labelledby; answer generic meanwhile.
    ctx.roles.set(el, 'generic');
    r = Roles.compute(ctx, el, attrs);
    ctx.roles.set(el, r);
    return r;
  },

  // The first valid token of the role attribute. Tokens are separated by
  // ASCII white space and compared ASCII case-insensitively (HTML's rule
  // for the role attribute): "BUTTON" is button, a no-break space or a
  // letter with a diacritic makes a token that matches nothing.
  // With `ctx`, a token whose required context or name is missing is
  // passed over as well.
  explicit (el, attrs, ctx) {
    if (attrs !== undefined && !attrs.includes('role'))
      return '';
    const v = el.getAttribute('role');
    if (!v)
      return '';
    for (let token of v.split(/[\t\n\f\r ]+/)) {
      token = token.replace(/[A-Z]+/g, (c) => c.toLowerCase());
      if (!Roles.VALID.has(token))
        continue;
      if (token === 'presentation')
        return 'none';
      if (token === 'image')
        return 'img';
      if (ctx !== undefined && !Roles.allowedHere(ctx, el, token))
        continue;
      return token;
    }
    return '';
  },

  // Roles that exist only within their required context role (WAI-ARIA
  // 1.2, "Required Context Role"); outside it browsers drop them.
  // A cell straight inside its grid or table (no row between) keeps its
  // role, as browsers keep it.
  CONTEXT: {
    caption: ['figure', 'grid', 'table', 'treegrid'],
    row: ['table', 'grid', 'treegrid', 'rowgroup'],
    rowgroup: ['table', 'grid', 'treegrid'],
    cell: ['row', 'rowgroup', 'table', 'grid', 'treegrid'],
    gridcell: ['row', 'rowgroup', 'table', 'grid', 'treegrid'],
    columnheader: ['row', 'rowgroup', 'table', 'grid', 'treegrid'],
    rowheader: ['row', 'rowgroup', 'table', 'grid', 'treegrid'],
    menuitem: ['menu', 'menubar', 'group'],
    menuitemcheckbox: ['menu', 'menubar', 'group'],
    menuitemradio: ['menu', 'menubar', 'group'],
    listitem: ['list', 'directory'],
    option: ['listbox', 'group'],
    tab: ['tablist'],
    treeitem: ['tree', 'group'],
    associationlistitemkey: ['associationlist'],
    associationlistitemvalue: ['associationlist'],
  },

  allowedHere (ctx, el, token) {
    if (token === 'region' || token === 'form')
      return Roles.hasAuthorName(ctx, el);
    // The page's banner and content information are not scoped to a part
    // of it: inside main or sectioning content they are plain containers,
    // as the header and footer elements there are (HTML-AAM).
    if (token === 'banner' || token === 'contentinfo')
      return !Roles.inSectioningContent(el, true);
    const want = Roles.CONTEXT[token];
    if (want === undefined)
      return true;
    const owner = Roles.contextOf(ctx, el);
    // A row group of rows is a structure of its own even without its
    // table around it: its rows are rows.
    if (token === 'rowgroup' && (owner === null || !want.includes(owner.role)))
      return Roles.ownsRow(el);
    // Below a presentational table or list the explicit role of an allowed
    // child stays (WAI-ARIA 1.2, "Presentational Roles Conflict
    // Resolution").
    if (owner !== null && owner.throughNone)
      return true;
    if (owner === null || !want.includes(owner.role))
      return false;
    // A group gives menu items their context only inside a menu.
    if (owner.role === 'group' && token.startsWith('menuitem')) {
      const outer = Roles.contextOf(ctx, owner.el);
      return outer !== null && (outer.role === 'menu' || outer.role === 'menubar');
    }
    return true;
  },

  // Whether a row (an element whose role attribute names row) is below
  // el, through containers without a role of their own.
  ownsRow (el) {
    for (const c of el.children) {
      const tokens = (c.getAttribute('role') || '').toLowerCase().split(/[\t\n\f\r ]+/);
      if (tokens.includes('row'))
        return true;
      if (!c.hasAttribute('role') && (c.localName === 'div' || c.localName === 'span') &&
          Roles.ownsRow(c))
        return true;
    }
    return false;
  },

  // The nearest ancestor with a role that means something: generic and
  // presentational wrappers are passed through.
  // throughNone: a presentational element lies between.
  contextOf (ctx, el) {
    let throughNone = false;
    for (let a = Dom.parent(el); a; a = Dom.parent(a)) {
      if (a.nodeType !== 1)
        return null;
      const r = Roles.role(ctx, a);
      if (r === 'none')
        throughNone = true;
      else if (r !== '' && r !== 'generic')
        return { el: a, role: r, throughNone };
    }
    return throughNone ? { el: null, role: '', throughNone } : null;
  },

  compute (ctx, el, attrs) {
    const explicit = Roles.explicit(el, attrs, ctx);
    if (explicit !== '' && explicit !== 'none')
      return explicit;
    const implicit = Roles.implicit(ctx, el);
    if (explicit === 'none' || implicit === 'none') {
      // An image without alt text whose aria-label or aria-labelledby
      // names nothing stays decoration: implicit() has weighed them.
      if (Roles.presentationConflict(el, explicit !== 'none' && el.localName === 'img')) {
        if (implicit === 'none')
          return el.localName === 'img' ? 'img' : 'generic';
        return implicit;
      }
      return 'none';
    }
    return implicit;
  },

  presentationConflict (el, nameWeighed) {
    if (Dom.focusable(el))
      return true;
    for (const a of Roles.GLOBAL_ARIA) {
      if (nameWeighed && (a === 'aria-label' || a === 'aria-labelledby'))
        continue;
      if (el.hasAttribute(a))
        return true;
    }
    return false;
  },

  implicit (ctx, el) {
    if (!Dom.isHtml(el)) {
      if (el.namespaceURI === Dom.SVG_NS) {
        if (el.localName === 'svg')
          return 'graphics-document';
        if (el.localName === 'a' && (el.hasAttribute('href') || el.hasAttribute('xlink:href')))
          return 'link';
        return '';
      }
      if (el.localName === 'math')
        return 'math';
      return '';
    }
    const tag = el.localName;
    switch (tag) {
    case 'a':
      return el.hasAttribute('href') ? 'link' : 'generic';
    case 'area':
      return el.hasAttribute('href') ? 'link' : '';
    case 'address':
    case 'details':
    case 'fieldset':
    case 'hgroup':
    case 'optgroup':
      return 'group';
    case 'article':
      return 'article';
    case 'aside':
      if (Roles.inSectioningContent(el, false))
        return Roles.hasAuthorName(ctx, el) ? 'complementary' : 'generic';
      return 'complementary';
    case 'b': case 'bdi': case 'bdo': case 'body': case 'data': case 'div':
    case 'i': case 'pre': case 'q': case 'samp': case 'small': case 'span':
    case 'u': case 'slot':
      return 'generic';
    case 'blockquote':
      return 'blockquote';
    case 'button':
      return 'button';
    case 'caption':
      // A caption is one only as the caption of its table.
      if (el.parentElement === null || el.parentElement.localName !== 'table')
        return '';
      return Roles.tableRole(ctx, el) === 'none' ? 'none' : 'caption';
    case 'code':
      return 'code';
    case 'datalist':
      return 'listbox';
    case 'dd':
      return 'definition';
    case 'del':
    case 's':
      return 'deletion';
    case 'dfn':
    case 'dt':
      return 'term';
    case 'dialog':
      return 'dialog';
    case 'em':
      return 'emphasis';
    case 'figcaption':
      return 'caption';
    case 'figure':
      return 'figure';
    case 'footer':
      // HTML-AAM (with ARIA 1.3): a footer scoped to main or sectioning
      // content is a section footer.
      return Roles.inSectioningContent(el, true) ? 'sectionfooter' : 'contentinfo';
    case 'form':
      return Roles.hasAuthorName(ctx, el) ? 'form' : 'generic';
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
      return 'heading';
    case 'header':
      return Roles.inSectioningContent(el, true) ? 'sectionheader' : 'banner';
    case 'hr':
      return 'separator';
    case 'html':
      return 'document';
    case 'iframe':
    case 'frame':
      // Not an ARIA role: the snapshot prints frames under this name.
      return 'iframe';
    case 'img':
      // An alt of nothing but ASCII white space is an empty one: the image
      // is decoration, whatever its title says (HTML-AAM el-img-empty-alt).
      // An image with no source and no name represents nothing (HTML).
      if (el.hasAttribute('alt') ? el.getAttribute('alt').replace(/[\t\n\f\r ]+/g, '') === ''
        : !el.getAttribute('src') && !el.getAttribute('srcset') && !el.hasAttribute('title')) {
        if (!Roles.hasAriaName(ctx, el))
          return 'none';
      }
      return 'img';
    case 'input':
      return Roles.inputRole(el);
    case 'ins':
      return 'insertion';
    case 'li': {
      const p = el.parentElement;
      if (p === null)
        return 'generic';
      const pr = Roles.role(ctx, p);
      if (pr === 'list')
        return 'listitem';
      if (pr === 'none' && (p.localName === 'ul' || p.localName === 'ol' || p.localName === 'menu'))
        return 'none';
      return 'generic';
    }
    case 'main':
      return 'main';
    case 'mark':
      return 'mark';
    case 'math':
      return 'math';
    case 'dir':
    case 'dl':
    case 'menu':
    case 'ol':
    case 'ul':
      return 'list';
    case 'meter':
      return 'meter';
    case 'nav':
      return 'navigation';
    case 'option': {
      const p = el.parentElement;
      const owner = p && p.localName === 'optgroup' ? p.parentElement : p;
      const listed = owner && (owner.localName === 'select' || owner.localName === 'datalist');
      return listed ? 'option' : '';
    }
    case 'output':
      return 'status';
    case 'p':
      return 'paragraph';
    case 'progress':
      return 'progressbar';
    case 'search':
      return 'search';
    case 'section':
      return Roles.hasAuthorName(ctx, el) ? 'region' : 'generic';
    case 'select':
      return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'strong':
      return 'strong';
    case 'sub':
      return 'subscript';
    case 'sup':
      return 'superscript';
    case 'summary':
      // HTML-AAM leaves the disclosure summary without an ARIA role;
      // browsers expose it as a button that expands its <details>.
      // Any other summary is generic.
      return el.parentElement && el.parentElement.localName === 'details' &&
             Dom.firstSummary(el.parentElement) === el ? 'button' : 'generic';
    case 'table':
      return 'table';
    case 'tbody':
    case 'thead':
    case 'tfoot':
      return Roles.isTabular(Roles.tableRole(ctx, el)) ? 'rowgroup' : 'none';
    case 'tr':
      return Roles.isTabular(Roles.tableRole(ctx, el)) ? 'row' : 'none';
    case 'td': {
      const t = Roles.tableRole(ctx, el);
      if (t === 'table')
        return 'cell';
      return t === 'grid' || t === 'treegrid' ? 'gridcell' : 'none';
    }
    case 'th': {
      const t = Roles.tableRole(ctx, el);
      if (!Roles.isTabular(t))
        return 'none';
      return Roles.headerRole(el);
    }
    case 'textarea':
      return 'textbox';
    case 'time':
      return 'time';
    default:
      // Autonomous custom elements are generic (HTML-AAM); the remaining
      // elements (label, legend, abbr, kbd…) have no role.
      return tag.indexOf('-') > 0 ? 'generic' : '';
    }
  },

  inputRole (el) {
    const type = (el.getAttribute('type') || 'text').toLowerCase();
    let hasList = false;
    switch (type) {
    case 'button': case 'submit': case 'reset': case 'image':
      return 'button';
    case 'checkbox':
      return 'checkbox';
    case 'radio':
      return 'radio';
    case 'range':
      return 'slider';
    case 'number':
      return 'spinbutton';
    case 'hidden':
      return '';
    case 'file':
    case 'color':
      // No ARIA role in HTML-AAM; both are operated by pressing them.
      return 'button';
    case 'search':
      hasList = el.list !== null && el.list !== undefined;
      return hasList ? 'combobox' : 'searchbox';
    case 'email': case 'tel': case 'text': case 'url':
      hasList = el.list !== null && el.list !== undefined;
      return hasList ? 'combobox' : 'textbox';
    case 'password':
      return 'textbox';
    default:
      // The date and time types take text; an unknown type is a text field.
      hasList = el.list !== null && el.list !== undefined;
      return el.type === 'text' && hasList ? 'combobox' : 'textbox';
    }
  },

  isTabular (role) {
    return role === 'table' || role === 'grid' || role === 'treegrid';
  },

  tableRole (ctx, el) {
    const t = el.closest('table');
    return t ? Roles.role(ctx, t) : '';
  },

  // th: explicit scope first; otherwise a header of its column when its row
  // has no data cells, of its row when it does.
  headerRole (el) {
    const scope = (el.getAttribute('scope') || '').toLowerCase();
    if (scope === 'col' || scope === 'colgroup')
      return 'columnheader';
    if (scope === 'row' || scope === 'rowgroup')
      return 'rowheader';
    const row = el.parentElement;
    if (row && row.parentElement && row.parentElement.localName === 'thead')
      return 'columnheader';
    if (row) {
      for (const c of row.children) {
        if (c.localName === 'td')
          return 'rowheader';
      }
    }
    return 'columnheader';
  },

  // header, footer and aside lose their landmark role inside sectioning
  // content (and, for header and footer, inside main) or an element with
  // the equivalent role.
  inSectioningContent (el, countMain) {
    for (let a = Dom.parent(el); a; a = Dom.parent(a)) {
      const tag = a.localName;
      if (tag === 'article' || tag === 'aside' || tag === 'nav' || tag === 'section')
        return true;
      if (countMain && tag === 'main')
        return true;
      const r = Roles.explicit(a);
      if (r === 'article' || r === 'complementary' || r === 'navigation' || r === 'region' ||
          (countMain && r === 'main'))
        return true;
    }
    return false;
  },

  // Named through aria-label or aria-labelledby, with a name that is not
  // blank.
  hasAriaName (ctx, el) {
    if (Names.flat(el.getAttribute('aria-label')) !== '')
      return true;
    return el.hasAttribute('aria-labelledby') && Names.labelledBy(ctx, el) !== '';
  },

  // Named by the author: the landmark roles of section, form and aside
  // depend on it.
  hasAuthorName (ctx, el) {
    if (Names.flat(el.getAttribute('aria-label')) !== '')
      return true;
    if (el.hasAttribute('aria-labelledby') && Names.labelledBy(ctx, el) !== '')
      return true;
    return Names.flat(el.getAttribute('title')) !== '';
  },
};
