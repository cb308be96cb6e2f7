// snapStates.js: the states the snapshot walker writes after an
// element's name (see snapshot.js). Given the walker's kit, it returns
// states, an element's value, its input type and format, and its states
// (checked, expanded, disabled, focused, …), and deepActive, the focused
// element through shadow roots and same-origin frames.
(function (k) {
  'use strict';

  const {q, clean, cut, attr, trackPercent, dragSource} = k;

  // Inputs without a value of their own to show, and the formats of typed
  // ones.
  const NO_VALUE_TYPES = new Set([
    'checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden',
  ]);
  const TYPED = { date: 'yyyy-mm-dd', time: 'hh:mm', 'datetime-local': 'yyyy-mm-ddThh:mm', month: 'yyyy-mm', week: 'yyyy-Www',
    number: '', range: '', email: '', url: '', tel: '', color: '#rrggbb' };

  // states lists el's value (cut to vmax characters), input type and
  // format, and states; active is the focused element.
  function states(el, role, tag, active, vmax) {
    const s = [];
    const ctl = tag === 'label' && el.control ? el.control : el;
    let v = '';
    if (tag === 'input') {
      if (!NO_VALUE_TYPES.has(el.type)) v = el.type === 'password' ? (el.value ? '••••••••' : '') : el.value;
    } else if (tag === 'textarea') {
      v = el.value;
    } else if (tag === 'select') {
      const o = role === 'combobox' ? el.selectedOptions[0] : null;
      if (o) v = clean(o.label);
    } else if (role === 'textbox' && el.isContentEditable) {
      v = clean(el.innerText);
    } else {
      v = attr(el, 'aria-valuetext') || attr(el, 'aria-valuenow') || '';
      if (!v && role === 'slider') {
        // A handle without ARIA: its position along its track.
        const p = trackPercent(el);
        if (p !== null) v = p + '% of its track';
      }
    }
    if (v) s.push('value=' + q(cut(v, vmax)));
    if (tag === 'input' && el.type in TYPED) {
      s.push('type=' + el.type);
      if (TYPED[el.type]) s.push('format=' + TYPED[el.type]);
      for (const a of ['min', 'max', 'step']) {
        const x = attr(el, a);
        if (x) s.push(a + '=' + q(x));
      }
    }
    if (ctl.localName === 'input' && (ctl.type === 'checkbox' || ctl.type === 'radio')) {
      if (ctl.indeterminate) s.push('mixed');
      else if (ctl.checked) s.push('checked');
    } else {
      const ac = attr(el, 'aria-checked');
      if (ac === 'true') s.push('checked');
      else if (ac === 'mixed') s.push('mixed');
    }
    if (attr(el, 'aria-selected') === 'true') s.push('selected');
    if (attr(el, 'aria-pressed') === 'true') s.push('pressed');
    const ae = attr(el, 'aria-expanded');
    if (ae === 'true') s.push('expanded');
    else if (ae === 'false') s.push('collapsed');
    else if (tag === 'summary') s.push(el.parentElement.open ? 'expanded' : 'collapsed');
    if (ctl.matches(':disabled') || attr(el, 'aria-disabled') === 'true') s.push('disabled');
    if (((tag === 'input' || tag === 'textarea') && el.readOnly && !NO_VALUE_TYPES.has(el.type)) ||
      attr(el, 'aria-readonly') === 'true') s.push('readonly');
    if (ctl.required || attr(el, 'aria-required') === 'true') s.push('required');
    if (el === active) s.push('focused');
    if (dragSource(el)) s.push('draggable');
    return s;
  }

  // deepActive is the focused element, in shadow roots and same-origin
  // frames.
  function deepActive() {
    let a = document.activeElement;
    while (a) {
      if (a.shadowRoot && a.shadowRoot.activeElement) { a = a.shadowRoot.activeElement; continue; }
      if (a.localName === 'iframe' || a.localName === 'frame') {
        let d = null;
        try { d = a.contentDocument; } catch (e) { /* cross-origin */ }
        if (d && d.activeElement && d.activeElement !== d.body) { a = d.activeElement; continue; }
      }
      break;
    }
    return a;
  }

  return {states, deepActive};
})
