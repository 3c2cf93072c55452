// SPDX-License-Identifier: GPL-3.0-or-later
//
// The interaction tools in the page: click, hover, fill, select, drag,
// scroll, the page side of upload, and the wait for the page to settle
// after an action. Each function resolves its refs with Refs.resolve(),
// checks actionability, and either acts or answers {ready: false, reason,
// message} for the C side to try again on its own timer. Nothing here
// waits for the element itself, so a call is always short.

const Actions = {
  elementInfo (ctx, el, ref) {
    return {
      ref: Refs.format(Refs.parse(ref)),
      role: Roles.role(ctx, el) || 'generic',
      name: Names.name(ctx, el),
    };
  },

  // '@e7 button "Save"', the way messages name an element.
  label (ctx, el, ref) {
    return Refs.format(Refs.parse(ref)) + ' ' + Actionability.describe(ctx, el);
  },

  mods (args) {
    const m = { ctrl: false, shift: false, alt: false, meta: false };
    for (const name of args.modifiers || []) {
      const k = Keyboard.MODIFIERS[String(name).toLowerCase()];
      if (!k)
        throw Base.error('browser_invalid_argument', '"' + name + '" is not a modifier; use Control, Shift, Alt or Meta');
      m[k] = true;
    }
    return m;
  },

  // Holds modifier keys down around a pointer action, as a person does
  // for Shift+click or Control+click.
  withModifiers (mods, fn) {
    const order = ['ctrl', 'alt', 'shift', 'meta'].filter((m) => mods[m]);
    const held = { ctrl: false, shift: false, alt: false, meta: false };
    for (const m of order) {
      held[m] = true;
      const mk = Keyboard.MODIFIER_KEYS[m];
      Keyboard.fire(Keyboard.target(), 'keydown', { key: mk[0], code: mk[1], keyCode: mk[2], charShift: false }, held, { location: 1 });
    }
    try {
      return fn();
    } finally {
      for (let i = order.length - 1; i >= 0; i--) {
        held[order[i]] = false;
        const mk = Keyboard.MODIFIER_KEYS[order[i]];
        Keyboard.fire(Keyboard.target(), 'keyup', { key: mk[0], code: mk[1], keyCode: mk[2], charShift: false }, held, { location: 1 });
      }
    }
  },

  // input then change, bubbling, as a control fires them when a person
  // picks a value.
  fireValueEvents (el) {
    const view = el.ownerDocument.defaultView;
    el.dispatchEvent(new view.Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new view.Event('change', { bubbles: true }));
  },

  async click (ctx, args) {
    const el = Refs.resolve(ctx, args.ref);
    const label = Actions.label(ctx, el, args.ref);
    const mods = Actions.mods(args);
    if (el.localName === 'option' && el.closest('select'))
      return Actionability.notReady('option', label + ' is an option of a dropdown: use browser_select on the dropdown instead',
                                    { permanent: true, code: 'browser_invalid_argument' });

    const r = await Actions.ready(ctx, el, label, args, { enabled: true });
    if (!r.ready)
      return r;

    // Named as it was when the agent chose it: the click may rename it.
    const info = Actions.elementInfo(ctx, el, args.ref);
    const checkable = r.through && el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio') &&
                      !args.doubleClick && (args.button || 'left') === 'left';
    const before = checkable ? el.checked : null;
    Actions.withModifiers(mods, () =>
      Pointer.click(r.point.x, r.point.y, {
        button: args.button || 'left',
        clickCount: args.doubleClick ? 2 : 1,
        modifiers: mods,
      }));

    const result = Actions.how(ctx, el, r, { ready: true, element: info, point: r.point });
    if (checkable) {
      // Clicked through something else: the result says what the page made
      // of it, after the task in which a framework sets the state it keeps.
      await Actions.sleep(0);
      result.checked = el.checked;
      result.toggled = el.checked !== before;
    }
    return result;
  },

  // Actionability.ready for an action's element. The first attempt of an
  // action (the C side passes no previous box yet) starts afresh.
  ready (ctx, el, label, args, opts) {
    if (!args.previousBox)
      Actionability.revealed = null;
    return Actionability.ready(ctx, el, label, Object.assign({ hit: true, previousBox: args.previousBox }, opts));
  },

  // Adds to @result how the pointer reached el when a person's click goes
  // through something else: its label, a stand-in, a part of the control
  // drawn over it, or a stack moved over first.
  how (ctx, el, r, result) {
    if (r.through)
      result.through = r.through;
    const hovered = Actionability.takeRevealed(ctx, el);
    if (hovered)
      result.hovered = hovered;
    return result;
  },

  async hover (ctx, args) {
    const el = Refs.resolve(ctx, args.ref);
    const label = Actions.label(ctx, el, args.ref);
    const r = await Actions.ready(ctx, el, label, args, { enabled: false });
    if (!r.ready)
      return r;
    const info = Actions.elementInfo(ctx, el, args.ref);
    Pointer.moveTo(r.point.x, r.point.y, {});
    return Actions.how(ctx, el, r, { ready: true, element: info, point: r.point });
  },

  // What fill and select act on: the element of args.ref, its label for
  // messages, and args.value, which must be a string.
  valueTarget (ctx, args) {
    const el = Refs.resolve(ctx, args.ref);
    const label = Actions.label(ctx, el, args.ref);
    if (typeof args.value !== 'string')
      throw Base.error('browser_invalid_argument', 'value must be a string');
    return { el, label, value: args.value };
  },

  // Prepares a fill: checks the field, focuses it and selects its content,
  // and answers the editing commands that replace it. Fields whose value a
  // person picks (date, colour, range) are set here instead, through the
  // native setter, which frameworks that track the value notice.
  async fill (ctx, args) {
    const { el: el0, label, value } = Actions.valueTarget(ctx, args);

    if (el0.localName === 'select')
      return Actions.select(ctx, args);
    if (el0.localName === 'input' && (el0.type === 'checkbox' || el0.type === 'radio'))
      return Actionability.notReady('checkable', label + ' is a ' + el0.type + ': use browser_click to check or uncheck it',
                                    { permanent: true, code: 'browser_invalid_argument' });
    if (el0.localName === 'input' && el0.type === 'file')
      return Actionability.notReady('file', label + ' is a file input: use browser_upload',
                                    { permanent: true, code: 'browser_invalid_argument' });

    const el = Actionability.editableTarget(el0);
    if (!el)
      return Actionability.notReady('not-editable', label + ' is not a text field or an editable region',
                                    { permanent: true });

    if (Actionability.isValueInput(el)) {
      const r = await Actionability.ready(ctx, el, label, { enabled: true, hit: true, previousBox: args.previousBox });
      if (!r.ready)
        return r;
      if (el.readOnly)
        return Actionability.notReady('readonly', label + ' is read-only');
      const info = Actions.elementInfo(ctx, el0, args.ref);
      el.focus({ preventScroll: true });
      const before = el.value;
      el.value = value;
      if (el.value !== value && !(el.type === 'color' && el.value === value.toLowerCase()) &&
          !(el.type === 'range' && value !== '')) {
        el.value = before;
        throw Base.error('browser_invalid_argument', '"' + Base.clip(value, 60) + '" is not a valid value for ' + label +
                         ' (' + el.type + ' fields take ' + Actions.valueFormat(el.type) + ')');
      }
      if (el.value !== before)
        Actions.fireValueEvents(el);
      return { ready: true, element: info, commands: [], value: el.value };
    }

    if (el.localName === 'input' && el.type === 'number' && value.trim() !== '' && !isFinite(Number(value)))
      throw Base.error('browser_invalid_argument', '"' + Base.clip(value, 60) + '" is not a number, and ' + label + ' takes numbers only');

    const r = await Actionability.ready(ctx, el, label, { enabled: true, editable: true, hit: true, previousBox: args.previousBox });
    if (!r.ready)
      return r;

    if (Dom.deepActiveElement(document) !== el)
      el.focus({ preventScroll: true });
    if (Actionability.isTextField(el)) {
      el.select();
    } else {
      const sel = el.ownerDocument.getSelection();
      const range = el.ownerDocument.createRange();
      range.selectNodeContents(el);
      sel.removeAllRanges();
      sel.addRange(range);
    }

    const current = Actionability.isTextField(el) ? el.value : el.textContent;
    const commands = [];
    if (value !== '')
      commands.push({ name: 'InsertText', arg: value });
    else if (current !== '')
      commands.push({ name: 'DeleteBackward' });
    return { ready: true, element: Actions.elementInfo(ctx, el0, args.ref), commands };
  },

  valueFormat (type) {
    return {
      date: 'YYYY-MM-DD',
      'datetime-local': 'YYYY-MM-DDThh:mm',
      month: 'YYYY-MM',
      time: 'hh:mm',
      week: 'YYYY-Www',
      color: '#rrggbb',
      range: 'a number',
    }[type] || 'text';
  },

  // What the field holds after a fill, so the result can say when the page
  // changed or refused the text.
  fillCheck (ctx, args) {
    const el0 = Refs.resolve(ctx, args.ref);
    const el = Actionability.editableTarget(el0) || el0;
    const value = Actionability.isTextField(el) || Actionability.isValueInput(el) ? el.value
                                                                                  : (el.innerText || '').replace(/\n$/, '');
    return { value: Base.clip(value, 2000) };
  },

  optionLabel (o) {
    return Base.flat(o.label || o.text);
  },

  findOption (sel, value) {
    const opts = Array.from(sel.options);
    return opts.find((o) => o.value === value) ||
           opts.find((o) => Actions.optionLabel(o) === Base.flat(value)) ||
           opts.find((o) => Actions.optionLabel(o).toLowerCase() === Base.flat(value).toLowerCase()) ||
           null;
  },

  listOptions (sel) {
    const parts = [];
    for (const o of Array.from(sel.options).slice(0, 20)) {
      const l = Actions.optionLabel(o);
      parts.push(Base.quote(l) + (o.value !== l ? ' (value ' + Base.quote(o.value) + ')' : ''));
    }
    if (sel.options.length > 20)
      parts.push('… ' + (sel.options.length - 20) + ' more');
    return parts.length ? parts.join(', ') : 'none';
  },

  async select (ctx, args) {
    const { el, label, value } = Actions.valueTarget(ctx, args);

    if (el.localName !== 'select') {
      const role = Roles.role(ctx, el);
      if (role === 'listbox')
        return Actions.selectInListbox(ctx, el, label, args);
      if (el.localName === 'input' && el.list)
        return Actions.fill(ctx, args);
      if (role === 'combobox')
        return Actionability.notReady('custom-combobox', label + ' is a dropdown the page builds itself, not a <select>: ' +
                                      'click it to open its list, take a snapshot, then click the option',
                                      { permanent: true, code: 'browser_invalid_argument' });
      return Actionability.notReady('not-select', label + ' is not a dropdown (<select>)',
                                    { permanent: true, code: 'browser_invalid_argument' });
    }

    const r = await Actions.ready(ctx, el, label, args, { enabled: true });
    if (!r.ready)
      return r;

    const option = Actions.findOption(el, value);
    if (!option)
      return Actionability.notReady('no-option', label + ' has no option ' + Base.quote(Base.clip(value, 80)) +
                                    '; its options are ' + Actions.listOptions(el),
                                    { code: 'browser_invalid_argument', permanent: true });
    if (option.disabled || (option.parentElement && option.parentElement.localName === 'optgroup' && option.parentElement.disabled))
      return Actionability.notReady('disabled', 'option ' + Base.quote(Actions.optionLabel(option)) + ' of ' + label + ' is disabled');

    // A person clicks the dropdown, then picks from its list: the page sees
    // the click, then input and change.
    const info = Actions.elementInfo(ctx, el, args.ref);
    Pointer.click(r.point.x, r.point.y, { button: 'left', clickCount: 1, modifiers: {} });

    let changed = false;
    if (el.multiple) {
      for (const o of el.options) {
        const want = o === option;
        if (o.selected !== want) {
          o.selected = want;
          changed = true;
        }
      }
    } else if (!option.selected) {
      option.selected = true;
      changed = true;
    }
    if (changed)
      Actions.fireValueEvents(el);

    return Actions.how(ctx, el, r, {
      ready: true,
      element: info,
      selected: { value: option.value, label: Actions.optionLabel(option) },
      changed,
    });
  },

  // An ARIA listbox: the option is clicked like any element.
  async selectInListbox (ctx, el, label, args) {
    const want = Base.flat(args.value);
    const options = [];
    const visit = (root) => {
      for (const o of root.querySelectorAll('[role=option]'))
        options.push(o);
    };
    visit(el);
    const option = options.find((o) => Names.name(ctx, o) === want) ||
                   options.find((o) => Names.name(ctx, o).toLowerCase() === want.toLowerCase()) ||
                   options.find((o) => o.getAttribute('data-value') === args.value);
    if (!option) {
      const names = options.slice(0, 20).map((o) => Base.quote(Names.name(ctx, o)));
      return Actionability.notReady('no-option', label + ' has no option ' + Base.quote(Base.clip(want, 80)) +
                                    '; its options are ' + (names.length ? names.join(', ') : 'none'),
                                    { code: 'browser_invalid_argument' });
    }
    const olabel = label + ' option ' + Base.quote(Names.name(ctx, option));
    const r = await Actionability.ready(ctx, option, olabel, { enabled: true, hit: true, previousBox: args.previousBox });
    if (!r.ready)
      return r;
    const info = Actions.elementInfo(ctx, el, args.ref);
    const optionName = Names.name(ctx, option);
    Pointer.click(r.point.x, r.point.y, { button: 'left', clickCount: 1, modifiers: {} });
    return {
      ready: true,
      element: info,
      selected: { value: args.value, label: optionName },
      changed: true,
    };
  },

  sleep (ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  },

  centerOf (el) {
    const pts = Actionability.points(el);
    return pts.length ? pts[0] : null;
  },

  // The element that starts an HTML drag when pressed at el: the nearest
  // draggable inclusive ancestor (draggable="true", links, images).
  draggableAt (el, stop) {
    for (let a = el; a; a = Dom.parent(a)) {
      if (a.draggable === true && !(a.localName === 'img' && a !== el && a !== stop))
        return a;
      if (a === stop)
        break;
    }
    return null;
  },

  dragInit (target, p, dt, extra) {
    const c = Pointer.clientPoint(target, p.x, p.y);
    return Pointer.init(target, c.x, c.y, {}, Object.assign({ dataTransfer: dt, buttons: 1 }, extra || {}));
  },

  // A person's drag: about a third of a second on the way, a move every
  // 30 ms, then a rest on the target long enough for a page that samples
  // the pointer on an interval (50 ms is common) to see where it ended.
  DRAG_STEPS: 10,
  DRAG_STEP_MS: 30,
  DRAG_REST_MS: 60,
  // On a page whose timers run late (a busy machine), the way to the
  // target is cut short after this, so that the call ends in its time.
  DRAG_BUDGET_MS: 2000,

  near (a, b) {
    return Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1;
  },

  // Drags one element onto another: an HTML drag and drop with a
  // DataTransfer when what is pressed is draggable, otherwise a pointer
  // drag (down, moves in steps, up) for libraries built on pointer or
  // mouse events. Before the release the pointer goes to where the target
  // is then (a sortable list moves it while the drag goes on) and rests
  // there. The result says where the release landed and whether the page
  // changed, never more than that.
  async drag (ctx, args) {
    const src = Refs.resolve(ctx, args.sourceRef);
    const dst = Refs.resolve(ctx, args.targetRef);
    const slabel = Actions.label(ctx, src, args.sourceRef);
    const tlabel = Actions.label(ctx, dst, args.targetRef);
    if (src === dst)
      throw Base.error('browser_invalid_argument', 'sourceRef and targetRef are the same element');

    const t = Actionability.check(ctx, dst, tlabel, { enabled: false, hit: false, stable: false });
    if (!t.ready)
      return t;
    const s = await Actionability.ready(ctx, src, slabel, { enabled: true, hit: true, previousBox: args.previousBox });
    if (!s.ready)
      return s;

    const sourceInfo = Actions.elementInfo(ctx, src, args.sourceRef);
    const targetInfo = Actions.elementInfo(ctx, dst, args.targetRef);
    const start = s.point;
    const steps = Actions.DRAG_STEPS;

    Pointer.moveTo(start.x, start.y, {});
    const press = Pointer.press(start.x, start.y, {});
    const draggable = press.el && press.mouseOk ? Actions.draggableAt(press.el, src) : null;

    // The target may have scrolled out of view while the source came in.
    if (!Actionability.inViewport(dst))
      Actionability.reveal(dst);

    if (draggable) {
      const view = draggable.ownerDocument.defaultView;
      const dt = new view.DataTransfer();
      const nudge = { x: start.x + 4, y: start.y + 4 };
      Pointer.moveTo(nudge.x, nudge.y, {});
      if (Pointer.fire(draggable, 'dragstart', Actions.dragInit(draggable, nudge, dt))) {
        if (dt.effectAllowed === 'uninitialized')
          dt.effectAllowed = 'all';
        let over = null;
        let accepted = false;
        let p = nudge;
        const deadline = Base.now() + Actions.DRAG_BUDGET_MS;
        for (let i = 1; i <= steps + 3; i++) {
          await Actions.sleep(i <= steps ? Actions.DRAG_STEP_MS : Actions.DRAG_REST_MS);
          const end = Actions.centerOf(dst);
          if (!end)
            break;
          if (i < steps && Base.now() > deadline)
            i = steps;
          const f = Math.min(1, i / steps);
          p = { x: nudge.x + (end.x - nudge.x) * f, y: nudge.y + (end.y - nudge.y) * f };
          const h = Pointer.hit(p.x, p.y);
          Pointer.fire(draggable, 'drag', Actions.dragInit(draggable, p, dt));
          const now = h ? h.el : null;
          if (now !== over) {
            if (now)
              Pointer.fire(now, 'dragenter', Actions.dragInit(now, p, dt, { relatedTarget: over }));
            if (over)
              Pointer.fire(over, 'dragleave', Actions.dragInit(over, p, dt, { relatedTarget: now, cancelable: false }));
            over = now;
          }
          if (over) {
            dt.dropEffect = 'none';
            accepted = !Pointer.fire(over, 'dragover', Actions.dragInit(over, p, dt));
            if (accepted && dt.dropEffect === 'none')
              dt.dropEffect = dt.effectAllowed === 'copy' ? 'copy' : 'move';
          }
        }
        let dropped = false;
        if (over && accepted && Pointer.contains(dst, over)) {
          Pointer.fire(over, 'drop', Actions.dragInit(over, p, dt, { buttons: 0 }));
          dropped = true;
        } else if (over) {
          Pointer.fire(over, 'dragleave', Actions.dragInit(over, p, dt, { cancelable: false, buttons: 0 }));
          dt.dropEffect = 'none';
        }
        Pointer.buttons = 0;
        if (draggable.isConnected)
          Pointer.fire(draggable, 'dragend', Actions.dragInit(draggable, p, dt, { buttons: 0 }));
        Pointer.hovered = over ? new WeakRef(over) : null;
        Hover.set('hover', over);
        Pointer.x = p.x;
        Pointer.y = p.y;
        return { ready: true, source: sourceInfo, target: targetInfo, mode: 'html5', dropped };
      }
    }

    // A pointer drag. After a cancelled pointerdown the page gets no
    // mouse compatibility events until the button is released.
    const compat = press.ok;
    let mutations = 0;
    const observer = new MutationObserver((records) => {
      mutations += records.length;
    });
    observer.observe(src.ownerDocument, { subtree: true, childList: true, attributes: true, characterData: true });
    if (dst.ownerDocument !== src.ownerDocument)
      observer.observe(dst.ownerDocument, { subtree: true, childList: true, attributes: true, characterData: true });
    const sourceBox = Actionability.box(src);
    const deadline = Base.now() + Actions.DRAG_BUDGET_MS;
    let captured = false;
    let p = start;
    for (let i = 1; i <= steps; i++) {
      await Actions.sleep(Actions.DRAG_STEP_MS);
      const end = Actions.centerOf(dst) || p;
      const f = Base.now() > deadline ? 1 : i / steps;
      p = { x: start.x + (end.x - start.x) * f, y: start.y + (end.y - start.y) * f };
      Pointer.moveTo(p.x, p.y, {}, compat);
      captured = captured || Pointer.capture !== null;
      if (f === 1)
        break;
    }
    // Re-aim at where the target is now, until it stays put.
    for (let i = 0; i < 4 && Base.now() < deadline + Actions.DRAG_BUDGET_MS / 2; i++) {
      await Actions.sleep(Actions.DRAG_STEP_MS);
      const end = Actions.centerOf(dst);
      if (!end || Actions.near(end, p))
        break;
      p = end;
      Pointer.moveTo(p.x, p.y, {}, compat);
    }
    // Rest on it, with the small move a resting hand makes.
    await Actions.sleep(Actions.DRAG_REST_MS);
    Pointer.moveTo(p.x, p.y, {}, compat);
    await Actions.sleep(Actions.DRAG_REST_MS);
    const released = Pointer.release(p.x, p.y, {}, compat, press.el);
    captured = captured || released.captured;
    mutations += observer.takeRecords().length;
    observer.disconnect();

    const onTarget = (released.under !== null && Pointer.contains(dst, released.under)) ||
                     (released.el !== null && Pointer.contains(dst, released.el));
    const moved = src.isConnected && !Actionability.sameBox(Actionability.box(src), sourceBox);
    const changed = mutations > 0 || moved || !src.isConnected;
    return {
      ready: true,
      source: sourceInfo,
      target: targetInfo,
      mode: 'pointer',
      dropped: onTarget && changed,
      onTarget,
      pageChanged: changed,
      captured,
      releasedOn: released.under ? Actionability.describe(ctx, released.under) : '',
    };
  },

  // Whether el scrolls along an axis by delta.
  canScroll (el, dx, dy) {
    const doc = el.ownerDocument;
    const isRoot = el === doc.scrollingElement || el === doc.documentElement || el === doc.body;
    const s = doc.defaultView.getComputedStyle(el);
    if (dy !== 0) {
      const ok = isRoot || s.overflowY === 'auto' || s.overflowY === 'scroll';
      const room = dy > 0 ? el.scrollHeight - el.clientHeight - el.scrollTop > 0.5 : el.scrollTop > 0.5;
      if (ok && room)
        return true;
    }
    if (dx !== 0) {
      const ok = isRoot || s.overflowX === 'auto' || s.overflowX === 'scroll';
      const room = dx > 0 ? el.scrollWidth - el.clientWidth - el.scrollLeft > 0.5 : el.scrollLeft > 0.5;
      if (ok && room)
        return true;
    }
    return false;
  },

  // What a wheel over el scrolls: el or its nearest ancestor that can still
  // move that way, across frames, ending with the top page.
  scrollerFor (el, dx, dy) {
    for (let a = el; a; a = Dom.parentAcrossFrames(a)) {
      const doc = a.ownerDocument;
      if (a === doc.body || a === doc.documentElement) {
        const root = doc.scrollingElement || doc.documentElement;
        if (Actions.canScroll(root, dx, dy))
          return root;
        continue;
      }
      if (Actions.canScroll(a, dx, dy))
        return a;
    }
    return document.scrollingElement || document.documentElement;
  },

  // Resolves once the page has been told that scroller moved (its scroll
  // event, which the engine fires at the next animation frame), or after
  // maxMs when no frame comes.
  scrolled (scroller, maxMs) {
    const doc = scroller.ownerDocument;
    const target = scroller === doc.scrollingElement ? doc : scroller;
    return new Promise((resolve) => {
      let timer = 0;
      const done = (seen) => {
        target.removeEventListener('scroll', onScroll, true);
        clearTimeout(timer);
        resolve(seen);
      };
      const onScroll = () => done(true);
      target.addEventListener('scroll', onScroll, true);
      timer = setTimeout(() => done(false), maxMs);
    });
  },

  async scroll (ctx, args) {
    const dx = Number(args.deltaX) || 0;
    const dy = Number(args.deltaY) || 0;
    let el = null;
    let point;
    let info = null;
    if (args.ref) {
      el = Refs.resolve(ctx, args.ref);
      const label = Actions.label(ctx, el, args.ref);
      const r = Actionability.check(ctx, el, label, { enabled: false, hit: false, stable: false });
      if (!r.ready)
        return r;
      point = r.point;
      info = Actions.elementInfo(ctx, el, args.ref);
    } else {
      point = { x: window.innerWidth / 2, y: window.innerHeight / 2 };
    }

    const h = Pointer.moveTo(point.x, point.y, {});
    const over = h && (!el || Pointer.contains(el, h.el)) ? h.el : (el || document.body);
    const c = Pointer.clientPoint(over, point.x, point.y);
    const wheel = Pointer.init(over, c.x, c.y, {}, { deltaX: dx, deltaY: dy, deltaZ: 0, deltaMode: 0 });
    const allowed = Pointer.fire(over, 'wheel', wheel);

    const scroller = Actions.scrollerFor(el || over, dx, dy);
    const before = { x: scroller.scrollLeft, y: scroller.scrollTop };
    let seen = null;
    if (allowed) {
      seen = Actions.scrolled(scroller, 500);
      scroller.scrollBy({ left: dx, top: dy, behavior: 'instant' });
    }
    const after = { x: scroller.scrollLeft, y: scroller.scrollTop };
    // The result comes after the page's scroll listeners ran.
    if (seen && (after.x !== before.x || after.y !== before.y))
      await seen;
    const doc = scroller.ownerDocument;
    const isPage = scroller === doc.scrollingElement && doc === document;
    return {
      ready: true,
      element: info,
      prevented: !allowed,
      scrolled: isPage ? 'page' : Actionability.describe(ctx, scroller),
      scrollX: Math.round(after.x),
      scrollY: Math.round(after.y),
      movedX: Math.round(after.x - before.x),
      movedY: Math.round(after.y - before.y),
      atBottom: scroller.scrollHeight - scroller.clientHeight - scroller.scrollTop <= 1,
    };
  },

  // The file input a ref stands for: the input itself, the input a label
  // is for, or the only file input inside the element.
  fileInput (el) {
    if (el.localName === 'input' && el.type === 'file')
      return el;
    if (el.localName === 'label' && el.control && el.control.type === 'file')
      return el.control;
    const inside = el.querySelectorAll('input[type=file]');
    return inside.length === 1 ? inside[0] : null;
  },

  // Opens the file chooser the way a person does, by clicking; the C side
  // answers WebKit's file chooser request with the files.
  async upload (ctx, args) {
    const el = Refs.resolve(ctx, args.ref);
    const label = Actions.label(ctx, el, args.ref);
    const count = args.count || 0;
    const input = Actions.fileInput(el);
    const info = Actions.elementInfo(ctx, el, args.ref);

    if (input) {
      if (input.disabled)
        return Actionability.notReady('disabled', label + ' is disabled');
      if (count > 1 && !input.multiple)
        throw Base.error('browser_invalid_argument', label + ' takes one file, and ' + count + ' were given');
      // Styled pickers hide the input itself; clicking it from script opens
      // the same chooser, with the user activation of this call.
      const r = Actionability.visible(input)
        ? Actionability.check(ctx, input, label, { enabled: true, hit: true, stable: false })
        : null;
      if (r && r.ready)
        Pointer.click(r.point.x, r.point.y, { button: 'left', clickCount: 1, modifiers: {} });
      else
        input.click();
      return { ready: true, element: info, input: true, multiple: input.multiple, accept: input.accept || '' };
    }

    const r = await Actionability.ready(ctx, el, label, { enabled: true, hit: true, previousBox: args.previousBox });
    if (!r.ready)
      return r;
    Pointer.click(r.point.x, r.point.y, { button: 'left', clickCount: 1, modifiers: {} });
    return { ready: true, element: info, input: false };
  },

  // The files the input holds, by name, for the result. The input takes
  // the chooser's files a moment after the chooser was answered: with
  // count, this waits until it holds that many, for maxMs at most, then
  // says what it holds.
  uploadCheck (ctx, args) {
    const el = Refs.resolve(ctx, args.ref);
    const input = Actions.fileInput(el);
    if (!input)
      return { files: null };
    const want = typeof args.count === 'number' ? args.count : 0;
    const max = typeof args.maxMs === 'number' ? args.maxMs : 1000;
    const start = Base.now();
    return new Promise((resolve) => {
      const tick = () => {
        const files = Array.from(input.files || []);
        if (files.length >= want || Base.now() - start >= max)
          resolve({ files: files.map((f) => f.name) });
        else
          setTimeout(tick, 10);
      };
      tick();
    });
  },

  // Waits until the DOM has been quiet for quietMs, or maxMs at most. The
  // quiet counts from this call, or with afterLoad from the page's load
  // event (for a navigation that has just ended): either way a change the
  // page makes later starts it again.
  settle (ctx, args) {
    const quiet = typeof args.quietMs === 'number' ? args.quietMs : 50;
    const max = typeof args.maxMs === 'number' ? args.maxMs : 1500;
    return new Promise((resolve) => {
      const start = Base.now();
      const since = args.afterLoad ? Math.min(start, Settle.loaded) : start;
      const first = Settle.changes;
      const last = () => Math.max(since, Settle.last);
      // An animation frame passes too: what the action's handlers asked for
      // in one (a popover placing itself, a list measuring its rows) runs
      // before this callback, which was requested after theirs. A hidden
      // page gets no frames, and is not waited for.
      let framed = document.visibilityState !== 'visible';
      if (!framed)
        requestAnimationFrame(() => { framed = true; });
      const tick = () => {
        const now = Base.now();
        const isQuiet = framed && now - last() >= quiet;
        if (isQuiet || now - start >= max) {
          // The title as the document has it now, for the result of a
          // navigation that settled (the UI process hears of it later).
          resolve({ mutations: Settle.changes - first, waitedMs: Math.round(now - start), quiet: isQuiet,
            title: document.title });
          return;
        }
        setTimeout(tick, Math.max(4, quiet - (now - last())));
      };
      setTimeout(tick, framed ? Math.max(0, quiet - (start - last())) : 4);
    });
  },

  // Tells the page-world part that an action starts or ends on the page,
  // so that document.hasFocus() answers as in a page a person acts on.
  actionEvent (type) {
    window.dispatchEvent(new Event(type));
  },

  // Wraps a page function so that the page has the focus from start (when
  // start) to end (when end), whether it answers at once or later. A fill
  // ends after its check, since the C side types in between.
  acting (fn, start, end) {
    return (ctx, args) => {
      if (start) {
        Actions.actionEvent('tabwright-action-start');
        // Rules the page added through the CSSOM since the last action.
        Hover.refresh();
      }
      const done = (v) => {
        if (end || !v || v.ready === false)
          Actions.actionEvent('tabwright-action-end');
      };
      let value;
      try {
        value = fn(ctx, args);
      } catch (e) {
        Actions.actionEvent('tabwright-action-end');
        throw e;
      }
      if (value !== null && typeof value === 'object' && typeof value.then === 'function') {
        return value.then((v) => {
          done(v);
          return v;
        }, (e) => {
          Actions.actionEvent('tabwright-action-end');
          throw e;
        });
      }
      done(value);
      return value;
    };
  },

  // browser_evaluate runs in the page's own world, which cannot see refs.
  // This hands the element over through the DOM: the page-world code fires
  // a request event named with a one-time nonce, and the listener set here
  // answers by firing an event on the element, whose target the page-world
  // code takes.
  exposeElement (ctx, args) {
    const el = Refs.resolve(ctx, args.ref);
    const nonce = String(args.nonce || '');
    if (!/^[a-z0-9]{8,64}$/.test(nonce))
      throw Base.error('browser_internal', 'bad nonce');
    const request = 'tabwright-element-request-' + nonce;
    const answer = 'tabwright-element-' + nonce;
    const handler = (e) => {
      window.removeEventListener(request, handler, true);
      clearTimeout(timer);
      e.stopImmediatePropagation();
      if (el.isConnected) {
        const view = el.ownerDocument.defaultView;
        el.dispatchEvent(new view.CustomEvent(answer, { bubbles: true, composed: true }));
      }
    };
    const timer = setTimeout(() => window.removeEventListener(request, handler, true), 10000);
    window.addEventListener(request, handler, true);
    return { element: Actions.elementInfo(ctx, el, args.ref), frame: el.ownerDocument === document ? 'main' : 'child' };
  },
};

Api.register('actions.click', Actions.acting(Actions.click, true, true));
Api.register('actions.hover', Actions.acting(Actions.hover, true, true));
Api.register('actions.fill', Actions.acting(Actions.fill, true, false));
Api.register('actions.fillCheck', Actions.acting(Actions.fillCheck, false, true));
Api.register('actions.select', Actions.acting(Actions.select, true, true));
Api.register('actions.drag', Actions.acting(Actions.drag, true, true));
Api.register('actions.scroll', Actions.acting(Actions.scroll, true, true));
Api.register('actions.upload', Actions.acting(Actions.upload, true, true));
Api.register('actions.uploadCheck', Actions.uploadCheck);
Api.register('actions.settle', Actions.settle);

// When the DOM last changed, and when the page's load event came, for the
// settle wait. Changes are watched from the end of parsing (the parser's
// own insertions are no change a page makes), cheaply: no records are kept.
const Settle = {
  last: 0,
  loaded: Base.now(),
  changes: 0,

  start () {
    Settle.last = Base.now();
    new MutationObserver((records) => {
      Settle.last = Base.now();
      Settle.changes += records.length;
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  },
};

if (document.readyState === 'loading')
  document.addEventListener('DOMContentLoaded', Settle.start, { once: true });
else
  Settle.start();
if (document.readyState !== 'complete')
  window.addEventListener('load', () => { Settle.loaded = Base.now(); }, { once: true });
Api.register('actions.exposeElement', Actions.exposeElement);
