// options.js lists the options of a native select as the snapshot shows
// them (hidden ones left out): each option's label, its group's label,
// and whether it is chosen or disabled. It returns {native: false} for
// any other element.
(function () {
  const el = this;
  if (el.localName !== 'select') return {native: false};
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const win = el.ownerDocument.defaultView;
  const list = Array.from(el.options).filter((o) => !o.hidden && win.getComputedStyle(o).display !== 'none').map((o) => ({
    label: norm(o.label), selected: o.selected, disabled: o.disabled,
    group: o.parentElement && o.parentElement.localName === 'optgroup' ? norm(o.parentElement.label) : '',
  }));
  return {native: true, options: list};
})
