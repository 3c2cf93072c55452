// SPDX-License-Identifier: GPL-3.0-or-later
//
// browser_get_styles: the computed style of an element (the properties
// asked for, or those that differ from a fresh element of the same tag),
// its box, and whether a person sees it, and if not, why.

const Styles = {
  // The computed style of a new element of the same tag in a hidden frame
  // of our own would be exact; a detached element of the same tag in the
  // same document, attached for the look to the root, is close enough and
  // costs no frame.
  defaults (el) {
    const probe = el.ownerDocument.createElement(el.localName);
    probe.style.setProperty('display', 'none', 'important');
    el.ownerDocument.documentElement.appendChild(probe);
    const s = getComputedStyle(probe);
    const out = {};
    for (let i = 0; i < s.length; i++)
      out[s[i]] = s.getPropertyValue(s[i]);
    probe.remove();
    return out;
  },

  visibility (el, s, r) {
    for (let a = el; a; a = a.parentElement) {
      const as = getComputedStyle(a);
      if (as.display === 'none')
        return a === el ? 'display: none' : 'an ancestor has display: none';
      if (parseFloat(as.opacity) === 0)
        return a === el ? 'opacity: 0' : 'an ancestor has opacity: 0';
    }
    if (s.visibility !== 'visible')
      return 'visibility: ' + s.visibility;
    if (r.width === 0 || r.height === 0)
      return 'no size (' + r.width + ' × ' + r.height + ')';
    for (let a = el.parentElement; a; a = a.parentElement) {
      const as = getComputedStyle(a);
      if (as.overflow !== 'visible' && as.overflow !== '') {
        const ar = a.getBoundingClientRect();
        if (r.right <= ar.left || r.left >= ar.right || r.bottom <= ar.top || r.top >= ar.bottom)
          return 'clipped by an ancestor with overflow: ' + as.overflow;
      }
    }
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    if (r.right <= 0 || r.bottom <= 0 || r.left >= vw || r.top >= vh)
      return 'off-screen (outside the ' + vw + ' × ' + vh + ' viewport; scroll to it)';
    const x = Math.min(Math.max(r.left + r.width / 2, 0), vw - 1);
    const y = Math.min(Math.max(r.top + r.height / 2, 0), vh - 1);
    const hit = el.ownerDocument.elementFromPoint(x, y);
    if (hit && hit !== el && !el.contains(hit) && !hit.contains(el)) {
      let what = hit.localName;
      if (hit.id)
        what += '#' + hit.id;
      return 'covered by ' + what;
    }
    return null;
  },

  get (ctx, args) {
    const el = Refs.resolve(ctx, args.ref);
    const s = getComputedStyle(el);
    const style = {};
    if (Array.isArray(args.properties) && args.properties.length > 0) {
      for (const p of args.properties)
        style[p] = s.getPropertyValue(p);
    } else {
      const defaults = Styles.defaults(el);
      for (let i = 0; i < s.length; i++) {
        const p = s[i];
        const v = s.getPropertyValue(p);
        if (defaults[p] !== v && !p.startsWith('-webkit-') && p !== 'display')
          style[p] = v;
      }
      style.display = s.display;
    }
    const r = el.getBoundingClientRect();
    const px = (v) => parseFloat(v) || 0;
    const box = {
      x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height),
      margin: [s.marginTop, s.marginRight, s.marginBottom, s.marginLeft].map(px),
      padding: [s.paddingTop, s.paddingRight, s.paddingBottom, s.paddingLeft].map(px),
      border: [s.borderTopWidth, s.borderRightWidth, s.borderBottomWidth, s.borderLeftWidth].map(px),
    };
    const why = Styles.visibility(el, s, r);
    return { ref: args.ref, tag: el.localName, style, box, visible: why === null, hiddenBecause: why };
  },
};

Api.register('styles.get', Styles.get);
