// SPDX-License-Identifier: GPL-3.0-or-later
//
// The keyboard, as the page sees it: keydown, keypress where browsers fire
// it, keyup, with the key, code and legacy keyCode of a US layout, and the
// default action a real key press would have when the page does not cancel
// it. Text itself is not faked here: a character goes in through the
// textInput event whose default action is WebKit's own typing, and other
// edits through WebKit's editing commands (DeleteBackward, InsertNewline…)
// that the C side runs; both fire trusted beforeinput and input events and
// update framework-controlled fields the way typing does. A key that
// needs editing commands is therefore two calls, down and up, with the
// commands the down call asks for run in between; a run of characters is
// pressed in one call (typeKeys).

const Keyboard = {
  // Named keys: key value, code, keyCode.
  NAMED: {
    enter: ['Enter', 'Enter', 13],
    return: ['Enter', 'Enter', 13],
    escape: ['Escape', 'Escape', 27],
    esc: ['Escape', 'Escape', 27],
    tab: ['Tab', 'Tab', 9],
    space: [' ', 'Space', 32],
    backspace: ['Backspace', 'Backspace', 8],
    delete: ['Delete', 'Delete', 46],
    del: ['Delete', 'Delete', 46],
    insert: ['Insert', 'Insert', 45],
    home: ['Home', 'Home', 36],
    end: ['End', 'End', 35],
    pageup: ['PageUp', 'PageUp', 33],
    pagedown: ['PageDown', 'PageDown', 34],
    arrowup: ['ArrowUp', 'ArrowUp', 38],
    arrowdown: ['ArrowDown', 'ArrowDown', 40],
    arrowleft: ['ArrowLeft', 'ArrowLeft', 37],
    arrowright: ['ArrowRight', 'ArrowRight', 39],
    up: ['ArrowUp', 'ArrowUp', 38],
    down: ['ArrowDown', 'ArrowDown', 40],
    left: ['ArrowLeft', 'ArrowLeft', 37],
    right: ['ArrowRight', 'ArrowRight', 39],
    contextmenu: ['ContextMenu', 'ContextMenu', 93],
    capslock: ['CapsLock', 'CapsLock', 20],
    shift: ['Shift', 'ShiftLeft', 16],
    control: ['Control', 'ControlLeft', 17],
    ctrl: ['Control', 'ControlLeft', 17],
    alt: ['Alt', 'AltLeft', 18],
    meta: ['Meta', 'MetaLeft', 91],
  },

  MODIFIERS: {
    control: 'ctrl', ctrl: 'ctrl', controlormeta: 'ctrl',
    shift: 'shift',
    alt: 'alt', option: 'alt',
    meta: 'meta', command: 'meta', cmd: 'meta', super: 'meta', win: 'meta',
  },

  MODIFIER_KEYS: {
    ctrl: ['Control', 'ControlLeft', 17],
    alt: ['Alt', 'AltLeft', 18],
    shift: ['Shift', 'ShiftLeft', 16],
    meta: ['Meta', 'MetaLeft', 91],
  },

  // US layout: the unshifted character, its shifted one, the code and the
  // keyCode of the key.
  LAYOUT: [
    ['`', '~', 'Backquote', 192], ['1', '!', 'Digit1', 49], ['2', '@', 'Digit2', 50],
    ['3', '#', 'Digit3', 51], ['4', '$', 'Digit4', 52], ['5', '%', 'Digit5', 53],
    ['6', '^', 'Digit6', 54], ['7', '&', 'Digit7', 55], ['8', '*', 'Digit8', 56],
    ['9', '(', 'Digit9', 57], ['0', ')', 'Digit0', 48], ['-', '_', 'Minus', 189],
    ['=', '+', 'Equal', 187], ['[', '{', 'BracketLeft', 219], [']', '}', 'BracketRight', 221],
    ['\\', '|', 'Backslash', 220], [';', ':', 'Semicolon', 186], ["'", '"', 'Quote', 222],
    [',', '<', 'Comma', 188], ['.', '>', 'Period', 190], ['/', '?', 'Slash', 191],
    [' ', ' ', 'Space', 32],
  ],

  // Character -> {code, keyCode, shift}, built once.
  chars: null,

  charTable () {
    if (Keyboard.chars)
      return Keyboard.chars;
    const t = new Map();
    for (const [plain, shifted, code, keyCode] of Keyboard.LAYOUT) {
      t.set(plain, { code, keyCode, shift: false });
      if (shifted !== plain)
        t.set(shifted, { code, keyCode, shift: true });
    }
    for (let i = 0; i < 26; i++) {
      const lower = String.fromCharCode(97 + i);
      const upper = String.fromCharCode(65 + i);
      t.set(lower, { code: 'Key' + upper, keyCode: 65 + i, shift: false });
      t.set(upper, { code: 'Key' + upper, keyCode: 65 + i, shift: true });
    }
    Keyboard.chars = t;
    return t;
  },

  // Parses "Enter", "a", "Control+Shift+Z", "Shift+Tab", "+" or "Control++"
  // into {key, code, keyCode, text, mods: {ctrl, shift, alt, meta}, order}.
  parse (spec) {
    if (typeof spec !== 'string' || spec === '')
      throw Base.error('browser_invalid_argument', 'key must be a non-empty string such as "Enter" or "Control+A"');
    let parts;
    if (spec === '+')
      parts = ['+'];
    else if (spec.endsWith('++'))
      parts = spec.slice(0, -2).split('+').concat(['+']);
    else
      parts = spec.split('+');
    const mods = { ctrl: false, shift: false, alt: false, meta: false };
    const order = [];
    for (let i = 0; i < parts.length - 1; i++) {
      const m = Keyboard.MODIFIERS[parts[i].trim().toLowerCase()];
      if (!m)
        throw Base.error('browser_invalid_argument', '"' + parts[i] + '" in "' + spec + '" is not a modifier; use Control, Shift, Alt or Meta');
      if (!mods[m])
        order.push(m);
      mods[m] = true;
    }
    const k = Keyboard.describeKey(parts[parts.length - 1], mods, spec);
    return Object.assign(k, { mods, order });
  },

  describeKey (name, mods, spec) {
    if (Array.from(name).length === 1) {
      let ch = name;
      // "Control+A" means the A key, not a capital: shortcuts name letters
      // in upper case without holding Shift.
      if ((mods.ctrl || mods.alt || mods.meta) && !mods.shift && /^[A-Z]$/.test(ch))
        ch = ch.toLowerCase();
      // Shift changes the character a key produces: Shift+a is "A",
      // Shift+1 is "!".
      if (mods.shift) {
        if (/^[a-z]$/.test(ch))
          ch = ch.toUpperCase();
        for (const [plain, shifted] of Keyboard.LAYOUT) {
          if (plain === ch)
            ch = shifted;
        }
      }
      const info = Keyboard.charTable().get(ch);
      return {
        key: ch,
        code: info ? info.code : '',
        keyCode: info ? info.keyCode : 0,
        text: ch,
        charShift: info ? info.shift : false,
      };
    }
    const lower = name.trim().toLowerCase();
    const named = Keyboard.NAMED[lower];
    if (named) {
      return {
        key: named[0],
        code: named[1],
        keyCode: named[2],
        text: named[0] === ' ' ? ' ' : (named[0] === 'Enter' ? '\r' : ''),
        charShift: false,
      };
    }
    const f = /^f([1-9]|1[0-2])$/.exec(lower);
    if (f)
      return { key: 'F' + f[1], code: 'F' + f[1], keyCode: 111 + parseInt(f[1], 10), text: '', charShift: false };
    throw Base.error('browser_invalid_argument',
                     '"' + name + '" in "' + spec + '" is not a key; use a single character or one of ' +
                     'Enter, Escape, Tab, Space, Backspace, Delete, Insert, Home, End, PageUp, PageDown, ' +
                     'ArrowUp, ArrowDown, ArrowLeft, ArrowRight, F1–F12, with modifiers such as "Control+A"');
  },

  // The element key events go to: the focused element, or the body.
  target () {
    const a = Dom.deepActiveElement(document);
    return a || document.body || document.documentElement;
  },

  fire (target, type, k, mods, extra) {
    const view = target.ownerDocument.defaultView || window;
    const init = Object.assign({
      bubbles: true,
      cancelable: true,
      composed: true,
      view,
      key: k.key,
      code: k.code,
      location: 0,
      repeat: false,
      isComposing: false,
      ctrlKey: mods.ctrl,
      shiftKey: mods.shift || k.charShift,
      altKey: mods.alt,
      metaKey: mods.meta,
      keyCode: k.keyCode,
      which: k.keyCode,
      charCode: 0,
    }, extra || {});
    return target.dispatchEvent(new view.KeyboardEvent(type, init));
  },

  // The element that takes the focus for typing into @el: for an element
  // inside a contenteditable region, the outermost editable ancestor.
  editingHost (el) {
    if (Actionability.isTextField(el) || el.isContentEditable !== true)
      return el;
    let host = el;
    while (host.parentElement && host.parentElement.isContentEditable)
      host = host.parentElement;
    return host;
  },

  caretIn (el) {
    const sel = el.ownerDocument.getSelection();
    return !!sel && sel.rangeCount > 0 && el.contains(sel.anchorNode);
  },

  // What is in progress between a down call and its up call.
  pending: null,

  // Focuses the element of a ref for key presses, after the actionability
  // checks; answers a not-ready result when it cannot be focused yet.
  focusRef (ctx, args, editable) {
    const el0 = Refs.resolve(ctx, args.ref);
    const label = Refs.format(Refs.parse(args.ref)) + ' ' + Actionability.describe(ctx, el0);
    let el = el0;
    if (editable) {
      el = Actionability.editableTarget(el0);
      if (!el)
        return Actionability.notReady('not-editable', label + ' is not a text field or an editable region: ' +
                                      'use browser_keypress for keys, or give the ref of a text field',
                                      { permanent: true });
    }
    const r = Actionability.check(ctx, el, label, {
      enabled: true, editable, hit: false, stable: false,
    });
    if (!r.ready)
      return r;
    // A paragraph or heading inside a rich-text editor is typed into the
    // way a person does it: the editor (its editing host) takes the focus
    // and the caret goes into the block that was clicked.
    const host = Keyboard.editingHost(el);
    if (Dom.deepActiveElement(document) !== host || (host !== el && !Keyboard.caretIn(el))) {
      if (Dom.deepActiveElement(document) !== host)
        host.focus({ preventScroll: true });
      if (Dom.deepActiveElement(document) !== host && host.ownerDocument.activeElement !== host)
        return Actionability.notReady('unfocusable', label + ' cannot take the keyboard focus; press the key ' +
                                      'without a ref to send it to the page', { permanent: true });
      Pointer.placeCaret(host, el, r.point.x, r.point.y);
      if (el.isContentEditable && !Actionability.isTextField(el) && !Keyboard.caretIn(el)) {
        const sel = el.ownerDocument.getSelection();
        const range = el.ownerDocument.createRange();
        range.selectNodeContents(el);
        range.collapse(false);
        sel.removeAllRanges();
        sel.addRange(range);
      }
    }
    return { ready: true, element: Actions.elementInfo(ctx, el0, args.ref) };
  },

  // keydown (and keypress) of one key, with its default action. Returns
  // {ready, commands: [{name, arg}], prevented, target}.
  down (ctx, args) {
    let element = null;
    if (args.ref) {
      const f = Keyboard.focusRef(ctx, args, !!args.editable);
      if (!f.ready)
        return f;
      element = f.element;
    }
    if (args.up)
      Keyboard.release(ctx);
    if (typeof args.key !== 'string')
      return { ready: true, element, commands: [] };

    const k = Keyboard.parse(args.key);
    const held = { ctrl: false, shift: false, alt: false, meta: false };
    for (const m of k.order) {
      held[m] = true;
      const mk = Keyboard.MODIFIER_KEYS[m];
      Keyboard.fire(Keyboard.target(), 'keydown', { key: mk[0], code: mk[1], keyCode: mk[2], charShift: false }, held, { location: 1 });
    }
    let target = Keyboard.target();

    const pending = { k, target, prevented: false, activate: null };
    Keyboard.pending = pending;
    const commands = [];

    if (!Keyboard.fire(target, 'keydown', k, k.mods)) {
      pending.prevented = true;
      return { ready: true, element, commands, prevented: true };
    }

    const accel = k.mods.ctrl || k.mods.meta;
    const producesChar = k.text !== '' && !accel && !k.mods.alt;
    if (producesChar) {
      // A keydown handler may have moved the focus, as pages that let a
      // person "type anywhere" into their search box do: the keypress
      // and the text go to the element that has the focus now.
      target = Keyboard.target();
      const code = k.text === '\r' ? 13 : k.text.codePointAt(0);
      if (!Keyboard.fire(target, 'keypress', k, k.mods, { keyCode: code, which: code, charCode: code })) {
        pending.prevented = true;
        return { ready: true, element, commands, prevented: true };
      }
    }

    Keyboard.defaultAction(ctx, k, target, commands, pending);
    return { ready: true, element, commands, prevented: false };
  },

  // Characters of browser_type, several in one call: each a whole key
  // press, with a task between one and the next as between a person's
  // key presses, so that the page's microtasks, observers and zero-delay
  // timers run in between. Stops after a key that needs editing commands,
  // when the page starts to unload, or after a short while, and says how
  // many keys it pressed.
  async typeKeys (ctx, args) {
    const keys = args.keys;
    if (!Array.isArray(keys) || keys.length === 0)
      return { ready: true, commands: [], prevented: false, consumed: 0 };
    const started = Base.now();
    let prevented = false;
    let leaving = false;
    const leave = () => {
      leaving = true;
    };
    window.addEventListener('beforeunload', leave, true);
    try {
      for (let i = 0; ; i++) {
        const r = Keyboard.down(ctx, { key: keys[i], up: true });
        prevented = prevented || !!r.prevented;
        if (r.commands.length > 0 || i === keys.length - 1 || Base.now() - started > Keyboard.BATCH_MS)
          return { ready: true, commands: r.commands, prevented, consumed: i + 1 };
        await Keyboard.nextTask();
        if (leaving)
          return { ready: true, commands: [], prevented, consumed: i + 1 };
      }
    } finally {
      window.removeEventListener('beforeunload', leave, true);
    }
  },

  BATCH_MS: 400,

  nextTask () {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(null);
    });
  },

  // keyup of the pending key and of its modifiers, and the activation that
  // Space performs on release.
  release (ctx) {
    const p = Keyboard.pending;
    if (!p)
      return null;
    Keyboard.pending = null;
    const k = p.k;
    const target = Keyboard.target();
    const upOk = Keyboard.fire(target, 'keyup', k, k.mods);
    if (p.activate && upOk && !p.prevented && Dom.deepActiveElement(document) === p.activate)
      p.activate.click();
    const held = Object.assign({}, k.mods);
    for (let i = k.order.length - 1; i >= 0; i--) {
      const m = k.order[i];
      held[m] = false;
      const mk = Keyboard.MODIFIER_KEYS[m];
      Keyboard.fire(Keyboard.target(), 'keyup', { key: mk[0], code: mk[1], keyCode: mk[2], charShift: false }, held, { location: 1 });
    }
    return Actionability.describe(ctx, Keyboard.target());
  },

  up (ctx, args) {
    const focused = Keyboard.release(ctx);
    const t = Dom.deepActiveElement(document);
    const out = { focused, editable: !!t && Actionability.isEditable(t) };
    if (t && Actionability.isTextField(t))
      out.value = Base.clip(t.value, 2000);
    else if (t && t.isContentEditable)
      out.value = Base.clip((t.innerText || '').replace(/\n$/, ''), 2000);
    return out;
  },

  isButtonLike (el) {
    if (!Dom.isHtml(el))
      return false;
    switch (el.localName) {
    case 'button':
    case 'summary':
      return true;
    case 'input':
      return ['button', 'submit', 'reset', 'image', 'checkbox', 'radio', 'file', 'color'].includes(el.type);
    default:
      return false;
    }
  },

  isLink (el) {
    return Dom.isHtml(el) && (el.localName === 'a' || el.localName === 'area') && el.hasAttribute('href');
  },

  defaultAction (ctx, k, target, commands, pending) {
    const mods = k.mods;
    const accel = mods.ctrl || mods.meta;
    const editable = Actionability.isEditable(target);
    const textField = Actionability.isTextField(target);
    const select = Dom.isHtml(target) && target.localName === 'select';

    if (accel && !mods.alt) {
      const c = k.key.toLowerCase();
      if (c === 'a')
        commands.push({ name: 'SelectAll' });
      else if (c === 'c')
        commands.push({ name: 'Copy' });
      else if (c === 'x' && editable)
        commands.push({ name: 'Cut' });
      else if (c === 'v' && editable)
        commands.push({ name: 'Paste' });
      else if (c === 'z' && !mods.shift)
        commands.push({ name: 'Undo' });
      else if ((c === 'z' && mods.shift) || c === 'y')
        commands.push({ name: 'Redo' });
      else if (editable && k.key === 'Backspace')
        commands.push({ name: 'DeleteWordBackward' });
      else if (editable && k.key === 'Delete')
        commands.push({ name: 'DeleteWordForward' });
      else if (editable && k.key === 'ArrowLeft')
        commands.push({ name: mods.shift ? 'MoveWordLeftAndModifySelection' : 'MoveWordLeft' });
      else if (editable && k.key === 'ArrowRight')
        commands.push({ name: mods.shift ? 'MoveWordRightAndModifySelection' : 'MoveWordRight' });
      else if (editable && k.key === 'Home')
        commands.push({ name: mods.shift ? 'MoveToBeginningOfDocumentAndModifySelection' : 'MoveToBeginningOfDocument' });
      else if (editable && k.key === 'End')
        commands.push({ name: mods.shift ? 'MoveToEndOfDocumentAndModifySelection' : 'MoveToEndOfDocument' });
      return;
    }
    if (mods.alt)
      return;

    switch (k.key) {
    case 'Enter':
      // WebKit itself answers the keypress of Enter on buttons, summaries
      // and form fields (implicit submission), even from script; links and
      // text areas are left to us. The commands are the ones WebKit binds
      // to Enter and Shift+Enter: they go through a textInput event of
      // "\n", then insert a paragraph (a line break in a text area).
      if (Dom.isHtml(target) && target.localName === 'textarea' && editable)
        commands.push({ name: 'InsertNewline' });
      else if (editable && !textField)
        commands.push({ name: mods.shift ? 'InsertLineBreak' : 'InsertNewline' });
      else if (Keyboard.isLink(target))
        target.click();
      return;
    case 'Tab':
      Keyboard.moveFocus(ctx, mods.shift ? -1 : 1);
      return;
    case 'Escape':
      Keyboard.escape(target);
      return;
    case 'Backspace':
      if (editable)
        commands.push({ name: 'DeleteBackward' });
      return;
    case 'Delete':
      if (editable)
        commands.push({ name: 'DeleteForward' });
      return;
    case 'ArrowUp':
    case 'ArrowDown':
    case 'ArrowLeft':
    case 'ArrowRight':
      Keyboard.arrow(ctx, k, target, commands, editable, select);
      return;
    case 'Home':
    case 'End':
      if (editable) {
        const end = k.key === 'End';
        const base = end ? 'MoveToEndOfLine' : 'MoveToBeginningOfLine';
        commands.push({ name: mods.shift ? base + 'AndModifySelection' : base });
      } else if (select) {
        Keyboard.stepSelect(target, k.key === 'End' ? Infinity : -Infinity);
      } else {
        const s = Keyboard.scroller(target);
        Keyboard.scrollBy(s, 0, k.key === 'End' ? 1e9 : -1e9);
      }
      return;
    case 'PageUp':
    case 'PageDown':
      if (!editable) {
        const s = Keyboard.scroller(target);
        const h = Keyboard.pageHeight(s);
        Keyboard.scrollBy(s, 0, k.key === 'PageDown' ? h : -h);
      }
      return;
    default:
      break;
    }

    if (k.text === '' || k.text === '\r')
      return;

    if (editable) {
      Keyboard.textInput(target, k.text, commands);
      return;
    }
    if (k.key === ' ') {
      if (Keyboard.isButtonLike(target))
        pending.activate = target;
      else if (!select) {
        const s = Keyboard.scroller(target);
        const h = Keyboard.pageHeight(s);
        Keyboard.scrollBy(s, 0, mods.shift ? -h : h);
      }
      return;
    }
    if (select)
      Keyboard.typeAhead(target, k.text);
  },

  // The text of a key press, the way the browser's own keypress handling
  // inserts it: a textInput event at the focused element, whose default
  // action is WebKit's typing command with its trusted beforeinput and
  // input. Editors that take typed text from textInput, or that tell their
  // own text entry from other DOM changes by it, see what a keyboard gives
  // them; a cancelled textInput inserts nothing. Should WebKit not act on
  // the event, the editing command inserts the text instead.
  textInput (target, text, commands) {
    const doc = target.ownerDocument;
    const view = doc.defaultView;
    const textField = Actionability.isTextField(target);
    const before = textField ? target.value : null;
    const watch = new view.MutationObserver(() => {});
    watch.observe(Keyboard.editingHost(target), { subtree: true, childList: true, characterData: true });
    let seen = false;
    const saw = () => {
      seen = true;
    };
    view.addEventListener('beforeinput', saw, true);
    view.addEventListener('input', saw, true);
    let inserted;
    try {
      const e = doc.createEvent('TextEvent');
      e.initTextEvent('textInput', true, true, view, text);
      inserted = target.dispatchEvent(e);
    } finally {
      view.removeEventListener('beforeinput', saw, true);
      view.removeEventListener('input', saw, true);
    }
    const changed = watch.takeRecords().length > 0 || (textField && target.value !== before);
    watch.disconnect();
    if (inserted && !seen && !changed)
      commands.push({ name: 'InsertText', arg: text });
  },

  arrow (ctx, k, target, commands, editable, select) {
    const dir = (k.key === 'ArrowUp' || k.key === 'ArrowLeft') ? -1 : 1;
    const vertical = k.key === 'ArrowUp' || k.key === 'ArrowDown';
    const shift = k.mods.shift;

    if (Dom.isHtml(target) && target.localName === 'input' &&
        (target.type === 'range' || (target.type === 'number' && vertical))) {
      const before = target.value;
      try {
        if (dir > 0)
          target.stepUp();
        else
          target.stepDown();
      } catch (e) {
        return;
      }
      if (target.value !== before)
        Actions.fireValueEvents(target);
      return;
    }
    if (editable) {
      const name = { ArrowUp: 'MoveUp', ArrowDown: 'MoveDown', ArrowLeft: 'MoveLeft', ArrowRight: 'MoveRight' }[k.key];
      commands.push({ name: shift ? name + 'AndModifySelection' : name });
      return;
    }
    if (select) {
      Keyboard.stepSelect(target, dir);
      return;
    }
    if (Dom.isHtml(target) && target.localName === 'input' && target.type === 'radio') {
      Keyboard.stepRadio(target, dir);
      return;
    }
    const s = Keyboard.scroller(target);
    if (vertical)
      Keyboard.scrollBy(s, 0, dir * 40);
    else
      Keyboard.scrollBy(s, dir * 40, 0);
  },

  // Moves a single-choice <select> to the next enabled option in a
  // direction (±Infinity for the first or last one).
  stepSelect (sel, dir) {
    const opts = Array.from(sel.options).filter((o) => !o.disabled);
    if (opts.length === 0)
      return;
    let i = opts.indexOf(sel.options[sel.selectedIndex]);
    if (dir === Infinity)
      i = opts.length - 1;
    else if (dir === -Infinity)
      i = 0;
    else
      i = Math.min(opts.length - 1, Math.max(0, i + dir));
    const o = opts[i];
    if (o && !o.selected) {
      o.selected = true;
      Actions.fireValueEvents(sel);
    }
  },

  typeAhead (sel, ch) {
    const c = ch.toLowerCase();
    const opts = Array.from(sel.options).filter((o) => !o.disabled);
    const start = opts.indexOf(sel.options[sel.selectedIndex]);
    for (let n = 1; n <= opts.length; n++) {
      const o = opts[(start + n) % opts.length];
      if (Base.flat(o.label || o.text).toLowerCase().startsWith(c)) {
        if (!o.selected) {
          o.selected = true;
          Actions.fireValueEvents(sel);
        }
        return;
      }
    }
  },

  // Arrow keys in a radio group check the next radio and focus it, firing
  // click, input and change as WebKit does.
  stepRadio (radio, dir) {
    if (!radio.name)
      return;
    const root = radio.form || radio.getRootNode();
    const all = Array.from(root.querySelectorAll ? root.querySelectorAll('input[type=radio]') : radio.form.elements)
      .filter((r) => r.type === 'radio' && r.name === radio.name && r.form === radio.form &&
                     !r.disabled && Actionability.visible(r));
    const i = all.indexOf(radio);
    if (i < 0 || all.length < 2)
      return;
    const next = all[(i + dir + all.length) % all.length];
    next.focus({ preventScroll: true });
    Hover.set('focus-visible', next);
    next.click();
  },

  escape (target) {
    const doc = target.ownerDocument;
    const modal = Dom.modalElement(doc);
    if (modal && modal.localName === 'dialog') {
      const view = doc.defaultView;
      if (modal.dispatchEvent(new view.Event('cancel', { cancelable: true })))
        modal.close();
      return;
    }
    for (let a = target; a; a = Dom.parent(a)) {
      try {
        if (a.hasAttribute('popover') && a.matches(':popover-open') && typeof a.hidePopover === 'function') {
          a.hidePopover();
          return;
        }
      } catch (e) {
        return;
      }
    }
  },

  // The element a key scrolls: the nearest scrollable ancestor of the
  // focused element, or the page.
  scroller (el) {
    for (let a = el; a; a = Dom.parent(a)) {
      if (a === a.ownerDocument.body || a === a.ownerDocument.documentElement)
        break;
      const s = a.ownerDocument.defaultView.getComputedStyle(a);
      if ((s.overflowY === 'auto' || s.overflowY === 'scroll') && a.scrollHeight > a.clientHeight)
        return a;
    }
    return document.scrollingElement || document.documentElement;
  },

  pageHeight (s) {
    const h = s === document.scrollingElement ? window.innerHeight : s.clientHeight;
    return Math.max(40, Math.round(h * 0.875));
  },

  scrollBy (s, dx, dy) {
    s.scrollBy({ left: dx, top: dy, behavior: 'instant' });
  },

  // Elements Tab stops at, in order, within a document and the open
  // shadow roots and same-origin frames inside it.
  tabbables (root, out) {
    const doc = root.ownerDocument || root;
    const walk = (node) => {
      for (const c of Dom.children(node)) {
        if (!Dom.isElement(c))
          continue;
        if (c.inert)
          continue;
        const tag = c.localName;
        if (tag === 'iframe' || tag === 'frame') {
          const inner = Dom.frameDocument(c);
          if (inner && inner.body) {
            if (Actionability.visible(c))
              walk(inner.body);
            continue;
          }
        }
        if (Dom.focusable(c) && c.tabIndex >= 0 && !Dom.isDisabledControl(c) &&
            Actionability.visible(c))
          out.push(c);
        walk(c);
      }
    };
    walk(root.nodeType === 9 ? (doc.body || doc.documentElement) : root);
    return out;
  },

  moveFocus (ctx, dir) {
    const modal = Dom.modalElement(document);
    let list = Keyboard.tabbables(modal || document, []);
    const active = Dom.deepActiveElement(document);

    // Radio groups are one stop: the checked radio, or the focused one.
    const groups = new Map();
    list = list.filter((el) => {
      if (el.localName !== 'input' || el.type !== 'radio' || !el.name)
        return true;
      const key = (el.form ? 'f' : 'd') + ':' + el.name;
      const g = groups.get(key);
      if (!g) {
        groups.set(key, el);
        return true;
      }
      return false;
    });
    list = list.map((el) => {
      if (el.localName !== 'input' || el.type !== 'radio' || !el.name)
        return el;
      const all = Array.from(el.ownerDocument.querySelectorAll('input[type=radio]'))
        .filter((r) => r.name === el.name && r.form === el.form && !r.disabled);
      return all.find((r) => r === active) || all.find((r) => r.checked) || el;
    });

    const positive = list.filter((el) => el.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex);
    const order = positive.concat(list.filter((el) => el.tabIndex === 0));
    if (order.length === 0)
      return;
    let i = order.indexOf(active);
    if (i < 0)
      i = dir > 0 ? order.length - 1 : 0;
    const next = order[(i + dir + order.length) % order.length];
    next.focus();
    // Focus moved by the keyboard shows, as :focus-visible.
    if (Dom.deepActiveElement(document) === next)
      Hover.set('focus-visible', next);
    if (Actionability.isTextField(next) && typeof next.select === 'function')
      next.select();
  },
};

// The page has the focus from the key's down call to its up call.
Api.register('keyboard.down', Actions.acting(Keyboard.down, true, false));
Api.register('keyboard.type', Actions.acting(Keyboard.typeKeys, true, false));
Api.register('keyboard.up', Actions.acting(Keyboard.up, false, true));
