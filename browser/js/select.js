// select.js picks the option of a native <select> whose label or value
// matches want, exactly or else ignoring case, and fires input and change;
// or says why it cannot (not a select, disabled, no such option).
(function (want) {
  const el = this;
  if (el.localName !== 'select') return {error: 'notselect'};
  if (el.disabled) return {error: 'disabled'};
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const opts = Array.from(el.options);
  const w = norm(want), lw = w.toLowerCase();
  const m = opts.find((o) => norm(o.label) === w || o.value === want) ||
    opts.find((o) => norm(o.label).toLowerCase() === lw || o.value.toLowerCase() === lw);
  if (!m) return {error: 'nomatch', options: opts.filter((o) => !o.disabled).map((o) => norm(o.label))};
  if (m.disabled) return {error: 'optdisabled', chosen: norm(m.label)};
  el.focus();
  // A multiple select keeps its other chosen options.
  if (el.multiple) m.selected = true;
  else el.selectedIndex = m.index;
  const win = el.ownerDocument.defaultView;
  el.dispatchEvent(new win.Event('input', {bubbles: true}));
  el.dispatchEvent(new win.Event('change', {bubbles: true}));
  return {chosen: norm(m.label)};
})
