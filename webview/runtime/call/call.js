// SPDX-License-Identifier: GPL-3.0-or-later
//
// The body of every call TwPageRuntime (webview/tw-page-runtime.c) makes in
// the isolated world, run with fn (the name of a function the runtime
// registered), args (its arguments as JSON text), nextRef and held (the id
// of the long text the tab holds from an earlier answer, or ""). It answers
// null when the runtime is missing from the document (the document was
// loaded before the runtime was installed), so the caller can install it
// and try again. The answer is the runtime's JSON, or [json, text] when a
// long text comes beside it (api.js).

if (typeof __tabwright !== 'object')
  return null;
return __tabwright.callFromTab(fn, args, nextRef, held);
