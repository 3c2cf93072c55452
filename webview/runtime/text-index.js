// SPDX-License-Identifier: GPL-3.0-or-later
//
// The page's visible text for browser_find_in_tabs' index, read only when
// the page changed since the index last read it. The version of a page is
// its document's token and a count of the changes a MutationObserver and
// form input saw since; a new document (navigation) starts a new token, so
// the C side re-reads a page exactly when the version it kept differs.

const TextIndex = {
  doc: null,
  token: '',
  changes: 0,
  observer: null,

  changed () {
    TextIndex.changes++;
  },

  watch () {
    if (TextIndex.doc === document)
      return false;
    if (TextIndex.observer !== null)
      TextIndex.observer.disconnect();
    TextIndex.doc = document;
    TextIndex.token = Date.now().toString(36) + Math.random().toString(36).slice(2, 10);
    TextIndex.changes = 0;
    TextIndex.observer = new MutationObserver(TextIndex.changed);
    TextIndex.observer.observe(document, {
      childList: true, attributes: true, characterData: true, subtree: true,
    });
    // Typing into a field changes what innerText shows of it without any
    // mutation.
    for (const type of ['input', 'change'])
      document.addEventListener(type, TextIndex.changed, { capture: true, passive: true });
    return true;
  },

  version () {
    if (TextIndex.observer.takeRecords().length > 0)
      TextIndex.changed();
    return TextIndex.token + ':' + TextIndex.changes;
  },

  // {since?, maxChars} -> {version, unchanged: true} when the page is still
  // at @since, else {version, unchanged: false, url, title, text, truncated}.
  read (ctx, args) {
    const fresh = TextIndex.watch();
    const version = TextIndex.version();
    const page = { version, url: document.URL, title: document.title };
    if (!fresh && typeof args.since === 'string' && args.since === version) {
      page.unchanged = true;
      return page;
    }
    page.unchanged = false;
    const el = document.body || document.documentElement;
    let text = '';
    if (el)
      text = typeof el.innerText === 'string' ? el.innerText : el.textContent;
    text = text.replace(/[ \t\u00a0]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
    const max = args.maxChars || 200000;
    page.truncated = text.length > max;
    page.text = page.truncated ? text.slice(0, max) : text;
    return page;
  },
};

Api.register('textIndex.read', TextIndex.read);
