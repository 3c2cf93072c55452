// SPDX-License-Identifier: GPL-3.0-or-later
//
// browser_emulate's media features, in the page's own world. WebKitGTK
// answers prefers-color-scheme, prefers-reduced-motion and forced-colors
// for the whole display and has no per-view print media type, so a tab
// that emulates them answers them here, where the page asks:
// - the MediaQueryLists of matchMedia() answer for the query with the
//   emulated features replaced by conditions that are always true or
//   always false, fire change when the emulation changes their answer, and
//   still follow the viewport;
// - the media lists of the page's style sheets (@media and @import rules,
//   <style media> and <link media>, rules added later by insertRule, and
//   constructed sheets adopted by the document), also those in the shadow
//   roots the page attaches, are rewritten the same way, and read back as
//   the page wrote them (mediaText, conditionText).
// Style sheets of another origin without CORS cannot be read by any page
// script, so their rules keep the display's answers; they are reported.
//
// It is a function expression, called with the tab's media state
// ({ colorScheme, reducedMotion, forcedColors, media }, each a string or
// null) and false at the start of every document of every tab (a user
// script in every frame: with nothing emulated it only keeps the lists
// matchMedia gave, so that they can follow a later emulation), and with
// the new state and true in the main frame when the state changes: then
// it reaches the frames of the same origin too. It returns what the page
// answers now. Its third argument is each-frame.js.

(function (state, announce, eachFrame) {
  const key = Symbol.for('tabwright.media');
  const ALWAYS = '(width >= 0px)';
  const NEVER = '(width < 0px)';
  const NO_TYPE = 'speech';

  // The page's query with the emulated features replaced. The text is
  // WebKit's serialization (lowercase, one space after the colon).
  function rewrite(text, now) {
    const features = [
      ['prefers-color-scheme', now.colorScheme, { dark: 'dark', light: 'light' }, null],
      ['prefers-reduced-motion', now.reducedMotion, { reduce: 'reduce', 'no-preference': 'no-preference' }, 'reduce'],
      ['forced-colors', now.forcedColors, { active: 'active', none: 'none' }, 'active'],
    ];
    let out = text;
    for (const [name, value, values, booleanTrue] of features) {
      if (value == null)
        continue;
      out = out.replace(new RegExp(`\\(${name}(?:: ([a-z-]+))?\\)`, 'g'), (whole, asked) => {
        if (asked === undefined)
          return booleanTrue === null ? ALWAYS : (value === booleanTrue ? ALWAYS : NEVER);
        if (!(asked in values))
          return whole;
        return asked === value ? ALWAYS : NEVER;
      });
    }
    if (now.media != null) {
      out = out.split(',').map((query) => query.replace(/^(\s*(?:not |only )?)(print|screen)\b/, (whole, prefix, type) =>
        prefix + (type === now.media ? 'all' : NO_TYPE))).join(',');
    }
    return out;
  }

  function install(win) {
    if (Object.prototype.hasOwnProperty.call(win, key))
      return win[key];

    const original = {
      matchMedia: win.matchMedia,
      mediaText: Object.getOwnPropertyDescriptor(win.MediaList.prototype, 'mediaText'),
      conditionText: win.CSSConditionRule
        ? Object.getOwnPropertyDescriptor(win.CSSConditionRule.prototype, 'conditionText') : undefined,
      insertRule: win.CSSStyleSheet.prototype.insertRule,
      groupInsertRule: win.CSSGroupingRule ? win.CSSGroupingRule.prototype.insertRule : undefined,
      replaceSync: win.CSSStyleSheet.prototype.replaceSync,
      replace: win.CSSStyleSheet.prototype.replace,
    };
    const self = {
      now: { colorScheme: null, reducedMotion: null, forcedColors: null, media: null },
      written: new WeakMap(),   // MediaList -> the text the page gave it
      lists: new Set(),         // WeakRef<MediaList> that were rewritten
      queries: new Set(),       // WeakRef<MediaQueryList> the page was given
      shadows: new WeakMap(),   // MediaQueryList -> { text, list, relay }: its rewritten query
      roots: new Set(),         // WeakRef<ShadowRoot> the page attached
      pruneAt: 256,             // how many queries before the dead ones are dropped
      active: false,            // whether any feature is emulated
      observing: false,
      unreadable: new Set(),    // hrefs of sheets whose rules cannot be read
      set: null,
    };
    Object.defineProperty(win, key, { value: self });

    const getText = (list) => original.mediaText.get.call(list);
    const setText = (list, text) => original.mediaText.set.call(list, text);

    function rewriteList(list) {
      if (!list)
        return;
      let page = self.written.get(list);
      if (page === undefined) {
        page = getText(list);
        if (page === rewrite(page, self.now))
          return;
        self.written.set(list, page);
        self.lists.add(new WeakRef(list));
      }
      const wanted = rewrite(page, self.now);
      if (getText(list) !== wanted)
        setText(list, wanted);
    }

    function rewriteRules(rules) {
      for (const rule of rules) {
        if (rule.media)
          rewriteList(rule.media);
        if (rule.styleSheet)
          rewriteSheet(rule.styleSheet);
        if (rule.cssRules)
          rewriteRules(rule.cssRules);
      }
    }

    function rewriteSheet(sheet) {
      rewriteList(sheet.media);
      let rules;
      try {
        rules = sheet.cssRules;
      } catch {
        if (sheet.href)
          self.unreadable.add(sheet.href);
        return;
      }
      rewriteRules(rules);
    }

    function scan() {
      const doc = win.document;
      for (const sheet of doc.styleSheets)
        rewriteSheet(sheet);
      for (const sheet of doc.adoptedStyleSheets || [])
        rewriteSheet(sheet);
      for (const ref of self.roots) {
        const root = ref.deref();
        if (!root) {
          self.roots.delete(ref);
          continue;
        }
        for (const sheet of root.styleSheets)
          rewriteSheet(sheet);
        for (const sheet of root.adoptedStyleSheets || [])
          rewriteSheet(sheet);
      }
    }

    // Shadow roots, open or closed, as the page attaches them: their style
    // sheets are not the document's.
    const attachShadow = win.Element.prototype.attachShadow;
    win.Element.prototype.attachShadow = function (...args) {
      const root = attachShadow.apply(this, args);
      self.roots.add(new WeakRef(root));
      if (self.observing)
        watch(root);
      return root;
    };

    // The page reads its media lists as it wrote them.
    Object.defineProperty(win.MediaList.prototype, 'mediaText', {
      configurable: true,
      enumerable: original.mediaText.enumerable,
      get: function mediaText() {
        const page = self.written.get(this);
        return page !== undefined ? page : getText(this);
      },
      set: function mediaText(text) {
        self.written.delete(this);
        setText(this, text);
        rewriteList(this);
      },
    });
    if (original.conditionText) {
      Object.defineProperty(win.CSSConditionRule.prototype, 'conditionText', {
        configurable: true,
        enumerable: original.conditionText.enumerable,
        get: function conditionText() {
          if (this.media && self.written.has(this.media))
            return self.written.get(this.media);
          return original.conditionText.get.call(this);
        },
      });
    }

    // Rules the page adds later.
    win.CSSStyleSheet.prototype.insertRule = function insertRule(...args) {
      const index = original.insertRule.apply(this, args);
      if (self.active)
        rewriteRules([this.cssRules[index]]);
      return index;
    };
    if (original.groupInsertRule) {
      win.CSSGroupingRule.prototype.insertRule = function insertRule(...args) {
        const index = original.groupInsertRule.apply(this, args);
        if (self.active)
          rewriteRules([this.cssRules[index]]);
        return index;
      };
    }
    win.CSSStyleSheet.prototype.replaceSync = function replaceSync(...args) {
      const result = original.replaceSync.apply(this, args);
      if (self.active)
        rewriteSheet(this);
      return result;
    };
    win.CSSStyleSheet.prototype.replace = function replace(...args) {
      return original.replace.apply(this, args).then((sheet) => {
        if (self.active)
          rewriteSheet(sheet);
        return sheet;
      });
    };

    // matchMedia gives the page WebKit's own MediaQueryList, kept (weakly)
    // so that its answer and its change events follow the emulation: its
    // matches asks WebKit about the rewritten query, and while that differs
    // from the page's, a list of it tells the page's list when the
    // viewport changes its answer. This script runs in every document of
    // every tab, so lists made before an emulation follow it too.
    const matchesGetter = Object.getOwnPropertyDescriptor(win.MediaQueryList.prototype, 'matches');
    const nativeMatches = (list) => matchesGetter.get.call(list);

    function answer(list) {
      const shadow = self.shadows.get(list);
      return shadow ? nativeMatches(shadow.list) : nativeMatches(list);
    }

    function tell(list) {
      list.dispatchEvent(new win.MediaQueryListEvent('change', { matches: answer(list), media: list.media }));
    }

    function follow(list, live) {
      const before = answer(list);
      const old = self.shadows.get(list);
      const wanted = rewrite(list.media, self.now);
      if (old && old.text !== wanted) {
        old.list.removeEventListener('change', old.relay);
        self.shadows.delete(list);
      }
      if (wanted !== list.media && (!old || old.text !== wanted)) {
        const shadow = { text: wanted, list: original.matchMedia.call(win, wanted), relay: () => tell(list) };
        shadow.list.addEventListener('change', shadow.relay);
        self.shadows.set(list, shadow);
      }
      if (live && before !== answer(list))
        tell(list);
    }

    Object.defineProperty(win.MediaQueryList.prototype, 'matches', {
      configurable: true,
      enumerable: matchesGetter.enumerable,
      get: function matches() {
        return answer(this);
      },
    });

    win.matchMedia = function matchMedia(query) {
      const list = original.matchMedia.apply(win, arguments);
      self.queries.add(new WeakRef(list));
      // A page that asks on every resize leaves many lists behind.
      if (self.queries.size > self.pruneAt) {
        for (const ref of self.queries) {
          if (!ref.deref())
            self.queries.delete(ref);
        }
        self.pruneAt = Math.max(256, 2 * self.queries.size);
      }
      if (self.active)
        follow(list, false);
      return list;
    };

    // Sheets arrive while the document loads and whenever the page adds
    // one: rewrite them before they are drawn. Watched from the first
    // emulation on.
    const isStyle = (node) => node && (node.nodeName.toUpperCase() === 'STYLE' || node.nodeName.toUpperCase() === 'LINK');
    const touchesStyle = (record) => isStyle(record.target) || isStyle(record.target.parentNode) ||
      [...record.addedNodes].some((node) => isStyle(node) || (node.querySelector && node.querySelector('style, link')));
    const rescan = () => {
      if (self.active)
        scan();
    };
    const observer = new win.MutationObserver((records) => {
      if (records.some(touchesStyle))
        rescan();
    });
    function watch(node) {
      observer.observe(node, { childList: true, subtree: true, characterData: true,
        attributes: true, attributeFilter: ['media', 'rel', 'href'] });
      // A style sheet's load event stays inside its shadow root.
      node.addEventListener('load', rescan, true);
    }
    function observe() {
      watch(win.document);
      for (const ref of self.roots) {
        const root = ref.deref();
        if (root)
          watch(root);
      }
      win.document.addEventListener('DOMContentLoaded', rescan);
      win.addEventListener('load', rescan);
      self.observing = true;
    }

    self.set = function (next, live) {
      const was = self.active;
      self.now = { ...next };
      self.active = Object.values(self.now).some((value) => value != null);
      if (self.active && !self.observing)
        observe();
      if (self.active || was) {
        scan();
        for (const ref of self.lists) {
          const list = ref.deref();
          if (list && self.written.has(list))
            rewriteList(list);
          else
            self.lists.delete(ref);
        }
      }
      for (const ref of self.queries) {
        const list = ref.deref();
        if (list)
          follow(list, live);
        else
          self.queries.delete(ref);
      }
    };
    return self;
  }

  eachFrame(window, announce, (win) => install(win).set(state, announce));

  const self = window[key];
  return {
    prefersDark: matchMedia('(prefers-color-scheme: dark)').matches,
    reducedMotion: matchMedia('(prefers-reduced-motion: reduce)').matches,
    forcedColors: matchMedia('(forced-colors: active)').matches,
    print: matchMedia('print').matches,
    unreadableSheets: [...self.unreadable],
  };
})
