// SPDX-License-Identifier: GPL-3.0-or-later
//
// navigator.onLine as an offline tab shows it (browser_emulate offline).
// The tab's requests are blocked by a content filter in the UI process;
// this is the other half, in the page's own world, where page scripts read
// navigator.onLine. It is a function expression, called with (true, false)
// at the start of every document of an offline tab (a user script in every
// frame), and with (offline, true) in the main frame when the tab goes
// offline or online: then it reaches the frames of the same origin too and
// fires the window's offline or online event where the value changed. The
// browser's own getter is kept on the window under a registered symbol, so
// going online gives it back. It returns what navigator.onLine says after.

(function (offline, announce) {
  const key = Symbol.for('tabwright.onLine');

  function set(win) {
    const proto = win.Navigator.prototype;
    if (!Object.prototype.hasOwnProperty.call(win, key))
      Object.defineProperty(win, key, { value: Object.getOwnPropertyDescriptor(proto, 'onLine') });
    const original = win[key];
    const before = win.navigator.onLine;
    if (offline) {
      Object.defineProperty(proto, 'onLine', {
        configurable: true,
        enumerable: original ? original.enumerable : true,
        get: function onLine() { return false; },
      });
    } else if (original) {
      Object.defineProperty(proto, 'onLine', original);
    }
    if (announce && before !== win.navigator.onLine)
      win.dispatchEvent(new win.Event(win.navigator.onLine ? 'online' : 'offline'));
  }

  function visit(win) {
    try {
      set(win);
    } catch {
      return; // another origin's frame: it follows on its next load
    }
    for (let i = 0; i < win.frames.length; i++)
      visit(win.frames[i]);
  }

  if (announce)
    visit(window);
  else
    set(window);
  return navigator.onLine;
})
