// SPDX-License-Identifier: GPL-3.0-or-later
//
// Runs in the page's own world of every frame, before any script of the
// page, when the web-process extension sees the window object cleared. It
// wraps the console methods and listens for uncaught exceptions, and tells
// the extension, through the one native function it is given, every
// argument of each call as JSON and the stack that made it. The extension
// pairs that with the console message WebKit reports right after, so the
// page can neither forge a message (WebKit's report stays the truth) nor
// reach the native function (it lives only in this closure). Nothing is
// left on the page's globals but the wrapped console methods.
//
// WebKit reports no console messages from pages of private (ephemeral)
// sessions. There, selfReport is true and the hook's report is the message:
// it also gives the text WebKit would have given, and an uncaught exception
// goes out once the page could no longer cancel it.
//
// The page may change any prototype once it runs, so everything used here
// is taken now, while the world is pristine, and page getters are never
// called: accessors show as "[Getter]".
(function (report, selfReport) {
  'use strict';

  const G = globalThis;
  const target = G.console;
  if (!target)
    return;

  const R = G.Reflect;
  const apply = R.apply;
  const ownKeys = R.ownKeys;
  const getDesc = R.getOwnPropertyDescriptor;
  const getProto = R.getPrototypeOf;
  const defineProp = R.defineProperty;
  const isArray = G.Array.isArray;
  const quote = G.JSON.stringify;
  const StringFn = G.String;
  const ErrorCtor = G.Error;
  const NumberIsFinite = G.Number.isFinite;
  const ObjectProto = G.Object.prototype;
  const uncurry = (f) => (self, ...args) => apply(f, self, args);
  const tagOf = uncurry(ObjectProto.toString);
  const hasOwn = uncurry(ObjectProto.hasOwnProperty);
  const push = uncurry(G.Array.prototype.push);
  const join = uncurry(G.Array.prototype.join);
  const pop = uncurry(G.Array.prototype.pop);
  const includes = uncurry(G.Array.prototype.includes);
  const unshift = uncurry(G.Array.prototype.unshift);
  const strSlice = uncurry(G.String.prototype.slice);
  const dateIso = uncurry(G.Date.prototype.toISOString);
  const symbolToString = uncurry(G.Symbol.prototype.toString);
  const bigintToString = uncurry(G.BigInt.prototype.toString);
  const getter = (proto, name) => {
    const d = proto ? getDesc(proto, name) : undefined;
    return d && d.get ? uncurry(d.get) : null;
  };
  const nodeTypeOf = G.Node ? getter(G.Node.prototype, 'nodeType') : null;
  const nodeNameOf = G.Node ? getter(G.Node.prototype, 'nodeName') : null;
  const localNameOf = G.Element ? getter(G.Element.prototype, 'localName') : null;
  const idOf = G.Element ? getter(G.Element.prototype, 'id') : null;
  const classOf = G.Element ? getter(G.Element.prototype, 'className') : null;
  const errMessage = G.ErrorEvent ? getter(G.ErrorEvent.prototype, 'message') : null;
  const errError = G.ErrorEvent ? getter(G.ErrorEvent.prototype, 'error') : null;
  const errFile = G.ErrorEvent ? getter(G.ErrorEvent.prototype, 'filename') : null;
  const errLine = G.ErrorEvent ? getter(G.ErrorEvent.prototype, 'lineno') : null;
  const errCol = G.ErrorEvent ? getter(G.ErrorEvent.prototype, 'colno') : null;
  const rejReason = G.PromiseRejectionEvent ? getter(G.PromiseRejectionEvent.prototype, 'reason') : null;
  const listen = G.EventTarget ? uncurry(G.EventTarget.prototype.addEventListener) : null;
  const defaultPrevented = G.Event ? getter(G.Event.prototype, 'defaultPrevented') : null;
  const later = G.setTimeout;

  const MAX_DEPTH = 4;
  const MAX_KEYS = 50;
  const MAX_STRING = 2000;
  const MAX_TOTAL = 16000;

  // A data property's value; accessors are never called. The answers have
  // no prototype, so a getter the page puts on Object.prototype cannot
  // stand in for a missing member.
  const dataValue = (object, key) => {
    const d = getDesc(object, key);
    if (!d)
      return { __proto__: null, found: false };
    if (hasOwn(d, 'value'))
      return { __proto__: null, found: true, value: d.value };
    return { __proto__: null, found: true, accessor: true };
  };

  const str = (s) => quote(s.length > MAX_STRING ? strSlice(s, 0, MAX_STRING) + '…' : s);

  const describeNode = (v) => {
    const type = nodeTypeOf(v);
    if (type !== 1)
      return '[' + nodeNameOf(v) + ']';
    let text = '<' + localNameOf(v);
    const id = idOf(v);
    if (id)
      text += ' id="' + id + '"';
    const cls = classOf(v);
    if (typeof cls === 'string' && cls)
      text += ' class="' + cls + '"';
    return text + '>';
  };

  // One value as JSON text. Values JSON cannot hold become strings in
  // brackets, the way a console shows them: "[undefined]", "[Function f]".
  const serialize = (value, depth, seen, budget) => {
    if (budget.left <= 0)
      return '"…"';
    let out;
    switch (typeof value) {
    case 'string':
      out = str(value);
      break;
    case 'number':
      out = NumberIsFinite(value) ? StringFn(value) : quote('[' + StringFn(value) + ']');
      break;
    case 'boolean':
      out = value ? 'true' : 'false';
      break;
    case 'undefined':
      out = '"[undefined]"';
      break;
    case 'bigint':
      out = quote('[' + bigintToString(value) + 'n]');
      break;
    case 'symbol':
      out = quote('[' + symbolToString(value) + ']');
      break;
    case 'function': {
      const name = dataValue(value, 'name');
      out = quote('[Function ' + (typeof name.value === 'string' && name.value ? name.value : '(anonymous)') + ']');
      break;
    }
    default:
      out = value === null ? 'null' : serializeObject(value, depth, seen, budget);
    }
    budget.left -= out.length;
    return out;
  };

  const serializeObject = (value, depth, seen, budget) => {
    if (includes(seen, value))
      return '"[Circular]"';
    if (nodeTypeOf) {
      try {
        nodeTypeOf(value);
        return quote(describeNode(value));
      } catch (e) {
        // Not a node.
      }
    }
    const tag = tagOf(value);
    if (tag === '[object Date]') {
      try {
        return quote(dateIso(value));
      } catch (e) {
        return '"[Invalid Date]"';
      }
    }
    if (tag === '[object Error]') {
      const name = dataValue(value, 'name');
      const proto = getProto(value);
      const protoName = proto ? dataValue(proto, 'name') : { found: false };
      const message = dataValue(value, 'message');
      const stack = dataValue(value, 'stack');
      let text = '{"name":' + str(StringFn(name.value ?? protoName.value ?? 'Error')) +
        ',"message":' + str(typeof message.value === 'string' ? message.value : '');
      if (typeof stack.value === 'string')
        text += ',"stack":' + str(stack.value);
      return text + '}';
    }
    if (depth >= MAX_DEPTH)
      return quote(isArray(value) ? '[Array]' : '[Object]');

    push(seen, value);
    let out;
    if (isArray(value)) {
      const length = dataValue(value, 'length').value >>> 0;
      const parts = [];
      for (let i = 0; i < length && i < MAX_KEYS; i++) {
        const item = dataValue(value, i);
        push(parts, item.accessor ? '"[Getter]"' : serialize(item.value, depth + 1, seen, budget));
        if (budget.left <= 0)
          break;
      }
      if (length > parts.length)
        push(parts, quote('… ' + (length - parts.length) + ' more'));
      out = '[' + join(parts, ',') + ']';
    } else {
      const keys = ownKeys(value);
      const parts = [];
      let shown = 0;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (typeof key !== 'string')
          continue;
        const d = getDesc(value, key);
        if (!d || !d.enumerable)
          continue;
        if (shown++ >= MAX_KEYS) {
          push(parts, '"…":"more keys"');
          break;
        }
        push(parts, str(key) + ':' + (hasOwn(d, 'value') ? serialize(d.value, depth + 1, seen, budget) : '"[Getter]"'));
        if (budget.left <= 0)
          break;
      }
      if (tag !== '[object Object]')
        unshift(parts, '"[class]":' + quote(strSlice(tag, 8, -1)));
      out = '{' + join(parts, ',') + '}';
    }
    pop(seen);
    return out;
  };

  const serializeAll = (values, from) => {
    const budget = { __proto__: null, left: MAX_TOTAL };
    const parts = [];
    for (let i = from; i < values.length; i++) {
      let text;
      try {
        text = serialize(values[i], 0, [], budget);
      } catch (e) {
        text = '"[unreadable]"';
      }
      push(parts, text);
    }
    return '[' + join(parts, ',') + ']';
  };

  const stackNow = () => {
    try {
      const s = dataValue(new ErrorCtor(), 'stack').value;
      return typeof s === 'string' ? s : '';
    } catch (e) {
      return '';
    }
  };

  // A page getter or Proxy trap may log while its value is being read; that
  // nested message goes out without details rather than recurse.
  let busy = false;
  const tell = (kind, level, args, stack, line, text, url) => {
    try {
      report(kind, level, args, stack, line, text || '', url || '');
    } catch (e) {
      // The extension is gone; the page keeps working.
    }
  };

  // The text WebKit gives a message: its first argument as a string. Only
  // for private pages, and without running page code: objects show their
  // class, errors their name and message.
  const textOf = (value, depth) => {
    switch (typeof value) {
    case 'string':
      return value;
    case 'undefined':
      return 'undefined';
    case 'symbol':
      return symbolToString(value);
    case 'bigint':
      return bigintToString(value);
    case 'number':
    case 'boolean':
      return StringFn(value);
    default:
      break;
    }
    if (value === null)
      return 'null';
    const tag = tagOf(value);
    if (tag === '[object Error]') {
      const name = dataValue(value, 'name');
      const proto = getProto(value);
      const protoName = proto ? dataValue(proto, 'name') : { found: false };
      const message = dataValue(value, 'message');
      const shown = StringFn(typeof name.value === 'string' ? name.value
        : typeof protoName.value === 'string' ? protoName.value : 'Error');
      const said = typeof message.value === 'string' ? message.value : '';
      return said ? shown + ': ' + said : shown;
    }
    if (isArray(value) && depth < 2) {
      const length = dataValue(value, 'length').value >>> 0;
      const parts = [];
      for (let i = 0; i < length && i < MAX_KEYS; i++) {
        const item = dataValue(value, i);
        push(parts, item.accessor || item.value === undefined || item.value === null
          ? '' : textOf(item.value, depth + 1));
      }
      return strSlice(join(parts, ','), 0, MAX_TOTAL);
    }
    return tag;
  };

  // WebKit reports a console call only when it has a first argument to
  // show (after an assertion's condition): console.trace() alone reports
  // nothing. null: nothing to report.
  const messageText = (name, args) => {
    const first = name === 'assert' ? 1 : 0;
    return args.length > first ? textOf(args[first], 0) : null;
  };

  // Private pages: the uncaught exception or rejection told last, until the
  // page can no longer cancel it (its event is over) or something else is
  // told, whichever comes first, so the order of messages holds.
  let pending = null;
  const flush = () => {
    const p = pending;
    pending = null;
    if (p === null)
      return;
    try {
      if (defaultPrevented && defaultPrevented(p.event))
        return;
    } catch (e) {
      return;
    }
    tell('exception', 'error', p.args, p.stack, p.line, p.text, p.url);
  };
  const hold = (event, args, stack, line, text, url) => {
    flush();
    pending = { __proto__: null, event, args, stack, line, text, url };
    try {
      apply(later, G, [flush, 0]);
    } catch (e) {
      flush();
    }
  };

  const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'dirxml', 'table', 'assert'];
  for (let i = 0; i < methods.length; i++) {
    const name = methods[i];
    const original = target[name];
    if (typeof original !== 'function')
      continue;
    const wrapper = ({
      [name] (...args) {
        if (busy)
          return apply(original, this, args);
        // A passing assertion logs nothing.
        if (name === 'assert' && args[0])
          return apply(original, this, args);
        busy = true;
        let told = false;
        try {
          const text = selfReport ? messageText(name, args) : '';
          if (selfReport)
            flush();
          if (text !== null) {
            tell('console', name, serializeAll(args, name === 'assert' ? 1 : 0), stackNow(), 0, text);
            told = true;
          }
        } finally {
          busy = false;
        }
        try {
          return apply(original, this, args);
        } finally {
          if (told)
            tell('end', name, '', '', 0);
        }
      },
    })[name];
    defineProp(target, name, { value: wrapper, writable: true, configurable: true, enumerable: true });
  }

  // Request bodies: WebKit's API gives the UI process a request's headers
  // but never its body, so fetch() and XMLHttpRequest.send() describe the
  // body they send. The page could send a body another way (a form, a
  // beacon); those requests simply show none.
  const MAX_BODY = 65536;
  const URLCtor = G.URL;
  const hrefOf = URLCtor ? getter(URLCtor.prototype, 'href') : null;
  const baseOf = G.Node ? getter(G.Node.prototype, 'baseURI') : null;
  const upper = uncurry(G.String.prototype.toUpperCase);
  const paramsToString = G.URLSearchParams ? uncurry(G.URLSearchParams.prototype.toString) : null;
  const formEntries = G.FormData ? uncurry(G.FormData.prototype.entries) : null;
  const blobSize = G.Blob ? getter(G.Blob.prototype, 'size') : null;
  const blobType = G.Blob ? getter(G.Blob.prototype, 'type') : null;
  const fileName = G.File ? getter(G.File.prototype, 'name') : null;
  const bufferLength = G.ArrayBuffer ? getter(G.ArrayBuffer.prototype, 'byteLength') : null;
  const isView = G.ArrayBuffer ? G.ArrayBuffer.isView : null;
  const viewLength = G.DataView ? getter(getProto(G.Uint8Array.prototype), 'byteLength') : null;
  const dataViewLength = G.DataView ? getter(G.DataView.prototype, 'byteLength') : null;
  const iterNext = formEntries && G.FormData ? (() => {
    try {
      return uncurry(getProto(formEntries(new G.FormData())).next);
    } catch (e) {
      return null;
    }
  })() : null;
  const requestUrl = G.Request ? getter(G.Request.prototype, 'url') : null;
  const requestMethod = G.Request ? getter(G.Request.prototype, 'method') : null;

  const absolute = (url) => {
    try {
      return hrefOf(new URLCtor(StringFn(url), baseOf(G.document)));
    } catch (e) {
      return StringFn(url);
    }
  };

  const describeBody = (body) => {
    if (body === undefined || body === null)
      return '';
    if (typeof body === 'string')
      return body.length > MAX_BODY ? strSlice(body, 0, MAX_BODY) + '…' : body;
    try {
      return paramsToString(body);
    } catch (e) {
      // Not URLSearchParams.
    }
    try {
      blobSize(body);
      let name = '';
      try {
        name = ' ' + quote(fileName(body));
      } catch (e) {
        // A Blob, not a File.
      }
      return '[' + (name ? 'File' : 'Blob') + name + ', ' + blobSize(body) + ' bytes, ' +
        (blobType(body) || 'no type') + ']';
    } catch (e) {
      // Not a Blob.
    }
    if (iterNext) {
      try {
        const it = formEntries(body);
        const parts = [];
        for (let step = iterNext(it); !step.done && parts.length < MAX_KEYS; step = iterNext(it)) {
          const name = step.value[0];
          const value = step.value[1];
          push(parts, typeof value === 'string' ? name + '=' + value : name + '=' + describeBody(value));
        }
        return '[FormData] ' + join(parts, '&');
      } catch (e) {
        // Not FormData.
      }
    }
    try {
      return '[binary, ' + bufferLength(body) + ' bytes]';
    } catch (e) {
      // Not an ArrayBuffer.
    }
    try {
      if (isView(body))
        return '[binary, ' + (tagOf(body) === '[object DataView]' ? dataViewLength(body) : viewLength(body)) + ' bytes]';
    } catch (e) {
      // Not a view.
    }
    return '[' + strSlice(tagOf(body), 8, -1) + ' body]';
  };

  const tellBody = (method, url, body) => {
    let text;
    try {
      text = describeBody(body);
    } catch (e) {
      text = '[unreadable body]';
    }
    if (text !== '')
      tell('request', upper(StringFn(method || 'GET')), absolute(url), text, 0);
  };

  // Response bodies of fetch() and XMLHttpRequest: WebKit keeps no copy of
  // them that its API can give (they bypass its memory cache), so the hook
  // reads the text the page itself received. Text types only.
  const MAX_RESPONSE = 4 * 1024 * 1024;
  const textual = /^(text\/|application\/([a-z.+-]*\+)?(json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql))/i;
  const test = uncurry(G.RegExp.prototype.exec);
  const tellResponse = (method, url, type, text) => {
    if (typeof text !== 'string' || typeof type !== 'string' || test(textual, type) === null)
      return;
    tell('response', upper(StringFn(method || 'GET')), absolute(url),
         text.length > MAX_RESPONSE ? strSlice(text, 0, MAX_RESPONSE) : text, 0);
  };
  const then = uncurry(G.Promise.prototype.then);
  const Resp = G.Response ? G.Response.prototype : null;
  const respClone = Resp ? uncurry(Resp.clone) : null;
  const respText = Resp ? uncurry(Resp.text) : null;
  const respUrl = Resp ? getter(Resp, 'url') : null;
  const respHeaders = Resp ? getter(Resp, 'headers') : null;
  const headersGet = G.Headers ? uncurry(G.Headers.prototype.get) : null;

  if (G.XMLHttpRequest && G.WeakMap) {
    const proto = G.XMLHttpRequest.prototype;
    const open = proto.open;
    const send = proto.send;
    const opened = new G.WeakMap();
    const xhrProto = G.XMLHttpRequest.prototype;
    const xhrType = getter(xhrProto, 'responseType');
    const xhrText = getter(xhrProto, 'responseText');
    const xhrUrl = getter(xhrProto, 'responseURL');
    const xhrHeader = uncurry(xhrProto.getResponseHeader);
    const mapSet = uncurry(G.WeakMap.prototype.set);
    const mapGet = uncurry(G.WeakMap.prototype.get);
    defineProp(proto, 'open', {
      value: ({ open (...args) {
        try {
          mapSet(opened, this, { __proto__: null, method: args[0], url: args[1] });
        } catch (e) {
          // Not an XMLHttpRequest: the engine's open() says so below.
        }
        return apply(open, this, args);
      } }).open,
      writable: true, configurable: true, enumerable: true,
    });
    defineProp(proto, 'send', {
      value: ({ send (...args) {
        try {
          const request = mapGet(opened, this);
          if (request && args.length > 0)
            tellBody(request.method, request.url, args[0]);
          if (request) {
            const xhr = this;
            listen(xhr, 'loadend', () => {
              try {
                const type = xhrType(xhr);
                if (type === '' || type === 'text')
                  tellResponse(request.method, xhrUrl(xhr), xhrHeader(xhr, 'Content-Type'), xhrText(xhr));
              } catch (e) {
                // No body to read.
              }
            });
          }
        } catch (e) {
          // Leave the request without a body.
        }
        return apply(send, this, args);
      } }).send,
      writable: true, configurable: true, enumerable: true,
    });
  }

  if (typeof G.fetch === 'function') {
    const fetch = G.fetch;
    defineProp(G, 'fetch', {
      value: ({ fetch (...args) {
        try {
          const input = args[0];
          const init = args[1];
          let url = input;
          let method = 'GET';
          try {
            url = requestUrl(input);
            method = requestMethod(input);
          } catch (e) {
            // A URL, not a Request.
          }
          if (init !== null && typeof init === 'object') {
            const m = dataValue(init, 'method');
            if (typeof m.value === 'string')
              method = m.value;
            const b = dataValue(init, 'body');
            if (b.found && !b.accessor)
              tellBody(method, url, b.value);
          }
        } catch (e) {
          // Leave the request without a body.
        }
        const result = apply(fetch, this, args);
        try {
          let method = 'GET';
          try {
            method = requestMethod(args[0]);
          } catch (e) {
            // A URL, not a Request.
          }
          const init = args[1];
          if (init !== null && typeof init === 'object') {
            const m = dataValue(init, 'method');
            if (typeof m.value === 'string')
              method = m.value;
          }
          then(result, (response) => {
            try {
              const headers = respHeaders(response);
              const type = headersGet(headers, 'Content-Type');
              // A stream that never ends (server-sent events, long polls)
              // would be buffered for good by the copy: leave those out, and
              // bodies that announce themselves larger than is kept.
              const length = headersGet(headers, 'Content-Length');
              if (typeof type !== 'string' || test(textual, type) === null ||
                  test(/event-stream/i, type) !== null ||
                  (length !== null && +length > MAX_RESPONSE))
                return;
              const url = respUrl(response);
              then(respText(respClone(response)), (text) => tellResponse(method, url, type, text), () => {});
            } catch (e) {
              // A body already used, or none.
            }
          }, () => {});
        } catch (e) {
          // Leave the response without a body.
        }
        return result;
      } }).fetch,
      writable: true, configurable: true, enumerable: true,
    });
  }

  if (!listen)
    return;

  // Uncaught exceptions: the engine fires "error" at the window first, then
  // logs the message unless the page cancelled the event. Listening first,
  // in the capture phase, nothing the page does can hide the event from us.
  if (errMessage) {
    listen(G, 'error', (event) => {
      let message;
      try {
        if (!event.isTrusted)
          return;
        message = errMessage(event);
      } catch (e) {
        return;  // Not an ErrorEvent: a resource that failed to load.
      }
      if (busy)
        return;
      busy = true;
      try {
        const error = errError(event);
        let stack = '';
        if (error !== null && typeof error === 'object') {
          const s = dataValue(error, 'stack').value;
          if (typeof s === 'string')
            stack = s;
        }
        const top = '@' + errFile(event) + ':' + errLine(event) + ':' + errCol(event);
        stack = stack ? stack : top;
        const args = serializeAll([error === undefined ? message : error], 0);
        if (selfReport)
          hold(event, args, stack, errLine(event) | 0, StringFn(message), StringFn(errFile(event)));
        else
          tell('exception', 'error', args, stack, errLine(event) | 0);
      } catch (e) {
        // Leave the message without details.
      } finally {
        busy = false;
      }
    }, true);
  }

  if (rejReason) {
    listen(G, 'unhandledrejection', (event) => {
      try {
        // WebKit dispatches its own unhandledrejection events untrusted.
        // Where the hook's report is the message (private pages), they
        // must count: a page could then make up such a message, as it
        // could with console.error().
        if ((!selfReport && !event.isTrusted) || busy)
          return;
      } catch (e) {
        return;
      }
      busy = true;
      try {
        const reason = rejReason(event);
        let stack = '';
        if (reason !== null && typeof reason === 'object') {
          const s = dataValue(reason, 'stack').value;
          if (typeof s === 'string')
            stack = s;
        }
        const args = serializeAll([reason], 0);
        if (selfReport)
          hold(event, args, stack, 0, 'Unhandled Promise Rejection: ' + textOf(reason, 0), '');
        else
          tell('exception', 'error', args, stack, 0);
      } catch (e) {
        // Leave the message without details.
      } finally {
        busy = false;
      }
    }, true);
  }
})
