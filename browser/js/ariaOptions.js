// ariaOptions.js finds the options that belong to the widget: in the listbox
// itself, in the popups named by aria-controls and aria-owns (also of a
// descendant), else every visible option of the page. With want set it
// returns the option whose name matches best (exactly, ignoring case, by
// prefix, then by substring), or null; with listNames, the names of all
// the visible options.
(function (want, listNames) {
  const el = this, doc = el.ownerDocument;
  const clean = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const visible = (o) => {
    if (!o.checkVisibility({checkVisibilityCSS: true})) return false;
    const r = o.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const nameOf = (o) => clean(o.getAttribute('aria-label')) || clean(o.innerText || o.textContent);
  const roots = [];
  const role = (el.getAttribute('role') || '').toLowerCase();
  if (role === 'listbox') roots.push(el);
  const ids = [];
  for (const n of [el, ...el.querySelectorAll('[aria-controls],[aria-owns]')]) {
    for (const a of ['aria-controls', 'aria-owns']) ids.push(...(n.getAttribute(a) || '').split(/\s+/).filter(Boolean));
  }
  for (const id of ids) {
    const r = el.getRootNode().getElementById ? el.getRootNode().getElementById(id) : doc.getElementById(id);
    if (r) roots.push(r);
  }
  let opts = [];
  for (const r of roots) {
    opts.push(...(r.getAttribute('role') === 'option' ? [r] : r.querySelectorAll('[role=option]')));
  }
  opts = opts.filter(visible);
  if (!opts.length) opts = Array.from(doc.querySelectorAll('[role=option]')).filter(visible);
  if (listNames) return opts.map(nameOf).filter(Boolean);
  const w = clean(want), lw = w.toLowerCase();
  const named = opts.map((o) => [o, nameOf(o)]);
  const m = named.find(([, n]) => n === w) || named.find(([, n]) => n.toLowerCase() === lw) ||
    named.find(([, n]) => n.toLowerCase().startsWith(lw)) || named.find(([, n]) => n.toLowerCase().includes(lw));
  return m ? m[0] : null;
})
