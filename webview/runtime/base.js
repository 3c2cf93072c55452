// SPDX-License-Identifier: GPL-3.0-or-later
//
// The shared ground of the in-page runtime. The C side concatenates the
// modules of this folder into one function body, in the order of
// tw-page-runtime.c, and installs it in the isolated script world
// "tabwright" of every frame. Page scripts live in another world: they can
// neither see these objects nor replace the built-ins and DOM prototypes we
// use, because each world has its own copies of both.
//
// Modules are plain objects declared with const in that shared scope. They
// only define things when loaded; they call each other at run time, so the
// order matters only for base.js (first) and api.js (which publishes the
// entry point).

const Base = {
  // Errors the agent sees: the code is the MCP error code of DESIGN.md §4,
  // which the C side maps back to TW_BROWSER_ERROR.
  error (code, message) {
    const e = new Error(message);
    e.twCode = code;
    return e;
  },

  // Collapses every run of white space to one space and trims, as accname's
  // "flat string" asks.
  flat (s) {
    return s ? String(s).replace(/[\s\u200b]+/g, ' ').trim() : '';
  },

  // Keeps a string printable on one line of the snapshot, within max
  // characters.
  clip (s, max) {
    if (s.length <= max)
      return s;
    return s.slice(0, max - 1) + '…';
  },

  quote (s) {
    if (s.indexOf('"') < 0 && s.indexOf('\\') < 0)
      return '"' + s + '"';
    return '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
  },

  now () {
    return performance.now();
  },
};
