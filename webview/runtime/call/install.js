// SPDX-License-Identifier: GPL-3.0-or-later
//
// What installs the page runtime in a document's isolated world
// (TwPageRuntime, webview/tw-page-runtime.c): the modules of
// tw_runtime_modules, in load order, go where tabwrightModules stands, so
// their declarations share one function scope of their own. A document
// that has the runtime already keeps it.

(function () {
'use strict';
if (globalThis.__tabwright !== undefined) return;
tabwrightModules
})();
//# sourceURL=tabwright-runtime.js
