// SPDX-License-Identifier: GPL-3.0-or-later
//
// browser_route in the page's own world: the requests the page makes with
// fetch() and XMLHttpRequest that match a route are answered here, never
// sent (fulfill: the route's status, headers and body, as if the server had
// sent them; abort: a network error), or sent with changed request headers
// (continue). The page's other loads (documents, images, scripts, style
// sheets) are routed by the tab and the web-process extension
// (webview/tw-tab-routes.h); fetch() and XMLHttpRequest are answered here,
// where the answer can carry the URL the page asked for.
//
// It is a function expression, called with the tab's routes ([{id,
// pattern (a RegExp source over the full URL), method, action, status,
// statusText, headers, body64, setHeaders}]) and false at the start of
// every document of a tab that has routes (a user script in every frame),
// and with the new routes and true in the main frame when they change.
// Each request a route answers is told to the tab through the
// "tabwrightRoute" message handler: {id, method, url}. Its third
// argument is each-frame.js.

(function (routes, announce, eachFrame) {
  const key = Symbol.for('tabwright.routes');
  const NULL_BODY = new Set([101, 204, 205, 304]);
  const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type',
    'expires', 'last-modified', 'pragma']);

  function install(win) {
    if (Object.prototype.hasOwnProperty.call(win, key))
      return win[key];

    const self = { routes: [] };
    Object.defineProperty(win, key, { value: self });
    const originalFetch = win.fetch;
    const XHR = win.XMLHttpRequest.prototype;
    const original = { open: XHR.open, send: XHR.send, setRequestHeader: XHR.setRequestHeader, abort: XHR.abort };
    const xhrs = new WeakMap();   // XMLHttpRequest -> { method, url, headers }

    function find(method, url) {
      return self.routes.find((route) => (!route.method || route.method === method) && route.regex.test(url));
    }

    function tell(route, method, url) {
      try {
        win.webkit.messageHandlers.tabwrightRoute.postMessage({ id: route.id, method, url });
      } catch {
        // A frame whose handler is gone: the answer still counts for the page.
      }
    }

    function bytes(route) {
      const text = win.atob(route.body64 || '');
      const out = new Uint8Array(text.length);
      for (let i = 0; i < text.length; i++)
        out[i] = text.charCodeAt(i);
      return out;
    }

    // What the page may see of the route's headers. A response to another
    // origin is checked and filtered as a browser does: an
    // Access-Control-Allow-Origin the route gives must allow the page (one
    // it leaves out allows it), and only the CORS-safelisted headers and
    // those of Access-Control-Expose-Headers show.
    function visibleHeaders(route, url) {
      if (new win.URL(url).origin === win.location.origin)
        return { headers: route.headers, type: 'basic' };
      const lower = Object.fromEntries(Object.entries(route.headers).map(([n, v]) => [n.toLowerCase(), v]));
      const allowed = lower['access-control-allow-origin'];
      if (allowed !== undefined && allowed !== '*' && allowed !== win.location.origin)
        return null;
      const exposed = new Set((lower['access-control-expose-headers'] || '').split(',').map((n) => n.trim().toLowerCase()));
      const headers = {};
      for (const [name, value] of Object.entries(route.headers)) {
        if (SAFELISTED.has(name.toLowerCase()) || exposed.has(name.toLowerCase()) || exposed.has('*'))
          headers[name] = value;
      }
      return { headers, type: 'cors' };
    }

    function mockedResponse(route, url) {
      const visible = visibleHeaders(route, url);
      if (!visible)
        return null;
      const response = new win.Response(NULL_BODY.has(route.status) ? null : bytes(route), {
        status: route.status, statusText: route.statusText, headers: visible.headers,
      });
      Object.defineProperty(response, 'url', { value: url });
      Object.defineProperty(response, 'type', { value: visible.type });
      return response;
    }

    win.fetch = function fetch(input, init) {
      let request;
      try {
        request = new win.Request(input, init);
      } catch {
        return originalFetch.apply(this, arguments);
      }
      const route = find(request.method, request.url);
      if (!route)
        return originalFetch.apply(this, arguments);
      tell(route, request.method, request.url);
      if (route.action === 'abort')
        return Promise.reject(new win.TypeError('Load failed'));
      if (route.action === 'continue') {
        const headers = new win.Headers(request.headers);
        for (const [name, value] of Object.entries(route.setHeaders))
          headers.set(name, value);
        return originalFetch.call(this, new win.Request(request, { headers }));
      }
      const response = mockedResponse(route, request.url);
      return response ? Promise.resolve(response) : Promise.reject(new win.TypeError('Load failed'));
    };

    XHR.open = function open(method, url, ...rest) {
      let absolute = String(url);
      try {
        absolute = new win.URL(absolute, win.document.baseURI).href;
      } catch {
        // open() itself reports the bad URL.
      }
      xhrs.set(this, { method: String(method).toUpperCase(), url: absolute, async: rest.length === 0 || rest[0] !== false });
      return original.open.call(this, method, url, ...rest);
    };

    function answer(xhr, route, url) {
      const visible = route.action === 'fulfill' ? visibleHeaders(route, url) : null;
      const fulfilled = visible !== null;
      const text = fulfilled && !NULL_BODY.has(route.status) ? new win.TextDecoder().decode(bytes(route)) : '';
      const headers = fulfilled ? visible.headers : {};
      const lower = Object.fromEntries(Object.entries(headers).map(([n, v]) => [n.toLowerCase(), v]));
      let state = 1;
      let parsed;
      const define = (name, get) => Object.defineProperty(xhr, name, { configurable: true, get });
      define('readyState', () => state);
      define('status', () => (state >= 2 && fulfilled ? route.status : 0));
      define('statusText', () => (state >= 2 && fulfilled ? route.statusText : ''));
      define('responseURL', () => (state >= 2 && fulfilled ? url : ''));
      define('responseText', () => (state >= 3 ? text : ''));
      define('response', () => {
        if (state < 4)
          return xhr.responseType === '' || xhr.responseType === 'text' ? (state >= 3 ? text : '') : null;
        if (xhr.responseType === 'json') {
          if (parsed === undefined) {
            try {
              parsed = JSON.parse(text);
            } catch {
              parsed = null;
            }
          }
          return parsed;
        }
        if (xhr.responseType === 'arraybuffer')
          return bytes(route).buffer;
        if (xhr.responseType === 'blob')
          return new win.Blob([bytes(route)], { type: lower['content-type'] || '' });
        return text;
      });
      Object.defineProperty(xhr, 'getResponseHeader', { configurable: true,
        value: (name) => (state >= 2 && String(name).toLowerCase() in lower ? lower[String(name).toLowerCase()] : null) });
      Object.defineProperty(xhr, 'getAllResponseHeaders', { configurable: true,
        value: () => (state >= 2 ? Object.entries(lower).map(([n, v]) => `${n}: ${v}\r\n`).join('') : '') });

      const fire = (type) => xhr.dispatchEvent(new win.Event(type));
      const progress = (type) =>
        xhr.dispatchEvent(new win.ProgressEvent(type, { lengthComputable: true, loaded: text.length, total: text.length }));
      const finish = () => {
        if (fulfilled) {
          state = 2;
          fire('readystatechange');
          state = 3;
          fire('readystatechange');
          progress('progress');
          state = 4;
          fire('readystatechange');
          progress('load');
          progress('loadend');
        } else {
          state = 4;
          fire('readystatechange');
          progress('error');
          progress('loadend');
        }
      };
      progress('loadstart');
      // As the network would: after send() has returned.
      win.setTimeout(finish, 0);
    }

    XHR.setRequestHeader = function setRequestHeader(name, value) {
      const info = xhrs.get(this);
      if (info)
        (info.headers ||= []).push([name, value]);
      return original.setRequestHeader.call(this, name, value);
    };

    XHR.send = function send(body) {
      const info = xhrs.get(this);
      const route = info && info.async ? find(info.method, info.url) : undefined;
      if (!route)
        return original.send.apply(this, arguments);
      tell(route, info.method, info.url);
      if (route.action === 'continue') {
        for (const [name, value] of Object.entries(route.setHeaders))
          original.setRequestHeader.call(this, name, value);
        return original.send.apply(this, arguments);
      }
      return answer(this, route, info.url);
    };

    return self;
  }

  function set(win) {
    install(win).routes = routes.map((route) => ({ ...route, regex: new RegExp(route.pattern) }));
  }

  eachFrame(window, announce, set);
  return { routes: routes.length };
})
