// SPDX-License-Identifier: GPL-3.0-or-later
//
// browser_performance: what the page's load cost, from the Performance
// APIs the page's own scripts see (navigation, paint and resource timing),
// and a short list of findings an agent can act on. WebKitGTK has no
// largest-contentful-paint, layout-shift, event or longtask entries: each of
// those is reported as not measured, with the nearest thing the page can
// tell (an estimate of the largest paint, the likely causes of layout
// shifts), never as a number WebKit did not give.

const PagePerf = {
  // A server slower than this to send the first byte of the document is a
  // finding (web.dev calls 0.8 s good for the whole time to first byte).
  SLOW_SERVER_MS: 600,
  // An image is oversized when it has this many times the pixels it is
  // shown with (device pixels), and at least this many bytes to spare.
  OVERSIZE_FACTOR: 4,
  OVERSIZE_MIN_PIXELS: 40000,
  // How long to wait for the first contentful paint of a page that has
  // loaded but not painted yet.
  PAINT_WAIT_MS: 2000,
  MAX_FINDINGS: 10,
  // Past this many findings of one kind, one more line counts the rest.
  MAX_PER_KIND: 3,
  DEFAULT_SLOWEST: 5,

  ms (value) {
    return typeof value === 'number' && isFinite(value) ? Math.round(value) : null;
  },

  // Waits for the first contentful paint, bounded: a fresh load may finish
  // before it has painted.
  waitForPaint () {
    if (performance.getEntriesByName('first-contentful-paint').length > 0 ||
        typeof PerformanceObserver !== 'function')
      return Promise.resolve();
    return new Promise((resolve) => {
      let observer = null;
      const timer = setTimeout(() => {
        if (observer)
          observer.disconnect();
        resolve();
      }, PagePerf.PAINT_WAIT_MS);
      try {
        observer = new PerformanceObserver(() => {
          if (performance.getEntriesByName('first-contentful-paint').length > 0) {
            clearTimeout(timer);
            observer.disconnect();
            resolve();
          }
        });
        observer.observe({ type: 'paint' });
      } catch {
        // No paint entries: the timer answers.
      }
    });
  },

  // The resource type an agent filters by, as browser_network names them.
  resourceType (entry) {
    const initiator = entry.initiatorType;
    let path = '';
    try {
      path = new URL(entry.name).pathname.toLowerCase();
    } catch {
      // Not a URL: the initiator decides.
    }
    if (initiator === 'fetch' || initiator === 'xmlhttprequest' || initiator === 'beacon')
      return 'fetch';
    if (initiator === 'img' || initiator === 'image' ||
        /\.(png|jpe?g|gif|webp|avif|svg|ico|bmp)$/.test(path))
      return 'image';
    if (/\.(woff2?|ttf|otf|eot)$/.test(path))
      return 'font';
    if (initiator === 'script' || /\.m?js$/.test(path))
      return 'script';
    if (/\.css$/.test(path) || (initiator === 'link' && !/\.[a-z0-9]+$/.test(path)))
      return 'stylesheet';
    if (initiator === 'video' || initiator === 'audio' || initiator === 'track')
      return 'media';
    if (initiator === 'iframe' || initiator === 'frame')
      return 'document';
    return 'other';
  },

  describeElement (el) {
    let what = el.localName;
    if (el.id)
      what += '#' + el.id;
    if (el.localName === 'img') {
      const src = el.currentSrc || el.src;
      if (src)
        what += ' ' + src;
    } else {
      const text = Base.flat(el.textContent);
      if (text)
        what += ' "' + Base.clip(text, 60) + '"';
    }
    return what;
  },

  navigation () {
    const nav = performance.getEntriesByType('navigation')[0];
    if (!nav) {
      const t = performance.timing;
      if (!t || !t.navigationStart)
        return null;
      const at = (v) => (v ? v - t.navigationStart : null);
      return {
        type: null,
        serverResponseMs: at(t.responseStart) !== null && at(t.requestStart) !== null
          ? t.responseStart - t.requestStart : null,
        timeToFirstByteMs: at(t.responseStart),
        domInteractiveMs: at(t.domInteractive),
        domContentLoadedMs: at(t.domContentLoadedEventEnd),
        loadMs: at(t.loadEventEnd),
        redirectCount: null,
        transferSize: null,
        encodedBodySize: null,
      };
    }
    const ms = PagePerf.ms;
    return {
      type: nav.type,
      redirectMs: nav.redirectEnd > 0 ? ms(nav.redirectEnd - nav.redirectStart) : 0,
      dnsMs: ms(nav.domainLookupEnd - nav.domainLookupStart),
      connectMs: ms(nav.connectEnd - nav.connectStart),
      serverResponseMs: ms(nav.responseStart - nav.requestStart),
      timeToFirstByteMs: ms(nav.responseStart),
      downloadMs: ms(nav.responseEnd - nav.responseStart),
      domInteractiveMs: ms(nav.domInteractive),
      domContentLoadedMs: ms(nav.domContentLoadedEventEnd),
      loadMs: nav.loadEventEnd > 0 ? ms(nav.loadEventEnd) : null,
      redirectCount: nav.redirectCount,
      transferSize: nav.transferSize,
      encodedBodySize: nav.encodedBodySize,
    };
  },

  paint () {
    const out = { firstPaintMs: null, firstContentfulPaintMs: null };
    for (const entry of performance.getEntriesByType('paint')) {
      if (entry.name === 'first-paint')
        out.firstPaintMs = PagePerf.ms(entry.startTime);
      else if (entry.name === 'first-contentful-paint')
        out.firstContentfulPaintMs = PagePerf.ms(entry.startTime);
    }
    return out;
  },

  // The part of @el's box (or of its text, for a text block) inside the
  // viewport, in CSS pixels: what Largest Contentful Paint would count.
  visibleArea (el, text = false) {
    let r = el.getBoundingClientRect();
    if (text) {
      const range = document.createRange();
      range.selectNodeContents(el);
      r = range.getBoundingClientRect();
    }
    const w = Math.min(r.right, window.innerWidth) - Math.max(r.left, 0);
    const h = Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0);
    return w > 0 && h > 0 ? w * h : 0;
  },

  visible (el) {
    const s = getComputedStyle(el);
    return s.display !== 'none' && s.visibility === 'visible' && parseFloat(s.opacity) !== 0;
  },

  // The nearest WebKit allows to Largest Contentful Paint: the largest
  // image or text block in the first viewport, painted when its image had
  // arrived, or at the first contentful paint for text.
  largestPaintEstimate (resourcesByUrl, paint) {
    if (window.scrollX !== 0 || window.scrollY !== 0)
      return null;
    let best = null;
    let bestArea = 0;
    for (const img of document.images) {
      const area = PagePerf.visibleArea(img);
      if (area > bestArea && PagePerf.visible(img)) {
        best = img;
        bestArea = area;
      }
    }
    const blocks = document.body
      ? document.body.querySelectorAll('h1, h2, h3, p, li, blockquote, pre, td, figcaption, div')
      : [];
    for (const el of blocks) {
      let ownText = false;
      for (const child of el.childNodes) {
        if (child.nodeType === Node.TEXT_NODE && child.data.trim() !== '') {
          ownText = true;
          break;
        }
      }
      if (!ownText)
        continue;
      const area = PagePerf.visibleArea(el, true);
      if (area > bestArea && PagePerf.visible(el)) {
        best = el;
        bestArea = area;
      }
    }
    if (best === null)
      return null;
    let time = paint.firstContentfulPaintMs;
    if (best.localName === 'img') {
      const entry = resourcesByUrl.get(best.currentSrc || best.src);
      if (entry)
        time = Math.max(time ?? 0, PagePerf.ms(entry.responseEnd));
    }
    let r = best.getBoundingClientRect();
    if (best.localName !== 'img') {
      const range = document.createRange();
      range.selectNodeContents(best);
      r = range.getBoundingClientRect();
    }
    return {
      estimateMs: time,
      element: PagePerf.describeElement(best),
      shownWidth: Math.round(r.width),
      shownHeight: Math.round(r.height),
    };
  },

  resources (entries, maxSlowest) {
    const byType = new Map();
    const total = { count: 0, transferSize: 0, encodedBodySize: 0, decodedBodySize: 0 };
    const list = entries.map((entry) => ({
      url: entry.name,
      type: PagePerf.resourceType(entry),
      startMs: PagePerf.ms(entry.startTime),
      durationMs: PagePerf.ms(entry.duration),
      transferSize: entry.transferSize ?? 0,
      encodedBodySize: entry.encodedBodySize ?? 0,
      decodedBodySize: entry.decodedBodySize ?? 0,
    }));
    for (const item of list) {
      let group = byType.get(item.type);
      if (!group) {
        group = { type: item.type, count: 0, transferSize: 0, encodedBodySize: 0, decodedBodySize: 0 };
        byType.set(item.type, group);
      }
      for (const sum of [group, total]) {
        sum.count++;
        sum.transferSize += item.transferSize;
        sum.encodedBodySize += item.encodedBodySize;
        sum.decodedBodySize += item.decodedBodySize;
      }
    }
    const slowest = list.slice().sort((a, b) => b.durationMs - a.durationMs).slice(0, maxSlowest);
    const types = [...byType.values()].sort((a, b) => b.transferSize - a.transferSize || b.count - a.count);
    return { ...total, byType: types, slowest };
  },

  // Scripts that stop the parser: classic scripts with a src, neither async
  // nor defer, in the head or before the body's first content.
  blockingScripts () {
    const out = [];
    for (const script of document.scripts) {
      if (!script.src || script.async || script.defer || script.type === 'module')
        continue;
      if (script.closest('head') || PagePerf.beforeContent(script))
        out.push(script);
    }
    return out;
  },

  // Whether nothing visible comes before @el in the body.
  beforeContent (el) {
    const body = document.body;
    if (!body || !body.contains(el))
      return false;
    const walker = document.createTreeWalker(body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node === el)
        return true;
      if (node.nodeType === Node.TEXT_NODE && node.data.trim() !== '' &&
          !(node.parentElement && /^(script|style|noscript|template)$/.test(node.parentElement.localName)))
        return false;
      if (node.nodeType === Node.ELEMENT_NODE && /^(img|video|canvas|svg|iframe|input|button)$/.test(node.localName))
        return false;
    }
    return false;
  },

  // Images whose box depends on the image itself: no width and height
  // attributes and no CSS aspect-ratio, so what follows them moves when they
  // arrive.
  unsizedImages () {
    const out = [];
    for (const img of document.images) {
      if (img.hasAttribute('width') && img.hasAttribute('height'))
        continue;
      if (img.style.width && img.style.height)
        continue;
      const s = getComputedStyle(img);
      if (s.display === 'none' || (s.aspectRatio && s.aspectRatio !== 'auto' && !/^auto\s/.test(s.aspectRatio)))
        continue;
      if (s.position === 'absolute' || s.position === 'fixed')
        continue;
      out.push(img);
    }
    return out;
  },

  kb (bytes) {
    if (bytes < 1024)
      return bytes + ' B';
    if (bytes < 1024 * 1024)
      return (bytes / 1024).toFixed(bytes < 10240 ? 1 : 0) + ' kB';
    return (bytes / (1024 * 1024)).toFixed(1) + ' MB';
  },

  findings (nav, resourcesByUrl) {
    const found = [];
    const perKind = new Map();
    const add = (kind, message, extra) => {
      const n = (perKind.get(kind) ?? 0) + 1;
      perKind.set(kind, n);
      if (n <= PagePerf.MAX_PER_KIND)
        found.push({ kind, message, ...extra });
    };

    if (nav && nav.serverResponseMs !== null && nav.serverResponseMs >= PagePerf.SLOW_SERVER_MS)
      add('slow-server-response',
        'Slow server response: the server took ' + nav.serverResponseMs + ' ms to send the first byte of ' +
        location.href + ' (aim for under ' + PagePerf.SLOW_SERVER_MS + ' ms).',
        { url: location.href, ms: nav.serverResponseMs });

    for (const script of PagePerf.blockingScripts()) {
      const entry = resourcesByUrl.get(script.src);
      const cost = entry ? ' (' + PagePerf.ms(entry.duration) + ' ms to load, ' +
        PagePerf.kb(entry.encodedBodySize ?? 0) + ')' : '';
      add('render-blocking-script',
        'Render-blocking script: ' + script.src + cost + ' is loaded without async or defer ' +
        (script.closest('head') ? 'in the head' : 'before the page\'s content') +
        ', so nothing is shown until it has arrived and run.',
        { url: script.src, ms: entry ? PagePerf.ms(entry.duration) : null });
    }

    const dpr = window.devicePixelRatio || 1;
    for (const img of document.images) {
      if (!img.complete || img.naturalWidth === 0)
        continue;
      const r = img.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || !PagePerf.visible(img))
        continue;
      const natural = img.naturalWidth * img.naturalHeight;
      const shown = r.width * r.height * dpr * dpr;
      if (natural < PagePerf.OVERSIZE_FACTOR * shown || natural - shown < PagePerf.OVERSIZE_MIN_PIXELS)
        continue;
      const url = img.currentSrc || img.src;
      const entry = resourcesByUrl.get(url);
      const bytes = entry ? entry.encodedBodySize || entry.transferSize || 0 : 0;
      add('oversized-image',
        'Oversized image: ' + url + ' is ' + img.naturalWidth + '×' + img.naturalHeight +
        (bytes ? ' (' + PagePerf.kb(bytes) + ')' : '') + ' but shown at ' + Math.round(r.width) + '×' +
        Math.round(r.height) + (dpr !== 1 ? ' (device pixel ratio ' + dpr + ')' : '') +
        ': serve it at the size shown (srcset) to save bytes and decoding.',
        { url, naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight,
          shownWidth: Math.round(r.width), shownHeight: Math.round(r.height), bytes });
    }

    for (const img of PagePerf.unsizedImages()) {
      const url = img.currentSrc || img.src;
      add('layout-shift-cause',
        'Likely layout shift: the image ' + (url || PagePerf.describeElement(img)) + ' has no width and ' +
        'height attributes (nor a CSS aspect-ratio), so the content after it moves down when it loads.',
        { url: url || null });
    }

    for (const entry of performance.getEntriesByType('resource')) {
      const type = PagePerf.resourceType(entry);
      if (type !== 'stylesheet' || entry.duration < PagePerf.SLOW_SERVER_MS)
        continue;
      const link = [...document.querySelectorAll('link[rel~="stylesheet"]')].find((l) => l.href === entry.name);
      if (link && !link.media.match(/print/))
        add('render-blocking-stylesheet',
          'Slow render-blocking stylesheet: ' + entry.name + ' took ' + PagePerf.ms(entry.duration) +
          ' ms; the page is not shown until it has arrived.',
          { url: entry.name, ms: PagePerf.ms(entry.duration) });
    }

    for (const [kind, n] of perKind) {
      if (n > PagePerf.MAX_PER_KIND)
        found.push({ kind, message: 'And ' + (n - PagePerf.MAX_PER_KIND) + ' more of the kind ' + kind + '.', url: null });
    }
    return found.slice(0, PagePerf.MAX_FINDINGS);
  },

  async report (ctx, args) {
    await PagePerf.waitForPaint();
    const supported = typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes
      ? [...PerformanceObserver.supportedEntryTypes] : [];
    const entries = performance.getEntriesByType('resource');
    const resourcesByUrl = new Map(entries.map((entry) => [entry.name, entry]));
    const nav = PagePerf.navigation();
    const paint = PagePerf.paint();
    const notMeasured = (type) => (supported.includes(type) ? null : 'WebKit gives no ' + type + ' entries');
    const maxSlowest = Number.isInteger(args.maxResources) ? args.maxResources : PagePerf.DEFAULT_SLOWEST;

    const lcp = { measured: false, reason: notMeasured('largest-contentful-paint'), estimate: null };
    if (supported.includes('largest-contentful-paint')) {
      const last = performance.getEntriesByType('largest-contentful-paint').pop();
      lcp.measured = last !== undefined;
      lcp.ms = last ? PagePerf.ms(last.startTime) : null;
    }
    lcp.estimate = PagePerf.largestPaintEstimate(resourcesByUrl, paint);

    const findings = PagePerf.findings(nav, resourcesByUrl);
    return {
      url: location.href,
      title: document.title,
      reloaded: args.reloaded === true,
      supportedEntryTypes: supported,
      navigation: nav,
      paint,
      largestContentfulPaint: lcp,
      cumulativeLayoutShift: {
        measured: false,
        reason: notMeasured('layout-shift'),
        likelyCauses: PagePerf.unsizedImages().length,
      },
      interactionToNextPaint: { measured: false, reason: notMeasured('event') },
      longTasks: { measured: false, reason: notMeasured('longtask') },
      resources: PagePerf.resources(entries, maxSlowest),
      findings,
    };
  },
};

Api.register('performance.report', PagePerf.report);
