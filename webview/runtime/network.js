// SPDX-License-Identifier: GPL-3.0-or-later
//
// What browser_network's request detail (webview/tw-tab-network.c) reads of
// the page: the Resource Timing of one URL, the phases as the page's own
// performance timeline measured them. Cross-origin entries without
// Timing-Allow-Origin have zeros, which come out as null.

const Network = {
  tenth (ms) {
    return Math.round(ms * 10) / 10;
  },

  span (a, b) {
    return (a > 0 && b >= a) ? Network.tenth(b - a) : null;
  },

  // The last entry of args.url, or null when the page has none.
  timing (ctx, args) {
    const list = performance.getEntriesByName(args.url);
    const t = list.length ? list[list.length - 1] : null;
    if (!t)
      return null;
    const span = Network.span;
    return {
      startMs: Network.tenth(t.startTime),
      redirectMs: span(t.redirectStart, t.redirectEnd),
      dnsMs: span(t.domainLookupStart, t.domainLookupEnd),
      connectMs: span(t.connectStart, t.connectEnd),
      tlsMs: t.secureConnectionStart > 0 ? span(t.secureConnectionStart, t.connectEnd) : null,
      waitingMs: span(t.requestStart, t.responseStart),
      downloadMs: span(t.responseStart, t.responseEnd),
      totalMs: Network.tenth(t.duration),
      transferSize: t.transferSize,
      encodedBodySize: t.encodedBodySize,
      decodedBodySize: t.decodedBodySize,
      protocol: t.nextHopProtocol || null,
    };
  },
};

Api.register('network.timing', Network.timing);
