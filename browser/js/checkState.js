// checkState.js describes a checkable control: its kind, whether it is
// checked, and whether the element itself can be clicked (a hidden styled
// input cannot; its label is clicked instead).
(function () {
  const el = this;
  let ctl = el;
  if (el.localName === 'label' && el.control) ctl = el.control;
  if (ctl.localName === 'input' && (ctl.type === 'checkbox' || ctl.type === 'radio')) {
    const shown = (e) => e.checkVisibility({checkVisibilityCSS: true}) && e.getBoundingClientRect().width > 0;
    return {kind: ctl.type, checked: ctl.indeterminate ? 'mixed' : String(ctl.checked),
      disabled: ctl.disabled, clickable: shown(el) || (el === ctl && Array.from(ctl.labels || []).some(shown))};
  }
  const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  const kinds = {checkbox: 'checkbox', switch: 'switch', radio: 'radio', menuitemcheckbox: 'checkbox', menuitemradio: 'radio'};
  if (kinds[role]) {
    return {kind: kinds[role], checked: el.getAttribute('aria-checked') || 'false',
      disabled: el.getAttribute('aria-disabled') === 'true', clickable: true};
  }
  return {kind: ''};
})
