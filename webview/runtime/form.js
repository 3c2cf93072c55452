// SPDX-License-Identifier: GPL-3.0-or-later
//
// The page side of browser_fill_form: what kind of field a ref names, so
// that the C side (webview/tw-tab-form.c) fills it through the action a
// person would use (browser_fill's typing, browser_select's pick, a click
// on a checkbox), and what the field shows afterwards. The acting itself
// stays in actions.js.

const Form = {
  // 'check' for checkboxes, radios and switches, 'select' for dropdowns
  // and listboxes, 'fill' for everything typed into (text fields, text
  // areas, comboboxes with a text box, date and range inputs).
  kind (ctx, el) {
    const role = Roles.role(ctx, el);
    if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio'))
      return 'check';
    if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox' ||
        role === 'menuitemradio')
      return 'check';
    if (el.localName === 'select' || role === 'listbox')
      return 'select';
    return 'fill';
  },

  checked (ctx, el) {
    if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio'))
      return el.checked;
    return el.getAttribute('aria-checked') === 'true';
  },

  // {element, kind, checked?, value?}: the field as it is now.
  field (ctx, args) {
    const el = Refs.resolve(ctx, args.ref);
    const kind = Form.kind(ctx, el);
    const out = { element: Actions.elementInfo(ctx, el, args.ref), kind };
    if (kind === 'check') {
      out.checked = Form.checked(ctx, el);
      out.radio = (el.localName === 'input' && el.type === 'radio') || /radio/.test(out.element.role);
    } else if (el.localName === 'select') {
      const o = el.selectedOptions[0];
      out.value = o ? Actions.optionLabel(o) : '';
    }
    return out;
  },
};

Api.register('form.field', Form.field);
