// SPDX-License-Identifier: GPL-3.0-or-later
//
// The body browser_evaluate and browser_wait's function run in the page's
// own world, with the arguments nonce and maxBytes
// (webview/tw-evaluate-script.c). The agent's function goes where
// tabwrightAgentFunction stands, on lines of its own; the helper is the
// one evaluate-install.js installed, or, in a document that script did not
// reach (one already loaded), evaluate.js itself, built now from the
// built-ins as they are.

const tabwrightFunction = (
tabwrightAgentFunction
);
return (typeof tabwrightHelperName === 'object' ? tabwrightHelperName : tabwrightHelperSource).run(tabwrightFunction, nonce, maxBytes);
