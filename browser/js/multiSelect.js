// multiSelect.js finds every option asked for first, and changes nothing
// unless all are found and enabled; then it sets them and fires input and
// change once.
(function (add, remove) {
  const el = this;
  add = add || []; remove = remove || []; // empty arguments arrive as undefined
  if (el.localName !== 'select') return {error: 'notselect'};
  if (el.disabled) return {error: 'disabled'};
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const opts = Array.from(el.options);
  const find = (want) => {
    const w = norm(want), lw = w.toLowerCase();
    return opts.find((o) => norm(o.label) === w || o.value === want) ||
      opts.find((o) => norm(o.label).toLowerCase() === lw || o.value.toLowerCase() === lw);
  };
  const chosen = () => opts.filter((o) => o.selected).map((o) => norm(o.label));
  const all = opts.filter((o) => !o.disabled).map((o) => norm(o.label));
  if (!el.multiple) return {error: 'single', options: all, chosen: chosen()};
  const missing = [], disabled = [], plan = [];
  for (const [list, on] of [[add, true], [remove, false]]) {
    for (const want of list) {
      const m = find(want);
      if (!m) missing.push(want);
      else if (m.disabled) disabled.push(norm(m.label));
      else plan.push([m, on]);
    }
  }
  if (missing.length) return {error: 'nomatch', missing: missing, options: all};
  if (disabled.length) return {error: 'optdisabled', missing: disabled};
  let changed = false;
  el.focus();
  for (const [m, on] of plan) if (m.selected !== on) { m.selected = on; changed = true; }
  if (changed) {
    const win = el.ownerDocument.defaultView;
    el.dispatchEvent(new win.Event('input', {bubbles: true}));
    el.dispatchEvent(new win.Event('change', {bubbles: true}));
  }
  return {changed: changed, chosen: chosen()};
})
