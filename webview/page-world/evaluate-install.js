// SPDX-License-Identifier: GPL-3.0-or-later
//
// The document-start user script that installs browser_evaluate's helper
// (evaluate.js, where tabwrightHelperSource stands) under a global lexical
// name that is random per process (tabwrightHelperName), so a page can
// neither find it nor reassign it. Expanded by webview/tw-evaluate-script.c.

const tabwrightHelperName = tabwrightHelperSource;
//# sourceURL=tabwright-evaluate-helper.js
