// SPDX-License-Identifier: GPL-3.0-or-later
//
// browser_evaluate's helper in the page's own world. Not part of the
// isolated runtime of webview/runtime/: the agent's function must see the
// page's globals, so it runs where page scripts run, and everything it
// returns has to be carried out of that world by code the page could have
// tampered with. This file is a function expression, evaluated once when
// the document starts (before any page script, as a user script, bound to a
// global lexical name that is secret and cannot be reassigned), and again in
// a document where that did not happen. It captures the built-ins it uses
// at that moment and never looks them up again: no method call on a page
// object, no JSON.stringify of an object, no Array.prototype.push, no
// iterator, no toJSON found through Object.prototype or Array.prototype.
// The result is written as JSON text by string concatenation.
//
// One lookup is WebKit's own: it waits for the promise the call returns by
// calling its then, so a page that replaced Promise.prototype.then breaks
// browser_evaluate (the call fails; it never returns a wrong value).

(() => {
  'use strict';
  const G = globalThis;
  const apply = Reflect.apply;
  const keys = Object.keys;
  const gopd = Object.getOwnPropertyDescriptor;
  const getProto = Object.getPrototypeOf;
  const freeze = Object.freeze;
  const create = Object.create;
  const isArray = Array.isArray;
  const isFinite = Number.isFinite;
  const stringify = JSON.stringify;  // only ever on a string or a number
  const S = String;
  const ObjectProto = Object.prototype;
  const ArrayProto = Array.prototype;
  const isProtoOf = Object.prototype.isPrototypeOf;
  const hasOwn = Object.prototype.hasOwnProperty;
  const ErrorProto = Error.prototype;
  const stringSlice = String.prototype.slice;
  const stringSplit = String.prototype.split;
  const dateGetTime = Date.prototype.getTime;
  const dateToISO = Date.prototype.toISOString;
  const getter = (proto, name) => {
    const d = proto ? gopd(proto, name) : undefined;
    return d !== undefined && typeof d.get === 'function' ? d.get : null;
  };
  const regexpSource = getter(RegExp.prototype, 'source');
  const regexpFlags = getter(RegExp.prototype, 'flags');
  const mapSize = getter(Map.prototype, 'size');
  const mapForEach = Map.prototype.forEach;
  const setSize = getter(Set.prototype, 'size');
  const setForEach = Set.prototype.forEach;
  const typedLength = getter(getProto(Int8Array.prototype), 'length');
  const hasDom = typeof Node === 'function';
  const nodeType = hasDom ? getter(Node.prototype, 'nodeType') : null;
  const nodeName = hasDom ? getter(Node.prototype, 'nodeName') : null;
  const localName = hasDom ? getter(Element.prototype, 'localName') : null;
  const elementId = hasDom ? getter(Element.prototype, 'id') : null;
  const className = hasDom ? getter(Element.prototype, 'className') : null;
  const textData = hasDom ? getter(CharacterData.prototype, 'data') : null;
  const documentURL = hasDom ? getter(Document.prototype, 'URL') : null;
  const windowSelf = getter(G, 'window');
  const windowLength = getter(G, 'length');
  const addListener = hasDom ? EventTarget.prototype.addEventListener : null;
  const removeListener = hasDom ? EventTarget.prototype.removeEventListener : null;
  const dispatch = hasDom ? EventTarget.prototype.dispatchEvent : null;
  const composedPath = hasDom ? Event.prototype.composedPath : null;
  const stopImmediate = hasDom ? Event.prototype.stopImmediatePropagation : null;
  const NativeCustomEvent = hasDom ? CustomEvent : null;

  // Calls a captured getter; undefined when @v is not of its kind.
  const read = (get, v) => {
    if (get === null)
      return undefined;
    try {
      return apply(get, v, []);
    } catch (e) {
      return undefined;
    }
  };
  const slice = (s, a, b) => apply(stringSlice, s, [a, b]);

  const isWindow = (v) => windowSelf !== null && read(windowSelf, v) === v;

  const describeNode = (n, type) => {
    if (type === 1) {
      let s = '<' + S(read(localName, n));
      const id = read(elementId, n);
      const cls = read(className, n);
      if (id)
        s += ' id="' + S(id) + '"';
      if (typeof cls === 'string' && cls)
        s += ' class="' + cls + '"';
      return s + '>';
    }
    if (type === 3)
      return '#text ' + stringify(slice(S(read(textData, n)), 0, 200));
    if (type === 9)
      return '#document ' + S(read(documentURL, n));
    return S(read(nodeName, n));
  };

  // A toJSON of the value itself or of its class (URL, a class of the
  // page's own), never one planted on Object.prototype or Array.prototype.
  const ownToJSON = (v) => {
    let d = gopd(v, 'toJSON');
    if (d === undefined) {
      const proto = getProto(v);
      if (proto === null || proto === ObjectProto || proto === ArrayProto)
        return null;
      d = gopd(proto, 'toJSON');
    }
    if (d === undefined || !apply(hasOwn, d, ['value']))
      return null;
    return typeof d.value === 'function' ? d.value : null;
  };

  // Writes @value as JSON text, at most about @maxBytes of it.
  const serialize = (value, maxBytes) => {
    let truncated = false;
    let left = maxBytes + 1024;
    const stack = create(null);
    let depth = 0;

    const quote = (s) => {
      const q = stringify(s);
      left -= q.length;
      return q;
    };

    const special = (v) => {
      const type = read(nodeType, v);
      if (typeof type === 'number')
        return describeNode(v, type);
      if (isWindow(v)) {
        let href = '';
        try { href = S(v.location.href); } catch (e) { }
        return '[Window ' + href + ']';
      }
      const time = read(dateGetTime, v);
      if (typeof time === 'number')
        return time !== time ? 'Invalid Date' : apply(dateToISO, v, []);
      const source = read(regexpSource, v);
      if (typeof source === 'string')
        return '/' + source + '/' + S(read(regexpFlags, v));
      return undefined;
    };

    const ser = (v, level) => {
      if (left <= 0) {
        truncated = true;
        return 'null';
      }
      if (v === null || v === undefined) {
        left -= 4;
        return 'null';
      }
      const t = typeof v;
      if (t === 'string') {
        if (v.length > left) {
          truncated = true;
          v = slice(v, 0, left > 0 ? left : 0);
        }
        return quote(v);
      }
      if (t === 'number') {
        left -= 12;
        return isFinite(v) ? stringify(v) : stringify(S(v));
      }
      if (t === 'boolean') {
        left -= 5;
        return v ? 'true' : 'false';
      }
      if (t === 'bigint')
        return quote(S(v) + 'n');
      if (t === 'symbol')
        return quote(S(v));
      if (t === 'function') {
        let name = '';
        try { name = typeof v.name === 'string' ? v.name : ''; } catch (e) { }
        return quote('[Function' + (name ? ' ' + name : '') + ']');
      }
      if (level > 32)
        return quote('[nested too deep]');
      for (let i = 0; i < depth; i++) {
        if (stack[i] === v)
          return quote('[Circular]');
      }

      let out;
      try {
        const s = special(v);
        if (s !== undefined)
          return quote(s);
        if (apply(isProtoOf, ErrorProto, [v])) {
          let name = 'Error';
          let message = '';
          try { name = S(v.name); message = S(v.message); } catch (e) { }
          left -= 20;
          return '{"name":' + quote(name) + ',"message":' + quote(message) + '}';
        }
        const toJSON = ownToJSON(v);
        if (toJSON !== null) {
          const j = apply(toJSON, v, ['']);
          if (j !== v)
            return ser(j, level + 1);
        }
      } catch (e) {
        return quote('[unreadable]');
      }

      stack[depth++] = v;
      try {
        if (read(mapSize, v) !== undefined) {
          out = objectOf(v, mapForEach, level, true);
        } else if (read(setSize, v) !== undefined) {
          out = arrayOfForEach(v, setForEach, level);
        } else if (isArray(v) || read(typedLength, v) !== undefined) {
          out = '[';
          const n = isArray(v) ? v.length : read(typedLength, v);
          for (let i = 0; i < n; i++) {
            if (left <= 0) {
              truncated = true;
              break;
            }
            let x;
            try { x = v[i]; } catch (e) { x = '[unreadable]'; }
            out += (i > 0 ? ',' : '') + ser(x, level + 1);
            left -= 1;
          }
          out += ']';
        } else {
          let names = [];
          try { names = keys(v); } catch (e) { }
          out = '{';
          let first = true;
          for (let i = 0; i < names.length; i++) {
            if (left <= 0) {
              truncated = true;
              break;
            }
            const k = names[i];
            let x;
            try { x = v[k]; } catch (e) { x = '[unreadable]'; }
            if (x === undefined || typeof x === 'function')
              continue;
            out += (first ? '' : ',') + quote(k) + ':' + ser(x, level + 1);
            first = false;
            left -= 2;
          }
          out += '}';
        }
      } finally {
        depth--;
        stack[depth] = undefined;
      }
      return out;
    };

    // Maps become objects keyed by String(key), the first of equal keys
    // kept; at most 10000 entries.
    const objectOf = (v, forEach, level) => {
      const used = create(null);
      let out = '{';
      let n = 0;
      apply(forEach, v, [(x, k) => {
        if (n >= 10000 || left <= 0) {
          truncated = truncated || left <= 0;
          return;
        }
        const key = S(k);
        if (used[key] === true)
          return;
        used[key] = true;
        out += (n++ > 0 ? ',' : '') + quote(key) + ':' + ser(x, level + 1);
      }]);
      return out + '}';
    };

    const arrayOfForEach = (v, forEach, level) => {
      let out = '[';
      let n = 0;
      apply(forEach, v, [(x) => {
        if (n >= 10000 || left <= 0) {
          truncated = truncated || left <= 0;
          return;
        }
        out += (n++ > 0 ? ',' : '') + ser(x, level + 1);
      }]);
      return out + ']';
    };

    const type = value === null ? 'null' : isArray(value) ? 'array' : typeof value;
    const text = ser(value, 0);
    return '{"value":' + text + ',"type":' + stringify(type) + ',"truncated":' +
           (truncated ? 'true' : 'false') + '}';
  };

  const describeError = (e) => {
    let message = 'an exception';
    let where = '';
    try {
      message = (e !== null && typeof e === 'object' && 'message' in e)
        ? S(e.name || 'Error') + ': ' + S(e.message) : 'Uncaught ' + S(e);
    } catch (e2) { }
    try {
      if (e !== null && typeof e === 'object') {
        const stack = e.stack;
        if (typeof stack === 'string')
          where = apply(stringSplit, stack, ['\n'])[0];
      }
    } catch (e3) { }
    return '{"threw":true,"message":' + stringify(message) + ',"where":' + stringify(where) + '}';
  };

  // The element of a ref, handed over by the isolated runtime through an
  // event (actions.js, exposeElement).
  const takeElement = (nonce) => {
    const answer = 'tabwright-element-' + nonce;
    const windows = create(null);
    let count = 0;
    let element;
    const collect = (w, level) => {
      windows[count++] = w;
      if (level > 8)
        return;
      const n = read(windowLength, w) || 0;
      for (let i = 0; i < n; i++) {
        try {
          const f = w[i];
          if (f.document)
            collect(f, level + 1);
        } catch (e) { }
      }
    };
    collect(G, 0);
    const grab = (e) => {
      element = apply(composedPath, e, [])[0];
      apply(stopImmediate, e, []);
    };
    for (let i = 0; i < count; i++)
      apply(addListener, windows[i], [answer, grab, true]);
    try {
      apply(dispatch, G, [new NativeCustomEvent('tabwright-element-request-' + nonce)]);
    } finally {
      for (let i = 0; i < count; i++)
        apply(removeListener, windows[i], [answer, grab, true]);
    }
    return element;
  };

  const run = async (fn, nonce, maxBytes) => {
    let element;
    if (nonce !== '') {
      element = takeElement(nonce);
      if (element === undefined)
        return '{"missing":true}';
    }
    let value;
    try {
      value = typeof fn === 'function' ? (nonce !== '' ? fn(element) : fn()) : fn;
      value = await value;
    } catch (e) {
      return describeError(e);
    }
    return serialize(value, maxBytes);
  };

  return freeze({
    __proto__: null,
    run,
  });
})()
