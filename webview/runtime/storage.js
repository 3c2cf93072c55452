// SPDX-License-Identifier: GPL-3.0-or-later
//
// The page's localStorage and sessionStorage, for browser_storage
// (webview/tw-tab-storage.c) and browser_storage_state
// (webview/tw-tab-storage-state.c). They run in the runtime's isolated
// world, so the page cannot replace the Storage methods they call. A page
// without storage of its own answers {denied}, a write the page refuses
// {failed}; the C side turns those into errors.

const WebStorage = {
  message (e) {
    return String(e && e.message || e);
  },

  // browser_storage: list, get, set, delete or clear one area. Values of
  // the list longer than args.maxChars are cut.
  web (ctx, args) {
    const origin = String(location.origin);
    let store;
    try {
      store = args.area === 'session' ? window.sessionStorage : window.localStorage;
    } catch (e) {
      return { denied: WebStorage.message(e), origin };
    }
    if (!store)
      return { denied: 'the document has no storage', origin };

    const key = args.key;
    switch (args.action) {
      case 'list': {
        const items = [];
        for (let i = 0; i < store.length; i++) {
          const k = store.key(i);
          let v = store.getItem(k);
          const cut = v.length > args.maxChars;
          if (cut)
            v = v.slice(0, args.maxChars);
          items.push(cut ? { key: k, value: v, truncated: true } : { key: k, value: v });
        }
        return { origin, items };
      }
      case 'get':
        return { origin, key, value: store.getItem(key) };
      case 'set':
        try {
          store.setItem(key, args.value);
        } catch (e) {
          return { failed: WebStorage.message(e), origin };
        }
        return { origin, key, value: store.getItem(key) };
      case 'delete': {
        const had = store.getItem(key) !== null;
        store.removeItem(key);
        return { origin, key, removed: had ? 1 : 0 };
      }
      case 'clear': {
        const n = store.length;
        store.clear();
        return { origin, removed: n };
      }
    }
    return { failed: 'unknown action', origin };
  },

  // browser_storage_state saving: the whole localStorage of the origin.
  readLocal (ctx, args) {
    let store;
    try {
      store = window.localStorage;
    } catch (e) {
      return { denied: String(e) };
    }
    const items = [];
    const length = store ? store.length : 0;
    for (let i = 0; i < length; i++) {
      const k = store.key(i);
      items.push({ name: k, value: store.getItem(k) });
    }
    return { origin: String(location.origin), localStorage: items };
  },

  // browser_storage_state loading: args.items, [{name, value}], written
  // into the origin's localStorage.
  writeLocal (ctx, args) {
    const answer = { origin: String(location.origin) };
    try {
      for (const item of args.items)
        window.localStorage.setItem(item.name, item.value);
    } catch (e) {
      answer.failed = WebStorage.message(e);
    }
    return answer;
  },
};

Api.register('storage.web', WebStorage.web);
Api.register('storage.readLocal', WebStorage.readLocal);
Api.register('storage.writeLocal', WebStorage.writeLocal);
