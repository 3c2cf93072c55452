// SPDX-License-Identifier: GPL-3.0-or-later
//
// States and properties printed in brackets after an element: native HTML
// state first, ARIA attributes where HTML has none (HTML-AAM gives native
// state precedence, e.g. a checkbox's checkedness over aria-checked).

const States = {
  CHECKABLE: new Set([
    'checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio', 'treeitem',
  ]),
  SELECTABLE: new Set([
    'option', 'tab', 'gridcell', 'row', 'treeitem', 'columnheader', 'rowheader',
  ]),
  TEXT_VALUE: new Set(['textbox', 'searchbox', 'combobox']),
  VALUE_MAX: 100,

  // The list of bracketed items for an element, e.g. ['checked', 'level=2'].
  // `name` is the accessible name already printed, so a placeholder that
  // became the name is not repeated. `attrs`, when given, is
  // el.getAttributeNames(): attributes it does not list are not looked up.
  compute (ctx, el, role, name, attrs) {
    const out = [];
    const html = Dom.isHtml(el);
    const tag = html ? el.localName : '';
    const names = attrs === undefined ? el.getAttributeNames() : attrs;
    const aria = (attr) => names.includes(attr) ? el.getAttribute(attr) : null;

    if (States.CHECKABLE.has(role)) {
      const c = States.checked(el, tag, aria('aria-checked'));
      if (c === 'true')
        out.push('checked');
      else if (c === 'mixed')
        out.push('checked=mixed');
    }

    if (role === 'button') {
      const p = aria('aria-pressed');
      if (p === 'true')
        out.push('pressed');
      else if (p === 'mixed')
        out.push('pressed=mixed');
    }

    const expanded = States.expanded(el, tag, aria('aria-expanded'));
    if (expanded !== null)
      out.push(expanded ? 'expanded' : 'expanded=false');

    if (States.SELECTABLE.has(role)) {
      if (tag === 'option' ? el.selected : aria('aria-selected') === 'true')
        out.push('selected');
    }

    if (role === 'heading') {
      out.push('level=' + States.headingLevel(el, tag, aria('aria-level')));
    } else if (role === 'treeitem' || role === 'row' || role === 'listitem') {
      const l = parseInt(aria('aria-level'), 10);
      if (l > 0)
        out.push('level=' + l);
    }

    const value = States.value(ctx, el, tag, role);
    if (value !== null)
      out.push(value);

    if (States.isDisabled(el, tag, role, ctx))
      out.push('disabled');
    const control = tag === 'input' || tag === 'textarea' || tag === 'select';
    if ((control && el.required === true) || aria('aria-required') === 'true')
      out.push('required');
    if (((tag === 'input' || tag === 'textarea') && el.readOnly === true &&
         role !== 'button' && role !== 'checkbox' && role !== 'radio') ||
        aria('aria-readonly') === 'true')
      out.push('readonly');
    const invalid = States.invalid(el, control, aria('aria-invalid'));
    if (invalid !== null)
      out.push(invalid);

    const popup = aria('aria-haspopup');
    if (popup !== null && popup !== 'false' && popup !== '')
      out.push(popup === 'true' ? 'haspopup=menu' : 'haspopup=' + popup.toLowerCase());

    if (States.TEXT_VALUE.has(role)) {
      let ph = (tag === 'input' || tag === 'textarea') && names.includes('placeholder')
        ? el.getAttribute('placeholder') : null;
      if (ph === null)
        ph = aria('aria-placeholder');
      ph = Base.flat(ph);
      if (ph !== '' && ph !== name)
        out.push('placeholder=' + Base.quote(Base.clip(ph, States.VALUE_MAX)));
    }

    if (ctx.focused === el)
      out.push('focused');
    return out;
  },


  // ariaChecked: the aria-checked attribute, which native checkboxes and
  // radios ignore.
  checked (el, tag, ariaChecked) {
    if (tag === 'input' && (el.type === 'checkbox' || el.type === 'radio')) {
      if (el.type === 'checkbox' && el.indeterminate)
        return 'mixed';
      return el.checked ? 'true' : 'false';
    }
    if (ariaChecked === 'true' || ariaChecked === 'mixed')
      return ariaChecked;
    return 'false';
  },

  expanded (el, tag, ariaExpanded) {
    if (tag === 'summary' && el.parentElement && el.parentElement.localName === 'details' &&
        Dom.firstSummary(el.parentElement) === el)
      return el.parentElement.open;
    if (ariaExpanded === 'true')
      return true;
    if (ariaExpanded === 'false')
      return false;
    return null;
  },

  headingLevel (el, tag, ariaLevel) {
    const a = parseInt(ariaLevel, 10);
    if (a > 0)
      return a;
    if (/^h[1-6]$/.test(tag))
      return parseInt(tag[1], 10);
    return 2;
  },

  // A disabled form control, a control inside a disabled fieldset, or
  // aria-disabled on the element or an ancestor (WAI-ARIA 1.2: the state
  // applies to the whole subtree).
  // `ctx`, when given, lets a document without aria-disabled skip the search
  // up the tree.
  isDisabled (el, tag, role, ctx) {
    if (Dom.isFormControl(el) && Dom.isDisabledControl(el))
      return true;
    if (!Roles.INTERACTIVE.has(role) && role !== 'group' && role !== 'radiogroup' &&
        role !== 'toolbar' && role !== 'menu' && role !== 'tablist')
      return false;
    if (ctx !== undefined && el.getRootNode().nodeType === 9 &&
        !Dom.documentHas(ctx, el.ownerDocument, '[aria-disabled="true"]'))
      return false;
    // closest() stops at a shadow root; the search goes on from its host.
    for (let a = el; a; ) {
      if (a.closest('[aria-disabled="true"]') !== null)
        return true;
      const root = a.getRootNode();
      a = root.nodeType === 11 ? root.host : null;
    }
    return false;
  },

  // aria-invalid, or a native constraint failure the person has already
  // interacted with (:user-invalid), not a pristine required field.
  invalid (el, control, ariaInvalid) {
    const a = ariaInvalid;
    if (a !== null && a !== '' && a !== 'false') {
      if (a === 'grammar' || a === 'spelling')
        return 'invalid=' + a;
      return 'invalid';
    }
    if (control) {
      try {
        if (el.matches(':user-invalid'))
          return 'invalid';
      } catch (e) {
        // Engines without :user-invalid report only aria-invalid.
      }
    }
    return null;
  },

  // The label of a drop-down's selected option, the text it shows; '' for
  // none.
  selectedLabel (el) {
    const o = el.selectedOptions.length > 0 ? el.selectedOptions[0] : null;
    return o ? Base.clip(Base.flat(o.label || o.textContent), States.VALUE_MAX) : '';
  },

  // value=… for the roles that carry one; null when there is none to show.
  value (ctx, el, tag, role) {
    if (role === 'textbox' || role === 'searchbox' || (role === 'combobox' && tag !== 'select')) {
      let v;
      if (tag === 'input' || tag === 'textarea') {
        v = el.value;
        if (tag === 'input' && el.type === 'password')
          return v !== '' ? 'value=<hidden>' : null;
      } else {
        v = el.textContent;
      }
      v = Base.flat(v);
      if (v === '')
        return null;
      return 'value=' + Base.quote(Base.clip(v, States.VALUE_MAX));
    }
    if (role === 'combobox' && tag === 'select') {
      const v = States.selectedLabel(el);
      return v !== '' ? 'value=' + Base.quote(v) : null;
    }
    if (Roles.RANGE.has(role) && role !== 'scrollbar') {
      const vt = Base.flat(el.getAttribute('aria-valuetext'));
      if (vt !== '')
        return 'value=' + Base.quote(Base.clip(vt, States.VALUE_MAX));
      const vn = el.getAttribute('aria-valuenow');
      if (vn !== null && vn.trim() !== '')
        return 'value=' + vn.trim();
      if (tag === 'input' || tag === 'meter')
        return 'value=' + el.value;
      if (tag === 'progress')
        return el.position < 0 ? null : 'value=' + el.value;
      return null;
    }
    if (tag === 'input' && (el.type === 'file')) {
      const files = el.files;
      if (files && files.length > 0) {
        const names = [];
        for (const f of files)
          names.push(f.name);
        return 'value=' + Base.quote(Base.clip(names.join(', '), States.VALUE_MAX));
      }
    }
    if (tag === 'input' && el.type === 'color')
      return 'value=' + el.value;
    return null;
  },
};
