// SPDX-License-Identifier: GPL-3.0-or-later
//
// Demonstrate (issue 33, "Teach"): while the person records, their own
// clicks and typing in the tab become steps (action, role, name, value)
// that the tab keeps as a flow (webview/tw-browser-tab-demonstrate.c).
//
// Only trusted events count: what the person's pointer and keyboard did.
// Page scripts dispatch untrusted events, and so do the agent's actions
// (pointer.js, keyboard.js); but some agent actions cause trusted events
// too (a checkbox's change after a synthetic click, text typed with
// WebKit's editing commands), so the tab also says while an agent's command
// runs (demonstrate.busy), and nothing that happens then is the person's.
//
// Elements are named as browser_snapshot and the actions name them
// (Roles.role, Names.name): the role and name a replay finds them by.
// A password is never read: its step says only that it was filled.

const Demonstrate = {
  HANDLER: 'tabwrightDemonstration',
  on: false,
  busy: false,
  // field -> the value last recorded for it, so a change after Enter is
  // not a second step.
  recorded: new WeakMap(),
  // Fields the person typed into since their last step.
  edited: new Set(),
  // Fields an agent typed into: their change is the agent's.
  agentEdited: new WeakSet(),
  listeners: null,
  // The form an Enter in one of its fields is submitting, for the task of
  // that key press.
  submitting: null,

  TEXT_INPUTS: new Set([
    '', 'text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'time',
    'datetime-local', 'month', 'week',
  ]),

  start () {
    if (Demonstrate.on)
      return { recording: true, url: document.URL };
    Demonstrate.on = true;
    Demonstrate.listeners = [
      ['click', Demonstrate.onClick],
      ['change', Demonstrate.onChange],
      ['input', Demonstrate.onInput],
      ['keydown', Demonstrate.onKeydown],
      ['pagehide', Demonstrate.flushAll],
    ];
    for (const [type, fn] of Demonstrate.listeners)
      window.addEventListener(type, fn, true);
    return { recording: true, url: document.URL };
  },

  stop () {
    if (Demonstrate.on)
      Demonstrate.flushAll();
    Demonstrate.on = false;
    for (const [type, fn] of Demonstrate.listeners || [])
      window.removeEventListener(type, fn, true);
    Demonstrate.listeners = null;
    Demonstrate.edited.clear();
    return { recording: false };
  },

  setBusy (ctx, args) {
    Demonstrate.busy = args.busy === true;
    return { busy: Demonstrate.busy };
  },

  // The element an event happened on, across open shadow roots.
  targetOf (e) {
    const path = typeof e.composedPath === 'function' ? e.composedPath() : [];
    for (const n of path) {
      if (Dom.isElement(n))
        return n;
    }
    return Dom.isElement(e.target) ? e.target : null;
  },

  isTextField (el) {
    if (el.localName === 'textarea')
      return true;
    if (el.localName === 'input')
      return Demonstrate.TEXT_INPUTS.has((el.getAttribute('type') || '').toLowerCase());
    return el.isContentEditable === true;
  },

  SECRET: '•••',

  isSecret (el) {
    return el.localName === 'input' && el.type === 'password';
  },

  isToggle (el) {
    return el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio');
  },

  // The element a person acted on: the nearest one, from the target up,
  // that has a role an agent acts on (the button around an icon).
  actionable (ctx, el) {
    for (let a = el; a && a.localName !== 'body' && a.localName !== 'html'; a = Dom.parent(a)) {
      const role = Roles.role(ctx, a);
      if (Roles.INTERACTIVE.has(role))
        return a;
      if (a.localName === 'label')
        return null;
    }
    return null;
  },

  describe (ctx, el) {
    return { role: Roles.role(ctx, el) || 'generic', name: Names.name(ctx, el) };
  },

  valueOf (el) {
    return el.isContentEditable && el.localName !== 'input' && el.localName !== 'textarea'
      ? Base.flat(el.innerText) : el.value;
  },

  post (step) {
    const handler = window.webkit && window.webkit.messageHandlers &&
                    window.webkit.messageHandlers[Demonstrate.HANDLER];
    if (!handler)
      return;
    step.url = document.URL;
    handler.postMessage(JSON.stringify(step));
  },

  // A field the person typed into becomes one step with its final value.
  flush (el) {
    if (!Demonstrate.edited.has(el))
      return;
    Demonstrate.edited.delete(el);
    const ctx = Dom.context({});
    const step = Object.assign({ action: 'fill' }, Demonstrate.describe(ctx, el));
    if (Demonstrate.isSecret(el)) {
      // Never read, never kept: the step only says it was filled, once per
      // edit.
      if (Demonstrate.recorded.get(el) === Demonstrate.SECRET)
        return;
      Demonstrate.recorded.set(el, Demonstrate.SECRET);
      step.value = Demonstrate.SECRET;
      step.secret = true;
    } else {
      const value = Demonstrate.valueOf(el);
      if (Demonstrate.recorded.get(el) === value)
        return;
      Demonstrate.recorded.set(el, value);
      step.value = value;
    }
    Demonstrate.post(step);
  },

  flushAll () {
    for (const el of Array.from(Demonstrate.edited))
      Demonstrate.flush(el);
  },

  onInput (e) {
    const el = Demonstrate.targetOf(e);
    if (el === null || !e.isTrusted || !Demonstrate.isTextField(el))
      return;
    if (Demonstrate.busy) {
      Demonstrate.agentEdited.add(el);
      Demonstrate.edited.delete(el);
      return;
    }
    Demonstrate.agentEdited.delete(el);
    Demonstrate.edited.add(el);
    if (Demonstrate.isSecret(el))
      Demonstrate.recorded.delete(el);
  },

  onChange (e) {
    const el = Demonstrate.targetOf(e);
    if (el === null || !e.isTrusted || Demonstrate.busy)
      return;
    if (Demonstrate.isTextField(el)) {
      if (!Demonstrate.agentEdited.has(el)) {
        Demonstrate.edited.add(el);
        Demonstrate.flush(el);
      }
      return;
    }
    const ctx = Dom.context({});
    if (Demonstrate.isToggle(el)) {
      Demonstrate.flushAll();
      const action = el.checked ? 'check' : 'uncheck';
      Demonstrate.post(Object.assign({ action }, Demonstrate.describe(ctx, el)));
      return;
    }
    if (el.localName === 'select') {
      Demonstrate.flushAll();
      const labels = Array.from(el.selectedOptions).map((o) => Base.flat(o.label || o.text));
      Demonstrate.post(Object.assign({ action: 'select', value: labels.join(', ') },
                                     Demonstrate.describe(ctx, el)));
    }
  },

  onClick (e) {
    const hit = Demonstrate.targetOf(e);
    if (hit === null || !e.isTrusted || Demonstrate.busy)
      return;
    const ctx = Dom.context({});
    const el = Demonstrate.actionable(ctx, hit);
    // Fields, toggles and drop-downs are recorded by what they became.
    if (el === null || Demonstrate.isTextField(el) || Demonstrate.isToggle(el) ||
        el.localName === 'select' || el.localName === 'option')
      return;
    // Enter in a field clicks its form's default button for the person
    // (implicit submission): that is the Enter step, not a click.
    if (e.detail === 0 && Demonstrate.submitting !== null && el.form === Demonstrate.submitting)
      return;
    Demonstrate.flushAll();
    Demonstrate.post(Object.assign({ action: 'click' }, Demonstrate.describe(ctx, el)));
  },

  onKeydown (e) {
    const el = Demonstrate.targetOf(e);
    if (el === null || !e.isTrusted || Demonstrate.busy || e.key !== 'Enter' || e.isComposing)
      return;
    if (el.localName !== 'input' || !Demonstrate.isTextField(el))
      return;
    Demonstrate.flush(el);
    const ctx = Dom.context({});
    Demonstrate.post(Object.assign({ action: 'press', key: 'Enter' }, Demonstrate.describe(ctx, el)));
    // The key's own default action follows in this task.
    Demonstrate.submitting = el.form || null;
    setTimeout(() => { Demonstrate.submitting = null; }, 0);
  },
};

Api.register('demonstrate.start', Demonstrate.start);
Api.register('demonstrate.stop', Demonstrate.stop);
Api.register('demonstrate.busy', Demonstrate.setBusy);
