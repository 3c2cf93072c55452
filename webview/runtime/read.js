// SPDX-License-Identifier: GPL-3.0-or-later
//
// Reading a page as text, HTML or Markdown (browser_get_text,
// browser_get_html, browser_read). Each answer is cut at maxChars; the
// cursor of a cut answer is the offset to go on from, so reading on re-reads
// the page as it is then. Markdown comes from Turndown (read-turndown.js,
// built from Debian's node-turndown) over the main content that Read.main()
// picks: the element whose paragraphs hold most of the page's prose.

const Read = {
  // Elements that are never content: navigation, page furniture, forms.
  BOILERPLATE: 'nav, header, footer, aside, [role="navigation"], [role="banner"], ' +
               '[role="contentinfo"], [role="complementary"], [role="search"], ' +
               'script, style, noscript, template, iframe, dialog:not([open])',

  // A slice of @text from @offset, at most @max characters, cut at a line
  // break where one is near the end.
  slice (text, offset, max) {
    if (offset > text.length)
      throw Base.error('browser_invalid_argument',
                       'the cursor is past the end of the page (it has ' + text.length +
                       ' characters now); read again without a cursor');
    let end = Math.min(text.length, offset + max);
    if (end < text.length) {
      const nl = text.lastIndexOf('\n', end);
      if (nl > offset + max * 0.7)
        end = nl + 1;
    }
    return {
      text: text.slice(offset, end),
      offset,
      total: text.length,
      truncated: end < text.length,
      nextOffset: end < text.length ? end : null,
    };
  },

  root (ctx, args) {
    if (args.ref !== undefined && args.ref !== null)
      return Refs.resolve(ctx, args.ref);
    const doc = document;
    if (!doc.documentElement)
      throw Base.error('browser_not_found', 'the tab shows no document yet');
    return doc.body || doc.documentElement;
  },

  page (result) {
    result.url = document.URL;
    result.title = document.title;
    return result;
  },

  // Visible text, one block per line, blank lines between paragraphs:
  // innerText is the browser's own rendering of text as a person sees it.
  text (ctx, args) {
    const el = Read.root(ctx, args);
    let text = typeof el.innerText === 'string' ? el.innerText : el.textContent;
    text = text.replace(/[ \t\u00a0]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
    return Read.page(Read.slice(text, args.offset || 0, args.maxChars || 40000));
  },

  html (ctx, args) {
    const el = args.ref !== undefined && args.ref !== null
      ? Refs.resolve(ctx, args.ref) : document.documentElement;
    if (!el)
      throw Base.error('browser_not_found', 'the tab shows no document yet');
    let node = el;
    if (args.stripScripts) {
      node = el.cloneNode(true);
      for (const s of node.querySelectorAll('script, style'))
        s.textContent = '';
    }
    const html = args.inner ? node.innerHTML : node.outerHTML;
    return Read.page(Read.slice(html, args.offset || 0, args.maxChars || 40000));
  },

  // Whether a person sees the element. A parsed document (fetched HTML)
  // has no rendering: there only its markup can hide an element.
  visible (el) {
    if (!el.ownerDocument.defaultView)
      return !el.hidden &&
             !/(display\s*:\s*none|visibility\s*:\s*hidden)/i.test(el.getAttribute('style') || '');
    if (typeof el.checkVisibility === 'function')
      return el.checkVisibility({ checkVisibilityCSS: true });
    const s = getComputedStyle(el);
    return s.display !== 'none' && s.visibility !== 'hidden';
  },

  // How much prose an element holds: the text of its paragraphs, less what
  // sits in links, so that menus and link farms score low.
  score (el) {
    let prose = 0;
    for (const p of el.querySelectorAll('p, pre, li, td, blockquote, h1, h2, h3')) {
      const len = Base.flat(p.textContent).length;
      if (len < 25 && p.localName !== 'pre' && !/^h\d$/.test(p.localName))
        continue;
      let linked = 0;
      for (const a of p.querySelectorAll('a'))
        linked += Base.flat(a.textContent).length;
      prose += Math.max(0, len - 2 * linked);
    }
    return prose;
  },

  // The main content: <main> or role=main when there is one, else the
  // smallest element that holds nearly all the prose of the best scoring
  // one, else the body.
  main (body) {
    const mains = body.querySelectorAll('main, [role="main"]');
    if (mains.length === 1 && Read.visible(mains[0]))
      return mains[0];
    const articles = body.querySelectorAll('article');
    if (articles.length === 1 && Read.visible(articles[0]))
      return articles[0];
    const total = Read.score(body);
    if (total === 0)
      return body;
    let best = body;
    for (const el of body.querySelectorAll('div, section, article')) {
      if (el.closest(Read.BOILERPLATE))
        continue;
      const s = Read.score(el);
      if (s >= total * 0.8 && best.contains(el))
        best = el;
    }
    return best;
  },

  // A copy of @el without hidden elements, boilerplate and script, with
  // links and images made absolute.
  clean (el) {
    const live = [el, ...el.querySelectorAll('*')];
    const drop = new Set();
    for (const e of live) {
      if (e !== el && (e.matches(Read.BOILERPLATE) || e.getAttribute('aria-hidden') === 'true' ||
                       e.hidden || !Read.visible(e)))
        drop.add(e);
    }
    const copy = el.cloneNode(true);
    const copies = [copy, ...copy.querySelectorAll('*')];
    for (let i = copies.length - 1; i >= 0; i--) {
      const e = copies[i];
      const orig = live[i];
      if (drop.has(orig)) {
        e.remove();
        continue;
      }
      if (e.localName === 'a' && orig.href)
        e.setAttribute('href', orig.href);
      if (e.localName === 'img' && orig.src)
        e.setAttribute('src', orig.src);
    }
    return copy;
  },

  turndown () {
    const service = new (Turndown.load())({
      headingStyle: 'atx',
      codeBlockStyle: 'fenced',
      bulletListMarker: '-',
      emDelimiter: '*',
    });
    service.remove(['script', 'style', 'noscript', 'button', 'input', 'select', 'textarea']);
    service.addRule('image', {
      filter: 'img',
      replacement: (content, node) => {
        const alt = Base.flat(node.getAttribute('alt') || '');
        return alt ? '![' + alt.replace(/[[\]]/g, '') + ']' : '';
      },
    });
    service.addRule('fencedLanguage', {
      filter: (node) => node.nodeName === 'PRE',
      replacement: (content, node) => {
        const code = node.querySelector('code');
        const lang = code ? /(?:language|lang)-(\S+)/.exec(code.className || '') : null;
        const body = (code || node).textContent.replace(/\n$/, '');
        const fence = body.includes('```') ? '~~~' : '```';
        return '\n\n' + fence + (lang ? lang[1] : '') + '\n' + body + '\n' + fence + '\n\n';
      },
    });
    // "- item", not Turndown's "-   item".
    service.addRule('listItem', {
      filter: 'li',
      replacement: (content, node) => {
        const parent = node.parentNode;
        let prefix = '- ';
        if (parent && parent.nodeName === 'OL') {
          const start = Number(parent.getAttribute('start') || 1);
          prefix = (start + Array.prototype.indexOf.call(parent.children, node)) + '. ';
        }
        const body = content.replace(/^\n+/, '').replace(/\n+$/, '\n')
          .replace(/\n/gm, '\n' + ' '.repeat(prefix.length));
        return prefix + body + (node.nextSibling && !/\n$/.test(body) ? '\n' : '');
      },
    });
    service.addRule('table', {
      filter: 'table',
      replacement: (content, node) => '\n\n' + Read.table(node) + '\n\n',
    });
    return service;
  },

  // A GitHub-style table: the first row is the header.
  table (node) {
    const rows = [];
    for (const tr of node.querySelectorAll('tr')) {
      if (tr.closest('table') !== node)
        continue;
      rows.push([...tr.children].filter((c) => c.localName === 'td' || c.localName === 'th')
        .map((c) => Base.flat(c.textContent).replace(/\|/g, '\\|')));
    }
    if (rows.length === 0)
      return '';
    const width = Math.max(...rows.map((r) => r.length));
    const line = (r) => '| ' + Array.from({ length: width }, (_, i) => r[i] || '').join(' | ') + ' |';
    const out = [line(rows[0]), '|' + ' --- |'.repeat(width)];
    for (const r of rows.slice(1))
      out.push(line(r));
    return out.join('\n');
  },

  // Headings only, indented by level.
  outline (md) {
    const out = [];
    let fence = false;
    for (const line of md.split('\n')) {
      if (/^(```|~~~)/.test(line))
        fence = !fence;
      const m = !fence && /^(#{1,6}) (.*)$/.exec(line);
      if (m)
        out.push('  '.repeat(m[1].length - 1) + '- ' + m[2]);
    }
    return out.join('\n');
  },

  // The sections whose heading matches @filter, whole, and elsewhere the
  // blocks (paragraphs, list items, links) that match, under their heading.
  filter (md, filter) {
    const needle = filter.toLowerCase();
    const blocks = md.split(/\n{2,}/);
    const out = [];
    let heading = null;
    let headingShown = false;
    let sectionLevel = 0;
    for (const block of blocks) {
      const h = /^(#{1,6}) /.exec(block);
      if (h) {
        const level = h[1].length;
        if (sectionLevel > 0 && level <= sectionLevel)
          sectionLevel = 0;
        heading = block;
        headingShown = false;
        if (sectionLevel === 0 && block.toLowerCase().includes(needle)) {
          sectionLevel = level;
          out.push(block);
          headingShown = true;
        } else if (sectionLevel > 0) {
          out.push(block);
          headingShown = true;
        }
        continue;
      }
      if (sectionLevel > 0) {
        out.push(block);
        continue;
      }
      const lines = block.split('\n').filter((l) => l.toLowerCase().includes(needle));
      if (lines.length === 0)
        continue;
      if (heading !== null && !headingShown) {
        out.push(heading);
        headingShown = true;
      }
      out.push(block.toLowerCase().includes(needle) && lines.length === block.split('\n').length
        ? block : lines.join('\n'));
    }
    return out.join('\n\n');
  },

  // The Markdown of @main, under the page's title when it has no heading
  // of its own.
  convert (main, title) {
    let md = Read.turndown().turndown(Read.clean(main));
    md = md.replace(/\n{3,}/g, '\n\n').trim();
    title = Base.flat(title);
    if (title && !md.startsWith('# '))
      md = '# ' + title + '\n\n' + md;
    return md;
  },

  markdown (ctx, args) {
    const body = Read.root(ctx, args);
    const byRef = args.ref !== undefined && args.ref !== null;
    const main = byRef ? body : Read.main(body);
    const md = Read.convert(main, byRef ? '' : document.title);
    const result = Read.finish(md, args);
    result.mainContent = main === body ? 'page' : Read.describe(main);
    return Read.page(result);
  },

  // A fetched page (browser_read with a url): Markdown or text as it came,
  // or HTML parsed (never run) and converted like a live page.
  source (ctx, args) {
    if (args.kind !== 'html')
      return Read.finish(String(args.body).replace(/\r\n/g, '\n').trim(), args);
    const doc = new DOMParser().parseFromString(String(args.body), 'text/html');
    const base = doc.createElement('base');
    base.href = doc.querySelector('base[href]')
      ? new URL(doc.querySelector('base[href]').getAttribute('href'), args.url).href : args.url;
    doc.head.prepend(base);
    const body = doc.body || doc.documentElement;
    const main = Read.main(body);
    const result = Read.finish(Read.convert(main, doc.title), args);
    result.mainContent = main === body ? 'page' : Read.describe(main);
    result.title = doc.title;
    return result;
  },

  finish (md, args) {
    if (typeof args.filter === 'string' && args.filter !== '')
      md = Read.filter(md, args.filter);
    if (args.outline)
      md = Read.outline(md);
    return Read.slice(md, args.offset || 0, args.maxChars || 40000);
  },

  describe (el) {
    let s = el.localName;
    if (el.id)
      s += '#' + el.id;
    else if (el.classList.length > 0)
      s += '.' + el.classList[0];
    return s;
  },
};

// browser_set_content: the document replaced by @html, at the same URL and
// origin, as document.write() does; the page's own scripts in it run.
Api.register('setContent', (ctx, args) => {
  if (typeof args.html !== 'string')
    throw Base.error('browser_invalid_argument', 'html must be a string');
  document.open();
  document.write(args.html);
  document.close();
  return { url: document.URL, title: document.title, elements: document.getElementsByTagName('*').length };
});

Api.register('readText', Read.text);
Api.register('readHtml', Read.html);
Api.register('readMarkdown', Read.markdown);
Api.register('readSource', Read.source);
