// slider.js describes a slider: its kind, bounds and current value.
(function () {
  const el = this;
  const num = (s, d) => { const v = parseFloat(s); return isNaN(v) ? d : v; };
  if (el.localName === 'input' && el.type === 'range') {
    return {kind: 'range', min: num(el.min, 0), max: num(el.max, 100), step: el.step === 'any' ? 0 : num(el.step, 1),
      now: num(el.value, 0), text: el.value, disabled: el.disabled};
  }
  const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0].toLowerCase();
  if (role === 'slider' || role === 'spinbutton') {
    return {kind: 'aria', min: num(el.getAttribute('aria-valuemin'), 0), max: num(el.getAttribute('aria-valuemax'), 100), step: 0,
      now: num(el.getAttribute('aria-valuenow'), NaN), text: el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow') || '',
      disabled: el.getAttribute('aria-disabled') === 'true', focusable: el.tabIndex >= 0};
  }
  const reg = window[Symbol.for('webagent.refs')];
  const h = reg && reg.slider ? reg.slider(el) : null;
  if (h && h.percent !== null) {
    return {kind: 'handle', min: 0, max: 100, step: 0, now: h.percent, text: h.percent + '% of its track', disabled: false, focusable: el.tabIndex >= 0};
  }
  const inner = el.querySelector('input[type=range],[role=slider]');
  if (inner) return {kind: 'inner'};
  return {kind: 'no'};
})
