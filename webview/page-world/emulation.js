// SPDX-License-Identifier: GPL-3.0-or-later
//
// What browser_emulate changes in the page's own world, where page scripts
// read it: navigator.onLine for offline (the requests themselves are
// blocked by a content filter in the UI process), and navigator.maxTouchPoints
// and window.ontouchstart for a touch device. It is a function expression,
// called with the tab's state ({ offline, touch }) and false at the start of
// every document of the tab (a user script in every frame), and with the
// new state and true in the main frame when the state changes: then it
// reaches the frames of the same origin too, and fires the window's
// offline or online event where navigator.onLine changed. The browser's
// own properties are kept on the window under a registered symbol, so
// undoing an emulation gives them back. It returns what the page says
// now: { onLine, maxTouchPoints }. Its third argument is each-frame.js.

(function (state, announce, eachFrame) {
  const key = Symbol.for('tabwright.emulation');
  const TOUCH_POINTS = 5;

  function set(win) {
    const proto = win.Navigator.prototype;
    if (!Object.prototype.hasOwnProperty.call(win, key)) {
      Object.defineProperty(win, key, {
        value: {
          onLine: Object.getOwnPropertyDescriptor(proto, 'onLine'),
          maxTouchPoints: Object.getOwnPropertyDescriptor(proto, 'maxTouchPoints'),
          touchHandler: 'ontouchstart' in win,
        },
      });
    }
    const original = win[key];
    const before = win.navigator.onLine;

    if (state.offline) {
      Object.defineProperty(proto, 'onLine', {
        configurable: true,
        enumerable: original.onLine ? original.onLine.enumerable : true,
        get: function onLine() { return false; },
      });
    } else if (original.onLine) {
      Object.defineProperty(proto, 'onLine', original.onLine);
    }

    if (state.touch) {
      Object.defineProperty(proto, 'maxTouchPoints', {
        configurable: true,
        enumerable: original.maxTouchPoints ? original.maxTouchPoints.enumerable : true,
        get: function maxTouchPoints() { return TOUCH_POINTS; },
      });
      if (!('ontouchstart' in win))
        Object.defineProperty(win, 'ontouchstart', { configurable: true, enumerable: true, writable: true, value: null });
    } else {
      if (original.maxTouchPoints)
        Object.defineProperty(proto, 'maxTouchPoints', original.maxTouchPoints);
      if (!original.touchHandler && Object.prototype.hasOwnProperty.call(win, 'ontouchstart'))
        delete win.ontouchstart;
    }

    if (announce && before !== win.navigator.onLine)
      win.dispatchEvent(new win.Event(win.navigator.onLine ? 'online' : 'offline'));
  }

  eachFrame(window, announce, set);
  return { onLine: navigator.onLine, maxTouchPoints: navigator.maxTouchPoints };
})
