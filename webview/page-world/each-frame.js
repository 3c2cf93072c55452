// SPDX-License-Identifier: GPL-3.0-or-later
//
// How the page-world scripts that give a tab's pages its state
// (emulation.js, media.js, routes.js) reach the frames: each is called with
// this function expression as its third argument, eachFrame(win, all, set).
// It calls set(win), and with all true (a change of state, in the main
// frame) also set() on every frame of the same origin below it. A frame of
// another origin throws on the first touch and is passed over with what is
// below it: the script's user script gives it the state on its next load.

(function eachFrame(win, all, set) {
  function visit(w) {
    try {
      set(w);
    } catch {
      return; // another origin's frame: it follows on its next load
    }
    for (let i = 0; i < w.frames.length; i++)
      visit(w.frames[i]);
  }

  if (all)
    visit(win);
  else
    set(win);
})
