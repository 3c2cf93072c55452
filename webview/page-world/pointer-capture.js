// SPDX-License-Identifier: GPL-3.0-or-later
//
// Pointer capture and document focus for the agent, and word of shadow
// roots attached late, in the page's own world. The
// engine grants capture only to a pointer whose button it saw go down in a
// trusted event, so a page's setPointerCapture() on the agent's (untrusted)
// pointerdown does nothing and hasPointerCapture() stays false. While the
// agent's pointer is pressed this keeps the capture the page asks for and
// tells the runtime (pointer.js), which sends the following pointer events
// to the capturing element and fires gotpointercapture and
// lostpointercapture. Anything else, a person's mouse included, goes to the
// engine's own methods.
(function () {
  'use strict';
  const proto = Element.prototype;
  const nativeSet = proto.setPointerCapture;
  const nativeRelease = proto.releasePointerCapture;
  const nativeHas = proto.hasPointerCapture;
  const ID = 1;
  let pressed = false;
  let capture = null;

  const agent = (e) => !e.isTrusted && e.pointerId === ID && e.pointerType === 'mouse';
  const tell = (target) => {
    (target || document).dispatchEvent(new Event('tabwright-pointer-capture', { bubbles: true, composed: true }));
  };

  addEventListener('pointerdown', (e) => {
    if (agent(e))
      pressed = true;
  }, true);
  addEventListener('pointerup', (e) => {
    if (agent(e))
      pressed = false;
  }, true);
  addEventListener('lostpointercapture', (e) => {
    if (agent(e) && (capture === e.composedPath()[0] || capture === null || !capture.isConnected))
      capture = null;
  }, true);

  // document.hasFocus() while the agent acts on the page: a person's page
  // has the focus while they click and type in it. In a tab an agent
  // drives the engine already answers true (webview/tw-tab-focus.h); this
  // keeps the answer for an action that runs while the tab counts as the
  // person's (docs/live-pages.md).
  const nativeHasFocus = Document.prototype.hasFocus;
  let acting = 0;
  let actingTimer = 0;
  addEventListener('tabwright-action-start', (e) => {
    if (e.isTrusted || e.target !== window)
      return;
    acting = Date.now();
    clearTimeout(actingTimer);
    // An action always ends well within this; a lost end event cannot
    // leave the page focused for good.
    actingTimer = setTimeout(() => { acting = 0; }, 5000);
  }, true);
  addEventListener('tabwright-action-end', (e) => {
    if (e.isTrusted || e.target !== window)
      return;
    acting = 0;
    clearTimeout(actingTimer);
  }, true);
  Object.defineProperty(Document.prototype, 'hasFocus', {
    value: function hasFocus () {
      return (acting !== 0 && this === document) || nativeHasFocus.call(this);
    },
    writable: true, configurable: true, enumerable: true,
  });

  const methods = {
    setPointerCapture (id) {
      if (id === ID && pressed && !this.isConnected)
        throw new DOMException('The element is not in a document', 'InvalidStateError');
      if (id === ID && pressed) {
        capture = this;
        tell(this);
        return;
      }
      return nativeSet.call(this, id);
    },
    releasePointerCapture (id) {
      if (id === ID && capture !== null) {
        if (capture === this) {
          capture = null;
          tell(null);
        }
        return;
      }
      return nativeRelease.call(this, id);
    },
    hasPointerCapture (id) {
      if (id === ID && capture !== null)
        return capture === this;
      return nativeHas.call(this, id);
    },
  };
  for (const name of Object.keys(methods)) {
    Object.defineProperty(proto, name, {
      value: methods[name], writable: true, configurable: true, enumerable: true,
    });
  }

  // A shadow root attached to an element already in the page (a custom
  // element defined late, say) changes what the page shows with no
  // mutation the runtime can see: this tells it, and its page model walks
  // the page again (webview/runtime/page-model.js).
  const nativeAttachShadow = proto.attachShadow;
  Object.defineProperty(proto, 'attachShadow', {
    value: function attachShadow (init) {
      const root = nativeAttachShadow.call(this, init);
      if (this.isConnected)
        this.dispatchEvent(new Event('tabwright-shadow-attached', { bubbles: true, composed: true }));
      return root;
    },
    writable: true, configurable: true, enumerable: true,
  });
})();
//# sourceURL=tabwright-page-world.js
